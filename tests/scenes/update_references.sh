#!/bin/sh
# Regenerate the committed reference outputs of the regression scenes:
# runs every tests/scenes/*.json (or only the scenes named) with the given
# ipcc binary and replaces tests/scenes/reference/<scene>/ with its
# frames.pvd, .vtu and .vtp files (stats.csv is not kept: it holds wall
# times). Use it only after a deliberate change of results (a solver or
# scene change that the scene_* tests report as a difference), check the
# new frames (ParaView, scene_frames_check), and commit them with the
# change that explains them. See docs/regression-testing.md.
#
#   usage: tests/scenes/update_references.sh IPCC_BINARY [SCENE_NAME...]
set -eu
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 IPCC_BINARY [SCENE_NAME...]" >&2
    exit 1
fi
IPCC=$1
shift
HERE=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
    set --
    for scene in "$HERE"/*.json; do set -- "$@" "$(basename "$scene" .json)"; done
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for name in "$@"; do
    scene=$HERE/$name.json
    [ -f "$scene" ] || { echo "no scene $scene" >&2; exit 1; }
    # One thread: results are bit-identical for any count, this just keeps it quiet.
    OMP_NUM_THREADS=1 "$IPCC" run "$scene" -o "$TMP/$name" -q >"$TMP/$name.log" 2>&1 || {
        cat "$TMP/$name.log" >&2
        echo "$name: ipcc run failed" >&2
        exit 1
    }
    ref=$HERE/reference/$name
    rm -rf "$ref"
    mkdir -p "$ref"
    cp "$TMP/$name"/frames.pvd "$TMP/$name"/*.vtu "$ref"/
    for f in "$TMP/$name"/*.vtp; do [ -e "$f" ] && cp "$f" "$ref"/; done
    echo "$name: $(ls "$ref" | wc -l) files, $(cat "$ref"/* | wc -c) bytes in ${ref#"$HERE"/}"
done
echo "total: $(cat "$HERE"/reference/*/* | wc -c) bytes in tests/scenes/reference (keep it below 600 KB)"
