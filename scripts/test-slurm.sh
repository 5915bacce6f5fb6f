#!/usr/bin/env bash
# The Slurm lane (docs/scale-out.md): a one-node Slurm cluster on 127.0.0.1
# in a throwaway folder, `triad trainer` on a run folder, and
# deploy/slurm/worker.sbatch as a two-task array job feeding it.
#
#   sudo scripts/test-slurm.sh          # as root: it installs and runs daemons
#
# 1. installs Debian's slurm-wlm and munge when missing (apt-get, once);
# 2. writes a munge key and a minimal slurm.conf under a mktemp folder and
#    starts munged, slurmctld and slurmd in the foreground (-F / -D) as
#    background children of this script, no systemd needed;
# 3. starts `triad trainer` on RUN = FOLDER/run (a plain path);
# 4. sbatch --array=0-1 deploy/slurm/worker.sbatch RUN --games-per-shard 4
#    --max-shards 3 --poll 0.5, with TRIAD exported;
# 5. waits for both array tasks to leave the queue, completed with exit 0;
# 6. checks RUN/games/gen-*/w0000-* and w0001-* and RUN/networks/gen-0001.json;
# 7. cancels what is left, kills what it started by PID, removes the folder
#    (kept on failure, or with TRIAD_SLURM_KEEP=1).
#
# Exit 0: passed. Exit 1: a failed step, with one line on stderr starting
# "test-slurm: FAIL:".
#
# Environment: TRIAD (the binary; default target/release/triad, built when
# missing), TRIAD_SLURM_TIMEOUT (seconds to wait for the jobs, default 900),
# TRIAD_SLURM_KEEP=1 (keep the folder).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TIMEOUT=${TRIAD_SLURM_TIMEOUT:-900}
KEEP=${TRIAD_SLURM_KEEP:-0}
START=$(date +%s)

say() { echo "test-slurm: $*" >&2; }

DIR=""
PIDS=()          # daemons and the trainer, in start order
JOBID=""
FAILED=0

fail() {
    FAILED=1
    echo "test-slurm: FAIL: $*" >&2
    exit 1
}

stop_pid() { # stop_pid PID NAME: TERM, up to 15 s, then KILL
    local pid=$1 name=$2 i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for i in $(seq 1 150); do
        kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
        sleep 0.1
    done
    say "$name ($pid) ignored SIGTERM, killing it"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}

leftovers() { # PIDs of processes of this run: DIR on their command line, or
    # a slurmstepd whose SLURM_CONF is ours (its command line names no path).
    local d p
    for d in /proc/[0-9]*; do
        p=${d#/proc/}
        case "$p" in "$$" | "$BASHPID") continue ;; esac
        # Not this script's own helpers (the grep below names DIR too).
        case "$(sed -n 's/^PPid:[[:space:]]*//p' "$d/status" 2>/dev/null)" in
            "$$" | "$BASHPID") continue ;;
        esac
        # A zombie is done (init reaps it).
        grep -q '^State:[[:space:]]*Z' "$d/status" 2>/dev/null && continue
        if tr '\0' ' ' 2>/dev/null <"$d/cmdline" | grep -qF -- "$DIR/"; then
            echo "$p"
        elif [ "$(cat "$d/comm" 2>/dev/null)" = slurmstepd ] \
            && tr '\0' '\n' 2>/dev/null <"$d/environ" | grep -qxF "SLURM_CONF=$DIR/slurm.conf"; then
            echo "$p"
        fi
    done
}

teardown() {
    local rc=$? i
    trap - EXIT INT TERM
    if [ -n "$JOBID" ] && [ -n "${SLURM_CONF:-}" ] && kill -0 "${SLURMCTLD_PID:-0}" 2>/dev/null; then
        # Jobs still queued or running: cancel them and let slurmd reap
        # their slurmstepd before slurmd itself goes.
        if [ -n "$(squeue -h -j "$JOBID" 2>/dev/null)" ]; then
            scancel "$JOBID" 2>/dev/null
            for i in $(seq 1 100); do
                [ -z "$(squeue -h -j "$JOBID" 2>/dev/null)" ] && break
                sleep 0.2
            done
        fi
    fi
    # Job steps still alive (scontrol listpids needs slurmd): by PID.
    if [ -n "${SLURMD_PID:-}" ] && kill -0 "$SLURMD_PID" 2>/dev/null; then
        for p in $(scontrol listpids 2>/dev/null | awk 'NR > 1 { print $1 }'); do
            kill -KILL "$p" 2>/dev/null
        done
    fi
    # Reverse start order: trainer, slurmd, slurmctld, munged.
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        stop_pid "${PIDS[$i]%%:*}" "${PIDS[$i]#*:}"
    done
    # Anything else of this run (a job's slurmstepd or its triad worker,
    # reparented to init): wait a little, then kill it by PID.
    if [ -n "$DIR" ]; then
        for i in $(seq 1 50); do
            [ -z "$(leftovers)" ] && break
            sleep 0.1
        done
        for p in $(leftovers); do
            say "killing leftover $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
            kill -KILL "$p" 2>/dev/null
        done
    fi
    if [ -n "$DIR" ] && [ -d "$DIR" ]; then
        if [ "$rc" -ne 0 ] || [ "$FAILED" -ne 0 ] || [ "$KEEP" = 1 ]; then
            say "kept $DIR (logs: slurmctld.log slurmd.log munged.log trainer.log triad-worker-*.log)"
        else
            rm -rf "$DIR"
        fi
    fi
    exit "$rc"
}
trap teardown EXIT
trap 'fail "interrupted"' INT TERM

# ---------------------------------------------------------------- 1. install
[ "$(id -u)" -eq 0 ] || fail "run as root (it installs packages and runs slurmd/munged as root)"
missing=0
for b in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel; do
    command -v "$b" >/dev/null 2>&1 || missing=1
done
if [ "$missing" = 1 ]; then
    say "installing slurm-wlm and munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y slurm-wlm munge >/dev/null 2>&1 \
        || { apt-get update >/dev/null 2>&1 && apt-get install -y slurm-wlm munge >/dev/null 2>&1; } \
        || fail "apt-get install -y slurm-wlm munge failed"
fi
for b in munged mungekey slurmctld slurmd sbatch squeue scontrol scancel; do
    command -v "$b" >/dev/null 2>&1 || fail "$b not found after installing slurm-wlm and munge"
done

TRIAD=${TRIAD:-$ROOT/target/release/triad}
if [ ! -x "$TRIAD" ]; then
    say "building $TRIAD"
    (cd "$ROOT" && cargo build --release --bin triad >/dev/null 2>&1) || fail "cargo build --release --bin triad failed"
fi
TRIAD=$(cd "$(dirname "$TRIAD")" && pwd)/$(basename "$TRIAD")
export TRIAD

# Leftovers of an earlier run are not ours to kill; our ports and files
# are our own, so they only get a warning.
for d in munged slurmctld slurmd slurmstepd; do
    if pgrep -x "$d" >/dev/null 2>&1; then
        say "warning: a $d is already running (pids $(pgrep -x "$d" | tr '\n' ' ')), not started by this run"
    fi
done

# ---------------------------------------------------------------- 2. cluster
DIR=$(mktemp -d /tmp/triad-slurm.XXXXXX) || fail "mktemp failed"
chmod 0700 "$DIR"
mkdir -p "$DIR/munge" "$DIR/state" "$DIR/spool" "$DIR/run"
chmod 0700 "$DIR/munge"

free_port() { # a TCP port on 127.0.0.1 with nothing listening, not in $*
    local p
    while :; do
        p=$((20000 + RANDOM % 20000))
        case " $* " in *" $p "*) continue ;; esac
        (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && continue
        echo "$p"
        return
    done
}
CTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port "$CTLD_PORT")

# munge: a fresh key for this test, its own socket, no files under /etc or /run.
mungekey --create --keyfile="$DIR/munge/munge.key" >/dev/null 2>&1 \
    || fail "mungekey --create failed"
chmod 0400 "$DIR/munge/munge.key"
MUNGE_SOCKET=$DIR/munge/munge.socket
munged --foreground --force \
    --socket="$MUNGE_SOCKET" --key-file="$DIR/munge/munge.key" \
    --pid-file="$DIR/munge/munged.pid" --seed-file="$DIR/munge/munged.seed" \
    --log-file="$DIR/munged.log" >>"$DIR/munged.log" 2>&1 &
MUNGED_PID=$!
PIDS+=("$MUNGED_PID:munged")
for i in $(seq 1 100); do
    [ -S "$MUNGE_SOCKET" ] && break
    kill -0 "$MUNGED_PID" 2>/dev/null || fail "munged exited: $(tail -n 1 "$DIR/munged.log")"
    sleep 0.1
done
echo ok | munge --socket="$MUNGE_SOCKET" | unmunge --socket="$MUNGE_SOCKET" >/dev/null 2>&1 \
    || fail "munge/unmunge round trip through $MUNGE_SOCKET failed"

# The node as slurmd sees it: CPUs, sockets, cores, threads, memory.
HW=$(slurmd -C 2>/dev/null | head -n 1)
[ -n "$HW" ] || fail "slurmd -C printed nothing"
field() { echo "$HW" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
CPUS=$(field CPUs)
MEM=$(field RealMemory)
NODE_HW="CPUs=$CPUS Boards=$(field Boards) SocketsPerBoard=$(field SocketsPerBoard) CoresPerSocket=$(field CoresPerSocket) ThreadsPerCore=$(field ThreadsPerCore) RealMemory=$MEM"

export SLURM_CONF=$DIR/slurm.conf
cat >"$SLURM_CONF" <<EOF
# A one-node cluster for scripts/test-slurm.sh; everything under $DIR.
ClusterName=triadtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$DIR/jobcomp.txt
ReturnToService=2
MailProg=/bin/true
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 $NODE_HW State=UNKNOWN
PartitionName=triad Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i -f "$SLURM_CONF" >>"$DIR/slurmctld.out" 2>&1 &
SLURMCTLD_PID=$!
PIDS+=("$SLURMCTLD_PID:slurmctld")
slurmd -D -N localhost -f "$SLURM_CONF" >>"$DIR/slurmd.out" 2>&1 &
SLURMD_PID=$!
PIDS+=("$SLURMD_PID:slurmd")

# Wait for the node to be up (idle) in the partition.
state=""
for i in $(seq 1 300); do
    kill -0 "$SLURMCTLD_PID" 2>/dev/null || fail "slurmctld exited: $(tail -n 1 "$DIR/slurmctld.log" "$DIR/slurmctld.out" 2>/dev/null | grep -v '^==>' | grep . | tail -n 1)"
    kill -0 "$SLURMD_PID" 2>/dev/null || fail "slurmd exited: $(tail -n 1 "$DIR/slurmd.log" "$DIR/slurmd.out" 2>/dev/null | grep -v '^==>' | grep . | tail -n 1)"
    state=$(sinfo -h -n localhost -o '%t' 2>/dev/null | head -n 1)
    case "$state" in idle*|mix*|alloc*) break ;; esac
    sleep 0.2
done
case "$state" in idle*|mix*|alloc*) ;; *) fail "node localhost not up after 60 s (sinfo state '$state'; see $DIR/slurmd.log)" ;; esac
say "cluster up: slurmctld $SLURMCTLD_PID on 127.0.0.1:$CTLD_PORT, slurmd $SLURMD_PID on :$SLURMD_PORT, node $NODE_HW"

# ---------------------------------------------------------------- 3. trainer
RUN=$DIR/run
cat >"$DIR/tiny.toml" <<'EOF'
seed = 5
[game]
name = "connect4"
[model]
blocks = 1
channels = 8
[selfplay]
simulations = 8
cheap_simulations = 4
max_plies = 42
games_in_flight = 4
[train]
batch_size = 16
schedule = "constant"
warmup_steps = 0
checkpoint_every = 5
metrics_every = 1
[loop]
generations = 2
games_per_generation = 8
train_steps_per_generation = 10
EOF
"$TRIAD" trainer --config "$DIR/tiny.toml" --run "$RUN" --work "$DIR/trainer-work" --poll 0.5 \
    >"$DIR/trainer.log" 2>&1 &
TRAINER_PID=$!
PIDS+=("$TRAINER_PID:triad trainer")

# ---------------------------------------------------------------- 4. submit
JOBID=$(cd "$DIR" && sbatch --parsable --array=0-1 --chdir="$DIR" \
    "$ROOT/deploy/slurm/worker.sbatch" "$RUN" --games-per-shard 4 --max-shards 3 --poll 0.5 2>"$DIR/sbatch.err") \
    || fail "sbatch failed: $(head -n 1 "$DIR/sbatch.err")"
JOBID=${JOBID%%;*}
say "submitted array job $JOBID (2 tasks)"

# ---------------------------------------------------------------- 5. wait
deadline=$(($(date +%s) + TIMEOUT))
while [ -n "$(squeue -h -j "$JOBID" 2>/dev/null)" ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "array job $JOBID still in the queue after ${TIMEOUT} s ($(squeue -h -j "$JOBID" -o '%i %T %R' | tr '\n' ';'))"
    kill -0 "$SLURMCTLD_PID" 2>/dev/null || fail "slurmctld died while the job ran"
    kill -0 "$SLURMD_PID" 2>/dev/null || fail "slurmd died while the job ran"
    sleep 1
done
for t in 0 1; do
    info=$(scontrol -o show job "${JOBID}_$t" 2>/dev/null)
    st=$(echo "$info" | tr ' ' '\n' | sed -n 's/^JobState=//p')
    ec=$(echo "$info" | tr ' ' '\n' | sed -n 's/^ExitCode=//p')
    [ "$st" = COMPLETED ] && [ "$ec" = 0:0 ] \
        || fail "array task ${JOBID}_$t ended ${st:-unknown} with exit code ${ec:-unknown} (log $DIR/triad-worker-${JOBID}_$t.log: $(tail -n 1 "$DIR/triad-worker-${JOBID}_$t.log" 2>/dev/null))"
done
say "both array tasks completed with exit code 0"

# The workers made 2 x 3 shards of 4 games: 24 games, enough for both
# generations; give the trainer a moment to train and publish them.
for i in $(seq 1 600); do
    kill -0 "$TRAINER_PID" 2>/dev/null || break
    sleep 0.2
done

# ---------------------------------------------------------------- 6. checks
n0=$(ls "$RUN"/games/gen-*/w0000-* 2>/dev/null | wc -l)
n1=$(ls "$RUN"/games/gen-*/w0001-* 2>/dev/null | wc -l)
[ "$n0" -ge 1 ] || fail "no shard of worker 0 in $RUN/games (gen-*/w0000-*)"
[ "$n1" -ge 1 ] || fail "no shard of worker 1 in $RUN/games (gen-*/w0001-*)"
[ -f "$RUN/networks/gen-0001.json" ] \
    || fail "the trainer published no generation 1 ($RUN/networks/gen-0001.json missing; $(tail -n 1 "$DIR/trainer.log"))"
gens=$(ls "$RUN"/networks/gen-*.json 2>/dev/null | wc -l)
if kill -0 "$TRAINER_PID" 2>/dev/null; then
    tstate="still running (stopped now)"
else
    wait "$TRAINER_PID"
    trc=$?
    [ "$trc" -eq 0 ] || fail "triad trainer exited $trc: $(tail -n 1 "$DIR/trainer.log")"
    tstate="exited 0"
fi
say "ok: shards of worker 0: $n0, of worker 1: $n1; manifests published: $gens (gen-0000..); trainer $tstate; $(($(date +%s) - START)) s"
exit 0
