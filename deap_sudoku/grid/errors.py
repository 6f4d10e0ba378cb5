"""Errors for bad puzzles and bad files: each names where and what is wrong."""

from __future__ import annotations

__all__ = ["PuzzleError", "PuzzleFileError"]


class PuzzleError(ValueError):
    """A puzzle that cannot be read or is not a valid Sudoku.

    ``source``, ``line`` and ``column`` (1-based) say where the problem is when
    it came from text; ``problem`` says what is wrong.  ``str(error)`` reads
    ``source:line:column: problem`` like a compiler message.
    """

    def __init__(
        self, problem: str, *, source: str | None = None, line: int | None = None, column: int | None = None
    ) -> None:
        self.problem = problem
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self._message())

    def _message(self) -> str:
        where = [str(part) for part in (self.source, self.line, self.column) if part is not None]
        return ":".join(where + [" " + self.problem]) if where else self.problem


class PuzzleFileError(PuzzleError):
    """Every bad puzzle of one file, in file order, in ``errors``.

    With a single error the message is that error's; with several, a count
    followed by one indented line per error.
    """

    def __init__(self, errors: list[PuzzleError], *, source: str | None = None) -> None:
        if not errors:
            raise ValueError("PuzzleFileError needs at least one error")
        self.errors = list(errors)
        first = self.errors[0]
        if len(self.errors) == 1:
            super().__init__(first.problem, source=first.source, line=first.line, column=first.column)
        else:
            listing = "\n".join(f"  {error}" for error in self.errors)
            super().__init__(f"{len(self.errors)} errors:\n{listing}", source=source)
