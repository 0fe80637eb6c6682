/// Parallel, deterministic supernodal Cholesky: the numeric factorization
/// of a matrix whose symbolic analysis (ordering, supernodes, row patterns)
/// was done elsewhere (linear_solver.c, CHOLMOD's), into the supernodal
/// factor layout of that analysis (supernodal.c). Bit-identical results for
/// any thread count. Private to the library.
#ifndef IPCC_SUPERNODAL_H
#define IPCC_SUPERNODAL_H

/// The symbolic structure of a supernodal factor L (borrowed: it must
/// outlive the plan). Supernode s holds columns [super[s], super[s + 1]);
/// its row indices are rows[pi[s] .. pi[s + 1]), ascending, the first ones
/// its own columns; its values are the dense column-major block of
/// pi[s + 1] - pi[s] rows at Lx + px[s]. Supernodes are numbered so that
/// every descendant comes before its ancestors (an elimination-tree
/// order).
typedef struct ipcc_supernodal_structure {
    int n;            ///< columns
    int nsuper;       ///< supernodes
    const int *super; ///< nsuper + 1
    const int *pi;    ///< nsuper + 1
    const int *px;    ///< nsuper + 1
    const int *rows;  ///< pi[nsuper]
} ipcc_supernodal_structure;

typedef struct ipcc_supernodal ipcc_supernodal;

/// The plan of a factorization of this structure for up to `max_threads`
/// threads: the update lists, the schedule and every workspace, so that
/// ipcc_supernodal_factorize allocates nothing. NULL with a message when out
/// of memory.
ipcc_supernodal *ipcc_supernodal_create(const ipcc_supernodal_structure *st, int max_threads);
void ipcc_supernodal_destroy(ipcc_supernodal *f);

/// L L^T = A + shift I for A given by its lower triangle in CSC (column j:
/// rows Ai[Ap[j] .. Ap[j + 1]), each >= j, with the diagonal present),
/// permuted as the structure's columns are, into Lx (the structure's
/// layout). Runs on min(max_threads, omp_get_max_threads()) threads. 0, or
/// 1 when A + shift I is not positive definite: *minor is then the first
/// column (in the structure's order) at which a pivot was not positive,
/// the same for any thread count.
int ipcc_supernodal_factorize(ipcc_supernodal *f, const int *Ap, const int *Ai, const double *Ax,
                              double shift, double *Lx, int *minor);

/// x := (L L^T)^-1 x with the factor Lx of the last successful
/// ipcc_supernodal_factorize, in the structure's (permuted) order.
/// Bit-identical for any thread count: each supernode gathers its
/// descendants' (forward) or ancestors' (backward) terms in a fixed order.
void ipcc_supernodal_solve(ipcc_supernodal *f, const double *Lx, double *x);

/// Floating-point operations of one factorization (the plan's estimate),
/// and the factor's stored entries.
double ipcc_supernodal_flops(const ipcc_supernodal *f);
long ipcc_supernodal_entries(const ipcc_supernodal *f);

/// Below these sizes a factorization (flops) or a solve (factor entries)
/// runs on one thread: opening the team costs more than it saves (a
/// 1,296-tet box: 0.75 ms per factorization on one thread, 1.0 on two).
/// The results are the same either way: the arithmetic does not depend on
/// the threads.
#define IPCC_SUPERNODAL_PARALLEL_FLOPS 5e7
#define IPCC_SUPERNODAL_PARALLEL_ENTRIES 1000000L

#endif
