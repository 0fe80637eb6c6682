#!/bin/bash
# The Slurm job array of docs/batch-runs.md, run on a real Slurm: a
# single-node cluster (munged, slurmctld, slurmd from Debian's munge and
# slurm-wlm) brought up in WORK_DIR with a generated munge key and a minimal
# slurm.conf (this host as controller and only node, proctrack/linuxproc,
# task/none, select/cons_tres, no accounting: jobcomp/filetxt and scontrol
# give the states and exit codes), and shut down on exit, nothing left running.
#  1. the doc's sweep.sbatch, extracted from the doc as written, submitted
#     with 3 tasks (sbatch --array=0-2; --cpus-per-task=1 to fit a small node)
#     on tests/batch/slide.json: every task COMPLETED with exit 0, its log and
#     its frames bit-identical (ipcc compare --tol 0, cmp) to the same run
#     made directly;
#  2. a task whose value makes its scene bad (the doc's script with
#     MU=(0.1 -0.5 0.3)) FAILED with exit 1 and ipcc's message in its log;
#     the other two COMPLETED;
#  3. a task that hits its --time limit (--time=1, a run far longer than a
#     minute) is SIGTERMed by Slurm: state TIMEOUT, exit code 4, the
#     interruption message and a checkpoint; a follow-up job (ipcc resume, as
#     the doc says) finishes it, frames and stats bit-identical to an
#     uninterrupted run made directly.
# Needs root (slurmd runs jobs as their users) and the packages of
# `make cluster-deps`; exits 77 (skipped) without them, unless CI=true.
# Takes about 2 minutes, most of it the time limit (Slurm checks limits
# every 30 s, so the one-minute task is stopped after 60-90 s).
#   usage: slurm_test.sh IPCC_BINARY SOURCE_DIR WORK_DIR
set -u
IPCC=$1
SRC=$2
WORK=$3

skip() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL: $1 (make cluster-deps)"
        exit 1
    fi
    echo "skip: $1 (make cluster-deps)"
    exit 77
}
[ "$(id -u)" = 0 ] || skip "the Slurm test brings up slurmd and needs root"
for cmd in munged slurmctld slurmd sbatch squeue scontrol; do
    command -v "$cmd" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin" command -v "$cmd" >/dev/null 2>&1 ||
        skip "$cmd is not installed"
done
export PATH="$(cd "$(dirname "$IPCC")" && pwd):$PATH:/usr/sbin" # the doc's script calls plain `ipcc`

rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
failures=0
pass() { echo "ok: $1"; }
fail() {
    echo "FAIL: $1"
    failures=$((failures + 1))
}

# --- a single-node cluster in $WORK/slurm ---------------------------------------------
D=$WORK/slurm
mkdir -p "$D/state" "$D/spool" "$D/munge-key" "$D/munge"
chmod 700 "$D/munge-key"
chmod 755 "$D" "$D/munge"
head -c 1024 /dev/urandom >"$D/munge-key/munge.key"
chmod 400 "$D/munge-key/munge.key"
export SLURM_CONF=$D/slurm.conf

shutdown_cluster() {
    scontrol shutdown >/dev/null 2>&1
    for i in $(seq 50); do
        alive=0
        for f in "$D/slurmctld.pid" "$D/slurmd.pid"; do
            [ -f "$f" ] && kill -0 "$(cat "$f")" 2>/dev/null && alive=1
        done
        [ $alive = 0 ] && break
        sleep 0.2
    done
    for f in "$D/slurmctld.pid" "$D/slurmd.pid"; do
        [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
    done
    munged -s --socket="$D/munge/munge.socket" >/dev/null 2>&1
    [ -f "$D/munge/munged.pid" ] && kill -9 "$(cat "$D/munge/munged.pid")" 2>/dev/null
    return 0
}
trap shutdown_cluster EXIT

# Two free TCP ports for slurmctld and slurmd.
read -r ctld_port d_port <<EOF
$(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
EOF
host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
cat >"$SLURM_CONF" <<EOF
ClusterName=ipcctest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$D/jobcomp.txt
ReturnToService=2
KillWait=30
MinJobAge=3600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
munged -f --key-file="$D/munge-key/munge.key" --socket="$D/munge/munge.socket" \
    --pid-file="$D/munge/munged.pid" --log-file="$D/munge/munged.log" --seed-file="$D/munge/seed" ||
    { echo "FAIL: munged did not start"; cat "$D/munge/munged.log"; exit 1; }
slurmctld -i || { echo "FAIL: slurmctld did not start"; cat "$D/slurmctld.log"; exit 1; }
slurmd -N "$host" || { echo "FAIL: slurmd did not start"; cat "$D/slurmd.log"; exit 1; }
up=0
for i in $(seq 150); do
    sinfo -h -o %t 2>/dev/null | grep -q '^idle' && { up=1; break; }
    sleep 0.2
done
[ $up = 1 ] || { echo "FAIL: the node did not come up"; sinfo; tail -20 "$D/slurmctld.log" "$D/slurmd.log"; exit 1; }
pass "single-node Slurm up ($host, $cpus CPUs)"

# --- the doc's script, as written ---------------------------------------------------
# The first ```bash block after "## Slurm job array" in docs/batch-runs.md.
awk '/^## Slurm job array/ { s = 1 } s == 1 && /^```bash$/ { s = 2; next } s == 2 && /^```$/ { exit }
     s == 2 { print }' "$SRC/docs/batch-runs.md" >"$WORK/sweep.sbatch"
grep -q '^#SBATCH --array' "$WORK/sweep.sbatch" && grep -q 'ipcc run scene.json' "$WORK/sweep.sbatch" ||
    { echo "FAIL: no job array script found in docs/batch-runs.md"; exit 1; }
mapfile -t MU < <(bash -c "$(grep '^MU=' "$WORK/sweep.sbatch")
printf '%s\n' \"\${MU[@]}\"")
[ ${#MU[@]} -ge 3 ] || { echo "FAIL: the doc's MU array has fewer than 3 values"; exit 1; }

# Wait until job $1 has left the queue (at most $2 seconds).
wait_job() {
    for i in $(seq $(($2 * 5))); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 0.2
    done
    echo "job $1 still queued after $2 s:"
    squeue -j "$1"
    return 1
}
# "STATE EXIT" of array task $1_$2 (scontrol, as there is no accounting).
task_state() {
    scontrol show job "$1_$2" 2>/dev/null | awk '
        { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "JobState") st = kv[2]; if (kv[1] == "ExitCode") ec = kv[2] } }
        END { print st, ec }'
}

# Submit $1 (a script) from folder $2 with extra sbatch options; prints the job id.
submit() {
    script=$1
    dir=$2
    shift 2
    (cd "$dir" && sbatch --parsable "$@" "$script") | cut -d';' -f1
}

# --- 1. the sweep -------------------------------------------------------------------------
S=$WORK/sweep
mkdir -p "$S"
cp "$SRC/tests/batch/slide.json" "$S/scene.json"
(cd "$S" && mkdir -p logs runs) # as the doc says
job=$(submit "$WORK/sweep.sbatch" "$S" --array=0-2 --cpus-per-task=1 --mem=1G)
[ -n "$job" ] || { echo "FAIL: sbatch refused the doc's script"; exit 1; }
wait_job "$job" 120 || fail "sweep: job $job did not finish"
for i in 0 1 2; do
    mu=${MU[$i]}
    st=$(task_state "$job" $i)
    log=$S/logs/mu-sweep_${job}_$i.out
    if [ "$st" = "COMPLETED 0:0" ]; then
        pass "sweep task $i (mu $mu): COMPLETED, exit 0"
    else
        fail "sweep task $i (mu $mu): $st"
        cat "$log"
    fi
    grep -q "^summary: 8 steps" "$log" || fail "sweep task $i: no summary in $log"
    ipcc run "$S/scene.json" --set contact.friction="$mu" --threads 1 -q -o "$WORK/direct/mu_$mu" >/dev/null 2>&1 ||
        fail "direct run mu $mu"
    if ipcc compare "$WORK/direct/mu_$mu" "$S/runs/mu_$mu" --tol 0 -q >/dev/null 2>&1; then
        same=1
        for f in "$WORK/direct/mu_$mu"/frame_*.vtu "$WORK/direct/mu_$mu/frames.pvd"; do
            cmp -s "$f" "$S/runs/mu_$mu/$(basename "$f")" || same=0
        done
        [ $same = 1 ] && pass "sweep task $i: frames bit-identical to a direct run" ||
            fail "sweep task $i: frame files differ from a direct run"
    else
        fail "sweep task $i: ipcc compare --tol 0 against a direct run"
    fi
done
grep -q "JobId=$job .*JobState=COMPLETED" "$D/jobcomp.txt" || fail "jobcomp log has no COMPLETED line for $job"

# --- 2. a bad scene in one task ----------------------------------------------------------
B=$WORK/bad
mkdir -p "$B/logs" "$B/runs"
cp "$SRC/tests/batch/slide.json" "$B/scene.json"
sed 's/^MU=.*/MU=(0.1 -0.5 0.3)/' "$WORK/sweep.sbatch" >"$WORK/bad.sbatch"
job=$(submit "$WORK/bad.sbatch" "$B" --array=0-2 --cpus-per-task=1 --mem=1G)
wait_job "$job" 120 || fail "bad: job $job did not finish"
for i in 0 2; do
    st=$(task_state "$job" $i)
    [ "$st" = "COMPLETED 0:0" ] && pass "bad sweep: task $i COMPLETED" || fail "bad sweep: task $i $st"
done
st=$(task_state "$job" 1)
log=$B/logs/mu-sweep_${job}_1.out
if [ "$st" = "FAILED 1:0" ] && grep -q 'contact.friction' "$log"; then
    pass "bad sweep: task 1 FAILED with exit 1, its log names contact.friction"
else
    fail "bad sweep: task 1: $st"
    cat "$log"
fi
[ ! -e "$B/runs/mu_-0.5/stats.csv" ] || fail "bad sweep: task 1 wrote a run"

# --- 3. the time limit, then ipcc resume ----------------------------------------------
T=$WORK/timeout
mkdir -p "$T/logs" "$T/runs"
# The slide scene with a finer block, a million steps and a frame a second:
# a few ms a step, far longer than the one-minute limit.
sed 's/"steps": 8/"steps": 1000000/; s/"cells": \[2, 2, 2\]/"cells": [5, 5, 5]/; s/"fps": 50/"fps": 1/' \
    "$SRC/tests/batch/slide.json" >"$T/scene.json"
mu=${MU[1]}
# The uninterrupted run, made directly at the same time on the other core;
# stopped (SIGTERM) once it is past the steps the resumed run will end at.
ipcc run "$T/scene.json" --set contact.friction="$mu" --threads 1 -q -o "$WORK/direct_long" \
    >"$WORK/direct_long.log" 2>&1 &
ref_pid=$!
job=$(submit "$WORK/sweep.sbatch" "$T" --array=1 --time=1 --cpus-per-task=1 --mem=1G)
wait_job "$job" 200 || fail "timeout: job $job did not stop"
st=$(task_state "$job" 1)
log=$T/logs/mu-sweep_${job}_1.out
run=$T/runs/mu_$mu
if [ "$st" = "TIMEOUT 4:0" ] && grep -q 'DUE TO TIME LIMIT' "$log" && grep -q "interrupted by SIGTERM at step" "$log" &&
    [ -f "$run/checkpoint.bin" ]; then
    pass "timeout: TIMEOUT, exit 4 after SIGTERM, checkpoint written"
else
    fail "timeout: $st"
    cat "$log"
fi
done_steps=$(($(wc -l <"$run/stats.csv") - 1))
# On to a frame of the uninterrupted run at least 100 steps past the stop
# (frames are due once t passes a whole second; the last step of a run
# writes one too, so the resumed run must end where the reference wrote one).
end=
for i in $(seq 1500); do
    end=$(sed -n 's/.*timestep="\([^"]*\)".*/\1/p' "$WORK/direct_long/frames.pvd" 2>/dev/null |
        awk -v k=$done_steps '{ s = int($1 / 0.01 + 0.5); if (s >= k + 100) { print s; exit } }')
    [ -n "$end" ] && break
    kill -0 $ref_pid 2>/dev/null || break
    sleep 0.2
done
kill -TERM $ref_pid 2>/dev/null
wait $ref_pid
[ -n "$end" ] || { fail "the direct run did not pass step $((done_steps + 100))"; end=$((done_steps + 100)); }
# The follow-up job: the doc's `ipcc resume`.
job2=$(cd "$T" && sbatch --parsable --cpus-per-task=1 --mem=1G --output=logs/resume_%j.out \
    --wrap "exec ipcc resume runs/mu_$mu --steps $end -q")
wait_job "$job2" 120 || fail "resume job $job2 did not finish"
st=$(scontrol show job "$job2" | grep -o 'JobState=[A-Z]*')
scontrol show job "$job2" | grep -q 'ExitCode=0:0' && [ "$st" = JobState=COMPLETED ] ||
    { fail "resume job: $st"; cat "$T/logs/resume_$job2.out"; }
same=1
n=0
for f in "$run"/frame_*.vtu; do
    cmp -s "$f" "$WORK/direct_long/$(basename "$f")" || { same=0; echo "differs: $(basename "$f")"; }
    n=$((n + 1))
done
[ $n -gt $((end / 100)) ] || { same=0; echo "$n frames for $end steps"; }
awk -F, -f "$SRC/tests/support/steady_stats.awk" "$run/stats.csv" >"$WORK/a.stats"
awk -F, -f "$SRC/tests/support/steady_stats.awk" "$WORK/direct_long/stats.csv" | head -n $((end + 1)) >"$WORK/b.stats"
cmp -s "$WORK/a.stats" "$WORK/b.stats" || { same=0; echo "stats.csv differs"; }
[ $same = 1 ] && pass "timeout: stopped at step $done_steps, resumed to $end: $n frames and stats bit-identical to an uninterrupted run" ||
    fail "timeout: the resumed run differs from an uninterrupted one"

if [ $failures -ne 0 ]; then
    echo "--- slurmctld.log"
    tail -30 "$D/slurmctld.log"
    echo "--- slurmd.log"
    tail -30 "$D/slurmd.log"
    echo "$failures failure(s)"
    exit 1
fi
echo "all Slurm checks passed"
