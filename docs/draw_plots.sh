#!/usr/bin/env bash
# Draws the pictures in docs/plots.md with the deap-sudoku command itself.  Run from the repository
# root after installing with the plot extra (pip install -e ".[plot]"); the last picture reads the
# Lloyd & Amos instances in ../shared/data.
set -euo pipefail
img=docs/img
mkdir -p "$img"
report=data/sources/report-example.txt
deap-sudoku solve "$report" -a cell-ga --max-generations 100 --plot "$img/cell-ga.png" --force -q > /dev/null || true
deap-sudoku solve "$report" -a restart-ga --max-generations 150 --plot "$img/restart-ga.png" --force -q > /dev/null || true
deap-sudoku solve data/testdata/hard.txt -a tabu --max-seconds 1 --plot "$img/tabu.png" --force -q > /dev/null || true
deap-sudoku solve data/9x9.txt -a memetic --plot "$img/memetic.png" --force -q > /dev/null
deap-sudoku bench data/testdata/{easy,medium,hard,expert}.txt -a memetic -a tabu-swap -a backtracking --limit 5 \
    --max-seconds 5 --plot "$img/bench-by-dataset.png" --plot-by dataset --force -q > /dev/null
general=../shared/data/lloyd_amos_aco/general
deap-sudoku bench "$general"/inst16x16_{20,30,40,45,50,55,60,70}_{0,1,2}.txt -a memetic -a backtracking \
    --group-by givens --max-seconds 10 --plot "$img/phase-16x16.png" --force -q > /dev/null
python docs/draw_tutorial.py > /dev/null
python docs/tutorial_notebook.py  # the notebook, stored with its outputs
