// Contact reports (include/ipcc/contact_report.h): the contacts of a
// world's current state as records a user can read, and the total contact
// force on every body, half-space and shape.
//
// This is the world's view of its contacts (the public
// ipcc_world_contacts), above the contact and friction layers, which it
// reads through their interfaces. Sources. The barrier's active constraints
// come from ipcc_contact_active() (contact.c: a fresh static candidate search at x,
// the constraints within d̂, their closest-point weights and normal force
// lambda = kappa n |b'(d)| 2 sqrt(d) in potential units (n the constraint's
// multiplicity), divided here by the integrator's potential scale s to give
// newtons, as the per-vertex forces are). The friction contacts are those
// frozen at the last step's last lagging pass (friction.c);
// ipcc_friction_contact_force() gives each one's force on its first primitive
// at x. A frozen contact is matched to its constraint by (kind, vertices,
// obstacle), the key both were built from: the keys of the active constraints
// are sorted once and each frozen contact is looked up by bisection. A frozen
// contact without an active constraint (it separated beyond d̂, or its
// closest features changed, e.g. a vertex slid from a triangle onto an edge,
// which makes it another constraint) is reported after the active ones,
// inactive, with normal force 0 and its geometry measured now.
//
// Geometry. contact.c gives each constraint's closest point on its second
// primitive, unit normal and distance; the first primitive's closest point
// is its part of sum_i w_i x_i (the weights of ipcc_contact_info: the first
// primitive's sum to 1). Inactive contacts are measured here, at x, on the
// constraint's own features (the triangle's plane, the edge's line, the two
// segments, the vertex pair, the half-space's plane, the shape's exact
// surface at its current pose).
//
// Objects. One per thing of the scene: the bodies, the half-spaces, the
// shapes. A box's edges and a cylinder's rims are a segment-set body of the
// world (world_shapes.c) but part of their shape here: their contacts name
// the shape, their forces count as the shape's.
//
// Forces per object. A body's total is the sum over its vertices of the
// world's per-vertex barrier and friction forces (exact: they are what the
// step used); a shape's feature body adds its sum to its shape's. Half-spaces
// and shapes' surfaces have no vertices: each receives the opposite of the
// forces its contacts' records exert on the bodies' vertices (the barrier's
// gradient with respect to the vertex is 2 sqrt(d) b'(d) times the unit
// normal, so the record's normal force is exactly the vertex's).
//
// The report is the caller's buffer, so reading contacts allocates nothing
// in the world; the candidate search at x does not change any later step
// (contact.c builds its constraint set from candidates at each state, and
// sorts it), so writing reports keeps runs bit-identical.
#include "ipcc/contact_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/closest_point.h"
#include "contact/contact.h"
#include "collision/contact_samples.h"
#include "base/core.h"
#include "contact/friction.h"
#include "shape/shape.h"
#include "base/vec3.h"
#include "world/world.h"
#include "world/world_shapes.h"

struct ipcc_contact_report {
    ipcc_contact_record *records;
    int cap_records;
    int count;
    struct keyed *keys; ///< the active constraints' keys, sorted
    int cap_keys;
};

ipcc_status ipcc_contact_report_create(ipcc_contact_report **out) {
    IPCC_ASSERT(out);
    *out = calloc(1, sizeof(ipcc_contact_report));
    return *out ? IPCC_OK : ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating a contact report");
}

void ipcc_contact_report_destroy(ipcc_contact_report *r) {
    if (!r) return;
    free(r->records);
    free(r->keys);
    free(r);
}

static const char *const type_names[IPCC_CONTACT_TYPE_COUNT] = {
    "point-triangle",   "edge-edge",   "point-edge",     "point-point",
    "point-half-space", "point-shape", "triangle-shape", "edge-shape"};

const char *ipcc_contact_type_name(ipcc_contact_type type) {
    return (int)type >= 0 && (int)type < IPCC_CONTACT_TYPE_COUNT ? type_names[type] : "unknown";
}

static ipcc_contact_type public_type(ipcc_contact_kind kind) {
    switch (kind) {
    case IPCC_CONTACT_PP: return IPCC_CONTACT_POINT_POINT;
    case IPCC_CONTACT_PE: return IPCC_CONTACT_POINT_EDGE;
    case IPCC_CONTACT_PT: return IPCC_CONTACT_POINT_TRIANGLE;
    case IPCC_CONTACT_EE:
    case IPCC_CONTACT_EP: return IPCC_CONTACT_EDGE_EDGE;
    case IPCC_CONTACT_PH: return IPCC_CONTACT_POINT_HALF_SPACE;
    case IPCC_CONTACT_PS: return IPCC_CONTACT_POINT_SHAPE;
    case IPCC_CONTACT_ST: return IPCC_CONTACT_TRIANGLE_SHAPE;
    case IPCC_CONTACT_SE:
    case IPCC_CONTACT_QE: return IPCC_CONTACT_EDGE_SHAPE;
    case IPCC_CONTACT_QT: return IPCC_CONTACT_TRIANGLE_SHAPE;
    }
    return IPCC_CONTACT_POINT_POINT;
}

// Bodies that are objects of their own: every body but the shapes' feature
// bodies, which ipcc_world_shapes_start() adds after all others.
static int body_objects(const ipcc_world *w) {
    int nb = w->num_bodies;
    while (nb > 0 && w->bodies[nb - 1].shape >= 0)
        nb--;
    return nb;
}

int ipcc_world_num_contact_objects(const ipcc_world *w) {
    IPCC_ASSERT(w);
    return body_objects(w) + w->num_half_spaces + w->num_shapes;
}

int ipcc_world_contact_object_of_body(const ipcc_world *w, int b) {
    IPCC_ASSERT(w && b >= 0 && b < w->num_bodies);
    const int nbo = body_objects(w), shape = w->bodies[b].shape;
    IPCC_ASSERT((shape >= 0) == (b >= nbo)); // feature bodies come last
    return shape >= 0 ? nbo + w->num_half_spaces + shape : b;
}

int ipcc_world_contact_object_of_half_space(const ipcc_world *w, int h) {
    IPCC_ASSERT(w && h >= 0 && h < w->num_half_spaces);
    return body_objects(w) + h;
}

int ipcc_world_contact_object_of_shape(const ipcc_world *w, int s) {
    IPCC_ASSERT(w && s >= 0 && s < w->num_shapes);
    return body_objects(w) + w->num_half_spaces + s;
}

int ipcc_world_contact_object_name(const ipcc_world *w, int id, char *buf, size_t size) {
    IPCC_ASSERT(w && id >= 0 && id < ipcc_world_num_contact_objects(w) && (buf || size == 0));
    const int nbo = body_objects(w);
    if (id < nbo) return snprintf(buf, size, "%s", w->bodies[id].name);
    id -= nbo;
    if (id < w->num_half_spaces)
        return w->half_space_names[id] ? snprintf(buf, size, "%s", w->half_space_names[id])
                                       : snprintf(buf, size, "half-space %d", id);
    return snprintf(buf, size, "%s", w->shapes[id - w->num_half_spaces].name);
}

// The unified id of the second side of a constraint (a shape's feature body
// names its shape).
static int object_b(const ipcc_world *w, ipcc_contact_kind kind, const int *vertices, int obstacle) {
    if (kind == IPCC_CONTACT_PH) return ipcc_world_contact_object_of_half_space(w, obstacle);
    if (ipcc_contact_kind_on_shape(kind)) return ipcc_world_contact_object_of_shape(w, obstacle);
    return ipcc_world_contact_object_of_body(
        w, ipcc_world_body_of_vertex(w, vertices[ipcc_contact_kind_edge_edge(kind) ? 2 : 1]));
}

// Sort key of a constraint: kind, its vertices, obstacle.
typedef struct key {
    int kind, obstacle, nv;
    const int *vertices;
    int sample;
} key;

static int compare_keys(const key *a, const key *b) {
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    for (int i = 0; i < a->nv; ++i)
        if (a->vertices[i] != b->vertices[i]) return a->vertices[i] < b->vertices[i] ? -1 : 1;
    if (a->obstacle != b->obstacle) return a->obstacle < b->obstacle ? -1 : 1;
    if (a->sample != b->sample) return a->sample < b->sample ? -1 : 1;
    return 0;
}

static key info_key(const ipcc_contact_info *in) {
    bool obstacle = in->kind == IPCC_CONTACT_PH || ipcc_contact_kind_on_shape(in->kind);
    return (key){in->kind, obstacle ? in->obstacle : -1, ipcc_contact_kind_vertices(in->kind), in->vertices,
                 in->sample};
}

// An active constraint's key and its index.
typedef struct keyed {
    key k;
    int index;
} keyed;

static int compare_keyed(const void *a, const void *b) {
    return compare_keys(&((const keyed *)a)->k, &((const keyed *)b)->k);
}

// position, distance and normal from point_a and point_b (normal 0 if they coincide).
static void finish_geometry(ipcc_contact_record *r) {
    double d[3];
    sub3(r->point_a, r->point_b, d);
    r->distance = sqrt(dot3(d, d));
    for (int k = 0; k < 3; ++k) {
        r->position[k] = 0.5 * (r->point_a[k] + r->point_b[k]);
        r->normal[k] = r->distance > 0 ? d[k] / r->distance : 0;
    }
}

// A vertex against half-space h or shape s (the obstacle's closest point).
static void obstacle_point(const ipcc_world *w, ipcc_contact_kind kind, int obstacle, const double *p,
                           double out[3]) {
    if (kind == IPCC_CONTACT_PH) {
        const double *plane = w->half_spaces + 6 * obstacle, *n = plane + 3;
        double r[3];
        sub3(p, plane, r);
        double d = dot3(r, n);
        for (int k = 0; k < 3; ++k)
            out[k] = p[k] - d * n[k];
    } else {
        ipcc_shape_distance(&w->shape_pose[obstacle], p, out, NULL);
    }
}

// The point of the line through e0, e1 nearest p.
static void line_foot(const double *p, const double *e0, const double *e1, double out[3]) {
    double a = ipcc_point_edge_closest_point(p, e0, e1);
    for (int k = 0; k < 3; ++k)
        out[k] = e0[k] + a * (e1[k] - e0[k]);
}

// p's projection on the plane of triangle (t0, t1, t2).
static void plane_foot(const double *p, const double *t0, const double *t1, const double *t2, double out[3]) {
    double b[2];
    ipcc_point_triangle_closest_point(p, t0, t1, t2, b);
    for (int k = 0; k < 3; ++k)
        out[k] = t0[k] + b[0] * (t1[k] - t0[k]) + b[1] * (t2[k] - t0[k]);
}

// Geometry of an inactive (friction-only) contact, on its constraint's features at x.
static void measure_features(const ipcc_world *w, ipcc_contact_kind kind, const int *v, int obstacle,
                             int sample, const double *x, ipcc_contact_record *r) {
    const double *p = x + 3 * v[0];
    memcpy(r->point_a, p, sizeof r->point_a);
    switch (kind) {
    case IPCC_CONTACT_PP: memcpy(r->point_b, x + 3 * v[1], sizeof r->point_b); break;
    case IPCC_CONTACT_PE: line_foot(p, x + 3 * v[1], x + 3 * v[2], r->point_b); break;
    case IPCC_CONTACT_PT: plane_foot(p, x + 3 * v[1], x + 3 * v[2], x + 3 * v[3], r->point_b); break;
    case IPCC_CONTACT_EE:
    case IPCC_CONTACT_EP:
        ipcc_segment_segment_closest_points(p, x + 3 * v[1], x + 3 * v[2], x + 3 * v[3], r->point_a,
                                            r->point_b);
        break;
    case IPCC_CONTACT_PH:
    case IPCC_CONTACT_PS: obstacle_point(w, kind, obstacle, p, r->point_b); break;
    case IPCC_CONTACT_QE:
    case IPCC_CONTACT_QT: { // the sample, and its closest point on the shape
        double wt[3];
        ipcc_sample_at(ipcc_contact_kind_vertices(kind), v, x, sample, wt, r->point_a);
        obstacle_point(w, kind, obstacle, r->point_a, r->point_b);
        break;
    }
    case IPCC_CONTACT_ST:
    case IPCC_CONTACT_SE: { // the plane's (line's) point nearest the centre, and the sphere's towards it
        const double *o = w->shape_pose[obstacle].center;
        if (kind == IPCC_CONTACT_ST)
            plane_foot(o, x + 3 * v[0], x + 3 * v[1], x + 3 * v[2], r->point_a);
        else
            line_foot(o, x + 3 * v[0], x + 3 * v[1], r->point_a);
        double dq[3];
        sub3(r->point_a, o, dq);
        double len = sqrt(dot3(dq, dq)), radius = w->shape_pose[obstacle].size[0];
        for (int k = 0; k < 3; ++k)
            r->point_b[k] = o[k] + (len > 0 ? radius * dq[k] / len : 0);
        break;
    }
    }
    finish_geometry(r);
}

// Record of active constraint `in`: contact.c gives the second primitive's
// closest point, the normal and the distance; the first primitive's point
// is its weighted vertices (the vertex itself for PH and PS, weight 1).
static void active_record(const ipcc_world *w, const ipcc_contact_info *in, double s,
                          ipcc_contact_record *r) {
    const double *x = w->x;
    const int nv = ipcc_contact_kind_vertices(in->kind);
    const int na = ipcc_contact_kind_edge_edge(in->kind)
                       ? 2
                       : (ipcc_contact_kind_on_shape(in->kind) && in->kind != IPCC_CONTACT_PS ? nv : 1);
    memset(r, 0, sizeof *r);
    r->type = public_type(in->kind);
    r->active = true;
    for (int i = 0; i < 4; ++i)
        r->vertices[i] = i < nv ? in->vertices[i] : -1;
    r->object_a = ipcc_world_contact_object_of_body(w, in->body[0]);
    r->object_b = object_b(w, in->kind, in->vertices, in->obstacle);
    r->normal_force = in->normal_force / s;
    for (int i = 0; i < na; ++i)
        for (int k = 0; k < 3; ++k)
            r->point_a[k] += in->weights[i] * x[3 * in->vertices[i] + k];
    for (int k = 0; k < 3; ++k) {
        r->point_b[k] = in->point[k];
        r->position[k] = 0.5 * (r->point_a[k] + r->point_b[k]);
        r->normal[k] = in->normal[k];
    }
    r->distance = in->distance;
}

ipcc_status ipcc_world_contacts(const ipcc_world *w, ipcc_contact_report *rep,
                                const ipcc_contact_record **records, int *count) {
    IPCC_ASSERT(w && rep);
    rep->count = 0;
    if (records) *records = rep->records;
    if (count) *count = 0;
    if (!w->contact) return IPCC_OK;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    const ipcc_contact_info *info;
    int m = 0;
    ipcc_status st = ipcc_contact_active(w->contact, &sc, w->x, &info, &m);
    if (st != IPCC_OK) return st;
    const int nf = w->friction ? ipcc_friction_count(w->friction) : 0;
    if (ipcc_reserve((void **)&rep->records, &rep->cap_records, m + nf + 1, sizeof *rep->records) != 0 ||
        ipcc_reserve((void **)&rep->keys, &rep->cap_keys, m + 1, sizeof *rep->keys) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory listing the contacts");
    const double s = sc.potential_scale;
    for (int k = 0; k < m; ++k) {
        active_record(w, &info[k], s, &rep->records[k]);
        rep->keys[k] = (keyed){info_key(&info[k]), k};
    }
    qsort(rep->keys, (size_t)m, sizeof *rep->keys, compare_keyed);
    int n = m;
    for (int k = 0; k < nf; ++k) {
        int kind, vertices[4], obstacle, sample;
        double force[3];
        ipcc_friction_contact_force(w->friction, &sc, w->x, k, &kind, vertices, &obstacle, &sample, force);
        bool on_obstacle = kind == IPCC_CONTACT_PH || ipcc_contact_kind_on_shape(kind);
        key want = {kind, on_obstacle ? obstacle : -1, ipcc_contact_kind_vertices((ipcc_contact_kind)kind),
                    vertices, sample};
        int lo = 0, hi = m - 1, hit = -1;
        while (lo <= hi && hit < 0) {
            int mid = (lo + hi) / 2;
            int c = compare_keys(&rep->keys[mid].k, &want);
            if (c == 0)
                hit = rep->keys[mid].index;
            else if (c < 0)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        ipcc_contact_record *r = &rep->records[hit >= 0 ? hit : n];
        if (hit < 0) { // a friction contact that is no longer a barrier constraint
            memset(r, 0, sizeof *r);
            r->type = public_type((ipcc_contact_kind)kind);
            for (int i = 0; i < 4; ++i)
                r->vertices[i] = i < want.nv ? vertices[i] : -1;
            r->object_a = ipcc_world_contact_object_of_body(w, ipcc_world_body_of_vertex(w, vertices[0]));
            r->object_b = object_b(w, (ipcc_contact_kind)kind, vertices, obstacle);
            measure_features(w, (ipcc_contact_kind)kind, vertices, obstacle, sample, w->x, r);
            n++;
        }
        for (int d = 0; d < 3; ++d)
            r->friction_force[d] += force[d];
    }
    if (records) *records = rep->records;
    if (count) *count = n;
    rep->count = n;
    return IPCC_OK;
}

void ipcc_contact_report_object_forces(const ipcc_contact_report *rep, const ipcc_world *w, double *forces) {
    IPCC_ASSERT(rep && w && forces);
    const int nb = w->num_bodies, no = ipcc_world_num_contact_objects(w);
    memset(forces, 0, sizeof(double) * 3 * (size_t)no);
    const double *fc = w->contact_force, *ff = w->friction_force;
    for (int b = 0; b < nb; ++b) { // a feature body's forces go to its shape
        const ipcc_body *body = &w->bodies[b];
        double *f = forces + 3 * ipcc_world_contact_object_of_body(w, b);
        for (int i = body->first_vertex; i < body->first_vertex + body->num_vertices; ++i)
            for (int d = 0; d < 3; ++d)
                f[d] += (fc ? fc[3 * i + d] : 0) + (ff ? ff[3 * i + d] : 0);
    }
    if (w->num_half_spaces + w->num_shapes == 0) return;
    // Half-spaces and shapes (their surfaces; their features were counted as vertices above).
    for (int k = 0; k < rep->count; ++k) {
        const ipcc_contact_record *r = &rep->records[k];
        if (!(r->type == IPCC_CONTACT_POINT_HALF_SPACE || r->type == IPCC_CONTACT_POINT_SHAPE ||
              r->type == IPCC_CONTACT_TRIANGLE_SHAPE || r->type == IPCC_CONTACT_EDGE_SHAPE))
            continue;
        for (int d = 0; d < 3; ++d)
            forces[3 * r->object_b + d] -= r->normal_force * r->normal[d] + r->friction_force[d];
    }
}
