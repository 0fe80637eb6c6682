// The candidate cache (candidate_cache.c) returns what the broad phase
// returns, in the same order, less pairs whose primitives are farther
// apart than the inflation at the query's positions (its superset drops
// pairs out of reach: "Near pairs"), over sequences of queries that drift
// (answered from the superset), jump (answered by the trees, no new
// superset) and move within the skin from a new place (a new superset):
// static and swept, on two wavy sheets a fraction of d-hat apart (one
// self-colliding, one not, one kinematic in a variant), with neighbours'
// boxes overlapping everywhere. Both paths must run, and pairs must be
// dropped.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "broad_phase/candidate_cache.h"
#include "geometry/distance.h"

enum { N = 14 }; // vertices per sheet side

typedef struct sheets {
    int nv, ne, nf;
    double x[3 * 2 * N * N];
    int group[2 * N * N];
    int edges[2 * 2 * 3 * (N - 1) * (N - 1) + 4 * 2 * (N - 1)];
    int faces[3 * 2 * 2 * (N - 1) * (N - 1)];
    unsigned char self[2], kin[2];
} sheets;

static unsigned long long rng_state;
static double uniform(void) { // in [-1, 1)
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

// Two N x N sheets of spacing 1/N over [0, 1]^2, wavy, 0.002 apart in y;
// each cell split into two triangles; its three edges (the diagonal and the
// cell's lower and left sides, then the outer sides).
static void make_sheets(sheets *s, bool kinematic) {
    memset(s, 0, sizeof *s);
    s->nv = 2 * N * N;
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) {
                int v = g * N * N + i * N + j;
                double u = (double)i / (N - 1), w = (double)j / (N - 1);
                s->x[3 * v] = u;
                s->x[3 * v + 1] = 0.002 * g + 0.01 * sin(6 * u) * cos(5 * w);
                s->x[3 * v + 2] = w;
                s->group[v] = g;
            }
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i + 1 < N; ++i)
            for (int j = 0; j + 1 < N; ++j) {
                int a = g * N * N + i * N + j, b = a + N, c = a + N + 1, d = a + 1;
                int *f = s->faces + 3 * s->nf;
                f[0] = a, f[1] = b, f[2] = c, f[3] = a, f[4] = c, f[5] = d;
                s->nf += 2;
                int *e = s->edges + 2 * s->ne;
                e[0] = a, e[1] = c, e[2] = a, e[3] = b, e[4] = a, e[5] = d;
                s->ne += 3;
            }
    for (int g = 0; g < 2; ++g)
        for (int k = 0; k + 1 < N; ++k) {
            int top = g * N * N + (N - 1) * N + k, right = g * N * N + k * N + N - 1;
            int *e = s->edges + 2 * s->ne;
            e[0] = top, e[1] = top + 1, e[2] = right, e[3] = right + N;
            s->ne += 2;
        }
    s->self[0] = 1, s->self[1] = 0;
    s->kin[0] = 0, s->kin[1] = kinematic;
}

static ipcc_collision_topology topology(const sheets *s) {
    return (ipcc_collision_topology){.num_vertices = s->nv,
                                     .vertex_group = s->group,
                                     .num_edges = s->ne,
                                     .edges = s->edges,
                                     .num_faces = s->nf,
                                     .faces = s->faces,
                                     .num_groups = 2,
                                     .group_self_collision = s->self,
                                     .group_kinematic = s->kin};
}

// The distance between pair (a, b)'s primitives at x (a vertex and a face,
// or two edges).
static double pair_distance(const sheets *s, const double *x, bool vf, int a, int b) {
    if (vf) {
        const int *f = s->faces + 3 * b;
        const double *p = x + 3 * a, *t0 = x + 3 * f[0], *t1 = x + 3 * f[1], *t2 = x + 3 * f[2];
        return sqrt(
            ipcc_point_triangle_distance(p, t0, t1, t2, ipcc_point_triangle_distance_type_of(p, t0, t1, t2)));
    }
    const int *ea = s->edges + 2 * a, *eb = s->edges + 2 * b;
    const double *a0 = x + 3 * ea[0], *a1 = x + 3 * ea[1], *b0 = x + 3 * eb[0], *b1 = x + 3 * eb[1];
    return sqrt(ipcc_edge_edge_distance(a0, a1, b0, b1, ipcc_edge_edge_distance_type_of(a0, a1, b0, b1)));
}

// got is want in want's order less pairs farther apart than `inflation` at
// x0 and at x1 (when swept); returns how many were dropped.
static int assert_sublist(const sheets *s, const double *x0, const double *x1, double inflation, bool vf,
                          const int *got, int ngot, const int *want, int nwant) {
    int i = 0, dropped = 0;
    for (int j = 0; j < nwant; ++j) {
        if (i < ngot && got[2 * i] == want[2 * j] && got[2 * i + 1] == want[2 * j + 1]) {
            ++i;
            continue;
        }
        double d0 = pair_distance(s, x0, vf, want[2 * j], want[2 * j + 1]);
        double d1 = x1 ? pair_distance(s, x1, vf, want[2 * j], want[2 * j + 1]) : d0;
        if (!(d0 > inflation && d1 > inflation))
            fail_msg("%s pair (%d, %d) dropped at distances %g and %g, within the inflation %g",
                     vf ? "VF" : "EE", want[2 * j], want[2 * j + 1], d0, d1, inflation);
        ++dropped;
    }
    assert_int_equal(i, ngot); // every pair returned is the broad phase's, in its order
    return dropped;
}

// x += amplitude * uniform noise, per coordinate.
static void jiggle(double *x, int m, double amplitude) {
    for (int k = 0; k < m; ++k)
        x[k] += amplitude * uniform();
}

static void run_sequence(bool kinematic) {
    sheets s;
    make_sheets(&s, kinematic);
    ipcc_collision_topology topo = topology(&s);
    const int m = 3 * s.nv, kinds = IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE;
    const double dhat = 0.003, skin = dhat;
    ipcc_broad_phase *cached_bp = ipcc_broad_phase_create(), *fresh_bp = ipcc_broad_phase_create();
    assert_non_null(cached_bp);
    assert_non_null(fresh_bp);
    ipcc_candidate_cache cc = {0};
    ipcc_candidates got = {0}, want = {0};
    double *x0 = malloc(sizeof(double) * (size_t)m), *x1 = malloc(sizeof(double) * (size_t)m);
    assert_non_null(x0);
    assert_non_null(x1);
    memcpy(x0, s.x, sizeof(double) * (size_t)m);
    rng_state = kinematic ? 7 : 11;
    long pairs = 0, dropped = 0;
    for (int q = 0; q < 200; ++q) {
        // Mostly drift well within the skin, sometimes a jump past it,
        // sometimes a sweep, sometimes a sweep too long for a superset.
        int what = q % 10;
        jiggle(x0, m, what == 9 ? 2 * skin : 0.02 * skin);
        const double *sweep = NULL;
        if (what == 3 || what == 6 || what == 8) {
            memcpy(x1, x0, sizeof(double) * (size_t)m);
            jiggle(x1, m, what == 8 ? 3 * skin : 0.1 * skin);
            sweep = x1;
        }
        assert_int_equal(
            ipcc_candidate_cache_query(&cc, cached_bp, &topo, x0, sweep, dhat, kinds, skin, &got), IPCC_OK);
        assert_int_equal(ipcc_broad_phase_query(fresh_bp, &topo, x0, sweep, dhat, kinds, &want), IPCC_OK);
        dropped += assert_sublist(&s, x0, sweep, dhat, true, got.vf, got.num_vf, want.vf, want.num_vf);
        dropped += assert_sublist(&s, x0, sweep, dhat, false, got.ee, got.num_ee, want.ee, want.num_ee);
        pairs += want.num_vf + want.num_ee;
    }
    print_message("%s: %ld hits, %ld misses, %.0f pairs a query, %.0f of them dropped out of reach\n",
                  kinematic ? "kinematic" : "deformable", cc.hits, cc.misses, pairs / 200.0, dropped / 200.0);
    assert_true(cc.hits > 100 && cc.misses > 10); // both paths ran
    assert_true(pairs > 200 * 100);               // and had pairs to find
    assert_true(dropped > 200 * 10);              // some out of reach
    ipcc_candidate_cache_free(&cc);
    ipcc_candidates_free(&got);
    ipcc_candidates_free(&want);
    ipcc_broad_phase_destroy(cached_bp);
    ipcc_broad_phase_destroy(fresh_bp);
    free(x0);
    free(x1);
}

static void test_same_list_as_the_broad_phase(void **state) {
    (void)state;
    run_sequence(false);
    run_sequence(true);
}

// A different query (inflation, kinds or skin) is never answered from a
// superset taken for another.
static void test_other_queries_miss(void **state) {
    (void)state;
    sheets s;
    make_sheets(&s, false);
    ipcc_collision_topology topo = topology(&s);
    ipcc_broad_phase *bp = ipcc_broad_phase_create(), *fresh = ipcc_broad_phase_create();
    ipcc_candidate_cache cc = {0};
    ipcc_candidates got = {0}, want = {0};
    const int vfee = IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE;
    assert_int_equal(ipcc_candidate_cache_query(&cc, bp, &topo, s.x, NULL, 0.003, vfee, 0.003, &got),
                     IPCC_OK);
    assert_int_equal(cc.misses, 1);
    const double inflation[3] = {0.006, 0.003, 0.003}, skins[3] = {0.003, 0.003, 0.001};
    const int kinds[3] = {vfee, IPCC_CANDIDATES_VF, vfee};
    for (int k = 0; k < 3; ++k) {
        long misses = cc.misses;
        assert_int_equal(
            ipcc_candidate_cache_query(&cc, bp, &topo, s.x, NULL, inflation[k], kinds[k], skins[k], &got),
            IPCC_OK);
        assert_int_equal(cc.misses, misses + 1);
        assert_int_equal(ipcc_broad_phase_query(fresh, &topo, s.x, NULL, inflation[k], kinds[k], &want),
                         IPCC_OK);
        assert_sublist(&s, s.x, NULL, inflation[k], true, got.vf, got.num_vf, want.vf, want.num_vf);
        assert_sublist(&s, s.x, NULL, inflation[k], false, got.ee, got.num_ee, want.ee, want.num_ee);
    }
    ipcc_candidate_cache_free(&cc);
    ipcc_candidates_free(&got);
    ipcc_candidates_free(&want);
    ipcc_broad_phase_destroy(bp);
    ipcc_broad_phase_destroy(fresh);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_list_as_the_broad_phase),
        cmocka_unit_test(test_other_queries_miss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
