// Per-tet elastic kernel cost: ns per ipcc_elastic_tet_evaluate call
// (energy + gradient + Hessian), unprojected and PSD-projected, for every
// model, on 4096 random 5 % perturbations of a rest tet.
//   bench_elastic_kernels [repetitions]      (default 200)
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ipcc/elastic.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned long long rng = 88172645463325252ull;
static double uniform(void) { // in [-1, 1)
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

enum { N = 4096 };
static double xs[N][12];

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 200;
    const double X[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    double Dm[9], V, mu, lambda;
    ipcc_tet_rest_data(X, Dm, &V);
    for (int k = 0; k < N; ++k)
        for (int i = 0; i < 12; ++i)
            xs[k][i] = X[i] + 0.05 * uniform();
    ipcc_lame_parameters(1e5, 0.4, &mu, &lambda);
    static const char *names[] = {"neo_hookean", "fixed_corotated", "stvk", "linear"};
    printf("| model | unprojected (ns/tet) | projected (ns/tet) |\n|---|---|---|\n");
    double sink = 0, g[12], H[144];
    for (int model = 0; model < 4; ++model) {
        double ns[2];
        for (int project = 0; project < 2; ++project) {
            double t0 = now();
            for (int r = 0; r < reps; ++r)
                for (int k = 0; k < N; ++k) {
                    sink += ipcc_elastic_tet_evaluate((ipcc_material_model)model, mu, lambda, V, Dm, xs[k],
                                                      project == 1, g, H);
                    sink += H[13] + g[5];
                }
            ns[project] = (now() - t0) / ((double)reps * N) * 1e9;
        }
        printf("| %s | %.0f | %.0f |\n", names[model], ns[0], ns[1]);
    }
    fprintf(stderr, "(checksum %g)\n", sink);
    return 0;
}
