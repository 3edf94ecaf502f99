#!/usr/bin/env bash
# Measures again the figures of doc/figures.md that a release build can measure in minutes,
# each printed under the command that made it. Usage:
#
#   bench/figures.sh [--quick]
#
# It builds the release binaries first (`cargo build --release`), or measures those of the
# directory $BIN if set (BIN=/tmp/old/target/release bench/figures.sh). --quick leaves out the two
# slowest parts (the 18-seed oware tables, about a minute on 2 idle cores, and the C baseline's
# build). Everything it writes goes to a temporary directory, removed at the end. Compare with
# doc/figures.md only runs on a machine as loaded as the one the figure names.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
[ "${1:-}" = "--quick" ] && quick=true

if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
fi
bin=${BIN:-target/release}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The binaries' data directory (their default tables) is the temporary one: no tables a user
# built change what is measured.
export XDG_DATA_HOME="$tmp/data"

echo "== $(date -u +%Y-%m-%dT%H:%MZ), $("$bin/awari" --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# `run COMMAND...`: prints the command, runs it, prints its wall time (and peak memory where
# GNU time is installed).
run() {
    # The commands and their times go to stderr, so that a filter on the output keeps them.
    echo >&2
    echo "\$ $*" >&2
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "wall %e s, user %U s, peak %M KiB" "$@"
    else
        local start=$(date +%s.%N)
        "$@"
        echo "wall $(echo "$(date +%s.%N) - $start" | bc) s" >&2
    fi
}

echo; echo "== perft (doc/figures.md#perft)"
for variant in oware awari ahl kalah ayoayo; do
    run "$bin/awari" perft --variant "$variant" --depth 11 | grep -E '^(total|time|leaves/s)'
done
if ! $quick && command -v cc >/dev/null; then
    cc -O2 -o "$tmp/perft_baseline" bench/perft_baseline.c
    run "$tmp/perft_baseline" 11
fi

echo; echo "== the engine (doc/figures.md#the-engine)"
for i in 1 2 3; do
    run "$bin/awari" bench | tail -1
done
if command -v python3 >/dev/null; then
    run python3 bench/movetime.py "$bin/awari"
    for hash in 1 16 64; do
        run python3 bench/rss.py "$hash" "$bin/awari"
    done
fi

echo; echo "== endgame tables (doc/figures.md#endgame-tables)"
run "$bin/awari" tables build --seeds 15 --threads 2 --dir "$tmp/oware" | tail -1
run "$bin/awari" tables build --variant kalah --seeds 15 --threads 2 --dir "$tmp/kalah" | tail -1
if ! $quick; then
    run "$bin/awari" tables build --seeds 18 --threads 2 --dir "$tmp/oware" | tail -1
fi

echo; echo "== solving (doc/figures.md#solving)"
run "$bin/awari" solve --seeds 3 | tail -3

echo; echo "== the referee (doc/figures.md#the-referee)"
run "$bin/referee" --engine cmd="$bin/awari" name=a --engine cmd="$bin/awari" name=b \
    --nodes 1 --games 400 --jsonout "$tmp/ovh.jsonl" | tail -3
run "$bin/referee" --engine cmd="$bin/awari" name=a --engine cmd="$bin/awari" name=b \
    --nodes 1 --games 400 --jsonout "$tmp/ovh-fresh.jsonl" --restart always | tail -3
run "$bin/referee" report "$tmp/ovh.jsonl" --html "$tmp/ovh.html"
echo "page: $(wc -c <"$tmp/ovh.html") bytes"
