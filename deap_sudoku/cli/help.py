"""The help pages: options in named sections, examples at the end, every line wrapped to the
terminal's width and nothing cut.

Written with click's own formatter: cloup's option groups cost about 35 ms of start-up on every
command (they are imported where the commands are declared) and rich-click's 11 ms plus rich's
20-40 ms for drawing, for what these forty lines do.
"""

from __future__ import annotations

import click

MAX_WIDTH = 120
"""The widest a help page is drawn (click's ``max_content_width``): the terminal's width below it."""

FIRST_COLUMN = 36
"""The widest an option's name and metavar sit beside its help (at most 30 % of the page's width);
a longer one has its help below."""


NO_BREAK = "\u2011"
"""A non-breaking hyphen: stands in for ``-`` while a help text is wrapped, so that ``sa-lewis-cp``
or ``--max-seconds`` is never cut at a hyphen."""


def write_unbroken(formatter: click.HelpFormatter, rows: list[tuple[str, str]], **kwargs) -> None:
    """``formatter.write_dl(rows)``, wrapping the help texts at spaces only."""
    start = len(formatter.buffer)
    formatter.write_dl([(name, text.replace("-", NO_BREAK)) for name, text in rows], **kwargs)
    formatter.buffer[start:] = [part.replace(NO_BREAK, "-") for part in formatter.buffer[start:]]


class Sectioned(click.Command):
    """A command whose ``--help`` lists its options in ``sections`` (title, parameter names), the
    rest under "Other options" (``--help`` alone ends the last section), then its ``examples``
    (command line and what it does)."""

    def __init__(
        self,
        *args,
        sections: tuple[tuple[str, tuple[str, ...]], ...] = (),
        examples: tuple[tuple[str, str], ...] = (),
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.sections, self.examples = sections, examples

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        helping = self.get_help_option(ctx)
        records = {
            "help" if param is helping else param.name: record
            for param in self.get_params(ctx)
            if isinstance(param, click.Option) and (record := param.get_help_record(ctx)) is not None
        }
        # one column for every section: the names padded to the widest that fits beside its help,
        # at most FIRST_COLUMN and 30 % of the width (a narrow terminal keeps room for the help)
        widest = min(FIRST_COLUMN, int(0.3 * formatter.width))
        first = max((len(name) for name, _ in records.values() if len(name) <= widest), default=0)
        placed = {name for _, names in self.sections for name in names}
        others = tuple(name for name in records if name not in placed)
        sections = list(self.sections)
        if sections and others == ("help",):
            sections[-1] = (sections[-1][0], (*sections[-1][1], "help"))
        elif others:
            sections.append(("Other options", others))
        placed = set()
        for title, names in sections:
            rows = [records[name] for name in names if name not in placed and name in records]
            placed.update(names)
            if rows:
                with formatter.section(title):
                    write_unbroken(formatter, [(name.ljust(first), text) for name, text in rows], col_max=first)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.examples:
            with formatter.section("Examples"):
                # beside what it does when all fit, else above it; a command wider than the page is
                # continued on the next line as a shell continues it (copied whole, it still runs)
                indent = " " * formatter.current_indent
                lines = [(f"{ctx.command_path} {line}", f"# {what}") for line, what in self.examples]
                width = max(len(command) for command, _ in lines)
                beside = all(len(indent) + width + 2 + len(what) <= formatter.width for _, what in lines)
                for command, what in lines:
                    if beside:
                        formatter.write(f"{indent}{command.ljust(width)}  {what}\n")
                    else:
                        formatter.write(f"{continued(command, indent, formatter.width)}\n{indent}  {what}\n")
        super().format_epilog(ctx, formatter)


def continued(command: str, indent: str, width: int) -> str:
    """``command`` after ``indent`` on as many lines of ``width`` as it needs, each but the last
    ending in `` \\`` as a shell continues a line, broken only before an option (which keeps its
    value) and never inside a word."""
    groups: list[str] = []
    for word in command.split(" "):
        if word.startswith("-") or not groups:
            groups.append(word)
        else:
            groups[-1] += " " + word
    lines, line = [], indent + groups[0]
    for group in groups[1:]:
        if len(line) + len(group) + 3 > width:  # the space before it and " \\" after it
            lines.append(line + " \\")
            line = f"{indent}    {group}"
        else:
            line += " " + group
    return "\n".join([*lines, line])


class Listing(click.Group):
    """A group whose command list gives each command's first sentence whole, wrapped, not cut at
    45 characters."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
