// Sample points of body edges and faces against curved shapes
// (contact_samples.c): their codes and weights, their barrier's derivatives
// (finite differences) and PSD projection (against LAPACK on the full
// block), the inset shapes' containment, and the smoothness the samples
// are for: the barrier of a face lying along a cylinder's axis has no kink
// as the face tilts (the least distance over the face has one there).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "geometry/barrier.h"
#include "collision/barrier_potential.h"
#include "collision/contact_samples.h"
#include "ipcc/elastic.h"
#include "random_shape.h"
#include "shape/shape.h"
#include "shape/shape_primitive.h"
#include "support.h"
#include "world_checks.h"

static void test_codes_and_weights(void **state) {
    (void)state;
    for (int n = 2; n <= IPCC_SAMPLE_MAX_DIVISIONS; ++n) {
        int faces = 0;
        for (int i = 1; i < n; ++i) {
            double w[3];
            ipcc_sample_weights(2, ipcc_sample_code(n, i, 0), w);
            assert_near(w[0], (double)(n - i) / n, 0, 1e-15);
            assert_near(w[1], (double)i / n, 0, 1e-15);
            for (int j = 1; i + j < n; ++j, ++faces) {
                ipcc_sample_weights(3, ipcc_sample_code(n, i, j), w);
                assert_near(w[0] + w[1] + w[2], 1, 0, 1e-15);
                assert_true(w[0] > 0 && w[1] > 0 && w[2] > 0);
                assert_near(w[2], (double)j / n, 0, 1e-15);
            }
        }
        assert_int_equal(faces, (n - 1) * (n - 2) / 2);
        assert_true(faces <= 64);
    }
    assert_int_equal(ipcc_contact_sample_divisions(0.05, 0), 1);
    assert_int_equal(ipcc_contact_sample_divisions(0.05, 0.1), 1);
    assert_int_equal(ipcc_contact_sample_divisions(0.05, 0.011), 5);
    assert_int_equal(ipcc_contact_sample_divisions(10.0, 0.01), IPCC_SAMPLE_MAX_DIVISIONS);
    // Spacing: sqrt(6 rho 0.1 d̂) for the sampled kinds, 0 for the others.
    ipcc_shape s = {.kind = IPCC_SHAPE_CYLINDER, .size = {0.15, 0.3, 0}};
    assert_near(ipcc_contact_sample_spacing(&s, 1e-3), sqrt(6 * 0.15 * 1e-4), 0, 1e-15);
    s.kind = IPCC_SHAPE_SPHERE;
    assert_true(ipcc_contact_sample_spacing(&s, 1e-3) == 0);
    s.kind = IPCC_SHAPE_BOX;
    assert_true(ipcc_contact_sample_spacing(&s, 1e-3) == 0);
}

typedef struct pair_ctx {
    ipcc_contact_obstacles o;
    ipcc_contact_pair p;
    double dhat2;
} pair_ctx;

static double pair_energy(const double *x, void *ctx) {
    pair_ctx *c = ctx;
    return ipcc_contact_pair_barrier(&c->o, &c->p, x, c->dhat2, NULL, NULL);
}

static void pair_gradient(const double *x, void *ctx, double *g) {
    pair_ctx *c = ctx;
    ipcc_contact_pair_barrier(&c->o, &c->p, x, c->dhat2, g, NULL);
}

// Every sampled kind, edges and faces: a primitive around a surface point,
// tilted, with its sample at a gap inside d̂. The gradient against central
// differences of the energy; the projected Hessian against LAPACK's
// projection of the finite-difference Hessian (the Kronecker form projects
// H3 only, barrier_potential.c).
static void test_sample_barrier_derivatives(void **state) {
    (void)state;
    ipcc_test_seed(2026);
    const ipcc_shape_kind kinds[3] = {IPCC_SHAPE_CYLINDER, IPCC_SHAPE_ELLIPSOID, IPCC_SHAPE_TORUS};
    const double dhat = 0.02;
    int checked[3][2] = {{0}};
    for (int trial = 0; trial < 6000; ++trial) {
        int kk = trial % 3, face = (trial / 3) % 2, nv = face ? 3 : 2, n = 3 * nv;
        if (checked[kk][face] >= 60) continue;
        ipcc_shape s = ipcc_test_random_shape(kinds[kk], 0.2, 0.6);
        double radius = ipcc_shape_bounding_radius(&s);
        pair_ctx c = {.o = {.num_shapes = 1, .pose = &s, .radius = &radius}, .dhat2 = dhat * dhat};
        int nd = 2 + trial % 5, i = 1 + trial % (nd - 1), j = 1;
        if (face && nd < 3) nd = 3;
        if (face) i = 1 + trial % (nd - 2), j = 1 + (trial / 7) % (nd - 1 - i);
        c.p = (ipcc_contact_pair){.kind = face ? IPCC_CONTACT_QT : IPCC_CONTACT_QE,
                                  .v = {0, 1, face ? 2 : 0, face ? 0 : -1},
                                  .sample = ipcc_sample_code(nd, i, face ? j : 0),
                                  .mult = 1};
        if (!face) c.p.v[2] = 0;
        // A surface point, the tangent plane there, and the primitive in it.
        double q[3], y[3], nrm[3];
        for (int k = 0; k < 3; ++k)
            q[k] = s.center[k] + ipcc_test_random(-1.5, 1.5) * radius;
        ipcc_shape_distance(&s, q, y, nrm);
        double t1[3] = {nrm[1], -nrm[0], 0};
        if (fabs(nrm[2]) > 0.9) t1[0] = 0, t1[1] = nrm[2], t1[2] = -nrm[1];
        double l1 = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
        for (int k = 0; k < 3; ++k)
            t1[k] /= l1;
        double t2[3] = {nrm[1] * t1[2] - nrm[2] * t1[1], nrm[2] * t1[0] - nrm[0] * t1[2],
                        nrm[0] * t1[1] - nrm[1] * t1[0]};
        double x[9], gap = ipcc_test_random(0.1, 0.8) * dhat, size = ipcc_test_random(0.01, 0.05);
        for (int v = 0; v < nv; ++v) {
            double a = 6.283185307179586 * v / nv + ipcc_test_random(0, 1),
                   tilt = ipcc_test_random(-0.2, 0.2);
            for (int k = 0; k < 3; ++k)
                x[3 * v + k] = y[k] + gap * nrm[k] + size * (cos(a) * t1[k] + sin(a) * t2[k] + tilt * nrm[k]);
        }
        double w[3], sp[3];
        ipcc_sample_weights(nv, c.p.sample, w);
        ipcc_sample_point(nv, x, w, sp);
        double phi = ipcc_shape_distance(&s, sp, NULL, NULL);
        if (!(phi > 0.05 * dhat && phi < 0.9 * dhat)) continue;
        double g[9], H[81], g_fd[9], H_fd[81], e = ipcc_contact_pair_barrier(&c.o, &c.p, x, c.dhat2, g, H);
        assert_true(isfinite(e) && e > 0);
        assert_near(ipcc_contact_pair_distance(&c.o, &c.p, x), phi * phi, 0, 1e-12 * phi * phi);
        ipcc_test_fd_gradient(n, x, pair_energy, &c, 1e-7, g_fd);
        ipcc_test_fd_hessian(n, x, pair_gradient, &c, 1e-7, H_fd);
        double gs = 0, Hs = 0;
        for (int k = 0; k < n; ++k)
            gs = fmax(gs, fabs(g[k]));
        for (int k = 0; k < n; ++k)
            assert_near(g[k], g_fd[k], 1e-5 * gs, 0);
        ipcc_project_psd(n, H_fd);
        for (int k = 0; k < n * n; ++k)
            Hs = fmax(Hs, fabs(H_fd[k]));
        for (int k = 0; k < n * n; ++k)
            assert_near(H[k], H_fd[k], 1e-4 * Hs, 0);
        checked[kk][face]++;
    }
    for (int k = 0; k < 3; ++k)
        print_message("%s: %d edge samples, %d face samples checked\n", ipcc_shape_kind_name(kinds[k]),
                      checked[k][0], checked[k][1]);
    for (int k = 0; k < 3; ++k)
        assert_true(checked[k][0] >= 60 && checked[k][1] >= 60);
}

// ipcc_shape_inset holds every point at least `depth` inside the shape, so
// the CCD against it lets no point of a face deeper than depth (shape.c's
// proof; checked here on random points, and the inset is no smaller than
// it needs to be: a point just below the depth is outside it somewhere).
// Every surface point is within H = depth of the inset (depth sqrt 2 for
// a cylinder, whose rims reach it), which the CCD's early outs use
// (shape_ccd.c); the cylinder's rims do need the sqrt 2.
static void test_inset_holds_deep_points(void **state) {
    (void)state;
    ipcc_test_seed(5);
    const ipcc_shape_kind kinds[3] = {IPCC_SHAPE_CYLINDER, IPCC_SHAPE_ELLIPSOID, IPCC_SHAPE_TORUS};
    for (int kk = 0; kk < 3; ++kk) {
        int deep = 0, shallow_out = 0;
        double worst = 0; // largest distance from a surface point to the inset, over depth
        for (int trial = 0; trial < 200; ++trial) {
            ipcc_shape s = ipcc_test_random_shape(kinds[kk], 0.2, 0.6), in = s;
            double depth = 0.05 * ipcc_shape_least_radius(&s), R = ipcc_shape_bounding_radius(&s);
            ipcc_shape_inset(&in, depth);
            for (int k = 0; k < 500; ++k) {
                double q[3];
                for (int d = 0; d < 3; ++d)
                    q[d] = s.center[d] + ipcc_test_random(-1, 1) * R;
                double phi = ipcc_shape_distance(&s, q, NULL, NULL),
                       phi_in = ipcc_shape_distance(&in, q, NULL, NULL);
                if (phi <= -depth) {
                    deep++;
                    if (!(phi_in <= 1e-12))
                        fail_msg("%s: a point %.3g deep is outside the inset (%.3g)",
                                 ipcc_shape_kind_name(kinds[kk]), -phi, phi_in);
                }
                if (phi < 0 && phi > -0.9 * depth && phi_in > 0) shallow_out++;
                double y[3];
                ipcc_shape_distance(&s, q, y, NULL);
                double to_inset = ipcc_shape_distance(&in, y, NULL, NULL) / depth,
                       H = kinds[kk] == IPCC_SHAPE_CYLINDER ? sqrt(2.0) : 1.0;
                if (!(to_inset <= H * (1 + 1e-9)))
                    fail_msg("%s: a surface point is %.6g depths from the inset (more than %.6g)",
                             ipcc_shape_kind_name(kinds[kk]), to_inset, H);
                worst = fmax(worst, to_inset);
            }
        }
        print_message("%s: %d deep points inside the inset, %d shallow ones outside it; surface points at "
                      "most %.6g depths from it\n",
                      ipcc_shape_kind_name(kinds[kk]), deep, shallow_out, worst);
        assert_true(deep > 1000 && shallow_out > 100);
        if (kinds[kk] == IPCC_SHAPE_CYLINDER) assert_true(worst > 1.3);
    }
}

// A plate of 5 cm cells lying across a horizontal cylinder's top (axis z),
// its bottom gap above the top line, tilted by theta degrees about x (so the
// gap grows along +z or -z): its barrier energy, at a fixed stiffness, and
// into *exact the control: the sum over its faces of the barrier of each
// face's least distance (shape_primitive.c), what an exact face barrier
// would be.
static double plate_energy(double theta, double *exact) {
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.contact.dhat = 1e-3;
    def.contact.kappa = 1;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    ipcc_mesh *m = ipcc_test_box_mesh(4, 1, 4, 0.2, 0.02, 0.2);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    bd.name = "plate";
    bd.rotation[0] = theta;
    bd.translation[0] = -0.1 - 0.013; // no vertex row right over the top line
    bd.translation[1] = 0.08 + 0.4e-3;
    bd.translation[2] = -0.1;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(m);
    ipcc_shape_def s = ipcc_default_shape_def();
    s.kind = IPCC_SHAPE_CYLINDER;
    s.name = "bar";
    s.size[0] = 0.08;
    s.size[1] = 0.3;
    assert_int_equal(ipcc_world_add_shape(w, &s, NULL), IPCC_OK);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    ipcc_energies e;
    assert_int_equal(ipcc_world_energies(w, &e), IPCC_OK);
    int nf;
    const int *f;
    const double *x = ipcc_world_positions(w);
    ipcc_shape bar = {
        .kind = IPCC_SHAPE_CYLINDER, .rotation = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .size = {0.08, 0.3, 0}};
    ipcc_world_body_surface(w, 0, &nf, &f);
    *exact = 0;
    for (int t = 0; t < nf; ++t) {
        double wt[3], phi;
        ipcc_shape_triangle_closest(&bar, x + 3 * f[3 * t], x + 3 * f[3 * t + 1], x + 3 * f[3 * t + 2], wt,
                                    &phi);
        *exact += ipcc_barrier(phi * phi, def.contact.dhat * def.contact.dhat);
    }
    ipcc_world_destroy(w);
    return e.barrier;
}

// At theta = 0 the plate's faces touch along segments of the top line, and
// the least distance over a face jumps from one end of its segment to the
// other as the plate tilts: a kink, whose second difference grows as 1/h.
// The samples' energy is smooth: its second difference at h and h / 10
// agree. The control, the exact face barrier, has the kink: its second
// difference grows about tenfold.
static void test_line_contact_has_no_kink(void **state) {
    (void)state;
    double x0, e0 = plate_energy(0, &x0);
    assert_true(e0 > 0 && x0 > 0);
    double h = 0.02, d2[2], x2[2];
    for (int k = 0; k < 2; ++k, h /= 10) {
        double xp, xm, ep = plate_energy(h, &xp), em = plate_energy(-h, &xm);
        d2[k] = (ep - 2 * e0 + em) / (h * h);
        x2[k] = (xp - 2 * x0 + xm) / (h * h);
    }
    print_message("samples: energy %.6g, second differences %.6g (h = 0.02 deg), %.6g (h = 0.002 deg)\n", e0,
                  d2[0], d2[1]);
    print_message("exact faces (control): %.6g, second differences %.6g, %.6g\n", x0, x2[0], x2[1]);
    assert_true(d2[0] > 0);
    assert_near(d2[1], d2[0], 0.05 * d2[0], 0);
    assert_true(x2[1] > 5 * x2[0]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codes_and_weights),
        cmocka_unit_test(test_sample_barrier_derivatives),
        cmocka_unit_test(test_inset_holds_deep_points),
        cmocka_unit_test(test_line_contact_has_no_kink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
