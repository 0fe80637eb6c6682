/// 3x3 rotations (row-major), shared by placement (world_bodies.c), prescribed
/// motion (boundary_conditions.c), the IPC script loader (scene_ipc.c) and the scene's
/// analytic shapes (scene_shapes.c, scene_write.c). Inline; no state.
#ifndef IPCC_ROTATION_H
#define IPCC_ROTATION_H

#include <math.h>
#include <string.h>

/// C = A B.
static inline void ipcc_mat3_mul(const double A[9], const double B[9], double C[9]) {
    double T[9];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            T[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    memcpy(C, T, sizeof T);
}

/// Rotation by `angle` radians about the unit axis k (Rodrigues):
/// R = c I + s [k]x + (1 - c) k k^T.
static inline void ipcc_rotation_axis_angle(const double k[3], double angle, double R[9]) {
    double c = cos(angle), s = sin(angle);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            R[3 * i + j] = (i == j ? c : 0) + (1 - c) * k[i] * k[j];
    R[1] -= s * k[2];
    R[2] += s * k[1];
    R[3] += s * k[2];
    R[5] -= s * k[0];
    R[6] -= s * k[1];
    R[7] += s * k[0];
}

/// Rotation by |w| radians about w / |w| (identity for w = 0).
static inline void ipcc_rotation_vector(const double w[3], double R[9]) {
    double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    double k[3] = {0, 0, 1};
    if (th > 0)
        for (int i = 0; i < 3; ++i)
            k[i] = w[i] / th;
    ipcc_rotation_axis_angle(k, th, R);
}

/// The minimal rotation taking the local z axis onto the direction of `a`
/// (finite, not zero; any length): a turn about z x a by the angle between
/// them. Its third column is a / |a|. For a along -z it is the half-turn
/// about x, diag(1, -1, -1). With c = a_z (a unit), k = 1 / (1 + c):
///   R = [[1 - k ax^2, -k ax ay, ax], [-k ax ay, 1 - k ay^2, ay], [-ax, -ay, c]],
/// 1 + c computed as (ax^2 + ay^2) / (1 - c) when c < 0 (no cancellation).
static inline void ipcc_rotation_z_to_axis(const double a[3], double R[9]) {
    // Scaled by the largest component first, so no square overflows or underflows.
    double m = fmax(fabs(a[0]), fmax(fabs(a[1]), fabs(a[2])));
    double u[3] = {a[0] / m, a[1] / m, a[2] / m};
    double n = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    double x = u[0] / n, y = u[1] / n, c = u[2] / n, s2 = x * x + y * y;
    if (s2 == 0) {
        double sign = c > 0 ? 1 : -1;
        double I[9] = {1, 0, 0, 0, sign, 0, 0, 0, sign};
        memcpy(R, I, sizeof I);
        return;
    }
    double kxx, kxy, kyy; // k ax^2, k ax ay, k ay^2
    if (c >= 0) {
        double k = 1 / (1 + c);
        kxx = k * x * x, kxy = k * x * y, kyy = k * y * y;
    } else { // k = (1 - c) / s2, applied to ratios in [-1, 1] (s2 may be tiny)
        kxx = (1 - c) * (x * x / s2), kxy = (1 - c) * (x * y / s2), kyy = (1 - c) * (y * y / s2);
    }
    double M[9] = {1 - kxx, -kxy, x, -kxy, 1 - kyy, y, -x, -y, c};
    memcpy(R, M, sizeof M);
}

/// Euler angles in degrees about the world axes. With x_first, R = Rz Ry Rx
/// (rotate about x first: ipcc's native "rotation"); otherwise R = Rx Ry Rz
/// (about z first: the original IPC's shape lines, docs/ipc-script-format.md 3.2).
static inline void ipcc_rotation_euler_degrees(const double deg[3], int x_first, double R[9]) {
    const double to_rad = 3.14159265358979323846 / 180.0;
    double a = deg[0] * to_rad, b = deg[1] * to_rad, c = deg[2] * to_rad;
    double ca = cos(a), sa = sin(a), cb = cos(b), sb = sin(b), cc = cos(c), sc = sin(c);
    double Rx[9] = {1, 0, 0, 0, ca, -sa, 0, sa, ca};
    double Ry[9] = {cb, 0, sb, 0, 1, 0, -sb, 0, cb};
    double Rz[9] = {cc, -sc, 0, sc, cc, 0, 0, 0, 1};
    if (x_first) {
        ipcc_mat3_mul(Ry, Rx, R);
        ipcc_mat3_mul(Rz, R, R);
    } else {
        ipcc_mat3_mul(Rx, Ry, R);
        ipcc_mat3_mul(R, Rz, R);
    }
}

#endif
