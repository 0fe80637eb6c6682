#!/bin/sh
# scripts/plot_stats.py and scripts/render.py on a real run with contact
# (examples/contact_cubes.json, 10 steps: the cubes touch the ground from
# step 6): the PNGs exist, have the requested size, are not blank, and the
# rendered body is in the middle of the picture; plot_stats.py's energy
# curves match stats.csv's columns, and an older stats.csv (without them)
# still plots; then the error cases.
# Skipped (exit 77) when /usr/bin/python3 lacks matplotlib or VTK, or when
# there is neither a display nor xvfb-run (+ xauth) to render with.
#   usage: scripts_test.sh IPCC_BINARY SOURCE_DIR WORK_DIR
set -u
IPCC=$1
SRC=$2
WORK=$3
PY=/usr/bin/python3
PLOT="$SRC/scripts/plot_stats.py"
RENDER="$SRC/scripts/render.py"
CHECK="$SRC/tests/scripts/png_check.py"
WHITE=255,255,255 # render.py's background

skip() { echo "skip: $1"; exit 77; }
[ -x "$PY" ] || skip "$PY is missing"
"$PY" -c "import matplotlib" 2>/dev/null || skip "$PY lacks matplotlib (apt-get install python3-matplotlib)"
"$PY" -c "import vtkmodules.vtkRenderingOpenGL2" 2>/dev/null || skip "$PY lacks vtk (apt-get install python3-vtk9)"
if [ -z "${DISPLAY:-}" ] && ! { command -v xvfb-run >/dev/null && command -v xauth >/dev/null; }; then
    skip "no DISPLAY and no xvfb-run/xauth (apt-get install xvfb xauth)"
fi

rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
failures=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# check_png DESCRIPTION FILE W H [--body BG]: tests/scripts/png_check.py.
check_png() {
    what=$1
    shift
    if "$PY" "$CHECK" "$@" >check.txt 2>&1; then pass "$what ($(cat check.txt))"; else fail "$what"; cat check.txt; fi
}

# expect_error CODE PATTERN DESCRIPTION -- COMMAND...: exit code and stderr.
expect_error() {
    code=$1 pattern=$2 what=$3
    shift 4
    "$@" >out.txt 2>err.txt
    rc=$?
    if [ "$rc" -ne "$code" ]; then
        fail "$what: exit $rc, expected $code"; cat out.txt err.txt
    elif ! grep -q -- "$pattern" err.txt; then
        fail "$what: stderr lacks '$pattern'"; cat err.txt
    else
        pass "$what"
    fi
}

# --- a real run with contact --------------------------------------------------
"$IPCC" run "$SRC/examples/contact_cubes.json" --steps 10 -o run -q >run.txt 2>&1 ||
    { fail "ipcc run contact_cubes"; cat run.txt; exit 1; }
contacts=$("$PY" -c "import csv,sys; print(max(int(r['num_contacts']) for r in csv.DictReader(open(sys.argv[1]))))" run/stats.csv)
[ "${contacts:-0}" -gt 0 ] && pass "the run has contact ($contacts contacts)" || fail "no contact in the run"
frames=$(ls run/frame_*.vtu | wc -l)
[ "$frames" -eq 4 ] && pass "4 frames" || fail "frame count $frames"

# --- plot_stats.py ---------------------------------------------------------------
"$PY" "$PLOT" run >plot.txt 2>&1 && [ -f run/stats.png ] && pass "plot_stats.py writes OUTDIR/stats.png" ||
    { fail "plot_stats.py default output"; cat plot.txt; }
check_png "default stats.png" run/stats.png 1000 1400
"$PY" "$PLOT" run -o small.png --size 600x800 >plot.txt 2>&1 || { fail "plot_stats.py -o --size"; cat plot.txt; }
check_png "plot_stats.py -o small.png --size 600x800" small.png 600 800
# The body check can fail: the plot has no body in its centre.
"$PY" "$CHECK" small.png 600 800 --body $WHITE >/dev/null 2>&1 && fail "png_check --body accepts a plot" ||
    pass "png_check --body rejects an image without a body"

# The energy panel's curves (plot_stats.energy_series), against stats.csv's
# own columns: the total is kinetic + elastic + barrier + gravitational
# (relative to the first row's), the friction dissipated is the running sum
# of friction_dissipation, and the barrier energy is > 0 exactly in the
# steps with contacts.
cat >energy_check.py <<'PY'
import csv, math, sys
sys.path.insert(0, sys.argv[1])
import plot_stats
data = plot_stats.read_stats(sys.argv[2])
e = plot_stats.energy_series(data)
rows = list(csv.DictReader(open(sys.argv[2])))
assert e is not None and len(e["total"]) == len(rows) == 10, "one value per row"
g0 = float(rows[0]["gravitational_energy"])
run = 0.0
for r, total, dissipated in zip(rows, e["total"], e["dissipated"]):
    k, el, g, b = (float(r[c]) for c in ("kinetic_energy", "elastic_energy", "gravitational_energy", "barrier_energy"))
    assert abs(total - (k + el + (g - g0) + b)) <= 1e-12 * (abs(g) + k + el + b), (total, k, el, g, b)
    run += float(r["friction_dissipation"])
    assert dissipated == run
    assert (b > 0) == (int(r["num_contacts"]) > 0), (b, r["num_contacts"])
    assert k > 0 and el >= 0
print("energies of %d rows" % len(rows))
PY
"$PY" energy_check.py "$SRC/scripts" run/stats.csv >check.txt 2>&1 && pass "plot_stats.py's energy curves ($(cat check.txt))" ||
    { fail "plot_stats.py's energy curves"; cat check.txt; }
# A stats.csv of an older ipcc (no energy columns, 27-36) still plots; rows
# written without the world ("nan" energies) too.
mkdir -p older nanrows
cut -d, -f1-26,37- run/stats.csv >older/stats.csv
"$PY" "$PLOT" older >plot.txt 2>&1 && pass "plot_stats.py on an older stats.csv" || { fail "plot_stats.py older"; cat plot.txt; }
check_png "stats.png of an older stats.csv" older/stats.png 1000 1400
awk -F, 'BEGIN { OFS = "," } NR > 1 && NR < 4 { for (i = 27; i <= 30; i++) $i = "nan" } { print }' run/stats.csv >nanrows/stats.csv
"$PY" "$PLOT" nanrows >plot.txt 2>&1 && pass "plot_stats.py with nan energies" || { fail "plot_stats.py nan energies"; cat plot.txt; }

# --- render.py -------------------------------------------------------------------
"$PY" "$RENDER" run --size 320x240 >render.txt 2>&1 || { fail "render.py"; cat render.txt; }
n=$(ls run/png/frame_*.png 2>/dev/null | wc -l)
[ "$n" -eq 4 ] && pass "render.py: one PNG per frame in OUTDIR/png" || fail "render.py wrote $n PNGs, expected 4"
for f in run/png/frame_*.png; do
    check_png "render.py $(basename "$f")" "$f" 320 240 --body $WHITE
done
grep -q "ffmpeg" render.txt && pass "render.py prints an ffmpeg hint" || fail "no ffmpeg hint"
ls run/png/*.tmp* >/dev/null 2>&1 && fail "temporary files left" || pass "no temporary files"

"$PY" "$RENDER" run -o sel --frames 0,last --color-by body_id --camera front --size 400x300 >render.txt 2>&1 ||
    { fail "render.py --frames 0,last"; cat render.txt; }
[ "$(ls sel | tr '\n' ' ')" = "frame_000000.png frame_000003.png " ] && pass "--frames 0,last renders those two" ||
    fail "--frames 0,last wrote: $(ls sel | tr '\n' ' ')"
check_png "render.py --color-by body_id --camera front" sel/frame_000003.png 400 300 --body $WHITE
"$PY" "$RENDER" run -o cf --frames 2 --color-by contact_force --camera 120,30 --size 320x240 >render.txt 2>&1 ||
    { fail "render.py --color-by contact_force"; cat render.txt; }
check_png "render.py --color-by contact_force --camera 120,30" cf/frame_000002.png 320 240 --body $WHITE

# A run with analytic shapes and contact reports (frames.pvd lists three parts per frame).
"$IPCC" run "$SRC/examples/shape_box.json" --steps 3 -o shapes -q >shapes.txt 2>&1 ||
    { fail "ipcc run shape_box"; cat shapes.txt; }
grep -q 'part="2" file="contacts_000003.vtp"' shapes/frames.pvd && pass "shape_box lists its contact reports" ||
    fail "shape_box: no contacts part in frames.pvd"
"$PY" "$RENDER" shapes -o sh --frames last --contacts --size 320x240 >render.txt 2>&1 ||
    { fail "render.py --contacts"; cat render.txt; }
check_png "render.py --contacts on shapes and contact reports" sh/frame_000003.png 320 240 --body $WHITE

# --- error cases -------------------------------------------------------------------
mkdir -p empty bad header
: >empty/stats.csv
head -n 1 run/stats.csv >header/stats.csv
sed '4s/,[^,]*$//' run/stats.csv >bad/stats.csv
expect_error 1 "no such directory" "plot_stats.py: missing folder" -- "$PY" "$PLOT" nowhere
expect_error 1 "stats.csv: no such file" "plot_stats.py: no stats.csv" -- "$PY" "$PLOT" sel
expect_error 1 "empty file" "plot_stats.py: empty stats.csv" -- "$PY" "$PLOT" empty
expect_error 1 "header only" "plot_stats.py: header only" -- "$PY" "$PLOT" header
columns=$(head -n 1 run/stats.csv | tr ',' '\n' | wc -l)
expect_error 1 "stats.csv line 4: $((columns - 1)) field(s), expected $columns" "plot_stats.py: malformed row named" -- \
    "$PY" "$PLOT" bad
expect_error 1 "must be a .png" "plot_stats.py: -o not .png" -- "$PY" "$PLOT" run -o x.jpg
expect_error 1 "no such directory" "render.py: missing folder" -- "$PY" "$RENDER" nowhere
expect_error 1 "no frames.pvd and no frame_" "render.py: folder without frames" -- "$PY" "$RENDER" empty
expect_error 1 "no frame 9 in this run (frames 0 to 3)" "render.py: unknown frame" -- "$PY" "$RENDER" run --frames 9
expect_error 1 "argument --size" "render.py: bad --size" -- "$PY" "$RENDER" run --size 12
expect_error 1 "argument --camera" "render.py: bad --camera" -- "$PY" "$RENDER" run --camera sideways
cp -r run broken
printf 'not xml' >broken/frame_000002.vtu
expect_error 1 "frame_000002.vtu: cannot read as a VTK .vtu file" "render.py: corrupt .vtu named" -- \
    "$PY" "$RENDER" broken --frames 2 -o broken/png --size 64x64
rm broken/obstacles_000001.vtp
expect_error 1 "obstacles_000001.vtp: no such file" "render.py: missing .vtp named" -- \
    "$PY" "$RENDER" broken --frames 1 -o broken/png --size 64x64
# No display: a clear message instead of a loop under xvfb-run, or without it.
expect_error 2 "even under xvfb-run" "render.py: no re-run loop under xvfb-run" -- \
    env -u DISPLAY IPCC_RENDER_UNDER_XVFB=1 "$PY" "$RENDER" run --size 64x64 -o nodisplay
expect_error 2 "apt-get install xvfb" "render.py: no display and no xvfb-run" -- \
    env -u DISPLAY PATH=/nonexistent "$PY" "$RENDER" run --size 64x64 -o nodisplay
[ -e nodisplay ] && fail "render.py created its output folder without rendering" || pass "nothing written without a display"

echo "scripts: $failures failure(s)"
[ "$failures" -eq 0 ]
