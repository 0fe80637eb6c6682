#!/bin/sh
# install_tree: `cmake --install` into a scratch prefix, then examples/c_api
# built against that prefix the three ways a user would, and run.
#
#   install_test.sh BUILD_DIR SOURCE_DIR WORK_DIR LIBDIR INCLUDEDIR BINDIR SANITIZE CMAKE CC GENERATOR CONFIG
#
# 1. Installs BUILD_DIR into WORK_DIR/prefix and checks the files (libraries,
#    every header of include/ipcc/, bin/ipcc, the CMake package, ipcc.pc),
#    that no installed CMake or pkg-config file names a path of this tree,
#    and that the installed `ipcc --version` runs.
# 2. Moves the prefix (the package must be relocatable), then builds
#    examples/c_api with find_package(ipcc) (shared, then static) and with
#    its pkg-config Makefile, and runs each on a free-falling cube: implicit
#    Euler makes free fall exact (v_n = -n h g, y_n = y_0 - h^2 g n(n+1)/2),
#    so the program's centre-of-mass report is checked to 1e-9.
# 3. Compiles the C snippets of docs/c-api.md against the installed headers.
# A sanitized build (IPCC_SANITIZE=ON) installs an ASan/UBSan library; the
# CMake builds rely on the package's recorded -fsanitize link option, the
# pkg-config build also compiles the program itself with the sanitizers.
set -eu
[ $# -eq 11 ] || { echo "usage: $0 BUILD SRC WORK LIBDIR INCLUDEDIR BINDIR SANITIZE CMAKE CC GENERATOR CONFIG" >&2; exit 2; }
build=$1 src=$2 work=$3 libdir=$4 includedir=$5 bindir=$6 sanitize=$7 cmake=$8 cc=$9
shift 9
generator=$1 config=$2

fail() {
    echo "install_tree: FAIL: $*" >&2
    exit 1
}
# Run a command with its output in a log; print the log if it fails.
logged() {
    log=$1
    shift
    "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$* (log: $log)"; }
}

rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

# 1. Install and check the tree.
logged "$work/install.log" "$cmake" --install "$build" --prefix "$prefix" --config "$config"
for f in "$libdir/libipcc.a" "$libdir/libipcc.so" "$libdir/libipcc.so.0" "$bindir/ipcc" \
    "$libdir/cmake/ipcc/ipccConfig.cmake" "$libdir/cmake/ipcc/ipccConfigVersion.cmake" \
    "$libdir/cmake/ipcc/ipccTargets.cmake" "$libdir/cmake/ipcc/ipccStaticTargets.cmake" \
    "$libdir/pkgconfig/ipcc.pc"; do
    [ -f "$prefix/$f" ] || fail "not installed: $f"
done
for h in "$src"/include/ipcc/*.h; do
    [ -f "$prefix/$includedir/ipcc/${h##*/}" ] || fail "header not installed: ${h##*/}"
done
[ -x "$prefix/$bindir/ipcc" ] || fail "$bindir/ipcc is not executable"
if grep -rlF -e "$src" -e "$build" "$prefix/$libdir/cmake" "$prefix/$libdir/pkgconfig"; then
    fail "installed package files name a path of the source or build tree (above)"
fi
version=$("$prefix/$bindir/ipcc" --version) || fail "installed ipcc --version failed"
case $version in
"ipcc "[0-9]*) echo "installed: $version" ;;
*) fail "ipcc --version printed '$version'" ;;
esac

# 2. Relocate, then build the example against the moved prefix.
mv "$prefix" "$work/moved"
prefix=$work/moved

cat >"$work/fall.json" <<'EOF'
{"time_step": 0.01, "duration": 0.1, "gravity": [0, -9.81, 0],
 "bodies": [{"name": "cube", "mesh": {"box": {"size": [0.1, 0.1, 0.1], "cells": [2, 2, 2]}}, "material": {}}],
 "output": {"fps": 50}}
EOF

# check_run NAME PROGRAM: runs it on fall.json, checks the report and the output files.
check_run() {
    out=$work/out-$1
    "$2" "$work/fall.json" -o "$out" >"$work/$1.txt" 2>&1 || {
        rc=$?
        cat "$work/$1.txt" >&2
        fail "$1: exit status $rc"
    }
    grep -q "^done: 10 steps, t = 0.1 s, 0 not converged, 6 frames" "$work/$1.txt" ||
        { cat "$work/$1.txt" >&2; fail "$1: wrong summary"; }
    # body cube: 27 vertices, 1 kg, centre of mass X Y Z m, velocity VX VY VZ m/s
    awk '/^body cube:/ {
            for (i = 1; i <= NF; i++) { if ($i == "mass") c = i; if ($i == "velocity") v = i }
            y = $(c + 2); vy = $(v + 2)
            ey = y - (0.05 - 0.01 * 0.01 * 9.81 * 55); evy = vy + 0.981
            if (ey < 0) ey = -ey; if (evy < 0) evy = -evy
            found = 1; ok = ey < 1e-9 && evy < 1e-9 && $(v + 1) * $(v + 1) + $(v + 3) * $(v + 3) < 1e-18
         }
         END { exit !(found && ok) }' "$work/$1.txt" || { cat "$work/$1.txt" >&2; fail "$1: not free fall"; }
    for f in frames.pvd stats.csv frame_000005.vtu; do
        [ -s "$out/$f" ] || fail "$1: no $f in $out"
    done
    echo "$1: ok ($(grep '^body cube' "$work/$1.txt"))"
}

for kind in shared static; do
    static=OFF
    [ $kind = static ] && static=ON
    logged "$work/cmake-$kind-configure.log" "$cmake" -S "$src/examples/c_api" -B "$work/cmake-$kind" \
        -G "$generator" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$prefix" -DIPCC_C_API_STATIC=$static
    logged "$work/cmake-$kind-build.log" "$cmake" --build "$work/cmake-$kind"
    check_run "cmake-$kind" "$work/cmake-$kind/simulate"
done

cflags="-O1 -g -Wall -Wextra -Wpedantic -Werror"
case $sanitize in
1 | ON | TRUE | true | on) cflags="$cflags -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" ;;
esac
mkdir -p "$work/pkg-config"
PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
export PKG_CONFIG_PATH
pkg-config --static --libs ipcc | grep -q -e "-lcholmod" || fail "pkg-config --static --libs ipcc lacks -lcholmod"
logged "$work/pkg-config-build.log" make -C "$work/pkg-config" -f "$src/examples/c_api/Makefile" \
    VPATH="$src/examples/c_api" CC="$cc" CFLAGS="$cflags"
check_run pkg-config "$work/pkg-config/simulate"

# 3. docs/c-api.md: every C block compiles against the installed headers
#    (those after a `<!-- tutorial -->` line form one program, which must
#    also link against the installed library).
snippets=$work/snippets
mkdir -p "$snippets"
awk -v dir="$snippets" '/^<!-- tutorial -->$/ { t = 1 }
    /^```c$/ { n++; f = t ? dir "/tutorial.c" : dir "/snippet" n ".c"; t = 0; next }
    /^```$/ { f = ""; next }
    f { print > f }' "$src/docs/c-api.md"
[ -f "$snippets/tutorial.c" ] || fail "docs/c-api.md: no tutorial blocks found"
# $cflags and pkg-config's output are lists of flags: split on purpose.
# shellcheck disable=SC2046,SC2086
{
    blocks=0
    for f in "$snippets"/*.c; do
        logged "$f.log" "$cc" -std=c11 $cflags -fsyntax-only -I"$prefix/$includedir" "$f"
        blocks=$((blocks + 1))
    done
    logged "$snippets/link.log" "$cc" -std=c11 $cflags $(pkg-config --cflags ipcc) "$snippets/tutorial.c" \
        -o "$snippets/tutorial" $(pkg-config --libs ipcc) -lm
}
echo "docs/c-api.md: $blocks C blocks compile, the tutorial links"
echo "install_tree: ok"
