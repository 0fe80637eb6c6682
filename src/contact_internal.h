/// The barrier contact state shared by contact.c (constraint set, barrier,
/// CCD) and contact_check.c (the initial state). Private to those two files.
#ifndef IPCC_CONTACT_INTERNAL_H
#define IPCC_CONTACT_INTERNAL_H

#include "broad_phase.h"
#include "contact.h"
#include "shape.h"

typedef struct contact_pair {
    int kind;     ///< an ipcc_contact_kind, or -1 for "no constraint"
    int dtype;    ///< EE: the ipcc_edge_edge_distance_type whose distance is used
    int v[4];     ///< collision vertices; PH / PS: v[0] vertex, v[1] half-space / shape; ST / SE: the
                  ///< triangle's or edge's vertices, then the sphere's shape index
    double eps_x; ///< EE: mollifier threshold (0 = not mollified)
    int mult; ///< multiplicity: how many terms of the barrier this key stands for (contact_multiplicity.c)
} contact_pair;

/// CCD safety factor: the step stops at 0.8 of the conservative time of
/// impact (IPC's value).
#define CCD_SAFETY 0.8

struct ipcc_contact {
    // Collision mesh.
    int nc;
    int *cvert;  ///< collision vertex -> world vertex
    int *group;  ///< collision vertex -> body
    int *cedges; ///< 2 per edge, collision ids
    int *cfaces; ///< 3 per face, collision ids
    int ne, nf;
    unsigned char *self_collision, *kinematic; ///< per body
    unsigned char *point_set;                  ///< per body: an obstacle without faces and edges
    ipcc_collision_topology topo;
    int *vert_edge_start, *vert_edges; ///< CSR: each collision vertex's edges
    int *vert_face_start, *vert_faces; ///< CSR: each collision vertex's faces
    int *edge_face_start, *edge_faces; ///< CSR: each edge's faces
    unsigned char *edge_flat; ///< per edge: inside a planar region of an obstacle (no edge-edge term)
    unsigned char *vert_flat; ///< per collision vertex: inside a planar region of an obstacle (no point term)
    double *rest;             ///< 3 nc, positions at t = 0
    int nh;                   ///< half-spaces
    const double *planes;
    const ipcc_world *world; ///< the owner (its shapes' definitions and motion)
    int ns;                  ///< analytic shapes
    ipcc_shape *pose;        ///< ns: their poses at the state last gathered
    double *shape_radius;    ///< ns: bounding radii
    int nsph;                ///< shapes that are spheres (ST / SE constraints against bodies' faces)

    double dhat, dhat2, L;
    double kappa, kappa_min, kappa_max;
    bool kappa_fixed, rebalance;
    double prev_min_d2; ///< smallest squared distance at the previous evaluation of this step
    double time_ccd, time_broad_phase, time_constraint_search;

    ipcc_broad_phase *bp;
    ipcc_candidates cand;
    bool cand_valid; ///< cand covers every pair within d̂ of the next evaluated state (see below)

    // Constraint set and per-constraint slots (grow-only).
    int np, cap_pairs;
    contact_pair *pairs;
    double *pair_energy; ///< per pair
    double *pair_grad;   ///< 12 per pair
    int *pair_slot;      ///< triplet offsets (prefix sum), np + 1
    int cap_slots;
    contact_pair *scratch; ///< one per candidate, then the extra keys of the vertex-face ones
    int cap_scratch;
    unsigned char *vf_extra; ///< per vertex-face candidate: its edges' (bits 0-2) and vertices' (3-5) keys
    int cap_vf_extra;
    unsigned char *ee_extra; ///< per edge-edge candidate: vertex-edge (bits 0-3) and vertex-vertex (4-7) keys
    int cap_ee_extra;
    unsigned char *sphere_extra; ///< per sphere and face: its edges' sphere-edge keys (bits 0-2)
    int cap_sphere_extra;
    double *xc, *xc1; ///< 3 nc gathered positions
    double *gb;       ///< 3 n, barrier gradient for balancing kappa
    int cap_gb;
    double *toi; ///< per candidate
    int cap_toi;
    ipcc_contact_info *info; ///< ipcc_contact_active's output
    int cap_info;
};

/// Collision vertex v belongs to a deformable body (not a kinematic obstacle).
static inline bool ipcc_contact_vertex_free(const ipcc_contact *c, int v) {
    return !c->kinematic[c->group[v]];
}

/// Signed distance of x to a half-space's plane (point, unit normal).
static inline double ipcc_contact_plane_signed(const double *plane, const double *x) {
    return (x[0] - plane[0]) * plane[3] + (x[1] - plane[1]) * plane[4] + (x[2] - plane[2]) * plane[5];
}

/// The collision vertices' positions of x into xc (3 nc); for xc = c->xc
/// also the shapes' poses at x's clock (ipcc_contact_shapes_at).
void ipcc_contact_gather(ipcc_contact *c, const double *x, double *xc);
/// The shapes' poses at state x into c->pose.
void ipcc_contact_shapes_at(ipcc_contact *c, const double *x);
/// Broad-phase candidates into c->cand (timed).
ipcc_status ipcc_contact_query(ipcc_contact *c, const double *x0, const double *x1, double inflation,
                               int kinds);
/// The constraint set at xc from c->cand into c->pairs (timed); -1 when out of memory.
int ipcc_contact_build_pairs(ipcc_contact *c, const double *xc);
/// The vertex-edge, vertex-face and edge-face adjacency (contact_multiplicity.c); -1 when out of memory.
int ipcc_contact_build_adjacency(ipcc_contact *c);
void ipcc_contact_free_adjacency(ipcc_contact *c);
/// How many terms of the barrier key p stands for at xc (contact_multiplicity.c); 0 drops it.
int ipcc_contact_multiplicity(const ipcc_contact *c, const double *xc, const contact_pair *p);
/// Squared distance of pair p at xc.
double ipcc_contact_pair_distance(const ipcc_contact *c, const contact_pair *p, const double *xc);

/// The initial-state checks (contact_check.c): IPCC_ERR_INFEASIBLE naming
/// the bodies and primitives (or body and shape) of the first violation.
ipcc_status ipcc_contact_check_initial_state(ipcc_contact *c, const ipcc_world *w);

#endif
