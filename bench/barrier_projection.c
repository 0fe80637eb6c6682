// PSD projection of barrier Hessians: ns per block, LAPACK on the whole
// block (ipcc_project_psd, dsyev n x n) against the reduction through
// translation invariance (ipcc_project_psd_translation_free, dsyev
// 3(k - 1) square; barrier_potential.c), for PP, PE, PT and EE constraints
// at random placements inside d̂, and the largest difference between them.
//   bench_barrier_projection [repetitions]      (default 200)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collision/barrier_potential.h"
#include "geometry/distance.h"
#include "ipcc/elastic.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned long long rng = 88172645463325252ull;
static double uniform(double lo, double hi) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

enum { N = 2048 };
static double blocks[N][144];

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 200;
    const double dhat2 = 0.04;
    const char *names[] = {"PP (6x6)", "PE (9x9)", "PT (12x12)", "EE (12x12)"};
    printf(
        "| kind | blocks already PSD | LAPACK on the block (ns) | reduced (ns) | speed-up | max difference / "
        "max entry |\n|---|---|---|---|---|---|\n");
    double sink = 0;
    for (int kind = 0; kind < 4; ++kind) {
        int k = ipcc_contact_kind_vertices((ipcc_contact_kind)kind), n = 3 * k, got = 0, psd = 0;
        while (got < N) {
            double x[12], g[12];
            for (int i = 0; i < n; ++i)
                x[i] = uniform(-0.5, 0.5);
            if (kind == IPCC_CONTACT_PP)
                for (int i = 0; i < 3; ++i)
                    x[3 + i] = x[i] + uniform(-0.15, 0.15);
            if (kind == IPCC_CONTACT_PE)
                for (int i = 0; i < 3; ++i)
                    x[i] = 0.5 * (x[3 + i] + x[6 + i]) + uniform(-0.15, 0.15);
            if (kind == IPCC_CONTACT_EE &&
                ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9) != IPCC_EE_EA_EB)
                continue;
            double d = ipcc_contact_distance((ipcc_contact_kind)kind, x, NULL, NULL, NULL);
            if (!(d > 1e-4 && d < 0.9 * dhat2)) continue;
            ipcc_contact_barrier((ipcc_contact_kind)kind, x, NULL, dhat2, g, blocks[got], false);
            double copy[144];
            memcpy(copy, blocks[got], sizeof(double) * (size_t)(n * n));
            ipcc_project_psd(n, copy);
            psd += memcmp(copy, blocks[got], sizeof(double) * (size_t)(n * n)) == 0;
            got++;
        }
        double t[2] = {0, 0}, diff = 0, scale = 0;
        for (int method = 0; method < 2; ++method) {
            double t0 = now();
            for (int r = 0; r < reps; ++r)
                for (int b = 0; b < N; ++b) {
                    double H[144];
                    memcpy(H, blocks[b], sizeof(double) * (size_t)(n * n));
                    if (method == 0)
                        ipcc_project_psd(n, H);
                    else
                        ipcc_project_psd_translation_free(k, H);
                    sink += H[0];
                }
            t[method] = (now() - t0) / ((double)reps * N) * 1e9;
        }
        for (int b = 0; b < N; ++b) {
            double A[144], B[144];
            memcpy(A, blocks[b], sizeof(double) * (size_t)(n * n));
            memcpy(B, blocks[b], sizeof(double) * (size_t)(n * n));
            ipcc_project_psd(n, A);
            ipcc_project_psd_translation_free(k, B);
            for (int i = 0; i < n * n; ++i) {
                diff = fmax(diff, fabs(A[i] - B[i]));
                scale = fmax(scale, fabs(A[i]));
            }
        }
        printf("| %s | %.0f %% | %.0f | %.0f | %.2fx | %.1e |\n", names[kind], 100.0 * psd / N, t[0], t[1],
               t[0] / t[1], diff / scale);
    }
    fprintf(stderr, "(checksum %g)\n", sink);
    return 0;
}
