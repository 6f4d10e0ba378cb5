#!/usr/bin/env bash
# Make the Lloyd & Amos-style benchmark sets for 9x9, 16x16, 25x25, 36x36 and 49x49:
# random full grids (Las Vegas: randomised exact search of the empty grid), cells kept at random,
# 0 %, 5 %, ..., 100 % givens, COUNT instances per share, one file per share, nested across shares.
#
#     bash benchmarks/instance_sets.sh [OUT] [COUNT]      # defaults: ../instance-sets 25
#
# Seeded: the same command makes the same files on any machine.  Then, for the phase transition:
#     deap-sudoku bench ../instance-sets/36x36/*.txt --group-by givens --plot phase.png --max-seconds 60
set -euo pipefail
out=${1:-../instance-sets}
count=${2:-25}
shares=$(seq -s, 0 5 100 | sed 's/,/%,/g')%
for order in 3 4 5 6 7; do
    n=$((order * order))
    mkdir -p "$out/${n}x${n}"
    deap-sudoku generate --box "${order}x${order}" --any --givens "$shares" --count "$count" --seed 0 \
        --format lloyd --out "$out/${n}x${n}/inst${n}x${n}_{share}.txt" --force
done
