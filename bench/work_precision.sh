#!/usr/bin/env bash
# Work-precision benchmark: each scene at several Newton tolerances against a
# reference run at a tighter one. Per tolerance: the error against the
# reference (ipcc compare's max |x_A - x_B| / L over the bodies' vertices and
# all frames), Newton iterations, unconverged steps, the worst velocity_error,
# solver and wall time. Prints a Markdown report (bench/README.md,
# "Work-precision").
#
#   bench/work_precision.sh [--build DIR] [--out FILE] [--scenes a,b,c]
#                           [--tols "1e-2 1e-3 1e-4"] [--ref 1e-5]
#                           [--threads 1] [--cache DIR]
#     --build DIR    the build holding ipcc (default build/release; built
#                    Release there when DIR/ipcc is missing)
#     --out FILE     also write the report to FILE (it always goes to stdout)
#     --scenes LIST  comma-separated subset of the scenes (default: all)
#     --tols LIST    the tolerances compared, blank- or comma-separated
#     --ref TOL      the reference run's tolerance
#     --threads N    ipcc run --threads (default 1; runs are one at a time)
#     --cache DIR    where reference runs are kept between invocations
#                    (default ${TMPDIR:-/tmp}/ipcc-wp-cache)
#     --ref-build DIR  make the reference runs with DIR/ipcc instead (judge
#                    a change against the same reference as its baseline)
#
# Environment: WP_STEPS=N runs every scene N steps instead of its own span (a
# smoke test of the script: the figures compare with nothing).
set -euo pipefail
caller=$(pwd)
cd "$(dirname "$0")/.."
root=$(pwd)

usage() {
    sed -n '9,25p' "$0" | sed 's/^# \{0,1\}//'
}
die() {
    echo "bench/work_precision.sh: $*" >&2
    exit 1
}

# name|source|steps|extra --set arguments (blank-separated, no blanks inside)
SCENES='2matsFall|tests/ipc_scenes/input/otherExamples/typical/2matsFall.txt|10|
5_hitCardHouse|tests/ipc_scenes/input/paperExamples/5_hitCardHouse.txt|20|
2_matKnives|tests/ipc_scenes/input/paperExamples/2_matKnives.txt|10|
mat40x40_twist|tests/ipc_scenes/input/paperExamples/21_scalability/mat40x40_twist.txt|10|
shot_cube_mat|bench/scenes/impact_shot_cube_mat.json|20|
ball_cylinder|bench/scenes/impact_ball_cylinder.json|10|
contact_cubes_mu05|examples/contact_cubes.json|20|contact.friction=0.5'
all_names=$(printf '%s\n' "$SCENES" | cut -d'|' -f1 | paste -sd' ')

build=build/release
out=""
scenes=""
tols="1e-2 1e-3 1e-4"
ref=1e-5
threads=1
cache=${TMPDIR:-/tmp}/ipcc-wp-cache
ref_build=""
need_arg() {
    [ "$2" -ge 2 ] || die "$1 needs a value"
}
while [ $# -gt 0 ]; do
    case $1 in
        --build) need_arg "$1" $#; build=$2; shift 2 ;;
        --out) need_arg "$1" $#; out=$2; shift 2 ;;
        --scenes) need_arg "$1" $#; scenes=$2; shift 2 ;;
        --tols) need_arg "$1" $#; tols=$2; shift 2 ;;
        --ref) need_arg "$1" $#; ref=$2; shift 2 ;;
        --threads) need_arg "$1" $#; threads=$2; shift 2 ;;
        --cache) need_arg "$1" $#; cache=$2; shift 2 ;;
        --ref-build) need_arg "$1" $#; ref_build=$2; shift 2 ;;
        --build=* | --out=* | --scenes=* | --tols=* | --ref=* | --threads=* | --cache=* | --ref-build=*)
            key=${1%%=*}
            set -- "$key" "${1#*=}" "${@:2}"
            ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument '$1'" ;;
    esac
done
# Paths given on the command line are relative to the caller's folder; the
# defaults to the repository's.
from_caller() {
    case $1 in /*) echo "$1" ;; *) echo "$caller/$1" ;; esac
}
[ "$build" = build/release ] || build=$(from_caller "$build")
[ -z "$out" ] || out=$(from_caller "$out")
cache=$(from_caller "$cache")

is_number() {
    [[ $1 =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]]
}
tols=$(printf '%s' "$tols" | tr ',' ' ' | awk '{ $1 = $1; print }')
[ -n "$tols" ] || die "--tols is empty"
for t in $tols $ref; do
    is_number "$t" || die "'$t' is not a tolerance (a positive number, e.g. 1e-3)"
done
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "--threads needs a positive integer (got '$threads')"
steps_override=${WP_STEPS:-}
[ -z "$steps_override" ] || [[ $steps_override =~ ^[1-9][0-9]*$ ]] ||
    die "WP_STEPS needs a positive integer (got '$steps_override')"
if [ -z "$scenes" ]; then
    scenes=$all_names
else
    scenes=$(printf '%s' "$scenes" | tr ',' ' ')
    for s in $scenes; do
        case " $all_names " in *" $s "*) ;; *) die "unknown scene '$s' (known: $all_names)" ;; esac
    done
fi
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (Debian: apt-get install time)"

# The binary; built only when missing.
bin=$build/ipcc
if [ ! -x "$bin" ]; then
    echo "bench/work_precision.sh: $bin missing: building Release into $build" >&2
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >&2
    cmake --build "$build" -j2 >&2
fi
[ -x "$bin" ] || die "no ipcc in $build"
bin_path=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
bin_date=$(date -r "$bin_path" '+%Y-%m-%d %H:%M')

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipcc-wp.XXXXXX")
partial="" # a reference run in progress in the cache, removed if interrupted
trap 'rm -rf "$tmp"; [ -z "$partial" ] || rm -rf "$partial" "$partial.time"' EXIT
# ipcc finishes its step on Ctrl-C and exits 4; stop the whole benchmark then.
trap 'echo "bench/work_precision.sh: interrupted" >&2; exit 130' INT TERM
# Every run uses a copy of the binary taken now (ipcc links libipcc
# statically), so a rebuild of DIR during the benchmark changes nothing.
bin=$tmp/ipcc
cp "$bin_path" "$bin"
if ! "$bin" --version >/dev/null 2>&1; then
    echo "bench/work_precision.sh: the copy of $bin_path does not run; running it in place" >&2
    bin=$bin_path
fi
bin_sha=$(sha256sum "$bin" | cut -d' ' -f1)
# The reference runs' binary: the same, or --ref-build's (copied likewise).
ref_bin=$bin
if [ -n "$ref_build" ]; then
    ref_build=$(from_caller "$ref_build")
    [ -x "$ref_build/ipcc" ] || die "no ipcc in $ref_build"
    ref_bin=$tmp/ipcc-ref
    cp "$ref_build/ipcc" "$ref_bin"
fi
ref_sha=$(sha256sum "$ref_bin" | cut -d' ' -f1)
report=$tmp/report.md

# stats.csv -> "steps it_sum it_max unconverged worst_velocity_error solver_s",
# columns found by name in the header line; n/a for a missing column.
# shellcheck disable=SC2016 # awk's own $ fields
STATS_AWK='
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$0 != "" {
    n++
    if ("newton_iterations" in col) { it = $col["newton_iterations"] + 0; sum += it; if (it > max) max = it }
    if ("converged" in col && $col["converged"] + 0 == 0) unconv++
    if ("velocity_error" in col) { v = $col["velocity_error"] + 0; if (n == 1 || v > verr) verr = v }
    if ("time_total" in col) t += $col["time_total"]
}
END {
    printf "%d %s %s %s %s %s\n", n,
        ("newton_iterations" in col) ? sum + 0 : "n/a", ("newton_iterations" in col) ? max + 0 : "n/a",
        ("converged" in col) ? unconv + 0 : "n/a", ("velocity_error" in col && n > 0) ? sprintf("%.3g", verr) : "n/a",
        ("time_total" in col) ? sprintf("%.2f", t) : "n/a"
}'
stats_of() { # DIR
    if [ -f "$1/stats.csv" ]; then
        awk -F, "$STATS_AWK" "$1/stats.csv"
    else
        echo "0 n/a n/a n/a n/a n/a"
    fi
}
per_step() { # SUM STEPS
    if [ "$1" = n/a ] || [ "$2" -eq 0 ]; then echo n/a; else awk -v s="$1" -v n="$2" 'BEGIN { printf "%.1f", s / n }'; fi
}

# run SCENE_JSON TOL STEPS DIR EXTRA: one ipcc run, every step written as a
# frame; leaves DIR/wall and DIR/rc (DIR/log: the run's output). Never fails.
run_one() {
    local scene=$1 tol=$2 steps=$3 dir=$4 extra=$5 exe=${6:-$bin} rc=0 a
    local -a sets=(--set "newton.tolerance=$tol" --set output.fps=0)
    for a in $extra; do sets+=(--set "$a"); done
    mkdir -p "$dir"
    /usr/bin/time -f %e -o "$dir.time" "$exe" run "$scene" "${sets[@]}" --steps "$steps" --threads "$threads" \
        -o "$dir/run" -q --overwrite --checkpoint-every 0 >"$dir/log" 2>&1 || rc=$?
    tail -n 1 "$dir.time" >"$dir/wall" 2>/dev/null || echo n/a >"$dir/wall"
    rm -f "$dir.time" "$dir/run/checkpoint.bin"
    echo "$rc" >"$dir/rc"
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
        echo "  exit $rc; the run's last lines:" >&2
        tail -n 5 "$dir/log" | sed 's/^/    /' >&2
    fi
}

{
    echo "# ipcc work-precision"
    echo
    echo "- date: $(date '+%Y-%m-%d %H:%M:%S %z')"
    echo "- repo: $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown) ($root)"
    echo "- binary: $bin_path ($("$bin" --version 2>/dev/null || echo '?'), built $bin_date, sha256 ${bin_sha:0:12}; copied at the start, the runs use the copy)"
    [ "$ref_bin" = "$bin" ] || echo "- reference runs: $ref_build/ipcc (sha256 ${ref_sha:0:12})"
    echo "- threads: $threads; nproc: $(nproc); tolerances: $tols; reference tolerance: $ref"
    echo "- cache: $cache"
    if [ -n "$steps_override" ]; then
        echo "- **WP_STEPS=$steps_override: every scene runs $steps_override steps (a smoke test: the figures compare with nothing)**"
    fi
    echo
    echo "error/L: ipcc compare REF RUN, the largest |x_ref - x_run| / L over the bodies' vertices and all frames"
    echo "(every step is written as a frame: output.fps=0), L from the reference's frame 0. it/step, worst it,"
    echo "unconverged, worst velocity_error (m/s) and solver s (the sum of time_total) from the run's stats.csv;"
    echo "wall s: the whole ipcc process (/usr/bin/time)."
} >"$report"

for name in $scenes; do
    line=$(printf '%s\n' "$SCENES" | awk -F'|' -v n="$name" '$1 == n')
    src=$(echo "$line" | cut -d'|' -f2)
    steps=$(echo "$line" | cut -d'|' -f3)
    extra=$(echo "$line" | cut -d'|' -f4)
    [ -z "$steps_override" ] || steps=$steps_override
    [ -f "$src" ] || die "$name: $src is missing"
    sdir=$tmp/$name
    mkdir -p "$sdir"

    # IPC scripts take no --set: convert them to JSON. The converted scene
    # names its meshes by absolute path (or relative to its own folder), so it
    # runs from here.
    case $src in
        *.txt | *.ipc)
            scene=$sdir/scene.json
            crc=0
            "$bin" convert "$src" -o "$scene" -q >"$sdir/convert.log" 2>&1 || crc=$?
            if [ "$crc" -ne 0 ]; then
                echo "$name: ipcc convert $src failed (exit $crc):" >&2
                sed 's/^/    /' "$sdir/convert.log" >&2
                printf '\n## %s\n\n%s: **ipcc convert FAILED (exit %s)**: %s\n' "$name" "$src" "$crc" \
                    "$(grep -m1 'error' "$sdir/convert.log" || true)" >>"$report"
                rm -rf "$sdir"
                continue
            fi
            ;;
        *) scene=$src ;;
    esac
    scene_sha=$(sha256sum "$scene" | cut -d' ' -f1)
    setdesc=""
    [ -z "$extra" ] || setdesc=", --set $extra"

    # The reference, cached by binary, scene (name and content), tolerance,
    # steps and extra settings.
    key=$(printf '%s\n' "$ref_sha" "$name" "$ref" "$steps" "$scene_sha" "$extra" | sha256sum | cut -c1-24)
    refdir=$cache/$name-$key
    cached=yes
    if [ ! -f "$refdir/rc" ]; then
        cached=no
        echo "$name: reference run, tolerance $ref, $steps steps" >&2
        partial=$cache/.$name-$key.$$
        rm -rf "$partial"
        run_one "$scene" "$ref" "$steps" "$partial" "$extra" "$ref_bin"
        echo "$threads" >"$partial/threads"
        rc=$(cat "$partial/rc")
        if [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ]; then
            if [ -e "$refdir" ]; then rm -rf "$partial"; else mv "$partial" "$refdir"; fi
        else
            rm -rf "$sdir/ref"
            mv "$partial" "$sdir/ref" # a failed reference is not cached
            refdir=$sdir/ref
        fi
        partial=""
    else
        echo "$name: reference run from the cache ($refdir)" >&2
    fi
    ref_rc=$(cat "$refdir/rc")
    read -r rn rsum rmax runconv rverr rsolver <<<"$(stats_of "$refdir/run")"
    ref_ok=1
    [ "$ref_rc" -eq 0 ] || [ "$ref_rc" -eq 3 ] || ref_ok=0

    {
        echo
        echo "## $name"
        echo
        echo "$src, $steps steps$setdesc."
        echo
        cachenote=""
        [ "$cached" = no ] || cachenote=", cached"
        printf -- '- reference (tolerance %s%s): ' "$ref" "$cachenote"
        if [ "$ref_ok" -eq 1 ]; then
            printf '%s it/step (worst %s), %s unconverged, worst velocity_error %s, solver %s s, wall %s s (%s threads)' \
                "$(per_step "$rsum" "$rn")" "$rmax" "$runconv" "$rverr" "$rsolver" "$(cat "$refdir/wall")" \
                "$(cat "$refdir/threads" 2>/dev/null || echo '?')"
            [ "$rn" -eq "$steps" ] || printf ' (**%s of %s steps**)' "$rn" "$steps"
            echo
        else
            echo "**FAILED (exit $ref_rc)** after $rn steps: no errors below"
        fi
        echo
        echo "| scene | tol | error/L | it/step | worst it | unconverged | worst velocity_error | solver s | wall s |"
        echo "|---|---|---|---|---|---|---|---|---|"
    } >>"$report"

    for tol in $tols; do
        echo "$name: tolerance $tol, $steps steps" >&2
        tdir=$sdir/tol-$tol
        run_one "$scene" "$tol" "$steps" "$tdir" "$extra"
        rc=$(cat "$tdir/rc")
        read -r n sum max unconv verr solver <<<"$(stats_of "$tdir/run")"
        err=n/a
        if [ "$ref_ok" -eq 1 ] && [ -f "$tdir/run/frames.pvd" ]; then
            crc=0
            "$bin" compare "$refdir/run" "$tdir/run" -q >"$tdir/compare" 2>&1 || crc=$?
            if [ "$crc" -eq 0 ] || [ "$crc" -eq 5 ]; then
                err=$(sed -n 's/^bodies: max |x_A - x_B| \/ L = \([^ ]*\).*/\1/p' "$tdir/compare")
                if [ -n "$err" ]; then
                    err=$(awk -v e="$err" 'BEGIN { printf "%.3e", e }')
                else
                    err=n/a
                fi
                # Frame counts or times that differ: the error covers the common frames only.
                if grep -q '^differs:' "$tdir/compare"; then
                    err="$err ($(sed -n 's/^differs: //p' "$tdir/compare" | head -n 1))"
                fi
            else
                echo "  ipcc compare failed (exit $crc):" >&2
                sed 's/^/    /' "$tdir/compare" >&2
                err="compare failed (exit $crc)"
            fi
        fi
        if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
            err="**FAILED (exit $rc)** after $n steps; $err"
        elif [ "$n" -ne "$steps" ]; then
            err="$err (**$n of $steps steps**)"
        fi
        echo "| $name | $tol | $err | $(per_step "$sum" "$n") | $max | $unconv | $verr | $solver | $(cat "$tdir/wall") |" >>"$report"
        rm -rf "$tdir"
    done
    rm -rf "$sdir"
done

cat "$report"
if [ -n "$out" ]; then
    mkdir -p "$(dirname "$out")"
    cp "$report" "$out"
    echo "bench/work_precision.sh: wrote $out" >&2
fi
