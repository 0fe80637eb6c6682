// Tet quality measures (mesh_quality.c) against closed forms: the regular
// tet (all dihedral angles acos(1/3) = 70.53 degrees, aspect ratio 1), the
// corner tet (90 and acos(1/sqrt(3)) degrees, aspect sqrt(2) / (2 sqrt(6) r)
// with r = 3V / area), a flattening sliver, and a mesh-wide summary.
#include <math.h>
#include <string.h>

#include "support.h"
#include "world_checks.h"

#define DEG (180.0 / 3.14159265358979323846)

static void regular_tet(void **state) {
    (void)state;
    double s = 1 / sqrt(2.0);
    double x[12] = {1, 0, -s, -1, 0, -s, 0, 1, s, 0, -1, s};
    double lo, hi, aspect;
    ipcc_tet_quality(x, &lo, &hi, &aspect);
    assert_near(lo, acos(1.0 / 3.0) * DEG, 1e-10, 0);
    assert_near(hi, acos(1.0 / 3.0) * DEG, 1e-10, 0);
    assert_near(aspect, 1, 1e-12, 0);
}

static void corner_tet(void **state) {
    (void)state;
    double x[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    double lo, hi, aspect;
    ipcc_tet_quality(x, &lo, &hi, &aspect);
    assert_near(lo, acos(1 / sqrt(3.0)) * DEG, 1e-10, 0);
    assert_near(hi, 90, 1e-10, 0);
    double r = 3 * (1.0 / 6) / (1.5 + sqrt(3.0) / 2);
    assert_near(aspect, sqrt(2.0) / (2 * sqrt(6.0) * r), 1e-12, 1e-12);
}

// A sliver: four nearly coplanar points. Its smallest dihedral angle goes to
// 0, the largest to 180, and the aspect ratio grows like 1 / height.
static void sliver(void **state) {
    (void)state;
    double prev_aspect = 0, prev_lo = 180;
    for (double hgt = 0.1; hgt > 1e-5; hgt /= 10) {
        double x[12] = {0, 0, 0, 1, 1, 0, 1, 0, hgt, 0, 1, hgt};
        double lo, hi, aspect;
        ipcc_tet_quality(x, &lo, &hi, &aspect);
        assert_true(lo < prev_lo && aspect > prev_aspect * 5);
        if (hgt < 2e-3) assert_true(lo < 1 && hi > 179);
        prev_lo = lo;
        prev_aspect = aspect;
    }
}

// A box mesh: total volume exact, its Freudenthal tets have dihedral angles
// of 45, 60 and 90 degrees only for a cube cell, and none is bad; one
// flattened tet is flagged, worst first.
static void mesh_summary(void **state) {
    (void)state;
    ipcc_mesh *m = ipcc_test_box_mesh(3, 2, 2, 0.3, 0.2, 0.2);
    ipcc_mesh_quality q;
    int bad[4] = {-1, -1, -1, -1};
    ipcc_mesh_compute_quality(m, &q, 4, bad);
    assert_near(q.volume, 0.3 * 0.2 * 0.2, 1e-15, 1e-12);
    assert_near(q.min_dihedral, 45, 1e-9, 0);
    assert_near(q.max_dihedral, 90, 1e-9, 0);
    assert_int_equal(q.num_bad, 0);
    assert_true(bad[0] == -1);
    ipcc_mesh_destroy(m);

    double v[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.001};
    int tets[8] = {0, 1, 2, 3, 1, 2, 3, 4};
    assert_int_equal(ipcc_mesh_create(v, 5, tets, 2, "test", NULL, &m), IPCC_OK);
    ipcc_mesh_compute_quality(m, &q, 4, bad);
    assert_int_equal(q.num_bad, 1);
    assert_int_equal(bad[0], q.worst_tet);
    assert_true(q.max_aspect > 10);
    ipcc_mesh_destroy(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regular_tet),
        cmocka_unit_test(corner_tet),
        cmocka_unit_test(sliver),
        cmocka_unit_test(mesh_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
