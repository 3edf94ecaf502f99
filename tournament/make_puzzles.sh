#!/bin/sh
# Makes the page's puzzle set, puzzles/oware.txt: oware tables up to 14 seeds, then matches of
# the engine at small fixed depths against itself (without tables, so that it makes mistakes
# the tables can see) from every opening of tournament/openings/oware.txt, then
# `awari puzzles` over their records. Deterministic: fixed depths, one thread, the suite's
# order. Takes about a minute on two cores.
#
#   cargo build --release && tournament/make_puzzles.sh target/release puzzles/oware.txt
#
# BIN is the directory holding `awari` and `referee`; OUT the puzzle file written.
set -eu
bin=${1:?usage: make_puzzles.sh BIN OUT}
out=${2:?usage: make_puzzles.sh BIN OUT}
seeds=14
max=300
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin/awari" tables build --variant oware --seeds "$seeds" --dir "$work/tables" >/dev/null
here=$(dirname "$0")
for depths in "1 2" "2 3" "2 2"; do
    set -- $depths
    "$bin/referee" --variant oware --games 998 \
        --engine cmd="$bin/awari" name=a-depth$1 depth=$1 option.TablesPath= \
        --engine cmd="$bin/awari" name=b-depth$2 depth=$2 option.TablesPath= \
        --openings "$here/openings/oware.txt" --jsonout "$work/d$1-d$2.jsonl" >/dev/null
done
"$bin/awari" puzzles --tables "$work/tables" --max "$max" --out "$out" \
    "$work/d1-d2.jsonl" "$work/d2-d3.jsonl" "$work/d2-d2.jsonl"
