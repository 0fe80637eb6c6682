#!/bin/sh
# The GNU parallel recipe of docs/batch-runs.md, run for real on a tiny
# scene (tests/batch/slide.json, 8 steps): a friction sweep of two runs in
# parallel, each into its own folder, with a job log; then every folder is
# checked (exit code in the log, frames.pvd, frames, stats.csv rows), a
# sequential run with the same parameter compares equal to its parallel
# twin (ipcc compare: exit 0), the two friction values differ (exit 5), and
# the per-run stats are collected into one table as the doc shows.
# Exits 77 (skipped) when GNU parallel is not installed.
#   usage: batch_parallel_test.sh IPCC_BINARY SOURCE_DIR WORK_DIR
set -u
IPCC=$1
SRC=$2
WORK=$3
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    echo "skip: GNU parallel is not installed (apt-get install parallel)"
    exit 77
fi
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
cp "$SRC/tests/batch/slide.json" scene.json
failures=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }
export PATH="$(dirname "$IPCC"):$PATH" # the recipe calls plain `ipcc`

# --- the recipe (docs/batch-runs.md, "GNU parallel on one machine") --------
mkdir -p runs
parallel --will-cite --jobs 2 --joblog runs/joblog.tsv \
    ipcc run scene.json --set contact.friction={} --threads 1 -q -o runs/mu_{} '>' runs/mu_{}.log '2>&1' \
    ::: 0.1 0.3
rc=$?
[ $rc -eq 0 ] && pass "parallel exits 0 (every run exit 0)" || { fail "parallel exit $rc"; cat runs/*.log; }

# --- each output folder ----------------------------------------------------------
[ "$(awk -F'\t' 'NR > 1 && $7 == 0' runs/joblog.tsv | wc -l)" -eq 2 ] && pass "job log: 2 runs, exit 0" ||
    { fail "job log"; cat runs/joblog.tsv; }
for mu in 0.1 0.3; do
    d=runs/mu_$mu
    # 8 steps at 50 fps (h = 0.01): frames at t = 0, 0.02, 0.04, 0.06, 0.08.
    if [ -f "$d/frames.pvd" ] && [ "$(ls "$d"/frame_*.vtu | wc -l)" -eq 5 ] &&
        [ "$(grep -c 'part="0"' "$d/frames.pvd")" -eq 5 ] && [ "$(wc -l <"$d/stats.csv")" -eq 9 ] &&
        grep -q '^summary: 8 steps' "$d.log"; then
        pass "$d: 5 frames listed in frames.pvd, stats.csv with 8 rows, summary"
    else
        fail "$d is incomplete"; ls -l "$d"; cat "$d.log"
    fi
done

# --- ipcc compare ------------------------------------------------------------------
ipcc run scene.json --set contact.friction=0.1 --threads 1 -q -o ref/mu_0.1 >ref.log 2>&1 ||
    { fail "sequential reference run"; cat ref.log; }
ipcc compare ref/mu_0.1 runs/mu_0.1 --tol 1e-6 >same.txt 2>&1
rc=$?
[ $rc -eq 0 ] && pass "same friction: the parallel run matches a sequential one (exit 0)" ||
    { fail "same friction: ipcc compare exit $rc"; cat same.txt; }
ipcc compare runs/mu_0.1 runs/mu_0.3 -q >differ.txt 2>&1
rc=$?
[ $rc -eq 5 ] && grep -q '^first frame over tolerance: 1 ' differ.txt &&
    pass "different friction: the runs differ from frame 1 on (exit 5)" ||
    { fail "different friction: ipcc compare exit $rc"; cat differ.txt; }

# --- the doc's stats table: one row per run, from the last row of stats.csv ---------
for run in runs/mu_*/; do
    awk -F, -v run="$(basename "$run")" \
        'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { n++; newton += $col["newton_iterations"]; unconverged += !$col["converged"]
           wall += $col["time_total"]; t = $col["time"] }
         END { printf "%s,%d,%g,%.2f,%d,%.3f\n", run, n, t, newton / n, unconverged, wall }' "$run/stats.csv"
done >summary.csv
cat summary.csv
[ "$(wc -l <summary.csv)" -eq 2 ] && grep -q '^mu_0.1,8,0.08,[0-9.]*,0,[0-9.]*$' summary.csv && grep -q '^mu_0.3,8,0.08,[0-9.]*,0,[0-9.]*$' summary.csv &&
    pass "stats collected: one row per run" || fail "stats summary"

[ $failures -eq 0 ] && echo "all passed" || echo "$failures FAILED"
[ $failures -eq 0 ]
