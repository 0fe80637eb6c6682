// Broad-phase cost (ipcc_broad_phase_query) on a layered contact scene: five
// concentric icospheres, each rotated at random, radii 1 + 0.75 i inflation,
// so every layer is within the inflation of the next over its whole surface
// (think stacked cloth). Sphere 0 is kinematic; all groups self-collide.
// Inflation = 1e-3 * bounding-box diagonal. Times are medians over the
// repetitions after one warm-up call (which grows the buffers), plus the
// fastest total (less sensitive to other load on the machine); build and
// traverse come from ipcc_broad_phase_get_stats.
//   bench_broad_phase [repetitions [subdivision level]]   (default 5 and 5:
//                                                          5 x 20480 = 102400 triangles)
// Prints a table per thread count (1, 2) and a scaling table (1 thread,
// levels 3 to 6) to stdout.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broad_phase.h"
#include "core.h"

enum { NUM_SPHERES = 5 };

typedef struct mesh {
    int nv, ne, nf;
    double *x;
    int *group, *edges, *faces;
} mesh;

static unsigned long long rng = 88172645463325252ull;
static double uniform(void) { // in [-1, 1)
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "bench_broad_phase: out of memory\n");
        exit(1);
    }
    return p;
}

// Midpoint cache for subdivision: open addressing on the (min, max) key.
typedef struct edge_map {
    long long *keys;
    int *vals, mask;
} edge_map;

static int midpoint(edge_map *m, double *x, int *nv, int a, int b) {
    long long key = a < b ? ((long long)a << 32) | b : ((long long)b << 32) | a;
    unsigned long long h = (unsigned long long)key * 0x9E3779B97F4A7C15ull;
    for (int i = (int)(h >> 40) & m->mask;; i = (i + 1) & m->mask) {
        if (m->keys[i] == key) return m->vals[i];
        if (m->keys[i] < 0) {
            double *p = x + 3 * *nv, len = 0;
            for (int k = 0; k < 3; ++k) {
                p[k] = x[3 * a + k] + x[3 * b + k];
                len += p[k] * p[k];
            }
            for (int k = 0; k < 3; ++k)
                p[k] /= sqrt(len);
            m->keys[i] = key;
            m->vals[i] = *nv;
            return (*nv)++;
        }
    }
}

// Unit icosphere: 10 4^level + 2 vertices, 20 4^level faces (x, faces malloc'ed).
static void icosphere(int level, int *nv_out, double **x_out, int *nf_out, int **faces_out) {
    const double t = (1 + sqrt(5.0)) / 2;
    const double V[12][3] = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                             {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    const int F[20][3] = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                          {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                          {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    int maxv = 10 * (1 << (2 * level)) + 2, maxf = 20 * (1 << (2 * level)), nv = 12, nf = 20;
    double *x = xmalloc(sizeof(double) * 3 * (size_t)maxv);
    int *faces = xmalloc(sizeof(int) * 3 * (size_t)maxf), *next = xmalloc(sizeof(int) * 3 * (size_t)maxf);
    for (int i = 0; i < 12; ++i) {
        double len = sqrt(V[i][0] * V[i][0] + V[i][1] * V[i][1] + V[i][2] * V[i][2]);
        for (int k = 0; k < 3; ++k)
            x[3 * i + k] = V[i][k] / len;
    }
    memcpy(faces, F, sizeof F);
    edge_map m;
    int size = 1;
    while (size < 4 * maxf)
        size *= 2;
    m.keys = xmalloc(sizeof(long long) * (size_t)size);
    m.vals = xmalloc(sizeof(int) * (size_t)size);
    m.mask = size - 1;
    for (int l = 0; l < level; ++l) {
        memset(m.keys, 0xff, sizeof(long long) * (size_t)size);
        for (int f = 0; f < nf; ++f) {
            int a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
            int ab = midpoint(&m, x, &nv, a, b), bc = midpoint(&m, x, &nv, b, c),
                ca = midpoint(&m, x, &nv, c, a);
            int sub[12] = {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca};
            memcpy(next + 12 * f, sub, sizeof sub);
        }
        nf *= 4;
        int *tmp = faces;
        faces = next;
        next = tmp;
    }
    free(m.keys);
    free(m.vals);
    free(next);
    *nv_out = nv;
    *x_out = x;
    *nf_out = nf;
    *faces_out = faces;
}

static int cmp_pair(const void *a, const void *b) {
    const int *p = a, *q = b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

static mesh layered_spheres(int level, double *inflation) {
    int snv, snf, *sf;
    double *sx;
    icosphere(level, &snv, &sx, &snf, &sf);
    mesh m = {0};
    m.x = xmalloc(sizeof(double) * 3 * (size_t)snv * NUM_SPHERES);
    m.group = xmalloc(sizeof(int) * (size_t)snv * NUM_SPHERES);
    m.faces = xmalloc(sizeof(int) * 3 * (size_t)snf * NUM_SPHERES);
    for (int s = 0; s < NUM_SPHERES; ++s) {
        // Random rotation from a random unit quaternion (w, i, j, k).
        double q[4], n = 0;
        for (int k = 0; k < 4; ++k) {
            q[k] = uniform();
            n += q[k] * q[k];
        }
        for (int k = 0; k < 4; ++k)
            q[k] /= sqrt(n);
        double w = q[0], a = q[1], b = q[2], c = q[3];
        double R[9] = {1 - 2 * (b * b + c * c), 2 * (a * b - w * c),     2 * (a * c + w * b),
                       2 * (a * b + w * c),     1 - 2 * (a * a + c * c), 2 * (b * c - w * a),
                       2 * (a * c - w * b),     2 * (b * c + w * a),     1 - 2 * (a * a + b * b)};
        for (int i = 0; i < snv; ++i) {
            const double *p = sx + 3 * i;
            for (int k = 0; k < 3; ++k)
                m.x[3 * (m.nv + i) + k] = R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2];
            m.group[m.nv + i] = s;
        }
        for (int f = 0; f < 3 * snf; ++f)
            m.faces[3 * m.nf + f] = m.nv + sf[f];
        m.nv += snv;
        m.nf += snf;
    }
    free(sx);
    free(sf);
    // Inflation from the unit spheres' bounding box, then the layers' radii.
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY}, diag = 0;
    for (int i = 0; i < m.nv; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], m.x[3 * i + k]);
            hi[k] = fmax(hi[k], m.x[3 * i + k]);
        }
    for (int k = 0; k < 3; ++k)
        diag += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    *inflation = 1e-3 * sqrt(diag);
    for (int i = 0; i < m.nv; ++i)
        for (int k = 0; k < 3; ++k)
            m.x[3 * i + k] *= 1 + 0.75 * m.group[i] * *inflation;
    // Unique edges of the faces.
    int *he = xmalloc(sizeof(int) * 6 * (size_t)m.nf);
    for (int f = 0; f < m.nf; ++f)
        for (int k = 0; k < 3; ++k) {
            int a = m.faces[3 * f + k], b = m.faces[3 * f + (k + 1) % 3];
            he[6 * f + 2 * k] = a < b ? a : b;
            he[6 * f + 2 * k + 1] = a < b ? b : a;
        }
    qsort(he, 3 * (size_t)m.nf, 2 * sizeof(int), cmp_pair);
    for (int e = 0; e < 3 * m.nf; ++e)
        if (m.ne == 0 || cmp_pair(he + 2 * e, he + 2 * (m.ne - 1)) != 0) {
            he[2 * m.ne] = he[2 * e];
            he[2 * m.ne + 1] = he[2 * e + 1];
            ++m.ne;
        }
    m.edges = he;
    return m;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

typedef struct timing {
    double build, query, total, best; // medians and the fastest total, seconds
} timing;

static timing run(ipcc_broad_phase *bp, const ipcc_collision_topology *topo, const double *x0,
                  const double *x1, double inflation, int kinds, int reps, ipcc_candidates *out) {
    double *b = xmalloc(sizeof(double) * (size_t)reps), *q = xmalloc(sizeof(double) * (size_t)reps);
    double *t = xmalloc(sizeof(double) * (size_t)reps);
    for (int r = -1; r < reps; ++r) {
        double start = ipcc_now();
        if (ipcc_broad_phase_query(bp, topo, x0, x1, inflation, kinds, out) != IPCC_OK) {
            fprintf(stderr, "bench_broad_phase: %s\n", ipcc_last_error());
            exit(1);
        }
        double end = ipcc_now();
        if (r < 0) continue; // warm-up: grows the buffers
        ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(bp);
        b[r] = st.build_seconds;
        q[r] = st.query_seconds;
        t[r] = end - start;
    }
    timing tm = {median(b, reps), median(q, reps), median(t, reps), 0};
    tm.best = t[0]; // sorted by median()
    free(b);
    free(q);
    free(t);
    return tm;
}

int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 5, level = argc > 2 ? atoi(argv[2]) : 5;
    if (reps < 1 || level < 0 || level > 7) {
        fprintf(stderr, "usage: bench_broad_phase [repetitions [level 0..7]]\n");
        return 2;
    }
    double inflation;
    mesh m = layered_spheres(level, &inflation);
    unsigned char self[NUM_SPHERES] = {1, 1, 1, 1, 1}, kin[NUM_SPHERES] = {1, 0, 0, 0, 0};
    ipcc_collision_topology topo = {m.nv, m.group, m.ne, m.edges, m.nf, m.faces, NUM_SPHERES, self, kin};
    double *x1 = xmalloc(sizeof(double) * 3 * (size_t)m.nv);
    for (int i = 0; i < 3 * m.nv; ++i)
        x1[i] = m.x[i] + inflation * uniform();

    printf("Scene: %d concentric icospheres, %d triangles, %d edges, %d vertices\n", NUM_SPHERES, m.nf, m.ne,
           m.nv);
    printf("inflation %.3e (1e-3 bbox diagonal), swept displacement uniform in [-inflation, inflation]^3, "
           "median of %d\n\n",
           inflation, reps);
    printf(
        "| threads | query | build (ms) | traverse (ms) | total (ms) | best total (ms) | VF | EE | EF |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    static const struct {
        const char *name;
        int sweep, kinds;
    } cases[] = {{"static VF+EE", 0, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE},
                 {"swept VF+EE", 1, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE},
                 {"EF", 0, IPCC_CANDIDATES_EF}};
    ipcc_candidates out = {0};
    for (int threads = 1; threads <= 2; ++threads) {
        omp_set_num_threads(threads);
        ipcc_broad_phase *bp = ipcc_broad_phase_create();
        for (int c = 0; c < 3; ++c) {
            timing t = run(bp, &topo, m.x, cases[c].sweep ? x1 : NULL, inflation, cases[c].kinds, reps, &out);
            printf("| %d | %s | %.1f | %.1f | %.1f | %.1f | %d | %d | %d |\n", threads, cases[c].name,
                   1e3 * t.build, 1e3 * t.query, 1e3 * t.total, 1e3 * t.best, out.num_vf, out.num_ee,
                   out.num_ef);
        }
        ipcc_broad_phase_destroy(bp);
    }
    free(x1);
    free(m.x);
    free(m.group);
    free(m.edges);
    free(m.faces);

    // Scaling: static VF+EE, one thread.
    printf("\n| level | triangles | build (ms) | traverse (ms) | total (ms) | best total (ms) | ns / "
           "triangle (best) "
           "| VF + EE |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    omp_set_num_threads(1);
    for (int l = 3; l <= 6; ++l) {
        mesh s = layered_spheres(l, &inflation);
        ipcc_collision_topology t = {s.nv, s.group, s.ne, s.edges, s.nf, s.faces, NUM_SPHERES, self, kin};
        ipcc_broad_phase *bp = ipcc_broad_phase_create();
        timing tm = run(bp, &t, s.x, NULL, inflation, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE, reps, &out);
        printf("| %d | %d | %.1f | %.1f | %.1f | %.1f | %.0f | %d |\n", l, s.nf, 1e3 * tm.build,
               1e3 * tm.query, 1e3 * tm.total, 1e3 * tm.best, 1e9 * tm.best / s.nf, out.num_vf + out.num_ee);
        ipcc_broad_phase_destroy(bp);
        free(s.x);
        free(s.group);
        free(s.edges);
        free(s.faces);
    }
    ipcc_candidates_free(&out);
    return 0;
}
