/// Sparse symmetric matrices: a triplet list with stable ordering, compressed
/// to CSC (upper triangle, row <= col) through a cached scatter map.
///
/// Assembly protocol (called every Newton iteration, no allocation once sizes
/// are known):
///   ipcc_triplets_clear(&T);
///   ... ipcc_triplets_add(&T, row, col, value) for every entry, in a stable
///       order; entries with row > col are ignored (the matrix is symmetric) ...
///   ipcc_csc_assemble(&A, &T, n);
/// ipcc_csc_assemble compares the (row, col) sequence with the previous call:
/// if it is identical it only scatters values through the cached map
/// (duplicates summed); otherwise it rebuilds pattern and map and increments
/// A.pattern_version, so the factorization knows to redo symbolic analysis.
#ifndef IPCC_SPARSE_H
#define IPCC_SPARSE_H

#include <stdbool.h>

typedef struct ipcc_triplets {
    int count, capacity; ///< entries used / allocated
    int *row, *col;      ///< indices
    double *val;         ///< values
    bool failed;         ///< set if an append ran out of memory (checked by assemble)
    /// Exact values. With want_exact set (by the caller of the assembly), a
    /// term that projects its blocks to PSD may also write its unprojected
    /// values of entries [exact_begin, exact_end) into exact[k - exact_begin]
    /// (elasticity, then the contact barrier, whose entries follow);
    /// ipcc_triplets_swap_exact exchanges them with val. Cleared ranges are
    /// empty. With lazy_projection set too, elasticity writes its exact
    /// values into both and leaves the projection to
    /// ipcc_objective.projected_hessian, called only when the exact values
    /// are refused (newton.c, "Lazy projection"); it sets projection_pending.
    bool want_exact, lazy_projection, projection_pending;
    int exact_begin, exact_end, exact_capacity;
    double *exact;
} ipcc_triplets;

/// Compressed sparse column, upper triangle, sorted row indices, no duplicates.
typedef struct ipcc_csc {
    int n;                ///< dimension
    int nnz;              ///< stored entries
    int *colptr;          ///< n + 1
    int *rowind;          ///< nnz
    double *val;          ///< nnz
    long pattern_version; ///< incremented whenever the pattern changes
    // cache (private)
    int *map; ///< triplet k -> slot in val, or -1 for ignored (row > col)
    int *prev_row, *prev_col;
    int prev_count, map_capacity, nnz_capacity, n_capacity;
} ipcc_csc;

void ipcc_triplets_clear(ipcc_triplets *t);
/// Append one entry (amortized growth; sets t->failed on OOM).
void ipcc_triplets_add(ipcc_triplets *t, int row, int col, double value);
/// Make room for `count` more entries; returns 0 or -1 on OOM.
int ipcc_triplets_reserve(ipcc_triplets *t, int count);
void ipcc_triplets_free(ipcc_triplets *t);
/// Make room for the exact values of entries [begin, end) and set the range
/// (or extend it, keeping its values, when it ends at `begin`); returns 0
/// or -1 on OOM (t->failed set).
int ipcc_triplets_reserve_exact(ipcc_triplets *t, int begin, int end);
/// Exchange val and exact over the exact range (twice: back as before).
void ipcc_triplets_swap_exact(ipcc_triplets *t);

/// Assemble T into A (n x n). Returns 0, or -1 on OOM / failed triplets /
/// index out of range.
int ipcc_csc_assemble(ipcc_csc *A, const ipcc_triplets *T, int n);
/// y = A x for the symmetric matrix stored as its upper triangle.
void ipcc_csc_multiply(const ipcc_csc *A, const double *x, double *y);
void ipcc_csc_free(ipcc_csc *A);

#endif
