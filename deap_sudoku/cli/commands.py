"""The ``deap-sudoku`` command line.

Commands: ``solve``, ``check``, ``generate``, ``convert`` and ``bench``.  Exit
codes: 0 success, 1 a puzzle not solved (or not uniquely solvable, for
``check``), 2 bad input or usage, 130 interrupted by Ctrl-C, 143 by SIGTERM.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys

import click
import numpy as np

from ..exact import DIFFICULTIES, SearchBudgetExceeded, count_solutions, generate_graded, generate_puzzle
from ..grid import Puzzle, PuzzleError, PuzzleFileError, Shape, format_grid
from ..io import formats
from ..io.fileio import write_atomic
from ..runs import bench, plots, registry
from ..runs.checkpoint import Checkpoint, CheckpointError, run_identity
from ..runs.interrupt import INTERRUPTED, exit_code, graceful, requested
from ..runs.task import RunResult, Task, run_all, run_task, scoop_is_running

ALGORITHMS = tuple(registry.ALGORITHMS)
GRADED_ATTEMPTS = 10_000
"""Attempts per puzzle of ``generate --difficulty``; attempt ``a`` of puzzle ``i`` is seeded with
``(seed + i) * GRADED_ATTEMPTS + a``, so any puzzle can be remade alone."""


def _input_options(command):
    """--format, --box and --alphabet, shared by every command that reads puzzles."""
    command = click.option("--alphabet", type=click.Choice(tuple(formats.ALPHABETS)), default=None,
                           help="Symbols of the line and dash formats.")(command)
    command = click.option("--box", default=None, metavar="ROWSxCOLS",
                           help="Box shape, e.g. 2x3 (default: squarest).")(command)
    return click.option("--format", "fmt", type=click.Choice(formats.FORMATS), default=None,
                        help="Input format (detected when not given).")(command)


def _budget_flags(command):
    """--population and the budgets, shared by ``solve`` and ``bench`` (see :func:`_budget_options`);
    which algorithm honours which is the registry's ``budgets``."""
    flags = [
        ("--max-nodes", dict(type=click.IntRange(min=1), help="Search budget (backtracking).")),
        ("--max-steps", dict(type=click.IntRange(min=1), help="Step budget (tabu).")),
        ("--max-seconds", dict(type=click.FloatRange(min=0, min_open=True), help="Time budget per puzzle (memetic).")),
        ("--max-generations", dict(type=click.IntRange(min=1), help="Generation budget (GAs).")),
        ("--population", dict(type=click.IntRange(min=2), help="Population size (GAs).")),
    ]
    for name, options in flags:
        command = click.option(name, default=None, **options)(command)
    return command


def _box(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        rows, cols = (int(part) for part in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not ROWSxCOLS, e.g. 2x3") from None
    return rows, cols


class _InputError(click.ClickException):
    """Bad input: a one-line message and exit code 2, never a traceback."""

    exit_code = 2


@contextlib.contextmanager
def _reading(path: str):
    """Turn a bad or unreadable input file into a one-line message and exit code 2."""
    try:
        yield
    except PuzzleFileError as exc:
        first, more = exc.errors[0], len(exc.errors) - 1
        raise _InputError(f"{first}" + (f" (and {more} more; 'deap-sudoku check {path}' lists them all)"
                                        if more else "")) from None
    except PuzzleError as exc:
        raise _InputError(str(exc)) from None
    except OSError as exc:
        raise _InputError(f"{path}: {exc.strerror or exc}") from None


def _load(path: str, fmt: str | None, box: str | None, alphabet: str | None) -> list[Puzzle]:
    with _reading(path):
        puzzles = formats.read(path, format=fmt, box=_box(box), alphabet=alphabet)
    if not puzzles:
        raise _InputError(f"{path}: no puzzle found")
    return puzzles


def _write(out: str, puzzles: list[Puzzle], fmt: str, alphabet: str | None, force: bool) -> None:
    try:
        text = formats.dumps(puzzles, format=fmt, alphabet=alphabet)
    except ValueError as exc:
        raise _InputError(f"{out}: {exc}") from None
    _write_text(out, text, force)


@click.group()
@click.version_option(package_name="deap_sudoku")
def main() -> None:
    """Sudoku with DEAP: solve, check, generate, convert and benchmark puzzles."""


@main.command()
@click.argument("puzzle_file", metavar="FILE|-")
@click.option("--algorithm", "-a", type=click.Choice(ALGORITHMS), default="memetic",
              show_default=True,
              help="How to solve: " + "; ".join(f"{a.name}, {a.description}" for a in registry.ALGORITHMS.values())
                   + ".")
@_input_options
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run.")
@_budget_flags
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None,
              help="Also write the results: solved grids, and unsolved puzzles as given.")
@click.option("--out-format", type=click.Choice(formats.FORMATS), default="line", show_default=True)
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Save the convergence curve (best fitness per generation) as an image (GAs).")
@click.option("--force", is_flag=True, help="Overwrite --out and --plot if they exist.")
@click.option("--progress", is_flag=True, help="Print every generation (GAs) or every 1000 steps (tabu).")
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
              help="Save the run to this file and resume from it if it exists (GAs, one puzzle). "
                   "A checkpoint is a pickle: use only files you wrote.")
@click.option("--checkpoint-every", type=click.IntRange(min=1), default=10, show_default=True,
              help="Generations between checkpoints (one is also written when the run stops).")
def solve(puzzle_file: str, algorithm: str, fmt: str | None, box: str | None, alphabet: str | None,
          seed: int, population: int | None, max_generations: int | None, max_seconds: float | None,
          max_steps: int | None, max_nodes: int | None, out: str | None, out_format: str, plot: str | None, force: bool,
          progress: bool, checkpoint: str | None, checkpoint_every: int) -> None:
    """Solve every puzzle in FILE (or standard input) and print the grids.

    Exit code 0 when every puzzle is solved, 1 when one is not (the best grid is
    printed), 2 for bad input, 130 when interrupted by Ctrl-C and 143 by
    SIGTERM (the GAs and tabu search stop at the next generation, print their
    best grid and write their final checkpoint).
    """
    puzzles = _load(puzzle_file, fmt, box, alphabet)
    _refuse_existing([out, plot], force)
    _refuse_huge_population(population, puzzles)
    options = _budget_options(algorithm, population, max_generations, max_seconds, max_steps, max_nodes)
    saving = None
    if checkpoint is not None:
        saving = _checkpoint(checkpoint, checkpoint_every, algorithm, puzzles, seed, options)
    cooperative = registry.algorithm(algorithm).stoppable  # these stop between generations
    show_progress = (lambda line: click.echo(line, err=True)) if progress else None
    results: list[Puzzle] = []
    curves: list[list[float]] = []
    unsolved = 0
    signum = None
    try:
        with graceful(cooperative=cooperative):
            try:
                for number, puzzle in enumerate(puzzles, start=1):
                    result = run_task(Task(algorithm, puzzle, seed=seed, options=options), requested=requested,
                                      progress=show_progress, checkpoint=saving)
                    if len(puzzles) > 1:
                        click.echo(f"puzzle {number} ({puzzle.shape.name}, {puzzle.num_givens} givens):")
                    click.echo(format_grid(puzzle.shape, np.array(result.grid)))
                    if result.note == INTERRUPTED:
                        signum = requested()
                        saved = f"; checkpoint in {checkpoint}" if checkpoint else ""
                        click.echo(f"interrupted after {result.generations} generations: best so far above, "
                                   f"fitness {result.fitness:g}{saved}", err=True)
                        break
                    click.echo(f"{_status(result)} in {result.seconds:.3f} s{_posedness(puzzle, result)}")
                    unsolved += not result.solved
                    results.append(puzzle.filled(result.grid) if result.solved else puzzle)
                    curves.append(result.minima)
            except KeyboardInterrupt:
                signum = requested() or signal.SIGINT
                click.echo(f"interrupted: {len(results)} of {len(puzzles)} puzzles done", err=True)
    finally:
        with graceful():  # a signal now cannot cut the outputs short
            if out is not None and results:
                _write(out, results, out_format, alphabet, force)
            if plot is not None and any(curves):
                plots.plot_convergence(curves, plot, title=f"{algorithm} on {puzzle_file}", overwrite=force)
    sys.exit(exit_code(signum) if signum else 1 if unsolved else 0)


def _checkpoint(path: str, every: int, algorithm: str, puzzles: list[Puzzle], seed: int, options: dict) -> Checkpoint:
    """The checkpoint of a GA run on one puzzle; a file of another run is refused before anything runs."""
    if not registry.algorithm(algorithm).checkpointable:
        able = ", ".join(registry.names(checkpointable=True))
        raise _InputError(f"--checkpoint works with the GAs ({able}), not {algorithm}")
    if len(puzzles) != 1:
        raise _InputError(f"--checkpoint needs a file with one puzzle; this one has {len(puzzles)}")
    checkpoint = Checkpoint(path, every, run_identity(puzzles[0], algorithm, seed, options))
    try:
        state = checkpoint.read()
    except CheckpointError as exc:
        raise _InputError(str(exc)) from None
    if state is not None:
        click.echo(f"resuming from {path} at generation {state['generation']}", err=True)
    return checkpoint


def _status(result: RunResult) -> str:
    if result.solved:
        return "solved"
    if result.algorithm == "backtracking":
        return "no solution: the search found none" if result.note == "exhausted" else f"not solved: {result.note}"
    if result.note.startswith("no solution"):
        return result.note
    if result.algorithm in ("propagation", "analyzer"):
        return f"not solved: {result.note}"
    return f"no solution found within the budget; best fitness {result.fitness:g}"


POSEDNESS_NODES = 1000
MAX_POPULATION_BYTES = 4 << 30
PEAK_BYTES_PER_CELL = 40  # measured: a 36x36 block GA of 1000 peaks 49 MiB above the bare import


def _refuse_huge_population(population: int | None, puzzles: list[Puzzle]) -> None:
    """Refuse, before allocating anything, a population whose run would need more than 4 GiB
    (grids, offspring and the batched fitness's temporaries: ``PEAK_BYTES_PER_CELL`` per cell)."""
    if population is None:
        return
    cells = max(p.shape.cells for p in puzzles)
    needed = population * cells * PEAK_BYTES_PER_CELL
    if needed > MAX_POPULATION_BYTES:
        raise _InputError(f"--population {population} of {cells}-cell grids needs about {needed / 2**30:.0f} GiB; "
                          f"the limit is {MAX_POPULATION_BYTES >> 30} GiB")


def _posedness(puzzle: Puzzle, result: RunResult) -> str:
    """What a small exact search adds: a solved puzzle with other solutions, or an unsolved one
    with none.  Nothing when the search cannot tell within :data:`POSEDNESS_NODES` nodes."""
    try:
        if result.solved:
            if count_solutions(puzzle, limit=2, max_nodes=POSEDNESS_NODES) > 1:
                return "; the puzzle has more than one solution, this is one of them"
        elif not result.note.startswith("no solution") and result.note != "exhausted" \
                and count_solutions(puzzle, limit=1, max_nodes=POSEDNESS_NODES) == 0:
            return "; the puzzle has no solution (an exact search proves it)"
    except SearchBudgetExceeded:
        pass
    return ""


def _budget_options(algorithm: str, population: int | None, max_generations: int | None, max_seconds: float | None,
                    max_steps: int | None, max_nodes: int | None) -> dict:
    """The budgets given on the command line that ``algorithm`` honours (its registry record's ``budgets``)."""
    given = {"population_size": population, "max_generations": max_generations, "max_seconds": max_seconds,
             "max_steps": max_steps, "max_nodes": max_nodes}
    return {key: given[key] for key in registry.algorithm(algorithm).budgets if given[key] is not None}


def _refuse_existing(paths: list[str | None], force: bool) -> None:
    for path in paths:
        if path is not None and path != "-" and not force and os.path.exists(path):
            raise _InputError(f"{path} exists; refusing to overwrite it; use --force to replace it")


@main.command()
@click.argument("puzzle_file", metavar="FILE|-")
@_input_options
@click.option("--max-nodes", type=click.IntRange(min=1), default=200_000, show_default=True,
              help="Search budget per puzzle for counting solutions.")
def check(puzzle_file: str, fmt: str | None, box: str | None, alphabet: str | None, max_nodes: int) -> None:
    """Validate every puzzle in FILE: givens, conflicts, solvability and uniqueness.

    Exit code 0 when every puzzle is valid with exactly one solution, 1 when one
    has none, several or is undecided, 2 when one cannot be read or has
    conflicting givens.
    """
    with _reading(puzzle_file):
        text, source = formats.read_text(puzzle_file)
        found, errors = formats.scan(text, format=fmt, box=_box(box), alphabet=alphabet, source=source)
    for error in errors:
        click.echo(f"bad: {error}")
    worst = 2 if errors else 0
    for number, (line, puzzle) in enumerate(found, start=1):
        try:
            count = count_solutions(puzzle, limit=2, max_nodes=max_nodes)
            verdict = {0: "no solution", 1: "unique solution"}.get(count, "2 or more solutions")
        except SearchBudgetExceeded:
            count, verdict = -1, f"undecided within {max_nodes} search nodes"
        click.echo(f"{source}:{line}: puzzle {number}, {puzzle.shape.name}, {puzzle.num_givens} givens "
                   f"({100 * puzzle.num_givens / puzzle.shape.cells:.0f} %), {verdict}")
        if count != 1:
            worst = max(worst, 1)
    click.echo(f"{len(found)} valid puzzles, {len(errors)} errors")
    sys.exit(worst)


@main.command()
@click.argument("source_file", metavar="FILE|-")
@click.argument("out", metavar="OUT|-")
@click.option("--to", "to_format", type=click.Choice(formats.FORMATS), required=True, help="Output format.")
@_input_options
@click.option("--to-alphabet", type=click.Choice(tuple(formats.ALPHABETS)), default=None,
              help="Symbols of the line and dash output formats.")
@click.option("--force", is_flag=True, help="Overwrite OUT if it exists.")
def convert(source_file: str, out: str, to_format: str, fmt: str | None, box: str | None, alphabet: str | None,
            to_alphabet: str | None, force: bool) -> None:
    """Convert every puzzle of FILE to another format."""
    _write(out, _load(source_file, fmt, box, alphabet), to_format, to_alphabet, force)


@main.command(name="bench")
@click.argument("datasets", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--algorithm", "-a", "algorithms", type=click.Choice(ALGORITHMS), multiple=True,
              default=("backtracking",), show_default=True, help="Repeat for several algorithms.")
@click.option("--runs", type=click.IntRange(min=1), default=1, show_default=True, help="Seeded runs per puzzle.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run r uses seed SEED+r.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="Only the first N puzzles of each dataset.")
@_budget_flags
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None)
@click.option("--csv", "csv_out", type=click.Path(dir_okay=False), default=None)
@click.option("--markdown", "markdown_out", type=click.Path(dir_okay=False), default=None)
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Success rate and time per dataset, against the share of givens (--plot-by givens) "
                   "or per dataset, e.g. per difficulty class (--plot-by dataset).")
@click.option("--plot-by", type=click.Choice(["givens", "dataset"]), default="givens", show_default=True)
@click.option("--group-by", type=click.Choice(["dataset", "givens"]), default="dataset", show_default=True,
              help="One table row per dataset file, or per grid size and share of givens (for sets of "
                   "one-puzzle files such as inst25x25_45_*.txt).")
@click.option("--force", is_flag=True, help="Overwrite output files that exist.")
def bench_command(datasets: tuple[str, ...], algorithms: tuple[str, ...], runs: int, seed: int, limit: int | None,
                  population: int | None, max_generations: int | None, max_seconds: float | None,
                  max_steps: int | None, max_nodes: int | None, json_out: str | None, csv_out: str | None, markdown_out: str | None,
                  plot: str | None, plot_by: str, group_by: str, force: bool) -> None:
    """Every puzzle x every algorithm x RUNS seeded runs, with a results table.

    Under ``python -m scoop -n N -m deap_sudoku bench ...`` the runs are spread
    over SCOOP workers; the results are the same as serially, seed for seed.
    Ctrl-C stops early and still reports every finished run.
    """
    _refuse_existing([json_out, csv_out, markdown_out, plot], force)
    tasks = []
    for path in datasets:
        name = os.path.basename(path)
        puzzles = _load(path, None, None, None)[:limit]
        _refuse_huge_population(population, puzzles)
        for algorithm in algorithms:
            options = _budget_options(algorithm, population, max_generations, max_seconds, max_steps, max_nodes)
            tasks += [Task(algorithm, puzzle, seed=seed + r, dataset=name, index=i, options=options)
                      for i, puzzle in enumerate(puzzles) for r in range(runs)]
    parallel = scoop_is_running()
    results: list[RunResult] = []
    signum = None
    with graceful(cooperative=False), click.progressbar(
            length=len(tasks), label=f"{len(tasks)} runs" + (" on SCOOP" if parallel else ""), file=sys.stderr) as bar:
        try:
            for result in run_all(tasks, parallel=parallel):
                results.append(result)
                bar.update(1)
        except KeyboardInterrupt:
            signum = requested() or signal.SIGINT
    with graceful():  # from here a signal cannot cut the outputs short: they are being written anyway
        rows = bench.summarise(results, by=group_by)
        missing = bench.missing_runs(tasks, results)
        click.echo(bench.to_markdown(rows), nl=False)
        for path, text in ((json_out, lambda: bench.to_json(rows, results, missing)),
                           (csv_out, lambda: bench.to_csv(rows)),
                           (markdown_out, lambda: bench.to_markdown(rows))):
            if path is not None:
                _write_text(path, text(), force)
        if plot is not None and rows:
            plots.plot_summary(rows, plot, by=plot_by, overwrite=force)
        signum = signum or requested()
    if missing:
        click.echo(f"{len(results)} of {len(tasks)} runs finished; missing: "
                   + "; ".join(bench.describe(task) for task in missing), err=True)
    if signum:
        click.echo(f"interrupted: {len(results)} of {len(tasks)} runs finished", err=True)
        sys.exit(exit_code(signum))


def _write_text(path: str, text: str, force: bool) -> None:
    """Write to a file atomically (never replacing one without ``force``), or to standard output for ``-``."""
    if path == "-":
        click.echo(text, nl=False)
        return
    try:
        write_atomic(path, text, overwrite=force)
    except FileExistsError as exc:
        raise _InputError(f"{exc}; use --force to replace it") from None
    except OSError as exc:
        raise _InputError(f"{path}: {exc.strerror or exc}") from None


@main.command()
@click.option("--box", default="3x3", show_default=True, metavar="ROWSxCOLS", help="Box shape.")
@click.option("--givens", type=click.IntRange(min=0), default=None,
              help="Target number of givens (a unique puzzle may keep more).")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default=None,
              help="Keep making puzzles until one grades as this (see deap_sudoku.exact.grade).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True,
              help="Puzzle i is made with seed SEED+i, so any one can be remade alone.")
@click.option("--unique/--any", default=True, show_default=True,
              help="Keep the solution unique, or just empty cells.")
@click.option("--format", "fmt", type=click.Choice(formats.FORMATS), default="line", show_default=True)
@click.option("--alphabet", type=click.Choice(tuple(formats.ALPHABETS)), default=None)
@click.option("--out", type=click.Path(dir_okay=False), default="-", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
def generate(box: str, givens: int | None, difficulty: str | None, count: int, seed: int, unique: bool, fmt: str,
             alphabet: str | None, out: str, force: bool) -> None:
    """Make reproducible puzzles by emptying cells of random solved grids."""
    if (givens is None) == (difficulty is None):
        raise _InputError("give exactly one of --givens and --difficulty")
    try:
        shape = Shape(*_box(box))
    except ValueError as exc:
        raise _InputError(str(exc)) from None
    if difficulty is not None:
        puzzles = [generate_graded(shape, difficulty, (random.Random((seed + i) * GRADED_ATTEMPTS + attempt)
                                                       for attempt in range(GRADED_ATTEMPTS)))
                   for i in range(count)]
    else:
        puzzles = [generate_puzzle(shape, givens, random.Random(seed + i), unique=unique) for i in range(count)]
    _write(out, puzzles, fmt, alphabet, force)


if __name__ == "__main__":  # pragma: no cover
    main()
