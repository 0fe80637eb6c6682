// Bodies against analytic shapes, for the shape tests.
#include "shape_checks.h"

#include <math.h>
#include <string.h>

#include "distance.h"
#include "exact_intersection.h"
#include "shape_primitive.h"

ipcc_shape ipcc_test_shape_now(const ipcc_world *w, int i) {
    const ipcc_shape_def *d = ipcc_world_shape_def(w, i);
    ipcc_shape s = {.kind = d->kind};
    memcpy(s.size, d->size, sizeof s.size);
    ipcc_world_shape_pose(w, i, s.center, s.rotation);
    return s;
}

bool ipcc_test_strictly_inside_tet(const double *x, const int *T, const double p[3]) {
    const double *a = x + 3 * T[0], *b = x + 3 * T[1], *c = x + 3 * T[2], *d = x + 3 * T[3];
    int v = ipcc_test_orient3d(a, b, c, d);
    return v != 0 && ipcc_test_orient3d(p, b, c, d) == v && ipcc_test_orient3d(a, p, c, d) == v &&
           ipcc_test_orient3d(a, b, p, d) == v && ipcc_test_orient3d(a, b, c, p) == v;
}

double ipcc_test_surface_distance(const ipcc_world *w, const double p[3]) {
    const double *x = ipcc_world_positions(w);
    double d2 = INFINITY;
    for (int b = 0; b < ipcc_world_num_bodies(w); ++b) {
        if (ipcc_world_body_is_obstacle(w, b)) continue;
        int nf;
        const int *f;
        ipcc_world_body_surface(w, b, &nf, &f);
        for (int k = 0; k < nf; ++k) {
            const double *t0 = x + 3 * f[3 * k], *t1 = x + 3 * f[3 * k + 1], *t2 = x + 3 * f[3 * k + 2];
            d2 = fmin(d2, ipcc_point_triangle_distance(p, t0, t1, t2,
                                                       ipcc_point_triangle_distance_type_of(p, t0, t1, t2)));
        }
    }
    return sqrt(d2);
}

double ipcc_test_least_face_distance(const ipcc_world *w, const ipcc_shape *s) {
    const double *x = ipcc_world_positions(w);
    double d = INFINITY;
    for (int b = 0; b < ipcc_world_num_bodies(w); ++b) {
        if (ipcc_world_body_is_obstacle(w, b)) continue;
        int nf;
        const int *f;
        ipcc_world_body_surface(w, b, &nf, &f);
        for (int k = 0; k < nf; ++k) {
            double wt[3], phi;
            ipcc_shape_triangle_closest(s, x + 3 * f[3 * k], x + 3 * f[3 * k + 1], x + 3 * f[3 * k + 2], wt,
                                        &phi);
            d = fmin(d, phi);
        }
    }
    return d;
}
