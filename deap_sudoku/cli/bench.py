"""``deap-sudoku bench``: every puzzle x every algorithm x seeded runs, serially or over SCOOP workers."""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

import click

from ..runs.interrupt import exit_code, graceful, requested
from ..runs.task import scoop_is_running
from .errors import plural
from .inputs import PUZZLE_FILE_HELP, PuzzleFile, PuzzleInput
from .options import (
    ALGORITHM,
    ALGORITHM_HELP,
    DEFAULT_ALGORITHM,
    MAX_COUNT,
    SEED,
    count,
    given,
    refuse_huge_population,
    run_options,
)
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
def bench_command(ctx: click.Context, **params: Any) -> None:
    """Every puzzle x every algorithm x RUNS seeded runs, with a results table.

    The table goes to standard output (unless --json - or --csv - claims it), progress and notices
    to standard error.  With --workers N the runs are spread over N SCOOP workers, started for
    you; the results are the same as serially, seed for seed.  Ctrl-C stops early and still
    reports every finished run.
    """
    benching = _Benching.checked(ctx)  # every refusal comes here, before any run
    benching.prepare()
    benching.run()
    with graceful(hold=True):  # from here a signal cannot cut the outputs short: they are being written anyway
        benching.write()
    benching.report()


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
        check_scoop(p["workers"], p["hosts"], p["hostfile"])
        files = {
            "--json": p["json_out"],
            "--csv": p["csv_out"],
            "--markdown": p["markdown_out"],
            "--plot": p["plot"],
            "--ecdf": p["ecdf"],
            "--fixed-budget": p["fixed_budget"],
        }
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
        refuse_huge_population(p.get("population_size"), examples.values())
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
        ours = {path for path in (*files.values(), p["ioh_folder"]) if path and experiment.replaceable(path)}
        if resuming:
            check_outputs(files, force, inputs=datasets, replaceable=ours.__contains__)
            check_ioh_folder(p["ioh_folder"], p["ioh_folder"] in ours)
        asked = {f.name: p[f.name] for f in dataclasses.fields(cls) if f.name in p and f.name != "algorithms"}
        return cls(
            ctx=ctx,
            algorithms=algorithms,
            **asked,
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

    def run(self) -> None:
        """The runs not done yet, each kept as it finishes, until all are done or a signal comes.
        Serially a signal interrupts the run at once.  Under SCOOP it is only recorded and answered
        between results: raised inside SCOOP, it would end up as some future's exception instead."""
        parallel = scoop_is_running()
        todo = len(self.experiment.plan) - len(self.results)
        label = f"{plural(todo, 'run')}" + (" on SCOOP workers" if parallel else "")
        with graceful(cooperative=parallel), Progress(todo, label, "runs", quiet=self.quiet) as bar:
            try:
                for result in self.experiment.run(parallel=parallel, contain=True):
                    self.results.append(result)
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

    def write(self) -> None:
        """The table and every output file of the runs finished; the files first: a standard output
        that fails (a full disk, a closed pipe) costs its own copy only."""
        from ..experiments import report_json, summarise, summary_csv, summary_table

        results, experiment, files = self.results, self.experiment, self.files
        rows = summarise(results, by=self.group_by)
        table, comparison = summary_table(rows), []
        if self.baseline is not None and results:
            from ..experiments import analysis

            comparison = analysis.compare(results, self.baseline)
            if comparison:
                table += f"\nAgainst {self.baseline}:\n\n{analysis.comparison_table(comparison)}"
        self.missing, self.missing_count = experiment.missing(results)
        report = (rows, results, self.missing, self.missing_count, comparison, experiment.provenance)
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
        if self.missing and experiment.store is not None:  # cut short: the same command may replace these
            written = [*files.values(), self.ioh_folder]
            experiment.store.note_outputs([p for p in written if p is not None and p != "-" and os.path.exists(p)])
        stdout = next((text for path, text in outputs if path == "-"), lambda: table)
        click.echo(stdout(), nl=False)
        self.signum = self.signum or requested()

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
        if missing:
            shown = "; ".join(missing[:MISSING_SHOWN]) + (
                f"; and {len(missing) - MISSING_SHOWN} more lines" if len(missing) > MISSING_SHOWN else ""
            )
            click.echo(
                f"{len(results)} of {plural(plan_size, 'run')} finished; missing {self.missing_count}: {shown}",
                err=True,
            )
        if self.unwritten:  # said last, where it is seen; every other output is whole
            click.echo(self.unwritten, err=True)
        if self.signum:
            click.echo(f"interrupted: {len(results)} of {plural(plan_size, 'run')} finished", err=True)
            sys.exit(exit_code(self.signum))
        if self.unwritten:
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
