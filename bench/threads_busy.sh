#!/bin/bash
# Threads on a busy machine (issue 34): each scene on 1 and on 2 threads, on
# an idle machine and with one core kept busy by another process (a shell
# loop, at the same priority), runs interleaved, medians of REPS. The time is
# the solver's (the summary's "s wall": the steps' time, without loading and
# output). Prints a markdown table; bench/run.sh --only threads appends it.
#
#   bench/threads_busy.sh IPCC [REPS] [WORKDIR]
#
# Scenes: a 1296-tet cube sliding down a slope (examples/incline.json's
# sliding block at cells [6, 6, 6], 100 steps), examples/contact_cubes.json
# at friction 0.5 (40 steps), and the mat twist of bench/gen_mat_twist.sh at
# 20k tets (N = 58, 3 steps) and 200k tets (N = 183, 1 step). A run of the
# small scenes takes about a second: shorter ones measured the VM's noise.
# Environment: THREADS_BUSY_SCENES="slope cubes mat20k mat200k" (a subset),
# THREADS_BUSY_ENV="VAR=VALUE ..." (passed to every run, e.g. to compare
# IPCC_ADAPTIVE_THREADS=0 or a wait policy).
set -eu
REPS=3
WORK=
while [ $# -gt 0 ]; do
    case $1 in
        --reps) REPS=$2; shift 2 ;;
        --work) WORK=$2; shift 2 ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: bench/threads_busy.sh [--reps N] [--work DIR] IPCC [IPCC2 ...]" >&2; exit 1; }
BINARIES=("$@")
[ -n "$WORK" ] || WORK=$(mktemp -d "${TMPDIR:-/tmp}/ipcc-threads-busy.XXXXXX")
SRC=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$WORK"
busy_pid=
cleanup() { [ -z "$busy_pid" ] || kill "$busy_pid" 2>/dev/null || true; }
trap cleanup EXIT

# The scenes.
"$SRC/bench/gen_mat_twist.sh" 58 "$WORK/mat20k.json"
"$SRC/bench/gen_mat_twist.sh" 183 "$WORK/mat200k.json"
scene_of() {
    case $1 in
        slope) echo "$SRC/examples/incline.json --steps 100 --set bodies[1].mesh.box.cells=[6,6,6]" ;;
        cubes) echo "$SRC/examples/contact_cubes.json --steps 40 --set contact.friction=0.5" ;;
        mat20k) echo "$WORK/mat20k.json --steps 3" ;;
        mat200k) echo "$WORK/mat200k.json --steps 1" ;;
    esac
}
label_of() {
    case $1 in
        slope) echo "cubes on a slope (incline.json, sliding block at cells 6x6x6), 100 steps" ;;
        cubes) echo "contact_cubes.json, friction 0.5, 40 steps" ;;
        mat20k) echo "mat twist N = 58, 3 steps" ;;
        mat200k) echo "mat twist N = 183, 1 step" ;;
    esac
}

# One run of binary $3: prints the solver's wall seconds (the tet count into $WORK/tets).
run_once() {
    # shellcheck disable=SC2086 # the scene's words
    env ${THREADS_BUSY_ENV:-} "$3" run $(scene_of "$1") --threads "$2" -o "$WORK/out" --overwrite \
        --checkpoint-every 0 >"$WORK/log" 2>&1 </dev/null || { cat "$WORK/log" >&2; exit 1; }
    grep -o '[0-9]* tets' "$WORK/log" | head -1 | cut -d' ' -f1 >"$WORK/tets"
    grep -o '[0-9.]* s wall' "$WORK/log" | cut -d' ' -f1
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

multi=$([ ${#BINARIES[@]} -gt 1 ] && echo 1 || true)
echo "| scene | tets |${multi:+ binary |} idle, 1 thread (s) | idle, 2 threads (s) | speed-up | busy, 1 thread (s) | busy, 2 threads (s) | busy: 2 threads / 1 |"
echo "|---|---|${multi:+---|}---|---|---|---|---|---|"
for s in ${THREADS_BUSY_SCENES:-slope cubes mat20k mat200k}; do
    declare -A t=()
    for mode in idle busy; do
        if [ $mode = busy ]; then
            sh -c 'while :; do :; done' &
            busy_pid=$!
            sleep 0.5
        fi
        for r in $(seq "$REPS"); do
            for k in "${!BINARIES[@]}"; do
                for n in 1 2; do
                    printf 'threads_busy: %s %s binary %s, %s threads, run %s ... ' "$s" $mode "$k" $n "$r" >&2
                    w=$(run_once "$s" $n "${BINARIES[$k]}")
                    echo "$w s" >&2
                    t[$k$mode$n]="${t[$k$mode$n]:-} $w"
                done
            done
        done
        if [ $mode = busy ]; then
            kill "$busy_pid"
            wait "$busy_pid" 2>/dev/null || true
            busy_pid=
        fi
    done
    tets=$(cat "$WORK/tets")
    for k in "${!BINARIES[@]}"; do
        i1=$(echo "${t[${k}idle1]}" | median) i2=$(echo "${t[${k}idle2]}" | median)
        b1=$(echo "${t[${k}busy1]}" | median) b2=$(echo "${t[${k}busy2]}" | median)
        awk -v l="$(label_of "$s")" -v n="${tets:-?}" -v bin="${multi:+ ${BINARIES[$k]} |}" -v i1="$i1" -v i2="$i2" \
            -v b1="$b1" -v b2="$b2" \
            'BEGIN { printf "| %s | %s |%s %.3f | %.3f | %.2fx | %.3f | %.3f | %.2f |\n", l, n, bin, i1, i2, i1 / i2, b1, b2, b2 / b1 }'
    done
    unset t
done
