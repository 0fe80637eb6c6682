// Broad phase against an O(n^2) reference: the result must equal the set of
// filtered pairs whose boxes (the contract in broad_phase.h, rebuilt here)
// overlap, and must contain every filtered pair whose exact distance, or
// distance at any sampled time of the motion, is <= inflation. Also: the
// filters one by one, exact-contact and off-by-1e-12 cases, huge and tiny
// coordinates (power-of-two scalings give identical lists), empty inputs,
// sortedness, determinism over 1, 2 and 3 threads, no allocation on reuse.
// Refit: a persistent object over sequences of motions (small, large,
// scattered; static and swept; every kind; changing inflation) returns what a
// fresh object returns, refits where the policy allows and rebuilds where it
// does not, detects a changed topology, and does the same work (counters) for
// any thread count.
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "broad_phase/broad_phase.h"

// ---------------------------------------------------------------------------
// Scenes

enum { MAX_GROUPS = 8 };

typedef struct scene {
    int nv, ne, nf, ng;
    double *x; // 3 nv
    int *group, *edges, *faces;
    unsigned char self[MAX_GROUPS], kin[MAX_GROUPS];
} scene;

static ipcc_collision_topology topology(const scene *s) {
    ipcc_collision_topology t = {.num_vertices = s->nv,
                                 .vertex_group = s->group,
                                 .num_edges = s->ne,
                                 .edges = s->edges,
                                 .num_faces = s->nf,
                                 .faces = s->faces,
                                 .num_groups = s->ng,
                                 .group_self_collision = s->self,
                                 .group_kinematic = s->kin};
    return t;
}

static void scene_free(scene *s) {
    free(s->x);
    free(s->group);
    free(s->edges);
    free(s->faces);
    memset(s, 0, sizeof *s);
}

static int cmp_pair(const void *a, const void *b) {
    const int *p = a, *q = b;
    if (p[0] != q[0]) return p[0] < q[0] ? -1 : 1;
    return (p[1] > q[1]) - (p[1] < q[1]);
}

// The unique edges of the faces, sorted (min, max).
static void edges_from_faces(scene *s) {
    s->edges = malloc(sizeof(int) * 6 * (size_t)(s->nf + 1));
    for (int f = 0; f < s->nf; ++f)
        for (int k = 0; k < 3; ++k) {
            int a = s->faces[3 * f + k], b = s->faces[3 * f + (k + 1) % 3];
            s->edges[6 * f + 2 * k] = a < b ? a : b;
            s->edges[6 * f + 2 * k + 1] = a < b ? b : a;
        }
    qsort(s->edges, 3 * (size_t)s->nf, 2 * sizeof(int), cmp_pair);
    int n = 0;
    for (int e = 0; e < 3 * s->nf; ++e)
        if (n == 0 || cmp_pair(s->edges + 2 * e, s->edges + 2 * (n - 1)) != 0) {
            s->edges[2 * n] = s->edges[2 * e];
            s->edges[2 * n + 1] = s->edges[2 * e + 1];
            ++n;
        }
    s->ne = n;
}

static int random_int(int n) {
    int k = (int)ipcc_test_random(0.0, (double)n);
    return k < n ? k : n - 1;
}

// Five groups: 0 self-colliding, 1 not, 2 kinematic + self flag, 3 and 4 kinematic.
static void default_groups(scene *s) {
    static const unsigned char self[] = {1, 0, 1, 0, 1}, kin[] = {0, 0, 1, 1, 1};
    s->ng = 5;
    memcpy(s->self, self, sizeof self);
    memcpy(s->kin, kin, sizeof kin);
}

// Random triangle soup in the unit cube: sizes from 0.005 to 0.3, about a
// third of the triangles continue a strip (sharing two vertices with the
// previous one), random groups.
static scene random_soup(int nt, unsigned long long seed) {
    ipcc_test_seed(seed);
    scene s = {0};
    default_groups(&s);
    s.nf = nt;
    s.faces = malloc(sizeof(int) * 3 * (size_t)nt);
    s.x = malloc(sizeof(double) * 9 * (size_t)nt);
    s.group = malloc(sizeof(int) * 3 * (size_t)nt);
    for (int f = 0; f < nt; ++f) {
        double size = 0.005 * pow(60.0, ipcc_test_random(0, 1)), c[3];
        for (int k = 0; k < 3; ++k)
            c[k] = ipcc_test_random(0, 1);
        int fresh = 3;
        if (f > 0 && ipcc_test_random(0, 1) < 0.35) {
            s.faces[3 * f] = s.faces[3 * f - 2];
            s.faces[3 * f + 1] = s.faces[3 * f - 1];
            memcpy(c, s.x + 3 * s.faces[3 * f], sizeof c);
            fresh = 1;
        }
        int g = fresh == 3 ? random_int(s.ng) : s.group[s.faces[3 * f]];
        for (int i = 3 - fresh; i < 3; ++i) {
            for (int k = 0; k < 3; ++k)
                s.x[3 * s.nv + k] = c[k] + size * ipcc_test_random(-1, 1);
            s.group[s.nv] = g;
            s.faces[3 * f + i] = s.nv++;
        }
    }
    edges_from_faces(&s);
    return s;
}

// Octahedra subdivided once (18 vertices, 32 faces) on spheres of radius 0.3,
// one per group, centred at random in [0, 0.6]^3 so that they interpenetrate.
static scene sphere_cluster(unsigned long long seed) {
    static const double V[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    static const int F[8][3] = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    ipcc_test_seed(seed);
    scene s = {0};
    default_groups(&s);
    s.x = malloc(sizeof(double) * 3 * 18 * (size_t)s.ng);
    s.group = malloc(sizeof(int) * 18 * (size_t)s.ng);
    s.faces = malloc(sizeof(int) * 3 * 32 * (size_t)s.ng);
    for (int g = 0; g < s.ng; ++g) {
        int base = s.nv, mid[6][6];
        double c[3], R[9];
        for (int k = 0; k < 3; ++k)
            c[k] = ipcc_test_random(0, 0.6);
        ipcc_test_random_rotation(R);
        double p[18][3];
        memcpy(p, V, sizeof V);
        int n = 6;
        for (int a = 0; a < 6; ++a)
            for (int b = a + 1; b < 6; ++b) {
                mid[a][b] = mid[b][a] = -1;
                if (V[a][0] * V[b][0] + V[a][1] * V[b][1] + V[a][2] * V[b][2] != 0) continue; // opposite
                double m[3], len = 0;
                for (int k = 0; k < 3; ++k) {
                    m[k] = V[a][k] + V[b][k];
                    len += m[k] * m[k];
                }
                for (int k = 0; k < 3; ++k)
                    p[n][k] = m[k] / sqrt(len);
                mid[a][b] = mid[b][a] = n++;
            }
        for (int i = 0; i < 18; ++i) {
            for (int k = 0; k < 3; ++k)
                s.x[3 * (base + i) + k] =
                    c[k] + 0.3 * (R[3 * k] * p[i][0] + R[3 * k + 1] * p[i][1] + R[3 * k + 2] * p[i][2]);
            s.group[base + i] = g;
        }
        for (int f = 0; f < 8; ++f) {
            int a = F[f][0], b = F[f][1], cc = F[f][2], ab = mid[a][b], bc = mid[b][cc], ca = mid[cc][a];
            int sub[4][3] = {{a, ab, ca}, {ab, b, bc}, {ca, bc, cc}, {ab, bc, ca}};
            for (int t = 0; t < 4; ++t, ++s.nf)
                for (int k = 0; k < 3; ++k)
                    s.faces[3 * s.nf + k] = base + sub[t][k];
        }
        s.nv += 18;
    }
    edges_from_faces(&s);
    return s;
}

// Copy of x (3 n) moved by uniform random displacements in [-d, d]^3.
static double *displaced(const scene *s, double d) {
    double *x1 = malloc(sizeof(double) * 3 * (size_t)s->nv);
    for (int i = 0; i < 3 * s->nv; ++i)
        x1[i] = s->x[i] + ipcc_test_random(-d, d);
    return x1;
}

// ---------------------------------------------------------------------------
// Reference: filters, boxes, distances

enum { VF, EE, EF };
static const int qn_of[] = {1, 2, 2}, tn_of[] = {3, 2, 3};
static const char *const kind_name[] = {"VF", "EE", "EF"};

// Vertices of primitive `id` of the kind's query (side 0) or tree (side 1) type.
static const int *prim(const scene *s, int kind, int side, int id, int *tmp) {
    int n = side == 0 ? qn_of[kind] : tn_of[kind];
    if (n == 1) {
        *tmp = id;
        return tmp;
    }
    return n == 2 ? s->edges + 2 * id : s->faces + 3 * id;
}

static int num_prims(const scene *s, int kind, int side) {
    int n = side == 0 ? qn_of[kind] : tn_of[kind];
    return n == 1 ? s->nv : n == 2 ? s->ne : s->nf;
}

typedef struct filter_counts {
    int shared, kinematic, self;
} filter_counts;

// 1 if the pair passes the filters; counts why not otherwise.
static int allowed(const scene *s, int kind, int a, int b, filter_counts *fc) {
    int ta, tb;
    const int *va = prim(s, kind, 0, a, &ta), *vb = prim(s, kind, 1, b, &tb);
    if (kind == EE && b <= a) return 0;
    for (int i = 0; i < qn_of[kind]; ++i)
        for (int j = 0; j < tn_of[kind]; ++j)
            if (va[i] == vb[j]) {
                if (fc) fc->shared++;
                return 0;
            }
    int ga = s->group[va[0]], gb = s->group[vb[0]];
    if (s->kin[ga] && s->kin[gb]) {
        if (fc) fc->kinematic++;
        return 0;
    }
    if (ga == gb && !s->self[ga]) {
        if (fc) fc->self++;
        return 0;
    }
    return 1;
}

// The box contract of broad_phase.h.
static void ref_box(const int *v, int n, const double *x0, const double *x1, double inflation, double lo[3],
                    double hi[3]) {
    double r = inflation / 2;
    for (int k = 0; k < 3; ++k) {
        double a = INFINITY, b = -INFINITY;
        for (int i = 0; i < n; ++i)
            for (int t = 0; t < (x1 ? 2 : 1); ++t) {
                double c = (t ? x1 : x0)[3 * v[i] + k];
                a = fmin(a, c);
                b = fmax(b, c);
            }
        lo[k] = a - (r + 4 * DBL_EPSILON * (fabs(a) + r));
        hi[k] = b + (r + 4 * DBL_EPSILON * (fabs(b) + r));
    }
}

typedef struct pair_list {
    int n, cap;
    int *p;
} pair_list;

static void list_push(pair_list *l, int a, int b) {
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->p = realloc(l->p, sizeof(int) * 2 * (size_t)l->cap);
    }
    l->p[2 * l->n] = a;
    l->p[2 * l->n + 1] = b;
    l->n++;
}

// All filtered pairs of `kind` whose contract boxes overlap, in sorted order.
static pair_list brute_force(const scene *s, int kind, const double *x0, const double *x1, double inflation,
                             filter_counts *fc) {
    pair_list l = {0};
    int nq = num_prims(s, kind, 0), nt = num_prims(s, kind, 1), t0, t1;
    double(*tlo)[3] = malloc(sizeof(double) * 3 * (size_t)(nt + 1));
    double(*thi)[3] = malloc(sizeof(double) * 3 * (size_t)(nt + 1));
    for (int b = 0; b < nt; ++b)
        ref_box(prim(s, kind, 1, b, &t1), tn_of[kind], x0, x1, inflation, tlo[b], thi[b]);
    for (int a = 0; a < nq; ++a) {
        double lo[3], hi[3];
        ref_box(prim(s, kind, 0, a, &t0), qn_of[kind], x0, x1, inflation, lo, hi);
        for (int b = 0; b < nt; ++b) {
            int hit = 1;
            for (int k = 0; k < 3; ++k)
                hit = hit && lo[k] <= thi[b][k] && tlo[b][k] <= hi[k];
            if (hit && allowed(s, kind, a, b, fc)) list_push(&l, a, b);
        }
    }
    free(tlo);
    free(thi);
    return l;
}

static double dot(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static void sub(const double *a, const double *b, double *c) {
    for (int k = 0; k < 3; ++k)
        c[k] = a[k] - b[k];
}
static void cross(const double *a, const double *b, double *c) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}
static double dist(const double *a, const double *b) {
    double d[3];
    sub(a, b, d);
    return sqrt(dot(d, d));
}

static double point_segment_distance(const double *p, const double *a, const double *b) {
    double ab[3], ap[3], q[3];
    sub(b, a, ab);
    sub(p, a, ap);
    double l2 = dot(ab, ab), t = l2 > 0 ? dot(ap, ab) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    for (int k = 0; k < 3; ++k)
        q[k] = a[k] + t * ab[k];
    return dist(p, q);
}

// 1 if the projection of p lies in the triangle (n its unnormalized normal).
static int projects_inside(const double *p, const double *a, const double *b, const double *c,
                           const double *n) {
    const double *v[3] = {a, b, c};
    for (int i = 0; i < 3; ++i) {
        double e[3], w[3], m[3];
        sub(v[(i + 1) % 3], v[i], e);
        sub(p, v[i], w);
        cross(e, w, m);
        if (dot(m, n) < 0) return 0;
    }
    return 1;
}

// Minimum of the plane distance (if p projects inside) and the edge distances.
static double point_triangle_distance(const double *p, const double *a, const double *b, const double *c) {
    double d = fmin(point_segment_distance(p, a, b),
                    fmin(point_segment_distance(p, b, c), point_segment_distance(p, c, a)));
    double ab[3], ac[3], n[3], ap[3];
    sub(b, a, ab);
    sub(c, a, ac);
    cross(ab, ac, n);
    double n2 = dot(n, n);
    if (n2 > 0 && projects_inside(p, a, b, c, n)) {
        sub(p, a, ap);
        d = fmin(d, fabs(dot(ap, n)) / sqrt(n2));
    }
    return d;
}

// Minimum over the boundary of [0,1]^2 (endpoint to segment) and, for
// non-parallel lines, the interior critical point if it lies in [0,1]^2.
static double segment_segment_distance(const double *a0, const double *a1, const double *b0,
                                       const double *b1) {
    double d = fmin(fmin(point_segment_distance(a0, b0, b1), point_segment_distance(a1, b0, b1)),
                    fmin(point_segment_distance(b0, a0, a1), point_segment_distance(b1, a0, a1)));
    double u[3], v[3], w[3];
    sub(a1, a0, u);
    sub(b1, b0, v);
    sub(a0, b0, w);
    double A = dot(u, u), B = dot(u, v), C = dot(v, v), D = dot(u, w), E = dot(v, w), det = A * C - B * B;
    if (det > 1e-14 * A * C) {
        double s = (B * E - C * D) / det, t = (A * E - B * D) / det;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            double p[3], q[3];
            for (int k = 0; k < 3; ++k) {
                p[k] = a0[k] + s * u[k];
                q[k] = b0[k] + t * v[k];
            }
            d = fmin(d, dist(p, q));
        }
    }
    return d;
}

// 0 if the segment crosses the triangle's plane inside it; otherwise the
// minimum over endpoints-to-triangle and segment-to-edges.
static double segment_triangle_distance(const double *p0, const double *p1, const double *a, const double *b,
                                        const double *c) {
    double ab[3], ac[3], n[3], w0[3], w1[3];
    sub(b, a, ab);
    sub(c, a, ac);
    cross(ab, ac, n);
    sub(p0, a, w0);
    sub(p1, a, w1);
    double d0 = dot(w0, n), d1 = dot(w1, n);
    if (dot(n, n) > 0 && d0 * d1 <= 0 && d0 != d1) {
        double t = d0 / (d0 - d1), q[3];
        for (int k = 0; k < 3; ++k)
            q[k] = p0[k] + t * (p1[k] - p0[k]);
        if (projects_inside(q, a, b, c, n)) return 0;
    }
    double d = fmin(point_triangle_distance(p0, a, b, c), point_triangle_distance(p1, a, b, c));
    d = fmin(d, segment_segment_distance(p0, p1, a, b));
    d = fmin(d, segment_segment_distance(p0, p1, b, c));
    return fmin(d, segment_segment_distance(p0, p1, c, a));
}

static double pair_distance(const scene *s, int kind, const double *x, int a, int b) {
    int t0, t1;
    const int *va = prim(s, kind, 0, a, &t0), *vb = prim(s, kind, 1, b, &t1);
#define X(i) (x + 3 * (i))
    switch (kind) {
    case VF: return point_triangle_distance(X(va[0]), X(vb[0]), X(vb[1]), X(vb[2]));
    case EE: return segment_segment_distance(X(va[0]), X(va[1]), X(vb[0]), X(vb[1]));
    default: return segment_triangle_distance(X(va[0]), X(va[1]), X(vb[0]), X(vb[1]), X(vb[2]));
    }
#undef X
}

// ---------------------------------------------------------------------------
// Checks

static void candidate_list(const ipcc_candidates *c, int kind, const int **p, int *n) {
    *p = kind == VF ? c->vf : kind == EE ? c->ee : c->ef;
    *n = kind == VF ? c->num_vf : kind == EE ? c->num_ee : c->num_ef;
}

static int contains(const int *p, int n, int a, int b) {
    int key[2] = {a, b};
    return bsearch(key, p, (size_t)n, 2 * sizeof(int), cmp_pair) != NULL;
}

// Sorted, unique, ids in range, EE a < b, and every pair passes the filters.
static void check_well_formed(const scene *s, const ipcc_candidates *c) {
    for (int kind = VF; kind <= EF; ++kind) {
        const int *p;
        int n;
        candidate_list(c, kind, &p, &n);
        for (int i = 0; i < n; ++i) {
            assert_true(p[2 * i] >= 0 && p[2 * i] < num_prims(s, kind, 0));
            assert_true(p[2 * i + 1] >= 0 && p[2 * i + 1] < num_prims(s, kind, 1));
            if (i > 0) assert_true(cmp_pair(p + 2 * i - 2, p + 2 * i) < 0);
            if (kind == EE) assert_true(p[2 * i] < p[2 * i + 1]);
            assert_true(allowed(s, kind, p[2 * i], p[2 * i + 1], NULL));
        }
    }
}

// The result equals the brute-force box set, kind by kind.
static void check_equals_brute_force(const scene *s, const ipcc_candidates *c, const double *x0,
                                     const double *x1, double inflation, int kinds, filter_counts *fc) {
    for (int kind = VF; kind <= EF; ++kind) {
        const int *p;
        int n;
        candidate_list(c, kind, &p, &n);
        if (!(kinds & (1 << kind))) {
            assert_int_equal(n, 0);
            continue;
        }
        pair_list ref = brute_force(s, kind, x0, x1, inflation, fc);
        for (int i = 0; i < ref.n || i < n; ++i)
            if (i >= ref.n || i >= n || cmp_pair(ref.p + 2 * i, p + 2 * i) != 0) {
                print_error(
                    "%s: %d pairs, reference %d; first difference at %d: (%d, %d) vs reference (%d, %d)\n",
                    kind_name[kind], n, ref.n, i, i < n ? p[2 * i] : -1, i < n ? p[2 * i + 1] : -1,
                    i < ref.n ? ref.p[2 * i] : -1, i < ref.n ? ref.p[2 * i + 1] : -1);
                fail();
            }
        free(ref.p);
    }
}

// Every filtered pair within `inflation` at positions x is reported. Returns
// how many such pairs there were (so a test can insist the check had teeth).
static int check_close_pairs_found(const scene *s, const ipcc_candidates *c, const double *x,
                                   double inflation, int kinds) {
    int close = 0;
    for (int kind = VF; kind <= EF; ++kind) {
        if (!(kinds & (1 << kind))) continue;
        const int *p;
        int n;
        candidate_list(c, kind, &p, &n);
        for (int a = 0; a < num_prims(s, kind, 0); ++a)
            for (int b = 0; b < num_prims(s, kind, 1); ++b) {
                if (!allowed(s, kind, a, b, NULL)) continue;
                double d = pair_distance(s, kind, x, a, b);
                if (d > inflation) continue;
                ++close;
                if (!contains(p, n, a, b)) {
                    print_error("%s pair (%d, %d) at distance %.17g <= %.17g is missing\n", kind_name[kind],
                                a, b, d, inflation);
                    fail();
                }
            }
    }
    return close;
}

static const int ALL = IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE | IPCC_CANDIDATES_EF;

static void query_ok(ipcc_broad_phase *bp, const scene *s, const double *x0, const double *x1,
                     double inflation, int kinds, ipcc_candidates *c) {
    ipcc_collision_topology t = topology(s);
    assert_int_equal(ipcc_broad_phase_query(bp, &t, x0, x1, inflation, kinds, c), IPCC_OK);
    check_well_formed(s, c);
}

// ---------------------------------------------------------------------------
// Tests

static void test_random_soups_match_brute_force(void **state) {
    (void)state;
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_candidates c = {0};
    static const double inflations[] = {0.0, 0.01, 0.05};
    static const int sizes[] = {1, 7, 60, 400};
    int close = 0;
    filter_counts fc = {0};
    for (int si = 0; si < 4; ++si)
        for (int ii = 0; ii < 3; ++ii) {
            scene s = random_soup(sizes[si], 100u + 10u * (unsigned)si + (unsigned)ii);
            query_ok(bp, &s, s.x, NULL, inflations[ii], ALL, &c);
            check_equals_brute_force(&s, &c, s.x, NULL, inflations[ii], ALL, &fc);
            close += check_close_pairs_found(&s, &c, s.x, inflations[ii], ALL);
            for (int kinds = 1; kinds < 8; kinds += 2) { // subsets of the kinds
                query_ok(bp, &s, s.x, NULL, inflations[ii], kinds, &c);
                check_equals_brute_force(&s, &c, s.x, NULL, inflations[ii], kinds, NULL);
            }
            scene_free(&s);
        }
    assert_true(close > 1000);
    assert_true(fc.shared > 0 && fc.kinematic > 0 && fc.self > 0);
    ipcc_candidates_free(&c);
    ipcc_broad_phase_destroy(bp);
}

static void test_sphere_clusters_filters(void **state) {
    (void)state;
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_candidates c = {0};
    filter_counts fc = {0};
    int close = 0;
    for (unsigned seed = 1; seed <= 6; ++seed) {
        scene s = sphere_cluster(seed);
        assert_int_equal(s.nv, 90);
        assert_int_equal(s.nf, 160);
        assert_int_equal(s.ne, 240);
        double inflation = 0.02 * seed;
        query_ok(bp, &s, s.x, NULL, inflation, ALL, &c);
        check_equals_brute_force(&s, &c, s.x, NULL, inflation, ALL, &fc);
        close += check_close_pairs_found(&s, &c, s.x, inflation, ALL);
        // Every flag setting: all self-colliding and none kinematic, and the reverse.
        memset(s.self, 1, sizeof s.self);
        memset(s.kin, 0, sizeof s.kin);
        query_ok(bp, &s, s.x, NULL, inflation, ALL, &c);
        check_equals_brute_force(&s, &c, s.x, NULL, inflation, ALL, NULL);
        int all = c.num_vf + c.num_ee + c.num_ef;
        memset(s.kin, 1, sizeof s.kin);
        query_ok(bp, &s, s.x, NULL, inflation, ALL, &c);
        assert_int_equal(c.num_vf + c.num_ee + c.num_ef, 0);
        memset(s.kin, 0, sizeof s.kin);
        memset(s.self, 0, sizeof s.self);
        query_ok(bp, &s, s.x, NULL, inflation, ALL, &c);
        check_equals_brute_force(&s, &c, s.x, NULL, inflation, ALL, NULL);
        assert_true(c.num_vf + c.num_ee + c.num_ef < all);
        // NULL flag arrays mean "no group self-collides, none is kinematic".
        ipcc_collision_topology t = topology(&s);
        t.group_self_collision = NULL;
        t.group_kinematic = NULL;
        ipcc_candidates d = {0};
        assert_int_equal(ipcc_broad_phase_query(bp, &t, s.x, NULL, inflation, ALL, &d), IPCC_OK);
        assert_int_equal(d.num_vf, c.num_vf);
        assert_int_equal(d.num_ee, c.num_ee);
        assert_int_equal(d.num_ef, c.num_ef);
        assert_memory_equal(d.vf, c.vf, sizeof(int) * 2 * (size_t)c.num_vf);
        assert_memory_equal(d.ee, c.ee, sizeof(int) * 2 * (size_t)c.num_ee);
        assert_memory_equal(d.ef, c.ef, sizeof(int) * 2 * (size_t)c.num_ef);
        ipcc_candidates_free(&d);
        scene_free(&s);
    }
    assert_true(close > 100);
    assert_true(fc.shared > 100 && fc.kinematic > 100 && fc.self > 100);
    ipcc_candidates_free(&c);
    ipcc_broad_phase_destroy(bp);
}

static void test_sweep_contains_sampled_times(void **state) {
    (void)state;
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_candidates c = {0}, c0 = {0};
    int close = 0;
    for (int trial = 0; trial < 4; ++trial) {
        scene s =
            trial < 2 ? random_soup(120, 500u + (unsigned)trial) : sphere_cluster(600u + (unsigned)trial);
        double inflation = 0.01 + 0.01 * trial;
        double *x1 = displaced(&s, 0.08);
        double *xt = malloc(sizeof(double) * 3 * (size_t)s.nv);
        query_ok(bp, &s, s.x, x1, inflation, ALL, &c);
        check_equals_brute_force(&s, &c, s.x, x1, inflation, ALL, NULL);
        for (int k = 0; k <= 16; ++k) {
            double t = k / 16.0;
            for (int i = 0; i < 3 * s.nv; ++i)
                xt[i] = (1 - t) * s.x[i] + t * x1[i];
            close += check_close_pairs_found(&s, &c, xt, inflation, ALL);
        }
        // Superset of the static lists at both ends.
        for (int end = 0; end < 2; ++end) {
            query_ok(bp, &s, end ? x1 : s.x, NULL, inflation, ALL, &c0);
            query_ok(bp, &s, s.x, x1, inflation, ALL, &c);
            for (int kind = VF; kind <= EF; ++kind) {
                const int *p, *q;
                int n, m;
                candidate_list(&c0, kind, &p, &n);
                candidate_list(&c, kind, &q, &m);
                assert_true(m >= n);
                for (int i = 0; i < n; ++i)
                    assert_true(contains(q, m, p[2 * i], p[2 * i + 1]));
            }
        }
        // Zero-length motion is the static query.
        query_ok(bp, &s, s.x, s.x, inflation, ALL, &c);
        query_ok(bp, &s, s.x, NULL, inflation, ALL, &c0);
        assert_int_equal(c.num_vf, c0.num_vf);
        assert_int_equal(c.num_ee, c0.num_ee);
        assert_int_equal(c.num_ef, c0.num_ef);
        assert_memory_equal(c.vf, c0.vf, sizeof(int) * 2 * (size_t)c.num_vf);
        assert_memory_equal(c.ee, c0.ee, sizeof(int) * 2 * (size_t)c.num_ee);
        assert_memory_equal(c.ef, c0.ef, sizeof(int) * 2 * (size_t)c.num_ef);
        free(xt);
        free(x1);
        scene_free(&s);
    }
    assert_true(close > 1000);
    ipcc_candidates_free(&c);
    ipcc_candidates_free(&c0);
    ipcc_broad_phase_destroy(bp);
}

// Hand-made contacts: a face z = 0 and probes at exactly the inflation, at
// inflation + 1e-12, crossing, touching and degenerate. Expectations follow
// the boxes; EE looks at the face edge (0, 1) only, whose box is thin.
typedef struct contact_case {
    const char *name;
    double probe[2][3]; // a vertex (VF, the first point) or an edge
    double inflation;
    int expect_vf, expect_ee, expect_ef; // pairs with the face (VF, EF) and its edge 0 (EE)
} contact_case;

static void test_exact_contacts(void **state) {
    (void)state;
    static const contact_case cases[] = {
        {"vertex on face, inflation 0", {{0.2, 0.2, 0}, {0.2, 0.2, 1}}, 0, 1, 0, 1},
        {"vertex at inflation", {{0.2, 0.3, 0.25}, {0.2, 0.3, 1}}, 0.25, 1, 0, 1},
        {"vertex at inflation + 1e-12", {{0.2, 0.3, 0.25 + 1e-12}, {0.2, 0.3, 1}}, 0.25, 0, 0, 0},
        {"vertex at face corner, inflation 0", {{1, 0, 0}, {2, 0, 0}}, 0, 1, 1, 1},
        {"edge crossing face edge in plane", {{0.5, -0.5, 0}, {0.5, 0.5, 0}}, 0, 0, 1, 1},
        {"edge parallel to face edge at inflation", {{0, -0.125, 0}, {1, -0.125, 0}}, 0.125, 1, 1, 1},
        {"edge parallel at inflation + 1e-12",
         {{0, -0.125 - 1e-12, 0}, {1, -0.125 - 1e-12, 0}},
         0.125,
         0,
         0,
         0},
        {"edge piercing face", {{0.2, 0.2, -1}, {0.2, 0.2, 1}}, 0, 0, 0, 1},
        {"zero-length edge on face", {{0.2, 0.2, 0}, {0.2, 0.2, 0}}, 0, 1, 0, 1},
        {"far away", {{5, 5, 5}, {6, 6, 6}}, 0.5, 0, 0, 0},
    };
    // Vertices 0-2: face (0,0,0) (1,0,0) (0,1,0), group 0; vertices 3-4: probe, group 1.
    int group[5] = {0, 0, 0, 1, 1}, faces[3] = {0, 1, 2}, edges[8] = {0, 1, 0, 2, 1, 2, 3, 4};
    unsigned char no[2] = {0, 0};
    ipcc_collision_topology t = {5, group, 4, edges, 1, faces, 2, no, no};
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_candidates c = {0};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const contact_case *k = &cases[i];
        double x[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        memcpy(x + 9, k->probe, sizeof k->probe);
        assert_int_equal(ipcc_broad_phase_query(bp, &t, x, NULL, k->inflation, ALL, &c), IPCC_OK);
        int vf = contains(c.vf, c.num_vf, 3, 0), ee = contains(c.ee, c.num_ee, 0, 3),
            ef = contains(c.ef, c.num_ef, 3, 0);
        if (vf != k->expect_vf || ee != k->expect_ee || ef != k->expect_ef) {
            print_error("case '%s': vf %d ee %d ef %d, expected %d %d %d\n", k->name, vf, ee, ef,
                        k->expect_vf, k->expect_ee, k->expect_ef);
            fail();
        }
    }
    ipcc_candidates_free(&c);
    ipcc_broad_phase_destroy(bp);
}

// Many coincident copies of one triangle, then everything collapsed to a
// point: ties everywhere in the median split, zero-size boxes.
static void test_coincident_and_degenerate(void **state) {
    (void)state;
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_candidates c = {0};
    for (int collapse = 0; collapse < 2; ++collapse) {
        scene s = random_soup(150, 41);
        for (int v = 0; v < s.nv; ++v)
            for (int k = 0; k < 3; ++k)
                s.x[3 * v + k] = collapse ? 0.5 : (v % 3 == k ? 1.0 : 0.0);
        query_ok(bp, &s, s.x, NULL, 0.0, ALL, &c);
        check_equals_brute_force(&s, &c, s.x, NULL, 0.0, ALL, NULL);
        check_close_pairs_found(&s, &c, s.x, 0.0, ALL);
        assert_true(c.num_vf > 1000 && c.num_ee > 1000 && c.num_ef > 1000);
        scene_free(&s);
    }
    ipcc_candidates_free(&c);
    ipcc_broad_phase_destroy(bp);
}

static void lists_equal(const ipcc_candidates *a, const ipcc_candidates *b) {
    assert_int_equal(a->num_vf, b->num_vf);
    assert_int_equal(a->num_ee, b->num_ee);
    assert_int_equal(a->num_ef, b->num_ef);
    assert_memory_equal(a->vf, b->vf, sizeof(int) * 2 * (size_t)a->num_vf);
    assert_memory_equal(a->ee, b->ee, sizeof(int) * 2 * (size_t)a->num_ee);
    assert_memory_equal(a->ef, b->ef, sizeof(int) * 2 * (size_t)a->num_ef);
}

// Power-of-two scalings are exact, so the lists must be identical; a far
// translation still matches its own brute force.
static void test_huge_and_tiny_coordinates(void **state) {
    (void)state;
    scene s = random_soup(300, 77);
    double inflation = 0.02, *y = malloc(sizeof(double) * 3 * (size_t)s.nv);
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_candidates ref = {0}, c = {0};
    query_ok(bp, &s, s.x, NULL, inflation, ALL, &ref);
    assert_true(ref.num_vf > 0 && ref.num_ee > 0 && ref.num_ef > 0);
    static const int exponents[] = {-900, -500, 500, 900};
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 3 * s.nv; ++j)
            y[j] = ldexp(s.x[j], exponents[i]);
        query_ok(bp, &s, y, NULL, ldexp(inflation, exponents[i]), ALL, &c);
        lists_equal(&c, &ref);
    }
    static const double offsets[] = {1e6, -1e12, 1e300};
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3 * s.nv; ++j)
            y[j] = s.x[j] * (i == 2 ? 1e290 : 1.0) + offsets[i];
        double infl = i == 2 ? 1e288 : inflation;
        query_ok(bp, &s, y, NULL, infl, ALL, &c);
        check_equals_brute_force(&s, &c, y, NULL, infl, ALL, NULL);
    }
    free(y);
    ipcc_candidates_free(&ref);
    ipcc_candidates_free(&c);
    ipcc_broad_phase_destroy(bp);
    scene_free(&s);
}

// Counters of work done and memory grown: equal when the queries between a
// and b did no work.
static void assert_same_work(const ipcc_broad_phase_stats *a, const ipcc_broad_phase_stats *b) {
    assert_int_equal(a->tree_builds, b->tree_builds);
    assert_int_equal(a->tree_refits, b->tree_refits);
    assert_int_equal(a->tree_rejected_refits, b->tree_rejected_refits);
    assert_int_equal(a->allocations, b->allocations);
    assert_int_equal(a->bytes, b->bytes);
}

// The point-tet query with no points, then with no tets: OK, no pairs, no work.
static void point_tet_empty(ipcc_broad_phase *bp) {
    ipcc_broad_phase_stats before = ipcc_broad_phase_get_stats(bp), after;
    double x[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    int tet[4] = {0, 1, 2, 3}, point = 0, group[1] = {1}, *pairs = NULL, np = -1, cap = 0;
    assert_int_equal(
        ipcc_broad_phase_point_tet_query(bp, 4, x, 0, &point, group, 1, tet, group, &pairs, &np, &cap),
        IPCC_OK);
    assert_int_equal(np, 0);
    np = -1;
    assert_int_equal(
        ipcc_broad_phase_point_tet_query(bp, 4, x, 1, &point, group, 0, tet, group, &pairs, &np, &cap),
        IPCC_OK);
    assert_int_equal(np, 0);
    assert_null(pairs);
    after = ipcc_broad_phase_get_stats(bp);
    assert_same_work(&after, &before);
}

// Empty inputs give empty lists and do no work. A query over no primitives,
// or asking for no kinds, builds no tree, grows no buffer (in bp or in `out`)
// and clears `out`, on a new object and on one that has answered a query; so
// does the point-tet query without points or tets. A topology without faces
// (or without edges) empties exactly the lists that need them, gives the
// full topology's other lists, and builds no tree over zero primitives.
static void test_empty_inputs(void **state) {
    (void)state;
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_broad_phase_stats fresh = ipcc_broad_phase_get_stats(bp), st;
    assert_true(fresh.tree_builds == 0 && fresh.tree_refits == 0 && fresh.tree_rejected_refits == 0);
    assert_true(fresh.allocations == 0 && fresh.bytes > 0 && fresh.tree_quality == 1);
    ipcc_candidates c = {0}, full = {0};
    ipcc_collision_topology none = {0};
    assert_int_equal(ipcc_broad_phase_query(bp, &none, NULL, NULL, 0.1, ALL, &c), IPCC_OK);
    assert_int_equal(c.num_vf + c.num_ee + c.num_ef, 0);
    assert_true(c.vf == NULL && c.ee == NULL && c.ef == NULL); // `out` not grown
    st = ipcc_broad_phase_get_stats(bp);
    assert_same_work(&st, &fresh);
    assert_true(st.tree_quality == 1);
    point_tet_empty(bp);

    // After a query with pairs of every kind: later empty queries clear `out`
    // and do no work either.
    scene s = random_soup(50, 3);
    query_ok(bp, &s, s.x, NULL, 0.1, ALL, &full);
    assert_true(full.num_vf > 0 && full.num_ee > 0 && full.num_ef > 0);
    query_ok(bp, &s, s.x, NULL, 0.1, ALL, &c);
    ipcc_broad_phase_stats filled = ipcc_broad_phase_get_stats(bp);
    assert_int_equal(filled.tree_builds, 2);
    assert_int_equal(filled.tree_refits, 2);
    assert_int_equal(ipcc_broad_phase_query(bp, &none, NULL, NULL, 0.1, ALL, &c), IPCC_OK);
    assert_int_equal(c.num_vf + c.num_ee + c.num_ef, 0);
    st = ipcc_broad_phase_get_stats(bp);
    assert_same_work(&st, &filled);
    query_ok(bp, &s, s.x, NULL, 0.1, 0, &c); // no kinds
    assert_int_equal(c.num_vf + c.num_ee + c.num_ef, 0);
    st = ipcc_broad_phase_get_stats(bp);
    assert_same_work(&st, &filled);
    point_tet_empty(bp);

    // No faces: no VF nor EF, the full topology's EE; one tree built, over
    // the edges (the empty query left both trees empty: built, not refit).
    ipcc_collision_topology t = topology(&s);
    t.num_faces = 0;
    assert_int_equal(ipcc_broad_phase_query(bp, &t, s.x, NULL, 0.1, ALL, &c), IPCC_OK);
    assert_true(c.num_vf == 0 && c.num_ef == 0);
    assert_int_equal(c.num_ee, full.num_ee);
    assert_memory_equal(c.ee, full.ee, sizeof(int) * 2 * (size_t)full.num_ee);
    st = ipcc_broad_phase_get_stats(bp);
    assert_int_equal(st.tree_builds, filled.tree_builds + 1);
    assert_int_equal(st.tree_refits, filled.tree_refits);
    // No edges: no EE nor EF, the full topology's VF; one tree built, over the faces.
    t = topology(&s);
    t.num_edges = 0;
    assert_int_equal(ipcc_broad_phase_query(bp, &t, s.x, NULL, 0.1, ALL, &c), IPCC_OK);
    assert_true(c.num_ee == 0 && c.num_ef == 0);
    assert_int_equal(c.num_vf, full.num_vf);
    assert_memory_equal(c.vf, full.vf, sizeof(int) * 2 * (size_t)full.num_vf);
    st = ipcc_broad_phase_get_stats(bp);
    assert_int_equal(st.tree_builds, filled.tree_builds + 2);
    assert_int_equal(st.tree_refits, filled.tree_refits);

    // A single edge, swept, with a huge inflation: nothing to pair with.
    int g[2] = {0, 0}, e[2] = {0, 1};
    unsigned char yes = 1;
    ipcc_collision_topology one = {2, g, 1, e, 0, NULL, 1, &yes, NULL};
    double x[6] = {0, 0, 0, 1, 1, 1};
    assert_int_equal(ipcc_broad_phase_query(bp, &one, x, x, 10.0, ALL, &c), IPCC_OK);
    assert_int_equal(c.num_vf + c.num_ee + c.num_ef, 0);
    // No pair found by a new object: its pair buffers are still NULL (a
    // sanitizer build checks that no offset is applied to them).
    ipcc_broad_phase *newbp = ipcc_broad_phase_create();
    ipcc_candidates empty = {0};
    assert_int_equal(ipcc_broad_phase_query(newbp, &one, x, NULL, 0.1, ALL, &empty), IPCC_OK);
    assert_int_equal(empty.num_vf + empty.num_ee + empty.num_ef, 0);
    int tet[4] = {0, 1, 2, 3}, tet_group[1] = {0}, point[1] = {4}, point_group[1] = {1}, *pairs = NULL,
        np = 1, cap = 0;
    double xt[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5, 5, 5};
    assert_int_equal(ipcc_broad_phase_point_tet_query(newbp, 5, xt, 1, point, point_group, 1, tet, tet_group,
                                                      &pairs, &np, &cap),
                     IPCC_OK);
    assert_int_equal(np, 0);
    assert_null(pairs);
    ipcc_candidates_free(&empty);
    ipcc_broad_phase_destroy(newbp);
    ipcc_broad_phase_destroy(NULL);
    ipcc_candidates_free(&c);
    assert_null(c.vf);
    assert_int_equal(c.cap_vf, 0);
    ipcc_candidates_free(NULL);
    ipcc_candidates_free(&full);
    ipcc_broad_phase_destroy(bp);
    scene_free(&s);
}

// ---------------------------------------------------------------------------
// Refit: persistent objects over sequences of motions

// y = x with every group turned rigidly about its centroid by a random angle
// in [-angle, angle] about a random axis and shifted by up to `shift` per
// axis, then every vertex jittered by up to `noise` per axis.
static void move_groups(const scene *s, const double *x, double angle, double shift, double noise,
                        double *y) {
    for (int g = 0; g < s->ng; ++g) {
        double c[3] = {0, 0, 0}, u[3], t[3], n = 0, len = 0;
        for (int v = 0; v < s->nv; ++v)
            if (s->group[v] == g) {
                for (int k = 0; k < 3; ++k)
                    c[k] += x[3 * v + k];
                ++n;
            }
        if (n == 0) continue;
        while (len < 0.1) {
            for (int k = 0; k < 3; ++k)
                u[k] = ipcc_test_random(-1, 1);
            len = sqrt(dot(u, u));
        }
        for (int k = 0; k < 3; ++k) {
            c[k] /= n;
            u[k] /= len;
            t[k] = ipcc_test_random(-shift, shift);
        }
        double a = ipcc_test_random(-angle, angle), ca = cos(a), sa = sin(a);
        for (int v = 0; v < s->nv; ++v) {
            if (s->group[v] != g) continue;
            double d[3], w[3];
            sub(x + 3 * v, c, d);
            cross(u, d, w);
            double ud = dot(u, d);
            for (int k = 0; k < 3; ++k) // Rodrigues' rotation of d about u
                y[3 * v + k] = c[k] + ca * d[k] + sa * w[k] + (1 - ca) * ud * u[k] + t[k] +
                               ipcc_test_random(-noise, noise);
        }
    }
}

// The list a brand-new object returns.
static void fresh_query(const scene *s, const double *x0, const double *x1, double inflation, int kinds,
                        ipcc_candidates *c) {
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    query_ok(bp, s, x0, x1, inflation, kinds, c);
    ipcc_broad_phase_destroy(bp);
}

// Step k of a test sequence: small rigid motions and noise, with large ones:
// every group turned at random at steps 8 and 20, every vertex scattered over
// the cube at step 14 and the soup put back in place at step 17.
static void sequence_motion(const scene *s, int k, const double *x, double *y) {
    if (k == 14) {
        for (int i = 0; i < 3 * s->nv; ++i)
            y[i] = ipcc_test_random(0, 1);
    } else if (k == 17) {
        memcpy(y, s->x, sizeof(double) * 3 * (size_t)s->nv);
    } else if (k == 8 || k == 20) {
        move_groups(s, x, 3.14159, 0.2, 0.0, y);
    } else {
        move_groups(s, x, 0.01, 0.005, 0.002, y);
    }
}

// A persistent object with the default policy, one that always refits and
// fresh objects give the same lists over a sequence of static and swept
// queries of every kind and changing inflation; the policy refits the small
// motions and rebuilds after the large ones.
static void test_refit_sequence_matches_fresh(void **state) {
    (void)state;
    enum { STEPS = 26 };
    static const int kinds_of[] = {ALL,
                                   IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE,
                                   IPCC_CANDIDATES_EF,
                                   IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE,
                                   IPCC_CANDIDATES_EE,
                                   IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EF};
    static const double inflation_of[] = {0.01, 0.02, 0.0, 0.04, 0.01};
    scene s = random_soup(400, 31);
    double *x = malloc(sizeof(double) * 3 * (size_t)s.nv), *y = malloc(sizeof(double) * 3 * (size_t)s.nv);
    memcpy(x, s.x, sizeof(double) * 3 * (size_t)s.nv);
    ipcc_broad_phase *policy = ipcc_broad_phase_create(), *always = ipcc_broad_phase_create();
    ipcc_broad_phase_set_refit_limit(always, INFINITY);
    ipcc_candidates c = {0}, d = {0}, ref = {0};
    double worst = 1; // largest quality the always-refit object reached
    int queries = 0, rebuilt_after_large = 0;
    long rejected = 0;
    for (int k = 0; k < STEPS; ++k) {
        sequence_motion(&s, k, x, y);
        for (int sweep = 0; sweep < 2; ++sweep, ++queries) {
            const double *x1 = sweep ? y : NULL;
            int kinds = kinds_of[queries % 6];
            double inflation = inflation_of[queries % 5];
            query_ok(policy, &s, x, x1, inflation, kinds, &c);
            query_ok(always, &s, x, x1, inflation, kinds, &d);
            fresh_query(&s, x, x1, inflation, kinds, &ref);
            lists_equal(&c, &ref);
            lists_equal(&d, &ref);
            if (k % 5 == 0) check_equals_brute_force(&s, &ref, x, x1, inflation, kinds, NULL);
            ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(policy);
            assert_true(st.tree_quality <= IPCC_BROAD_PHASE_REFIT_LIMIT);
            st = ipcc_broad_phase_get_stats(always);
            worst = st.tree_quality > worst ? st.tree_quality : worst;
        }
        // A large motion at step k - 1 leaves a refit tree of poor quality at
        // the new positions: the policy rebuilds by the end of step k. (Not
        // after the scattering: every box is large, a new tree no better.)
        if (k == 8 || k == 17 || k == 20) rejected = ipcc_broad_phase_get_stats(policy).tree_rejected_refits;
        if (k == 9 || k == 18 || k == 21)
            rebuilt_after_large += ipcc_broad_phase_get_stats(policy).tree_rejected_refits > rejected;
        double *tmp = x;
        x = y;
        y = tmp;
    }
    ipcc_broad_phase_stats sp = ipcc_broad_phase_get_stats(policy), sa = ipcc_broad_phase_get_stats(always);
    // 52 queries, each updating one or two trees: most are refits.
    assert_int_equal(rebuilt_after_large, 3);
    assert_true(sp.tree_refits >= 40);
    assert_int_equal(sp.tree_builds, 2 + sp.tree_rejected_refits);
    assert_int_equal(sa.tree_builds, 2);
    assert_int_equal(sa.tree_rejected_refits, 0);
    assert_true(sa.tree_refits > sp.tree_refits);
    assert_true(worst > 5); // the always-refit trees went through really poor states
    ipcc_candidates_free(&c);
    ipcc_candidates_free(&d);
    ipcc_candidates_free(&ref);
    ipcc_broad_phase_destroy(policy);
    ipcc_broad_phase_destroy(always);
    free(x);
    free(y);
    scene_free(&s);
}

// All kinds at s->x: the brute-force list, and bp's tree counters so far.
static void query_counting(ipcc_broad_phase *bp, const scene *s, ipcc_candidates *c, long builds, long refits,
                           long rejected) {
    query_ok(bp, s, s->x, NULL, 0.02, ALL, c);
    check_equals_brute_force(s, c, s->x, NULL, 0.02, ALL, NULL);
    ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(bp);
    assert_int_equal(st.tree_builds, builds);
    assert_int_equal(st.tree_refits, refits);
    assert_int_equal(st.tree_rejected_refits, rejected);
}

static void swap_ints(int *a, int *b) {
    int t = *a;
    *a = *b;
    *b = t;
}

// Queries after the topology changed in place (same arrays, same counts, same
// boxes) rebuild the tree concerned, even with refits of any quality allowed;
// so do a changed count and a point-tet query (which takes over the face tree).
static void test_refit_detects_topology_change(void **state) {
    (void)state;
    scene s = random_soup(300, 5);
    ipcc_broad_phase *bp = ipcc_broad_phase_create();
    ipcc_broad_phase_set_refit_limit(bp, INFINITY);
    ipcc_candidates c = {0};
    query_counting(bp, &s, &c, 2, 0, 0);
    query_counting(bp, &s, &c, 2, 2, 0);
    assert_true(ipcc_broad_phase_get_stats(bp).tree_quality == 1); // the same boxes, the same node boxes
    // Two vertices of a face swapped: its box is the same, its topology is not.
    swap_ints(s.faces + 3 * 17, s.faces + 3 * 17 + 1);
    query_counting(bp, &s, &c, 3, 3, 1); // the edge tree is refit
    // An edge's two vertices swapped.
    swap_ints(s.edges + 2 * 40, s.edges + 2 * 40 + 1);
    query_counting(bp, &s, &c, 4, 4, 2); // the face tree is refit
    // One face fewer: a different count, built without a refit.
    ipcc_collision_topology t = topology(&s);
    t.num_faces--;
    assert_int_equal(ipcc_broad_phase_query(bp, &t, s.x, NULL, 0.02, IPCC_CANDIDATES_VF, &c), IPCC_OK);
    assert_int_equal(ipcc_broad_phase_get_stats(bp).tree_builds, 5);
    query_counting(bp, &s, &c, 6, 5, 2); // the edge tree, untouched by the VF query, is refit
    // A point-tet query builds its own tree in the face tree's storage (as
    // many tets as faces: the count alone does not tell).
    int *tets = malloc(sizeof(int) * 4 * (size_t)s.nf), *tet_group = calloc((size_t)s.nf, sizeof(int));
    for (int i = 0; i < 4 * s.nf; ++i)
        tets[i] = (i / 4 + i % 4) % s.nv;
    int points[3] = {10, 20, 30}, pgroup[3] = {2, 2, 2}, *pairs = NULL, np = 0, cap = 0;
    assert_int_equal(ipcc_broad_phase_point_tet_query(bp, s.nv, s.x, 3, points, pgroup, s.nf, tets, tet_group,
                                                      &pairs, &np, &cap),
                     IPCC_OK);
    assert_int_equal(ipcc_broad_phase_get_stats(bp).tree_builds, 7);
    query_counting(bp, &s, &c, 8, 6, 2);
    free(tets);
    free(tet_group);
    free(pairs);
    ipcc_candidates_free(&c);
    ipcc_broad_phase_destroy(bp);
    scene_free(&s);
}

// Large enough for many scheduling blocks and the parallel paths.
static void test_deterministic_across_threads(void **state) {
    (void)state;
    scene s = random_soup(2500, 9);
    double *x1 = displaced(&s, 0.01);
    ipcc_candidates ref[2] = {{0}}, c = {0};
    for (int threads = 1; threads <= 3; ++threads) {
        omp_set_num_threads(threads);
        for (int sweep = 0; sweep < 2; ++sweep) {
            ipcc_broad_phase *bp = ipcc_broad_phase_create();
            ipcc_candidates *out = threads == 1 ? &ref[sweep] : &c;
            query_ok(bp, &s, s.x, sweep ? x1 : NULL, 0.01, ALL, out);
            if (threads == 1) {
                assert_true(out->num_vf > 1000 && out->num_ee > 1000 && out->num_ef > 1000);
                check_equals_brute_force(&s, out, s.x, sweep ? x1 : NULL, 0.01, ALL, NULL);
            } else {
                lists_equal(&c, &ref[sweep]);
            }
            // Reuse: the same result, and no allocation in bp or `out` once
            // grown, also after a smaller query in between.
            ipcc_candidates again = {0};
            query_ok(bp, &s, s.x, sweep ? x1 : NULL, 0.01, ALL, &again);
            int *vf = out->vf, *ee = out->ee, *ef = out->ef, cap = out->cap_vf + out->cap_ee + out->cap_ef;
            ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(bp);
            query_ok(bp, &s, s.x, sweep ? x1 : NULL, 0.001, ALL, out);
            assert_true(out->num_vf < again.num_vf && out->num_ee < again.num_ee);
            query_ok(bp, &s, s.x, sweep ? x1 : NULL, 0.01, ALL, out);
            assert_int_equal(ipcc_broad_phase_get_stats(bp).allocations, st.allocations);
            assert_int_equal(ipcc_broad_phase_get_stats(bp).bytes, st.bytes);
            assert_ptr_equal(out->vf, vf);
            assert_ptr_equal(out->ee, ee);
            assert_ptr_equal(out->ef, ef);
            assert_int_equal(out->cap_vf + out->cap_ee + out->cap_ef, cap);
            lists_equal(&again, out);
            ipcc_candidates_free(&again);
            ipcc_broad_phase_destroy(bp);
        }
    }
    omp_set_num_threads(1);
    ipcc_candidates_free(&ref[0]);
    ipcc_candidates_free(&ref[1]);
    ipcc_candidates_free(&c);
    free(x1);
    scene_free(&s);
}

// A persistent object over a sequence with refits and a policy rebuild, big
// enough for the refit's tasks (trees of >= 4096 primitives): the lists of a
// fresh object, and the same lists, tree counters and tree quality (the
// policy's input) for 1, 2 and 3 threads.
static void test_refit_deterministic_across_threads(void **state) {
    (void)state;
    enum { STEPS = 5 };
    scene s = random_soup(5000, 12);
    size_t n3 = 3 * (size_t)s.nv;
    for (size_t i = 0; i < n3; ++i) // spread out: fewer pairs, same sizes
        s.x[i] *= 3;
    double *pos = malloc(sizeof(double) * n3 * (STEPS + 1));
    memcpy(pos, s.x, sizeof(double) * n3);
    for (int k = 0; k < STEPS; ++k) // step 3 is large, and not swept (its boxes would span everything)
        move_groups(&s, pos + n3 * k, k == 3 ? 3.14159 : 0.01, k == 3 ? 0.5 : 0.01, 0.002,
                    pos + n3 * (k + 1));
    ipcc_candidates ref[2 * STEPS] = {{0}}, c = {0};
    ipcc_broad_phase_stats first[2 * STEPS] = {{0}}; // after each query, one thread
    for (int threads = 1; threads <= 3; ++threads) {
        omp_set_num_threads(threads);
        ipcc_broad_phase *bp = ipcc_broad_phase_create();
        for (int q = 0; q < 2 * STEPS; ++q) {
            int k = q / 2;
            if (q == 7) continue;
            const double *x0 = pos + n3 * k, *x1 = q % 2 ? pos + n3 * (k + 1) : NULL;
            double inflation = 0.005 * (1 + k % 3);
            if (threads == 1) {
                query_ok(bp, &s, x0, x1, inflation, ALL, &ref[q]);
                fresh_query(&s, x0, x1, inflation, ALL, &c);
                lists_equal(&c, &ref[q]);
                first[q] = ipcc_broad_phase_get_stats(bp);
            } else {
                query_ok(bp, &s, x0, x1, inflation, ALL, &c);
                lists_equal(&c, &ref[q]);
                ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(bp);
                assert_int_equal(st.tree_builds, first[q].tree_builds);
                assert_int_equal(st.tree_refits, first[q].tree_refits);
                assert_int_equal(st.tree_rejected_refits, first[q].tree_rejected_refits);
                assert_memory_equal(&st.tree_quality, &first[q].tree_quality, sizeof(double));
            }
        }
        ipcc_broad_phase_stats st = ipcc_broad_phase_get_stats(bp);
        if (threads == 1) {
            assert_true(st.tree_refits >= 10 && st.tree_rejected_refits >= 2);
            assert_true(ref[0].num_vf > 1000 && ref[0].num_ee > 1000 && ref[0].num_ef > 1000);
        }
        ipcc_broad_phase_destroy(bp);
    }
    omp_set_num_threads(1);
    for (int q = 0; q < 2 * STEPS; ++q)
        ipcc_candidates_free(&ref[q]);
    ipcc_candidates_free(&c);
    free(pos);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_soups_match_brute_force),
        cmocka_unit_test(test_sphere_clusters_filters),
        cmocka_unit_test(test_sweep_contains_sampled_times),
        cmocka_unit_test(test_exact_contacts),
        cmocka_unit_test(test_huge_and_tiny_coordinates),
        cmocka_unit_test(test_empty_inputs),
        cmocka_unit_test(test_coincident_and_degenerate),
        cmocka_unit_test(test_deterministic_across_threads),
        cmocka_unit_test(test_refit_sequence_matches_fresh),
        cmocka_unit_test(test_refit_detects_topology_change),
        cmocka_unit_test(test_refit_deterministic_across_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
