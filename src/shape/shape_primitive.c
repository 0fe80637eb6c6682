// Exact distance from a body edge or triangle to a curved analytic shape.
//
// A shape's signed distance phi (shape.c) is exact at points. A body
// triangle whose vertices all stay outside a curved shape can still dip
// into it between them, by up to the sagitta of the surface under it, so
// the barrier must see the primitive's own distance
//
//   d(P) = min over p in P of phi(p),        P a segment or a triangle,
//
// over barycentric coordinates w: p = sum_i w_i x_i.
//
// The minimizer. On a segment p(t) = a + t e, g(t) = phi(p(t)) has
// g' = e . n and g'' = e^T K e (n the outward normal, K the Hessian of
// phi: shape.h gives 2 (n n^T + phi K)). For a convex shape (cylinder,
// ellipsoid) phi is convex and C^1 outside, so the minimum is an end when
// g'(0) >= 0 or g'(1) <= 0, else the root of g' inside, found by Newton's
// method safeguarded by the bracket of g'-signs (it cannot leave a local
// minimum's basin and converges quadratically). A torus or a height field
// is not convex (ipcc_shape_convex): g
// is sampled at 8 sub-intervals, every sign change - to + of g' is refined
// the same way, and the least of the candidates and the ends is kept. The
// segment is processed in a fixed order of its ends (lexicographic), so
// an edge gets the same answer from both of its faces.
// On a triangle the three edges give the boundary's minimum. For a convex
// shape it is the triangle's too unless the gradient points into the
// triangle there (KKT: at a vertex minimum of both its edges every
// direction into the triangle ascends; at an edge's interior only the
// in-plane normal of the edge can descend); then Newton's method on the
// two barycentric coordinates (with backtracking, kept strictly inside)
// finds the interior minimum. A non-convex shape tries the interior from the
// centroid too. The closest FEATURE (a vertex, an edge's interior, the
// interior) is returned too, to key constraints as a point's closest
// feature keys point-triangle ones. Ties (a flat direction of the surface,
// a cylinder's axis, along which a primitive can touch on a segment) are
// broken by the order of the search: the feature then jumps between the
// segment's ends as the primitive tilts, and the squared distance has a
// kink there (issue 20's note).
//
// The derivatives. With f = phi^2 (the barrier's squared distance, shape.h:
// grad f = 2 phi n, A = H f = 2 (n n^T + phi K)) and the minimizer in the
// interior of its feature of k vertices, parametrized by u (k - 1 free
// barycentric coordinates, p = x_0 + sum_a u_a J_a, J_a = x_{a+1} - x_0),
// D(x) = min_u F(u, x), F = f(p(u, x)). The envelope theorem gives
//   grad_{x_i} D = w_i grad f(p*),
// and differentiating the optimality condition F_u = J^T grad f = 0 (the
// minimizer's derivative, du/dx = -F_uu^-1 F_ux) gives the Schur complement
//   H D = F_xx - F_ux^T F_uu^-1 F_ux,
//   F_xx = W^T A W (W = [w_0 I, ..., w_{k-1} I]),  F_uu = J^T A J,
//   F_ux = J^T A W + E,  E_a = d(J_a . grad f)/dx = grad f^T on x_{a+1}, -grad f^T on x_0
// (e.g. Fiacco, "Introduction to Sensitivity and Stability Analysis in
// Nonlinear Programming", 1983, Sec. 3.2). All of it is bounded: J is
// orthogonal to n at p*, so J^T A J = 2 phi J^T K J and E ~ phi. A
// direction along which the surface is flat (a cylinder's axis) makes
// F_uu singular: the minimizer is not unique there and D has a kink;
// eigenvalues of F_uu below 1e-12 of its scale are dropped (pseudo-inverse).
// A vertex feature (k = 1) is the point's: D = f(x_v), H D = A.
#include "shape/shape_primitive.h"

#include <math.h>
#include <string.h>

#include "base/vec3.h"

#define SEGMENT_SAMPLES_NONCONVEX 8

// phi at p, its unit normal n and, when K is given and phi > 0, the
// Hessian K of phi (from shape.h's Hessian of phi^2).
static double probe(const ipcc_shape *s, const double p[3], double n[3], double K[9]) {
    double phi = ipcc_shape_distance(s, p, NULL, n);
    if (K && phi > 0) {
        double H[9];
        ipcc_shape_distance2_hessian(s, p, H);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                K[3 * i + j] = (0.5 * H[3 * i + j] - n[i] * n[j]) / phi;
    }
    return phi;
}

static double quad3(const double K[9], const double a[3], const double b[3]) {
    double s = 0;
    for (int i = 0; i < 3; ++i)
        s += a[i] * (K[3 * i] * b[0] + K[3 * i + 1] * b[1] + K[3 * i + 2] * b[2]);
    return s;
}

// The segment a + t e.
typedef struct segment {
    const ipcc_shape *s;
    const double *a;
    double e[3];
} segment;

static void segment_point(const segment *g, double t, double p[3]) {
    for (int k = 0; k < 3; ++k)
        p[k] = g->a[k] + t * g->e[k];
}

// The local minimum of phi on (lo, hi), given g'(lo) < 0 < g'(hi): Newton
// safeguarded by the bracket. Its phi into *phi (stops early at phi <= 0).
static double segment_refine(const segment *g, double lo, double hi, double *phi) {
    double t = 0.5 * (lo + hi);
    *phi = INFINITY;
    for (int it = 0; it < 100; ++it) {
        double p[3], n[3], K[9];
        segment_point(g, t, p);
        *phi = probe(g->s, p, n, K);
        if (!(*phi > 0)) break;
        double d1 = dot3(g->e, n), d2 = quad3(K, g->e, g->e);
        if (d1 < 0)
            lo = t;
        else if (d1 > 0)
            hi = t;
        else
            break;
        double tn = d2 > 0 ? t - d1 / d2 : NAN;
        if (!(tn > lo && tn < hi)) tn = 0.5 * (lo + hi);
        if (fabs(tn - t) <= 1e-14) break;
        t = tn;
    }
    return t;
}

// a before b in lexicographic order of their coordinates.
static bool lex_less(const double *a, const double *b) {
    for (int k = 0; k < 3; ++k)
        if (a[k] != b[k]) return a[k] < b[k];
    return false;
}

ipcc_point_edge_distance_type ipcc_shape_edge_closest(const ipcc_shape *s, const double *x0, const double *x1,
                                                      double *t, double *phi) {
    bool swap = lex_less(x1, x0);
    const double *a = swap ? x1 : x0, *b = swap ? x0 : x1;
    segment g = {.s = s, .a = a, .e = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}};
    int N = ipcc_shape_convex(s->kind) ? 1 : SEGMENT_SAMPLES_NONCONVEX;
    double n[3], tp = 0, phip = probe(s, a, n, NULL), d1p = dot3(g.e, n);
    double best_t = 0, best = phip;
    ipcc_point_edge_distance_type type = IPCC_PE_P_E0;
    for (int k = 1; k <= N && best > 0; ++k) {
        double tk = (double)k / N, p[3];
        if (k == N)
            memcpy(p, b, sizeof p);
        else
            segment_point(&g, tk, p);
        double phik = probe(s, p, n, NULL), d1k = dot3(g.e, n);
        if (d1p < 0 && d1k > 0) {
            double ph, tr = segment_refine(&g, tp, tk, &ph);
            if (ph < best) best = ph, best_t = tr, type = IPCC_PE_P_E;
        }
        if (!(phik > 0) && phik < best) best = phik, best_t = tk, type = k == N ? IPCC_PE_P_E1 : IPCC_PE_P_E;
        if (k == N && phik < best) best = phik, best_t = 1, type = IPCC_PE_P_E1;
        tp = tk, phip = phik, d1p = d1k;
    }
    *phi = best;
    *t = swap ? 1 - best_t : best_t;
    if (swap && type != IPCC_PE_P_E) type = type == IPCC_PE_P_E0 ? IPCC_PE_P_E1 : IPCC_PE_P_E0;
    return type;
}

// The in-plane gradient (g0, g1) = J^T n vanishes to rounding (|J| = scale).
// 1e-8: phi's rounding limits it to about 1e-12 near a surface; the
// envelope gradient's error is 2 phi times this, far below the barrier's.
static bool stationary(double g0, double g1, double scale) { return fabs(g0) + fabs(g1) <= 1e-8 * scale; }

// Newton's method for the interior minimum of phi over the triangle x, from
// the barycentric start u (coordinates of x1 and x2), kept strictly inside.
// Returns phi at the final u; false if it ended on the boundary.
static bool triangle_interior(const ipcc_shape *s, const double *const x[3], double u[2], double *phi) {
    double J0[3], J1[3];
    sub3(x[1], x[0], J0);
    sub3(x[2], x[0], J1);
    double scale = sqrt(dot3(J0, J0) + dot3(J1, J1)), p[3], n[3], K[9];
    int polished = 0;
    for (int it = 0; it < 100; ++it) {
        for (int k = 0; k < 3; ++k)
            p[k] = x[0][k] + u[0] * J0[k] + u[1] * J1[k];
        *phi = probe(s, p, n, K);
        if (!(*phi > 0)) return true;
        double g0 = dot3(J0, n), g1 = dot3(J1, n);
        double h00 = quad3(K, J0, J0), h01 = quad3(K, J0, J1), h11 = quad3(K, J1, J1);
        // Per eigendirection e of the 2x2 Hessian: Newton's step where it
        // curves up (above 1e-9 of the largest eigenvalue), else a unit
        // step downhill (flat or concave: phi decreases to the boundary).
        double mean = 0.5 * (h00 + h11), r = hypot(0.5 * (h00 - h11), h01), lam[2] = {mean + r, mean - r};
        double e0[2] = {h01, lam[0] - h00};
        if (!(hypot(e0[0], e0[1]) > 0)) e0[0] = h00 >= h11, e0[1] = h00 < h11;
        double len = hypot(e0[0], e0[1]), E[2][2] = {{e0[0] / len, e0[1] / len}, {-e0[1] / len, e0[0] / len}};
        double d0 = 0, d1 = 0;
        bool newton = true;
        for (int k = 0; k < 2; ++k) {
            double ge = E[k][0] * g0 + E[k][1] * g1, c;
            if (lam[k] > 1e-9 * fabs(lam[0]) && lam[k] > 0) {
                c = -ge / lam[k];
            } else {
                newton = false;
                c = fabs(ge) > 1e-13 * scale ? -copysign(1.0, ge) : 0;
            }
            d0 += c * E[k][0];
            d1 += c * E[k][1];
        }
        // The largest step keeping u inside (u0, u1 >= 0, u0 + u1 <= 1), then 0.99 of it.
        double amax = 1;
        if (d0 < 0) amax = fmin(amax, -u[0] / d0);
        if (d1 < 0) amax = fmin(amax, -u[1] / d1);
        if (d0 + d1 > 0) amax = fmin(amax, (1 - u[0] - u[1]) / (d0 + d1));
        bool clipped = amax < 1;
        double alpha = clipped ? 0.99 * amax : 1, slope = g0 * d0 + g1 * d1;
        if (fabs(g0) + fabs(g1) <= 1e-13 * scale) return true;
        if (!(slope < 0)) break; // no descent direction left
        // Below phi's rounding a decrease cannot be seen: polish with full
        // Newton steps (quadratic convergence), a few at most.
        if (newton && -slope <= 1e-13 * *phi) {
            if (clipped || ++polished > 3) break;
            u[0] += d0;
            u[1] += d1;
            continue;
        }
        double un[2], phin = INFINITY;
        for (int ls = 0; ls < 40; ++ls, alpha *= 0.5) {
            un[0] = u[0] + alpha * d0;
            un[1] = u[1] + alpha * d1;
            for (int k = 0; k < 3; ++k)
                p[k] = x[0][k] + un[0] * J0[k] + un[1] * J1[k];
            phin = ipcc_shape_distance(s, p, NULL, NULL);
            if (phin <= *phi + 1e-4 * alpha * slope) break;
        }
        if (!(phin < *phi)) break; // no decrease left
        double step = fabs(un[0] - u[0]) + fabs(un[1] - u[1]);
        u[0] = un[0];
        u[1] = un[1];
        *phi = phin;
        if (!(*phi > 0)) return true;
        if (clipped && amax < 1e-12) return false; // pinned at the boundary
        if (step <= 1e-14) break;
    }
    // Accept only a stationary point (the envelope gradient needs one).
    for (int k = 0; k < 3; ++k)
        p[k] = x[0][k] + u[0] * J0[k] + u[1] * J1[k];
    *phi = probe(s, p, n, NULL);
    return !(*phi > 0) || stationary(dot3(J0, n), dot3(J1, n), scale);
}

ipcc_point_triangle_distance_type ipcc_shape_triangle_closest(const ipcc_shape *s, const double *x0,
                                                              const double *x1, const double *x2, double w[3],
                                                              double *phi) {
    const double *const x[3] = {x0, x1, x2};
    double best = INFINITY;
    ipcc_point_triangle_distance_type type = IPCC_PT_P_T0;
    w[0] = 1, w[1] = w[2] = 0;
    for (int j = 0; j < 3 && best > 0; ++j) {
        int j1 = (j + 1) % 3;
        double t, ph;
        ipcc_point_edge_distance_type et = ipcc_shape_edge_closest(s, x[j], x[j1], &t, &ph);
        if (!(ph < best)) continue;
        best = ph;
        w[0] = w[1] = w[2] = 0;
        if (et == IPCC_PE_P_E0) {
            type = (ipcc_point_triangle_distance_type)(IPCC_PT_P_T0 + j), w[j] = 1;
        } else if (et == IPCC_PE_P_E1) {
            type = (ipcc_point_triangle_distance_type)(IPCC_PT_P_T0 + j1), w[j1] = 1;
        } else {
            type = (ipcc_point_triangle_distance_type)(IPCC_PT_P_E0 + j);
            w[j] = 1 - t, w[j1] = t;
        }
    }
    *phi = best;
    if (!(best > 0)) return type;
    // Is there an interior minimum? (preamble)
    bool convex = ipcc_shape_convex(s->kind), inward = false;
    if (type >= IPCC_PT_P_E0 && type <= IPCC_PT_P_E2) {
        int j = type - IPCC_PT_P_E0, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        double p[3], n[3], e[3], m[3];
        for (int k = 0; k < 3; ++k)
            p[k] = w[j] * x[j][k] + w[j1] * x[j1][k];
        probe(s, p, n, NULL);
        sub3(x[j1], x[j], e);
        sub3(x[j2], x[j], m);
        double ee = dot3(e, e), me = dot3(m, e);
        for (int k = 0; k < 3 && ee > 0; ++k)
            m[k] -= me / ee * e[k]; // in-plane, perpendicular to the edge, towards the opposite vertex
        inward = dot3(n, m) < 0;
    }
    if (convex && !inward) return type;
    double u[2] = {w[1], w[2]}, ui[2], ph;
    if (inward) { // from the edge point, a little inside
        u[0] = 0.9 * u[0] + 0.1 / 3;
        u[1] = 0.9 * u[1] + 0.1 / 3;
        if (triangle_interior(s, x, u, &ph) && u[0] > 0 && u[1] > 0 && u[0] + u[1] < 1 && ph < best)
            best = ph, type = IPCC_PT_P_T, w[0] = 1 - u[0] - u[1], w[1] = u[0], w[2] = u[1];
    }
    if (!convex && best > 0) {
        ui[0] = ui[1] = 1.0 / 3;
        if (triangle_interior(s, x, ui, &ph) && ui[0] > 0 && ui[1] > 0 && ui[0] + ui[1] < 1 && ph < best)
            best = ph, type = IPCC_PT_P_T, w[0] = 1 - ui[0] - ui[1], w[1] = ui[0], w[2] = ui[1];
    }
    *phi = best;
    return type;
}

// The closest feature of the primitive as its vertices (f, k of them) and
// weights (w over all n vertices); returns phi.
static double closest_feature(const ipcc_shape *s, int n, const double *x, double w[3], int f[3], int *k) {
    double phi;
    w[0] = w[1] = w[2] = 0;
    if (n == 2) {
        double t;
        ipcc_point_edge_distance_type et = ipcc_shape_edge_closest(s, x, x + 3, &t, &phi);
        if (et == IPCC_PE_P_E) {
            w[0] = 1 - t, w[1] = t, f[0] = 0, f[1] = 1, *k = 2;
        } else {
            f[0] = et == IPCC_PE_P_E0 ? 0 : 1, w[f[0]] = 1, *k = 1;
        }
        return phi;
    }
    ipcc_point_triangle_distance_type tt = ipcc_shape_triangle_closest(s, x, x + 3, x + 6, w, &phi);
    if (tt <= IPCC_PT_P_T2) {
        f[0] = tt - IPCC_PT_P_T0, *k = 1;
    } else if (tt <= IPCC_PT_P_E2) {
        f[0] = tt - IPCC_PT_P_E0, f[1] = (f[0] + 1) % 3, *k = 2;
    } else {
        f[0] = 0, f[1] = 1, f[2] = 2, *k = 3;
    }
    return phi;
}

// Pseudo-inverse of the symmetric m x m (m = 1, 2) matrix S into P:
// eigenvalues below 1e-12 scale are dropped (scale: 2 sum |J_a|^2, what
// S = J^T A J would be were the surface curved like a unit sphere at
// unit distance; see the preamble).
static void pseudo_inverse(int m, const double *S, double scale, double *P) {
    double tiny = 1e-12 * scale;
    if (m == 1) {
        P[0] = S[0] > tiny ? 1 / S[0] : 0;
        return;
    }
    double a = S[0], b = S[1], d = S[3], mean = 0.5 * (a + d), r = hypot(0.5 * (a - d), b);
    double l0 = mean + r, l1 = mean - r; // l0 >= l1
    // Unit eigenvector of l0.
    double v0, v1;
    if (fabs(b) > 0) {
        v0 = l0 - d, v1 = b;
    } else {
        v0 = a >= d, v1 = a < d;
    }
    double len = hypot(v0, v1);
    v0 /= len, v1 /= len;
    double i0 = l0 > tiny ? 1 / l0 : 0, i1 = l1 > tiny ? 1 / l1 : 0;
    // P = i0 v v^T + i1 u u^T, u = (-v1, v0).
    P[0] = i0 * v0 * v0 + i1 * v1 * v1;
    P[1] = P[2] = i0 * v0 * v1 - i1 * v0 * v1;
    P[3] = i0 * v1 * v1 + i1 * v0 * v0;
}

double ipcc_shape_primitive_distance2(const ipcc_shape *s, int n, const double *x, double *g, double *H) {
    int N = 3 * n;
    if (g) memset(g, 0, sizeof(double) * (size_t)N);
    if (H) memset(H, 0, sizeof(double) * (size_t)(N * N));
    double w[3];
    int f[3], k;
    double phi = closest_feature(s, n, x, w, f, &k);
    if (!(phi > 0)) return 0.0;
    double p[3] = {0, 0, 0}, nrm[3], A[9];
    for (int a = 0; a < n; ++a)
        for (int c = 0; c < 3; ++c)
            p[c] += w[a] * x[3 * a + c];
    phi = fmax(ipcc_shape_distance(s, p, NULL, nrm), 0.0);
    if (!g && !H) return phi * phi;
    double gf[3] = {2 * phi * nrm[0], 2 * phi * nrm[1], 2 * phi * nrm[2]};
    for (int a = 0; g && a < k; ++a)
        for (int c = 0; c < 3; ++c)
            g[3 * f[a] + c] = w[f[a]] * gf[c];
    if (!H) return phi * phi;
    ipcc_shape_distance2_hessian(s, p, A);
    // Over the feature's k vertices: Hf = W^T A W - F^T S+ F (preamble).
    int m = k - 1, K3 = 3 * k;
    double Hf[81], J[2][3], JA[2][3], F[2][9], S[4], P[4];
    for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                    Hf[K3 * (3 * a + r) + 3 * b + c] = w[f[a]] * w[f[b]] * A[3 * r + c];
    if (m > 0) {
        for (int a = 0; a < m; ++a) {
            sub3(x + 3 * f[a + 1], x + 3 * f[0], J[a]);
            for (int c = 0; c < 3; ++c)
                JA[a][c] = J[a][0] * A[c] + J[a][1] * A[3 + c] + J[a][2] * A[6 + c];
            for (int b = 0; b < k; ++b)
                for (int c = 0; c < 3; ++c)
                    F[a][3 * b + c] = w[f[b]] * JA[a][c] + (b == a + 1 ? gf[c] : 0) - (b == 0 ? gf[c] : 0);
        }
        double scale = 0;
        for (int a = 0; a < m; ++a) {
            scale += 2 * dot3(J[a], J[a]);
            for (int b = 0; b < m; ++b)
                S[m * a + b] = dot3(JA[a], J[b]);
        }
        pseudo_inverse(m, S, scale, P);
        for (int i = 0; i < K3; ++i)
            for (int j = 0; j < K3; ++j) {
                double sum = 0;
                for (int a = 0; a < m; ++a)
                    for (int b = 0; b < m; ++b)
                        sum += F[a][i] * P[m * a + b] * F[b][j];
                Hf[K3 * i + j] -= sum;
            }
    }
    for (int a = 0; a < k; ++a)
        for (int b = 0; b < k; ++b)
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c)
                    H[N * (3 * f[a] + r) + 3 * f[b] + c] = Hf[K3 * (3 * a + r) + 3 * b + c];
    return phi * phi;
}
