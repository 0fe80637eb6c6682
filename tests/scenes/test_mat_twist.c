// The 40 x 40 mat of examples/mat_twist.json twisted until it wraps onto
// itself: heavy self-contact, checked exactly for intersections after every
// step. Labelled "slow" (about a minute in Release, several under the
// sanitizers); CI runs the 16 x 16 version in test_contact_scenes.
#include <math.h>
#include <stdio.h>

#include "support.h"
#include "world_checks.h"

static void test_mat_twist_40x40(void **state) {
    (void)state;
    ipcc_scene *scene = NULL;
    if (ipcc_scene_load(IPCC_SOURCE_DIR "/examples/mat_twist.json", &scene) != IPCC_OK)
        fail_msg("%s", ipcc_last_error());
    ipcc_world *w = NULL;
    if (ipcc_scene_create_world(scene, &w) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    int steps = (int)lround(scene->duration / scene->world.time_step), max_contacts = 0;
    ipcc_scene_destroy(scene);
    double dmin = INFINITY;
    char label[32];
    for (int s = 1; s <= steps; ++s) {
        ipcc_step_stats st;
        if (ipcc_world_step(w, &st) < 0) fail_msg("step %d: %s", s, ipcc_last_error());
        snprintf(label, sizeof label, "step %d", s);
        ipcc_test_assert_intersection_free(w, label);
        ipcc_test_assert_no_inversion(w);
        assert_true(st.min_distance > 0);
        dmin = fmin(dmin, st.min_distance);
        if (st.num_contacts > max_contacts) max_contacts = st.num_contacts;
    }
    print_message("40x40 twist: %d steps, max contacts %d, min distance %.3g m\n", steps, max_contacts, dmin);
    assert_true(max_contacts > 1000);
    ipcc_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_mat_twist_40x40)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
