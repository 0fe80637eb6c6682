// Invariant checker for the regression scenes (tests/scenes/): every frame
// that `ipcc run` wrote to an output folder is inversion-free and
// intersection-free, decided exactly.
//
//   usage: scene_frames_check SCENE DIR [--self-test]
//
// The scene is loaded and its world built (not stepped) to get what the
// frames do not hold exactly: the tets' vertex order, each body's surface
// triangles, the obstacles' triangles and the half-spaces. Then, for every
// frame listed by DIR/frames.pvd (read with src/cli/frames_read.c, as
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
//   - every deformable vertex is strictly on the free side of every half-space.
// Every coordinate must be finite. Codimensional obstacles (segments,
// points) are refused: none of these scenes has one.
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
#include "frames_read.h"

/// The world's connectivity, and where the frames put each vertex.
typedef struct checker {
    int nv, nd, nt, nh; ///< vertices, deformable vertices, tets, half-spaces
    const int *tets;
    int nbf, nof;           ///< deformable and obstacle surface triangles
    int *body_faces;        ///< 3 * nbf world vertex indices
    int *obstacle_faces;    ///< 3 * nof
    double (*hs)[2][3];     ///< nh (point, normal)
    int num_bodies;         ///< deformable bodies
    int first[2], count[2]; ///< vertex ranges of deformable bodies 0 and 1
    double L;
} checker;

static void checker_free(checker *c) {
    free(c->body_faces);
    free(c->obstacle_faces);
    free(c->hs);
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
    int total = 0;
    for (int b = 0; b < nb; b++) {
        int nf;
        ipcc_world_body_surface(w, b, &nf, NULL);
        total += nf;
    }
    c->body_faces = malloc(sizeof(int) * 3 * (size_t)(total + 1));
    c->obstacle_faces = malloc(sizeof(int) * 3 * (size_t)(total + 1));
    c->hs = malloc(sizeof *c->hs * (size_t)(c->nh + 1));
    if (!c->body_faces || !c->obstacle_faces || !c->hs) return fprintf(stderr, "out of memory\n"), -1;
    for (int b = 0; b < nb; b++) {
        int nf, ne;
        const int *f;
        ipcc_world_body_surface(w, b, &nf, &f);
        ipcc_world_body_edges(w, b, &ne, NULL);
        if (ipcc_world_body_is_obstacle(w, b)) {
            if (nf == 0)
                return fprintf(stderr,
                               "obstacle %s has no triangles: codimensional obstacles are not checked\n",
                               ipcc_world_body_name(w, b)),
                       -1;
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
static int check_all(const checker *c, const double *x, const char *label) {
    if (check_finite(c, x, label)) return 1;
    return (check_inversion(c, x, label) > 0) + (check_body_pairs(c, x, label) > 0) +
           (check_obstacles(c, x, label) > 0) + (check_half_spaces(c, x, label) > 0);
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
static int self_test(const checker *c, const double *good) {
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
    char *error;
    if (ipcc_frames_list_read(dir, &list, &error) != 0) {
        printf("%s\n", error ? error : "out of memory");
        free(error);
        return -1;
    }
    double *x = malloc(sizeof(double) * 3 * (size_t)c->nv);
    int failed = 0, status = 0;
    const bool has_obstacles = c->nv > c->nd || c->nh > 0;
    if ((list.obstacles != NULL) != has_obstacles) {
        printf("%s: the frames %s obstacle files but the scene %s obstacles\n", list.pvd,
               list.obstacles ? "have" : "have no", has_obstacles ? "has" : "has no");
        status = -1;
    }
    for (int i = 0; i < list.num_frames && status == 0 && x; i++) {
        ipcc_frames_points p = {0}, o = {0};
        const int64_t want_o = (int64_t)(c->nv - c->nd) + 4 * (int64_t)c->nh;
        if (ipcc_frames_points_read(list.bodies[i], &p, &error) != 0 ||
            (list.obstacles && ipcc_frames_points_read(list.obstacles[i], &o, &error) != 0)) {
            printf("%s\n", error ? error : "out of memory");
            free(error);
            status = -1;
        } else if (p.num_points != c->nd || (list.obstacles && o.num_points != want_o)) {
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
                int bad = check_all(c, x, label);
                failed += bad > 0;
                if (bad == 0) printf("%s: %d tets positive, surfaces intersection-free\n", label, c->nt);
            }
        }
        ipcc_frames_points_free(&p);
        ipcc_frames_points_free(&o);
    }
    if (status == 0 && failed == 0 && run_self_test && x) failed += self_test(c, x) > 0;
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
