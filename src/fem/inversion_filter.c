// Inversion step filter.
//
// For a tet with edge matrix A = [x1-x0, x2-x0, x3-x0] and direction edge
// matrix B (same from p), the signed volume along the step is the cubic
//   f(a) = det(A + a B) = c0 + c1 a + c2 a^2 + c3 a^3,
//   c0 = det A,  c3 = det B,
//   c1 = sum_k det(A with column k replaced by B's column k),
//   c2 = sum_k det(B with column k replaced by A's column k).
// We need the first root of f on (0, inf) given f(0) > 0. Closed-form cubic
// roots lose accuracy in exactly the near-degenerate cases that matter, so
// roots are isolated instead: the real roots of f' (a quadratic, solved with
// the cancellation-free formula) split the positive axis into intervals on
// which f is monotone; the first interval whose end value is <= 0 holds the
// root, found by bisection to relative precision 1e-12. The filter returns
// 0.9 of the earliest root (cf. IPC's feasible-step scaling), and the
// caller's energy also rejects any non-positive volume, so roundoff here can
// never admit an inverted tet.
#include "fem/inversion_filter.h"
#include "base/parallel.h"

#include <math.h>
#include <stdbool.h>

// The filter returns min(1, 0.9 t): a tet whose first root lies at 2 or
// beyond cannot lower it (0.9 * 2 = 1.8, far from rounding to below 1), so
// its root is not searched for. In Newton's tail, where p is tiny, nearly
// every tet's cubic has its first root far out, and the unbounded search
// spent up to 2100 doublings and 40-odd bisections finding it: 7 % of
// mat40x40_twist's run on one thread (issue 33 part 8).
#define INVERSION_LIMIT 2.0

static double det3(const double a[3], const double b[3], const double c[3]) {
    // det[a b c] = a . (b x c)
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
           a[2] * (b[0] * c[1] - b[1] * c[0]);
}

double ipcc_tet_signed_volume6(const double x[12]) {
    double e[3][3];
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i)
            e[k][i] = x[3 * (k + 1) + i] - x[i];
    return det3(e[0], e[1], e[2]);
}

static double cubic(const double c[4], double a) { return ((c[3] * a + c[2]) * a + c[1]) * a + c[0]; }

// Root of f in [lo, hi] given f(lo) > 0 >= f(hi): bisection.
static double bisect(const double c[4], double lo, double hi) {
    for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; ++it) {
        double mid = 0.5 * (lo + hi);
        if (cubic(c, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return lo; // the largest point known to be positive
}

double ipcc_tet_inversion_time_below(const double x[12], const double p[12], double limit) {
    double A[3][3], B[3][3];
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < 3; ++i) {
            A[k][i] = x[3 * (k + 1) + i] - x[i];
            B[k][i] = p[3 * (k + 1) + i] - p[i];
        }
    double c[4];
    c[0] = det3(A[0], A[1], A[2]);
    c[1] = det3(B[0], A[1], A[2]) + det3(A[0], B[1], A[2]) + det3(A[0], A[1], B[2]);
    c[2] = det3(A[0], B[1], B[2]) + det3(B[0], A[1], B[2]) + det3(B[0], B[1], A[2]);
    c[3] = det3(B[0], B[1], B[2]);
    if (!(c[0] > 0)) return 0.0;
    // Critical points: f'(a) = c1 + 2 c2 a + 3 c3 a^2 = 0.
    double crit[2];
    int ncrit = 0;
    double qa = 3 * c[3], qb = 2 * c[2], qc = c[1];
    if (qa == 0) {
        if (qb != 0) crit[ncrit++] = -qc / qb;
    } else {
        double disc = qb * qb - 4 * qa * qc;
        if (disc >= 0) {
            double q = -0.5 * (qb + copysign(sqrt(disc), qb));
            if (q != 0) crit[ncrit++] = q / qa;
            if (q != 0)
                crit[ncrit++] = qc / q;
            else
                crit[ncrit++] = 0;
        }
    }
    if (ncrit == 2 && crit[0] > crit[1]) {
        double t = crit[0];
        crit[0] = crit[1];
        crit[1] = t;
    }
    // Walk the monotone intervals of (0, inf); f(lo) > 0 at each start. A
    // root known to lie beyond `limit` (f > 0 from lo to limit) is
    // INFINITY; below it, the brackets and so the root are the unbounded
    // walk's, bit for bit.
    bool bounded = limit < INFINITY;
    double lo = 0;
    for (int k = 0; k <= ncrit; ++k) {
        if (bounded && lo >= limit) return INFINITY;
        double hi;
        if (k < ncrit) {
            if (crit[k] <= lo) continue;
            hi = crit[k];
        } else {
            // Last interval: f is monotone to +-inf; find an upper bracket.
            if (!(c[3] < 0 || (c[3] == 0 && (c[2] < 0 || (c[2] == 0 && c[1] < 0))))) return INFINITY;
            if (bounded && cubic(c, limit) > 0) return INFINITY;
            hi = fmax(2 * lo, 1.0);
            for (int it = 0; it < 2100 && cubic(c, hi) > 0; ++it)
                hi *= 2;
            if (cubic(c, hi) > 0) return INFINITY;
        }
        if (cubic(c, hi) <= 0) {
            if (bounded && limit < hi && cubic(c, limit) > 0) return INFINITY;
            return bisect(c, lo, hi);
        }
        lo = hi;
    }
    return INFINITY;
}

double ipcc_tet_inversion_time(const double x[12], const double p[12]) {
    return ipcc_tet_inversion_time_below(x, p, INFINITY);
}

double ipcc_inversion_max_step(int num_tets, const int *tets, const double *x, const double *p) {
    double t = INFINITY;
    // min is exact in any order, so the result does not depend on threads.
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, num_tets);
#pragma omp parallel for num_threads(region1_run.threads) schedule(guided, 64) reduction(min : t)
    for (int e = 0; e < num_tets; ++e) {
        double xe[12], pe[12];
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 3; ++i) {
                xe[3 * k + i] = x[3 * tets[4 * e + k] + i];
                pe[3 * k + i] = p[3 * tets[4 * e + k] + i];
            }
        t = fmin(t, ipcc_tet_inversion_time_below(xe, pe, INVERSION_LIMIT));
    }
    ipcc_region_end(&region1_run);
    return fmin(1.0, 0.9 * t);
}
