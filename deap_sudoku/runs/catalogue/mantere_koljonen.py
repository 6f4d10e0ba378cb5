"""A GA after Mantere & Koljonen's Sudoku GA (IEEE CEC 2007) and a cultural algorithm after theirs
(IEEE WCCI/CEC 2008) as runs, composed from the package's parts (``examples/mk_ga.py`` and
``examples/mk_cultural.py`` write the same compositions out).  Neither paper's body could be read
here: the GA's rules come from a secondary summary and the abstract, the belief space is ours
(``docs/literature.md`` says which rule comes from where).

Both: block-permutation individuals with the givens fixed, a crossover whose points lie only
between boxes, a mutation inside one box (swap, three-swap or insertion) that the help array may
refuse, their published fitness (:func:`~deap_sudoku.tools.eval_closeness_mk`), a population of
21 of which the best is kept, each other place filled by a child of two parents drawn from the
places above it (:func:`~deap_sudoku.tools.sel_ranked_pairs`), until solved or 100,000 generations.
The cultural algorithm adds a :class:`~deap_sudoku.tools.BeliefSpace` that the best individuals
update every generation and whose believed cells the mutation leaves alone.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from deap import base, tools

from .. import seeding
from ...algorithms import Checkpointer, Stop, ea_generational
from ...grid.puzzle import Puzzle
from ...tools import (
    BeliefSpace,
    Individual,
    batch_map,
    clone,
    cx_block_one_point,
    cx_block_uniform,
    eval_closeness_mk,
    init_block_permutation,
    mut_mixed_in_box,
    sel_ranked_pairs,
)
from ..composition import evolve
from ..record import bundled_ga

__all__ = ["mk_ga", "mk_cultural", "CROSSOVERS"]

Callback = Callable[[int, list, tools.Logbook], None]

CROSSOVERS = {"uniform": cx_block_uniform, "one_point": cx_block_one_point}
"""The crossovers between boxes: whole boxes from either parent, or one point between boxes."""


def _toolbox(
    puzzle: Puzzle,
    rng: random.Random,
    *,
    crossover: str,
    swap: float,
    three_swap: float,
    insert: float,
    use_help_array: bool,
    tries: int,
    belief: BeliefSpace | None,
) -> base.Toolbox:
    toolbox = base.Toolbox()
    toolbox.register("individual", init_block_permutation, Individual, puzzle=puzzle, rng=rng)
    toolbox.register("population", tools.initRepeat, list, toolbox.individual)
    toolbox.register("evaluate", eval_closeness_mk, puzzle=puzzle)
    toolbox.register("mate", CROSSOVERS[crossover], puzzle=puzzle, rng=rng)
    toolbox.register(
        "mutate",
        mut_mixed_in_box,
        puzzle=puzzle,
        swap=swap,
        three_swap=three_swap,
        insert=insert,
        use_help_array=use_help_array,
        tries=tries,
        belief=belief,
        rng=rng,
    )
    select = sel_ranked_pairs if belief is None else belief.accepting(sel_ranked_pairs)
    toolbox.register("select", select, rng=rng)
    toolbox.register("clone", clone)
    toolbox.register("map", batch_map)
    return toolbox


_OPTIONS = ("cxpb", "mutpb")


@bundled_ga(
    "mk-ga",
    "after Mantere & Koljonen 2007 (rules from a summary): block GA, in-box swap, 3-swap, insertion, help array",
    _OPTIONS,
    example="mk_ga",
)
def mk_ga(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 21,
    elites: int = 1,
    cxpb: float = 1.0,
    mutpb: float = 1.0,
    crossover: str = "uniform",
    swap: float = 1.0,
    three_swap: float = 1.0,
    insert: float = 1.0,
    use_help_array: bool = True,
    tries: int = 10,
    restart_after: int | None = 2000,
    accepted: int | None = None,
    stop: Stop = Stop(max_generations=100_000),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """Mantere & Koljonen's GA (``examples/mk_ga.py``; ``docs/literature.md`` tables its rules);
    with ``accepted``, the cultural algorithm's belief space too (:func:`mk_cultural`)."""
    if crossover not in CROSSOVERS:
        raise ValueError(f"crossover is one of {', '.join(CROSSOVERS)}, not {crossover!r}")
    started, rng = time.perf_counter(), seeding.generator(seed)
    belief = None if accepted is None else BeliefSpace(puzzle, accepted=accepted)
    toolbox = _toolbox(
        puzzle,
        rng,
        crossover=crossover,
        swap=swap,
        three_swap=three_swap,
        insert=insert,
        use_help_array=use_help_array,
        tries=tries,
        belief=belief,
    )
    stop = stop.with_defaults(solved=0, started=started)
    return evolve(
        puzzle,
        operators,
        ea_generational,
        toolbox,
        population_size,
        cxpb=cxpb,
        mutpb=mutpb,
        elites=elites,
        one_child_per_mating=True,
        restart_after=restart_after,
        stop=stop,
        rng=rng,
        checkpoint=checkpoint,
        callback=callback,
    )


@bundled_ga(
    "mk-cultural",
    "after Mantere & Koljonen 2008 (belief space ours): mk-ga with a belief space of the best's agreed cells",
    _OPTIONS,
    example="mk_cultural",
)
def mk_cultural(
    puzzle: Puzzle,
    *,
    seed: int = 0,
    population_size: int = 21,
    elites: int = 1,
    cxpb: float = 1.0,
    mutpb: float = 1.0,
    crossover: str = "uniform",
    swap: float = 1.0,
    three_swap: float = 1.0,
    insert: float = 1.0,
    use_help_array: bool = True,
    tries: int = 10,
    restart_after: int | None = 2000,
    accepted: int = 2,
    stop: Stop = Stop(max_generations=100_000),
    operators: dict | None = None,
    checkpoint: Checkpointer | None = None,
    callback: Callback | None = None,
):
    """Mantere & Koljonen's cultural algorithm (``examples/mk_cultural.py``): :func:`mk_ga` with a
    belief space that the ``accepted`` best update before each selection and that the mutation obeys."""
    return mk_ga(
        puzzle,
        seed=seed,
        population_size=population_size,
        elites=elites,
        cxpb=cxpb,
        mutpb=mutpb,
        crossover=crossover,
        swap=swap,
        three_swap=three_swap,
        insert=insert,
        use_help_array=use_help_array,
        tries=tries,
        restart_after=restart_after,
        accepted=accepted,
        stop=stop,
        operators=operators,
        checkpoint=checkpoint,
        callback=callback,
    )
