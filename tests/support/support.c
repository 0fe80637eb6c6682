// Test support: tolerant comparisons and central-difference derivative checks.
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ipcc/base.h"

static void mock_ipcc_assert(const char *condition, const char *file, int line) {
    mock_assert(0, condition, file, line); // longjmps to expect_assert_failure, or fails the test
}

void ipcc_test_catch_asserts(void) { ipcc_set_assert(mock_ipcc_assert); }

void ipcc_test_assert_near(double a, double b, double atol, double rtol, const char *ea, const char *eb,
                           const char *file, int line) {
    double tol = atol + rtol * fmax(fabs(a), fabs(b));
    if (!(fabs(a - b) <= tol)) {
        print_error("%s = %.17g is not near %s = %.17g (|diff| = %.3g > tol %.3g)\n", ea, a, eb, b,
                    fabs(a - b), tol);
        _fail(file, line);
    }
}

void ipcc_test_fd_gradient(int n, const double *x, ipcc_test_scalar_fn *f, void *ctx, double h,
                           double *g_fd) {
    double xp[n];
    memcpy(xp, x, sizeof(double) * (size_t)n);
    for (int i = 0; i < n; ++i) {
        xp[i] = x[i] + h;
        double fp = f(xp, ctx);
        xp[i] = x[i] - h;
        double fm = f(xp, ctx);
        xp[i] = x[i];
        g_fd[i] = (fp - fm) / (2 * h);
    }
}

void ipcc_test_fd_hessian(int n, const double *x, ipcc_test_vector_fn *grad, void *ctx, double h,
                          double *H_fd) {
    double xp[n], gp[n], gm[n];
    memcpy(xp, x, sizeof(double) * (size_t)n);
    for (int j = 0; j < n; ++j) {
        xp[j] = x[j] + h;
        grad(xp, ctx, gp);
        xp[j] = x[j] - h;
        grad(xp, ctx, gm);
        xp[j] = x[j];
        for (int i = 0; i < n; ++i)
            H_fd[i * n + j] = (gp[i] - gm[i]) / (2 * h);
    }
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j) {
            double s = 0.5 * (H_fd[i * n + j] + H_fd[j * n + i]);
            H_fd[i * n + j] = H_fd[j * n + i] = s;
        }
}

double ipcc_test_rel_error(int n, const double *a, const double *b, double floor) {
    double num = 0, den = floor;
    for (int i = 0; i < n; ++i) {
        num = fmax(num, fabs(a[i] - b[i]));
        den = fmax(den, fabs(b[i]));
    }
    return num / den;
}

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;

void ipcc_test_seed(unsigned long long seed) { rng_state = seed ? seed : 0x9E3779B97F4A7C15ull; }

double ipcc_test_random(double lo, double hi) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

void ipcc_test_random_rotation(double Q[9]) {
    double q[4], n = 0;
    for (int i = 0; i < 4; ++i) {
        q[i] = ipcc_test_random(-1, 1);
        n += q[i] * q[i];
    }
    n = sqrt(n);
    double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    // R(q) for the unit quaternion (w, x, y, z)
    double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                   2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    memcpy(Q, R, sizeof R);
}

void ipcc_test_matmul3(const double A[9], const double B[9], double C[9]) {
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

double ipcc_test_norm(int n, const double *a) {
    double s = 0;
    for (int i = 0; i < n; ++i)
        s += a[i] * a[i];
    return sqrt(s);
}

void ipcc_test_matrix_from_svd(const double s[3], bool rotate, double F[9]) {
    double P[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, Q[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, PS[9], Qt[9];
    if (rotate) {
        ipcc_test_random_rotation(P);
        ipcc_test_random_rotation(Q);
    }
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            PS[3 * i + j] = P[3 * i + j] * s[j];
            Qt[3 * i + j] = Q[3 * j + i];
        }
    ipcc_test_matmul3(PS, Qt, F);
}

const char *ipcc_test_data_path(const char *name) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", IPCC_TEST_DATA, name);
    return buf;
}

void ipcc_test_quat_rotate(const double k[3], double th, const double r[3], double out[3]) {
    double q0 = cos(th / 2), s = sin(th / 2), q[3] = {s * k[0], s * k[1], s * k[2]};
    double qr[3] = {q[1] * r[2] - q[2] * r[1], q[2] * r[0] - q[0] * r[2], q[0] * r[1] - q[1] * r[0]};
    double qqr[3] = {q[1] * qr[2] - q[2] * qr[1], q[2] * qr[0] - q[0] * qr[2], q[0] * qr[1] - q[1] * qr[0]};
    for (int j = 0; j < 3; ++j)
        out[j] = r[j] + 2 * q0 * qr[j] + 2 * qqr[j];
}
