// Broad-phase cost (ipcc_broad_phase_query) on a layered contact scene: five
// concentric icospheres, each rotated at random, radii 1 + 0.75 i inflation,
// so every layer is within the inflation of the next over its whole surface
// (think stacked cloth). Sphere 0 is kinematic; all groups self-collide.
// Inflation = 1e-3 * bounding-box diagonal. Times are medians over the
// repetitions after one warm-up call (which grows the buffers), plus the
// fastest total (less sensitive to other load on the machine); boxes + tree
// and traverse come from ipcc_broad_phase_get_stats.
//   bench_broad_phase [repetitions [subdivision level]]   (default 5 and 5:
//                                                          5 x 20480 = 102400 triangles)
// Prints to stdout:
// 1. per thread count (1, 2), the same query repeated, with the trees rebuilt
//    every time (refit limit 0, the behaviour before refitting) and refit;
// 2. a Newton-like sequence on a deforming mesh (each layer twisted about z a
//    little more every frame; per frame a static query at x_k and a swept one
//    x_k -> x_k+1): the persistent object builds on the first query and refits
//    later ones, against an object that rebuilds on every query;
// 3. the calibration of the rebuild policy: the layers rotated against each
//    other by an angle, or every vertex jittered, after a build at rest; the
//    refit tree (policy off) against a fresh one: area ratio relative to the
//    build, and traversal times;
// 4. a scaling table (1 thread, levels 3 to 6).
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broad_phase/broad_phase.h"
#include "base/core.h"

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

static void query(ipcc_broad_phase *bp, const ipcc_collision_topology *topo, const double *x0,
                  const double *x1, double inflation, int kinds, ipcc_candidates *out) {
    if (ipcc_broad_phase_query(bp, topo, x0, x1, inflation, kinds, out) != IPCC_OK) {
        fprintf(stderr, "bench_broad_phase: %s\n", ipcc_last_error());
        exit(1);
    }
}

static timing run(ipcc_broad_phase *bp, const ipcc_collision_topology *topo, const double *x0,
                  const double *x1, double inflation, int kinds, int reps, ipcc_candidates *out) {
    double *b = xmalloc(sizeof(double) * (size_t)reps), *q = xmalloc(sizeof(double) * (size_t)reps);
    double *t = xmalloc(sizeof(double) * (size_t)reps);
    for (int r = -1; r < reps; ++r) {
        double start = ipcc_now();
        query(bp, topo, x0, x1, inflation, kinds, out);
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

static void same_lists(const ipcc_candidates *a, const ipcc_candidates *b) {
    if (a->num_vf != b->num_vf || a->num_ee != b->num_ee || a->num_ef != b->num_ef ||
        memcmp(a->vf, b->vf, sizeof(int) * 2 * (size_t)a->num_vf) != 0 ||
        memcmp(a->ee, b->ee, sizeof(int) * 2 * (size_t)a->num_ee) != 0 ||
        memcmp(a->ef, b->ef, sizeof(int) * 2 * (size_t)a->num_ef) != 0) {
        fprintf(stderr, "bench_broad_phase: refit and rebuilt trees gave different candidates\n");
        exit(1);
    }
}

// y = x rotated about the unit axis u by `angle` (Rodrigues), one point.
static void rotate(const double *u, double angle, const double *x, double *y) {
    double c = cos(angle), s = sin(angle), d = u[0] * x[0] + u[1] * x[1] + u[2] * x[2];
    double cr[3] = {u[1] * x[2] - u[2] * x[1], u[2] * x[0] - u[0] * x[2], u[0] * x[1] - u[1] * x[0]};
    for (int k = 0; k < 3; ++k)
        y[k] = c * x[k] + s * cr[k] + (1 - c) * d * u[k];
}

// Twist: layer g rotated about z by angle (1 + 0.1 g) * a * z, so the layers
// also shear against each other.
static void twist(const mesh *m, const double *rest, double a, double *y) {
    static const double z[3] = {0, 0, 1};
    for (int i = 0; i < m->nv; ++i)
        rotate(z, (1 + 0.1 * m->group[i]) * a * rest[3 * i + 2], rest + 3 * i, y + 3 * i);
}

// Layer g rotated by angle * g / (NUM_SPHERES - 1) about a fixed axis.
static void rotate_layers(const mesh *m, const double *rest, double angle, double *y) {
    static const double u[3] = {0.48, 0.6, 0.64};
    for (int i = 0; i < m->nv; ++i)
        rotate(u, angle * m->group[i] / (NUM_SPHERES - 1), rest + 3 * i, y + 3 * i);
}

static void jitter(const mesh *m, const double *rest, double a, double *y) {
    for (int i = 0; i < 3 * m->nv; ++i)
        y[i] = rest[i] + a * uniform();
}

typedef struct sequence_timing {
    double build[2], tree[2], traverse[2]; // first query, then medians over the others
    int builds, refits;                    // trees, over the whole sequence
    double total;                          // whole sequence, seconds
} sequence_timing;

// Section 2 for one object (default policy, or rebuild on every query): per frame a static query at
// x_k and a swept one x_k -> x_k+1. ref (when not NULL) must give the same lists.
static sequence_timing sequence(const mesh *m, const ipcc_collision_topology *topo, double inflation,
                                int frames, double rate, bool rebuild, ipcc_candidates (*ref)[2],
                                ipcc_candidates (*out)[2]) {
    double *xa = xmalloc(sizeof(double) * 3 * (size_t)m->nv),
           *xb = xmalloc(sizeof(double) * 3 * (size_t)m->nv);
    double *tree = xmalloc(sizeof(double) * 2 * (size_t)frames);
    double *trav = xmalloc(sizeof(double) * 2 * (size_t)frames);
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    if (rebuild) ipcc_broad_phase_set_refit_limit(bp, 0);
    sequence_timing t = {0};
    const int kinds = IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE;
    twist(m, m->x, 0, xa);
    for (int k = 0; k < frames; ++k) {
        twist(m, m->x, rate * (k + 1), xb);
        for (int q = 0; q < 2; ++q) {
            double start = ipcc_now();
            query(bp, topo, xa, q ? xb : NULL, inflation, kinds, &out[k][q]);
            t.total += ipcc_now() - start;
            if (ref) same_lists(&ref[k][q], &out[k][q]);
            ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(bp);
            tree[2 * k + q] = st.build_seconds;
            trav[2 * k + q] = st.query_seconds;
            if (k == 0 && q == 0) t.build[0] = st.build_seconds + st.query_seconds;
        }
        double *tmp = xa;
        xa = xb;
        xb = tmp;
    }
    ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(bp);
    t.builds = (int)st.tree_builds;
    t.refits = (int)st.tree_refits;
    t.tree[0] = tree[0];
    t.traverse[0] = trav[0];
    t.tree[1] = median(tree + 1, 2 * frames - 1);
    t.traverse[1] = median(trav + 1, 2 * frames - 1);
    ipcc_broad_phase_destroy(bp);
    free(xa);
    free(xb);
    free(tree);
    free(trav);
    return t;
}

// Section 3, one deformation: quality and traversal of the tree built at rest
// and refit at y (policy off) against a tree built at y.
static void calibrate(const ipcc_collision_topology *topo, const double *rest, const double *y,
                      double inflation, int reps, const char *what, double amount, ipcc_candidates *out) {
    const int kinds = IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE;
    ipcc_broad_phase *refit = ipcc_broad_phase_create(), *fresh = ipcc_broad_phase_create();
    ipcc_broad_phase_set_refit_limit(refit, INFINITY);
    ipcc_broad_phase_set_refit_limit(fresh, 0);
    query(refit, topo, rest, NULL, inflation, kinds, out);
    query(refit, topo, y, NULL, inflation, kinds, out);
    double quality = ipcc_broad_phase_get_stats(refit).tree_quality;
    timing r = run(refit, topo, y, NULL, inflation, kinds, reps, out);
    timing f = run(fresh, topo, y, NULL, inflation, kinds, reps, out);
    printf("| %s | %g | %.3f | %.1f | %.1f | %.1f | %.1f | %+.0f %% | %+.0f %% | %d |\n", what, amount,
           quality, 1e3 * r.build, 1e3 * r.query, 1e3 * f.build, 1e3 * f.query, 100 * (r.query / f.query - 1),
           100 * ((r.build + r.query) / (f.build + f.query) - 1), out->num_vf + out->num_ee);
    ipcc_broad_phase_destroy(refit);
    ipcc_broad_phase_destroy(fresh);
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
    printf("| threads | query | trees | boxes + tree (ms) | traverse (ms) | total (ms) | best total (ms) | "
           "VF | EE "
           "| EF |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    static const struct {
        const char *name;
        int sweep, kinds;
    } cases[] = {{"static VF+EE", 0, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE},
                 {"swept VF+EE", 1, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE},
                 {"EF", 0, IPCC_CANDIDATES_EF}};
    ipcc_candidates out = {0};
    for (int threads = 1; threads <= 2; ++threads) {
        omp_set_num_threads(threads);
        for (int refit = 0; refit < 2; ++refit) {
            ipcc_broad_phase *bp = ipcc_broad_phase_create();
            if (!refit) ipcc_broad_phase_set_refit_limit(bp, 0);
            for (int c = 0; c < 3; ++c) {
                timing t =
                    run(bp, &topo, m.x, cases[c].sweep ? x1 : NULL, inflation, cases[c].kinds, reps, &out);
                printf("| %d | %s | %s | %.1f | %.1f | %.1f | %.1f | %d | %d | %d |\n", threads,
                       cases[c].name, refit ? "refit" : "rebuilt", 1e3 * t.build, 1e3 * t.query,
                       1e3 * t.total, 1e3 * t.best, out.num_vf, out.num_ee, out.num_ef);
            }
            ipcc_broad_phase_destroy(bp);
        }
    }
    free(x1);

    // 2. A deforming sequence.
    enum { FRAMES = 20 };
    double rate = 3 * inflation; // twist per frame, radians per unit z: ~3 inflations of motion per frame
    printf("\nSequence: %d frames, a static and a swept VF+EE query per frame; layer g twisted about z by "
           "(1 + 0.1 g) %.2e k z radians at frame k (%.2f rad at the end)\n\n",
           FRAMES, rate, rate * FRAMES);
    printf("| threads | object | first query (ms) | later: boxes + tree (ms) | later: traverse (ms) | trees "
           "built | trees refit | sequence total (ms) |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    ipcc_candidates(*lists)[2] = xmalloc(sizeof(ipcc_candidates) * 2 * 2 * FRAMES);
    memset(lists, 0, sizeof(ipcc_candidates) * 2 * 2 * FRAMES);
    for (int threads = 1; threads <= 2; ++threads) {
        omp_set_num_threads(threads);
        for (int refit = 0; refit < 2; ++refit) {
            sequence_timing t = sequence(&m, &topo, inflation, FRAMES, rate, !refit, refit ? lists : NULL,
                                         refit ? lists + FRAMES : lists);
            printf("| %d | %s | %.1f | %.1f | %.1f | %d | %d | %.0f |\n", threads,
                   refit ? "persistent (refit)" : "rebuild every query", 1e3 * t.build[0], 1e3 * t.tree[1],
                   1e3 * t.traverse[1], t.builds, t.refits, 1e3 * t.total);
        }
    }
    for (int i = 0; i < 4 * FRAMES; ++i)
        ipcc_candidates_free(&lists[0][0] + i);
    free(lists);

    // 3. Calibration of the rebuild policy (one thread).
    omp_set_num_threads(1);
    printf("\nCalibration (1 thread, static VF+EE): tree built at rest, refit at the deformed state "
           "(policy off), against a tree built there. quality = area ratio relative to the build.\n\n");
    printf(
        "| deformation | amount | quality | refit: boxes + tree (ms) | refit: traverse (ms) | fresh: boxes "
        "+ tree (ms) | fresh: traverse (ms) | traverse | total | VF + EE |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
    double *y = xmalloc(sizeof(double) * 3 * (size_t)m.nv);
    static const double angles[] = {1, 2, 3, 5, 7, 10, 20, 45}, twists[] = {0.1, 0.3, 0.5, 0.7, 1},
                        jitters[] = {1, 3, 10};
    for (int i = 0; i < 8; ++i) {
        rotate_layers(&m, m.x, angles[i] * acos(-1.0) / 180, y);
        calibrate(&topo, m.x, y, inflation, reps, "layers rotated (degrees)", angles[i], &out);
    }
    for (int i = 0; i < 5; ++i) {
        twist(&m, m.x, twists[i], y);
        calibrate(&topo, m.x, y, inflation, reps, "twist (rad per unit z)", twists[i], &out);
    }
    for (int i = 0; i < 3; ++i) {
        jitter(&m, m.x, jitters[i] * inflation, y);
        calibrate(&topo, m.x, y, inflation, reps, "jitter (inflations)", jitters[i], &out);
    }
    free(y);
    free(m.x);
    free(m.group);
    free(m.edges);
    free(m.faces);

    // 4. Scaling: static VF+EE, one thread, rebuilt every query.
    printf("\n| level | triangles | build (ms) | traverse (ms) | total (ms) | best total (ms) | ns / "
           "triangle (best) "
           "| VF + EE |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    omp_set_num_threads(1);
    for (int l = 3; l <= 6; ++l) {
        mesh s = layered_spheres(l, &inflation);
        ipcc_collision_topology t = {s.nv, s.group, s.ne, s.edges, s.nf, s.faces, NUM_SPHERES, self, kin};
        ipcc_broad_phase *bp = ipcc_broad_phase_create();
        ipcc_broad_phase_set_refit_limit(bp, 0);
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
