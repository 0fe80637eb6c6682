/// Sample points of body edges and faces against the curved analytic
/// shapes (contact_samples.c): their subdivisions, fixed at the rest state,
/// their barycentric weights, and which of them are within d̂ of a shape at
/// a state. Private to the library.
#ifndef IPCC_CONTACT_SAMPLES_H
#define IPCC_CONTACT_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>

#include "shape/shape.h"

/// Most subdivisions of an edge or face: a face's interior samples fit a
/// 64-bit mask ((n - 1)(n - 2) / 2 <= 55), an edge's a 16-bit one.
#define IPCC_SAMPLE_MAX_DIVISIONS 12

/// Sag budget: samples are spaced so that a surface of shape i's least
/// radius of curvature rho lies at most this fraction of d̂ between them.
#define IPCC_SAMPLE_SAG 0.1

/// Whether body edges and faces carry sample points against shapes of this
/// kind: the curved ones without an exact primitive barrier (cylinder,
/// ellipsoid, torus, height field).
static inline bool ipcc_shape_sampled(ipcc_shape_kind kind) {
    return kind == IPCC_SHAPE_CYLINDER || kind == IPCC_SHAPE_ELLIPSOID || kind == IPCC_SHAPE_TORUS ||
           kind == IPCC_SHAPE_HEIGHT_FIELD;
}

/// Whether the CCD also keeps whole body faces within the depth budget of
/// shapes of this kind (ipcc_contact_sample_depth): the sampled kinds with
/// an exact least distance over a face (shape_primitive.c), all but the
/// height field, whose faces are kept out at their vertices and samples.
static inline bool ipcc_shape_bounds_faces(ipcc_shape_kind kind) {
    return kind == IPCC_SHAPE_CYLINDER || kind == IPCC_SHAPE_ELLIPSOID || kind == IPCC_SHAPE_TORUS;
}

/// Depth budget: the CCD keeps every point of a body face or edge out of
/// the shape inset by this fraction of d̂ (ipcc_shape_inset), so no point
/// of a body surface goes deeper than 0.5 d̂ into a sampled shape; samples
/// and vertices stay outside it. Five times the sag budget: a face meets
/// it only when stretched to sqrt(5) = 2.2 times its rest size, or coarser
/// than IPCC_SAMPLE_MAX_DIVISIONS allows.
#define IPCC_SAMPLE_DEPTH 0.5

/// The inset depth of shape s against d̂: IPCC_SAMPLE_DEPTH d̂, and at most
/// a quarter of its least size; 0 for the kinds ipcc_shape_bounds_faces
/// leaves out.
double ipcc_contact_sample_depth(const ipcc_shape *s, double dhat);

/// Whether a shape of this kind with the face_samples setting (ipcc_shape_def:
/// -1 the kind's default, 0 off, 1 on) has samples: by default the kinds
/// whose faces the CCD bounds (a height field's samples cost more than its
/// vertices' sag, which a warning reports, README Limits).
static inline bool ipcc_shape_face_samples_on(ipcc_shape_kind kind, int setting) {
    return ipcc_shape_sampled(kind) && (setting == 1 || (setting == -1 && ipcc_shape_bounds_faces(kind)));
}

/// Spacing of the sample points against shape s, sqrt(6 rho 0.1 d̂) (a
/// triangle of that edge has at most 0.1 d̂ of sag over a sphere of radius
/// rho: its circumradius^2 / (2 rho)); 0 for the kinds without samples
/// (sphere and box are exact against whole triangles, a plane is flat).
double ipcc_contact_sample_spacing(const ipcc_shape *s, double dhat);

/// Subdivisions of a primitive whose longest edge at rest is `length`
/// against samples `spacing` apart: ceil(length / spacing), from 1 (no
/// samples) to IPCC_SAMPLE_MAX_DIVISIONS; 1 when spacing is 0.
int ipcc_contact_sample_divisions(double length, double spacing);

/// Code of sample (i, j) of a primitive subdivided n times: an edge's
/// sample i in 1 .. n - 1 (j = 0) at weights ((n - i) / n, i / n), a face's
/// interior sample i, j >= 1, i + j <= n - 1 at weights ((n - i - j) / n, i / n, j / n).
static inline int ipcc_sample_code(int n, int i, int j) { return (n << 16) | (i << 8) | j; }

/// Barycentric weights of the sample `code` of an edge (nv = 2) or face
/// (nv = 3) into w (nv).
void ipcc_sample_weights(int nv, int code, double w[3]);

/// The point sum_a w_a x[a] of nv vertices (3 nv) at weights w.
void ipcc_sample_point(int nv, const double *x, const double *w, double q[3]);

/// The sample `code` of the primitive of nv vertices v[] (indices into the
/// positions x, 3 per vertex): its weights into w and its point into q, the
/// same bits as ipcc_sample_weights then ipcc_sample_point.
void ipcc_sample_at(int nv, const int *v, const double *x, int code, double w[3], double q[3]);

/// Which interior samples of the face (x0, x1, x2) subdivided n times lie
/// within d̂ of shape s (or inside it), whose bounding radius is R: bit k for
/// the k-th sample in the order i = 1 .., j = 1 .. n - 1 - i.
uint64_t ipcc_face_samples_near(const ipcc_shape *s, double R, int n, const double *x0, const double *x1,
                                const double *x2, double dhat);

/// The same for the interior samples 1 .. n - 1 of the edge (x0, x1).
uint16_t ipcc_edge_samples_near(const ipcc_shape *s, double R, int n, const double *x0, const double *x1,
                                double dhat);

#endif
