"""A matplotlib ``Figure`` that shows itself as a notebook cell's value, without pyplot.

A figure made with ``matplotlib.figure.Figure`` is not pyplot's, so a notebook shows it only if
IPython knows how to draw it: once pyplot has been imported (its inline backend teaches IPython
to draw every ``Figure``), but not in a fresh kernel, where the cell's value reads
``<Figure size 700x420 with 1 Axes>``.  seaborn's objects interface meets the same need the same
way (``seaborn.objects.Plot`` draws without pyplot and gives IPython a ``_repr_png_``): the figure
draws itself as a PNG when IPython asks.  Where pyplot's inline backend is on, IPython uses its
own drawing (the notebook's chosen format, retina or SVG) instead; either way the figure shows
once, and only as a cell's value.  Scripts are unaffected: nothing is drawn until IPython asks.

Importing this module imports matplotlib (the ``plot`` extra); :func:`deap_sudoku.runs.plots.new_figure`
does so when a plot is drawn.
"""

from __future__ import annotations

import io
import struct

from matplotlib.figure import Figure

__all__ = ["NotebookFigure", "HIDPI"]

HIDPI = 2
"""A notebook's PNG has this many pixels per displayed pixel, so that it is sharp on high-density
screens and shown at the figure's size (seaborn's objects interface does the same)."""


class NotebookFigure(Figure):
    """A ``Figure`` that a notebook shows as a cell's value; otherwise matplotlib's own."""

    def _repr_png_(self) -> tuple[bytes, dict[str, int]]:
        """The figure as PNG, cropped to what is drawn as pyplot's inline backend crops it, with the
        size to show it at (IPython's ``(data, metadata)``)."""
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=HIDPI * self.dpi, bbox_inches="tight")
        data = buffer.getvalue()
        width, height = struct.unpack(">II", data[16:24])  # the PNG header's IHDR chunk
        return data, {"width": width // HIDPI, "height": height // HIDPI}
