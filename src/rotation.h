/// 3x3 rotations (row-major), shared by placement (world.c), prescribed
/// motion (dirichlet.c) and the IPC script loader (scene_ipc.c). Inline; no
/// state.
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

/// Euler angles in degrees about the world axes. With x_first, R = Rz Ry Rx
/// (rotate about x first: ipcc's native "rotation"); otherwise R = Rx Ry Rz
/// (about z first: the original IPC's shape lines, FORMAT.md 3.2).
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
