"""A contract check for operators, in the spirit of scikit-learn's ``check_estimator``.

``check_operator(my_mutation, puzzle)`` runs an ``init_``, ``cx_``, ``mut_``, ``eval_`` or ``sel_``
function the way DEAP's algorithms and this package's loops call it, and raises
:class:`OperatorContractError` naming the first promise it breaks:

- DEAP's contract: variations change their individuals in place and return them in a tuple, and
  leave the fitness to the algorithm; an evaluation returns a tuple of numbers, one per weight, and
  changes nothing; a selection returns ``k`` members of the population and changes nothing;
- the givens stay where they are and every value is one of the grid's;
- the representation's invariant is kept where the operator claims one (``keeps="block"``: every
  box a permutation, ``"row"``: every row), read from its ``keeps`` attribute unless given;
- a seeded ``rng`` gives the same result twice (an operator that draws from anything else does not).

The package's tests run it over every public operator, so a new one is checked without anyone
listing it.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable

import numpy as np

from ..exact.backtracking import solve
from ..grid.puzzle import Puzzle
from .fitness import optimum
from .individual import Individual, individual_class
from .init import init_block_permutation, init_free_cells, init_row_permutation

__all__ = ["check_operator", "OperatorContractError", "KINDS"]

KINDS = ("init", "cx", "mut", "eval", "sel")
"""The operator kinds, by name prefix: ``init_``, ``cx_``, ``mut_``, ``eval_``, ``sel_``."""

_INIT = {"block": init_block_permutation, "row": init_row_permutation, None: init_free_cells}


class OperatorContractError(AssertionError):
    """An operator broke a promise :func:`check_operator` checks; the message says which."""


def check_operator(
    operator: Callable,
    puzzle: Puzzle,
    *,
    kind: str | None = None,
    keeps: str | None = None,
    trials: int = 10,
    **options,
) -> None:
    """Check ``operator`` on ``puzzle`` (see the module's text); ``options`` are the keyword arguments
    it is registered with (``tournsize=3``).  ``kind`` is read from the name's prefix unless given,
    ``keeps`` from the operator's ``keeps`` attribute.  Returns ``None``; raises
    :class:`OperatorContractError` at the first breach, ``ValueError`` for a kind it cannot tell."""
    name = getattr(operator, "__name__", repr(operator))
    kind = kind or name.split("_", 1)[0]
    if kind not in KINDS:
        raise ValueError(f"{name}: the kind of operator is one of {', '.join(KINDS)} (its name's prefix, or kind=)")
    keeps = keeps if keeps is not None else getattr(operator, "keeps", None)
    if keeps not in _INIT:
        raise ValueError(f"{name}: keeps must be 'block', 'row' or None, not {keeps!r}")
    call = _Caller(operator, puzzle, options)
    {"init": _check_init, "cx": _check_variation, "mut": _check_variation, "eval": _check_eval, "sel": _check_sel}[
        kind
    ](call, puzzle, keeps, trials, kind)


class _Caller:
    """Calls the operator with ``puzzle=`` and ``rng=`` where its signature takes them."""

    def __init__(self, operator: Callable, puzzle: Puzzle, options: dict) -> None:
        self.operator, self.name = operator, getattr(operator, "__name__", repr(operator))
        parameters = inspect.signature(operator).parameters
        self.takes_rng = "rng" in parameters
        self.arity = sum(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in parameters.values())
        self.variadic = any(p.kind is p.VAR_POSITIONAL for p in parameters.values())
        self.keywords = dict(options)
        if "puzzle" in parameters:
            self.keywords["puzzle"] = puzzle

    def __call__(self, *args, seed: int = 0):
        extra = {"rng": random.Random(seed)} if self.takes_rng else {}
        return self.operator(*args, **self.keywords, **extra)

    def fail(self, message: str) -> None:
        raise OperatorContractError(f"{self.name}: {message}")


def _grid(individual) -> np.ndarray:
    return np.asarray(individual).astype(np.int64)


def _check_grid(call: _Caller, individual, puzzle: Puzzle, keeps: str | None, what: str) -> None:
    values = _grid(individual)
    if values.shape != (puzzle.shape.cells,):
        call.fail(f"{what} has shape {values.shape}, not the grid's ({puzzle.shape.cells},)")
    if values.min() < 1 or values.max() > puzzle.n:
        call.fail(f"{what} holds {int(values.min() if values.min() < 1 else values.max())}, outside 1..{puzzle.n}")
    if not np.array_equal(values[puzzle.givens], puzzle.cells[puzzle.givens]):
        call.fail(f"{what} moved a given")
    units = {"block": puzzle.shape.boxes, "row": puzzle.shape.units[: puzzle.n]}.get(keeps or "")
    if units is not None and not np.all(np.sort(values[units], axis=1) == np.arange(1, puzzle.n + 1)):
        call.fail(f"{what} is no longer a {keeps}-permutation, which the operator claims to keep")


def _individuals(puzzle: Puzzle, keeps: str | None, count: int, seed: int, icls: type = Individual) -> list:
    rng = random.Random(seed)
    return [_INIT[keeps](icls, puzzle=puzzle, rng=rng) for _ in range(count)]


def _check_init(call: _Caller, puzzle: Puzzle, keeps: str | None, trials: int, kind: str) -> None:
    for seed in range(trials):
        individual = call(Individual, seed=seed)
        if not isinstance(individual, Individual):
            call.fail(f"returned a {type(individual).__name__}, not an instance of the class it was given")
        _check_grid(call, individual, puzzle, keeps, "the individual")
        if call.takes_rng and not np.array_equal(call(Individual, seed=seed), individual):
            call.fail("the same seed gave another individual")


def _check_variation(call: _Caller, puzzle: Puzzle, keeps: str | None, trials: int, kind: str) -> None:
    count = 1 if kind == "mut" else max(call.arity, 2 if not call.variadic else 3)
    for seed in range(trials):
        parents = _individuals(puzzle, keeps, count, seed)
        for parent in parents:
            parent.fitness.values = (7.0,)
        twins = [Individual(parent.copy()) for parent in parents]
        result = call(*parents, seed=seed)
        if not isinstance(result, tuple):
            alias = "mate" if kind == "cx" else "mutate"
            call.fail(f"returned a {type(result).__name__}, not a tuple (DEAP's toolbox.{alias} contract)")
        if len(result) != count or any(a is not b for a, b in zip(result, parents)):
            call.fail("did not return the individuals it was given, changed in place")
        for child in result:
            _check_grid(call, child, puzzle, keeps, "a child")
            if not child.fitness.valid or child.fitness.values != (7.0,):
                call.fail("touched the fitness, which is the algorithm's to invalidate")
        again = call(*twins, seed=seed)
        if call.takes_rng and any(not np.array_equal(a, b) for a, b in zip(result, again)):
            call.fail("the same seed and parents gave other children")


def _check_eval(call: _Caller, puzzle: Puzzle, keeps: str | None, trials: int, kind: str) -> None:
    weights = getattr(call.operator, "weights", None)
    icls = individual_class(call.operator) if weights is not None else Individual  # its direction's class
    for individual in _individuals(puzzle, keeps, trials, 0, icls):
        before = individual.copy()
        values = call(individual)
        if not isinstance(values, tuple) or not values:
            call.fail(f"returned {values!r}, not a tuple of numbers (DEAP's toolbox.evaluate contract)")
        if weights is not None and len(values) != len(weights):
            call.fail(f"returned {len(values)} values for {len(weights)} weights")
        if not all(isinstance(v, (int, float, np.integer, np.floating)) for v in values):
            call.fail(f"returned {values!r}, not numbers")
        if not np.array_equal(individual, before):
            call.fail("changed the individual it evaluated")
        if call(individual) != values:
            call.fail("gave another value for the same individual")
    answer = solve(puzzle)
    if answer is not None and weights is not None:
        best, scored = optimum(call.operator, puzzle), call(icls(answer.cells.copy()))[0]
        if scored != best:
            call.fail(f"scored a solution {scored}, not the optimum {best}")


def _check_sel(call: _Caller, puzzle: Puzzle, keeps: str | None, trials: int, kind: str) -> None:
    population = _individuals(puzzle, keeps, 10, 0)
    scores = list(range(10))
    random.Random(0).shuffle(scores)  # in no order: a selection that sorts the population in place changes it
    for score, individual in zip(scores, population):
        individual.fitness.values = (float(score),)  # minimised (Individual): score 0 is the best
    order = [id(individual) for individual in population]
    best, worst = population[scores.index(0)], population[scores.index(9)]
    picked = {0: 0, 9: 0}
    for seed in range(max(trials, 20)):
        chosen = call(population, 5, seed=seed)
        if len(chosen) != 5:
            call.fail(f"returned {len(chosen)} individuals, not the k=5 asked for")
        if any(all(member is not individual for individual in population) for member in chosen):
            call.fail("returned an individual that is not a member of the population")
        if [id(individual) for individual in population] != order:
            call.fail("reordered or changed the population")
        again = call(population, 5, seed=seed)
        if call.takes_rng and [id(m) for m in again] != [id(m) for m in chosen]:
            call.fail("the same seed chose other individuals")
        for rank, individual in ((0, best), (9, worst)):
            picked[rank] += sum(member is individual for member in chosen)
    if picked[0] < picked[9]:
        call.fail(
            f"chose the worst individual ({picked[9]} times) more often than the best ({picked[0]}) when minimising"
        )
