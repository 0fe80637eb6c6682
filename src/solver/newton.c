// Projected Newton with a filtered backtracking line search.
//
// Each iteration (IPC paper, Li et al. 2020, Alg. 1):
//   1. E, g, H = objective.evaluate(x)       H already PSD-projected per block
//   2. solve H p = -g over the unknowns       CHOLMOD, symbolic analysis reused
//   3. stop if |p|_inf <= tolerance           (IPC's criterion, tol * L * h)
//      and the force residual <= residual_tolerance (below), at x + p when
//      the whole of p is feasible and does not raise E ("Final step")
//   4. alpha = min(1, objective.max_step(x, p))   step filter: inversion, CCD
//   5. backtrack alpha /= 2 until E(x + alpha p) <= E(x) (to its rounding:
//      "Energy noise" below)
//
// Convergence. A small step alone does not mean a balanced state: where a
// term's Hessian is huge (a barrier at a small gap, static friction's creep
// region) the step H^-1 g is tiny while the unbalanced force g is not. So
// the objective's residual (the largest velocity error a vertex's unbalanced
// force gives over the step, incremental_potential.c) must be within its own
// tolerance as well. Once the step test holds, the step test alone
// decides (result.rough), as IPC's would, only where rounding is all that
// is left:
//   - the last NEWTON_ROUNDING_RUN line searches each backtracked and either
//     moved x by at most NEWTON_ROUNDING_MOVE (1e-6) of the step tolerance
//     or changed the energy by no more than its rounding slack (a spinning
//     cube in free flight at tolerance 1e-10 accepted alpha = 1.5e-5 at an
//     unchanged energy for 990 iterations), and every contact gap is
//     settled: the direction changes no active contact's distance by more
//     than NEWTON_GAP_SETTLED of itself (objective.gap_change). There the energy's changes are rounding: a
//     ball sliding over a triangulated plane at tolerance 1e-5 (tests/scenes/
//     test_internal_edges.c) converged quadratically to |p| = 1e-9 m, with
//     a force residual of 5.3e-6 m/s against its tolerance of 3.5e-6, and
//     every later line search "decreased" the energy in its 13th digit by
//     moving x by 1e-16 to 1e-18 m. A gap that CCD closes by 5x per
//     iteration, or that the log barrier's curvature lets reopen by only
//     about itself per iteration, moves far in relative terms while |p| is
//     tiny in metres: the state is not balanced (issue 18, item 6: a ball
//     stuck to a mat with an attractive net contact force), hence the gap
//     condition;
//   - the line search found no decrease at all.
// Energy noise. Near the solution the decrease a Newton step buys, about
// g . p / 2, falls below the energy's rounding: E sums terms far larger
// than their changes. A line search then sees a right step "raise" E,
// backtracks, and a run of such line searches ends the step at the
// rounding exit above with the force residual over its tolerance: the card
// house (5_hitCardHouse) at tolerances 1e-4 and 1e-5 ended steps so with
// velocity_error 0.0045 m/s, 8.7x and 88x its tolerance. So a direction
// that already passes the step test and that the filter allows whole is
// taken whole when it raises E by at most NEWTON_ENERGY_NOISE (1e-11) of
// |E|: it moves x by at most the step tolerance, through a segment the
// filter certified like any other, and the force test still decides
// convergence. The card house then converges every step at 1e-4 and 1e-5
// (worst velocity_error 4.0e-4 and 4.9e-7 m/s, within tolerance), in 9.55
// and 9.15 Newton iterations per step instead of 11.5 and 11.8.
// There is no exit for kinks: the contact energy is C1 (nearly parallel
// edges included, collision/parallel_edges.c), and the kink exit it once
// had (the same run of line searches moving x by at most 1 % of the
// tolerance, issue 33 part 3) is gone (part 4): with the kinks smoothed,
// what it caught on the card house was a barrier closing a gap, smooth
// (the one-sided slopes along p agreed with g . p to 4 digits) but far from
// quadratic, its line searches backtracking 16x to 32x: it ended step 3
// with a force residual of 287 m/s, where 10 more iterations converge it
// with 0.024 m/s, and the run takes fewer iterations (5.90 per step
// against 6.10).
// A slow residual is no exit either. An exit for "the residual fell by less
// than half and |p| is within 1 % of the step tolerance" ended a 20 m/s
// impact onto a box where projected Newton was passing a saddle: |p| had
// contracted by 0.74 per iteration for ten iterations with the force
// residual stuck near 0.5 m/s; continued, |p| turned and grew for thirty
// iterations, and the step converged 1.6 mm (4.6e-3 L) away, with a force
// residual of 2e-4 m/s. The projected Hessian hides the negative curvature
// that drives the iterates off a saddle, so a small |p| there says nothing;
// the residual (or the contraction test below, which asks for the
// contraction itself and 100x less) does.
// The accuracy figure (result.accuracy) reports what was left either way.
//
// Final step. The direction p of the iteration that passes the step and
// force tests has been solved for; IPC discards it and ends at x. ipcc
// takes it when the step filter allows all of it and E(x + p) <= E(x):
// one CCD query and one energy evaluation, no factorization, and in
// Newton's quadratic regime the error falls from about |p| to O(|p|^2).
// It matters where the dynamics are slow against the tolerance: a block on
// a 30 degree slope with mu 3 % below tan(30) gains a h = 1.5e-3 m/s per
// step, less than tol L = 1.7e-3 m/s, so the warm start x_n + h v_n passed
// both tests at once, the block was never given its acceleration, and it
// accelerated at 0.041 m/s^2 for Coulomb's 0.147; with the final step it
// is exact to 5 digits (and takes 2.3 iterations per step instead of 2.8,
// the lagging passes settling sooner). result.accuracy stays the residual
// at x, before the step (result.final_step says it was taken). Not after
// the rough exits: there the quadratic model is what failed.
//
// Contraction. The force test is a certificate that ignores the stiffness:
// where a stiff term holds the state (a barrier at its equilibrium gap, a
// sticking contact in friction's creep region) a position error far below
// the tolerance leaves a large unbalanced force, and the iterations that
// drive it down buy no accuracy (a frictional stack of cubes spent 22
// Newton iterations per step there, most of them with |p| far below the
// step tolerance).
// A second certificate measures the error itself, from the iterates: when
// Newton contracts, x_{k+1} - x* ~ theta/(1 - theta) p_k with theta the
// ratio |p_k| / |p_{k-1}| of consecutive full steps (Hairer & Wanner,
// Solving ODEs II, Sec. IV.8, eq. 8.10-8.11, the stopping test of
// simplified Newton in implicit Runge-Kutta codes). So a step also ends,
// at x + p, when
//   - the last two directions were each taken whole (alpha = 1: no CCD or
//     inversion cut, no backtracking), as was the one before them, so both
//     ratios are contractions of Newton itself, and theta, the larger of the
//     two, is below 1;
//   - the estimate theta/(1 - theta) |p|_inf is within NEWTON_CONTRACTION
//     (1 %) of the step tolerance: a hundred times stricter than the step
//     test, because a fast contraction seen over two steps can be a
//     transient (a 20 m/s impact's deepest step passed the test at the
//     step tolerance 1e-3 L h off the converged state);
//   - the model held along p (objective.model_change <= NEWTON_GAP_SETTLED:
//     every gap moved by at most half of itself, and no sticking friction
//     contact's model force passed Coulomb's bound, which is where a block
//     that must slide converges onto the edge of the creep region).
// result.accuracy is then the estimate (times params.accuracy_scale), and
// result.contracted says so. From a given state the test only ever ends
// a step earlier than the force test would (over a run the trajectory,
// and so the count, can differ).
//
// Exact curvature in the tail. Each contact key's barrier block and each
// tet's elastic block is projected to PSD on its own (IPC's per-block
// projection), which drops negative curvature the energy really has: the
// barrier of a point-point distance has the Hessian
// b'' n n^T + (b'/d)(I - n n^T) with b' < 0, a tangential curvature of minus
// the contact force over the gap (point-edge and edge-edge keys alike), and
// a compressed Neo-Hookean element has negative eigenvalues. Inertia and
// the other terms usually hold them, so the whole Hessian is positive
// definite with them, but without them Newton's model is stiffer than the
// energy and the iteration converges linearly, at the ratio of the dropped
// curvature to the kept: 0.89 per iteration on the landing of
// examples/contact_cubes.json (mu 0.5; the barrier's), |p| 100x below the
// step tolerance while the force residual held the step for 40
// iterations; 0.7 in the tail of a 40 m/s cube's impact on a slab
// (elasticity's). So in Newton's tail, after a whole step (alpha = 1) no
// longer than NEWTON_EXACT_TAIL (10) step tolerances, an iteration first
// factorizes the Hessian with the elastic and contact blocks exact
// (unprojected; each contact key's multiplicity times its barrier's
// Hessian, unfolded: their sum is the contact energy's Hessian; friction's
// own where a contact is on its sliding majorant, friction.c), which the
// terms write beside the projected values
// (sparse.h, the triplets' exact values). That Hessian is the energy's
// own (but for the samples of curved shapes, whose blocks stay projected),
// positive definite near every strict minimum. Where CHOLMOD finds it positive definite and the
// step filter (CCD, inversion) allows all of its direction, that direction
// is taken, a descent direction, through the line search like any other;
// otherwise the projected blocks are swapped in and the iteration goes on
// as IPC's (the try cost a factorization, and a CCD query when the filter
// refused it). Not while a prescribed motion is pending (its g + H lift
// takes the projected blocks). The energy, the step filter and the
// convergence tests do not change, only the directions.
// Why only whole, and only in the tail: far from the solution the exact
// Hessian can be positive definite yet nearly singular, its direction long
// along the nearly flat mode and into a contact. With exact contact blocks
// tried after every whole step, a 40 m/s cube leaving a soft mat
// (bench/scenes/impact_shot_cube_mat.json) took directions cut to 3 to 8 %
// by CCD in its release step; they broke the scene's symmetry by 3e-5 m,
// and the run at tolerance 1e-3 ended 1.3e-3 L from its converged run
// (projected Newton: 2.6e-6 L); tried within 10 or 100 step tolerances it
// ended within 1e-5 L, within 1000 at 1.3e-3 L again. Tried within 10 step
// tolerances but taken even when cut, a 40 m/s cube into a slab pinned at
// two sides (tests/scenes/test_fast_impacts.c) took a direction 40 times
// the last one's length, cut to 6 % by CCD, in its impact step, and ended
// 1.1e-2 L from its run at 1e-4 (projected: 4.1e-5 L); taken only whole,
// 2.6e-5 L. A bound on the direction's growth instead (2, 4 or 10 times the
// last direction) lost 2_matKnives' gain (40.3 to 40.8 iterations per
// step, against 24.3), whose useful exact directions are long and whole.
// Elasticity exact everywhere (newton.project_hessian false) sent
// shot_cube_mat 0.49 L off, with 68 shifted factorizations.
// Measured, one thread, default tolerance, Newton it/step and wall
// (projected only -> exact contact blocks in the tail -> exact elastic
// blocks too): 2_matKnives 47.5 -> 24.3 -> 19.6 (10.6 -> 9.4 s for the
// last two), shot_cube_mat 24.6 -> 19.7 -> 15.6 (6.8 -> 6.0 s), the
// frictional stack 4.20 -> 2.92 -> 2.92 with the check below
// (bench/results/2026-11-29-issue33-part6.md).
// Lazy projection. An exact try needs the projected blocks only when it is
// refused (not positive definite, or cut by the filter) or blended; taken,
// they were computed for nothing, and for elasticity they are most of the
// assembly (a 3x3 SVD and eigen-solve per tet, against none for the
// Neo-Hookean exact block). So a try with no blend pending (beta = 0)
// asks for a lazy evaluate (sparse.h, lazy_projection): elasticity writes
// its exact blocks as both values, and objective.projected_hessian computes
// the projected ones at the same x only when a refusal or a blend reads
// them (ensure_projected). Results are bit for bit those of computing both
// (tests/unit/world/test_incremental_potential.c). Measured, one thread,
// sums of time_total, medians of 3 interleaved: mat40x40_twist (10 steps)
// 1.067 -> 0.913 s, 2_matKnives (5) 2.319 -> 2.202 s, the card house (6)
// 5.416 -> 5.108 s, shot_cube_mat (8) 4.438 -> 4.343 s.
// Whole lifts. An iteration with prescribed motion pending (a lift) solves
// the unknowns' response to the whole remaining motion; taken whole
// (alpha = 1) it leaves every prescribed dof at its target, and from there
// on Newton solves a fixed problem, so the lift counts as a whole step, of
// its unknowns' part of |p| (the motion of the prescribed dofs is no error
// of the iteration), for the contraction test and for the exact tail, which
// after a whole lift reaches NEWTON_EXACT_AFTER_LIFT (100) step tolerances:
// the unknowns' part follows the prescribed motion, so it measures the
// load rather than the distance to the solution. On IPC's mat40x40_twist,
// whose clamped ends turn in every step, each step was a lift, a projected
// iteration (the lift did not count as whole), an exact one and a last
// exact one that the contraction test could not spare (its first ratio
// needed a whole step before it): 4.00 iterations per step, now 3.00 (the
// second is exact, the third ends the step); examples/mat_twist.json 4.20
// -> 3.65; the scenes without prescribed motion unchanged, bit for bit
// (bench/results/2026-11-30-issue33-part9.md). A tail of 100 step
// tolerances after every whole step gained on the impacts too
// (shot_cube_mat 14.9 -> 14.05) but sent the 40 m/s plate of
// tests/scenes/test_shape_face_samples.c around its sphere (see "Why only
// whole, and only in the tail" above).
// Blend. Where the exact Hessian is not positive definite, the energy has
// more negative curvature there than inertia holds, and the projection
// drops all of it where only part needs to go: on 2matsFall's step 11 (two
// soft mats meeting in full) all 142 tries were refused, and projected
// Newton crept for 155 iterations, |p| near 0.1 step tolerances and the
// force residual 100 to 1000 times its tolerance. So a refused try is
// retried on the blend H(beta) = H_exact + beta (H_projected - H_exact):
// each block's projection only adds curvature, so the correction
// beta (H_projected - H_exact) is positive semidefinite and grows with
// beta, from the energy's own Hessian at 0 to IPC's at 1 (a Hessian
// modification, Nocedal & Wright, Numerical Optimization, 2nd ed., Sec.
// 3.4, with the projection's own correction as the modification). At the
// 142 states of that step the blend was positive definite with beta = 0.1
// at 23, with 0.3 at 109, with 0.6 at 140.
// The share beta adapts over a solve like a trust region's radius: 0.25
// after a refused exact try, doubled after each blend that is not positive
// definite (at most NEWTON_BLEND_TRIES factorizations an iteration; at 1
// the next iteration skips its try and comes back at 0.5), halved after
// each direction taken (to 0 below NEWTON_BLEND_FLOOR); it starts at 0 in
// every solve, so a resumed run finds it as the run left it. Taken under
// the same rule as the exact directions (positive definite, allowed
// whole). 2matsFall's step 11 took 86 iterations instead of 155, in 44 s
// instead of 72 (a third of those 72 s went into the refused factorizations).
//
// Check on the last factorization. A friction lagging pass after the first
// (params.reuse_factor) starts where the previous pass converged, with
// friction frozen anew there; the pass ends at once (IPC's fixed point,
// world_step.c) when that start passes the convergence test. That test
// needs a direction, and a fresh one costs a factorization for a state
// that mostly does not move (a resting stack: every step's second pass,
// half of its factorizations). So the first direction is solved first on
// the factorization the previous pass left, the Hessian of the same state
// under the previous pass's friction: when the force test holds exactly (g
// is fresh) and that direction is within NEWTON_CHECK_MARGIN (half) of the
// step tolerance, the solve ends converged there, with x unchanged and no
// iteration counted (result.checked). The two Hessians differ only in
// friction's lagged terms (the normal forces and tangent planes, frozen a
// pass apart) and in a kappa update, so at the fixed point the two
// directions agree to that relative change, which the margin covers;
// otherwise the check costs one back-substitution and the iteration goes
// on with the evaluation it already made. Only within a step: the
// factorization of the step before is not one a resumed run would have.
//
// Prescribed motion. Prescribed dofs (Dirichlet vertices, kinematic obstacles)
// start the solve where the previous step left them and must reach `target`.
// Jumping them there would skip the step filter: an obstacle could pass
// through a body, or a clamp invert a tet. Instead their remaining motion
// lift = target - x is part of every direction: p_p = lift, and the free dofs
// solve the linearized problem H_ff p_f = -(g_f + H_fp lift_p) (the objective
// adds H lift to g). The step is then bounded by max_step like any other, so
// every accepted state is feasible. While a lift is pending the energy is not
// comparable between iterates (the prescribed dofs are not minimized over),
// so the largest feasible alpha is taken without the decrease test; once the
// prescribed dofs reach their targets (alpha = 1 places them exactly; a lift
// shortened by the filter every time ends within the tolerance) the
// iteration is ordinary projected Newton. A motion that a contact blocks for
// good (a body squeezed into a wall) ends as "not converged", never unsafe.
//
// Failure modes. A Hessian that CHOLMOD reports as not positive definite
// (projected blocks are PSD, so this means a singular system, e.g. a static
// solve with a free rigid mode) is retried with a diagonal shift growing by
// 100x from 1e-10 * max|diag|; after that a diagonally scaled gradient step
// is used. With a singular Hessian the shifted solve amplifies the
// roundoff-sized load along the null space by ~1/shift, so |p| can stall
// near 1e-7 relative while the state is already stationary: such a step
// reports "not converged", which is honest for an ill-posed problem (a free
// body in a static solve). A line search that cannot decrease the energy
// before alpha < 1e-12 ends the solve as "not converged" with the last
// accepted iterate, which is always feasible, since x only ever moves to
// points whose energy is finite and whose whole segment passed the step
// filter (inversion and CCD: see contact.c for why that segment is
// intersection-free). A filter that allows less than 1e-10 of the direction
// for 8 iterations in a row ends the solve too (result.stalled): progress
// is impossible (e.g. a prescribed motion squeezing a body into a wall).
//
// Memory: every buffer is grow-only and kept in the ipcc_newton object, so
// once a step's sizes are known the loop does not allocate (CHOLMOD's
// numeric factorization reuses its factor storage while the pattern holds).
#include "solver/newton.h"

#include <math.h>
#include <string.h>

#include "base/core.h"
#include "solver/linear_solver.h"

/// Consecutive iterations with a filtered step below 1e-10 before giving up.
#define NEWTON_MAX_STALLED 8
/// The preamble's rounding exit needs this many line searches in a row that
/// backtracked and moved x by at most NEWTON_ROUNDING_MOVE of the step
/// tolerance or left the energy within its rounding slack.
#define NEWTON_ROUNDING_RUN 3
#define NEWTON_ROUNDING_MOVE 1e-6
/// The energy's rounding noise, relative to |E|, within which a whole
/// direction that passes the step test is taken (the preamble, "Energy noise").
#define NEWTON_ENERGY_NOISE 1e-11
/// The rounding exit and the contraction test need Newton's model to hold
/// along the direction: every active contact's distance (or the model's)
/// changes by at most this fraction of itself.
#define NEWTON_GAP_SETTLED 0.5
/// The contraction test's bound on its error estimate, relative to the step
/// tolerance (the preamble, "Contraction").
#define NEWTON_CONTRACTION 0.01
/// Directions on the exact curvature are tried in Newton's tail only: after
/// a whole step no longer than this many step tolerances (the preamble,
/// "Exact curvature in the tail").
#define NEWTON_EXACT_TAIL 10.0
/// The same after a lift taken whole (the preamble, "Whole lifts").
#define NEWTON_EXACT_AFTER_LIFT 100.0
/// The check on the last factorization passes a state whose direction on
/// that factorization is within this fraction of the step tolerance (the
/// preamble, "Check on the last factorization").
#define NEWTON_CHECK_MARGIN 0.5
/// The blend of the exact and projected blocks (the preamble, "Exact
/// curvature in the tail"): the projected share taken after the exact
/// Hessian is found indefinite, below which a share halved after a taken
/// direction drops to none, and the factorizations an iteration tries.
#define NEWTON_BLEND_FIRST 0.25
#define NEWTON_BLEND_FLOOR (1.0 / 32)
#define NEWTON_BLEND_TRIES 2

struct ipcc_newton {
    ipcc_triplets triplets;
    ipcc_csc hessian;
    ipcc_linear_solver *solver;
    double *gradient, *p, *x_trial, *lift, *rhs, *p_unknowns, *history;
    int cap_dofs, cap_unknowns, cap_history;
    /// The exact Hessian values while a blend is tried (solve_exact).
    double *exact_values;
    int cap_exact_values;
    /// The solver holds the factorization of the last direction's Hessian
    /// (no diagonal shift, no fallback), of factor_unknowns unknowns: what
    /// params.reuse_factor's check solves on ("Check on the last factorization").
    bool factor_reusable;
    int factor_unknowns;
};

ipcc_newton *ipcc_newton_create(void) {
    ipcc_newton *nw = calloc(1, sizeof *nw);
    if (!nw) return NULL;
    nw->solver = ipcc_linear_solver_create();
    if (!nw->solver) {
        free(nw);
        return NULL;
    }
    return nw;
}

void ipcc_newton_destroy(ipcc_newton *nw) {
    if (!nw) return;
    ipcc_triplets_free(&nw->triplets);
    ipcc_csc_free(&nw->hessian);
    ipcc_linear_solver_destroy(nw->solver);
    free(nw->gradient);
    free(nw->p);
    free(nw->x_trial);
    free(nw->lift);
    free(nw->rhs);
    free(nw->p_unknowns);
    free(nw->history);
    free(nw->exact_values);
    free(nw);
}

const double *ipcc_newton_residual_history(const ipcc_newton *nw) { return nw->history; }

// Grow each array in `bufs` to `count` doubles (grow-only; *capacity tracks them).
static int grow_all(double **const *bufs, int nbufs, int *capacity, int count) {
    if (count <= *capacity) return 0;
    for (int k = 0; k < nbufs; ++k) {
        double *a = realloc(*bufs[k], sizeof(double) * (size_t)count);
        if (!a) return -1;
        *bufs[k] = a;
    }
    *capacity = count;
    return 0;
}

static int reserve_buffers(ipcc_newton *nw, int num_dofs, int num_unknowns, int max_iterations) {
    double **const per_dof[] = {&nw->gradient, &nw->p, &nw->x_trial, &nw->lift};
    double **const per_unknown[] = {&nw->rhs, &nw->p_unknowns};
    double **const per_iteration[] = {&nw->history};
    if (grow_all(per_dof, 4, &nw->cap_dofs, num_dofs) != 0 ||
        grow_all(per_unknown, 2, &nw->cap_unknowns, num_unknowns) != 0 ||
        grow_all(per_iteration, 1, &nw->cap_history, max_iterations) != 0)
        return -1;
    return 0;
}

// Largest |diagonal entry| of the upper-triangular CSC matrix (the diagonal
// is the last stored entry of each column when present).
static double max_abs_diagonal(const ipcc_csc *A) {
    double m = 0;
    for (int j = 0; j < A->n; ++j) {
        int last = A->colptr[j + 1] - 1;
        if (last >= A->colptr[j] && A->rowind[last] == j) m = fmax(m, fabs(A->val[last]));
    }
    return m;
}

// Fallback direction p = -g / max(|H_jj|, floor): a scaled gradient step.
static void diagonal_direction(const ipcc_csc *A, const double *rhs, double *p) {
    double floor = fmax(1e-300, 1e-12 * max_abs_diagonal(A));
    for (int j = 0; j < A->n; ++j) {
        double d = 0;
        int last = A->colptr[j + 1] - 1;
        if (last >= A->colptr[j] && A->rowind[last] == j) d = fabs(A->val[last]);
        p[j] = rhs[j] / fmax(d, floor);
    }
}

// Factorize the assembled Hessian + shift I, timed into r. A factorization
// of H itself (shift 0, positive definite) is one that the check on the
// last factorization can reuse. Returns as ipcc_linear_solver_factorize.
static int factorize(ipcc_newton *nw, double shift, ipcc_newton_result *r) {
    double t0 = ipcc_now(), analyze0 = ipcc_linear_solver_get_stats(nw->solver).time_analyze;
    int rc = ipcc_linear_solver_factorize(nw->solver, &nw->hessian, shift);
    r->time_factorization += ipcc_now() - t0;
    r->time_symbolic += ipcc_linear_solver_get_stats(nw->solver).time_analyze - analyze0;
    nw->factor_reusable = rc == 0 && shift == 0;
    nw->factor_unknowns = nw->hessian.n;
    return rc;
}

// p_unknowns = the last factorization's solve of rhs, timed into r.
static ipcc_status solve_factored(ipcc_newton *nw, ipcc_newton_result *r) {
    double t0 = ipcc_now();
    if (ipcc_linear_solver_solve(nw->solver, nw->rhs, nw->p_unknowns) != 0)
        return ipcc_fail(IPCC_ERR_SOLVER, "CHOLMOD solve failed");
    r->time_solve += ipcc_now() - t0;
    return IPCC_OK;
}

// Solve H p = rhs, shifting the diagonal if H is not positive definite.
static ipcc_status solve_direction(ipcc_newton *nw, ipcc_newton_result *r) {
    int rc = factorize(nw, 0.0, r);
    double shift = 1e-10 * fmax(max_abs_diagonal(&nw->hessian), 1e-300);
    for (int attempt = 0; rc == 1 && attempt < 8; ++attempt, shift *= 100) {
        r->fallbacks++;
        rc = factorize(nw, shift, r);
    }
    if (rc < 0) return ipcc_fail(IPCC_ERR_SOLVER, "CHOLMOD factorization failed (out of memory?)");
    if (rc == 1) {
        r->fallbacks++;
        diagonal_direction(&nw->hessian, nw->rhs, nw->p_unknowns);
        return IPCC_OK;
    }
    return solve_factored(nw, r);
}

// The direction on the Hessian with the exact blocks, blended with the
// projected ones by *beta (the preamble, "Exact curvature in the tail"):
// on entry nw->triplets holds the exact values in val and the projected
// ones beside them, and nw->hessian is assembled from val. *used stays set
// when a blend is positive definite and the step filter allows all of its
// direction (in nw->p_unknowns, and in nw->p over every dof: no lift is
// pending); else it is cleared, the projected blocks are swapped back and
// assembled, and the caller solves on them. *beta adapts as the preamble
// says.
// The preamble's "Lazy projection": the projected values that a lazy
// evaluate left to be computed, before anything reads them.
static ipcc_status ensure_projected(ipcc_newton *nw, const ipcc_objective *obj, const double *x) {
    if (!nw->triplets.projection_pending) return IPCC_OK;
    return obj->projected_hessian(obj->ctx, x, &nw->triplets);
}

static ipcc_status solve_exact(ipcc_newton *nw, const ipcc_objective *obj, int num_dofs, const int *dof_map,
                               const double *x, ipcc_newton_result *r, bool *used, double *beta) {
    ipcc_triplets *T = &nw->triplets;
    int n = T->exact_end - T->exact_begin;
    double *val = T->val + T->exact_begin;
    const double *projected = T->exact;
    // A share that reached 1 skips one iteration's try and comes back at half.
    bool rest = *beta >= 1, saved = false;
    if (rest) *beta = 0.5;
    for (int attempt = 0; !rest && attempt < NEWTON_BLEND_TRIES && *beta < 1; ++attempt) {
        double t0 = ipcc_now();
        if (*beta > 0) { // val = the blend, from a copy of the exact values
            ipcc_status st = ensure_projected(nw, obj, x);
            if (st != IPCC_OK) return st;
            if (!saved) {
                if (ipcc_reserve((void **)&nw->exact_values, &nw->cap_exact_values, n, sizeof(double)) != 0)
                    return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for %d exact Hessian entries", n);
                memcpy(nw->exact_values, val, sizeof(double) * (size_t)n);
                saved = true;
            }
            for (int k = 0; k < n; ++k)
                val[k] = nw->exact_values[k] + *beta * (projected[k] - nw->exact_values[k]);
            if (ipcc_csc_assemble(&nw->hessian, T, nw->hessian.n) != 0)
                return ipcc_fail(IPCC_ERR_NO_MEMORY, "Hessian assembly failed: %s", ipcc_last_error());
        }
        r->time_assembly += ipcc_now() - t0;
        int rc = factorize(nw, 0.0, r);
        if (rc < 0) return ipcc_fail(IPCC_ERR_SOLVER, "CHOLMOD factorization failed (out of memory?)");
        if (rc == 1) { // not positive definite: more of the projection
            r->exact_failures++;
            *beta = *beta > 0 ? 2 * *beta : NEWTON_BLEND_FIRST;
            continue;
        }
        ipcc_status st = solve_factored(nw, r);
        if (st != IPCC_OK) return st;
        t0 = ipcc_now();
        for (int d = 0; d < num_dofs; ++d)
            nw->p[d] = dof_map[d] >= 0 ? nw->p_unknowns[dof_map[d]] : 0.0;
        double alpha = 0;
        st = obj->max_step(obj->ctx, x, nw->p, &alpha);
        r->time_line_search += ipcc_now() - t0;
        if (st != IPCC_OK) return st;
        if (alpha < 1) { // cut by the filter: the projected blocks this time
            r->exact_failures++;
            break;
        }
        r->exact_directions++;
        *beta = *beta > NEWTON_BLEND_FLOOR ? 0.5 * *beta : 0.0;
        return IPCC_OK;
    }
    double t0 = ipcc_now();
    *used = false;
    ipcc_status st = ensure_projected(nw, obj, x);
    if (st != IPCC_OK) return st;
    ipcc_triplets_swap_exact(T);
    if (ipcc_csc_assemble(&nw->hessian, T, nw->hessian.n) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "Hessian assembly failed: %s", ipcc_last_error());
    r->time_assembly += ipcc_now() - t0;
    return IPCC_OK;
}

void ipcc_newton_result_add(ipcc_newton_result *sum, const ipcc_newton_result *r, bool first) {
    if (first) {
        *sum = *r;
        return;
    }
    sum->iterations += r->iterations;
    sum->line_search_steps += r->line_search_steps;
    sum->fallbacks += r->fallbacks;
    sum->exact_directions += r->exact_directions;
    sum->exact_failures += r->exact_failures;
    sum->lift_iterations += r->lift_iterations;
    sum->energy = r->energy;
    sum->residual = r->residual;
    sum->accuracy = r->accuracy;
    sum->converged = r->converged;
    sum->contracted = r->contracted;
    sum->final_step = r->final_step;
    sum->stalled |= r->stalled;
    sum->rough = r->rough;
    sum->checked = r->checked;
    sum->time_assembly += r->time_assembly;
    sum->time_factorization += r->time_factorization;
    sum->time_solve += r->time_solve;
    sum->time_line_search += r->time_line_search;
    sum->time_symbolic += r->time_symbolic;
    sum->time_energy += r->time_energy;
}

// Every active contact's gap settled along p (objective.gap_change).
static bool gaps_settled(const ipcc_objective *obj, const double *x, const double *p) {
    return !obj->gap_change || obj->gap_change(obj->ctx, x, p) <= NEWTON_GAP_SETTLED;
}

// The preamble's "Final step": x += p when the step filter allows all of p
// and the energy does not rise; else x stays. xt is scratch.
static ipcc_status take_whole_step(const ipcc_objective *obj, int num_dofs, const double *p, double *energy,
                                   double *x, double *xt, ipcc_newton_result *r) {
    double t0 = ipcc_now(), alpha = 1, e;
    ipcc_status st = obj->max_step(obj->ctx, x, p, &alpha);
    if (st == IPCC_OK && alpha >= 1) {
        for (int d = 0; d < num_dofs; ++d)
            xt[d] = x[d] + p[d];
        double te = ipcc_now();
        st = obj->energy(obj->ctx, xt, &e);
        r->time_energy += ipcc_now() - te;
        r->line_search_steps++;
        if (st == IPCC_OK && isfinite(e) && e <= *energy + 1e-14 * fabs(*energy)) {
            memcpy(x, xt, sizeof(double) * (size_t)num_dofs);
            *energy = e;
            r->final_step = true;
        }
    }
    r->time_line_search += ipcc_now() - t0;
    return st;
}

// The contraction test's "the model held along p" (the preamble):
// objective.model_change, else gap_change.
static bool model_settled(const ipcc_objective *obj, const double *x, const double *p) {
    if (obj->model_change) return obj->model_change(obj->ctx, x, p) <= NEWTON_GAP_SETTLED;
    return gaps_settled(obj, x, p);
}

ipcc_status ipcc_newton_solve(ipcc_newton *nw, const ipcc_objective *obj, const ipcc_newton_params *params,
                              int num_dofs, const int *dof_map, int num_unknowns, const double *target,
                              double *x, ipcc_newton_result *result) {
    IPCC_ASSERT(nw && obj && params && dof_map && x && params->max_iterations >= 1);
    ipcc_newton_result r = {.accuracy = NAN};
    if (reserve_buffers(nw, num_dofs, num_unknowns, params->max_iterations) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory in Newton buffers (%d unknowns)", num_unknowns);

    double *g = nw->gradient, *p = nw->p, *xt = nw->x_trial, *lift = nw->lift;
    ipcc_linear_solver_restart_superset(nw->solver); // see linear_solver.c, "Superset pattern"
    double energy = INFINITY;
    ipcc_status status = IPCC_OK;
    int stalled = 0;
    // Line searches in a row, up to the last, that moved x at rounding's scale (the preamble).
    int rounding = 0;
    // The contraction test (the preamble): |p| of the previous direction,
    // whether it was taken whole, and the ratio it gave (INFINITY: none).
    double prior = params->prior_ratio > 0 ? params->prior_ratio : INFINITY;
    double last_pmax = 0, last_ratio = prior;
    bool last_whole = false, last_lift = false;
    // The projected share of the blocks in the exact try (solve_exact).
    double beta = 0;
    for (;;) {
        // 0. Remaining prescribed motion.
        bool pending = false;
        for (int d = 0; d < num_dofs; ++d) {
            lift[d] = target && dof_map[d] < 0 ? target[d] - x[d] : 0.0;
            pending |= lift[d] != 0;
        }
        // 1. Energy, gradient (+ H lift) and projected Hessian (with the
        // exact blocks too: the preamble, "Exact curvature in the tail").
        double t0 = ipcc_now();
        ipcc_triplets_clear(&nw->triplets);
        nw->triplets.want_exact =
            !pending && last_whole &&
            last_pmax <= (last_lift ? NEWTON_EXACT_AFTER_LIFT : NEWTON_EXACT_TAIL) * params->tolerance;
        // Projected values only if the exact ones are refused, unless a blend
        // will need them at once (the preamble, "Lazy projection").
        nw->triplets.lazy_projection = nw->triplets.want_exact && beta == 0 && obj->projected_hessian;
        status = obj->evaluate(obj->ctx, x, pending ? lift : NULL, g, &nw->triplets, &energy);
        if (status != IPCC_OK) break;
        if (isnan(energy)) {
            status = ipcc_fail(IPCC_ERR_SOLVER, "energy evaluation failed (a non-finite position?)");
            break;
        }
        if (!isfinite(energy)) {
            status = r.iterations == 0
                         ? ipcc_fail(IPCC_ERR_INFEASIBLE,
                                     "Newton started from an infeasible state (energy %g)", energy)
                         : ipcc_fail(IPCC_ERR_SOLVER, "energy became non-finite during Newton");
            break;
        }
        bool exact = nw->triplets.exact_end > nw->triplets.exact_begin;
        if (exact) ipcc_triplets_swap_exact(&nw->triplets);
        if (ipcc_csc_assemble(&nw->hessian, &nw->triplets, num_unknowns) != 0) {
            status = ipcc_fail(IPCC_ERR_NO_MEMORY, "Hessian assembly failed: %s", ipcc_last_error());
            break;
        }
        for (int d = 0; d < num_dofs; ++d)
            if (dof_map[d] >= 0) nw->rhs[dof_map[d]] = -g[d];
        // The accuracy figure of x (g holds g + H lift while a lift is
        // pending: the linearized residual at the target).
        r.accuracy = obj->residual ? obj->residual(obj->ctx, g) : 0.0;
        r.time_assembly += ipcc_now() - t0;
        if (num_unknowns == 0 && !pending) {
            r.converged = true;
            break;
        }

        // 1b. A later friction lagging pass: the check on the last
        // factorization (the preamble, "Check on the last factorization").
        if (r.iterations == 0 && params->reuse_factor && !pending && nw->factor_reusable &&
            nw->factor_unknowns == num_unknowns && r.accuracy <= params->residual_tolerance) {
            if ((status = solve_factored(nw, &r)) != IPCC_OK) break;
            double pmax = 0;
            for (int j = 0; j < num_unknowns; ++j)
                pmax = fmax(pmax, fabs(nw->p_unknowns[j]));
            if (pmax <= NEWTON_CHECK_MARGIN * params->tolerance) {
                r.converged = r.checked = true;
                r.residual = pmax;
                break;
            }
        }

        // 2. Direction: solved for the unknowns, the lift for prescribed dofs.
        if (num_unknowns > 0) {
            status = exact ? solve_exact(nw, obj, num_dofs, dof_map, x, &r, &exact, &beta) : IPCC_OK;
            if (status == IPCC_OK && !exact) status = solve_direction(nw, &r);
            if (status != IPCC_OK) break;
        }
        double pmax = 0, pfree = 0; // |p|_inf, over the unknowns only
        for (int d = 0; d < num_dofs; ++d) {
            p[d] = dof_map[d] >= 0 ? nw->p_unknowns[dof_map[d]] : lift[d];
            pmax = fmax(pmax, fabs(p[d]));
            if (dof_map[d] >= 0) pfree = fmax(pfree, fabs(p[d]));
        }
        if (!isfinite(pmax)) {
            status = ipcc_fail(IPCC_ERR_SOLVER, "Newton direction is not finite");
            break;
        }
        nw->history[r.iterations] = pmax;
        r.iterations++;
        r.lift_iterations += pending;
        r.residual = pmax;

        // 3. Convergence (see the preamble): |p|_inf <= tol * L * h (IPC's
        // test, scaled by the caller) and the residual. A lift that a filter
        // keeps shortening converges geometrically; it counts as done once it
        // is within the tolerance like any other dof.
        bool small = pmax <= params->tolerance;
        if (small && (r.accuracy <= params->residual_tolerance ||
                      (rounding >= NEWTON_ROUNDING_RUN && gaps_settled(obj, x, p)))) {
            r.converged = true;
            r.rough = r.accuracy > params->residual_tolerance;
            if (!r.rough && !pending) {
                status = take_whole_step(obj, num_dofs, p, &energy, x, xt, &r);
                if (status != IPCC_OK) break;
            }
            break;
        }
        if (r.iterations >= params->max_iterations) break;

        // 4-5. Filtered backtracking line search. Every trial point lies on
        // the segment that max_step certified, so every accepted x is feasible.
        t0 = ipcc_now();
        double alpha = 1; // an exact direction: certified whole by solve_exact
        status = exact ? IPCC_OK : obj->max_step(obj->ctx, x, p, &alpha);
        if (status != IPCC_OK) {
            r.time_line_search += ipcc_now() - t0;
            break;
        }
        alpha = fmin(1.0, alpha);
        double alpha0 = alpha;
        // CCD (or inversion) admits no real progress: stop after a few tries
        // in a row rather than creep; x stays safe either way.
        stalled = alpha < 1e-10 ? stalled + 1 : 0;
        if (stalled >= NEWTON_MAX_STALLED) {
            r.stalled = true;
            r.time_line_search += ipcc_now() - t0;
            break;
        }
        // The contraction test's parts known before the line search: the
        // ratio of this direction to the last (a contraction only if the last
        // was taken whole), the estimate, and the model along p.
        double ratio = pending             ? INFINITY
                       : last_whole        ? pmax / last_pmax
                       : r.iterations == 1 ? prior
                                           : INFINITY;
        double theta = fmax(ratio, last_ratio);
        bool contracting = alpha == 1.0 && theta < 1 &&
                           theta / (1 - theta) * pmax <= NEWTON_CONTRACTION * params->tolerance &&
                           model_settled(obj, x, p);
        double slack = 1e-14 * fabs(energy);
        bool accepted = false;
        double e_accepted = NAN;
        while (alpha >= 1e-12) {
            for (int d = 0; d < num_dofs; ++d)
                xt[d] = x[d] + alpha * p[d];
            if (pending && alpha == 1.0)
                for (int d = 0; d < num_dofs; ++d)
                    if (dof_map[d] < 0) xt[d] = target[d]; // exactly, not x + (target - x)
            double te = ipcc_now(), e;
            status = obj->energy(obj->ctx, xt, &e);
            r.time_energy += ipcc_now() - te;
            if (status != IPCC_OK) break;
            r.line_search_steps++;
            if (isfinite(e) &&
                (pending || e <= energy + slack ||
                 (small && alpha == 1.0 && e <= energy + NEWTON_ENERGY_NOISE * fabs(energy)))) {
                accepted = true;
                e_accepted = e;
                break;
            }
            alpha *= 0.5;
        }
        r.time_line_search += ipcc_now() - t0;
        if (status == IPCC_OK && !accepted && small) { // the step test holds and no decrease is left
            r.converged = true;
            r.rough = true;
            break;
        }
        if (status != IPCC_OK || !accepted) break; // x stays at the last feasible iterate
        bool at_rounding =
            alpha * pmax <= NEWTON_ROUNDING_MOVE * params->tolerance || e_accepted >= energy - slack;
        rounding = !pending && alpha < alpha0 && at_rounding ? rounding + 1 : 0;
        memcpy(x, xt, sizeof(double) * (size_t)num_dofs);
        bool whole = alpha == 1.0 && !pending;
        if (obj->accepted) obj->accepted(obj->ctx, whole);
        if (whole && contracting) {
            r.converged = r.contracted = true;
            r.rough = false;
            r.accuracy =
                theta / (1 - theta) * pmax * (params->accuracy_scale > 0 ? params->accuracy_scale : 1.0);
            break;
        }
        last_ratio = ratio;
        // A lift taken whole left every prescribed dof at its target: from
        // here on the problem is fixed, and the lift's direction counts as a
        // whole step by its unknowns' part (the preamble, "Whole lifts").
        last_pmax = pending ? pfree : pmax;
        last_whole = whole || (pending && alpha == 1.0);
        last_lift = pending;
    }
    if (status == IPCC_OK && !r.converged) status = IPCC_WARN_NOT_CONVERGED;
    r.energy = energy;
    if (result) *result = r;
    return status;
}
