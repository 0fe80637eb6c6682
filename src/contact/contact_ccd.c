// The CCD step bound of barrier contact (IPC, Li et al. 2020, Sec. 4.4):
// the largest fraction of a Newton direction that keeps every contact
// distance positive, so no accepted state is ever intersecting.
//
// Why an accepted step is intersection-free. The state at the start of a
// step is intersection-free with every distance > 0 (checked at t = 0 by
// contact_initial_check.c, then by induction). ipcc_contact_max_step takes
// the Newton direction p already limited to alpha_max by the inversion
// filter, builds the swept candidates of the motion x -> x + alpha_max p (a
// superset of every pair that can come within d̂ at any time of it: boxes
// over both endpoints, and linear motion stays inside them), and runs
// conservative CCD (ccd.c) on each: t_k <= the first time pair k touches.
// With t = min_k t_k, every point x + a p, a < t alpha_max, has every
// distance > 0, so no two surface triangles cross there (a crossing needs
// an edge-face pair at zero distance first, because the motion is
// continuous and starts separated). The step returned is 0.8 t alpha_max
// (IPC's safety factor), strictly inside; the line search only shrinks it,
// and the energy is +inf at any zero distance, so the accepted state is
// intersection-free with positive distances, which is the induction
// hypothesis for the next iterate.
//
// Half-spaces have an exact linear time of impact (plane_toi). Analytic
// shapes: conservative advancement in the shape's moving frame for the
// vertices (shape_ccd.c); for a sphere also point-triangle CCD of its
// centre against every body triangle with the radius as the minimum
// separation; for a shape with sample points (contact_samples.c) the
// samples as points, and for a cylinder, ellipsoid or torus every nearby
// body triangle too, on its least distance to the shape inset by the depth
// budget (shape_ccd.c, shape_primitive.c) (shapes_toi).
//
// The swept candidates are kept (cand_valid): they serve the line search's
// energies and the next evaluation (contact.c). Out of memory fails with
// IPCC_ERR_NO_MEMORY, never a zero step.
#include "contact/contact_ccd.h"
#include "base/parallel.h"

#include <math.h>

#include "geometry/ccd.h"
#include "contact/contact_state.h"
#include "collision/contact_samples.h"
#include "shape/shape_ccd.h"
#include "base/core.h"
#include "base/vec3.h"

// CCD safety factor: the step stops at 0.8 of the conservative time of
// impact (IPC's value).
#define CCD_SAFETY 0.8

// Earliest conservative time of impact of vertex v against half-space h for
// the motion xc -> xc1 (1 if it does not reach the plane).
static double plane_toi(const ipcc_contact *c, int h, int v) {
    double s0 = ipcc_contact_plane_signed(c->planes + 6 * h, c->xc + 3 * v),
           s1 = ipcc_contact_plane_signed(c->planes + 6 * h, c->xc1 + 3 * v);
    if (!(s1 <= 0)) return 1.0;
    if (!(s0 > 0)) return 0.0;
    return s0 / (s0 - s1); // linear in t; the safety factor dwarfs rounding
}

// Earliest conservative time of impact of the free collision vertices
// against shape i over xc -> xc1, the shape going from progress s0 to s1
// (shape_ccd.c); vertices whose bounding-sphere gap exceeds their
// motion's reach are skipped.
static double shapes_toi(const ipcc_contact *c, const ipcc_step_context *sc, double s0, double s1) {
    const ipcc_collision_mesh *mesh = &c->mesh;
    double t = 1.0;
    int nc = mesh->nc;
    for (int i = 0; i < c->obstacles.num_shapes; ++i) {
        const ipcc_shape_motion *motion = &sc->shapes[i];
        const ipcc_shape *start = &motion->start;
        const double *vh = motion->vh, *wh = motion->wh;
        ipcc_shape a; // the centre moves by at most |s1 - s0| |vh| (a rotation does not move it)
        ipcc_shape_moved(start, vh, wh, s0, &a);
        double centre_motion = fabs(s1 - s0) * norm3(vh), ti = 1.0;
        static ipcc_region region1;
        ipcc_region_run region1_run = ipcc_region_begin(&region1, nc);
#pragma omp parallel for num_threads(region1_run.threads) schedule(dynamic, 256) reduction(min : ti)
        for (int v = 0; v < nc; ++v) {
            if (!ipcc_collision_vertex_free(mesh, v)) continue;
            const double *x0 = c->xc + 3 * v, *x1 = c->xc1 + 3 * v;
            double m[3] = {x1[0] - x0[0], x1[1] - x0[1], x1[2] - x0[2]};
            double r[3] = {x0[0] - a.center[0], x0[1] - a.center[1], x0[2] - a.center[2]};
            if (norm3(r) - c->shape_radius[i] > norm3(m) + centre_motion) continue;
            ti = fmin(ti, ipcc_shape_ccd(start, vh, wh, s0, s1, x0, x1));
        }
        ipcc_region_end(&region1_run);
        // A sampled curved shape (contact_samples.c): the sample points of
        // every face and edge near it as points, and the whole faces against
        // the shape inset by the depth budget (ipcc_shape_inset: no point of
        // them goes deeper than that; a free edge always belongs to a face
        // of a tet mesh), after a bounding-sphere cull (every point of a
        // primitive is within its longest edge of a vertex).
        if (c->shape_sampled[i]) {
            int nf = mesh->nf, ne = mesh->ne;
            const double depth = ipcc_contact_sample_depth(start, c->dhat);
            const unsigned char *fn = c->face_divisions + (size_t)i * nf,
                                *en = c->edge_divisions + (size_t)i * ne;
            static ipcc_region region2;
            ipcc_region_run region2_run = ipcc_region_begin(&region2, nf + ne);
#pragma omp parallel for num_threads(region2_run.threads) schedule(dynamic, 64) reduction(min : ti)
            for (int k = 0; k < nf + ne; ++k) {
                bool face = k < nf;
                const int *T = face ? mesh->cfaces + 3 * k : mesh->cedges + 2 * (k - nf);
                int nv = face ? 3 : 2, n = face ? fn[k] : en[k - nf];
                if (!ipcc_collision_vertex_free(mesh, T[0]) || (!face && n < 2)) continue;
                double y0[9], y1[9], gap = INFINITY, motion = 0, size = 0;
                for (int j = 0; j < nv; ++j)
                    for (int d = 0; d < 3; ++d) {
                        y0[3 * j + d] = c->xc[3 * T[j] + d];
                        y1[3 * j + d] = c->xc1[3 * T[j] + d];
                    }
                for (int j = 0; j < nv; ++j) {
                    double r[3], m[3], e[3];
                    sub3(y0 + 3 * j, a.center, r);
                    sub3(y1 + 3 * j, y0 + 3 * j, m);
                    sub3(y0 + 3 * ((j + 1) % nv), y0 + 3 * j, e);
                    gap = fmin(gap, norm3(r) - c->shape_radius[i]);
                    motion = fmax(motion, norm3(m));
                    size = fmax(size, norm3(e));
                }
                if (gap - size > motion + centre_motion) continue;
                double w[3 * IPCC_SAMPLE_MAX_DIVISIONS * IPCC_SAMPLE_MAX_DIVISIONS];
                int count = 0;
                for (int u = 1; u < n; ++u)
                    for (int v = face ? 1 : 0; face ? u + v < n : v < 1; ++v, ++count)
                        ipcc_sample_weights(nv, ipcc_sample_code(n, u, v), w + nv * count);
                ti = fmin(ti, ipcc_shape_primitive_points_ccd(start, face ? depth : 0, vh, wh, s0, s1, nv, y0,
                                                              y1, count, w));
            }
            ipcc_region_end(&region2_run);
        }
        // A sphere also against every face: its centre moves linearly (a
        // rotation does not move it), so this is point-triangle CCD with the
        // radius as the minimum separation (ccd.c), which covers the faces'
        // edges and vertices too.
        if (start->kind == IPCC_SHAPE_SPHERE) {
            ipcc_shape b;
            ipcc_shape_moved(start, vh, wh, s1, &b);
            const double radius = start->size[0];
            const double *o0 = a.center, *o1 = b.center, reach = radius + centre_motion;
            int nf = mesh->nf;
            static ipcc_region region3;
            ipcc_region_run region3_run = ipcc_region_begin(&region3, nf);
#pragma omp parallel for num_threads(region3_run.threads) schedule(dynamic, 256) reduction(min : ti)
            for (int f = 0; f < nf; ++f) {
                const int *T = mesh->cfaces + 3 * f;
                if (!ipcc_collision_vertex_free(mesh, T[0])) continue;
                bool apart = false;
                for (int k = 0; k < 3 && !apart; ++k) {
                    double lo = INFINITY, hi = -INFINITY;
                    for (int j = 0; j < 3; ++j) {
                        lo = fmin(lo, fmin(c->xc[3 * T[j] + k], c->xc1[3 * T[j] + k]));
                        hi = fmax(hi, fmax(c->xc[3 * T[j] + k], c->xc1[3 * T[j] + k]));
                    }
                    apart = lo > o0[k] + reach || hi < o0[k] - reach;
                }
                if (apart) continue;
                double tf = 1.0;
                const double *x0 = c->xc, *x1 = c->xc1;
                if (ipcc_point_triangle_ccd(o0, x0 + 3 * T[0], x0 + 3 * T[1], x0 + 3 * T[2], o1,
                                            x1 + 3 * T[0], x1 + 3 * T[1], x1 + 3 * T[2], radius, 1.0, &tf))
                    ti = fmin(ti, tf);
            }
            ipcc_region_end(&region3_run);
        }
        t = fmin(t, ti);
    }
    return t;
}

ipcc_status ipcc_contact_max_step(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                  const double *p, double alpha_max, double *alpha) {
    const ipcc_collision_mesh *mesh = &c->mesh;
    ipcc_collision_mesh_gather(mesh, x, c->xc);
    ipcc_collision_mesh_gather_moved(mesh, x, p, alpha_max, c->xc1);
    ipcc_contact_shapes_at(c, sc, x);
    // Swept candidates within d̂: the CCD pairs, and the line search's energy pairs.
    c->cand_valid = false;
    ipcc_status st = ipcc_contact_query(c, c->xc, c->xc1, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE);
    if (st != IPCC_OK) return st;
    c->cand_valid = true;
    double t_ccd0 = ipcc_now();
    const ipcc_candidates *cd = &c->cand;
    int nvf = cd->num_vf, nee = cd->num_ee, n = nvf + nee;
    if (ipcc_reserve((void **)&c->toi, &c->cap_toi, n + 1, sizeof(double)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: CCD: out of memory for %d candidates", n);
    const double *x0 = c->xc, *x1 = c->xc1;
    double *toi = c->toi;
    static ipcc_region region4;
    ipcc_region_run region4_run = ipcc_region_begin(&region4, n);
#pragma omp parallel for num_threads(region4_run.threads) schedule(dynamic, 64)
    for (int k = 0; k < n; ++k) {
        double t = 1.0;
        bool hit;
        if (k < nvf) {
            int v = cd->vf[2 * k];
            const int *f = mesh->cfaces + 3 * cd->vf[2 * k + 1];
            hit = ipcc_point_triangle_ccd(x0 + 3 * v, x0 + 3 * f[0], x0 + 3 * f[1], x0 + 3 * f[2], x1 + 3 * v,
                                          x1 + 3 * f[0], x1 + 3 * f[1], x1 + 3 * f[2], 0.0, 1.0, &t);
        } else {
            const int *ea = mesh->cedges + 2 * cd->ee[2 * (k - nvf)],
                      *eb = mesh->cedges + 2 * cd->ee[2 * (k - nvf) + 1];
            hit = ipcc_edge_edge_ccd(x0 + 3 * ea[0], x0 + 3 * ea[1], x0 + 3 * eb[0], x0 + 3 * eb[1],
                                     x1 + 3 * ea[0], x1 + 3 * ea[1], x1 + 3 * eb[0], x1 + 3 * eb[1], 0.0, 1.0,
                                     &t);
        }
        toi[k] = hit ? t : 1.0;
    }
    ipcc_region_end(&region4_run);
    double t = 1.0;
    for (int k = 0; k < n; ++k)
        t = fmin(t, toi[k]);
    for (int h = 0; h < c->obstacles.num_planes; ++h)
        for (int v = 0; v < mesh->nc; ++v)
            if (ipcc_collision_vertex_free(mesh, v)) t = fmin(t, plane_toi(c, h, v));
    if (c->obstacles.num_shapes > 0) {
        double s0 = ipcc_step_shape_progress(sc, x), s1 = s0;
        if (sc->clock_length > 0) {
            int k = 3 * sc->num_vertices;
            s1 = fmin(1.0, fmax(0.0, (x[k] + alpha_max * p[k]) / sc->clock_length));
        }
        t = fmin(t, shapes_toi(c, sc, s0, s1));
    }
    c->time_ccd += ipcc_now() - t_ccd0;
    c->ccd_cut = t < 1.0;
    *alpha = t < 1.0 ? CCD_SAFETY * t * alpha_max : alpha_max;
    return IPCC_OK;
}
