// Sparse Cholesky with CHOLMOD (supernodal LL^T), the only file that sees
// cholmod.h.
//
// Design. The caller's CSC arrays (upper triangle, sorted, no duplicates; see
// sparse.h) are wrapped in a cholmod_sparse header with stype = +1 and never
// copied. The symbolic analysis (fill-reducing ordering and supernode
// structure, CHOLMOD's default strategy: AMD, with METIS tried when AMD's fill
// is poor; on 3D elasticity meshes of ~1e5 unknowns METIS wins and AMD's
// factorization would be several times slower) is kept in the factor L and
// reused while the matrix key holds: the same pattern_version (unique per
// pattern across all matrices, see sparse.c), n and nnz. Any change frees L
// and analyses again. The numeric factorization uses cholmod_factorize_p with
// beta = {shift, 0}, which factors A + shift*I without touching A (CHOLMOD
// adds beta[0] to the diagonal entries it reads, so the diagonal must be in
// the pattern). Solves go through cholmod_solve2 with persistent X, Y and E
// workspaces, so a steady Newton loop performs no allocation in CHOLMOD after
// the first solve.
//
// Failure modes. A matrix that is not positive definite is a normal event for
// a Newton solver (it retries with a larger shift): CHOLMOD reports it as the
// warning CHOLMOD_NOT_POSDEF with L->minor < n, and we return 1. We ask CHOLMOD
// to return as soon as it detects this (quick_return_if_not_posdef) since the
// partial factor is of no use. The symbolic analysis survives such a failure,
// so the retry with a shift costs one numeric factorization. Any CHOLMOD error
// (status < 0, e.g. out of memory) returns -1 with a message and drops L, so
// the next call starts from a fresh analysis. After a failed factorization,
// solve refuses (-1) until a factorization succeeds. CHOLMOD's own printing is
// silenced (print = 0); the library reports only through ipcc_fail/ipcc_log.
#include "linear_solver.h"

#include <stdbool.h>
#include <string.h>

#include <cblas.h> // openblas_set_num_threads
#include <cholmod.h>
#include <omp.h>

#include "core.h"

struct ipcc_linear_solver {
    cholmod_common common;
    cholmod_factor *L;        // symbolic + numeric factor, NULL before the first analysis
    cholmod_dense *X, *Y, *E; // cholmod_solve2 solution and workspaces
    long key_version;         // the analysis is valid for this pattern_version ...
    int key_n, key_nnz;       // ... and these sizes
    bool factored;            // L holds a successful numeric factorization
    ipcc_linear_solver_stats stats;
};

ipcc_linear_solver *ipcc_linear_solver_create(void) {
    ipcc_linear_solver *s = calloc(1, sizeof *s);
    if (!s) {
        ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: out of memory");
        return NULL;
    }
    if (!cholmod_start(&s->common)) {
        ipcc_fail(IPCC_ERR_SOLVER, "linear solver: cholmod_start failed");
        free(s);
        return NULL;
    }
    // BLAS threads: one. CHOLMOD opens an OpenMP region in every numeric
    // factorization and OpenBLAS keeps its own spinning pthread pool; with
    // both pools on a 2-core machine the element loops between
    // factorizations starve. Measured per Newton iteration (41k-tet box,
    // n = 24k): threaded BLAS 549 ms assembly + 298 ms factorization,
    // single-threaded 201 ms + 374 ms. Parallelism belongs in ipcc's own
    // element and contact loops, not in BLAS calls on small supernodes.
    openblas_set_num_threads(1);
    s->common.print = 0;
    s->common.supernodal = CHOLMOD_SUPERNODAL;
    s->common.quick_return_if_not_posdef = 1;
    s->common.itype = CHOLMOD_INT;
    s->common.dtype = CHOLMOD_DOUBLE;
    return s;
}

static void solver_drop_factor(ipcc_linear_solver *s) {
    if (s->L) cholmod_free_factor(&s->L, &s->common);
    s->L = NULL;
    s->key_version = 0;
    s->factored = false;
}

// A cholmod_sparse header over A's arrays (no copy; CHOLMOD only reads them).
static cholmod_sparse solver_wrap(const ipcc_csc *A) {
    cholmod_sparse M;
    memset(&M, 0, sizeof M);
    M.nrow = (size_t)A->n;
    M.ncol = (size_t)A->n;
    M.nzmax = (size_t)A->nnz;
    M.p = A->colptr;
    M.i = A->rowind;
    M.x = A->val;
    M.stype = 1;
    M.itype = CHOLMOD_INT;
    M.xtype = CHOLMOD_REAL;
    M.dtype = CHOLMOD_DOUBLE;
    M.sorted = 1;
    M.packed = 1;
    return M;
}

// Record a CHOLMOD error and drop the factor so the next call re-analyses.
static void solver_cholmod_error(ipcc_linear_solver *s, const char *what) {
    int status = s->common.status;
    solver_drop_factor(s);
    if (status == CHOLMOD_OUT_OF_MEMORY)
        ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: CHOLMOD ran out of memory in %s", what);
    else
        ipcc_fail(IPCC_ERR_SOLVER, "linear solver: CHOLMOD %s failed (status %d)", what, status);
}

int ipcc_linear_solver_factorize(ipcc_linear_solver *s, const ipcc_csc *A, double shift) {
    IPCC_ASSERT(s && A && shift >= 0.0);
    s->factored = false;
    if (A->n <= 0 || !A->colptr) {
        ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "linear solver: empty or unassembled matrix (n = %d)", A->n);
        return -1;
    }
    cholmod_sparse M = solver_wrap(A);

    bool same = s->L && s->key_version == A->pattern_version && s->key_n == A->n && s->key_nnz == A->nnz;
    if (!same) {
        solver_drop_factor(s);
        double t0 = ipcc_now();
        s->L = cholmod_analyze(&M, &s->common);
        s->stats.time_analyze += ipcc_now() - t0;
        if (!s->L || s->common.status < CHOLMOD_OK) {
            solver_cholmod_error(s, "analyze");
            return -1;
        }
        s->stats.analyses++;
        s->key_version = A->pattern_version;
        s->key_n = A->n;
        s->key_nnz = A->nnz;
    }

    double beta[2] = {shift, 0.0};
    double t0 = ipcc_now();
    // CHOLMOD 5.x opens OpenMP regions with an explicit num_threads(4)
    // clause, which overrides OMP_NUM_THREADS: on a 2-core machine every
    // factorization ran a team of 4 and spent its time in futex wake/wait
    // (about 1,800 futex calls per factorization of examples/beam.json).
    // max-active-levels = 0 makes those regions inactive (run by this
    // thread alone); the caller's setting is restored afterwards.
    int levels = omp_get_max_active_levels();
    omp_set_max_active_levels(0);
    int ok = cholmod_factorize_p(&M, beta, NULL, 0, s->L, &s->common);
    omp_set_max_active_levels(levels);
    s->stats.time_factor += ipcc_now() - t0;
    s->stats.factorizations++;
    if (!ok || s->common.status < CHOLMOD_OK) {
        solver_cholmod_error(s, "factorize");
        return -1;
    }
    if (s->common.status == CHOLMOD_NOT_POSDEF || s->L->minor < s->L->n) {
        ipcc_fail(IPCC_ERR_SOLVER, "linear solver: matrix + %g I is not positive definite (pivot %zu of %d)",
                  shift, (size_t)s->L->minor, A->n);
        return 1;
    }
    s->factored = true;
    return 0;
}

int ipcc_linear_solver_solve(ipcc_linear_solver *s, const double *b, double *x) {
    IPCC_ASSERT(s && b && x);
    if (!s->factored) {
        ipcc_fail(IPCC_ERR_SOLVER, "linear solver: solve without a successful factorization");
        return -1;
    }
    cholmod_dense B;
    memset(&B, 0, sizeof B);
    B.nrow = s->L->n;
    B.ncol = 1;
    B.nzmax = s->L->n;
    B.d = s->L->n;
    B.x = (void *)b; // read only: CHOLMOD does not write its right-hand side
    B.xtype = CHOLMOD_REAL;
    B.dtype = CHOLMOD_DOUBLE;

    double t0 = ipcc_now();
    int ok = cholmod_solve2(CHOLMOD_A, s->L, &B, NULL, &s->X, NULL, &s->Y, &s->E, &s->common);
    s->stats.time_solve += ipcc_now() - t0;
    if (!ok || !s->X || s->common.status < CHOLMOD_OK) {
        ipcc_fail(s->common.status == CHOLMOD_OUT_OF_MEMORY ? IPCC_ERR_NO_MEMORY : IPCC_ERR_SOLVER,
                  "linear solver: CHOLMOD solve failed (status %d)", s->common.status);
        return -1;
    }
    memcpy(x, s->X->x, s->L->n * sizeof *x);
    return 0;
}

ipcc_linear_solver_stats ipcc_linear_solver_get_stats(const ipcc_linear_solver *s) { return s->stats; }

void ipcc_linear_solver_destroy(ipcc_linear_solver *s) {
    if (!s) return;
    solver_drop_factor(s);
    if (s->X) cholmod_free_dense(&s->X, &s->common);
    if (s->Y) cholmod_free_dense(&s->Y, &s->common);
    if (s->E) cholmod_free_dense(&s->E, &s->common);
    cholmod_finish(&s->common);
    free(s);
}
