// Time integrators as incremental potentials (IPC paper Sec. 3, eq. 2-3).
//
// Each step minimizes  E(x) = 1/2 |x - x_hat|_M^2 + s * (Psi(x) - M g . x).
//
//   implicit Euler:  x_hat = x_n + h v_n,                 s = h^2
//                    v_{n+1} = (x_{n+1} - x_n) / h
//   Newmark (beta, gamma; default 1/4, 1/2, the average-acceleration rule):
//                    x_hat = x_n + h v_n + (1/2 - beta) h^2 a_n,   s = beta h^2
//                    grad E = 0  <=>  M a_{n+1} = f(x_{n+1}) with
//                    x_{n+1} = x_n + h v_n + h^2 ((1/2 - beta) a_n + beta a_{n+1}), so
//                    a_{n+1} = (x_{n+1} - x_hat) / (beta h^2),
//                    v_{n+1} = v_n + h ((1 - gamma) a_n + gamma a_{n+1})
//   static:          no inertia term (M = 0 in the first term), s = 1; v = 0.
//
// Prescribed vertices: implicit Euler uses the same secant velocity. Newmark
// instead takes the exact rigid-motion velocity and acceleration of the
// condition (boundary_conditions.c): deriving a_{n+1} = (x_{n+1} - x_hat)/(beta h^2)
// for a vertex whose x_{n+1} is imposed makes a and v oscillate with an
// amplitude growing like 1/h (a known weakness of Newmark with prescribed
// displacements), which would pump energy into the body at release.
//
// The functions work on plain arrays and the world's def: the world
// (world_step.c, world_start.c) owns the state and calls them, and overwrites Newmark's
// prescribed vertices with their exact kinematics after the update.
#include "fem/integrator.h"

#include <string.h>

double ipcc_integrator_tolerance_time(const ipcc_world_def *def, double h) {
    return def->integrator == IPCC_STATIC ? 1.0 : h;
}

double ipcc_integrator_potential_scale(const ipcc_world_def *def, double h) {
    switch (def->integrator) {
    case IPCC_IMPLICIT_EULER: return h * h;
    case IPCC_NEWMARK: return def->newmark_beta * h * h;
    case IPCC_STATIC: return 1.0;
    }
    return h * h;
}

void ipcc_integrator_predict(const ipcc_world_def *def, double h, int m, const double *x, const double *v,
                             const double *a, double *x_hat) {
    switch (def->integrator) {
    case IPCC_IMPLICIT_EULER:
        for (int d = 0; d < m; ++d)
            x_hat[d] = x[d] + h * v[d];
        break;
    case IPCC_NEWMARK:
        for (int d = 0; d < m; ++d)
            x_hat[d] = x[d] + h * v[d] + (0.5 - def->newmark_beta) * h * h * a[d];
        break;
    case IPCC_STATIC: memcpy(x_hat, x, sizeof(double) * (size_t)m); break;
    }
}

void ipcc_integrator_update(const ipcc_world_def *def, double h, int m, const double *x_start,
                            const double *x, const double *x_hat, double *v, double *a) {
    switch (def->integrator) {
    case IPCC_IMPLICIT_EULER:
        for (int d = 0; d < m; ++d)
            v[d] = (x[d] - x_start[d]) / h;
        break;
    case IPCC_NEWMARK:
        for (int d = 0; d < m; ++d) {
            double a_new = (x[d] - x_hat[d]) / (def->newmark_beta * h * h);
            v[d] += h * ((1 - def->newmark_gamma) * a[d] + def->newmark_gamma * a_new);
            a[d] = a_new;
        }
        break;
    case IPCC_STATIC: memset(v, 0, sizeof(double) * (size_t)m); break;
    }
}

void ipcc_integrator_initial_acceleration(const ipcc_world_def *def, int n, const double *mass,
                                          const double *load, double *a) {
    if (def->integrator != IPCC_NEWMARK) {
        memset(a, 0, sizeof(double) * 3 * (size_t)n);
        return;
    }
    // a_0 = g + loads - grad Psi(x_0) / m_i  (lumped M^-1 f)
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            a[3 * i + k] =
                mass[i] > 0 ? def->gravity[k] + (load ? load[3 * i + k] : 0) - a[3 * i + k] / mass[i] : 0.0;
}
