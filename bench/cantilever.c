// Mesh-refinement study of the static cantilever against Euler-Bernoulli
// (the CI test tests/scenes/test_cantilever.c stops at 40x4x4; this goes finer).
//   bench_cantilever [max_nx]     (default 160: 160x16x16 cells, 245,760 tets)
// Prints one Markdown table row per mesh.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ipcc/ipcc.h"

int main(int argc, char **argv) {
    int max_nx = argc > 1 ? atoi(argv[1]) : 160;
    const double L = 1.0, a = 0.1, E = 1e9, rho = 1000, g = 9.81;
    double eb = rho * g * a * a * pow(L, 4) / (8 * E * pow(a, 4) / 12);
    printf("| cells | tets | unknowns | tip deflection (m) | / Euler-Bernoulli | Newton its | wall (s) |\n");
    printf("|---|---|---|---|---|---|---|\n");
    double prev = 0;
    for (int nx = 10; nx <= max_nx; nx *= 2) {
        int ny = nx / 10;
        ipcc_mesh *mesh = NULL;
        double size[3] = {L, a, a};
        if (ipcc_mesh_create_box(nx, ny, ny, size, &mesh) != IPCC_OK) return 1;
        ipcc_dirichlet_def clamp = ipcc_default_dirichlet_def();
        clamp.box_max[0] = 1e-9;
        ipcc_body_def body = ipcc_default_body_def();
        body.mesh = mesh;
        body.material.youngs_modulus = E;
        body.material.poisson_ratio = 0;
        body.material.density = rho;
        body.num_dirichlet = 1;
        body.dirichlet = &clamp;
        ipcc_world_def def = ipcc_default_world_def();
        def.integrator = IPCC_STATIC;
        def.newton_tolerance =
            1e-8; // |p| <= 1e-8 m, 1e-5 of the deflection; 1e-10 is below the roundoff floor at 245k tets
        ipcc_world *w = NULL;
        if (ipcc_world_create(&def, &w) != IPCC_OK || ipcc_world_add_body(w, &body, NULL) != IPCC_OK ||
            ipcc_world_start(w) != IPCC_OK) {
            fprintf(stderr, "%s\n", ipcc_last_error());
            return 1;
        }
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) {
            fprintf(stderr, "%s\n", ipcc_last_error());
            return 1;
        }
        const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
        double sum = 0;
        int count = 0, free_vertices = 0;
        for (int i = 0; i < ipcc_world_num_vertices(w); ++i) {
            if (X[3 * i] > L - 1e-9) sum += X[3 * i + 1] - x[3 * i + 1], count++;
            if (!ipcc_world_vertex_is_prescribed(w, i)) free_vertices++;
        }
        double tip = sum / count;
        printf("| %dx%dx%d | %d | %d | %.6e | %.4f | %d | %.2f |\n", nx, ny, ny, ipcc_world_num_tets(w),
               3 * free_vertices, tip, tip / eb, st.newton_iterations, st.time_total);
        if (prev > 0)
            printf("|  | Richardson (last two) |  | %.6e | %.4f |  |  |\n", tip + (tip - prev) / 3,
                   (tip + (tip - prev) / 3) / eb);
        fflush(stdout);
        prev = tip;
        ipcc_world_destroy(w);
        ipcc_mesh_destroy(mesh);
    }
    printf("\nEuler-Bernoulli q L^4 / (8 E I) = %.6e m (L = 1 m, a = 0.1 m, E = 1 GPa, nu = 0, rho = 1000)\n",
           eb);
    return 0;
}
