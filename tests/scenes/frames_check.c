// Invariant checker for the regression scenes (tests/scenes/): every frame
// that `ipcc run` wrote to an output folder is inversion-free and
// intersection-free, decided exactly.
//
//   usage: scene_frames_check SCENE DIR [--self-test]
//
// The scene is loaded and its world built (not stepped) to get what the
// frames do not hold exactly: the tets' vertex order, each body's surface
// triangles, the obstacles' triangles and the half-spaces. Then, for every
// frame listed by DIR/frames.pvd (read with src/output/frames_read.c, as
// `ipcc compare` does), the positions are assembled as the world numbers
// them: the .vtu's points are the deformable vertices, the first points of
// the .vtp the obstacle vertices (docs/output.md). Frame 0 must equal the
// world's initial positions bit for bit, which proves that numbering (and
// that the frames belong to this scene). Checked, with exact predicates
// (tests/support/exact_intersection.h), never a tolerance:
//   - no tet is inverted or flat: orient3d of its four vertices > 0;
//   - no two deformable surface triangles that share no vertex intersect
//     (between bodies and within one body);
//   - no deformable surface triangle touches an obstacle triangle;
//   - every deformable vertex is strictly on the free side of every half-space;
//   - no deformable surface triangle touches an obstacle segment (a segment
//     set's edges, or an analytic box's edges);
//   - every deformable vertex is strictly outside every analytic shape, at
//     the shape's pose at the frame's time (exp(t [w]x) R0, c0 + t v). This
//     one is decided in floating point (shape.c's signed distance): its
//     rounding, about 1e-16 of the shape's size, is far below any gap the
//     barrier leaves. Curved shapes act on vertices only (README Limits), so
//     only vertices are checked against them; a box's faces are flat, so
//     every body triangle is checked exactly against its 12 triangles too.
// Every coordinate must be finite. Point-set obstacles are refused.
//
// --self-test then proves, on the last frame, that each check can fail:
// it swaps two vertices of a tet (an inversion), moves a second body onto
// the first one's surface, moves the obstacle onto a body, and pushes the
// bodies behind a half-space, and each corrupted copy must be caught by
// its check. Exit 0 when every frame passes (and the self-test catches
// everything), 1 otherwise, with the frame, the check and the primitives.
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipcc/ipcc.h"

#include "exact_intersection.h"
#include "output/frames_read.h"
#include "shape/shape.h"
#include "world/world_shapes.h"

/// The world's connectivity, and where the frames put each vertex.
typedef struct checker {
    int nv, nd, nt, nh; ///< vertices, deformable vertices, tets, half-spaces
    const int *tets;
    int nbf, nof;                 ///< deformable and obstacle surface triangles
    int *body_faces;              ///< 3 * nbf world vertex indices
    int *obstacle_faces;          ///< 3 * nof
    double (*hs)[2][3];           ///< nh (point, normal)
    int noe;                      ///< obstacle segments
    int *obstacle_edges;          ///< 2 * noe world vertex indices
    int ns;                       ///< analytic shapes
    ipcc_shape *shapes;           ///< ns poses at t = 0
    double (*shape_motion)[2][3]; ///< ns (velocity, angular velocity)
    int num_bodies;               ///< deformable bodies
    int first[2], count[2];       ///< vertex ranges of deformable bodies 0 and 1
    double L;
} checker;

static void checker_free(checker *c) {
    free(c->body_faces);
    free(c->obstacle_faces);
    free(c->hs);
    free(c->obstacle_edges);
    free(c->shapes);
    free(c->shape_motion);
}

/// Gather the surfaces; -1 (with a message) for obstacles this checker cannot handle.
static int checker_init(checker *c, const ipcc_world *w) {
    memset(c, 0, sizeof *c);
    c->nv = ipcc_world_num_vertices(w);
    c->nd = ipcc_world_num_deformable_vertices(w);
    c->nt = ipcc_world_num_tets(w);
    c->nh = ipcc_world_num_half_spaces(w);
    c->tets = ipcc_world_tets(w);
    c->L = ipcc_world_bbox_diagonal(w);
    const int nb = ipcc_world_num_bodies(w);
    int total = 0, total_edges = 0;
    for (int b = 0; b < nb; b++) {
        int nf, ne;
        ipcc_world_body_surface(w, b, &nf, NULL);
        ipcc_world_body_edges(w, b, &ne, NULL);
        total += nf;
        total_edges += ne;
    }
    c->ns = ipcc_world_num_shapes(w);
    c->body_faces = malloc(sizeof(int) * 3 * (size_t)(total + 1));
    c->obstacle_faces = malloc(sizeof(int) * 3 * (size_t)(total + 1));
    c->obstacle_edges = malloc(sizeof(int) * 2 * (size_t)(total_edges + 1));
    c->hs = malloc(sizeof *c->hs * (size_t)(c->nh + 1));
    c->shapes = malloc(sizeof *c->shapes * (size_t)(c->ns + 1));
    c->shape_motion = malloc(sizeof *c->shape_motion * (size_t)(c->ns + 1));
    if (!c->body_faces || !c->obstacle_faces || !c->obstacle_edges || !c->hs || !c->shapes ||
        !c->shape_motion)
        return fprintf(stderr, "out of memory\n"), -1;
    for (int b = 0; b < nb; b++) {
        int nf, ne;
        const int *f;
        ipcc_world_body_surface(w, b, &nf, &f);
        const int *e;
        ipcc_world_body_edges(w, b, &ne, &e);
        if (ipcc_world_body_is_obstacle(w, b)) {
            if (nf == 0 && ne == 0)
                return fprintf(stderr, "obstacle %s is a point set: point obstacles are not checked\n",
                               ipcc_world_body_name(w, b)),
                       -1;
            if (nf == 0) { // a segment set, or a box's edges
                memcpy(c->obstacle_edges + 2 * c->noe, e, sizeof(int) * 2 * (size_t)ne);
                c->noe += ne;
                continue;
            }
            memcpy(c->obstacle_faces + 3 * c->nof, f, sizeof(int) * 3 * (size_t)nf);
            c->nof += nf;
        } else {
            memcpy(c->body_faces + 3 * c->nbf, f, sizeof(int) * 3 * (size_t)nf);
            c->nbf += nf;
            if (c->num_bodies < 2)
                ipcc_world_body_vertices(w, b, &c->first[c->num_bodies], &c->count[c->num_bodies]);
            c->num_bodies++;
        }
    }
    for (int h = 0; h < c->nh; h++)
        ipcc_world_half_space(w, h, c->hs[h][0], c->hs[h][1]);
    for (int i = 0; i < c->ns; i++) {
        const ipcc_shape_def *d = ipcc_world_shape_def(w, i);
        c->shapes[i].kind = d->kind;
        memcpy(c->shapes[i].size, d->size, sizeof d->size);
        ipcc_world_shape_pose(w, i, c->shapes[i].center, c->shapes[i].rotation);
        c->shapes[i].field = ipcc_world_shape_field(w, i); // a height field's grid (the world lives on)
        memcpy(c->shape_motion[i][0], d->velocity, sizeof d->velocity);
        memcpy(c->shape_motion[i][1], d->angular_velocity, sizeof d->angular_velocity);
    }
    return 0;
}

/// Number of non-finite coordinates (the exact predicates need finite input).
static int check_finite(const checker *c, const double *x, const char *label) {
    for (int i = 0; i < 3 * c->nv; i++)
        if (!isfinite(x[i])) {
            printf("%s: vertex %d has a non-finite coordinate (%g)\n", label, i / 3, x[i]);
            return 1;
        }
    return 0;
}

/// Inverted or flat tets (orient3d <= 0); the first is printed.
static int check_inversion(const checker *c, const double *x, const char *label) {
    int bad = 0;
    for (int e = 0; e < c->nt; e++) {
        const int *t = c->tets + 4 * e;
        if (ipcc_test_orient3d(x + 3 * t[0], x + 3 * t[1], x + 3 * t[2], x + 3 * t[3]) > 0) continue;
        if (bad++ == 0)
            printf("%s: tet %d (vertices %d %d %d %d) is inverted or flat\n", label, e, t[0], t[1], t[2],
                   t[3]);
    }
    return bad;
}

/// Intersecting pairs of deformable surface triangles (sharing no vertex).
static int check_body_pairs(const checker *c, const double *x, const char *label) {
    int fa, fb;
    int hits = ipcc_test_find_triangle_intersections(c->nv, x, c->nbf, c->body_faces, 1, &fa, &fb);
    if (hits > 0) {
        const int *a = c->body_faces + 3 * fa, *b = c->body_faces + 3 * fb;
        printf("%s: surface triangles (%d %d %d) and (%d %d %d) intersect\n", label, a[0], a[1], a[2], b[0],
               b[1], b[2]);
    }
    return hits;
}

/// Deformable triangles touching obstacle triangles.
static int check_obstacles(const checker *c, const double *x, const char *label) {
    if (c->nof == 0) return 0;
    int fa, fb;
    int hits = ipcc_test_find_triangle_intersections_between(c->nv, x, c->nbf, c->body_faces, c->nof,
                                                             c->obstacle_faces, 1, &fa, &fb);
    if (hits > 0) {
        const int *a = c->body_faces + 3 * fa, *b = c->obstacle_faces + 3 * fb;
        printf("%s: body triangle (%d %d %d) intersects obstacle triangle (%d %d %d)\n", label, a[0], a[1],
               a[2], b[0], b[1], b[2]);
    }
    return hits;
}

/// Deformable triangles touching obstacle segments.
static int check_segments(const checker *c, const double *x, const char *label) {
    int hits = 0;
    for (int s = 0; s < c->noe; s++) {
        const int *e = c->obstacle_edges + 2 * s;
        for (int f = 0; f < c->nbf; f++) {
            const int *t = c->body_faces + 3 * f;
            if (!ipcc_test_segment_triangle_intersect(x + 3 * e[0], x + 3 * e[1], x + 3 * t[0], x + 3 * t[1],
                                                      x + 3 * t[2]))
                continue;
            if (hits++ == 0)
                printf("%s: body triangle (%d %d %d) touches obstacle segment (%d %d)\n", label, t[0], t[1],
                       t[2], e[0], e[1]);
        }
    }
    return hits;
}

/// Shape i's pose at time t: its start pose moved by t v and t w.
static void shape_at(const checker *c, int i, double t, ipcc_shape *out) {
    const double vt[3] = {t * c->shape_motion[i][0][0], t * c->shape_motion[i][0][1],
                          t * c->shape_motion[i][0][2]};
    const double wt[3] = {t * c->shape_motion[i][1][0], t * c->shape_motion[i][1][1],
                          t * c->shape_motion[i][1][2]};
    ipcc_shape_moved(&c->shapes[i], vt, wt, 1.0, out);
}

/// Deformable vertices on or inside an analytic shape at time t, and body
/// triangles touching a box's faces.
static int check_shapes(const checker *c, const double *x, double t, const char *label) {
    int bad = 0;
    for (int i = 0; i < c->ns; i++) {
        ipcc_shape s;
        shape_at(c, i, t, &s);
        for (int v = 0; v < c->nd; v++) {
            double d = ipcc_shape_distance(&s, x + 3 * v, NULL, NULL);
            if (d > 0) continue;
            if (bad++ == 0) printf("%s: vertex %d is %g m inside shape %d\n", label, v, -d, i);
        }
        if (s.kind != IPCC_SHAPE_BOX) continue;
        // The box's 8 corners and its 6 faces as 12 triangles.
        double corner[8][3];
        for (int k = 0; k < 8; k++) {
            const double q[3] = {k & 1 ? s.size[0] : -s.size[0], k & 2 ? s.size[1] : -s.size[1],
                                 k & 4 ? s.size[2] : -s.size[2]};
            ipcc_shape_to_world(&s, q, corner[k]);
        }
        static const int quads[6][4] = {{0, 2, 6, 4}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                        {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 5, 7, 6}};
        for (int f = 0; f < c->nbf; f++) {
            const int *tri = c->body_faces + 3 * f;
            for (int q = 0; q < 6; q++)
                for (int h = 0; h < 2; h++) {
                    const double *a = corner[quads[q][0]], *b = corner[quads[q][1 + h]],
                                 *d = corner[quads[q][2 + h]];
                    if (!ipcc_test_triangles_intersect(x + 3 * tri[0], x + 3 * tri[1], x + 3 * tri[2], a, b,
                                                       d))
                        continue;
                    if (bad++ == 0)
                        printf("%s: body triangle (%d %d %d) touches a face of box %d\n", label, tri[0],
                               tri[1], tri[2], i);
                }
        }
    }
    return bad;
}

/// Deformable vertices on or behind a half-space.
static int check_half_spaces(const checker *c, const double *x, const char *label) {
    int bad = 0;
    for (int h = 0; h < c->nh; h++)
        for (int i = 0; i < c->nd; i++) {
            if (ipcc_test_halfspace_side(x + 3 * i, c->hs[h][0], c->hs[h][1]) > 0) continue;
            if (bad++ == 0) printf("%s: vertex %d is on or behind half-space %d\n", label, i, h);
        }
    return bad;
}

/// Every check; the number of failed ones.
static int check_all(const checker *c, const double *x, double t, const char *label) {
    if (check_finite(c, x, label)) return 1;
    return (check_inversion(c, x, label) > 0) + (check_body_pairs(c, x, label) > 0) +
           (check_obstacles(c, x, label) > 0) + (check_half_spaces(c, x, label) > 0) +
           (check_segments(c, x, label) > 0) + (check_shapes(c, x, t, label) > 0);
}

/// Add d to vertices [first, first + count).
static void translate(double *x, int first, int count, const double d[3]) {
    for (int i = first; i < first + count; i++)
        for (int k = 0; k < 3; k++)
            x[3 * i + k] += d[k];
}

static void centroid(const double *x, int first, int count, double out[3]) {
    out[0] = out[1] = out[2] = 0;
    for (int i = first; i < first + count; i++)
        for (int k = 0; k < 3; k++)
            out[k] += x[3 * i + k] / count;
}

/// Corrupt copies of a good frame; each must be caught by its check. Returns the misses.
static int self_test(const checker *c, const double *good, double t) {
    double *x = malloc(sizeof(double) * 3 * (size_t)c->nv);
    if (!x) return 1;
    int missed = 0, tried = 0;
    const char *label = "self-test (expected)";

    // An inversion: swap the positions of two vertices of tet 0.
    memcpy(x, good, sizeof(double) * 3 * (size_t)c->nv);
    const int a = c->tets[0], b = c->tets[1];
    for (int k = 0; k < 3; k++) {
        double t = x[3 * a + k];
        x[3 * a + k] = x[3 * b + k];
        x[3 * b + k] = t;
    }
    tried++;
    if (check_inversion(c, x, label) == 0) missed++, printf("self-test: a swapped tet was not caught\n");

    // Body 1 centred on a surface vertex of body 0: their surfaces cross.
    if (c->num_bodies >= 2) {
        memcpy(x, good, sizeof(double) * 3 * (size_t)c->nv);
        int v = -1;
        for (int f = 0; f < 3 * c->nbf && v < 0; f++)
            if (c->body_faces[f] >= c->first[0] && c->body_faces[f] < c->first[0] + c->count[0])
                v = c->body_faces[f];
        double m[3], d[3];
        centroid(x, c->first[1], c->count[1], m);
        for (int k = 0; k < 3; k++)
            d[k] = x[3 * v + k] - m[k];
        translate(x, c->first[1], c->count[1], d);
        tried++;
        if (check_body_pairs(c, x, label) == 0)
            missed++, printf("self-test: overlapping bodies were not caught\n");
    }

    // The obstacles centred on a surface vertex of body 0.
    if (c->nof > 0) {
        memcpy(x, good, sizeof(double) * 3 * (size_t)c->nv);
        const int v = c->body_faces[0];
        double m[3], d[3];
        centroid(x, c->nd, c->nv - c->nd, m);
        for (int k = 0; k < 3; k++)
            d[k] = x[3 * v + k] - m[k];
        translate(x, c->nd, c->nv - c->nd, d);
        tried++;
        if (check_obstacles(c, x, label) == 0)
            missed++, printf("self-test: a body in an obstacle was not caught\n");
    }

    // The bodies pushed 1e-3 L behind half-space 0 (a rigid move: no inversion).
    if (c->nh > 0) {
        memcpy(x, good, sizeof(double) * 3 * (size_t)c->nv);
        const double *p = c->hs[0][0], *n = c->hs[0][1];
        double dmin = INFINITY, len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int i = 0; i < c->nd; i++)
            dmin = fmin(dmin, ((x[3 * i] - p[0]) * n[0] + (x[3 * i + 1] - p[1]) * n[1] +
                               (x[3 * i + 2] - p[2]) * n[2]) /
                                  len);
        const double s = dmin + 1e-3 * c->L, d[3] = {-s * n[0] / len, -s * n[1] / len, -s * n[2] / len};
        translate(x, 0, c->nd, d);
        tried++;
        if (check_half_spaces(c, x, label) == 0)
            missed++, printf("self-test: a body behind a half-space was not caught\n");
    }
    // The bodies moved so that vertex 0 sits at shape 0's centre (inside it).
    if (c->ns > 0) {
        memcpy(x, good, sizeof(double) * 3 * (size_t)c->nv);
        ipcc_shape s;
        shape_at(c, 0, t, &s);
        const double d[3] = {s.center[0] - x[0], s.center[1] - x[1], s.center[2] - x[2]};
        translate(x, 0, c->nd, d);
        tried++;
        if (check_shapes(c, x, t, label) == 0)
            missed++, printf("self-test: a body in a shape was not caught\n");
    }

    // A body triangle across an obstacle segment: body 0 moved so that the
    // centroid of its first surface triangle is the segment's midpoint.
    if (c->noe > 0) {
        memcpy(x, good, sizeof(double) * 3 * (size_t)c->nv);
        const int *e = c->obstacle_edges, *f = c->body_faces;
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = 0.5 * (x[3 * e[0] + k] + x[3 * e[1] + k]) -
                   (x[3 * f[0] + k] + x[3 * f[1] + k] + x[3 * f[2] + k]) / 3;
        translate(x, 0, c->nd, d);
        tried++;
        if (check_segments(c, x, label) == 0)
            missed++, printf("self-test: a body across an obstacle segment was not caught\n");
    }
    free(x);
    printf("self-test: %d corruptions, %d caught\n", tried, tried - missed);
    return missed;
}

static void quiet_log(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    if (level <= IPCC_LOG_WARNING) fprintf(stderr, "ipcc: %s\n", message);
}

/// Check every frame of dir; the number of failed frames (or -1 when the
/// frames cannot be read or do not belong to the scene).
static int check_frames(const checker *c, const double *initial, const char *dir, bool run_self_test) {
    ipcc_frames_list list;
    if (ipcc_frames_list_read(dir, &list) != IPCC_OK) {
        printf("%s\n", ipcc_last_error());
        return -1;
    }
    double *x = malloc(sizeof(double) * 3 * (size_t)c->nv);
    int failed = 0, status = 0;
    const bool has_obstacles = c->nv > c->nd || c->nh > 0 || c->ns > 0;
    if ((list.obstacles != NULL) != has_obstacles) {
        printf("%s: the frames %s obstacle files but the scene %s obstacles\n", list.pvd,
               list.obstacles ? "have" : "have no", has_obstacles ? "has" : "has no");
        status = -1;
    }
    for (int i = 0; i < list.num_frames && status == 0 && x; i++) {
        ipcc_frames_points p = {0}, o = {0};
        const int64_t want_o = (int64_t)(c->nv - c->nd) + 4 * (int64_t)c->nh;
        if (ipcc_frames_points_read(list.bodies[i], &p) != IPCC_OK ||
            (list.obstacles && ipcc_frames_points_read(list.obstacles[i], &o) != IPCC_OK)) {
            printf("%s\n", ipcc_last_error());
            status = -1;
        } else if (p.num_points != c->nd ||
                   (list.obstacles && (c->ns > 0 ? o.num_points < want_o : o.num_points != want_o))) {
            printf("%s: %lld body points and %lld obstacle points; the scene has %d and %lld\n",
                   list.bodies[i], (long long)p.num_points, (long long)o.num_points, c->nd,
                   (long long)want_o);
            status = -1;
        } else {
            memcpy(x, p.xyz, sizeof(double) * 3 * (size_t)c->nd);
            if (c->nv > c->nd) memcpy(x + 3 * c->nd, o.xyz, sizeof(double) * 3 * (size_t)(c->nv - c->nd));
            for (int k = 0; i == 0 && k < 3 * c->nv && status == 0; k++)
                if (x[k] != initial[k]) {
                    printf("%s: vertex %d is not at the scene's initial position (%.17g, expected %.17g)\n",
                           list.bodies[0], k / 3, x[k], initial[k]);
                    status = -1;
                }
            char label[64];
            snprintf(label, sizeof label, "frame %d (t = %g s)", i, list.times[i]);
            if (status == 0) {
                int bad = check_all(c, x, list.times[i], label);
                failed += bad > 0;
                if (bad == 0) printf("%s: %d tets positive, surfaces intersection-free\n", label, c->nt);
            }
        }
        ipcc_frames_points_free(&p);
        ipcc_frames_points_free(&o);
    }
    if (status == 0 && failed == 0 && run_self_test && x && list.num_frames > 0)
        failed += self_test(c, x, list.times[list.num_frames - 1]) > 0;
    if (!x) status = -1;
    free(x);
    ipcc_frames_list_free(&list);
    return status < 0 ? -1 : failed;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--self-test"))) {
        fprintf(stderr, "usage: %s SCENE DIR [--self-test]\n", argv[0]);
        return 1;
    }
    ipcc_set_log(quiet_log, NULL);
    ipcc_scene *scene = NULL;
    ipcc_world *world = NULL;
    if (ipcc_scene_load(argv[1], &scene) != IPCC_OK || ipcc_scene_create_world(scene, &world) != IPCC_OK ||
        ipcc_world_start(world) != IPCC_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], ipcc_last_error());
        ipcc_world_destroy(world);
        ipcc_scene_destroy(scene);
        return 1;
    }
    checker c;
    int failed =
        checker_init(&c, world) == 0 ? check_frames(&c, ipcc_world_positions(world), argv[2], argc == 4) : -1;
    checker_free(&c);
    ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    if (failed == 0)
        printf("%s: every frame of %s is inversion- and intersection-free\n", argv[1], argv[2]);
    else if (failed > 0)
        printf("%s: %s: frames failing the invariants: %d\n", argv[1], argv[2], failed);
    return failed == 0 ? 0 : 1;
}
