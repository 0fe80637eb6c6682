// Local blocks to global dofs (local_to_global.h): the Hessian scatter of a
// dense element or contact block into upper-triangle triplets in unknown
// indices, and the block's product with a local vector (the lift of
// newton.c, "Prescribed motion"). Every block writes only its own
// pre-counted slots, so the element and contact loops stay parallel and
// their results independent of the thread count.
#include "fem/local_to_global.h"

#include <stdbool.h>

int ipcc_block_triplet_count(int n, const int *dofs) {
    int count = 0;
    for (int a = 0; a < n; ++a)
        if (dofs[a] >= 0)
            for (int b = 0; b < n; ++b)
                count += dofs[b] >= dofs[a];
    return count;
}

int ipcc_block_triplets_write(int n, const int *dofs, const double *H, double scale, int *rows, int *cols,
                              double *vals) {
    int k = 0;
    for (int a = 0; a < n; ++a) {
        if (dofs[a] < 0) continue;
        for (int b = 0; b < n; ++b)
            if (dofs[b] >= dofs[a]) {
                rows[k] = dofs[a];
                cols[k] = dofs[b];
                vals[k++] = scale * H[n * a + b];
            }
    }
    return k;
}

void ipcc_block_add_product(int n, const double *H, const double *v, double *g) {
    bool moving = false;
    for (int a = 0; a < n; ++a)
        moving |= v[a] != 0;
    if (!moving) return;
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b)
            g[a] += H[n * a + b] * v[b];
}
