"""Outputs checked before any work (paths, formats, plots, checkpoints, locks) and written atomically
(standard output itself is :mod:`deap_sudoku.cli.stdout`)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click
import numpy as np

from ..grid import Puzzle, clashing_cells, format_grid
from ..io import formats
from ..io.fileio import FileInUse, lock_for_writing, name_problem, release, write_atomic
from .errors import InputError, plural, terminal

if TYPE_CHECKING:
    from ..runs.checkpoint import Checkpoint


def check_outputs(
    outputs: dict[str, str | None] | list[tuple[str, str | None]],
    force: bool,
    *,
    resumable: tuple[str, ...] = (),
    inputs: tuple[str, ...] = (),
    replaceable: Callable[[str], bool] | None = None,
) -> None:
    """Refuse, before any work, outputs that cannot be written: a missing or read-only folder, a
    folder given as a file, anything but a regular file (a device, pipe or socket is never
    replaced, even with ``force``), an existing file without ``force``, one file named by two
    options, standard output (``-``) claimed by two options, one of the ``inputs`` (with ``force``
    too: a run never writes onto what it reads), a symbolic link to nothing, or a name too long
    once the temporary name beside it is counted.  ``outputs`` maps option names (``--out``) to
    paths (or is a list of such pairs, for one option with many files); the ``resumable`` ones
    (``--checkpoint``) may exist, to be read back and appended to, if they can be written.  An
    existing file that ``replaceable(path)`` says is this command's own, left by its interrupted
    run, is replaced without ``force``."""
    outputs = list(outputs.items()) if isinstance(outputs, dict) else outputs
    _check_standard_output(outputs, resumable)
    named = [(option, path) for option, path in outputs if path is not None and path != "-"]
    _check_distinct(named)
    folders_checked: set[str] = set()
    for option, path in named:
        _check_folder(option, path, folders_checked)
        _check_file(option, path, option in resumable, inputs)
        if os.path.exists(path) and not force and option not in resumable:
            if replaceable is None or not replaceable(path):
                raise InputError(f"{option} {path} exists; refusing to overwrite it; use --force to replace it")


def _check_standard_output(outputs: list[tuple[str, str | None]], resumable: tuple[str, ...]) -> None:
    """Refuse standard output claimed by two options, or given to one that is read back to resume."""
    stdout = [option for option, path in outputs if path == "-"]
    if len(stdout) > 1:
        raise click.UsageError(f"{' and '.join(stdout)} both write to standard output; give one of them a file")
    for option, path in outputs:
        if option in resumable and path == "-":
            raise click.UsageError(f"{option} needs a file: it is read back to resume")


def _check_distinct(named: list[tuple[str, str]]) -> None:
    """Refuse one file named by two options, however its names are spelt (links and ``..`` resolved)."""
    claimed: dict[str, tuple[str, str]] = {}  # real path -> who names it (one pass: thousands of names stay fast)
    for option, path in named:
        other = claimed.setdefault(os.path.realpath(path), (option, path))
        if other != (option, path):
            raise click.UsageError(f"{other[0]} and {option} name the same file, {path}; give them different names")


def _check_folder(option: str, path: str, folders_checked: set[str]) -> None:
    """Refuse a folder given as the file, or a file in a folder that is missing or read-only; each
    folder is checked once (added to ``folders_checked``)."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"{option} {path}: is a folder; give a file name")
    if folder not in folders_checked:
        if not os.path.isdir(folder):
            raise InputError(f"{option} {path}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK):
            raise InputError(f"{option} {path}: the folder {folder} is not writable")
        folders_checked.add(folder)


def _check_file(option: str, path: str, resumable: bool, inputs: tuple[str, ...]) -> None:
    """Refuse an output that is not a regular file, is one of the ``inputs``, has a name the file
    system cannot take, or (``resumable``) cannot be appended to."""
    if os.path.exists(path) and not os.path.isfile(path):
        raise InputError(
            f"{option} {path}: not a regular file (a device, pipe or socket); refusing to replace "
            "it" + ("; use - for standard output" if not resumable else "")
        )
    for source in inputs:
        if source != "-" and os.path.exists(path) and os.path.exists(source) and os.path.samefile(path, source):
            raise InputError(
                f"{option} {path} is also an input ({source}); refusing to write onto it, "
                "--force or not: give the output another name"
            )
    problem = name_problem(path)
    if problem is not None:
        raise InputError(f"{option} {path}: {problem}")
    if resumable and os.path.isfile(path) and not os.access(path, os.W_OK):
        raise InputError(f"{option} {path}: is not writable; it could not keep this run's work")


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
    from ..runs.checkpoint import Checkpoint, CheckpointError  # here: a command that writes no run needs no algorithm

    checkpoint = Checkpoint(
        Path(path), every, identity, puzzle=puzzle, warn=lambda message: click.echo(f"warning: {message}", err=True)
    )
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
    from ..runs import plots

    try:
        known = plots.image_formats()
    except ImportError as exc:
        raise InputError(f"--plot: {exc}") from None
    extension = os.path.splitext(path)[1].lstrip(".").lower()
    if extension not in known:
        raise click.UsageError(
            f"--plot {path}: {'no' if not extension else 'unknown'} image extension"
            f"{' .' + extension if extension else ''}; use one of "
            f"{', '.join('.' + e for e in known)}"
        )


def check_format(option: str, fmt: str, alphabet: str | None, puzzle: Puzzle) -> None:
    """Refuse, before any work, an output format that cannot hold ``puzzle``'s size."""
    try:
        formats.dumps([puzzle], format=fmt, alphabet=alphabet)
    except ValueError as exc:
        raise click.UsageError(f"{option} {fmt}: {exc}") from None


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


def colour(stream) -> bool:
    """Whether to colour what goes to ``stream``: a terminal, and no ``NO_COLOR`` set (no-color.org)."""
    return not os.environ.get("NO_COLOR") and terminal(stream)


def grid_picture(puzzle: Puzzle, grid, stream=None) -> str:
    """The picture of a run's grid that ``solve`` prints: its clashing cells, and givens it changed,
    marked, red where ``stream`` (standard output by default) is a terminal that takes colour, else
    with ``*`` beside the value (which the grid reader skips, so the picture still reads back); a grid
    without either is the plain picture."""
    cells = np.asarray(grid).ravel()
    marks = clashing_cells(puzzle.shape, cells) | (puzzle.givens & (cells != puzzle.cells))
    if not marks.any():
        return format_grid(puzzle.shape, cells)
    red = (lambda text: click.style(text, fg="red", bold=True)) if colour(stream or sys.stdout) else None
    return format_grid(puzzle.shape, cells, marks=marks, highlight=red)
