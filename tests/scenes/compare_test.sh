#!/bin/sh
# Tests of `ipcc compare` on copies of the committed reference outputs:
# identical folders, a coordinate edited in a .vtu's binary (the frame and
# vertex named, the tolerance boundary), NaN, missing frames, different
# times and vertex counts, truncated / corrupt / garbage files (exit 1 with
# a message naming the file, never a crash), zlib-compressed copies (and
# corrupt ones), hand-written files with UInt32
# headers, Float32 points and big-endian data, and bad usage.
# The byte positions edited here come from each file's own XML header
# (grep/od/dd), not from ipcc's reader.
#   usage: compare_test.sh IPCC_BINARY REFERENCE_DIR WORK_DIR
set -u
IPCC=$1
REFS=$2
WORK=$3
ZLIB_FRAMES=$(cd "$(dirname "$0")" && pwd)/zlib_frames.py
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK" || exit 1
export LC_ALL=C
# A sanitizer report must never pass for the expected exit code 1.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99"
failures=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failures=$((failures + 1)); }

# expect CODE PATTERN DESCRIPTION -- ARGS: run ipcc compare ARGS, check the
# exit code and that stdout + stderr contain PATTERN (a grep regex).
expect() {
    code=$1 pattern=$2 what=$3
    shift 4
    "$IPCC" compare "$@" >out.txt 2>&1
    rc=$?
    if grep -q -e 'Sanitizer' -e 'runtime error' out.txt; then
        fail "$what: sanitizer report"; cat out.txt
    elif [ "$rc" -ne "$code" ]; then
        fail "$what: exit $rc, expected $code"; cat out.txt
    elif [ -n "$pattern" ] && ! grep -q -- "$pattern" out.txt; then
        fail "$what: output lacks '$pattern'"; cat out.txt
    else
        pass "$what"
    fi
}
# also PATTERN DESCRIPTION: one more check of the last expect's output.
also() {
    grep -q -- "$1" out.txt && pass "$2" || { fail "$2: output lacks '$1'"; cat out.txt; }
}

# Byte position of the first Points value of a .vtu/.vtp: the byte after the
# '_' opening the appended data, + the Points offset, + the block header.
points_at() {
    line=$(grep -abo -m1 '^ *_' "$1" | head -1)
    match=${line#*:}
    hb=8
    grep -aq 'header_type="UInt32"' "$1" && hb=4
    off=$(grep -a 'Name="Points"' "$1" | head -1 | sed 's/.*offset="\([0-9]*\)".*/\1/')
    echo $((${line%%:*} + ${#match} + off + hb))
}
# Position of byte K (0 = least significant) of double D (0-based, x y z ...) in the Points.
double_byte_at() {
    k=$3
    grep -aq 'byte_order="BigEndian"' "$1" && k=$((7 - $3))
    echo $(($(points_at "$1") + 8 * $2 + k))
}
get_byte() { od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' '; }
set_byte() { printf "\\$(printf %03o "$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }
# flip_bit FILE DOUBLE BYTE BIT: flip one bit of one coordinate.
flip_bit() {
    p=$(double_byte_at "$1" "$2" "$3")
    set_byte "$1" "$p" $(($(get_byte "$1" "$p") ^ (1 << $4)))
}
# set_nan FILE DOUBLE: a quiet NaN (exponent all ones, top mantissa bit).
set_nan() {
    for k in 0 1 2 3 4 5; do set_byte "$1" "$(double_byte_at "$1" "$2" $k)" 0; done
    set_byte "$1" "$(double_byte_at "$1" "$2" 6)" 248
    set_byte "$1" "$(double_byte_at "$1" "$2" 7)" 127
}
# fresh REF DIR: a raw copy of reference REF (the references may be
# zlib-compressed, ipcc's default; the edits below work on raw data).
fresh() { rm -rf "$2" && python3 "$ZLIB_FRAMES" --raw "$REFS/$1" "$2"; }

A=cubes_ground # bodies and obstacles (a half-space)
B=twist_press  # bodies only, a different vertex count
fresh $A a
fresh $A same

# --- identical ---------------------------------------------------------------
expect 0 "^result: same within tolerance" "identical folders: exit 0" -- a same
also "bodies: max |x_A - x_B| / L = 0 (identical positions)" "identical: max 0 reported"
also "obstacles: max |x_A - x_B| / L = 0" "identical: obstacles compared"
also "^first frame over tolerance: none" "identical: no frame over tolerance"
also "length_scale field of a/frame_000000.vtu\|bounding-box diagonal of a/frame_000000.vtu" \
    "L is taken from A's frame 0"
expect 0 "^first frame over tolerance: none" "a folder against itself" -- a a
"$IPCC" compare a same >table.txt 2>&1
[ "$(grep -c '^ *[0-9][0-9]* ' table.txt)" -eq "$(ls a/frame_*.vtu | wc -l)" ] && pass "one table row per frame" ||
    { fail "table rows"; cat table.txt; }
"$IPCC" compare a same -q >quiet.txt 2>&1
! grep -q '^frame ' quiet.txt && grep -q '^result:' quiet.txt && pass "-q prints the summary only" ||
    { fail "-q"; cat quiet.txt; }
expect 0 "^L = 2 m (--length)" "--length sets L" -- a same --length 2

# --- one coordinate edited in frame 3, vertex 5 (y) --------------------------
fresh $A big
flip_bit big/frame_000003.vtu $((3 * 5 + 1)) 5 7 # mantissa bit 47: a relative change of 2^-6 to 2^-5
expect 5 "^first frame over tolerance: 3 (bodies, vertex 5:" "perturbed vertex: exit 5 naming frame 3, vertex 5" \
    -- a big
also "bodies: max |x_A - x_B| / L = .* at frame 3, vertex 5$" "perturbed vertex: the max is at frame 3, vertex 5"
also "^ *3 .*  \*$" "perturbed vertex: frame 3's row is marked"
expect 5 "the outputs DIFFER" "perturbed vertex: the other way round" -- big a

# The tolerance boundary: max <= tol passes, anything below the max fails.
max=$("$IPCC" compare a big | sed -n 's/^bodies: max |x_A - x_B| \/ L = \([^ ]*\) at.*/\1/p')
below=$(awk -v m="$max" 'BEGIN { printf "%.17g", m * (1 - 1e-9) }')
above=$(awk -v m="$max" 'BEGIN { printf "%.17g", m * (1 + 1e-9) }')
expect 0 "same within tolerance" "--tol = the max ($max): exit 0" -- a big --tol "$max"
expect 0 "same within tolerance" "--tol just above the max: exit 0" -- a big --tol "$above"
expect 5 "first frame over tolerance: 3" "--tol just below the max: exit 5" -- a big --tol "$below"

# A change in the last bit: within the default tolerance, not at --tol 0.
fresh $A tiny
flip_bit tiny/frame_000002.vtu $((3 * 7)) 0 0
expect 0 "same within tolerance" "last-bit change: within 1e-6" -- a tiny
expect 5 "first frame over tolerance: 2 (bodies, vertex 7:" "last-bit change: caught at --tol 0" -- a tiny --tol 0

# An obstacle point edited: reported for the obstacles.
fresh $A obst
flip_bit obst/obstacles_000004.vtp $((3 * 2)) 6 3
expect 5 "first frame over tolerance: 4 (obstacles, vertex 2:" "perturbed obstacle point: frame 4, vertex 2" -- a obst

# NaN is a difference, even against NaN.
fresh $A nan
set_nan nan/frame_000001.vtu $((3 * 4 + 2))
expect 5 "first frame over tolerance: 1 (bodies, vertex 4: nan" "NaN coordinate: exit 5" -- a nan
expect 5 "first frame over tolerance: 1" "NaN against NaN: exit 5" -- nan nan

# --- structure -----------------------------------------------------------------
fresh $A short
last=$(ls short/frame_*.vtu | tail -1)
lastname=$(basename "$last")
lastobst=$(echo "$lastname" | sed 's/frame_\(.*\)\.vtu/obstacles_\1.vtp/')
grep -v -e "$lastname" -e "$lastobst" short/frames.pvd >short/frames.tmp && mv short/frames.tmp short/frames.pvd
rm "$last" "short/$lastobst"
expect 5 "^differs: frame counts: A has 6 frames, B has 5" "missing last frame: exit 5" -- a short
expect 5 "frame counts" "missing last frame, the other way round" -- short a

fresh $A times
t2=$(sed -n 's/.*timestep="\([^"]*\)".*part="0".*/\1/p' a/frames.pvd | sed -n 3p)
sed "s/timestep=\"$t2\"/timestep=\"0.11\"/" a/frames.pvd >times/frames.pvd
expect 5 "^differs: frame times in 1 frames (first: frame 2" "different frame time: exit 5" -- a times

expect 5 "^differs: bodies point counts in" "different vertex counts: exit 5" -- a "$REFS/$B"
also "^differs: only A has obstacles" "obstacles only in A: exit 5"

# --- unreadable input: exit 1, the file named -----------------------------------
expect 1 "cannot open folder 'nowhere'" "missing folder" -- a nowhere
: >plain
expect 1 "'plain' is not a folder" "not a folder" -- plain a
expect 1 "'plain' is not a folder" "not a folder (B)" -- a plain
mkdir -p empty
expect 1 "'empty' has no frames.pvd" "folder without frames.pvd" -- a empty

fresh $A gone
rm gone/frame_000002.vtu
expect 1 "gone/frame_000002.vtu: cannot open: No such file or directory" "a listed frame is missing" -- a gone
mkdir gone/frame_000002.vtu
expect 1 "gone/frame_000002.vtu: read error: Is a directory" "a listed frame is a folder" -- a gone

fresh $A trunc
head -c 3000 a/frame_000003.vtu >trunc/frame_000003.vtu
expect 1 "'trunc/frame_000003.vtu'.*truncated" "truncated .vtu" -- a trunc

fresh $A garbage
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "%c", (i * 7919) % 251 + 1 }' >garbage/frame_000001.vtu
expect 1 "'garbage/frame_000001.vtu'" "garbage .vtu" -- a garbage
printf '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid"><Piece NumberOfPoints="3">\n</VTKFile>\n' \
    >garbage/frame_000001.vtu
expect 1 "'garbage/frame_000001.vtu' has no <Points> DataArray" "a .vtu without Points" -- a garbage

fresh $A offset
sed 's/\(Name="Points" NumberOfComponents="3" format="appended" offset="\)[0-9]*/\199999999999/' \
    a/frame_000001.vtu >offset/frame_000001.vtu
expect 1 "'offset/frame_000001.vtu': Points: offset 99999999999 is past the end" "Points offset past the end" \
    -- a offset
sed 's/NumberOfPoints="\([0-9]*\)"/NumberOfPoints="1\1"/' a/frame_000001.vtu >offset/frame_000001.vtu
expect 1 "'offset/frame_000001.vtu': Points: the block has" "NumberOfPoints larger than the block" -- a offset
sed 's/NumberOfPoints="\([0-9]*\)"/NumberOfPoints="99999999999999999999"/' a/frame_000001.vtu >offset/frame_000001.vtu
expect 1 "NumberOfPoints \"99999999999999999999\" is not" "NumberOfPoints out of range" -- a offset
cp a/frame_000001.vtu offset/frame_000001.vtu
h=$(($(points_at a/frame_000001.vtu) - 2)) # the block header's second most significant byte (little-endian)
grep -aq 'byte_order="BigEndian"' a/frame_000001.vtu && h=$((h - 5))
set_byte offset/frame_000001.vtu "$h" 255
expect 1 "'offset/frame_000001.vtu': Points: its block at offset .* claims" "a block header claiming too much" -- a offset
sed 's/header_type="UInt64"/header_type="UInt16"/' a/frame_000001.vtu >offset/frame_000001.vtu
expect 1 "header_type \"UInt16\"" "unknown header type" -- a offset
sed 's/encoding="raw"/encoding="base64"/' a/frame_000001.vtu >offset/frame_000001.vtu
expect 1 "only raw is supported" "base64 appended data refused" -- a offset
sed 's/\(Name="Points" NumberOfComponents="\)3/\12/' a/frame_000001.vtu >offset/frame_000001.vtu
expect 1 "Points have 2 components" "two-component Points refused" -- a offset

fresh $A pvd
printf '<?xml version="1.0"?>\n<VTKFile type="Collection">\n<Collection>\n<DataSet timestep="nan" part="0" file="frame_000000.vtu"/>\n</Collection>\n</VTKFile>\n' \
    >pvd/frames.pvd
expect 1 "'pvd/frames.pvd', line 4: <DataSet>: timestep \"nan\"" "non-finite timestep in frames.pvd" -- a pvd
printf '<?xml version="1.0"?>\n<VTKFile type="Collection">\n<Collection>\n<DataSet timestep="0" part="0" file="frame_000000.vtu' \
    >pvd/frames.pvd
expect 1 "'pvd/frames.pvd', line 4: unterminated tag" "truncated frames.pvd" -- a pvd
printf '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid">\n</VTKFile>\n' >pvd/frames.pvd
expect 1 "is a VTK UnstructuredGrid file, not a Collection" "frames.pvd of the wrong type" -- a pvd

fresh $A entity
sed 's/file="frame_000000.vtu"/file="frame\&#95;000000\&#x2e;vtu"/' a/frames.pvd >entity/frames.pvd
expect 0 "same within tolerance" "character references in frames.pvd file names are decoded" -- a entity/

# Every truncation of a frame, and every splice of its start up to the end of
# the Points with its last 40 bytes (so the bounds checks, not the missing
# </VTKFile>, must catch it): exit 1.
fresh $A cut
f=a/frame_000004.vtu
size=$(wc -c <"$f")
points_end=$(($(points_at "$f") + 24 * $(sed -n 's/.*NumberOfPoints="\([0-9]*\)".*/\1/p' "$f" | head -1)))
bad=0
n=0
# (Up to s - 2: dropping only the final newline leaves a complete file.)
for len in $(awk -v s="$size" 'BEGIN { for (l = 0; l < s - 2; l += 2003) print l; print s - 2 }'); do
    head -c "$len" "$f" >cut/frame_000004.vtu
    "$IPCC" compare a cut >cut.txt 2>&1
    rc=$?
    n=$((n + 1))
    if [ $rc -ne 1 ] || grep -q -e Sanitizer -e 'runtime error' cut.txt; then
        bad=$((bad + 1)); echo "truncated to $len bytes: exit $rc"; cat cut.txt
    fi
    [ "$len" -lt "$points_end" ] || continue
    { head -c "$len" "$f"; tail -c 40 "$f"; } >cut/frame_000004.vtu
    "$IPCC" compare a cut >cut.txt 2>&1
    rc=$?
    n=$((n + 1))
    if [ $rc -ne 1 ] || grep -q -e Sanitizer -e 'runtime error' cut.txt; then
        bad=$((bad + 1)); echo "cut to $len bytes + the last 40: exit $rc"; cat cut.txt
    fi
done
[ $bad -eq 0 ] && pass "$n truncated or spliced copies of a frame: all exit 1 with a message" ||
    fail "$bad of $n truncated or spliced frames"

# --- compressed copies (vtkZLibDataCompressor, what ipcc writes by default) ---
# zlib_frames.py rewrites the raw references with Python's zlib, 1000-byte
# blocks (several per array): they compare identical to the raw ones, and a
# corrupt stream, a header claiming too much, a truncation or another
# compressor is an error naming the file, never a crash.
if command -v python3 >/dev/null 2>&1 && python3 "$ZLIB_FRAMES" a zip; then
    expect 0 "identical positions" "a zlib-compressed copy compares identical to the raw output" -- a zip --tol 0
    expect 0 "identical positions" "and the other way round" -- zip a --tol 0
    # edit_zip FILE WHAT: WHAT = stream (flip a byte of the Points' first zlib
    # stream), blocks (claim 2^40 blocks), lz4 (another compressor).
    edit_zip() {
        python3 - "$1" "$2" <<'PY'
import re, struct, sys
path, what = sys.argv[1], sys.argv[2]
d = bytearray(open(path, "rb").read())
if what == "lz4":
    d = d.replace(b"vtkZLibDataCompressor", b"vtkLZ4DataCompressor", 1)
else:
    base = d.index(b"_", d.index(b"<AppendedData")) + 1
    off = int(re.search(rb'Name="Points"[^>]*offset="(\d+)"', d).group(1))
    h = base + off
    nb = struct.unpack_from("<Q", d, h)[0]
    if what == "blocks":
        struct.pack_into("<Q", d, h, 1 << 40)
    else:
        d[h + 8 * (3 + nb) + 10] ^= 0x55
open(path, "wb").write(bytes(d))
PY
    }
    rm -rf zbad && cp -r zip zbad
    edit_zip zbad/frame_000002.vtu stream
    expect 1 "'zbad/frame_000002.vtu': Points: compressed block 0 of .* does not inflate" \
        "a corrupt zlib stream" -- a zbad
    cp zip/frame_000002.vtu zbad/frame_000002.vtu
    edit_zip zbad/frame_000002.vtu blocks
    expect 1 "'zbad/frame_000002.vtu': Points: 1099511627776 compressed blocks .* do not fit" \
        "a compression header claiming 2^40 blocks" -- a zbad
    cp zip/frame_000002.vtu zbad/frame_000002.vtu
    edit_zip zbad/frame_000002.vtu lz4
    expect 1 "only vtkZLibDataCompressor (zlib) is supported" "another compressor refused" -- a zbad
    cp zip/frame_000002.vtu zbad/frame_000002.vtu
    f=zip/frame_000004.vtu
    size=$(wc -c <"$f")
    bad=0
    n=0
    for len in $(awk -v s="$size" 'BEGIN { for (l = 0; l < s - 2; l += 211) print l; print s - 2 }'); do
        for splice in 0 1; do
            if [ $splice -eq 0 ]; then head -c "$len" "$f"; else { head -c "$len" "$f"; tail -c 40 "$f"; }; fi \
                >zbad/frame_000004.vtu
            "$IPCC" compare a zbad >cut.txt 2>&1
            rc=$?
            n=$((n + 1))
            # A splice may keep every block the reader needs intact: exit 0 is then right.
            if [ $rc -gt 1 ] || { [ $rc -eq 0 ] && [ $splice -eq 0 ]; } || grep -q -e Sanitizer -e 'runtime error' cut.txt; then
                bad=$((bad + 1)); echo "compressed frame cut to $len bytes (splice $splice): exit $rc"; cat cut.txt
            fi
        done
    done
    [ $bad -eq 0 ] && pass "$n truncated or spliced compressed frames: errors, never a crash" ||
        fail "$bad of $n truncated or spliced compressed frames"
else
    echo "skip: python3 cannot write the compressed copies"
fi

# --- hand-written files: UInt32 headers, Float32, big-endian -------------------
# One frame of two points, (1, 2, 3) and (0.5, 0, -1), written three ways.
mkdir -p f64le f32le f64be f64le_moved
pvd() {
    printf '<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1">\n  <Collection>\n    <DataSet timestep="0" group="" part="0" file="frame.vtu"/>\n  </Collection>\n</VTKFile>\n' >"$1/frames.pvd"
}
vtu() { # DIR HEADER_TYPE BYTE_ORDER TYPE DATA(printf escapes)
    {
        printf '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="%s" header_type="%s">\n' "$3" "$2"
        printf '  <UnstructuredGrid>\n    <Piece NumberOfPoints="2" NumberOfCells="0">\n      <Points>\n'
        printf '        <DataArray type="%s" Name="Points" NumberOfComponents="3" format="appended" offset="0"/>\n' "$4"
        printf '      </Points>\n    </Piece>\n  </UnstructuredGrid>\n  <AppendedData encoding="raw">\n   _'
        printf "$5"
        printf '\n  </AppendedData>\n</VTKFile>\n'
    } >"$1/frame.vtu"
    pvd "$1"
}
# Float64 1, 2, 3, 0.5, 0, -1 little-endian, after a UInt64 byte count of 48.
vtu f64le UInt64 LittleEndian Float64 '\060\0\0\0\0\0\0\0\0\0\0\0\0\0\360\077\0\0\0\0\0\0\0\100\0\0\0\0\0\0\010\100\0\0\0\0\0\0\340\077\0\0\0\0\0\0\0\0\0\0\0\0\0\0\360\277'
# Float32 after a UInt32 byte count of 24.
vtu f32le UInt32 LittleEndian Float32 '\030\0\0\0\0\0\200\077\0\0\0\100\0\0\100\100\0\0\0\077\0\0\0\0\0\0\200\277'
# Float64 big-endian after a big-endian UInt64 count.
vtu f64be UInt64 BigEndian Float64 '\0\0\0\0\0\0\0\060\077\360\0\0\0\0\0\0\100\0\0\0\0\0\0\0\100\010\0\0\0\0\0\0\077\340\0\0\0\0\0\0\0\0\0\0\0\0\0\0\277\360\0\0\0\0\0\0'
# As f64le with the second point's z = -1.5 (|dx| = 0.5).
vtu f64le_moved UInt64 LittleEndian Float64 '\060\0\0\0\0\0\0\0\0\0\0\0\0\0\360\077\0\0\0\0\0\0\0\100\0\0\0\0\0\0\010\100\0\0\0\0\0\0\340\077\0\0\0\0\0\0\0\0\0\0\0\0\0\0\370\277'
expect 0 "bodies: max |x_A - x_B| / L = 0 (identical" "Float64 LE vs Float32 with UInt32 headers" -- f64le f32le
expect 0 "bodies: max |x_A - x_B| / L = 0 (identical" "Float64 LE vs big-endian" -- f64le f64be
# L = the box diagonal of (1, 2, 3) and (0.5, 0, -1): sqrt(0.25 + 4 + 16) = 4.5.
expect 5 "bodies: max |x_A - x_B| / L = 0.1111111111111111 at frame 0, vertex 1" "hand-written: |dx| / L = 0.5 / 4.5" \
    -- f64le f64le_moved
also "^L = 4.5 m (the bounding-box diagonal of f64le/frame.vtu)" "L from the bounding box without length_scale"
expect 0 "max |x_A - x_B| / L = 0.25 at frame 0, vertex 1" "--length 2 and --tol 0.25: exit 0" \
    -- f64le f64le_moved --length 2 --tol 0.25

# --- usage --------------------------------------------------------------------------
expect 0 "usage: ipcc compare" "--help" -- --help
expect 1 "needs two output folders" "no folders" --
expect 1 "needs two output folders" "one folder" -- a
expect 1 "unexpected argument 'x'" "three folders" -- a a x
expect 1 "unknown option '--tolerance'" "unknown option" -- a a --tolerance 1
expect 1 "--tol needs a finite number >= 0" "--tol -1" -- a a --tol -1
expect 1 "--tol needs a finite number >= 0" "--tol abc" -- a a --tol abc
expect 1 "--tol needs a finite number >= 0" "--tol without a value" -- a a --tol
expect 1 "--length needs a finite number > 0" "--length 0" -- a a --length 0

[ $failures -eq 0 ] && echo "all passed" || echo "$failures FAILED"
[ $failures -eq 0 ]
