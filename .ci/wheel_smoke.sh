#!/usr/bin/env bash
# Installed from a wheel, as a user of a package index would: a fresh virtual environment on the
# given Python with only the wheel (and what it depends on), an empty folder, and the commands of
# README's quick start, of the package index page (PACKAGE_INDEX.md, but pip) and of
# docs/command_line.md's first block, run as written.
#
#     bash .ci/wheel_smoke.sh PYTHON WHEEL
#
# The docs' first code block runs whole (tests/test_docs_shell.py runs the others, with the extras).
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
deap-sudoku solve data/9x9-easy.txt -a restart-ga --watch > /dev/null 2>&1   # README's quick start
# The package index page's first code block, but its pip line: every command as written.
awk '/^```sh/ {inside = 1; next} /^```/ {if (inside) exit} inside' "$index" \
    | sed 's/[[:space:]]*# .*$//' | grep -v '^pip ' \
    | while read -r line; do
        echo "  $line" >&2
        eval "$line" > /dev/null 2> "$place/stderr" || { cat "$place/stderr" >&2; echo "FAILED: $line" >&2; exit 1; }
    done
rm -f puzzles.txt
# The first code block of docs/command_line.md: every command, in order, as written (it needs no extra:
# the files it reads are bundled or made by its own lines); one that says "exit 1" may end with 1.
awk '/^```sh/ {inside = 1; next} /^```/ {if (inside) exit} inside' "$docs" \
    | awk '{ if (sub(/\\$/, "")) { joined = joined $0; next } print joined $0; joined = "" }' \
    | while read -r line; do
        echo "  $line" >&2
        status=0
        eval "$line" < /dev/null > /dev/null 2> "$place/stderr" || status=$?
        allowed=0
        case "$line" in *"# "*"exit 1"*) allowed=1 ;; esac
        if [ "$status" -ne 0 ] && [ "$status" -ne "$allowed" ]; then
            cat "$place/stderr" >&2; echo "FAILED (exit $status): $line" >&2; exit 1
        fi
    done
echo "wheel smoke: passed" >&2
