// Sample points of body edges and faces against the curved shapes
// (cylinder, ellipsoid, torus; a height field when asked).
//
// The barrier against a shape acts on points: body vertices (PS
// constraints) and, here, fixed sample points of the bodies' surface edges
// and faces (QE and QT constraints, constraint_set.h). A sample is a fixed
// barycentric combination q = sum_a w_a x_a of its primitive's vertices, so
// its distance phi(q) to the shape is as smooth as a vertex's, and the
// barrier sum_samples b(phi(q)^2) is a quadrature of the surface's barrier
// integral (the continuum potential of Li et al. 2023, Convergent IPC,
// arXiv:2307.15908, Sec. 3) that never switches keys inside d̂.
//
// Why not the least distance over the whole primitive (shape_primitive.c),
// which is exact? Against a surface with a flat direction (a cylinder's
// axis, a torus' top circle) a body face lying along it touches on a
// segment, and as the face tilts the closest point jumps from one end of
// the segment to the other: the least distance has a kink there, and a
// barrier on it makes Newton alternate between the two ends (measured:
// a mat draped over a cylinder took 8448 Newton iterations in one step,
// against 1977 for the whole run on vertices; docs/analytic-obstacles.md).
// Samples feel a line contact all along it, smoothly.
//
// What holds. The line search's CCD keeps vertices and samples out of the
// shape, and whole faces out of the shape inset by the depth budget
// (IPCC_SAMPLE_DEPTH d̂; contact_ccd.c, shape_ccd.c): no point of a body
// face ever goes deeper than that into a cylinder, ellipsoid or torus. The
// barrier holds the samples off the surface; between samples `spacing`
// apart the surface can rise above them by at most its sag over a
// sub-triangle, circumradius^2 / (2 rho) = spacing^2 / (6 rho) <= 0.1 d̂
// for the spacing below, five times under the depth budget, so the inset's
// CCD stops a face only when it is stretched to 2.2 times its rest size or
// coarser than IPCC_SAMPLE_MAX_DIVISIONS allows (the coarse-body warning,
// world_shapes.c, names such bodies); there Newton converges more slowly.
// The CCD must not stop what the barrier cannot see in general: with exact
// face CCD (no inset) an impact pressing the samples closer than the sag
// stalled Newton (53 of 60 steps of examples/shape_ellipsoid.json
// unconverged). A height field has no least distance over a face, so its
// faces are kept out at their vertices and samples only.
//
// Subdivisions come from the REST lengths (collision_mesh.h), so the set of
// samples is fixed for a run and the energy is continuous: a sample enters
// or leaves the constraint set only at distance d̂, where its barrier is
// zero to second order.
#include "collision/contact_samples.h"

#include <math.h>

double ipcc_contact_sample_spacing(const ipcc_shape *s, double dhat) {
    if (!ipcc_shape_sampled(s->kind)) return 0;
    double rho = ipcc_shape_least_radius(s);
    return rho > 0 && dhat > 0 ? sqrt(6 * rho * IPCC_SAMPLE_SAG * dhat) : 0;
}

double ipcc_contact_sample_depth(const ipcc_shape *s, double dhat) {
    if (!ipcc_shape_bounds_faces(s->kind)) return 0;
    double least = s->kind == IPCC_SHAPE_ELLIPSOID  ? fmin(s->size[0], fmin(s->size[1], s->size[2]))
                   : s->kind == IPCC_SHAPE_CYLINDER ? fmin(s->size[0], s->size[1])
                                                    : s->size[1];
    return fmin(IPCC_SAMPLE_DEPTH * dhat, 0.25 * least);
}

int ipcc_contact_sample_divisions(double length, double spacing) {
    if (!(spacing > 0) || !(length > spacing)) return 1;
    double n = ceil(length / spacing);
    return n >= IPCC_SAMPLE_MAX_DIVISIONS ? IPCC_SAMPLE_MAX_DIVISIONS : (int)n;
}

void ipcc_sample_weights(int nv, int code, double w[3]) {
    int n = code >> 16, i = (code >> 8) & 0xff, j = code & 0xff;
    w[1] = (double)i / n;
    w[2] = nv == 3 ? (double)j / n : 0;
    w[0] = (double)(n - i - (nv == 3 ? j : 0)) / n;
}

void ipcc_sample_point(int nv, const double *x, const double *w, double q[3]) {
    for (int k = 0; k < 3; ++k) {
        q[k] = 0;
        for (int a = 0; a < nv; ++a)
            q[k] += w[a] * x[3 * a + k];
    }
}

void ipcc_sample_at(int nv, const int *v, const double *x, int code, double w[3], double q[3]) {
    double y[9];
    for (int a = 0; a < nv; ++a)
        for (int k = 0; k < 3; ++k)
            y[3 * a + k] = x[3 * v[a] + k];
    ipcc_sample_weights(nv, code, w);
    ipcc_sample_point(nv, y, w, q);
}

// Whether point q is within d̂ of shape s (or inside it): the bounding
// sphere first, then the bounded exact distance.
static bool near(const ipcc_shape *s, double R, const double q[3], double dhat) {
    double r =
        sqrt((q[0] - s->center[0]) * (q[0] - s->center[0]) + (q[1] - s->center[1]) * (q[1] - s->center[1]) +
             (q[2] - s->center[2]) * (q[2] - s->center[2]));
    if (r - R >= dhat) return false;
    double phi = ipcc_shape_distance_bounded(s, q, dhat);
    return phi <= 0 || phi < dhat;
}

// Whether the box of the nv points x may come within d̂ of the shape's bounding sphere.
static bool box_near(const ipcc_shape *s, double R, int nv, const double *const *x, double dhat) {
    double reach = R + dhat;
    for (int k = 0; k < 3; ++k) {
        double lo = INFINITY, hi = -INFINITY;
        for (int a = 0; a < nv; ++a) {
            lo = fmin(lo, x[a][k]);
            hi = fmax(hi, x[a][k]);
        }
        if (lo > s->center[k] + reach || hi < s->center[k] - reach) return false;
    }
    return true;
}

uint64_t ipcc_face_samples_near(const ipcc_shape *s, double R, int n, const double *x0, const double *x1,
                                const double *x2, double dhat) {
    const double *x[3] = {x0, x1, x2};
    if (n < 3 || !box_near(s, R, 3, x, dhat)) return 0;
    double y[9], w[3], q[3];
    for (int a = 0; a < 3; ++a)
        for (int d = 0; d < 3; ++d)
            y[3 * a + d] = x[a][d];
    uint64_t bits = 0;
    int k = 0;
    for (int i = 1; i < n; ++i)
        for (int j = 1; i + j < n; ++j, ++k) { // the barrier's own point (barrier_potential.c)
            ipcc_sample_weights(3, ipcc_sample_code(n, i, j), w);
            ipcc_sample_point(3, y, w, q);
            if (near(s, R, q, dhat)) bits |= (uint64_t)1 << k;
        }
    return bits;
}

uint16_t ipcc_edge_samples_near(const ipcc_shape *s, double R, int n, const double *x0, const double *x1,
                                double dhat) {
    const double *x[2] = {x0, x1};
    if (n < 2 || !box_near(s, R, 2, x, dhat)) return 0;
    double y[6] = {x0[0], x0[1], x0[2], x1[0], x1[1], x1[2]}, w[3], q[3];
    uint16_t bits = 0;
    for (int i = 1; i < n; ++i) {
        ipcc_sample_weights(2, ipcc_sample_code(n, i, 0), w);
        ipcc_sample_point(2, y, w, q);
        if (near(s, R, q, dhat)) bits |= (uint16_t)(1u << (i - 1));
    }
    return bits;
}
