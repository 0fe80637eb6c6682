// Boundary conditions and placement features used by IPC scripts and the
// native format: Neumann loads (exact free fall under a load), Dirichlet
// vertex lists, pivots and stop triggers (hold and release), Rayleigh
// damping (an oscillation decays faster), and affine transforms.
#include <math.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

static ipcc_world *world_with(const ipcc_world_def *def, const ipcc_body_def *body) {
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(def, &w), IPCC_OK);
    if (ipcc_world_add_body(w, body, NULL) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    return w;
}

static double mean_coord(const ipcc_world *w, int k) {
    const double *x = ipcc_world_positions(w);
    double s = 0;
    for (int i = 0; i < ipcc_world_num_vertices(w); ++i)
        s += x[3 * i + k];
    return s / ipcc_world_num_vertices(w);
}

// A load a on every vertex, no gravity: backward Euler gives exactly
// y_n = y_0 + a h^2 n (n + 1) / 2 (a rigid body, elastic forces zero), and
// after the load ends (t >= end) the body coasts at the velocity it had.
static void neumann_free_fall(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 2, 2, 0.2, 0.2, 0.2);
    ipcc_neumann_def load = ipcc_default_neumann_def(); // the whole body from t = 0
    load.acceleration[1] = -3;
    load.end = 0.1;
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_neumann = 1;
    body.neumann = &load;
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.time_step = 0.01;
    def.newton_tolerance = 1e-9;
    ipcc_world *w = world_with(&def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    double y0 = mean_coord(w, 1), h = def.time_step;
    for (int n = 1; n <= 10; ++n) {
        assert_true(ipcc_world_step(w, NULL) >= 0);
        assert_near(mean_coord(w, 1), y0 - 3 * h * h * n * (n + 1) / 2.0, 1e-12, 1e-9);
    }
    // t = 0.1: the load has ended (the running sum of h may sit just below 0.1,
    // so allow one more loaded step), then constant velocity.
    assert_true(ipcc_world_step(w, NULL) >= 0);
    double y1 = mean_coord(w, 1);
    assert_true(ipcc_world_step(w, NULL) >= 0);
    double y2 = mean_coord(w, 1);
    assert_true(ipcc_world_step(w, NULL) >= 0);
    double y3 = mean_coord(w, 1);
    assert_near(y3 - y2, y2 - y1, 1e-12, 1e-9);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

// A listed group of vertices moves at 1 m/s in x until its max x passes
// value, then holds; another group with the same trigger releases.
static void stop_trigger_hold_and_release(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(4, 1, 1, 0.4, 0.1, 0.1);
    // The +x end face: vertices with x = 0.4.
    int face[64], nface = 0;
    for (int i = 0; i < mesh->num_vertices; ++i)
        if (mesh->vertices[3 * i] > 0.39) face[nface++] = i;
    int left[64], nleft = 0;
    for (int i = 0; i < mesh->num_vertices; ++i)
        if (mesh->vertices[3 * i] < 0.01) left[nleft++] = i;
    ipcc_dirichlet_def bc[2] = {ipcc_default_dirichlet_def(), ipcc_default_dirichlet_def()};
    bc[0].num_vertices = nface;
    bc[0].vertices = face;
    bc[0].velocity[0] = 1;
    bc[0].stop = (ipcc_stop_trigger){
        .axis = 0, .first_vertex = face[0], .num_vertices = 1, .above = true, .value = 0.455};
    bc[1].num_vertices = nleft;
    bc[1].vertices = left;
    bc[1].stop = (ipcc_stop_trigger){.axis = 0,
                                     .first_vertex = face[0],
                                     .num_vertices = 1,
                                     .above = true,
                                     .value = 0.455,
                                     .release = true};
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_dirichlet = 2;
    body.dirichlet = bc;
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.time_step = 0.01;
    def.newton_tolerance = 1e-6;
    ipcc_world *w = world_with(&def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    const double *x = ipcc_world_positions(w);
    // x of the tracked vertex: 0.4 + 0.01 n while moving; the trigger sees
    // 0.46 > 0.455 at the start of step 7 and holds it there.
    for (int n = 1; n <= 6; ++n) {
        assert_true(ipcc_world_step(w, NULL) >= 0);
        if (fabs(x[3 * face[0]] - (0.4 + 0.01 * n)) > 1e-9) fail_msg("step %d: x = %.15g", n, x[3 * face[0]]);
        assert_true(ipcc_world_vertex_is_prescribed(w, left[0]));
    }
    for (int n = 7; n <= 12; ++n) {
        assert_true(ipcc_world_step(w, NULL) >= 0);
        assert_near(x[3 * face[0]], 0.46, 1e-12, 1e-9);
        assert_true(ipcc_world_vertex_is_prescribed(w, face[0]));
        assert_false(ipcc_world_vertex_is_prescribed(w, left[0])); // released
    }
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

// Rotation about an explicit pivot: every selected vertex keeps its distance
// to the pivot, and a quarter turn maps (p - c) to R(pi/2)(p - c).
static void pivot_rotation(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 1, 1, 0.2, 0.1, 0.1);
    ipcc_dirichlet_def bc = ipcc_default_dirichlet_def(); // every vertex
    bc.angular_velocity[2] = 1.5707963267948966;          // a quarter turn per second about z
    bc.has_pivot = true;
    bc.pivot[0] = 1;
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_dirichlet = 1;
    body.dirichlet = &bc;
    ipcc_world_def def = ipcc_default_world_def();
    def.time_step = 0.05;
    ipcc_world *w = world_with(&def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int n = 0; n < 20; ++n)
        assert_true(ipcc_world_step(w, NULL) >= 0);
    const double *x = ipcc_world_positions(w), *X = ipcc_world_rest_positions(w);
    for (int i = 0; i < ipcc_world_num_vertices(w); ++i) {
        double rx = X[3 * i] - 1, ry = X[3 * i + 1];
        assert_near(x[3 * i], 1 - ry, 1e-12, 1e-9);
        assert_near(x[3 * i + 1], rx, 1e-12, 1e-9);
        assert_near(x[3 * i + 2], X[3 * i + 2], 1e-12, 1e-9);
    }
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

// Kinetic + elastic energy of a bar released from a stretch, after n steps.
static double energy_after(double damping, int n) {
    ipcc_mesh *mesh = ipcc_test_box_mesh(4, 1, 1, 0.4, 0.1, 0.1);
    ipcc_dirichlet_def bc = ipcc_default_dirichlet_def();
    bc.box_max[0] = 0.01; // the -x end clamped
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.num_dirichlet = 1;
    body.dirichlet = &bc;
    body.material.youngs_modulus = 1e5;
    // Start with a stretch velocity: v_x = 2 x.
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.time_step = 0.002;
    def.newton_tolerance = 1e-6;
    def.damping = damping;
    body.velocity[0] = 0.2;
    ipcc_world *w = world_with(&def, &body);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < n; ++s)
        assert_true(ipcc_world_step(w, NULL) >= 0);
    double e = ipcc_test_kinetic_energy(w) + ipcc_world_elastic_energy(w);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
    return e;
}

// Rayleigh damping: the clamped bar rings down faster with beta > 0, and
// more with a larger beta.
static void damping_dissipates(void **state) {
    (void)state;
    double e0 = energy_after(0, 60), e1 = energy_after(1e-3, 60), e2 = energy_after(1e-2, 60);
    assert_true(e0 > 0);
    assert_true(e1 < 0.9 * e0);
    assert_true(e2 < 0.5 * e1);
}

// A transform places the file's vertices by x = A p + b exactly; a
// mirroring transform is refused.
static void affine_transform(void **state) {
    (void)state;
    ipcc_mesh *mesh = ipcc_test_box_mesh(1, 1, 1, 1, 1, 1);
    ipcc_body_def body = ipcc_default_body_def();
    body.mesh = mesh;
    body.use_transform = true;
    double T[12] = {0, -2, 0, 1, 1, 0, 0, 2, 0, 0, 0.5, 3};
    memcpy(body.transform, T, sizeof T);
    ipcc_world_def def = ipcc_default_world_def();
    ipcc_world *w = world_with(&def, &body);
    const double *X = ipcc_world_rest_positions(w);
    for (int i = 0; i < mesh->num_vertices; ++i) {
        const double *p = mesh->vertices + 3 * i;
        assert_true(X[3 * i] == -2 * p[1] + 1);
        assert_true(X[3 * i + 1] == p[0] + 2);
        assert_true(X[3 * i + 2] == 0.5 * p[2] + 3);
    }
    ipcc_world_destroy(w);
    body.transform[0] = -1; // det < 0 after this flip of the first row? make it a mirror:
    double M[12] = {-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    memcpy(body.transform, M, sizeof M);
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    assert_int_equal(ipcc_world_add_body(w, &body, NULL), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "determinant"));
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(neumann_free_fall), cmocka_unit_test(stop_trigger_hold_and_release),
        cmocka_unit_test(pivot_rotation),    cmocka_unit_test(damping_dissipates),
        cmocka_unit_test(affine_transform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
