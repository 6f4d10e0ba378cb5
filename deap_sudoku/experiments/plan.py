"""An experiment's plan: every puzzle of every dataset x every algorithm x seeded runs, as tasks
made when they are taken, and what a set of results still lacks of it."""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..grid import Puzzle
from ..runs.task import RunResult, Task

__all__ = ["Plan"]


@dataclass(frozen=True)
class Plan:
    """A benchmark: every puzzle x every algorithm x ``runs`` seeds (``seed``, ``seed + 1``, ...),
    in that nesting order within each dataset.  The tasks are made as they are taken, so that
    ``--runs 100000000`` costs no memory before its first run; ``len()`` counts them.

    ``datasets`` holds ``(name, puzzles, count)``: ``puzzles()`` gives the dataset's puzzles
    again on each call.  ``options`` holds each algorithm's run options.
    """

    datasets: tuple[tuple[str, Callable[[], Iterable[Puzzle]], int], ...]
    algorithms: tuple[str, ...]
    runs: int
    seed: int = 0
    options: dict = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(count for _, _, count in self.datasets) * len(self.algorithms) * self.runs

    def __iter__(self) -> Iterator[Task]:
        every = range(self.seed, self.seed + self.runs)
        return self._tasks(lambda name, algorithm, index: every)

    def at(self, places: Iterable[tuple[str, int, str, int]]) -> Iterator[Task]:
        """The plan's tasks at ``places`` (dataset, puzzle index, algorithm, seed), in plan order, made
        without walking the seeds no place names: a results file of a few runs is matched to a plan
        of a hundred million at once."""
        seeds = collections.defaultdict(set)
        for dataset, index, algorithm, seed in places:
            if self.seed <= seed < self.seed + self.runs:
                seeds[dataset, algorithm, index].add(seed)
        if seeds:
            yield from self._tasks(lambda name, algorithm, index: sorted(seeds.get((name, algorithm, index), ())))

    def _tasks(self, seeds: Callable[[str, str, int], Iterable[int]]) -> Iterator[Task]:
        """The tasks of ``seeds(dataset, algorithm, puzzle index)``, in plan order, made as they are taken."""
        for name, puzzles, _ in self.datasets:
            for algorithm in self.algorithms:
                options = self.options.get(algorithm, {})
                for index, puzzle in enumerate(puzzles()):
                    for seed in seeds(name, algorithm, index):
                        yield Task(algorithm, puzzle, seed=seed, dataset=name, index=index, options=options)

    def missing(self, results: Iterable[RunResult]) -> tuple[list[str], int]:
        """The runs without a result, as lines with ranges of seeds (``hard.txt puzzle 3, tabu, seeds
        5-99``), in plan order, and how many runs they are."""
        done = collections.defaultdict(set)
        for r in results:
            done[r.dataset, r.algorithm, r.index].add(r.seed)
        lines, count = [], 0
        for name, _, puzzles in self.datasets:
            for algorithm in self.algorithms:
                for index in range(puzzles):
                    seeds = done.get((name, algorithm, index), ())
                    if len(seeds) == self.runs:
                        continue
                    for first, last in _gaps(seeds, self.seed, self.seed + self.runs):
                        count += last - first + 1
                        which = f"seed {first}" if first == last else f"seeds {first}-{last}"
                        lines.append(f"{name} puzzle {index + 1}, {algorithm}, {which}")
        return lines, count


def _gaps(done: Iterable[int], low: int, high: int) -> Iterator[tuple[int, int]]:
    """The ranges ``(first, last)`` of ``low..high-1`` not in ``done``."""
    start = low
    for seed in sorted(done):
        if seed > start:
            yield start, seed - 1
        start = max(start, seed + 1)
    if start < high:
        yield start, high - 1
