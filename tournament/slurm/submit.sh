#!/usr/bin/env bash
# Submits a sharded referee match to Slurm: a job array of match.sbatch (one task per shard)
# and merge.sbatch, which runs after every task has ended (--dependency=afterany).
#
#   tournament/slurm/submit.sh --shards 4 --out-dir runs/m1 -- \
#     --engine cmd=$PWD/target/release/awari name=A --engine cmd=$PWD/target/release/awari name=B \
#     --games 40 --depth 3
#
# Everything after `--` is the referee's match flags, the same as for an unsharded match less
# --out-dir and --shard (an SPRT: add `--sprt elo0=0 elo1=5`; a tournament: more --engine).
# Give engines by absolute path: the jobs start in the directory sbatch was called from, but a
# relative cmd= is read by the referee wherever it runs.
#
# Options:
#   --shards N      array tasks, shards 0..N-1 (default 4)
#   --out-dir DIR   the match directory (required; created)
#   --referee PATH  the referee binary (default: $REFEREE, else `referee` on PATH, else
#                   target/release/referee of this checkout)
#   --log-dir DIR   the jobs' output files (default DIR/slurm-logs): shard-K.out, merge.out
#   --cpus N        CPUs per shard (--cpus-per-task; match it with the referee's --concurrency)
#   --sbatch OPT    one more sbatch option for both jobs, e.g. --sbatch --partition=big
#                   (repeatable)
#
# Prints, on stdout, two lines a shell can eval:
#   ARRAY_JOB=<id>
#   MERGE_JOB=<id>
# The merge job's output file then holds the match's report (`referee merge DIR`); `squeue`
# lists the jobs until they are done. Needs SLURM_CONF (or /etc/slurm/slurm.conf) naming the
# cluster, as cluster.sh prints it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd -P)

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2
}

die() {
    echo "submit.sh: $*" >&2
    exit "${2:-1}"
}

shards=4
out_dir=""
referee=${REFEREE:-}
log_dir=""
cpus=""
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
    --shards) shards=${2:?--shards needs a number}; shift 2 ;;
    --out-dir) out_dir=${2:?--out-dir needs a directory}; shift 2 ;;
    --referee) referee=${2:?--referee needs a path}; shift 2 ;;
    --log-dir) log_dir=${2:?--log-dir needs a directory}; shift 2 ;;
    --cpus) cpus=${2:?--cpus needs a number}; shift 2 ;;
    --sbatch) extra+=("${2:?--sbatch needs an option}"); shift 2 ;;
    --) shift; break ;;
    -h | --help) usage ;;
    *) die "unknown option $1 (the referee's flags go after --)" 2 ;;
    esac
done
[ -n "$out_dir" ] || die "--out-dir DIR is required" 2
case "$shards" in '' | *[!0-9]* | 0*) die "--shards wants a whole number from 1" 2 ;; esac
if [ -n "$cpus" ]; then
    case "$cpus" in *[!0-9]* | 0*) die "--cpus wants a whole number from 1" 2 ;; esac
    extra+=("--cpus-per-task=$cpus")
fi
[ $# -gt 0 ] || die "give the referee's match flags after --" 2

command -v sbatch >/dev/null 2>&1 ||
    die "sbatch not found on PATH (install Debian's slurm-wlm; tournament/slurm/cluster.sh starts a one-node cluster)" 3

if [ -z "$referee" ]; then
    if command -v referee >/dev/null 2>&1; then
        referee=$(command -v referee)
    else
        referee=$here/../../target/release/referee
    fi
fi
[ -x "$referee" ] || die "referee $referee is not an executable file (cargo build --release, or --referee PATH)"
referee=$(cd "$(dirname "$referee")" && pwd -P)/$(basename "$referee")

mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd -P)
log_dir=${log_dir:-$out_dir/slurm-logs}
mkdir -p "$log_dir"
log_dir=$(cd "$log_dir" && pwd -P)

job_id() {
    # sbatch --parsable prints ID or ID;CLUSTER.
    local id=${1%%;*}
    case "$id" in '' | *[!0-9]*) return 1 ;; esac
    echo "$id"
}

array_out=$(env -u SHARD REFEREE="$referee" OUT_DIR="$out_dir" \
    sbatch --parsable --array="0-$((shards - 1))" --job-name=awari-match \
    --output="$log_dir/shard-%a.out" "${extra[@]}" "$here/match.sbatch" "$@") ||
    die "sbatch of the shards failed"
array=$(job_id "$array_out") || die "sbatch answered '$array_out', not a job id"

if ! merge_out=$(env -u SHARD REFEREE="$referee" OUT_DIR="$out_dir" \
    sbatch --parsable --dependency="afterany:$array" --kill-on-invalid-dep=yes \
    --job-name=awari-merge --output="$log_dir/merge.out" "${extra[@]}" "$here/merge.sbatch") ||
    ! merge=$(job_id "$merge_out"); then
    scancel "$array" 2>/dev/null || true
    die "sbatch of the merge job failed (${merge_out:-no answer}); the shards (job $array) were cancelled"
fi

echo "submitted $shards shards as job array $array and the merge as job $merge;" \
    "logs in $log_dir, the report in $log_dir/merge.out" >&2
echo "ARRAY_JOB=$array"
echo "MERGE_JOB=$merge"
