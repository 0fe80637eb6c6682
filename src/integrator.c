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
// condition (dirichlet.c): deriving a_{n+1} = (x_{n+1} - x_hat)/(beta h^2)
// for a vertex whose x_{n+1} is imposed makes a and v oscillate with an
// amplitude growing like 1/h (a known weakness of Newmark with prescribed
// displacements), which would pump energy into the body at release.
#include <string.h>

#include "world_internal.h"

double ipcc_integrator_potential_scale(const ipcc_world *w) {
    double h = w->def.time_step;
    switch (w->def.integrator) {
    case IPCC_IMPLICIT_EULER: return h * h;
    case IPCC_NEWMARK: return w->def.newmark_beta * h * h;
    case IPCC_STATIC: return 1.0;
    }
    return h * h;
}

void ipcc_integrator_predict(ipcc_world *w) {
    double h = w->def.time_step;
    int m = 3 * w->n;
    switch (w->def.integrator) {
    case IPCC_IMPLICIT_EULER:
        for (int d = 0; d < m; ++d)
            w->x_hat[d] = w->x[d] + h * w->v[d];
        break;
    case IPCC_NEWMARK:
        for (int d = 0; d < m; ++d)
            w->x_hat[d] = w->x[d] + h * w->v[d] + (0.5 - w->def.newmark_beta) * h * h * w->a[d];
        break;
    case IPCC_STATIC: memcpy(w->x_hat, w->x, sizeof(double) * (size_t)m); break;
    }
}

void ipcc_integrator_update(ipcc_world *w) {
    double h = w->def.time_step;
    int m = 3 * w->n;
    switch (w->def.integrator) {
    case IPCC_IMPLICIT_EULER:
        for (int d = 0; d < m; ++d)
            w->v[d] = (w->x[d] - w->x_start[d]) / h;
        break;
    case IPCC_NEWMARK:
        for (int i = 0; i < w->n; ++i) {
            if (w->prescribed[i] >= 0) {
                ipcc_dirichlet_kinematics(w, w->prescribed[i], w->x + 3 * i, w->v + 3 * i, w->a + 3 * i);
                continue;
            }
            for (int d = 3 * i; d < 3 * i + 3; ++d) {
                double a_new = (w->x[d] - w->x_hat[d]) / (w->def.newmark_beta * h * h);
                w->v[d] += h * ((1 - w->def.newmark_gamma) * w->a[d] + w->def.newmark_gamma * a_new);
                w->a[d] = a_new;
            }
        }
        break;
    case IPCC_STATIC: memset(w->v, 0, sizeof(double) * (size_t)m); break;
    }
}

void ipcc_integrator_initialize(ipcc_world *w) {
    int m = 3 * w->n;
    memset(w->a, 0, sizeof(double) * (size_t)m);
    if (w->def.integrator != IPCC_NEWMARK) return;
    // a_0 = g + loads - grad Psi(x_0) / m_i  (lumped M^-1 f)
    ipcc_elastic_gradient_total(w, w->x, w->a);
    for (int i = 0; i < w->n; ++i)
        for (int k = 0; k < 3; ++k)
            w->a[3 * i + k] = w->mass[i] > 0 ? w->def.gravity[k] + (w->has_load ? w->load[3 * i + k] : 0) -
                                                   w->a[3 * i + k] / w->mass[i]
                                             : 0.0;
}
