// The contact state's shared operations (contact_state.c): the shapes'
// poses at a state follow their motion and the clock (clamped to the
// step); the broad-phase query finds the pairs within its inflation, and
// over a swept motion, and nothing between two bodies apart by more; the
// constraint set built from the candidates holds only pairs within d̂ at
// the positions it is given. Both the query and the build are timed.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision/barrier_potential.h"
#include "contact/contact.h"
#include "contact/contact_state.h"
#include "support.h"
#include "world_checks.h"
#include "world/world.h"

static const double dhat = 1e-3;

// A 0.2 m cube body "lower" at the origin and a 0.12 m cube "upper" `gap`
// above it, grids offset and turned, without gravity or self-collision
// (every candidate pairs the two bodies); with `sphere`, a
// sphere of radius 0.05 far from both.
static ipcc_world *two_cubes(double gap, bool sphere) {
    ipcc_world_def def = ipcc_default_world_def();
    def.contact.dhat = dhat;
    def.gravity[1] = 0;
    def.contact.self_collision = false;
    ipcc_world *w = ipcc_test_two_cubes(&def, gap);
    if (sphere) {
        ipcc_shape_def sd = ipcc_default_shape_def();
        sd.kind = IPCC_SHAPE_SPHERE;
        sd.size[0] = 0.05;
        sd.center[0] = 2, sd.center[1] = 0.5, sd.center[2] = 0.1;
        assert_int_equal(ipcc_world_add_shape(w, &sd, NULL), IPCC_OK);
    }
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    return w;
}

static ipcc_contact *new_contact(const ipcc_world *w) {
    ipcc_contact *c = NULL;
    if (ipcc_world_create_contact(w, &c) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    return c;
}

// The collision vertices of body "upper" at xc moved by dy (3 nc).
static void lift_upper(const ipcc_contact *c, double *xc, double dy) {
    for (int v = 0; v < c->mesh.nc; ++v)
        if (c->mesh.group[v] == 1) xc[3 * v + 1] += dy;
}

// The poses are the motion's at the clock's progress s = x[3n] / clock
// length, clamped to [0, 1]; the start pose without a clock.
static void test_shapes_at_follow_the_clock(void **state) {
    (void)state;
    ipcc_world *w = two_cubes(0.05, true);
    ipcc_contact *c = new_contact(w);
    int n = w->n;
    double *x = calloc((size_t)(3 * n + 3), sizeof(double));
    memcpy(x, w->x, sizeof(double) * 3 * (size_t)n);
    ipcc_shape_motion motion = {.start = w->shape_pose[0], .vh = {0.08, -0.02, 0}, .wh = {0, 0, 0}};
    ipcc_step_context sc = {.num_vertices = n, .clock_length = 0.5, .num_shapes = 1, .shapes = &motion};
    const double clock[4] = {0.125, 1.0, -0.1, 0.5}, s[4] = {0.25, 1, 0, 1}; // s clamped
    for (int k = 0; k < 4; ++k) {
        x[3 * n] = clock[k];
        ipcc_contact_shapes_at(c, &sc, x);
        for (int i = 0; i < 3; ++i)
            assert_true(c->pose[0].center[i] == motion.start.center[i] + s[k] * motion.vh[i]);
        assert_true(c->pose[0].size[0] == 0.05);
    }
    sc.clock_length = 0; // nothing moves: the start pose, whatever x[3n]
    x[3 * n] = 0.3;
    ipcc_contact_shapes_at(c, &sc, x);
    for (int i = 0; i < 3; ++i)
        assert_true(c->pose[0].center[i] == motion.start.center[i]);
    free(x);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
}

// Candidates between the cubes 0.5 d̂ apart: none with boxes inflated by
// 0, some with d̂, each pairing the two bodies; a
// swept motion of the upper cube 0.1 m down finds some without inflation.
static void test_query_finds_pairs_within_reach(void **state) {
    (void)state;
    ipcc_world *w = two_cubes(0.5 * dhat, false);
    ipcc_contact *c = new_contact(w);
    int nc = c->mesh.nc;
    ipcc_collision_mesh_gather(&c->mesh, w->x, c->xc);
    assert_int_equal(ipcc_contact_query(c, c->xc, NULL, 0.0, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE),
                     IPCC_OK);
    assert_int_equal(c->cand.num_vf + c->cand.num_ee, 0);
    double t0 = c->time_broad_phase;
    assert_int_equal(ipcc_contact_query(c, c->xc, NULL, dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE),
                     IPCC_OK);
    assert_true(c->time_broad_phase > t0);
    assert_true(c->cand.num_vf > 0);
    assert_true(c->cand.num_ee > 0);
    for (int k = 0; k < c->cand.num_vf; ++k)
        assert_int_not_equal(c->mesh.group[c->cand.vf[2 * k]],
                             c->mesh.group[c->mesh.cfaces[3 * c->cand.vf[2 * k + 1]]]);
    memcpy(c->xc1, c->xc, sizeof(double) * 3 * (size_t)nc);
    lift_upper(c, c->xc1, -0.1);
    assert_int_equal(ipcc_contact_query(c, c->xc, c->xc1, 0.0, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE),
                     IPCC_OK);
    assert_true(c->cand.num_vf > 0);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
}

// The set from the candidates within d̂: every pair within d̂ at the
// positions given; the same candidates with the upper cube 10 d̂ higher
// give none.
static void test_build_set_at_given_positions(void **state) {
    (void)state;
    ipcc_world *w = two_cubes(0.5 * dhat, false);
    ipcc_contact *c = new_contact(w);
    int nc = c->mesh.nc;
    ipcc_collision_mesh_gather(&c->mesh, w->x, c->xc);
    assert_int_equal(ipcc_contact_query(c, c->xc, NULL, dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE),
                     IPCC_OK);
    double t0 = c->time_constraint_search;
    assert_int_equal(ipcc_contact_build_set(c, c->xc), IPCC_OK);
    assert_true(c->time_constraint_search > t0);
    assert_true(c->set.np > 0);
    for (int k = 0; k < c->set.np; ++k) {
        double d = ipcc_contact_pair_distance(&c->obstacles, &c->set.pairs[k], c->xc);
        assert_true(d > 0 && d < dhat * dhat);
    }
    memcpy(c->xc1, c->xc, sizeof(double) * 3 * (size_t)nc);
    lift_upper(c, c->xc1, 10 * dhat);
    assert_int_equal(ipcc_contact_build_set(c, c->xc1), IPCC_OK);
    assert_int_equal(c->set.np, 0);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_at_follow_the_clock),
        cmocka_unit_test(test_query_finds_pairs_within_reach),
        cmocka_unit_test(test_build_set_at_given_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
