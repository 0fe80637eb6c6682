/// The constraint set of barrier contact: the active pairs of a state keyed
/// by their closest features (contact_pair.h), with the multiplicity of
/// each key (constraint_set.c, which counts them with
/// contact_multiplicity.h), and the obstacles that are no mesh. Private to
/// the library.
#ifndef IPCC_CONSTRAINT_SET_H
#define IPCC_CONSTRAINT_SET_H

#include <stdint.h>

#include "broad_phase/broad_phase.h"
#include "collision/collision_mesh.h"
#include "collision/contact_pair.h"
#include "shape/shape.h"

/// The obstacles that are no mesh: half-spaces and analytic shapes, the
/// shapes at the pose of the state the set is built at.
typedef struct ipcc_contact_obstacles {
    int num_planes;
    const double *planes; ///< 6 per half-space: point, unit normal
    int num_shapes;
    const ipcc_shape *pose; ///< per shape, at the state in use
    const double *radius;   ///< per shape: its bounding radius
    int num_spheres;        ///< shapes that are spheres (ST / SE constraints against bodies' faces)
    /// Per shape, the subdivisions of every collision edge (ne each) and
    /// face (nf each) for its sample points (QE / QT constraints,
    /// contact_samples.h), fixed at the rest state; 1 or less: none. NULL
    /// when no shape has samples.
    const unsigned char *edge_divisions, *face_divisions;
} ipcc_contact_obstacles;

/// Signed distance of x to a half-space's plane (point, unit normal).
static inline double ipcc_contact_plane_signed(const double *plane, const double *x) {
    return (x[0] - plane[0]) * plane[3] + (x[1] - plane[1]) * plane[4] + (x[2] - plane[2]) * plane[5];
}

/// The set and its grow-only buffers.
typedef struct ipcc_constraint_set {
    int np;                   ///< constraints
    ipcc_contact_pair *pairs; ///< sorted by key
    int cap_pairs;
    ipcc_contact_pair *scratch; ///< one per candidate, then the extra keys
    int cap_scratch;
    unsigned char *vf_extra; ///< per vertex-face candidate: its edges' (bits 0-2) and vertices' (3-5) keys
    int cap_vf_extra;
    unsigned char *ee_extra; ///< per edge-edge candidate: vertex-edge (bits 0-3) and vertex-vertex (4-7) keys
    int cap_ee_extra;
    unsigned char *sphere_extra; ///< per sphere and face: its edges' sphere-edge keys (bits 0-2)
    int cap_sphere_extra;
    uint64_t *face_samples; ///< per shape and face: its samples within d̂ (contact_samples.h)
    int cap_face_samples;
    uint16_t *edge_samples; ///< per shape and edge: likewise
    int cap_edge_samples;
} ipcc_constraint_set;

/// The constraint set at collision positions xc (3 nc) from the broad
/// phase's vertex-face and edge-edge candidates, the half-spaces and the
/// shapes: every pair within d̂, keyed, sorted, deduplicated, with its
/// multiplicity (keys of multiplicity 0 dropped). 0, or -1 when out of memory.
int ipcc_constraint_set_build(ipcc_constraint_set *s, const ipcc_collision_mesh *m,
                              const ipcc_contact_obstacles *o, const ipcc_candidates *cand, const double *xc,
                              double dhat);
void ipcc_constraint_set_free(ipcc_constraint_set *s);

#endif
