/// Test support: tolerant comparisons and central-difference derivative checks.
#ifndef IPCC_TEST_SUPPORT_H
#define IPCC_TEST_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <cmocka.h>

/// Scalar function of an n-vector; `ctx` is the caller's data.
typedef double ipcc_test_scalar_fn(const double *x, void *ctx);
/// Vector function (gradient) of an n-vector into g[n].
typedef void ipcc_test_vector_fn(const double *x, void *ctx, double *g);

/// Fail the test unless |a - b| <= atol + rtol * max(|a|, |b|).
#define assert_near(a, b, atol, rtol)                                                                        \
    ipcc_test_assert_near((a), (b), (atol), (rtol), #a, #b, __FILE__, __LINE__)
void ipcc_test_assert_near(double a, double b, double atol, double rtol, const char *ea, const char *eb,
                           const char *file, int line);

/// Central-difference gradient of f at x with step h: g_fd[n].
void ipcc_test_fd_gradient(int n, const double *x, ipcc_test_scalar_fn *f, void *ctx, double h, double *g_fd);
/// Central-difference Jacobian of grad at x: H_fd[n*n], row-major, symmetrized.
void ipcc_test_fd_hessian(int n, const double *x, ipcc_test_vector_fn *grad, void *ctx, double h,
                          double *H_fd);

/// Relative error |a - b|_inf / max(|b|_inf, floor), for comparing arrays.
double ipcc_test_rel_error(int n, const double *a, const double *b, double floor);

/// Uniform random double in [lo, hi) from a deterministic xorshift generator.
double ipcc_test_random(double lo, double hi);
void ipcc_test_seed(unsigned long long seed);
/// C = A B for row-major 3x3 matrices.
void ipcc_test_matmul3(const double A[9], const double B[9], double C[9]);
/// Euclidean (Frobenius) norm of n entries.
double ipcc_test_norm(int n, const double *a);
/// F = P diag(s) Q^T with random rotations P, Q, or F = diag(s) if !rotate.
void ipcc_test_matrix_from_svd(const double s[3], bool rotate, double F[9]);
/// r rotated by angle th about the unit axis k, through the unit quaternion
/// q = (cos(th/2), sin(th/2) k): r' = r + 2 q0 (q x r) + 2 q x (q x r). An
/// independent closed form for tests of rotations computed otherwise.
void ipcc_test_quat_rotate(const double k[3], double th, const double r[3], double out[3]);
/// Uniformly random rotation (row-major 3x3) from a random unit quaternion.
void ipcc_test_random_rotation(double Q[9]);

/// rm -r path (a file or a folder tree); missing paths are fine.
void ipcc_test_remove_tree(const char *path);
/// Whole file, NUL-terminated, malloc'ed; *size (may be NULL) gets its length.
char *ipcc_test_read_file(const char *path, size_t *size);
/// Write `size` bytes to path (created or truncated); fails the test if it cannot.
void ipcc_test_write_file(const char *path, const void *data, size_t size);
/// ipcc_test_write_file of a NUL-terminated text.
void ipcc_test_write_text(const char *path, const char *text);

/// Path of a file in tests/data (static buffer).
const char *ipcc_test_data_path(const char *name);

/// Route the library's programmer-error checks (IPCC_ASSERT) to cmocka's
/// mock_assert() (ipcc_set_assert), so a test expects one with
/// expect_assert_failure(call); any other fails the test instead of
/// aborting the run. The failed condition is then in
/// global_last_failed_assert.
void ipcc_test_catch_asserts(void);

#endif
