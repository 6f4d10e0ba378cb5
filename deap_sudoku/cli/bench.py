"""``deap-sudoku bench``: every puzzle x every algorithm x seeded runs, serially or over SCOOP workers."""

from __future__ import annotations

import itertools
import os
import signal
import sys
from typing import TYPE_CHECKING

import click

from ..runs import registry
from ..runs.interrupt import exit_code, graceful, requested
from ..runs.task import scoop_is_running
from .errors import InputError, plural
from .inputs import PUZZLE_FILE_HELP, PuzzleFile, PuzzleInput
from .options import (
    ALGORITHM,
    ALGORITHM_HELP,
    DEFAULT_ALGORITHM,
    MAX_COUNT,
    SEED,
    count,
    flag,
    given,
    options_for,
    refuse_huge_population,
    run_options,
)
from ..io.fileio import name_problem
from .outputs import check_outputs, check_plot, hold_lock, write_text, writing
from .progress import Progress, warm_up_announced
from .scoop import check_scoop, rerun_under_scoop, scoop_options, started_as, starter_gone

if TYPE_CHECKING:
    from ..experiments import Experiment

SCOOP_OPTIONS = ("workers", "hosts", "hostfile")
"""The options that start SCOOP; the command SCOOP then runs gets every other option as given."""
MISSING_SHOWN = 20
"""Lines of missing runs on standard error after an interrupt (the JSON output lists them all)."""


@click.command(name="bench", epilog=PUZZLE_FILE_HELP)
@click.argument(
    "datasets",
    nargs=-1,
    required=True,
    type=PuzzleFile(stdin=False, patterns=True),
    callback=lambda ctx, param, matched: tuple(path for paths in matched for path in paths),
)
@click.option(
    "--algorithm",
    "-a",
    "algorithms",
    type=ALGORITHM,
    multiple=True,
    default=(DEFAULT_ALGORITHM,),
    show_default=True,
    help=f"Repeat for several algorithms: {ALGORITHM_HELP}.",
)
@click.option("--runs", type=count(1), default=1, show_default=True, help="Seeded runs per puzzle.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Run r uses seed SEED+r.")
@click.option("--limit", type=count(1), default=None, help="Only the first N puzzles of each dataset.")
@run_options
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the summary and every run as JSON to this file ('-': standard output, instead of the table).",
)
@click.option(
    "--csv",
    "csv_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the summary as CSV to this file ('-': standard output, instead of the table).",
)
@click.option(
    "--markdown",
    "markdown_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the summary table as Markdown to this file.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw success rate and time against the share of givens (--plot-by givens) "
    "or per dataset, e.g. per difficulty class (--plot-by dataset), as an image (.png, .svg, ...).",
)
@click.option(
    "--plot-by",
    type=click.Choice(["givens", "dataset"]),
    default="givens",
    show_default=True,
    help="The plot's x axis.",
)
@click.option(
    "--group-by",
    type=click.Choice(["dataset", "givens"]),
    default="dataset",
    show_default=True,
    help="One table row per dataset file, or per grid size and share of givens (for sets of "
    "one-puzzle files such as inst25x25_45_*.txt).",
)
@click.option(
    "--ecdf",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw the run-time ECDF, the share of runs solved against evaluations (log axis), one line per "
    "algorithm, as an image.",
)
@click.option(
    "--fixed-budget",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw the median best-so-far fitness against evaluations with its interquartile band, one line per "
    "GA and a panel per fitness, as an image.",
)
@click.option(
    "--iohprofiler",
    "ioh_folder",
    type=click.Path(file_okay=False),
    default=None,
    metavar="FOLDER",
    help="Also write the runs in IOHprofiler's data format (with the ioh package's own logger) to this new "
    "folder, for IOHanalyzer: the GAs' best-so-far fitness against evaluations.",
)
@click.option(
    "--baseline",
    default=None,
    metavar="NAME",
    help="Compare every other -a algorithm with this one, per dataset: Fisher's exact test on the solve "
    "rates and the log-rank test on the time to solve (evaluations, or seconds where an algorithm "
    "counts none), unsolved runs censored; needs scipy (the experiments extra).",
)
@click.option(
    "--results",
    "results_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Keep every run in this JSON-lines file as it finishes; run again, the same command skips the "
    "runs the file holds (a killed experiment resumes), and files of several machines merge by "
    "concatenation.",
)
@click.option("--force", is_flag=True, help="Overwrite output files that exist.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no compilation notice.")
@scoop_options("Spread the runs over N SCOOP workers (started for you; same results as serial, seed for seed).")
@click.pass_context
def bench_command(
    ctx: click.Context,
    datasets: tuple[str, ...],
    algorithms: tuple[str, ...],
    runs: int,
    seed: int,
    limit: int | None,
    json_out: str | None,
    csv_out: str | None,
    markdown_out: str | None,
    plot: str | None,
    plot_by: str,
    group_by: str,
    ecdf: str | None,
    fixed_budget: str | None,
    ioh_folder: str | None,
    baseline: str | None,
    results_path: str | None,
    force: bool,
    quiet: bool,
    workers: int | None,
    hosts: str | None,
    hostfile: str | None,
    **run_params,
) -> None:
    """Every puzzle x every algorithm x RUNS seeded runs, with a results table.

    The table goes to standard output (unless --json - or --csv - claims it), progress and notices
    to standard error.  With --workers N the runs are spread over N SCOOP workers, started for
    you; the results are the same as serially, seed for seed.  Ctrl-C stops early and still
    reports every finished run.
    """
    algorithms = tuple(dict.fromkeys(algorithms))
    per_algorithm = _options(algorithms, given(run_params))
    check_scoop(workers, hosts, hostfile)
    files = {
        "--json": json_out,
        "--csv": csv_out,
        "--markdown": markdown_out,
        "--plot": plot,
        "--ecdf": ecdf,
        "--fixed-budget": fixed_budget,
    }
    # With --results, an existing output may be this command's own, left by its interrupted run:
    # whether it is, the results file says once it is read (below); every other check is made here.
    resuming = results_path is not None and not force
    check_outputs(files, force or resuming, inputs=datasets)
    for path in (plot, ecdf, fixed_budget):
        check_plot(path)
    check_baseline(baseline, algorithms)
    check_ioh_folder(ioh_folder, force or resuming)
    inputs = [(name, PuzzleInput(path)) for path, name in zip(datasets, _dataset_names(datasets))]
    examples = {shape: puzzle for _, puzzles in inputs for shape, puzzle in puzzles.examples.items()}
    refuse_huge_population(run_params.get("population_size"), examples.values())
    total = runs * len(algorithms) * sum(min(len(p), limit or len(p)) for _, p in inputs)
    if total > MAX_COUNT:
        raise click.UsageError(f"that is {total:.3g} runs, more than this machine can count ({MAX_COUNT:,})")
    from ..experiments import Experiment, report_json, summarise, summary_csv, summary_table

    experiment = Experiment(
        algorithms,
        {name: _Limited(puzzles, limit) for name, puzzles in inputs},
        runs=runs,
        seed=seed,
        options=per_algorithm,
        command=started_as(),
    )
    rerun = workers is not None and not scoop_is_running()  # the run under SCOOP takes the lock, not this one
    results = _open_results(experiment, results_path, datasets, lock=not rerun)
    ours = {path for path in (*files.values(), ioh_folder) if path and experiment.replaceable(path)}
    if resuming:
        check_outputs(files, force, inputs=datasets, replaceable=ours.__contains__)
        check_ioh_folder(ioh_folder, ioh_folder in ours)

    def replace(path: str) -> bool:
        """Whether to write over ``path``: --force, or it is what this command's interrupted run left."""
        return force or path in ours

    if rerun and workers is not None:
        sys.exit(rerun_under_scoop(ctx, workers, hosts, hostfile, drop=SCOOP_OPTIONS))
    for algorithm in algorithms:  # compile or load kernels here, before any run's clock starts
        warm_up_announced(algorithm, examples.values(), quiet=quiet)

    parallel = scoop_is_running()
    todo = len(experiment.plan) - len(results)
    if results and not quiet:
        click.echo(
            f"{results_path}: {plural(len(results), 'run')} of {len(experiment.plan)} already done, {todo} to go",
            err=True,
        )
    signum, unwritten = None, ""
    label = f"{plural(todo, 'run')}" + (" on SCOOP workers" if parallel else "")
    # Serially a signal interrupts the run at once.  Under SCOOP it is only recorded and answered
    # between results: raised inside SCOOP, it would end up as some future's exception instead.
    with graceful(cooperative=parallel), Progress(todo, label, "runs", quiet=quiet) as bar:
        try:
            for result in experiment.run(parallel=parallel, contain=True):
                results.append(result)
                bar.advance()
                if parallel and starter_gone():  # no files: a rerun may be writing them already
                    click.echo(
                        "the command that started SCOOP is gone; stopping, the finished runs kept only in --results",
                        err=True,
                    )
                    sys.exit(1)
                if signum := requested():
                    break
        except KeyboardInterrupt:
            signum = requested() or signal.SIGINT
    with graceful(hold=True):  # from here a signal cannot cut the outputs short: they are being written anyway
        rows = summarise(results, by=group_by)
        table, comparison = summary_table(rows), []
        if baseline is not None and results:
            from ..experiments import analysis

            comparison = analysis.compare(results, baseline)
            if comparison:
                table += f"\nAgainst {baseline}:\n\n{analysis.comparison_table(comparison)}"
        missing, missing_count = experiment.missing(results)
        # The files first: a standard output that fails (a full disk, a closed pipe) costs its own copy only.
        outputs = (
            (json_out, lambda: report_json(rows, results, missing, missing_count, comparison, experiment.provenance)),
            (csv_out, lambda: summary_csv(rows)),
            (markdown_out, lambda: table),
        )
        for path, text in outputs:
            if path is not None and path != "-":
                write_text(path, text(), replace(path))
        title = f"{', '.join(algorithms)} on {_datasets_title(datasets)}"
        if plot is not None and rows:
            from ..experiments.plots import plot_summary

            with writing(plot):
                plot_summary(rows, plot, by=plot_by, title=title, overwrite=replace(plot))
        if ecdf is not None and results:
            from ..experiments.plots import plot_ecdf

            with writing(ecdf):
                plot_ecdf(results, ecdf, title=_datasets_title(datasets), overwrite=replace(ecdf))
        if fixed_budget is not None and results:
            from ..experiments.plots import plot_fixed_budget

            try:
                with writing(fixed_budget):
                    plot_fixed_budget(
                        results, fixed_budget, title=_datasets_title(datasets), overwrite=replace(fixed_budget)
                    )
            except ValueError as exc:
                click.echo(f"--fixed-budget not drawn: {exc}", err=True)
        if ioh_folder is not None and results:
            from ..experiments.iohprofiler import export_iohprofiler

            try:
                exported = export_iohprofiler(
                    results, ioh_folder, provenance=experiment.provenance, replace=replace(ioh_folder)
                )
                for line in exported:
                    click.echo(f"--iohprofiler: {line}", err=True)
            except (ValueError, OSError) as exc:  # FileExistsError too: a folder that appeared during the runs
                unwritten = f"--iohprofiler {ioh_folder} not written: {getattr(exc, 'strerror', None) or exc}"
        if missing and experiment.store is not None:  # cut short: the same command may replace these
            written = [*files.values(), ioh_folder]
            experiment.store.note_outputs([p for p in written if p is not None and p != "-" and os.path.exists(p)])
        stdout = next((text for path, text in outputs if path == "-"), lambda: table)
        click.echo(stdout(), nl=False)
        signum = signum or requested()
    _say_how_many(results, "error", "failed, counted as unsolved")
    _say_how_many(results, "censored", "went past a budget, counted as unsolved at the budget")
    plan_size = len(experiment.plan)
    if missing:
        shown = "; ".join(missing[:MISSING_SHOWN]) + (
            f"; and {len(missing) - MISSING_SHOWN} more lines" if len(missing) > MISSING_SHOWN else ""
        )
        click.echo(f"{len(results)} of {plural(plan_size, 'run')} finished; missing {missing_count}: {shown}", err=True)
    if unwritten:  # said last, where it is seen; every other output is whole
        click.echo(unwritten, err=True)
    if signum:
        click.echo(f"interrupted: {len(results)} of {plural(plan_size, 'run')} finished", err=True)
        sys.exit(exit_code(signum))
    if unwritten:
        sys.exit(1)


def _say_how_many(results: list, field: str, what: str) -> None:
    """One line on standard error for the runs whose ``field`` (``error``, ``censored``) says
    something: how many, and the first of them with what it says."""
    marked = [r for r in results if getattr(r, field)]
    if marked:
        first = marked[0]
        click.echo(
            f"{plural(len(marked), 'run')} {what}; the first: {first.algorithm} on {first.dataset} puzzle "
            f"{first.index + 1}, seed {first.seed}: {getattr(first, field)}",
            err=True,
        )


def _open_results(experiment: Experiment, path: str | None, datasets: tuple[str, ...], *, lock: bool = True) -> list:
    """The runs of the plan the --results file already holds, the file read and checked against the
    experiment before any work: one line for a file that cannot serve it (another experiment, another
    run in one of its places, not a results file, one of the datasets, a name that cannot be written)."""
    if path is None:
        return []
    from ..experiments.store import StoreError

    check_outputs({"--results": path}, False, resumable=("--results",), inputs=datasets)
    try:
        if lock:
            hold_lock(path)  # one experiment per results file
        return experiment.open(path, lock=False)
    except StoreError as exc:
        raise InputError(f"--results {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"--results {path}: {getattr(exc, 'strerror', None) or exc}") from None


class _Limited:
    """The first ``limit`` puzzles of a file (all of them without a limit), read again each time."""

    def __init__(self, puzzles: PuzzleInput, limit: int | None) -> None:
        self.puzzles, self.count = puzzles, len(puzzles) if limit is None else min(len(puzzles), limit)

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        return itertools.islice(self.puzzles, self.count)


def check_ioh_folder(folder: str | None, replace: bool = False) -> None:
    """Refuse, before any work, an --iohprofiler folder that holds files (unless ``replace``: the
    command's own, or --force), or the ioh package missing."""
    if folder is None:
        return
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK):
        raise InputError(f"--iohprofiler {folder}: the folder {parent} does not exist or is not writable")
    problem = name_problem(folder)
    if problem is not None:
        raise InputError(f"--iohprofiler {folder}: {problem}")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise InputError(f"--iohprofiler {folder}: exists and is not a folder; export into a new one")
    if os.path.exists(folder) and os.listdir(folder) and not replace:
        raise InputError(f"--iohprofiler {folder}: exists and is not an empty folder; export into a new one")
    from ..experiments.iohprofiler import INSTALL

    try:
        import ioh  # noqa: F401
    except ImportError:
        raise InputError(f"--iohprofiler needs the ioh package: {INSTALL}") from None


def check_baseline(baseline: str | None, algorithms: tuple[str, ...]) -> None:
    """Refuse, before any work, a --baseline that is not one of the -a algorithms, or one with no
    other algorithm to compare, or scipy missing."""
    if baseline is None:
        return
    if baseline not in algorithms:
        raise click.UsageError(f"--baseline {baseline} is not one of the -a algorithms ({', '.join(algorithms)})")
    if len(algorithms) < 2:
        raise click.UsageError("--baseline needs at least one other -a algorithm to compare with it")
    from ..experiments.analysis import INSTALL

    try:
        import scipy.stats  # noqa: F401
    except ImportError:
        raise InputError(f"--baseline needs scipy: {INSTALL}") from None


def _options(algorithms: tuple[str, ...], options: dict) -> dict[str, dict]:
    """Each algorithm's share of the run options.  An option none of them takes is a usage error;
    one that only some take goes to those, and standard error says so."""
    shares = {}
    for algorithm in algorithms:
        record = registry.algorithm(algorithm)
        shares[algorithm] = options_for(
            algorithm, {k: v for k, v in options.items() if k in record.options or len(algorithms) == 1}
        )
    for name in options:
        takers = [a for a in algorithms if name in shares[a]]
        if not takers:
            raise click.UsageError(
                f"{flag(name)} applies to none of {', '.join(algorithms)}; it applies to "
                f"{', '.join(registry.takes(name))}"
            )
        if len(takers) < len(algorithms):
            click.echo(f"note: {flag(name)} applies to {', '.join(takers)} only", err=True)
    return shares


def _dataset_names(datasets: tuple[str, ...]) -> list[str]:
    """What tables, JSON and plots call each dataset: its file name, or its path as given when two
    datasets share a file name (their runs must never merge).  A file given twice is refused."""
    seen: dict[str, str] = {}
    for path in datasets:
        if os.path.realpath(path) in seen:
            raise click.UsageError(f"{path} is given twice (as {seen[os.path.realpath(path)]}); give each dataset once")
        seen[os.path.realpath(path)] = path
    names = [os.path.basename(p) for p in datasets]
    return [name if names.count(name) == 1 else os.path.normpath(path) for name, path in zip(names, datasets)]


def _datasets_title(datasets: tuple[str, ...]) -> str:
    names = _dataset_names(datasets)
    return ", ".join(names) if len(names) <= 3 else f"{', '.join(names[:2])} and {len(names) - 2} more files"
