#!/usr/bin/env bash
# Installed from a wheel, as a user of a package index would: a fresh virtual environment on the
# given Python with only the wheel (and what it depends on), an empty folder, and the commands of
# README's quick start, of the package index page (PACKAGE_INDEX.md, but pip) and of
# docs/command_line.md that name a bundled file, run as written.
#
#     bash .ci/wheel_smoke.sh PYTHON WHEEL
#
# Lines that need an extra (--plot, --ecdf, --fixed-budget: matplotlib) or a user's module
# (mymod:...) are left out; everything else in the docs' first code block that reads data/ runs.
set -euo pipefail
python=$1
wheel=$(realpath "$2")
docs=$(realpath "$(dirname "$0")/../docs/command_line.md")
index=$(realpath "$(dirname "$0")/../PACKAGE_INDEX.md")
place=$(mktemp -d)
trap 'rm -rf "$place"' EXIT
"$python" -m venv "$place/venv"
"$place/venv/bin/python" -m pip install --quiet "$wheel"
export PATH="$place/venv/bin:$PATH"
mkdir "$place/empty" && cd "$place/empty"
echo "wheel smoke on $("$python" --version), in an empty folder:" >&2
deap-sudoku --version
deap-sudoku samples > /dev/null
deap-sudoku solve data/9x9.txt > /dev/null 2>&1   # README's quick start
# The package index page's first code block, but its pip line: every command as written.
awk '/^```sh/ {inside = 1; next} /^```/ {if (inside) exit} inside' "$index" \
    | sed 's/[[:space:]]*# .*$//' | grep -v '^pip ' \
    | while read -r line; do
        echo "  $line" >&2
        eval "$line" > /dev/null 2> "$place/stderr" || { cat "$place/stderr" >&2; echo "FAILED: $line" >&2; exit 1; }
    done
rm -f puzzles.txt
# The first code block of docs/command_line.md: its lines that read data/, one command each.
awk '/^```sh/ {inside = 1; next} /^```/ {if (inside) exit} inside' "$docs" \
    | sed 's/[[:space:]]*# .*$//' \
    | grep ' data/' | grep -v -e '--plot' -e '--ecdf' -e '--fixed-budget' -e 'mymod:' -e '\\$' \
    | while read -r line; do
        echo "  $line" >&2
        status=0
        eval "$line" > /dev/null 2> "$place/stderr" || status=$?
        if [ "$status" -gt 1 ]; then  # 1 is "a puzzle left unsolved": the command ran as written
            cat "$place/stderr" >&2; echo "FAILED (exit $status): $line" >&2; exit 1
        fi
        rm -f out.txt results.md rates.png
    done
echo "wheel smoke: passed" >&2
