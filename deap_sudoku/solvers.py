"""Exact solvers: constraint propagation, backtracking search, solution counting, verification.

They are the project's verifiers, the uniqueness check of the puzzle
generator, and the yardstick the evolutionary solvers are measured against.

Candidates are kept as one integer bitmask per cell (bit ``v - 1`` for value
``v``), so any side up to :data:`~deap_sudoku.shape.MAX_SIDE` works.
Propagation follows Norvig's "Solving Every Sudoku Puzzle": a cell left with
one candidate takes it and removes it from its peers (naked single), and a
value with one place left in a unit goes there (hidden single).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

import numpy as np

from .puzzle import Puzzle, value_dtype
from .shape import Shape

__all__ = [
    "Propagation", "SearchResult", "SearchBudgetExceeded",
    "propagate", "search", "solve", "count_solutions", "is_unique", "verify",
]


class SearchBudgetExceeded(RuntimeError):
    """The search visited ``max_nodes`` nodes without an answer."""


@dataclass(frozen=True)
class Propagation:
    """What constraint propagation alone deduced from a puzzle.

    ``values`` holds every cell that propagation fixed (the givens included),
    ``0`` elsewhere; ``candidates`` the values still possible for each cell.
    On a ``contradiction`` (a cell or a unit without a possible value) the
    other fields describe the state where it was found.
    """

    puzzle: Puzzle
    values: np.ndarray
    candidates: tuple[frozenset[int], ...]
    contradiction: bool

    @property
    def solved(self) -> bool:
        return not self.contradiction and bool(np.all(self.values))

    @property
    def filled(self) -> int:
        """How many empty cells propagation filled."""
        return int(np.count_nonzero(self.values)) - self.puzzle.num_givens


@dataclass(frozen=True)
class SearchResult:
    """Solutions found (at most ``limit``), search nodes visited, and whether the tree was exhausted."""

    solutions: tuple[Puzzle, ...]
    nodes: int
    exhausted: bool

    @property
    def count(self) -> int:
        return len(self.solutions)


@dataclass(frozen=True)
class _Context:
    """Per-shape tables as plain Python tuples, which the inner loops index fastest."""

    n: int
    full: int
    peers: tuple[tuple[int, ...], ...]
    units: tuple[tuple[int, ...], ...]
    cell_units: tuple[tuple[int, ...], ...]
    # Each line-box intersection: (its cells, the line's other segments, the box's other segments,
    # the line's other cells, the box's other cells), segments as indices into the segment list.
    segments: tuple[tuple[int, ...], ...]
    intersections: tuple[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]


@functools.lru_cache(maxsize=None)
def _context(shape: Shape) -> _Context:
    n = shape.n
    box_of = {c: b for b, box in enumerate(shape.boxes.tolist()) for c in box}
    segments: list[tuple[int, ...]] = []
    key: dict[tuple[str, int, int], int] = {}
    for kind, lines in (("row", shape.rows.tolist()), ("col", shape.cols.tolist())):
        for li, line in enumerate(lines):
            for b in sorted({box_of[c] for c in line}):
                key[kind, li, b] = len(segments)
                segments.append(tuple(c for c in line if box_of[c] == b))
    intersections = []
    for (kind, li, b), s in key.items():
        line_segs = tuple(i for (k, l, _), i in key.items() if k == kind and l == li and i != s)
        box_segs = tuple(i for (k, _, bb), i in key.items() if k == kind and bb == b and i != s)
        line_rest = tuple(c for i in line_segs for c in segments[i])
        box_rest = tuple(c for i in box_segs for c in segments[i])
        intersections.append((s, line_segs, box_segs, line_rest, box_rest))
    return _Context(n, (1 << n) - 1,
                    tuple(tuple(p) for p in shape.peers.tolist()),
                    tuple(tuple(u) for u in shape.units.tolist()),
                    tuple(tuple(u) for u in shape.cell_units.tolist()),
                    tuple(segments), tuple(intersections))


def _initial(puzzle: Puzzle, ctx: _Context) -> tuple[list[int], list[int]]:
    cells = puzzle.cells.tolist()
    cands = [1 << (v - 1) if v else ctx.full for v in cells]
    return cands, [i for i, v in enumerate(cells) if v]


def _propagate(cands: list[int], queue: list[int], ctx: _Context, hidden: bool, locked: bool,
               dirty: set[int] | None = None) -> bool:
    """Propagate the singletons in ``queue`` through ``cands`` in place; False on contradiction.

    ``dirty`` holds the units whose cells changed since ``cands`` was last at a
    fixed point (all units when not given); only those are scanned for hidden
    singles, which keeps a search node cheap on large grids.
    """
    peers, cell_units = ctx.peers, ctx.cell_units
    if dirty is None:
        dirty = set(range(len(ctx.units)))
    while True:
        while queue:
            cell = queue.pop()
            mask = cands[cell]
            keep = ~mask
            for p in peers[cell]:
                pm = cands[p]
                if pm & mask:
                    pm &= keep
                    if not pm:
                        return False
                    cands[p] = pm
                    dirty.update(cell_units[p])
                    if not pm & (pm - 1):
                        queue.append(p)
        if not hidden:
            return True
        full, units = ctx.full, ctx.units
        scan = sorted(dirty)  # a fixed order, which the compiled repair kernel repeats exactly
        dirty.clear()
        for u in scan:
            unit = units[u]
            once = twice = 0
            for c in unit:
                m = cands[c]
                twice |= once & m
                once |= m
            if once != full:
                return False
            single = once & ~twice
            if single:
                for c in unit:
                    m = cands[c]
                    h = m & single
                    if h and h != m:
                        if h & (h - 1):
                            return False  # one cell is the only place for two values
                        cands[c] = h
                        dirty.update(cell_units[c])
                        queue.append(c)
        if queue:
            continue
        if not locked:
            return True
        changed = _locked_candidates(cands, queue, dirty, ctx)
        if changed is None:
            return False
        if not changed:
            return True


def _locked_candidates(cands: list[int], queue: list[int], dirty: set[int], ctx: _Context) -> bool | None:
    """Box-line reduction: a value confined to one line-box intersection within the line (or the box)
    is removed from the rest of the box (or the line).  New singletons go to ``queue``.

    Returns whether anything changed, or ``None`` on a contradiction.
    """
    unions = []
    for seg in ctx.segments:
        u = 0
        for c in seg:
            u |= cands[c]
        unions.append(u)
    changed = False
    for s, line_segs, box_segs, line_rest, box_rest in ctx.intersections:
        here = unions[s]
        in_line = in_box = 0
        for i in line_segs:
            in_line |= unions[i]
        for i in box_segs:
            in_box |= unions[i]
        for confined, rest in ((here & ~in_line & in_box, box_rest), (here & ~in_box & in_line, line_rest)):
            if confined:
                keep = ~confined
                for c in rest:
                    m = cands[c]
                    if m & confined:
                        m &= keep
                        if not m:
                            return None
                        cands[c] = m
                        dirty.update(ctx.cell_units[c])
                        changed = True
                        if not m & (m - 1):
                            queue.append(c)
    return changed


def _values(cands: list[int], dtype: np.dtype) -> np.ndarray:
    return np.fromiter((m.bit_length() if m and not m & (m - 1) else 0 for m in cands),
                       dtype=dtype, count=len(cands))


def _candidate_sets(cands: list[int]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(v + 1 for v in range(m.bit_length()) if m >> v & 1) for m in cands)


def propagate(puzzle: Puzzle, *, hidden_singles: bool = True,
              locked_candidates: bool = False) -> Propagation:
    """Fill every cell that logic alone forces, without guessing.

    With ``hidden_singles=False`` this is the classic "constraint analyzer":
    naked singles repeated to a fixed point.
    """
    ctx = _context(puzzle.shape)
    cands, queue = _initial(puzzle, ctx)
    ok = _propagate(cands, queue, ctx, hidden_singles, locked_candidates)
    return Propagation(puzzle, _values(cands, value_dtype(ctx.n)), _candidate_sets(cands), not ok)


def search(puzzle: Puzzle, *, limit: int = 1, max_nodes: int | None = None,
           hidden_singles: bool = True, locked_candidates: bool = True,
           rng: random.Random | None = None) -> SearchResult:
    """Depth-first search with propagation at every node and the minimum-remaining-values rule.

    Stops after ``limit`` solutions (``limit=2`` answers "is it unique?").
    Each node is one tentative assignment followed by propagation (naked and
    hidden singles, and box-line reduction unless ``locked_candidates`` is off).
    With ``rng`` the value order and ties between equally constrained cells
    are random; without it the search is deterministic.

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes did not settle the question.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    ctx = _context(puzzle.shape)
    dtype = value_dtype(ctx.n)
    cands, queue = _initial(puzzle, ctx)
    solutions: list[Puzzle] = []
    nodes = 1
    if not _propagate(cands, queue, ctx, hidden_singles, locked_candidates):
        return SearchResult((), nodes, True)
    stack: list[tuple[list[int], int, int]] = []
    state: list[int] | None = cands
    while True:
        if state is not None:
            cell = _most_constrained(state, rng)
            if cell < 0:
                solutions.append(puzzle.filled(_values(state, dtype)))
                if len(solutions) >= limit:
                    return SearchResult(tuple(solutions), nodes, False)
            else:
                options = state[cell]
                bits = []
                while options:
                    bit = options & -options
                    bits.append(bit)
                    options ^= bit
                if rng is not None:
                    rng.shuffle(bits)
                stack.extend((state, cell, bit) for bit in reversed(bits))
        if not stack:
            return SearchResult(tuple(solutions), nodes, True)
        if max_nodes is not None and nodes >= max_nodes:
            raise SearchBudgetExceeded(f"no answer after {nodes} search nodes")
        parent, cell, bit = stack.pop()
        nodes += 1
        state = parent.copy()
        state[cell] = bit
        if not _propagate(state, [cell], ctx, hidden_singles, locked_candidates, set(ctx.cell_units[cell])):
            state = None


def _most_constrained(cands: list[int], rng: random.Random | None = None) -> int:
    """The undecided cell with the fewest candidates (ties: the first, or a random one with
    ``rng``), or -1 when every cell is decided."""
    best, best_count, ties = -1, 1 << 30, []
    for cell, m in enumerate(cands):
        if m & (m - 1):
            count = m.bit_count()
            if count < best_count:
                best, best_count, ties = cell, count, [cell]
                if count == 2 and rng is None:
                    break
            elif count == best_count and rng is not None:
                ties.append(cell)
    return rng.choice(ties) if rng is not None and ties else best


def solve(puzzle: Puzzle, *, max_nodes: int | None = None, seed: int = 0) -> Puzzle | None:
    """A solution, or ``None`` when the puzzle provably has none.

    Search times on hard large grids are heavy-tailed, so after a first
    deterministic search this runs randomised ones (random value order and
    tie-breaks, seeded by ``seed``) with a node budget that grows by half
    after each restart, the remedy of Gomes,
    Selman & Kautz ("Heavy-tailed phenomena in satisfiability and constraint
    satisfaction problems", 2000).  It stays complete: the budget grows
    without bound, and a search that exhausts its tree proves there is no
    solution.

    :raises SearchBudgetExceeded: when ``max_nodes`` nodes in all did not settle it.
    """
    rng = random.Random(seed)
    order: random.Random | None = None  # the first search is the deterministic one
    budget, spent = _FIRST_BUDGET, 0
    while True:
        if max_nodes is not None:
            budget = min(budget, max_nodes - spent)
        try:
            result = search(puzzle, limit=1, max_nodes=budget, rng=order)
        except SearchBudgetExceeded:
            spent += budget
            if max_nodes is not None and spent >= max_nodes:
                raise SearchBudgetExceeded(f"no answer after {spent} search nodes") from None
            budget += budget // 2
            order = rng
            continue
        return result.solutions[0] if result.solutions else None


_FIRST_BUDGET = 200


def count_solutions(puzzle: Puzzle, *, limit: int = 2, max_nodes: int | None = None) -> int:
    """The number of solutions, counted up to ``limit``."""
    return search(puzzle, limit=limit, max_nodes=max_nodes).count


def is_unique(puzzle: Puzzle, *, max_nodes: int | None = None) -> bool:
    """True when the puzzle has exactly one solution."""
    return count_solutions(puzzle, limit=2, max_nodes=max_nodes) == 1


def verify(grid: Puzzle | np.ndarray | list[int], puzzle: Puzzle | None = None) -> bool:
    """Is ``grid`` a complete, valid solution (and does it keep every given of ``puzzle``)?

    ``grid`` may be a :class:`Puzzle`, a flat or square array or a list; its
    shape comes from ``puzzle`` when one is given, else from its size.
    """
    if isinstance(grid, Puzzle):
        shape, cells = grid.shape, grid.cells
    else:
        cells = np.asarray(grid).ravel()
        if puzzle is not None:
            shape = puzzle.shape
        else:
            try:
                shape = Shape.for_cells(cells.size)
            except ValueError:
                return False
    if cells.size != shape.cells or not np.issubdtype(cells.dtype, np.integer):
        return False
    if puzzle is not None:
        if puzzle.shape != shape:
            return False
        givens = puzzle.givens
        if not np.array_equal(cells[givens], puzzle.cells[givens]):
            return False
    in_units = np.sort(cells[shape.units], axis=1)
    return bool(np.array_equal(in_units, np.broadcast_to(np.arange(1, shape.n + 1), in_units.shape)))


def __getattr__(name: str):
    """``solvers.tabu_search`` and ``solvers.TabuResult`` live in :mod:`deap_sudoku.tabu` (imported lazily:
    tabu search builds on the operators, which build on this module)."""
    if name in ("tabu_search", "TabuResult"):
        from . import tabu
        return getattr(tabu, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
