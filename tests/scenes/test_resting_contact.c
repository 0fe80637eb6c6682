// Resting contact, as in Baraff-style contact force computation (issue 8):
// a stack of three soft cubes falls onto a half-space and comes to rest;
// the barrier's contact forces must then carry exactly the weights above
// them, and every accepted state stays intersection-free.
//
// Why the sums below measure what they claim. At the end of a converged
// implicit Euler step the gradient of the incremental potential vanishes
// (docs/design.md, "The step"); divided by s = h^2, for every vertex i
//   m_i (v_i^{n+1} - v_i^n) / h = -grad_i Psi + m_i g + f_c,i + f_f,i,
// where f_c = -kappa grad B / h^2 is ipcc_world_contact_forces() (barrier,
// normal) and f_f is ipcc_world_friction_forces(). Sum this over a set S:
// - At rest the left side vanishes.
// - Psi (elasticity) is invariant under translation, so grad Psi sums to
//   zero over each body's vertices.
// - Each barrier term depends only on differences of the positions of its
//   pair's vertices (body-body pairs, and self-contact inside a body), so
//   its forces sum to zero over the pair; the half-space terms depend on one
//   vertex alone and are the only ones that do not cancel.
// - Friction is tangential: on the flat horizontal interfaces of a resting
//   stack its y component is negligible (measured: 3e-4 N over all cubes,
//   1e-5 of the weight; asserted below 1e-3), so f_c carries the weight.
// Hence, in y: over ALL vertices, sum f_c = the ground's reaction = the total
// weight; over cube 3's vertices, sum f_c = cube 2's push on cube 3 (cube 3
// touches nothing else) = cube 3's weight; over the vertices of cube 1's
// bottom face, sum f_c = the ground's reaction again, measured directly
// (they are 0.1 m from cube 2 and 2.5 cm from any surface primitive of
// cube 1 they do not share, so only the half-space's barrier acts on them).
//
// Choices, each forced by a failure seen without it:
// - Friction mu = 0.5 between the cubes. A frictionless stack of soft cubes
//   is unstable: a load off the centre of a soft cube tilts its top face,
//   the load slides down the tilt, which grows the offset; without friction
//   the stack slid apart and fell within 1.5 s (also with cube 2 turned).
// - Friction 0.5 on the ground too, and every solver setting at its
//   default (issue 18). With IPC's step test alone and mu = 0.5 on the
//   ground the stack once stuck at t = 0.76 s with every step at the
//   100-iteration cap (a barrier discontinuity: an edge-edge pair keyed as
//   a point-edge one jumped into an edge-edge key of its own), and without
//   friction at the default tolerance Newton accepted x = x_n as converged
//   while the forces were up to 4 % off the weights. With the force check
//   (newton.c) and the inclusion-exclusion keys (contact_multiplicity.c)
//   neither happens; the warm start (world.c) keeps rest at about 2.4
//   Newton iterations per step, asserted below 3.
// - Cube 2 is turned by 15 degrees about the vertical. With every mesh
//   aligned, the faces in contact have vertices exactly over vertices and
//   the face diagonals of ipcc_mesh_create_box exactly over parallel
//   diagonals; there the barrier once pushed cube 1 and cube 2 apart
//   sideways (6 % of the normal load, held only by friction). Turned, the
//   sideways forces are below 0.04 N.
// - The densities differ, so each comparison is with a different weight
//   and a mix-up of bodies cannot pass.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

static const double g0 = 9.81;

enum { NUM_CUBES = 3, NUM_STEPS = 500, LAST_SECOND = 100 };

typedef struct body_forces {
    double contact[3];  ///< sum of contact forces over the body's vertices, N
    double friction[3]; ///< sum of friction forces, N
    double weight;      ///< sum of m_i g, N
} body_forces;

static body_forces forces_of(const ipcc_world *w, int b) {
    int first, count;
    ipcc_world_body_vertices(w, b, &first, &count);
    const double *fc = ipcc_world_contact_forces(w), *ff = ipcc_world_friction_forces(w),
                 *m = ipcc_world_masses(w);
    body_forces r = {{0, 0, 0}, {0, 0, 0}, 0};
    for (int i = first; i < first + count; ++i) {
        for (int k = 0; k < 3; ++k) {
            r.contact[k] += fc[3 * i + k];
            r.friction[k] += ff[3 * i + k];
        }
        r.weight += m[i] * g0;
    }
    return r;
}

static double max_speed(const ipcc_world *w) {
    const double *v = ipcc_world_velocities(w);
    double s = 0;
    for (int i = 0; i < ipcc_world_num_deformable_vertices(w); ++i)
        s = fmax(s, sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]));
    return s;
}

static double min_height(const ipcc_world *w) {
    const double *x = ipcc_world_positions(w);
    double y = INFINITY;
    for (int i = 0; i < ipcc_world_num_deformable_vertices(w); ++i)
        y = fmin(y, x[3 * i + 1]);
    return y;
}

// Three 0.1 m cubes (4 x 4 x 4 cells, 384 tets, 125 vertices each; E = 2e5
// Pa, nu = 0.4; 1.0, 1.25 and 1.5 kg), 2 mm apart and 2 mm above the
// ground, released at rest: they land at 0.2 m/s. Implicit Euler (its
// numerical damping brings them to rest), h = 0.01 s, 5 s; the forces and
// the cost of rest are read over the last second. About 10 s on one thread.
static void test_stack_of_three_cubes(void **state) {
    (void)state;
    const double size = 0.1, gap = 2e-3;
    const double density[NUM_CUBES] = {1000, 1250, 1500};
    ipcc_mesh *mesh = ipcc_test_box_mesh(4, 4, 4, size, size, size);
    ipcc_world_def def = ipcc_default_world_def();
    def.time_step = 0.01;
    def.gravity[0] = def.gravity[2] = 0;
    def.gravity[1] = -g0;
    def.contact.friction = 0.5; // every pair, the ground too; everything else at its default
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    static const char *names[NUM_CUBES] = {"cube 1", "cube 2", "cube 3"};
    for (int k = 0; k < NUM_CUBES; ++k) {
        ipcc_body_def bd = ipcc_default_body_def();
        bd.name = names[k];
        bd.mesh = mesh;
        bd.material.density = density[k];
        bd.material.youngs_modulus = 2e5;
        bd.material.poisson_ratio = 0.4;
        bd.translation[1] = (k + 1) * gap + k * size;
        if (k == 1) bd.rotation[1] = 15; // no aligned meshes (preamble)
        assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    }
    ipcc_half_space_def ground = ipcc_default_half_space_def(); // y = 0, normal +y
    assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());

    double lowest = INFINITY;
    int max_contacts = 0, unconverged = 0, late_iterations = 0;
    char label[32];
    for (int s = 1; s <= NUM_STEPS; ++s) {
        ipcc_step_stats st;
        ipcc_status status = ipcc_world_step(w, &st);
        if (status < 0) fail_msg("step %d: %s", s, ipcc_last_error());
        // Every step converges here. The forces are read at the last step,
        // and a Newton pinned at a barrier discontinuity (preamble) would
        // spend seconds a step: fail at once instead.
        if (status != IPCC_OK && (++unconverged > 5 || s > NUM_STEPS - 20))
            fail_msg("step %d did not converge (%d so far)", s, unconverged);
        snprintf(label, sizeof label, "step %d", s);
        ipcc_test_assert_intersection_free(w, label); // exact; also: every vertex above the ground
        ipcc_test_assert_no_inversion(w);
        lowest = fmin(lowest, min_height(w));
        if (st.num_contacts > max_contacts) max_contacts = st.num_contacts;
        if (s > NUM_STEPS - LAST_SECOND) late_iterations += st.newton_iterations;
    }

    body_forces cube[NUM_CUBES];
    double total_contact = 0, total_weight = 0, friction_y = 0;
    for (int b = 0; b < NUM_CUBES; ++b) {
        cube[b] = forces_of(w, b);
        total_contact += cube[b].contact[1];
        total_weight += cube[b].weight;
        friction_y += fabs(cube[b].friction[1]);
    }
    // Cube 1's bottom face: the vertices at the lowest rest height.
    int first, count;
    ipcc_world_body_vertices(w, 0, &first, &count);
    const double *X = ipcc_world_rest_positions(w), *fc = ipcc_world_contact_forces(w);
    double bottom = INFINITY, ground_direct = 0;
    for (int i = first; i < first + count; ++i)
        bottom = fmin(bottom, X[3 * i + 1]);
    int num_bottom = 0;
    for (int i = first; i < first + count; ++i)
        if (X[3 * i + 1] < bottom + 1e-9) {
            ground_direct += fc[3 * i + 1];
            num_bottom++;
        }
    assert_int_equal(num_bottom, 25);
    double speed = max_speed(w);

    print_message("stack: %d steps, up to %d contacts, kappa %.3g; %.2f Newton iterations per step in the "
                  "last second\n",
                  NUM_STEPS, max_contacts, ipcc_world_kappa(w), (double)late_iterations / LAST_SECOND);
    print_message("stack: ground reaction (all vertices) %.5f N, cube 1's bottom face %.5f N, total weight "
                  "%.5f N (%+.3f %%, %+.3f %%)\n",
                  total_contact, ground_direct, total_weight, 100 * (total_contact / total_weight - 1),
                  100 * (ground_direct / total_weight - 1));
    print_message("stack: cube 2 on cube 3 %.5f N, cube 3's weight %.5f N (%+.3f %%)\n", cube[2].contact[1],
                  cube[2].weight, 100 * (cube[2].contact[1] / cube[2].weight - 1));
    for (int b = 0; b < NUM_CUBES; ++b)
        print_message("stack: cube %d: contact (%.4f, %.5f, %.4f) N, friction (%.4f, %.5f, %.4f) N, weight "
                      "%.5f N\n",
                      b + 1, cube[b].contact[0], cube[b].contact[1], cube[b].contact[2], cube[b].friction[0],
                      cube[b].friction[1], cube[b].friction[2], cube[b].weight);
    print_message("stack: max speed at rest %.3g m/s, lowest vertex ever %.3g m (d̂ %.3g m)\n", speed, lowest,
                  ipcc_world_dhat(w));

    // The weights are what was asked for (lumped masses add up to rho V).
    for (int b = 0; b < NUM_CUBES; ++b)
        assert_near(cube[b].weight, density[b] * size * size * size * g0, 0, 1e-12);
    // (a) The ground carries the whole stack: over all vertices, and directly
    // over cube 1's bottom face.
    assert_near(total_contact, total_weight, 0, 0.01);
    assert_near(ground_direct, total_weight, 0, 0.01);
    // (b) Cube 2 carries cube 3.
    assert_near(cube[2].contact[1], cube[2].weight, 0, 0.01);
    // The premise that friction carries no vertical load.
    assert_true(friction_y < 1e-3 * total_weight);
    // (c) At rest (the cubes landed at 0.2 m/s), and never below the ground.
    assert_true(speed < 1e-3);
    // (d) Rest is cheap: at most 3 Newton iterations per step in the last second.
    assert_true(late_iterations <= 3 * LAST_SECOND);
    assert_true(lowest > 0);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(mesh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stack_of_three_cubes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
