"""Library misuse gets a TypeError or ValueError that names the argument: never a segfault, an
out-of-bounds read, a silently wrapped value, an IndexError or an AttributeError (issue 16, point 12)."""

from __future__ import annotations

import inspect
import random
import subprocess
import sys

import numpy as np
import pytest

from deap_sudoku import Individual, Shape, load_sample
from deap_sudoku import exact, propagation, tools
from deap_sudoku.exact import solve
from deap_sudoku.tools import eval_collisions

NINE = load_sample()


@pytest.mark.parametrize(
    "values, keep, message",
    [
        ("[99] * 81", "[]", "values holds 99, out of range 0..9"),
        ("[1] * 80", "[]", r"values has shape \(80,\)"),
        ("[1] * 81", "[500]", "keep holds cell 500, outside 0..80"),
        ("[1] * 81", "[-3]", "keep holds cell -3"),
    ],
)
def test_the_compiled_repair_refuses_what_would_read_past_its_tables(values, keep, message):
    """Out-of-range values used to segfault the compiled kernel (exit 139): run it in a child."""
    code = (
        "import numpy as np\nfrom deap_sudoku import load_sample\n"
        "from deap_sudoku.algorithms import PropagationRepair\n"
        "repair = PropagationRepair(load_sample(), compiled=True)\n"
        f"try:\n    repair.rebuild(np.array({values}), np.array({keep}, dtype=int), np.random.default_rng(1))\n"
        "except ValueError as exc:\n    print('ValueError:', exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ValueError:")
    assert __import__("re").search(message, done.stdout)


def test_compiled_propagation_refuses_queues_and_masks_it_cannot_index():
    cands, _ = propagation.initial_masks(NINE)
    cands = np.array(cands, dtype=np.int64)
    with pytest.raises(ValueError, match="queue must hold at most 81 cell indices 0..80"):
        propagation.propagate_arrays(cands.copy(), [10**6], NINE.shape)
    with pytest.raises(TypeError, match="cands must be a writeable, contiguous int64 array of 81"):
        propagation.propagate_arrays(cands[:80].copy(), [], NINE.shape)
    with pytest.raises(ValueError, match="cands holds bits beyond the 9 values"):
        propagation.propagate_arrays(np.full(81, 1 << 40, dtype=np.int64), [], NINE.shape)


def test_fitness_of_a_grid_of_another_size_is_refused():
    with pytest.raises(ValueError, match=r"individual has shape \(625,\); a 9x9 \(3x3 boxes\) grid needs \(81,\)"):
        eval_collisions(Individual([1] * 625), puzzle=NINE)
    with pytest.raises(ValueError, match="population has shape"):
        eval_collisions.batch(np.ones((3, 625), dtype=np.uint8), NINE)
    with pytest.raises(TypeError, match="individual must hold whole numbers, not float64"):
        eval_collisions(np.full(81, 1.5), puzzle=NINE)


@pytest.mark.parametrize(
    "values, error, message",
    [
        ([-1] * 81, ValueError, "values must be 0..65535; got -1"),
        ([1.7] * 81, ValueError, "whole numbers; got a fraction"),
        (["a"] * 81, TypeError, "values must be whole numbers"),
        ([True] * 81, TypeError, "not bool"),
    ],
)
def test_an_individual_refuses_values_that_do_not_fit_its_cells(values, error, message):
    with pytest.raises(error, match=message):
        Individual(values)
    assert Individual([1.0] * 81).dtype == np.uint8  # whole numbers written as floats are fine


def test_budgets_of_zero_and_shapes_of_fractions_are_refused():
    with pytest.raises(ValueError, match="max_nodes must be at least 1, not 0"):
        solve(NINE, max_nodes=0)
    with pytest.raises(ValueError, match="max_seconds must be more than 0"):
        exact.search(NINE, max_seconds=0)
    with pytest.raises(TypeError, match="max_nodes must be a whole number"):
        exact.count_solutions(NINE, max_nodes=2.5)
    with pytest.raises(TypeError, match="box_rows must be a whole number, not 3.5"):
        Shape(3.5, 2)


BAD_ARGUMENTS = {
    "None": None,
    "text": "abc",
    "80 cells": Individual([1] * 80),
    "625 cells": Individual([1] * 625),
    "fractions": np.full(81, 1.5),
    "negatives": np.full(81, -1),
    "99s": np.full(81, 99),
    "a 9x9 matrix": np.ones((9, 9), dtype=int),
    "a list": [1] * 81,
    "a 4x4 puzzle": load_sample("4x4.txt"),
}


def _public_functions():
    for module in (tools, exact, propagation):
        for name in module.__all__:
            function = getattr(module, name)
            if inspect.isfunction(function):
                yield f"{module.__name__.rsplit('.', 1)[1]}.{name}", function


@pytest.mark.parametrize("name, function", list(_public_functions()), ids=lambda v: v if isinstance(v, str) else "")
def test_public_functions_answer_bad_first_arguments_with_type_or_value_errors(name, function):
    """Each public function of tools, exact and propagation, given each bad value as its first argument
    (the others sensible), raises TypeError or ValueError, or works: nothing else."""
    solved = Individual(solve(NINE).cells)
    sensible = {"puzzle": NINE, "rng": random.Random(1)}
    parameters = list(inspect.signature(function).parameters.values())
    required = [
        p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    ]
    keywords = {
        p.name: sensible.get(p.name, 1) for p in parameters if p.kind == p.KEYWORD_ONLY and p.default is p.empty
    }
    for label, bad in BAD_ARGUMENTS.items():
        rest = [solved.copy() if "ind" in p.name else sensible.get(p.name, 1) for p in required[1:]]
        try:
            function(bad, *rest, **keywords)
        except (TypeError, ValueError):
            pass
        except Exception as exc:  # noqa: BLE001 - the point of the test
            pytest.fail(f"{name}({label}, ...) raised {type(exc).__name__}: {exc}")
