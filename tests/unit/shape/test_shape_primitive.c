// Exact edge- and triangle-shape distance (shape_primitive.c) for the
// cylinder, ellipsoid and torus:
// - the minimum against brute force: a fine barycentric grid of the
//   primitive never goes below it (minus rounding), and comes within the
//   grid's spacing of it (phi is 1-Lipschitz);
// - the closest feature does not depend on the order of an edge's ends;
// - finite differences of the squared distance's gradient and Hessian, on
//   random primitives near each region of each shape (the cylinder's side,
//   rim and caps, the torus's inner and outer sides, the ellipsoid), with
//   every closest feature (vertex, edge interior, triangle interior)
//   required to occur in each region.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape/shape.h"
#include "shape/shape_ccd.h"
#include "shape/shape_primitive.h"
#include "support.h"
#include "base/vec3.h"

#define PI 3.141592653589793

static double urand(unsigned *seed) {
    *seed = *seed * 1103515245u + 12345u;
    return ((*seed >> 8) & 0xffffff) / (double)0x1000000;
}

static ipcc_shape make(ipcc_shape_kind kind) {
    ipcc_shape s = {.kind = kind, .center = {0.1, -0.2, 0.05}};
    // A rotation about (1, 2, 3) / |.| by 0.7 rad (Rodrigues), so local and world differ.
    double a[3] = {1, 2, 3}, l = sqrt(14.0), c = cos(0.7), sn = sin(0.7);
    for (int k = 0; k < 3; ++k)
        a[k] /= l;
    double K[9] = {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double KK = 0;
            for (int m = 0; m < 3; ++m)
                KK += K[3 * i + m] * K[3 * m + j];
            s.rotation[3 * i + j] = (i == j) + sn * K[3 * i + j] + (1 - c) * KK;
        }
    switch (kind) {
    case IPCC_SHAPE_CYLINDER: s.size[0] = 0.08, s.size[1] = 0.1; break;
    case IPCC_SHAPE_ELLIPSOID: s.size[0] = 0.12, s.size[1] = 0.07, s.size[2] = 0.09; break;
    case IPCC_SHAPE_TORUS: s.size[0] = 0.1, s.size[1] = 0.04; break;
    default: break;
    }
    return s;
}

// Regions of the closest surface point (local coordinates q).
enum { SIDE, RIM, CAP, OUTER, INNER, SMOOTH, NUM_REGIONS };
static const char *const region_names[] = {"side", "rim", "cap", "outer", "inner", "ellipsoid"};

static int region_of(const ipcc_shape *s, const double x[3]) {
    double q[3];
    ipcc_shape_to_local(s, x, q);
    double rho = hypot(q[0], q[1]);
    switch (s->kind) {
    case IPCC_SHAPE_CYLINDER: {
        bool side = rho > s->size[0], end = fabs(q[2]) > s->size[1];
        return side && end ? RIM : side ? SIDE : CAP;
    }
    case IPCC_SHAPE_TORUS: return rho >= s->size[0] ? OUTER : INNER;
    default: return SMOOTH;
    }
}

// Region `region` belongs to shapes of this kind.
static bool region_of_kind(ipcc_shape_kind kind, int region) {
    return kind == IPCC_SHAPE_CYLINDER ? region <= CAP
           : kind == IPCC_SHAPE_TORUS  ? region == OUTER || region == INNER
                                       : region == SMOOTH;
}

// A random surface point of region `region` (rejection on random local
// points pushed to the surface), and its outward normal.
static void surface_point(const ipcc_shape *s, int region, unsigned *seed, double y[3], double n[3]) {
    for (int tries = 0; tries < 100000; ++tries) {
        double q[3], x[3];
        for (int k = 0; k < 3; ++k)
            q[k] = 0.3 * (2 * urand(seed) - 1);
        ipcc_shape_to_world(s, q, x);
        double d = ipcc_shape_distance(s, x, y, n);
        if (!(d > 1e-3)) continue;
        // The region of points just outside y along n.
        double out[3] = {y[0] + 1e-3 * n[0], y[1] + 1e-3 * n[1], y[2] + 1e-3 * n[2]};
        if (region_of(s, out) == region) return;
    }
    fail_msg("no surface point of region %s", region_names[region]);
}

// A random primitive of n vertices near surface point y: centred at y + h n
// (h in (0.5, 3) mm), spread l (2 to 6 cm) in random directions, tilted
// randomly towards n; a third of the primitives lie nearly tangent.
static void random_primitive(const double y[3], const double n[3], int nv, unsigned *seed, double *x) {
    double T[6];
    tangent_basis3(n, T);
    double h = 5e-4 + 2.5e-3 * urand(seed), l = 0.02 + 0.04 * urand(seed),
           tilt = urand(seed) < 0.33 ? 0.02 : 0.6;
    for (int a = 0; a < nv; ++a) {
        double ang = 2 * PI * (a / (double)nv + 0.2 * urand(seed)), r = 0.5 * l * (0.5 + urand(seed));
        double t0 = r * cos(ang), t1 = r * sin(ang), z = tilt * r * (2 * urand(seed) - 1);
        for (int k = 0; k < 3; ++k)
            x[3 * a + k] = y[k] + h * n[k] + t0 * T[k] + t1 * T[3 + k] + z * n[k];
    }
}

// The closest feature's dimension: 0 vertex, 1 edge interior, 2 triangle interior.
static int feature_dim(const ipcc_shape *s, int nv, const double *x) {
    double t, phi, w[3];
    if (nv == 2) return ipcc_shape_edge_closest(s, x, x + 3, &t, &phi) == IPCC_PE_P_E ? 1 : 0;
    ipcc_point_triangle_distance_type tt = ipcc_shape_triangle_closest(s, x, x + 3, x + 6, w, &phi);
    return tt <= IPCC_PT_P_T2 ? 0 : tt <= IPCC_PT_P_E2 ? 1 : 2;
}

static double min_phi(const ipcc_shape *s, int nv, const double *x) {
    double t, phi, w[3];
    if (nv == 2)
        ipcc_shape_edge_closest(s, x, x + 3, &t, &phi);
    else
        ipcc_shape_triangle_closest(s, x, x + 3, x + 6, w, &phi);
    return phi;
}

// Brute force: the least phi over a barycentric grid of m subdivisions.
static double grid_min(const ipcc_shape *s, int nv, const double *x, int m) {
    double best = INFINITY;
    for (int i = 0; i <= m; ++i)
        for (int j = 0; j <= (nv == 3 ? m - i : 0); ++j) {
            double b1 = (double)i / m, b2 = (double)j / m, w[3] = {1 - b1 - b2, b1, b2}, p[3] = {0, 0, 0};
            if (nv == 2) w[0] = 1 - b1, w[1] = b1;
            for (int a = 0; a < nv; ++a)
                for (int k = 0; k < 3; ++k)
                    p[k] += w[a] * x[3 * a + k];
            best = fmin(best, ipcc_shape_distance(s, p, NULL, NULL));
        }
    return best;
}

static void test_minimum_against_brute_force(void **state) {
    (void)state;
    const ipcc_shape_kind kinds[] = {IPCC_SHAPE_CYLINDER, IPCC_SHAPE_ELLIPSOID, IPCC_SHAPE_TORUS};
    unsigned seed = 7;
    int checked = 0;
    for (int ki = 0; ki < 3; ++ki) {
        ipcc_shape s = make(kinds[ki]);
        for (int region = 0; region < NUM_REGIONS; ++region) {
            if (!region_of_kind(kinds[ki], region)) continue;
            for (int trial = 0; trial < 60; ++trial)
                for (int nv = 2; nv <= 3; ++nv) {
                    double y[3], n[3], x[9];
                    surface_point(&s, region, &seed, y, n);
                    random_primitive(y, n, nv, &seed, x);
                    double phi = min_phi(&s, nv, x), grid = grid_min(&s, nv, x, 200);
                    double l = 0; // the primitive's size: the grid's spacing is l / 200
                    for (int a = 0; a < nv; ++a)
                        for (int b = 0; b < nv; ++b) {
                            double d[3];
                            sub3(x + 3 * a, x + 3 * b, d);
                            l = fmax(l, norm3(d));
                        }
                    if (!(phi > 0)) continue; // crosses: the early out (its own test below)
                    if (grid < phi - 1e-12 || grid > phi + l / 200)
                        fail_msg("%s, %s, %d vertices, trial %d: minimum %.12g, grid %.12g",
                                 ipcc_shape_kind_name(s.kind), region_names[region], nv, trial, phi, grid);
                    // Order independence of an edge's ends.
                    if (nv == 2) {
                        double r[6], t0, t1, p0, p1;
                        memcpy(r, x + 3, 3 * sizeof(double));
                        memcpy(r + 3, x, 3 * sizeof(double));
                        ipcc_point_edge_distance_type a = ipcc_shape_edge_closest(&s, x, x + 3, &t0, &p0);
                        ipcc_point_edge_distance_type b = ipcc_shape_edge_closest(&s, r, r + 3, &t1, &p1);
                        assert_true(p0 == p1 && fabs(t0 - (1 - t1)) <= 1e-15);
                        assert_true(a == IPCC_PE_P_E ? b == IPCC_PE_P_E : a != b && b != IPCC_PE_P_E);
                    }
                    checked++;
                }
        }
    }
    print_message("%d primitives checked against a 200-subdivision grid\n", checked);
    assert_true(checked > 300);
}

// A triangle through a shape, with every vertex outside: the minimum is <= 0.
static void test_crossing_detected(void **state) {
    (void)state;
    const ipcc_shape_kind kinds[] = {IPCC_SHAPE_CYLINDER, IPCC_SHAPE_ELLIPSOID, IPCC_SHAPE_TORUS};
    for (int ki = 0; ki < 3; ++ki) {
        ipcc_shape s = make(kinds[ki]);
        // A large triangle through the outermost surface point along local x,
        // 3 mm deep, its vertices well outside.
        double q[3] = {s.kind == IPCC_SHAPE_TORUS ? s.size[0] + s.size[1] : s.size[0], 0, 0}, y[3];
        q[0] -= 3e-3;
        ipcc_shape_to_world(&s, q, y);
        double T[9];
        for (int a = 0; a < 3; ++a) {
            double ql[3] = {q[0], 0.3 * cos(2 * PI * a / 3), 0.3 * sin(2 * PI * a / 3)};
            ipcc_shape_to_world(&s, ql, T + 3 * a);
            assert_true(ipcc_shape_distance(&s, T + 3 * a, NULL, NULL) > 0);
        }
        double w[3], phi;
        ipcc_shape_triangle_closest(&s, T, T + 3, T + 6, w, &phi);
        assert_true(phi <= 0);
        assert_true(ipcc_shape_primitive_distance2(&s, 3, T, NULL, NULL) == 0);
    }
}

// Finite differences of D's gradient (against D) and Hessian (against the
// gradient), central, step 1e-7 m; configurations whose closest feature
// changes within the stencil are skipped (D is only C^1 there).
static bool fd_check(const ipcc_shape *s, int nv, const double *x0, double *worst_g, double *worst_H) {
    int N = 3 * nv, dim = feature_dim(s, nv, x0);
    double x[9], g[9], H[81], gp[9], gm[9];
    memcpy(x, x0, sizeof(double) * (size_t)N);
    double D = ipcc_shape_primitive_distance2(s, nv, x, g, H);
    if (!(D > 0)) return false;
    const double h = 1e-7;
    double gscale = 0, Hscale = 0;
    for (int i = 0; i < N; ++i)
        gscale = fmax(gscale, fabs(g[i]));
    for (int i = 0; i < N * N; ++i)
        Hscale = fmax(Hscale, fabs(H[i]));
    double eg = 0, eH = 0;
    for (int i = 0; i < N; ++i) {
        x[i] = x0[i] + h;
        if (feature_dim(s, nv, x) != dim) return false;
        double Dp = ipcc_shape_primitive_distance2(s, nv, x, gp, NULL);
        x[i] = x0[i] - h;
        if (feature_dim(s, nv, x) != dim) return false;
        double Dm = ipcc_shape_primitive_distance2(s, nv, x, gm, NULL);
        x[i] = x0[i];
        eg = fmax(eg, fabs((Dp - Dm) / (2 * h) - g[i]) / gscale);
        for (int j = 0; j < N; ++j)
            eH = fmax(eH, fabs((gp[j] - gm[j]) / (2 * h) - H[N * i + j]) / fmax(Hscale, 1e-300));
    }
    *worst_g = fmax(*worst_g, eg);
    *worst_H = fmax(*worst_H, eH);
    return true;
}

static void test_derivatives_in_every_region(void **state) {
    (void)state;
    const ipcc_shape_kind kinds[] = {IPCC_SHAPE_CYLINDER, IPCC_SHAPE_ELLIPSOID, IPCC_SHAPE_TORUS};
    unsigned seed = 11;
    for (int ki = 0; ki < 3; ++ki) {
        ipcc_shape s = make(kinds[ki]);
        for (int region = 0; region < NUM_REGIONS; ++region) {
            if (!region_of_kind(kinds[ki], region)) continue;
            for (int nv = 2; nv <= 3; ++nv) {
                int seen[3] = {0, 0, 0};
                double eg = 0, eH = 0;
                for (int trial = 0; trial < 400; ++trial) {
                    double y[3], n[3], x[9];
                    surface_point(&s, region, &seed, y, n);
                    random_primitive(y, n, nv, &seed, x);
                    int dim = feature_dim(&s, nv, x);
                    if (fd_check(&s, nv, x, &eg, &eH)) seen[dim]++;
                }
                print_message("%-9s %-9s %s: vertex %3d, edge %3d, interior %3d; worst FD error: gradient "
                              "%.1e, Hessian %.1e\n",
                              ipcc_shape_kind_name(s.kind), region_names[region],
                              nv == 2 ? "edge    " : "triangle", seen[0], seen[1], seen[2], eg, eH);
                assert_true(eg < 1e-6);
                assert_true(eH < 1e-4);
                // Every feature of the primitive occurs, except the flat cap's
                // interiors (the minimum over a primitive above a flat cap is at a vertex).
                for (int d = 0; d < nv; ++d)
                    if (!(region == CAP && d > 0)) assert_true(seen[d] > 0);
            }
        }
    }
}

// The primitive's (n = 2, 3 vertices) least distance to the shape moved to
// progress tau of (vh, wh), its vertices at x0 + tau (x1 - x0).
static double moved_distance(const ipcc_shape *start, const double vh[3], const double wh[3], int n,
                             const double *x0, const double *x1, double tau) {
    ipcc_shape pose;
    ipcc_shape_moved(start, vh, wh, tau, &pose);
    double x[9];
    for (int i = 0; i < 3 * n; ++i)
        x[i] = x0[i] + tau * (x1[i] - x0[i]);
    return min_phi(&pose, n, x);
}

// The first of 2000 sampled times in [0, end] at which the primitive
// touches or crosses the shape (INFINITY if none); the least distance seen.
static double first_contact(const ipcc_shape *start, const double vh[3], const double wh[3], int n,
                            const double *x0, const double *x1, double end, double *least) {
    double m = INFINITY;
    for (int k = 0; k <= 2000; ++k) {
        double tau = end * k / 2000, d = moved_distance(start, vh, wh, n, x0, x1, tau);
        m = fmin(m, d);
        if (!(d > 0)) {
            if (least) *least = m;
            return tau;
        }
    }
    if (least) *least = m;
    return INFINITY;
}

// ipcc_shape_primitive_ccd against the sampled motion: strictly before the
// first contact with every earlier sample outside, not needlessly early.
static int check_primitive_ccd(const ipcc_shape *s, const double vh[3], const double wh[3], int n,
                               const double *x0, const double *x1) {
    double t = ipcc_shape_primitive_ccd(s, vh, wh, 0.0, 1.0, n, x0, x1), least;
    double hit = first_contact(s, vh, wh, n, x0, x1, 1.0, &least);
    double d0 = moved_distance(s, vh, wh, n, x0, x1, 0);
    assert_true(t >= 0 && t <= 1);
    if (isfinite(hit)) {
        if (!(t < hit && isinf(first_contact(s, vh, wh, n, x0, x1, t, NULL)) && t > 0.3 * hit))
            fail_msg("%s, %d vertices: CCD %g, first sampled contact %g", ipcc_shape_kind_name(s->kind), n, t,
                     hit);
        return 1;
    }
    if (least > 0.2 * d0) assert_true(t == 1.0); // never came near: no false stop
    return 0;
}

// Triangles and edges (3 to 6 cm) starting 5 cm outside each curved shape
// and moving at 20 or 40 m/s for h = 0.01 s towards a point inside it; the
// same relative motion made by the shape (translating), and by a turning
// shape with a resting primitive near its surface.
static void test_primitive_ccd(void **state) {
    (void)state;
    const ipcc_shape_kind kinds[] = {IPCC_SHAPE_CYLINDER, IPCC_SHAPE_ELLIPSOID, IPCC_SHAPE_TORUS};
    const double zero[3] = {0, 0, 0};
    unsigned seed = 21;
    int hits = 0, total = 0;
    for (int ki = 0; ki < 3; ++ki) {
        ipcc_shape s = make(kinds[ki]);
        for (int trial = 0; trial < 30; ++trial)
            for (int nv = 2; nv <= 3; ++nv) {
                double y[3], n[3], x0[9], x1[9], aim[3], q[3];
                int region = kinds[ki] == IPCC_SHAPE_CYLINDER ? trial % 3
                             : kinds[ki] == IPCC_SHAPE_TORUS  ? OUTER + trial % 2
                                                              : SMOOTH;
                surface_point(&s, region, &seed, y, n);
                random_primitive(y, n, nv, &seed, x0);
                for (int i = 0; i < 3 * nv; ++i)
                    x0[i] += 0.05 * n[i % 3];
                for (int k = 0; k < 3; ++k)
                    q[k] = 0.02 * (2 * urand(&seed) - 1);
                ipcc_shape_to_world(&s, q, aim);
                double dir[3], speed = trial % 2 ? 0.4 : 0.2; // m per step: 40 or 20 m/s
                sub3(aim, y, dir);
                double len = norm3(dir);
                for (int i = 0; i < 3 * nv; ++i)
                    x1[i] = x0[i] + speed * dir[i % 3] / len;
                if (!(min_phi(&s, nv, x0) > 0)) continue;
                hits += check_primitive_ccd(&s, zero, zero, nv, x0, x1);
                double vh[3] = {-speed * dir[0] / len, -speed * dir[1] / len, -speed * dir[2] / len};
                hits += check_primitive_ccd(&s, vh, zero, nv, x0, x0);
                // Turning at up to 20 rad/s about a random axis, with the primitive 2 mm off.
                double wh[3];
                for (int k = 0; k < 3; ++k)
                    wh[k] = 0.2 * (2 * urand(&seed) - 1);
                for (int i = 0; i < 3 * nv; ++i)
                    x1[i] = x0[i] - 0.048 * n[i % 3];
                if (min_phi(&s, nv, x1) > 0) hits += check_primitive_ccd(&s, zero, wh, nv, x1, x1);
                total += 3;
            }
    }
    print_message("primitive ccd: %d of %d motions hit\n", hits, total);
    assert_true(hits > total / 4);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimum_against_brute_force),
        cmocka_unit_test(test_crossing_detected),
        cmocka_unit_test(test_derivatives_in_every_region),
        cmocka_unit_test(test_primitive_ccd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
