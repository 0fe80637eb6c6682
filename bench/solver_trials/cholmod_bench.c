/* CHOLMOD supernodal LL^T benchmark driver.
 * usage: cholmod_bench matrix.mtx solution.bin [blas_threads=1] [ordering=default|amd|metis|nesdis]
 * cholmod_l_analyze once, cholmod_l_factorize 3 times, cholmod_l_solve with b = ones. */
#include "mtxread.h"
#include <suitesparse/cholmod.h>
#include <cblas.h>

static const char *ordname(int o) {
    switch (o) {
    case CHOLMOD_NATURAL: return "natural";
    case CHOLMOD_GIVEN: return "given";
    case CHOLMOD_AMD: return "AMD";
    case CHOLMOD_METIS: return "METIS";
    case CHOLMOD_NESDIS: return "NESDIS";
    case CHOLMOD_COLAMD: return "COLAMD";
    case CHOLMOD_POSTORDERED: return "postordered";
    default: return "?";
    }
}

int main(int argc, char **argv) {
    mtx_t m;
    cholmod_common c;
    cholmod_triplet *T;
    cholmod_sparse *A;
    cholmod_factor *L;
    cholmod_dense *B, *X;
    double t0, tana, tfac[3], tsol, rr;
    int nth = 1, k;
    const char *ordarg = "default";
    long i;

    if (argc < 3) {
        fprintf(stderr, "usage: %s A.mtx x.bin [blas_threads] [default|amd|metis|nesdis]\n", argv[0]);
        return 2;
    }
    if (argc > 3) nth = atoi(argv[3]);
    if (argc > 4) ordarg = argv[4];
    openblas_set_num_threads(nth);

    t0 = now_sec();
    if (mtx_read(argv[1], &m)) return 1;
    printf("read: n=%ld nnz(lower)=%ld in %.2f s\n", m.n, m.nnz, now_sec() - t0);
    printf("CHOLMOD %d.%d.%d  openblas_get_num_threads()=%d  OMP_NUM_THREADS=%s\n", CHOLMOD_MAIN_VERSION,
           CHOLMOD_SUB_VERSION, CHOLMOD_SUBSUB_VERSION, openblas_get_num_threads(),
           getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "(unset)");

    cholmod_l_start(&c);
    c.supernodal = CHOLMOD_SUPERNODAL; /* always supernodal */
    c.final_ll = 1;                    /* LL^T */
    if (strcmp(ordarg, "default") != 0) {
        c.nmethods = 1;
        c.method[0].ordering = !strcmp(ordarg, "amd")     ? CHOLMOD_AMD
                               : !strcmp(ordarg, "metis") ? CHOLMOD_METIS
                                                          : CHOLMOD_NESDIS;
        c.postorder = 1;
    }

    T = cholmod_l_allocate_triplet(m.n, m.n, m.nnz, -1 /* lower */, CHOLMOD_REAL, &c);
    for (i = 0; i < m.nnz; i++) {
        ((SuiteSparse_long *)T->i)[i] = m.row[i] - 1;
        ((SuiteSparse_long *)T->j)[i] = m.col[i] - 1;
        ((double *)T->x)[i] = m.val[i];
    }
    T->nnz = m.nnz;
    A = cholmod_l_triplet_to_sparse(T, m.nnz, &c);
    cholmod_l_free_triplet(&T, &c);

    t0 = now_sec();
    L = cholmod_l_analyze(A, &c);
    tana = now_sec() - t0;
    if (!L || c.status < 0) {
        fprintf(stderr, "analyze failed: status %d\n", c.status);
        return 1;
    }
    printf("analysis: %.3f s  ordering=%s (selected method %d of nmethods=%d)  lnz=%.0f  fl=%.4e\n", tana,
           ordname(L->ordering), c.selected, c.nmethods, c.lnz, c.fl);

    for (k = 0; k < 3; k++) {
        t0 = now_sec();
        cholmod_l_factorize(A, L, &c);
        tfac[k] = now_sec() - t0;
        if (c.status != CHOLMOD_OK) {
            fprintf(stderr, "factorize status %d\n", c.status);
            return 1;
        }
        printf("factorization %d: %.3f s\n", k + 1, tfac[k]);
    }
    printf("factor: is_super=%d is_ll=%d  L->xsize (stored entries incl. amalgamation zeros)=%ld  peak "
           "CHOLMOD memory=%.1f MB\n",
           L->is_super, L->is_ll, (long)L->xsize, c.memory_usage / 1048576.0);

    B = cholmod_l_ones(m.n, 1, CHOLMOD_REAL, &c);
    t0 = now_sec();
    X = cholmod_l_solve(CHOLMOD_A, L, B, &c);
    tsol = now_sec() - t0;
    rr = mtx_relres(&m, (double *)X->x, (double *)B->x);
    printf("solve: %.3f s  relres ||Ax-b||/||b||=%.3e\n", tsol, rr);
    if (write_bytes(argv[2], (double *)X->x, m.n)) return 1;

    printf("SUMMARY solver=CHOLMOD ord=%s ana=%.3f fac=%.3f,%.3f,%.3f median=%.3f lnz=%.0f xsize=%ld "
           "flops=%.4e relres=%.3e\n",
           ordname(L->ordering), tana, tfac[0], tfac[1], tfac[2], median3(tfac), c.lnz, (long)L->xsize, c.fl,
           rr);

    cholmod_l_free_dense(&X, &c);
    cholmod_l_free_dense(&B, &c);
    cholmod_l_free_factor(&L, &c);
    cholmod_l_free_sparse(&A, &c);
    cholmod_l_finish(&c);
    return 0;
}
