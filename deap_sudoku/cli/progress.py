"""Progress and messages on standard error: the progress bar, and the announced warm-up of compiled
kernels."""

from __future__ import annotations

import collections
import functools
import math
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import click

from ..grid import Puzzle, Shape
from ..propagation.choice import NumbaUnavailable, compiled_from_the_start, numba_available, numba_trouble
from .errors import width, wrap

if TYPE_CHECKING:
    from ..runs.record import Algorithm


def clock(seconds: float) -> str:
    """``00:01:05`` (``2d 03:00:00`` past a day), as click writes an ETA."""
    t = int(seconds)
    days, hours, minutes = t // 86400, t // 3600 % 24, t // 60 % 60
    return (f"{days}d " if days else "") + f"{hours:02}:{minutes:02}:{t % 60:02}"


class RunsLeft:
    """An ETA that knows the runs left are not all alike (issue 63: with the memetic GA's runs done
    in milliseconds and the tabu searches' 5 s each to go, click's average said 00:00:00).

    Each run left is expected to take what its algorithm's finished runs took on average, else its
    time budget, else the average of every finished run; the work left is then divided by the runs
    made at once so far (their seconds over the wall time, at least 1: several workers).  Kept as
    sums, :meth:`finished` once per run: asked after every run, it costs the same on the last."""

    def __init__(self, remaining: dict[str, int], budgets: dict[str, float | None]) -> None:
        self.remaining, self.budgets, self.started = dict(remaining), budgets, time.perf_counter()
        self.runs: collections.Counter[str] = collections.Counter()
        self.spent: dict[str, float] = collections.defaultdict(float)

    def finished(self, algorithm: str, seconds: float) -> None:
        """A run of ``algorithm`` ended after ``seconds`` (NaN, for a failed run, counts no time)."""
        self.remaining[algorithm] = self.remaining.get(algorithm, 0) - 1
        if math.isfinite(seconds):
            self.runs[algorithm] += 1
            self.spent[algorithm] += seconds

    def seconds_left(self, elapsed: float | None = None) -> float | None:
        """The ETA, ``elapsed`` seconds (by default, since this was made) into the session; None until
        a run has finished."""
        runs, done = sum(self.runs.values()), sum(self.spent.values())
        if not runs:
            return None
        elapsed = time.perf_counter() - self.started if elapsed is None else elapsed

        def expected(name: str) -> float:
            if self.runs[name]:
                return self.spent[name] / self.runs[name]
            budget = self.budgets.get(name)
            return budget if budget is not None else done / runs

        left = sum(max(0, count) * expected(name) for name, count in self.remaining.items())
        return left / max(1.0, done / max(elapsed, 1e-6))


def _bar_width(total: int, label: str, unit: str) -> int:
    """The bar's width in characters that keeps the whole line, ``LABEL  [BAR]  7/10  00:00:01  3.27
    puzzles/s``, inside the terminal's width (:func:`~deap_sudoku.cli.errors.width`): a line wider
    than the terminal wraps, and each redraw then leaves its first half behind (issue 63)."""
    info = len(f"{total}/{total}") + 2 + len("00:00:00") + 2 + len(f"99999 {unit}/s")
    return max(10, width() - 1 - len(label) - len("  []  ") - info)


class Progress:
    """A progress bar on standard error with count, rate and ETA, shown only when standard error is a
    terminal and ``quiet`` is off; :meth:`echo` prints a line (to either stream) without tearing it.
    One item (a single puzzle) has no bar: once it has taken a second, a line counts the seconds
    instead (:class:`_Ticking`), so that a long run is never a still screen."""

    def __init__(
        self, total: int, label: str, unit: str, *, quiet: bool = False, eta: Callable[[], float | None] | None = None
    ) -> None:
        self.unit, self.started, self.done, self.eta = unit, time.perf_counter(), 0, eta
        self.bar = None
        terminal = not quiet and sys.stderr is not None and sys.stderr.isatty()
        self.lock = threading.Lock()  # the ticking line and the lines printed between its ticks
        self.ticking = _Ticking(label, self.lock) if terminal and total == 1 else None
        if terminal and total > 1:
            self.bar = click.progressbar(
                length=total,
                label=label,
                file=sys.stderr,
                show_pos=True,
                show_eta=eta is None,  # else the seconds ``eta`` gives, before the rate
                item_show_func=lambda rate: rate,
                width=_bar_width(total, label, unit),
            )

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.__enter__()
        if self.ticking is not None:
            self.ticking.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.ticking is not None:
            self.ticking.stop()
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def advance(self) -> None:
        self.done += 1
        if self.ticking is not None:
            self.ticking.stop()
        if self.bar is not None:
            rate = self.done / max(time.perf_counter() - self.started, 1e-9)
            shown = f"{rate:.2f} {self.unit}/s" if rate < 10 else f"{rate:.0f} {self.unit}/s"
            left = self.eta() if self.eta is not None else None
            self.bar.update(1, shown if left is None else f"{clock(left)}  {shown}")

    def echo(self, line: str, *, err: bool = False) -> None:
        with self.lock:
            if self.bar is not None or (self.ticking is not None and self.ticking.shown):
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()
                if self.ticking is not None:
                    self.ticking.shown = False  # drawn again at its next tick
            click.echo(line, err=err)
            if self.bar is not None:
                self.bar.render_progress()


def _count_seconds(
    label: str,
    started: float,
    done: threading.Event,
    lock: threading.Lock,
    drawn: Callable[[], None] | None = None,
) -> None:
    """Draw ``label ... 12 s`` (the seconds since ``started``) over the terminal's current line now
    and at each whole second after, cut to its width, until ``done`` is set; each drawing holds
    ``lock`` and calls ``drawn`` under it."""
    while True:
        seconds = time.perf_counter() - started
        with lock:
            if done.is_set():
                return
            width = shutil.get_terminal_size().columns
            sys.stderr.write(f"\r\033[K{label} ... {seconds:.0f} s"[: width + 3])  # + 3: the \r\033[K
            sys.stderr.flush()
            if drawn is not None:
                drawn()
        if done.wait(1.0 - seconds % 1.0):
            return


class _Ticking:
    """``label ... 12 s`` on a terminal, redrawn every second from the first on, until :meth:`stop`
    clears it; ``lock`` is held while it draws, and by whoever prints between its ticks (who clears
    the line first: :meth:`Progress.echo`)."""

    def __init__(self, label: str, lock: threading.Lock) -> None:
        self.label, self.lock, self.shown = label, lock, False
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._tick, daemon=True)

    def start(self) -> None:
        self.started = time.perf_counter()
        self.thread.start()

    def _tick(self) -> None:
        if not self.done.wait(1.0):
            _count_seconds(self.label, self.started, self.done, self.lock, drawn=self._drawn)

    def _drawn(self) -> None:
        self.shown = True

    def stop(self) -> None:
        if self.done.is_set():
            return
        self.done.set()
        if self.thread.is_alive():
            self.thread.join()
        with self.lock:
            if self.shown:
                sys.stderr.write("\r\033[K")
                sys.stderr.flush()
                self.shown = False


_told_without_numba: list[bool] = []  # not empty once the notice has been given in this process


def _say_without_numba(record, shapes: Iterable[Shape], compiled: bool | None, quiet: bool) -> None:
    """One line, once per process, where numba is missing or cannot be loaded and a kernel call of
    ``record``'s on one of ``shapes`` would have been compiled (``compiled=True``: on any): the
    Python twins run instead."""
    if (
        record.warm_up is not None
        and not quiet
        and not _told_without_numba
        and not numba_available()
        and (compiled or any(compiled_from_the_start(shape.cells, shape.n) for shape in shapes))
    ):
        _told_without_numba.append(True)
        trouble = numba_trouble()
        from .options import memory_limits  # here: options imports the registry, and this is a rare message

        limits = "" if "ulimit" in trouble else f"; {memory_limits()}"
        why = f"numba could not be loaded ({trouble}{limits})" if trouble else "numba is not installed"
        click.echo(
            wrap(
                f"{why}: the compiled kernels run as their Python twins, the same answers but slower on "
                "16x16 and larger grids" + ("" if numba_trouble() else " (pip install numba)")
            ),
            err=True,
        )


class _Compiling:
    """What a warm-up shows on standard error once it has taken a second (a compilation; loading
    cached kernels takes less): on a terminal, a line that counts the seconds, "compiling the
    clause-learning kernels ... 12 s", then the duration; elsewhere one line at the start and one
    with the duration at the end.  Whether it showed anything: :attr:`shown`."""

    def __init__(self, message: str, quiet: bool) -> None:
        self.message, self.head, self.quiet = message, message.split(" (")[0], quiet
        self.live = not quiet and sys.stderr is not None and sys.stderr.isatty()
        self.shown, self.done = threading.Event(), threading.Event()
        self.started = time.perf_counter()
        self.thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> _Compiling:
        self.thread.start()
        return self

    def _tick(self) -> None:
        if self.done.wait(1.0):
            return
        self.shown.set()
        if self.quiet:
            return
        if not self.live:  # a log: the line wrapped to the width, as the other messages are
            click.echo(wrap(f"{self.message} ..."), err=True)
            return
        _count_seconds(self.head, self.started, self.done, threading.Lock())

    def __exit__(self, kind, *_) -> None:
        self.done.set()
        self.thread.join()
        if not self.shown.is_set() or self.quiet:
            return
        if self.live:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        if kind is None:
            done = f"{self.head}: done in {time.perf_counter() - self.started:.1f} s"
            rest = self.message[len(self.head) :]  # " (first run only; later runs load them ...)"
            if self.live and len(done + rest) > shutil.get_terminal_size().columns:  # one line, not wrapped
                rest = rest.split(";")[0] + ")" if ";" in rest else ""
            click.echo(done + rest if self.live else wrap(done + rest), err=True)


def warm_up_announced(
    record: Algorithm,
    puzzles: Iterable[Puzzle],
    *,
    quiet: bool = False,
    compiled: bool | None = True,
    budgeted: bool = False,
    echo: Callable[[str], None] | None = None,
) -> bool:
    """Compile or load the kernels of ``record``'s algorithm for every shape in ``puzzles`` before
    any clock starts
    (``compiled``: see :func:`~deap_sudoku.runs.kernels.warm_up`), showing what it does and for how long
    on standard error when it takes longer than a second (a first compilation: see :class:`_Compiling`);
    whether it did.  A first compilation that a background process does is said in one line, and
    the run's taking the kernels up, once they are cached, in another (through ``echo``, which a
    progress bar may give, by default to standard error).  Without numba there is nothing to load:
    one line, once per process, says the Python twins run instead."""
    from ..runs import kernel_cache, kernels  # here: check and generate warm no kernels for the grids most search

    shapes = {p.shape: p for p in puzzles}
    if not numba_available():
        _say_without_numba(record, shapes, compiled, quiet)
        return False
    message = record.warm_up_message
    if message and kernels.compiled_before(record.name):  # cached: a slow warm-up is loading, not compiling
        message = message.split(" (")[0].replace("compiling", "loading", 1) + " from numba's cache"
    say = echo if echo is not None else functools.partial(click.echo, err=True)

    def taken_up(after: float, loading: float) -> None:
        if not quiet:
            say(
                wrap(
                    f"{message.split(' (')[0]}: done, taken up after {after:.1f} s on the Python twins "
                    f"({loading:.2f} s to load)"
                )
            )

    told_elsewhere, shown = False, False
    for puzzle in shapes.values():
        try:
            with _Compiling(message, quiet) as compiling:
                elsewhere = kernels.warm_up(
                    record.name, puzzle, compiled, record=record, budgeted=budgeted, taken_up=taken_up
                )
        except NumbaUnavailable:  # installed, but it cannot be loaded here (out of memory, say)
            _say_without_numba(record, shapes, compiled, quiet)
            return False
        shown = shown or compiling.shown.is_set()
        troubles = kernel_cache.notices()  # a damaged cache file removed, a cache that cannot be used
        if elsewhere and not quiet and not told_elsewhere:
            told_elsewhere = True
            head = message.split(" (")[0]  # the reason in brackets left out: one line at 120 columns
            line = f"{head} in a background process, while the run goes on with their Python twins"
            click.echo(wrap("; ".join([*troubles, line[0].lower() + line[1:]]) if troubles else line), err=True)
        elif troubles and not quiet:
            click.echo(wrap("; ".join(troubles)), err=True)
    return shown


def searched(shape: Shape) -> None:
    """Before ``check`` or ``generate`` searches grids of ``shape``: what ``solve`` does for
    ``backtracking``, whose kernels their exact search uses.  On a machine that never compiled them
    a background process does (said in a line) while the search runs on the Python twins and takes
    them up once they are cached, instead of compiling them in the foreground without a word
    (13 s of a first 36x36 ``generate``, which now takes 4 s); without numba, one notice.  Both
    commands give each puzzle a time budget: the kernels are taken up only where it is asked."""
    if not compiled_from_the_start(shape.cells, shape.n):
        return  # smaller grids search in Python first, whether or not numba is loaded (a test process)
    from ..runs import registry

    puzzle = Puzzle([0] * shape.cells, box=shape)
    warm_up_announced(registry.algorithm(registry.EXACT_SEARCH), [puzzle], compiled=None, budgeted=True)
