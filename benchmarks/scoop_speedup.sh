#!/usr/bin/env bash
# Speed-up of `deap-sudoku bench` with 2 SCOOP workers against the serial run, on the same work.
#   bash benchmarks/scoop_speedup.sh
# Work: our tabu search (tabu-swap), 2 seeded runs on each of the 10 hard bundled puzzles (20 runs).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
work=(bench data/testdata/hard.txt --algorithm tabu-swap --runs 2)
start=$(date +%s.%N)
deap-sudoku "${work[@]}" --json "$out/serial.json" > /dev/null 2>&1
serial=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
deap-sudoku "${work[@]}" --workers 2 --hosts 127.0.0.1 --json "$out/scoop.json" > /dev/null 2>&1
parallel=$(echo "$(date +%s.%N) - $start" | bc)
python - "$out/serial.json" "$out/scoop.json" <<'PY'
import json, sys
keys = ("dataset", "algorithm", "index", "seed", "solved", "generations", "steps", "evaluations")
runs = [[tuple(r[k] for k in keys) for r in json.load(open(p))["runs"]] for p in sys.argv[1:]]
print("same results:", runs[0] == runs[1], f"({len(runs[0])} runs)")
PY
printf 'serial: %.1f s, scoop -n 2: %.1f s, speed-up %.2fx\n' "$serial" "$parallel" "$(echo "$serial / $parallel" | bc -l)"
rm -r "$out"
