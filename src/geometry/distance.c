// Contact distance kernels: squared point-point, point-line, point-plane and
// line-line distances with closed-form gradients and Hessians, the closest-
// feature classification of point-edge, point-triangle and edge-edge pairs,
// and the dispatch that embeds a sub-kernel in the full layout. Follows IPC
// (Li, Ferguson, Schneider, Langlois, Zorin, Panozzo, Jiang, Kaufman 2020,
// "Incremental Potential Contact", ACM TOG 39(4) 49), Sec. 4: distances are
// piecewise smooth functions whose pieces are the distances between the
// closest features. IPC's edge-edge mollifier (Sec. 4.3) is not here:
// nearly parallel edge pairs get their own term (collision/parallel_edges.c),
// and the classification below keeps them off the ill-conditioned
// line-line piece.
//
// Conventions. Every distance is SQUARED (IPC's barrier is written on d^2).
// DOF order: point-edge [p, e0, e1] (9), point-triangle [p, t0, t1, t2] (12),
// edge-edge [ea0, ea1, eb0, eb1] (12), each point x y z; Hessians row-major.
// Outputs are overwritten (=), zeros outside the active sub-kernel.
//
// Structure. Each piece is a function of a few difference vectors
// y = [y_0, .., y_{ny-1}], y_k = sum_j c_kj x_j with c_kj in {-1, 0, 1}:
//   ny = 1  point-point   f(r)       = |r|^2
//   ny = 2  point-line    f(r, a)    = |r x a|^2 / |a|^2
//   ny = 3  point-plane   f(r, a, b) = (r . (a x b))^2 / |a x b|^2
// Point-plane uses r = p - t0, a = t1 - t0, b = t2 - t0. Line-line is the
// same function of r = eb0 - ea0, a = ea1 - ea0, b = eb1 - eb0 (the distance
// between the lines is the height of eb0 over the plane through line a
// spanned by a and b). A "feature map" (the table c) says which vectors
// to form; every primitive and every closest-feature type is one map. The
// kernel derivatives are taken in y (closed form, derived above each
// formula) and pulled back, g_x = S^T g_y, H_x = S^T H_y S, with the sparse
// 0/+-1 matrix S, skipping zeros. Everything lives on the stack.
//
// Accuracy. Numerators are formed as cross products, not as differences of
// dot products (|r x a|^2 rather than |r|^2|a|^2 - (r.a)^2), so distances near
// zero keep relative accuracy. The plane normal n = a x b carries an absolute
// error ~ u |a||b| (u = 2^-53), i.e. a relative error ~ u / sin(angle(a, b)),
// so the point-plane / line-line value has error ~ 2 h |r| u / sin, h the
// distance: fine for well-shaped triangles and crossing edges, poor as the
// angle closes. The classifiers therefore avoid those pieces below
// sin^2 = IPCC_DISTANCE_DEGENERATE_SIN2 = 1e-12 (see below).
//
// Classification rules (the closest features of the closed primitives):
// - point-edge: t = (p - e0).(e1 - e0) against |e1 - e0|^2: t <= 0 gives
//   P_E0 (also for a zero-length edge), t >= |e1 - e0|^2 gives P_E1, else P_E.
// - point-triangle: n = (t1 - t0) x (t2 - t0). If |n|^2 > 1e-12 |t1-t0|^2
//   |t2-t0|^2 and p projects strictly inside all three edges (side tests
//   n . ((t_j - t_i) x (p - t_i)) > 0), the type is P_T. Otherwise the
//   closest point is on the boundary (the projection is outside a convex
//   set, or the triangle is a sliver) and the type is the best of the three
//   point-edge classifications, by value (first wins a tie: edge t0t1,
//   t1t2, t2t0). For a sliver that replaces the interior distance by the
//   nearest edge's; the two differ by less than the sliver's width squared,
//   <= 2.5e-13 L^2 at the threshold (L the longest edge).
// - edge-edge (the clamped 2x2 closest-point problem of Lumelsky 1985, "On
//   fast computation of distance between line segments", IPL 21(2)):
//   minimize |ea0 + s a - eb0 - t b|^2 over [0, 1]^2. With
//   r = ea0 - eb0 and n = a x b, the stationary point is (Lagrange's identity
//   turns the 2x2 Cramer solution into cross products)
//     s = n . (b x r) / |n|^2,   t = n . (a x r) / |n|^2.
//   If |n|^2 > 1e-12 |a|^2 |b|^2 and 0 < s, t < 1 the type is EA_EB.
//   Otherwise the minimum is on the boundary of the square (the objective is
//   convex; for parallel edges its minimizers form a line, which meets the
//   boundary), i.e. the best of the four endpoint-to-segment
//   classifications ea0-b, ea1-b, eb0-a, eb1-a (first wins a tie). Nearly
//   parallel overlapping edges thus get an endpoint-to-edge distance that
//   exceeds the true one by at most (L sin / 2)^2 <= 2.5e-13 L^2, instead of
//   a line-line value whose error ~ 2 h L u / sin grows as the angle closes.
//   The jump of the distance at the threshold is that small too.
//
// Degenerate input. Classifiers never pick a piece whose denominator
// vanishes (zero-length edge -> vertex, zero-area triangle -> edge or
// vertex, parallel edges -> point-edge or point-point). If a caller forces
// such a piece, or calls a primitive on exactly degenerate input, the kernel
// falls back to the distance to the affine hull that remains: point-line
// with e0 == e1 is |p - e0|^2; point-plane with a x b = 0 is the point-line
// distance along the longer of a, b; line-line for parallel lines likewise.
// The values are right; the derivatives are those of the fallback, not a
// limit (there is none). Non-finite input gives non-finite output; NaN
// coordinates classify as a vertex / point-point type.
#include "geometry/distance.h"

#include <string.h>

#include "base/core.h"
#include "base/vec3.h"

// ---------------------------------------------------------------------------
// 3-vector helpers

// H[3I + i][3J + j] += coef * [v]x_ij for the 3x3 block (I, J) of a matrix
// with leading dimension ld; [v]x w = v x w.
static void add_cross_block(double *H, int ld, int I, int J, double coef, const double v[3]) {
    double *B = H + 3 * I * ld + 3 * J;
    B[1] -= coef * v[2];
    B[2] += coef * v[1];
    B[ld + 0] += coef * v[2];
    B[ld + 2] -= coef * v[0];
    B[2 * ld + 0] -= coef * v[1];
    B[2 * ld + 1] += coef * v[0];
}

// ---------------------------------------------------------------------------
// Sub-kernels in the difference variables y (blocks of 3). Derivatives go to
// gy[9] and (if Hy) Hy[81], leading dimension 9, block k at rows/cols 3k;
// callers zero them first and read only the blocks of their ny.

enum { YLD = 9 };

// f(r) = r.r;  df/dr = 2 r;  d2f/dr2 = 2 I
static void pp_derivs(const double r[3], int ir, double *gy, double *Hy) {
    for (int i = 0; i < 3; ++i) {
        gy[3 * ir + i] = 2.0 * r[i];
        if (Hy) Hy[(3 * ir + i) * YLD + 3 * ir + i] = 2.0;
    }
}

// f(r, a) = u / w,  u = |c|^2, c = r x a,  w = a.a  (point to the line
// through the origin of r with direction a); u = |r|^2 w - (r.a)^2.
static double pl_value(const double r[3], const double a[3]) {
    double w = dot3(a, a);
    if (!(w > 0)) return dot3(r, r);
    double c[3];
    cross3(r, a, c);
    return dot3(c, c) / w;
}

static void pl_derivs(const double r[3], const double a[3], int ir, int ia, double *gy, double *Hy) {
    double w = dot3(a, a);
    if (!(w > 0)) {
        pp_derivs(r, ir, gy, Hy);
        return;
    }
    double c[3], ur[3], ua[3];
    cross3(r, a, c);
    double iw = 1.0 / w, f = dot3(c, c) * iw;
    // du/dr = 2 (w r - (r.a) a) = 2 a x (r x a);  du/da = 2 (|r|^2 a - (r.a) r) = 2 c x r
    cross3(a, c, ur);
    cross3(c, r, ua);
    for (int i = 0; i < 3; ++i) {
        ur[i] *= 2.0;
        ua[i] *= 2.0;
    }
    // df = du / w - u dw / w^2,  dw/da = 2 a
    for (int i = 0; i < 3; ++i) {
        gy[3 * ir + i] = ur[i] * iw;
        gy[3 * ia + i] = (ua[i] - 2.0 * f * a[i]) * iw;
    }
    if (!Hy) return;
    // d2f = [d2u - (du dw^T + dw du^T)/w + 2 f dw dw^T / w - f d2w] / w, with
    //   d2u/dr2 = 2 (w I - a a^T),  d2u/da2 = 2 (|r|^2 I - r r^T),
    //   d2u/dr da = 2 (2 r a^T - a r^T - (r.a) I),  d2w/da2 = 2 I.
    double ra = dot3(r, a), rr = dot3(r, r);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double d = i == j ? 1.0 : 0.0;
            double hrr = 2.0 * (w * d - a[i] * a[j]) * iw;
            double hra = (2.0 * (2.0 * r[i] * a[j] - a[i] * r[j] - ra * d) - 2.0 * ur[i] * a[j] * iw) * iw;
            double haa = (2.0 * (rr * d - r[i] * r[j]) - 2.0 * (ua[i] * a[j] + a[i] * ua[j]) * iw +
                          8.0 * f * a[i] * a[j] * iw - 2.0 * f * d) *
                         iw;
            Hy[(3 * ir + i) * YLD + 3 * ir + j] = hrr;
            Hy[(3 * ir + i) * YLD + 3 * ia + j] = hra;
            Hy[(3 * ia + j) * YLD + 3 * ir + i] = hra;
            Hy[(3 * ia + i) * YLD + 3 * ia + j] = haa;
        }
}

// Hy += coef * d2q for q = |a x b|^2 = |a|^2 |b|^2 - (a.b)^2, blocks ia, ib:
//   d2q/da2 = 2 (|b|^2 I - b b^T),  d2q/db2 = 2 (|a|^2 I - a a^T),
//   d2q/da db = 2 (2 a b^T - b a^T - (a.b) I).
static void add_cross_sq_hessian(const double a[3], const double b[3], int ia, int ib, double coef,
                                 double *Hy) {
    double aa = dot3(a, a), bb = dot3(b, b), ab = dot3(a, b);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double d = i == j ? 1.0 : 0.0;
            double hab = 2.0 * coef * (2.0 * a[i] * b[j] - b[i] * a[j] - ab * d);
            Hy[(3 * ia + i) * YLD + 3 * ia + j] += 2.0 * coef * (bb * d - b[i] * b[j]);
            Hy[(3 * ib + i) * YLD + 3 * ib + j] += 2.0 * coef * (aa * d - a[i] * a[j]);
            Hy[(3 * ia + i) * YLD + 3 * ib + j] += hab;
            Hy[(3 * ib + j) * YLD + 3 * ia + i] += hab;
        }
}

// q = |a x b|^2;  dq/da = 2 b x n,  dq/db = 2 n x a  (n = a x b, from
// dq = 2 n . (da x b + a x db)).
static void cross_sq_gradient(const double a[3], const double b[3], const double n[3], double dqa[3],
                              double dqb[3]) {
    cross3(b, n, dqa);
    cross3(n, a, dqb);
    for (int i = 0; i < 3; ++i) {
        dqa[i] *= 2.0;
        dqb[i] *= 2.0;
    }
}

// The longer of a, b, and its block index (1 or 2): the direction of the
// line that a collinear triangle / a pair of parallel lines spans.
static int longer_direction(const double a[3], const double b[3]) { return dot3(a, a) >= dot3(b, b) ? 1 : 2; }

// f(r, a, b) = s^2 / q,  s = r . n,  q = n . n,  n = a x b.
static double plane_value(const double r[3], const double a[3], const double b[3]) {
    double n[3];
    cross3(a, b, n);
    double q = dot3(n, n);
    if (!(q > 0)) return pl_value(r, longer_direction(a, b) == 1 ? a : b);
    double s = dot3(r, n);
    return s * s / q;
}

static void plane_derivs(const double r[3], const double a[3], const double b[3], double *gy, double *Hy) {
    double n[3];
    cross3(a, b, n);
    double q = dot3(n, n);
    if (!(q > 0)) {
        int k = longer_direction(a, b);
        pl_derivs(r, k == 1 ? a : b, 0, k, gy, Hy);
        return;
    }
    // ds = [n, b x r, r x a]  (s = r.(a x b) = a.(b x r) = b.(r x a));  dq = [0, 2 b x n, 2 n x a]
    double ds[9], dq[9] = {0};
    memcpy(ds, n, sizeof n);
    cross3(b, r, ds + 3);
    cross3(r, a, ds + 6);
    cross_sq_gradient(a, b, n, dq + 3, dq + 6);
    double s = dot3(r, n), sigma = s / q;
    // df = 2 s ds / q - s^2 dq / q^2 = 2 sigma ds - sigma^2 dq
    for (int i = 0; i < 9; ++i)
        gy[i] = 2.0 * sigma * ds[i] - sigma * sigma * dq[i];
    if (!Hy) return;
    // d2f = 2 ds ds^T / q + 2 s d2s / q - 2 s (ds dq^T + dq ds^T) / q^2 + 2 s^2 dq dq^T / q^3 - s^2 d2q / q^2
    //     = (2/q) v v^T + 2 sigma d2s - sigma^2 d2q,   v = ds - sigma dq.
    double v[9];
    for (int i = 0; i < 9; ++i)
        v[i] = ds[i] - sigma * dq[i];
    for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j)
            Hy[i * YLD + j] = 2.0 * v[i] * v[j] / q;
    // d2s (s = e_ijk r_i a_j b_k): (r,a) = -[b]x, (r,b) = [a]x, (a,b) = -[r]x, transposes below
    // the diagonal ([v]x^T = -[v]x).
    double c = 2.0 * sigma;
    add_cross_block(Hy, YLD, 0, 1, -c, b);
    add_cross_block(Hy, YLD, 1, 0, c, b);
    add_cross_block(Hy, YLD, 0, 2, c, a);
    add_cross_block(Hy, YLD, 2, 0, -c, a);
    add_cross_block(Hy, YLD, 1, 2, -c, r);
    add_cross_block(Hy, YLD, 2, 1, c, r);
    add_cross_sq_hessian(a, b, 1, 2, -sigma * sigma, Hy);
}

// ---------------------------------------------------------------------------
// Feature maps: y_k = sum_j c[k][j] x_j over the nx input points.

typedef struct feature_map {
    int ny;              // 1 point-point, 2 point-line, 3 point-plane / line-line
    signed char c[3][4]; // c[k][j] in {-1, 0, 1}
} feature_map;

static void gather(int nx, const double *const x[], const feature_map *m, double y[3][3]) {
    for (int k = 0; k < m->ny; ++k) {
        int first = 1;
        for (int j = 0; j < nx; ++j) {
            int c = m->c[k][j];
            if (!c) continue;
            for (int d = 0; d < 3; ++d) {
                double v = c > 0 ? x[j][d] : -x[j][d];
                y[k][d] = first ? v : y[k][d] + v; // bitwise x_p - x_q for a difference
            }
            first = 0;
        }
    }
}

static double map_value(int nx, const double *const x[], const feature_map *m) {
    double y[3][3];
    gather(nx, x, m, y);
    switch (m->ny) {
    case 1: return dot3(y[0], y[0]);
    case 2: return pl_value(y[0], y[1]);
    default: return plane_value(y[0], y[1], y[2]);
    }
}

static void kernel_derivs(const feature_map *m, double y[3][3], double *gy, double *Hy) {
    switch (m->ny) {
    case 1: pp_derivs(y[0], 0, gy, Hy); break;
    case 2: pl_derivs(y[0], y[1], 0, 1, gy, Hy); break;
    default: plane_derivs(y[0], y[1], y[2], gy, Hy); break;
    }
}

// g_x = S^T g_y:  g_x[3j + d] = sum_k c[k][j] g_y[3k + d]
static void pull_gradient(int nx, const feature_map *m, const double *gy, double *g) {
    for (int j = 0; j < nx; ++j)
        for (int d = 0; d < 3; ++d) {
            double s = 0;
            for (int k = 0; k < m->ny; ++k)
                if (m->c[k][j]) s += m->c[k][j] > 0 ? gy[3 * k + d] : -gy[3 * k + d];
            g[3 * j + d] = s;
        }
}

// H_x = S^T H_y S by 3x3 blocks: block (i, j) = sum_{k, l} c[k][i] c[l][j] H_y(k, l),
// over the nonzeros of columns i and j of c; upper triangle of blocks,
// mirrored (H_y is symmetric).
static void pull_hessian(int nx, const feature_map *m, const double *Hy, double *H) {
    int n = 3 * nx, cnt[4] = {0}, idx[4][3];
    double sgn[4][3];
    for (int j = 0; j < nx; ++j)
        for (int k = 0; k < m->ny; ++k)
            if (m->c[k][j]) {
                idx[j][cnt[j]] = 3 * k;
                sgn[j][cnt[j]++] = m->c[k][j];
            }
    for (int i = 0; i < nx; ++i)
        for (int j = i; j < nx; ++j) {
            double B[9] = {0};
            for (int u = 0; u < cnt[i]; ++u)
                for (int v = 0; v < cnt[j]; ++v) {
                    const double *Y = Hy + idx[i][u] * YLD + idx[j][v];
                    double sg = sgn[i][u] * sgn[j][v];
                    for (int e = 0; e < 3; ++e)
                        for (int d = 0; d < 3; ++d)
                            B[3 * e + d] += sg * Y[e * YLD + d];
                }
            for (int e = 0; e < 3; ++e)
                for (int d = 0; d < 3; ++d)
                    H[(3 * i + e) * n + 3 * j + d] = H[(3 * j + d) * n + 3 * i + e] = B[3 * e + d];
        }
}

static void map_gradient(int nx, const double *const x[], const feature_map *m, double *g) {
    double y[3][3], gy[9] = {0};
    gather(nx, x, m, y);
    kernel_derivs(m, y, gy, NULL);
    pull_gradient(nx, m, gy, g);
}

static void map_hessian(int nx, const double *const x[], const feature_map *m, double *H) {
    double y[3][3], gy[9] = {0}, Hy[81] = {0};
    gather(nx, x, m, y);
    kernel_derivs(m, y, gy, Hy);
    pull_hessian(nx, m, Hy, H);
}

// Point-edge [p, e0, e1], indexed by ipcc_point_edge_distance_type.
static const feature_map PE_MAPS[3] = {
    {1, {{1, -1, 0}}},             // P_E0: r = p - e0
    {1, {{1, 0, -1}}},             // P_E1: r = p - e1
    {2, {{1, -1, 0}, {0, -1, 1}}}, // P_E:  r = p - e0, a = e1 - e0
};

// Point-triangle [p, t0, t1, t2], indexed by ipcc_point_triangle_distance_type.
static const feature_map PT_MAPS[7] = {
    {1, {{1, -1, 0, 0}}},                               // P_T0
    {1, {{1, 0, -1, 0}}},                               // P_T1
    {1, {{1, 0, 0, -1}}},                               // P_T2
    {2, {{1, -1, 0, 0}, {0, -1, 1, 0}}},                // P_E0: p - t0, t1 - t0
    {2, {{1, 0, -1, 0}, {0, 0, -1, 1}}},                // P_E1: p - t1, t2 - t1
    {2, {{1, 0, 0, -1}, {0, 1, 0, -1}}},                // P_E2: p - t2, t0 - t2
    {3, {{1, -1, 0, 0}, {0, -1, 1, 0}, {0, -1, 0, 1}}}, // P_T: p - t0, t1 - t0, t2 - t0
};

// Edge-edge [ea0, ea1, eb0, eb1], indexed by ipcc_edge_edge_distance_type.
static const feature_map EE_MAPS[9] = {
    {1, {{1, 0, -1, 0}}},                               // EA0_EB0
    {1, {{1, 0, 0, -1}}},                               // EA0_EB1
    {1, {{0, 1, -1, 0}}},                               // EA1_EB0
    {1, {{0, 1, 0, -1}}},                               // EA1_EB1
    {2, {{-1, 0, 1, 0}, {-1, 1, 0, 0}}},                // EA_EB0: eb0 - ea0, ea1 - ea0
    {2, {{-1, 0, 0, 1}, {-1, 1, 0, 0}}},                // EA_EB1: eb1 - ea0, ea1 - ea0
    {2, {{1, 0, -1, 0}, {0, 0, -1, 1}}},                // EA0_EB: ea0 - eb0, eb1 - eb0
    {2, {{0, 1, -1, 0}, {0, 0, -1, 1}}},                // EA1_EB: ea1 - eb0, eb1 - eb0
    {3, {{-1, 0, 1, 0}, {-1, 1, 0, 0}, {0, 0, -1, 1}}}, // EA_EB: eb0 - ea0, ea1 - ea0, eb1 - eb0
};

static const feature_map *pe_map(ipcc_point_edge_distance_type type) {
    IPCC_ASSERT((unsigned)type <= (unsigned)IPCC_PE_P_E);
    return &PE_MAPS[type];
}

static const feature_map *pt_map(ipcc_point_triangle_distance_type type) {
    IPCC_ASSERT((unsigned)type <= (unsigned)IPCC_PT_P_T);
    return &PT_MAPS[type];
}

static const feature_map *ee_map(ipcc_edge_edge_distance_type type) {
    IPCC_ASSERT((unsigned)type <= (unsigned)IPCC_EE_EA_EB);
    return &EE_MAPS[type];
}

// ---------------------------------------------------------------------------
// Primitive kernels

double ipcc_point_point_distance(const double p0[3], const double p1[3]) {
    double r[3];
    sub3(p0, p1, r);
    return dot3(r, r);
}

// d = |p0 - p1|^2:  g = [2 r, -2 r],  H = 2 [I -I; -I I]
void ipcc_point_point_distance_gradient(const double p0[3], const double p1[3], double g[6]) {
    for (int i = 0; i < 3; ++i) {
        g[i] = 2.0 * (p0[i] - p1[i]);
        g[3 + i] = -g[i];
    }
}

void ipcc_point_point_distance_hessian(const double p0[3], const double p1[3], double H[36]) {
    (void)p0;
    (void)p1;
    memset(H, 0, 36 * sizeof *H);
    for (int i = 0; i < 3; ++i) {
        H[i * 6 + i] = H[(3 + i) * 6 + 3 + i] = 2.0;
        H[i * 6 + 3 + i] = H[(3 + i) * 6 + i] = -2.0;
    }
}

double ipcc_point_line_distance(const double p[3], const double e0[3], const double e1[3]) {
    const double *x[3] = {p, e0, e1};
    return map_value(3, x, &PE_MAPS[IPCC_PE_P_E]);
}

void ipcc_point_line_distance_gradient(const double p[3], const double e0[3], const double e1[3],
                                       double g[9]) {
    const double *x[3] = {p, e0, e1};
    map_gradient(3, x, &PE_MAPS[IPCC_PE_P_E], g);
}

void ipcc_point_line_distance_hessian(const double p[3], const double e0[3], const double e1[3],
                                      double H[81]) {
    const double *x[3] = {p, e0, e1};
    map_hessian(3, x, &PE_MAPS[IPCC_PE_P_E], H);
}

double ipcc_point_plane_distance(const double p[3], const double t0[3], const double t1[3],
                                 const double t2[3]) {
    const double *x[4] = {p, t0, t1, t2};
    return map_value(4, x, &PT_MAPS[IPCC_PT_P_T]);
}

void ipcc_point_plane_distance_gradient(const double p[3], const double t0[3], const double t1[3],
                                        const double t2[3], double g[12]) {
    const double *x[4] = {p, t0, t1, t2};
    map_gradient(4, x, &PT_MAPS[IPCC_PT_P_T], g);
}

void ipcc_point_plane_distance_hessian(const double p[3], const double t0[3], const double t1[3],
                                       const double t2[3], double H[144]) {
    const double *x[4] = {p, t0, t1, t2};
    map_hessian(4, x, &PT_MAPS[IPCC_PT_P_T], H);
}

double ipcc_line_line_distance(const double ea0[3], const double ea1[3], const double eb0[3],
                               const double eb1[3]) {
    const double *x[4] = {ea0, ea1, eb0, eb1};
    return map_value(4, x, &EE_MAPS[IPCC_EE_EA_EB]);
}

void ipcc_line_line_distance_gradient(const double ea0[3], const double ea1[3], const double eb0[3],
                                      const double eb1[3], double g[12]) {
    const double *x[4] = {ea0, ea1, eb0, eb1};
    map_gradient(4, x, &EE_MAPS[IPCC_EE_EA_EB], g);
}

void ipcc_line_line_distance_hessian(const double ea0[3], const double ea1[3], const double eb0[3],
                                     const double eb1[3], double H[144]) {
    const double *x[4] = {ea0, ea1, eb0, eb1};
    map_hessian(4, x, &EE_MAPS[IPCC_EE_EA_EB], H);
}

// ---------------------------------------------------------------------------
// Classification

// Closest feature of the segment [e0, e1] to p from t = (p - e0).(e1 - e0)
// against |e1 - e0|^2 (no division; a zero-length edge gives t = 0 -> P_E0).
ipcc_point_edge_distance_type ipcc_point_edge_distance_type_of(const double p[3], const double e0[3],
                                                               const double e1[3]) {
    double a[3], r[3];
    sub3(e1, e0, a);
    sub3(p, e0, r);
    double t = dot3(r, a);
    if (!(t > 0)) return IPCC_PE_P_E0;
    if (!(t < dot3(a, a))) return IPCC_PE_P_E1;
    return IPCC_PE_P_E;
}

// Point-triangle type for the closest point on edge k (t_k -> t_{k+1}).
static ipcc_point_triangle_distance_type pt_edge_type(int k, ipcc_point_edge_distance_type t) {
    static const ipcc_point_triangle_distance_type vertex[3] = {IPCC_PT_P_T0, IPCC_PT_P_T1, IPCC_PT_P_T2};
    static const ipcc_point_triangle_distance_type edge[3] = {IPCC_PT_P_E0, IPCC_PT_P_E1, IPCC_PT_P_E2};
    if (t == IPCC_PE_P_E0) return vertex[k];
    if (t == IPCC_PE_P_E1) return vertex[(k + 1) % 3];
    return edge[k];
}

ipcc_point_triangle_distance_type ipcc_point_triangle_distance_type_of(const double p[3], const double t0[3],
                                                                       const double t1[3],
                                                                       const double t2[3]) {
    const double *t[3] = {t0, t1, t2};
    double a[3], b[3], n[3];
    sub3(t1, t0, a);
    sub3(t2, t0, b);
    cross3(a, b, n);
    if (dot3(n, n) > IPCC_DISTANCE_DEGENERATE_SIN2 * dot3(a, a) * dot3(b, b)) {
        // p projects strictly inside edge t_k t_{k+1} iff n . ((t_{k+1} - t_k) x (p - t_k)) > 0
        int inside = 1;
        for (int k = 0; k < 3 && inside; ++k) {
            double e[3], r[3], c[3];
            sub3(t[(k + 1) % 3], t[k], e);
            sub3(p, t[k], r);
            cross3(e, r, c);
            inside = dot3(n, c) > 0;
        }
        if (inside) return IPCC_PT_P_T;
    }
    // Closest point on the boundary: best of the three edges.
    const double *x[4] = {p, t0, t1, t2};
    ipcc_point_triangle_distance_type best = IPCC_PT_P_T0;
    double best_d = 0;
    for (int k = 0; k < 3; ++k) {
        ipcc_point_triangle_distance_type type =
            pt_edge_type(k, ipcc_point_edge_distance_type_of(p, t[k], t[(k + 1) % 3]));
        double d = map_value(4, x, &PT_MAPS[type]);
        if (k == 0 || d < best_d) {
            best = type;
            best_d = d;
        }
    }
    return best;
}

ipcc_edge_edge_distance_type ipcc_edge_edge_distance_type_of(const double ea0[3], const double ea1[3],
                                                             const double eb0[3], const double eb1[3]) {
    double a[3], b[3], r[3], n[3];
    sub3(ea1, ea0, a);
    sub3(eb1, eb0, b);
    sub3(ea0, eb0, r);
    cross3(a, b, n);
    double q = dot3(n, n);
    if (q > IPCC_DISTANCE_DEGENERATE_SIN2 * dot3(a, a) * dot3(b, b)) {
        // Stationary point of |r + s a - t b|^2: s = n.(b x r) / q, t = n.(a x r) / q.
        double br[3], ar[3];
        cross3(b, r, br);
        cross3(a, r, ar);
        double s = dot3(n, br), t = dot3(n, ar);
        if (s > 0 && s < q && t > 0 && t < q) return IPCC_EE_EA_EB;
    }
    // Boundary of [0,1]^2: sides s = 0, s = 1 (ea0, ea1 to edge b), t = 0, t = 1 (eb0, eb1 to edge a).
    static const ipcc_edge_edge_distance_type types[4][3] = {
        {IPCC_EE_EA0_EB0, IPCC_EE_EA0_EB1, IPCC_EE_EA0_EB},
        {IPCC_EE_EA1_EB0, IPCC_EE_EA1_EB1, IPCC_EE_EA1_EB},
        {IPCC_EE_EA0_EB0, IPCC_EE_EA1_EB0, IPCC_EE_EA_EB0},
        {IPCC_EE_EA0_EB1, IPCC_EE_EA1_EB1, IPCC_EE_EA_EB1},
    };
    const double *x[4] = {ea0, ea1, eb0, eb1};
    ipcc_edge_edge_distance_type best = IPCC_EE_EA0_EB0;
    double best_d = 0;
    for (int k = 0; k < 4; ++k) {
        ipcc_point_edge_distance_type pe = k < 2 ? ipcc_point_edge_distance_type_of(x[k], eb0, eb1)
                                                 : ipcc_point_edge_distance_type_of(x[k], ea0, ea1);
        ipcc_edge_edge_distance_type type = types[k][pe];
        double d = map_value(4, x, &EE_MAPS[type]);
        if (k == 0 || d < best_d) {
            best = type;
            best_d = d;
        }
    }
    return best;
}

// ---------------------------------------------------------------------------
// Dispatch

double ipcc_point_edge_distance(const double p[3], const double e0[3], const double e1[3],
                                ipcc_point_edge_distance_type type) {
    const double *x[3] = {p, e0, e1};
    return map_value(3, x, pe_map(type));
}

void ipcc_point_edge_distance_gradient(const double p[3], const double e0[3], const double e1[3],
                                       ipcc_point_edge_distance_type type, double g[9]) {
    const double *x[3] = {p, e0, e1};
    map_gradient(3, x, pe_map(type), g);
}

void ipcc_point_edge_distance_hessian(const double p[3], const double e0[3], const double e1[3],
                                      ipcc_point_edge_distance_type type, double H[81]) {
    const double *x[3] = {p, e0, e1};
    map_hessian(3, x, pe_map(type), H);
}

double ipcc_point_triangle_distance(const double p[3], const double t0[3], const double t1[3],
                                    const double t2[3], ipcc_point_triangle_distance_type type) {
    const double *x[4] = {p, t0, t1, t2};
    return map_value(4, x, pt_map(type));
}

void ipcc_point_triangle_distance_gradient(const double p[3], const double t0[3], const double t1[3],
                                           const double t2[3], ipcc_point_triangle_distance_type type,
                                           double g[12]) {
    const double *x[4] = {p, t0, t1, t2};
    map_gradient(4, x, pt_map(type), g);
}

void ipcc_point_triangle_distance_hessian(const double p[3], const double t0[3], const double t1[3],
                                          const double t2[3], ipcc_point_triangle_distance_type type,
                                          double H[144]) {
    const double *x[4] = {p, t0, t1, t2};
    map_hessian(4, x, pt_map(type), H);
}

double ipcc_edge_edge_distance(const double ea0[3], const double ea1[3], const double eb0[3],
                               const double eb1[3], ipcc_edge_edge_distance_type type) {
    const double *x[4] = {ea0, ea1, eb0, eb1};
    return map_value(4, x, ee_map(type));
}

void ipcc_edge_edge_distance_gradient(const double ea0[3], const double ea1[3], const double eb0[3],
                                      const double eb1[3], ipcc_edge_edge_distance_type type, double g[12]) {
    const double *x[4] = {ea0, ea1, eb0, eb1};
    map_gradient(4, x, ee_map(type), g);
}

void ipcc_edge_edge_distance_hessian(const double ea0[3], const double ea1[3], const double eb0[3],
                                     const double eb1[3], ipcc_edge_edge_distance_type type, double H[144]) {
    const double *x[4] = {ea0, ea1, eb0, eb1};
    map_hessian(4, x, ee_map(type), H);
}
