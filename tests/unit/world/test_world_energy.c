// Energies and momenta of the world's state (src/world/world_energy.c,
// ipcc_world_energies) and their columns in stats.csv:
// - free fall without contact: implicit Euler's momentum grows by h M g per
//   step and its kinetic + gravitational energy loses exactly 1/2 h^2 M |g|^2
//   per step (v' = v + h g, x' = x + h v'); Newmark (1/4, 1/2) keeps it;
// - a cube spinning without gravity: linear momentum is conserved, the
//   angular momentum about the origin starts at M c x v + I w (I from the
//   lumped masses), and each implicit Euler step changes it by exactly
//   h sum_i m_i v'_i x v_i (x' = x + h v' and the elastic forces' zero net
//   torque about the origin);
// - a clamped beam swinging under gravity: Newmark's total energy stays
//   within 1% of the energy that implicit Euler dissipates (which only falls);
// - a cube stretched uniformly by F = diag(a, 1, 1): the elastic energy is
//   V (mu/2 (a^2 - 1) - mu ln a + lambda/2 (ln a)^2), the masses sum to rho V;
// - a cube dropped on a half-space: the barrier energy is > 0 exactly in the
//   steps that end with contacts;
// - reading energies changes no later step, and they are the same with 1
//   and 3 threads;
// - stats.csv carries them after time_energy, by name, bit for bit; an
//   older stats.csv (without them) resumes without them, and one with a
//   box's "(edges)" columns keeps them, filled.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cmocka.h>

#include "ipcc/output.h"
#include "ipcc/world.h"
#include "support.h"
#include "world_checks.h"
#include "world/world.h"

static double norm3(const double a[3]) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/// A world with one cube of side `side` (2 x 2 x 2 cells) at `at`.
static ipcc_world *cube_world(const ipcc_world_def *wd, double side, const double at[3], const double v[3],
                              const double omega[3]) {
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(wd, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 2, 2, side, side, side);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "cube";
    bd.mesh = mesh;
    bd.material.youngs_modulus = 1e5;
    memcpy(bd.translation, at, sizeof bd.translation);
    if (v) memcpy(bd.velocity, v, sizeof bd.velocity);
    if (omega) memcpy(bd.angular_velocity, omega, sizeof bd.angular_velocity);
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    return w;
}

static double total_mass(const ipcc_world *w) {
    double m = 0;
    for (int i = 0; i < ipcc_world_num_deformable_vertices(w); i++)
        m += ipcc_world_masses(w)[i];
    return m;
}

// A stats.csv of an older ipcc at `path`: the 26 usual columns, then
// `middle` (column names, each after a comma), then three force columns
// per object of `names` (NULL-terminated); `rows` rows of `fields` zeros.
static void write_older_stats(const char *path, const char *middle, const char *const *names, int rows,
                              int fields) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f,
            "step,time,newton_iterations,line_search_steps,factorization_fallbacks,energy,residual,converged,"
            "velocity_error,time_assembly,time_factorization,time_solve,time_line_search,time_total,lift_"
            "iterations,num_contacts,min_distance,kappa,time_ccd,time_broad_phase,friction_iterations,"
            "friction_contacts,friction_dissipation,time_symbolic,time_constraint_search,time_energy%s",
            middle);
    for (const char *const *n = names; *n; n++)
        fprintf(f, ",contact_force_x:%s,contact_force_y:%s,contact_force_z:%s", *n, *n, *n);
    fprintf(f, "\n");
    for (int s = 1; s <= rows; s++) {
        fprintf(f, "%d", s);
        for (int k = 1; k < fields; k++)
            fprintf(f, ",0");
        fprintf(f, "\n");
    }
    fclose(f);
}

static const char *const cube_and_ground[] = {"cube", "half-space 0", NULL};

static ipcc_energies energies(const ipcc_world *w) {
    ipcc_energies e;
    assert_int_equal(ipcc_world_energies(w, &e), IPCC_OK);
    return e;
}

static void free_fall(ipcc_integrator integrator) {
    ipcc_world_def wd = ipcc_default_world_def();
    wd.integrator = integrator;
    wd.gravity[0] = 1, wd.gravity[1] = -9.81, wd.gravity[2] = 0.5;
    const double at[3] = {0.3, 1, -0.2}, v0[3] = {1, 2, 0.5};
    ipcc_world *w = cube_world(&wd, 0.2, at, v0, NULL);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    const double M = total_mass(w), h = wd.time_step, g2 = norm3(wd.gravity) * norm3(wd.gravity);
    ipcc_energies e0 = energies(w);
    assert_near(e0.kinetic, 0.5 * M * (v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2]), 0, 1e-14);
    assert_near(e0.linear_momentum[1], M * v0[1], 0, 1e-14);
    assert_near(e0.elastic, 0, 1e-12 * M, 0); // the rest shape, up to rounding
    assert_true(e0.barrier == 0);
    for (int s = 0; s < 20; s++) {
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
        ipcc_energies e1 = energies(w);
        for (int k = 0; k < 3; k++) // p' = p + h M g
            assert_near(e1.linear_momentum[k] - e0.linear_momentum[k], h * M * wd.gravity[k], 1e-9 * M, 0);
        // implicit Euler: T' + U' = T + U - 1/2 h^2 M |g|^2; Newmark: T' + U' = T + U
        double loss = integrator == IPCC_IMPLICIT_EULER ? 0.5 * h * h * M * g2 : 0;
        double change = e1.kinetic + e1.gravitational - e0.kinetic - e0.gravitational;
        assert_near(change, -loss, 1e-9 * M, 0);
        assert_near(e1.elastic, 0, 1e-12 * M, 0); // a rigid translation
        assert_true(e1.barrier == 0);             // nothing to touch
        e0 = e1;
    }
    ipcc_world_destroy(w);
}

static void test_free_fall(void **state) {
    (void)state;
    free_fall(IPCC_IMPLICIT_EULER);
    free_fall(IPCC_NEWMARK);
}

static void test_spin_momentum(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.gravity[1] = 0;
    // The identity below holds for the exact solution of each step; at the
    // default tolerance the residual forces' torque (up to tol L per step)
    // hides the 1e-9 L0 it asserts. This test is about the accounting of
    // ipcc_world_energies, not about the solve's accuracy, which the
    // physics tests check at default settings.
    wd.newton_tolerance = 1e-9;
    const double at[3] = {0.5, 0.2, -0.3}, v0[3] = {0.2, -0.1, 0.3}, omega[3] = {1, 3, -2};
    ipcc_world *w = cube_world(&wd, 0.2, at, v0, omega);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    const int n = ipcc_world_num_vertices(w);
    const double *m = ipcc_world_masses(w), h = wd.time_step, M = total_mass(w);
    // At t = 0: L = M c x v + I w, c the centre of mass, I = sum m (|r|^2 1 - r r^T).
    const double *x = ipcc_world_positions(w);
    double c[3] = {0, 0, 0}, I[9] = {0};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            c[k] += m[i] * x[3 * i + k] / M;
    for (int i = 0; i < n; i++) {
        double r[3] = {x[3 * i] - c[0], x[3 * i + 1] - c[1], x[3 * i + 2] - c[2]}, r2 = norm3(r) * norm3(r);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                I[3 * a + b] += m[i] * ((a == b) * r2 - r[a] * r[b]);
    }
    ipcc_energies e0 = energies(w);
    const double want[3] = {
        M * (c[1] * v0[2] - c[2] * v0[1]) + I[0] * omega[0] + I[1] * omega[1] + I[2] * omega[2],
        M * (c[2] * v0[0] - c[0] * v0[2]) + I[3] * omega[0] + I[4] * omega[1] + I[5] * omega[2],
        M * (c[0] * v0[1] - c[1] * v0[0]) + I[6] * omega[0] + I[7] * omega[1] + I[8] * omega[2]};
    const double L0 = norm3(want);
    for (int k = 0; k < 3; k++)
        assert_near(e0.angular_momentum[k], want[k], 1e-14 * L0, 0);
    double *v_prev = malloc(sizeof(double) * 3 * (size_t)n);
    double drift = 0;
    for (int s = 0; s < 20; s++) {
        memcpy(v_prev, ipcc_world_velocities(w), sizeof(double) * 3 * (size_t)n);
        assert_int_equal(ipcc_world_step(w, NULL), IPCC_OK);
        ipcc_energies e1 = energies(w);
        const double *v = ipcc_world_velocities(w);
        double dL[3] = {0, 0, 0}; // h sum m v' x v
        for (int i = 0; i < n; i++) {
            const double *a = v + 3 * i, *b = v_prev + 3 * i;
            dL[0] += h * m[i] * (a[1] * b[2] - a[2] * b[1]);
            dL[1] += h * m[i] * (a[2] * b[0] - a[0] * b[2]);
            dL[2] += h * m[i] * (a[0] * b[1] - a[1] * b[0]);
        }
        for (int k = 0; k < 3; k++) {
            assert_near(e1.linear_momentum[k], e0.linear_momentum[k], 1e-10 * M, 0);
            assert_near(e1.angular_momentum[k] - e0.angular_momentum[k], dL[k], 1e-9 * L0, 0);
        }
        drift = fmax(drift, norm3(dL));
        e0 = e1;
    }
    assert_true(drift > 1e-6 * L0); // the identity is not met trivially: implicit Euler does lose some
    assert_true(fabs(norm3(e0.angular_momentum) - L0) < 0.05 * L0);
    free(v_prev);
    ipcc_world_destroy(w);
}

/// Largest |E_n - E_0| over 60 steps of a beam clamped at x = 0 released
/// under gravity, E = T + Psi + U_g; with *decreasing, whether E never rose.
static double beam_drift(ipcc_integrator integrator, bool *decreasing) {
    ipcc_world_def wd = ipcc_default_world_def();
    wd.integrator = integrator;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(6, 1, 1, 1.0, 0.2, 0.2);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = mesh;
    bd.material.youngs_modulus = 1e5;
    ipcc_dirichlet_def clamp = ipcc_default_dirichlet_def();
    clamp.box_max[0] = 0.01;
    bd.num_dirichlet = 1;
    bd.dirichlet = &clamp;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    ipcc_energies e = energies(w);
    const double E0 = e.kinetic + e.elastic + e.gravitational + e.barrier;
    double drift = 0, last = E0;
    *decreasing = true;
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < 60; s++) {
        assert_true(ipcc_world_step(w, NULL) >= 0);
        e = energies(w);
        const double E = e.kinetic + e.elastic + e.gravitational + e.barrier;
        drift = fmax(drift, fabs(E - E0));
        *decreasing = *decreasing && E <= last + 1e-9 * fabs(E0);
        last = E;
    }
    ipcc_world_destroy(w);
    return drift;
}

static void test_newmark_keeps_energy(void **state) {
    (void)state;
    bool ie_down, nm_down;
    const double ie = beam_drift(IPCC_IMPLICIT_EULER, &ie_down), nm = beam_drift(IPCC_NEWMARK, &nm_down);
    assert_true(ie_down); // implicit Euler only dissipates
    assert_true(ie > 0.1);
    assert_true(nm < 0.01 * ie);
}

static void test_stretched_cube(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    const double at[3] = {0, 0, 0}, side = 0.2, a = 1.3;
    ipcc_world *w = cube_world(&wd, side, at, NULL, NULL);
    const double V = side * side * side;
    assert_near(total_mass(w), 1000 * V, 0, 1e-12);
    for (int i = 0; i < w->n; i++) // x = F X, F = diag(a, 1, 1), v = 0
        w->x[3 * i] *= a;
    double mu, lambda;
    ipcc_lame_parameters(1e5, 0.4, &mu, &lambda);
    const double want = V * (0.5 * mu * (a * a - 1) - mu * log(a) + 0.5 * lambda * log(a) * log(a));
    ipcc_energies e = energies(w);
    assert_near(e.elastic, want, 0, 1e-12);
    assert_true(e.kinetic == 0 && e.barrier == 0);
    // U_g = -M g . c, c the centre of mass (the stretched cube's centre).
    assert_near(e.gravitational, 1000 * V * 9.81 * 0.5 * side, 0, 1e-12);
    ipcc_world_destroy(w);
}

static void test_barrier_when_contact(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    const double at[3] = {-0.05, 0.004, -0.05};
    ipcc_world *w = cube_world(&wd, 0.1, at, NULL, NULL);
    ipcc_half_space_def hs = ipcc_default_half_space_def();
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    int with = 0, without = 0;
    for (int s = 0; s < 12; s++) {
        ipcc_step_stats st;
        assert_true(ipcc_world_step(w, &st) >= 0);
        ipcc_energies e = energies(w);
        assert_true(e.barrier >= 0);
        assert_int_equal(e.barrier > 0, st.num_contacts > 0);
        with += st.num_contacts > 0;
        without += st.num_contacts == 0;
    }
    assert_true(with > 0 && without > 0);
    ipcc_world_destroy(w);
}

/// A cube sliding onto a rough slope: reading the energies after every
/// step changes nothing; 1 and 3 threads give the same energies.
static void test_energies_change_nothing(void **state) {
    (void)state;
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    ipcc_half_space_def hs = ipcc_default_half_space_def();
    hs.normal[0] = -0.2;
    hs.friction = 0.4;
    const double at[3] = {-0.05, 0.0206, -0.05}, v[3] = {0.3, 0, 0.1};
    ipcc_world *w[2];
    ipcc_energies e[2][3];
    for (int k = 0; k < 2; k++) {
        w[k] = cube_world(&wd, 0.1, at, v, NULL);
        assert_int_equal(ipcc_world_add_half_space(w[k], &hs, NULL), IPCC_OK);
        if (ipcc_world_start(w[k]) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
        for (int s = 0; s < 8; s++) {
            assert_true(ipcc_world_step(w[k], NULL) >= 0);
            if (k == 1) e[1][0] = energies(w[k]);
        }
    }
    const int n = ipcc_world_num_vertices(w[0]);
    assert_memory_equal(ipcc_world_positions(w[0]), ipcc_world_positions(w[1]),
                        3 * (size_t)n * sizeof(double));
    assert_memory_equal(ipcc_world_velocities(w[0]), ipcc_world_velocities(w[1]),
                        3 * (size_t)n * sizeof(double));
    e[0][0] = energies(w[0]);
    assert_true(e[0][0].barrier > 0);
#ifdef _OPENMP
    omp_set_num_threads(3);
    e[0][1] = energies(w[0]);
    omp_set_num_threads(1);
    e[0][2] = energies(w[0]);
#else
    e[0][1] = e[0][2] = energies(w[0]);
#endif
    assert_memory_equal(&e[0][0], &e[0][1], sizeof e[0][0]);
    assert_memory_equal(&e[0][0], &e[0][2], sizeof e[0][0]);
    ipcc_world_destroy(w[0]);
    ipcc_world_destroy(w[1]);
}

/// Column `name` of stats.csv's header, or -1.
static int column(const char *csv, const char *name) {
    const size_t len = strlen(name);
    int index = 0;
    for (const char *c = csv; *c && *c != '\n'; index++) {
        if (strncmp(c, name, len) == 0 && (c[len] == ',' || c[len] == '\n')) return index;
        while (*c && *c != ',' && *c != '\n')
            c++;
        if (*c == ',') c++;
    }
    return -1;
}

/// Field `index` of the CSV line starting at row.
static double field(const char *row, int index) {
    for (int i = 0; i < index; i++) {
        row = strchr(row, ',');
        assert_non_null(row);
        row++;
    }
    return strtod(row, NULL);
}

static int count_fields(const char *row) {
    int n = 1;
    for (; *row && *row != '\n'; row++)
        n += *row == ',';
    return n;
}

static void test_stats_columns(void **state) {
    (void)state;
    char dir[64] = "/tmp/ipcc_test_energy_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    const double at[3] = {-0.05, 0.002, -0.05}, v[3] = {0.1, 0, 0};
    ipcc_world *w = cube_world(&wd, 0.1, at, v, NULL);
    ipcc_half_space_def hs = ipcc_default_half_space_def();
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    ipcc_step_stats st;
    ipcc_energies e;
    for (int s = 0; s < 3; s++) {
        assert_true(ipcc_world_step(w, &st) >= 0);
        assert_int_equal(ipcc_output_write_stats(out, w, &st), IPCC_OK);
        e = energies(w);
    }
    ipcc_output_destroy(out);
    snprintf(path, sizeof path, "%s/stats.csv", dir);
    char *csv = ipcc_test_read_file(path, NULL);
    static const char *const names[10] = {"kinetic_energy",    "elastic_energy",     "gravitational_energy",
                                          "barrier_energy",    "momentum_x",         "momentum_y",
                                          "momentum_z",        "angular_momentum_x", "angular_momentum_y",
                                          "angular_momentum_z"};
    const double values[10] = {e.kinetic,
                               e.elastic,
                               e.gravitational,
                               e.barrier,
                               e.linear_momentum[0],
                               e.linear_momentum[1],
                               e.linear_momentum[2],
                               e.angular_momentum[0],
                               e.angular_momentum[1],
                               e.angular_momentum[2]};
    assert_int_equal(column(csv, "time_energy"), 25);
    assert_int_equal(column(csv, "substeps"), 36);
    assert_int_equal(column(csv, "contact_force_x:cube"), 37); // the forces follow them
    const char *row3 = strchr(strchr(strchr(csv, '\n') + 1, '\n') + 1, '\n') + 1;
    assert_true(field(row3, 36) == 1); // no step of this run was split
    for (int k = 0; k < 10; k++) {
        assert_int_equal(column(csv, names[k]), 26 + k);
        assert_true(field(row3, 26 + k) == values[k]);
    }
    assert_true(e.barrier > 0 && e.kinetic > 0);
    free(csv);

    // An older stats.csv: the 26 usual columns, then the forces. Resumed, it goes on without energies.
    write_older_stats(path, "", cube_and_ground, 3, 32);
    assert_int_equal(ipcc_output_resume(dir, w, 0, NULL, 2, &out), IPCC_OK);
    assert_int_equal(ipcc_output_write_stats(out, w, &st), IPCC_OK);
    ipcc_output_destroy(out);
    csv = ipcc_test_read_file(path, NULL);
    assert_int_equal(column(csv, "kinetic_energy"), -1);
    const char *last = strchr(strchr(strchr(csv, '\n') + 1, '\n') + 1, '\n') + 1;
    assert_int_equal(count_fields(last), 32);
    assert_true(field(last, 27) > 0); // the cube's y force, where the old header has it
    // The half-space's force is the cube's, opposite, summed in another order.
    assert_true(fabs(field(last, 27) + field(last, 30)) <= 1e-12 * fabs(field(last, 27)));
    free(csv);

    // A stats.csv with the energies but no substeps column (the layout before
    // split steps): resumed, its rows keep that layout, forces where it has them.
    write_older_stats(
        path,
        ",kinetic_energy,elastic_energy,gravitational_energy,barrier_energy,momentum_x,momentum_y,"
        "momentum_z,angular_momentum_x,angular_momentum_y,angular_momentum_z",
        cube_and_ground, 3, 42);
    assert_int_equal(ipcc_output_resume(dir, w, 0, NULL, 2, &out), IPCC_OK);
    assert_int_equal(ipcc_output_write_stats(out, w, &st), IPCC_OK);
    ipcc_output_destroy(out);
    csv = ipcc_test_read_file(path, NULL);
    assert_int_equal(column(csv, "substeps"), -1);
    assert_int_equal(column(csv, "contact_force_y:cube"), 37);
    last = strchr(strchr(strchr(csv, '\n') + 1, '\n') + 1, '\n') + 1;
    assert_int_equal(count_fields(last), 42);
    assert_true(field(last, 37) > 0); // the cube's y force, where this header has it
    free(csv);
    ipcc_world_destroy(w);
    ipcc_test_remove_tree(dir);
}

/// A run folder of an older ipcc with a box obstacle: its stats.csv has no
/// energy columns and a force column set per body, the box's edges
/// ("table (edges)") apart from the box. Resumed, rows keep that layout:
/// the cube's force, the edges' (their vertices' forces) and the box
/// surface's, which add up to zero.
static void test_resume_older_box_columns(void **state) {
    (void)state;
    char dir[64] = "/tmp/ipcc_test_energy_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    const double at[3] = {-0.05, 5e-4, -0.05};
    ipcc_world *w = cube_world(&wd, 0.1, at, NULL, NULL);
    ipcc_shape_def sd = ipcc_default_shape_def();
    sd.name = "table";
    sd.kind = IPCC_SHAPE_BOX;
    sd.center[0] = -1.0025, sd.center[1] = -0.1; // its edge under the cube: faces and edges both push
    sd.size[0] = sd.size[2] = 1;
    sd.size[1] = 0.1;
    assert_int_equal(ipcc_world_add_shape(w, &sd, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_step_stats st;
    assert_true(ipcc_world_step(w, &st) >= 0);
    snprintf(path, sizeof path, "%s/stats.csv", dir);
    static const char *const names[] = {"cube", "table (edges)", "table", NULL};
    write_older_stats(path, "", names, 1, 35);
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_resume(dir, w, 0, NULL, 1, &out), IPCC_OK);
    assert_int_equal(ipcc_output_write_stats(out, w, &st), IPCC_OK);
    ipcc_output_destroy(out);
    char *csv = ipcc_test_read_file(path, NULL);
    const char *row = strchr(strchr(csv, '\n') + 1, '\n') + 1;
    assert_int_equal(count_fields(row), 35);
    double fc[3] = {0, 0, 0}, fe[3] = {0, 0, 0};
    int first, count;
    ipcc_world_body_vertices(w, 1, &first, &count); // the edges' vertices
    for (int i = 0; i < ipcc_world_num_vertices(w); i++)
        for (int k = 0; k < 3; k++)
            (i < first ? fc : fe)[k] += ipcc_world_contact_forces(w)[3 * i + k];
    assert_true(fc[1] > 0 && fe[1] < 0);
    for (int k = 0; k < 3; k++) {
        assert_near(field(row, 26 + k), fc[k], 0, 1e-12);
        assert_near(field(row, 29 + k), fe[k], 0, 1e-12);
        assert_near(field(row, 26 + k) + field(row, 29 + k) + field(row, 32 + k), 0, 1e-9 * fc[1], 0);
    }
    assert_true(field(row, 33) < 0); // the box's faces take a part too
    free(csv);
    ipcc_world_destroy(w);
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_fall),
        cmocka_unit_test(test_spin_momentum),
        cmocka_unit_test(test_newmark_keeps_energy),
        cmocka_unit_test(test_stretched_cube),
        cmocka_unit_test(test_barrier_when_contact),
        cmocka_unit_test(test_energies_change_nothing),
        cmocka_unit_test(test_stats_columns),
        cmocka_unit_test(test_resume_older_box_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
