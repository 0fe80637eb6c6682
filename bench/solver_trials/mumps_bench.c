/* MUMPS (sequential Debian build) benchmark driver.
 * usage: bench matrix.mtx solution.bin [icntl7=5] [icntl16=0] [icntl48=1] [verbose=0]
 * SYM=1 (SPD), PAR=1, centralized assembled input (ICNTL(5)=0, ICNTL(18)=0).
 * icntl7 = 105 means: compute a METIS_NodeND ordering here (libmetis) and pass it
 * to MUMPS as a user ordering (ICNTL(7)=1, PERM_IN), since the Debian build lacks -Dmetis.
 * Analysis once, numeric factorization 3 times, one solve with b = ones. */
#include "mtxread.h"
#include <dmumps_c.h>
#include <cblas.h>
#include <metis.h>

#define USE_COMM_WORLD -987654
#define ICNTL(I) icntl[(I)-1]
#define INFOG(I) infog[(I)-1]
#define INFO(I) info[(I)-1]
#define RINFOG(I) rinfog[(I)-1]

static int check(DMUMPS_STRUC_C *id, const char *what) {
    if (id->INFOG(1) < 0) {
        fprintf(stderr, "MUMPS %s failed: INFOG(1)=%d INFOG(2)=%d\n", what, (int)id->INFOG(1),
                (int)id->INFOG(2));
        return -1;
    }
    if (id->INFOG(1) > 0)
        fprintf(stderr, "MUMPS %s warning: INFOG(1)=%d INFOG(2)=%d\n", what, (int)id->INFOG(1),
                (int)id->INFOG(2));
    return 0;
}

/* METIS nested dissection on the graph of A (no diagonal); returns PERM_IN (1-based) */
static MUMPS_INT *metis_perm(const mtx_t *m) {
    idx_t n = (idx_t)m->n, *xadj, *adj, *perm, *iperm, *pos;
    long k;
    MUMPS_INT *p;
    xadj = calloc((size_t)n + 1, sizeof(idx_t));
    for (k = 0; k < m->nnz; k++)
        if (m->row[k] != m->col[k]) {
            xadj[m->row[k]]++;
            xadj[m->col[k]]++;
        }
    for (k = 0; k < n; k++)
        xadj[k + 1] += xadj[k];
    adj = malloc(sizeof(idx_t) * (size_t)(xadj[n] > 0 ? xadj[n] : 1));
    pos = malloc(sizeof(idx_t) * (size_t)n);
    for (k = 0; k < n; k++)
        pos[k] = xadj[k];
    for (k = 0; k < m->nnz; k++) {
        idx_t i = m->row[k] - 1, j = m->col[k] - 1;
        if (i != j) {
            adj[pos[i]++] = j;
            adj[pos[j]++] = i;
        }
    }
    perm = malloc(sizeof(idx_t) * (size_t)n);
    iperm = malloc(sizeof(idx_t) * (size_t)n);
    if (METIS_NodeND(&n, xadj, adj, NULL, NULL, perm, iperm) != METIS_OK) {
        fprintf(stderr, "METIS_NodeND failed\n");
        exit(1);
    }
    p = malloc(sizeof(MUMPS_INT) * (size_t)n);
    for (k = 0; k < n; k++)
        p[k] = (MUMPS_INT)iperm[k] + 1; /* position of variable k */
    free(xadj);
    free(adj);
    free(pos);
    free(perm);
    free(iperm);
    return p;
}

static long long mega(long long v) { return v < 0 ? -v * 1000000LL : v; }

int main(int argc, char **argv) {
    mtx_t m;
    DMUMPS_STRUC_C id;
    double t0, tana, tfac[3], tsol, *rhs, *b;
    int ord = 5, nth = 0, l0 = 1, verbose = 0, k;
    long i;

    if (argc < 3) {
        fprintf(stderr, "usage: %s A.mtx x.bin [icntl7] [icntl16] [icntl48] [verbose]\n", argv[0]);
        return 2;
    }
    if (argc > 3) ord = atoi(argv[3]);
    if (argc > 4) nth = atoi(argv[4]);
    if (argc > 5) l0 = atoi(argv[5]);
    if (argc > 6) verbose = atoi(argv[6]);

    t0 = now_sec();
    if (mtx_read(argv[1], &m)) return 1;
    printf("read: n=%ld nnz(lower)=%ld in %.2f s\n", m.n, m.nnz, now_sec() - t0);
    printf("openblas_get_num_threads()=%d  OMP_NUM_THREADS=%s\n", openblas_get_num_threads(),
           getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "(unset)");

    memset(&id, 0, sizeof id);
    id.comm_fortran = USE_COMM_WORLD;
    id.par = 1;
    id.sym = 1;  /* symmetric positive definite */
    id.job = -1; /* initialize instance */
    dmumps_c(&id);
    if (check(&id, "init")) return 1;
    printf("MUMPS version_number: %s\n", id.version_number);

    /* silence all MUMPS output */
    id.ICNTL(1) = -1; /* error messages */
    id.ICNTL(2) = -1; /* diagnostics/warnings */
    id.ICNTL(3) = -1; /* global information */
    id.ICNTL(4) = 0;  /* print level */
    if (verbose) {
        id.ICNTL(1) = 6;
        id.ICNTL(2) = 6;
        id.ICNTL(3) = 6;
        id.ICNTL(4) = 2;
    }
    id.ICNTL(5) = 0;                      /* assembled format */
    id.ICNTL(18) = 0;                     /* centralized on host */
    id.ICNTL(28) = 1;                     /* sequential analysis */
    id.ICNTL(7) = (ord == 105) ? 1 : ord; /* ordering request */
    id.ICNTL(16) = nth;                   /* OpenMP threads (only meaningful in an OpenMP build) */
    id.ICNTL(48) = l0;                    /* L0-OMP tree parallelism (only meaningful in an OpenMP build) */
    printf("requested ICNTL(7)=%d ICNTL(16)=%d ICNTL(48)=%d; defaults seen after init: ICNTL(8)=%d "
           "ICNTL(14)=%d ICNTL(35)=%d\n",
           ord, nth, l0, (int)id.ICNTL(8), (int)id.ICNTL(14), (int)id.ICNTL(35));

    id.n = (MUMPS_INT)m.n;
    id.nnz = (MUMPS_INT8)m.nnz;
    id.irn = m.row;
    id.jcn = m.col;
    id.a = m.val;

    id.job = 1;
    t0 = now_sec();
    if (ord == 105) {
        id.perm_in = metis_perm(&m);
        printf("METIS_NodeND (user ordering): %.3f s\n", now_sec() - t0);
    }
    dmumps_c(&id);
    tana = now_sec() - t0; /* includes METIS_NodeND when ord == 105 */
    if (check(&id, "analysis")) return 1;
    printf("analysis: %.3f s  INFOG(7) ordering used=%d (0 AMD,1 user(METIS_NodeND if 105),2 AMF,3 SCOTCH,4 "
           "PORD,5 METIS,6 QAMD)\n",
           tana, (int)id.INFOG(7));
    printf("analysis estimates: RINFOG(1) flops=%.4e  INFOG(20) est. factor entries=%lld  INFOG(17) est. mem "
           "(MB, total)=%d\n",
           (double)id.RINFOG(1), mega(id.INFOG(20)), (int)id.INFOG(17));

    for (k = 0; k < 3; k++) {
        id.job = 2;
        t0 = now_sec();
        dmumps_c(&id);
        tfac[k] = now_sec() - t0;
        if (check(&id, "factorization")) return 1;
        printf("factorization %d: %.3f s\n", k + 1, tfac[k]);
    }
    printf("factor: INFOG(29) factor entries=%lld  RINFOG(3) flops performed=%.4e  INFOG(22) mem used "
           "(MB)=%d  INFOG(12) neg piv=%d\n",
           mega(id.INFOG(29)), (double)id.RINFOG(3), (int)id.INFOG(22), (int)id.INFOG(12));

    b = malloc(sizeof(double) * m.n);
    rhs = malloc(sizeof(double) * m.n);
    for (i = 0; i < m.n; i++)
        b[i] = rhs[i] = 1.0;
    id.rhs = rhs;
    id.nrhs = 1;
    id.lrhs = (MUMPS_INT)m.n;
    id.ICNTL(20) = 0; /* dense rhs */
    id.ICNTL(21) = 0; /* centralized solution (overwrites rhs) */
    id.job = 3;
    t0 = now_sec();
    dmumps_c(&id);
    tsol = now_sec() - t0;
    if (check(&id, "solve")) return 1;
    printf("solve: %.3f s  relres ||Ax-b||/||b||=%.3e\n", tsol, mtx_relres(&m, rhs, b));
    if (write_bytes(argv[2], rhs, m.n)) return 1;

    printf("SUMMARY solver=MUMPS ord=%d ana=%.3f fac=%.3f,%.3f,%.3f median=%.3f lnz=%lld flops=%.4e "
           "relres=%.3e\n",
           (int)id.INFOG(7), tana, tfac[0], tfac[1], tfac[2], median3(tfac), mega(id.INFOG(29)),
           (double)id.RINFOG(1), mtx_relres(&m, rhs, b));

    id.job = -2;
    dmumps_c(&id);
    return 0;
}
