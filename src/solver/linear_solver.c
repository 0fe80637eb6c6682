// Sparse Cholesky (supernodal LL^T): CHOLMOD's symbolic analysis and ipcc's
// own parallel numeric factorization and solves (supernodal.c). The only
// file that sees cholmod.h.
//
// Design. The caller's CSC arrays (upper triangle, sorted, no duplicates; see
// sparse.h) are wrapped in a cholmod_sparse header with stype = +1. The
// symbolic analysis (fill-reducing ordering and supernode structure,
// CHOLMOD's default strategy: AMD, with METIS tried when AMD's fill is poor;
// on 3D elasticity meshes of ~1e5 unknowns METIS wins and AMD's
// factorization would be several times slower) is kept in the factor L.
//
// Superset pattern. An IPC Hessian's pattern changes whenever a contact
// pair appears or disappears, often several times per step, and pairs come
// back (a vertex sliding over a triangle fan). The analysis is therefore
// done on a superset pattern S, kept here: S is the union of the patterns
// seen since the last analysis, as long as that union has at most
// SUPERSET_GROWTH times the current matrix's entries (else S restarts as the
// current pattern). A matrix whose pattern is a subset of S (checked by a
// merge of the sorted columns, O(nnz), once per pattern_version) is
// factorized in S's pattern: its values are scattered into S's slots, the
// others are explicit zeros, and L's analysis is reused. Only a pattern
// with an entry outside S triggers a new analysis, of the new union. The
// factor of A in S's pattern is A's factor (explicit zeros change nothing
// but the work), so only the fill-reducing ordering differs from analysing
// A alone, and S depends only on the sequence of patterns, never on
// timing or threads. A matrix whose pattern is S itself is wrapped without
// a copy.
//
// The union is history, and a resumed run must reproduce an uninterrupted
// one bit for bit (checkpoint.h), so the history is cut where a checkpoint
// can be: the caller calls ipcc_linear_solver_restart_superset at the start
// of each solve (each step), and the next factorization then runs in S only
// if S is exactly its pattern, else analyses its pattern alone. The
// ordering, a deterministic function of the analysed pattern, is then the
// same whether the solver is fresh (a resume) or not.
//
// Orderings within a solve. The ordering (METIS) is most of an analysis'
// cost (0.73 s of a 200k-tet mat's; on a 500k-tet mat with self-contact,
// 13 % of a Newton iteration on 2 threads, on one thread: it is serial),
// and a pattern that grows by a few contact entries hardly changes the best
// ordering. So a new analysis inside a solve (the union grew) keeps the
// current ordering (CHOLMOD_GIVEN, then CHOLMOD's postorder) and redoes only
// the symbolic factorization; an analysis at a solve's start computes the
// ordering afresh, and a factor whose ordering was kept is not reused
// across a solve's start. Both are functions of the solve's own patterns,
// so a resumed run still reproduces an uninterrupted one.
//
// Factorization without copies. CHOLMOD's supernodal kernel reads
// tril(A(p, p)), p the fill-reducing ordering; cholmod_factorize_p builds
// it at every call (an allocation and a copy of the whole matrix per Newton
// iteration). Here that matrix, P = tril(S(p, p)), is built once per
// analysis (build_permuted, with the map S slot -> P slot), and each matrix
// is scattered straight into it.
//
// Our numeric factorization. CHOLMOD's kernel (cholmod_super_numeric) runs
// on one thread here: its parallelism is OpenBLAS's threads inside each
// BLAS call, whose rounding depends on the thread count (measured: 1 and 2
// threads differ by 1e-16 L on a volumetric box), and which spin beside
// OpenMP's pool. So after each analysis L is turned numeric in CHOLMOD's
// supernodal layout (cholmod_change_factor) and supernodal.c factors P
// into it with a plan made from L's supernodes, on ipcc's threads, with
// the same bits for any thread count; A + shift I is factored without
// touching A (the shift is added to the diagonal entries as they are
// assembled, so the diagonal must be in the pattern). The solves are
// supernodal.c's too (the permutation applied here), for the same reasons.
// Nothing is allocated after the analysis: no call into CHOLMOD remains in
// the Newton loop. The measurements and the other solvers tried (MUMPS,
// OpenBLAS threads in CHOLMOD) are in docs/design.md, "Threads and
// determinism".
//
// Failure modes. A matrix that is not positive definite is a normal event for
// a Newton solver (it retries with a larger shift): supernodal.c reports
// the first failing pivot, and we return 1. The symbolic analysis survives
// such a failure, so the retry with a shift costs one numeric
// factorization. A CHOLMOD error in the analysis (e.g. out of memory)
// returns -1 with a message and drops L, so the next call starts from a
// fresh analysis. After a failed factorization, solve refuses (-1) until a
// factorization succeeds. CHOLMOD's own printing is silenced (print = 0);
// the library reports only through ipcc_fail/ipcc_log.
#include "solver/linear_solver.h"

#include <stdbool.h>
#include <limits.h>
#include <string.h>

#include <cblas.h> // openblas_set_num_threads
#include <cholmod.h>
#include <omp.h>

#include "base/core.h"
#include "solver/supernodal.h"

/// A new analysis may keep a union pattern of up to this many times the
/// current matrix's entries (see "Superset pattern").
#define SUPERSET_GROWTH 1.25

struct ipcc_linear_solver {
    cholmod_common common;
    cholmod_factor *L; // symbolic + numeric factor, NULL before the first analysis
    bool factored;     // L holds a successful numeric factorization
    bool restart;      // the next factorization starts a new superset (see "Superset pattern")
    bool ordering_own; // L's ordering was computed from S itself (not kept from an earlier analysis)
    int *given_perm;   // n: the ordering kept for a new analysis within a solve
    int cap_given_perm;
    // The analysed superset pattern S (valid while L is non-NULL).
    int s_n, s_nnz;
    int *s_colptr, *s_rowind; // n + 1, nnz
    int cap_colptr, cap_rowind;
    int *u_colptr, *u_rowind; // scratch for the next union (and for build_permuted)
    int cap_u_colptr, cap_u_rowind;
    // P = tril(S(p, p)) with L's fill-reducing permutation p: what CHOLMOD's
    // supernodal factorization reads ("Factorization without copies").
    int *p_colptr, *p_rowind, *p_next; // n + 1, nnz, n + 1
    double *p_val;                     // nnz: the current matrix, permuted
    int *s2p;                          // nnz: S slot -> P slot
    int cap_p_colptr, cap_p_rowind, cap_p_next, cap_p_val, cap_s2p;
    // The map of the current matrix's entries into P's slots.
    long map_version; // pattern_version the map is for (0: none)
    bool map_full;    // the matrix's pattern is S (every slot of P is written)
    int *map;         // nnz of that matrix
    int cap_map;
    ipcc_supernodal *plan; // our numeric factorization in L's layout (valid while L is non-NULL)
    double *xp;            // n: a solve's vector in L's (permuted) order
    int cap_xp;
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
    // BLAS threads: one. Parallelism is ipcc's own (supernodal.c calls BLAS
    // from its OpenMP threads, each call on one core, so that results do not
    // depend on the thread count); OpenBLAS's spinning pthread pool beside
    // OpenMP's starved the element loops (measured per Newton iteration on a
    // 41k-tet box: threaded BLAS 549 ms assembly, single-threaded 201 ms).
    // OpenBLAS's OpenMP build implements this with omp_set_num_threads(1),
    // which would put every later parallel region of ipcc on one thread
    // (overriding --threads and OMP_NUM_THREADS): keep ipcc's setting.
    const int ipcc_threads = omp_get_max_threads();
    openblas_set_num_threads(1);
    omp_set_num_threads(ipcc_threads);
    s->common.print = 0;
    s->common.supernodal = CHOLMOD_SUPERNODAL;
    s->common.itype = CHOLMOD_INT;
    s->common.dtype = CHOLMOD_DOUBLE;
    return s;
}

static void solver_drop_factor(ipcc_linear_solver *s) {
    ipcc_supernodal_destroy(s->plan);
    s->plan = NULL;
    if (s->L) cholmod_free_factor(&s->L, &s->common);
    s->L = NULL;
    s->map_version = 0;
    s->factored = false;
}

// A cholmod_sparse header over CSC arrays (no copy; CHOLMOD only reads them).
static cholmod_sparse solver_wrap(int n, int nnz, int *colptr, int *rowind, double *val) {
    cholmod_sparse M;
    memset(&M, 0, sizeof M);
    M.nrow = (size_t)n;
    M.ncol = (size_t)n;
    M.nzmax = (size_t)nnz;
    M.p = colptr;
    M.i = rowind;
    M.x = val;
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

// Map A's entries into P's slots if A's pattern is a subset of S's (column
// by column, both sorted); records the map for A's pattern_version.
static bool map_into_superset(ipcc_linear_solver *s, const ipcc_csc *A) {
    if (A->nnz > s->s_nnz || ipcc_reserve((void **)&s->map, &s->cap_map, A->nnz + 1, sizeof(int)) != 0)
        return false;
    for (int j = 0; j < A->n; ++j) {
        int q = s->s_colptr[j], qend = s->s_colptr[j + 1];
        for (int k = A->colptr[j]; k < A->colptr[j + 1]; ++k) {
            while (q < qend && s->s_rowind[q] < A->rowind[k])
                ++q;
            if (q == qend || s->s_rowind[q] != A->rowind[k]) return false;
            s->map[k] = s->s2p[q++];
        }
    }
    s->map_version = A->pattern_version;
    s->map_full = A->nnz == s->s_nnz;
    return true;
}

// P = tril(S(p, p)), sorted, and s2p. The column counts, a counting sort
// by column, then an insertion sort of each column's rows (a Hessian column
// holds a few dozen entries), keeping the inverse map in u_rowind.
static int build_permuted(ipcc_linear_solver *s) {
    int n = s->s_n, nnz = s->s_nnz;
    const int *perm = s->L->Perm;
    if (ipcc_reserve((void **)&s->p_colptr, &s->cap_p_colptr, n + 1, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&s->p_next, &s->cap_p_next, n + 1, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&s->p_rowind, &s->cap_p_rowind, nnz + 1, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&s->p_val, &s->cap_p_val, nnz + 1, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&s->s2p, &s->cap_s2p, nnz + 1, sizeof(int)) != 0)
        return -1;
    int *pinv = s->u_colptr, *p2s = s->u_rowind; // both hold >= n + 1 and >= nnz ints
    for (int k = 0; k < n; ++k)
        pinv[perm[k]] = k;
    memset(s->p_colptr, 0, sizeof(int) * (size_t)(n + 1));
    for (int j = 0; j < n; ++j)
        for (int q = s->s_colptr[j]; q < s->s_colptr[j + 1]; ++q) {
            int a = pinv[s->s_rowind[q]], b = pinv[j];
            s->p_colptr[(a < b ? a : b) + 1]++;
        }
    for (int j = 0; j < n; ++j)
        s->p_colptr[j + 1] += s->p_colptr[j];
    memcpy(s->p_next, s->p_colptr, sizeof(int) * (size_t)(n + 1));
    for (int j = 0; j < n; ++j)
        for (int q = s->s_colptr[j]; q < s->s_colptr[j + 1]; ++q) {
            int a = pinv[s->s_rowind[q]], b = pinv[j];
            int pos = s->p_next[a < b ? a : b]++;
            s->p_rowind[pos] = a > b ? a : b;
            p2s[pos] = q;
        }
    for (int j = 0; j < n; ++j)
        for (int k = s->p_colptr[j] + 1; k < s->p_colptr[j + 1]; ++k) {
            int r = s->p_rowind[k], q = p2s[k], m = k;
            for (; m > s->p_colptr[j] && s->p_rowind[m - 1] > r; --m) {
                s->p_rowind[m] = s->p_rowind[m - 1];
                p2s[m] = p2s[m - 1];
            }
            s->p_rowind[m] = r;
            p2s[m] = q;
        }
    for (int k = 0; k < nnz; ++k)
        s->s2p[p2s[k]] = k;
    return 0;
}

// S := pattern(A) united with S (when `unite`, S has A's dimension and the
// union stays within SUPERSET_GROWTH * nnz(A)), else pattern(A); analyse S and
// map A into it. 0, or -1 with a message (out of memory, CHOLMOD error).
static int analyse_superset(ipcc_linear_solver *s, const ipcc_csc *A, bool unite) {
    int n = A->n;
    unite = unite && s->L && s->s_n == n;
    // Within a solve, the new analysis keeps the current ordering (see
    // "Orderings within a solve").
    if (unite) {
        if (ipcc_reserve((void **)&s->given_perm, &s->cap_given_perm, n + 1, sizeof(int)) != 0) {
            ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: out of memory for the ordering (n = %d)", n);
            return -1;
        }
        memcpy(s->given_perm, s->L->Perm, sizeof(int) * (size_t)n);
    }
    solver_drop_factor(s);
    long cap_union = (long)A->nnz + (unite ? s->s_nnz : 0);
    if (cap_union > INT_MAX - 1 ||
        ipcc_reserve((void **)&s->u_colptr, &s->cap_u_colptr, n + 1, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&s->u_rowind, &s->cap_u_rowind, (int)cap_union + 1, sizeof(int)) != 0) {
        ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: out of memory for the pattern (n = %d)", n);
        return -1;
    }
    int nnz = 0;
    s->u_colptr[0] = 0;
    for (int j = 0; j < n; ++j) { // merge column j of A and (if uniting) of S
        int a = A->colptr[j], aend = A->colptr[j + 1];
        int b = unite ? s->s_colptr[j] : 0, bend = unite ? s->s_colptr[j + 1] : 0;
        while (a < aend || b < bend) {
            int ra = a < aend ? A->rowind[a] : INT_MAX, rb = b < bend ? s->s_rowind[b] : INT_MAX;
            int r = ra < rb ? ra : rb;
            a += ra == r;
            b += rb == r;
            s->u_rowind[nnz++] = r;
        }
        s->u_colptr[j + 1] = nnz;
    }
    const int *colptr = A->colptr, *rowind = A->rowind;
    if (unite && nnz <= SUPERSET_GROWTH * A->nnz) {
        colptr = s->u_colptr;
        rowind = s->u_rowind;
    } else {
        nnz = A->nnz;
    }
    if (ipcc_reserve((void **)&s->s_colptr, &s->cap_colptr, n + 1, sizeof(int)) != 0 ||
        ipcc_reserve((void **)&s->s_rowind, &s->cap_rowind, nnz + 1, sizeof(int)) != 0) {
        ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: out of memory for the pattern (n = %d)", n);
        return -1;
    }
    memcpy(s->s_colptr, colptr, sizeof(int) * (size_t)(n + 1));
    memcpy(s->s_rowind, rowind, sizeof(int) * (size_t)nnz);
    s->s_n = n;
    s->s_nnz = nnz;
    cholmod_sparse M = solver_wrap(n, nnz, s->s_colptr, s->s_rowind, NULL);
    M.xtype = CHOLMOD_PATTERN;
    if (unite) {
        const int nmethods = s->common.nmethods, ordering = s->common.method[0].ordering;
        s->common.nmethods = 1;
        s->common.method[0].ordering = CHOLMOD_GIVEN;
        s->L = cholmod_analyze_p(&M, s->given_perm, NULL, 0, &s->common);
        s->common.nmethods = nmethods;
        s->common.method[0].ordering = ordering;
    } else {
        s->L = cholmod_analyze(&M, &s->common);
    }
    s->ordering_own = !unite;
    s->stats.orderings += !unite;
    if (!s->L || s->common.status < CHOLMOD_OK) {
        solver_cholmod_error(s, "analyze");
        return -1;
    }
    s->stats.analyses++;
    s->stats.analysed_nnz = nnz;
    // The numeric factor's storage, in the analysis's supernodal layout,
    // and the plan of our own factorization in it ("Our numeric
    // factorization").
    if (!s->L->is_super || !cholmod_change_factor(CHOLMOD_REAL, 1, 1, 1, 1, s->L, &s->common)) {
        solver_cholmod_error(s, "change_factor");
        return -1;
    }
    ipcc_supernodal_structure st = {.n = n,
                                    .nsuper = (int)s->L->nsuper,
                                    .super = s->L->super,
                                    .pi = s->L->pi,
                                    .px = s->L->px,
                                    .rows = s->L->s};
    if (ipcc_reserve((void **)&s->xp, &s->cap_xp, n + 1, sizeof(double)) != 0) {
        solver_drop_factor(s);
        ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: out of memory (n = %d)", n);
        return -1;
    }
    if (!(s->plan = ipcc_supernodal_create(&st, omp_get_max_threads()))) {
        solver_drop_factor(s);
        return -1;
    }
    s->stats.factor_flops = ipcc_supernodal_flops(s->plan);
    s->stats.factor_entries = ipcc_supernodal_entries(s->plan);
    if (build_permuted(s) != 0) {
        solver_drop_factor(s);
        ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: out of memory for the permuted pattern (n = %d)", n);
        return -1;
    }
    bool ok = map_into_superset(s, A);
    IPCC_ASSERT(ok); // S contains A by construction
    return 0;
}

int ipcc_linear_solver_factorize(ipcc_linear_solver *s, const ipcc_csc *A, double shift) {
    IPCC_ASSERT(s && A && shift >= 0.0);
    s->factored = false;
    if (A->n <= 0 || !A->colptr) {
        ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "linear solver: empty or unassembled matrix (n = %d)", A->n);
        return -1;
    }
    bool mapped = s->L && s->s_n == A->n && (s->map_version == A->pattern_version || map_into_superset(s, A));
    // At a solve's start, S must be exactly A's pattern, with its own ordering.
    if (mapped && s->restart && (!s->map_full || !s->ordering_own)) mapped = false;
    bool unite = !s->restart;
    s->restart = false;
    if (!mapped) {
        double t0 = ipcc_now();
        int rc = analyse_superset(s, A, unite);
        s->stats.time_analyze += ipcc_now() - t0;
        if (rc != 0) return -1;
    }
    if (!s->map_full) {
        memset(s->p_val, 0, sizeof(double) * (size_t)s->s_nnz);
        s->stats.superset_factorizations++;
    }
    for (int k = 0; k < A->nnz; ++k)
        s->p_val[s->map[k]] = A->val[k];

    double t0 = ipcc_now();
    int minor = A->n;
    int rc = ipcc_supernodal_factorize(s->plan, s->p_colptr, s->p_rowind, s->p_val, shift, s->L->x, &minor);
    s->stats.time_factor += ipcc_now() - t0;
    s->stats.factorizations++;
    if (rc != 0) {
        s->L->minor = (size_t)minor;
        ipcc_fail(IPCC_ERR_SOLVER, "linear solver: matrix + %g I is not positive definite (pivot %d of %d)",
                  shift, minor, A->n);
        return 1;
    }
    s->L->minor = s->L->n;
    s->factored = true;
    return 0;
}

void ipcc_linear_solver_restart_superset(ipcc_linear_solver *s) { s->restart = true; }

int ipcc_linear_solver_solve(ipcc_linear_solver *s, const double *b, double *x) {
    IPCC_ASSERT(s && b && x);
    if (!s->factored) {
        ipcc_fail(IPCC_ERR_SOLVER, "linear solver: solve without a successful factorization");
        return -1;
    }
    double t0 = ipcc_now();
    const int n = (int)s->L->n, *perm = s->L->Perm;
    for (int k = 0; k < n; ++k)
        s->xp[k] = b[perm[k]];
    ipcc_supernodal_solve(s->plan, s->L->x, s->xp);
    for (int k = 0; k < n; ++k)
        x[perm[k]] = s->xp[k];
    s->stats.time_solve += ipcc_now() - t0;
    return 0;
}

ipcc_linear_solver_stats ipcc_linear_solver_get_stats(const ipcc_linear_solver *s) { return s->stats; }

void ipcc_linear_solver_destroy(ipcc_linear_solver *s) {
    if (!s) return;
    solver_drop_factor(s);
    cholmod_finish(&s->common);
    free(s->s_colptr);
    free(s->s_rowind);
    free(s->p_colptr);
    free(s->p_rowind);
    free(s->p_next);
    free(s->p_val);
    free(s->s2p);
    free(s->u_colptr);
    free(s->u_rowind);
    free(s->map);
    free(s->xp);
    free(s->given_perm);
    free(s);
}
