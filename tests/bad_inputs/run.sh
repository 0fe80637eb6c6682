#!/bin/sh
# The bad-input catalogue driver: runs every case of cases.txt against the
# ipcc command and checks that bad input is refused cleanly.
#
#   usage: run.sh IPCC_BINARY SOURCE_DIR WORK_DIR [CASE_NAME]
#
# CASE_NAME runs that case alone; BAD_INPUTS_TIMEOUT sets the seconds a case
# may take (120).
#
# For each case (cases.txt documents the format) it
#   1. fills the case's output folder (@OUT) with a copy of a real run's
#      frames and writes a sentinel file (@FILE), all dated 2000-01-01;
#   2. runs ipcc from a private copy of tests/bad_inputs/ (a `run` without
#      -o gets `-o @OUT`), under `timeout` when available;
#   3. checks: the exit status is 1..127 (0 is a missed error, 124 a hang
#      under timeout, >= 128 a signal), stderr has no sanitizer report
#      (AddressSanitizer, LeakSanitizer, UBSan's "runtime error:") and
#      matches the case's regex, @OUT and @FILE are byte-identical with no
#      file added, removed or touched (nothing newer than a 2000-01-01 stamp),
#      and the input folder is unchanged (no stray output beside the inputs).
# One PASS or FAIL line per case, a summary, and exit status 1 if any case
# failed or the catalogue has fewer than MIN_CASES cases.
set -u
if [ $# -lt 3 ]; then
    echo "usage: run.sh IPCC_BINARY SOURCE_DIR WORK_DIR [CASE_NAME]" >&2
    exit 2
fi
IPCC=$1
SRC=$2
WORK=$3
ONLY=${4:-}
MIN_CASES=40
CATALOGUE=$SRC/tests/bad_inputs
TIMEOUT_SECONDS=${BAD_INPUTS_TIMEOUT:-120}

case $IPCC in /*) ;; *) IPCC=$(pwd)/$IPCC ;; esac
rm -rf "$WORK"
mkdir -p "$WORK/cases" || exit 1
WORK=$(cd "$WORK" && pwd)
cp -R "$CATALOGUE" "$WORK/inputs" || exit 1
INPUTS=$WORK/inputs

if command -v timeout >/dev/null 2>&1; then
    run_limited() { timeout -k 10 "$TIMEOUT_SECONDS" "$@"; }
    HAVE_TIMEOUT=1
else
    run_limited() { "$@"; }
    HAVE_TIMEOUT=0
fi

# Names, sizes and checksums of everything under a folder (or of one file).
snapshot() {
    if [ -d "$1" ]; then
        (cd "$1" && find . -print | LC_ALL=C sort && find . -type f -exec cksum {} + | LC_ALL=C sort)
    else
        cksum <"$1"
    fi
}

# $1 without leading and trailing blanks (no subshell: ~120 cases).
trim() {
    trimmed=${1#"${1%%[![:space:]]*}"}
    trimmed=${trimmed%"${trimmed##*[![:space:]]}"}
}

# The earlier output every case must leave alone: a real run's frames.
if ! (cd "$INPUTS" && "$IPCC" run good/scene.json -q -o "$WORK/sentinel") >"$WORK/sentinel.log" 2>&1 ||
    [ ! -f "$WORK/sentinel/frame_000002.vtu" ] || [ ! -f "$WORK/sentinel/frames.pvd" ]; then
    echo "FAIL setup: the good scene (good/scene.json) did not run:"
    sed 's/^/    /' "$WORK/sentinel.log"
    exit 1
fi
inputs_before=$(snapshot "$INPUTS")
STAMP=$WORK/stamp
touch -t 200001010001 "$STAMP"

total=0
failed=0
names=" "
while IFS= read -r line || [ -n "$line" ]; do
    case $line in '' | '#'*) continue ;; esac
    case $line in
    *'|'*'|'*) ;;
    *)
        echo "FAIL cases.txt: malformed line (expected name | arguments | regex): $line"
        failed=$((failed + 1))
        continue
        ;;
    esac
    trim "${line%%|*}"
    name=$trimmed
    rest=${line#*|}
    trim "${rest%%|*}"
    args=$trimmed
    trim "${rest#*|}"
    regex=$trimmed
    if [ -z "$name" ] || [ -z "$args" ] || [ -z "$regex" ]; then
        echo "FAIL cases.txt: empty field: $line"
        failed=$((failed + 1))
        continue
    fi
    case $names in *" $name "*)
        echo "FAIL $name: the name is used twice in cases.txt"
        failed=$((failed + 1))
        continue
        ;;
    esac
    names="$names$name "
    total=$((total + 1))
    [ -n "$ONLY" ] && [ "$name" != "$ONLY" ] && continue

    dir=$WORK/cases/$name
    out=$dir/out
    file=$dir/file
    mkdir -p "$dir"
    cp -R "$WORK/sentinel" "$out"
    printf 'sentinel: an earlier file that bad input must not touch\n' >"$file"
    touch -t 200001010000 "$out" "$out"/* "$file"
    out_before=$(snapshot "$out")
    file_before=$(snapshot "$file")

    # Split the arguments at blanks without globbing ([0] is a glob), put in
    # the placeholders, and give `run` an output folder.
    set -f
    set --
    has_output=0
    for word in $args; do
        case $word in *@OUT*) word=${word%%@OUT*}$out${word#*@OUT} ;; esac
        case $word in *@FILE*) word=${word%%@FILE*}$file${word#*@FILE} ;; esac
        case $word in -o | --output) has_output=1 ;; esac
        set -- "$@" "$word"
    done
    set +f
    [ "$1" = run ] && [ $has_output -eq 0 ] && set -- "$@" -o "$out"

    (cd "$INPUTS" && run_limited "$IPCC" "$@") >"$dir/stdout" 2>"$dir/stderr" </dev/null
    rc=$?

    why=""
    if [ "$rc" -eq 0 ]; then
        why="exit status 0: the bad input was accepted"
    elif [ "$HAVE_TIMEOUT" -eq 1 ] && [ "$rc" -eq 124 ]; then
        why="no answer within $TIMEOUT_SECONDS s (hang?)"
    elif [ "$rc" -ge 128 ]; then
        why="killed by signal $((rc - 128)) (exit status $rc)"
    fi
    if grep -Eq 'AddressSanitizer|LeakSanitizer|runtime error:|Sanitizer:' "$dir/stderr"; then
        why="${why:+$why; }sanitizer report in stderr"
    fi
    if ! grep -Eq -e "$regex" "$dir/stderr"; then
        why="${why:+$why; }stderr does not match /$regex/"
    fi
    if [ "$(snapshot "$out")" != "$out_before" ] || [ -n "$(find "$out" -newer "$STAMP" -print)" ]; then
        why="${why:+$why; }the earlier output in @OUT was changed or touched"
    fi
    if [ "$(snapshot "$file")" != "$file_before" ] || [ -n "$(find "$file" -newer "$STAMP" -print)" ]; then
        why="${why:+$why; }the sentinel file @FILE was changed or touched"
    fi
    if [ "$(snapshot "$INPUTS")" != "$inputs_before" ]; then
        why="${why:+$why; }files appeared or changed in the input folder"
        rm -rf "$INPUTS"
        cp -R "$CATALOGUE" "$INPUTS"
    fi

    if [ -z "$why" ]; then
        echo "PASS $name"
    else
        failed=$((failed + 1))
        echo "FAIL $name: $why"
        echo "    command: ipcc $*"
        echo "    exit status: $rc"
        sed 's/^/    stderr: /' "$dir/stderr"
    fi
done <"$CATALOGUE/cases.txt"

if [ -n "$ONLY" ]; then
    case $names in *" $ONLY "*) ;; *)
        echo "FAIL $ONLY: no such case in cases.txt"
        failed=$((failed + 1))
        ;;
    esac
elif [ "$total" -lt "$MIN_CASES" ]; then
    echo "FAIL catalogue: $total cases, at least $MIN_CASES are required"
    failed=$((failed + 1))
fi
echo "bad inputs: $total cases, $failed failed"
[ "$failed" -eq 0 ]
