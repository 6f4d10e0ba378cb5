"""``deap-sudoku bench``: every puzzle x every algorithm x seeded runs, serially or over SCOOP workers."""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

import click

from ..runs import registry
from ..runs.interrupt import exit_code, graceful, requested
from ..runs.task import FAILED_RUNS, scoop_is_running
from .errors import plural
from .help import Sectioned
from .inputs import PUZZLE_FILE_HELP, PuzzleFile, PuzzleInput
from .options import ALGORITHM, ALGORITHM_HELP, DEFAULT_ALGORITHM, given, refuse_huge_population, run_options
from .numbers import MAX_COUNT, SEED, count
from .outputs import check_outputs, check_plot, write_text, writing
from .bench_inputs import (
    Limited,
    algorithm_options,
    check_baseline,
    check_ioh_folder,
    dataset_names,
    datasets_title,
    open_results,
)
from .progress import Progress, RunsLeft, warm_up_announced
from .terminal_table import terminal_table
from .dask_scheduler import dask_client
from .scoop import LAUNCH_OPTIONS, check_scoop, idle_hosts, rerun_under_scoop, scoop_options, started_as, starter_gone

if TYPE_CHECKING:
    from ..experiments import Experiment

SCOOP_OPTIONS = ("workers", "hosts", "hostfile")
"""The options that start SCOOP; the command SCOOP then runs gets every other option as given."""
MISSING_SHOWN = 20
"""Lines of missing runs on standard error after an interrupt (the JSON output lists them all)."""


FILE_OPTIONS = (
    ("--json", "json_out"),
    ("--csv", "csv_out"),
    ("--markdown", "markdown_out"),
    ("--plot", "plot"),
    ("--ecdf", "ecdf"),
    ("--fixed-budget", "fixed_budget"),
)
"""The output files' options, as the command line and its messages name them, and their parameters."""
OUTPUTS = ("json_out", "csv_out", "markdown_out", "group_by", "plot", "plot_by", "ecdf", "fixed_budget")
SECTIONS = (
    ("Experiment", ("algorithms", "runs", "seed", "limit", "baseline", "results_path")),
    ("Algorithm settings (default: the algorithm's own)", tuple(o for o in registry.OPTIONS if "max_" not in o)),
    ("Budget per run (default: the algorithm's own)", tuple(o for o in registry.OPTIONS if o.startswith("max_"))),
    ("Parallel (SCOOP; the others need --workers)", ("workers", "hosts", "hostfile", *LAUNCH_OPTIONS)),
    ("Parallel on a Dask cluster", ("scheduler",)),
    ("Output", (*OUTPUTS, "ioh_folder", "force")),
    ("Messages", ("quiet",)),
)
"""``bench --help``'s sections."""

EXAMPLES = (
    ("data/testdata/*.txt -a tabu -a backtracking --runs 5", "two algorithms, 5 seeded runs a puzzle"),
    ("data/testdata/hard.txt -a memetic -a block-ga --runs 20 --baseline block-ga", "tested against block-ga"),
    ("data/testdata/*.txt --runs 5 --markdown table.md --json runs.json", "every column, every run"),
    ("data/testdata/hard.txt -a tabu --runs 10 --results runs.jsonl", "rerun after a kill: it resumes"),
    ("data/testdata/hard.txt -a tabu --runs 4 --workers 2", "the runs on 2 SCOOP workers"),
)


@click.command(name="bench", cls=Sectioned, epilog=PUZZLE_FILE_HELP, sections=SECTIONS, examples=EXAMPLES)
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
    metavar="NAME",
    help=f"Repeat for several: {ALGORITHM_HELP}.",
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
    help="Write the summary and every run as JSON ('-': standard output, instead of the table).",
)
@click.option(
    "--csv",
    "csv_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the summary as CSV ('-': standard output, instead of the table).",
)
@click.option(
    "--markdown",
    "markdown_out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the summary table, with quartiles, as Markdown.",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw success rate and time by share of givens or by dataset (--plot-by) as an image.",
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
    help="One table row per dataset file, or per grid size and share of givens (one-puzzle files).",
)
@click.option(
    "--ecdf",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw the run-time ECDF (share of runs solved against evaluations) as an image.",
)
@click.option(
    "--fixed-budget",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw the median best-so-far fitness against evaluations, with its IQR band, as an image.",
)
@click.option(
    "--iohprofiler",
    "ioh_folder",
    type=click.Path(file_okay=False),
    default=None,
    metavar="FOLDER",
    help="Also write the runs in IOHprofiler's format to this new folder, for IOHanalyzer.",
)
@click.option(
    "--baseline",
    default=None,
    metavar="NAME",
    help="Test every other -a algorithm against this one (Fisher's exact test, log-rank test; scipy).",
)
@click.option(
    "--results",
    "results_path",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Keep every run in this JSON-lines file as it finishes: the same command resumes from it.",
)
@click.option("--force", is_flag=True, help="Overwrite output files that exist.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no compilation notice.")
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Run on the workers of this Dask scheduler (tcp://HOST:8786; the [cluster] extra; docs/cluster.md).",
)
@scoop_options("Spread the runs over N SCOOP workers (started for you; same results as serial, seed for seed).")
@click.pass_context
def bench_command(ctx: click.Context, **params: Any) -> None:
    """Every puzzle x every algorithm x RUNS seeded runs, with a results table.

    The table (medians; --markdown, --csv and --json add the quartiles) goes to standard output,
    progress and notices to standard error; '-' counts that do not apply.  Ctrl-C stops early
    and still reports every finished run.
    """
    benching = _Benching.checked(ctx)  # every refusal comes here, before any run
    try:
        benching.prepare()
        benching.run()
        with graceful(hold=True):  # from here a signal cannot cut the outputs short: they are being written anyway
            benching.write()
        benching.report()
    finally:  # a Dask client left open reconnects in threads that draw from the global random module
        if benching.scheduler is not None:
            benching.scheduler.close()


@dataclasses.dataclass
class _Benching:
    """One ``bench`` command, phase by phase: what was asked, checked before any run
    (:meth:`checked`); SCOOP and the kernels made ready (:meth:`prepare`); the runs (:meth:`run`);
    the table and files written (:meth:`write`); what is missing or failed said, and the exit
    code (:meth:`report`)."""

    ctx: click.Context
    datasets: tuple[str, ...]
    algorithms: tuple[str, ...]
    group_by: str
    plot_by: str
    baseline: str | None
    results_path: str | None
    ioh_folder: str | None
    force: bool
    quiet: bool
    workers: int | None
    hosts: str | None
    hostfile: str | None
    scheduler: Any  # a Dask client of --scheduler, connected before any run, or None
    files: dict[str, str | None]  # the output files by option, --json to --fixed-budget
    examples: dict  # a puzzle of every shape, for the kernels' warm-up
    experiment: Experiment
    results: Any  # the experiment's results so far: a ResultsFile or a list
    ours: set[str]  # outputs this command's interrupted run left, replaced without --force
    rerun: bool  # handed to SCOOP, which runs the command again
    signum: int | None = None
    unwritten: str = ""  # why --iohprofiler could not be written
    missing: list[str] = dataclasses.field(default_factory=list)
    missing_count: int = 0

    @classmethod
    def checked(cls, ctx: click.Context) -> _Benching:
        """The command as asked: options, outputs, baseline, datasets and the experiment checked,
        or refused with one line before any run; the results file opened (and locked)."""
        p = ctx.params
        records = {record.name: record for record in p["algorithms"]}  # each once, in the order given
        algorithms = tuple(records)  # names: SCOOP's workers find the records by them
        datasets, force, results_path = p["datasets"], p["force"], p["results_path"]
        per_algorithm = algorithm_options(tuple(records.values()), given(p))
        check_scoop(p["workers"], p["hosts"], p["hostfile"], p["scheduler"])
        files = {option: p[name] for option, name in FILE_OPTIONS}
        # With --results, an existing output may be this command's own, left by its interrupted run:
        # whether it is, the results file says once it is read (below); every other check is made here.
        resuming = results_path is not None and not force
        check_outputs(files, force or resuming, inputs=datasets)
        for path in (p["plot"], p["ecdf"], p["fixed_budget"]):
            check_plot(path)
        check_baseline(p["baseline"], algorithms)
        check_ioh_folder(p["ioh_folder"], force or resuming)
        inputs = [(name, PuzzleInput(path)) for path, name in zip(datasets, dataset_names(datasets))]
        examples = {shape: puzzle for _, puzzles in inputs for shape, puzzle in puzzles.examples.items()}
        populated = [name for name, share in per_algorithm.items() if "population_size" in share]
        refuse_huge_population(p.get("population_size"), examples.values(), populated)
        total = p["runs"] * len(algorithms) * sum(min(len(one), p["limit"] or len(one)) for _, one in inputs)
        if total > MAX_COUNT:
            raise click.UsageError(f"that is {total:.3g} runs, more than this machine can count ({MAX_COUNT:,})")
        from ..experiments import Experiment

        experiment = Experiment(
            algorithms,
            {name: Limited(puzzles, p["limit"]) for name, puzzles in inputs},
            runs=p["runs"],
            seed=p["seed"],
            options=per_algorithm,
            command=started_as(),
        )
        rerun = p["workers"] is not None and not scoop_is_running()  # the run under SCOOP takes the lock
        results = open_results(experiment, results_path, datasets, lock=not rerun)
        if rerun and len(results) == len(experiment.plan):  # nothing left to run: no SCOOP (a late host's
            rerun, results = False, open_results(experiment, results_path, datasets)  # launch waited for ever)
        ours = {path for path in (*files.values(), p["ioh_folder"]) if path and experiment.replaceable(path)}
        if resuming:
            check_outputs(files, force, inputs=datasets, replaceable=ours.__contains__)
            check_ioh_folder(p["ioh_folder"], p["ioh_folder"] in ours)
        asked = {f.name: p[f.name] for f in dataclasses.fields(cls) if f.name in p and f.name != "algorithms"}
        return cls(
            ctx=ctx,
            algorithms=algorithms,
            **{**asked, "scheduler": dask_client(p["scheduler"])},  # connected last: nothing refused after
            files=files,
            examples=examples,
            experiment=experiment,
            results=results,
            ours=ours,
            rerun=rerun,
        )

    def replace(self, path: str) -> bool:
        """Whether to write over ``path``: --force, or it is what this command's interrupted run left."""
        return self.force or path in self.ours

    def prepare(self) -> None:
        """Hand the command to SCOOP (``--workers``), or load the kernels before any run's clock starts."""
        if self.rerun and self.workers is not None:
            sys.exit(rerun_under_scoop(self.ctx, self.workers, self.hosts, self.hostfile, drop=SCOOP_OPTIONS))
        for record in self.experiment.records.values():
            warm_up_announced(record, self.examples.values(), quiet=self.quiet)
        if self.results and not self.quiet:
            plan = len(self.experiment.plan)
            click.echo(
                f"{self.results_path}: {plural(len(self.results), 'run')} of {plan} already done, "
                f"{plan - len(self.results)} to go",
                err=True,
            )

    def _runs_left(self) -> RunsLeft:
        """The progress bar's ETA, counting the runs a results file already holds as done."""
        each = len(self.experiment.plan) // max(1, len(self.experiment.plan.algorithms))
        done = collections.Counter(r.algorithm for r in self.results)
        return RunsLeft(
            {name: each - done[name] for name in self.experiment.plan.algorithms},
            {name: options.get("max_seconds") for name, options in self.experiment.options.items()},
        )

    def run(self) -> None:
        """The runs not done yet, each kept as it finishes, until all are done or a signal comes.
        Serially a signal interrupts the run at once.  Under SCOOP it is only recorded and answered
        between results: raised inside SCOOP, it would end up as some future's exception instead."""
        parallel = scoop_is_running()
        todo = len(self.experiment.plan) - len(self.results)
        where = " on SCOOP workers" if parallel else " on Dask workers" if self.scheduler is not None else ""
        label = f"{plural(todo, 'run')}{where}"
        done_before = len(self.results)
        eta = self._runs_left()
        bar = Progress(todo, label, "runs", quiet=self.quiet, eta=eta.seconds_left)
        with graceful(cooperative=parallel), bar:
            try:
                runs = self.experiment.run(parallel=parallel, contain=True, scheduler=self.scheduler)
                for result in runs:  # kept in experiment.finished
                    eta.finished(result.algorithm, result.seconds)
                    bar.advance()
                    if parallel and starter_gone():  # no files: a rerun may be writing them already
                        click.echo(
                            "the command that started SCOOP is gone; stopping, the finished runs kept only in "
                            "--results",
                            err=True,
                        )
                        sys.exit(1)
                    if signum := requested():
                        self.signum = signum
                        break
            except KeyboardInterrupt:
                self.signum = requested() or signal.SIGINT
            except OSError:  # the results file cannot keep a run (a full disk): what finished is written
                if not self.experiment.unkept:
                    raise
            finally:  # every run finished, one a Ctrl-C met between its keeping and its handing over too
                self.results[done_before:] = self.experiment.finished

    def write(self) -> None:
        """The table and every output file of the runs finished; the files first: a standard output
        that fails (a full disk, a closed pipe) costs its own copy only."""
        from ..experiments import report_json, summarise, summary_csv, summary_table

        results, experiment, files = self.results, self.experiment, self.files
        rows = summarise(results, by=self.group_by)
        table, shown, comparison = summary_table(rows), terminal_table(rows), []
        if self.baseline is not None and results:
            from ..experiments import analysis

            comparison = analysis.compare(results, self.baseline)
            if comparison:
                against = f"\nAgainst {self.baseline}:\n\n{analysis.comparison_table(comparison)}"
                table, shown = table + against, shown + against
        self.missing, self.missing_count = experiment.missing(results)
        report = (rows, results, self.missing, self.missing_count, comparison, self.provenance())
        outputs = (
            (files["--json"], lambda: report_json(*report)),
            (files["--csv"], lambda: summary_csv(rows)),
            (files["--markdown"], lambda: table),
        )
        for path, text in outputs:
            if path is not None and path != "-":
                write_text(path, text(), self.replace(path))
        self.draw(rows)
        self.export()
        if experiment.store is not None and not experiment.unkept:  # the same command, cut short or
            written = [*files.values(), self.ioh_folder]  # resubmitted when done, may replace these
            kept = [p for p in written if p is not None and p != "-" and os.path.exists(p)]
            with contextlib.suppress(OSError):  # the note only spares the rerun a --force
                if kept or experiment.store.outputs:
                    experiment.store.note_outputs(kept)
        stdout = next((text for path, text in outputs if path == "-"), lambda: shown)
        click.echo(stdout(), nl=False)
        self.signum = self.signum or requested()

    def provenance(self) -> dict:
        """The experiment's provenance, with each host's share of the runs where SCOOP's or Dask's
        workers made them: runs and CPU seconds by host name."""
        shares = self.experiment.hosts
        if not shares:
            return self.experiment.provenance
        hosts = {name: {"runs": s.runs, "cpu_seconds": round(s.cpu_seconds, 3)} for name, s in sorted(shares.items())}
        return {**self.experiment.provenance, "hosts": hosts}

    def draw(self, rows: list) -> None:
        """--plot, --ecdf and --fixed-budget, of the runs finished."""
        results, files, title = self.results, self.files, datasets_title(self.datasets)
        plot, ecdf, fixed_budget = files["--plot"], files["--ecdf"], files["--fixed-budget"]
        if plot is not None and rows:
            from ..experiments.plots import plot_summary

            named = f"{', '.join(self.algorithms)} on {title}"
            with writing(plot):
                plot_summary(rows, plot, by=self.plot_by, title=named, overwrite=self.replace(plot))
        if ecdf is not None and results:
            from ..experiments.plots import plot_ecdf

            with writing(ecdf):
                plot_ecdf(results, ecdf, title=title, overwrite=self.replace(ecdf))
        if fixed_budget is not None and results:
            from ..experiments.plots import plot_fixed_budget

            try:
                with writing(fixed_budget):
                    plot_fixed_budget(results, fixed_budget, title=title, overwrite=self.replace(fixed_budget))
            except ValueError as exc:
                click.echo(f"--fixed-budget not drawn: {exc}", err=True)

    def export(self) -> None:
        """--iohprofiler, of the runs finished; a folder that cannot be written is said last."""
        if self.ioh_folder is None or not self.results:
            return
        from ..experiments.iohprofiler import export_iohprofiler

        try:
            exported = export_iohprofiler(
                self.results,
                self.ioh_folder,
                provenance=self.experiment.provenance,
                replace=self.replace(self.ioh_folder),
            )
            for line in exported:
                click.echo(f"--iohprofiler: {line}", err=True)
        except (ValueError, OSError) as exc:  # FileExistsError too: a folder that appeared during the runs
            self.unwritten = f"--iohprofiler {self.ioh_folder} not written: {getattr(exc, 'strerror', None) or exc}"

    def report(self) -> None:
        """Say what failed, went past a budget or is missing, then exit with the command's code."""
        results, plan_size, missing = self.results, len(self.experiment.plan), self.missing
        _say_how_many(results, "error", "failed, counted as unsolved")
        _say_how_many(results, "censored", "went past a budget, counted as unsolved at the budget")
        for host in [] if self.signum else idle_hosts(self.experiment.hosts):  # cut short: a host may be warming up
            click.echo(
                f"{host}: no run was made there, its workers took none (did they start? do they reach this "
                "machine's broker? -v shows SCOOP's messages; docs/cluster.md)",
                err=True,
            )
        if missing:
            shown = "; ".join(missing[:MISSING_SHOWN]) + (
                f"; and {len(missing) - MISSING_SHOWN} more lines" if len(missing) > MISSING_SHOWN else ""
            )
            click.echo(
                f"{len(results)} of {plural(plan_size, 'run')} finished; missing {self.missing_count}: {shown}",
                err=True,
            )
        if self.experiment.unkept:
            click.echo(
                f"--results {self.experiment.unkept}; the runs stopped there, those finished are written", err=True
            )
        if self.unwritten:  # said last, where it is seen; every other output is whole
            click.echo(self.unwritten, err=True)
        if self.signum:
            click.echo(f"interrupted: {len(results)} of {plural(plan_size, 'run')} finished", err=True)
            sys.exit(exit_code(self.signum))
        if self.unwritten or self.experiment.unkept:
            sys.exit(1)
        if any(result.error for result in results):
            sys.exit(FAILED_RUNS)  # every run ended and every output is whole, but runs failed with errors


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
