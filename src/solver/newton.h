/// Projected Newton with a filtered backtracking line search, over an
/// objective that knows its own feasibility (IPC paper, Alg. 1).
///
/// The objective works on the full position vector x (3n doubles). A dof map
/// selects the unknowns: dof_map[d] is the unknown index of dof d, or -1 if
/// d is prescribed (Dirichlet) and so removed from the system. The objective
/// writes Hessian triplets directly in unknown indices; prescribed dofs never
/// appear. Contact adds its energy terms through the objective and tightens
/// `max_step` with CCD (incremental_potential.c); Newton does not know it.
///
/// Failures inside the objective (out of memory) are returned as a negative
/// ipcc_status with the message recorded (ipcc_fail); Newton then stops and
/// returns that status, with x at the last accepted iterate.
#ifndef IPCC_NEWTON_H
#define IPCC_NEWTON_H

#include <stdbool.h>

#include "ipcc/base.h"
#include "solver/sparse.h"

typedef struct ipcc_objective {
    void *ctx;
    /// Energy at x into *energy; +INFINITY if x is infeasible (an inverted
    /// tet, a contact at zero distance, ...).
    ipcc_status (*energy)(void *ctx, const double *x, double *energy);
    /// Energy (into *energy), full gradient (3n, overwritten) and Hessian
    /// triplets in unknown indices (appended to a cleared list), PSD-projected
    /// per block. If `lift` is not NULL (3n, nonzero only on prescribed dofs:
    /// the motion they still have to make), H lift is added to the gradient,
    /// using the full projected block Hessians, so the free rows get
    /// g_f + H_fp lift_p.
    ipcc_status (*evaluate)(void *ctx, const double *x, const double *lift, double *gradient,
                            ipcc_triplets *hessian, double *energy);
    /// Largest alpha in (0, 1] (into *alpha) such that the whole segment
    /// x + [0, alpha] p is feasible (positive tet volumes, no contact
    /// reached: CCD).
    ipcc_status (*max_step)(void *ctx, const double *x, const double *p, double *alpha);
    /// Optional (may be NULL): the accuracy figure of x from its gradient g
    /// (3n), reported in ipcc_newton_result.accuracy; it does not decide
    /// convergence.
    double (*residual)(void *ctx, const double *g);
    /// Optional (may be NULL): the largest relative change of a contact gap
    /// along p, |d(x + p) - d(x)| / d(x), over the active contacts at x (the
    /// state last evaluated).
    double (*gap_change)(void *ctx, const double *x, const double *p);
    /// Optional (may be NULL): how far p leaves the region where the
    /// objective's quadratic model holds: gap_change's figure, or INFINITY
    /// when the model along p predicts a force that the term cannot give (a
    /// sticking friction contact's force past Coulomb's bound). Used by the
    /// contraction test (newton.c's preamble, "Contraction"), which falls
    /// back on gap_change without it.
    double (*model_change)(void *ctx, const double *x, const double *p);
    /// Optional (may be NULL): after an evaluate whose triplets had
    /// lazy_projection set (sparse.h), and before any other call, write the
    /// projected values of the entries that evaluate left exact in both val
    /// and exact into the triplets' exact values (Newton has swapped them:
    /// val holds the exact ones). Without it Newton never sets
    /// lazy_projection.
    ipcc_status (*projected_hessian)(void *ctx, const double *x, ipcc_triplets *hessian);
    /// Optional (may be NULL): told after each line search that accepted a
    /// point, and whether it took the whole direction (alpha = 1, no
    /// prescribed motion pending).
    void (*accepted)(void *ctx, bool whole);
} ipcc_objective;

typedef struct ipcc_newton_params {
    double tolerance; ///< absolute: converged when |p|_inf <= tolerance (metres)
    /// Converged only when objective.residual(g) <= this too (INFINITY: off),
    /// except where rounding leaves no decrease: once the step test holds,
    /// the step test alone decides (result.rough) if the line search finds
    /// no decrease at all (newton.c's preamble).
    double residual_tolerance;
    /// Converts a position error (metres) into the units of
    /// objective.residual (1/h for a velocity): the contraction test's error
    /// estimate is reported in result.accuracy in those units (0: as 1).
    double accuracy_scale;
    /// The contraction test's ratio before any is measured (newton.c's
    /// preamble): 0 for none, or in (0, 1) when the start is already close
    /// to a solution the iteration reached before (a friction lagging pass
    /// after the first).
    double prior_ratio;
    /// The start may pass the convergence test on the factorization of the
    /// previous solve's last direction (a friction lagging pass after the
    /// first: newton.c's preamble, "Check on the last factorization"); the
    /// caller guarantees the same objective, unknowns and step.
    bool reuse_factor;
    int max_iterations; ///< >= 1
} ipcc_newton_params;

typedef struct ipcc_newton_result {
    int iterations;        ///< Newton directions computed
    int line_search_steps; ///< energy evaluations in line searches
    int fallbacks;         ///< factorizations retried with a diagonal shift
    int exact_directions;  ///< directions solved with the exact (or blended) curvature (newton.c)
    /// tries of it refused: factorizations not positive definite, and
    /// directions the step filter cut
    int exact_failures;
    int lift_iterations; ///< iterations spent moving prescribed dofs to their targets
    double energy;       ///< at the returned x
    double residual;     ///< |p|_inf of the last direction
    /// objective.residual at the returned x (0 without one; NAN if not
    /// evaluated); after the contraction test (`contracted`), its error
    /// estimate times params.accuracy_scale instead
    double accuracy;
    bool converged;
    bool contracted; ///< converged by the contraction test: x is the last full step's end
    bool final_step; ///< converged by the step and force tests, and x is x + p of the last direction
    bool rough;      ///< converged by the step test alone, the residual above its tolerance
    /// converged at the start on the check of params.reuse_factor, without
    /// an iteration (iterations 0, x unchanged)
    bool checked;
    bool stalled; ///< stopped: the step filter allowed < 1e-10 of the direction 8 times in a row
    double time_assembly, time_factorization, time_solve, time_line_search; ///< wall seconds
    double time_symbolic; ///< the part of time_factorization spent in symbolic analysis
    double time_energy;   ///< the part of time_line_search spent evaluating trial energies
} ipcc_newton_result;

/// Sum the figures of consecutive solves of one step into *sum (the last
/// solve decides convergence, energy, residual and accuracy); first: *sum = *r.
void ipcc_newton_result_add(ipcc_newton_result *sum, const ipcc_newton_result *r, bool first);

typedef struct ipcc_newton ipcc_newton;

ipcc_newton *ipcc_newton_create(void);
void ipcc_newton_destroy(ipcc_newton *nw);

/// Minimize the objective from x (feasible, updated in place). `num_dofs` =
/// 3n, `num_unknowns` = number of dofs with dof_map >= 0. `target` (3n, may
/// be NULL) holds the positions the prescribed dofs (dof_map < 0) must reach:
/// they move there along the Newton directions, each step bounded by
/// max_step, so a prescribed motion never crosses a barrier or inverts a tet.
/// Returns IPCC_OK, IPCC_WARN_NOT_CONVERGED (x holds the last iterate),
/// IPCC_ERR_INFEASIBLE (the start is infeasible; x unchanged), or
/// IPCC_ERR_SOLVER / IPCC_ERR_NO_MEMORY or an objective's failure (x holds
/// the last accepted iterate, feasible).
ipcc_status ipcc_newton_solve(ipcc_newton *nw, const ipcc_objective *obj, const ipcc_newton_params *params,
                              int num_dofs, const int *dof_map, int num_unknowns, const double *target,
                              double *x, ipcc_newton_result *result);

/// |p|_inf of each iteration of the last solve (result.iterations entries).
const double *ipcc_newton_residual_history(const ipcc_newton *nw);

#endif
