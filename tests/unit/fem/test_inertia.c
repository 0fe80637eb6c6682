// Tests for src/fem/inertia.c: lumped mass conservation, energies at known
// values, and gradients against central differences.
#include "support.h"

#include <math.h>
#include <string.h>

#include "fem/inertia.h"
#include "ipcc/mesh.h"

// A box [0,a] x [0,b] x [0,c] as the 6 Kuhn tets of a cube (vertex index =
// x-bit + 2 y-bit + 4 z-bit): each tet walks 0 -> e_p -> e_p + e_q -> 7.
static void kuhn_box(double a, double b, double c, double V[24], int T[24]) {
    for (int v = 0; v < 8; ++v) {
        V[3 * v] = (v & 1) ? a : 0;
        V[3 * v + 1] = (v & 2) ? b : 0;
        V[3 * v + 2] = (v & 4) ? c : 0;
    }
    static const int perms[6][3] = {{1, 2, 4}, {1, 4, 2}, {2, 1, 4}, {2, 4, 1}, {4, 1, 2}, {4, 2, 1}};
    for (int t = 0; t < 6; ++t) {
        T[4 * t] = 0;
        T[4 * t + 1] = perms[t][0];
        T[4 * t + 2] = perms[t][0] | perms[t][1];
        T[4 * t + 3] = 7;
    }
}

static void test_lumped_mass_from_mesh(void **state) {
    (void)state;
    double V[24];
    int T[24];
    kuhn_box(2.0, 3.0, 0.5, V, T);
    ipcc_mesh *mesh = NULL;
    assert_int_equal(ipcc_mesh_create(V, 8, T, 6, "kuhn box", NULL, &mesh), IPCC_OK);
    assert_non_null(mesh);
    double mass[8] = {0};
    const double density = 1000.0;
    ipcc_lumped_mass(mesh, mesh->vertices, density, mass);
    double total = 0;
    for (int i = 0; i < mesh->num_vertices; ++i) {
        assert_true(mass[i] > 0);
        total += mass[i];
    }
    assert_near(total, density * 2.0 * 3.0 * 0.5, 0, 1e-13);
    // Accumulates: a second call doubles every entry.
    double first = mass[0];
    ipcc_lumped_mass(mesh, mesh->vertices, density, mass);
    assert_near(mass[0], 2 * first, 0, 1e-15);
    ipcc_mesh_destroy(mesh);
}

// The same on a hand-built struct, independent of mesh validation: a single
// tet of either orientation gives density * |det Ds| / 24 to each vertex.
static void test_lumped_mass_single_tet(void **state) {
    (void)state;
    double X[12] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3};
    int tets[2][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}};
    for (int o = 0; o < 2; ++o) {
        ipcc_mesh mesh;
        memset(&mesh, 0, sizeof mesh);
        mesh.num_vertices = 4;
        mesh.vertices = X;
        mesh.num_tets = 1;
        mesh.tets = tets[o];
        double mass[4] = {0};
        ipcc_lumped_mass(&mesh, X, 10.0, mass);
        for (int i = 0; i < 4; ++i)
            assert_near(mass[i], 10.0 * 6.0 / 24.0, 0, 1e-15);
    }
}

static void test_energies_known_values(void **state) {
    (void)state;
    const double mass[2] = {2, 3};
    const double x[6] = {1, 0, 1, 0, 1, 2};
    const double xhat[6] = {0, 0, 1, 0, 0, 0};
    // 1/2 (2 * 1 + 3 * (1 + 4))
    assert_near(ipcc_inertia_energy(2, mass, x, xhat), 8.5, 0, 1e-15);
    assert_near(ipcc_inertia_energy(2, mass, x, x), 0.0, 0, 0);
    const double g[3] = {0, 0, -9.81};
    // -(2 * (-9.81) * 1 + 3 * (-9.81) * 2)
    assert_near(ipcc_gravity_energy(2, mass, g, x, NULL), 9.81 * 8, 0, 1e-15);
    // relative to x0 = x - (0, 0, 1) per vertex: -(2 + 3) g_z
    const double x0[6] = {1, 0, 0, 0, 1, 1};
    assert_near(ipcc_gravity_energy(2, mass, g, x, x0), 9.81 * 5, 0, 1e-15);

    double grad[6] = {1, 1, 1, 1, 1, 1};
    ipcc_gravity_gradient(2, mass, g, grad);
    const double expect[6] = {1, 1, 1 + 2 * 9.81, 1, 1, 1 + 3 * 9.81};
    assert_true(ipcc_test_rel_error(6, grad, expect, 1) <= 1e-15);
}

typedef struct fd_ctx {
    int n;
    const double *mass, *xhat, *gravity;
} fd_ctx;

static double inertia_fn(const double *x, void *ctx) {
    fd_ctx *c = ctx;
    return ipcc_inertia_energy(c->n, c->mass, x, c->xhat);
}
static double gravity_fn(const double *x, void *ctx) {
    fd_ctx *c = ctx;
    return ipcc_gravity_energy(c->n, c->mass, c->gravity, x, c->xhat);
}
static void inertia_grad_fn(const double *x, void *ctx, double *g) {
    fd_ctx *c = ctx;
    memset(g, 0, sizeof(double) * 3 * (size_t)c->n);
    ipcc_inertia_gradient(c->n, c->mass, x, c->xhat, g);
}

static void test_gradients_fd(void **state) {
    (void)state;
    enum { N = 5 };
    ipcc_test_seed(17);
    double mass[N], x[3 * N], xhat[3 * N], g[3 * N], g_fd[3 * N], H_fd[9 * N * N];
    const double gravity[3] = {0.3, -9.81, 1.5};
    for (int i = 0; i < N; ++i)
        mass[i] = ipcc_test_random(0.1, 5);
    for (int i = 0; i < 3 * N; ++i) {
        x[i] = ipcc_test_random(-2, 2);
        xhat[i] = ipcc_test_random(-2, 2);
    }
    fd_ctx ctx = {N, mass, xhat, gravity};

    memset(g, 0, sizeof g);
    ipcc_inertia_gradient(N, mass, x, xhat, g);
    ipcc_test_fd_gradient(3 * N, x, inertia_fn, &ctx, 1e-6, g_fd);
    assert_true(ipcc_test_rel_error(3 * N, g, g_fd, 1e-8) <= 1e-8);

    memset(g, 0, sizeof g);
    ipcc_gravity_gradient(N, mass, gravity, g);
    ipcc_test_fd_gradient(3 * N, x, gravity_fn, &ctx, 1e-6, g_fd);
    assert_true(ipcc_test_rel_error(3 * N, g, g_fd, 1e-8) <= 1e-8);

    // The documented inertia Hessian diag(m_i) per component.
    ipcc_test_fd_hessian(3 * N, x, inertia_grad_fn, &ctx, 1e-6, H_fd);
    for (int r = 0; r < 3 * N; ++r)
        for (int c = 0; c < 3 * N; ++c)
            assert_near(H_fd[3 * N * r + c], r == c ? mass[r / 3] : 0.0, 1e-8, 1e-8);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lumped_mass_from_mesh),
        cmocka_unit_test(test_lumped_mass_single_tet),
        cmocka_unit_test(test_energies_known_values),
        cmocka_unit_test(test_gradients_fd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
