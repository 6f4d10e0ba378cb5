"""Files: puzzle readers and writers, atomic writing, and the sample puzzles shipped in the package."""

from .fileio import write_atomic
from .formats import (ALPHABETS, FORMATS, MAX_FILE_BYTES, detect_format, dumps, loads, read, read_text, scan,
                      write)
from .samples import load_sample, load_samples, sample_names

__all__ = ["FORMATS", "ALPHABETS", "MAX_FILE_BYTES", "detect_format", "loads", "dumps", "scan", "read", "read_text",
           "write", "write_atomic", "load_sample", "load_samples", "sample_names"]
