#!/bin/sh
# End-to-end tests of the ipcc command: a real scene run to VTK frames that
# the real VTK reader opens, and the bad-input catalogue (clear message,
# non-zero exit, never a crash, earlier output left intact).
#   usage: cli_test.sh IPCC_BINARY SOURCE_DIR WORK_DIR
set -u
IPCC=$1
SRC=$2
WORK=$3
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
failures=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# expect CODE PATTERN DESCRIPTION -- ARGS: run ipcc, check exit code and stderr.
expect() {
    code=$1 pattern=$2 what=$3
    shift 4
    "$IPCC" "$@" >out.txt 2>err.txt
    rc=$?
    if [ "$rc" -ne "$code" ]; then
        fail "$what: exit $rc, expected $code"; cat err.txt
    elif [ -n "$pattern" ] && ! grep -q -- "$pattern" err.txt; then
        fail "$what: stderr lacks '$pattern'"; cat err.txt
    else
        pass "$what"
    fi
}

# --- a real run: the default beam, 10 steps, frames opened by VTK ----------
"$IPCC" run "$SRC/examples/beam.json" --steps 10 -o beam >run.txt 2>&1
rc=$?
[ $rc -eq 0 ] && pass "beam run exits 0" || { fail "beam run exit $rc"; cat run.txt; }
[ "$(grep -c '^step ' run.txt)" -eq 10 ] && pass "one line per step" || fail "step lines"
grep -q '^summary: 10 steps' run.txt && pass "summary printed" || fail "summary"
[ "$(wc -l <beam/stats.csv)" -eq 11 ] && pass "stats.csv has header + 10 rows" || fail "stats.csv rows"
# fps 25, h 0.01: frames at t = 0, 0.04, 0.08 and the last step (0.1).
frames=$(ls beam/frame_*.vtu | wc -l)
[ "$frames" -eq 4 ] && pass "4 frames at 25 fps" || fail "frame count $frames"
ls beam/*.tmp >/dev/null 2>&1 && fail "temporary files left" || pass "no temporary files"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import vtk" 2>/dev/null; then
    /usr/bin/python3 "$SRC/tests/vtk_check.py" --fields beam 4 - - && pass "VTK reads the frames" || fail "VTK check"
elif [ "${CI:-}" = true ]; then
    fail "/usr/bin/python3 with vtk is missing under CI (.ci/run installs python3-vtk9)"
else
    echo "skip: /usr/bin/python3 with vtk not available"
fi
# A mesh with regions: each tet's region in the frame's cell data, read by
# VTK, is the region whose half of the bar holds the tet's centroid
# (meshes/two_bar.msh: "soft" = 1 for x < 0.5, "stiff" = 2 for x > 0.5).
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import vtk" 2>/dev/null; then
    "$IPCC" run "$SRC/examples/regions.json" --steps 1 -o regions -q >/dev/null 2>&1 &&
        /usr/bin/python3 - regions/frame_000000.vtu <<'PY' && pass "frames carry each tet's mesh region" || fail "region cell data"
import sys, vtk
r = vtk.vtkXMLUnstructuredGridReader()
r.SetFileName(sys.argv[1])
r.Update()
g = r.GetOutput()
reg = g.GetCellData().GetArray("region")
assert reg is not None and reg.GetNumberOfTuples() == g.GetNumberOfCells()
seen = set()
for c in range(g.GetNumberOfCells()):
    ids = g.GetCell(c).GetPointIds()
    x = sum(g.GetPoint(ids.GetId(k))[0] for k in range(4)) / 4
    want = 1 if x < 0.5 else 2
    assert int(reg.GetTuple1(c)) == want, (c, x, reg.GetTuple1(c))
    seen.add(want)
assert seen == {1, 2}
PY
fi
# Frames are zlib-compressed by default; output.compress=false writes them
# raw, and both read the same (ipcc compare; VTK bit for bit).
"$IPCC" run "$SRC/examples/beam.json" --steps 10 -o beam_raw -q --set output.compress=false >/dev/null 2>&1 &&
    grep -q 'compressor="vtkZLibDataCompressor"' beam/frame_000001.vtu &&
    ! grep -q 'compressor=' beam_raw/frame_000001.vtu &&
    pass "frames compressed by default, raw with output.compress=false" || fail "output.compress"
"$IPCC" compare beam beam_raw >cmp_raw.txt 2>&1 && grep -q 'identical' cmp_raw.txt &&
    pass "ipcc compare: compressed and raw frames identical" || { fail "compare compressed with raw"; cat cmp_raw.txt; }
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import vtk" 2>/dev/null; then
    /usr/bin/python3 "$SRC/tests/vtk_check.py" --fields --same-as beam beam_raw 4 - - &&
        pass "VTK reads the raw frames as the compressed ones" || fail "VTK same-as"
fi

# --- --profile: the breakdown, whose six disjoint parts add up to the step ---
"$IPCC" run "$SRC/examples/contact_cubes.json" --steps 30 -o prof -q --profile >prof.txt 2>&1 &&
    grep -q '^profile: 30 steps' prof.txt && grep -q 'factorization, numeric' prof.txt &&
    grep -q 'CCD (in line search)' prof.txt && grep -q 'peak resident memory: [0-9.]* MB' prof.txt &&
    pass "--profile prints the breakdown" || { fail "--profile output"; cat prof.txt; }
# Seconds of the six parts against the step total, and against stats.csv's time_total sum.
awk '/^  (assembly|factorization, symbolic|factorization, numeric|solve|line search|rest) / { s += $(NF - 4) }
     /^  step total/ { t = $3 }
     END { exit !(t > 0 && s > 0.999 * t - 0.002 && s < 1.001 * t + 0.002) }' prof.txt &&
    pass "--profile parts add up to the step total" || { fail "--profile parts do not add up"; cat prof.txt; }
total=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time_total") c = i; next } { s += $c } END { printf "%.3f", s }' prof/stats.csv)
grep -q "^  step total  *$total " prof.txt && pass "--profile total matches stats.csv ($total s)" ||
    { fail "--profile total differs from stats.csv's $total s"; cat prof.txt; }

# --- determinism through the CLI: 1 and 2 threads, bit-identical frames ------
"$IPCC" run "$SRC/examples/twist.json" --steps 6 --threads 1 -o t1 -q >/dev/null 2>&1 &&
    "$IPCC" run "$SRC/examples/twist.json" --steps 6 --threads 2 -o t2 -q >/dev/null 2>&1 ||
    fail "twist runs"
same=1
for f in t1/frame_*.vtu; do cmp -s "$f" "t2/$(basename "$f")" || same=0; done
[ -f t1/frame_000001.vtu ] && [ $same -eq 1 ] && pass "--threads 1 and 2 give bit-identical frames" ||
    fail "frames differ between 1 and 2 threads"

# --- usage -------------------------------------------------------------------
expect 0 "" "--help" -- --help
# Every command answers -h / --help with its own usage on stdout, exit 0; the
# overview lists every command and every option a command's help shows.
"$IPCC" --help >overview.txt 2>&1
for c in run resume compare convert check info; do
    for h in --help -h; do
        "$IPCC" $c $h >help.txt 2>help.err
        rc=$?
        if [ $rc -eq 0 ] && head -n 1 help.txt | grep -q "^usage: ipcc $c " && grep -q '^options:' help.txt &&
            [ ! -s help.err ]; then
            pass "ipcc $c $h prints its usage"
        else
            fail "ipcc $c $h: exit $rc"; cat help.txt help.err
        fi
    done
    [ "$(grep -cE '^(usage: | +)ipcc [a-z]' help.txt)" -eq 1 ] || fail "ipcc $c --help shows other commands"
    grep -qE "^(usage: | +)ipcc $c " overview.txt || fail "the overview lacks $c"
    # Each option of the command's help appears in the overview, with the same text.
    sed -n '/^options:/,/^$/p' help.txt | grep '^  -' | grep -v -- '--help' | while IFS= read -r line; do
        grep -qF -- "$line" overview.txt || echo "$c: $line"
    done >missing.txt
    [ -s missing.txt ] && { fail "options of ipcc $c --help not in ipcc --help"; cat missing.txt; }
done
awk 'length > 80 { bad = 1; print } END { exit bad }' overview.txt && pass "the overview fits 80 columns" ||
    fail "the overview has lines over 80 columns"
"$IPCC" run "$SRC/examples/beam.json" --steps 1 -o help_run --help >help.txt 2>&1 && grep -q '^usage: ipcc run' help.txt &&
    [ ! -e help_run ] && pass "--help after other arguments prints the usage and runs nothing" ||
    fail "run SCENE --help"
expect 1 "see ipcc run --help" "an unknown option points to the command's help" -- run "$SRC/examples/beam.json" --bogus
"$IPCC" --version | grep -q '^ipcc [0-9]' && pass "--version" || fail "--version"
expect 1 "unknown command" "unknown command" -- frobnicate
expect 1 "unknown option" "unknown option" -- run "$SRC/examples/beam.json" --bogus
expect 1 "non-negative integer" "bad --steps" -- run "$SRC/examples/beam.json" --steps -3
expect 1 "needs a scene" "run without scene" -- run
expect 1 "from 1 to 1024" "bad --threads" -- run "$SRC/examples/beam.json" --threads 0

# --- bad input: each names the file, line or key --------------------------
expect 1 "nope.json" "missing scene file" -- run nope.json
printf '{\n  "time_step": 0.01,\n  "duration": 1\n  "bodies": []\n}\n' >syntax.json
expect 1 "syntax.json:4" "JSON syntax error names the line" -- run syntax.json
mkdir -p m
cp "$SRC/tests/data/scenes/tet.node" "$SRC/tests/data/scenes/tet.ele" m/
cat >unknown_key.json <<'JSON'
{"time_step": 0.01, "duration": 0.1,
 "newton": {"tolerence": 1e-3},
 "bodies": [{"mesh": "m/tet.node", "material": {"model": "neo_hookean", "density": 1000, "youngs_modulus": 1e5, "poisson_ratio": 0.3}}]}
JSON
expect 1 "newton.tolerence" "unknown key names its path" -- run unknown_key.json
sed 's/"tolerence"/"tolerance"/; s/m\/tet.node/m\/missing.msh/' unknown_key.json >missing_mesh.json
expect 1 "missing.msh" "missing mesh names the file" -- run missing_mesh.json
sed 's/"tolerence": 1e-3/"max_iterations": 0/' unknown_key.json >bad_value.json
expect 1 "newton.max_iterations" "out-of-range value names the key" -- run bad_value.json
printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 2 2 0\n$EndNodes\n$Elements\n1\n7 4 2 0 1 1 2 3 4\n$EndElements\n' >m/flat.msh
sed 's/"tolerence": 1e-3/"tolerance": 1e-3/; s/m\/tet.node/m\/flat.msh/' unknown_key.json >flat.json
expect 1 "element 7" "zero-volume tet names the element" -- run flat.json
printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 nan\n3 0 1 0\n4 0 0 1\n$EndNodes\n$Elements\n1\n1 4 2 0 1 1 2 3 4\n$EndElements\n' >m/nan.msh
sed 's/m\/flat.msh/m\/nan.msh/' flat.json >nan.json
expect 1 "nan.msh" "NaN coordinate names the file" -- run nan.json

# --- contact scenes: obstacles and the initial intersection check -----------
"$IPCC" run "$SRC/examples/obstacle_push.json" --steps 5 -o push -q >/dev/null 2>&1 &&
    pass "obstacle scene runs" || fail "obstacle scene"
[ -f push/obstacles_000000.vtp ] && grep -q 'part="1"' push/frames.pvd && pass "obstacles written" ||
    fail "obstacle frames"
# --- split steps (newton.max_splits) -------------------------------------------
# A cube thrown at 30 m/s onto the ground: capped at 12 Newton iterations,
# its impact step does not converge at h; with splits off the run ends
# unconverged (exit 3), by default the step is redone in parts, converges,
# and says so on its progress line and in stats.csv's substeps column.
cat >split.json <<'JSON'
{"time_step": 0.01, "steps": 3, "newton": {"max_iterations": 12},
 "bodies": [{"name": "cube", "mesh": {"box": {"size": [0.1, 0.1, 0.1], "cells": [3, 3, 3]}},
   "material": {"youngs_modulus": 1e4}, "translation": [0, 0.1, 0], "velocity": [0, -30, 0]}],
 "obstacles": [{"type": "half_space", "name": "ground"}]}
JSON
"$IPCC" run split.json -o split0 --set newton.max_splits=0 -q >/dev/null 2>&1
[ $? = 3 ] && pass "capped impact without splits: unconverged, exit 3" || fail "capped impact without splits"
"$IPCC" run split.json -o split >split.txt 2>&1 && grep -q "^step      1 .* in [0-9]* parts$" split.txt &&
    head -n 1 split/stats.csv | cut -d, -f37 | grep -q '^substeps$' &&
    awk -F, 'NR == 2 && $8 == 1 && $37 > 1 { ok = 1 } END { exit !ok }' split/stats.csv &&
    pass "capped impact: the step is split, converges, and stats.csv counts its parts" ||
    { fail "split step"; cat split.txt; cut -d, -f1-9,37 split/stats.csv; }
grep -q "^summary: 3 steps, .* 0 unconverged steps, 1 split," split.txt &&
    pass "the summary counts the split step" || { fail "summary of split steps"; tail -n 1 split.txt; }
"$IPCC" run split.json -o split_r --steps 1 -q >/dev/null 2>&1 && "$IPCC" resume split_r --steps 3 >resume.txt 2>&1 &&
    grep -q "^summary: 3 steps, .* 1 split," resume.txt &&
    pass "a resumed run keeps the count of split steps (checkpoint loop state)" ||
    { fail "split steps across a resume"; tail -n 2 resume.txt; }
# --- analytic shapes and the contact report (output.contacts) -----------------
# A block on a rough slope, a moving sphere and a spinning box shape: the
# shapes' surfaces in the obstacles' .vtp, contacts_NNNNNN.vtp as part 2 of
# every frame (read by VTK, arrays and names checked by vtk_check.py), and
# stats.csv's per-object force columns after the usual ones: the block's
# and the slope's forces are opposite.
cat >contacts.json <<'JSON'
{"time_step": 0.01, "steps": 4, "contact": {"friction_iterations": 2},
 "bodies": [{"name": "block", "mesh": {"box": {"size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]}}, "friction": 0.3,
   "material": {"model": "neo_hookean", "density": 1000, "youngs_modulus": 1e7, "poisson_ratio": 0.3},
   "rotation": [0, 0, 26.565051], "translation": [-0.07245, -0.0051, 0]}],
 "obstacles": [{"type": "half_space", "normal": [-0.447214, 0.894427, 0], "friction": 0.6},
   {"type": "sphere", "name": "ball", "center": [1, 0.5, 0], "radius": 0.3, "velocity": [0, 0, 1]},
   {"type": "box", "name": "crate", "center": [-1, 0.5, 0], "half_extents": [0.3, 0.2, 0.1], "angular_velocity": [0, 1, 0]}],
 "output": {"contacts": true}}
JSON
"$IPCC" run contacts.json -o contacts -q >run.txt 2>&1 && pass "contacts scene runs" || { fail "contacts scene"; cat run.txt; }
[ "$(grep -c 'part="2" file="contacts_' contacts/frames.pvd)" -eq 5 ] && [ -f contacts/contacts_000004.vtp ] &&
    pass "contacts_NNNNNN.vtp listed as part 2 of every frame" || fail "contacts files"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c "import vtk" 2>/dev/null; then
    /usr/bin/python3 "$SRC/tests/vtk_check.py" --contacts contacts 5 - - &&
        pass "VTK reads the shapes and the contacts" || fail "VTK check of shapes and contacts"
fi
head -n 1 contacts/stats.csv | grep -q ',time_energy,kinetic_energy,elastic_energy,gravitational_energy,barrier_energy,momentum_x,momentum_y,momentum_z,angular_momentum_x,angular_momentum_y,angular_momentum_z,substeps,contact_force_x:block,contact_force_y:block,contact_force_z:block,contact_force_x:half-space 0,.*,contact_force_z:half-space 0,.*contact_force_x:ball,.*,contact_force_z:crate$' &&
    pass "stats.csv: energy columns, then force columns per object after the usual ones" || { fail "stats.csv energy and force columns"; head -n 1 contacts/stats.csv; }
# One object, one name, one force: the crate (a box: a shape and its 12
# edges) has three columns, and no "crate (edges)".
[ "$(head -n 1 contacts/stats.csv | tr , '\n' | grep -c 'crate')" -eq 3 ] &&
    pass "stats.csv: a box obstacle has one set of force columns" || { fail "stats.csv box columns"; head -n 1 contacts/stats.csv; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "contact_force_y:block") b = i; if ($i == "contact_force_y:half-space 0") h = i }; next }
         { s = $b + $h; if (!($b > 0) || s * s > 1e-18 * $b * $b) bad = 1 } END { exit bad || NR != 5 }' contacts/stats.csv &&
    pass "stats.csv: the slope takes the block's force, reversed" || { fail "stats.csv forces"; cat contacts/stats.csv; }

box='{"box": {"size": [1, 1, 1], "cells": [1, 1, 1]}}'
printf '{"duration": 0.1, "bodies": [{"name": "a", "mesh": %s, "material": {"model": "neo_hookean", "density": 1000, "youngs_modulus": 1e5, "poisson_ratio": 0.3}},
 {"name": "b", "mesh": %s, "translation": [0.5, 0.5, 0.5], "material": {"model": "neo_hookean", "density": 1000, "youngs_modulus": 1e5, "poisson_ratio": 0.3}}]}
' "$box" "$box" >overlap.json
expect 1 'bodies "a" and "b" intersect' "intersecting bodies name both" -- run overlap.json -o overlap
[ -e overlap ] && fail "intersecting scene created its output folder" || pass "no output for an intersecting scene"
sed 's/"translation": \[0.5, 0.5, 0.5\]/"translation": [0, 1, 0]/' overlap.json >touching.json
expect 1 "touch" "touching bodies are refused" -- run touching.json -o touching
sed 's/"duration": 0.1,/"duration": 0.1, "obstacles": [{"type": "half_space", "point": [0, 0.5, 0]}],/' overlap.json | sed 's/"translation": \[0.5, 0.5, 0.5\]/"translation": [3, 0, 0]/' >below.json
expect 1 "half-space 0" "a body crossing a half-space is refused" -- run below.json -o below
# A named half-space: its name in the refusal, in ipcc check, in stats.csv's
# force columns, and through ipcc convert.
sed 's/"type": "half_space", "point": \[0, 0.5, 0\]/"type": "half_space", "name": "floor", "point": [0, 0.5, 0]/' below.json >below_named.json
expect 1 'crosses half-space "floor"' "a body crossing a named half-space is refused by name" -- run below_named.json -o below_named
sed 's/"point": \[0, 0.5, 0\]/"point": [0, -0.5, 0]/' below_named.json >named.json
"$IPCC" check named.json >named_check.txt 2>&1 && grep -q '^  half-space  *floor  *point (0, -0.5, 0)' named_check.txt &&
    pass "ipcc check names the half-space" || { fail "ipcc check of a named half-space"; cat named_check.txt; }
"$IPCC" run named.json --steps 1 -o named -q >/dev/null 2>&1 &&
    head -n 1 named/stats.csv | grep -q ',contact_force_x:floor,contact_force_y:floor,contact_force_z:floor' &&
    pass "stats.csv names the half-space's force columns" || { fail "stats.csv of a named half-space"; head -n 1 named/stats.csv; }
"$IPCC" convert named.json -o named_conv.json >/dev/null 2>&1 && grep -q '"name": "floor"' named_conv.json &&
    pass "ipcc convert keeps the half-space's name" || { fail "convert of a named half-space"; cat named_conv.json; }
sed 's/"type": "half_space", "point": \[0, 0.5, 0\]/"type": "mesh", "path": "m\/none.obj"/' below.json >noobj.json
expect 1 "none.obj" "missing obstacle file names it" -- run noobj.json -o noobj
sed 's/"type": "half_space"/"type": "halfspace"/' below.json >badtype.json
expect 1 'did you mean "half_space"' "unknown obstacle type suggests" -- run badtype.json -o badtype
sed 's/"duration": 0.1,/"duration": 0.1, "contact": {"dhat": -1},/' overlap.json >baddhat.json
expect 1 "contact.dhat" "bad contact.dhat names the key" -- run baddhat.json -o baddhat

sed 's/"duration": 0.1,/"duration": 0.1, "contact": {"friction_iterations": 0},/' overlap.json >badfi.json
expect 1 "contact.friction_iterations" "friction_iterations 0 names the key" -- run badfi.json -o badfi
sed 's/"name": "a",/"name": "a", "friction": -0.5,/' overlap.json >badmu.json
expect 1 "bodies\[0\].friction" "negative body friction names the key" -- run badmu.json -o badmu
sed 's/"type": "half_space"/"type": "half_space", "friction": "high"/' below.json >badhmu.json
expect 1 "obstacles\[0\].friction" "non-numeric half-space friction names the key" -- run badhmu.json -o badhmu

# --- keys added for IPC scenes: a bad value names its key path ---------------
sed 's/"duration": 0.1,/"duration": 0.1, "damping": -1,/' overlap.json >baddamp.json
expect 1 "damping: must be >= 0" "negative damping names the key" -- run baddamp.json -o baddamp
sed 's/"duration": 0.1,/"duration": 0.1, "newton": {"tolerance": []},/' overlap.json >badtol.json
expect 1 "newton.tolerance: must not be an empty array" "empty tolerance schedule names the key" -- run badtol.json -o badtol
sed 's/"name": "a",/"name": "a", "rotation": [0, 0, 1], "transform": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]],/' \
    overlap.json >badtf.json
expect 1 'bodies\[0\].transform: cannot be combined with "rotation"' "transform with rotation names both keys" -- \
    run badtf.json -o badtf
sed 's/"type": "half_space", "point": \[0, 0.5, 0\]/"type": "segment", "path": "m\/w.seg"/' below.json >badseg.json
expect 1 'did you mean "segments"' "unknown obstacle type suggests segments" -- run badseg.json -o badseg

# --- IPC scripts: run unmodified, convert to JSON, bad scripts --------------
IPCS="$SRC/tests/ipc_scenes/input"
"$IPCC" run "$IPCS/tutorialExamples/2cubesFall.txt" --steps 5 -o ipc >run.txt 2>&1
rc=$?
[ $rc -eq 0 ] && pass "IPC script runs" || { fail "IPC script run exit $rc"; cat run.txt; }
grep -q '2 bodies, 16 vertices' run.txt && pass "IPC script: 2 bodies, 16 vertices" || fail "IPC script counts"
[ "$(ls ipc/frame_*.vtu | wc -l)" -eq 6 ] && pass "IPC script: a frame per step" || fail "IPC script frames"
"$IPCC" convert "$IPCS/tutorialExamples/BC/2cubesFall_DBC.txt" -o dbc.json >conv.txt 2>&1 &&
    pass "convert exits 0" || { fail "convert"; cat conv.txt; }
"$IPCC" run dbc.json --steps 5 -o dbc_json -q >/dev/null 2>&1 &&
    "$IPCC" run "$IPCS/tutorialExamples/BC/2cubesFall_DBC.txt" --steps 5 -o dbc_txt -q >/dev/null 2>&1 ||
    fail "converted scene runs"
same=1
for f in dbc_txt/frame_*.vtu; do cmp -s "$f" "dbc_json/$(basename "$f")" || same=0; done
[ -f dbc_txt/frame_000005.vtu ] && [ $same -eq 1 ] && pass "converted scene gives bit-identical frames" ||
    fail "converted scene's frames differ"
mkdir -p scripts/input/tetMeshes && cp "$IPCS/tetMeshes/cube.msh" scripts/input/tetMeshes/
printf 'shapes input 1\ninput/tetMeshes/cube.msh 0 1 0  0 0 0  1 1 1\nfrobnicate 3\nview perspective\nground 0 0\n' \
    >scripts/unknown.txt
expect 0 "unknown.txt:3: unknown keyword 'frobnicate'" "unknown keyword warns with its line" -- \
    run scripts/unknown.txt --steps 1 -o unk
expect 1 "unknown.txt:3: unknown keyword 'frobnicate'" "--strict: unknown keyword is an error" -- \
    run scripts/unknown.txt --strict --steps 1 -o unk_strict
[ -e unk_strict ] && fail "--strict failure created output" || pass "--strict failure writes nothing"
expect 0 "'view' ignored" "--verbose lists viewer-only keywords" -- run scripts/unknown.txt --verbose --steps 1 -o unk_v
printf 'shapes input 1\ninput/tetMeshes/nope.msh 0 0 0  0 0 0  1 1 1\n' >scripts/missing.txt
expect 1 "missing.txt:2: shape \"input/tetMeshes/nope.msh\": file not found" "missing IPC mesh names line and file" -- \
    run scripts/missing.txt -o miss
printf 'shapes input 1\ninput/tetMeshes/cube.msh 0 0 0  0 0 0  1 1 1\nscript hang\n' >scripts/preset.txt
expect 1 'script "hang" is not supported' "unknown preset is an error naming it" -- run scripts/preset.txt -o pre
printf 'time 5\nshapes input 1\ninput/tetMeshes/cube.msh 0 0 0  0 0 0  1 1 1\n' >scripts/time.txt
expect 1 "time.txt:1: time" "malformed time names line and keyword" -- run scripts/time.txt -o tm
printf 'shapes input 2\ninput/tetMeshes/cube.msh 0 0 0  0 0 0  1 1 1\ninput/tetMeshes/cube.msh 0.5 0 0  0 0 0  1 1 1\n' \
    >scripts/overlap.txt
expect 1 "intersect" "intersecting IPC shapes are refused" -- run scripts/overlap.txt -o ov
expect 1 "convert needs" "convert without -o" -- convert scripts/unknown.txt

# --- check and info -----------------------------------------------------------
"$IPCC" check "$SRC/examples/contact_cubes.json" >chk.txt 2>&1 && pass "check exits 0" || { fail "check"; cat chk.txt; }
grep -q 'total: 2 bodies, 152 vertices, 432 tets, 240 surface triangles; 0 mesh obstacles (0 vertices, 0 triangles), 1 half-spaces, 0 shapes' chk.txt &&
    pass "check prints the totals" || { fail "check totals"; cat chk.txt; }
grep -q 'L = 0.45 m, d-hat = 0.00045 m' chk.txt && grep -q 'kappa in \[' chk.txt && pass "check prints L, d-hat, kappa" ||
    fail "check L/d-hat/kappa"
[ -e out ] && fail "check wrote output" || pass "check writes nothing"
# Every thing of a scene once: a body, a mesh obstacle, a half-space, a
# sphere and a box (whose edges are part of it, not an obstacle).
cat >things.json <<JSON
{"time_step": 0.01, "steps": 1,
 "materials": {"soft": {"model": "neo_hookean", "density": 1000, "youngs_modulus": 1e5, "poisson_ratio": 0.4}},
 "bodies": [{"name": "cube", "mesh": {"box": {"size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]}}, "material": "soft",
   "translation": [0, 0.001, 0]}],
 "obstacles": [{"type": "half_space", "normal": [0, 1, 0]},
   {"type": "mesh", "name": "pusher", "path": "$SRC/meshes/pusher.obj", "translation": [-0.5, 0.01, -0.15]},
   {"type": "sphere", "name": "ball", "center": [1, 0.5, 0], "radius": 0.3},
   {"type": "box", "name": "crate", "center": [-1, 0.5, 0], "half_extents": [0.3, 0.2, 0.1]}]}
JSON
"$IPCC" check things.json >chk3.txt 2>&1 && pass "check a scene with every kind of obstacle" || { fail "check obstacles"; cat chk3.txt; }
grep -q '^  body  *cube  *27 vertices  *48 tets  *48 surface triangles$' chk3.txt &&
    grep -q '^  obstacle  *pusher  *8 vertices  *0 tets  *12 surface triangles$' chk3.txt &&
    grep -q '^  half-space  *half-space 0  *point (0, 0, 0), normal (0, 1, 0)$' chk3.txt &&
    grep -q '^  sphere  *ball  *radius 0.3 m, centre (1, 0.5, 0)$' chk3.txt &&
    grep -q '^  box  *crate  *half-extents 0.3 x 0.2 x 0.1 m, centre (-1, 0.5, 0)$' chk3.txt &&
    [ "$(grep -c '^  [a-z]' chk3.txt)" -eq 6 ] && ! grep -q 'edges' chk3.txt &&
    pass "check lists each body, obstacle, half-space and shape once" || { fail "check listing"; cat chk3.txt; }
grep -q 'total: 1 bodies, 27 vertices, 48 tets, 48 surface triangles; 1 mesh obstacles (8 vertices, 12 triangles), 1 half-spaces, 2 shapes$' chk3.txt &&
    pass "check counts bodies, obstacles, half-spaces and shapes apart" || { fail "check totals with obstacles"; cat chk3.txt; }
expect 1 "intersect" "check refuses intersecting bodies" -- check overlap.json
expect 1 "bodies\[0\].friction" "check names a bad key" -- check badmu.json
expect 1 "unknown keyword 'frobnicate'" "check --strict on an IPC script" -- check scripts/unknown.txt --strict
"$IPCC" check "$IPCS/paperExamples/5_hitCardHouse.txt" >chk2.txt 2>&1 &&
    grep -q 'total: 9 bodies, 5616 vertices' chk2.txt && pass "check an IPC scene" || { fail "check IPC scene"; cat chk2.txt; }
"$IPCC" info "$IPCS/tetMeshes/mat40x40.msh" >info.txt 2>&1 &&
    grep -q '3200 vertices, 9126 tets, 6396 boundary triangles' info.txt && grep -q 'dihedral angles 16.59 to 156.19' info.txt &&
    grep -q '0 bad tets' info.txt && pass "info prints counts and quality" || { fail "info"; cat info.txt; }
"$IPCC" check "$SRC/examples/belt.json" >chk_belt.txt 2>&1 &&
    grep -q '^  half-space  *belt  *point (0, 0, 0), normal (0, 1, 0), moving at (0.5, 0, 0) m/s, (0, 0, 0) rad/s$' chk_belt.txt &&
    grep -q ' 1 half-spaces, 0 shapes$' chk_belt.txt &&
    pass "check lists a moving half-space as a half-space" || { fail "check of a moving half-space"; cat chk_belt.txt; }
"$IPCC" info "$SRC/meshes/two_bar.msh" >info_regions.txt 2>&1 &&
    grep -Eq '^  2 regions: 1 "soft" \([0-9]+ tets\), 2 "stiff" \([0-9]+ tets\)$' info_regions.txt &&
    pass "info lists a mesh's regions" || { fail "info regions"; cat info_regions.txt; }
expect 1 "nope.msh" "info on a missing file" -- info nope.msh
printf 'garbage\n' >garbage.msh
expect 1 "garbage.msh" "info on a garbage file" -- info garbage.msh

# --- --set overrides ----------------------------------------------------------
"$IPCC" check "$SRC/examples/contact_cubes.json" --set contact.dhat=0.001 --set 'bodies[1].friction=0.3' >set.txt 2>&1 &&
    grep -q 'd-hat = 0.001 m' set.txt && pass "--set changes a key" || { fail "--set"; cat set.txt; }
"$IPCC" run "$SRC/examples/contact_cubes.json" --steps 2 --set output.directory=setdir -q >/dev/null 2>&1 &&
    [ -f setdir/frame_000001.vtu ] && pass "--set a string value" || fail "--set output.directory"
expect 1 'contact.dhatt: unknown key; did you mean "dhat"' "--set an unknown key suggests" -- \
    check "$SRC/examples/contact_cubes.json" --set contact.dhatt=0.001
expect 1 "bodies\[0\].friction: must be >= 0" "--set a bad value names the key" -- \
    check "$SRC/examples/contact_cubes.json" --set 'bodies[0].friction=-1'
expect 1 "index out of range" "--set past the end of an array" -- check "$SRC/examples/contact_cubes.json" --set 'bodies[7].friction=1'
expect 1 "needs key.path=value" "--set without =" -- check "$SRC/examples/contact_cubes.json" --set contact
expect 1 "convert the script first" "--set on an IPC script" -- check scripts/unknown.txt --set contact.dhat=1
# Text after a valid value is an error naming the key and the text, never the
# value's prefix (1e6x ran with 1e6, '0.3 0.5' with 0.3); blanks around it are fine.
expect 1 "--set materials.rubber.youngs_modulus=1e6x: unexpected text 'x' after the value '1e6'" \
    "--set 1e6x is refused" -- run "$SRC/examples/contact_cubes.json" --steps 1 -o set_bad1 \
    --set materials.rubber.youngs_modulus=1e6x
expect 1 "--set contact.friction=0.3 0.5: unexpected text '0.5' after the value '0.3'" \
    "--set '0.3 0.5' is refused" -- run "$SRC/examples/contact_cubes.json" --steps 1 -o set_bad2 \
    --set 'contact.friction=0.3 0.5'
expect 1 "--set bodies\[1\].velocity=\[0,-2,0\]\]junk: unexpected text '\]junk' after the value '\[0,-2,0\]'" \
    "--set '[0,-2,0]]junk' is refused" -- check "$SRC/examples/contact_cubes.json" --set 'bodies[1].velocity=[0,-2,0]]junk'
[ -e set_bad1 ] || [ -e set_bad2 ] && fail "a bad --set value created output" || pass "a bad --set value writes nothing"
"$IPCC" check "$SRC/examples/contact_cubes.json" --set 'contact.dhat= 0.002 ' >set.txt 2>&1 &&
    grep -q 'd-hat = 0.002 m' set.txt && pass "--set: blanks around the value are fine" || { fail "--set with blanks"; cat set.txt; }
"$IPCC" check "$SRC/examples/contact_cubes.json" --set 'bodies[1].velocity=[0, -2, 0]' >set.txt 2>&1 &&
    pass "--set: an array with blanks inside" || { fail "--set array with blanks"; cat set.txt; }

# --- earlier output is never lost --------------------------------------------
before=$(cksum <beam/frame_000000.vtu)
expect 1 "syntax.json" "failing run leaves earlier output" -- run syntax.json -o beam
expect 1 "intersect" "intersecting scene leaves earlier output" -- run overlap.json -o beam
[ "$(cksum <beam/frame_000000.vtu)" = "$before" ] && pass "earlier frame intact" || fail "earlier frame changed"
[ "$(wc -l <beam/stats.csv)" -eq 11 ] && pass "earlier stats intact" || fail "earlier stats changed"
touch afile
expect 1 "afile" "output under a regular file" -- run "$SRC/examples/beam.json" --steps 1 -o afile/out

# --- a folder that holds an earlier run: refused without --overwrite ----------
# (a longer earlier run left its frames beside the new frames.pvd: ParaView's
# file-series grouping mixed them). beam holds 10 steps, 4 frames.
echo "my notes" >beam/notes.txt
mkdir -p beam/sub && echo keep >beam/sub/frame_000009.vtu
before=$(ls beam | sort | cksum)
expect 1 "output folder 'beam' holds an earlier run (4 frames, step 10)" "a folder with a run is refused" -- \
    run "$SRC/examples/beam.json" --steps 2 -o beam -q
grep -q -- "--overwrite" err.txt && grep -q "choose another folder with -o" err.txt && grep -q "ipcc resume beam" err.txt &&
    pass "the refusal names --overwrite, -o and resume" || { fail "refusal message"; cat err.txt; }
[ "$(ls beam | sort | cksum)" = "$before" ] && [ "$(wc -l <beam/stats.csv)" -eq 11 ] &&
    pass "refused: the earlier run is untouched" || fail "refused run changed the folder"
expect 1 "holds an earlier run" "an IPC script into a folder with a run is refused" -- \
    run "$IPCS/tutorialExamples/2cubesFall.txt" --steps 1 -o beam
expect 1 "syntax.json" "a bad scene with --overwrite fails before removing anything" -- run syntax.json -o beam --overwrite
[ "$(ls beam | sort | cksum)" = "$before" ] && pass "bad scene + --overwrite: the earlier run is untouched" ||
    fail "bad scene + --overwrite changed the folder"
"$IPCC" run "$SRC/examples/beam.json" --steps 2 -o beam --overwrite >ow.txt 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "removed the earlier run in 'beam' (4 frames, step 10; 8 files)" ow.txt &&
    pass "--overwrite replaces the run and says so" || { fail "--overwrite: exit $rc"; cat ow.txt; }
# 2 steps at 25 fps: frames 0 and 1, nothing of the 4-frame run left.
[ "$(ls beam/frame_*.vtu | wc -l)" -eq 2 ] && [ ! -e beam/frame_000002.vtu ] && [ "$(grep -c 'file=' beam/frames.pvd)" -eq 2 ] &&
    [ "$(wc -l <beam/stats.csv)" -eq 3 ] && pass "--overwrite: no stale frames" || { fail "stale files after --overwrite"; ls beam; }
[ "$(cat beam/notes.txt)" = "my notes" ] && [ "$(cat beam/sub/frame_000009.vtu)" = keep ] &&
    pass "--overwrite keeps the user's other files" || fail "--overwrite removed a user's file"
# Only the files of a run count: a folder of other files, or an empty one, is fine.
mkdir -p other empty_out && echo data >other/frame_1.vtu && echo x >other/readme.txt
"$IPCC" run "$SRC/examples/beam.json" --steps 1 -o other -q >/dev/null 2>&1 &&
    "$IPCC" run "$SRC/examples/beam.json" --steps 1 -o empty_out -q >/dev/null 2>&1 &&
    [ -f other/frame_000001.vtu ] && [ "$(cat other/frame_1.vtu)" = data ] && pass "a folder without a run needs no --overwrite" ||
    fail "run into a folder without a run"
# A removal cut short leaves frames without checkpoint and scene: refused
# again, not resumable, and --overwrite finishes it.
mkdir -p half && cp beam/frame_000001.vtu half/frame_000007.vtu && echo x >half/stats.csv.tmp
expect 1 "'half' holds an earlier run (1 frames)" "leftover frames alone are an earlier run" -- \
    run "$SRC/examples/beam.json" --steps 1 -o half
expect 1 "no scene.json" "leftover frames are not resumable" -- resume half
"$IPCC" run "$SRC/examples/beam.json" --steps 1 -o half --overwrite -q >/dev/null 2>&1 && [ ! -e half/frame_000007.vtu ] &&
    [ ! -e half/stats.csv.tmp ] &&
    pass "--overwrite clears leftover frames" || fail "--overwrite with leftover frames"

# A folder where nothing can be removed (not as root: root may remove anyway):
# --overwrite fails on the first file, says nothing was removed, keeps all.
if [ "$(id -u)" -ne 0 ]; then
    ls beam | sort >ro_before.txt
    chmod a-w beam
    expect 1 "cannot remove 'beam/checkpoint.bin': Permission denied; nothing was removed" \
        "--overwrite in a read-only folder fails before removing anything" -- run "$SRC/examples/beam.json" --steps 1 -o beam --overwrite
    chmod u+w beam
    ls beam | sort | cmp -s - ro_before.txt && pass "read-only folder: the earlier run is complete" || fail "read-only folder changed"
fi

# --- threads: OMP_NUM_THREADS is the default, --threads wins ------------------
OMP_NUM_THREADS=1 "$IPCC" run "$SRC/examples/beam.json" --steps 1 -o thr1 >thr.txt 2>&1 &&
    grep -q ', 1 threads -> thr1/' thr.txt && pass "OMP_NUM_THREADS=1 runs 1 thread" || { fail "OMP_NUM_THREADS=1"; cat thr.txt; }
OMP_NUM_THREADS=1 "$IPCC" run "$SRC/examples/beam.json" --steps 1 --threads 3 -o thr3 >thr.txt 2>&1 &&
    grep -q ', 3 threads -> thr3/' thr.txt && pass "--threads wins over OMP_NUM_THREADS" || { fail "--threads 3"; cat thr.txt; }
OMP_NUM_THREADS=1 "$IPCC" resume thr1 --steps 2 --threads 2 >thr.txt 2>&1 && grep -q ', 2 threads -> thr1/' thr.txt &&
    pass "resume --threads" || { fail "resume --threads"; cat thr.txt; }

# --- the progress bar on an 80-column terminal: fixed width, a readable bar ---
# A pseudo-terminal of COLS columns (TIOCSWINSZ); every redraw of the line
# (split at \r, CSI K removed) must have the same width, at most COLS - 1,
# and a bar of at least 20 characters (it shrank to 8-11 at 80 columns).
cat >pty_bar.py <<'PY'
import fcntl, os, pty, re, struct, sys, termios
cols, argv = int(sys.argv[1]), sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
text = out.decode("utf-8", "replace").replace("\x1b[K", "")
lines = [s for s in re.split(r"[\r\n]", text) if s.startswith("[")]
bars = [re.match(r"\[([#-]*)\]", s) for s in lines]
widths = sorted(set(len(s) for s in lines))
bar_widths = sorted(set(len(m.group(1)) if m else 0 for m in bars))
print("exit %d, %d redraws, line widths %s, bar widths %s" % (os.waitstatus_to_exitcode(status), len(lines), widths, bar_widths))
for s in lines[:2] + lines[-1:]:
    print(repr(s))
ok = os.waitstatus_to_exitcode(status) == 0 and len(lines) >= 2 and len(widths) == 1 and widths[0] <= cols - 1
ok = ok and len(bar_widths) == 1 and 20 <= bar_widths[0] <= 40 and "100.0%" in lines[-1] and "steps/s" in lines[-1]
sys.exit(0 if ok else 1)
PY
for cols in 80 120; do
    if python3 pty_bar.py $cols "$IPCC" run "$SRC/examples/contact_cubes.json" --steps 30 -o bar$cols >bar.txt 2>&1; then
        pass "progress bar at $cols columns: one width, bar >= 20 ($(head -n 1 bar.txt))"
    else
        fail "progress bar at $cols columns"; cat bar.txt
    fi
done
grep -q "contacts" bar.txt && pass "at 120 columns the bar also shows the contacts" || fail "no contacts at 120 columns"

# The short spin (src/cli/main.c): without OMP_WAIT_POLICY or GOMP_SPINCOUNT,
# run re-executes itself with GOMP_SPINCOUNT=1000 (read from the running
# process's environment); a policy the user set is left alone.
spin_env() {
    rm -rf spin
    env -u OMP_NUM_THREADS -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$@" "$IPCC" run "$SRC/examples/contact_cubes.json" \
        --steps 100000 --threads 2 -q -o spin >/dev/null 2>&1 &
    pid=$!
    for i in $(seq 100); do [ -s spin/stats.csv ] && break; sleep 0.05; done
    tr '\0' '\n' <"/proc/$pid/environ" | grep -E '^(GOMP_SPINCOUNT|OMP_WAIT_POLICY)=' | sort | tr '\n' ' '
    kill -INT $pid
    wait $pid
}
if [ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ] && [ -d /proc/self ]; then
    got=$(spin_env)
    [ "$got" = "GOMP_SPINCOUNT=1000 " ] && pass "run sets GOMP_SPINCOUNT=1000 by default" ||
        fail "run's OpenMP environment by default: '$got'"
    got=$(spin_env OMP_WAIT_POLICY=active)
    [ "$got" = "OMP_WAIT_POLICY=active " ] && pass "run keeps the user's OMP_WAIT_POLICY" ||
        fail "run's OpenMP environment with OMP_WAIT_POLICY=active: '$got'"
fi

if [ $failures -ne 0 ]; then
    echo "$failures failed"
    exit 1
fi
echo "all CLI checks passed"
