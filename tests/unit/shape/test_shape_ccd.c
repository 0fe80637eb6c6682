// Vertex-shape contact kernels: the barrier on the exact squared distance to
// each analytic shape (value, gradient, Hessian) against central
// differences, in every region of every shape (faces, edges and corners of a
// box; side, caps and rims of a cylinder; both sides of a torus' tube); and
// the conservative-advancement CCD (src/shape/shape_ccd.c) against dense sampling
// of the true motion, for points and shapes moving at 20 m/s over a 0.01 s
// step, including a rotating box whose corner sweeps a point.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contact/contact.h"
#include "geometry/distance.h"
#include "base/rotation.h"
#include "random_shape.h"
#include "shape/shape.h"
#include "shape/shape_ccd.h"
#include "support.h"

static const char *const names[] = {"sphere", "box", "cylinder", "ellipsoid", "torus"};

// Tori keep a hole of at least 0.4 R: the finite differences stay off the axis.
static ipcc_shape random_shape(ipcc_shape_kind kind) { return ipcc_test_random_shape(kind, 0.2, 0.6); }

typedef struct ps_ctx {
    const ipcc_shape *shape;
    double dhat2;
} ps_ctx;

static double ps_energy(const double *x, void *ctx) {
    ps_ctx *c = ctx;
    return ipcc_contact_barrier(IPCC_CONTACT_PS, x, c->shape, c->dhat2, NULL, NULL, false);
}

static void ps_gradient(const double *x, void *ctx, double *g) {
    ps_ctx *c = ctx;
    double H[9];
    ipcc_contact_barrier(IPCC_CONTACT_PS, x, c->shape, c->dhat2, g, H, false);
}

static double sq_distance(const double *x, void *ctx) {
    return ipcc_contact_distance(IPCC_CONTACT_PS, x, ((ps_ctx *)ctx)->shape, NULL, NULL);
}

static void sq_gradient(const double *x, void *ctx, double *g) {
    ipcc_contact_distance(IPCC_CONTACT_PS, x, ((ps_ctx *)ctx)->shape, g, NULL);
}

// Which region of the shape the closest point of local q lies in, so that
// every region is seen: box 0 face / 1 edge / 2 corner; cylinder 0 side /
// 1 cap / 2 rim; torus 0 outer half / 1 inner half of the tube; else 0.
static int region(const ipcc_shape *s, const double x[3]) {
    double p[3] = {x[0] - s->center[0], x[1] - s->center[1], x[2] - s->center[2]}, q[3];
    for (int i = 0; i < 3; ++i)
        q[i] = s->rotation[i] * p[0] + s->rotation[3 + i] * p[1] + s->rotation[6 + i] * p[2];
    double rho = hypot(q[0], q[1]);
    switch (s->kind) {
    case IPCC_SHAPE_BOX: {
        int out = 0;
        for (int i = 0; i < 3; ++i)
            out += fabs(q[i]) > s->size[i];
        return out - 1;
    }
    case IPCC_SHAPE_CYLINDER: {
        bool side = rho > s->size[0], end = fabs(q[2]) > s->size[1];
        return side && end ? 2 : end ? 1 : 0;
    }
    case IPCC_SHAPE_TORUS: return rho < s->size[0];
    default: return 0;
    }
}

static void check_derivatives(ipcc_shape_kind kind) {
    int seen[3] = {0}, needed = kind == IPCC_SHAPE_BOX || kind == IPCC_SHAPE_CYLINDER ? 3
                                : kind == IPCC_SHAPE_TORUS                            ? 2
                                                                                      : 1;
    const double dhat = 0.25;
    int accepted = 0;
    for (int trial = 0; trial < 200000 && accepted < 600; ++trial) {
        ipcc_shape s = random_shape(kind);
        ps_ctx c = {.shape = &s, .dhat2 = dhat * dhat};
        // A random surface-ish point pushed out along the normal by 0.02..0.9 dhat.
        double y[3], cp[3], n[3];
        double L = ipcc_shape_bounding_radius(&s);
        for (int i = 0; i < 3; ++i)
            y[i] = s.center[i] + ipcc_test_random(-1.3, 1.3) * L;
        double phi = ipcc_shape_distance(&s, y, cp, n);
        if (!isfinite(phi)) continue;
        double target = ipcc_test_random(0.02, 0.9) * dhat, x[3];
        for (int i = 0; i < 3; ++i)
            x[i] = cp[i] + target * n[i];
        double d = ipcc_shape_distance(&s, x, NULL, NULL);
        if (!(d > 0.01 * dhat && d < 0.95 * dhat)) continue;
        int r = region(&s, x);
        accepted++;
        seen[r]++;
        // The squared distance: gradient 2 phi n and the curvature Hessian.
        double g[3], H[9], g_fd[3], H_fd[9], h = 1e-6;
        double dd = ipcc_contact_distance(IPCC_CONTACT_PS, x, &s, g, H);
        assert_near(dd, d * d, 1e-12, 0);
        ipcc_test_fd_gradient(3, x, sq_distance, &c, h, g_fd);
        ipcc_test_fd_hessian(3, x, sq_gradient, &c, h, H_fd);
        for (int i = 0; i < 3; ++i)
            assert_near(g[i], g_fd[i], 1e-6, 0);
        for (int i = 0; i < 9; ++i)
            if (fabs(H[i] - H_fd[i]) > 1e-4 * (1 + fabs(H_fd[i]))) {
                fprintf(stderr, "%s region %d: d = %g: H[%d] = %.10g, finite differences %.10g\n",
                        names[kind], r, d, i, H[i], H_fd[i]);
                fail();
            }
        // The barrier.
        double gb[3], Hb[9], gb_fd[3], Hb_fd[9];
        ipcc_contact_barrier(IPCC_CONTACT_PS, x, &s, c.dhat2, gb, Hb, false);
        ipcc_test_fd_gradient(3, x, ps_energy, &c, h, gb_fd);
        ipcc_test_fd_hessian(3, x, ps_gradient, &c, h, Hb_fd);
        double gs = 0, Hs = 0;
        for (int i = 0; i < 3; ++i)
            gs = fmax(gs, fabs(gb[i]));
        for (int i = 0; i < 9; ++i)
            Hs = fmax(Hs, fabs(Hb[i]));
        for (int i = 0; i < 3; ++i)
            assert_near(gb[i], gb_fd[i], 1e-5 * gs + 1e-9, 0);
        for (int i = 0; i < 9; ++i)
            assert_near(Hb[i], Hb_fd[i], 1e-4 * Hs + 1e-7, 0);
    }
    print_message("%s: %d points, regions %d %d %d\n", names[kind], accepted, seen[0], seen[1], seen[2]);
    assert_true(accepted >= 600);
    for (int r = 0; r < needed; ++r)
        assert_true(seen[r] >= 20);
}

static void test_derivatives_sphere(void **state) {
    (void)state;
    ipcc_test_seed(91);
    check_derivatives(IPCC_SHAPE_SPHERE);
}
static void test_derivatives_box(void **state) {
    (void)state;
    ipcc_test_seed(92);
    check_derivatives(IPCC_SHAPE_BOX);
}
static void test_derivatives_cylinder(void **state) {
    (void)state;
    ipcc_test_seed(93);
    check_derivatives(IPCC_SHAPE_CYLINDER);
}
static void test_derivatives_ellipsoid(void **state) {
    (void)state;
    ipcc_test_seed(94);
    check_derivatives(IPCC_SHAPE_ELLIPSOID);
}
static void test_derivatives_torus(void **state) {
    (void)state;
    ipcc_test_seed(95);
    check_derivatives(IPCC_SHAPE_TORUS);
}

// --- A sphere against a triangle's or an edge's interior (ST, SE): the
// thick-point distance (sqrt(d) - r)^2 and its barrier by central
// differences over the primitive's vertices, and the distance against the
// exact closest point of the triangle to the centre.

typedef struct prim_ctx {
    ipcc_contact_kind kind;
    const ipcc_shape *sphere;
    double dhat2;
} prim_ctx;

static double prim_distance(const double *x, void *ctx) {
    prim_ctx *c = ctx;
    return ipcc_contact_distance(c->kind, x, c->sphere, NULL, NULL);
}
static void prim_distance_gradient(const double *x, void *ctx, double *g) {
    prim_ctx *c = ctx;
    ipcc_contact_distance(c->kind, x, c->sphere, g, NULL);
}
static double prim_barrier(const double *x, void *ctx) {
    prim_ctx *c = ctx;
    return ipcc_contact_barrier(c->kind, x, c->sphere, c->dhat2, NULL, NULL, false);
}
static void prim_barrier_gradient(const double *x, void *ctx, double *g) {
    prim_ctx *c = ctx;
    double H[81];
    ipcc_contact_barrier(c->kind, x, c->sphere, c->dhat2, g, H, false);
}

static void test_sphere_primitive_derivatives(void **state) {
    (void)state;
    ipcc_test_seed(97);
    const double dhat = 0.05;
    int checked[2] = {0};
    for (int trial = 0; trial < 4000 && (checked[0] < 300 || checked[1] < 300); ++trial) {
        ipcc_shape s = random_shape(IPCC_SHAPE_SPHERE);
        prim_ctx c = {
            .kind = trial % 2 ? IPCC_CONTACT_SE : IPCC_CONTACT_ST, .sphere = &s, .dhat2 = dhat * dhat};
        int nv = c.kind == IPCC_CONTACT_ST ? 3 : 2, n = 3 * nv;
        // A primitive around a point at distance r + gap from the centre, in the tangent plane there.
        double dir[3], len = 0, x[9];
        for (int k = 0; k < 3; ++k) {
            dir[k] = ipcc_test_random(-1, 1);
            len += dir[k] * dir[k];
        }
        len = sqrt(len);
        double gap = ipcc_test_random(0.05, 0.9) * dhat, foot[3], n0[3], t1[3], t2[3];
        for (int k = 0; k < 3; ++k) {
            n0[k] = dir[k] / len;
            foot[k] = s.center[k] + (s.size[0] + gap) * n0[k];
        }
        // A tangent basis (t1, t2) at the foot, and the primitive around the
        // foot in the tangent plane, tilted slightly.
        double a[3] = {fabs(n0[0]) < 0.6 ? 1 : 0, fabs(n0[0]) < 0.6 ? 0 : 1, 0};
        t1[0] = n0[1] * a[2] - n0[2] * a[1], t1[1] = n0[2] * a[0] - n0[0] * a[2],
        t1[2] = n0[0] * a[1] - n0[1] * a[0];
        double l1 = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
        for (int k = 0; k < 3; ++k)
            t1[k] /= l1;
        t2[0] = n0[1] * t1[2] - n0[2] * t1[1], t2[1] = n0[2] * t1[0] - n0[0] * t1[2],
        t2[2] = n0[0] * t1[1] - n0[1] * t1[0];
        double phase = ipcc_test_random(0, 6.283185307179586);
        for (int v = 0; v < nv; ++v) {
            double ang = phase + 6.283185307179586 * v / nv, rad = ipcc_test_random(0.05, 0.3);
            double tilt = ipcc_test_random(-0.2, 0.2) * gap;
            for (int k = 0; k < 3; ++k)
                x[3 * v + k] = foot[k] + rad * (cos(ang) * t1[k] + sin(ang) * t2[k]) + tilt * n0[k];
        }
        double d = ipcc_contact_distance(c.kind, x, &s, NULL, NULL);
        if (!(d > 1e-4 * dhat * dhat && d < 0.9 * c.dhat2)) continue;
        // Interior only (the closest feature the constraint is keyed by).
        if (c.kind == IPCC_CONTACT_ST &&
            ipcc_point_triangle_distance_type_of(s.center, x, x + 3, x + 6) != IPCC_PT_P_T)
            continue;
        if (c.kind == IPCC_CONTACT_SE) {
            double e[3], q[3];
            for (int k = 0; k < 3; ++k) {
                e[k] = x[3 + k] - x[k];
                q[k] = s.center[k] - x[k];
            }
            double a = (e[0] * q[0] + e[1] * q[1] + e[2] * q[2]) / (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
            if (!(a > 0 && a < 1)) continue;
        }
        if (c.kind == IPCC_CONTACT_ST) // (sqrt(d) - r)^2 is the exact triangle-to-sphere gap squared
            assert_near(sqrt(d),
                        sqrt(ipcc_point_triangle_distance(s.center, x, x + 3, x + 6, IPCC_PT_P_T)) -
                            s.size[0],
                        1e-12, 1e-9);
        double g[9], H[81], g_fd[9], H_fd[81], h = 1e-6;
        ipcc_contact_distance(c.kind, x, &s, g, H);
        ipcc_test_fd_gradient(n, x, prim_distance, &c, h, g_fd);
        ipcc_test_fd_hessian(n, x, prim_distance_gradient, &c, h, H_fd);
        for (int i = 0; i < n; ++i)
            assert_near(g[i], g_fd[i], 1e-7, 1e-6);
        for (int i = 0; i < n * n; ++i)
            assert_near(H[i], H_fd[i], 1e-6, 1e-5);
        double gb[9], Hb[81], gb_fd[9], Hb_fd[81];
        ipcc_contact_barrier(c.kind, x, &s, c.dhat2, gb, Hb, false);
        ipcc_test_fd_gradient(n, x, prim_barrier, &c, h, gb_fd);
        ipcc_test_fd_hessian(n, x, prim_barrier_gradient, &c, h, Hb_fd);
        double gs = 0, Hs = 0;
        for (int i = 0; i < n; ++i)
            gs = fmax(gs, fabs(gb[i]));
        for (int i = 0; i < n * n; ++i)
            Hs = fmax(Hs, fabs(Hb[i]));
        for (int i = 0; i < n; ++i)
            assert_near(gb[i], gb_fd[i], 1e-5 * gs + 1e-9, 0);
        for (int i = 0; i < n * n; ++i)
            assert_near(Hb[i], Hb_fd[i], 1e-4 * Hs + 1e-7, 0);
        checked[c.kind == IPCC_CONTACT_SE]++;
    }
    print_message("sphere-triangle %d, sphere-edge %d placements checked\n", checked[0], checked[1]);
    assert_true(checked[0] >= 300 && checked[1] >= 300);
}

// --- CCD. The true motion is sampled at 20,001 times: every sample up to
// the reported time must be strictly outside, the reported time must not be
// absurdly early (at least half of the first sampled contact), and a motion
// that never comes near the shape must be allowed whole.

// The first sampled time the point is on or inside the shape (INFINITY if
// none up to t_max), and the smallest distance seen before it.
static double first_contact(const ipcc_shape *start, const double vh[3], const double wh[3],
                            const double x0[3], const double x1[3], double t_max, double *min_phi) {
    const int N = 20000;
    double m = INFINITY;
    for (int k = 0; k <= N; ++k) {
        double t = t_max * k / N, p[3];
        for (int i = 0; i < 3; ++i)
            p[i] = x0[i] + t * (x1[i] - x0[i]);
        ipcc_shape pose;
        ipcc_shape_moved(start, vh, wh, t, &pose);
        double phi = ipcc_shape_distance(&pose, p, NULL, NULL);
        if (!(phi > 0)) {
            if (min_phi) *min_phi = m;
            return t;
        }
        m = fmin(m, phi);
    }
    if (min_phi) *min_phi = m;
    return INFINITY;
}

static void check_ccd(const ipcc_shape *start, const double vh[3], const double wh[3], const double x0[3],
                      const double x1[3]) {
    double t = ipcc_shape_ccd(start, vh, wh, 0.0, 1.0, x0, x1), min_phi;
    double hit = first_contact(start, vh, wh, x0, x1, 1.0, &min_phi);
    double phi0 = ipcc_shape_distance(start, x0, NULL, NULL);
    assert_true(t >= 0 && t <= 1);
    if (isfinite(hit)) {
        // conservative: strictly before the contact, with every sample before it outside
        assert_true(t < hit);
        assert_true(isinf(first_contact(start, vh, wh, x0, x1, t, NULL)));
        assert_true(t > 0.5 * hit);
    } else if (min_phi > 0.2 * phi0) {
        assert_true(t == 1.0); // never came near: no false stop
    } else {
        assert_true(t > 0); // grazing: it may stop early, but not at once
    }
}

// A point at 20 m/s over h = 0.01 s (0.2 m) through each shape, starting
// 0.05 m outside; then the shape moving at 20 m/s through a resting point.
static void test_ccd_20_m_per_s(void **state) {
    (void)state;
    ipcc_test_seed(96);
    const double zero[3] = {0, 0, 0};
    int hits = 0;
    for (int kind = 0; kind < 5; ++kind)
        for (int trial = 0; trial < 40; ++trial) {
            ipcc_shape s = random_shape((ipcc_shape_kind)kind);
            for (int i = 0; i < 3; ++i)
                s.size[i] *= 0.1; // 3..15 cm
            // A random direction towards a random point inside the shape's bounding sphere.
            double dir[3], len = 0, aim[3], cp[3], n[3], x0[3], x1[3];
            for (int i = 0; i < 3; ++i) {
                dir[i] = ipcc_test_random(-1, 1);
                len += dir[i] * dir[i];
            }
            len = sqrt(len);
            double L = ipcc_shape_bounding_radius(&s);
            for (int i = 0; i < 3; ++i)
                aim[i] = s.center[i] + ipcc_test_random(-0.3, 0.3) * L;
            // Start outside: back off from the aim along -dir until 0.05 m away.
            for (int i = 0; i < 3; ++i)
                x0[i] = aim[i] - dir[i] / len * 2 * L;
            double phi = ipcc_shape_distance(&s, x0, cp, n);
            if (!(phi > 0)) continue;
            for (int i = 0; i < 3; ++i) {
                x0[i] = cp[i] + 0.05 * n[i];
                x1[i] = x0[i] +
                        0.2 * (aim[i] - x0[i]) /
                            sqrt((aim[0] - x0[0]) * (aim[0] - x0[0]) + (aim[1] - x0[1]) * (aim[1] - x0[1]) +
                                 (aim[2] - x0[2]) * (aim[2] - x0[2]));
            }
            check_ccd(&s, zero, zero, x0, x1);
            // The same relative motion made by the shape: v h = -(x1 - x0).
            double vh[3] = {x0[0] - x1[0], x0[1] - x1[1], x0[2] - x1[2]};
            check_ccd(&s, vh, zero, x0, x0);
            hits += isfinite(first_contact(&s, zero, zero, x0, x1, 1.0, NULL));
        }
    print_message("ccd: %d of the straight motions hit\n", hits);
    assert_true(hits >= 50);
}

// A box spinning about its local z at 40 rad/s (its 0.5 m corner radius
// moves at 20 m/s): a point just outside near the path of a corner.
static void test_ccd_rotating_box(void **state) {
    (void)state;
    ipcc_shape s = {.kind = IPCC_SHAPE_BOX, .rotation = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .size = {0.3, 0.4, 0.1}};
    double wh[3] = {0, 0, 40 * 0.01}, vh[3] = {0, 0, 0};
    int hits = 0;
    for (int k = 0; k < 50; ++k) {
        double angle = 0.93 + 0.01 * k, r = 0.45 + 0.001 * k; // ahead of the corner at angle 0.927
        double x0[3] = {r * cos(angle), r * sin(angle), 0.05 * (k % 3) - 0.05};
        if (!(ipcc_shape_distance(&s, x0, NULL, NULL) > 0)) continue;
        check_ccd(&s, vh, wh, x0, x0);
        hits += isfinite(first_contact(&s, vh, wh, x0, x0, 1.0, NULL));
    }
    print_message("rotating box: %d of 50 points are hit\n", hits);
    assert_true(hits >= 10);
}

// Starting on the surface or inside: time 0.
static void test_ccd_starts_inside(void **state) {
    (void)state;
    ipcc_shape s = {.kind = IPCC_SHAPE_SPHERE, .rotation = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .size = {1, 1, 1}};
    const double zero[3] = {0, 0, 0}, in[3] = {0.5, 0, 0}, on[3] = {1, 0, 0}, far[3] = {3, 0, 0};
    assert_true(ipcc_shape_ccd(&s, zero, zero, 0, 1, in, far) == 0.0);
    assert_true(ipcc_shape_ccd(&s, zero, zero, 0, 1, on, far) == 0.0);
    assert_true(ipcc_shape_ccd(&s, zero, zero, 0, 1, far, far) == 1.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_derivatives_sphere),   cmocka_unit_test(test_derivatives_box),
        cmocka_unit_test(test_derivatives_cylinder), cmocka_unit_test(test_derivatives_ellipsoid),
        cmocka_unit_test(test_derivatives_torus),    cmocka_unit_test(test_ccd_20_m_per_s),
        cmocka_unit_test(test_ccd_rotating_box),     cmocka_unit_test(test_sphere_primitive_derivatives),
        cmocka_unit_test(test_ccd_starts_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
