"""Selections that are correct for minimised and maximised fitnesses alike.

DEAP's ``selRoulette`` and ``selStochasticUniversalSampling`` use raw fitness
values as weights: with ``weights=(-1,)`` they favour the *worst* (a solved
grid, fitness 0, is never picked), return ``[]`` when every fitness is 0 and
misbehave on negative values.  Here the weighted values (``wvalues``, larger is
better whatever the direction) are min-max normalised, so the best gets weight
1 and the worst 0, as the block GA describes.  Like DEAP's, these return
references; cloning belongs to the algorithm.  ``rng`` (keyword-only, as for
every operator) is a ``random.Random``; without one they draw from the
``random`` module, as DEAP's selections do.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from operator import attrgetter

import numpy as np
from deap import base

from .randomness import random_source
from .wrapping import wraps

__all__ = [
    "sel_tournament",
    "sel_roulette",
    "sel_stochastic_universal_sampling",
    "sel_truncation",
    "sel_elite_biased",
    "sel_ranked_pairs",
    "punish_same",
    "with_punish_same",
    "selection_weights",
]


def _evaluated(select: Callable) -> Callable:
    """Check that the first argument is a sequence of individuals with a valid DEAP fitness, so a
    wrong argument is a TypeError or ValueError that says so, not an AttributeError inside."""

    @wraps(select)
    def checked(individuals, *args, **kwargs):
        if isinstance(individuals, (str, bytes, np.ndarray)) or not isinstance(individuals, Sequence):
            raise TypeError(f"{select.__name__} takes a list of individuals, not {type(individuals).__name__}")
        for number, ind in enumerate(individuals, start=1):
            fitness = getattr(ind, "fitness", None)
            if not isinstance(fitness, base.Fitness):
                raise TypeError(
                    f"{select.__name__}: individual {number} is a {type(ind).__name__} without a DEAP fitness"
                )
            if not fitness.valid:
                raise ValueError(
                    f"{select.__name__}: individual {number} has no fitness value yet; evaluate the population first"
                )
        return select(individuals, *args, **kwargs)

    return checked


@_evaluated
def selection_weights(individuals: Sequence) -> np.ndarray:
    """Min-max normalised weighted fitness (first objective): best 1, worst 0, all 1 when all are equal."""
    values = np.array([ind.fitness.wvalues[0] for ind in individuals], dtype=np.float64)
    spread = values.max() - values.min() if len(values) else 0.0
    return (values - values.min()) / spread if spread > 0 else np.ones(len(values))


@_evaluated
def sel_tournament(individuals: Sequence, k: int, tournsize: int, *, rng: random.Random | None = None) -> list:
    """DEAP's ``selTournament`` drawing from ``rng``: ``k`` times the best of ``tournsize`` individuals
    drawn with replacement (the same draws as DEAP's with the same generator state)."""
    rng = random_source(rng)
    return [max((rng.choice(individuals) for _ in range(tournsize)), key=attrgetter("fitness")) for _ in range(k)]


@_evaluated
def sel_roulette(individuals: Sequence, k: int, *, normalise: bool = True, rng: random.Random | None = None) -> list:
    """``k`` independent spins of a wheel sized by :func:`selection_weights`.

    ``normalise=False`` sizes the wheel by the raw fitness instead, as DEAP's ``selRoulette``
    and the Python block GA do ("with the weight of the fitness function"): only for a
    maximised fitness that is never negative (``ValueError`` otherwise).
    """
    rng = random_source(rng)
    if normalise:
        weights = selection_weights(individuals).tolist()
    else:
        weights = [ind.fitness.wvalues[0] for ind in individuals]
        if min(weights) < 0 or not any(weights):
            raise ValueError(
                "raw fitness-proportional selection needs a maximised fitness that is never "
                "negative and not all 0; use normalise=True"
            )
    return rng.choices(list(individuals), weights=weights, k=k)


@_evaluated
def sel_stochastic_universal_sampling(individuals: Sequence, k: int, *, rng: random.Random | None = None) -> list:
    """``k`` equally spaced pointers on the same wheel: less spread than roulette, same expectation."""
    rng = random_source(rng)
    weights = selection_weights(individuals)
    cumulative = np.cumsum(weights)
    distance = cumulative[-1] / k
    start = rng.uniform(0, distance)
    picks = np.searchsorted(cumulative, start + distance * np.arange(k), side="right")
    return [individuals[i] for i in np.minimum(picks, len(individuals) - 1)]


def _best_first(individuals: Sequence) -> list:
    return sorted(individuals, key=lambda ind: ind.fitness, reverse=True)


@_evaluated
def sel_truncation(individuals: Sequence, k: int, keep: float = 0.5) -> list:
    """The best ``keep`` fraction (at least one), repeated in rank order until there are ``k``
    (the block GA's ``keeping_percentage``)."""
    pool = _best_first(individuals)[: max(1, math.ceil(keep * len(individuals)))]
    return [pool[i % len(pool)] for i in range(k)]


@_evaluated
def sel_elite_biased(
    individuals: Sequence, k: int, top: float = 0.2, top_share: float = 0.8, *, rng: random.Random | None = None
) -> list:
    """``top_share`` of the picks at random from the best ``top`` fraction, the rest from everyone
    (the cell GA's 80 % / 20 % rule)."""
    rng = random_source(rng)
    ranked = _best_first(individuals)
    elite = ranked[: max(1, math.ceil(top * len(ranked)))]
    from_elite = round(top_share * k)
    return [rng.choice(elite) for _ in range(from_elite)] + [rng.choice(ranked) for _ in range(k - from_elite)]


@_evaluated
def sel_ranked_pairs(individuals: Sequence, k: int, *, rng: random.Random | None = None) -> list:
    """Mantere & Koljonen's parent selection: with the individuals ranked best first, the pair
    for place ``i`` (from the last place up, two picks a place) is drawn uniformly from the ``i``
    places above it, ``int(i * random())`` each, so better individuals are parents more often and
    the worst never is (their loop ``for (i = POP - 1; i >= ELIT; i--)``)."""
    rng = random_source(rng)
    ranked = _best_first(individuals)
    return [ranked[int(max(len(ranked) - 1 - j // 2, 1) * rng.random())] for j in range(k)]


@_evaluated
def punish_same(
    population: Sequence, *, similarity: float = 0.9, penalty: float = 1.0, free: np.ndarray | None = None
) -> None:
    """The block GA's "punish same": worsen the fitness of every individual by ``penalty`` for
    each other individual that agrees with it in at least ``similarity`` of the (free) cells.

    Changes fitness values in place; call it after evaluation, before selection.
    """
    if len(population) < 2:
        return
    grids = np.stack([np.asarray(ind) for ind in population])
    if free is not None:
        grids = grids[:, free]
    needed = similarity * grids.shape[1]
    close = np.zeros(len(grids), dtype=np.int64)
    block = max(1, 2**25 // grids.size)  # keeps the (block, P, cells) comparison near 32 MB
    for i in range(0, len(grids), block):
        agree = (grids[i : i + block, None, :] == grids[None, :, :]).sum(axis=-1)
        close[i : i + block] = (agree >= needed).sum(axis=1) - 1
    for ind, count in zip(population, close.tolist()):
        if count:
            weight = ind.fitness.weights[0]
            ind.fitness.values = (ind.fitness.values[0] - math.copysign(penalty * count, weight),)


def with_punish_same(select, *, similarity: float = 0.9, penalty: float = 1.0, free: np.ndarray | None = None):
    """``select`` that sees fitnesses worsened by :func:`punish_same`, which are restored afterwards,
    so the penalty steers selection without piling up on survivors."""

    def punishing_select(individuals: Sequence, k: int, *args, **kwargs) -> list:
        saved = [ind.fitness.values for ind in individuals]
        punish_same(individuals, similarity=similarity, penalty=penalty, free=free)
        try:
            return select(individuals, k, *args, **kwargs)
        finally:
            for ind, values in zip(individuals, saved):
                ind.fitness.values = values

    return punishing_select
