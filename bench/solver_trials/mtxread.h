/* Minimal Matrix Market reader (coordinate, real, symmetric; lower triangle,
 * 1-based), shared by bench.c and cholmod_bench.c. */
#ifndef MTXREAD_H
#define MTXREAD_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

typedef struct {
    long n, nnz;
    int *row, *col; /* 1-based */
    double *val;
} mtx_t;

static double now_sec(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int mtx_read(const char *path, mtx_t *m) {
    FILE *f = fopen(path, "r");
    char line[1024];
    long nr, nc, nz, k;
    if (!f) {
        perror(path);
        return -1;
    }
    do {
        if (!fgets(line, sizeof line, f)) {
            fclose(f);
            return -1;
        }
    } while (line[0] == '%');
    if (sscanf(line, "%ld %ld %ld", &nr, &nc, &nz) != 3 || nr != nc) {
        fprintf(stderr, "bad size line\n");
        fclose(f);
        return -1;
    }
    m->n = nr;
    m->nnz = nz;
    m->row = malloc(sizeof(int) * nz);
    m->col = malloc(sizeof(int) * nz);
    m->val = malloc(sizeof(double) * nz);
    for (k = 0; k < nz; k++) {
        int i, j;
        double v;
        if (fscanf(f, "%d %d %lf", &i, &j, &v) != 3) {
            fprintf(stderr, "read error at entry %ld\n", k);
            fclose(f);
            return -1;
        }
        if (i < j) {
            int t = i;
            i = j;
            j = t;
        } /* keep lower triangle */
        m->row[k] = i;
        m->col[k] = j;
        m->val[k] = v;
    }
    fclose(f);
    return 0;
}

/* r = b - A x for symmetric A given by its lower triangle; returns ||r||/||b|| */
static double mtx_relres(const mtx_t *m, const double *x, const double *b) {
    long k, n = m->n;
    double *r = malloc(sizeof(double) * n), nr = 0, nb = 0;
    for (k = 0; k < n; k++)
        r[k] = b[k];
    for (k = 0; k < m->nnz; k++) {
        long i = m->row[k] - 1, j = m->col[k] - 1;
        r[i] -= m->val[k] * x[j];
        if (i != j) r[j] -= m->val[k] * x[i];
    }
    for (k = 0; k < n; k++) {
        nr += r[k] * r[k];
        nb += b[k] * b[k];
    }
    free(r);
    return sqrt(nr) / sqrt(nb);
}

static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median3(const double *t) {
    double s[3] = {t[0], t[1], t[2]};
    qsort(s, 3, sizeof(double), cmp_dbl);
    return s[1];
}

static int write_bytes(const char *path, const double *x, long n) {
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    if (fwrite(x, sizeof(double), (size_t)n, f) != (size_t)n) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}
#endif
