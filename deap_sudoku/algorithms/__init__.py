"""Algorithms: the generational loop with stop criteria, the one-child-per-mating loops of the documented
block GAs, the memetic GA with propagation repair,
DEAP's eaSimple batched over the population, and tabu search."""

from .batched import ea_simple_batched
from .generational import INTERRUPTED, Checkpointer, Run, Stop, ea_generational, evaluate_invalid, one_child
from .memetic import REFUTED, ea_memetic, memetic_toolbox
from .offspring import ea_keep_refill, ea_plus_children
from .repair import PropagationRepair, mut_destroy_repair, mut_repair
from .tabu import TabuResult, tabu_search

__all__ = ["Stop", "Run", "Checkpointer", "INTERRUPTED", "ea_generational", "evaluate_invalid", "one_child",
           "ea_keep_refill", "ea_plus_children", "ea_memetic",
           "memetic_toolbox", "REFUTED", "PropagationRepair", "mut_repair", "mut_destroy_repair",
           "ea_simple_batched", "TabuResult", "tabu_search"]
