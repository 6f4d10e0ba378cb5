"""The ``deap.tools`` of Sudoku: individuals, initialisers, fitness (with batch kernels), crossovers,
mutations, selections, statistics and ``make_toolbox``, each following DEAP's operator contract."""

from .checks import OperatorContractError, check_operator
from .crossover import cx_band_two_point, cx_bands, cx_block_uniform, cx_cell_uniform, cx_diagonal, cx_row_uniform
from .fitness import (FitnessDirectionError, batch_map, cell_map, check_direction, closeness_map, collision_map,
                      eval_cell_collisions, eval_closeness, eval_closeness_mk, eval_collisions,
                      eval_column_box_collisions, eval_distinct, eval_threats, fitness_weights, max_threats, optimum)
from .free_cells import FreeCells, free_cells
from .individual import FitnessMax, FitnessMin, Individual, MaxIndividual, clone, grid_operator, individual_class
from .init import (init_block_permutation, init_free_cells, init_row_permutation, init_smart_block_permutation,
                   seed_from_search)
from .mutation import mut_conflict_swap, mut_random_reset, mut_swap_in_box, mut_swap_in_row
from .selection import (punish_same, sel_elite_biased, sel_roulette, sel_stochastic_universal_sampling,
                        sel_tournament, sel_truncation, selection_weights, with_punish_same)
from .statistics import HallOfFame, fitness_statistics
from .toolbox import make_toolbox

__all__ = [
    "Individual", "MaxIndividual", "FitnessMin", "FitnessMax", "individual_class", "clone", "grid_operator",
    "init_block_permutation", "init_smart_block_permutation", "init_row_permutation", "init_free_cells",
    "seed_from_search",
    "eval_collisions", "eval_cell_collisions", "eval_column_box_collisions", "eval_distinct", "eval_threats",
    "eval_closeness", "eval_closeness_mk", "collision_map", "closeness_map", "cell_map", "max_threats", "optimum",
    "batch_map", "FitnessDirectionError", "check_direction", "fitness_weights",
    "cx_bands", "cx_band_two_point", "cx_diagonal", "cx_block_uniform", "cx_row_uniform", "cx_cell_uniform",
    "mut_swap_in_box", "mut_conflict_swap", "mut_swap_in_row", "mut_random_reset",
    "sel_tournament", "sel_roulette", "sel_stochastic_universal_sampling", "sel_truncation", "sel_elite_biased",
    "selection_weights", "punish_same", "with_punish_same",
    "fitness_statistics", "HallOfFame", "FreeCells", "free_cells", "make_toolbox", "check_operator",
    "OperatorContractError",
]
