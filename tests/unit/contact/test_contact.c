// Barrier contact through the world's objective: derivatives of the full
// incremental potential with contact by central differences, duplicate-free
// constraints, a repulsive and continuous barrier between boxes with aligned
// and nearly aligned grids (no edge-edge mollifier), and the initial
// intersection check. The CCD step bound is test_contact_ccd.c's.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/barrier.h"
#include "contact/contact.h"
#include "geometry/distance.h"
#include "support.h"
#include "world_checks.h"
#include "world/world.h"
#include "world/incremental_potential.h"

// --- One constraint: barrier value, gradient and Hessian by central differences.

typedef struct local_ctx {
    ipcc_contact_kind kind;
    double dhat2;
    const double *plane;
} local_ctx;

static double local_energy(const double *x, void *ctx) {
    local_ctx *c = ctx;
    return ipcc_contact_barrier(c->kind, x, c->plane, c->dhat2, NULL, NULL, false);
}

static void local_gradient(const double *x, void *ctx, double *g) {
    local_ctx *c = ctx;
    double H[144];
    ipcc_contact_barrier(c->kind, x, c->plane, c->dhat2, g, H, false);
}

// Random placements of every kind inside the barrier's range, including
// nearly parallel edge pairs (not mollified: constraint_set.c).
static void test_constraint_barrier_derivatives(void **state) {
    (void)state;
    ipcc_test_seed(5);
    double plane[6] = {0.1, -0.2, 0.05, 0, 0, 0};
    double nrm[3] = {0.3, 1.0, -0.2}, len = sqrt(0.09 + 1 + 0.04);
    for (int k = 0; k < 3; ++k)
        plane[3 + k] = nrm[k] / len;
    int checked[5] = {0};
    for (int trial = 0; trial < 4000; ++trial) {
        local_ctx c = {.kind = (ipcc_contact_kind)(trial % 5), .dhat2 = 0.04, .plane = plane};
        int n = 3 * ipcc_contact_kind_vertices(c.kind);
        double x[12];
        for (int i = 0; i < n; ++i)
            x[i] = ipcc_test_random(-0.5, 0.5);
        if (c.kind == IPCC_CONTACT_PP)
            for (int i = 0; i < 3; ++i)
                x[3 + i] = x[i] + ipcc_test_random(-0.15, 0.15);
        if (c.kind == IPCC_CONTACT_PE)
            for (int i = 0; i < 3; ++i)
                x[i] = 0.5 * (x[3 + i] + x[6 + i]) + ipcc_test_random(-0.15, 0.15);
        bool parallel = c.kind == IPCC_CONTACT_EE && trial % 2;
        if (parallel) {
            // Nearly parallel edges 0.1 apart whose closest points are the
            // second's midpoint and a point inside the first: the second is
            // tilted by (0, ey, ez) ~ 1e-2 and offset at right angles to its
            // tilt, so the common perpendicular meets both interiors. The
            // lines' distance curves on the scale of the tilt there, so the
            // central differences take h = 3e-8 (at 1e-7 their truncation
            // error reaches 1.3e-6 of the gradient).
            double ey = ipcc_test_random(-1e-2, 1e-2), ez = ipcc_test_random(-1e-2, 1e-2),
                   tilt = sqrt(ey * ey + ez * ez), dir[3] = {1, ey, ez},
                   off[3] = {0.5 + ipcc_test_random(-0.3, 0.3), -0.1 * ez / tilt, 0.1 * ey / tilt};
            for (int i = 0; i < 3; ++i) {
                x[3 + i] = x[i] + (i == 0 ? 1 : 0);
                x[6 + i] = x[i] + off[i] - 0.5 * dir[i];
                x[9 + i] = x[6 + i] + dir[i];
            }
        }
        // An EE key is interior-interior (constraint_set.c): other closest
        // features are point-edge or point-point keys, tested as PE and PP.
        if (c.kind == IPCC_CONTACT_EE &&
            ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9) != IPCC_EE_EA_EB)
            continue;
        double d = ipcc_contact_distance(c.kind, x, plane, NULL, NULL);
        if (!(d > 1e-4 && d < 0.9 * c.dhat2)) continue; // inside the barrier, away from its ends
        double g[12], H[144], g_fd[12], H_fd[144], h = parallel ? 3e-8 : 1e-7;
        ipcc_contact_barrier(c.kind, x, plane, c.dhat2, g, H, false);
        ipcc_test_fd_gradient(n, x, local_energy, &c, h, g_fd);
        ipcc_test_fd_hessian(n, x, local_gradient, &c, h, H_fd);
        double gs = 0, Hs = 0;
        for (int i = 0; i < n; ++i)
            gs = fmax(gs, fabs(g[i]));
        for (int i = 0; i < n * n; ++i)
            Hs = fmax(Hs, fabs(H[i]));
        for (int i = 0; i < n; ++i)
            assert_near(g[i], g_fd[i], 1e-6 * gs + 1e-12, 0);
        for (int i = 0; i < n * n; ++i)
            assert_near(H[i], H_fd[i], 1e-5 * Hs + 1e-10, 0);
        // The projected Hessian (PP, PE, PT, EE through their translation
        // invariance, barrier_potential.c) is LAPACK's projection of the
        // whole Hessian (ipcc_project_psd, dsyev on n x n), and PSD: v^T H v
        // >= 0 for random v.
        double Hp[144], Href[144];
        ipcc_contact_barrier(c.kind, x, plane, c.dhat2, g, Hp, true);
        memcpy(Href, H, sizeof(double) * (size_t)(n * n));
        ipcc_project_psd(n, Href);
        for (int i = 0; i < n * n; ++i)
            if (!(fabs(Hp[i] - Href[i]) <= 1e-10 * Hs))
                fail_msg("kind %d, entry %d: projected %.17g, LAPACK's projection %.17g (scale %.3g)", c.kind,
                         i, Hp[i], Href[i], Hs);
        for (int r = 0; r < 5; ++r) {
            double v[12], q = 0;
            for (int i = 0; i < n; ++i)
                v[i] = ipcc_test_random(-1, 1);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    q += v[i] * Hp[n * i + j] * v[j];
            assert_true(q >= -1e-10 * Hs);
        }
        checked[c.kind]++;
    }
    print_message("constraint derivative checks: PP %d PE %d PT %d EE %d PH %d\n", checked[0], checked[1],
                  checked[2], checked[3], checked[4]);
    for (int k = 0; k < 5; ++k)
        assert_true(checked[k] >= 20);
}

static ipcc_world *two_cubes(double gap, double dhat) {
    ipcc_world_def def = ipcc_default_world_def();
    def.contact.dhat = dhat;
    def.gravity[1] = -9.81;
    ipcc_world *w = ipcc_test_two_cubes(&def, gap); // grids offset: vertices meet faces, edges and vertices
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // normal +y
    hs.point[1] = -0.5 * dhat;
    hs.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    return w;
}

typedef struct fd_ctx {
    ipcc_objective obj;
    double *x;
    int m;
} fd_ctx;

static double fd_energy(const double *x, void *ctx) {
    fd_ctx *c = ctx;
    double e = NAN;
    assert_int_equal(c->obj.energy(c->obj.ctx, x, &e), IPCC_OK);
    return e;
}

// Gradient of the whole objective (inertia + elasticity + barrier) at a
// state with many active contacts, against central differences of its
// energy (the Hessians are checked per constraint above and per tet in
// test_elastic).
static void test_objective_derivatives(void **state) {
    (void)state;
    double dhat = 2e-3;
    ipcc_world *w = two_cubes(0.6 * dhat, dhat);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    // One step starts contact (and kappa), then perturb the state randomly.
    assert_true(ipcc_world_step(w, NULL) >= 0);
    int m = 3 * w->n;
    ipcc_test_seed(11);
    for (int i = 0; i < m; ++i)
        w->x[i] += ipcc_test_random(-1e-5, 1e-5);
    ipcc_contact_begin_step(w->contact); // the state moved: search candidates afresh
    ipcc_objective obj = ipcc_incremental_potential(w);
    double *g = calloc((size_t)m, sizeof(double));
    ipcc_triplets T = {0};
    double e = NAN;
    assert_int_equal(obj.evaluate(obj.ctx, w->x, NULL, g, &T, &e), IPCC_OK);
    assert_true(isfinite(e));
    ipcc_step_stats st;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    assert_int_equal(ipcc_contact_end_step(w->contact, &sc, w->x, w->contact_force, &st), IPCC_OK);
    print_message("derivative check at %d contacts, min distance %.3g (dhat %.3g)\n", st.num_contacts,
                  st.min_distance, dhat);
    assert_true(st.num_contacts >= 10);
    // Re-evaluate so the candidate set is the one at x.
    assert_int_equal(obj.evaluate(obj.ctx, w->x, NULL, g, &T, &e), IPCC_OK);
    fd_ctx c = {.obj = obj, .x = w->x, .m = m};
    // Check the dofs of the upper cube's lowest vertices (in contact) and a few others.
    int checked = 0;
    double h = 1e-8;
    for (int d = 0; d < m; ++d) {
        double f = w->contact_force[d];
        if (f == 0 && d % 37 != 0) continue;
        double xp = w->x[d];
        w->x[d] = xp + h;
        double ep = fd_energy(w->x, &c);
        w->x[d] = xp - h;
        double em = fd_energy(w->x, &c);
        w->x[d] = xp;
        double gfd = (ep - em) / (2 * h);
        assert_near(g[d], gfd, 1e-6 * (1 + fabs(g[d])), 1e-4);
        checked++;
    }
    print_message("gradient: %d dofs checked\n", checked);
    assert_true(checked > 20);
    ipcc_triplets_free(&T);
    free(g);
    ipcc_world_destroy(w);
}

// A vertex resting next to an edge shared by two surface triangles (and
// surrounded by edges that reach it) is ONE point-edge constraint.
static void test_vertex_near_shared_edge_is_one_constraint(void **state) {
    (void)state;
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.contact.dhat = 1e-2;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *a = ipcc_test_box_mesh(1, 1, 1, 1, 1, 1);
    // A tet whose apex points down at the midpoint of the box's top edge
    // from (0,1,0) to (1,1,0) (shared by the top face and the z = 0 face).
    double v[12] = {0.5, 1.004, -0.004, 0.3, 1.6, -0.4, 0.8, 1.6, -0.4, 0.5, 1.6, 0.3};
    int t[4] = {0, 1, 2, 3};
    ipcc_mesh *b = NULL;
    assert_int_equal(ipcc_mesh_create(v, 4, t, 1, "apex", NULL, &b), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = a;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    bd.mesh = b;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_contact *c = NULL;
    assert_int_equal(ipcc_world_create_contact(w, &c), IPCC_OK);
    ipcc_step_stats st;
    double *force = calloc(3 * (size_t)w->n, sizeof(double));
    ipcc_contact_begin_step(c);
    const ipcc_step_context sc = ipcc_world_step_context(w);
    assert_int_equal(ipcc_contact_end_step(c, &sc, w->x, force, &st), IPCC_OK);
    assert_int_equal(st.num_contacts, 1);
    // The apex is at distance sqrt(2) * 0.004 from the edge.
    assert_near(st.min_distance, sqrt(2.0) * 0.004, 1e-12, 1e-9);
    free(force);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(a);
    ipcc_mesh_destroy(b);
}

// --- Stacked boxes with aligned grids: no edge-edge mollifier.
//
// A box of side STACK_L (4 x 4 x 4 cells) and on it a box of side
// STACK_L / 2 (2 x 2 x 2 cells) whose grid lines lie EXACTLY over the lower
// box's (dyadic coordinates, as examples/contact_cubes.json aligns them):
// the upper box's bottom edges and face diagonals lie over parallel edges of
// the lower box's top face. Those pairs have end-point closest features, so
// their terms land on point-edge and point-point keys, where the
// inclusion-exclusion cancels them against the keys' 1 - E(v) terms
// (contact_multiplicity.c). IPC's mollifier (Sec. 4.3) would scale them by
// m = 0 (|ea x eb| = 0) and leave -b per pair uncancelled: an energy
// unbounded below that pulls the boxes together.

enum { STACK_LOWER = 0, STACK_UPPER = 1 };
#define STACK_L 0.5
#define STACK_DHAT 1e-3

// The two boxes, the upper one's bottom STACK_DHAT / 2 over the lower's top
// and one cell in from its sides: grid lines over grid lines, or nearly so
// when the upper box is turned by rotation_y degrees about the vertical.
static ipcc_world *stacked_boxes(double rotation_y) {
    ipcc_world_def def = ipcc_default_world_def();
    def.contact.dhat = STACK_DHAT;
    def.gravity[1] = 0;
    const double h = 0.5 * STACK_L, t[3] = {0.5 * h, STACK_L + 0.5 * STACK_DHAT, 0.5 * h};
    return ipcc_test_two_boxes(&def, ipcc_test_box_mesh(4, 4, 4, STACK_L, STACK_L, STACK_L),
                               ipcc_test_box_mesh(2, 2, 2, h, h, h), t, rotation_y);
}

// The stack, its contact state (kappa = 1) and buffers of 3n doubles.
typedef struct stack {
    ipcc_world *w;
    ipcc_contact *c;
    double *x, *force;
} stack;

static stack stack_open(double rotation_y) {
    stack st = {.w = stacked_boxes(rotation_y)};
    assert_int_equal(ipcc_world_create_contact(st.w, &st.c), IPCC_OK);
    ipcc_contact_set_kappa(st.c, 1.0);
    st.x = malloc(sizeof(double) * 3 * (size_t)st.w->n);
    st.force = malloc(sizeof(double) * 3 * (size_t)st.w->n);
    assert_true(st.x && st.force);
    return st;
}

static void stack_close(stack *st) {
    free(st->x);
    free(st->force);
    ipcc_contact_destroy(st->c);
    ipcc_world_destroy(st->w);
}

// The barrier energy B (kappa = 1) with the upper box's bottom `gap` over the
// lower box's top (y = STACK_L) and moved by dz along z, and the net contact
// force on the upper box (-grad B summed over its vertices, over the
// potential scale, as the world reports forces).
static double stack_energy(stack *st, double gap, double dz, double upper[3]) {
    const ipcc_world *w = st->w;
    memcpy(st->x, w->x, sizeof(double) * 3 * (size_t)w->n);
    int first, count;
    ipcc_world_body_vertices(w, STACK_UPPER, &first, &count);
    double bottom = INFINITY;
    for (int i = first; i < first + count; ++i)
        bottom = fmin(bottom, st->x[3 * i + 1]);
    for (int i = first; i < first + count; ++i) {
        st->x[3 * i + 1] += STACK_L + gap - bottom;
        st->x[3 * i + 2] += dz;
    }
    const ipcc_step_context sc = ipcc_world_step_context(w);
    ipcc_contact_begin_step(st->c);
    assert_int_equal(ipcc_contact_update(st->c, &sc, st->x), IPCC_OK);
    double e = NAN;
    assert_int_equal(ipcc_contact_energy(st->c, &sc, st->x, &e), IPCC_OK);
    ipcc_step_stats stats;
    assert_int_equal(ipcc_contact_end_step(st->c, &sc, st->x, st->force, &stats), IPCC_OK);
    upper[0] = upper[1] = upper[2] = 0;
    for (int i = first; i < first + count; ++i)
        for (int k = 0; k < 3; ++k)
            upper[k] += st->force[3 * i + k];
    return e;
}

// (a) At gaps from 1e-4 L down to 1e-9 L the energy is finite and at least
// one barrier b(gap^2), and the net contact force pushes the upper box up.
static void test_aligned_stack_is_repulsive(void **state) {
    (void)state;
    stack st = stack_open(0);
    for (int k = 4; k <= 9; ++k) {
        double gap = pow(10.0, -k) * STACK_L, f[3];
        double e = stack_energy(&st, gap, 0, f);
        print_message("aligned stack, gap %.0e L: B = %.6g, force on the upper box (%.3g, %.3g, %.3g)\n",
                      pow(10.0, -k), e, f[0], f[1], f[2]);
        assert_true(isfinite(e) && e >= ipcc_barrier(gap * gap, STACK_DHAT * STACK_DHAT));
        assert_true(f[1] > 0);
    }
    stack_close(&st);
}

// (b) The upper box lowered slowly from beyond d̂ to 1e-9 L: the energy never
// decreases, and rises at every step once it is positive (a barrier).
static void test_aligned_stack_energy_rises_on_approach(void **state) {
    (void)state;
    stack st = stack_open(0);
    double prev = 0, gap = 1.2 * STACK_DHAT, f[3];
    int steps = 0, active = 0;
    while (gap > 1e-9 * STACK_L) {
        double e = stack_energy(&st, gap, 0, f);
        assert_true(isfinite(e) && e >= 0);
        if (!(prev > 0 ? e > prev : e >= prev))
            fail_msg("gap %.17g: energy %.17g after %.17g at the larger gap before", gap, e, prev);
        active += e > 0;
        prev = e;
        steps++;
        // steps of d̂ / 100 down to d̂ / 10, then 10 per decade
        gap = gap > 0.1 * STACK_DHAT ? gap - 0.01 * STACK_DHAT : gap * pow(10.0, -0.1);
    }
    print_message("aligned stack approach: %d positions, %d in contact, B = %.6g at the last\n", steps,
                  active, prev);
    assert_true(active > 100);
    stack_close(&st);
}

// (c) The upper box turned by 0.05 degrees (its edges nearly parallel to the
// lower box's, sin^2 ~ 8e-7: line-line distances, and pairs IPC would
// mollify) and slid along z at a fixed gap, so that the closest points of
// nearly parallel edge pairs move out of the interiors onto the ends: every
// distance stays the gap or changes smoothly, so the energy moves by far less
// than one barrier b(gap^2) per step. (Mollifying only interior-interior
// pairs jumps by (1 - m) b there, m ~ 1.5e-3.)
static void test_nearly_parallel_slide_is_continuous(void **state) {
    (void)state;
    stack st = stack_open(0.05);
    const double gap = 1e-3 * STACK_L, b = ipcc_barrier(gap * gap, STACK_DHAT * STACK_DHAT);
    double f[3], prev = stack_energy(&st, gap, 0, f), worst = 0;
    assert_true(isfinite(prev) && prev >= b);
    for (int k = 1; k <= 100; ++k) {
        double e = stack_energy(&st, gap, 2e-6 * k, f); // 2e-4 m in all: crossings move ~0.23 m
        assert_true(isfinite(e) && e > 0 && f[1] > 0);
        worst = fmax(worst, fabs(e - prev));
        prev = e;
    }
    print_message("nearly parallel slide: largest change per step %.3g b(gap^2)\n", worst / b);
    assert_true(worst < 0.1 * b);
    stack_close(&st);
}

// Barrier stiffness: adaptive kappa starts at kappa_min before any contact,
// rises by the gradient balance once contacts exist, never decreases and
// stays within [kappa_min, 100 kappa_min]; a fixed contact.kappa is kept.
static void test_kappa_adaptive_and_fixed(void **state) {
    (void)state;
    ipcc_world *w = two_cubes(0.02, 1e-3);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    double kappa_prev = 0, kappa_first = 0;
    int steps_with_contact = 0;
    for (int s = 0; s < 15; ++s) {
        ipcc_step_stats st;
        assert_true(ipcc_world_step(w, &st) >= 0);
        double k = ipcc_world_kappa(w);
        assert_true(k >= kappa_prev && k > 0);
        if (s == 0) kappa_first = k;
        assert_true(k <= 100 * kappa_first * (1 + 1e-12));
        steps_with_contact += st.num_contacts > 0;
        kappa_prev = k;
    }
    assert_true(steps_with_contact > 0);
    print_message("kappa: %.4g at the first step, %.4g after contact\n", kappa_first, kappa_prev);
    ipcc_world_destroy(w);

    ipcc_world_def def = ipcc_default_world_def();
    def.contact.kappa = 1234.5;
    def.contact.dhat = 1e-3;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *a = ipcc_test_box_mesh(1, 1, 1, 0.2, 0.2, 0.2);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = a;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // normal +y
    hs.point[1] = -0.004;
    hs.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    for (int s = 0; s < 10; ++s) {
        ipcc_step_stats st;
        assert_true(ipcc_world_step(w, &st) >= 0);
        assert_true(st.kappa == 1234.5);
    }
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(a);
}

// contact.self_collision: two disjoint parts of ONE body, 1 mm apart, are a
// contact with self-collision on and none with it off.
static int self_contacts(bool self_collision) {
    ipcc_world_def def = ipcc_default_world_def();
    def.contact.dhat = 2e-3;
    def.contact.self_collision = self_collision;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    double v[24] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1.001, 1, 0, 1.001, 0, 1, 1.001, 0, 0, 2};
    int t[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(v, 8, t, 2, "two parts", NULL, &m), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_contact *c = NULL;
    assert_int_equal(ipcc_world_create_contact(w, &c), IPCC_OK);
    ipcc_step_stats st;
    ipcc_contact_begin_step(c);
    const ipcc_step_context sc = ipcc_world_step_context(w);
    assert_int_equal(ipcc_contact_end_step(c, &sc, w->x, w->contact_force, &st), IPCC_OK);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(m);
    return st.num_contacts;
}

static void test_self_collision_switch(void **state) {
    (void)state;
    assert_true(self_contacts(true) >= 1);
    assert_int_equal(self_contacts(false), 0);
}

// Intersecting or touching initial states are refused, naming the bodies.
static void test_initial_intersection_rejected(void **state) {
    (void)state;
    ipcc_world *w = two_cubes(-0.01, 1e-3); // the upper cube sinks 1 cm into the lower one
    assert_int_equal(ipcc_world_start(w), IPCC_ERR_INFEASIBLE);
    const char *msg = ipcc_last_error();
    assert_non_null(strstr(msg, "\"lower\""));
    assert_non_null(strstr(msg, "\"upper\""));
    assert_int_equal(ipcc_world_step_count(w), 0);
    ipcc_world_destroy(w);
    // Below a half-space.
    ipcc_world_def def = ipcc_default_world_def();
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *a = ipcc_test_box_mesh(1, 1, 1, 1, 1, 1);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = a;
    bd.name = "box";
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_half_space_def hs = ipcc_default_half_space_def();
    hs.point[1] = 0.5;
    hs.normal[1] = 2; // need not be unit
    hs.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    assert_int_equal(ipcc_world_start(w), IPCC_ERR_INFEASIBLE);
    assert_non_null(strstr(ipcc_last_error(), "half-space 0"));
    assert_non_null(strstr(ipcc_last_error(), "\"box\""));
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constraint_barrier_derivatives),
        cmocka_unit_test(test_objective_derivatives),
        cmocka_unit_test(test_vertex_near_shared_edge_is_one_constraint),
        cmocka_unit_test(test_aligned_stack_is_repulsive),
        cmocka_unit_test(test_aligned_stack_energy_rises_on_approach),
        cmocka_unit_test(test_nearly_parallel_slide_is_continuous),
        cmocka_unit_test(test_kappa_adaptive_and_fixed),
        cmocka_unit_test(test_self_collision_switch),
        cmocka_unit_test(test_initial_intersection_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
