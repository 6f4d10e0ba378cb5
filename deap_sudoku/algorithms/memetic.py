"""The project's best solver: a memetic GA over block-permutations with propagation repair.

A population of block-permutation individuals (givens fixed, every box a
permutation, initial values restricted to the candidates propagation leaves)
evolves in DEAP's terms: ``toolbox.select`` picks a mate, ``toolbox.mate``
(block-uniform crossover, which moves whole boxes) recombines, and every
child is improved by local search before it competes.  The improvement step is
:mod:`~deap_sudoku.algorithms.repair`: the clashing cells and part of their peers are
freed and rebuilt under constraint propagation (a large-neighbourhood move
that never backtracks), written back into the individual (Lamarckian).

Each population slot keeps the better of itself and its child, and duplicates
of another member are refused, so the population stays diverse.  A slot that
has not improved for ``restart_after`` children restarts from a fresh individual:
solve times are heavy-tailed and restarts cut the tail (measured in
``benchmarks/memetic_ablation.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from deap import base, tools

from ..grid.puzzle import Puzzle
from ..tools.crossover import cx_block_uniform
from ..tools.fitness import eval_collisions
from ..tools.individual import Individual, clone
from ..tools.init import SEED_NODES, init_block_permutation, seed_from_search
from ..tools.selection import sel_tournament
from .run import Checkpointer, Run
from .stop import Abandoned, Stop
from .repair import check_probability, mut_destroy_repair, mut_repair, propagation_repair

__all__ = ["memetic_toolbox", "ea_memetic", "REFUTED"]

REFUTED = "no solution: propagation of the givens ends in a contradiction"


def memetic_toolbox(
    puzzle: Puzzle,
    *,
    rng: random.Random,
    share: float = 0.5,
    noise: float = 0.0,
    tournsize: int = 2,
    locked_candidates: bool = True,
    compiled: bool | None = None,
    seed_nodes: int | None = SEED_NODES,
) -> base.Toolbox:
    """The memetic solver's parts, registered under DEAP's names plus ``repair``, ``improve`` and
    ``seed`` (:func:`~deap_sudoku.tools.seed_from_search` with ``seed_nodes`` search nodes; none
    registered when ``seed_nodes`` is ``None`` or 0).

    ``share`` is the part of a clashing cell's peers freed with it by
    ``improve``; ``noise`` the chance that a rebuilt cell ignores its own value;
    ``compiled`` chooses the repair kernel's twin (same results): ``False`` the pure-Python
    reference, ``True`` the numba one, ``None`` whichever pays (see
    :class:`~deap_sudoku.algorithms.repair.PropagationRepair`).
    Every part that draws is bound to ``rng``.  A ``share`` or ``noise`` outside 0..1 is refused
    here, before a run starts.
    """
    check_probability(share, "share")
    check_probability(noise, "noise")
    kernel = dict(locked_candidates=locked_candidates, compiled=compiled)
    propagation_repair(puzzle, **kernel)  # a compiled=True that this puzzle cannot have is refused here
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, puzzle=puzzle, restrict=True, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_collisions, puzzle=puzzle)
    toolbox.register("mate", cx_block_uniform, puzzle=puzzle, rng=rng)
    toolbox.register("repair", mut_repair, puzzle=puzzle, noise=noise, **kernel, rng=rng)
    toolbox.register("improve", mut_destroy_repair, puzzle=puzzle, share=share, noise=noise, **kernel, rng=rng)
    toolbox.register("select", sel_tournament, tournsize=tournsize, rng=rng)
    toolbox.register("clone", clone)
    if seed_nodes:
        toolbox.register("seed", seed_from_search, puzzle=puzzle, max_nodes=seed_nodes)
    return toolbox


def _refuted(toolbox: base.Toolbox) -> bool:
    """Whether propagation refutes the puzzle ``toolbox.repair`` is registered with (``puzzle=``, as
    :func:`~deap_sudoku.algorithms.repair.mut_repair` is): its own arguments, no state on the side."""
    bound = getattr(toolbox.repair, "keywords", {})
    if not isinstance(bound.get("puzzle"), Puzzle):
        return False
    kernel = {name: bound[name] for name in ("locked_candidates", "compiled") if name in bound}
    return not propagation_repair(bound["puzzle"], **kernel).consistent


def _evaluated(individual, toolbox: base.Toolbox, run: Run):
    """``individual`` with its fitness from ``toolbox.evaluate``, the evaluation counted by ``run``."""
    individual.fitness.values = toolbox.evaluate(individual)
    run.spend([individual])
    return individual


def _fresh(toolbox: base.Toolbox, run: Run) -> Individual:
    individual = toolbox.individual()
    toolbox.repair(individual)
    return _evaluated(individual, toolbox, run)


def _seeded_answer(toolbox: base.Toolbox, population: list, run: Run) -> bool:
    """Give ``population[0]`` to ``toolbox.seed`` (if there is one, within what is left of the time
    budget); whether it is now an answer.  The seed is evaluated (and counted) either way: an answer
    keeps that fitness, anything else is repaired and evaluated again with the rest."""
    seed, stop = getattr(toolbox, "seed", None), run.stop
    left = stop.seconds_left()
    if seed is None or not population or (left is not None and left <= 0) or stop.solved is None:
        return False
    first = population[0]
    seed(first, max_seconds=left)
    if stop.meets(_evaluated(first, toolbox, run).fitness.values):
        return True
    del first.fitness.values
    return False


def ea_memetic(
    population: list,
    toolbox: base.Toolbox,
    cxpb: float = 0.2,
    *,
    stop: Stop,
    rng: random.Random,
    restart_after: int = 20,
    stats: tools.Statistics | None = None,
    halloffame: tools.HallOfFame | None = None,
    callback: Callable[[int, list, tools.Logbook], object] | None = None,
    checkpoint: Checkpointer | None = None,
) -> tuple[list, tools.Logbook]:
    """Evolve ``population`` (seeded and repaired first) until ``stop``; return ``(population, logbook)``.

    A fresh run first gives its first individual to ``toolbox.seed`` when the toolbox has one
    (:func:`~deap_sudoku.tools.seed_from_search`, within what is left of ``stop.max_seconds``); a
    seed that solves the puzzle ends the run at generation 0, with that individual alone, and
    ``logbook.found_by`` says ``"seed search"``.

    A generation gives every slot one child: with ``cxpb`` a crossover of the
    slot with a mate from ``toolbox.select`` followed by ``toolbox.repair``,
    otherwise a clone improved by ``toolbox.improve``.  The child replaces the
    slot when it is no worse and not a copy of another member.  A slot whose
    fitness has not improved for ``restart_after`` children restarts (``toolbox.individual``
    + ``repair``), counted in the logbook's ``restarts``.  A puzzle that propagation refutes (the
    one ``toolbox.repair`` is registered with) ends at once with ``logbook.stop_reason`` :data:`REFUTED`.
    Checkpoints and stop requests work as in :class:`~deap_sudoku.algorithms.run.Run`.
    """
    run = Run(
        population,
        stop=stop,
        stats=stats,
        halloffame=halloffame,
        callback=callback,
        checkpoint=checkpoint,
        rng=rng,
        extra={"waiting": [0] * len(population)},
    )
    if not run.resumed:
        _first_generation(toolbox, population, run)
    if _refuted(toolbox):
        run.logbook.stop_reason = REFUTED
        return run.population, run.logbook
    while not run.finished():
        with run.generating():
            population = list(run.population)
            _generation(population, toolbox, cxpb, restart_after, run)
            run.next_generation(population)
    return run.population, run.logbook


def _first_generation(toolbox: base.Toolbox, population: list, run: Run) -> None:
    """Generation 0 of a fresh run: the seed's answer alone, or every individual repaired and
    evaluated (as it was made once the time is out; those done so far when a stop request or the
    evaluation budget ends it)."""
    if _seeded_answer(toolbox, population, run):
        run.population = population[:1]  # an answer: nothing to repair or evolve
        run.logbook.found_by = "seed search"  # what found it, for the run's result (runs.record.found_by)
    else:
        try:
            for ind in run.each(population, first=True):
                if run.exhausted():
                    break
                if not run.out_of_time():  # out of it, the first is evaluated as it was made
                    toolbox.repair(ind)
                _evaluated(ind, toolbox, run)
        except Abandoned:  # the run ends at generation 0 with the individuals repaired so far
            pass
        run.keep_evaluated()
    run.begin()


def _generation(population: list, toolbox: base.Toolbox, cxpb: float, restart_after: int, run: Run) -> None:
    """One child per slot of ``population`` (changed in place), in slot order, until the evaluation
    budget is spent or a child meets the stop's fitness; a slot that has waited ``restart_after``
    children restarts."""
    waiting = run.extra["waiting"]
    members = {ind.tobytes() for ind in population}
    for slot, parent in enumerate(run.each(population)):
        if run.exhausted():  # the evaluation budget: to the evaluation, as every loop stops
            break
        child = _evaluated(_child(population, slot, parent, toolbox, cxpb, run.rng), toolbox, run)
        key = child.tobytes()
        if child.fitness >= parent.fitness and (key not in members or key == parent.tobytes()):
            waiting[slot] = 0 if child.fitness > parent.fitness else waiting[slot] + 1
            members.discard(parent.tobytes())
            members.add(key)
            population[slot] = child
        else:
            waiting[slot] += 1
        if run.stop.meets(child.fitness.values):
            break
        if waiting[slot] >= restart_after and not run.exhausted():
            members.discard(population[slot].tobytes())
            population[slot] = _fresh(toolbox, run)
            members.add(population[slot].tobytes())
            waiting[slot] = 0
            run.restarts += 1


def _child(population: list, slot: int, parent, toolbox: base.Toolbox, cxpb: float, rng: random.Random):
    """The slot's child, not yet evaluated: with ``cxpb`` the parent crossed with a mate selected
    among the other slots and repaired, otherwise a clone of it improved."""
    child = toolbox.clone(parent)
    if rng.random() < cxpb and len(population) > 1:
        mate = toolbox.clone(toolbox.select(population[:slot] + population[slot + 1 :], 1)[0])
        toolbox.mate(child, mate)
        toolbox.repair(child)
    else:
        toolbox.improve(child)
    return child
