#!/bin/sh
# One regression scene end to end (registered per scene by scenes.cmake):
#   1. run the scene with the ipcc CLI into a fresh folder (its stats.csv must
#      show contact, and friction when the scene sets any);
#   2. ipcc compare it with the committed reference (--tol 1e-6: exit 0);
#   3. scene_frames_check: every written frame (and every reference frame)
#      is inversion- and intersection-free, and the checker catches
#      corrupted copies of the last frame (--self-test);
#   4. end to end on files: swap two vertices of a tet in a raw copy of the
#      last (compressed) .vtu; the checker must report the inversion and ipcc
#      compare must exit 5 naming that frame.
#   usage: scenes_test.sh IPCC_BINARY CHECKER SCENE.json REFERENCE_DIR WORK_DIR
set -u
IPCC=$1
CHECK=$2
SCENE=$3
REF=$4
WORK=$5
ZLIB_FRAMES=$(cd "$(dirname "$0")" && pwd)/zlib_frames.py
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
failures=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# 1. The run.
"$IPCC" run "$SCENE" -o out -q >run.txt 2>&1
rc=$?
[ $rc -eq 0 ] && pass "ipcc run exits 0" || { fail "ipcc run exit $rc"; cat run.txt; }

# The scene does what it is for: contact in some step (every regression scene
# has contact), and friction when the scene sets any.
column_max() {
    awk -F, -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
                          c && $c > m { m = $c } END { print m + 0 }' out/stats.csv
}
[ "$(column_max num_contacts)" -gt 0 ] && pass "contact is active (up to $(column_max num_contacts) contacts)" ||
    fail "no step of the scene has a contact (stats.csv num_contacts)"
if grep -q '"friction"' "$SCENE"; then
    [ "$(column_max friction_contacts)" -gt 0 ] && pass "friction is active" ||
        fail "the scene sets friction but no step has a friction contact (stats.csv friction_contacts)"
fi

# 2. Against the reference.
if [ ! -f "$REF/frames.pvd" ]; then
    fail "no reference in $REF (tests/scenes/update_references.sh IPCC_BINARY makes it)"
else
    "$IPCC" compare "$REF" out --tol 1e-6 >compare.txt 2>&1
    rc=$?
    cat compare.txt
    [ $rc -eq 0 ] && pass "matches the reference within 1e-6 L" ||
        fail "ipcc compare reference out: exit $rc (after a deliberate change: tests/scenes/update_references.sh)"
fi

# 3. Invariants on every frame, written and committed.
"$CHECK" "$SCENE" out --self-test >check.txt 2>&1
rc=$?
cat check.txt
[ $rc -eq 0 ] && pass "every written frame is inversion- and intersection-free; corruptions caught" ||
    fail "invariant check of the written frames: exit $rc"
if [ -f "$REF/frames.pvd" ]; then
    "$CHECK" "$SCENE" "$REF" >check_ref.txt 2>&1 && pass "every reference frame passes the invariants" ||
        { fail "invariant check of the reference frames"; cat check_ref.txt; }
fi

# 4. A tet inverted on disk: swap the first two vertices of the first tet in the
# last frame, locating the bytes from the file's own header (not the reader).
# The frames are zlib-compressed (output.compress): that frame is first
# rewritten raw (zlib_frames.py --raw, Python's zlib), so the folder mixes
# both kinds, which the readers take.
last=$(ls out/frame_*.vtu | tail -1)
frame=$(basename "$last" .vtu)
frame=$(expr "${frame#frame_}" + 0)
cp -r out bad
f=bad/$(basename "$last")
grep -aq vtkZLibDataCompressor "$f" && pass "the frames are zlib-compressed" || fail "the frames are not compressed"
python3 "$ZLIB_FRAMES" --raw "$last" "$f" || fail "zlib_frames.py --raw $last"
# The raw appended data start right after the '_' that follows <AppendedData>.
line=$(LC_ALL=C grep -abo -m1 '^ *_' "$f" | head -1)
match=${line#*:}
base=$((${line%%:*} + ${#match}))
hb=8
LC_ALL=C grep -aq 'header_type="UInt32"' "$f" && hb=4
offset_of() { LC_ALL=C grep -a "Name=\"$1\"" "$f" | head -1 | sed 's/.*offset="\([0-9]*\)".*/\1/'; }
points=$((base + $(offset_of Points) + hb))
conn=$((base + $(offset_of connectivity) + hb))
set -- $(od -An -v -t d8 -j "$conn" -N 16 "$f")
a=$1 b=$2
dd if="$f" of=va bs=1 skip=$((points + 24 * a)) count=24 2>/dev/null
dd if="$f" of=vb bs=1 skip=$((points + 24 * b)) count=24 2>/dev/null
dd if=vb of="$f" bs=1 seek=$((points + 24 * a)) conv=notrunc 2>/dev/null
dd if=va of="$f" bs=1 seek=$((points + 24 * b)) conv=notrunc 2>/dev/null
"$CHECK" "$SCENE" bad >bad.txt 2>&1
rc=$?
if [ $rc -ne 1 ] || ! grep -q "frame $frame .*tet 0 (vertices $a $b .*inverted" bad.txt; then
    fail "a tet inverted on disk: checker exit $rc"
    cat bad.txt
else
    pass "a tet inverted on disk is caught in frame $frame"
fi
"$IPCC" compare out bad >bad_compare.txt 2>&1
rc=$?
[ $rc -eq 5 ] && grep -q "^first frame over tolerance: $frame (bodies, vertex " bad_compare.txt &&
    pass "ipcc compare reports the swapped vertices in frame $frame (exit 5)" ||
    { fail "ipcc compare of the swapped frame: exit $rc"; cat bad_compare.txt; }

[ $failures -eq 0 ] && echo "all passed" || echo "$failures FAILED"
[ $failures -eq 0 ]
