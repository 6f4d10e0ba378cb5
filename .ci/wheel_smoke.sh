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
# the files it reads are bundled or made by its own lines), under tests/test_docs_shell.py's rules,
# which leave this block to this script: the exit code the comment gives ("exit 1"; else 0), and
# what it says it prints (says "TEXT", on either stream).
awk '/^```sh/ {inside = 1; next} /^```/ {if (inside) exit} inside' "$docs" \
    | awk '{ if (sub(/\\$/, "")) { joined = joined $0; next } print joined $0; joined = "" }' \
    | while read -r line; do
        echo "  $line" >&2
        status=0
        timeout 60 bash -c "$line" < /dev/null > "$place/stdout" 2> "$place/stderr" || status=$?
        expected=0
        case "$line" in *"# "*"exit 1"*) expected=1 ;; esac
        if [ "$status" -ne "$expected" ]; then
            cat "$place/stderr" >&2; echo "FAILED (exit $status, not $expected): $line" >&2; exit 1
        fi
        says=$(printf '%s\n' "$line" | sed -n 's/.*# .*says "\([^"]*\)".*/\1/p')
        if [ -n "$says" ] && ! cat "$place/stdout" "$place/stderr" | grep -qF -- "$says"; then
            cat "$place/stderr" >&2; echo "FAILED (does not say \"$says\"): $line" >&2; exit 1
        fi
    done
echo "wheel smoke: passed" >&2
