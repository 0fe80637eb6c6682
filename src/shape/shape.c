// Analytic collision shapes: exact signed distance, closest point, normal.
//
// Every shape is evaluated in its local frame, q = R^T (x - c), and the
// closest point and normal are mapped back with R.
//   sphere     |q| - r.
//   box        the standard box distance: outside, the distance to the
//              clamped point; inside, minus the distance to the nearest face
//              (the closest point is on that face).
//   cylinder   the same in the (rho, z) half-plane, rho = |(q_x, q_y)|, with
//              the rectangle [0, r] x [-h, h], mapped back along (q_x, q_y).
//   torus      |(rho - R, q_z)| - r_minor: the distance to the core circle
//              minus the tube radius.
//   ellipsoid  Eberly's method ("Distance from a Point to an Ellipse, an
//              Ellipsoid, or a Hyperellipsoid", Geometric Tools, 2013): with
//              the semi-axes sorted e0 >= e1 >= e2 and the point reflected
//              into the first octant, the closest point is
//              x_i = r_i y_i / (s + r_i), r_i = (e_i / e2)^2, where s is the
//              root of G(s) = sum_i (r_i z_i / (s + r_i))^2 - 1, z_i = y_i / e_i,
//              on [z_2 - 1, |(r0 z0, r1 z1, z2)| - 1] (G is monotone there).
//              It is found by bisection until the midpoint equals an end
//              point: the root to the last bit, whatever the conditioning
//              (at most ~1100 halvings, typically ~60). Points on a
//              coordinate plane reduce to the 2D ellipse problem, or to the
//              closed form of the case where the closest point leaves the
//              plane (a point inside, near the middle of the flattest axis).
// Degenerate directions (the centre of a sphere, the axis of a cylinder or
// torus, the core circle of a torus) have many closest points; one is
// chosen, and the distance is exact either way.
#include "shape/shape.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/rotation.h"
#include "base/vec3.h"

// The closest point's coordinate along the smallest axis e: y / (s + 1), or,
// when that is ill-conditioned, from the surface equation (rest = 1 - the
// other axes' terms). Near s = -1 (a point close to the plane y = 0, inside)
// s + 1 carries rounding of the order of 1e-16 while y may be as small, so
// y / (s + 1) can be wrong in its first digit; the surface equation is then
// well-conditioned, because the coordinate is large: (x / e)^2 >= 1/4 is
// used as the switch (below it, s + 1 > 2 y / e, so the quotient is accurate).
static double smallest_axis(double e, double y, double s, double rest) {
    double from_surface = e * sqrt(fmax(0.0, rest));
    if (rest >= 0.25 || !(s + 1 > 0)) return from_surface;
    double x = y / (s + 1);
    return isfinite(x) ? x : from_surface;
}

// Root s of G(s) = sum_i (r_i z_i / (s + r_i))^2 - 1 over n = 2 (ellipse) or
// 3 axes, the last the smallest (r = 1); g = G(0) = sum z_i^2 - 1 says on
// which side of 0 the root lies. The bracket is the preamble's.
static double ellipsoid_root(int n, const double r[], const double z[], double g) {
    double norm = 0;
    for (int i = 0; i < n; ++i)
        norm += (r[i] * z[i]) * (r[i] * z[i]);
    double s0 = z[n - 1] - 1, s1 = g < 0 ? 0 : sqrt(norm) - 1, s = 0;
    for (int it = 0; it < 2200; ++it) {
        s = 0.5 * (s0 + s1);
        if (s == s0 || s == s1) break;
        double gs = -1;
        for (int i = 0; i < n; ++i) {
            double t = r[i] * z[i] / (s + r[i]);
            gs += t * t;
        }
        if (gs > 0)
            s0 = s;
        else if (gs < 0)
            s1 = s;
        else
            break;
    }
    return s;
}

// Closest point x of the ellipse with semi-axes e0 >= e1 > 0 to y >= 0.
static void ellipse_closest(double e0, double e1, double y0, double y1, double *x0, double *x1) {
    if (y1 > 0) {
        if (y0 > 0) {
            double z0 = y0 / e0, z1 = y1 / e1, g = z0 * z0 + z1 * z1 - 1;
            if (g != 0) {
                double r0 = (e0 / e1) * (e0 / e1),
                       s = ellipsoid_root(2, (double[]){r0, 1}, (double[]){z0, z1}, g);
                *x0 = s + r0 > 0 ? r0 * y0 / (s + r0) : 0;
                *x1 = smallest_axis(e1, y1, s, 1 - (*x0 / e0) * (*x0 / e0));
            } else {
                *x0 = y0;
                *x1 = y1;
            }
        } else {
            *x0 = 0;
            *x1 = e1;
        }
        return;
    }
    double numer0 = e0 * y0, denom0 = e0 * e0 - e1 * e1;
    if (numer0 < denom0) {
        double xde0 = numer0 / denom0;
        *x0 = e0 * xde0;
        *x1 = e1 * sqrt(fmax(0.0, 1 - xde0 * xde0));
    } else {
        *x0 = e0;
        *x1 = 0;
    }
}

// Closest point of the ellipsoid with semi-axes e0 >= e1 >= e2 > 0 to y >= 0.
static void ellipsoid_closest(const double e[3], const double y[3], double x[3]) {
    if (y[2] > 0) {
        if (y[1] > 0) {
            if (y[0] > 0) {
                double z0 = y[0] / e[0], z1 = y[1] / e[1], z2 = y[2] / e[2];
                double g = z0 * z0 + z1 * z1 + z2 * z2 - 1;
                if (g != 0) {
                    double r0 = (e[0] / e[2]) * (e[0] / e[2]), r1 = (e[1] / e[2]) * (e[1] / e[2]);
                    double s = ellipsoid_root(3, (double[]){r0, r1, 1}, (double[]){z0, z1, z2}, g);
                    x[0] = s + r0 > 0 ? r0 * y[0] / (s + r0) : 0;
                    x[1] = s + r1 > 0 ? r1 * y[1] / (s + r1) : 0;
                    x[2] = smallest_axis(e[2], y[2], s,
                                         1 - (x[0] / e[0]) * (x[0] / e[0]) - (x[1] / e[1]) * (x[1] / e[1]));
                } else {
                    memcpy(x, y, 3 * sizeof(double));
                }
            } else {
                x[0] = 0;
                ellipse_closest(e[1], e[2], y[1], y[2], &x[1], &x[2]);
            }
        } else if (y[0] > 0) {
            x[1] = 0;
            ellipse_closest(e[0], e[2], y[0], y[2], &x[0], &x[2]);
        } else {
            x[0] = x[1] = 0;
            x[2] = e[2];
        }
        return;
    }
    // y2 = 0: the closest point may leave the plane (inside, near the middle).
    double denom0 = e[0] * e[0] - e[2] * e[2], denom1 = e[1] * e[1] - e[2] * e[2];
    double numer0 = e[0] * y[0], numer1 = e[1] * y[1];
    if (numer0 < denom0 && numer1 < denom1) {
        double xde0 = numer0 / denom0, xde1 = numer1 / denom1, discr = 1 - xde0 * xde0 - xde1 * xde1;
        if (discr > 0) {
            x[0] = e[0] * xde0;
            x[1] = e[1] * xde1;
            x[2] = e[2] * sqrt(discr);
            return;
        }
    }
    x[2] = 0;
    ellipse_closest(e[0], e[1], y[0], y[1], &x[0], &x[1]);
}

static double ellipsoid_local(const double e[3], const double q[3], double c[3], double n[3]) {
    // Sort the axes descending, reflect into the first octant.
    int order[3] = {0, 1, 2};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2 - i; ++j)
            if (e[order[j]] < e[order[j + 1]]) {
                int t = order[j];
                order[j] = order[j + 1];
                order[j + 1] = t;
            }
    double es[3], ys[3], xs[3];
    for (int i = 0; i < 3; ++i) {
        es[i] = e[order[i]];
        ys[i] = fabs(q[order[i]]);
    }
    ellipsoid_closest(es, ys, xs);
    double inside = 0;
    for (int i = 0; i < 3; ++i) {
        int k = order[i];
        c[k] = copysign(xs[i], q[k]);
        n[k] = c[k] / (e[k] * e[k]);
        inside += (q[k] / e[k]) * (q[k] / e[k]);
    }
    double d =
        sqrt((q[0] - c[0]) * (q[0] - c[0]) + (q[1] - c[1]) * (q[1] - c[1]) + (q[2] - c[2]) * (q[2] - c[2]));
    return inside < 1 ? -d : d;
}

// Signed distance to the rectangle [-a, a] x [-b, b] in 2D, closest point and normal.
static double rectangle_local(double a, double b, double u, double v, double c[2], double n[2]) {
    double du = fabs(u) - a, dv = fabs(v) - b;
    if (du > 0 || dv > 0) {
        c[0] = fmax(-a, fmin(a, u));
        c[1] = fmax(-b, fmin(b, v));
        double wu = u - c[0], wv = v - c[1], d = hypot(wu, wv);
        n[0] = wu / d;
        n[1] = wv / d;
        return d;
    }
    c[0] = u;
    c[1] = v;
    n[0] = n[1] = 0;
    if (du >= dv) { // nearest face: u = +-a
        c[0] = u < 0 ? -a : a;
        n[0] = u < 0 ? -1 : 1;
        return du;
    }
    c[1] = v < 0 ? -b : b;
    n[1] = v < 0 ? -1 : 1;
    return dv;
}

static double box_local(const double h[3], const double q[3], double c[3], double n[3]) {
    double d[3], out = 0;
    bool outside = false;
    for (int i = 0; i < 3; ++i) {
        d[i] = fabs(q[i]) - h[i];
        c[i] = fmax(-h[i], fmin(h[i], q[i]));
        if (d[i] > 0) {
            outside = true;
            out += d[i] * d[i];
        }
    }
    if (outside) {
        out = sqrt(out);
        for (int i = 0; i < 3; ++i)
            n[i] = (q[i] - c[i]) / out;
        return out;
    }
    int k = d[0] >= d[1] && d[0] >= d[2] ? 0 : d[1] >= d[2] ? 1 : 2;
    n[0] = n[1] = n[2] = 0;
    c[k] = q[k] < 0 ? -h[k] : h[k];
    n[k] = q[k] < 0 ? -1 : 1;
    return d[k];
}

const char *ipcc_shape_kind_name(ipcc_shape_kind kind) {
    static const char *const names[] = {
        "sphere", "box", "cylinder", "ellipsoid", "torus", "moving half-space", "height_field"};
    return kind >= IPCC_SHAPE_SPHERE && kind <= IPCC_SHAPE_HEIGHT_FIELD ? names[kind] : NULL;
}

void ipcc_shape_to_local(const ipcc_shape *s, const double x[3], double q[3]) {
    const double *R = s->rotation;
    double p[3] = {x[0] - s->center[0], x[1] - s->center[1], x[2] - s->center[2]};
    for (int i = 0; i < 3; ++i)
        q[i] = R[i] * p[0] + R[3 + i] * p[1] + R[6 + i] * p[2];
}

void ipcc_shape_to_world(const ipcc_shape *s, const double q[3], double x[3]) {
    const double *R = s->rotation;
    double t[3] = {q[0], q[1], q[2]}; // q and x may alias
    for (int i = 0; i < 3; ++i)
        x[i] = s->center[i] + R[3 * i] * t[0] + R[3 * i + 1] * t[1] + R[3 * i + 2] * t[2];
}

void ipcc_shape_point_velocity(const double v[3], const double w[3], const double c[3], const double x[3],
                               double out[3]) {
    double r[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
    out[0] = v[0] + w[1] * r[2] - w[2] * r[1];
    out[1] = v[1] + w[2] * r[0] - w[0] * r[2];
    out[2] = v[2] + w[0] * r[1] - w[1] * r[0];
}

double ipcc_shape_distance(const ipcc_shape *s, const double x[3], double closest[3], double normal[3]) {
    const double *R = s->rotation;
    double q[3], c[3], n[3], d;
    ipcc_shape_to_local(s, x, q);
    double rho = hypot(q[0], q[1]), ux = rho > 0 ? q[0] / rho : 1, uy = rho > 0 ? q[1] / rho : 0;
    switch (s->kind) {
    case IPCC_SHAPE_SPHERE: {
        double r = s->size[0], len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        double dir[3] = {0, 0, 1};
        if (len > 0)
            for (int i = 0; i < 3; ++i)
                dir[i] = q[i] / len;
        for (int i = 0; i < 3; ++i) {
            c[i] = r * dir[i];
            n[i] = dir[i];
        }
        d = len - r;
        break;
    }
    case IPCC_SHAPE_BOX: d = box_local(s->size, q, c, n); break;
    case IPCC_SHAPE_PLANE: // the plane z = 0 of the local frame
        c[0] = q[0], c[1] = q[1], c[2] = 0;
        n[0] = 0, n[1] = 0, n[2] = 1;
        d = q[2];
        break;
    case IPCC_SHAPE_HEIGHT_FIELD: d = ipcc_height_field_distance(s->field, q, c, n); break;
    case IPCC_SHAPE_CYLINDER: {
        double c2[2], n2[2];
        d = rectangle_local(s->size[0], s->size[1], rho, q[2], c2, n2);
        c[0] = c2[0] * ux, c[1] = c2[0] * uy, c[2] = c2[1];
        n[0] = n2[0] * ux, n[1] = n2[0] * uy, n[2] = n2[1];
        break;
    }
    case IPCC_SHAPE_TORUS: {
        double w0 = rho - s->size[0], w1 = q[2], len = hypot(w0, w1);
        double a = len > 0 ? w0 / len : 1, b = len > 0 ? w1 / len : 0;
        double cr = s->size[0] + s->size[1] * a;
        c[0] = cr * ux, c[1] = cr * uy, c[2] = s->size[1] * b;
        n[0] = a * ux, n[1] = a * uy, n[2] = b;
        d = len - s->size[1];
        break;
    }
    case IPCC_SHAPE_ELLIPSOID:
    default: {
        d = ellipsoid_local(s->size, q, c, n);
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int i = 0; i < 3; ++i)
            n[i] /= len;
        break;
    }
    }
    if (closest) ipcc_shape_to_world(s, c, closest);
    for (int i = 0; normal && i < 3; ++i)
        normal[i] = R[3 * i] * n[0] + R[3 * i + 1] * n[1] + R[3 * i + 2] * n[2];
    return d;
}

static void rotate_local(const double R[9], const double L[9], double H[9]);

// An ellipsoid E of semi-axes e_i: a point q with f = sum (q_i / e_i)^2 =
// t^2 > 1 lies on the boundary of tE, and with u the outward normal of tE
// there, every point a of E has |q - a| >= (q - a) . u >= h_tE(u) - h_E(u)
// = (t - 1) h_E(u) >= (t - 1) e_min (h the support functions): a lower
// bound on the distance for the cost of a square root, where the exact one
// bisects to the last bit.
double ipcc_shape_distance_bounded(const ipcc_shape *s, const double x[3], double r) {
    double q[3];
    switch (s->kind) {
    case IPCC_SHAPE_HEIGHT_FIELD:
        ipcc_shape_to_local(s, x, q);
        return ipcc_height_field_distance_bounded(s->field, q, r);
    case IPCC_SHAPE_ELLIPSOID: {
        ipcc_shape_to_local(s, x, q);
        double f = 0, e_min = fmin(s->size[0], fmin(s->size[1], s->size[2]));
        for (int k = 0; k < 3; ++k)
            f += (q[k] / s->size[k]) * (q[k] / s->size[k]);
        double bound = (sqrt(f) - 1) * e_min;
        return bound >= r ? bound : ipcc_shape_distance(s, x, NULL, NULL);
    }
    case IPCC_SHAPE_SPHERE:
    case IPCC_SHAPE_BOX:
    case IPCC_SHAPE_CYLINDER:
    case IPCC_SHAPE_TORUS:
    case IPCC_SHAPE_PLANE: return ipcc_shape_distance(s, x, NULL, NULL);
    }
    return ipcc_shape_distance(s, x, NULL, NULL);
}

// Hessian of d = phi^2 at a point outside (phi > 0), for the barrier
// (contact.c). With n the outward normal at the closest point and K the
// Hessian of the distance phi,
//   grad d = 2 phi n,   H d = 2 n n^T + 2 phi K,
// and K = sum_i k_i / (1 + phi k_i) t_i t_i^T over the principal curvatures
// k_i and directions t_i at the closest point (the Hessian of a distance
// function, e.g. Gilbarg & Trudinger, Sec. 14.6). phi K is formed directly,
// so corners and edges (where K ~ 1 / phi) stay well-conditioned:
//   sphere        phi K = phi / |q| (I - n n^T)
//   box           a face region 0; an edge region (two coordinates clamped,
//                 e the free axis) I - e e^T - n n^T; a corner I - n n^T
//   cylinder      side: phi / rho t t^T (t the circumferential direction);
//                 cap: 0; rim (distance to the rim circle of radius r):
//                 I - n n^T - (r / rho) t t^T, from the Jacobian
//                 (r / rho) t t^T of the closest point on a circle
//   torus         the core circle's: (phi / delta) (I - n n^T - (R / rho) t t^T),
//                 delta = phi + r the distance to the core circle
//   plane         0 (flat)
//   height field  height_field.c (patches, creases, corners)
//   ellipsoid     T [phi S (I + phi S)^-1] T^T with T a tangent basis and S
//                 the shape operator T^T diag(1/e^2) T / |diag(1/e^2) c| of
//                 the implicit surface sum (c_i / e_i)^2 = 1
// (local frame; rotated to the world's by R).
void ipcc_shape_distance2_hessian(const ipcc_shape *s, const double x[3], double H[9]) {
    const double *R = s->rotation;
    double q[3];
    ipcc_shape_to_local(s, x, q);
    if (s->kind == IPCC_SHAPE_HEIGHT_FIELD) { // height_field.c has the whole local Hessian
        double L[9];
        ipcc_height_field_distance2_hessian(s->field, q, L);
        rotate_local(R, L, H);
        return;
    }
    ipcc_shape local = *s;
    memset(local.center, 0, sizeof local.center);
    memcpy(local.rotation, (double[9]){1, 0, 0, 0, 1, 0, 0, 0, 1}, sizeof local.rotation);
    double c[3], n[3];
    double phi = fmax(ipcc_shape_distance(&local, q, c, n), 0.0);
    double K[9] = {0}; // phi * Hessian of phi, local
    double rho = hypot(q[0], q[1]);
    double t[3] = {rho > 0 ? -q[1] / rho : 0, rho > 0 ? q[0] / rho : 1, 0};
    double I_nn[9];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            I_nn[3 * i + j] = (i == j) - n[i] * n[j];
    switch (s->kind) {
    case IPCC_SHAPE_SPHERE: {
        double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
        for (int k = 0; k < 9; ++k)
            K[k] = len > 0 ? phi / len * I_nn[k] : 0;
        break;
    }
    case IPCC_SHAPE_BOX: {
        int clamped = 0, free_axis = -1;
        for (int i = 0; i < 3; ++i)
            if (fabs(q[i]) > s->size[i])
                clamped++;
            else
                free_axis = i;
        if (clamped >= 2)
            for (int k = 0; k < 9; ++k)
                K[k] = I_nn[k] - (clamped == 2 && k / 3 == free_axis && k % 3 == free_axis);
        break;
    }
    case IPCC_SHAPE_CYLINDER: {
        bool side = rho > s->size[0], end = fabs(q[2]) > s->size[1];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                double tt = t[i] * t[j];
                if (side && end)
                    K[3 * i + j] = I_nn[3 * i + j] - s->size[0] / rho * tt;
                else if (side)
                    K[3 * i + j] = phi / rho * tt;
            }
        break;
    }
    case IPCC_SHAPE_PLANE: break;        // flat: K = 0
    case IPCC_SHAPE_HEIGHT_FIELD: break; // handled above
    case IPCC_SHAPE_TORUS: {
        double delta = phi + s->size[1];
        if (rho > 0)
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    K[3 * i + j] = phi / delta * (I_nn[3 * i + j] - s->size[0] / rho * t[i] * t[j]);
        break;
    }
    case IPCC_SHAPE_ELLIPSOID:
    default: {
        // Tangent basis T = (a, b) orthonormal to n (K does not depend on which).
        double T[6];
        tangent_basis3(n, T);
        const double *a = T, *b = T + 3;
        double g = 0, D[3];
        for (int i = 0; i < 3; ++i) {
            D[i] = 1 / (s->size[i] * s->size[i]);
            g += (D[i] * c[i]) * (D[i] * c[i]);
        }
        g = sqrt(g);
        double s00 = 0, s01 = 0, s11 = 0;
        for (int i = 0; i < 3; ++i) {
            s00 += a[i] * D[i] * a[i] / g;
            s01 += a[i] * D[i] * b[i] / g;
            s11 += b[i] * D[i] * b[i] / g;
        }
        // M = phi S (I + phi S)^-1 (S and (I + phi S) commute, M is symmetric)
        double A00 = 1 + phi * s00, A01 = phi * s01, A11 = 1 + phi * s11, det = A00 * A11 - A01 * A01;
        double i00 = A11 / det, i01 = -A01 / det, i11 = A00 / det;
        double m00 = phi * (s00 * i00 + s01 * i01), m01 = phi * (s00 * i01 + s01 * i11),
               m11 = phi * (s01 * i01 + s11 * i11);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                K[3 * i + j] = m00 * a[i] * a[j] + m01 * (a[i] * b[j] + b[i] * a[j]) + m11 * b[i] * b[j];
        break;
    }
    }
    // Local 2 (n n^T + K), rotated: H = R L R^T.
    double L[9];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            L[3 * i + j] = 2 * (n[i] * n[j] + K[3 * i + j]);
    rotate_local(R, L, H);
}

// H = R L R^T.
static void rotate_local(const double R[9], const double L[9], double H[9]) {
    double RL[9];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            RL[3 * i + j] = R[3 * i] * L[j] + R[3 * i + 1] * L[3 + j] + R[3 * i + 2] * L[6 + j];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            H[3 * i + j] = RL[3 * i] * R[3 * j] + RL[3 * i + 1] * R[3 * j + 1] + RL[3 * i + 2] * R[3 * j + 2];
}

void ipcc_shape_moved(const ipcc_shape *start, const double vh[3], const double wh[3], double s,
                      ipcc_shape *out) {
    *out = *start;
    if (s == 0) return;
    double ws[3] = {s * wh[0], s * wh[1], s * wh[2]}, R[9];
    for (int k = 0; k < 3; ++k)
        out->center[k] = start->center[k] + s * vh[k];
    if (ws[0] == 0 && ws[1] == 0 && ws[2] == 0) return;
    ipcc_rotation_vector(ws, R);
    ipcc_mat3_mul(R, start->rotation, out->rotation);
}

void ipcc_shape_motion_at(const ipcc_shape_motion *m, double s, ipcc_shape *out) {
    ipcc_shape_moved(&m->start, m->vh, m->wh, s, out);
}

bool ipcc_shape_convex(ipcc_shape_kind kind) {
    switch (kind) {
    case IPCC_SHAPE_SPHERE:
    case IPCC_SHAPE_BOX:
    case IPCC_SHAPE_CYLINDER:
    case IPCC_SHAPE_ELLIPSOID:
    case IPCC_SHAPE_PLANE: return true;
    case IPCC_SHAPE_TORUS:
    case IPCC_SHAPE_HEIGHT_FIELD: return false;
    }
    return false;
}

// A cylinder's and a torus' inner parallel bodies at depth delta are the
// cylinder (r - delta, h - delta) and the torus (R, r - delta). For an
// ellipsoid E of semi-axes a_i, E' of a_i - delta holds the inner parallel
// body K: their support functions satisfy h_E(u) = |(a_i u_i)| <=
// |((a_i - delta) u_i)| + |delta u| = h_E'(u) + delta (Minkowski's
// inequality), and h_K <= h_E - delta, so h_K <= h_E' and K is in E'.
void ipcc_shape_inset(ipcc_shape *s, double depth) {
    switch (s->kind) {
    case IPCC_SHAPE_CYLINDER:
        s->size[0] -= depth;
        s->size[1] -= depth;
        return;
    case IPCC_SHAPE_ELLIPSOID:
        for (int k = 0; k < 3; ++k)
            s->size[k] -= depth;
        return;
    case IPCC_SHAPE_TORUS: s->size[1] -= depth; return;
    case IPCC_SHAPE_SPHERE:
    case IPCC_SHAPE_BOX:
    case IPCC_SHAPE_PLANE:
    case IPCC_SHAPE_HEIGHT_FIELD: return;
    }
}

double ipcc_shape_least_radius(const ipcc_shape *s) {
    switch (s->kind) {
    case IPCC_SHAPE_HEIGHT_FIELD: return ipcc_height_field_least_radius(s->field);
    case IPCC_SHAPE_CYLINDER: return s->size[0];
    case IPCC_SHAPE_TORUS: return s->size[1];
    case IPCC_SHAPE_ELLIPSOID: { // c^2 / a, at the ends of the longest axis a
        double lo = fmin(s->size[0], fmin(s->size[1], s->size[2])),
               hi = fmax(s->size[0], fmax(s->size[1], s->size[2]));
        return lo * lo / hi;
    }
    case IPCC_SHAPE_SPHERE:
    case IPCC_SHAPE_BOX:
    case IPCC_SHAPE_PLANE: return 0;
    }
    return 0;
}

double ipcc_shape_bounding_radius(const ipcc_shape *s) {
    switch (s->kind) {
    case IPCC_SHAPE_SPHERE: return s->size[0];
    case IPCC_SHAPE_BOX:
        return sqrt(s->size[0] * s->size[0] + s->size[1] * s->size[1] + s->size[2] * s->size[2]);
    case IPCC_SHAPE_CYLINDER: return sqrt(s->size[0] * s->size[0] + s->size[1] * s->size[1]);
    case IPCC_SHAPE_ELLIPSOID: return fmax(s->size[0], fmax(s->size[1], s->size[2]));
    case IPCC_SHAPE_TORUS: return s->size[0] + s->size[1];
    case IPCC_SHAPE_PLANE: return INFINITY;
    case IPCC_SHAPE_HEIGHT_FIELD: return INFINITY; // continued beyond its grid for ever
    }
    return 0;
}
