#!/bin/sh
# Writes the JSON scene of a volumetric box of N x N x N cells, clamped at
# one end and turned at the other, with self-contact on: the volumetric
# bodies of bench/run.sh's thread-scaling section (issue 22's box).
#
#   bench/gen_box_twist.sh N [OUT.json]      (stdout without OUT.json)
#
# The box is [1, 0.4, 0.4] m with cells [N, N, N] (6 N^3 tets, (N + 1)^3
# vertices), Neo-Hookean rubber (E = 2e5 Pa, nu = 0.4, 1000 kg/m^3), no
# gravity, h = 0.04 s. Its x = 0 face is held and its x = 1 face turns at
# 2 rad/s about x; the Dirichlet boxes reach a quarter cell beyond each end
# face, so they select exactly the (N + 1)^2 vertices of that face.
#
#   N = 24, 26, 44 -> 82,944 / 105,456 / 511,104 tets
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 N [OUT.json]" >&2
    exit 1
fi
n=$1
case $n in
    '' | *[!0-9]*)
        echo "$0: N must be a positive integer, not '$n'" >&2
        exit 1
        ;;
esac
if [ "$n" -lt 1 ] || [ "$n" -gt 118 ]; then
    echo "$0: N must be between 1 and 118 (6 N^3 tets <= 1e7, the box mesher's limit)" >&2
    exit 1
fi

scene() {
    awk -v n="$n" 'BEGIN {
        m = 0.25 / n
        printf "// Thread scaling of bench/run.sh (bench/gen_box_twist.sh %d): a %d x %d x %d-cell box,\n", n, n, n, n
        printf "// %d tets, %d vertices, held at x = 0 and turned at x = 1, self-contact on.\n", 6 * n * n * n, (n + 1) * (n + 1) * (n + 1)
        printf "{\n"
        printf "  \"time_step\": 0.04,\n"
        printf "  \"duration\": 1.0,\n"
        printf "  \"gravity\": [0, 0, 0],\n"
        printf "  \"contact\": {\"self_collision\": true},\n"
        printf "  \"materials\": {\n"
        printf "    \"rubber\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 2e5, \"poisson_ratio\": 0.4}\n"
        printf "  },\n"
        printf "  \"bodies\": [{\n"
        printf "    \"name\": \"box\",\n"
        printf "    \"mesh\": {\"box\": {\"size\": [1.0, 0.4, 0.4], \"cells\": [%d, %d, %d]}},\n", n, n, n
        printf "    \"material\": \"rubber\",\n"
        printf "    \"dirichlet\": [\n"
        printf "      {\"min\": [%.17g, -0.01, -0.01], \"max\": [%.17g, 1.01, 1.01]},\n", -m, m
        printf "      {\"min\": [%.17g, -0.01, -0.01], \"max\": [%.17g, 1.01, 1.01], \"angular_velocity\": [2, 0, 0]}\n", 1 - m, 1 + m
        printf "    ]\n"
        printf "  }],\n"
        printf "  \"output\": {\"fps\": 1}\n"
        printf "}\n"
    }'
}

if [ $# -eq 2 ]; then
    scene >"$2"
else
    scene
fi
