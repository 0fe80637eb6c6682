// Triplet lists and their compression to symmetric CSC (upper triangle).
//
// Design. The Newton loop assembles the Hessian as a triplet list whose
// (row, col) sequence is usually identical from one iteration to the next
// (the elastic part never changes; the contact part changes only when the
// active set does). ipcc_csc_assemble therefore keeps a copy of the previous
// sequence and a scatter map k -> slot; when the new sequence is bytewise equal
// (two memcmp calls), assembly is a zero fill plus one scatter pass, with no
// allocation and no index work.
//
// When the sequence differs, the pattern is rebuilt in O(count + n) with a
// two-pass least-significant-digit counting sort on (col, row): pass one buckets
// the upper-triangle triplets by row, pass two stably buckets that order by
// column, leaving each column's entries in ascending row order. One walk over
// the sorted order then merges duplicates, numbers the unique entries (which
// is exactly their CSC slot), fills colptr and the map. No comparison sort is
// used: patterns reach tens of millions of triplets.
//
// Memory. Every buffer persists in the ipcc_csc and only grows. The rebuild
// needs two permutation arrays of length count; it borrows prev_row and
// prev_col for them (they are overwritten with the new sequence at the end)
// and uses colptr as the bucket counter, so no scratch beyond the cache itself
// is ever allocated.
//
// pattern_version is taken from a process-wide atomic counter (see below), so
// it increases on every rebuild and is unique across matrices.
//
// Failure modes. A failed triplet list (an append ran out of memory) or an
// index outside [0, n) is rejected with -1 before anything in A is touched.
// If memory runs out during a rebuild, A is left empty (n = nnz = 0) with its
// cache invalidated and pattern_version bumped, so no stale factorization can
// be mistaken for it; the next successful assemble rebuilds from scratch and
// ipcc_csc_free stays safe. Entries with row > col are dropped (map = -1),
// because the matrix is symmetric and only its upper triangle is stored.
#include "solver/sparse.h"

#include <stdatomic.h>
#include <string.h>

#include "base/core.h"

// Pattern versions are drawn from one process-wide counter, so two matrices
// (or one matrix freed and re-created at the same address) never share a
// version: a solver keyed on pattern_version cannot mistake one for another.
static atomic_long pattern_counter;

static long next_pattern_version(void) { return atomic_fetch_add(&pattern_counter, 1) + 1; }

void ipcc_triplets_clear(ipcc_triplets *t) {
    t->count = 0;
    t->failed = false;
    t->projection_pending = false;
    t->exact_begin = t->exact_end = 0;
}

// Grow the three parallel arrays together to at least `count` entries. On OOM
// some arrays may already be larger; capacity is only raised once all three
// succeed, so the struct stays consistent.
static int triplets_grow(ipcc_triplets *t, int count) {
    if (count <= t->capacity) return 0;
    int cap = ipcc_grow_capacity(t->capacity, 64, count);
    int *r = realloc(t->row, (size_t)cap * sizeof *r);
    if (!r) return -1;
    t->row = r;
    int *c = realloc(t->col, (size_t)cap * sizeof *c);
    if (!c) return -1;
    t->col = c;
    double *v = realloc(t->val, (size_t)cap * sizeof *v);
    if (!v) return -1;
    t->val = v;
    t->capacity = cap;
    return 0;
}

int ipcc_triplets_reserve(ipcc_triplets *t, int count) {
    if (count < 0 || t->count > 0x7fffffff - count) {
        t->failed = true;
        return -1;
    }
    if (triplets_grow(t, t->count + count) != 0) {
        t->failed = true;
        return -1;
    }
    return 0;
}

void ipcc_triplets_add(ipcc_triplets *t, int row, int col, double value) {
    if (t->count == t->capacity) {
        if (t->count == 0x7fffffff || triplets_grow(t, t->count + 1) != 0) {
            t->failed = true;
            return;
        }
    }
    int k = t->count++;
    t->row[k] = row;
    t->col[k] = col;
    t->val[k] = value;
}

void ipcc_triplets_free(ipcc_triplets *t) {
    if (!t) return;
    IPCC_FREE(t->row);
    IPCC_FREE(t->col);
    IPCC_FREE(t->val);
    IPCC_FREE(t->exact);
    t->count = t->capacity = t->exact_capacity = 0;
    t->exact_begin = t->exact_end = 0;
    t->failed = false;
}

int ipcc_triplets_reserve_exact(ipcc_triplets *t, int begin, int end) {
    IPCC_ASSERT(t && 0 <= begin && begin <= end);
    if (t->exact_end > t->exact_begin && t->exact_end == begin) begin = t->exact_begin; // extends the range
    if (ipcc_reserve((void **)&t->exact, &t->exact_capacity, end - begin, sizeof(double)) != 0) {
        t->failed = true;
        return -1;
    }
    t->exact_begin = begin;
    t->exact_end = end;
    return 0;
}

void ipcc_triplets_swap_exact(ipcc_triplets *t) {
    for (int k = t->exact_begin; k < t->exact_end; ++k) {
        double v = t->val[k];
        t->val[k] = t->exact[k - t->exact_begin];
        t->exact[k - t->exact_begin] = v;
    }
}

// Grow map, prev_row and prev_col (which share map_capacity) to `count`.
static int cache_grow(ipcc_csc *A, int count) {
    if (count <= A->map_capacity) return 0;
    int cap = ipcc_grow_capacity(A->map_capacity, 64, count);
    int *m = realloc(A->map, (size_t)cap * sizeof *m);
    if (!m) return -1;
    A->map = m;
    int *r = realloc(A->prev_row, (size_t)cap * sizeof *r);
    if (!r) return -1;
    A->prev_row = r;
    int *c = realloc(A->prev_col, (size_t)cap * sizeof *c);
    if (!c) return -1;
    A->prev_col = c;
    A->map_capacity = cap;
    return 0;
}

// Grow rowind and val (which share nnz_capacity) to `nnz`.
static int entries_grow(ipcc_csc *A, int nnz) {
    if (nnz <= A->nnz_capacity) return 0;
    int cap = ipcc_grow_capacity(A->nnz_capacity, 64, nnz);
    int *r = realloc(A->rowind, (size_t)cap * sizeof *r);
    if (!r) return -1;
    A->rowind = r;
    double *v = realloc(A->val, (size_t)cap * sizeof *v);
    if (!v) return -1;
    A->val = v;
    A->nnz_capacity = cap;
    return 0;
}

// Leave A as an empty matrix that no cache or factorization can match.
static int csc_invalidate(ipcc_csc *A, int n, int count) {
    A->n = 0;
    A->nnz = 0;
    A->prev_count = -1;
    A->pattern_version = next_pattern_version();
    ipcc_fail(IPCC_ERR_NO_MEMORY, "sparse: out of memory assembling a %d x %d matrix from %d triplets", n, n,
              count);
    return -1;
}

// Values only: the sequence equals the cached one, scatter through the map.
static void csc_scatter(ipcc_csc *A, const ipcc_triplets *T) {
    const int *map = A->map;
    const double *tv = T->val;
    double *val = A->val;
    if (A->nnz > 0) memset(val, 0, (size_t)A->nnz * sizeof *val);
    for (int k = 0; k < T->count; k++) {
        if (map[k] >= 0) val[map[k]] += tv[k];
    }
}

// Full rebuild of pattern, map and values (see the preamble).
static int csc_rebuild(ipcc_csc *A, const ipcc_triplets *T, int n) {
    const int count = T->count;
    const int *trow = T->row, *tcol = T->col;

    if (cache_grow(A, count) != 0) return csc_invalidate(A, n, count);
    if (n + 1 > A->n_capacity) {
        int cap = A->n_capacity;
        if (ipcc_reserve((void **)&A->colptr, &cap, n + 1, sizeof *A->colptr) != 0)
            return csc_invalidate(A, n, count);
        A->n_capacity = cap;
    }
    A->prev_count = -1; // the cache is in flux until the end
    int *cnt = A->colptr;
    int *by_row = A->prev_row; // scratch: upper triplets bucketed by row
    int *by_col = A->prev_col; // scratch: then stably by column
    int *map = A->map;

    // Pass 1: bucket upper-triangle triplets by row.
    memset(cnt, 0, (size_t)(n + 1) * sizeof *cnt);
    int m = 0;
    for (int k = 0; k < count; k++) {
        if (trow[k] <= tcol[k]) {
            cnt[trow[k] + 1]++;
            m++;
        }
    }
    for (int i = 0; i < n; i++)
        cnt[i + 1] += cnt[i];
    for (int k = 0; k < count; k++) {
        if (trow[k] <= tcol[k])
            by_row[cnt[trow[k]]++] = k;
        else
            map[k] = -1;
    }

    // Pass 2: stable bucket by column; afterwards cnt[j] = start of column j.
    memset(cnt, 0, (size_t)(n + 1) * sizeof *cnt);
    for (int p = 0; p < m; p++)
        cnt[tcol[by_row[p]] + 1]++;
    for (int j = 0; j < n; j++)
        cnt[j + 1] += cnt[j];
    for (int p = 0; p < m; p++) {
        int k = by_row[p];
        by_col[cnt[tcol[k]]++] = k;
    }
    // The scatter advanced each start to the next column's start: shift back.
    for (int j = n; j > 0; j--)
        cnt[j] = cnt[j - 1];
    cnt[0] = 0;

    // Merge duplicates: unique entries numbered in (col, row) order are the
    // CSC slots. colptr (aliased by cnt) is rewritten in place, one step behind.
    int slot = 0, begin = 0;
    for (int j = 0; j < n; j++) {
        int end = cnt[j + 1];
        cnt[j] = slot;
        int last = -1;
        for (int p = begin; p < end; p++) {
            int k = by_col[p];
            if (trow[k] != last) {
                last = trow[k];
                slot++;
            }
            map[k] = slot - 1;
        }
        begin = end;
    }
    cnt[n] = slot;

    if (entries_grow(A, slot) != 0) return csc_invalidate(A, n, count);
    A->n = n;
    A->nnz = slot;
    for (int k = 0; k < count; k++) {
        if (map[k] >= 0) A->rowind[map[k]] = trow[k];
    }
    if (count > 0) {
        memcpy(A->prev_row, trow, (size_t)count * sizeof *trow);
        memcpy(A->prev_col, tcol, (size_t)count * sizeof *tcol);
    }
    A->prev_count = count;
    A->pattern_version = next_pattern_version();
    csc_scatter(A, T);
    return 0;
}

int ipcc_csc_assemble(ipcc_csc *A, const ipcc_triplets *T, int n) {
    IPCC_ASSERT(A && T && n >= 0);
    if (T->failed) {
        ipcc_fail(IPCC_ERR_NO_MEMORY, "sparse: the triplet list ran out of memory while appending");
        return -1;
    }
    const int count = T->count;
    bool same = A->pattern_version > 0 && A->prev_count == count && A->n == n &&
                (count == 0 || (memcmp(A->prev_row, T->row, (size_t)count * sizeof(int)) == 0 &&
                                memcmp(A->prev_col, T->col, (size_t)count * sizeof(int)) == 0));
    if (same) { // validated when the cached sequence was built
        csc_scatter(A, T);
        return 0;
    }
    for (int k = 0; k < count; k++) {
        int r = T->row[k], c = T->col[k];
        if (r < 0 || r >= n || c < 0 || c >= n) {
            ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                      "sparse: triplet %d has index (%d, %d) outside a %d x %d matrix", k, r, c, n, n);
            return -1;
        }
    }
    return csc_rebuild(A, T, n);
}

void ipcc_csc_multiply(const ipcc_csc *A, const double *x, double *y) {
    IPCC_ASSERT(x != y || A->n == 0);
    memset(y, 0, (size_t)A->n * sizeof *y);
    for (int j = 0; j < A->n; j++) {
        double xj = x[j], yj = 0.0;
        for (int p = A->colptr[j]; p < A->colptr[j + 1]; p++) {
            int i = A->rowind[p];
            double v = A->val[p];
            y[i] += v * xj;
            if (i != j) yj += v * x[i];
        }
        y[j] += yj;
    }
}

void ipcc_csc_free(ipcc_csc *A) {
    if (!A) return;
    IPCC_FREE(A->colptr);
    IPCC_FREE(A->rowind);
    IPCC_FREE(A->val);
    IPCC_FREE(A->map);
    IPCC_FREE(A->prev_row);
    IPCC_FREE(A->prev_col);
    memset(A, 0, sizeof *A);
    A->prev_count = -1;
}
