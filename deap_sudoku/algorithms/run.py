"""The bookkeeping every generational loop here shares (:class:`Run`): counters, logbook, hall of
fame, stop criteria, evaluations counted and budgeted, checkpoints and stop requests; and the
state a :class:`Checkpointer` saves, as data."""

from __future__ import annotations

import contextlib
import dataclasses
import copy
import random
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

import numpy as np
from deap import base, tools

from ..propagation.choice import take_up_compiled
from ..tools.individual import write_back
from .stop import HALTED, INTERRUPTED, Abandoned, Stop, no_poll, stop_reason

__all__ = ["Run", "Checkpointer", "ResumeError", "evaluate_invalid", "Hook", "STATE_COUNTERS", "EVALUATION_CHUNK"]

Hook = Callable[[int, list, tools.Logbook], object]
"""``hook(generation, population, logbook)``: a callback, or a stop function (``until``)."""
EVALUATION_CHUNK = 1024
"""Individuals per ``toolbox.map`` call when a stop request is polled during evaluation."""


class ResumeError(ValueError):
    """A saved state this run cannot resume from; the message names what does not fit."""


class Checkpointer(Protocol):
    """Where a run saves itself: :class:`deap_sudoku.runs.checkpoint.Checkpoint` is one.

    The state is data: counters, ``elapsed`` seconds, ``population`` and ``hall_of_fame`` as
    ``{"cells": array, "fitness": wvalues or None}`` records, ``best_ever`` (wvalues or None),
    ``rng_state`` (``random.Random.getstate()``), ``extra`` (the loop's own numbers and arrays) and the
    ``logbook`` (its records; a checkpoint need only keep those it has not kept yet).
    """

    def load(self) -> dict | None:
        """The saved state, or None when there is none yet."""

    def save(self, state: dict) -> None:
        """Keep ``state``."""

    def due(self, generation: int) -> bool:
        """Whether to save after ``generation``."""


def evaluate_invalid(
    individuals: list,
    toolbox: base.Toolbox,
    poll: Callable[[], None] = no_poll,
    spent: Callable[[list], None] | None = None,
) -> int:
    """Evaluate the individuals whose fitness is invalid (in one ``toolbox.map`` call, or, with a
    ``poll`` (:meth:`Stop.poller`), one per :data:`EVALUATION_CHUNK` individuals with a poll
    between them, so that at least the first chunk is evaluated); return how many.  ``spent``
    (:meth:`Run.spend`) is handed each part as soon as it is evaluated, so that a poll that
    abandons the rest leaves the count exact."""
    invalid = [ind for ind in individuals if not ind.fitness.valid]
    chunk = len(invalid) if poll is no_poll else EVALUATION_CHUNK
    for start in range(0, len(invalid), max(chunk, 1)):
        if start:
            poll()
        part = invalid[start : start + chunk]
        for ind, fit in zip(part, toolbox.map(toolbox.evaluate, part)):
            ind.fitness.values = fit
        if spent is not None:
            spent(part)
    return len(invalid)


class Run:
    """The bookkeeping every generational loop here shares: counters, logbook, hall of fame, stop
    criteria, checkpoints and stop requests.

    A loop builds one, evaluates and :meth:`begin`-s unless :attr:`resumed`, then
    ``while not run.finished(): ...; run.next_generation(population)``.  Every evaluation goes
    through :meth:`evaluate` (or is reported with :meth:`spend`, by a loop that evaluates one
    individual itself), so the run's :attr:`evaluations`, the logbook's ``nevals`` and the budget
    count the same calls, whatever the loop does besides (restarts, seeds); :attr:`first_hit` is
    the evaluation that first scored :attr:`Stop.solved`.
    With a ``checkpoint`` that holds a state, the run resumes from it:
    population, counters, logbook, hall of fame, the loop's ``extra`` state and
    the state of ``rng``, so the rest of the run is the one an uninterrupted run
    would have had, bit for bit, as long as every operator draws from ``rng``.
    ``until(generation, population, logbook)`` is a stop function: a true answer
    ends the run, a string answer names the reason.  ``restarts=False`` leaves
    the restarts column out of the logbook (DEAP's loops do not restart).
    """

    def __init__(
        self,
        population: list,
        *,
        stop: Stop,
        rng: random.Random,
        stats: tools.Statistics | None = None,
        halloffame: tools.HallOfFame | None = None,
        callback: Hook | None = None,
        until: Hook | None = None,
        checkpoint: Checkpointer | None = None,
        extra: dict | None = None,
        restarts: bool = True,
    ) -> None:
        if not stop.criteria():
            raise ValueError("set at least one stop criterion")
        stop = stop.begun()  # its clock: the caller's start, else now
        self.stop, self.stats, self.halloffame, self.callback, self.until = stop, stats, halloffame, callback, until
        self.checkpoint, self.rng = checkpoint, rng
        self.population = population
        self.extra = extra if extra is not None else {}
        self.logbook = tools.Logbook()
        self.columns = ["gen", "nevals"] + (["restarts"] if restarts else [])
        self.logbook.header = self.columns + (stats.fields if stats else [])
        self.generation = self.evaluations = self.restarts = self.since_improvement = 0
        self.logged = 0  # the evaluations the logbook's nevals have accounted for
        self.first_hit: int | None = None
        self.best_ever = None
        self.halted = False
        self.ended_by: str | None = None  # what ``until`` answered
        state = checkpoint.load() if checkpoint is not None else None
        self.resumed = state is not None
        if state is not None:
            self._restore(state)
        self.logbook.target = stop.solved  # what a hook (``solve --watch``) says solves it, from generation 0
        self.poll_first = self.poll = self.stop.poller()  # requests and the time budget, anywhere
        self.budget_spent = False  # the evaluation budget ran out inside a generation: it ends the run

    def spend(self, evaluated: list) -> None:
        """Count the evaluations of ``evaluated``, individuals the loop has just given a fitness, in
        that order; the first that scores :attr:`Stop.solved` is the run's :attr:`first_hit`."""
        if self.first_hit is None and self.stop.solved is not None and evaluated:
            target = self.stop.solved if isinstance(self.stop.solved, tuple) else (self.stop.solved,)
            self.stop.meets(evaluated[0].fitness.values)  # a fitness it cannot judge is refused here
            position = next((i for i, ind in enumerate(evaluated, start=1) if ind.fitness.values == target), None)
            if position is not None:
                self.first_hit = self.evaluations + position
        self.evaluations += len(evaluated)

    def evaluate(self, individuals: list, toolbox: base.Toolbox, poll: Callable[[], None] | None = None) -> int:
        """:func:`evaluate_invalid` with every evaluation counted (:meth:`spend`); ``poll`` defaults
        to this run's :attr:`poll`.  Returns how many were evaluated.

        No more are evaluated than :attr:`Stop.max_evaluations` leaves: the first ones, in order, up
        to the budget, the others left without a fitness.  The generation then ends the run with
        the individuals it evaluated (:meth:`next_generation` drops the others), so every loop stops
        at the budget exactly, whatever its generation's size."""
        budget = self.stop.max_evaluations
        if budget is not None:
            invalid = [ind for ind in individuals if not ind.fitness.valid]
            left = max(budget - self.evaluations, 0)
            if len(invalid) > left:
                self.budget_spent, individuals = True, invalid[:left]
        return evaluate_invalid(individuals, toolbox, self.poll if poll is None else poll, self.spend)

    def out_of_time(self) -> bool:
        """Whether :attr:`Stop.max_seconds` has passed since the run :attr:`started`."""
        return self.stop.out_of_time()

    def exhausted(self) -> bool:
        """Whether :attr:`Stop.max_evaluations` is spent: a loop that evaluates one individual at a
        time asks before each."""
        budget = self.stop.max_evaluations
        return budget is not None and self.evaluations >= budget

    def begin(self, nevals: int | None = None) -> None:
        """Record generation 0 of a fresh run whose population has just been evaluated: through
        :meth:`evaluate` or :meth:`spend`, or, by a loop that counts for itself, ``nevals`` more."""
        self.evaluations += nevals or 0
        if self.budget_spent:
            self.keep_evaluated()
        self.best_ever = max(ind.fitness for ind in self.population)
        self._record()

    def evaluate_first(self, toolbox: base.Toolbox) -> None:
        """Evaluate the fresh population and :meth:`begin`.  A stop request or the time budget met
        meanwhile keeps the individuals evaluated so far (a first population of 200,000 36x36 grids
        takes a minute), at least the first chunk: the run then ends at generation 0."""
        try:
            self.evaluate(self.population, toolbox, self.poll_first)
        except Abandoned:
            self.keep_evaluated()
        self.begin()

    def keep_evaluated(self) -> None:
        """Drop the individuals not evaluated yet from a first population whose evaluation was abandoned."""
        self.population = [ind for ind in self.population if ind.fitness.valid]

    def finished(self) -> bool:
        """Whether to stop now; sets ``logbook.stop_reason`` and writes the final checkpoint if so.
        A run that goes on and was held on the kernels' Python twins takes the compiled ones up here
        once they are cached (:func:`~deap_sudoku.propagation.choice.take_up_compiled`)."""
        requested = self.stop.requested is not None and self.stop.requested()
        reason = (
            INTERRUPTED
            if requested
            else HALTED
            if self.halted
            else self.ended_by
            or stop_reason(self.stop, self.population, self.generation, self.evaluations, self.since_improvement)
        )
        if reason:
            self.logbook.stop_reason = reason
            if reason == "solved" and self.first_hit is None:
                self.first_hit = self.evaluations  # evaluated where the run could not see it: by now at the latest
            self.logbook.first_hit = self.first_hit
            # A run stopped before its first generation has nothing worth resuming (and perhaps not
            # all of its first population): it leaves no checkpoint, and starts afresh next time.
            if self.checkpoint is not None and not (
                reason == INTERRUPTED and self.generation == 0 and not self.resumed
            ):
                self.checkpoint.save(self._state())
        else:
            take_up_compiled(self.stop.deadline())
        return bool(reason)

    def each(self, items: Iterable, *, first: bool = False) -> Iterator:
        """``items``, with a :meth:`poll` after each: a loop over the children of a generation (the
        first is always done), or, ``first``, over the first population (stop requests only)."""
        poll = self.poll_first if first else self.poll
        for item in items:
            yield item
            poll()

    @contextlib.contextmanager
    def generating(self) -> Iterator[None]:
        """One generation's work, which a stop request met inside it (:meth:`poll`, :meth:`each`,
        ``evaluate_invalid(..., poll=run.poll)``) abandons: the counters, the loop's ``extra`` state
        and the state of ``rng`` are put back as they were when it began, so the final checkpoint
        holds the last whole generation and a resumed run goes on as an uninterrupted one would.
        The evaluations the abandoned generation spent are dropped with it: the run reports the
        generations it kept, and the evaluations that made them."""
        saved = (
            self.rng.getstate(),
            {
                key: value.copy() if isinstance(value, (list, np.ndarray)) else value
                for key, value in self.extra.items()
            },
            self.evaluations,
            self.restarts,
            self.since_improvement,
            self.first_hit,
            self.budget_spent,
        )
        try:
            yield
        except Abandoned:
            rng_state, extra, self.evaluations, self.restarts, self.since_improvement, self.first_hit = saved[:6]
            self._take_extra(extra)
            self.budget_spent = saved[6]
            self.rng.setstate(rng_state)

    def next_generation(self, population: list, nevals: int | None = None, *, offered: list | None = None) -> None:
        """Adopt the new ``population``, log it with the evaluations spent since the last generation
        (those of :meth:`evaluate` and :meth:`spend`, and ``nevals`` more from a loop that counts
        for itself), checkpoint when due.  The hall of fame sees ``offered`` (DEAP's (mu, lambda)
        loops offer it every child, kept or not), by default the population."""
        if self.budget_spent:  # the evaluation budget ran out in this generation: what it evaluated
            population = [ind for ind in population if ind.fitness.valid]
            offered = None if offered is None else [ind for ind in offered if ind.fitness.valid]
        self.population = population
        self.generation += 1
        self.evaluations += nevals or 0
        best_now = max(ind.fitness for ind in population)
        if best_now > self.best_ever:
            self.best_ever, self.since_improvement = best_now, 0
        else:
            self.since_improvement += 1
        self._record(offered)
        if self.checkpoint is not None and self.checkpoint.due(self.generation):
            self.checkpoint.save(self._state())

    def _record(self, offered: list | None = None) -> None:
        if self.halloffame is not None:
            self.halloffame.update(self.population if offered is None else offered)
        nevals, self.logged = self.evaluations - self.logged, self.evaluations
        counts = {"gen": self.generation, "nevals": nevals, "restarts": self.restarts}
        self.logbook.record(
            **{name: counts[name] for name in self.columns},
            **(self.stats.compile(self.population) if self.stats else {}),
        )
        if self.callback is not None and self.callback(self.generation, self.population, self.logbook):
            self.halted = True
        if self.until is not None:
            answer = self.until(self.generation, self.population, self.logbook)
            if answer:
                self.ended_by = answer if isinstance(answer, str) else "stop"

    def _take_extra(self, extra: dict) -> None:
        """Adopt ``extra`` as the loop's state: an array the loop holds (a pheromone matrix) is
        overwritten in place, so the loop's own reference to it stays good; the rest is replaced."""
        for key, value in extra.items():
            held = self.extra.get(key)
            if isinstance(held, np.ndarray):
                held[...] = value
            else:
                self.extra[key] = value

    def _state(self) -> dict:
        """The run as data (see :class:`Checkpointer`)."""
        state = {name: getattr(self, name) for name in STATE_COUNTERS}
        state["elapsed"] = self.stop.elapsed()
        state["population"] = [_as_data(ind) for ind in self.population]
        state["hall_of_fame"] = [_as_data(ind) for ind in self.halloffame] if self.halloffame is not None else []
        state["best_ever"] = list(self.best_ever.wvalues) if self.best_ever is not None else None
        state["rng_state"] = self.rng.getstate()
        state["extra"] = {
            key: value.copy() if isinstance(value, np.ndarray) else value for key, value in self.extra.items()
        }
        state["stop_reason"] = getattr(self.logbook, "stop_reason", None)
        state["logbook"] = self.logbook
        return state

    def _restore(self, state: dict) -> None:
        """Take up a saved state, rebuilding its individuals as copies of this run's own.

        :raises ResumeError: when the state does not fit this run (grid length, number of
            objectives, the loop's extra numbers).
        """
        template = self.population[0]
        population = [_from_data(template, data, f"individual {i}") for i, data in enumerate(state["population"], 1)]
        fame = [
            _from_data(template, data, f"hall of fame entry {i}") for i, data in enumerate(state["hall_of_fame"], 1)
        ]
        if not all(ind.fitness.valid for ind in fame):
            raise ResumeError("the saved hall of fame holds an individual without a fitness")
        best_ever = None
        if state["best_ever"] is not None:
            best_ever = _fitness(template, state["best_ever"], "best_ever")
        extra = _checked_extra(self.extra, state["extra"], len(population))
        for name in STATE_COUNTERS:
            setattr(self, name, state[name])
        self.logged = self.evaluations
        self.population, self.best_ever = population, best_ever
        self._take_extra(extra)
        self.stop = dataclasses.replace(self.stop, started=time.perf_counter() - state["elapsed"])
        for record in state["logbook"]:
            self.logbook.record(**record)
        if self.halloffame is not None:
            self.halloffame.clear()
            self.halloffame.update(fame)
        self.rng.setstate(state["rng_state"])


STATE_COUNTERS = ("generation", "evaluations", "restarts", "since_improvement")
"""The whole-number counters of a saved :class:`Run` state."""


def _as_data(individual) -> dict:
    return {
        "cells": np.asarray(individual),
        "fitness": list(individual.fitness.wvalues) if individual.fitness.valid else None,
    }


def _fitness(template, wvalues, what: str) -> base.Fitness:
    fitness = copy.deepcopy(template.fitness)
    if len(wvalues) != len(fitness.weights):
        raise ResumeError(
            f"the saved {what} has {len(wvalues)} objectives; this run's fitness has {len(fitness.weights)}"
        )
    fitness.wvalues = tuple(wvalues)
    return fitness


def _from_data(template, data: dict, what: str):
    """A copy of ``template`` holding the saved cells and fitness."""
    cells = np.asarray(data["cells"])
    if cells.shape != (len(template),):
        raise ResumeError(f"the saved {what} has {cells.size} cells; this run's individuals have {len(template)}")
    individual = copy.deepcopy(template)
    if (
        isinstance(individual, np.ndarray)
        and np.issubdtype(individual.dtype, np.integer)
        and cells.size
        and (cells.min() < np.iinfo(individual.dtype).min or cells.max() > np.iinfo(individual.dtype).max)
    ):
        raise ResumeError(f"the saved {what} holds values that this run's {individual.dtype} grids cannot")
    write_back(individual, cells)
    if data["fitness"] is None:
        del individual.fitness.values
    else:
        individual.fitness = _fitness(template, data["fitness"], what)
    return individual


def _checked_extra(mine: dict, saved: dict, population: int) -> dict:
    """The loop's saved extra state, shaped like this run's own: a count, one whole number per
    individual, a number (at least 0, perhaps infinite) or an array of numbers at least 0 of the
    same shape."""
    if set(saved) != set(mine):
        raise ResumeError(f"the saved loop state has {sorted(saved)}; this loop keeps {sorted(mine)}")
    checked: dict[str, object] = {}
    for key, value in saved.items():
        if isinstance(mine[key], np.ndarray):
            checked[key] = _checked_array(key, value, mine[key])
            continue
        if isinstance(mine[key], float):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ResumeError(f"the saved {key} is {value!r}, not a number of at least 0")
            checked[key] = float(value)
            continue
        if isinstance(mine[key], list):
            if (
                not isinstance(value, list)
                or len(value) != population
                or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in value)
            ):
                raise ResumeError(f"the saved {key} is not one whole number per individual")
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ResumeError(f"the saved {key} is {value!r}, not a whole number of at least 0")
        checked[key] = value
    return checked


def _checked_array(key: str, value: object, mine: np.ndarray) -> np.ndarray:
    """A saved array (nested lists) as ``mine``'s dtype, of its shape, with finite values of at least 0."""
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise ResumeError(f"the saved {key} is not an array of numbers") from None
    if array.shape != mine.shape or not (np.isfinite(array) & (array >= 0)).all():
        raise ResumeError(f"the saved {key} is not {mine.shape} numbers of at least 0")
    if mine.dtype.kind in "iu" and not (array == np.round(array)).all():
        raise ResumeError(f"the saved {key} holds numbers that are not whole")
    return array.astype(mine.dtype)
