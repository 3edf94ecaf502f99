#!/usr/bin/env bash
# A one-node Slurm cluster, run as root, with everything it writes under one directory.
#
#   tournament/slurm/cluster.sh start STATEDIR   # prints: export SLURM_CONF=STATEDIR/slurm.conf
#   tournament/slurm/cluster.sh stop STATEDIR
#   tournament/slurm/cluster.sh status STATEDIR
#
# `start` writes a munge key, slurm.conf, the state and spool directories, the pid files and
# the logs under STATEDIR (created if missing), starts `munged`, `slurmctld` and `slurmd` in
# that order and waits (at most CLUSTER_WAIT seconds, 30 by default) until `sinfo` shows the
# node idle. It prints one line for the caller, `export SLURM_CONF=STATEDIR/slurm.conf`, which
# `sbatch`, `squeue`, `sinfo`, `scontrol` and `scancel` need to find this cluster. A cluster
# already running on STATEDIR is left as it is (its line is printed again); daemons missing from
# it are started with its existing slurm.conf.
#
# `stop` cancels the cluster's jobs (waiting at most 10 s for them to go), then stops `slurmd`,
# `slurmctld` and `munged`, in that order, by the pids in their pid files: SIGTERM, a wait of at
# most 10 s, then SIGKILL. Stopping a cluster that is not running does nothing. Each daemon is
# started with STATEDIR on its command line (`-f STATEDIR/slurm.conf`, `--key-file=STATEDIR/...`)
# and a pid is only signalled while its command line still names STATEDIR.
#
# Reaping: the daemons fork into the background, so their parent is the nearest child
# subreaper, or PID 1. Where PID 1 does not reap orphans (as in some sandboxes), a daemon that
# has exited stays a zombie until its parent waits for it: a caller that must leave no zombie
# (a test) marks itself a child subreaper (prctl PR_SET_CHILD_SUBREAPER) before `start` and
# waits for its children after `stop`. `stop` counts a zombie as stopped.
#
# The controller and node ports are picked free at `start` (two consecutive ports from 20000
# to 39999), so clusters on different STATEDIRs can run side by side; set CLUSTER_PORT to choose
# the controller's port (the node uses the next one).
#
# Exit codes: 0 done, 1 failed (a daemon did not start, or the node did not come up: the log
# tails are printed), 2 usage, 3 a needed program is missing (install Debian's `slurm-wlm`,
# which brings `munge`), 4 not root.
set -euo pipefail

usage() {
    echo "usage: $0 start|stop|status STATEDIR" >&2
    exit 2
}

die() {
    echo "cluster.sh: $*" >&2
    exit 1
}

[ $# -eq 2 ] || usage
action=$1
case "$action" in start | stop | status) ;; *) usage ;; esac

for program in munged slurmctld slurmd sinfo squeue scancel; do
    if ! command -v "$program" >/dev/null 2>&1; then
        echo "cluster.sh: $program not found on PATH (install Debian's slurm-wlm: apt-get install slurm-wlm)" >&2
        exit 3
    fi
done
if [ "$(id -u)" -ne 0 ]; then
    echo "cluster.sh: must run as root (the daemons run as root: SlurmUser=root)" >&2
    exit 4
fi

if [ "$action" = start ]; then
    mkdir -p "$2"
elif [ ! -d "$2" ]; then
    echo "cluster.sh: no cluster directory $2: nothing runs there" >&2
    [ "$action" = stop ] && exit 0
    exit 1
fi
state=$(cd "$2" && pwd -P)
conf=$state/slurm.conf
export SLURM_CONF=$conf
wait_limit=${CLUSTER_WAIT:-30}

case "$state" in *[[:space:]]*) die "STATEDIR $state has white space, which slurm.conf cannot hold" ;; esac
# Unix socket paths are limited to 107 bytes.
socket=$state/munge/munge.socket
if [ ${#socket} -gt 100 ]; then
    die "STATEDIR $state is too long for munge's socket path ($socket): use a shorter one"
fi

pidfile() {
    case "$1" in
    munged) echo "$state/run/munged.pid" ;;
    slurmctld) echo "$state/run/slurmctld.pid" ;;
    slurmd) echo "$state/run/slurmd.pid" ;;
    esac
}

# The pid of DAEMON if it runs (not a zombie) with STATEDIR on its command line; else nothing.
live_pid() {
    local file pid cmdline stat
    file=$(pidfile "$1")
    [ -s "$file" ] || return 0
    pid=$(tr -dc '0-9' <"$file")
    [ -n "$pid" ] || return 0
    cmdline=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || return 0
    stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 0
    stat=${stat##*) }
    case "$stat" in Z* | X*) return 0 ;; esac
    case "$cmdline" in *"$1"*"$state"*) echo "$pid" ;; esac
}

# Whether PID has exited (gone, or a zombie waiting for its parent).
exited() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    stat=${stat##*) }
    case "$stat" in Z* | X*) return 0 ;; *) return 1 ;; esac
}

log_tails() {
    local log
    for log in "$state"/log/*.log; do
        [ -f "$log" ] || continue
        echo "--- last lines of $log" >&2
        tail -n 15 "$log" >&2
    done
}

port_in_use() {
    local hex
    hex=$(printf ':%04X' "$1")
    awk -v h="$hex" 'FNR > 1 && toupper(substr($2, length($2) - 4)) == h { found = 1 } END { exit !found }' \
        /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

pick_ports() {
    local port
    if [ -n "${CLUSTER_PORT:-}" ]; then
        echo "$CLUSTER_PORT"
        return
    fi
    for _ in $(seq 1 100); do
        port=$((20000 + (RANDOM % 19999)))
        if ! port_in_use "$port" && ! port_in_use $((port + 1)); then
            echo "$port"
            return
        fi
    done
    die "no two free consecutive ports found from 20000 to 39999"
}

write_config() {
    local host cpus mem port
    host=$(hostname -s)
    cpus=$(nproc)
    # 90% of the machine's memory: slurmd drains a node that has less than it is said to.
    mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
    port=$(pick_ports)
    cat >"$conf" <<EOF
# Written by tournament/slurm/cluster.sh: a one-node cluster under $state.
ClusterName=awari
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$(pidfile slurmctld)
SlurmdPidFile=$(pidfile slurmd)
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups here (no systemd, no cgroup control): track processes through /proc.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# Finished jobs stay visible to scontrol for 10 minutes; a cancelled job is killed 5 s after
# its SIGTERM.
MinJobAge=600
KillWait=5
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munged() {
    [ -z "$(live_pid munged)" ] || return 0
    if [ ! -s "$state/munge/munge.key" ]; then
        (umask 077 && head -c 128 /dev/urandom >"$state/munge/munge.key")
    fi
    chmod 0400 "$state/munge/munge.key"
    rm -f "$socket" "$socket.lock"
    setsid munged --force \
        --key-file="$state/munge/munge.key" \
        --socket="$socket" \
        --pid-file="$(pidfile munged)" \
        --log-file="$state/log/munged.log" \
        --seed-file="$state/munge/munged.seed" </dev/null >>"$state/log/start.log" 2>&1 ||
        {
            log_tails
            die "munged did not start"
        }
}

start_slurm_daemon() {
    local daemon=$1
    [ -z "$(live_pid "$daemon")" ] || return 0
    rm -f "$(pidfile "$daemon")"
    setsid "$daemon" -f "$conf" </dev/null >>"$state/log/start.log" 2>&1 || {
        log_tails
        die "$daemon did not start"
    }
}

# Waits until DAEMON's pid file names a live process (at most wait_limit seconds).
await_daemon() {
    local deadline=$((SECONDS + wait_limit))
    until [ -n "$(live_pid "$1")" ]; do
        if [ $SECONDS -ge $deadline ]; then
            log_tails
            die "$1 did not come up within $wait_limit s"
        fi
        sleep 0.2
    done
}

node_state() {
    sinfo -h -N -o '%t' 2>/dev/null | head -n 1
}

start() {
    mkdir -p "$state/munge" "$state/run" "$state/log" "$state/ctld" "$state/spool"
    chmod 0755 "$state/munge"
    if [ -z "$(live_pid munged)$(live_pid slurmctld)$(live_pid slurmd)" ] || [ ! -s "$conf" ]; then
        write_config
    fi
    start_munged
    await_daemon munged
    start_slurm_daemon slurmctld
    await_daemon slurmctld
    start_slurm_daemon slurmd
    await_daemon slurmd
    local deadline=$((SECONDS + wait_limit)) node=""
    while :; do
        node=$(node_state)
        case "$node" in idle | mix | alloc) break ;; esac
        if [ $SECONDS -ge $deadline ]; then
            log_tails
            stop_all >&2 || true
            die "the node is not idle after $wait_limit s (sinfo says: ${node:-nothing}); the cluster was stopped"
        fi
        sleep 0.3
    done
    echo "export SLURM_CONF=$conf"
}

# Sends SIGTERM to DAEMON, waits at most 10 s for it to exit, then SIGKILLs it.
stop_daemon() {
    local daemon=$1 pid deadline
    pid=$(live_pid "$daemon")
    if [ -n "$pid" ]; then
        kill -TERM "$pid" 2>/dev/null || true
        deadline=$((SECONDS + 10))
        until exited "$pid"; do
            if [ $SECONDS -ge $deadline ]; then
                echo "cluster.sh: $daemon (pid $pid) still there 10 s after SIGTERM: SIGKILL" >&2
                kill -KILL "$pid" 2>/dev/null || true
                deadline=$((SECONDS + 5))
                until exited "$pid"; do
                    [ $SECONDS -lt $deadline ] || die "$daemon (pid $pid) survived SIGKILL"
                    sleep 0.1
                done
                break
            fi
            sleep 0.1
        done
    fi
    rm -f "$(pidfile "$daemon")"
}

stop_all() {
    # Jobs first, while the controller can still cancel them: a job's processes belong to no
    # daemon (slurmstepd runs them) and would outlive the cluster.
    if [ -n "$(live_pid slurmctld)" ] && [ -n "$(live_pid slurmd)" ]; then
        local deadline=$((SECONDS + 10))
        if [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
            scancel --full --user=root 2>/dev/null || true
            while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $SECONDS -lt $deadline ]; do
                sleep 0.2
            done
        fi
    fi
    stop_daemon slurmd
    stop_daemon slurmctld
    stop_daemon munged
    kill_strays
    rm -f "$socket" "$socket.lock"
}

# What a cancel missed (the controller was already gone, or a job outlived KillWait): each
# slurmstepd of this cluster (its working directory is under STATEDIR) and every process of its
# session (the job's processes) gets SIGKILL.
kill_strays() {
    local dir pid sid sids="" cwd stat deadline left
    for dir in /proc/[0-9]*; do
        [ "$(cat "$dir/comm" 2>/dev/null)" = slurmstepd ] || continue
        cwd=$(readlink "$dir/cwd" 2>/dev/null) || continue
        case "$cwd/" in "$state"/*) ;; *) continue ;; esac
        stat=$(cat "$dir/stat" 2>/dev/null) || continue
        stat=${stat##*) }
        # After the name: state ppid pgrp session.
        sid=$(echo "$stat" | awk '{ print $4 }')
        sids="$sids $sid"
    done
    [ -n "$sids" ] || return 0
    echo "cluster.sh: killing job processes left behind (sessions$sids)" >&2
    deadline=$((SECONDS + 5))
    while :; do
        left=""
        for dir in /proc/[0-9]*; do
            pid=${dir#/proc/}
            stat=$(cat "$dir/stat" 2>/dev/null) || continue
            stat=${stat##*) }
            case "$stat" in Z* | X*) continue ;; esac
            sid=$(echo "$stat" | awk '{ print $4 }')
            case " $sids " in *" $sid "*)
                kill -KILL "$pid" 2>/dev/null || true
                left="$left $pid"
                ;;
            esac
        done
        [ -n "$left" ] || return 0
        [ $SECONDS -lt $deadline ] || die "job processes$left survived SIGKILL"
        sleep 0.1
    done
}

status() {
    local daemon pid code=0
    for daemon in munged slurmctld slurmd; do
        pid=$(live_pid "$daemon")
        if [ -n "$pid" ]; then
            echo "$daemon running (pid $pid)"
        else
            echo "$daemon not running"
            code=1
        fi
    done
    [ $code -ne 0 ] || echo "node: $(node_state)"
    return $code
}

case "$action" in
start) start ;;
stop) stop_all ;;
status) status ;;
esac
