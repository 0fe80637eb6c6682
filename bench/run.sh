#!/bin/sh
# Benchmark runner: times ipcc on the original IPC's paper scenes (next to
# IPC's own figures), on the example scenes and on a generated scaling series
# (an N x N mat twist from ~10k to ~1M tets), runs the micro-benchmarks, and
# writes bench/results/<date>-<host>.md, then commits that file alone.
#
#   bench/run.sh [--only SECTIONS]... [--build DIR] [--out FILE] [--no-commit]
#     --only S     run only these sections, comma-separated or repeated:
#                  ipc, examples, scaling, micro, threads (default: all but
#                  threads, or $BENCH_SECTIONS); threads includes the busy
#                  machine's table (bench/threads_busy.sh, THREADS_BUSY=0 skips)
#     --build DIR  benchmark the existing build in DIR (its ipcc and bench_*
#                  programs) instead of building Release into $BUILD_DIR/release
#     --out FILE   write the report to FILE instead of bench/results/<date>-<host>.md
#     --no-commit  do not commit the report
#
# Environment: BENCH_SECTIONS, BENCH_THREADS (default 2), BENCH_SCENES (the
# example scenes), BENCH_IPC_SCENES (a subset of the IPC scenes by name),
# BENCH_STEPS (run every scene this many steps: a smoke test, the IPC
# comparison is then meaningless), MAT_SIZES (N of the scaling series),
# MAT_STEPS (steps per size), THREAD_COUNTS (the thread section's counts,
# default 1 2 and every power of two up to nproc), THREAD_MATS and THREAD_BOXES
# (its generated scenes' N), BENCH_KEEP (a folder to keep each run's stats.csv
# and log in), CANTILEVER_MAX_NX, BUILD_DIR, BENCH_JOBS. bench/README.md
# describes each section and the time a full run takes.
#
# Figures come from each run's stats.csv, whose columns are found by their
# names in the header (a column an older build does not write reads n/a), and
# from /usr/bin/time (wall time and peak RSS of the whole process). Timing
# lives here, never in the tests.
set -eu
cd "$(dirname "$0")/.."

usage() {
    sed -n '7,14p' "$0" | sed 's/^# \{0,1\}//'
}

sections=""
build=""
out=""
commit=1
while [ $# -gt 0 ]; do
    case $1 in
        --only)
            [ $# -ge 2 ] || { echo "bench/run.sh: --only needs a section list" >&2; exit 1; }
            sections="$sections $2"
            shift 2
            ;;
        --only=*) sections="$sections ${1#--only=}"; shift ;;
        --build)
            [ $# -ge 2 ] || { echo "bench/run.sh: --build needs a folder" >&2; exit 1; }
            build=$2
            shift 2
            ;;
        --build=*) build=${1#--build=}; shift ;;
        --out)
            [ $# -ge 2 ] || { echo "bench/run.sh: --out needs a file" >&2; exit 1; }
            out=$2
            shift 2
            ;;
        --out=*) out=${1#--out=}; shift ;;
        --no-commit) commit=0; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "bench/run.sh: unknown argument '$1'" >&2; usage >&2; exit 1 ;;
    esac
done
[ -n "$sections" ] || sections=${BENCH_SECTIONS:-ipc examples scaling micro}
sections=$(echo "$sections" | tr ',' ' ' | awk '{ $1 = $1; print }')
for s in $sections; do
    case $s in
        ipc | examples | scaling | micro | threads) ;;
        *) echo "bench/run.sh: unknown section '$s' (ipc, examples, scaling, micro, threads)" >&2; exit 1 ;;
    esac
done
want() {
    case " $sections " in *" $1 "*) return 0 ;; esac
    return 1
}

# ---------------------------------------------------------------------------
# The build

if [ -n "$build" ]; then
    BUILD=$build
else
    BUILD=${BUILD_DIR:-build}/release
    echo "bench: building Release in $BUILD" >&2
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DIPCC_BUILD_TESTS=OFF >/dev/null
    cmake --build "$BUILD" -j "${BENCH_JOBS:-$(nproc)}" >/dev/null
fi
IPCC=$BUILD/ipcc
if [ ! -x "$IPCC" ]; then
    echo "bench/run.sh: no ipcc program in '$BUILD'" >&2
    exit 1
fi
cache=$BUILD/CMakeCache.txt
cache_get() { [ -f "$cache" ] && sed -n "s/^$1:[A-Z]*=//p" "$cache" | head -n 1; }
src_dir=$(cache_get CMAKE_HOME_DIRECTORY)
build_type=$(cache_get CMAKE_BUILD_TYPE)
cc_path=$(cache_get CMAKE_C_COMPILER)
describe=unknown
if [ -n "$src_dir" ] && [ -d "$src_dir" ]; then
    describe=$(git -C "$src_dir" describe --always --dirty 2>/dev/null || echo unknown)
fi
version=$("$IPCC" --version 2>/dev/null | head -n 1 || echo "ipcc unknown")
built=$(date -r "$IPCC" '+%Y-%m-%d %H:%M' 2>/dev/null || echo unknown)
cc_version=$("${cc_path:-cc}" --version 2>/dev/null | head -n 1 || echo unknown)
suitesparse=$(dpkg-query -W -f='${Version}' libsuitesparse-dev 2>/dev/null || echo unknown)

threads=${BENCH_THREADS:-2}
# Checkpoints only at the start and the end, where the build knows the option.
checkpoint_flag=""
if "$IPCC" --help 2>&1 | grep -q -e --checkpoint-every; then
    checkpoint_flag=yes
fi
day=$(date +%Y-%m-%d)
host=$(hostname -s 2>/dev/null || echo host)
[ -n "$out" ] || out=bench/results/$day-$host.md
mkdir -p "$(dirname "$out")"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ipcc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ -n "${BENCH_KEEP:-}" ]; then
    mkdir -p "$BENCH_KEEP"
fi

# ---------------------------------------------------------------------------
# One run: `run_case SECTION KEY LABEL SCENE STEPS [REF_WALL REF_SPS REF_NEWTON]`
# runs SCENE (STEPS empty: the scene's own length) and appends one line of
# FIELDS to $tmp/SECTION.tsv.

FIELDS="key label rc wall rss_kb verts tets unknowns steps newton ls unconv total asm fact sym solve lstime ccd bp cs energy maxc ref_wall ref_sps ref_newton"

# Sums of stats.csv by column name; n/a for a column the build does not write.
# shellcheck disable=SC2016 # awk's own $ fields
STATS_AWK='
function col(name) { return (name in idx) ? idx[name] : 0 }
function sum(name,   i) { i = col(name); return i ? s[i] : "n/a" }
FNR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
{
    rows++
    for (i = 1; i <= NF; i++) s[i] += $i
    c = col("converged"); if (c && $c == 0) unconv++
    c = col("num_contacts"); if (c && $c > maxc) maxc = $c
}
END {
    v["key"] = key; v["label"] = label; v["rc"] = rc; v["wall"] = wall; v["rss_kb"] = rss
    v["verts"] = verts; v["tets"] = tets; v["unknowns"] = unknowns
    v["steps"] = rows + 0; v["newton"] = sum("newton_iterations"); v["ls"] = sum("line_search_steps")
    v["unconv"] = col("converged") ? unconv + 0 : "n/a"
    v["total"] = sum("time_total"); v["asm"] = sum("time_assembly"); v["fact"] = sum("time_factorization")
    v["sym"] = sum("time_symbolic"); v["solve"] = sum("time_solve"); v["lstime"] = sum("time_line_search")
    v["ccd"] = sum("time_ccd"); v["bp"] = sum("time_broad_phase"); v["cs"] = sum("time_constraint_search")
    v["energy"] = sum("time_energy"); v["maxc"] = col("num_contacts") ? maxc + 0 : "n/a"
    v["ref_wall"] = ref_wall; v["ref_sps"] = ref_sps; v["ref_newton"] = ref_newton
    n = split(fields, f, " ")
    for (i = 1; i <= n; i++) printf "%s%s", (v[f[i]] == "" ? "n/a" : v[f[i]]), (i < n ? "\t" : "\n")
}'

run_case() {
    section=$1 key=$2 label=$3 scene=$4 steps=$5
    ref_wall=${6:-n/a} ref_sps=${7:-n/a} ref_newton=${8:-n/a}
    dir=$tmp/run/$section-$key
    log=$tmp/run/$section-$key.log
    mkdir -p "$tmp/run"
    set -- run "$scene" -o "$dir" --threads "$threads"
    [ -z "$checkpoint_flag" ] || set -- "$@" --checkpoint-every 0
    [ -z "$steps" ] || set -- "$@" --steps "$steps"
    printf 'bench: %s %s%s ... ' "$section" "$key" "${steps:+ ($steps steps)}" >&2
    rc=0
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%e %M" -o "$tmp/time" "$IPCC" "$@" >"$log" 2>&1 || rc=$?
        # GNU time puts "Command exited with non-zero status N" before the figures.
        wall=$(tail -n 1 "$tmp/time" | awk '{ print $1 }')
        rss=$(tail -n 1 "$tmp/time" | awk '{ print $2 }')
    else
        start=$(date +%s.%N)
        "$IPCC" "$@" >"$log" 2>&1 || rc=$?
        end=$(date +%s.%N)
        wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
        rss=n/a
    fi
    echo "${wall}s, exit $rc" >&2
    # "ipcc 0.1.0: SCENE: B bodies, V vertices, T tets, ..." and, for JSON
    # scenes, "dirichlet[k] selects K vertices" (prescribed, not unknowns).
    size=$(sed -n 's/.* \([0-9][0-9]*\) vertices, \([0-9][0-9]*\) tets,.*/\1 \2/p' "$log" | head -n 1)
    verts=${size% *} tets=${size#* }
    [ -n "$size" ] || { verts=n/a; tets=n/a; }
    fixed=$(sed -n 's/.*dirichlet\[[0-9]*\] selects \([0-9][0-9]*\) vertices.*/\1/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
    unknowns=n/a
    [ "$verts" = n/a ] || unknowns=$((3 * (verts - fixed)))
    stats=$dir/stats.csv
    [ -f "$stats" ] || stats=/dev/null
    [ -f "$tmp/$section.tsv" ] || echo "$FIELDS" | tr ' ' '\t' >"$tmp/$section.tsv"
    awk -F, -v fields="$FIELDS" -v key="$key" -v label="$label" -v rc="$rc" -v wall="$wall" -v rss="$rss" \
        -v verts="$verts" -v tets="$tets" -v unknowns="$unknowns" -v ref_wall="$ref_wall" \
        -v ref_sps="$ref_sps" -v ref_newton="$ref_newton" "$STATS_AWK" "$stats" >>"$tmp/$section.tsv"
    if [ -n "${BENCH_KEEP:-}" ]; then
        [ ! -f "$dir/stats.csv" ] || cp "$dir/stats.csv" "$BENCH_KEEP/$section-$key.csv"
        cp "$log" "$BENCH_KEEP/$section-$key.log"
    fi
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
        echo "bench: $section $key failed (exit $rc); last lines of its log:" >&2
        tail -n 5 "$log" >&2
    fi
    rm -rf "$dir"
}

# ---------------------------------------------------------------------------
# Tables, from a section's TSV: `table MODE SECTION`.
#   summary    steps, wall, s/step, Newton and line-search counts, RSS (+ IPC's
#              figures and the speed-up when the rows carry them)
#   breakdown  phases per step (ms and % of the step)
#   scaling    the scaling series' summary; periter: phases per Newton iteration

# shellcheck disable=SC2016 # awk's own $ fields
TABLE_AWK='
function na(x) { return x == "n/a" || x == "" }
function num(x, fmt) { return na(x) ? "n/a" : sprintf(fmt, x) }
function div(a, b) { return (na(a) || na(b) || b + 0 == 0) ? "n/a" : a / b }
function sub_(a, b) { return (na(a) || na(b)) ? "n/a" : a - b }
function ms(x) { if (na(x)) return "n/a"; x *= 1000; return sprintf(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : x >= 1 ? "%.2f" : "%.3f", x) }
function pct(a, b,   r) { r = div(a, b); return na(r) ? "n/a" : sprintf("%.0f %%", 100 * r) }
function cell(x, step) { return na(x) ? "n/a" : ms(x) " (" pct(x, step) ")" }
function exitcode(rc) { return rc == 0 ? "0" : rc == 3 ? "3 (unconverged)" : rc " (failed)" }
function mb(kb) { return na(kb) ? "n/a" : sprintf("%.0f", kb / 1024) }
NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; next }
{
    for (i = 1; i <= NF; i++) r[name[i]] = $i
    n = r["steps"]; it = r["newton"]; step = div(r["total"], n)
    num_ = sub_(r["fact"], r["sym"])
    if (mode == "summary") {
        line = sprintf("| %s | %s / %s | %d | %s | %s | %s | %s | %s | %s | %s |", r["label"], r["verts"], r["tets"], n,
                       num(r["wall"], "%.2f"), num(step, "%.4f"), num(div(it, n), "%.2f"), num(div(r["ls"], n), "%.2f"),
                       r["maxc"], mb(r["rss_kb"]), r["unconv"] " / " exitcode(r["rc"]))
        if (ipc)
            line = line sprintf(" %s | %s | %s | %s |", num(r["ref_wall"], "%.1f"), num(r["ref_sps"], "%.2f"),
                                num(r["ref_newton"], "%.1f"), num(div(r["ref_sps"], step), "%.2f x"))
        print line
    } else if (mode == "breakdown") {
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r["label"], ms(step),
               cell(div(r["asm"], n), step), cell(div(r["fact"], n), step), cell(div(r["sym"], n), step),
               cell(div(num_, n), step), cell(div(r["solve"], n), step), cell(div(r["lstime"], n), step),
               cell(div(r["ccd"], n), step), cell(div(r["bp"], n), step), cell(div(r["cs"], n), step),
               cell(div(r["energy"], n), step), pct(num_, r["total"])
    } else if (mode == "scaling") {
        printf "| %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r["label"], r["tets"], r["unknowns"], n,
               num(r["wall"], "%.1f"), num(step, "%.3f"), num(div(it, n), "%.2f"), num(div(r["total"], it), "%.3f"),
               pct(num_, r["total"]), mb(r["rss_kb"]), num(div(na(r["rss_kb"]) ? "n/a" : r["rss_kb"] * 1024, r["tets"]), "%.0f"),
               r["maxc"], r["unconv"] " / " exitcode(r["rc"])
    } else if (mode == "periter") {
        s = div(r["total"], it)
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r["label"], r["tets"], ms(s),
               cell(div(r["asm"], it), s), cell(div(r["fact"], it), s), cell(div(r["sym"], it), s),
               cell(div(num_, it), s), cell(div(r["solve"], it), s), cell(div(r["lstime"], it), s),
               cell(div(r["ccd"], it), s), cell(div(r["bp"], it), s), cell(div(r["cs"], it), s),
               cell(div(r["energy"], it), s), num(div(r["ls"], it), "%.2f")
    }
}'

table() {
    mode=$1 tsv=$tmp/$2.tsv ipc=0
    [ "$2" = ipc ] && ipc=1
    case $mode in
        summary)
            if [ $ipc = 1 ]; then
                echo "| scene | verts / tets | steps | wall (s) | s/step | Newton it/step | line-search evals/step | max contacts | peak RSS (MB) | unconverged / exit | IPC wall (s) | IPC s/step | IPC Newton it/step | speed-up |"
                echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
            else
                echo "| scene | verts / tets | steps | wall (s) | s/step | Newton it/step | line-search evals/step | max contacts | peak RSS (MB) | unconverged / exit |"
                echo "|---|---|---|---|---|---|---|---|---|---|"
            fi
            ;;
        breakdown)
            echo "| scene | step (ms) | assembly | factorization | symbolic | numeric | solve | line search | CCD | broad phase | constraint search | energy (line search) | numeric share |"
            echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
            ;;
        scaling)
            echo "| N | tets | unknowns | steps | wall (s) | s/step | Newton it/step | s / Newton it | numeric share | peak RSS (MB) | RSS / tet (bytes) | max contacts | unconverged / exit |"
            echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
            ;;
        periter)
            echo "| N | tets | Newton it (ms) | assembly | factorization | symbolic | numeric | solve | line search | CCD | broad phase | constraint search | energy (line search) | line-search evals / it |"
            echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
            ;;
    esac
    [ -f "$tsv" ] && awk -F'\t' -v mode="$mode" -v ipc=$ipc "$TABLE_AWK" "$tsv"
    return 0
}

BREAKDOWN_NOTE='Phases in ms per step, with their share of the step time (stats.csv'"'"'s
time_total). Factorization = symbolic (CHOLMOD analysis, redone only when the
pattern changes) + numeric. CCD, broad phase and constraint search are parts of
assembly and line search; energy is the line search'"'"'s energy evaluations.
n/a: the build does not report that phase.'

# ---------------------------------------------------------------------------
# Header

steps_note=""
[ -z "${BENCH_STEPS:-}" ] || steps_note=" **Smoke test: every scene ran $BENCH_STEPS steps (BENCH_STEPS); the figures are not comparable.**"
{
    echo "# ipcc benchmarks, $day on $host"
    echo
    echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) RAM"
    echo "- build: \`$BUILD\` (${build_type:-unknown build type}, binary of $built), \`ipcc --version\`: $version; source \`${src_dir:-unknown}\` at \`$describe\` (git describe at run time)"
    echo "- $cc_version; SuiteSparse $suitesparse"
    echo "- \`ipcc run SCENE --threads $threads${checkpoint_flag:+ --checkpoint-every 0}\`; sections: $sections.$steps_note"
    echo "- wall and peak RSS: the whole process (/usr/bin/time: loading, frames, checkpoints); s/step and phases: sums of stats.csv's per-step timers"
} >"$out"

# ---------------------------------------------------------------------------
# IPC paper scenes: unmodified copies of the original IPC's scripts and the
# meshes they read (bench/scenes/ipc, MIT, LICENSE there), cut to a span with
# --steps. IPC's figures: the original IPC (C++, CHOLMOD, 2 threads) on this
# machine class, same spans.

IPC_LIST="
mat40x40_twist  paperExamples/21_scalability/mat40x40_twist 10 6.5 0.65 3.7
5_hitCardHouse  paperExamples/5_hitCardHouse                20 65  3.3  5.1
2_matKnives     paperExamples/2_matKnives                   10 113 11.3 40
8_rollerBall    paperExamples/8_rollerBall                  20 249 12.4 13.7
"

if want ipc; then
    echo "$IPC_LIST" | while read -r name path steps rwall rsps rnewton; do
        [ -n "$name" ] || continue
        if [ -n "${BENCH_IPC_SCENES:-}" ]; then
            case " $(echo "$BENCH_IPC_SCENES" | tr ',' ' ') " in *" $name "*) ;; *) continue ;; esac
        fi
        [ -z "${BENCH_STEPS:-}" ] || steps=$BENCH_STEPS
        run_case ipc "$name" "$name" "bench/scenes/ipc/input/$path.txt" "$steps" "$rwall" "$rsps" "$rnewton"
    done
    {
        echo
        echo "## IPC paper scenes"
        echo
        echo "The original IPC's scripts, unmodified (\`bench/scenes/ipc/input/\`), over the"
        echo "first 10 steps (mat40x40_twist: 0.4 s; 2_matKnives: 0.4 s) or 20 steps"
        echo "(5_hitCardHouse: 0.5 s; 8_rollerBall: 0.2 s). IPC's columns: the original IPC"
        echo "(C++, CHOLMOD, 2 threads) on this machine class over the same spans;"
        echo "speed-up = IPC's s/step / ipcc's s/step (> 1: ipcc is faster)."
        echo
        table summary ipc
        echo
        echo "$BREAKDOWN_NOTE"
        echo
        table breakdown ipc
    } >>"$out"
fi

# ---------------------------------------------------------------------------
# Thread scaling: each part of a Newton iteration at 1, 2, ... threads, on
# the generated mats (bench/gen_mat_twist.sh), the generated volumetric
# boxes (bench/gen_box_twist.sh) and the IPC paper scenes.

THREADS_PERITER_AWK='
function na(x) { return x == "n/a" || x == "" }
function per(x, it) { return (na(x) || na(it) || it + 0 == 0) ? "n/a" : 1000 * x / it }
function fmt(x) { return na(x) ? "n/a" : sprintf(x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x) }
NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; next }
{
    for (i = 1; i <= NF; i++) r[name[i]] = $i
    split(r["key"], kt, "@"); sc = r["label"]; t = kt[2]
    if (!(sc in seen)) { seen[sc] = 1; order[++ns] = sc; tets[sc] = r["tets"] }
    if (!((t) in tseen)) { tseen[t] = 1; tl[++nt] = t }
    it = r["newton"]
    v[sc, t, "Newton iteration"] = per(r["total"], it)
    v[sc, t, "assembly"] = per(r["asm"], it)
    v[sc, t, "numeric factorization"] = per(na(r["fact"]) || na(r["sym"]) ? "n/a" : r["fact"] - r["sym"], it)
    v[sc, t, "symbolic analysis"] = per(r["sym"], it)
    v[sc, t, "solve"] = per(r["solve"], it)
    v[sc, t, "line search"] = per(r["lstime"], it)
    bad = na(r["total"]) || na(r["asm"]) || na(r["fact"]) || na(r["solve"]) || na(r["lstime"])
    rest = bad ? "n/a" : r["total"] - r["asm"] - r["fact"] - r["solve"] - r["lstime"]
    v[sc, t, "rest"] = per(rest, it)
    its[sc, t] = na(it) ? "n/a" : it
}
END {
    parts = "Newton iteration|assembly|numeric factorization|symbolic analysis|solve|line search|rest"
    np = split(parts, P, "|")
    head = "| scene | tets | part |"; rule = "|---|---|---|"
    for (j = 1; j <= nt; j++) { head = head sprintf(" %s thr (ms/it) |", tl[j]); rule = rule "---|" }
    for (j = 2; j <= nt; j++) { head = head sprintf(" speed-up %s thr (efficiency) |", tl[j]); rule = rule "---|" }
    print head; print rule
    for (a = 1; a <= ns; a++) {
        sc = order[a]
        for (p = 1; p <= np; p++) {
            line = sprintf("| %s | %s | %s |", p == 1 ? sc : "", p == 1 ? tets[sc] : "", P[p] == "Newton iteration" ? "**Newton iteration**" : P[p])
            for (j = 1; j <= nt; j++) line = line " " fmt(v[sc, tl[j], P[p]]) " |"
            for (j = 2; j <= nt; j++) {
                x = v[sc, tl[1], P[p]]; y = v[sc, tl[j], P[p]]
                line = line ((na(x) || na(y) || y + 0 == 0) ? " n/a |" : sprintf(" %.2fx (%.0f %%) |", x / y, 100 * x / y / tl[j]))
            }
            print line
        }
        its_line = sprintf("| | | Newton iterations |")
        for (j = 1; j <= nt; j++) its_line = its_line " " its[sc, tl[j]] " |"
        for (j = 2; j <= nt; j++) its_line = its_line " |"
        print its_line
    }
}'

if want threads; then
    counts=${THREAD_COUNTS:-}
    if [ -z "$counts" ]; then
        counts="1 2"
        c=4
        while [ "$c" -le "$(nproc)" ]; do counts="$counts $c"; c=$((c * 2)); done
    fi
    gen=$tmp/threads-scenes
    mkdir -p "$gen"
    list="" # key|label|scene|steps, no spaces (word-split below)
    for n in ${THREAD_MATS:-41 92 130 183 290}; do
        bench/gen_mat_twist.sh "$n" "$gen/mat$n.json"
        list="$list mat$n|mat_twist_N$n|$gen/mat$n.json|${MAT_STEPS:-2}"
    done
    for n in ${THREAD_BOXES:-24 26 44}; do
        bench/gen_box_twist.sh "$n" "$gen/box$n.json"
        list="$list box$n|box_twist_N$n|$gen/box$n.json|2"
    done
    for spec in "mat40x40_twist|paperExamples/21_scalability/mat40x40_twist|10" \
        "5_hitCardHouse|paperExamples/5_hitCardHouse|20" "2_matKnives|paperExamples/2_matKnives|10" \
        "8_rollerBall|paperExamples/8_rollerBall|20"; do
        name=${spec%%|*} rest=${spec#*|}
        list="$list $name|$name|bench/scenes/ipc/input/${rest%%|*}.txt|${rest#*|}"
    done
    keep_threads=$threads
    for entry in $list; do
        tkey=${entry%%|*} rest=${entry#*|}
        tlabel=${rest%%|*} rest=${rest#*|}
        tscene=${rest%%|*} tsteps=${rest#*|}
        [ -z "${BENCH_STEPS:-}" ] || tsteps=$BENCH_STEPS
        for t in $counts; do
            threads=$t # run_case's thread count
            run_case threads "$tkey@$t" "$tlabel" "$tscene" "$tsteps"
        done
    done
    threads=$keep_threads
    {
        echo
        echo "## Thread scaling"
        echo
        echo "Each part of a Newton iteration (ms, stats.csv's timers over the run divided"
        echo "by its Newton iterations) at $(echo "$counts" | sed 's/ /, /g') threads (\`--threads\`),"
        echo "and the speed-up over 1 thread with its parallel efficiency (speed-up /"
        echo "threads). Results are bit-identical for every count, so each count does the"
        echo "same iterations. Scenes: generated mats (bench/gen_mat_twist.sh N, 2 steps),"
        echo "generated volumetric boxes with self-contact (bench/gen_box_twist.sh N, 2"
        echo "steps) and the IPC paper scenes over the spans of the IPC section. Rest:"
        echo "prediction, forces and bookkeeping outside the timed parts."
        echo
        [ -f "$tmp/threads.tsv" ] && awk -F'\t' "$THREADS_PERITER_AWK" "$tmp/threads.tsv"
    } >>"$out"
    # The busy machine (issue 34): 1 and 2 threads, idle and with one core
    # kept busy by another process (bench/threads_busy.sh; THREADS_BUSY=0 skips).
    if [ "${THREADS_BUSY:-1}" != 0 ]; then
        busy_table=$(bench/threads_busy.sh --reps "${THREADS_BUSY_REPS:-3}" --work "$tmp/threads-busy" "$IPCC")
        {
            echo
            echo "## Threads on a busy machine"
            echo
            echo "Solver time (the summary's \"s wall\": the steps, without loading and"
            echo "output) on 1 and 2 threads, idle and with one core kept busy by another"
            echo "process (a shell loop at the same priority); medians of ${THREADS_BUSY_REPS:-3} interleaved"
            echo "runs (bench/threads_busy.sh). Goal: 2 threads within 10 % of 1 thread"
            echo "when busy (last column at most 1.10)."
            echo
            echo "$busy_table"
        } >>"$out"
    fi
fi

# ---------------------------------------------------------------------------
# Example scenes (examples/*.json), each over its own span.

if want examples; then
    for scene in ${BENCH_SCENES:-beam twist newmark_beam static_cantilever contact_cubes ball_mat obstacle_push incline mat_twist}; do
        run_case examples "$scene" "$scene" "examples/$scene.json" "${BENCH_STEPS:-}"
    done
    {
        echo
        echo "## Example scenes"
        echo
        echo "\`examples/*.json\`, each over its own span."
        echo
        table summary examples
        echo
        echo "$BREAKDOWN_NOTE"
        echo
        table breakdown examples
    } >>"$out"
fi

# ---------------------------------------------------------------------------
# Scaling series: an N x N mat twisted from both ends (bench/gen_mat_twist.sh),
# 6 N^2 tets. Default steps: 5 below 150k tets, 3 below 600k, 2 above.

if want scaling; then
    mkdir -p "$tmp/scenes"
    for n in ${MAT_SIZES:-41 92 130 183 290 409}; do
        bench/gen_mat_twist.sh "$n" "$tmp/scenes/mat$n.json"
        tets=$((6 * n * n))
        if [ -n "${MAT_STEPS:-}" ]; then
            steps=$MAT_STEPS
        elif [ -n "${BENCH_STEPS:-}" ]; then
            steps=$BENCH_STEPS
        elif [ $tets -lt 150000 ]; then
            steps=5
        elif [ $tets -lt 600000 ]; then
            steps=3
        else
            steps=2
        fi
        run_case scaling "$n" "$n" "$tmp/scenes/mat$n.json" "$steps"
    done
    {
        echo
        echo "## Scaling: N x N mat twist"
        echo
        echo "\`bench/gen_mat_twist.sh N\`: examples/mat_twist.json at resolution N (cubic cells"
        echo "of side 1/N, 6 N^2 tets, ends turned at 2 rad/s, h = 0.04 s), from the start of"
        echo "the twist. Unknowns: 3 x the vertices not prescribed. Numeric share: numeric"
        echo "factorization / step time (goal: >= 50 % from 50k tets). RSS / tet should stay"
        echo "flat (memory linear in the mesh)."
        echo
        table scaling scaling
        echo
        echo "Per Newton iteration (ms, share of the iteration's time):"
        echo
        table periter scaling
    } >>"$out"
fi

# ---------------------------------------------------------------------------
# Micro-benchmarks

if want micro; then
    micro() { # program [args]: run it if this build has it
        prog=$1
        shift
        if [ -x "$BUILD/$prog" ]; then
            "$BUILD/$prog" "$@"
        else
            echo "($prog is not built in $BUILD)"
        fi
    }
    echo "bench: micro-benchmarks ..." >&2
    {
        echo
        echo "## Elastic kernel (ipcc_elastic_tet_evaluate, one thread)"
        echo
        micro bench_elastic_kernels 2>/dev/null
        echo
        echo "## CCD on the shared query sets (bench/ccd_bench)"
        echo
        echo '```'
        for f in wang2021_handcrafted.txt ipctk_ccd_cases.txt; do
            printf '%s: ' "$f"
            micro ccd_bench "tests/data/ccd/$f"
        done
        echo '```'
        echo
        echo "## Broad phase (bench/broad_phase.c, ~100k surface triangles)"
        echo
        micro bench_broad_phase
        echo
        echo "## Static cantilever: mesh refinement against Euler-Bernoulli"
        echo
        micro bench_cantilever "${CANTILEVER_MAX_NX:-160}"
    } >>"$out"
fi

# Hand-written notes (before/after figures of hot-path changes) live in
# bench/results/<host>.notes.md and are appended, so a rerun does not lose them.
notes=bench/results/$host.notes.md
if [ -f "$notes" ]; then
    echo >>"$out"
    cat "$notes" >>"$out"
fi
echo "wrote $out" >&2
cat "$out"

if [ $commit = 1 ]; then
    # Only the report: git commit with a pathspec leaves anything else staged alone.
    if git add -- "$out" && git commit -q -m "bench/results: $day on $host ($describe)" -- "$out"; then
        echo "committed $out" >&2
    else
        echo "bench/run.sh: could not commit $out (outside the repository? --no-commit skips this)" >&2
        exit 1
    fi
fi
