#!/usr/bin/env bash
# `awari perft` against the C baseline (bench/perft_baseline.c, built with `cc -O2`): the same
# oware tree at the same depth, RUNS runs each, alternated, and the ratio of the best times.
# On a shared machine the best of several alternated runs is the steadiest figure. Usage:
#
#   bench/perft_speed.sh [DEPTH [RUNS]]      (default: depth 11, 5 runs)
#
# It builds the release binary first (`cargo build --release`), or times the one in the
# directory $BIN if set (BIN=/tmp/old/target/release bench/perft_speed.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-11}
runs=${2:-5}

if [ -z "${BIN:-}" ]; then
    cargo build --release --quiet
fi
bin=${BIN:-target/release}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/perft_baseline" bench/perft_baseline.c

echo "== $(date -u +%Y-%m-%dT%H:%MZ), $("$bin/awari" --version), load $(cut -d' ' -f1-3 /proc/loadavg)"
best_awari=
best_c=
for _ in $(seq "$runs"); do
    # `time 561.682 ms`, and `... leaves in 3.372 s (...)`: both in seconds.
    a=$("$bin/awari" perft --variant oware --depth "$depth" | awk '/^time/ { print $2 / 1000 }')
    c=$("$tmp/perft_baseline" "$depth" | awk '{ for (i = 1; i < NF; i++) if ($i == "in") print $(i + 1) }')
    echo "awari $a s, baseline $c s"
    best_awari=$(echo "${best_awari:-$a} $a" | awk '{ print ($1 < $2) ? $1 : $2 }')
    best_c=$(echo "${best_c:-$c} $c" | awk '{ print ($1 < $2) ? $1 : $2 }')
done
echo "best: awari $best_awari s, baseline $best_c s, awari $(echo "$best_c $best_awari" | awk '{ printf "%.2f", $1 / $2 }')x as fast"
