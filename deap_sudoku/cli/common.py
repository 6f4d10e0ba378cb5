"""What the ``deap-sudoku`` commands share: reading puzzles, the run options and their checks, output
paths checked before any work, progress on standard error, and the kernels' warm-up.

The rule behind the checks: every option does what it says or is refused (exit 2) before the
first puzzle is touched.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable

import click

from ..grid import Puzzle, PuzzleError, PuzzleFileError
from ..io import formats
from ..io.fileio import FileInUse, lock_for_writing, name_problem, process_runs, release, write_atomic
from ..runs import plots, registry
from ..runs.checkpoint import Checkpoint, CheckpointError
from ..runs.task import warm_up

ALGORITHMS = tuple(registry.ALGORITHMS)
DEFAULT_ALGORITHM = "memetic"


class AlgorithmName(click.ParamType):
    """``-a``: a bundled algorithm, an installed plug-in's, or a user's as ``module:attribute``,
    resolved (imported) when the option is read, so a bad one is one line before any work."""

    name = "NAME|module:attribute"

    def convert(self, value, param, ctx):
        try:
            registry.algorithm(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        return value


ALGORITHM = AlgorithmName()
ALGORITHM_HELP = ("a bundled algorithm (" + ", ".join(ALGORITHMS) + "; 'deap-sudoku algorithms' lists them with "
                  "plug-ins and budgets), or your own as module:attribute")


class InputError(click.ClickException):
    """Bad input: a one-line message and exit code 2, never a traceback."""

    exit_code = 2


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 puzzle``, ``2 puzzles``; ``many`` for irregular plurals."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def parse_box(value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    try:
        rows, cols = (int(part) for part in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not ROWSxCOLS, e.g. 2x3", param_hint="--box") from None
    return rows, cols


def input_options(command):
    """--format, --box and --alphabet, shared by every command that reads puzzles."""
    records = formats.FORMAT_RECORDS.values()
    lettered = " and ".join(record.name for record in records if record.alphabets)
    command = click.option("--alphabet", type=click.Choice(tuple(formats.ALPHABETS)), default=None,
                           help=f"Symbols of the {lettered} formats.")(command)
    command = click.option("--box", default=None, metavar="ROWSxCOLS",
                           help="Box shape, e.g. 2x3 (default: squarest).")(command)
    kinds = "; ".join(f"{record.name}: {record.summary}" for record in records)
    return click.option("--format", "fmt", type=click.Choice(formats.FORMATS), default=None,
                        help=f"Input format, detected when not given ({kinds}).")(command)


@contextlib.contextmanager
def reading(path: str):
    """Turn a bad or unreadable input file into a one-line message and exit code 2."""
    try:
        yield
    except PuzzleFileError as exc:
        first, more = exc.errors[0], len(exc.errors) - 1
        raise InputError(f"{first}" + (f" (and {more} more; 'deap-sudoku check {path}' lists them all)"
                                       if more else "")) from None
    except PuzzleError as exc:
        raise InputError(str(exc)) from None
    except (StandardOutputError, BrokenPipeError):
        raise  # standard output closed under the command (| head): the command's guard says so, not the input
    except OSError as exc:
        raise InputError(f"{path}: {exc.strerror or exc}") from None


class PuzzleInput:
    """A puzzle file read through once to check it whole, then again one puzzle at a time: every
    bad puzzle is reported before any work starts, and memory stays a small multiple of the text
    however many puzzles the file holds (a list of them would take about 11 times the text of 4x4s).

    ``len()`` is the number of puzzles, iteration gives them, ``examples`` the first of each size.
    """

    def __init__(self, path: str, fmt: str | None = None, box: str | None = None, alphabet: str | None = None):
        self.options = dict(format=fmt, box=parse_box(box), alphabet=alphabet)
        self.count, self.examples = 0, {}
        with reading(path):
            self.text, self.source = formats.read_text(path)
            errors = []
            for item in self._items():
                if isinstance(item, PuzzleError):
                    errors.append(item)
                else:
                    self.count += 1
                    self.examples.setdefault(item[1].shape, item[1])
            if errors:
                raise PuzzleFileError(errors, source=self.source)
        if not self.count:
            raise InputError(f"{path}: no puzzle found")

    def _items(self):
        return formats.iter_scan(self.text, **self.options, source=self.source)

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        return (puzzle for _, puzzle in self._items())


# -- run options: which algorithm takes which -------------------------------------------------

_RUN_OPTIONS = {
    "population": dict(type=click.IntRange(min=2), help="Population size"),
    "cxpb": dict(type=click.FloatRange(0, 1), help="Crossover probability"),
    "mutpb": dict(type=click.FloatRange(0, 1), help="Mutation probability"),
    "select": dict(type=click.Choice(sorted({c for a in registry.ALGORITHMS.values()
                                             for c in a.choices.get("select", ())})), help="Selection"),
    "fitness": dict(type=click.Choice(sorted({c for a in registry.ALGORITHMS.values()
                                              for c in a.choices.get("fitness", ())})), help="Fitness"),
    "tournament_size": dict(type=click.IntRange(min=1), help="Tournament size"),
    "max_generations": dict(type=click.IntRange(min=1), help="Generation budget"),
    "max_seconds": dict(type=click.FloatRange(min=0, min_open=True),
                        help="Wall-time budget per puzzle (s); loading compiled kernels counts, a first-ever compilation "
                             "(announced) does not"),
    "max_evaluations": dict(type=click.IntRange(min=1),
                            help="Fitness-evaluation budget per puzzle (checked after each generation)"),
    "max_steps": dict(type=click.IntRange(min=1), help="Step budget"),
    "max_nodes": dict(type=click.IntRange(min=1), help="Search-node budget"),
}
assert set(_RUN_OPTIONS) == set(registry.OPTIONS), "every registry option has its command-line flag"


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def run_options(command):
    """The options of :data:`deap_sudoku.runs.registry.OPTIONS`, for ``solve`` and ``bench``; each
    help text names the algorithms that take it (default: the algorithm's own)."""
    for name in reversed(registry.OPTIONS):
        options = dict(_RUN_OPTIONS[name])
        options["help"] += f" ({', '.join(registry.takes(name))}; default: the algorithm's own)."
        command = click.option(flag(name), default=None, **options)(command)
    return command


def given(params: dict) -> dict:
    """The run options given on the command line (the others are None)."""
    return {name: params[name] for name in registry.OPTIONS if params.get(name) is not None}


def options_for(algorithm: str, options: dict) -> dict:
    """The ``options`` ``algorithm`` takes; a usage error naming the option and the algorithms that
    take it, or the values it allows, for any other."""
    record = registry.algorithm(algorithm)
    for name, value in options.items():
        if name not in record.options:
            raise click.UsageError(f"{flag(name)} does not apply to {algorithm}; it applies to "
                                   f"{', '.join(registry.takes(name))}")
        allowed = record.choices.get(name)
        if allowed is not None and value not in allowed:
            raise click.UsageError(f"{flag(name)} {value} does not apply to {algorithm}; it takes "
                                   f"{', '.join(allowed)}")
    return options


MAX_POPULATION_BYTES = 4 << 30
POPULATION_BYTES = ((16, 2190), (81, 2463), (256, 2921), (625, 4089), (1296, 6181))
"""(cells, bytes): what one individual costs a GA run (its grid, fitness and offspring), the most of
any GA at each size, traced by ``python benchmarks/population_memory.py``."""
ALLOCATOR_MARGIN = 1.25


def population_bytes(cells: int) -> float:
    """Bytes a GA run allocates per individual on a grid of ``cells`` cells: :data:`POPULATION_BYTES`
    with a quarter more for the allocator, linear between the measured sizes and along the last
    slope beyond them."""
    points = POPULATION_BYTES
    (low, low_cost), (high, high_cost) = next(
        ((a, b) for a, b in zip(points, points[1:]) if cells <= b[0]), points[-2:])
    cost = low_cost + (high_cost - low_cost) * max(cells - low, 0) / (high - low)
    return ALLOCATOR_MARGIN * cost


def memory_allowed() -> tuple[int, str]:
    """The bytes a run of this process may still allocate, and what sets that: 4 GiB, the address
    space left under ``ulimit -v`` (RLIMIT_AS), or the control group's memory limit (v2 or v1)."""
    allowed = [(MAX_POPULATION_BYTES, "this package's limit")]
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            with open("/proc/self/statm") as handle:
                used = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            allowed.append((soft - used, "the address space that ulimit -v leaves this process"))
    except (ImportError, OSError, ValueError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        with contextlib.suppress(OSError, ValueError):
            with open(path) as handle:
                value = handle.read().strip()
            if value != "max" and int(value) < 1 << 60:
                allowed.append((int(value), f"the memory limit of this process's control group ({path})"))
    return min(allowed)


def refuse_huge_population(population: int | None, puzzles: Iterable[Puzzle]) -> None:
    """Refuse, before allocating anything, a population whose run would need more memory than the
    process may have (:func:`memory_allowed`; :func:`population_bytes` per individual)."""
    if population is None:
        return
    cells = max(p.shape.cells for p in puzzles)
    needed = population * population_bytes(cells)
    allowed, why = memory_allowed()
    if needed > allowed:
        raise InputError(f"--population {population} of {cells}-cell grids needs about {needed / 2**30:.1f} GiB; "
                         f"{why} is {max(allowed, 0) / 2**30:.1f} GiB")


# -- outputs, checked before any work ---------------------------------------------------------

def check_outputs(outputs: dict[str, str | None] | list[tuple[str, str]], force: bool, *,
                  resumable: tuple[str, ...] = (), inputs: tuple[str, ...] = ()) -> None:
    """Refuse, before any work, outputs that cannot be written: a missing or read-only folder, a
    folder given as a file, anything but a regular file (a device, pipe or socket is never
    replaced, even with ``force``), an existing file without ``force``, one file named by two
    options, standard output (``-``) claimed by two options, one of the ``inputs`` (with ``force``
    too: a run never writes onto what it reads), a symbolic link to nothing, or a name too long
    once the temporary name beside it is counted.  ``outputs`` maps option names (``--out``) to
    paths (or is a list of such pairs, for one option with many files); the ``resumable`` ones
    (``--checkpoint``) may exist, to be read back."""
    outputs = list(outputs.items()) if isinstance(outputs, dict) else outputs
    stdout = [option for option, path in outputs if path == "-"]
    if len(stdout) > 1:
        raise click.UsageError(f"{' and '.join(stdout)} both write to standard output; give one of them a file")
    for option, path in outputs:
        if option in resumable and path == "-":
            raise click.UsageError(f"{option} needs a file: it is read back to resume")
    named = [(option, path) for option, path in outputs if path is not None and path != "-"]
    claimed: dict[str, tuple[str, str]] = {}  # real path -> who names it (one pass: thousands of names stay fast)
    for option, path in named:
        other = claimed.setdefault(os.path.realpath(path), (option, path))
        if other != (option, path):
            raise click.UsageError(f"{other[0]} and {option} name the same file, {path}; give them different names")
    folders_checked: set[str] = set()
    for option, path in named:
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path):
            raise InputError(f"{option} {path}: is a folder; give a file name")
        if folder not in folders_checked:
            if not os.path.isdir(folder):
                raise InputError(f"{option} {path}: the folder {folder} does not exist")
            if not os.access(folder, os.W_OK):
                raise InputError(f"{option} {path}: the folder {folder} is not writable")
            folders_checked.add(folder)
        if os.path.exists(path) and not os.path.isfile(path):
            raise InputError(f"{option} {path}: not a regular file (a device, pipe or socket); refusing to replace "
                             "it" + ("; use - for standard output" if option not in resumable else ""))
        for source in inputs:
            if source != "-" and os.path.exists(path) and os.path.exists(source) and os.path.samefile(path, source):
                raise InputError(f"{option} {path} is also an input ({source}); refusing to write onto it, "
                                 "--force or not: give the output another name")
        problem = name_problem(path)
        if problem is not None:
            raise InputError(f"{option} {path}: {problem}")
        if os.path.exists(path) and not force and option not in resumable:
            raise InputError(f"{option} {path} exists; refusing to overwrite it; use --force to replace it")


def hold_lock(path: str) -> None:
    """Lock ``path`` for writing (:func:`~deap_sudoku.io.fileio.lock_for_writing`) until the command
    ends, or its process does, however it ends.

    :raises FileInUse: naming the process that holds it.
    """
    lock_for_writing(path)
    context = click.get_current_context(silent=True)
    if context is not None:
        context.call_on_close(lambda: release(path))


def open_checkpoint(path: str, every: int, identity: dict, puzzle: Puzzle) -> Checkpoint:
    """The checkpoint of a run on ``puzzle``, read once so that a damaged file or another run's is
    refused before any work.  Says on standard error where the run resumes and what a save cut
    short lost, and warns there, once, if a save fails."""
    checkpoint = Checkpoint(path, every, identity, puzzle=puzzle,
                            warn=lambda message: click.echo(f"warning: {message}", err=True))
    try:
        hold_lock(path)  # one run per checkpoint: a second would damage it
        state = checkpoint.read()
    except FileInUse as exc:
        raise InputError(str(exc)) from None
    except CheckpointError as exc:
        raise InputError(str(exc)) from None
    if checkpoint.dropped:
        click.echo(f"{path}: dropped the last save, cut short ({plural(checkpoint.dropped, 'byte')})", err=True)
    if state is not None:
        click.echo(f"resuming from {path} at generation {state['generation']}", err=True)
    return checkpoint


def check_plot(path: str | None) -> None:
    """Refuse, before any work, a plot that cannot be drawn: no matplotlib (with the install
    command), standard output, or an image format matplotlib does not write."""
    if path is None:
        return
    if path == "-":
        raise click.UsageError("--plot needs a file name; images are not written to standard output")
    try:
        known = plots.image_formats()
    except ImportError as exc:
        raise InputError(f"--plot: {exc}") from None
    extension = os.path.splitext(path)[1].lstrip(".").lower()
    if extension not in known:
        raise click.UsageError(f"--plot {path}: {'no' if not extension else 'unknown'} image extension"
                               f"{' .' + extension if extension else ''}; use one of "
                               f"{', '.join('.' + e for e in known)}")


def check_format(option: str, fmt: str, alphabet: str | None, puzzle: Puzzle) -> None:
    """Refuse, before any work, an output format that cannot hold ``puzzle``'s size."""
    try:
        formats.dumps([puzzle], format=fmt, alphabet=alphabet)
    except ValueError as exc:
        raise click.UsageError(f"{option} {fmt}: {exc}") from None


class StandardOutputError(OSError):
    """Standard output failed (a closed pipe, a full device, a gone terminal): the command's guard
    says so in one line, and a failure of any other file is never blamed on it."""


def _on_stdout(action, *args):
    """``action(*args)``, a write or flush of standard output, its failure a :class:`StandardOutputError`."""
    try:
        return action(*args)
    except OSError as exc:
        raise StandardOutputError(exc.errno, exc.strerror) from None


class StandardOutput(io.TextIOBase):
    """Standard output, whose failures are :class:`StandardOutputError`."""

    def __init__(self, stream) -> None:
        self.stream = stream

    @classmethod
    def around(cls, stream) -> StandardOutput:
        return stream if isinstance(stream, cls) else cls(stream)

    def write(self, text: str) -> int:
        return _on_stdout(self.stream.write, text)

    def flush(self) -> None:
        _on_stdout(self.stream.flush)

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def buffer(self):
        return _BinaryOutput(self.stream.buffer)

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:
        return getattr(self.stream, "errors", None) or "strict"


class _BinaryOutput:
    """Standard output's binary side, whose failures are :class:`StandardOutputError` too."""

    def __init__(self, buffer) -> None:
        self._buffer = buffer

    def write(self, data: bytes) -> int:
        return _on_stdout(self._buffer.write, data)

    def flush(self) -> None:
        _on_stdout(self._buffer.flush)

    def __getattr__(self, name: str):
        return getattr(self._buffer, name)


@contextlib.contextmanager
def writing(path: str):
    """Turn an output file that exists (without ``--force``) or cannot be written into a one-line
    message and exit code 2; a failure of standard output (``-``) goes on to the command's guard."""
    try:
        yield
    except FileExistsError as exc:
        raise InputError(f"{exc}; use --force to replace it") from None
    except OSError as exc:
        if path == "-":
            raise
        raise InputError(f"{path}: {exc.strerror or exc}") from None


def write_text(path: str, text: str, force: bool) -> None:
    """Write to a file atomically (never replacing one without ``force``), or to standard output for ``-``."""
    if path == "-":
        click.echo(text, nl=False)
        return
    with writing(path):
        write_atomic(path, text, overwrite=force)


def write_puzzles(out: str, puzzles: Iterable[Puzzle], fmt: str, alphabet: str | None, force: bool) -> None:
    """Write ``puzzles`` as they come, atomically to a file (never replacing one without ``force``) or
    to standard output for ``-`` (the callers check the format against every size before any work,
    :func:`check_format`)."""
    with writing(out):
        try:
            formats.write(out, puzzles, format=fmt, alphabet=alphabet, overwrite=force)
        except ValueError as exc:
            raise InputError(f"{out}: {exc}") from None


# -- progress and messages on standard error ---------------------------------------------------

class Progress:
    """A progress bar on standard error with count, rate and ETA, shown only when standard error is a
    terminal and ``quiet`` is off; :meth:`echo` prints a line (to either stream) without tearing it."""

    def __init__(self, total: int, label: str, unit: str, *, quiet: bool = False) -> None:
        self.unit, self.started, self.done = unit, time.perf_counter(), 0
        self.bar = None
        if not quiet and total > 1 and sys.stderr is not None and sys.stderr.isatty():
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True, show_eta=True,
                                         item_show_func=lambda rate: rate)

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def advance(self) -> None:
        self.done += 1
        if self.bar is not None:
            rate = self.done / max(time.perf_counter() - self.started, 1e-9)
            self.bar.update(1, f"{rate:.2f} {self.unit}/s" if rate < 10 else f"{rate:.0f} {self.unit}/s")

    def echo(self, line: str, *, err: bool = False) -> None:
        if self.bar is not None:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        click.echo(line, err=err)
        if self.bar is not None:
            self.bar.render_progress()


def warm_up_announced(algorithm: str, puzzles: Iterable[Puzzle], *, quiet: bool = False,
                      compiled: bool | None = True) -> bool:
    """Compile or load ``algorithm``'s kernels for every shape in ``puzzles`` before any clock starts
    (``compiled``: see :func:`~deap_sudoku.runs.task.warm_up`), saying so on standard error when it
    takes longer than a second (a first compilation); whether it did."""
    message = registry.algorithm(algorithm).warm_up_message
    shown = threading.Event()

    def announce() -> None:
        if not shown.is_set():
            shown.set()
            if not quiet:
                click.echo(f"{message} ...", err=True)

    for puzzle in {p.shape: p for p in puzzles}.values():
        timer = threading.Timer(1.0, announce)
        timer.daemon = True
        timer.start()
        try:
            warm_up(algorithm, puzzle, compiled)
        finally:
            timer.cancel()
    return shown.is_set()


# -- SCOOP ------------------------------------------------------------------------------------

def scoop_options(workers_help: str):
    """``--workers``, ``--hosts`` and ``--hostfile``, for the commands that spread work over SCOOP."""
    def decorate(command):
        command = click.option("--hostfile", type=click.Path(exists=True, dir_okay=False), default=None,
                               help="With --workers: a SCOOP hostfile, one 'host workers' line per host.")(command)
        command = click.option("--hosts", default=None, metavar="HOST[,HOST...]",
                               help="With --workers: the hosts SCOOP starts workers on (password-less ssh; the "
                                    "package installed on each); 127.0.0.1 runs the multi-host code path "
                                    "locally.")(command)
        return click.option("--workers", "-n", type=click.IntRange(min=1), default=None, help=workers_help)(command)
    return decorate


def check_scoop(workers: int | None, hosts: str | None, hostfile: str | None) -> None:
    """Refuse, before any work, hosts without workers and both ways of naming hosts at once."""
    if (hosts or hostfile) and workers is None:
        raise click.UsageError("--hosts and --hostfile need --workers")
    if hosts and hostfile:
        raise click.UsageError("give --hosts or --hostfile, not both")


PARENT_PID = "DEAP_SUDOKU_PARENT_PID"
"""The pid of the command that started SCOOP, for the command it runs there (:func:`starter_gone`)."""


def starter_gone() -> bool:
    """Whether, under SCOOP, the command that started it has died (a SIGKILL, a closed terminal):
    the run there then stops, writes nothing a rerun may already be writing, and SCOOP's launcher
    ends the workers as the run ends."""
    pid = os.environ.get(PARENT_PID, "")
    return pid.isdigit() and not process_runs(int(pid))


def rerun_under_scoop(ctx: click.Context, workers: int, hosts: str | None, hostfile: str | None, *,
                      drop: tuple[str, ...]) -> int:
    """Run this very command again under ``python -m scoop`` (which starts a file, so it is given the
    installed package's ``__main__.py``), without the options in ``drop``; its exit code."""
    entry = importlib.util.find_spec("deap_sudoku.__main__").origin  # found, not imported
    launcher = [sys.executable, "-m", "scoop"]
    if hosts:
        launcher += ["--hosts", *hosts.split(",")]
    if hostfile:
        launcher += ["--hostfile", hostfile]
    launcher += ["-n", str(workers)]  # after the hosts, which would take every word up to the next option
    command = [entry, *_command_line(ctx, drop=drop)]
    with tempfile.TemporaryDirectory() as folder:
        exit_file = os.path.join(folder, "exit-code")  # SCOOP's launcher does not pass the code on
        pid_file = os.path.join(folder, "root-pid")
        env = {**os.environ, "DEAP_SUDOKU_EXIT_FILE": exit_file, "DEAP_SUDOKU_ROOT_PID_FILE": pid_file,
               PARENT_PID: str(os.getpid())}
        # In a session of its own, SCOOP's launcher and workers do not see the terminal's Ctrl-C; this
        # process passes each SIGINT or SIGTERM to the command alone, which ends its runs and writes its
        # outputs as it does serially.
        launched = subprocess.Popen(launcher + command, env=env, start_new_session=True)
        while True:
            try:
                launched.wait()
                break
            except KeyboardInterrupt as exc:
                _forward(getattr(exc, "signum", signal.SIGINT), pid_file, launched)
        try:
            with open(exit_file) as handle:
                return int(handle.read())
        except (OSError, ValueError):
            return launched.returncode or 1  # the command never got to say: it did not end well


def _forward(signum: int, pid_file: str, launched: subprocess.Popen) -> None:
    """Pass ``signum`` to the command SCOOP runs; before it has started, end SCOOP altogether."""
    try:
        with open(pid_file) as handle:
            os.kill(int(handle.read()), signum)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.killpg(launched.pid, signal.SIGTERM)


def _command_line(ctx: click.Context, *, drop: tuple[str, ...]) -> list[str]:
    """The arguments that give ``ctx``'s parameters again (``bench a.txt -a tabu --runs 2 ...``)."""
    words = [ctx.info_name]
    arguments = []
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if param.name in drop or value is None:
            continue
        if isinstance(param, click.Argument):
            arguments += [str(v) for v in (value if param.nargs != 1 else [value])]
        elif param.is_flag:
            if value:
                words.append(param.opts[0])
        elif param.multiple:
            for item in value:
                words += [param.opts[0], str(item)]
        else:
            words += [param.opts[0], str(value)]
    return words + ["--"] + arguments
