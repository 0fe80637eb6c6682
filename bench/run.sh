#!/bin/sh
# Benchmark runner: builds Release, runs the example scenes and the cantilever
# refinement study, and writes bench/results/<date>-<host>.md.
#   bench/run.sh            (from the repository root, or via `make bench`)
# Timing lives here, never in the tests.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}/release
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DIPCC_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j "$(nproc)" >/dev/null
host=$(hostname -s 2>/dev/null || echo host)
out=bench/results/$(date +%Y-%m-%d)-$host.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
    echo "# ipcc benchmarks, $(date +%Y-%m-%d) on $host"
    echo
    echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
    echo "- ipcc $(git describe --always --dirty 2>/dev/null || echo unknown), Release build, $(cc --version | head -1)"
    echo "- wall: whole run including output; phases summed from stats.csv (seconds)"
    echo
    echo "## Example scenes"
    echo
    echo "Phases are summed over the run (seconds). CCD and broad phase are parts of"
    echo "assembly and line search (the barrier's candidate search runs in both)."
    echo
    echo "| scene | verts / tets | steps | wall (s) | s/step | Newton it/step | line-search evals/step | assembly | factorization | solve | line search | CCD | broad phase | max contacts | peak RSS (MB) |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$out"

for scene in ${BENCH_SCENES:-beam twist newmark_beam static_cantilever contact_cubes ball_mat obstacle_push incline mat_twist}; do
    dir=$tmp/$scene
    start=$(date +%s.%N)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%M" -o "$tmp/rss" "$BUILD/ipcc" run "examples/$scene.json" -o "$dir" >"$tmp/log" 2>&1
        rss=$(awk '{printf "%.0f", $1 / 1024}' "$tmp/rss")
    else
        "$BUILD/ipcc" run "examples/$scene.json" -o "$dir" >"$tmp/log" 2>&1
        rss=n/a
    fi
    end=$(date +%s.%N)
    size=$(grep -m1 "^ipcc " "$tmp/log" | sed -n 's/.* \([0-9]*\) vertices, \([0-9]*\) tets.*/\1 \/ \2/p')
    awk -F, -v scene="$scene" -v wall="$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" -v rss="$rss" -v size="$size" '
        NR > 1 { n++; it += $3; ls += $4; a += $9; f += $10; s += $11; l += $12; c += $18; b += $19
                 if ($15 > mc) mc = $15 }
        END { printf "| %s | %s | %d | %.2f | %.4f | %.2f | %.2f | %.2f | %.2f | %.3f | %.2f | %.2f | %.2f | %d | %s |\n",
                     scene, size, n, wall, wall / n, it / n, ls / n, a, f, s, l, c, b, mc, rss }' "$dir/stats.csv" >>"$out"
done

{
    echo
    echo "## Elastic kernel (ipcc_elastic_tet_evaluate, one thread)"
    echo
    "$BUILD/bench_elastic_kernels" 2>/dev/null
    echo
    echo "## CCD on the shared query sets (bench/ccd_bench)"
    echo
    echo '```'
    for f in wang2021_handcrafted.txt ipctk_ccd_cases.txt; do
        printf '%s: ' "$f"
        "$BUILD/ccd_bench" "tests/data/ccd/$f"
    done
    echo '```'
    echo
    echo "## Broad phase (bench/broad_phase.c, ~100k surface triangles)"
    echo
    "$BUILD/bench_broad_phase"
    echo
    echo "## Static cantilever: mesh refinement against Euler-Bernoulli"
    echo
    "$BUILD/bench_cantilever" "${CANTILEVER_MAX_NX:-160}"
} >>"$out"
# Hand-written notes (before/after figures of hot-path changes) live in
# bench/results/*.notes.md and are appended, so a rerun does not lose them.
notes=bench/results/$host.notes.md
if [ -f "$notes" ]; then
    echo >>"$out"
    cat "$notes" >>"$out"
fi
echo "wrote $out"
cat "$out"
