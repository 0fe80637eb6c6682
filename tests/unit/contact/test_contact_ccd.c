// The CCD step bound of barrier contact (contact_ccd.c): a direction that
// would carry a cube through another is cut at 0.8 of the time of impact,
// and the state it reaches is intersection-free.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "contact/contact.h"
#include "contact/contact_ccd.h"
#include "support.h"
#include "world_checks.h"
#include "world/world.h"

// A 0.2 m cube body "lower" at the origin and a 0.12 m cube "upper" `gap`
// above it (turned 20 degrees, grids offset, so vertices meet faces, edges
// and vertices), over the ground half-space y = -0.5 d̂.
static ipcc_world *two_cubes(double gap, double dhat) {
    ipcc_world_def def = ipcc_default_world_def();
    def.contact.dhat = dhat;
    def.gravity[1] = -9.81;
    ipcc_world *w = ipcc_test_two_cubes(&def, gap);
    ipcc_half_space_def hs = ipcc_default_half_space_def(); // normal +y
    hs.point[1] = -0.5 * dhat;
    hs.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &hs, NULL), IPCC_OK);
    return w;
}

// The CCD bound: a direction that would carry the upper cube through the
// lower one is cut at 0.8 of the time of impact, and the cut state is
// intersection-free.
static void test_max_step_stops_before_impact(void **state) {
    (void)state;
    ipcc_world *w = two_cubes(0.05, 1e-3);
    ipcc_contact *c = NULL;
    assert_int_equal(ipcc_world_create_contact(w, &c), IPCC_OK);
    int m = 3 * w->n, first = w->bodies[1].first_vertex;
    double *p = calloc((size_t)m, sizeof(double));
    for (int i = first; i < w->n; ++i)
        p[3 * i + 1] = -1.0; // 1 m down: through the lower cube and the ground
    ipcc_contact_begin_step(c);
    const ipcc_step_context sc = ipcc_world_step_context(w);
    double alpha = NAN;
    assert_int_equal(ipcc_contact_max_step(c, &sc, w->x, p, 1.0, &alpha), IPCC_OK);
    // The upper cube's bottom is 0.05 above the lower's top: impact at 0.05.
    assert_true(alpha > 0.7 * 0.05 && alpha <= 0.8 * 0.05 + 1e-12);
    for (int i = 0; i < m; ++i)
        w->x[i] += alpha * p[i];
    ipcc_test_assert_intersection_free(w, "after the bounded step");
    free(p);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max_step_stops_before_impact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
