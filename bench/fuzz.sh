#!/bin/sh
# libFuzzer runs of the file readers: the harnesses tests/fuzz/fuzz_<target>.c
# (msh: Gmsh .msh; tetgen: TetGen .node/.ele; obj: .obj, .seg and point
# files; json: JSON scenes; ipc: the original IPC's .txt scene scripts)
# built with clang, libFuzzer, ASan and UBSan together with the library
# sources, each run for SECONDS, one after the other, each in one process
# (no -jobs/-workers: the machine is shared).
#
#   bench/fuzz.sh [--merge] [SECONDS] [TARGET...]     (from anywhere in the repository)
#     SECONDS   per target (default 60)
#     TARGET    msh, tetgen, obj, json, ipc (default: all five)
#     --merge   afterwards, add to tests/fuzz/corpus/<target> the inputs of
#               the scratch corpus that reach code edges the committed ones
#               miss (libFuzzer -merge=1 -use_counters=0; named by their
#               SHA-1). With FUZZ_MERGE_FRESH=1 the SHA-1-named files are
#               chosen again from scratch (fewest inputs for all edges);
#               named files (real and hand-written seeds, regress-* inputs
#               that once failed) are always kept
#
#   bench/fuzz.sh 600 json      ten minutes of the scene parser
#   bench/fuzz.sh 0             build only
#   bench/fuzz.sh --merge 0     add what the scratch corpora reach beyond the committed ones
#
# Environment: CC (default clang), BUILD_DIR (default build-fuzz), FUZZ_MERGE_FRESH,
# FUZZ_TIMEOUT (seconds per input before it is a finding, default 10),
# FUZZ_RSS_MB (memory limit, default 2048), FUZZ_JOBS (compile jobs,
# default 2), FUZZ_FLAGS (more libFuzzer flags, e.g. -seed=1).
#
# Layout under BUILD_DIR: obj/ (the library, instrumented), fuzz_<target>
# (the fuzzers), corpus/<target>/ (the scratch corpus, kept between runs:
# new inputs go there; the committed seeds tests/fuzz/corpus/<target> are
# only read), findings/<target>/ (crash-*, leak-*, timeout-*, oom-*), and
# logs/<target>.log. Scratch files the harnesses write go to a folder under
# /dev/shm that is removed at the end.
#
# A finding is fixed in the library, its input copied to
# tests/fuzz/corpus/<target>/regress-<what> (the ctest fuzz_replay_<target>
# replays every committed input), and the target run again. A finding
# replays alone with: BUILD_DIR/fuzz_<target> FILE.
#
# Prints per target the executions, exec/s, final coverage (cov: edges,
# ft: features, corp: inputs/bytes) and the findings. Exit status: 0 when
# every target ran clean, 1 when any found something, 2 on bad usage or a
# failed build.
set -eu
cd "$(dirname "$0")/.."
ROOT=$(pwd)

merge=0
if [ "${1:-}" = --merge ]; then
    merge=1
    shift
fi
SECONDS_PER_TARGET=${1:-60}
case $SECONDS_PER_TARGET in
'' | *[!0-9]*)
    echo "usage: bench/fuzz.sh [--merge] [SECONDS] [TARGET...]" >&2
    exit 2
    ;;
esac
[ $# -gt 0 ] && shift
TARGETS=${*:-msh tetgen obj json ipc}
for t in $TARGETS; do
    case $t in
    msh | tetgen | obj | json | ipc) ;;
    *)
        echo "fuzz.sh: unknown target '$t' (msh, tetgen, obj, json, ipc)" >&2
        exit 2
        ;;
    esac
done

CC=${CC:-clang}
BUILD=${BUILD_DIR:-build-fuzz}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
JOBS=${FUZZ_JOBS:-2}
mkdir -p "$BUILD/obj" "$BUILD/logs"

# ---------------------------------------------------------------------------
# Build: every src/*.c once into obj/ (again when it, a header or the flags
# change), then one fuzzer per target.

DEPS="libcjson lapacke openblas" # word-split on purpose below
# shellcheck disable=SC2086
pkg-config --exists $DEPS || {
    echo "fuzz.sh: pkg-config cannot find $DEPS" >&2
    exit 2
}
CHOLMOD_INC=/usr/include/suitesparse
[ -f $CHOLMOD_INC/cholmod.h ] || CHOLMOD_INC=/usr/include
SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# shellcheck disable=SC2086
CFLAGS="-g -O1 $SAN -std=c11 -fopenmp -D_POSIX_C_SOURCE=200809L -Wall -Wextra \
-I$ROOT/include -I$ROOT/src -I$CHOLMOD_INC $(pkg-config --cflags $DEPS)"
# shellcheck disable=SC2086
LIBS="$(pkg-config --libs $DEPS) -lcholmod -lsuitesparseconfig -fopenmp -lm"

flags_file=$BUILD/obj/flags
if [ ! -f "$flags_file" ] || [ "$(cat "$flags_file")" != "$CC $CFLAGS" ]; then
    rm -f "$BUILD"/obj/*.o
    printf '%s\n' "$CC $CFLAGS" >"$flags_file"
fi
stale=
for src in "$ROOT"/src/*.c; do
    obj=$BUILD/obj/$(basename "$src" .c).o
    if [ ! -f "$obj" ] ||
        [ -n "$(find "$src" "$ROOT"/src/*.h "$ROOT"/include/ipcc/*.h -newer "$obj" | head -1)" ]; then
        stale="$stale $src"
    fi
done
if [ -n "$stale" ]; then
    # shellcheck disable=SC2086
    echo "fuzz.sh: compiling $(echo $stale | wc -w) library sources with $CC ($($CC --version | head -1))"
    export CC CFLAGS BUILD
    # shellcheck disable=SC2016,SC2086
    printf '%s\n' $stale | xargs -P "$JOBS" -I{} sh -c \
        '$CC $CFLAGS -c "$1" -o "$BUILD/obj/$(basename "$1" .c).o" 2>>"$BUILD/logs/build.log"' sh {} || {
        echo "fuzz.sh: build failed, see $BUILD/logs/build.log" >&2
        exit 2
    }
fi
for t in $TARGETS; do
    # shellcheck disable=SC2086
    $CC $CFLAGS "$ROOT/tests/fuzz/fuzz_$t.c" "$BUILD"/obj/*.o $LIBS -o "$BUILD/fuzz_$t" \
        2>>"$BUILD/logs/build.log" || {
        echo "fuzz.sh: building fuzz_$t failed, see $BUILD/logs/build.log" >&2
        exit 2
    }
done
[ "$SECONDS_PER_TARGET" -gt 0 ] || [ "$merge" = 1 ] || exit 0

# ---------------------------------------------------------------------------
# Runs, one target at a time.

scratch=$(mktemp -d /dev/shm/ipcc-fuzz.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch"' EXIT INT TERM
export TMPDIR="$scratch" OMP_NUM_THREADS=1
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
TIMEOUT=${FUZZ_TIMEOUT:-10}
RSS=${FUZZ_RSS_MB:-2048}
status=0
summary=$scratch/summary
printf '%-7s %8s %12s %8s %6s %7s %14s  %s\n' target seconds executions exec/s cov ft corpus findings >"$summary"

# "stat::name: value" from libFuzzer's final statistics.
final_stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }

# Runs fuzz_$1 for SECONDS_PER_TARGET and adds its line to the summary.
run_target() {
    t=$1
    log=$BUILD/logs/$t.log
    findings=$BUILD/findings/$t
    mkdir -p "$findings"
    echo "fuzz.sh: fuzz_$t for ${SECONDS_PER_TARGET}s (log: $log)"
    start=$(date +%s)
    rc=0
    dict=
    [ -f "$ROOT/tests/fuzz/$t.dict" ] && dict=-dict=$ROOT/tests/fuzz/$t.dict
    # shellcheck disable=SC2086
    "$BUILD/fuzz_$t" $dict -max_total_time="$SECONDS_PER_TARGET" -timeout="$TIMEOUT" -rss_limit_mb="$RSS" \
        -malloc_limit_mb="$RSS" -print_final_stats=1 -artifact_prefix="$findings/" \
        ${FUZZ_FLAGS:-} "$BUILD/corpus/$t" "$ROOT/tests/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    elapsed=$(($(date +%s) - start))
    found=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$log" | tr '\n' ' ')
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
    cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.* corp: \([^ ]*\).*/\1/p')
    if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
        status=1
        [ -n "$found" ] || found="exit status $rc, see $log"
    fi
    printf '%-7s %8s %12s %8s %6s %7s %14s  %s\n' "$t" "$elapsed" "$(final_stat number_of_executed_units "$log")" \
        "$(final_stat average_exec_per_sec "$log")" "${cov:-?}" "${ft:-?}" "${corp:-?}" "${found:-none}" \
        >>"$summary"
}

# Adds to tests/fuzz/corpus/$1 (see --merge above).
merge_target() {
    t=$1
    committed=$ROOT/tests/fuzz/corpus/$t
    merged=$scratch/merged-$t
    mkdir -p "$merged" "$committed"
    for f in "$committed"/*; do
        [ -f "$f" ] || continue
        if [ "${FUZZ_MERGE_FRESH:-0}" = 1 ] && basename "$f" | grep -Eqx '[0-9a-f]{40}'; then
            continue
        fi
        cp "$f" "$merged/"
    done
    if "$BUILD/fuzz_$t" -merge=1 -use_counters=0 -timeout="$TIMEOUT" -rss_limit_mb="$RSS" "$merged" \
        "$committed" "$BUILD/corpus/$t" >"$BUILD/logs/$t.merge.log" 2>&1; then
        rm -f "$committed"/*
        cp "$merged"/* "$committed/"
        echo "fuzz.sh: merged into $committed: $(find "$committed" -type f | wc -l) files, $(cat "$committed"/* | wc -c) bytes"
    else
        echo "fuzz.sh: merge of $t failed, see $BUILD/logs/$t.merge.log" >&2
        status=1
    fi
}

for t in $TARGETS; do
    mkdir -p "$BUILD/corpus/$t"
    [ "$SECONDS_PER_TARGET" -gt 0 ] && run_target "$t"
    [ "$merge" = 1 ] && merge_target "$t"
done
[ "$SECONDS_PER_TARGET" -gt 0 ] && cat "$summary"
exit $status
