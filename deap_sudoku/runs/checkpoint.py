"""Checkpoints: a run saved as data (never a pickle), checksummed, checked field by field before use,
saved incrementally, and refused when it belongs to another run.

The file is a header line, :data:`MAGIC`, then frames.  Each frame is a kind byte, the payload's
length (8 bytes, big-endian), a SHA-256 digest chained over every earlier frame, and the payload:
UTF-8 JSON.  The first frame holds the run's identity, each frame the logbook records added since
the frame before it and the whole state the loop needs (population, hall of fame, counters, the
run's generator).  A save appends one frame, so its cost does not grow with the logbook; once the
appended frames outweigh the rest, the file is rewritten whole (atomically) with one frame.

Reading verifies the header and every digest before it decodes anything, then checks every field:
types, ranges, lengths, the puzzle's givens, the generator's state.  Anything wrong is refused
with one line naming the file and the field.  A last frame cut short (the process was killed while
appending) is dropped: the run resumes from the save before it and, being seeded, replays the same
generations.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import stat
import struct
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._version import __version__
from ..algorithms.run import STATE_COUNTERS, ResumeError
from ..io.fileio import read_limited, remove_stale_temporaries, write_atomic

__all__ = [
    "Checkpoint",
    "CheckpointError",
    "CheckpointWarning",
    "run_identity",
    "saved_state",
    "MAGIC",
    "MAX_CHECKPOINT_BYTES",
]

MAGIC = b"deap_sudoku checkpoint 3\n"
"""Version 3: data frames with chained SHA-256 digests.  Versions 1 and 2 were pickles; they are
refused unread, since unpickling a file can run any code."""

MAX_CHECKPOINT_BYTES = 1 << 30
"""The largest checkpoint read (a 49x49 run of 1,000 individuals saves about 7 MB a frame)."""

_FRAME = struct.Struct(">cQ32s")
_KIND = b"S"
_MAX_CELL_VALUE = (1 << 16) - 1


class CheckpointError(ResumeError):
    """A checkpoint that cannot be used: unreadable, damaged, not ours, or of another run or version."""


class CheckpointWarning(UserWarning):
    """A checkpoint could not be saved; the run goes on without it."""


def run_identity(puzzle, algorithm: str, seed: int, options: dict) -> dict:
    """What must match for a checkpoint to be resumed: the version, puzzle, algorithm, seed and the
    options that shape the run.  Budgets (``max_*``) may differ, so a run can be resumed for longer.

    The puzzle is named by its size and a digest of its cells, so any grid size works and a
    mismatch reads in one short line.
    """
    digest = hashlib.sha256(np.asarray(puzzle.cells, dtype="<u2").tobytes()).hexdigest()[:16]
    return {
        "version": __version__,
        "puzzle": f"{puzzle.shape.name} puzzle {digest}",
        "box": puzzle.shape.name,
        "algorithm": algorithm,
        "seed": seed,
        "options": {
            k: v for k, v in sorted(options.items()) if k not in ("verbose", "checkpoint") and not k.startswith("max_")
        },
    }


@dataclass
class Checkpoint:
    """Where and how often a run saves itself, and who it is: the
    :class:`~deap_sudoku.algorithms.run.Checkpointer` the loops take.

    ``every``: save after every ``every``-th generation (and always when stopping).
    ``identity``: see :func:`run_identity`.  ``puzzle``: when given, a saved grid must have its
    cell count, values in its range and its givens.  ``warn``: called once with a one-line message
    if a save fails (full disk, folder gone); the run goes on, and later saves are still tried.
    By default it issues a :class:`CheckpointWarning`.
    """

    path: Path
    every: int = 1
    identity: dict = field(default_factory=dict)
    puzzle: object = None
    warn: Callable[[str], None] | None = None
    dropped: int = field(default=0, init=False)
    """Bytes of a cut-short last save that the last :meth:`read` dropped."""

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if isinstance(self.every, bool) or not isinstance(self.every, int) or self.every < 1:
            raise ValueError(f"checkpoint every must be a whole number of generations, at least 1; got {self.every!r}")
        try:
            self.identity = json.loads(json.dumps(self.identity, sort_keys=True, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"checkpoint identity must be plain data (numbers, strings, lists, dicts): {exc}"
            ) from None
        self._written = 0  # logbook records on disk
        self._end: int | None = None  # where the last good frame ends; None: write the file anew
        self._digest = b""
        self._whole = 0  # bytes of the file when last written whole
        self._appended = 0  # bytes appended since
        self._failed = False

    def due(self, generation: int) -> bool:
        return generation % self.every == 0

    # -- saving ---------------------------------------------------------------------------------

    def save(self, state: dict) -> None:
        """Add ``state`` (the loop's; see :meth:`Run._state <deap_sudoku.algorithms.run.Run>`)
        to the file: one appended frame, or the whole file anew when appends outweigh it.  A failure
        to write warns once (``warn``) and the run goes on."""
        records = state["logbook"]
        body = {k: v for k, v in state.items() if k != "logbook"}
        try:
            if self._end is None or len(records) < self._written or self._appended > max(self._whole, 1 << 20):
                self._write_whole(records, body)
            else:
                self._append(records, body)
        except OSError as exc:
            self._end = None  # whatever reached the disk, the next save writes the file anew
            if not self._failed:
                self._failed = True
                message = (
                    f"could not save the checkpoint {self.path} ({exc.strerror or exc}); the run goes on without it"
                )
                if self.warn is not None:
                    self.warn(message)
                else:
                    warnings.warn(message, CheckpointWarning, stacklevel=2)

    def _write_whole(self, records, body: dict) -> None:
        frame, digest = _frame(b"", {"identity": self.identity, "log": _plain(list(records)), "state": _encode(body)})
        write_atomic(self.path, MAGIC + frame, overwrite=True)
        self._end, self._digest, self._written = len(MAGIC) + len(frame), digest, len(records)
        self._whole, self._appended = self._end, 0

    def _append(self, records, body: dict) -> None:
        frame, digest = _frame(self._digest, {"log": _plain(list(records[self._written :])), "state": _encode(body)})
        assert self._end is not None, "an append follows a whole write"
        with open(self.path, "r+b") as handle:
            handle.seek(self._end)
            handle.truncate()  # a save cut short before this one
            handle.write(frame)
            handle.flush()
            os.fsync(handle.fileno())
        self._end += len(frame)
        self._digest, self._written, self._appended = digest, len(records), self._appended + len(frame)

    # -- reading --------------------------------------------------------------------------------

    def read(self) -> dict | None:
        """The saved state, checked to be this run's and whole; None when there is no file yet.

        :raises CheckpointError: naming the file and what is wrong with it.
        """
        remove_stale_temporaries(self.path)
        if not os.path.lexists(self.path):
            return None
        state, end, digest, dropped = _parse(self.path, self.puzzle, self.identity)
        self._end, self._digest, self._written, self.dropped = end, digest, len(state["logbook"]), dropped
        self._whole, self._appended = end, 0
        return state

    def load(self) -> dict | None:
        """The state to resume from (:meth:`read`); the loop restores itself from it."""
        return self.read()


def saved_state(path: str | os.PathLike, puzzle=None) -> dict:
    """The state in the checkpoint at ``path``, checked like :meth:`Checkpoint.read` but for any run.

    :raises CheckpointError: naming the file and what is wrong with it.
    """
    return _parse(Path(path), puzzle, {})[0]


# -- encoding ---------------------------------------------------------------------------------------


def _frame(previous: bytes, payload: dict) -> tuple[bytes, bytes]:
    data = json.dumps(payload, separators=(",", ":"), allow_nan=False).encode("utf-8")
    digest = hashlib.sha256(previous + data).digest()
    return _FRAME.pack(_KIND, len(data), digest) + data, digest


def _encode(body: dict) -> dict:
    out: dict[str, object] = {}
    for key, value in body.items():
        if key in ("population", "hall_of_fame"):
            out[key] = [_individual(ind) for ind in value]
        elif key == "rng_state":
            version, words, gauss = value
            out[key] = [version, list(words), gauss]
        else:
            out[key] = _plain(value)
    return out


def _individual(data: dict) -> dict:
    cells = np.asarray(data["cells"])
    if cells.ndim != 1 or cells.size and (int(cells.min()) < 0 or int(cells.max()) > _MAX_CELL_VALUE):
        raise ValueError("a checkpoint holds flat grids of values 0..65535")
    fitness = data["fitness"]
    return {
        "cells": base64.b64encode(cells.astype("<u2").tobytes()).decode("ascii"),
        "fitness": None if fitness is None else [float(w) for w in fitness],
    }


def _plain(value: object) -> object:
    """``value`` as JSON data: numpy scalars and arrays become numbers and lists, infinities strings."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return {"float": repr(value)}
    return value


def _unplain(value: object) -> object:
    if isinstance(value, dict):
        if set(value) == {"float"} and value["float"] in ("inf", "-inf", "nan"):
            return float(value["float"])
        return {k: _unplain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unplain(v) for v in value]
    return value


# -- reading ----------------------------------------------------------------------------------------


class _Bad(Exception):
    """What is wrong with a field; :func:`_parse` names the file."""


def _parse(path: Path, puzzle, identity: dict) -> tuple[dict, int, bytes, int]:
    """(state, end of the last good frame, its digest, bytes dropped) of the file at ``path``, whose
    identity must hold every item of ``identity``."""
    data = _read_bounded(path)
    _check_header(path, data)
    frames, offset, digest = _read_frames(path, data)
    _check_identity(path, frames, identity)
    try:
        state = _checked(frames, puzzle)
    except _Bad as exc:
        raise CheckpointError(f"{path}: {exc}") from None
    return state, offset, digest, len(data) - offset


def _check_header(path: Path, data: bytearray) -> None:
    """Refuse a file that does not start with :data:`MAGIC`, naming an older version's pickle as such."""
    if not data.startswith(MAGIC):
        if data[:1] == b"\x80":
            raise CheckpointError(
                f"{path}: a checkpoint of an older deap_sudoku (a pickle); it is never loaded, "
                "since loading a pickle can run any code: delete it to start afresh"
            )
        raise CheckpointError(f"{path}: not a deap_sudoku checkpoint (no '{MAGIC.decode().strip()}' header)")


def _read_frames(path: Path, data: bytearray) -> tuple[list, int, bytes]:
    """The decoded payloads of the whole frames after the header, each digest checked, with the end
    of the last one and its digest; a last frame cut short is left out (the caller counts its bytes
    as dropped), a damaged one refused."""
    offset, digest, frames = len(MAGIC), b"", []
    while offset < len(data):
        if len(data) - offset < _FRAME.size:
            break  # a save cut short
        kind, length, want = _FRAME.unpack_from(data, offset)
        if kind != _KIND:
            raise CheckpointError(f"{path}: damaged at byte {offset} (not the start of a save)")
        start = offset + _FRAME.size
        if length > len(data) - start:
            break
        payload = data[start : start + length]
        if hashlib.sha256(digest + payload).digest() != want:
            raise CheckpointError(f"{path}: damaged in the save at byte {offset} (its checksum does not match)")
        try:
            frame = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise CheckpointError(f"{path}: the save at byte {offset} is not valid data ({exc})") from None
        frames.append(frame)
        offset, digest = start + length, want
    if not frames:
        raise CheckpointError(f"{path}: holds no complete save")
    return frames, offset, digest


def _check_identity(path: Path, frames: list, identity: dict) -> None:
    """Refuse another run's file: its first frame's identity must hold every item of ``identity``."""
    theirs = frames[0].get("identity") if isinstance(frames[0], dict) else None
    if not isinstance(theirs, dict):
        raise CheckpointError(f"{path}: its first save has no run identity")
    for key, mine in identity.items():
        if theirs.get(key) != mine:
            raise CheckpointError(
                f"{path} belongs to another run: its {key} is {_short(theirs.get(key))}, "
                f"this run's is {_short(mine)}; use another file or delete it to start afresh"
            )


def _read_bounded(path: Path) -> bytearray:
    """The file's bytes: a regular file of at most :data:`MAX_CHECKPOINT_BYTES`, counted as read."""
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise CheckpointError(f"{path}: not a regular file, so not a checkpoint")
            data = read_limited(handle, MAX_CHECKPOINT_BYTES)
    except OSError as exc:
        raise CheckpointError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(f"{path}: larger than the {MAX_CHECKPOINT_BYTES} bytes a checkpoint may have")
    return data


def _checked(frames: list, puzzle) -> dict:
    """The last frame's state, every field checked, with the logbook records of every frame."""
    log = []
    for number, frame in enumerate(frames):
        if (
            not isinstance(frame, dict)
            or set(frame) - {"identity", "log", "state"}
            or "state" not in frame
            or not isinstance(frame.get("log"), list)
        ):
            raise _Bad(f"save {number + 1} is not a checkpoint save")
        log.extend(frame["log"])
    state = _unplain(frames[-1]["state"])
    if not isinstance(state, dict):
        raise _Bad("the state is not a record")
    expected = {
        *STATE_COUNTERS,
        "elapsed",
        "population",
        "hall_of_fame",
        "best_ever",
        "rng_state",
        "extra",
        "stop_reason",
    }
    if set(state) != expected:
        missing, extra = sorted(expected - set(state)), sorted(set(state) - expected)
        problems = ([f"lacks {', '.join(missing)}"] if missing else []) + (
            [f"has unknown fields {', '.join(extra)}"] if extra else []
        )
        raise _Bad("the state " + "; ".join(problems))
    for name in STATE_COUNTERS:
        _whole(state[name], name)
    if (
        not isinstance(state["elapsed"], (int, float))
        or isinstance(state["elapsed"], bool)
        or not 0 <= state["elapsed"] < math.inf
    ):
        raise _Bad(f"elapsed is {state['elapsed']!r}, not a number of seconds")
    state["elapsed"] = float(state["elapsed"])
    state["population"] = _individuals(state["population"], "population", puzzle, allow_empty=False)
    state["hall_of_fame"] = _individuals(state["hall_of_fame"], "hall_of_fame", puzzle, allow_empty=True)
    weights = len(state["population"][0]["fitness"] or ()) or None
    state["best_ever"] = _fitness(state["best_ever"], "best_ever", weights)
    state["rng_state"] = _rng_state(state["rng_state"])
    if not isinstance(state["extra"], dict):
        raise _Bad("extra is not a record")
    if state["stop_reason"] is not None and not isinstance(state["stop_reason"], str):
        raise _Bad("stop_reason is not text")
    if len(log) != state["generation"] + 1 or any(
        not isinstance(r, dict) or r.get("gen") != g for g, r in enumerate(log)
    ):
        raise _Bad(f"its logbook does not hold generations 0 to {state['generation']}, one record each")
    state["logbook"] = _unplain(log)
    return state


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Bad(f"{name} is {value!r}, not a whole number of at least 0")
    return value


def _individuals(value: object, name: str, puzzle, *, allow_empty: bool) -> list[dict]:
    if not isinstance(value, list) or (not value and not allow_empty):
        raise _Bad(f"{name} is not a list of individuals" + ("" if allow_empty else " (it may not be empty)"))
    found, size, width = [], None, None
    for number, ind in enumerate(value, start=1):
        where = f"{name} individual {number}"
        if not isinstance(ind, dict) or set(ind) != {"cells", "fitness"} or not isinstance(ind["cells"], str):
            raise _Bad(f"{where} is not a grid with a fitness")
        try:
            raw = base64.b64decode(ind["cells"].encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            raise _Bad(f"{where}: its cells are not base64") from None
        if len(raw) % 2:
            raise _Bad(f"{where}: its cells are not 16-bit values")
        cells = np.frombuffer(raw, dtype="<u2").astype(np.int64)
        size = len(cells) if size is None else size
        if len(cells) != size or (puzzle is not None and len(cells) != puzzle.shape.cells):
            wanted = puzzle.shape.cells if puzzle is not None else size
            raise _Bad(f"{where} has {len(cells)} cells, not {wanted}")
        if puzzle is not None:
            if cells.size and int(cells.max()) > puzzle.n:
                raise _Bad(f"{where} holds {int(cells.max())}, out of range 0..{puzzle.n}")
            changed = np.flatnonzero(puzzle.givens & (cells != puzzle.cells))
            if changed.size:
                raise _Bad(f"{where} changes the given at {puzzle.shape.cell_name(int(changed[0]))}")
        fitness = _fitness(ind["fitness"], f"{where}'s fitness", width)
        width = width if fitness is None else len(fitness)
        found.append({"cells": cells, "fitness": fitness})
    return found


def _fitness(value: object, name: str, width: int | None) -> tuple[float, ...] | None:
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or not value
        or any(isinstance(w, bool) or not isinstance(w, (int, float)) or math.isnan(w) for w in value)
    ):
        raise _Bad(f"{name} is not a list of numbers")
    if width is not None and len(value) != width:
        raise _Bad(f"{name} has {len(value)} objectives, not {width}")
    return tuple(float(w) for w in value)


def _rng_state(value: object) -> tuple:
    """A ``random.Random`` state: (3, 624 words and the position, gauss_next)."""
    if (
        not isinstance(value, list)
        or len(value) != 3
        or value[0] != 3
        or not isinstance(value[1], list)
        or len(value[1]) != 625
    ):
        raise _Bad("rng_state is not the state of a random.Random")
    words = value[1]
    if any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < 1 << 32 for w in words) or words[-1] > 624:
        raise _Bad("rng_state holds a value a random.Random state cannot have")
    gauss = value[2]
    if gauss is not None and (
        isinstance(gauss, bool) or not isinstance(gauss, (int, float)) or not math.isfinite(gauss)
    ):
        raise _Bad("rng_state's gauss_next is not a number")
    return (3, tuple(words), gauss if gauss is None else float(gauss))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
