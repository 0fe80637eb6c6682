// Lagged, mollified Coulomb friction as a dissipative potential (IPC, Li et
// al. 2020, Sec. 5, eq. 10-16).
//
// Derivation. Over a step of length h, contact k's relative tangential
// displacement is u_k = T_k^T sum_i w_i (x_i - x_i^t) (2-vector), with T_k an
// orthonormal tangent basis (3x2) and w the closest-point weights, both
// frozen at a lag state, as is the normal force lambda_k (newtons). The
// tangential velocity is v_k = u_k / h, and mollified Coulomb friction is
//   F_k = -mu lambda_k f1(|u_k|) u_k / |u_k|,
//   f1(y) = -y^2 / eps^2 + 2 y / eps   (y < eps),   1   (y >= eps),
// with eps = eps_v h: below the slip speed eps_v the force fades smoothly
// (C1) to zero, so static friction is approximated by a very stiff creep.
// A potential whose negative gradient is this force is
//   D_k(x) = mu lambda_k f0(|u_k|),   f0' = f1,
//   f0(y) = -y^3 / (3 eps^2) + y^2 / eps + eps / 3   (y < eps),   y   (y >= eps).
// The incremental potential is E = 1/2 |x - xhat|_M^2 + s (Psi - f_ext . x)
// + kappa B + sum_k s D_k: every force term enters scaled by s (h^2 for
// implicit Euler, beta h^2 for Newmark, 1 for static), which is where h^2
// enters. The barrier is not scaled (IPC eq. 3), so the normal force is
// lambda_k = kappa |db/dr| / s with r the distance: for squared distances
// d = r^2, |db/dr| = |b'(d)| 2 sqrt(d). The s cancels in s D_k, so the code
// works with lambda_hat_k = s lambda_k = kappa n |b'(d)| 2 sqrt(d) (n the
// key's multiplicity), from contact.c.
//
// Derivatives. With y = |u|, grad_u (mu lambda_hat f0) = mu lambda_hat f1(y)
// u / y, and
//   H_u = mu lambda_hat [ (f1'(y) y - f1(y)) / y^3 u u^T + f1(y) / y I ].
// For y < eps: f1 / y = 2/eps - y/eps^2 and (f1' y - f1) / y^3 = -1/(eps^2 y),
// so H_u = mu lambda_hat [(2/eps - y/eps^2) I - u u^T / (eps^2 y)], whose
// eigenvalues are 2 (eps - y) / eps^2 (along u) and 2/eps - y/eps^2 (across),
// both >= 0; at y = 0 it is (2/eps) I. For y >= eps: H_u = mu lambda_hat
// (I / y - u u^T / y^3), eigenvalues 0 and 1/y. So H_u is PSD everywhere and
// the full Hessian G H_u G^T (G = w (x) T) is PSD by construction: no
// projection is needed. (IPC instead clamps the eigenvalue along u; with
// this f1 it is never negative.)
//
// Sliding majorant. From |u| = eps on the potential is mu lambda_hat |u|,
// linear along the slip: the exact Hessian has no curvature along u, so
// Newton's model of a sliding contact is a ramp down through u = 0, where
// the potential is a V (mollified). A step that reverses or stops the slip
// overshoots in the model, the energy at the full step rises, and the line
// search backtracks. On the card house (5_hitCardHouse, mu 0.9) the cards
// settling onto each other took 66 Newton iterations in step 3, with
// alpha = 1/16 to 1/64 on 45 of them and the friction energy at the full
// step 10 to 25 times that at the accepted one. The half-quadratic bound
// holds for a radial potential phi(|u|) whose phi'(y) / y does not increase
// (f1(y) / y: 2/eps - y/eps^2 below eps, 1/y above):
//   phi(|v|) <= phi(|u|) + grad . (v - u) + f1(|u|) / (2 |u|) |v - u|^2
// for every v (Geman & Reynolds 1992; the bound behind iteratively
// reweighted least squares), so with the curvature across the slip,
// mu lambda_hat f1(y) / y, put along it too (H_majorant), the model lies
// above the energy and no reversal overshoots. Below eps the majorant is
// the exact Hessian (its curvature along u, f1'(y), is the creep region's
// stiffness). The bound slows a steady slide (a block on a slope converges
// linearly, at about mu g h / v per iteration), so it is put only where
// the exact model failed: a contact goes on the majorant when a trial
// point of the line search (ipcc_friction_energy) turns its slip more than
// 30 degrees (SLIDING_COS) from the slip at the last assembly, and every
// contact goes back to the exact Hessian after a whole Newton step
// (ipcc_friction_accepted), as after a new lag. Either model only picks
// Newton's direction; the convergence tests read the energy and the
// forces. Newton's exact tail uses the exact Hessian (newton.c, "Exact
// curvature in the tail"). Measured (2 threads, Newton iterations per
// step; docs/design.md, "Friction"): the card house 7.35 -> 5.05 at its
// default tolerance and 9.50 -> 5.90 at 1e-4; the stack of
// examples/contact_cubes.json at mu 0.5 2.92 -> 2.65.
//
// Lagging. Contacts, lambda, T and w are frozen at the start of the step
// (friction_iterations = 1, as IPC), or re-frozen at each pass's solution
// for more passes (world_step.c). The incremental potential freezes them at the
// first evaluation of a pass (incremental_potential.c, its stage "friction
// lag"), right after the barrier has (re)balanced kappa at that state:
// freezing before would take lambda from a stale or zero kappa and leave
// the first step of a contact without friction. Relative motion of
// kinematic obstacles is included because their vertices move inside x
// like any other.
//
// Normal forces net of the multiplicities. A barrier key stands for n_k
// terms (contact_multiplicity.c), and n_k < 0 where the inclusion-exclusion
// takes terms back: a vertex of one cube resting on a vertex of another
// (grids aligned) has keys of both signs, whose barrier forces add up to
// its weight. A friction contact per key of positive n_k alone counted
// 2.8 to 4.5 times that weight (the stack of examples/contact_cubes.json at
// its landing: sum of mu lambda 0.0125 to 0.020 against a net 0.0040 to
// 0.0045), so a cube on an aligned cube stuck on a 30 degree slope with
// mu = 0.5 (friction 0.585 of the normal force, Coulomb: slide at 0.657
// m/s^2). A key of negative n_k cannot be a friction contact of its own
// (its potential would be concave), so each vertex's share is scaled
// instead: with N_v the net and P_v the positive part of the normal forces
// of the mesh-mesh keys at vertex v (each weighted by |w_v|), a contact's
// lambda is scaled by the |w|-weighted mean of min(1, max(0, N_v / P_v))
// over its vertices (net_normal_forces). Where no key is negative (every
// scene whose grids do not line up) nothing changes, bit for bit. The
// friction force then stays within mu of the normal force the barrier
// exerts: the aligned cube slides as the offset one does
// (tests/scenes/test_friction_scenes.c).
//
// Coefficients: a pair's mu is contact.friction when set (>= 0), except
// against a half-space with its own coefficient (IPC's rule: selfFric for
// mesh pairs, each halfSpace's mu for its contacts); else sqrt(mu_a mu_b)
// of its two bodies or obstacles (the geometric mean, as Box2D mixes
// friction: a frictionless surface makes every pair on it frictionless).
#include "contact/friction.h"
#include "base/parallel.h"

#include <math.h>
#include <string.h>

#include "base/core.h"
#include "fem/local_to_global.h"
#include "base/vec3.h"

// cos 30 degrees: a trial that turns a sliding contact's slip further puts
// the contact on the majorant ("Sliding majorant").
#define SLIDING_COS 0.86602540378443865

typedef struct friction_contact {
    int kind, obstacle, sample; ///< the constraint's (ipcc_contact_info)
    int nv;
    int vertices[4];
    double weights[4];
    double T[6];         ///< two unit tangents
    double mu_lambda;    ///< mu * lambda_hat (potential units)
    double assembled[2]; ///< the slip at the last assembly (NAN before any)
    bool turned;         ///< a trial turned its slip away from the model's ("Sliding majorant")
    double offset[3];    ///< PS: the step's displacement of the shape's material point in contact, else 0
} friction_contact;

struct ipcc_friction {
    int n, cap;
    friction_contact *c;
    double *energy;                   ///< per contact
    double *grad;                     ///< 12 per contact
    int *slot;                        ///< n + 1 triplet offsets
    int cap_scratch;                  ///< contacts the scratch arrays hold
    double *net, *positive;           ///< per vertex: net and positive normal force (net_normal_forces)
    int cap_vertices;                 ///< vertices they hold
    double eps;                       ///< eps_v t_s of the current step
    double mu, eps_v, smoothing_time; ///< as ipcc_friction_def
    int num_bodies, num_half_spaces, num_shapes;
    double *body_mu, *half_space_mu, *shape_mu; ///< copies of the def's
    int *body_shape;
};

double ipcc_friction_f0(double y, double eps) {
    if (y >= eps) return y;
    return -y * y * y / (3 * eps * eps) + y * y / eps + eps / 3;
}

double ipcc_friction_f1(double y, double eps) {
    if (y >= eps) return 1.0;
    return -y * y / (eps * eps) + 2 * y / eps;
}

// u = T^T sum_i w_i dx_i
static void slip(int nv, const double *weights, const double T[6], const double *dx, double u[2]) {
    double r[3] = {0, 0, 0};
    for (int i = 0; i < nv; ++i)
        for (int k = 0; k < 3; ++k)
            r[k] += weights[i] * dx[3 * i + k];
    u[0] = T[0] * r[0] + T[1] * r[1] + T[2] * r[2];
    u[1] = T[3] * r[0] + T[4] * r[1] + T[5] * r[2];
}

// The block (row-major, 3 nv x 3 nv) of the slip Hessian
// H_u = mu_lambda [c I + q u u^T]: M = T H_u T^T (3x3), then H_ij = w_i w_j M.
static void tangent_block(int nv, const double *weights, const double T[6], double mu_lambda, double c,
                          double q, const double u[2], double *H) {
    double Hu[4] = {mu_lambda * (c + q * u[0] * u[0]), mu_lambda * q * u[0] * u[1],
                    mu_lambda * q * u[1] * u[0], mu_lambda * (c + q * u[1] * u[1])};
    double M[9];
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
            double ta[2] = {T[a], T[3 + a]}, tb[2] = {T[b], T[3 + b]};
            M[3 * a + b] = ta[0] * (Hu[0] * tb[0] + Hu[1] * tb[1]) + ta[1] * (Hu[2] * tb[0] + Hu[3] * tb[1]);
        }
    int n = 3 * nv;
    for (int i = 0; i < nv; ++i)
        for (int j = 0; j < nv; ++j)
            for (int a = 0; a < 3; ++a)
                for (int b = 0; b < 3; ++b)
                    H[n * (3 * i + a) + 3 * j + b] = weights[i] * weights[j] * M[3 * a + b];
}

double ipcc_friction_potential(int nv, const double *weights, const double T[6], double mu_lambda, double eps,
                               const double *dx, double *g, double *H, double *H_majorant) {
    double u[2];
    slip(nv, weights, T, dx, u);
    double y = sqrt(u[0] * u[0] + u[1] * u[1]);
    double value = mu_lambda * ipcc_friction_f0(y, eps);
    if (!g && !H && !H_majorant) return value;
    // f1(y) / y, finite at y = 0 (limit 2 / eps)
    double f1_y = y >= eps ? 1.0 / y : 2.0 / eps - y / (eps * eps);
    double gu[2] = {mu_lambda * f1_y * u[0], mu_lambda * f1_y * u[1]};
    double t_gu[3]; // T grad_u
    for (int k = 0; k < 3; ++k)
        t_gu[k] = T[k] * gu[0] + T[3 + k] * gu[1];
    if (g)
        for (int i = 0; i < nv; ++i)
            for (int k = 0; k < 3; ++k)
                g[3 * i + k] = weights[i] * t_gu[k];
    // H_u = mu_lambda [ c I + q u u^T ]: [c I + q u u^T] is PSD (eigenvalues
    // f1(y) / y and f1'(y)), so with mu_lambda < 0 (a contact key counting
    // -1, contact_multiplicity.c) H_u is NSD and its PSD projection is 0;
    // so is the majorant's (the potential is concave).
    size_t bytes = sizeof(double) * 9 * (size_t)(nv * nv);
    if (mu_lambda < 0) {
        if (H) memset(H, 0, bytes);
        if (H_majorant) memset(H_majorant, 0, bytes);
        return value;
    }
    // c = f1(y) / y across the slip; q u u^T takes along it f1'(y) - f1 / y:
    // -1 / (eps^2 y) in the creep region, -1 / y^3 beyond it, where the
    // majorant ("Sliding majorant") keeps q = 0.
    double q_creep = y > 0 ? -1.0 / (eps * eps * y) : 0.0;
    if (H) tangent_block(nv, weights, T, mu_lambda, f1_y, y >= eps ? -1.0 / (y * y * y) : q_creep, u, H);
    if (H_majorant) tangent_block(nv, weights, T, mu_lambda, f1_y, y >= eps ? 0.0 : q_creep, u, H_majorant);
    return value;
}

void ipcc_friction_destroy(ipcc_friction *f) {
    if (!f) return;
    free(f->c);
    free(f->energy);
    free(f->grad);
    free(f->slot);
    free(f->net);
    free(f->positive);
    free(f->body_mu);
    free(f->body_shape);
    free(f->half_space_mu);
    free(f->shape_mu);
    free(f);
}

// A copy of n doubles (ints), at least one element; NULL when out of memory.
static void *copy_array(const void *src, int n, size_t size) {
    void *dst = malloc(size * (size_t)(n > 0 ? n : 1));
    if (dst && n > 0) memcpy(dst, src, size * (size_t)n);
    return dst;
}

ipcc_status ipcc_friction_create(const ipcc_friction_def *def, ipcc_friction **out) {
    *out = NULL;
    ipcc_friction *f = calloc(1, sizeof *f);
    if (f) {
        f->mu = def->mu;
        f->eps_v = def->eps_v;
        f->smoothing_time = def->smoothing_time;
        f->num_bodies = def->num_bodies;
        f->num_half_spaces = def->num_half_spaces;
        f->num_shapes = def->num_shapes;
        f->body_mu = copy_array(def->body_mu, def->num_bodies, sizeof(double));
        f->body_shape = copy_array(def->body_shape, def->num_bodies, sizeof(int));
        f->half_space_mu = copy_array(def->half_space_mu, def->num_half_spaces, sizeof(double));
        f->shape_mu = copy_array(def->shape_mu, def->num_shapes, sizeof(double));
    }
    if (!f || !f->body_mu || !f->body_shape || !f->half_space_mu || !f->shape_mu) {
        ipcc_friction_destroy(f);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory creating the friction state");
    }
    *out = f;
    return IPCC_OK;
}

int ipcc_friction_count(const ipcc_friction *f) { return f->n; }

// An obstacle's own coefficient, < 0 when not set: a half-space's or a
// shape's, or, for a box's edge obstacle (world_shapes.c), its box's.
static double own_mu(const ipcc_friction *f, const ipcc_contact_info *in) {
    if (in->kind == IPCC_CONTACT_PH) return f->half_space_mu[in->obstacle];
    if (ipcc_contact_kind_on_shape(in->kind)) return f->shape_mu[in->obstacle];
    int b = in->body[1];
    if (b >= 0 && f->body_shape[b] >= 0) return f->shape_mu[f->body_shape[b]];
    return -1;
}

// A pair's coefficient. With contact.friction >= 0 it is that for every pair,
// except contacts with a half-space or shape whose own coefficient is set,
// which use it as is (IPC's selfFric and halfSpace mu, docs/ipc-script-format.md 3.4 and
// 3.6); without it, the geometric mean of the two surfaces' coefficients
// (an unset obstacle coefficient counts as 0).
static double pair_mu(const ipcc_friction *f, const ipcc_contact_info *in) {
    double own = own_mu(f, in);
    if (f->mu >= 0) return own >= 0 ? own : f->mu;
    double other = in->body[1] >= 0 && own < 0 ? f->body_mu[in->body[1]] : fmax(own, 0.0);
    return sqrt(f->body_mu[in->body[0]] * other);
}

// A moving shape's surface slides under a contact too: the slip is relative
// to the material point y of the shape in contact at the lag state, whose
// displacement over the whole step (the start pose to the end pose, exact
// rigid motion) is subtracted from the vertex's.
static void shape_offset(const ipcc_step_context *sc, int i, const double *x_lag, const double y[3],
                         double out[3]) {
    ipcc_shape lag, start, end;
    ipcc_shape_motion_at(&sc->shapes[i], ipcc_step_shape_progress(sc, x_lag), &lag);
    ipcc_shape_motion_at(&sc->shapes[i], 0.0, &start);
    ipcc_shape_motion_at(&sc->shapes[i], 1.0, &end);
    double q[3], ye[3], ys[3];
    ipcc_shape_to_local(&lag, y, q);
    ipcc_shape_to_world(&end, q, ye);
    ipcc_shape_to_world(&start, q, ys);
    for (int k = 0; k < 3; ++k)
        out[k] = ye[k] - ys[k];
}

// Scales the lagged contacts' mu lambda so that at each vertex they add up
// to the net normal force of its mesh-mesh keys, negative multiplicities
// included ("Normal forces net of the multiplicities", above). Serial, in
// the keys' order: the same bits for any thread count.
static ipcc_status net_normal_forces(ipcc_friction *f, const ipcc_contact_info *info, int m,
                                     int num_vertices) {
    bool negative = false;
    for (int k = 0; k < m && !negative; ++k)
        negative = ipcc_contact_kind_mesh(info[k].kind) && info[k].normal_force < 0;
    if (!negative) return IPCC_OK;
    int cap = f->cap_vertices;
    if (ipcc_reserve((void **)&f->net, &cap, num_vertices, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&f->positive, &f->cap_vertices, num_vertices, sizeof(double)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "friction: out of memory for %d vertices", num_vertices);
    for (int i = 0; i < num_vertices; ++i)
        f->net[i] = f->positive[i] = 0;
    for (int k = 0; k < m; ++k) {
        const ipcc_contact_info *in = &info[k];
        if (!ipcc_contact_kind_mesh(in->kind)) continue;
        for (int a = 0; a < ipcc_contact_kind_vertices(in->kind); ++a) {
            double t = in->normal_force * fabs(in->weights[a]);
            f->net[in->vertices[a]] += t;
            if (t > 0) f->positive[in->vertices[a]] += t;
        }
    }
    for (int k = 0; k < f->n; ++k) {
        friction_contact *fc = &f->c[k];
        if (!ipcc_contact_kind_mesh(fc->kind)) continue;
        double weight = 0, share = 0;
        for (int a = 0; a < fc->nv; ++a) {
            int v = fc->vertices[a];
            double r = f->positive[v] > 0 ? f->net[v] / f->positive[v] : 1.0;
            weight += fabs(fc->weights[a]);
            share += fabs(fc->weights[a]) * (r < 0 ? 0.0 : (r > 1 ? 1.0 : r));
        }
        if (weight > 0) fc->mu_lambda *= share / weight;
    }
    return IPCC_OK;
}

ipcc_status ipcc_friction_lag(ipcc_friction *f, ipcc_contact *contact, const ipcc_step_context *sc,
                              const double *x_lag) {
    f->n = 0;
    // Smoothing length eps_v * t_s with t_s = h (IPC's intent) or, for IPC
    // scripts, the 0.025 s IPC's code actually uses (docs/ipc-script-format.md 5, quirk).
    f->eps = f->eps_v * (f->smoothing_time > 0 ? f->smoothing_time : sc->time_step);
    const ipcc_contact_info *info = NULL;
    int m = 0;
    ipcc_status st = ipcc_contact_active(contact, sc, x_lag, &info, &m);
    if (st != IPCC_OK) return st;
    if (ipcc_reserve((void **)&f->c, &f->cap, m + 1, sizeof *f->c) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "friction: out of memory for %d contacts", m);
    for (int k = 0; k < m; ++k) {
        const ipcc_contact_info *in = &info[k];
        double mu = pair_mu(f, in);
        if (!(mu > 0) || !(in->normal_force > 0)) continue;
        friction_contact *fc = &f->c[f->n++];
        fc->nv = ipcc_contact_kind_vertices(in->kind);
        memcpy(fc->vertices, in->vertices, sizeof fc->vertices);
        memcpy(fc->weights, in->weights, sizeof fc->weights);
        tangent_basis3(in->normal, fc->T);
        fc->mu_lambda = mu * in->normal_force;
        fc->kind = in->kind;
        fc->obstacle = in->obstacle;
        fc->sample = in->sample;
        memset(fc->offset, 0, sizeof fc->offset);
        if (ipcc_contact_kind_on_shape(in->kind))
            shape_offset(sc, in->obstacle, x_lag, in->point, fc->offset);
        fc->assembled[0] = fc->assembled[1] = NAN;
        fc->turned = false;
    }
    if ((st = net_normal_forces(f, info, m, sc->num_vertices)) != IPCC_OK) return st;
    if (f->n + 1 > f->cap_scratch) {
        int cap = ipcc_grow_capacity(f->cap_scratch, 64, f->n + 1);
        double *e = realloc(f->energy, sizeof(double) * (size_t)cap);
        if (e) f->energy = e;
        double *g = e ? realloc(f->grad, sizeof(double) * 12 * (size_t)cap) : NULL;
        if (g) f->grad = g;
        int *s = g ? realloc(f->slot, sizeof(int) * (size_t)(cap + 1)) : NULL;
        if (!s) {
            f->n = 0;
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "friction: out of memory for %d contacts", m);
        }
        f->slot = s;
        f->cap_scratch = cap;
    }
    return IPCC_OK;
}

// Unknown index of each of contact fc's dofs (-1 when prescribed); returns 3 nv.
static int contact_dofs(const friction_contact *fc, const ipcc_step_context *sc, int dofs[12]) {
    ipcc_local_dofs(sc->dof_map, fc->nv, fc->vertices, dofs);
    return 3 * fc->nv;
}

// Displacements of contact k's vertices over the step. For a shape contact
// they are relative to the shape's surface: every vertex's displacement
// less the offset, so the weighted sum (weights summing to 1) is the
// contact point's slip relative to the shape.
static void contact_dx(const friction_contact *fc, const ipcc_step_context *sc, const double *x,
                       double dx[12]) {
    for (int i = 0; i < fc->nv; ++i)
        for (int k = 0; k < 3; ++k)
            dx[3 * i + k] = x[3 * fc->vertices[i] + k] - sc->x_start[3 * fc->vertices[i] + k] - fc->offset[k];
}

// Contact fc slid at its last assembly (|u| >= eps) and the slip at dx has
// turned more than 30 degrees away from that slip: the exact model, linear
// along u, does not hold there ("Sliding majorant").
static bool slip_turned(const friction_contact *fc, double eps, const double *dx) {
    const double *a = fc->assembled;
    double ya = sqrt(a[0] * a[0] + a[1] * a[1]);
    if (!(ya >= eps)) return false;
    double u[2];
    slip(fc->nv, fc->weights, fc->T, dx, u);
    double y = sqrt(u[0] * u[0] + u[1] * u[1]);
    return u[0] * a[0] + u[1] * a[1] < SLIDING_COS * y * ya;
}

double ipcc_friction_energy(ipcc_friction *f, const ipcc_step_context *sc, const double *x) {
    int n = f->n;
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, n);
#pragma omp parallel for num_threads(region1_run.threads) schedule(guided, 64)
    for (int k = 0; k < n; ++k) {
        friction_contact *fc = &f->c[k];
        double dx[12];
        contact_dx(fc, sc, x, dx);
        f->energy[k] =
            ipcc_friction_potential(fc->nv, fc->weights, fc->T, fc->mu_lambda, f->eps, dx, NULL, NULL, NULL);
        if (!fc->turned && slip_turned(fc, f->eps, dx)) fc->turned = true;
    }
    ipcc_region_end(&region1_run);
    double e = 0;
    for (int k = 0; k < n; ++k)
        e += f->energy[k];
    return e;
}

// Newton's contraction test (newton.c) must not end a step where a contact
// in the creep region (|u| < eps) converges onto the region's edge: there
// the model's stiffness mu lambda_hat f1'(y) vanishes, and a block that must
// slide creeps by less each iteration, as if converging, while its friction
// force is at its bound. The linear model of the force's magnitude along p,
// mu lambda_hat (f1(y) + f1'(y) dy) with dy the change of |u| (its
// component along u; |du| at y = 0), passing mu lambda_hat says that the
// contact cannot stick where the model puts it.
bool ipcc_friction_within_bound(const ipcc_friction *f, const ipcc_step_context *sc, const double *x,
                                const double *p) {
    int n = f->n, over = 0;
    double eps = f->eps;
    static ipcc_region region2;
    ipcc_region_run region2_run = ipcc_region_begin(&region2, n);
#pragma omp parallel for num_threads(region2_run.threads) schedule(guided, 64) reduction(+ : over)
    for (int k = 0; k < n; ++k) {
        const friction_contact *fc = &f->c[k];
        double dx[12], dp[12], u[2], du[2];
        contact_dx(fc, sc, x, dx);
        slip(fc->nv, fc->weights, fc->T, dx, u);
        double y = sqrt(u[0] * u[0] + u[1] * u[1]);
        if (y >= eps) continue;
        ipcc_local_gather(p, fc->nv, fc->vertices, dp);
        slip(fc->nv, fc->weights, fc->T, dp, du);
        double dy = y > 0 ? (u[0] * du[0] + u[1] * du[1]) / y : sqrt(du[0] * du[0] + du[1] * du[1]);
        // f1'(y) = 2 / eps - 2 y / eps^2
        over += ipcc_friction_f1(y, eps) + (2 - 2 * y / eps) / eps * dy > 1;
    }
    ipcc_region_end(&region2_run);
    return over == 0;
}

// A whole Newton step: every contact's exact model held well enough, so
// each gets it back ("Sliding majorant").
void ipcc_friction_accepted(ipcc_friction *f, bool whole) {
    if (!whole) return;
    for (int k = 0; k < f->n; ++k)
        f->c[k].turned = false;
}

ipcc_status ipcc_friction_assemble(ipcc_friction *f, const ipcc_step_context *sc, const double *x,
                                   const double *lift, double *g, ipcc_triplets *T, double *energy) {
    int n = f->n;
    f->slot[0] = 0;
    for (int k = 0; k < n; ++k) {
        int dofs[12], nd = contact_dofs(&f->c[k], sc, dofs);
        f->slot[k + 1] = f->slot[k] + ipcc_block_triplet_count(nd, dofs);
    }
    if (ipcc_triplets_reserve(T, T->count + f->slot[n]) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "friction: out of memory for %d Hessian entries", f->slot[n]);
    int base = T->count;
    // The exact blocks too, when asked and no prescribed motion is pending
    // (whose g + H lift takes the majorant, as the matrix does).
    bool exact = T->want_exact && !lift;
    if (exact && ipcc_triplets_reserve_exact(T, base, base + f->slot[n]) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "friction: out of memory for %d Hessian entries", f->slot[n]);
    int *rows = T->row + base, *cols = T->col + base;
    double *vals = T->val + base, *exact_vals = exact ? T->exact + (base - T->exact_begin) : NULL;
    static ipcc_region region3;
    ipcc_region_run region3_run = ipcc_region_begin(&region3, n);
#pragma omp parallel for num_threads(region3_run.threads) schedule(guided, 64)
    for (int k = 0; k < n; ++k) {
        friction_contact *fc = &f->c[k];
        double dx[12], H[144], Hx[144], *gk = f->grad + 12 * k;
        int dofs[12], nd = contact_dofs(fc, sc, dofs);
        contact_dx(fc, sc, x, dx);
        slip(fc->nv, fc->weights, fc->T, dx, fc->assembled);
        // The majorant in the matrix where a trial turned the slip, the
        // exact Hessian elsewhere ("Sliding majorant").
        if (fc->turned) {
            f->energy[k] = ipcc_friction_potential(fc->nv, fc->weights, fc->T, fc->mu_lambda, f->eps, dx, gk,
                                                   exact_vals ? Hx : NULL, H);
        } else {
            f->energy[k] =
                ipcc_friction_potential(fc->nv, fc->weights, fc->T, fc->mu_lambda, f->eps, dx, gk, H, NULL);
            if (exact_vals) memcpy(Hx, H, sizeof H);
        }
        if (lift) {
            double le[12];
            ipcc_local_gather(lift, fc->nv, fc->vertices, le);
            ipcc_block_add_product(nd, H, le, gk);
        }
        int s = f->slot[k];
        ipcc_block_triplets_write(nd, dofs, H, 1.0, rows + s, cols + s, vals + s);
        if (exact_vals) // the same rows and columns again
            ipcc_block_triplets_write(nd, dofs, Hx, 1.0, rows + s, cols + s, exact_vals + s);
    }
    ipcc_region_end(&region3_run);
    T->count = base + f->slot[n];
    double e = 0;
    for (int k = 0; k < n; ++k) {
        e += f->energy[k];
        ipcc_local_scatter_add(g, f->c[k].nv, f->c[k].vertices, 1.0, f->grad + 12 * k);
    }
    *energy = e;
    return T->failed ? ipcc_fail(IPCC_ERR_NO_MEMORY, "friction: Hessian triplets: out of memory") : IPCC_OK;
}

void ipcc_friction_contact_force(const ipcc_friction *f, const ipcc_step_context *sc, const double *x, int k,
                                 int *kind, int vertices[4], int *obstacle, int *sample, double force[3]) {
    IPCC_ASSERT(k >= 0 && k < f->n);
    const friction_contact *fc = &f->c[k];
    double dx[12], g[12];
    contact_dx(fc, sc, x, dx);
    ipcc_friction_potential(fc->nv, fc->weights, fc->T, fc->mu_lambda, f->eps, dx, g, NULL, NULL);
    // g_i = w_i T grad_u, and the first primitive's weights sum to 1: it is
    // vertex 0 (weight 1), for EE the vertices 0 and 1 of edge a, for ST,
    // SE, QE and QT (a shape against a triangle or an edge) all of them.
    double s = sc->potential_scale;
    int na = ipcc_contact_kind_edge_edge(fc->kind) ? 2 : (ipcc_contact_kind_on_shape(fc->kind) ? fc->nv : 1);
    for (int d = 0; d < 3; ++d) {
        force[d] = 0;
        for (int a = 0; a < na; ++a)
            force[d] -= g[3 * a + d] / s;
    }
    *kind = fc->kind;
    *obstacle = fc->obstacle;
    *sample = fc->sample;
    memcpy(vertices, fc->vertices, sizeof fc->vertices);
}

void ipcc_friction_forces(ipcc_friction *f, const ipcc_step_context *sc, const double *x, double *force,
                          double *dissipation) {
    memset(force, 0, sizeof(double) * 3 * (size_t)sc->num_vertices);
    double s = sc->potential_scale, work = 0;
    for (int k = 0; k < f->n; ++k) {
        const friction_contact *fc = &f->c[k];
        double dx[12], g[12];
        contact_dx(fc, sc, x, dx);
        ipcc_friction_potential(fc->nv, fc->weights, fc->T, fc->mu_lambda, f->eps, dx, g, NULL, NULL);
        // Work against friction over the step: -F . u = sum_i g_i . dx_i / s
        // (dx relative to a shape's surface for shape contacts)
        for (int i = 0; i < 3 * fc->nv; ++i)
            work += g[i] * dx[i] / s;
        for (int i = 0; i < fc->nv; ++i)
            for (int d = 0; d < 3; ++d)
                force[3 * fc->vertices[i] + d] -= g[3 * i + d] / s;
    }
    *dissipation = work;
}
