"""Wang et al.'s local-search GA for Sudoku (IEEE Transactions on Games 16(1), 2024: "LSGA").

Each generation: tournaments choose as many parents as the population holds; each parent's clone,
with probability ``cxpb``, mates (``toolbox.mate``, a row-wise crossover) with a clone of a parent
drawn at random, keeping the first child; every child is mutated (``toolbox.mutate``, swaps in
rows, then ``toolbox.reinit``, row re-initialisation), searched by ``toolbox.column_search`` and
``toolbox.block_search``, and evaluated if it changed.  An elite archive keeps the ``elite_size``
best individuals seen (the archive and the new population, merged); then elite learning: the
population's worst is replaced by a copy of a random archive member with probability
``Pb = (f_worst - f_elite) / f_worst``, otherwise by a fresh ``toolbox.individual``.  The fitness is
minimised and never negative (the paper's: illegal columns and boxes).

The rules come from the abstract and from third-party reimplementations that say they follow the
paper's pseudocode; ``docs/literature.md`` tables which rule is read where.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
from deap import base, tools

from ..tools.individual import write_back
from .run import Checkpointer, Run
from .stop import Stop

__all__ = ["ea_lsga", "elite_learning_probability"]


def elite_learning_probability(worst: float, elite: float) -> float:
    """``Pb``: the chance that the worst individual (fitness ``worst``) learns from an elite one
    (``elite``), ``(worst - elite) / worst``, 0 when ``worst`` is 0."""
    return (worst - elite) / worst if worst > 0 else 0.0


def _score(individual) -> float:
    return float(individual.fitness.values[0])


def ea_lsga(
    population: list,
    toolbox: base.Toolbox,
    cxpb: float,
    *,
    stop: Stop,
    rng: random.Random,
    elite_size: int = 50,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    callback: Callable[[int, list, tools.Logbook], object] | None = None,
    checkpoint: Checkpointer | None = None,
) -> tuple[list, tools.Logbook]:
    """Evolve ``population`` as LSGA does (see the module's text) until ``stop``; return
    ``(population, logbook)``.  The toolbox has DEAP's ``select``, ``mate``, ``mutate``, ``evaluate``,
    ``clone``, ``map`` and ``individual``, and ``reinit``, ``column_search`` and ``block_search``.
    The elite archive is the loop's checkpointed state (its cells and fitness values)."""
    if elite_size < 1:
        raise ValueError(f"elite_size is at least 1, not {elite_size}")
    cells = len(population[0])
    run = Run(
        population,
        stop=stop,
        stats=stats,
        halloffame=halloffame,
        callback=callback,
        checkpoint=checkpoint,
        rng=rng,
        restarts=False,
        extra={
            "elite_count": 0,
            "elite_cells": np.zeros((elite_size, cells), dtype=np.int64),
            "elite_scores": np.zeros(elite_size, dtype=float),
        },
    )
    template = population[0]
    if not run.resumed:
        run.evaluate_first(toolbox)
    while not run.finished():
        with run.generating():
            parents = toolbox.select(run.population, len(run.population))
            offspring = [toolbox.clone(ind) for ind in run.each(parents)]
            for child in run.each(offspring):
                if rng.random() < cxpb:
                    toolbox.mate(child, toolbox.clone(rng.choice(parents)))
            for child, parent in zip(run.each(offspring), parents):
                toolbox.mutate(child)
                toolbox.reinit(child)
                toolbox.column_search(child)
                toolbox.block_search(child)
                if not np.array_equal(np.asarray(child), np.asarray(parent)):
                    del child.fitness.values
            run.evaluate(offspring, toolbox)
            offspring = [ind for ind in offspring if ind.fitness.valid]  # a spent budget ends the run here
            if not run.budget_spent:
                _update_elite(run.extra, offspring)
                _learn(offspring, run, toolbox, template)
            run.next_generation(offspring)
    return run.population, run.logbook


def _update_elite(extra: dict, population: list) -> None:
    """The archive becomes the best ``elite_size`` of itself and ``population`` (a stable sort: the
    archive's members first on ties)."""
    count, held, scores = extra["elite_count"], extra["elite_cells"], extra["elite_scores"]
    pool = [(float(scores[i]), held[i].copy()) for i in range(count)]
    pool += [(_score(ind), np.asarray(ind).astype(np.int64)) for ind in population]
    pool.sort(key=lambda item: item[0])
    kept = pool[: len(scores)]
    for i, (score, grid) in enumerate(kept):
        held[i], scores[i] = grid, score
    extra["elite_count"] = len(kept)


def _learn(population: list, run: Run, toolbox: base.Toolbox, template) -> None:
    """Elite population learning: the worst (the first of the worst) learns from a random archive
    member with probability ``Pb``, or is replaced by a fresh individual."""
    extra = run.extra
    if not population or not extra["elite_count"]:
        return
    worst = max(range(len(population)), key=lambda i: _score(population[i]))
    pick = run.rng.randrange(extra["elite_count"])
    elite_score = float(extra["elite_scores"][pick])
    if run.rng.random() < elite_learning_probability(_score(population[worst]), elite_score):
        learner = toolbox.clone(template)
        write_back(learner, extra["elite_cells"][pick])
        learner.fitness.values = (elite_score,)
    else:
        learner = toolbox.individual()
        run.evaluate([learner], toolbox)
        if not learner.fitness.valid:
            return
    population[worst] = learner
