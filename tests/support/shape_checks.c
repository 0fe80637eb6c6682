// Bodies against analytic shapes, for the shape tests.
#include "shape_checks.h"

#include <math.h>
#include <string.h>

#include "geometry/distance.h"
#include "exact_intersection.h"
#include "shape/shape_primitive.h"
#include "world/world_shapes.h"

ipcc_shape ipcc_test_shape_now(const ipcc_world *w, int i) {
    const ipcc_shape_def *d = ipcc_world_shape_def(w, i);
    ipcc_shape s = {.kind = d->kind};
    memcpy(s.size, d->size, sizeof s.size);
    ipcc_world_shape_pose(w, i, s.center, s.rotation);
    if (d->kind == IPCC_SHAPE_HEIGHT_FIELD) s.field = ipcc_world_shape_field(w, i);
    return s;
}

bool ipcc_test_strictly_inside_tet(const double *x, const int *T, const double p[3]) {
    const double *a = x + 3 * T[0], *b = x + 3 * T[1], *c = x + 3 * T[2], *d = x + 3 * T[3];
    int v = ipcc_test_orient3d(a, b, c, d);
    return v != 0 && ipcc_test_orient3d(p, b, c, d) == v && ipcc_test_orient3d(a, p, c, d) == v &&
           ipcc_test_orient3d(a, b, p, d) == v && ipcc_test_orient3d(a, b, c, p) == v;
}

// The least of f(ctx, triangle) over the surface triangles of w's deformable bodies.
static double least_over_faces(const ipcc_world *w, double (*f)(const void *ctx, const double *const t[3]),
                               const void *ctx) {
    const double *x = ipcc_world_positions(w);
    double least = INFINITY;
    for (int b = 0; b < ipcc_world_num_bodies(w); ++b) {
        if (ipcc_world_body_is_obstacle(w, b)) continue;
        int nf;
        const int *faces;
        ipcc_world_body_surface(w, b, &nf, &faces);
        for (int k = 0; k < nf; ++k) {
            const double *const t[3] = {x + 3 * faces[3 * k], x + 3 * faces[3 * k + 1],
                                        x + 3 * faces[3 * k + 2]};
            least = fmin(least, f(ctx, t));
        }
    }
    return least;
}

static double point_to_face(const void *ctx, const double *const t[3]) {
    const double *p = ctx;
    return ipcc_point_triangle_distance(p, t[0], t[1], t[2],
                                        ipcc_point_triangle_distance_type_of(p, t[0], t[1], t[2]));
}

double ipcc_test_surface_distance(const ipcc_world *w, const double p[3]) {
    return sqrt(least_over_faces(w, point_to_face, p));
}

static double face_to_shape(const void *ctx, const double *const t[3]) {
    double wt[3], phi;
    ipcc_shape_triangle_closest(ctx, t[0], t[1], t[2], wt, &phi);
    return phi;
}

double ipcc_test_least_face_distance(const ipcc_world *w, const ipcc_shape *s) {
    return least_over_faces(w, face_to_shape, s);
}

typedef struct grid_ctx {
    const ipcc_shape *s;
    int grid;
} grid_ctx;

static double grid_to_shape(const void *ctx, const double *const t[3]) {
    const ipcc_shape *s = ((const grid_ctx *)ctx)->s;
    const int n = ((const grid_ctx *)ctx)->grid;
    double least = INFINITY;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; i + j <= n; ++j) {
            double u = (double)i / n, v = (double)j / n, p[3];
            for (int k = 0; k < 3; ++k)
                p[k] = (1 - u - v) * t[0][k] + u * t[1][k] + v * t[2][k];
            least = fmin(least, ipcc_shape_distance(s, p, NULL, NULL));
        }
    return least;
}

double ipcc_test_least_grid_distance(const ipcc_world *w, const ipcc_shape *s, int grid) {
    const grid_ctx c = {s, grid};
    return least_over_faces(w, grid_to_shape, &c);
}
