#!/bin/sh
# Writes the JSON scene of an N x N mat twisted from both ends, the scaling
# series of bench/run.sh: examples/mat_twist.json at another resolution.
#
#   bench/gen_mat_twist.sh N [OUT.json]      (stdout without OUT.json)
#
# The mat is a generated box, size [1, 1/N, 1] m with cells [N, 1, N], so
# every cell is a cube of side 1/N and the mesh has 6 N^2 tets and
# 2 (N + 1)^2 vertices. As in the example: Neo-Hookean rubber (E = 2e4 Pa,
# nu = 0.4, 1000 kg/m^3), no gravity, h = 0.04 s, and the two x-ends turned
# in opposite directions at 2 rad/s about x. The Dirichlet boxes reach a
# quarter cell beyond each end face (normalized coordinates +-0.25/N), so they
# select exactly the 2 (N + 1) vertices of that face at any N (the example's
# +-0.01 would also catch the next column once N > 100). The unknowns are
# 3 (2 (N + 1)^2 - 4 (N + 1)).
#
# Frames: output.fps = 1, so a run of fewer than 25 steps writes frame 0 and
# its last step only (the benchmark times the solver, not the disk); the
# runner passes --steps, duration only bounds a run without it.
#
#   N = 41, 92, 130, 183, 290, 409 -> 10,086 / 50,784 / 101,400 / 200,934 /
#   504,600 / 1,003,686 tets
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
if [ "$n" -lt 1 ] || [ "$n" -gt 1290 ]; then
    echo "$0: N must be between 1 and 1290 (6 N^2 tets <= 1e7, the box mesher's limit)" >&2
    exit 1
fi

scene() {
    awk -v n="$n" 'BEGIN {
        m = 0.25 / n
        printf "// Scaling series of bench/run.sh (bench/gen_mat_twist.sh %d): a %d x %d mat,\n", n, n, n
        printf "// %d tets, %d vertices, twisted from both ends like examples/mat_twist.json.\n", 6 * n * n, 2 * (n + 1) * (n + 1)
        printf "{\n"
        printf "  \"time_step\": 0.04,\n"
        printf "  \"duration\": 3.0,\n"
        printf "  \"gravity\": [0, 0, 0],\n"
        printf "  \"materials\": {\n"
        printf "    \"rubber\": {\"model\": \"neo_hookean\", \"density\": 1000, \"youngs_modulus\": 2e4, \"poisson_ratio\": 0.4}\n"
        printf "  },\n"
        printf "  \"bodies\": [{\n"
        printf "    \"name\": \"mat\",\n"
        printf "    \"mesh\": {\"box\": {\"size\": [1.0, %.17g, 1.0], \"cells\": [%d, 1, %d]}},\n", 1.0 / n, n, n
        printf "    \"material\": \"rubber\",\n"
        printf "    \"dirichlet\": [\n"
        printf "      {\"min\": [%.17g, -0.01, -0.01], \"max\": [%.17g, 1.01, 1.01], \"angular_velocity\": [2, 0, 0]},\n", -m, m
        printf "      {\"min\": [%.17g, -0.01, -0.01], \"max\": [%.17g, 1.01, 1.01], \"angular_velocity\": [-2, 0, 0]}\n", 1 - m, 1 + m
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
