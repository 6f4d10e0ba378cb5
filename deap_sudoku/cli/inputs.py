"""Reading puzzles on the command line: the input options, one-line errors naming file and line, and
the two-pass reader that checks a whole file before any work."""

from __future__ import annotations

import contextlib
import fnmatch
import glob
import os

import click

from ..grid import Puzzle, PuzzleError, PuzzleFileError, Shape
from ..io import formats
from ..io.samples import sample_names, sample_path
from .errors import KEEP, InputError, StandardOutputError, plural, wrap


BUNDLED = "data/"
"""Where the documentation's puzzle files live in a checkout; from anywhere else ``data/NAME`` reads the
copy of NAME bundled with the package (``deap-sudoku samples`` lists them)."""


def bundled_or(path: str) -> str:
    """``path``, or for ``data/NAME`` when no such path exists here the bundled copy of NAME, with a
    line on standard error that says so: a real path always wins."""
    if path == "-" or not path.startswith(BUNDLED) or os.path.lexists(path):
        return path
    found = sample_path(path[len(BUNDLED) :])
    if found is None:
        return path
    hint = "(deap-sudoku samples lists them)".replace(" ", KEEP)  # on the next line when the width is short
    click.echo(wrap(f"{path}: reading the bundled copy {hint}"), err=True)
    _TYPED[str(found)] = path
    return str(found)


_TYPED: dict[str, str] = {}
"""The bundled files read in this process, by their path on disk: the ``data/NAME`` they were given as."""


def as_given(path: str) -> str:
    """How a line names ``path``: ``data/NAME`` for a bundled file given so (:func:`bundled_or`), not
    its path on disk (145-167 characters in a virtual environment), else ``path``."""
    return _TYPED.get(path, path)


SAMPLES_HINT = "'deap-sudoku samples' lists them"
"""Where a notice about the bundled files points, instead of their site-packages path (145-167
characters in a virtual environment) that nobody needs to read."""


def nearest_file(path: str) -> str | None:
    """The existing file whose name is closest to the missing ``path`` (:mod:`difflib`, on the
    file names: a shared folder or ``.txt`` is no likeness): one in its folder, or a bundled
    ``data/NAME``, for a "did you mean" after a typing slip."""
    import difflib  # here, not at start-up: 4-6 ms that only a missing file needs

    folder, wanted = os.path.split(path)
    try:
        here = [os.path.join(folder, name) for name in sorted(os.listdir(folder or "."))]
    except OSError:
        here = []
    candidates = [p for p in here if os.path.isfile(p)] + [BUNDLED + name for name in sample_names()]
    matcher = difflib.SequenceMatcher(b=wanted)
    best, found = NEAREST_FILE_LIKENESS, None
    for candidate in candidates:
        matcher.set_seq1(os.path.basename(candidate))
        if matcher.ratio() > best:
            best, found = matcher.ratio(), candidate
    return found


NEAREST_FILE_LIKENESS = 0.75
"""How alike (difflib's ratio) a file's name must be to a missing one's to be suggested: ``9x9.tx``
and ``9x9.txt`` are 0.92 alike, ``eazy.txt`` and ``easy.txt`` 0.88, ``hard.txt`` and ``easy.txt`` 0.62."""


def missing_file(path: str) -> str:
    """The one-line message for a puzzle file that does not exist: the nearest file first, if any."""
    nearest = nearest_file(path)
    guess = f"; did you mean {nearest}?" if nearest is not None else ""
    listed = f"'deap-sudoku{KEEP}samples' lists the bundled ones, read as {BUNDLED}NAME anywhere"
    return f"{path}: no such file{guess} ({listed})"


def bundled_matching(pattern: str) -> tuple[str, ...]:
    """The bundled copies of the files a ``data/`` wildcard pattern names (``data/testdata/*.txt``)
    when the shell found none here and passed it on as it was, else ``(bundled_or(pattern),)``."""
    if pattern.startswith(BUNDLED) and any(c in pattern for c in "*?[") and not glob.glob(pattern):
        wanted = pattern[len(BUNDLED) :]
        paths = [
            sample_path(name)
            for name in sample_names()
            if fnmatch.fnmatchcase(name, wanted) and name.count("/") == wanted.count("/")
        ]
        paths = [path for path in paths if path is not None]  # (none where the package is zipped)
        if paths:
            click.echo(
                f"{pattern}: no such files in this folder; reading the {plural(len(paths), 'copy', 'copies')}"
                f" bundled with deap-sudoku ({SAMPLES_HINT})",
                err=True,
            )
            return tuple(str(path) for path in paths)
    return (bundled_or(pattern),)


class PuzzleFile(click.ParamType):
    """A puzzle file argument: a path, ``-`` for standard input (where ``stdin``), or ``data/NAME`` for
    a puzzle file bundled with the package (:func:`bundled_or`).  With ``patterns`` each value becomes
    a tuple of paths: ``data/`` wildcards the shell left as they were match the bundled files."""

    def __init__(self, *, stdin: bool = True, patterns: bool = False) -> None:
        self.stdin, self.patterns = stdin, patterns
        self.name = "FILE|-" if stdin else "FILE"

    def convert(self, value, param, ctx):
        if value == "-" and not self.stdin:
            self.fail("standard input (-) is not read here: name a file", param, ctx)
        paths = bundled_matching(value) if self.patterns else (bundled_or(value),)
        for path in paths:
            if path != "-" and not os.path.lexists(path):
                self.fail(missing_file(path), param, ctx)
        return paths if self.patterns else paths[0]

    def shell_complete(self, ctx, param, incomplete):
        """Paths, completed by the shell itself; ``data/NAME`` for the bundled files where this
        folder has no ``data`` folder, nor a path that begins so."""
        from click.shell_completion import CompletionItem

        bundled = []
        if incomplete and (BUNDLED.startswith(incomplete) or incomplete.startswith(BUNDLED)):
            if not os.path.isdir(BUNDLED) and not glob.glob(glob.escape(incomplete) + "*"):
                bundled = [BUNDLED + name for name in sample_names() if (BUNDLED + name).startswith(incomplete)]
        if bundled:
            return [CompletionItem(name) for name in bundled]
        return [CompletionItem(incomplete, type="file")]


PUZZLE_FILE = PuzzleFile()
PUZZLE_FILE_HELP = (
    "A FILE named data/NAME that is not in the current folder is the bundled puzzle file NAME "
    "('deap-sudoku samples' lists them)."
)


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
    command = click.option(
        "--alphabet",
        type=click.Choice(tuple(formats.ALPHABETS)),
        default=None,
        help=f"Symbols of the {lettered} formats.",
    )(command)
    command = click.option("--box", default=None, metavar="ROWSxCOLS", help="Box shape, e.g. 2x3 (default: squarest).")(
        command
    )
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(formats.FORMATS),
        default=None,
        help="Input format (detected when not given).",
    )(command)


@contextlib.contextmanager
def reading(path: str):
    """Turn a bad or unreadable input file into a one-line message and exit code 2."""
    try:
        yield
    except PuzzleFileError as exc:
        first, more = exc.errors[0], len(exc.errors) - 1
        raise InputError(
            f"{first}" + (f" (and {more} more; 'deap-sudoku check {path}' lists them all)" if more else "")
        ) from None
    except PuzzleError as exc:
        raise InputError(str(exc)) from None
    except (StandardOutputError, BrokenPipeError):
        raise  # standard output closed under the command (| head): the command's guard says so, not the input
    except FileNotFoundError:
        raise InputError(missing_file(path)) from None
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
        self.count = 0
        self.examples: dict[Shape, Puzzle] = {}
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
