// Parallel supernodal Cholesky, bit-identical for any thread count.
//
// What it computes. Given a supernodal structure (supernodal.h: CHOLMOD's
// analysis, linear_solver.c), the left-looking supernodal factorization of
// Ng and Peyton (1993) as CHOLMOD performs it: for each supernode s, in an
// order with descendants first, (1) assemble its columns of A + shift I into
// its dense block; (2) subtract the update of every descendant d whose rows
// meet s's columns, C = L_d(rows >= those, :) L_d(rows in s, :)^T (BLAS
// syrk and gemm), scattered through a row map; (3) factor the block:
// Cholesky of its diagonal part and a triangular solve for the rows below.
//
// Determinism. Every floating-point operation is fixed by the structure
// alone, never by the thread count or the schedule: an entry of s receives
// A, then the descendants' updates in ascending order of d, then the
// updates of its own earlier column tiles in order; and every BLAS call's
// operands (which rows and columns) are fixed by a tiling of width TILE that
// depends only on the supernode's size. OpenBLAS runs on one thread inside
// each call (linear_solver.c pins it), so a call's result depends only on
// its operands. Threads only decide who makes which call, so the factor is
// the same bit for bit on any number of threads.
//
//   - Column tiles: s's columns split into blocks of TILE; step (2) runs per
//     block (each block's rows of d give one syrk and one gemm), so blocks
//     are independent and run in parallel.
//   - Step (3) is a tiled right-looking Cholesky over the block: row tiles
//     are the column blocks (the diagonal tiles), then TILE-row tiles of
//     the rows below the diagonal block. Per panel tj: dpotrf of tile (tj, tj),
//     dtrsm of the tiles below it (parallel), then tile (ti, tk) -= (ti, tj)
//     (tk, tj)^T for every tk > tj, ti >= tk (dsyrk on the diagonal, dgemm
//     elsewhere; parallel).
//
// Schedule (chosen per analysis for the plan's thread count; it decides
// who computes what, never what is computed). Supernodes are numbered in
// postorder (CHOLMOD's analysis postorders the tree), so a subtree is a
// contiguous range of numbers. Phase A: independent subtrees, each factored
// by one thread in ascending order, handed out largest first (dynamic
// schedule). The subtrees come from splitting the forest at its roots
// until the largest has at most 1/(2T) of the phase's flops; each split
// moves a root to phase B. Phase B: the remaining supernodes (the top of
// the tree: the large separators), in ascending order, each factored by all
// threads together through the tiles above. With one thread, phase A is
// the whole forest.
//
// Failure. A pivot that is not positive stops its supernode, and every
// ancestor of a failed supernode is skipped; the others still run, so the
// first failing column reported is the same on any thread count (the
// factor is then of no use, and the caller retries with a shift).
//
// No allocation: the plan holds the update lists, the schedule and per
// thread a row map (n ints) and an update buffer sized at planning for the
// largest update tile; OpenMP worksharing loops (no tasks: libgomp
// allocates each deferred task).
#include "solver/supernodal.h"
#include "base/parallel.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>
#include <omp.h>

#include "base/core.h"

/// Column and row tile width (see the preamble): 128 keeps each BLAS call
/// near OpenBLAS's single-core peak (192 measured within 2 %, with fewer
/// tiles for many cores; docs/design.md, "The factorization").
#define TILE 128

typedef struct thread_space {
    int *map;  ///< n: row -> position in the current supernode's rows
    double *c; ///< the update buffer
    double *v; ///< the solve's buffer: max rows of a supernode
} thread_space;

struct ipcc_supernodal {
    ipcc_supernodal_structure st;
    int threads;
    int *child_ptr, *child; ///< nsuper + 1, nsuper: children of each supernode
    // Updates into each supernode, ascending in the descendant d: d, and
    // the range [r1, r2) of positions in d's rows that fall in s's columns.
    int *upd_ptr; ///< nsuper + 1
    int *upd_d, *upd_r1, *upd_r2;
    int num_ranges; ///< phase A: subtrees [lo, hi], largest first
    int *range_lo, *range_hi;
    int num_top; ///< phase B: supernodes, ascending
    int *top;
    double *below;         ///< forward solve: per supernode, L_s(rows below, :) x_s
    size_t *below_off;     ///< nsuper: where each supernode's part of `below` starts
    thread_space *space;   ///< per thread
    int *top_map;          ///< n: the row map of the phase-B supernode in work
    unsigned char *failed; ///< nsuper: failed, or skipped after a failure below
    int first_failure;     ///< the smallest failing column, INT_MAX if none
    double flops;
};

static inline int ncols(const ipcc_supernodal *f, int s) { return f->st.super[s + 1] - f->st.super[s]; }
static inline int nrows(const ipcc_supernodal *f, int s) { return f->st.pi[s + 1] - f->st.pi[s]; }
static inline int nblocks(int n) { return (n + TILE - 1) / TILE; }
/// Column block tj of a supernode of ncol columns: [tj TILE, its end).
static inline int block_end(int ncol, int tj) { return (tj + 1) * TILE < ncol ? (tj + 1) * TILE : ncol; }
/// Row tiles of a supernode: the column blocks, then TILE-row tiles below.
static inline int nrowtiles(int ncol, int nrow) { return nblocks(ncol) + nblocks(nrow - ncol); }
static inline void row_tile(int ncol, int nrow, int ti, int *r0, int *r1) {
    int nb = nblocks(ncol);
    if (ti < nb) {
        *r0 = ti * TILE;
        *r1 = block_end(ncol, ti);
    } else {
        *r0 = ncol + (ti - nb) * TILE;
        *r1 = *r0 + TILE < nrow ? *r0 + TILE : nrow;
    }
}

// ---------------------------------------------------------------------------
// Planning

void ipcc_supernodal_destroy(ipcc_supernodal *f) {
    if (!f) return;
    free(f->child_ptr);
    free(f->child);
    free(f->upd_ptr);
    free(f->upd_d);
    free(f->upd_r1);
    free(f->upd_r2);
    free(f->range_lo);
    free(f->range_hi);
    free(f->top);
    if (f->space)
        for (int t = 0; t < f->threads; ++t) {
            free(f->space[t].map);
            free(f->space[t].c);
            free(f->space[t].v);
        }
    free(f->space);
    free(f->top_map);
    free(f->failed);
    free(f->below);
    free(f->below_off);
    free(f);
}

// The updates of every descendant into its ancestors: for d, its rows
// beyond its own columns, grouped by the supernode holding each row's
// column (the rows are ascending, so each group is a contiguous range).
// Two passes (count, fill) over d in ascending order keep each list
// ascending in d.
static int plan_updates(ipcc_supernodal *f, const int *col_super) {
    const ipcc_supernodal_structure *st = &f->st;
    const int ns = st->nsuper;
    if (!(f->upd_ptr = calloc((size_t)ns + 1, sizeof(int)))) return -1;
    for (int pass = 0; pass < 2; ++pass) {
        int *next = NULL;
        if (pass == 1) {
            for (int s = 0; s < ns; ++s)
                f->upd_ptr[s + 1] += f->upd_ptr[s];
            int m = f->upd_ptr[ns];
            f->upd_d = malloc(sizeof(int) * ((size_t)m + 1));
            f->upd_r1 = malloc(sizeof(int) * ((size_t)m + 1));
            f->upd_r2 = malloc(sizeof(int) * ((size_t)m + 1));
            next = malloc(sizeof(int) * ((size_t)ns + 1));
            if (!f->upd_d || !f->upd_r1 || !f->upd_r2 || !next) {
                free(next);
                return -1;
            }
            memcpy(next, f->upd_ptr, sizeof(int) * (size_t)ns);
        }
        for (int d = 0; d < ns; ++d) {
            const int *r = st->rows + st->pi[d];
            int q = ncols(f, d), nr = nrows(f, d);
            while (q < nr) {
                int s = col_super[r[q]], q0 = q;
                while (q < nr && r[q] < st->super[s + 1])
                    ++q;
                if (pass == 0) {
                    f->upd_ptr[s + 1]++;
                } else {
                    int k = next[s]++;
                    f->upd_d[k] = d;
                    f->upd_r1[k] = q0;
                    f->upd_r2[k] = q;
                }
            }
        }
        free(next);
    }
    return 0;
}

// Flops of supernode s's own work (its factorization and the updates it
// receives), for the schedule and ipcc_supernodal_flops.
static double node_flops(const ipcc_supernodal *f, int s) {
    double nc = ncols(f, s), nr = nrows(f, s), fl = nc * nc * nc / 3 + (nr - nc) * nc * nc;
    for (int u = f->upd_ptr[s]; u < f->upd_ptr[s + 1]; ++u) {
        int d = f->upd_d[u];
        double m = f->upd_r2[u] - f->upd_r1[u], mr = nrows(f, d) - f->upd_r1[u], k = ncols(f, d);
        fl += k * m * (2 * mr - m);
    }
    return fl;
}

// Phases A and B (see the preamble). `first` and `size` describe each
// subtree; subtree flops in `tree_fl`.
static int plan_schedule(ipcc_supernodal *f, const int *parent, const double *tree_fl) {
    const int ns = f->st.nsuper;
    int *list = malloc(sizeof(int) * ((size_t)ns + 1)), *first = malloc(sizeof(int) * ((size_t)ns + 1)),
        *size = malloc(sizeof(int) * ((size_t)ns + 1));
    unsigned char *is_top = calloc((size_t)ns + 1, 1);
    f->range_lo = malloc(sizeof(int) * ((size_t)ns + 1));
    f->range_hi = malloc(sizeof(int) * ((size_t)ns + 1));
    f->top = malloc(sizeof(int) * ((size_t)ns + 1));
    int rc = -1;
    if (!list || !first || !size || !is_top || !f->range_lo || !f->range_hi || !f->top) goto done;
    // Subtrees must be contiguous ranges (a postorder); else everything is phase B.
    for (int s = 0; s < ns; ++s) {
        first[s] = s;
        size[s] = 1;
    }
    for (int s = 0; s < ns; ++s)
        if (parent[s] >= 0) {
            first[parent[s]] = first[s] < first[parent[s]] ? first[s] : first[parent[s]];
            size[parent[s]] += size[s];
        }
    bool postordered = true;
    for (int s = 0; s < ns && postordered; ++s)
        postordered = size[s] == s - first[s] + 1;
    int n = 0;
    double sum = 0;
    if (postordered)
        for (int s = 0; s < ns; ++s)
            if (parent[s] < 0) {
                list[n++] = s;
                sum += tree_fl[s];
            }
    if (!postordered)
        for (int s = 0; s < ns; ++s)
            is_top[s] = 1;
    // Split the largest subtree while it holds more than 1/(2T) of phase A.
    while (f->threads > 1 && n > 0) {
        int big = 0;
        for (int k = 1; k < n; ++k)
            if (tree_fl[list[k]] > tree_fl[list[big]]) big = k;
        int s = list[big];
        if (tree_fl[s] * 2 * f->threads <= sum || f->child_ptr[s] == f->child_ptr[s + 1]) break;
        is_top[s] = 1;
        sum -= tree_fl[s];
        list[big] = list[--n];
        for (int c = f->child_ptr[s]; c < f->child_ptr[s + 1]; ++c) {
            list[n++] = f->child[c];
            sum += tree_fl[f->child[c]];
        }
    }
    // Phase A largest first (ties by number: a fixed order), phase B ascending.
    for (int a = 1; a < n; ++a)
        for (int b = a; b > 0; --b) {
            int x = list[b - 1], y = list[b];
            if (tree_fl[y] > tree_fl[x] || (tree_fl[y] == tree_fl[x] && y < x)) {
                list[b - 1] = y;
                list[b] = x;
            } else {
                break;
            }
        }
    f->num_ranges = n;
    for (int k = 0; k < n; ++k) {
        f->range_lo[k] = first[list[k]];
        f->range_hi[k] = list[k];
    }
    f->num_top = 0;
    for (int s = 0; s < ns; ++s)
        if (is_top[s]) f->top[f->num_top++] = s;
    rc = 0;
done:
    free(list);
    free(first);
    free(size);
    free(is_top);
    return rc;
}

ipcc_supernodal *ipcc_supernodal_create(const ipcc_supernodal_structure *st, int max_threads) {
    IPCC_ASSERT(st && st->n >= 0 && st->nsuper >= 0);
    ipcc_supernodal *f = calloc(1, sizeof *f);
    int *parent = NULL, *col_super = NULL;
    double *tree_fl = NULL;
    if (!f) goto oom;
    f->st = *st;
    f->threads = max_threads > 0 ? max_threads : 1;
    const int ns = st->nsuper, n = st->n;
    parent = malloc(sizeof(int) * ((size_t)ns + 1));
    col_super = malloc(sizeof(int) * ((size_t)n + 1));
    tree_fl = malloc(sizeof(double) * ((size_t)ns + 1));
    f->child_ptr = calloc((size_t)ns + 2, sizeof(int));
    f->child = malloc(sizeof(int) * ((size_t)ns + 1));
    f->failed = malloc((size_t)ns + 1);
    f->top_map = malloc(sizeof(int) * ((size_t)n + 1));
    f->space = calloc((size_t)f->threads, sizeof *f->space);
    if (!parent || !col_super || !tree_fl || !f->child_ptr || !f->child || !f->failed || !f->top_map ||
        !f->space)
        goto oom;
    for (int s = 0; s < ns; ++s)
        for (int j = st->super[s]; j < st->super[s + 1]; ++j)
            col_super[j] = s;
    // The supernodal tree: the parent holds the first row below s's columns.
    for (int s = 0; s < ns; ++s) {
        parent[s] = nrows(f, s) > ncols(f, s) ? col_super[st->rows[st->pi[s] + ncols(f, s)]] : -1;
        IPCC_ASSERT(parent[s] < 0 || parent[s] > s);
        if (parent[s] >= 0) f->child_ptr[parent[s] + 2]++;
    }
    for (int s = 0; s < ns; ++s)
        f->child_ptr[s + 2] += f->child_ptr[s + 1];
    for (int s = 0; s < ns; ++s)
        if (parent[s] >= 0) f->child[f->child_ptr[parent[s] + 1]++] = s;
    if (plan_updates(f, col_super) != 0) goto oom;
    // Flops per subtree (descendants come first) and the largest update tile.
    f->flops = 0;
    size_t cmax = 1;
    for (int s = 0; s < ns; ++s) {
        tree_fl[s] = node_flops(f, s);
        f->flops += tree_fl[s];
        for (int u = f->upd_ptr[s]; u < f->upd_ptr[s + 1]; ++u) {
            size_t m = (size_t)(f->upd_r2[u] - f->upd_r1[u]),
                   mr = (size_t)(nrows(f, f->upd_d[u]) - f->upd_r1[u]);
            size_t c = mr * (m < TILE ? m : TILE);
            if (c > cmax) cmax = c;
        }
    }
    for (int s = 0; s < ns; ++s)
        if (parent[s] >= 0) tree_fl[parent[s]] += tree_fl[s];
    int max_rows = 0; // the solve's buffer per thread
    size_t nbelow = 0;
    if (!(f->below_off = malloc(sizeof(size_t) * ((size_t)ns + 1)))) goto oom;
    for (int s = 0; s < ns; ++s) {
        max_rows = nrows(f, s) > max_rows ? nrows(f, s) : max_rows;
        f->below_off[s] = nbelow;
        nbelow += (size_t)(nrows(f, s) - ncols(f, s));
    }
    if (!(f->below = malloc(sizeof(double) * (nbelow + 1)))) goto oom;
    if (plan_schedule(f, parent, tree_fl) != 0) goto oom;
    for (int t = 0; t < f->threads; ++t)
        if (!(f->space[t].map = malloc(sizeof(int) * ((size_t)n + 1))) ||
            !(f->space[t].c = malloc(sizeof(double) * cmax)) ||
            !(f->space[t].v = malloc(sizeof(double) * ((size_t)max_rows + 1))))
            goto oom;
    free(parent);
    free(col_super);
    free(tree_fl);
    return f;
oom:
    free(parent);
    free(col_super);
    free(tree_fl);
    ipcc_supernodal_destroy(f);
    ipcc_fail(IPCC_ERR_NO_MEMORY, "linear solver: out of memory planning the factorization (n = %d)", st->n);
    return NULL;
}

double ipcc_supernodal_flops(const ipcc_supernodal *f) { return f->flops; }
long ipcc_supernodal_entries(const ipcc_supernodal *f) { return (long)f->st.px[f->st.nsuper]; }

// ---------------------------------------------------------------------------
// The steps of one supernode (see the preamble)

typedef struct node_args {
    const int *Ap, *Ai;
    const double *Ax;
    double shift;
    double *Lx;
} node_args;

static void build_map(const ipcc_supernodal *f, int s, int *map) {
    const int *r = f->st.rows + f->st.pi[s];
    for (int i = 0, nr = nrows(f, s); i < nr; ++i)
        map[r[i]] = i;
}

// Step 1 for column block tj: zero its columns, then A + shift I into them.
static void assemble_block(const ipcc_supernodal *f, int s, int tj, const int *map, const node_args *a) {
    const int k1 = f->st.super[s], nc = ncols(f, s), nr = nrows(f, s);
    const int c0 = tj * TILE, c1 = block_end(nc, tj);
    double *Ls = a->Lx + f->st.px[s];
    memset(Ls + (size_t)c0 * nr, 0, sizeof(double) * (size_t)(c1 - c0) * (size_t)nr);
    for (int c = c0; c < c1; ++c) {
        const int j = k1 + c;
        double *col = Ls + (size_t)c * nr;
        for (int p = a->Ap[j]; p < a->Ap[j + 1]; ++p)
            col[map[a->Ai[p]]] = a->Ax[p] + (a->Ai[p] == j ? a->shift : 0.0);
    }
}

// First position q in [lo, hi) of the ascending rows r with r[q] >= v (hi if none).
static int lower_bound(const int *r, int lo, int hi, int v) {
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// Step 2 for column block tj: every descendant's update into it, in order.
static void update_block(const ipcc_supernodal *f, int s, int tj, const int *map, double *C, double *Lx) {
    const ipcc_supernodal_structure *st = &f->st;
    const int k1 = st->super[s], nc = ncols(f, s), nr = nrows(f, s);
    const int c0 = tj * TILE, c1 = block_end(nc, tj);
    double *Ls = Lx + st->px[s];
    for (int u = f->upd_ptr[s]; u < f->upd_ptr[s + 1]; ++u) {
        const int d = f->upd_d[u], ndr = nrows(f, d), ndc = ncols(f, d);
        const int *rd = st->rows + st->pi[d];
        int q1 = lower_bound(rd, f->upd_r1[u], f->upd_r2[u], k1 + c0);
        int q2 = lower_bound(rd, q1, f->upd_r2[u], k1 + c1);
        const int m = q2 - q1, mr = ndr - q1;
        if (m == 0) continue;
        const double *Ld = Lx + st->px[d];
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, m, ndc, 1.0, Ld + q1, ndr, 0.0, C, mr);
        if (mr > m)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, mr - m, m, ndc, 1.0, Ld + q2, ndr, Ld + q1,
                        ndr, 0.0, C + m, mr);
        for (int jj = 0; jj < m; ++jj) {
            double *col = Ls + (size_t)map[rd[q1 + jj]] * nr; // the row's position is its local column
            const double *cc = C + (size_t)jj * mr;
            for (int ii = jj; ii < mr; ++ii)
                col[map[rd[q1 + ii]]] -= cc[ii];
        }
    }
}

// Step 3, panel tj: Cholesky of tile (tj, tj); info > 0 as LAPACK's dpotrf.
static int panel_potrf(const ipcc_supernodal *f, int s, int tj, double *Lx) {
    const int nc = ncols(f, s), nr = nrows(f, s), c0 = tj * TILE, b = block_end(nc, tj) - c0;
    double *T = Lx + f->st.px[s] + (size_t)c0 * nr + c0;
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', b, T, nr);
}

// Tile (ti, tj) := (ti, tj) L_JJ^-T, ti below tj.
static void panel_trsm(const ipcc_supernodal *f, int s, int ti, int tj, double *Lx) {
    const int nc = ncols(f, s), nr = nrows(f, s), c0 = tj * TILE, b = block_end(nc, tj) - c0;
    int r0, r1;
    row_tile(nc, nr, ti, &r0, &r1);
    double *L = Lx + f->st.px[s] + (size_t)c0 * nr;
    cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, r1 - r0, b, 1.0, L + c0, nr,
                L + r0, nr);
}

// Tile (ti, tk) -= (ti, tj) (tk, tj)^T for column blocks tj < tk, ti >= tk.
static void panel_update(const ipcc_supernodal *f, int s, int ti, int tk, int tj, double *Lx) {
    const int nc = ncols(f, s), nr = nrows(f, s), cj = tj * TILE, bj = block_end(nc, tj) - cj;
    const int ck = tk * TILE, bk = block_end(nc, tk) - ck;
    int r0, r1;
    row_tile(nc, nr, ti, &r0, &r1);
    double *L = Lx + f->st.px[s];
    if (ti == tk)
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, bk, bj, -1.0, L + (size_t)cj * nr + ck, nr, 1.0,
                    L + (size_t)ck * nr + ck, nr);
    else
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, r1 - r0, bk, bj, -1.0, L + (size_t)cj * nr + r0,
                    nr, L + (size_t)cj * nr + ck, nr, 1.0, L + (size_t)ck * nr + r0, nr);
}

// The trailing updates of panel tj as one index range: item -> (ti, tk).
static int trailing_items(int nb, int nt, int tj) {
    int count = 0;
    for (int tk = tj + 1; tk < nb; ++tk)
        count += nt - tk;
    return count;
}
static void trailing_item(int nb, int nt, int tj, int item, int *ti, int *tk) {
    int k = tj + 1;
    while (k < nb && item >= nt - k)
        item -= nt - k++;
    *tk = k;
    *ti = k + item;
}

static void record_failure(ipcc_supernodal *f, int s, int column) {
    f->failed[s] = 1;
#pragma omp critical(ipcc_supernodal_failure)
    if (column < f->first_failure) f->first_failure = column;
}

static bool child_failed(const ipcc_supernodal *f, int s) {
    for (int c = f->child_ptr[s]; c < f->child_ptr[s + 1]; ++c)
        if (f->failed[f->child[c]]) return true;
    return false;
}

// Supernode s on this thread alone.
static void factor_serial(ipcc_supernodal *f, int s, thread_space *ts, const node_args *a) {
    if (child_failed(f, s)) {
        f->failed[s] = 1;
        return;
    }
    const int nc = ncols(f, s), nb = nblocks(nc), nt = nrowtiles(nc, nrows(f, s));
    build_map(f, s, ts->map);
    for (int tj = 0; tj < nb; ++tj) {
        assemble_block(f, s, tj, ts->map, a);
        update_block(f, s, tj, ts->map, ts->c, a->Lx);
    }
    for (int tj = 0; tj < nb; ++tj) {
        int info = panel_potrf(f, s, tj, a->Lx);
        if (info != 0) {
            record_failure(f, s, f->st.super[s] + tj * TILE + (info > 0 ? info - 1 : 0));
            return;
        }
        for (int ti = tj + 1; ti < nt; ++ti)
            panel_trsm(f, s, ti, tj, a->Lx);
        for (int item = 0, count = trailing_items(nb, nt, tj); item < count; ++item) {
            int ti, tk;
            trailing_item(nb, nt, tj, item, &ti, &tk);
            panel_update(f, s, ti, tk, tj, a->Lx);
        }
    }
}

// Supernode s by the whole team (every thread calls it; worksharing inside).
static void factor_team(ipcc_supernodal *f, int s, thread_space *ts, const node_args *a) {
    const int nc = ncols(f, s), nb = nblocks(nc), nt = nrowtiles(nc, nrows(f, s));
    bool skip = child_failed(f, s); // the same on every thread: the flags were written before a barrier
#pragma omp single
    {
        if (skip)
            f->failed[s] = 1;
        else
            build_map(f, s, f->top_map);
    }
    if (skip) return;
#pragma omp for schedule(dynamic, 1)
    for (int tj = 0; tj < nb; ++tj) {
        assemble_block(f, s, tj, f->top_map, a);
        update_block(f, s, tj, f->top_map, ts->c, a->Lx);
    }
    for (int tj = 0; tj < nb; ++tj) {
#pragma omp single
        {
            int info = panel_potrf(f, s, tj, a->Lx);
            if (info != 0) record_failure(f, s, f->st.super[s] + tj * TILE + (info > 0 ? info - 1 : 0));
        }
        // failed[s] (not a team-wide flag: a thread that returns early may
        // already be in the next supernode's single) is only written above.
        if (f->failed[s]) return;
#pragma omp for schedule(dynamic, 1)
        for (int ti = tj + 1; ti < nt; ++ti)
            panel_trsm(f, s, ti, tj, a->Lx);
        const int count = trailing_items(nb, nt, tj);
#pragma omp for schedule(dynamic, 1)
        for (int item = 0; item < count; ++item) {
            int ti, tk;
            trailing_item(nb, nt, tj, item, &ti, &tk);
            panel_update(f, s, ti, tk, tj, a->Lx);
        }
    }
}

int ipcc_supernodal_factorize(ipcc_supernodal *f, const int *Ap, const int *Ai, const double *Ax,
                              double shift, double *Lx, int *minor) {
    IPCC_ASSERT(f && Ap && Ai && Ax && Lx);
    const node_args a = {.Ap = Ap, .Ai = Ai, .Ax = Ax, .shift = shift, .Lx = Lx};
    memset(f->failed, 0, (size_t)f->st.nsuper + 1);
    f->first_failure = INT_MAX;
    int threads = omp_get_max_threads();
    if (threads > f->threads) threads = f->threads;
    static ipcc_region region_factorize;
    ipcc_region_run run = ipcc_region_begin(
        &region_factorize, threads > 1 && f->flops >= IPCC_SUPERNODAL_PARALLEL_FLOPS ? (long)f->flops : 0);
#pragma omp parallel num_threads(run.threads > 1 ? threads : 1)
    {
        thread_space *ts = &f->space[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
        for (int r = 0; r < f->num_ranges; ++r)
            for (int s = f->range_lo[r]; s <= f->range_hi[r]; ++s)
                factor_serial(f, s, ts, &a);
        for (int k = 0; k < f->num_top; ++k)
            factor_team(f, f->top[k], ts, &a);
    }
    ipcc_region_end(&run);
    if (f->first_failure == INT_MAX) return 0;
    if (minor) *minor = f->first_failure;
    return 1;
}

// ---------------------------------------------------------------------------
// Solves (see supernodal.h)

// Forward, supernode s: x_s -= the terms its descendants left in `below`
// for its rows (in ascending order of d: a gather, so s writes only x_s and
// its own part of `below`), x_s := L_ss^-1 x_s, then its own terms for the
// rows below, L_s(rows below, :) x_s, into its part of `below` (one gemv).
static void forward_node(const ipcc_supernodal *f, int s, const double *Lx, double *x) {
    const ipcc_supernodal_structure *st = &f->st;
    const int k1 = st->super[s], nc = ncols(f, s), nr = nrows(f, s);
    for (int u = f->upd_ptr[s]; u < f->upd_ptr[s + 1]; ++u) {
        const int d = f->upd_d[u], r1 = f->upd_r1[u], r2 = f->upd_r2[u], ndc = ncols(f, d);
        const int *rd = st->rows + st->pi[d];
        const double *t = f->below + f->below_off[d]; // row q of d at t[q - ndc], q >= r1 >= ndc
        for (int q = r1; q < r2; ++q)
            x[rd[q]] -= t[q - ndc];
    }
    const double *Ls = Lx + st->px[s];
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, nc, Ls, nr, x + k1, 1);
    if (nr > nc)
        cblas_dgemv(CblasColMajor, CblasNoTrans, nr - nc, nc, 1.0, Ls + nc, nr, x + k1, 1, 0.0,
                    f->below + f->below_off[s], 1);
}

// Backward, supernode s: x_s := L_ss^-T (x_s - L_s(rows below, :)^T x_below).
static void backward_node(const ipcc_supernodal *f, int s, const double *Lx, double *x, double *t) {
    const ipcc_supernodal_structure *st = &f->st;
    const int k1 = st->super[s], nc = ncols(f, s), nr = nrows(f, s);
    const int *r = st->rows + st->pi[s];
    const double *Ls = Lx + st->px[s];
    if (nr > nc) {
        double *below = t + nc;
        for (int q = nc; q < nr; ++q)
            below[q - nc] = x[r[q]];
        cblas_dgemv(CblasColMajor, CblasTrans, nr - nc, nc, -1.0, Ls + nc, nr, below, 1, 1.0, x + k1, 1);
    }
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, nc, Ls, nr, x + k1, 1);
}

void ipcc_supernodal_solve(ipcc_supernodal *f, const double *Lx, double *x) {
    IPCC_ASSERT(f && Lx && x);
    int threads = omp_get_max_threads();
    if (threads > f->threads) threads = f->threads;
    static ipcc_region region_solve;
    long entries = ipcc_supernodal_entries(f);
    ipcc_region_run run = ipcc_region_begin(
        &region_solve, threads > 1 && entries >= IPCC_SUPERNODAL_PARALLEL_ENTRIES ? entries : 0);
#pragma omp parallel num_threads(run.threads > 1 ? threads : 1)
    {
        double *t = f->space[omp_get_thread_num()].v;
#pragma omp for schedule(dynamic, 1)
        for (int r = 0; r < f->num_ranges; ++r)
            for (int s = f->range_lo[r]; s <= f->range_hi[r]; ++s)
                forward_node(f, s, Lx, x);
#pragma omp single
        {
            for (int k = 0; k < f->num_top; ++k)
                forward_node(f, f->top[k], Lx, x);
            for (int k = f->num_top - 1; k >= 0; --k)
                backward_node(f, f->top[k], Lx, x, t);
        }
#pragma omp for schedule(dynamic, 1)
        for (int r = 0; r < f->num_ranges; ++r)
            for (int s = f->range_hi[r]; s >= f->range_lo[r]; --s)
                backward_node(f, s, Lx, x, t);
    }
    ipcc_region_end(&run);
}
