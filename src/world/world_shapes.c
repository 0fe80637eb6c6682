// Analytic obstacles in the world: their definitions, their pose as state,
// the clock that moves them inside Newton, and the sharp features of boxes.
//
// Pose. A shape is rigid and moves with constant velocity v and angular
// velocity w about its centre: over a step of length h from the pose
// (c0, R0) at the step start, at progress s in [0, 1],
//   c(s) = c0 + s h v,   R(s) = exp(s h [w]x) R0,
// the exact screw motion (no drift: R stays a rotation). The pose is state,
// not a function of time: a shape a body blocks (a prescribed push into a
// wall) ends its step at the s Newton reached, like a mesh obstacle.
//
// Clock. Newton moves prescribed dofs to their targets along its
// directions, each step bounded by CCD (newton.c, "Prescribed motion"). A
// shape has no vertices, so its progress s rides on one extra prescribed
// dof after the 3n vertex dofs: x[3n] = s * D, from 0 to its target D at
// every step, where D is the largest displacement of any shape's bounding
// sphere over the step (metres, so Newton's |p|_inf test treats the
// remaining shape motion like any vertex motion). Every prescribed dof
// advances by the same fraction of its remaining lift, so the shapes move
// in lockstep with mesh obstacles and Dirichlet vertices. x[3n + 1] and
// x[3n + 2] are unused (kept at 0). The clock exists only when some shape
// moves.
//
// Sharp features. A body's edge can cut across a box's edge, or a box's
// corner can poke through a body's triangle, with every body vertex
// outside the box: the vertex-shape barrier alone does not see it. Each box
// therefore also gets its 12 edges as a kinematic segment-set obstacle (8
// points, 12 segments; contact.c treats it like any segment set: edge-edge
// against bodies' edges, its endpoints as points against bodies'
// triangles). Those are the box's exact sharp features, and a box's faces
// are planar, so a body edge or triangle cannot cross one without an edge
// crossing a box edge or a vertex entering the box: against a box the
// guarantee is exact. A cylinder's two rims are sharp too; each becomes an
// inscribed polygon of n = pi / acos(1 - 0.1 d̂ / r) segments (at least 16),
// whose chords lie at most 0.1 d̂ inside the rim circle, so a body edge
// kept off the chords may cut the rim by at most that. Feature targets are
// their places on the shape's end pose; along a step they move on chords,
// so mid-step a feature of a rotating shape is inside the exact one by at
// most rho (1 - cos(theta / 2)) (rho its distance from the centre, theta =
// |w| h the rotation of the step; 5e-5 rho at 2 rad/s and h = 0.01), and
// exactly on it at the end of every step.
//
// A sphere is exact against whole triangles too (contact.c: its centre,
// thickened by r, against the bodies' triangles and edges). The other
// smooth curved surfaces (cylinder side, ellipsoid, torus, height field)
// act on body vertices and on sample points of body edges and faces spaced
// so that the surface rises at most 0.1 d̂ between them; the CCD keeps
// whole faces within 0.5 d̂ of a cylinder, ellipsoid or torus, and a height
// field's faces at their vertices and samples (contact_samples.c;
// docs/analytic-obstacles.md; README, Limits).

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collision/contact_samples.h"
#include "base/core.h"
#include "base/rotation.h"
#include "shape/shape.h"
#include "world/world.h"
#include "world/world_shapes.h"

static bool finite_n(const double *v, int n) {
    for (int i = 0; i < n; ++i)
        if (!isfinite(v[i])) return false;
    return true;
}

// Why R is not a rotation (NULL if it is, to 1e-9).
static const char *check_rotation(const double R[9]) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double d = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j];
            if (fabs(d - (i == j)) > 1e-9) return "rotation is not orthonormal";
        }
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    return det > 0 ? NULL : "rotation is a reflection (determinant -1)";
}

// Sizes in use per kind, and their names in messages.
static int size_count(ipcc_shape_kind k) {
    if (k == IPCC_SHAPE_PLANE || k == IPCC_SHAPE_HEIGHT_FIELD) return 0;
    return k == IPCC_SHAPE_SPHERE ? 1 : (k == IPCC_SHAPE_CYLINDER || k == IPCC_SHAPE_TORUS) ? 2 : 3;
}

ipcc_status ipcc_world_add_shape(ipcc_world *w, const ipcc_shape_def *def, int *shape_index) {
    IPCC_ASSERT(w && def);
    IPCC_CHECK_DEF(def, "ipcc_shape_def: initialise it with ipcc_default_shape_def()");
    char label[96];
    if (def->name)
        snprintf(label, sizeof label, "shape \"%s\"", def->name);
    else
        snprintf(label, sizeof label, "shape %d", w->num_shapes);
    if (w->started)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: must be added before the first step", label);
    if (!(def->kind >= IPCC_SHAPE_SPHERE && def->kind <= IPCC_SHAPE_HEIGHT_FIELD))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: unknown kind %d", label, (int)def->kind);
    if (!finite_n(def->center, 3) || !finite_n(def->rotation, 9) || !finite_n(def->velocity, 3) ||
        !finite_n(def->angular_velocity, 3))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: non-finite centre, rotation or velocity", label);
    const char *why = check_rotation(def->rotation);
    if (why) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: %s", label, why);
    int ns = size_count(def->kind);
    for (int k = 0; k < ns; ++k)
        if (!(def->size[k] > 0) || !isfinite(def->size[k]))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s (%s): size[%d] must be > 0 and finite (got %g)",
                             label, ipcc_shape_kind_name(def->kind), k, def->size[k]);
    if (def->kind == IPCC_SHAPE_TORUS && !(def->size[1] < def->size[0]))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "%s (torus): the minor radius %g must be below the major radius %g", label,
                         def->size[1], def->size[0]);
    if (isnan(def->friction) || isinf(def->friction))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: friction must be finite (got %g)", label,
                         def->friction);
    if (def->face_samples < -1 || def->face_samples > 1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: face_samples must be -1, 0 or 1 (got %d)", label,
                         def->face_samples);
    if (def->face_samples != -1 && !ipcc_shape_sampled(def->kind))
        return ipcc_fail(
            IPCC_ERR_INVALID_ARGUMENT,
            "%s (%s): face_samples is for cylinders, ellipsoids, tori and height fields (a %s is "
            "exact against whole faces)",
            label, ipcc_shape_kind_name(def->kind), ipcc_shape_kind_name(def->kind));
    ipcc_height_field *field = NULL;
    if (def->kind == IPCC_SHAPE_HEIGHT_FIELD) {
        if (!def->heights)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s (height_field): heights is NULL", label);
        if (def->rows < 4 || def->cols < 4)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s (height_field): needs at least 4 x 4 samples (got %d rows x %d columns)",
                             label, def->rows, def->cols);
        int r, c;
        const char *bad = ipcc_height_field_check(def->rows, def->cols, def->heights, def->spacing, &r, &c);
        if (bad && r >= 0)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s (height_field): %s at row %d, column %d (got %g)",
                             label, bad, r, c, def->heights[(size_t)r * def->cols + c]);
        if (bad)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s (height_field): %s (got %g, %g)", label, bad,
                             def->spacing[0], def->spacing[1]);
        ipcc_status st = ipcc_height_field_create(def->rows, def->cols, def->heights, def->spacing, &field);
        if (st != IPCC_OK) return ipcc_fail(st, "%s: %s", label, ipcc_last_error());
    }
    if (ipcc_reserve((void **)&w->shapes, &w->cap_shapes, w->num_shapes + 1, sizeof *w->shapes) != 0 ||
        ipcc_reserve((void **)&w->shape_pose, &w->cap_shape_pose, w->num_shapes + 1, sizeof *w->shape_pose) !=
            0 ||
        ipcc_reserve((void **)&w->shape_motion, &w->cap_shape_motion, w->num_shapes + 1,
                     sizeof *w->shape_motion) != 0 ||
        ipcc_reserve((void **)&w->shape_feature_body_of, &w->cap_shape_features, w->num_shapes + 1,
                     sizeof *w->shape_feature_body_of) != 0) {
        ipcc_height_field_destroy(field);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", label);
    }
    char fallback[32];
    snprintf(fallback, sizeof fallback, "shape %d", w->num_shapes);
    const char *given = def->name ? def->name : fallback;
    char *name = malloc(strlen(given) + 1);
    if (!name) {
        ipcc_height_field_destroy(field);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", label);
    }
    strcpy(name, given);
    int i = w->num_shapes++;
    w->shapes[i] = *def;
    w->shapes[i].name = name;
    if (def->friction < 0) w->shapes[i].friction = -1;
    for (int k = ns; k < 3; ++k)
        w->shapes[i].size[k] = def->kind == IPCC_SHAPE_SPHERE ? def->size[0] : 0;
    if (def->kind == IPCC_SHAPE_PLANE) { // no size; the frames draw a square of half-side L (1 m if L is 0)
        double L = w->bbox_diagonal > 0 ? w->bbox_diagonal : 1;
        w->shapes[i].size[0] = w->shapes[i].size[1] = L;
    }
    if (field) // the world's copy of the def points at the grid's own heights
        w->shapes[i].heights = ipcc_height_field_heights(field);
    else
        w->shapes[i].heights = NULL, w->shapes[i].rows = w->shapes[i].cols = 0;
    w->shape_feature_body_of[i] = -1;
    ipcc_shape *pose = &w->shape_pose[i];
    pose->kind = def->kind;
    pose->field = field;
    memcpy(pose->center, def->center, sizeof pose->center);
    memcpy(pose->rotation, def->rotation, sizeof pose->rotation);
    memcpy(pose->size, w->shapes[i].size, sizeof pose->size);
    if (shape_index) *shape_index = i;
    return IPCC_OK;
}

int ipcc_world_num_shapes(const ipcc_world *w) { return w->num_shapes; }

int ipcc_world_body_shape(const ipcc_world *w, int body) {
    IPCC_ASSERT(w && body >= 0 && body < w->num_bodies);
    return w->bodies[body].shape;
}

const ipcc_shape_def *ipcc_world_shape_def(const ipcc_world *w, int i) {
    IPCC_ASSERT(i >= 0 && i < w->num_shapes);
    return &w->shapes[i];
}

void ipcc_world_shape_pose(const ipcc_world *w, int i, double center[3], double rotation[9]) {
    IPCC_ASSERT(i >= 0 && i < w->num_shapes);
    if (center) memcpy(center, w->shape_pose[i].center, 3 * sizeof(double));
    if (rotation) memcpy(rotation, w->shape_pose[i].rotation, 9 * sizeof(double));
}

static bool shape_moves(const ipcc_shape_def *d) {
    for (int k = 0; k < 3; ++k)
        if (d->velocity[k] != 0 || d->angular_velocity[k] != 0) return true;
    return false;
}

// The corners of a box at a pose: corner j has local coordinates
// (+-a, +-b, +-c), bit k of j set meaning minus along axis k.
static void box_corners(const ipcc_shape *s, double out[24]) {
    for (int j = 0; j < 8; ++j) {
        double q[3];
        for (int k = 0; k < 3; ++k)
            q[k] = (j >> k & 1) ? -s->size[k] : s->size[k];
        ipcc_shape_to_world(s, q, out + 3 * j);
    }
}

// The 12 box edges: corner pairs differing in exactly one bit.
static const int box_edges[24] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7};

// Rim points of a cylinder: n per rim, on the rim circles (z = +h, then -h).
static void rim_points(const ipcc_shape *s, int n, double *out) {
    const double two_pi = 6.283185307179586;
    for (int j = 0; j < 2 * n; ++j) {
        double a = two_pi * (j % n) / n;
        double q[3] = {s->size[0] * cos(a), s->size[0] * sin(a), j < n ? s->size[1] : -s->size[1]};
        ipcc_shape_to_world(s, q, out + 3 * j);
    }
}

// Shape i's feature points at a pose (box corners, or the cylinder's rim
// polygons of `count` / 2 points each).
static void feature_points(const ipcc_shape *s, int count, double *out) {
    if (s->kind == IPCC_SHAPE_BOX)
        box_corners(s, out);
    else
        rim_points(s, count / 2, out);
}

// The largest distance from c to a deformable vertex (0 without any).
static double farthest_vertex(const ipcc_world *w, const double c[3]) {
    double r2 = 0;
    for (int v = 0; v < w->n_deformable; ++v) {
        const double *x = w->x + 3 * v;
        double d2 =
            (x[0] - c[0]) * (x[0] - c[0]) + (x[1] - c[1]) * (x[1] - c[1]) + (x[2] - c[2]) * (x[2] - c[2]);
        if (d2 > r2) r2 = d2;
    }
    return sqrt(r2);
}

// The sag limits (preamble): with samples, warn when a body's longest
// surface edge l needs more subdivisions against a shape than there are
// (contact_samples.h): its faces may then sag between samples by
// (l / n)^2 / (6 rho) > 0.1 d̂ (up to the CCD's 0.5 d̂ where it bounds whole
// faces; a height field's are kept out at their vertices and samples only).
// Without, warn when l lets the shape indent a face by l^2 / (8 rho) > d̂.
static void warn_coarse_bodies(const ipcc_world *w, double dhat) {
    for (int b = 0; b < w->num_bodies; ++b) {
        const ipcc_body *body = &w->bodies[b];
        if (body->kinematic) continue;
        double l2 = 0;
        for (int f = body->first_face; f < body->first_face + body->num_faces; ++f)
            for (int k = 0; k < 3; ++k) {
                const double *a = w->x + 3 * w->faces[3 * f + k],
                             *c = w->x + 3 * w->faces[3 * f + (k + 1) % 3];
                double e = (a[0] - c[0]) * (a[0] - c[0]) + (a[1] - c[1]) * (a[1] - c[1]) +
                           (a[2] - c[2]) * (a[2] - c[2]);
                if (e > l2) l2 = e;
            }
        for (int i = 0; i < w->num_shapes; ++i) {
            const ipcc_shape *s = &w->shape_pose[i];
            const char *kind = ipcc_shape_kind_name(s->kind), *name = w->shapes[i].name;
            double rho = ipcc_shape_least_radius(s), l = sqrt(l2);
            if (!(rho > 0)) continue;
            if (!ipcc_shape_face_samples_on(s->kind, w->shapes[i].face_samples)) {
                if (l2 / (8 * rho) > dhat)
                    ipcc_log(
                        IPCC_LOG_WARNING,
                        "body \"%s\": its longest surface edge (%.3g m) lets %s \"%s\" (least radius of "
                        "curvature %.3g m) indent a face by up to %.3g m between its vertices, more than d̂ = "
                        "%.3g m: set \"face_samples\": true on the shape, or keep the edges below %.3g m "
                        "(docs/analytic-obstacles.md)",
                        body->name, l, kind, name, rho, l2 / (8 * rho), dhat, sqrt(8 * rho * dhat));
                continue;
            }
            double spacing = ipcc_contact_sample_spacing(s, dhat), n = IPCC_SAMPLE_MAX_DIVISIONS,
                   sag = (l / n) * (l / n) / (6 * rho), depth = ipcc_contact_sample_depth(s, dhat);
            if (!(l > n * spacing)) continue;
            char bound[96] = "";
            if (depth > 0)
                snprintf(bound, sizeof bound, " (the CCD keeps every face within %.3g m of the surface)",
                         depth);
            ipcc_log(
                IPCC_LOG_WARNING,
                "body \"%s\": its longest surface edge (%.3g m) needs more than %d sample subdivisions "
                "against %s \"%s\" (least radius of curvature %.3g m): its faces may sag by up to %.3g m "
                "between them%s%s (docs/analytic-obstacles.md); edges below %.3g m avoid it",
                body->name, l, IPCC_SAMPLE_MAX_DIVISIONS, kind, name, rho, depth > 0 ? fmin(sag, depth) : sag,
                bound, depth > 0 ? " and Newton may slow down where they touch" : "", n * spacing);
        }
    }
}

// Shape i's motion over the step that starts now, from its current pose.
static void set_motion(ipcc_world *w, int i) {
    ipcc_shape_motion *m = &w->shape_motion[i];
    const ipcc_shape_def *d = &w->shapes[i];
    double h = w->h;
    m->start = w->shape_pose[i];
    for (int k = 0; k < 3; ++k) {
        m->velocity[k] = d->velocity[k];
        m->angular_velocity[k] = d->angular_velocity[k];
        m->vh[k] = h * d->velocity[k];
        m->wh[k] = h * d->angular_velocity[k];
    }
}

ipcc_status ipcc_world_shapes_start(ipcc_world *w) {
    int ns = w->num_shapes; // the motions start from the current poses until the first step
    for (int i = 0; i < ns; ++i)
        set_motion(w, i);
    double dhat = w->def.contact.dhat > 0 ? w->def.contact.dhat : 1e-3 * w->bbox_diagonal;
    if (w->def.contact.enabled) warn_coarse_bodies(w, dhat);
    for (int i = 0; i < ns; ++i) {
        ipcc_shape_kind kind = w->shapes[i].kind;
        if (kind != IPCC_SHAPE_BOX && kind != IPCC_SHAPE_CYLINDER) continue;
        // A cylinder's rims: inscribed polygons whose chords lie at most
        // 0.1 d̂ inside the rim circle, n = pi / acos(1 - 0.1 d̂ / r) (>= 16).
        int n = 16;
        if (kind == IPCC_SHAPE_CYLINDER) {
            double c = 1 - 0.1 * dhat / w->shapes[i].size[0];
            n = c > -1 ? (int)ceil(3.141592653589793 / acos(c)) : 16;
            if (n < 16) n = 16;
            if (n > 4096) n = 4096;
        }
        int np = kind == IPCC_SHAPE_BOX ? 8 : 2 * n, ne = kind == IPCC_SHAPE_BOX ? 12 : 2 * n;
        double *pts = malloc(sizeof(double) * 3 * (size_t)np);
        int *edges = malloc(sizeof(int) * 2 * (size_t)ne);
        if (!pts || !edges) {
            free(pts);
            free(edges);
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "shape \"%s\": out of memory", w->shapes[i].name);
        }
        feature_points(&w->shape_pose[i], np, pts);
        if (kind == IPCC_SHAPE_BOX)
            memcpy(edges, box_edges, sizeof box_edges);
        else
            for (int j = 0; j < 2 * n; ++j) {
                edges[2 * j] = j;
                edges[2 * j + 1] = j / n * n + (j % n + 1) % n;
            }
        char name[160];
        snprintf(name, sizeof name, "%s (%s)", w->shapes[i].name, kind == IPCC_SHAPE_BOX ? "edges" : "rims");
        ipcc_trimesh *seg = NULL;
        ipcc_status st = ipcc_trimesh_create_segments(np, pts, ne, edges, name, &seg);
        free(pts);
        free(edges);
        if (st != IPCC_OK) return st;
        ipcc_obstacle_def od = ipcc_default_obstacle_def();
        od.name = name;
        od.mesh = seg;
        od.friction = w->shapes[i].friction > 0 ? w->shapes[i].friction : 0;
        int body = -1;
        st = ipcc_world_add_obstacle(w, &od, &body);
        ipcc_trimesh_destroy(seg);
        if (st != IPCC_OK) return st;
        w->bodies[body].shape = i;
        w->shape_feature_body_of[i] = body;
    }
    // The clock: D = the largest bounding-sphere displacement of a step.
    double h = w->def.time_step, D = 0;
    for (int i = 0; i < w->num_shapes; ++i) {
        if (!shape_moves(&w->shapes[i])) continue;
        const double *v = w->shapes[i].velocity, *om = w->shapes[i].angular_velocity;
        double r = ipcc_shape_bounding_radius(&w->shape_pose[i]);
        if (isinf(r)) r = farthest_vertex(w, w->shape_pose[i].center); // a plane: where the bodies are
        D = fmax(D, h * (sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
                         r * sqrt(om[0] * om[0] + om[1] * om[1] + om[2] * om[2])));
    }
    w->clock_length = D;
    w->has_clock = D > 0;
    return IPCC_OK;
}

void ipcc_world_shapes_prepare_step(ipcc_world *w) {
    int ns = w->num_shapes;
    for (int i = 0; i < ns; ++i)
        set_motion(w, i); // from the step's start pose
    if (!w->has_clock) return;
    int c = 3 * w->n;
    for (int k = 0; k < 3; ++k) {
        w->x[c + k] = 0;
        w->x_target[c + k] = k == 0 ? ipcc_world_clock_length(w) : 0;
        w->dof_map[c + k] = -1;
    }
    // Feature points go to their places on the end pose.
    for (int i = 0; i < ns; ++i) {
        int b = w->shape_feature_body_of[i];
        if (b < 0) continue;
        ipcc_shape end;
        ipcc_shape_motion_at(&w->shape_motion[i], 1.0, &end);
        feature_points(&end, w->bodies[b].num_vertices, w->x_target + 3 * w->bodies[b].first_vertex);
    }
}

void ipcc_world_shapes_end_step(ipcc_world *w) {
    ipcc_step_context sc = ipcc_world_step_context(w);
    double s = ipcc_step_shape_progress(&sc, w->x);
    for (int i = 0; i < w->num_shapes; ++i)
        ipcc_shape_motion_at(&w->shape_motion[i], s, &w->shape_pose[i]);
}

const ipcc_height_field *ipcc_world_shape_field(const ipcc_world *w, int i) {
    IPCC_ASSERT(i >= 0 && i < w->num_shapes);
    return w->shape_pose[i].field;
}
