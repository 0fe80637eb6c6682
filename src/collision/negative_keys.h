/// Keys of negative multiplicity and the keys that take their Hessians
/// (negative_keys.c): a negative key's Hessian is subtracted from the
/// blocks of the positive keys whose vertices contain its own, before
/// their PSD projection (barrier_potential.c). Private to the library.
#ifndef IPCC_NEGATIVE_KEYS_H
#define IPCC_NEGATIVE_KEYS_H

#include <stdbool.h>

#include "base/core.h"
#include "collision/constraint_set.h"

/// The fold of a constraint set: grow-only buffers, rebuilt for each set.
typedef struct ipcc_negative_keys {
    int any;                         ///< keys folded in the last build (0: nothing to do)
    int *partners;                   ///< per key: the positive keys it is folded into (0: not folded)
    int *fold_start;                 ///< per key + 1: CSR of the negative keys folded into it
    int *fold_key;                   ///< the folded keys
    double *fold_mult;               ///< and the share of each one's multiplicity (< 0) the key takes
    int *vertex_start, *vertex_keys; ///< CSR: the foldable keys at each collision vertex
    int *cursor;                     ///< scratch, per collision vertex or key
    int cap_keys, cap_folds, cap_vertices, cap_entries, cap_cursor;
} ipcc_negative_keys;

void ipcc_negative_keys_free(ipcc_negative_keys *nk);

/// Finds, for every key of negative multiplicity between body surfaces (or
/// between a body and a sphere shape), the positive keys of the same kind
/// family whose vertices contain its own, and splits its multiplicity
/// evenly among them. Serial and in the keys' order. IPCC_ERR_NO_MEMORY on
/// failure.
ipcc_status ipcc_negative_keys_build(ipcc_negative_keys *nk, const ipcc_constraint_set *s,
                                     int num_collision_vertices);

#endif
