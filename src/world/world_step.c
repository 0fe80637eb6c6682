// The time step (ipcc_world_step), as a pipeline of named stages. For the
// step from t_n to t_n + h:
//
//   begin_step      Dirichlet: the conditions active for [t, t + h), the
//                   targets of prescribed vertices and the dof map of
//                   unknowns (boundary_conditions.c); the shapes' motion
//                   over the step (world_shapes.c); the predictor x_hat
//                   (integrator.c); damping's Hessians at x_n.
//   warm_start      Newton's starting point: x_n + h v_n when that motion
//                   is feasible and does not raise E, else x_n. Both are
//                   intersection- and inversion-free. Prescribed vertices
//                   move to their targets inside Newton, through CCD- and
//                   inversion-filtered steps (newton.c, "Prescribed
//                   motion"), so neither a clamp nor an obstacle can jump
//                   through a barrier or invert a tet.
//   solve_lagged    Newton on the incremental potential (newton.c,
//                   incremental_potential.c), once per friction lagging pass.
//   solve_blocked   a prescribed motion that contact blocks: its augmented
//                   Lagrangian finishes the step (dirichlet_penalty.c).
//   end_step        velocities (and Newmark accelerations) from the
//                   positions, the shapes' poses, t += h.
//   report          the contact forces at the new state and the statistics.
//
// The stages up to end_step run once per part of the step (solve_span,
// "Split steps" below): the whole step, or, when Newton does not converge
// it, its halves, quarters... each of length w->h.
//
// A failing step (negative status) restores the state of the step's start.
// The world is started before its first step (world_start.c), never here.
#include <math.h>
#include <string.h>

#include "base/core.h"
#include "contact/contact.h"
#include "contact/friction.h"
#include "fem/integrator.h"
#include "solver/newton.h"
#include "world/boundary_conditions.h"
#include "world/dirichlet_penalty.h"
#include "world/incremental_potential.h"
#include "world/world.h"
#include "world/world_shapes.h"
#include "world/world_span.h"

// What a part's solves found, summed over its passes; for the whole step
// (step_total), summed over its parts.
typedef struct step_solve {
    ipcc_newton_result r;  ///< Newton's figures over every pass (and the penalty phase)
    int passes;            ///< friction lagging passes run
    int friction_contacts; ///< friction contacts of the last pass
    double dissipation;    ///< friction's dissipation over the step, J
    bool blocked;          ///< a prescribed motion ended short of its target
} step_solve;

// The whole step: the work of every part tried (a part redone as two
// halves counts too), the outcome of the parts it ended with.
typedef struct step_total {
    step_solve s;    ///< s.r sums every part's work; s.dissipation the parts kept
    int parts;       ///< parts the step ended with (1 unless split)
    bool converged;  ///< every part kept converged
    double accuracy; ///< the worst accuracy of the parts kept
    bool split;      ///< the step was split: level 0 holds its start (world_span.c)
} step_total;

static void begin_step(ipcc_world *w) {
    if (w->contact) ipcc_contact_begin_step(w->contact);
    int m = 3 * w->n;
    memcpy(w->x_start, w->x, sizeof(double) * (size_t)m);
    ipcc_dirichlet_prepare_step(w);
    ipcc_world_shapes_prepare_step(w);
    ipcc_integrator_predict(&w->def, w->h, m, w->x, w->v, w->a, w->x_hat);
    if (w->damp_H) ipcc_damping_prepare(w);
    // kappa is balanced at the step's first state (incremental_potential.c, stage 3).
    w->balance_stiffness = w->contact != NULL;
}

// Newton's starting point: x_n + h v_n over the free dofs (IPC's
// warmStart 1, docs/ipc-script-format.md 3.6) when that whole motion passes the step filter
// (inversion and CCD, as any Newton step, so the start is as safe as x_n)
// and does not raise the energy; else x_n. Near an impact the motion fails
// the filter or raises the energy (a barrier at a tiny gap), and Newton
// starts where IPC's default would. Starting at x_n resets every contact's
// slip to zero:
// lagged friction measures slip from x_n (friction.c), so a body resting
// under static friction loses its friction force at each step's start and
// Newton must rebuild it through the stiff creep region (3 extra
// iterations per step at rest, measured on a stack of cubes); a body
// sliding or flying starts where it is going. Static solves start at x_n.
static ipcc_status warm_start(ipcc_world *w, const ipcc_objective *obj) {
    if (w->def.integrator == IPCC_STATIC) return IPCC_OK;
    int m = 3 * w->n;
    double *d = w->warm;
    bool any = false;
    for (int k = 0; k < m; ++k) {
        d[k] = w->dof_map[k] >= 0 ? w->h * w->v[k] : 0.0;
        any |= d[k] != 0;
    }
    if (!any) return IPCC_OK;
    double alpha = 1, e0, e1;
    ipcc_status st = obj->max_step(obj->ctx, w->x, d, &alpha);
    if (st != IPCC_OK || alpha < 1) return st;
    if ((st = obj->energy(obj->ctx, w->x, &e0)) != IPCC_OK) return st;
    for (int k = 0; k < m; ++k)
        d[k] += w->x[k];
    if ((st = obj->energy(obj->ctx, d, &e1)) != IPCC_OK) return st;
    if (e1 <= e0) memcpy(w->x, d, sizeof(double) * (size_t)m);
    return IPCC_OK;
}

// The Newton tolerance (relative, tol) of step index `step` (0-based).
static double newton_tolerance(const ipcc_world *w, int step) {
    if (w->def.num_tolerances == 0) return w->def.newton_tolerance;
    return w->tolerances[step < w->def.num_tolerances ? step : w->def.num_tolerances - 1];
}

double ipcc_world_velocity_tolerance(const ipcc_world *w) {
    return newton_tolerance(w, w->step > 0 ? w->step - 1 : 0) * w->bbox_diagonal;
}

// Newton's convergence test for this step: |p|_inf <= tol L h, and the
// force residual below tol L unless the def turns it off.
static ipcc_newton_params newton_params(const ipcc_world *w) {
    double h = ipcc_integrator_tolerance_time(&w->def, w->h);
    double tol = newton_tolerance(w, w->step);
    return (ipcc_newton_params){.tolerance = tol * w->bbox_diagonal * h,
                                .residual_tolerance =
                                    w->def.newton_check_forces ? tol * w->bbox_diagonal : INFINITY,
                                .accuracy_scale = 1 / h,
                                .max_iterations = w->def.newton_max_iterations};
}

// Friction lagging passes (friction.c): the first freezes contacts at the
// step start, each further one at the previous pass's solution (each
// Newton solve starts there, and its first evaluation does the freeze:
// incremental_potential.c, stage 5). Without friction, one Newton solve.
//
// The fixed point (friction_iterations -1) ends a step's passes when
//   - a pass's first state, with friction lagged at itself, already passes
//     the convergence test (IPC's rule, docs/ipc-script-format.md 8.9,
//     with ipcc's test; the passes after the first check it on the last
//     factorization before they factorize: newton.c, "Check on the last
//     factorization"), or
//   - a converged pass moved no vertex by more than the step tolerance
//     (|p|_inf's, tol L h) from the previous pass's solution: a further
//     pass would lag at a state the tolerance cannot tell apart, or
//   - from the third pass on, a converged pass moved the state by more than
//     LAG_CONTRACTION (1/2) of what the pass before moved it: the passes
//     no longer converge to a fixed point, and more of them buy nothing.
//     Where a landing moves a contact by millimetres in its normal
//     direction, the slip projected on a tangent plane lagged at a state a
//     few micrometres away changes by more than friction's smoothing length
//     eps_v h, so the passes wander instead of converging: on the stack of
//     examples/contact_cubes.json (mu 0.5) the landing step's passes moved
//     the state by 5.8e-5 to 8.2e-5 m each, for 20 passes, at tolerance
//     1e-2 (step tolerance 4.5e-5 m) and alike at 1e-4 (5.8e-5 to 7.8e-5 m):
//     the wander does not shrink with the tolerance, the 20 passes cost
//     565 Newton iterations, and stopping at the 4th costs 146
//     (docs/design.md, "Friction").
// The last two need the previous pass's solution (w->x_pass).
#define LAG_CONTRACTION 0.5

static double largest_move(const ipcc_world *w) {
    double d = 0;
    for (int k = 0; k < 3 * w->n; ++k)
        d = fmax(d, fabs(w->x[k] - w->x_pass[k]));
    return d;
}

static ipcc_status solve_lagged(ipcc_world *w, const ipcc_objective *obj, const ipcc_newton_params *params,
                                step_solve *out) {
    const ipcc_step_context sc = ipcc_world_step_context(w);
    ipcc_status st = IPCC_OK;
    int max_passes = 1;
    bool fixed_point = w->def.contact.friction_iterations == -1;
    if (w->friction) max_passes = fixed_point ? 20 : w->def.contact.friction_iterations;
    double moved_before = INFINITY;
    for (;;) {
        // At this pass's start state; with a fixed number of passes the
        // first freezes at x_n, "the start of the step", whatever Newton's
        // starting point (warm_start). The fixed point (-1) does not depend
        // on where the first pass froze, and freezing at Newton's start
        // (IPC's order) measured closer to Coulomb on the slope tests.
        w->lag_friction = w->friction != NULL;
        w->lag_at_start = out->passes == 0 && !fixed_point;
        ipcc_newton_result rp;
        ipcc_newton_params pp = *params;
        pp.prior_ratio = out->passes > 0 ? 0.5 : 0.0; // newton.h
        pp.reuse_factor = out->passes > 0;
        ipcc_status sp = ipcc_newton_solve(w->newton, obj, &pp, ipcc_world_num_dofs(w), w->dof_map,
                                           w->num_unknowns, w->x_target, w->x, &rp);
        ipcc_newton_result_add(&out->r, &rp, out->passes == 0);
        out->passes++;
        if (sp < 0 || st == IPCC_OK) st = sp; // a warning in any pass stays a warning
        if (sp < 0 || !w->friction) break;
        out->friction_contacts = ipcc_friction_count(w->friction);
        ipcc_friction_forces(w->friction, &sc, w->x, w->friction_force, &out->dissipation);
        if (out->passes >= max_passes) break;
        if (!fixed_point) continue;
        double moved = out->passes > 1 ? largest_move(w) : INFINITY;
        memcpy(w->x_pass, w->x, sizeof(double) * 3 * (size_t)w->n);
        if (out->passes > 1 && rp.converged &&
            (rp.iterations == 1 || rp.checked || moved <= params->tolerance ||
             (out->passes > 2 && moved > LAG_CONTRACTION * moved_before)))
            break;
        moved_before = moved;
    }
    return st;
}

// A prescribed motion that contact blocked (the solves did not converge
// and a Dirichlet vertex is short of its target): its augmented Lagrangian
// (dirichlet_penalty.c) finishes the step. Warns once per blocked spell.
static ipcc_status solve_blocked(ipcc_world *w, const ipcc_objective *obj, const ipcc_newton_params *params,
                                 ipcc_status st, step_solve *out) {
    out->blocked = false;
    if (st >= 0 && !out->r.converged && ipcc_dirichlet_blocked(w, params->tolerance)) {
        ipcc_newton_result ra;
        double short_by;
        int c;
        w->lag_friction = false; // friction stays lagged at the last pass's state
        st = ipcc_dirichlet_penalty_solve(w, obj, params, &ra, &short_by, &c);
        out->r.stalled = false;
        ipcc_newton_result_add(&out->r, &ra, false);
        out->blocked = short_by > params->tolerance;
        if (out->blocked && !w->penalty_warned) {
            int b = c >= 0 ? w->dirichlet[c].body : -1, k = 0; // condition c is the body's dirichlet[k]
            for (int j = 0; j < c; ++j)
                k += w->dirichlet[j].body == b;
            ipcc_log(IPCC_LOG_WARNING,
                     "step %d (t = %g): contact blocks body \"%s\"'s dirichlet[%d]: its vertices end up to "
                     "%.3g m short of their targets; the step converged with the augmented Lagrangian "
                     "(docs/design.md). Reported once per blocked spell",
                     w->step + 1, w->time, b >= 0 ? w->bodies[b].name : "?", k, short_by);
        }
        if (st >= 0) st = out->r.converged ? IPCC_OK : IPCC_WARN_NOT_CONVERGED;
    }
    w->penalty_warned = out->blocked;
    return st;
}

// Velocities (and Newmark accelerations) from the new positions; the
// shapes' poses at the progress reached; the clock.
static void end_step(ipcc_world *w, const step_solve *s) {
    if (s->r.stalled)
        ipcc_log(IPCC_LOG_WARNING,
                 "step %d (t = %g): no progress: CCD or the inversion filter allowed steps below 1e-10 for "
                 "%d Newton iterations (a body squeezed between obstacles?); the state is safe but not "
                 "converged",
                 w->step + 1, w->time, s->r.iterations);
    int m = 3 * w->n;
    ipcc_integrator_update(&w->def, w->h, m, w->x_start, w->x, w->x_hat, w->v, w->a);
    if (w->def.integrator == IPCC_NEWMARK && !s->blocked) // prescribed vertices: their exact rigid kinematics
        for (int i = 0; i < w->n; ++i)
            if (w->prescribed[i] >= 0)
                ipcc_dirichlet_kinematics(w, w->prescribed[i], w->x + 3 * i, w->v + 3 * i, w->a + 3 * i);
    ipcc_world_shapes_end_step(w);
    w->time += w->h; // the step's last part sets the step's time (ipcc_world_step)
}

// The contact forces at the new state (and the contact figures of the
// statistics), then the rest of the statistics.
static ipcc_status report(ipcc_world *w, const step_total *total, double t_begin, ipcc_step_stats *stats) {
    if (stats) {
        stats->num_contacts = 0;
        stats->min_distance = INFINITY;
        stats->kappa = stats->time_ccd = stats->time_broad_phase = stats->time_constraint_search = 0;
    }
    if (w->contact) {
        const ipcc_step_context sc = ipcc_world_step_context(w);
        ipcc_status se = ipcc_contact_end_step(w->contact, &sc, w->x, w->contact_force, stats);
        if (se != IPCC_OK) return ipcc_fail(se, "step %d (t = %g): %s", w->step, w->time, ipcc_last_error());
        w->kappa = ipcc_contact_kappa(w->contact);
    }
    if (!stats) return IPCC_OK;
    const step_solve *s = &total->s;
    const ipcc_newton_result *r = &s->r;
    stats->friction_iterations = w->friction ? s->passes : 0;
    stats->friction_contacts = w->friction ? s->friction_contacts : 0;
    stats->friction_dissipation = s->dissipation;
    stats->lift_iterations = r->lift_iterations;
    stats->step = w->step;
    stats->time = w->time;
    stats->newton_iterations = r->iterations;
    stats->line_search_steps = r->line_search_steps;
    stats->factorization_fallbacks = r->fallbacks;
    stats->energy = r->energy;
    stats->residual = r->residual;
    stats->velocity_error = total->accuracy;
    stats->converged = total->converged;
    stats->substeps = total->parts;
    stats->time_assembly = r->time_assembly;
    stats->time_factorization = r->time_factorization;
    stats->time_solve = r->time_solve;
    stats->time_line_search = r->time_line_search;
    stats->time_symbolic = r->time_symbolic;
    stats->time_energy = r->time_energy;
    stats->time_total = ipcc_now() - t_begin;
    return IPCC_OK;
}

// One try at the part of the step of length w->h that starts at w->time.
static ipcc_status solve_part(ipcc_world *w, step_solve *solve) {
    begin_step(w);
    ipcc_objective obj = ipcc_incremental_potential(w);
    ipcc_status st = warm_start(w, &obj);
    if (st != IPCC_OK) return st;
    const ipcc_newton_params params = newton_params(w);
    st = solve_lagged(w, &obj, &params, solve);
    return solve_blocked(w, &obj, &params, st, solve);
}

// Add a part's figures to the step's: its work always, its outcome when it
// is kept.
static void add_part(step_total *total, const step_solve *s, bool kept) {
    bool first = total->s.passes == 0;
    ipcc_newton_result_add(&total->s.r, &s->r, first);
    total->s.passes += s->passes;
    if (!kept) return;
    total->s.friction_contacts = s->friction_contacts;
    total->s.dissipation += s->dissipation;
    total->converged = total->parts == 0 ? s->r.converged : total->converged && s->r.converged;
    total->accuracy = total->parts == 0 ? s->r.accuracy : fmax(total->accuracy, s->r.accuracy);
    total->parts++;
}

// Split steps. The part of length h starting at w->time (the whole step at
// level 0): solved whole, or, when Newton does not converge it and a split
// is left (level < newton.max_splits), redone from its start as two halves,
// each at the next level. Not split: a part that stalled (the step filter
// stopped every direction for 8 iterations: a body squeezed between
// obstacles) or has no unknowns (only prescribed motion, which contact
// blocks: an obstacle pushed into a clamped body); a shorter part is
// blocked alike. Where the step is too hard for Newton at h (the
// impact of 2_mat40x40s_fall_E1e2 ran to the 1000-iteration cap at
// h = 0.025 s, and converged as two halves; the rods of IPC's
// rodsTwist_E1e4_dt2, twisted by 0.2 m per 2 s step, ended their steps
// unconverged after the augmented Lagrangian of a blocked motion, and
// converged as two halves), it is converged at h / 2: an
// implicit Euler step of h / 2 is the same method with a smaller error, so
// the state ends closer to the time-continuous motion than the unconverged
// state of h, and the frames stay one per time step. Each level keeps the
// world's state at its part's start (world_span.c), so only the part that
// failed is redone.
static ipcc_status solve_span(ipcc_world *w, double h, int level, step_total *total) {
    bool can_split = level < w->def.newton_max_splits;
    if (can_split) ipcc_world_span_mark(w, level);
    w->h = h;
    step_solve solve = {0};
    ipcc_status st = solve_part(w, &solve);
    if (st < 0) return st;
    if (solve.r.converged || solve.r.stalled || w->num_unknowns == 0 || !can_split) {
        add_part(total, &solve, true);
        end_step(w, &solve);
        return st;
    }
    add_part(total, &solve, false);
    ipcc_world_span_save(w, level);
    total->split = true;
    ipcc_world_span_restore(w, level);
    ipcc_log(IPCC_LOG_INFO,
             "step %d (t = %g): Newton did not converge a part of %g s in %d iterations; redoing it as two "
             "halves (newton.max_splits)",
             w->step + 1, w->time, h, solve.r.iterations);
    ipcc_status s1 = solve_span(w, h / 2, level + 1, total);
    if (s1 < 0) return s1;
    ipcc_status s2 = solve_span(w, h / 2, level + 1, total);
    if (s2 < 0) return s2;
    return s1 != IPCC_OK ? s1 : s2;
}

ipcc_status ipcc_world_step(ipcc_world *w, ipcc_step_stats *stats) {
    IPCC_ASSERT(w);
    double t_begin = ipcc_now(), t0 = w->time;
    if (!w->started)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "the world is not started: call ipcc_world_start() after adding its bodies");
    step_total total = {0};
    ipcc_status st = solve_span(w, w->def.time_step, 0, &total);
    if (st < 0) {
        // Back to the step's start: level 0's saved start when the step was
        // split (a part may have ended), else the positions (nothing else
        // changes before a part ends).
        if (total.split)
            ipcc_world_span_restore(w, 0);
        else
            memcpy(w->x, w->x_start, sizeof(double) * 3 * (size_t)w->n);
        w->h = w->def.time_step;
        return ipcc_fail(st, "step %d (t = %g): %s", w->step + 1, t0, ipcc_last_error());
    }
    w->time = t0 + w->def.time_step; // as one step of h, whatever its parts
    w->step++;
    ipcc_status sr = report(w, &total, t_begin, stats);
    return sr != IPCC_OK ? sr : st;
}
