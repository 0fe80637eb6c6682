/// Sparse symmetric positive definite solves with CHOLMOD (supernodal).
/// The only module that includes cholmod.h.
///
/// The symbolic analysis (fill-reducing ordering, supernodes) is done on a
/// superset of the patterns seen and reused for every matrix of the same
/// dimension whose pattern lies inside it (linear_solver.c).
#ifndef IPCC_LINEAR_SOLVER_H
#define IPCC_LINEAR_SOLVER_H

#include "solver/sparse.h"

typedef struct ipcc_linear_solver ipcc_linear_solver;

typedef struct ipcc_linear_solver_stats {
    int analyses;                ///< symbolic analyses done so far
    int orderings;               ///< of which computed their fill-reducing ordering (the others kept it)
    int factorizations;          ///< numeric factorizations done so far
    int superset_factorizations; ///< of which in a larger analysed pattern (values scattered, zeros added)
    int analysed_nnz;            ///< entries of the analysed (superset) pattern, 0 before the first
    double time_analyze;         ///< wall seconds, cumulative
    double time_factor;          ///< wall seconds, cumulative
    double time_solve;           ///< wall seconds, cumulative
    double factor_flops;         ///< floating-point operations of one factorization in the current analysis
    long factor_entries;         ///< entries of the current factor (supernodal, with amalgamation zeros)
} ipcc_linear_solver_stats;

/// NULL on OOM or if CHOLMOD fails to start.
ipcc_linear_solver *ipcc_linear_solver_create(void);
/// Factorize A + shift*I (shift >= 0; entries are added to the diagonal on the
/// fly, A is not modified; the diagonal must be present in A's pattern).
/// Returns 0 on success, 1 if the matrix is not positive definite, -1 on
/// other CHOLMOD failure (out of memory).
int ipcc_linear_solver_factorize(ipcc_linear_solver *s, const ipcc_csc *A, double shift);
/// Forget the union of past patterns: the next factorization is done in an
/// analysis of exactly its own pattern (reused if it is the current one).
/// Called at the start of every Newton solve, so results depend only on the
/// step's own matrices (checkpoint/resume reproduce them bit for bit).
void ipcc_linear_solver_restart_superset(ipcc_linear_solver *s);
/// Solve with the last successful factorization: x = (A + shift I)^-1 b.
/// x and b may alias. Returns 0 or -1.
int ipcc_linear_solver_solve(ipcc_linear_solver *s, const double *b, double *x);
ipcc_linear_solver_stats ipcc_linear_solver_get_stats(const ipcc_linear_solver *s);
void ipcc_linear_solver_destroy(ipcc_linear_solver *s);

#endif
