// Contact distance kernels (src/geometry/distance.c): every gradient and Hessian
// against central differences on tables of placements (offsets of 1e-12,
// points on edges and vertices, parallel and nearly parallel edges,
// degenerate triangles) and on random configurations; the closest-feature
// classification against a brute-force minimization (dense sampling, then
// golden section on the convex slice distance); the ipc-toolkit distance
// cases in tests/data/ccd/ipctk_distance_cases.txt.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/distance.h"
#include "support.h"

// ---------------------------------------------------------------------------
// Functions of the flat DOF vector x, for the central-difference checks.

typedef enum fn_kind { FN_PP, FN_PL, FN_PLANE, FN_LL, FN_PE, FN_PT, FN_EE } fn_kind;

typedef struct fn_ctx {
    fn_kind kind;
    int type; // closest-feature type for FN_PE, FN_PT, FN_EE
} fn_ctx;

static const char *const FN_NAMES[] = {"point-point", "point-line",     "point-plane", "line-line",
                                       "point-edge",  "point-triangle", "edge-edge"};

static int fn_dim(fn_kind k) { return k == FN_PP ? 6 : (k == FN_PL || k == FN_PE) ? 9 : 12; }

static double fn_value(const double *x, void *vctx) {
    const fn_ctx *c = vctx;
    const double *x0 = x, *x1 = x + 3, *x2 = x + 6, *x3 = x + 9;
    switch (c->kind) {
    case FN_PP: return ipcc_point_point_distance(x0, x1);
    case FN_PL: return ipcc_point_line_distance(x0, x1, x2);
    case FN_PLANE: return ipcc_point_plane_distance(x0, x1, x2, x3);
    case FN_LL: return ipcc_line_line_distance(x0, x1, x2, x3);
    case FN_PE: return ipcc_point_edge_distance(x0, x1, x2, (ipcc_point_edge_distance_type)c->type);
    case FN_PT:
        return ipcc_point_triangle_distance(x0, x1, x2, x3, (ipcc_point_triangle_distance_type)c->type);
    case FN_EE: return ipcc_edge_edge_distance(x0, x1, x2, x3, (ipcc_edge_edge_distance_type)c->type);
    }
    return NAN;
}

static void fn_gradient(const double *x, void *vctx, double *g) {
    const fn_ctx *c = vctx;
    const double *x0 = x, *x1 = x + 3, *x2 = x + 6, *x3 = x + 9;
    switch (c->kind) {
    case FN_PP: ipcc_point_point_distance_gradient(x0, x1, g); break;
    case FN_PL: ipcc_point_line_distance_gradient(x0, x1, x2, g); break;
    case FN_PLANE: ipcc_point_plane_distance_gradient(x0, x1, x2, x3, g); break;
    case FN_LL: ipcc_line_line_distance_gradient(x0, x1, x2, x3, g); break;
    case FN_PE:
        ipcc_point_edge_distance_gradient(x0, x1, x2, (ipcc_point_edge_distance_type)c->type, g);
        break;
    case FN_PT:
        ipcc_point_triangle_distance_gradient(x0, x1, x2, x3, (ipcc_point_triangle_distance_type)c->type, g);
        break;
    case FN_EE:
        ipcc_edge_edge_distance_gradient(x0, x1, x2, x3, (ipcc_edge_edge_distance_type)c->type, g);
        break;
    }
}

static void fn_hessian(const double *x, void *vctx, double *H) {
    const fn_ctx *c = vctx;
    const double *x0 = x, *x1 = x + 3, *x2 = x + 6, *x3 = x + 9;
    switch (c->kind) {
    case FN_PP: ipcc_point_point_distance_hessian(x0, x1, H); break;
    case FN_PL: ipcc_point_line_distance_hessian(x0, x1, x2, H); break;
    case FN_PLANE: ipcc_point_plane_distance_hessian(x0, x1, x2, x3, H); break;
    case FN_LL: ipcc_line_line_distance_hessian(x0, x1, x2, x3, H); break;
    case FN_PE:
        ipcc_point_edge_distance_hessian(x0, x1, x2, (ipcc_point_edge_distance_type)c->type, H);
        break;
    case FN_PT:
        ipcc_point_triangle_distance_hessian(x0, x1, x2, x3, (ipcc_point_triangle_distance_type)c->type, H);
        break;
    case FN_EE:
        ipcc_edge_edge_distance_hessian(x0, x1, x2, x3, (ipcc_edge_edge_distance_type)c->type, H);
        break;
    }
}

static void print_x(int n, const double *x) {
    for (int i = 0; i < n; ++i)
        print_error("%s%.17g", i ? " " : "  x = ", x[i]);
    print_error("\n");
}

// Worst relative errors seen by check_fd (reported by the tests).
static double worst_g, worst_h;
static int fd_checks;

// Gradient vs central differences of the value, Hessian vs central
// differences of the gradient (step h), both as |err|_inf / max(|ref|_inf,
// floor) <= tol. Also: finite outputs, an exactly symmetric Hessian, and the
// value finite.
static void check_fd_floor(const char *label, fn_ctx ctx, const double *x, double h, double tol,
                           double floor) {
    int n = fn_dim(ctx.kind);
    double g[12], gfd[12], H[144], Hfd[144];
    double f = fn_value(x, &ctx);
    fn_gradient(x, &ctx, g);
    fn_hessian(x, &ctx, H);
    ipcc_test_fd_gradient(n, x, fn_value, &ctx, h, gfd);
    ipcc_test_fd_hessian(n, x, fn_gradient, &ctx, h, Hfd);
    int finite = isfinite(f);
    double asym = 0, hmax = 0;
    for (int i = 0; i < n; ++i) {
        finite &= isfinite(g[i]);
        for (int j = 0; j < n; ++j) {
            finite &= isfinite(H[i * n + j]);
            asym = fmax(asym, fabs(H[i * n + j] - H[j * n + i]));
            hmax = fmax(hmax, fabs(H[i * n + j]));
        }
    }
    double eg = ipcc_test_rel_error(n, g, gfd, floor), eh = ipcc_test_rel_error(n * n, H, Hfd, floor);
    fd_checks++;
    worst_g = fmax(worst_g, eg);
    worst_h = fmax(worst_h, eh);
    if (!finite || asym > 1e-13 * hmax || !(eg <= tol) || !(eh <= tol)) {
        print_error("%s: %s type %d: gradient error %.3g, Hessian error %.3g (tol %.3g), asymmetry %.3g, "
                    "finite %d\n",
                    label, FN_NAMES[ctx.kind], ctx.type, eg, eh, tol, asym, finite);
        print_x(n, x);
        fail();
    }
}

static void check_fd(const char *label, fn_ctx ctx, const double *x, double h, double tol) {
    check_fd_floor(label, ctx, x, h, tol, 1e-3);
}

// Every output finite (for forced types on degenerate input).
static void check_finite(const char *label, fn_ctx ctx, const double *x) {
    int n = fn_dim(ctx.kind);
    double g[12], H[144];
    int ok = isfinite(fn_value(x, &ctx));
    fn_gradient(x, &ctx, g);
    fn_hessian(x, &ctx, H);
    for (int i = 0; i < n; ++i)
        ok &= isfinite(g[i]);
    for (int i = 0; i < n * n; ++i)
        ok &= isfinite(H[i]);
    if (!ok) {
        print_error("%s: %s type %d: non-finite output\n", label, FN_NAMES[ctx.kind], ctx.type);
        print_x(n, x);
        fail();
    }
}

// ---------------------------------------------------------------------------
// Geometry helpers

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static double dist2(const double a[3], const double b[3]) {
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return dot3(d, d);
}

// sin^2 of the angle between u and v (1 if either is zero: not parallel).
static double sin2(const double u[3], const double v[3]) {
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double uu = dot3(u, u), vv = dot3(v, v);
    return uu > 0 && vv > 0 ? dot3(c, c) / (uu * vv) : 0.0;
}

static void diff3(const double *a, const double *b, double *c) {
    for (int i = 0; i < 3; ++i)
        c[i] = a[i] - b[i];
}

// x -> s Q x + t for k points (a random similarity, to break axis alignment).
static void random_similarity(int k, double *x) {
    double Q[9], t[3], s = ipcc_test_random(0.5, 2.0);
    ipcc_test_random_rotation(Q);
    for (int i = 0; i < 3; ++i)
        t[i] = ipcc_test_random(-1, 1);
    for (int p = 0; p < k; ++p) {
        double y[3];
        for (int i = 0; i < 3; ++i)
            y[i] =
                s * (Q[3 * i] * x[3 * p] + Q[3 * i + 1] * x[3 * p + 1] + Q[3 * i + 2] * x[3 * p + 2]) + t[i];
        memcpy(x + 3 * p, y, sizeof y);
    }
}

// ---------------------------------------------------------------------------
// Brute force: the closest pair minimizes a convex function; minimizing over
// one coordinate exactly (clamped projection onto a segment) leaves a convex
// function of the other, sampled densely and refined by golden section.

static double bf_segment(const double p[3], const double u[3], const double v[3], double *t_out) {
    double e[3], r[3], w, t, c[3];
    diff3(v, u, e);
    diff3(p, u, r);
    w = dot3(e, e);
    t = w > 0 ? dot3(r, e) / w : 0.0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    for (int i = 0; i < 3; ++i)
        c[i] = u[i] + t * e[i];
    *t_out = t;
    return dist2(p, c);
}

typedef double bf_fn(double s, const double *x, double *aux);

// Slice of the triangle x[3..11] at alpha (segment t0 + alpha (t1-t0) .. t0 + alpha (t2-t0)).
static double bf_pt_slice(double alpha, const double *x, double *beta) {
    double u[3], v[3];
    for (int i = 0; i < 3; ++i) {
        u[i] = x[3 + i] + alpha * (x[6 + i] - x[3 + i]);
        v[i] = x[3 + i] + alpha * (x[9 + i] - x[3 + i]);
    }
    return bf_segment(x, u, v, beta);
}

// Point ea0 + s (ea1 - ea0) against segment b.
static double bf_ee_slice(double s, const double *x, double *t) {
    double p[3];
    for (int i = 0; i < 3; ++i)
        p[i] = x[i] + s * (x[3 + i] - x[i]);
    return bf_segment(p, x + 6, x + 9, t);
}

static double bf_pe_slice(double s, const double *x, double *t) {
    double p[3];
    for (int i = 0; i < 3; ++i)
        p[i] = x[3 + i] + s * (x[6 + i] - x[3 + i]);
    *t = s;
    return dist2(x, p);
}

static double bf_minimize(bf_fn *f, const double *x, double *s_out, double *aux_out) {
    enum { N = 256 };
    double aux, fb = INFINITY;
    int best = 0;
    for (int i = 0; i <= N; ++i) {
        double v = f((double)i / N, x, &aux);
        if (v < fb) {
            fb = v;
            best = i;
        }
    }
    double lo = fmax(0.0, (best - 1.0) / N), hi = fmin(1.0, (best + 1.0) / N);
    const double r = 0.5 * (sqrt(5.0) - 1.0);
    double x1 = hi - r * (hi - lo), x2 = lo + r * (hi - lo);
    double f1 = f(x1, x, &aux), f2 = f(x2, x, &aux);
    for (int k = 0; k < 140; ++k) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - r * (hi - lo);
            f1 = f(x1, x, &aux);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + r * (hi - lo);
            f2 = f(x2, x, &aux);
        }
    }
    double cand[5] = {lo, hi, x1, x2, (double)best / N}, bs = lo, bv = INFINITY;
    for (int k = 0; k < 5; ++k) {
        double v = f(cand[k], x, &aux);
        if (v < bv) {
            bv = v;
            bs = cand[k];
        }
    }
    *s_out = bs;
    f(bs, x, aux_out);
    return bv;
}

// Closest features as support masks: the vertices with nonzero weight in
// the closest point (point-triangle: bits t0 t1 t2; edge-edge: ea0 ea1 eb0
// eb1; point-edge: e0 e1), indexed by type.
static const int PT_SUPPORT[7] = {1, 2, 4, 3, 6, 5, 7};
static const int EE_SUPPORT[9] = {5, 9, 6, 10, 7, 11, 13, 14, 15};
static const int PE_SUPPORT[3] = {1, 2, 3};

// Brute-force weights of the closest point, each scaled to the distance it
// puts the point from the opposite feature, over the longest edge L: bit i
// is "maybe positive" (> 1e-12, into *maybe) and "clearly positive"
// (>= 1e-6, into *clear). Golden section locates an interior minimizer only
// to ~sqrt(u) L, and rounding puts points placed on a feature boundary within
// ~1e-16 L of it on either side, so only the clear bits are binding.
static void bf_masks(int n, const double *w, int *maybe, int *clear) {
    *maybe = *clear = 0;
    for (int i = 0; i < n; ++i) {
        if (w[i] > 1e-12) *maybe |= 1 << i;
        if (w[i] >= 1e-6) *clear |= 1 << i;
    }
}

static double bf_point_triangle(const double *x, int *maybe, int *clear) {
    double alpha, beta;
    double d = bf_minimize(bf_pt_slice, x, &alpha, &beta);
    double w[3] = {1 - alpha, alpha * (1 - beta), alpha * beta};
    // Height of vertex i over the opposite edge: |n| / |opposite edge|.
    double a[3], b[3], e[3][3], L = 0;
    diff3(x + 6, x + 3, a);
    diff3(x + 9, x + 3, b);
    double n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    for (int i = 0; i < 3; ++i) {
        diff3(x + 3 + 3 * ((i + 2) % 3), x + 3 + 3 * ((i + 1) % 3), e[i]);
        L = fmax(L, sqrt(dot3(e[i], e[i])));
    }
    for (int i = 0; i < 3; ++i)
        w[i] *= L > 0 ? sqrt(dot3(n, n) / dot3(e[i], e[i])) / L : 0.0;
    bf_masks(3, w, maybe, clear);
    return d;
}

static double bf_edge_edge(const double *x, int *maybe, int *clear) {
    double s, t, a[3], b[3];
    double d = bf_minimize(bf_ee_slice, x, &s, &t);
    diff3(x + 3, x, a);
    diff3(x + 9, x + 6, b);
    double la = sqrt(dot3(a, a)), lb = sqrt(dot3(b, b)), L = fmax(fmax(la, lb), 1e-300);
    double w[4] = {(1 - s) * la / L, s * la / L, (1 - t) * lb / L, t * lb / L};
    bf_masks(4, w, maybe, clear);
    return d;
}

static double bf_point_edge(const double *x, int *maybe, int *clear) {
    double s, t;
    double d = bf_minimize(bf_pe_slice, x, &s, &t);
    double w[2] = {1 - s, s};
    bf_masks(2, w, maybe, clear);
    return d;
}

// Squared size of a configuration of k points (for absolute tolerances).
static double scale2(int k, const double *x) {
    double m = 0;
    for (int i = 0; i < 3 * k; ++i)
        m = fmax(m, fabs(x[i]));
    return fmax(m * m, 1e-300);
}

// Worst |d - d_bf| / scale^2 seen, and classification counts.
static double worst_dist;
static int types_exact, types_near, types_skipped;

// The dispatched distance for the classified type against brute force:
// |d - d_bf| <= 1e-14 scale^2 + extra (extra: the documented sliver /
// near-parallel bound). The classified feature must contain every vertex
// that clearly carries weight in the brute-force closest point (too small a
// feature); it is counted "exact" if it equals the brute-force feature and
// "near" otherwise. Too large a feature (e.g. P_T for a point outside the
// triangle) is caught by the distance, which is then below the true one by
// the squared distance of the closest point from the feature (so "near"
// means within ~1e-7 L of a feature boundary). With !check_type (degenerate
// input, the closest point need not be unique) only the distance is checked.
static void check_against_brute(const char *label, fn_kind kind, const double *x, double extra,
                                int check_type) {
    int n = fn_dim(kind) / 3, maybe, clear, type, support;
    double d, dbf;
    if (kind == FN_PT) {
        type = ipcc_point_triangle_distance_type_of(x, x + 3, x + 6, x + 9);
        d = ipcc_point_triangle_distance(x, x + 3, x + 6, x + 9, (ipcc_point_triangle_distance_type)type);
        dbf = bf_point_triangle(x, &maybe, &clear);
        support = PT_SUPPORT[type];
    } else if (kind == FN_EE) {
        type = ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9);
        d = ipcc_edge_edge_distance(x, x + 3, x + 6, x + 9, (ipcc_edge_edge_distance_type)type);
        dbf = bf_edge_edge(x, &maybe, &clear);
        support = EE_SUPPORT[type];
    } else {
        type = ipcc_point_edge_distance_type_of(x, x + 3, x + 6);
        d = ipcc_point_edge_distance(x, x + 3, x + 6, (ipcc_point_edge_distance_type)type);
        dbf = bf_point_edge(x, &maybe, &clear);
        support = PE_SUPPORT[type];
    }
    double s2 = scale2(n, x), err = fabs(d - dbf);
    worst_dist = fmax(worst_dist, err / s2);
    if (!(err <= 1e-14 * s2 + extra)) {
        print_error("%s: %s type %d: distance %.17g, brute force %.17g\n", label, FN_NAMES[kind], type, d,
                    dbf);
        print_x(3 * n, x);
        fail();
    }
    if (!check_type) {
        types_skipped++;
        return;
    }
    if ((clear & support) != clear) {
        print_error(
            "%s: %s: classified %d (support %#x), brute-force closest point has support %#x (d = %.17g, "
            "d_bf = %.17g)\n",
            label, FN_NAMES[kind], type, support, clear, d, dbf);
        print_x(3 * n, x);
        fail();
    }
    if (support == maybe)
        types_exact++;
    else
        types_near++;
}

// ---------------------------------------------------------------------------
// Primitive kernels: values, and derivatives on well-shaped and 1e-12 placements.

static void test_primitive_values(void **state) {
    (void)state;
    const double o[3] = {0, 0, 0}, ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, p[3] = {0.3, 2, -3};
    assert_near(ipcc_point_point_distance(o, p), 0.09 + 4 + 9, 0, 1e-15);
    assert_near(ipcc_point_line_distance(p, o, ex), 13, 0, 1e-15);
    assert_near(ipcc_point_plane_distance(p, o, ex, ey), 9, 0, 1e-15);
    // Lines x-axis and {(0.3, t, -3)}: 9 apart.
    const double q0[3] = {0.3, 5, -3}, q1[3] = {0.3, 7, -3};
    assert_near(ipcc_line_line_distance(o, ex, q0, q1), 9, 0, 1e-15);
    // Scale and translation: d scales with s^2.
    const double s = 1e3, t[3] = {-7, 11, 2};
    double P[3], A[3], B[3], C[3];
    for (int i = 0; i < 3; ++i) {
        P[i] = s * p[i] + t[i];
        A[i] = s * o[i] + t[i];
        B[i] = s * ex[i] + t[i];
        C[i] = s * ey[i] + t[i];
    }
    assert_near(ipcc_point_plane_distance(P, A, B, C), 9 * s * s, 0, 1e-12);
    assert_near(ipcc_point_line_distance(P, A, B), 13 * s * s, 0, 1e-12);
}

static void test_primitive_derivatives(void **state) {
    (void)state;
    ipcc_test_seed(11);
    fd_checks = 0;
    worst_g = worst_h = 0;
    // Point offsets from the plane z = 0 / the line y = z = 0 / the x-axis foot.
    const double offsets[] = {0.7, -0.4, 1e-6, 1e-12, -1e-12, 0.0};
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; ++i)
        for (int rot = 0; rot < 4; ++rot) {
            double h = offsets[i];
            double pp[6] = {0.2, h, -0.1, 0.2, 0, -0.1};
            double pl[9] = {0.3, h, 0.5 * h, -0.4, 0, 0, 0.9, 0, 0};
            double pn[12] = {0.25, 0.3, h, 0, 0, 0, 1, 0, 0, 0.2, 1, 0};
            double ll[12] = {-1, 0, 0, 1, 0, 0, 0.1, -1, h, -0.2, 1, h};
            if (rot) {
                random_similarity(2, pp);
                random_similarity(3, pl);
                random_similarity(4, pn);
                random_similarity(4, ll);
            }
            check_fd("primitive", (fn_ctx){FN_PP, 0}, pp, 1e-6, 1e-7);
            check_fd("primitive", (fn_ctx){FN_PL, 0}, pl, 1e-6, 1e-6);
            check_fd("primitive", (fn_ctx){FN_PLANE, 0}, pn, 1e-6, 1e-6);
            check_fd("primitive", (fn_ctx){FN_LL, 0}, ll, 1e-6, 1e-6);
        }
    // Random well-spread configurations.
    for (int trial = 0; trial < 500; ++trial) {
        double x[12];
        for (int i = 0; i < 12; ++i)
            x[i] = ipcc_test_random(-1, 1);
        double a[3], b[3];
        diff3(x + 6, x + 3, a);
        diff3(x + 9, x + 3, b);
        check_fd("random primitive", (fn_ctx){FN_PP, 0}, x, 1e-6, 1e-7);
        if (dot3(a, a) > 1e-2) check_fd("random primitive", (fn_ctx){FN_PL, 0}, x, 1e-6, 1e-5);
        if (sin2(a, b) > 1e-2) check_fd("random primitive", (fn_ctx){FN_PLANE, 0}, x, 1e-6, 1e-5);
        double ea[3], eb[3];
        diff3(x + 3, x, ea);
        diff3(x + 9, x + 6, eb);
        if (sin2(ea, eb) > 1e-2) check_fd("random primitive", (fn_ctx){FN_LL, 0}, x, 1e-6, 1e-5);
    }
    print_message("primitive kernels: %d derivative checks, worst gradient error %.2g, Hessian error %.2g\n",
                  fd_checks, worst_g, worst_h);
}

// Exactly degenerate input to the primitives: the affine-hull fallbacks.
static void test_primitive_degenerate(void **state) {
    (void)state;
    const double p[3] = {0.3, 2, -3}, e[3] = {1, 1, 1}, e2[3] = {3, 3, 3}, o[3] = {0, 0, 0};
    // Zero-length edge: |p - e0|^2.
    assert_near(ipcc_point_line_distance(p, e, e), dist2(p, e), 0, 1e-15);
    double x9[9];
    memcpy(x9, p, sizeof p);
    memcpy(x9 + 3, e, sizeof e);
    memcpy(x9 + 6, e, sizeof e);
    check_finite("zero-length line", (fn_ctx){FN_PL, 0}, x9);
    // Collinear triangle: distance to its line; all coincident: to the point.
    assert_near(ipcc_point_plane_distance(p, o, e, e2), ipcc_point_line_distance(p, o, e2), 0, 1e-15);
    assert_near(ipcc_point_plane_distance(p, e2, o, e), ipcc_point_line_distance(p, o, e2), 0, 1e-15);
    assert_near(ipcc_point_plane_distance(p, e, e, e), dist2(p, e), 0, 1e-15);
    double x12[12];
    memcpy(x12, p, sizeof p);
    memcpy(x12 + 3, o, sizeof o);
    memcpy(x12 + 6, e, sizeof e);
    memcpy(x12 + 9, e2, sizeof e2);
    check_finite("collinear plane", (fn_ctx){FN_PLANE, 0}, x12);
    // Parallel lines: distance between them; parallel to a zero-length edge.
    const double a0[3] = {0, 0, 0}, a1[3] = {2, 0, 0}, b0[3] = {5, 1, 1}, b1[3] = {4, 1, 1};
    assert_near(ipcc_line_line_distance(a0, a1, b0, b1), 2, 0, 1e-15);
    assert_near(ipcc_line_line_distance(a0, a0, b0, b1), 2, 0, 1e-15);
    assert_near(ipcc_line_line_distance(a0, a1, b0, b0), 2, 0, 1e-15);
    assert_near(ipcc_line_line_distance(a0, a0, b0, b0), 27, 0, 1e-15);
    memcpy(x12, a0, sizeof a0);
    memcpy(x12 + 3, a1, sizeof a1);
    memcpy(x12 + 6, b0, sizeof b0);
    memcpy(x12 + 9, b1, sizeof b1);
    check_finite("parallel lines", (fn_ctx){FN_LL, 0}, x12);
    // Every forced dispatch type on fully degenerate input stays finite.
    double z[12] = {0};
    for (int t = 0; t <= IPCC_PT_P_T; ++t)
        check_finite("all coincident", (fn_ctx){FN_PT, t}, z);
    for (int t = 0; t <= IPCC_EE_EA_EB; ++t)
        check_finite("all coincident", (fn_ctx){FN_EE, t}, z);
    for (int t = 0; t <= IPCC_PE_P_E; ++t)
        check_finite("all coincident", (fn_ctx){FN_PE, t}, z);
    assert_int_equal(ipcc_point_triangle_distance_type_of(z, z + 3, z + 6, z + 9), IPCC_PT_P_T0);
    assert_int_equal(ipcc_edge_edge_distance_type_of(z, z + 3, z + 6, z + 9), IPCC_EE_EA0_EB0);
    assert_int_equal(ipcc_point_edge_distance_type_of(z, z + 3, z + 6), IPCC_PE_P_E0);
}

// ---------------------------------------------------------------------------
// Point-triangle table

// Is the sub-kernel of `type` smooth (denominator bounded away from 0)?
static int pt_type_smooth(const double *x, int type) {
    double a[3], b[3];
    switch (type) {
    case IPCC_PT_P_E0: diff3(x + 6, x + 3, a); return dot3(a, a) > 1e-6;
    case IPCC_PT_P_E1: diff3(x + 9, x + 6, a); return dot3(a, a) > 1e-6;
    case IPCC_PT_P_E2: diff3(x + 3, x + 9, a); return dot3(a, a) > 1e-6;
    case IPCC_PT_P_T:
        diff3(x + 6, x + 3, a);
        diff3(x + 9, x + 3, b);
        return sin2(a, b) > 1e-8;
    default: return 1;
    }
}

static void test_point_triangle_table(void **state) {
    (void)state;
    ipcc_test_seed(21);
    fd_checks = types_exact = types_near = types_skipped = 0;
    worst_g = worst_h = worst_dist = 0;
    const double tris[][9] = {
        {0, 0, 0, 1, 0, 0, 0, 1, 0},             // right
        {0, 0, 0, 1, 0, 0, 2, 0.3, 0},           // obtuse at t1
        {0, 0, 0, 1, 0, 0, 0.5, 1e-3, 0},        // thin (sin^2 ~ 4e-6)
        {0, 0, 0, 1, 0, 0, 0.5, 1e-7, 0},        // sliver below the threshold (sin^2 ~ 4e-14)
        {0, 0, 0, 1, 0, 0, 2, 0, 0},             // collinear
        {0, 0, 0, 1, 0, 0, -1, 0, 0},            // collinear, t0 inside
        {0, 0, 0, 0, 0, 0, 0, 1, 0},             // t0 == t1
        {0.5, 0.5, 0, 0.5, 0.5, 0, 0.5, 0.5, 0}, // all coincident
    };
    const double offsets[][3] = {
        {0, 0, 0},       {0, 0, 1e-12},     {0, 0, -1e-12},   {1e-12, 0, 0},
        {-1e-12, 0, 0},  {0, 1e-12, 0},     {0, -1e-12, 0},   {0, 0, 0.3},
        {0, 0, -0.3},    {0, 1e-12, 0.3},   {0, -1e-12, 0.3}, {1e-12, 1e-12, 1e-12},
        {0.5, 0.5, 0.2}, {-0.5, 0.1, -0.1}, {0.2, -0.5, 0.4}, {-0.6, -0.7, 0.0},
        {3, 4, 5},
    };
    const int ntri = sizeof tris / sizeof *tris, noff = sizeof offsets / sizeof *offsets;
    char label[96];
    for (int ti = 0; ti < ntri; ++ti)
        for (int f = 0; f < 7; ++f) // feature points: vertices, edge midpoints, centroid
            for (int oi = 0; oi < noff; ++oi)
                for (int rot = 0; rot < 2; ++rot) {
                    double x[12], base[3];
                    memcpy(x + 3, tris[ti], sizeof tris[ti]);
                    const double *t0 = tris[ti], *t1 = tris[ti] + 3, *t2 = tris[ti] + 6;
                    for (int i = 0; i < 3; ++i) {
                        const double *u = f < 3 ? tris[ti] + 3 * f : NULL;
                        base[i] = u        ? u[i]
                                  : f == 3 ? 0.5 * (t0[i] + t1[i])
                                  : f == 4 ? 0.5 * (t1[i] + t2[i])
                                  : f == 5 ? 0.5 * (t2[i] + t0[i])
                                           : (t0[i] + t1[i] + t2[i]) / 3;
                        x[i] = base[i] + offsets[oi][i];
                    }
                    if (rot) random_similarity(4, x);
                    snprintf(label, sizeof label, "triangle %d feature %d offset %d%s", ti, f, oi,
                             rot ? " (moved)" : "");
                    double a[3], b[3], L2 = 0;
                    diff3(x + 6, x + 3, a);
                    diff3(x + 9, x + 3, b);
                    for (int k = 0; k < 3; ++k) {
                        double e[3];
                        diff3(x + 3 + 3 * ((k + 1) % 3), x + 3 + 3 * k, e);
                        L2 = fmax(L2, dot3(e, e));
                    }
                    int type = ipcc_point_triangle_distance_type_of(x, x + 3, x + 6, x + 9);
                    double cr[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                    a[0] * b[1] - a[1] * b[0]};
                    int degenerate =
                        !(dot3(cr, cr) > IPCC_DISTANCE_DEGENERATE_SIN2 * dot3(a, a) * dot3(b, b));
                    if (degenerate) assert_int_not_equal(type, IPCC_PT_P_T);
                    // Slivers: the boundary distance may exceed the interior one by < width^2.
                    double extra = degenerate ? 0.25 * IPCC_DISTANCE_DEGENERATE_SIN2 * L2 * 4 : 0;
                    check_against_brute(label, FN_PT, x, extra, !degenerate);
                    // Thin triangles vary on a small length scale: smaller steps, and the
                    // truncation error (third derivatives ~ 1/sin^3) still grows.
                    double h_t = 1e-6 * fmin(1.0, 1e3 * sin2(a, b)),
                           tol_t = 2e-6 * fmax(1.0, 1e-4 / sin2(a, b));
                    for (int t = 0; t <= IPCC_PT_P_T; ++t) {
                        fn_ctx ctx = {FN_PT, t};
                        if (pt_type_smooth(x, t))
                            check_fd(label, ctx, x, t == IPCC_PT_P_T ? h_t : 1e-6,
                                     t == IPCC_PT_P_T ? tol_t : 2e-6);
                        else
                            check_finite(label, ctx, x);
                    }
                }
    print_message("point-triangle table: %d derivative checks (worst %.2g / %.2g), types %d exact, %d near a "
                  "feature boundary, %d unchecked (degenerate), worst |d - d_bf| / L^2 %.2g\n",
                  fd_checks, worst_g, worst_h, types_exact, types_near, types_skipped, worst_dist);
}

// ---------------------------------------------------------------------------
// Edge-edge table

static int ee_type_smooth(const double *x, int type) {
    double a[3], b[3];
    diff3(x + 3, x, a);
    diff3(x + 9, x + 6, b);
    if (type == IPCC_EE_EA_EB0 || type == IPCC_EE_EA_EB1) return dot3(a, a) > 1e-6;
    if (type == IPCC_EE_EA0_EB || type == IPCC_EE_EA1_EB) return dot3(b, b) > 1e-6;
    if (type == IPCC_EE_EA_EB) return sin2(a, b) > 1e-8;
    return 1;
}

static void check_ee_config(const char *label, const double *x) {
    double a[3], b[3], L2;
    diff3(x + 3, x, a);
    diff3(x + 9, x + 6, b);
    L2 = fmax(dot3(a, a), dot3(b, b));
    double s2 = sin2(a, b);
    int type = ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9);
    int parallel = !(s2 > IPCC_DISTANCE_DEGENERATE_SIN2);
    if (parallel) assert_int_not_equal(type, IPCC_EE_EA_EB);
    // Near-parallel fallback: over by at most (L sin / 2)^2.
    check_against_brute(label, FN_EE, x, parallel ? 0.25 * s2 * L2 : 0, !parallel);
    for (int t = 0; t <= IPCC_EE_EA_EB; ++t) {
        fn_ctx ctx = {FN_EE, t};
        if (ee_type_smooth(x, t))
            check_fd(label, ctx, x, 1e-6, 2e-6);
        else
            check_finite(label, ctx, x);
    }
}

static void test_edge_edge_table(void **state) {
    (void)state;
    ipcc_test_seed(31);
    fd_checks = types_exact = types_near = types_skipped = 0;
    worst_g = worst_h = worst_dist = 0;
    char label[128];
    const double ea[6] = {-1, 0, 0, 1, 0, 0};
    // Edge b crossing over edge a (along y) at x0, height z.
    const double x0s[] = {0, 0.3, 1, 1 + 1e-12, 1 - 1e-12, 1.5, -1 - 1e-12, -1};
    const double zs[] = {0.5, 1e-12, 0, -1e-12, -0.5};
    // b's extent in y: crossing, ending on a's line, ending 1e-12 short / past.
    const double ys[][2] = {{-1, 1}, {0, 1}, {1e-12, 1}, {-1e-12, 1}, {0.5, 2}};
    int nconf = 0;
    for (size_t i = 0; i < sizeof x0s / sizeof *x0s; ++i)
        for (size_t j = 0; j < sizeof zs / sizeof *zs; ++j)
            for (size_t k = 0; k < sizeof ys / sizeof *ys; ++k)
                for (int rot = 0; rot < 2; ++rot) {
                    double x[12] = {0};
                    memcpy(x, ea, sizeof ea);
                    double b[6] = {x0s[i], ys[k][0], zs[j], x0s[i], ys[k][1], zs[j]};
                    memcpy(x + 6, b, sizeof b);
                    if (rot) random_similarity(4, x);
                    snprintf(label, sizeof label, "crossing x0=%g z=%g y=%g..%g%s", x0s[i], zs[j], ys[k][0],
                             ys[k][1], rot ? " (moved)" : "");
                    check_ee_config(label, x);
                    nconf++;
                }
    // Parallel, antiparallel and collinear edges, overlapping or not; nearly
    // parallel (rotated by theta in the plane of the pair).
    const double dxs[] = {0, 0.5, 1.5, 2, 2 + 1e-12, 3, -3, -2};
    const double dys[] = {0.5, 1e-12, 0};
    const double thetas[] = {0, 1e-12, 1e-8, 1e-6, 1e-4};
    for (size_t i = 0; i < sizeof dxs / sizeof *dxs; ++i)
        for (size_t j = 0; j < sizeof dys / sizeof *dys; ++j)
            for (size_t k = 0; k < sizeof thetas / sizeof *thetas; ++k)
                for (int flip = 0; flip < 2; ++flip)
                    for (int rot = 0; rot < 2; ++rot) {
                        double x[12], c = cos(thetas[k]), s = sin(thetas[k]);
                        memcpy(x, ea, sizeof ea);
                        for (int e = 0; e < 2; ++e) {
                            double u = e ? 1 : -1, v = flip ? -u : u; // endpoint along the edge
                            x[6 + 3 * e] = v * c + dxs[i];
                            x[6 + 3 * e + 1] = v * s + dys[j];
                            x[6 + 3 * e + 2] = 0.1 * dys[j];
                        }
                        if (rot) random_similarity(4, x);
                        snprintf(label, sizeof label, "parallel dx=%g dy=%g theta=%g%s%s", dxs[i], dys[j],
                                 thetas[k], flip ? " flipped" : "", rot ? " (moved)" : "");
                        check_ee_config(label, x);
                        nconf++;
                    }
    // Zero-length edges and shared endpoints.
    const double special[][12] = {
        {-1, 0, 0, 1, 0, 0, 0.3, 0.5, 0.2, 0.3, 0.5, 0.2}, // b a point over a
        {-1, 0, 0, 1, 0, 0, 3, 0.5, 0.2, 3, 0.5, 0.2},     // b a point beyond ea1
        {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},              // both points
        {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},              // all coincident
        {-1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0},             // eb0 == ea1
        {-1, 0, 0, 1, 0, 0, 0.3, 0, 0, 0.3, 0, 1},         // T-junction: eb0 on a
        {-1, 0, 0, 1, 0, 0, 0.3, 0, 1e-12, 0.3, 0, 1},     // 1e-12 above a
        {-1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0},             // eb0 at a's midpoint
        {-1, 0, 0, 1, 0, 0, -1, 0, 0, 1, 0, 0},            // identical edges
        {-1, 0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0},            // identical, reversed
    };
    for (size_t i = 0; i < sizeof special / sizeof *special; ++i)
        for (int rot = 0; rot < 2; ++rot) {
            double x[12];
            memcpy(x, special[i], sizeof x);
            if (rot) random_similarity(4, x);
            snprintf(label, sizeof label, "special %zu%s", i, rot ? " (moved)" : "");
            check_ee_config(label, x);
            nconf++;
        }
    print_message(
        "edge-edge table: %d configurations, %d derivative checks (worst %.2g / %.2g), types %d exact, "
        "%d near a boundary, %d unchecked (parallel), worst |d - d_bf| / L^2 %.2g\n",
        nconf, fd_checks, worst_g, worst_h, types_exact, types_near, types_skipped, worst_dist);
}

// Line-line derivatives at small angles: smooth but on a length scale
// L sin(theta); steps below it, tolerance loosened by the 1/sin roundoff.
static void test_line_line_nearly_parallel(void **state) {
    (void)state;
    ipcc_test_seed(37);
    const double thetas[] = {1e-2, 1e-4, 1e-6, 1e-8};
    for (size_t k = 0; k < sizeof thetas / sizeof *thetas; ++k) {
        worst_g = worst_h = 0;
        for (int trial = 0; trial < 20; ++trial) {
            double th = thetas[k], x[12] = {-1, 0, 0, 1, 0, 0};
            double dy = ipcc_test_random(0.1, 1), dz = ipcc_test_random(-1, 1),
                   dx = ipcc_test_random(-0.5, 0.5);
            for (int e = 0; e < 2; ++e) {
                double u = e ? 1 : -1;
                x[6 + 3 * e] = u * cos(th) + dx;
                x[6 + 3 * e + 1] = u * sin(th) + dy;
                x[6 + 3 * e + 2] = dz;
            }
            random_similarity(4, x);
            double h = 1e-3 * th, tol = fmax(1e-5, 1e-12 / th);
            fn_ctx ctx = {FN_LL, 0};
            check_fd_floor("nearly parallel line-line", ctx, x, h, tol, 1e-3);
            // The value is the distance between the lines, dz^2 after the similarity's scale.
            double a[3];
            diff3(x + 3, x, a);
            double s2 = dot3(a, a) / 4; // scale^2 of the similarity
            double d = ipcc_line_line_distance(x, x + 3, x + 6, x + 9);
            assert_near(d, dz * dz * s2, 1e-15 / th * s2, 1e-9);
        }
        print_message("line-line at %g rad: worst gradient error %.2g, Hessian error %.2g\n", thetas[k],
                      worst_g, worst_h);
    }
}

// ---------------------------------------------------------------------------
// Point-edge table

static void test_point_edge_table(void **state) {
    (void)state;
    ipcc_test_seed(41);
    fd_checks = types_exact = types_near = types_skipped = 0;
    worst_g = worst_h = worst_dist = 0;
    char label[96];
    const double alphas[] = {-1, -1e-12, 0, 1e-12, 0.3, 1 - 1e-12, 1, 1 + 1e-12, 2};
    const double hs[] = {0.5, 1e-12, 0, -1e-12};
    for (size_t i = 0; i < sizeof alphas / sizeof *alphas; ++i)
        for (size_t j = 0; j < sizeof hs / sizeof *hs; ++j)
            for (int zero_len = 0; zero_len < 2; ++zero_len)
                for (int rot = 0; rot < 2; ++rot) {
                    double x[9] = {0, 0, 0, -1, 0, 0, zero_len ? -1 : 1, 0, 0};
                    x[0] = -1 + 2 * alphas[i];
                    x[1] = hs[j];
                    x[2] = 0.5 * hs[j];
                    if (rot) random_similarity(3, x);
                    snprintf(label, sizeof label, "point-edge alpha=%g h=%g%s%s", alphas[i], hs[j],
                             zero_len ? " zero-length" : "", rot ? " (moved)" : "");
                    check_against_brute(label, FN_PE, x, 0, !zero_len);
                    for (int t = 0; t <= IPCC_PE_P_E; ++t) {
                        fn_ctx ctx = {FN_PE, t};
                        if (t != IPCC_PE_P_E || !zero_len)
                            check_fd(label, ctx, x, 1e-6, 2e-6);
                        else
                            check_finite(label, ctx, x);
                    }
                }
    print_message("point-edge table: %d derivative checks (worst %.2g / %.2g), types %d exact, %d near a "
                  "boundary, %d unchecked (zero length)\n",
                  fd_checks, worst_g, worst_h, types_exact, types_near, types_skipped);
}

// ---------------------------------------------------------------------------
// Random configurations: classification and distance against brute force,
// derivatives of the classified type.

static void test_random(void **state) {
    (void)state;
    ipcc_test_seed(51);
    const fn_kind kinds[3] = {FN_PT, FN_EE, FN_PE};
    for (int kk = 0; kk < 3; ++kk) {
        fn_kind kind = kinds[kk];
        int n = fn_dim(kind), hist[9] = {0};
        fd_checks = types_exact = types_near = types_skipped = 0;
        worst_g = worst_h = worst_dist = 0;
        for (int trial = 0; trial < 3000; ++trial) {
            double x[12];
            for (int i = 0; i < n; ++i)
                x[i] = ipcc_test_random(-1, 1);
            // A third of the cases: p / edge b near the plane of / close to the other primitive.
            if (trial % 3 == 1)
                for (int i = 0; i < (kind == FN_EE ? 6 : 3); ++i)
                    x[i] *= 0.1;
            char label[96];
            snprintf(label, sizeof label, "random %d", trial);
            check_against_brute(label, kind, x, 0, 1);
            int type = kind == FN_PT   ? (int)ipcc_point_triangle_distance_type_of(x, x + 3, x + 6, x + 9)
                       : kind == FN_EE ? (int)ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9)
                                       : (int)ipcc_point_edge_distance_type_of(x, x + 3, x + 6);
            hist[type]++;
            // Smooth at this point with step 1e-7 unless a denominator is tiny.
            int smooth = kind == FN_PT   ? pt_type_smooth(x, type)
                         : kind == FN_EE ? ee_type_smooth(x, type)
                                         : 1;
            if (smooth) check_fd(label, (fn_ctx){kind, type}, x, 1e-7, 1e-5);
        }
        print_message("random %s: %d derivative checks (worst %.2g / %.2g), types %d exact, %d near a "
                      "boundary, worst |d - d_bf| / L^2 %.2g, types seen %d %d %d %d %d %d %d %d %d\n",
                      FN_NAMES[kind], fd_checks, worst_g, worst_h, types_exact, types_near, worst_dist,
                      hist[0], hist[1], hist[2], hist[3], hist[4], hist[5], hist[6], hist[7], hist[8]);
        assert_true(types_exact > 2950);
    }
}

// Nearly parallel random edge pairs (1e-8 rad and 1e-5 rad): never EA_EB
// below the threshold, distance within the documented bound of brute force.
static void test_nearly_parallel_random(void **state) {
    (void)state;
    ipcc_test_seed(61);
    types_exact = types_near = types_skipped = 0;
    worst_dist = 0;
    const double thetas[] = {0, 1e-8, 1e-5};
    for (size_t k = 0; k < sizeof thetas / sizeof *thetas; ++k)
        for (int trial = 0; trial < 300; ++trial) {
            double x[12], d[3], o[3], len_a = ipcc_test_random(0.2, 2), len_b = ipcc_test_random(0.2, 2);
            double c = cos(thetas[k]), s = sin(thetas[k]);
            for (int i = 0; i < 3; ++i)
                o[i] = ipcc_test_random(-0.5, 0.5);
            // a along x; b along (cos, sin, 0) offset by o.
            d[0] = c, d[1] = s, d[2] = 0;
            double ca = ipcc_test_random(-1, 1), cb = ipcc_test_random(-1, 1);
            for (int i = 0; i < 3; ++i) {
                double ex = i == 0 ? 1 : 0;
                x[i] = (ca - 0.5 * len_a) * ex;
                x[3 + i] = (ca + 0.5 * len_a) * ex;
                x[6 + i] = o[i] + (cb - 0.5 * len_b) * d[i];
                x[9 + i] = o[i] + (cb + 0.5 * len_b) * d[i];
            }
            random_similarity(4, x);
            double a[3], b[3];
            diff3(x + 3, x, a);
            diff3(x + 9, x + 6, b);
            double s2 = sin2(a, b), L2 = fmax(dot3(a, a), dot3(b, b));
            int parallel = !(s2 > IPCC_DISTANCE_DEGENERATE_SIN2);
            int type = ipcc_edge_edge_distance_type_of(x, x + 3, x + 6, x + 9);
            if (parallel) assert_int_not_equal(type, IPCC_EE_EA_EB);
            char label[96];
            snprintf(label, sizeof label, "nearly parallel theta=%g %d", thetas[k], trial);
            check_against_brute(label, FN_EE, x, parallel ? 0.25 * s2 * L2 : 1e-12 * L2, !parallel);
            if (type != IPCC_EE_EA_EB) check_fd(label, (fn_ctx){FN_EE, type}, x, 1e-6, 1e-5);
        }
    print_message("nearly parallel edge pairs: worst |d - d_bf| / L^2 %.2g\n", worst_dist);
}

// ---------------------------------------------------------------------------
// ipc-toolkit distance test cases (tests/data/ccd/ipctk_distance_cases.txt,
// format in /work/shared/data/ccd/README.md Sec. 8).

static int parse_type(const char *kind, const char *name) {
    static const char *const pt[] = {"P_T0", "P_T1", "P_T2", "P_E0", "P_E1", "P_E2", "P_T"};
    static const char *const ee[] = {"EA0_EB0", "EA0_EB1", "EA1_EB0", "EA1_EB1", "EA_EB0",
                                     "EA_EB1",  "EA0_EB",  "EA1_EB",  "EA_EB"};
    static const char *const pe[] = {"P_E0", "P_E1", "P_E"};
    const char *const *names = !strcmp(kind, "pt") ? pt : !strcmp(kind, "ee") ? ee : pe;
    int n = !strcmp(kind, "pt") ? 7 : !strcmp(kind, "ee") ? 9 : 3;
    for (int i = 0; i < n; ++i)
        if (!strcmp(names[i], name)) return i;
    return -1;
}

static void test_ipctk_cases(void **state) {
    (void)state;
    const char *path = ipcc_test_data_path("ccd/ipctk_distance_cases.txt");
    FILE *fp = fopen(path, "r");
    if (!fp) fail_msg("cannot open %s", path);
    char line[2048];
    int lines = 0, matched = 0, bad_value = 0, bad_exact = 0, bad_type = 0, typed = 0, valued = 0;
    int by_kind[4] = {0}, line_no = 0;
    double worst_exact = 0;
    while (fgets(line, sizeof line, fp)) {
        line_no++;
        if (line[0] == '#' || line[0] == '\n') continue;
        char kind[4], expected[40], margin[40], dtype[16];
        int used = 0;
        double exact, c[12] = {0};
        if (sscanf(line, "%3s %39s %39s %15s %lf%n", kind, expected, margin, dtype, &exact, &used) != 5)
            fail_msg("%s:%d: malformed line", path, line_no);
        int k = !strcmp(kind, "pt")   ? 0
                : !strcmp(kind, "ee") ? 1
                : !strcmp(kind, "pe") ? 2
                : !strcmp(kind, "pp") ? 3
                                      : -1;
        if (k < 0) fail_msg("%s:%d: unknown kind %s", path, line_no, kind);
        int ncoord = k < 2 ? 12 : k == 2 ? 9 : 6;
        char *s = line + used;
        for (int i = 0; i < ncoord; ++i) {
            char *end;
            c[i] = strtod(s, &end);
            if (end == s) fail_msg("%s:%d: missing coordinate %d", path, line_no, i);
            s = end;
        }
        lines++;
        by_kind[k]++;
        int type = 0;
        double d;
        if (k == 0) {
            type = ipcc_point_triangle_distance_type_of(c, c + 3, c + 6, c + 9);
            d = ipcc_point_triangle_distance(c, c + 3, c + 6, c + 9, (ipcc_point_triangle_distance_type)type);
        } else if (k == 1) {
            type = ipcc_edge_edge_distance_type_of(c, c + 3, c + 6, c + 9);
            d = ipcc_edge_edge_distance(c, c + 3, c + 6, c + 9, (ipcc_edge_edge_distance_type)type);
        } else if (k == 2) {
            type = ipcc_point_edge_distance_type_of(c, c + 3, c + 6);
            d = ipcc_point_edge_distance(c, c + 3, c + 6, (ipcc_point_edge_distance_type)type);
        } else {
            d = ipcc_point_point_distance(c, c + 3);
        }
        int ok = 1;
        // The source's own check: Catch::Approx(expected).margin(m), relative epsilon 100 FLT_EPSILON.
        if (strcmp(expected, "-")) {
            double e = strtod(expected, NULL), m = strcmp(margin, "-") ? strtod(margin, NULL) : 0;
            valued++;
            if (!(fabs(d - e) <= fmax(m, 100 * 1.1920928955078125e-07 * fabs(e)))) {
                bad_value++;
                ok = 0;
                print_error("%s:%d: %s distance %.17g, expected %.17g (margin %g)\n", path, line_no, kind, d,
                            e, m);
            }
        }
        // Ours, stricter: against the exact squared distance of the stored doubles.
        double s2 = scale2(ncoord / 3, c), err = fabs(d - exact) / fmax(s2, 1e-300);
        worst_exact = fmax(worst_exact, err);
        if (!(fabs(d - exact) <= 1e-14 * s2 + 1e-12 * fabs(exact))) {
            bad_exact++;
            ok = 0;
            print_error("%s:%d: %s distance %.17g, exact %.17g\n", path, line_no, kind, d, exact);
        }
        if (strcmp(dtype, "-")) {
            typed++;
            int good =
                dtype[0] == '!' ? type != parse_type(kind, dtype + 1) : type == parse_type(kind, dtype);
            if (!good) {
                bad_type++;
                ok = 0;
                print_error("%s:%d: %s type %d, expected %s\n", path, line_no, kind, type, dtype);
            }
        }
        matched += ok;
    }
    fclose(fp);
    print_message(
        "ipctk distance cases: %d lines (pt %d, ee %d, pe %d, pp %d), %d match; %d distance checks "
        "(%d off), %d type checks (%d off), %d off the exact value; worst |d - exact| / scale^2 %.2g\n",
        lines, by_kind[0], by_kind[1], by_kind[2], by_kind[3], matched, valued, bad_value, typed, bad_type,
        bad_exact, worst_exact);
    assert_int_equal(lines, 7020);
    assert_int_equal(matched, lines);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_primitive_values),       cmocka_unit_test(test_primitive_derivatives),
        cmocka_unit_test(test_primitive_degenerate),   cmocka_unit_test(test_point_triangle_table),
        cmocka_unit_test(test_edge_edge_table),        cmocka_unit_test(test_line_line_nearly_parallel),
        cmocka_unit_test(test_point_edge_table),       cmocka_unit_test(test_random),
        cmocka_unit_test(test_nearly_parallel_random), cmocka_unit_test(test_ipctk_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
