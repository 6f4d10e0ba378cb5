"""The summary table ``bench`` prints on standard output: aligned columns of medians that fit the
terminal, counts in at most five characters (``--markdown``, ``--csv`` and ``--json`` carry the rest)."""

from __future__ import annotations

from .errors import width

__all__ = ["terminal_table"]


def terminal_table(rows: list[dict]) -> str:
    """The summary as ``bench`` prints it: aligned columns of medians, two spaces apart where that fits
    the terminal's width (:func:`~deap_sudoku.cli.errors.width`, 80 when unknown), else one (the
    bundled files' names fit 80 so; the IQRs are in --markdown, --csv and --json), ``-`` where a count does not apply
    to the algorithm (:func:`~deap_sudoku.experiments.summary.applies`)."""
    from ..experiments.summary import applies

    header = ("dataset", "algorithm", "solved", "rate (95% CI)", "gens", "steps", "evals", "seconds", "ERT")
    lines = [header]
    for row in rows:
        censored = f" ({row['censored']} censored)" if row.get("censored") else ""
        rate = f"{100 * row['rate']:.0f}% ({100 * row['rate_low']:.0f}-{100 * row['rate_high']:.0f})"
        counts = [
            _short(row[f"{key}_median"]) if applies(row, key) else "-"
            for key in ("generations", "steps", "evaluations")
        ]
        seconds = row["seconds_median"]
        lines.append(
            (
                row["dataset"],
                row["algorithm"],
                f"{row['solved']}/{row['runs']}{censored}",
                rate,
                *counts,
                f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}" if seconds < 1000 else f"{seconds:.0f}",
                "-" if row["ert"] != row["ert"] else _short(row["ert"]),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    gap = 2 if sum(widths) + 2 * (len(widths) - 1) <= width() else 1  # one space where two do not fit
    medians = sum(widths[4:8]) + gap * 3
    left = sum(widths[:4]) + gap * 4
    text = [" " * left + " medians ".center(medians, "-")]
    for line in lines:
        cells = [cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths))]
        text.append((" " * gap).join(cells).rstrip())
    return "\n".join(text) + "\n"


def _short(number: float) -> str:
    """A count in at most five characters: 1116, 110938 as 111k, 2.3M; infinity as ∞."""
    if number == float("inf"):
        return "∞"
    if number < 10_000:
        return f"{number:.0f}"
    if number < 999_500:
        return f"{number / 1e3:.0f}k"
    if number < 9_950_000:
        return f"{number / 1e6:.1f}M"
    return f"{number / 1e6:.0f}M"
