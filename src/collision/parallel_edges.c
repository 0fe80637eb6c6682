// Nearly parallel edge pairs: a C1 barrier where the segment distance kinks.
//
// The kink. The squared distance d(a, b) of two segments is the minimum of
// |p - q|^2 over their points; it is C1 wherever the closest points are
// unique (Danskin), which fails only for parallel, overlapping edges. Near
// such a pair the closest points sit at the ends and d is the smallest of
// the ends' point-segment distances
//   D_0 = d(a0, b), D_1 = d(a1, b), D_2 = d(b0, a), D_3 = d(b1, a),
// each C1, so b(d) = max_k b(D_k) has a convex ridge where two of them
// cross: as the edges turn through parallel, the closest point jumps from
// one end to the other. Keyed by closest features (constraint_set.c), the
// term moves between two point-edge keys there. Newton's line search stops
// on that ridge (a cube on a mat with aligned grids: one-sided slopes
// -1.56e-7 and +1.36e-7 along the direction,
// bench/results/2026-11-29-issue33-part3.md).
//
// IPC (Li et al. 2020, Sec. 4.3, eq. 19-20) multiplies the barrier of a
// nearly parallel pair by a mollifier m(c), c = |a x b|^2, that goes to 0
// with c; under ipcc's inclusion-exclusion that would leave -(1 - m) b of
// the term uncancelled on the key it lands on (contact_multiplicity.c),
// and stacked meshes with aligned grids would feel an energy unbounded
// below. Here the pair is keyed on its own (IPCC_CONTACT_EP, which lands
// on no point-edge or point-point key) and its term is
//
//   T = m b(d) + (1 - m) S,   S = smax(b(D_0), b(D_1), b(D_2), b(D_3)),   (*)
//
// with s = sin^2 of the edges' angle, t = s / eps (eps =
// IPCC_PARALLEL_EDGES_SIN2) and IPC's polynomial m = t (2 - t) for t < 1,
// 1 beyond. Then:
// - T is C1: S is (each D_k is C1 and smax is C1); m b(d) is, because m
//   and its gradient (m' grad s, and grad s = 0 at s = 0) vanish at
//   parallel, where b(d) kinks; and at s = eps, m = 1, m' = 0: T is b(d)
//   with b(d)'s gradient, which is what the closest-feature key the pair
//   lands on beyond the band gives. The energy is C1 across the band.
// - T >= max_k b(D_k), since d <= D_k and smax >= max: the pair never
//   gives less than the key it would land on, so no term is left
//   uncancelled and the energy stays bounded below.
// - T -> inf as the edges touch: at s > 0 through m b(d); at s = 0 the
//   touching point is an end, and S -> inf.
// - T = 0 where d >= d̂² (then every D_k >= d, all b(D_k) = 0): the pair is
//   active exactly where its segment distance is below d̂.
//
// smax is a C1 maximum of two values x, y >= 0 with a relative band r
// (IPCC_PARALLEL_EDGES_BAND): with u = x + y, v = x - y,
//   smax = (u + |v|) / 2                  for |v| >= r u (the maximum),
//   smax = u / 2 + v^2 / (4 r u) + r u / 4  for |v| <  r u,
// which matches the maximum's value and gradient at |v| = r u, exceeds it
// by (|v| - r u)^2 / (4 r u) >= 0 and by at most r u / 4 (1 + r / 2 times
// the maximum). Of four, smax(smax(b_0, b_1), smax(b_2, b_3)).
//
// Derivatives. s = 1 - q with q = (a . b)^2 / (|a|^2 |b|^2), a = a1 - a0,
// b = b1 - b0: with p = a . b and w = 1 / (|a|^2 |b|^2),
//   grad q = 2 p w grad p + p^2 grad w,
//   H q    = 2 w grad p grad p^T + 2 p (grad p grad w^T + grad w grad p^T)
//            + 2 p w H p + p^2 H w,
// over (a, b), then to the four vertices by a = a1 - a0, b = b1 - b0. T's
// are the product rule on (*):
//   grad T = m grad b(d) + (1 - m) grad S + (b(d) - S) grad m,
//   H T    = m H b(d) + (1 - m) H S + (b(d) - S) H m
//            + grad m (grad b(d) - grad S)^T + (grad b(d) - grad S) grad m^T,
// with grad S = sum_k S_k grad b_k, H S = sum_kl S_kl grad b_k grad b_l^T
// + sum_k S_k H b_k. tests/unit/collision/test_parallel_edges.c checks them
// by finite differences.
#include "collision/parallel_edges.h"

#include <math.h>
#include <string.h>

#include "base/vec3.h"
#include "geometry/barrier.h"
#include "geometry/distance.h"

double ipcc_parallel_edges_sin2(const double x[12]) {
    double a[3], b[3], c[3];
    sub3(x + 3, x, a);
    sub3(x + 9, x + 6, b);
    cross3(a, b, c);
    double ab = dot3(a, a) * dot3(b, b);
    return ab > 0 ? dot3(c, c) / ab : 0.0;
}

bool ipcc_parallel_edges(const double x[12]) {
    return ipcc_parallel_edges_sin2(x) < IPCC_PARALLEL_EDGES_SIN2;
}

// sin^2's gradient (12) and Hessian (144) over the four vertices (0 for
// a zero-length edge, whose sin^2 is taken as 0).
static void sin2_derivatives(const double x[12], double g[12], double H[144]) {
    double a[3], b[3];
    sub3(x + 3, x, a);
    sub3(x + 9, x + 6, b);
    double la = dot3(a, a), lb = dot3(b, b), p = dot3(a, b);
    if (!(la * lb > 0)) {
        memset(g, 0, 12 * sizeof(double));
        memset(H, 0, 144 * sizeof(double));
        return;
    }
    double w = 1 / (la * lb);
    // Over y = (a, b), 6 dofs.
    double gp[6], gw[6], gq[6], Hq[36];
    for (int k = 0; k < 3; ++k) {
        gp[k] = b[k], gp[3 + k] = a[k];
        gw[k] = -w * 2 * a[k] / la, gw[3 + k] = -w * 2 * b[k] / lb;
    }
    for (int i = 0; i < 6; ++i)
        gq[i] = 2 * p * w * gp[i] + p * p * gw[i];
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
            int ia = i / 3, ja = j / 3, ik = i % 3, jk = j % 3;
            double Hp = ia != ja && ik == jk ? 1.0 : 0.0, Hw;
            if (ia == 0 && ja == 0)
                Hw = w * (8 * a[ik] * a[jk] / (la * la) - (ik == jk ? 2 / la : 0));
            else if (ia == 1 && ja == 1)
                Hw = w * (8 * b[ik] * b[jk] / (lb * lb) - (ik == jk ? 2 / lb : 0));
            else
                Hw = 4 * w * (ia == 0 ? a[ik] * b[jk] : b[ik] * a[jk]) / (la * lb);
            Hq[6 * i + j] =
                2 * w * gp[i] * gp[j] + 2 * p * (gp[i] * gw[j] + gw[i] * gp[j]) + 2 * p * w * Hp + p * p * Hw;
        }
    // s = 1 - q; vertex v of [a0, a1, b0, b1] moves a (v < 2) or b with sign -, +.
    static const double sign[4] = {-1, 1, -1, 1};
    for (int v = 0; v < 4; ++v)
        for (int k = 0; k < 3; ++k) {
            g[3 * v + k] = -sign[v] * gq[3 * (v / 2) + k];
            for (int u = 0; u < 4; ++u)
                for (int l = 0; l < 3; ++l)
                    H[12 * (3 * v + k) + 3 * u + l] =
                        -sign[v] * sign[u] * Hq[6 * (3 * (v / 2) + k) + 3 * (u / 2) + l];
        }
}

// smax of x, y >= 0 (see the top): value, first derivatives f[0..1] and
// second f2 = {xx, xy, yy}.
static double smax2(double x, double y, double f1[2], double f2[3]) {
    const double r = IPCC_PARALLEL_EDGES_BAND;
    double u = x + y, v = x - y;
    f2[0] = f2[1] = f2[2] = 0;
    if (!(u > 0)) {
        f1[0] = f1[1] = 0.5;
        return 0;
    }
    if (fabs(v) >= r * u) {
        f1[0] = v >= 0, f1[1] = v < 0;
        return v >= 0 ? x : y;
    }
    double fu = 0.5 - v * v / (4 * r * u * u) + r / 4, fv = v / (2 * r * u);
    double fuu = v * v / (2 * r * u * u * u), fuv = -v / (2 * r * u * u), fvv = 1 / (2 * r * u);
    f1[0] = fu + fv;
    f1[1] = fu - fv;
    f2[0] = fuu + 2 * fuv + fvv;
    f2[1] = fuu - fvv;
    f2[2] = fuu - 2 * fuv + fvv;
    return u / 2 + v * v / (4 * r * u) + r * u / 4;
}

// The ends' point-segment terms: vertex k of [a0, a1, b0, b1] against the
// other edge.
static const int END_POINT[4] = {0, 1, 2, 3}, END_EDGE[4][2] = {{2, 3}, {2, 3}, {0, 1}, {0, 1}};

// b(D_k) with its gradient and Hessian over the four vertices (g, H may be NULL).
static double end_barrier(const double x[12], int k, double dhat2, double g[12], double H[144]) {
    const int idx[3] = {END_POINT[k], END_EDGE[k][0], END_EDGE[k][1]};
    const double *p = x + 3 * idx[0], *e0 = x + 3 * idx[1], *e1 = x + 3 * idx[2];
    ipcc_point_edge_distance_type type = ipcc_point_edge_distance_type_of(p, e0, e1);
    double d = ipcc_point_edge_distance(p, e0, e1, type), b = ipcc_barrier(d, dhat2);
    if (!g || !isfinite(b)) return b;
    double gd[9], Hd[81], b1 = ipcc_barrier_first_derivative(d, dhat2),
                          b2 = ipcc_barrier_second_derivative(d, dhat2);
    ipcc_point_edge_distance_gradient(p, e0, e1, type, gd);
    memset(g, 0, 12 * sizeof(double));
    for (int i = 0; i < 3; ++i)
        for (int k3 = 0; k3 < 3; ++k3)
            g[3 * idx[i] + k3] = b1 * gd[3 * i + k3];
    if (!H) return b;
    ipcc_point_edge_distance_hessian(p, e0, e1, type, Hd);
    memset(H, 0, 144 * sizeof(double));
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j)
            H[12 * (3 * idx[i / 3] + i % 3) + 3 * idx[j / 3] + j % 3] =
                b2 * gd[i] * gd[j] + b1 * Hd[9 * i + j];
    return b;
}

double ipcc_parallel_edges_barrier(const double x[12], double dhat2, double *g, double *H) {
    const double *a0 = x, *a1 = x + 3, *b0 = x + 6, *b1 = x + 9;
    // b(d) of the segment distance.
    ipcc_edge_edge_distance_type type = ipcc_edge_edge_distance_type_of(a0, a1, b0, b1);
    double d = ipcc_edge_edge_distance(a0, a1, b0, b1, type), B = ipcc_barrier(d, dhat2);
    if (!isfinite(B)) return B;
    double s = ipcc_parallel_edges_sin2(x), t = s / IPCC_PARALLEL_EDGES_SIN2;
    double m = t < 1 ? t * (2 - t) : 1;
    // S = smax(smax(b_0, b_1), smax(b_2, b_3)).
    double bk[4], gb[4][12], Hb[4][144];
    for (int k = 0; k < 4; ++k) {
        bk[k] = end_barrier(x, k, dhat2, g ? gb[k] : NULL, H ? Hb[k] : NULL);
        if (!isfinite(bk[k])) return INFINITY;
    }
    double F1[2], F2[3], G1[2], G2[3], S1[2], S2[3];
    double F = smax2(bk[0], bk[1], F1, F2), G = smax2(bk[2], bk[3], G1, G2), S = smax2(F, G, S1, S2);
    double T = m * B + (1 - m) * S;
    if (!g) return T;
    // dS/db_k and d2S/db_k db_l.
    const double Sk[4] = {S1[0] * F1[0], S1[0] * F1[1], S1[1] * G1[0], S1[1] * G1[1]};
    const double dFG[4] = {F1[0], F1[1], G1[0], G1[1]};
    double Skl[4][4];
    for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 4; ++l) {
            int gk = k / 2, gl = l / 2; // 0: F's, 1: G's
            double outer = S2[gk + gl] * dFG[k] * dFG[l];
            double inner = gk != gl ? 0 : S1[gk] * (gk == 0 ? F2[k % 2 + l % 2] : G2[k % 2 + l % 2]);
            Skl[k][l] = outer + inner;
        }
    double gB[12], gS[12] = {0}, gs[12], Hs[144];
    if (t < 1) sin2_derivatives(x, gs, Hs);
    double dm = t < 1 ? (2 - 2 * t) / IPCC_PARALLEL_EDGES_SIN2 : 0;
    double ddm = t < 1 ? -2 / (IPCC_PARALLEL_EDGES_SIN2 * IPCC_PARALLEL_EDGES_SIN2) : 0;
    double bd1 = ipcc_barrier_first_derivative(d, dhat2), gd[12];
    ipcc_edge_edge_distance_gradient(a0, a1, b0, b1, type, gd);
    for (int i = 0; i < 12; ++i) {
        gB[i] = bd1 * gd[i];
        for (int k = 0; k < 4; ++k)
            gS[i] += Sk[k] * gb[k][i];
    }
    for (int i = 0; i < 12; ++i)
        g[i] = m * gB[i] + (1 - m) * gS[i] + (t < 1 ? (B - S) * dm * gs[i] : 0);
    if (!H) return T;
    double Hd[144], bd2 = ipcc_barrier_second_derivative(d, dhat2);
    ipcc_edge_edge_distance_hessian(a0, a1, b0, b1, type, Hd);
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
            double HB = bd2 * gd[i] * gd[j] + bd1 * Hd[12 * i + j], HS = 0;
            for (int k = 0; k < 4; ++k) {
                HS += Sk[k] * Hb[k][12 * i + j];
                for (int l = 0; l < 4; ++l)
                    HS += Skl[k][l] * gb[k][i] * gb[l][j];
            }
            double v = m * HB + (1 - m) * HS;
            if (t < 1) {
                double gmi = dm * gs[i], gmj = dm * gs[j];
                double Hm = ddm * gs[i] * gs[j] + dm * Hs[12 * i + j];
                v += (B - S) * Hm + gmi * (gB[j] - gS[j]) + (gB[i] - gS[i]) * gmj;
            }
            H[12 * i + j] = v;
        }
    return T;
}
