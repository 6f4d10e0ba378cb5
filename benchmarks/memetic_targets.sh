#!/usr/bin/env bash
# Issue 6's targets for the memetic GA on the shared benchmark sets: 10 s per run, one process per run.
#   bash benchmarks/memetic_targets.sh            # serially (about 65 s on the development machine)
#   SCOOP=2 bash benchmarks/memetic_targets.sh    # the runs spread over 2 SCOOP workers
# Writes benchmarks/results/memetic_{9x9,general}.{json,md} and docs/phase_transition.png, then prints
# the target check and the GA / exact-solver time ratio (benchmarks/memetic_summary.py).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
OUT=benchmarks/results
mkdir -p "$OUT"
if [ -n "${SCOOP:-}" ]; then
    BENCH=(deap-sudoku bench --workers "$SCOOP" --hosts 127.0.0.1)
else
    BENCH=(deap-sudoku bench)
fi
"${BENCH[@]}" "$DATA"/norvig_pytudes/{top95,hardest,easy50}.txt "$DATA"/lloyd_amos_aco/normalized/logic_solvable_9x9.txt \
    "$DATA"/tdoku_data/forum_hardest_1106.txt -a memetic -a backtracking --max-seconds 10 \
    --json "$OUT"/memetic_9x9.json --markdown "$OUT"/memetic_9x9.md --force
"${BENCH[@]}" "$DATA"/lloyd_amos_aco/general/inst{9x9,16x16,25x25}_*.txt -a memetic --max-seconds 10 --group-by givens \
    --json "$OUT"/memetic_general.json --markdown "$OUT"/memetic_general.md --plot docs/phase_transition.png --force
python benchmarks/memetic_summary.py "$OUT"/memetic_9x9.json "$OUT"/memetic_general.json
