// Triangle meshes of the analytic shapes, for the frames (output.c): each
// shape at its current pose becomes a closed, outward-oriented surface in
// obstacles_NNNNNN.vtp. Viewing only: contact uses the exact distance
// (shape.c), so a body resting on a sphere may seem to float by up to the
// tessellation's sagitta r (1 - cos(pi / around)) (2e-3 r at 48 segments).
//
// Every point is computed from the shape's parametrization in its local
// frame and mapped by x = centre + R q, so it lies on the exact surface up
// to rounding (tests/unit/output/test_shape_mesh.c checks |distance| < 1e-12 of the
// shape's size). Orientation: with (u, v) the parameter directions chosen
// so that dq/du x dq/dv points outward, every quad (u, v), (u + 1, v),
// (u + 1, v + 1), (u, v + 1) is split into (0, 1, 2) and (0, 2, 3), and
// the fans around poles and cap centres follow the same rule.
//
//   sphere, ellipsoid  q = (a sin t cos p, b sin t sin p, c cos t),
//                      t = pi i / along (u, from the +z pole),
//                      p = 2 pi j / around (v); the poles are single points
//   box                the 8 corners (+-a, +-b, +-c), two triangles per face
//   cylinder           the cap centres (0, 0, +-h) and the two rims
//                      (r cos p, r sin p, +-h); fans on the caps, one band
//                      of quads (from the top rim down) on the side
//   torus              q = ((R + r cos t) cos p, (R + r cos t) sin p, r sin t),
//                      p = 2 pi j / around (u), t = 2 pi k / along (v)
//   height field       its grid's rectangle, 3 x 3 quads per cell, open
//   plane              a square, open
//
// Volumes of these meshes converge to the shape's at second order in the
// segment angle (the inscribed polygon of n sides has n sin(2 pi / n) / 2
// of the circle's area: -0.29 % at n = 48).
#include "output/shape_mesh.h"

#include <math.h>

#include "base/core.h"

#define SHAPE_MESH_PI 3.14159265358979323846

// A height field is drawn over its grid's rectangle only (it continues
// beyond, flat along the clamped axes): HF_SUB x HF_SUB quads per cell, the
// points on the bicubic surface, counter-clockwise seen from above (+z).
#define HF_SUB 3

static void height_field_grid(const ipcc_shape *s, int *nx, int *ny) {
    *nx = HF_SUB * (ipcc_height_field_cols(s->field) - 1) + 1;
    *ny = HF_SUB * (ipcc_height_field_rows(s->field) - 1) + 1;
}

void ipcc_shape_mesh_count(const ipcc_shape *s, int around, int along, int *num_points, int *num_triangles) {
    if (s->kind != IPCC_SHAPE_HEIGHT_FIELD) {
        ipcc_shape_mesh_size(s->kind, around, along, num_points, num_triangles);
        return;
    }
    int nx, ny;
    height_field_grid(s, &nx, &ny);
    *num_points = nx * ny;
    *num_triangles = 2 * (nx - 1) * (ny - 1);
}

void ipcc_shape_mesh_size(ipcc_shape_kind kind, int around, int along, int *num_points, int *num_triangles) {
    switch (kind) {
    case IPCC_SHAPE_BOX:
        *num_points = 8;
        *num_triangles = 12;
        return;
    case IPCC_SHAPE_PLANE:
        *num_points = 4;
        *num_triangles = 2;
        return;
    case IPCC_SHAPE_HEIGHT_FIELD: // depends on the grid: ipcc_shape_mesh_count
        *num_points = *num_triangles = 0;
        return;
    case IPCC_SHAPE_CYLINDER:
        *num_points = 2 + 2 * around;
        *num_triangles = 4 * around;
        return;
    case IPCC_SHAPE_TORUS:
        *num_points = around * along;
        *num_triangles = 2 * around * along;
        return;
    case IPCC_SHAPE_SPHERE:
    case IPCC_SHAPE_ELLIPSOID:
    default:
        *num_points = 2 + (along - 1) * around;
        *num_triangles = 2 * around * (along - 1);
        return;
    }
}

// Append the quad (a, b, c, d) as the triangles (a, b, c) and (a, c, d).
static int *put_quad(int *t, int a, int b, int c, int d) {
    t[0] = a, t[1] = b, t[2] = c;
    t[3] = a, t[4] = c, t[5] = d;
    return t + 6;
}

static int *put_triangle(int *t, int a, int b, int c) {
    t[0] = a, t[1] = b, t[2] = c;
    return t + 3;
}

// Local points of the tessellation (before the pose).
static void local_points(const ipcc_shape *s, int around, int along, double *q) {
    const double *e = s->size;
    switch (s->kind) {
    case IPCC_SHAPE_HEIGHT_FIELD: {
        int nx, ny;
        height_field_grid(s, &nx, &ny);
        double lo[3], hi[3];
        ipcc_height_field_bounds(s->field, lo, hi);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) {
                double *x = q + 3 * ((size_t)j * nx + i);
                x[0] = i == nx - 1 ? hi[0] : lo[0] + (hi[0] - lo[0]) * i / (nx - 1);
                x[1] = j == ny - 1 ? hi[1] : lo[1] + (hi[1] - lo[1]) * j / (ny - 1);
                x[2] = ipcc_height_field_height(s->field, x[0], x[1], NULL, NULL);
            }
        return;
    }
    case IPCC_SHAPE_BOX:
        for (int i = 0; i < 8; ++i) // corner i: bit k set = +size[k]
            for (int k = 0; k < 3; ++k)
                q[3 * i + k] = (i >> k & 1) ? e[k] : -e[k];
        return;
    case IPCC_SHAPE_PLANE: // a square of half-side size[0] in z = 0, counter-clockwise seen from +z
        for (int i = 0; i < 4; ++i) {
            q[3 * i] = (i == 1 || i == 2) ? e[0] : -e[0];
            q[3 * i + 1] = i >= 2 ? e[0] : -e[0];
            q[3 * i + 2] = 0;
        }
        return;
    case IPCC_SHAPE_CYLINDER: {
        const double r = e[0], h = e[1];
        q[0] = q[1] = q[3] = q[4] = 0;
        q[2] = h;
        q[5] = -h;
        for (int j = 0; j < around; ++j) {
            double p = 2 * SHAPE_MESH_PI * j / around, c = r * cos(p), sn = r * sin(p);
            double *top = q + 3 * (2 + j), *bottom = q + 3 * (2 + around + j);
            top[0] = bottom[0] = c;
            top[1] = bottom[1] = sn;
            top[2] = h;
            bottom[2] = -h;
        }
        return;
    }
    case IPCC_SHAPE_TORUS: {
        const double R = e[0], r = e[1];
        for (int j = 0; j < around; ++j) {
            double p = 2 * SHAPE_MESH_PI * j / around;
            for (int k = 0; k < along; ++k) {
                double t = 2 * SHAPE_MESH_PI * k / along, rho = R + r * cos(t);
                double *x = q + 3 * (j * along + k);
                x[0] = rho * cos(p);
                x[1] = rho * sin(p);
                x[2] = r * sin(t);
            }
        }
        return;
    }
    case IPCC_SHAPE_SPHERE:
    case IPCC_SHAPE_ELLIPSOID:
    default: {
        const double a = e[0], b = s->kind == IPCC_SHAPE_SPHERE ? e[0] : e[1],
                     c = s->kind == IPCC_SHAPE_SPHERE ? e[0] : e[2];
        const int south = 1 + (along - 1) * around;
        q[0] = q[1] = 0;
        q[2] = c;
        q[3 * south] = q[3 * south + 1] = 0;
        q[3 * south + 2] = -c;
        for (int i = 1; i < along; ++i) {
            double t = SHAPE_MESH_PI * i / along, st = sin(t), ct = cos(t);
            for (int j = 0; j < around; ++j) {
                double p = 2 * SHAPE_MESH_PI * j / around;
                double *x = q + 3 * (1 + (i - 1) * around + j);
                x[0] = a * st * cos(p);
                x[1] = b * st * sin(p);
                x[2] = c * ct;
            }
        }
        return;
    }
    }
}

// Triangles of the tessellation, indices from 0.
static void local_triangles(const ipcc_shape *s, int around, int along, int *t) {
    switch (s->kind) {
    case IPCC_SHAPE_HEIGHT_FIELD: {
        int nx, ny;
        height_field_grid(s, &nx, &ny);
        for (int j = 0; j + 1 < ny; ++j)
            for (int i = 0; i + 1 < nx; ++i)
                t = put_quad(t, j * nx + i, j * nx + i + 1, (j + 1) * nx + i + 1, (j + 1) * nx + i);
        return;
    }
    case IPCC_SHAPE_PLANE: put_triangle(put_triangle(t, 0, 1, 2), 0, 2, 3); return;
    case IPCC_SHAPE_BOX: {
        static const int box[36] = {0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4,
                                    2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6};
        for (int k = 0; k < 36; ++k)
            t[k] = box[k];
        return;
    }
    case IPCC_SHAPE_CYLINDER:
        for (int j = 0; j < around; ++j) {
            int j1 = (j + 1) % around;
            int top = 2 + j, top1 = 2 + j1, bottom = 2 + around + j, bottom1 = 2 + around + j1;
            t = put_triangle(t, 0, top, top1);
            t = put_triangle(t, 1, bottom1, bottom);
            t = put_quad(t, top, bottom, bottom1, top1);
        }
        return;
    case IPCC_SHAPE_TORUS:
        for (int j = 0; j < around; ++j) {
            int j1 = (j + 1) % around;
            for (int k = 0; k < along; ++k) {
                int k1 = (k + 1) % along;
                t = put_quad(t, j * along + k, j1 * along + k, j1 * along + k1, j * along + k1);
            }
        }
        return;
    case IPCC_SHAPE_SPHERE:
    case IPCC_SHAPE_ELLIPSOID:
    default: {
        const int south = 1 + (along - 1) * around;
#define RING(i, j) (1 + ((i)-1) * around + (j) % around)
        for (int j = 0; j < around; ++j) {
            t = put_triangle(t, 0, RING(1, j), RING(1, j + 1));
            for (int i = 1; i + 1 < along; ++i)
                t = put_quad(t, RING(i, j), RING(i + 1, j), RING(i + 1, j + 1), RING(i, j + 1));
            t = put_triangle(t, RING(along - 1, j), south, RING(along - 1, j + 1));
        }
#undef RING
        return;
    }
    }
}

void ipcc_shape_mesh(const ipcc_shape *s, int around, int along, double *points, int *triangles, int offset) {
    IPCC_ASSERT(s && points && triangles && around >= 3 && along >= 2);
    int np, nt;
    ipcc_shape_mesh_count(s, around, along, &np, &nt);
    local_points(s, around, along, points);
    for (int i = 0; i < np; ++i)
        ipcc_shape_to_world(s, points + 3 * i, points + 3 * i);
    local_triangles(s, around, along, triangles);
    for (int k = 0; k < 3 * nt; ++k)
        triangles[k] += offset;
}
