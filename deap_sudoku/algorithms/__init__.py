"""Algorithms: DEAP's own loops with a stop (``ea_simple``, ``ea_mu_plus_lambda``, ``ea_mu_comma_lambda``),
the generational loop with stop criteria, the one-child-per-mating loops of the documented block GAs, the
memetic GA with propagation repair, DEAP's eaSimple batched over the population, tabu search, an
iterated local search with a constraint-programming perturbation after Musliu & Winter, simulated
annealing after Lewis, the ant colony system and Wang et al.'s local-search GA (LSGA)."""

from .annealing import AnnealingResult, annealing_toolbox, simulated_annealing
from .ant_colony import ea_ant_colony
from .batched import ea_simple_batched
from .deap_loops import ea_mu_comma_lambda, ea_mu_plus_lambda, ea_simple
from .generational import ea_generational, one_child
from .lsga import ea_lsga, elite_learning_probability
from .memetic import REFUTED, ea_memetic, memetic_toolbox
from .offspring import ea_keep_refill, ea_plus_children
from .repair import PropagationRepair, mut_destroy_repair, mut_repair, propagation_repair
from .run import Checkpointer, ResumeError, Run, evaluate_invalid
from .stop import HALTED, INTERRUPTED, Abandoned, Stop, stop_reason
from .tabu import TabuResult, tabu_search
from .iterated_local_search import IteratedSearchResult, iterated_local_search, iterated_search_toolbox

__all__ = [
    "ea_simple",
    "ea_mu_plus_lambda",
    "ea_mu_comma_lambda",
    "Stop",
    "Run",
    "Abandoned",
    "Checkpointer",
    "ResumeError",
    "INTERRUPTED",
    "HALTED",
    "ea_generational",
    "evaluate_invalid",
    "one_child",
    "stop_reason",
    "ea_keep_refill",
    "ea_plus_children",
    "ea_memetic",
    "ea_lsga",
    "elite_learning_probability",
    "memetic_toolbox",
    "REFUTED",
    "PropagationRepair",
    "propagation_repair",
    "mut_repair",
    "mut_destroy_repair",
    "ea_simple_batched",
    "TabuResult",
    "tabu_search",
    "IteratedSearchResult",
    "iterated_local_search",
    "iterated_search_toolbox",
    "ea_ant_colony",
    "AnnealingResult",
    "simulated_annealing",
    "annealing_toolbox",
]
