// Tests for per-tet materials (src/world/world_bodies.c, ipcc_world_tet_law() in
// src/world/world.h): a body made of two regions with different
// materials.
//
// Bar [0, 2] x [0, 1] x [0, 1] m, region 1 (x < 1) and region 2 (x > 1).
// Stretched by U along x with the x = 0 face held and the x = 2 face moved
// rigidly (static solve, no gravity), Poisson's ratio 0: the exact linear
// solution is u = (f(x), 0, 0) with a uniform stress sigma, strain
// sigma / E_r in each half, i.e. two springs in series:
//   u(1) = U (1 / E1) / (1 / E1 + 1 / E2) = U E2 / (E1 + E2).
// Linear tets represent this piecewise-linear field exactly, so the linear
// model must match it to the solver's tolerance, and the strain ratio of
// the halves must equal the modulus ratio.
// Lumped mass: each tet gives rho_e V_e / 4 to each vertex, so the total is
// sum_r rho_r V_r and the first moment sum_i m_i x_i = sum_e rho_e V_e c_e
// (c_e the centroid) exactly.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "world/world.h"

static const double E1 = 1e5, E2 = 4e5, RHO1 = 500, RHO2 = 2000, U = 0.01;

// The bar as a box mesh with regions by centroid; *tet_materials: region 1 -> -1
// (the body's own material), region 2 -> materials[0].
static ipcc_mesh *two_region_bar(int **tet_materials) {
    ipcc_mesh *m = NULL;
    double size[3] = {2, 1, 1};
    assert_int_equal(ipcc_mesh_create_box(8, 2, 2, size, &m), IPCC_OK);
    int *regions = malloc(sizeof(int) * (size_t)m->num_tets);
    *tet_materials = malloc(sizeof(int) * (size_t)m->num_tets);
    for (int t = 0; t < m->num_tets; t++) {
        double cx = 0;
        for (int k = 0; k < 4; k++)
            cx += m->vertices[3 * m->tets[4 * t + k]] / 4;
        regions[t] = cx < 1 ? 1 : 2;
        (*tet_materials)[t] = cx < 1 ? -1 : 0;
    }
    assert_int_equal(ipcc_mesh_set_regions(m, regions, 0, NULL, NULL), IPCC_OK);
    free(regions);
    return m;
}

static ipcc_world *stretched_bar(const ipcc_mesh *mesh, const int *tet_materials, ipcc_material_model model,
                                 const ipcc_material *second) {
    static ipcc_dirichlet_def ends[2];
    ends[0] = ipcc_default_dirichlet_def();
    ends[0].box_max[0] = 1e-9; // x = 0: held
    ends[1] = ipcc_default_dirichlet_def();
    ends[1].box_min[0] = 1 - 1e-9; // x = 2: moved by U in the one static step
    ends[1].velocity[0] = U;
    ipcc_body_def body = ipcc_default_body_def();
    body.name = "bar";
    body.mesh = mesh;
    body.material.model = model;
    body.material.youngs_modulus = E1;
    body.material.poisson_ratio = 0.0;
    body.material.density = RHO1;
    body.num_materials = 1;
    body.materials = second;
    body.tet_materials = tet_materials;
    body.num_dirichlet = 2;
    body.dirichlet = ends;
    ipcc_world_def def = ipcc_default_world_def();
    def.integrator = IPCC_STATIC;
    def.time_step = 1.0;
    def.gravity[1] = 0;
    def.contact.enabled = false;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    if (ipcc_world_add_body(w, &body, NULL) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    return w;
}

static ipcc_material second_material(ipcc_material_model model) {
    ipcc_material m = ipcc_default_material();
    m.model = model;
    m.youngs_modulus = E2;
    m.poisson_ratio = 0.0;
    m.density = RHO2;
    return m;
}

// Mean x displacement of the vertices on the plane x = at.
static double displacement_at(const ipcc_world *w, double at) {
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    double sum = 0;
    int n = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); i++)
        if (fabs(X[3 * i] - at) < 1e-9) {
            sum += x[3 * i] - X[3 * i];
            n++;
        }
    assert_true(n > 0);
    return sum / n;
}

static void test_series_springs(void **state) {
    (void)state;
    const ipcc_material_model models[] = {IPCC_LINEAR, IPCC_NEO_HOOKEAN};
    for (int k = 0; k < 2; k++) {
        int *tet_materials;
        ipcc_mesh *mesh = two_region_bar(&tet_materials);
        ipcc_material second = second_material(models[k]);
        ipcc_world *w = stretched_bar(mesh, tet_materials, models[k], &second);
        if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        // The helper every element loop uses: region 2's tets read E2's parameters.
        for (int e = 0; e < w->nt; e++) {
            ipcc_material_model model;
            double mu, lambda;
            ipcc_world_tet_law(w, e, &model, &mu, &lambda);
            assert_int_equal(model, models[k]);
            assert_near(mu, (tet_materials[e] < 0 ? E1 : E2) / 2, 0, 1e-15); // nu = 0: mu = E / 2
            assert_near(lambda, 0.0, 1e-12, 0.0);
        }
        ipcc_step_stats st;
        assert_int_equal(ipcc_world_step(w, &st), IPCC_OK);
        double u_end = displacement_at(w, 2.0), u_mid = displacement_at(w, 1.0);
        double eps1 = u_mid / 1.0, eps2 = (u_end - u_mid) / 1.0;
        print_message("%s: u(1) = %.6e (series springs %.6e), strain ratio %.5f (E2/E1 = %.1f)\n",
                      k == 0 ? "linear" : "neo-Hookean", u_mid, U * E2 / (E1 + E2), eps1 / eps2, E2 / E1);
        assert_near(u_end, U, 1e-12, 0.0);
        // Exact for the linear model; neo-Hookean at 1 % strain within a few tenths of a percent.
        double rtol = models[k] == IPCC_LINEAR ? 1e-6 : 1e-2;
        assert_near(u_mid, U * E2 / (E1 + E2), 0.0, rtol);
        assert_near(eps1 / eps2, E2 / E1, 0.0, rtol);
        ipcc_world_destroy(w);
        ipcc_mesh_destroy(mesh);
        free(tet_materials);
    }
}

// A body of one material is not affected: swapping the two materials'
// roles (every tet on materials[0]) is the same as the plain body.
static void test_uniform_materials_match_plain_body(void **state) {
    (void)state;
    int *tet_materials;
    ipcc_mesh *mesh = two_region_bar(&tet_materials);
    ipcc_material second = second_material(IPCC_LINEAR);
    second.youngs_modulus = E1;
    second.density = RHO1;
    ipcc_world *a = stretched_bar(mesh, tet_materials, IPCC_LINEAR, &second);
    if (ipcc_world_start(a) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_world *b = stretched_bar(mesh, NULL, IPCC_LINEAR, &second);
    if (ipcc_world_start(b) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_step_stats st;
    assert_int_equal(ipcc_world_step(a, &st), IPCC_OK);
    assert_int_equal(ipcc_world_step(b, &st), IPCC_OK);
    for (int i = 0; i < 3 * ipcc_world_num_vertices(a); i++)
        assert_near(ipcc_world_positions(a)[i], ipcc_world_positions(b)[i], 1e-12, 0.0);
    assert_near(displacement_at(b, 1.0), U / 2, 0.0, 1e-6);
    ipcc_world_destroy(a);
    ipcc_world_destroy(b);
    ipcc_mesh_destroy(mesh);
    free(tet_materials);
}

static void test_lumped_mass_per_region(void **state) {
    (void)state;
    int *tet_materials;
    ipcc_mesh *mesh = two_region_bar(&tet_materials);
    ipcc_material second = second_material(IPCC_NEO_HOOKEAN);
    ipcc_world *w = stretched_bar(mesh, tet_materials, IPCC_NEO_HOOKEAN, &second);
    const double *m = ipcc_world_masses(w), *X = ipcc_world_rest_positions(w);
    double total = 0, moment = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); i++) {
        total += m[i];
        moment += m[i] * X[3 * i];
    }
    // Region 1: [0,1]^3 of density RHO1, centroid x 0.5; region 2: [1,2] x [0,1]^2, RHO2, x 1.5.
    assert_near(total, RHO1 * 1.0 + RHO2 * 1.0, 0.0, 1e-12);
    assert_near(moment, RHO1 * 0.5 + RHO2 * 1.5, 0.0, 1e-12);
    // Vertex by vertex: a quarter of rho_e V_e of every tet around it, rho_e its own.
    double *expect = calloc((size_t)mesh->num_vertices, sizeof *expect);
    for (int e = 0; e < mesh->num_tets; e++) {
        const double *p[4];
        for (int k = 0; k < 4; k++)
            p[k] = X + 3 * mesh->tets[4 * e + k];
        double a[3], b[3], c[3];
        for (int d = 0; d < 3; d++)
            a[d] = p[1][d] - p[0][d], b[d] = p[2][d] - p[0][d], c[d] = p[3][d] - p[0][d];
        double V = (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                    a[2] * (b[0] * c[1] - b[1] * c[0])) /
                   6;
        for (int k = 0; k < 4; k++)
            expect[mesh->tets[4 * e + k]] += (tet_materials[e] < 0 ? RHO1 : RHO2) * V / 4;
    }
    for (int i = 0; i < mesh->num_vertices; i++)
        assert_near(m[i], expect[i], 0.0, 1e-12);
    free(expect);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    free(tet_materials);
}

static void test_bad_per_tet_materials(void **state) {
    (void)state;
    int *tet_materials;
    ipcc_mesh *mesh = two_region_bar(&tet_materials);
    ipcc_material second = second_material(IPCC_LINEAR);
    ipcc_world_def def = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_body_def body = ipcc_default_body_def();
    body.name = "bar";
    body.mesh = mesh;
    body.num_materials = 1;
    body.materials = &second;
    body.tet_materials = tet_materials;
    tet_materials[3] = 1; // past materials[0]
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "body \"bar\": tet_materials[3] = 1 is out of range"));
    tet_materials[3] = 0;
    second.poisson_ratio = 0.5;
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "body \"bar\": materials[0]: poisson_ratio"));
    assert_int_equal(ipcc_world_num_bodies(w), 0);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    free(tet_materials);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_series_springs),
        cmocka_unit_test(test_uniform_materials_match_plain_body),
        cmocka_unit_test(test_lumped_mass_per_region),
        cmocka_unit_test(test_bad_per_tet_materials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
