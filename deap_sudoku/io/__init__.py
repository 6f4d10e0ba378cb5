"""Files: puzzle readers and writers, atomic writing, and the sample puzzles shipped in the package."""

from .fileio import write_atomic
from .formats import (
    ALPHABETS,
    FORMAT_RECORDS,
    FORMATS,
    MAX_FILE_BYTES,
    Format,
    detect_format,
    dumps,
    iter_dumps,
    iter_read,
    iter_scan,
    loads,
    read,
    read_text,
    scan,
    write,
)
from .samples import load_sample, load_samples, sample_names

__all__ = [
    "FORMATS",
    "FORMAT_RECORDS",
    "Format",
    "ALPHABETS",
    "MAX_FILE_BYTES",
    "detect_format",
    "loads",
    "dumps",
    "iter_dumps",
    "scan",
    "iter_scan",
    "read",
    "iter_read",
    "read_text",
    "write",
    "write_atomic",
    "load_sample",
    "load_samples",
    "sample_names",
]
