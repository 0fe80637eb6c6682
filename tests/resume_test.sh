#!/bin/sh
# Runs that lose nothing (ipcc run / ipcc resume, src/cli/run.c):
#  1. a run killed with SIGKILL at several points (before its first step,
#     mid-run, during a resume) and resumed ends with frames, frames.pvd and
#     the stats' step columns bit-identical to an uninterrupted run; the
#     uninterrupted reference runs on 1 thread, the resumes on 2;
#  2. SIGINT and SIGTERM finish the step, write a checkpoint, exit with code 4
#     and print the resume command; the resumed run is again bit-identical;
#  3. a full disk (a 300 KiB tmpfs in a private mount namespace, when
#     unshare can make one) stops the run with a clear error and exit 1; the
#     frames listed in frames.pvd and the checkpoint stay intact: copied to
#     a roomy folder, the run resumes to the same bit-identical end;
#     (3b) a folder of an older ipcc (stats.csv without the energy columns)
#     resumes without them; (3c) one from before split steps (no substeps
#     column, loop state version 2) resumes bit-identically;
#  4. resume of a finished run does nothing; resume errors (not a folder,
#     not a run folder, a corrupted checkpoint) are clear, with exit 1;
#  5. on a terminal (via script(1)) run draws a progress bar; in a pipe it
#     prints one line per step.
#
# usage: resume_test.sh IPCC_BINARY SOURCE_DIR WORK_DIR
set -u
ipcc=$1
src=$2
work=$3
steps=24
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
# contact_cubes with the contact report on (contacts_NNNNNN.vtp per frame).
scene="$work/contact_cubes.json"
sed 's/"output": {/"output": {"contacts": true, /' "$src/examples/contact_cubes.json" >"$scene"
grep -q '"contacts": true' "$scene" || { echo "FAIL: cannot turn output.contacts on"; exit 1; }
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# Rows of stats.csv without the wall-clock columns (time_*), which differ
# between runs by nature; the energies and momenta and the per-object
# contact forces are kept (tests/support/steady_stats.awk).
steady_stats() {
    awk -F, -f "$src/tests/support/steady_stats.awk" "$1/stats.csv"
}

# Every frame file, frames.pvd and the steady stats of $1 match the reference.
same_as_reference() {
    dir=$1
    what=$2
    for f in ref/frame_*.vtu ref/obstacles_*.vtp ref/contacts_*.vtp ref/frames.pvd; do
        [ -e "$f" ] || continue
        b=$(basename "$f")
        cmp -s "$f" "$dir/$b" || fail "$what: $b differs from the uninterrupted run"
    done
    n_ref=$(ls ref | grep -c '^frame_')
    n_dir=$(ls "$dir" | grep -c '^frame_')
    [ "$n_ref" = "$n_dir" ] || fail "$what: $n_dir frames, the uninterrupted run has $n_ref"
    steady_stats ref >ref.stats
    steady_stats "$dir" >dir.stats
    cmp -s ref.stats dir.stats || fail "$what: stats.csv differs from the uninterrupted run"
}

# Start a run in the background; wait until stats.csv has $2 rows (0: until
# scene.json exists), then send signal $3. Leaves the exit status in $status.
run_and_signal() {
    dir=$1
    rows=$2
    sig=$3
    rm -rf "$dir"
    OMP_NUM_THREADS=1 "$ipcc" run "$scene" -o "$dir" --steps $steps --checkpoint-every 4 -q >"$dir.out" 2>"$dir.err" &
    pid=$!
    tries=0
    while :; do
        if [ "$rows" -eq 0 ]; then
            [ -e "$dir/scene.json" ] && break
        else
            n=$(($(wc -l 2>/dev/null <"$dir/stats.csv" || echo 0) - 1))
            [ "$n" -ge "$rows" ] && break
        fi
        tries=$((tries + 1))
        [ $tries -gt 6000 ] && break # 60 s
        sleep 0.01
    done
    kill -s "$sig" $pid 2>/dev/null
    wait $pid
    status=$?
}

resume() {
    OMP_NUM_THREADS=2 "$ipcc" resume "$1" -q --threads 2 >"$1.resume.out" 2>"$1.resume.err"
}

# The uninterrupted reference.
OMP_NUM_THREADS=1 "$ipcc" run "$scene" -o ref --steps $steps --checkpoint-every 4 -q >ref.out 2>ref.err ||
    { echo "FAIL: the reference run failed"; cat ref.err; exit 1; }
[ -e ref/scene.json ] || fail "run wrote no scene.json"
[ -e ref/checkpoint.bin ] || fail "run wrote no checkpoint.bin"
[ -e ref/contacts_000001.vtp ] || fail "run wrote no contacts_NNNNNN.vtp"
head -n 1 ref/stats.csv | cut -d, -f27 | grep -q '^kinetic_energy$' || fail "stats.csv has no energy columns"
head -n 1 ref/stats.csv | cut -d, -f37 | grep -q '^substeps$' || fail "stats.csv has no substeps column"
head -n 1 ref/stats.csv | cut -d, -f38 | grep -q '^contact_force_x:lower$' || fail "stats.csv has no force columns"

# 1. SIGKILL at several points, then resume.
for rows in 0 1 6 13 21; do
    run_and_signal k$rows $rows KILL
    resume k$rows || { fail "resume after SIGKILL at $rows rows exited $?"; cat k$rows.resume.err; }
    same_as_reference k$rows "SIGKILL after $rows steps"
done
# Killed again during the resume.
run_and_signal kk 3 KILL
OMP_NUM_THREADS=2 "$ipcc" resume kk -q --threads 2 --checkpoint-every 1 >/dev/null 2>&1 &
pid=$!
while [ $(($(wc -l 2>/dev/null <kk/stats.csv || echo 0) - 1)) -lt 15 ]; do sleep 0.01; done
kill -s KILL $pid
wait $pid
resume kk || fail "second resume exited $?"
same_as_reference kk "SIGKILL during a resume"

# 2. SIGINT and SIGTERM.
for sig in INT TERM; do
    run_and_signal s$sig 5 $sig
    [ "$status" = 4 ] || fail "SIG$sig: exit status $status, expected 4"
    grep -q "interrupted by SIG$sig at step" s$sig.err || fail "SIG$sig: no interruption message"
    grep -q "ipcc resume s$sig" s$sig.err || fail "SIG$sig: the message does not give the resume command"
    resume s$sig || fail "resume after SIG$sig exited $?"
    same_as_reference s$sig "SIG$sig"
done

# 3. Disk full.
mnt="$work/small"
mkdir -p "$mnt"
cat >full.sh <<EOF
mount -t tmpfs -o size=300k tmpfs "$mnt" || exit 99
OMP_NUM_THREADS=1 "$ipcc" run "$scene" -o "$mnt/out" --steps $steps --checkpoint-every 2 -q >full.out 2>full.err
echo \$? >full.status
cp -r "$mnt/out" full
EOF
if unshare -rm sh full.sh 2>/dev/null || unshare -m sh full.sh 2>/dev/null; then
    st=$(cat full.status)
    [ "$st" = 1 ] || fail "disk full: exit status $st, expected 1"
    grep -q "No space left on device" full.err || fail "disk full: the error does not say so"
    grep -q "continue with: ipcc resume" full.err || fail "disk full: no resume hint"
    # Every frame frames.pvd lists is complete (same bytes as the reference).
    for f in $(sed -n 's/.*file="\([^"]*\)".*/\1/p' full/frames.pvd); do
        cmp -s "ref/$f" "full/$f" || fail "disk full: $f listed in frames.pvd but not intact"
    done
    resume full || { fail "resume after disk full exited $?"; cat full.resume.err; }
    same_as_reference full "disk full, then resumed"
else
    echo "skipped: disk full (cannot mount a tmpfs in a private namespace here)"
fi

# 3b. A folder of an older ipcc, whose stats.csv has no energy columns
# (27-36) and no substeps column (37), resumes without them: every row has
# the header's columns, and the rest matches the uninterrupted run.
run_and_signal old 5 INT
cut -d, -f1-26,38- old/stats.csv >old/stats.cut && mv old/stats.cut old/stats.csv
resume old || { fail "resume of an older folder exited $?"; cat old.resume.err; }
if head -n 1 old/stats.csv | grep -q kinetic_energy; then fail "older folder: energy columns appeared"; fi
awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || NR != '$steps' + 1 }' old/stats.csv ||
    fail "older folder: rows whose columns are not the header's"
cut -d, -f1-9,15-18,21-23,38- ref/stats.csv >ref.old
cut -d, -f1-9,15-18,21-23,27- old/stats.csv >dir.old
cmp -s ref.old dir.old || fail "older folder: stats.csv differs from the uninterrupted run"

# 3c. A folder of the ipcc before split steps: stats.csv with the energy
# columns but no substeps column, and the checkpoint's loop state at
# version 2 (no count of split steps; rewritten here, checksum and all):
# it resumes, keeps its stats layout and ends bit-identical.
run_and_signal mid 5 INT
cut -d, -f1-36,38- mid/stats.csv >mid/stats.cut && mv mid/stats.cut mid/stats.csv
python3 - mid/checkpoint.bin <<'PY' || fail "cannot rewrite the loop state to version 2"
import struct, sys
path = sys.argv[1]
b = bytearray(open(path, "rb").read())
body = b[:-8]
# The user data ends the body: u64 size k, then k bytes starting with i64 version 3.
for k in range(80, len(body) - 8, 8):
    at = len(body) - k
    if struct.unpack_from("=Q", body, at - 8)[0] == k and struct.unpack_from("=q", body, at)[0] == 3:
        break
else:
    sys.exit("no version-3 loop state found")
user = body[at:]
old = struct.pack("=q", 2) + user[8:72] + user[80:]  # drop the split count
body = body[:at - 8] + struct.pack("=Q", len(old)) + old
h = 14695981039346656037
for c in body:
    h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
open(path, "wb").write(bytes(body) + struct.pack("=Q", h))
PY
resume mid || { fail "resume of a folder without substeps exited $?"; cat mid.resume.err; }
if head -n 1 mid/stats.csv | grep -q substeps; then fail "folder without substeps: the column appeared"; fi
awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || NR != '$steps' + 1 }' mid/stats.csv ||
    fail "folder without substeps: rows whose columns are not the header's"
cut -d, -f1-9,15-18,21-23,27-36,38- ref/stats.csv >ref.mid
cut -d, -f1-9,15-18,21-23,27- mid/stats.csv >dir.mid
cmp -s ref.mid dir.mid || fail "folder without substeps: stats.csv differs from the uninterrupted run"
for f in ref/frame_*.vtu ref/contacts_*.vtp ref/frames.pvd; do
    cmp -s "$f" "mid/$(basename "$f")" || fail "folder before split steps, resumed: $(basename "$f") differs"
done

# 4. Resume of a finished run; resume errors.
"$ipcc" resume ref >done.out 2>&1 || fail "resume of a finished run exited $?"
grep -q "the run is complete" done.out || fail "resume of a finished run: no message"
"$ipcc" resume ref --steps 26 -q >/dev/null 2>&1 || fail "resume --steps 26 exited $?"
[ "$(tail -n 1 ref/stats.csv | cut -d, -f1)" = 26 ] || fail "resume --steps 26 did not run to step 26"
"$ipcc" resume no_such_dir 2>err.txt
[ $? = 1 ] && grep -q "not a folder" err.txt || fail "resume of a missing folder"
mkdir -p empty
"$ipcc" resume empty 2>err.txt
[ $? = 1 ] && grep -q "no scene.json" err.txt || fail "resume of a folder without a run"
cp -r k6 corrupt
printf 'garbage' | dd of=corrupt/checkpoint.bin bs=1 seek=100 conv=notrunc 2>/dev/null
"$ipcc" resume corrupt 2>err.txt
[ $? = 1 ] && grep -q "checksum" err.txt || fail "resume with a corrupted checkpoint"

# 5. Progress: a bar on a terminal, lines in a pipe.
if command -v script >/dev/null 2>&1; then
    script -qec "OMP_NUM_THREADS=1 '$ipcc' run '$scene' -o tty --steps 6" /dev/null >tty.txt 2>&1
    grep -q "100.0%" tty.txt && grep -q "steps/s" tty.txt && grep -q "ETA" tty.txt ||
        fail "no progress bar on a terminal"
    if grep -q "^step  *1 " tty.txt; then fail "plain step lines on a terminal"; fi
else
    echo "skipped: progress bar (no script(1))"
fi
OMP_NUM_THREADS=1 "$ipcc" run "$scene" -o pipe --steps 6 >pipe.txt 2>&1
[ "$(grep -c '^step ' pipe.txt)" = 6 ] || fail "not one line per step in a pipe"
if grep -q "ETA" pipe.txt; then fail "a progress bar in a pipe"; fi

if [ $failures -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all resume checks passed"
