"""``deap-sudoku solve``: every puzzle of a file, with any registered algorithm."""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
import time
from typing import Any

import click
import numpy as np

from ..exact import SearchBudgetExceeded, search
from ..grid import Puzzle
from ..io import formats
from ..runs import plots, registry
from ..algorithms.run import ResumeError
from ..runs.checkpoint import Checkpoint, run_identity
from ..runs.interrupt import INTERRUPTED, exit_code, graceful, requested
from ..runs.auto import AUTO, choose_algorithm
from ..runs.portfolio import portfolio
from ..runs.sandbox import contained_run, contains
from ..runs.task import FAILED_RUNS, RunResult, Task, run_task, scoop_is_running
from .errors import InputError, StandardOutputError, plural, wrap
from .inputs import PUZZLE_FILE, PuzzleInput, input_options
from .help import Sectioned
from .options import ALGORITHM_HELP, given, options_for, refuse_huge_population, run_options
from .numbers import SEED, count
from .outputs import check_format, check_outputs, check_plot, grid_picture, open_checkpoint, write_puzzles, writing
from .progress import Progress, warm_up_announced
from .scoop import LAUNCH_OPTIONS, check_scoop, rerun_under_scoop, scoop_options
from .auto import AUTO_RECORD, SolveAlgorithm, auto_says, named
from .status import best_fitness, ending, spending
from .watch import Watch, watch_option

POSEDNESS_NODES = 1000
POSEDNESS_SECONDS = 0.1
"""Under --max-seconds, the most the well-posedness search after a run may add."""
POSEDNESS_MAX_CELLS = 49 * 49
"""Under --max-seconds, the largest grid the well-posedness search runs on: before its first node,
building a shape's tables and propagating the givens take 0.07 s on a half-filled 49x49, 0.18 s on
a 64x64 and 0.7 s on a 100x100, which no node budget bounds."""


SECTIONS = (
    ("Algorithm", ("algorithm", "seed", "population_size", "cxpb", "mutpb", "select", "fitness", "tournsize")),
    ("Budget per puzzle (default: the algorithm's own)", tuple(o for o in registry.OPTIONS if o.startswith("max_"))),
    ("Input", ("fmt", "box", "alphabet")),
    ("Parallel (SCOOP; the others need --workers)", ("workers", "hosts", "hostfile", *LAUNCH_OPTIONS)),
    ("Output", ("out", "out_format", "plot", "force", "checkpoint", "checkpoint_every")),
    ("Messages", ("unique", "progress_every", "watch_every", "quiet")),
)
"""``solve --help``'s sections (the run options say in brackets which algorithms take them)."""

EXAMPLES = (
    ("data/9x9.txt", "5 bundled puzzles, the fastest way"),
    ("data/9x9-easy.txt -a restart-ga --watch", "watch a GA evolve, clashes marked"),
    ("data/25x25.txt -a cdcl --max-seconds 10", "clause learning, 10 s per puzzle"),
    ("data/9x9.txt -a block-ga --population 200 --progress 50", "a GA, every 50th generation"),
    ("- --out - < puzzles.txt > answers.txt", "the answers alone, in a pipe"),
    ("data/testdata/hard.txt -a tabu-swap --workers 2", "2 seeded chains, the first wins"),
)


@click.command(cls=Sectioned, sections=SECTIONS, examples=EXAMPLES)
@click.argument("puzzle_file", metavar="FILE|-", type=PUZZLE_FILE)
@click.option(
    "--algorithm",
    "-a",
    type=SolveAlgorithm(),
    default=AUTO,
    metavar="NAME",
    help=f"auto (default): the fastest exact search for the puzzle, named in its line; {ALGORITHM_HELP}.",
)
@input_options
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the run.")
@run_options
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the answers to this file (FILE.journal keeps them meanwhile: the same command "
    "continues after a kill); '-': standard output, not the pictures.",
)
@click.option(
    "--out-format", type=click.Choice(formats.FORMATS), default="line", show_default=True, help="Format of --out."
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw each run's course as an image (.png, .svg, .pdf, ...).",
)
@click.option("--force", is_flag=True, help="Overwrite --out and --plot if they exist.")
@click.option(
    "--unique",
    is_flag=True,
    help=f"Also say when a solved puzzle has other solutions (a {POSEDNESS_NODES:,}-node exact search).",
)
@click.option(
    "--progress",
    "progress_every",
    type=count(0),
    is_flag=False,
    flag_value=0,
    default=None,
    metavar="[N]",
    help="Show every N-th generation or step (no N: each generation, every 1000th step).",
)
@watch_option
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no compilation notice.")
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False),
    default=None,
    help="Save the run to this file, and resume from it if it exists (GAs, one puzzle).",
)
@click.option(
    "--checkpoint-every",
    type=count(1),
    default=None,
    help="Generations between checkpoints (default 10; and one when the run stops).",
)
@scoop_options("N seeded chains per puzzle on SCOOP workers, the first answer wins.")
@click.pass_context
def solve(ctx: click.Context, **params: Any) -> None:
    """Solve every puzzle in FILE (- for standard input, data/NAME for a bundled file) and print the grids.

    Clashing cells are marked (red on a terminal, * elsewhere or under NO_COLOR).  Exit code 0: all
    solved; 1: one not (its best grid printed); 2: bad input or usage; 3: a run of a user's algorithm
    failed with an error (the others answered); 130, 143: Ctrl-C, SIGTERM.
    """
    solving = _Solving.checked(ctx)  # every refusal comes here, before any work
    solving.prepare()
    try:
        solving.run()
    finally:
        with graceful(hold=True):  # a signal now cannot cut the outputs short, however many come
            solving.write()
    if solving.lost:
        raise solving.lost[0]  # the files are written: now the guard says that standard output failed
    sys.exit(
        exit_code(solving.signum) if solving.signum else FAILED_RUNS if solving.failed else 1 if solving.unsolved else 0
    )


@dataclasses.dataclass
class _Solving:
    """One ``solve`` command, phase by phase: what was asked, checked before any work
    (:meth:`checked`); the checkpoint, SCOOP, the kernels and the journal made ready
    (:meth:`prepare`); the puzzles run (:meth:`run`, :meth:`one`); the outputs written (:meth:`write`).
    It keeps what the runs have done so far, which the outputs are made of."""

    ctx: click.Context
    puzzle_file: str
    algorithm: str
    seed: int
    out: str | None
    out_format: str
    alphabet: str | None
    plot: str | None
    force: bool
    unique: bool
    progress_every: int | None
    watch_every: int | None
    quiet: bool
    checkpoint: str | None
    checkpoint_every: int | None
    workers: int | None
    hosts: str | None
    hostfile: str | None
    record: registry.Algorithm
    options: dict
    puzzles: PuzzleInput
    journal_file: str | None
    saving: Checkpoint | None = None
    journal: Any = None  # a cli.journal.Journal, imported when needed
    started: float | None = None  # when the kernels' loading began: the first puzzle's budget counts from then
    bar: Any = None  # the Progress while the puzzles run
    answers: list[Puzzle] = dataclasses.field(default_factory=list)  # for --out -, which has no journal
    courses: list[tuple[str, registry.Objective, registry.Trace]] = dataclasses.field(default_factory=list)
    done: int = 0
    unsolved: int = 0
    failed: int = 0  # runs that failed with an error (a user's algorithm)
    signum: int | None = None
    lost: list[StandardOutputError] = dataclasses.field(default_factory=list)  # costs stdout, never files

    @classmethod
    def checked(cls, ctx: click.Context) -> _Solving:
        """The command as asked, every option checked against the algorithm, the outputs and the
        puzzles, or refused with one line before any work."""
        p = ctx.params
        record, workers, checkpoint, out = p["algorithm"], p["workers"], p["checkpoint"], p["out"]
        options = options_for(record, given(p), named(record))
        _applies("--progress", p["progress_every"], record, "stoppable")
        _applies("--watch", p["watch_every"], record, "watchable")
        _applies("--plot", p["plot"], record, "traced")
        _applies("--checkpoint", checkpoint, record, "checkpointable")
        _applies("--workers", workers, record, "stoppable")
        if p["checkpoint_every"] is not None and checkpoint is None:
            raise click.UsageError("--checkpoint-every needs --checkpoint")
        check_scoop(workers, p["hosts"], p["hostfile"])
        for option, value in (
            ("--checkpoint", checkpoint),
            ("--progress", p["progress_every"]),
            ("--watch", p["watch_every"]),
        ):
            if workers is not None and value is not None:
                raise click.UsageError(f"{option} does not apply to --workers: the chains run on other processes")
        journal_file = None if out is None or out == "-" else out + ".journal"  # cli.journal.journal_path's name
        check_outputs(
            {"--out": out, "--out's journal": journal_file, "--plot": p["plot"], "--checkpoint": checkpoint},
            p["force"],
            resumable=("--checkpoint", "--out's journal"),
            inputs=(p["puzzle_file"],),
        )
        check_plot(p["plot"])
        puzzles = PuzzleInput(p["puzzle_file"], p["fmt"], p["box"], p["alphabet"])
        if out is not None:
            for example in puzzles.examples.values():
                check_format("--out-format", p["out_format"], p["alphabet"], example)
        refuse_huge_population(options.get("population_size"), puzzles.examples.values(), (record.name,))
        asked = {f.name: p[f.name] for f in dataclasses.fields(cls) if f.name in p and f.name != "algorithm"}
        return cls(
            ctx=ctx,
            **asked,
            algorithm=record.name,
            record=record,
            options=options,
            puzzles=puzzles,
            journal_file=journal_file,
        )

    def prepare(self) -> None:
        """Open the checkpoint, hand the command to SCOOP (``--workers``), load the kernels and open
        the journal of ``--out``."""
        if self.checkpoint is not None:
            self.saving = _checkpoint(
                self.checkpoint, self.checkpoint_every or 10, self.algorithm, self.puzzles, self.seed, self.options
            )
        if self.workers is not None and not scoop_is_running():
            sys.exit(rerun_under_scoop(self.ctx, self.workers, self.hosts, self.hostfile, drop=("hosts", "hostfile")))
        # Small grids start in Python and load numba only if the run lasts (propagation.choice).  A
        # time budget is the wall time a user sees: loading the kernels counts in the first puzzle's,
        # only a first-ever compilation (announced) does not.
        if not self.auto:  # auto loads each puzzle's algorithm's kernels when it comes to it (solved)
            self.started = self.warmed_up(self.record, self.puzzles.examples.values())
        if self.journal_file is not None and self.out is not None:
            from .journal import Journal  # here, not at start-up: it brings the experiments layer along

            self.journal = Journal(self.out, self.puzzles, self.task_of)
            if self.journal.kept:
                click.echo(
                    f"continuing from {self.journal.path}: {plural(self.journal.kept, 'puzzle')} of "
                    f"{len(self.puzzles)} already done",
                    err=True,
                )

    def warmed_up(self, record: registry.Algorithm, puzzles) -> float | None:
        """Load (or have compiled) ``record``'s kernels for ``puzzles``; when the first puzzle's time
        budget starts: the loading's start, or None after a first-ever compilation (announced)."""
        loading = time.perf_counter()
        compiled_first = warm_up_announced(
            record,
            puzzles,
            quiet=self.quiet,
            compiled=None,
            budgeted="max_seconds" in self.options,
            echo=lambda line: self.bar.echo(line, err=True),  # said while the puzzles run
        )
        return None if compiled_first else loading

    def task_of(self, index: int, puzzle: Puzzle) -> Task:
        dataset = "solve" if self.workers is None else f"solve on {self.workers} workers"
        if self.auto:
            return Task(
                choose_algorithm(puzzle), puzzle, seed=self.seed, dataset=dataset, index=index, options=self.options
            )
        record = self.record if self.workers is None else None  # SCOOP's workers find it by its name
        return Task(
            self.algorithm, puzzle, seed=self.seed, dataset=dataset, index=index, options=self.options, record=record
        )

    @property
    def auto(self) -> bool:
        """Whether each puzzle's algorithm is chosen for it (``-a auto``)."""
        return self.record is AUTO_RECORD

    def _message(self, text: str) -> None:
        click.echo(text, err=True)

    def show_data(self, text: str) -> None:
        """Print ``text`` on standard output, unless standard output has failed already."""
        if not self.lost:
            try:
                self.bar.echo(text)
            except StandardOutputError as exc:
                self.lost.append(exc)

    def run(self) -> None:
        """Every puzzle in turn, until they are done or a signal comes."""
        quiet = self.quiet or self.progress_every is not None or self.watch_every is not None
        with (
            graceful(cooperative=self.record.stoppable),
            Progress(len(self.puzzles), f"solving with {self.algorithm}", "puzzles", quiet=quiet) as self.bar,
        ):
            try:
                for number, puzzle in enumerate(self.puzzles, start=1):
                    if not self.one(number, puzzle):
                        break
                    self.bar.advance()
            except KeyboardInterrupt:
                self.signum = requested() or signal.SIGINT
                self.bar.echo(f"interrupted: {self.done} of {plural(len(self.puzzles), 'puzzle')} done", err=True)

    def one(self, number: int, puzzle: Puzzle) -> bool:
        """Solve (or take from the journal) puzzle ``number`` and say how it went; False once the
        run was interrupted."""
        several, pictures = len(self.puzzles) > 1, self.out != "-"  # with --out -, stdout holds the results alone
        name = f"puzzle {number} of {len(self.puzzles)}" if several else ""
        if several:
            header = f"{name}, {puzzle.shape.name}, {plural(puzzle.num_givens, 'given')}:"
            self.show_data(header) if pictures else self.bar.echo(header, err=True)
        task = self.task_of(number - 1, puzzle)
        kept = self.journal.get(task) if self.journal is not None else None
        result = kept if kept is not None else self.solved(task, number)
        if pictures:
            self.show_data(grid_picture(puzzle, result.grid))
        if result.trace is not None and result.objective is not None:
            self.courses.append((f"puzzle {number}" if several else "", result.objective, result.trace))
        if result.note == INTERRUPTED:
            self.signum = requested()
            saved = f"; checkpoint in {self.checkpoint}" if self.checkpoint and os.path.exists(self.checkpoint) else ""
            self.bar.echo(
                wrap(f"interrupted after {spending(result)}: best so far above, {best_fitness(result)}{saved}"),
                err=True,
            )
            return False
        ran, chosen = (registry.algorithm(task.algorithm), task.algorithm) if self.auto else (self.record, "")
        if kept is None:
            searched = ran.kind == "exact" and bool(registry.budgets(ran))  # a complete search
            status = ending(result, chosen) + _posedness(
                puzzle, result, "max_seconds" in self.options, self.unique, searched
            )
            if self.journal is not None:
                self.journal.keep(task, result)
        else:
            status = f"{ending(result, chosen)} (kept in {self.journal.path} by an earlier run)"
        status += auto_says(result, puzzle) if self.auto else ""
        self.bar.echo(wrap(f"{name + ': ' if several else ''}{status}"), err=True)
        self.unsolved += not result.solved
        self.failed += bool(result.error)
        self.done += 1
        if self.journal is None and self.out is not None:
            self.answers.append(_answer(puzzle, result))
        return True

    def solved(self, task: Task, number: int) -> RunResult:
        """The run of ``task``: on SCOOP's workers, or here (the first puzzle's time budget counting
        from the kernels' loading)."""
        if self.workers is not None:
            return portfolio(task, self.workers, requested=requested)
        started = self.started if number == 1 else None
        if self.auto:
            started = self.warmed_up(registry.algorithm(task.algorithm), [task.puzzle])

        def run() -> RunResult:
            return run_task(
                task,
                requested=requested,
                progress=(lambda line: click.echo(line, err=True)) if self.progress_every is not None else None,
                progress_every=self.progress_every or None,
                checkpoint=self.saving,
                censor=False,  # an answer found late is still the answer asked for
                started=started,
                watch=None if self.watch_every is None else Watch(task.puzzle, self.watch_every, self._message),
            )

        try:  # a user's algorithm in a process of its own: one that ends it or hangs is a failed run
            return contained_run(task, run, stop=requested) if contains(task) else run()
        except ResumeError as exc:
            raise InputError(f"{self.checkpoint}: {exc}") from None

    def write(self) -> None:
        """The outputs of what was done: --out once every puzzle is done (else the journal keeps the
        answers so far), --out -, the plot."""
        journal, out = self.journal, self.out
        if journal is not None and self.done == len(self.puzzles):
            answers = (_answer(p, journal.answer(self.task_of(i, p))) for i, p in enumerate(self.puzzles))
            write_puzzles(journal.out, answers, self.out_format, self.alphabet, self.force)
            journal.finish()
        elif journal is not None and self.done:
            left = "; the existing file is left as it was" if os.path.exists(journal.out) else ""
            click.echo(
                f"{out} is written when every puzzle is done{left}: {plural(self.done, 'answer')} so far "
                f"{'is' if self.done == 1 else 'are'} kept in {journal.path}, and the same command continues "
                "from there",
                err=True,
            )
        elif out == "-" and self.answers:
            write_puzzles(out, self.answers, self.out_format, self.alphabet, self.force)
        if self.plot is not None and self.courses:
            title = f"{self.algorithm} on {_short_name(self.puzzle_file)}"
            with writing(self.plot):
                plots.plot_convergence(self.courses, self.plot, title=title, overwrite=self.force)
        self.signum = self.signum or requested()


def _answer(puzzle: Puzzle, result: RunResult) -> Puzzle:
    """What --out holds for a puzzle: its solution, or the puzzle as given when unsolved."""
    return puzzle.filled(np.asarray(result.grid)) if result.solved else puzzle


def _applies(option: str, value: object, record: registry.Algorithm, ability: str) -> None:
    """Refuse ``option`` for an algorithm without ``ability`` (``stoppable``, ``traced``, ...)."""
    if value is not None and not getattr(record, ability):
        takers = ", ".join(a.name for a in registry.ALGORITHMS.values() if getattr(a, ability))
        raise click.UsageError(f"{option} does not apply to {named(record)}; it applies to {takers}")


def _short_name(path: str) -> str:
    return "standard input" if path == "-" else os.path.basename(path)


def _posedness(
    puzzle: Puzzle, result: RunResult, budgeted: bool = False, unique: bool = False, searched: bool = False
) -> str:
    """What a small exact search adds: a solved puzzle with other solutions (asked for with
    ``unique``), or an unsolved one with none.  Not after a complete search (``searched``) that ran
    out of time: it searched more than the small one would, and the budget is spent.  Nothing
    when the search cannot tell within
    :data:`POSEDNESS_NODES` nodes, or, under a time budget, on a grid larger than
    :data:`POSEDNESS_MAX_CELLS`, or within :data:`POSEDNESS_SECONDS` without
    loading the compiled search for it (numba loaded by the run is not enough: loading the search's
    cached kernels took 0.3-0.4 s after a 49x49 ``cdcl`` run, past the budget)."""
    limits: dict[str, Any] = dict(max_nodes=POSEDNESS_NODES)
    if budgeted and puzzle.shape.cells > POSEDNESS_MAX_CELLS:
        return ""
    if budgeted:
        loaded = "deap_sudoku.exact.backtracking_compiled" in sys.modules
        limits.update(max_seconds=POSEDNESS_SECONDS, compiled=None if loaded else False)
    try:
        if result.solved and unique:
            if search(puzzle, limit=2, **limits).count > 1:
                return "; the puzzle has more than one solution, this is one of them"
        elif (
            not result.solved
            and not (searched and budgeted)
            and not result.note.startswith("no solution")
            and result.note != "exhausted"
            and search(puzzle, limit=1, **limits).count == 0
        ):
            return "; the puzzle has no solution (an exact search proves it)"
    except SearchBudgetExceeded:
        pass
    return ""


def _checkpoint(path: str, every: int, algorithm: str, puzzles: PuzzleInput, seed: int, options: dict) -> Checkpoint:
    """The checkpoint of a GA run on one puzzle; a file of another run is refused before anything runs."""
    if len(puzzles) != 1:
        raise InputError(f"--checkpoint needs a file with one puzzle; this one has {len(puzzles)}")
    puzzle = next(iter(puzzles))
    return open_checkpoint(path, every, run_identity(puzzle, algorithm, seed, options), puzzle)
