// The barrier potential of contact (IPC, Li et al. 2020, eq. 3-6, Sec. 4.3).
//
// One constraint. Its squared distance d over the 1 to 4 vertices of its
// closest features (distance.c; half-spaces and analytic shapes here and in
// shape.c), and its barrier b(d, d̂²), the clamped log barrier on squared
// distances (barrier.c); a nearly parallel edge pair (EP) has its own term,
// not b of one distance (parallel_edges.c). Gradient and Hessian:
//   grad b = b' grad d,
//   H b    = b'' grad d grad d^T + b' H_d.
// A key stands for n_k terms (its multiplicity, contact_multiplicity.c):
// the energy and gradient are scaled by n_k, and the Hessian is scaled
// THEN projected to PSD (ipcc_project_psd), so a key counting -1 (a concave
// valley) contributes only where its scaled curvature is positive.
//
// The sum. B(x) = sum_k n_k b(d_k(x), d̂²); kappa B enters the
// incremental potential without the h^2 factor (IPC eq. 3), so the contact
// force on a vertex is -kappa grad B / s, s the potential's scale. Each
// constraint's projected Hessian is assembled over its 3, 6, 9 or 12 dofs
// into its own pre-counted triplet slots, kappa times.
//
// Prescribed motion (newton.c, "Prescribed motion"): with a lift, each
// block adds H lift to its gradient. A shape has no vertex dofs: its
// remaining motion rides on the clock dof (world_shapes.c), and enters a PS,
// ST or SE block as minus its material point's motion at the closest point
// (shape_lift).
//
// Determinism and memory: per-pair work runs under OpenMP into slots; the
// energy and gradient are reduced serially in pair order, so results do
// not depend on the thread count. The per-pair scratch is grow-only.
#include "collision/barrier_potential.h"
#include "base/parallel.h"

#include <math.h>
#include <string.h>

#include "geometry/barrier.h"
#include "collision/contact_samples.h"
#include "collision/parallel_edges.h"
#include "base/core.h"
#include "geometry/distance.h"
#include "fem/local_to_global.h"

// ST and SE: a sphere of centre o and radius r is the point o thickened by
// r, so its distance to the triangle's plane (the edge's line) is s - r
// with s = sqrt(d), d the point-plane (point-line) squared distance of o
// (distance.c), and the constraint's squared distance is D = (s - r)^2:
//   grad D = (1 - r / s) grad d,
//   H D    = (1 - r / s) H d + r / (2 s^3) grad d grad d^T,
// over the primitive's vertices (o is not a dof: the rows of d's
// derivatives for o are dropped). At s <= r (touching or crossing) D = 0.
static double sphere_distance(ipcc_contact_kind kind, const double *x, const ipcc_shape *sphere, double *g,
                              double *H) {
    const double *o = sphere->center;
    double r = sphere->size[0];
    int n = kind == IPCC_CONTACT_ST ? 4 : 3, m = 3 * (n - 1); // o first, then the primitive's vertices
    double gd[12], Hd[144], d;
    if (kind == IPCC_CONTACT_ST) {
        d = ipcc_point_plane_distance(o, x, x + 3, x + 6);
        if (g || H) ipcc_point_plane_distance_gradient(o, x, x + 3, x + 6, gd);
        if (H) ipcc_point_plane_distance_hessian(o, x, x + 3, x + 6, Hd);
    } else {
        d = ipcc_point_line_distance(o, x, x + 3);
        if (g || H) ipcc_point_line_distance_gradient(o, x, x + 3, gd);
        if (H) ipcc_point_line_distance_hessian(o, x, x + 3, Hd);
    }
    double s = sqrt(d);
    bool apart = s > r;
    double f1 = apart ? 1 - r / s : 0, f2 = apart ? r / (2 * s * s * s) : 0;
    for (int i = 0; i < m && g; ++i)
        g[i] = f1 * gd[3 + i];
    for (int i = 0; i < m && H; ++i)
        for (int j = 0; j < m; ++j)
            H[m * i + j] = f1 * Hd[3 * n * (3 + i) + 3 + j] + f2 * gd[3 + i] * gd[3 + j];
    return apart ? (s - r) * (s - r) : 0.0;
}

double ipcc_contact_distance(ipcc_contact_kind kind, const double *x, const void *obstacle, double *g,
                             double *H) {
    const double *plane = obstacle;
    const double *a = x, *b = x + 3, *d2 = x + 6, *d3 = x + 9;
    switch (kind) {
    case IPCC_CONTACT_PP:
        if (g) ipcc_point_point_distance_gradient(a, b, g);
        if (H) ipcc_point_point_distance_hessian(a, b, H);
        return ipcc_point_point_distance(a, b);
    case IPCC_CONTACT_PE:
        if (g) ipcc_point_line_distance_gradient(a, b, d2, g);
        if (H) ipcc_point_line_distance_hessian(a, b, d2, H);
        return ipcc_point_line_distance(a, b, d2);
    case IPCC_CONTACT_PT:
        if (g) ipcc_point_plane_distance_gradient(a, b, d2, d3, g);
        if (H) ipcc_point_plane_distance_hessian(a, b, d2, d3, H);
        return ipcc_point_plane_distance(a, b, d2, d3);
    case IPCC_CONTACT_EE: // interior-interior: the lines' distance (constraint_set.c)
        if (g) ipcc_edge_edge_distance_gradient(a, b, d2, d3, IPCC_EE_EA_EB, g);
        if (H) ipcc_edge_edge_distance_hessian(a, b, d2, d3, IPCC_EE_EA_EB, H);
        return ipcc_edge_edge_distance(a, b, d2, d3, IPCC_EE_EA_EB);
    case IPCC_CONTACT_PH: {
        // d = ((x - p) . n)^2, grad = 2 s n, H = 2 n n^T (n unit); a vertex on
        // or behind the plane is at distance 0 (infeasible), not mirrored.
        double s = fmax(ipcc_contact_plane_signed(plane, a), 0.0);
        for (int i = 0; i < 3; ++i) {
            if (g) g[i] = 2 * s * plane[3 + i];
            if (H)
                for (int j = 0; j < 3; ++j)
                    H[3 * i + j] = 2 * plane[3 + i] * plane[3 + j];
        }
        return s * s;
    }
    case IPCC_CONTACT_PS: {
        // d = max(phi, 0)^2 with phi the exact signed distance (shape.c):
        // grad = 2 phi n, H from the curvature at the closest point. Inside
        // or on the surface: 0 (infeasible), not mirrored.
        const ipcc_shape *shape = obstacle;
        double n[3], phi = fmax(ipcc_shape_distance(shape, a, NULL, n), 0.0);
        if (g)
            for (int i = 0; i < 3; ++i)
                g[i] = 2 * phi * n[i];
        if (H) ipcc_shape_distance2_hessian(shape, a, H);
        return phi * phi;
    }
    case IPCC_CONTACT_ST:
    case IPCC_CONTACT_SE: return sphere_distance(kind, x, obstacle, g, H);
    case IPCC_CONTACT_EP: { // the segments' distance (parallel_edges.c)
        ipcc_edge_edge_distance_type t = ipcc_edge_edge_distance_type_of(a, b, d2, d3);
        if (g) ipcc_edge_edge_distance_gradient(a, b, d2, d3, t, g);
        if (H) ipcc_edge_edge_distance_hessian(a, b, d2, d3, t, H);
        return ipcc_edge_edge_distance(a, b, d2, d3, t);
    }
    case IPCC_CONTACT_QE:
    case IPCC_CONTACT_QT: break; // a sample's point needs its pair (sample_barrier)
    }
    return INFINITY;
}

// PSD projection through translation invariance. The distance of two
// bodies' features (PP, PE, PT, EE) does not change when all their k
// vertices move by the same t, so the barrier's Hessian H (3k x 3k) maps
// every such motion to 0 and is H = Q M Q^T with Q = C x I3, C (k x k-1)
// an orthonormal basis of the vectors orthogonal to (1, ..., 1) (Helmert's)
// and M = Q^T H Q. Projecting M, 3(k - 1) square, projects H exactly: the
// PSD part of H is Q proj(M) Q^T, since the translations stay in its null
// space. It is the same projection as ipcc_project_psd on H (to rounding),
// with a 9 x 9 eigenproblem for a 12 x 12 block, 6 x 6 for 9 x 9 and 3 x 3
// for 6 x 6 (bench/barrier_projection.c measures the saving).
static const double HELMERT[4][3] = {
    {0.70710678118654752, 0.40824829046386302, 0.28867513459481288},
    {-0.70710678118654752, 0.40824829046386302, 0.28867513459481288},
    {0, -0.81649658092772603, 0.28867513459481288},
    {0, 0, -0.86602540378443865},
};

void ipcc_project_psd_translation_free(int k, double *H) {
    IPCC_ASSERT(k >= 2 && k <= 4);
    const int n = 3 * k, m = 3 * (k - 1);
    // C: the first k - 1 Helmert columns, whose entries beyond row a + 1
    // are 0, so cut to k rows they stay orthonormal and orthogonal to
    // (1, ..., 1).
    const double(*C)[3] = HELMERT;
    double T[108], M[81]; // T = H Q (n x m), M = Q^T H Q (m x m), row-major
    for (int r = 0; r < n; ++r)
        for (int a = 0; a < k - 1; ++a)
            for (int j = 0; j < 3; ++j) {
                double v = 0;
                for (int q = 0; q < k; ++q)
                    v += H[n * r + 3 * q + j] * C[q][a];
                T[m * r + 3 * a + j] = v;
            }
    for (int a = 0; a < k - 1; ++a)
        for (int i = 0; i < 3; ++i)
            for (int c = 0; c < m; ++c) {
                double v = 0;
                for (int p = 0; p < k; ++p)
                    v += C[p][a] * T[m * (3 * p + i) + c];
                M[m * (3 * a + i) + c] = v;
            }
    for (int r = 0; r < m; ++r) // symmetric to the bit, as ipcc_project_psd expects
        for (int c = 0; c < r; ++c)
            M[m * r + c] = M[m * c + r] = 0.5 * (M[m * r + c] + M[m * c + r]);
    ipcc_project_psd(m, M);
    // H = Q M Q^T
    for (int r = 0; r < m; ++r)
        for (int q = 0; q < k; ++q)
            for (int j = 0; j < 3; ++j) {
                double v = 0;
                for (int b = 0; b < k - 1; ++b)
                    v += M[m * r + 3 * b + j] * C[q][b];
                T[n * r + 3 * q + j] = v; // T = M Q^T (m x n)
            }
    for (int p = 0; p < k; ++p)
        for (int i = 0; i < 3; ++i)
            for (int c = 0; c < n; ++c) {
                double v = 0;
                for (int a = 0; a < k - 1; ++a)
                    v += C[p][a] * T[n * (3 * a + i) + c];
                H[n * (3 * p + i) + c] = v;
            }
}

// The PSD projection of the barrier Hessian of a constraint of this kind.
static void project_barrier(ipcc_contact_kind kind, double *H) {
    if (ipcc_contact_kind_mesh(kind))
        ipcc_project_psd_translation_free(ipcc_contact_kind_vertices(kind), H);
    else
        ipcc_project_psd(3 * ipcc_contact_kind_vertices(kind), H);
}

double ipcc_contact_barrier(ipcc_contact_kind kind, const double *x, const void *obstacle, double dhat2,
                            double *g, double *H, bool project) {
    int n = 3 * ipcc_contact_kind_vertices(kind);
    if (kind == IPCC_CONTACT_EP) { // not b of one distance (parallel_edges.c)
        double e = ipcc_parallel_edges_barrier(x, dhat2, g, H);
        if (H && project && isfinite(e)) project_barrier(kind, H);
        return e;
    }
    double gd[12], Hd[144];
    double d = ipcc_contact_distance(kind, x, obstacle, g ? gd : NULL, H ? Hd : NULL);
    double b = ipcc_barrier(d, dhat2);
    if (!isfinite(b) || !g) return b;
    double b1 = ipcc_barrier_first_derivative(d, dhat2);
    // grad b = b' grad d
    for (int i = 0; i < n; ++i)
        g[i] = b1 * gd[i];
    if (!H) return b;
    // H b = b'' gd gd^T + b' Hd
    double b2 = ipcc_barrier_second_derivative(d, dhat2);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            H[n * i + j] = b2 * gd[i] * gd[j] + b1 * Hd[n * i + j];
    if (project) project_barrier(kind, H);
    return b;
}

void ipcc_contact_pair_positions(const ipcc_contact_pair *p, const double *xc, double x[12]) {
    ipcc_local_gather(xc, ipcc_contact_kind_vertices(p->kind), p->v, x);
}

const void *ipcc_contact_pair_obstacle(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p) {
    if (p->kind == IPCC_CONTACT_PH) return o->planes + 6 * p->v[1];
    if (ipcc_contact_kind_on_shape(p->kind)) return &o->pose[p->v[ipcc_contact_kind_vertices(p->kind)]];
    return NULL;
}

// QE and QT: the sample q = sum_a w_a x_a (contact_samples.c) is a point
// against the shape, D = phi(q)^2 as PS, so with G, H3 the point's barrier
// gradient and Hessian,
//   grad_a = w_a G,   H_ab = w_a w_b H3,
// a Kronecker product (w w^T) x H3 whose PSD projection is (w w^T) x
// proj(H3), w w^T being rank one and PSD: H3 is projected, not the 6x6 or 9x9.
static double sample_barrier(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p, const double *x,
                             double dhat2, bool barrier, double *g, double *H) {
    int nv = ipcc_contact_kind_vertices(p->kind);
    double w[3], q[3], g3[3], H3[9];
    ipcc_sample_weights(nv, p->sample, w);
    ipcc_sample_point(nv, x, w, q);
    const void *shape = ipcc_contact_pair_obstacle(o, p);
    if (!barrier) return ipcc_contact_distance(IPCC_CONTACT_PS, q, shape, NULL, NULL);
    double e = ipcc_contact_barrier(IPCC_CONTACT_PS, q, shape, dhat2, g ? g3 : NULL, H ? H3 : NULL, false);
    if (!isfinite(e) || !g) return p->mult * e;
    for (int k = 0; k < 3; ++k)
        g3[k] *= p->mult;
    for (int a = 0; a < nv; ++a)
        for (int k = 0; k < 3; ++k)
            g[3 * a + k] = w[a] * g3[k];
    if (!H) return p->mult * e;
    for (int k = 0; k < 9; ++k)
        H3[k] *= p->mult;
    ipcc_project_psd(3, H3);
    int n = 3 * nv;
    for (int a = 0; a < nv; ++a)
        for (int b = 0; b < nv; ++b)
            for (int k = 0; k < 3; ++k)
                for (int l = 0; l < 3; ++l)
                    H[n * (3 * a + k) + 3 * b + l] = w[a] * w[b] * H3[3 * k + l];
    return p->mult * e;
}

double ipcc_contact_pair_distance(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p,
                                  const double *xc) {
    double x[12];
    ipcc_contact_pair_positions(p, xc, x);
    if (p->kind == IPCC_CONTACT_QE || p->kind == IPCC_CONTACT_QT)
        return sample_barrier(o, p, x, 0, false, NULL, NULL);
    return ipcc_contact_distance(p->kind, x, ipcc_contact_pair_obstacle(o, p), NULL, NULL);
}

double ipcc_contact_pair_barrier(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p,
                                 const double *xc, double dhat2, double *g, double *H) {
    double x[12];
    ipcc_contact_pair_positions(p, xc, x);
    if (p->kind == IPCC_CONTACT_QE || p->kind == IPCC_CONTACT_QT)
        return sample_barrier(o, p, x, dhat2, true, g, H);
    // The key stands for mult terms (contact_multiplicity.c): scale, then project.
    double e = ipcc_contact_barrier(p->kind, x, ipcc_contact_pair_obstacle(o, p), dhat2, g, H, false);
    int n = 3 * ipcc_contact_kind_vertices(p->kind);
    for (int i = 0; p->mult != 1 && g && i < n; ++i)
        g[i] *= p->mult;
    for (int i = 0; p->mult != 1 && H && i < n * n; ++i)
        H[i] *= p->mult;
    if (H) project_barrier(p->kind, H);
    return p->mult * e;
}

void ipcc_barrier_potential_free(ipcc_barrier_potential *bp) {
    IPCC_FREE(bp->pair_energy);
    IPCC_FREE(bp->pair_grad);
    IPCC_FREE(bp->pair_slot);
    bp->cap = 0;
    ipcc_negative_keys_free(&bp->negative);
}

// Room for the slots of np pairs; 0, or -1 when out of memory.
static int reserve_slots(ipcc_barrier_potential *bp, int np) {
    if (np + 1 <= bp->cap) return 0;
    int cap = ipcc_grow_capacity(bp->cap, 64, np + 1);
    double *e = realloc(bp->pair_energy, sizeof(double) * (size_t)cap);
    if (!e) return -1;
    bp->pair_energy = e;
    double *g = realloc(bp->pair_grad, sizeof(double) * 12 * (size_t)cap);
    if (!g) return -1;
    bp->pair_grad = g;
    int *sl = realloc(bp->pair_slot, sizeof(int) * (size_t)(cap + 1));
    if (!sl) return -1;
    bp->pair_slot = sl;
    bp->cap = cap;
    return 0;
}

double ipcc_barrier_potential_energy(ipcc_barrier_potential *bp, const ipcc_constraint_set *s,
                                     const ipcc_contact_obstacles *o, const double *xc, double dhat2) {
    int np = s->np;
    if (reserve_slots(bp, np) != 0) return NAN;
    double *pe = bp->pair_energy;
    static ipcc_region region_energy;
    ipcc_region_run run = ipcc_region_begin(&region_energy, np);
#pragma omp parallel for num_threads(run.threads) schedule(guided, 64)
    for (int k = 0; k < np; ++k)
        pe[k] = ipcc_contact_pair_barrier(o, &s->pairs[k], xc, dhat2, NULL, NULL);
    ipcc_region_end(&run);
    double e = 0;
    for (int k = 0; k < np; ++k)
        e += pe[k];
    return isfinite(e) ? e : INFINITY;
}

void ipcc_barrier_potential_gradient(const ipcc_constraint_set *s, const ipcc_collision_mesh *m,
                                     const ipcc_contact_obstacles *o, const double *xc, double dhat2,
                                     double *g) {
    for (int k = 0; k < s->np; ++k) {
        const ipcc_contact_pair *p = &s->pairs[k];
        double gk[12];
        int vertices[4], nv = ipcc_contact_pair_world_vertices(m, p, vertices);
        ipcc_contact_pair_barrier(o, p, xc, dhat2, gk, NULL);
        ipcc_local_scatter_add(g, nv, vertices, 1.0, gk);
    }
}

double ipcc_barrier_potential_min_distance2(const ipcc_constraint_set *s, const ipcc_contact_obstacles *o,
                                            const double *xc) {
    double d = INFINITY;
    for (int k = 0; k < s->np; ++k)
        d = fmin(d, ipcc_contact_pair_distance(o, &s->pairs[k], xc));
    return d;
}

// A PS, ST or SE pair's part of the lift: the distance depends on the body
// relative to the shape, so the shape's remaining motion enters as minus
// its material point's displacement at the closest point y, to first order
// ds (vh + wh x (y - c)) = ds h v(y), ds the clock's remaining progress.
static void shape_lift(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p, const double *xc,
                       const ipcc_step_context *sc, const double *lift, double *le, int nv) {
    if (!(sc->clock_length > 0)) return;
    int i = p->v[nv]; // PS: [v, shape]; ST, SE: a sphere, whose distance only its centre's motion changes
    const ipcc_shape *pose = &o->pose[i];
    const ipcc_shape_motion *motion = &sc->shapes[i];
    double ds = lift[3 * sc->num_vertices] / sc->clock_length, y[3], v[3];
    if (p->kind == IPCC_CONTACT_PS) {
        ipcc_shape_distance(pose, xc + 3 * p->v[0], y, NULL);
    } else if (p->kind == IPCC_CONTACT_QE || p->kind == IPCC_CONTACT_QT) { // at the sample's closest point
        double w[3], q[3];
        ipcc_sample_at(nv, p->v, xc, p->sample, w, q);
        ipcc_shape_distance(pose, q, y, NULL);
    } else {
        memcpy(y, pose->center, sizeof y);
    }
    ipcc_shape_point_velocity(motion->velocity, motion->angular_velocity, pose->center, y, v);
    for (int a = 0; a < nv; ++a)
        for (int k = 0; k < 3; ++k)
            le[3 * a + k] -= ds * sc->time_step * v[k];
}

// Adds share times key q's (unprojected) barrier Hessian into H, the block of
// key p, whose vertices contain q's (negative_keys.c).
static void fold_hessian(const ipcc_contact_obstacles *o, const ipcc_contact_pair *p,
                         const ipcc_contact_pair *q, double share, const double *xc, double dhat2,
                         double *H) {
    int np = ipcc_contact_kind_vertices(p->kind), nq = ipcc_contact_kind_vertices(q->kind), at[4] = {0};
    for (int a = 0; a < nq; ++a)
        for (int b = 0; b < np; ++b)
            if (p->v[b] == q->v[a]) at[a] = b;
    double x[12], g[12], Hq[144];
    ipcc_contact_pair_positions(q, xc, x);
    if (!isfinite(ipcc_contact_barrier(q->kind, x, ipcc_contact_pair_obstacle(o, q), dhat2, g, Hq, false)))
        return;
    int n = 3 * np, m = 3 * nq;
    for (int a = 0; a < nq; ++a)
        for (int b = 0; b < nq; ++b)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    H[n * (3 * at[a] + i) + 3 * at[b] + j] += share * Hq[m * (3 * a + i) + 3 * b + j];
}

// Key k's barrier (kappa = 1) times its multiplicity, with g and its
// projected Hessian block H, the negative keys' Hessians folded in
// (negative_keys.c): a folded key's own block is 0, a key that takes folds
// projects its block minus theirs. Hx (NULL: not wanted) gets the key's
// exact block, its multiplicity times its barrier's Hessian, unprojected
// and unfolded (their sum over the keys is the contact energy's Hessian);
// for a sample of a curved shape, its projected block.
static double pair_block(const ipcc_negative_keys *nk, const ipcc_constraint_set *s,
                         const ipcc_contact_obstacles *o, int k, const double *xc, double dhat2, double *g,
                         double *H, double *Hx) {
    const ipcc_contact_pair *p = &s->pairs[k];
    int n = 3 * ipcc_contact_kind_vertices(p->kind);
    bool folded = nk->any && nk->partners[k] > 0,
         takes = nk->any && nk->fold_start[k + 1] > nk->fold_start[k];
    bool sample = p->kind == IPCC_CONTACT_QE || p->kind == IPCC_CONTACT_QT;
    if (sample || (!folded && !takes && !Hx)) {
        double e = ipcc_contact_pair_barrier(o, p, xc, dhat2, g, H);
        if (Hx) memcpy(Hx, H, sizeof(double) * (size_t)(n * n));
        return e;
    }
    if (folded && !Hx) {
        memset(H, 0, sizeof(double) * (size_t)(n * n));
        return ipcc_contact_pair_barrier(o, p, xc, dhat2, g, NULL);
    }
    double x[12];
    ipcc_contact_pair_positions(p, xc, x);
    double e = ipcc_contact_barrier(p->kind, x, ipcc_contact_pair_obstacle(o, p), dhat2, g, H, false);
    if (!isfinite(e)) return e;
    for (int i = 0; p->mult != 1 && i < n; ++i)
        g[i] *= p->mult;
    for (int i = 0; p->mult != 1 && i < n * n; ++i)
        H[i] *= p->mult;
    if (Hx) memcpy(Hx, H, sizeof(double) * (size_t)(n * n));
    if (folded) {
        memset(H, 0, sizeof(double) * (size_t)(n * n));
        return p->mult * e;
    }
    for (int t = takes ? nk->fold_start[k] : 0; takes && t < nk->fold_start[k + 1]; ++t)
        fold_hessian(o, p, &s->pairs[nk->fold_key[t]], nk->fold_mult[t], xc, dhat2, H);
    project_barrier(p->kind, H);
    return p->mult * e;
}

ipcc_status ipcc_barrier_potential_assemble(ipcc_barrier_potential *bp, const ipcc_constraint_set *s,
                                            const ipcc_collision_mesh *m, const ipcc_contact_obstacles *o,
                                            const double *xc, double dhat2, double kappa,
                                            const ipcc_step_context *sc, const double *lift, double *g,
                                            ipcc_triplets *T, double *energy) {
    int np = s->np;
    if (reserve_slots(bp, np) != 0) return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory");
    // Triplet offsets: pair k owns the (a, b) dof pairs with both unknown and dofs[b] >= dofs[a].
    bp->pair_slot[0] = 0;
    for (int k = 0; k < np; ++k) {
        const ipcc_contact_pair *p = &s->pairs[k];
        int vertices[4], dofs[12], nv = ipcc_contact_pair_world_vertices(m, p, vertices);
        ipcc_local_dofs(sc->dof_map, nv, vertices, dofs);
        bp->pair_slot[k + 1] = bp->pair_slot[k] + ipcc_block_triplet_count(3 * nv, dofs);
    }
    if (ipcc_triplets_reserve(T, T->count + bp->pair_slot[np]) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory for %d Hessian entries",
                         bp->pair_slot[np]);
    ipcc_status sn = ipcc_negative_keys_build(&bp->negative, s, m->nc);
    if (sn != IPCC_OK) return sn;
    int base = T->count;
    // The exact blocks too, when asked and no prescribed motion is pending
    // (whose g + H lift takes the projected blocks).
    bool exact = T->want_exact && !lift;
    if (exact && ipcc_triplets_reserve_exact(T, base, base + bp->pair_slot[np]) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory for %d Hessian entries",
                         bp->pair_slot[np]);
    int *rows = T->row + base, *cols = T->col + base;
    double *vals = T->val + base, *pe = bp->pair_energy, *pg = bp->pair_grad;
    double *exact_vals = exact ? T->exact + (base - T->exact_begin) : NULL;
    const int *slot = bp->pair_slot;
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, np);
#pragma omp parallel for num_threads(region1_run.threads) schedule(dynamic, 64)
    for (int k = 0; k < np; ++k) {
        const ipcc_contact_pair *p = &s->pairs[k];
        double H[144], Hx[144], *gk = pg + 12 * k;
        int vertices[4], dofs[12], nv = ipcc_contact_pair_world_vertices(m, p, vertices), n = 3 * nv;
        ipcc_local_dofs(sc->dof_map, nv, vertices, dofs);
        pe[k] = pair_block(&bp->negative, s, o, k, xc, dhat2, gk, H, exact_vals ? Hx : NULL);
        if (!isfinite(pe[k])) continue;
        if (lift) {
            double le[12];
            ipcc_local_gather(lift, nv, vertices, le);
            if (ipcc_contact_kind_on_shape(p->kind)) shape_lift(o, p, xc, sc, lift, le, nv);
            ipcc_block_add_product(n, H, le, gk);
        }
        ipcc_block_triplets_write(n, dofs, H, kappa, rows + slot[k], cols + slot[k], vals + slot[k]);
        if (exact_vals) // the same rows and columns again
            ipcc_block_triplets_write(n, dofs, Hx, kappa, rows + slot[k], cols + slot[k],
                                      exact_vals + slot[k]);
    }
    ipcc_region_end(&region1_run);
    T->count = base + slot[np];
    double e = 0;
    for (int k = 0; k < np; ++k)
        e += pe[k];
    if (!isfinite(e)) {
        *energy = INFINITY;
        return IPCC_OK;
    }
    for (int k = 0; k < np; ++k) {
        int vertices[4], nv = ipcc_contact_pair_world_vertices(m, &s->pairs[k], vertices);
        ipcc_local_scatter_add(g, nv, vertices, kappa, pg + 12 * k);
    }
    *energy = kappa * e;
    return T->failed ? ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: Hessian triplets: out of memory") : IPCC_OK;
}
