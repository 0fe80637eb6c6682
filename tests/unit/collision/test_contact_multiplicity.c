// The barrier of a point against a triangulated surface is the barrier of
// its distance to the surface, not one per triangle, edge or vertex within
// reach (src/collision/contact_multiplicity.c): exact values over a flat mesh, at
// convex edges and corners, and in a concave valley (where a key counts
// -1), continuity along paths over every kind of feature, and the flat
// features of obstacles (no point or edge-edge terms of their own), against
// a convex obstacle ridge that keeps its edge-edge term.
//
// The probe is a point-set obstacle (one vertex, no edge or face), so the
// only terms are those of the point against the body's surface; kappa = 1,
// so ipcc_contact_energy is the barrier sum itself.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/barrier.h"
#include "collision/constraint_set.h"
#include "contact/contact.h"
#include "support.h"
#include "world_checks.h"
#include "world/world.h"

static const double dhat = 0.01;

static ipcc_world *new_world(void) {
    ipcc_world_def def = ipcc_default_world_def();
    def.gravity[1] = 0;
    def.contact.dhat = dhat;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&def, &w), IPCC_OK);
    return w;
}

static void add_body(ipcc_world *w, const ipcc_mesh *m) {
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = m;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
}

// A segment-set obstacle of nv points x and ns segments seg; the world
// index of its first vertex.
static int add_segments(ipcc_world *w, int nv, const double *x, int ns, const int *seg, const char *name) {
    int index = w->n;
    ipcc_trimesh *m = NULL;
    assert_int_equal(ipcc_trimesh_create_segments(nv, x, ns, seg, name, &m), IPCC_OK);
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    od.mesh = m;
    assert_int_equal(ipcc_world_add_obstacle(w, &od, NULL), IPCC_OK);
    ipcc_trimesh_destroy(m);
    return index;
}

// A point-set obstacle at p; its vertex index in the world.
static int add_probe(ipcc_world *w, const double p[3]) { return add_segments(w, 1, p, 0, NULL, "probe"); }

static ipcc_contact *new_contact(ipcc_world *w) {
    ipcc_contact *c = NULL;
    if (ipcc_world_create_contact(w, &c) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    ipcc_contact_set_kappa(c, 1.0);
    return c;
}

// The barrier sum at the world's state, with candidates searched there.
static double energy(ipcc_contact *c, ipcc_world *w) {
    const ipcc_contact_info *info = NULL;
    const ipcc_step_context sc = ipcc_world_step_context(w);
    int count = 0;
    double e = NAN;
    assert_int_equal(ipcc_contact_active(c, &sc, w->x, &info, &count), IPCC_OK);
    assert_int_equal(ipcc_contact_energy(c, &sc, w->x, &e), IPCC_OK);
    return e;
}

static double b(double d) { return ipcc_barrier(d * d, dhat * dhat); }

static void move(ipcc_world *w, int probe, double x, double y, double z) {
    w->x[3 * probe] = x;
    w->x[3 * probe + 1] = y;
    w->x[3 * probe + 2] = z;
}

// A body (owned) and a point probe at p, with its contact state.
typedef struct rig {
    ipcc_world *w;
    ipcc_mesh *m;
    ipcc_contact *c;
    int probe;
} rig;

static rig rig_open(ipcc_mesh *m, const double p[3]) {
    rig r = {.w = new_world(), .m = m};
    add_body(r.w, m);
    r.probe = add_probe(r.w, p);
    r.c = new_contact(r.w);
    return r;
}

static void rig_close(rig *r) {
    ipcc_contact_destroy(r->c);
    ipcc_world_destroy(r->w);
    ipcc_mesh_destroy(r->m);
}

// Consecutive energies along a path: fails on a relative change above 10 %.
typedef struct path_check {
    double prev, worst;
    int samples;
} path_check;

static void path_sample(path_check *pc, double e, const char *what) {
    assert_true(isfinite(e) && e >= 0);
    if (pc->samples > 0 && (e > 0 || pc->prev > 0)) {
        double jump = fabs(e - pc->prev) / fmax(e, pc->prev);
        pc->worst = fmax(pc->worst, jump);
        if (jump > 0.1) fail_msg("%s, sample %d: energy %.6g after %.6g", what, pc->samples, e, pc->prev);
    }
    pc->prev = e;
    pc->samples++;
}

// A 5 x 1 x 5 box [0, 1] x [0, 0.2] x [0, 1]: its top is a flat mesh of
// 50 triangles with internal edges and vertices every 0.2 m.
static ipcc_mesh *slab(void) { return ipcc_test_box_mesh(5, 1, 5, 1.0, 0.2, 1.0); }

// Over the flat top, anywhere (inside triangles, over internal edges and
// diagonals, over internal vertices), the point feels b(h) once.
static void test_flat_mesh_is_one_barrier(void **state) {
    (void)state;
    const double p0[3] = {0.5, 0.5, 0.5};
    rig r = rig_open(slab(), p0);
    ipcc_test_seed(3);
    int checked = 0;
    double worst = 0;
    for (int k = 0; k < 600; ++k) {
        double x = ipcc_test_random(0.1, 0.9), z = ipcc_test_random(0.1, 0.9);
        double h = ipcc_test_random(1e-3, 0.95) * dhat;
        switch (k % 4) {
        case 1: x = 0.2 * (1 + k % 4); break;                        // over an edge along z
        case 2: x = 0.2 * (1 + k % 3), z = 0.2 * (1 + k % 4); break; // over a vertex
        case 3: z = x + 0.2 * ((k / 4) % 3 - 1); break;              // over or near a diagonal
        }
        if (z < 0.05 || z > 0.95) continue;
        move(r.w, r.probe, x, 0.2 + h, z);
        double e = energy(r.c, r.w), want = b(h);
        worst = fmax(worst, fabs(e / want - 1));
        assert_near(e, want, 1e-9 * want, 0);
        checked++;
    }
    print_message("flat mesh: %d placements, largest relative error %.2g\n", checked, worst);
    assert_true(checked > 500);
    rig_close(&r);
}

// Beyond a convex edge or corner of the box: b of the distance to it.
static void test_convex_edge_and_corner(void **state) {
    (void)state;
    const double p0[3] = {0.5, 0.5, 0.5};
    rig r = rig_open(slab(), p0);
    ipcc_test_seed(4);
    for (int k = 0; k < 300; ++k) {
        double dir[3] = {ipcc_test_random(0.05, 1), ipcc_test_random(0.05, 1), ipcc_test_random(0.05, 1)};
        bool corner = k % 2;
        if (!corner) dir[2] = 0;
        double rad = ipcc_test_random(0.02, 0.95) * dhat,
               len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        // The edge x = 1, y = 0.2 (at z = 0.4, a vertex on it, or 0.5, inside a segment), or the corner (1,
        // 0.2, 1).
        double z0 = corner ? 1.0 : (k % 4 == 0 ? 0.4 : 0.5);
        move(r.w, r.probe, 1 + rad * dir[0] / len, 0.2 + rad * dir[1] / len, z0 + rad * dir[2] / len);
        double e = energy(r.c, r.w);
        assert_near(e, b(rad), 1e-9 * b(rad), 0);
    }
    rig_close(&r);
}

// An L-shaped body: the box [0, 2] x [0, 2] x [0, 1] in cells of 0.5 m
// without its quarter x > 1, y > 1, so the line x = y = 1 is a concave edge
// (with an internal vertex at z = 0.5).
static ipcc_mesh *l_shape(void) {
    ipcc_mesh *box = ipcc_test_box_mesh(4, 4, 2, 2.0, 2.0, 1.0);
    int nt = 0, nv = 0;
    int *tets = malloc(sizeof(int) * 4 * (size_t)box->num_tets),
        *map = malloc(sizeof(int) * (size_t)box->num_vertices);
    double *v = malloc(sizeof(double) * 3 * (size_t)box->num_vertices);
    for (int i = 0; i < box->num_vertices; ++i)
        map[i] = -1;
    for (int t = 0; t < box->num_tets; ++t) {
        double cx = 0, cy = 0;
        for (int j = 0; j < 4; ++j) {
            cx += box->vertices[3 * box->tets[4 * t + j]] / 4;
            cy += box->vertices[3 * box->tets[4 * t + j] + 1] / 4;
        }
        if (cx > 1 && cy > 1) continue;
        for (int j = 0; j < 4; ++j) {
            int i = box->tets[4 * t + j];
            if (map[i] < 0) {
                memcpy(v + 3 * nv, box->vertices + 3 * i, 3 * sizeof(double));
                map[i] = nv++;
            }
            tets[4 * nt + j] = map[i];
        }
        nt++;
    }
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(v, nv, tets, nt, "L", NULL, &m), IPCC_OK);
    free(tets);
    free(map);
    free(v);
    ipcc_mesh_destroy(box);
    return m;
}

// In the concave valley at distances a from the face x = 1 and c from the
// face y = 1: b(a) + b(c) - b(sqrt(a^2 + c^2)), the edge counting -1.
static void test_concave_valley(void **state) {
    (void)state;
    const double p0[3] = {1.5, 1.5, 0.5};
    rig r = rig_open(l_shape(), p0);
    ipcc_test_seed(6);
    for (int k = 0; k < 300; ++k) {
        double a = ipcc_test_random(0.02, 0.95) * dhat, cc = ipcc_test_random(0.02, 0.95) * dhat;
        move(r.w, r.probe, 1 + a, 1 + cc, k % 5 == 0 ? 0.5 : ipcc_test_random(0.1, 0.9));
        double e = energy(r.c, r.w), want = b(a) + b(cc) - b(sqrt(a * a + cc * cc));
        assert_near(e, want, 1e-9 * want, 0);
    }
    rig_close(&r);
}

// Along paths at a constant height over the L's flat top (across edges,
// diagonals and vertices), around its convex edge and through its concave
// valley, the energy never jumps: consecutive samples 2e-5 m apart differ
// by less than 10 % (about 2 % is the smooth change at that spacing; a term
// that appeared or vanished would change it by b(d), a third of the energy
// or more).
static void test_energy_is_continuous(void **state) {
    (void)state;
    const double p0[3] = {1.5, 1.5, 0.5};
    rig r = rig_open(l_shape(), p0);
    // Paths: (start, end) pairs.
    const double paths[][6] = {
        {1.4, 1.003, 0.4, 1.6, 1.004, 0.6},     // over the right arm's top y = 1: edges, a diagonal, a vertex
        {1.006, 1.1, 0.45, 1.006, 1.004, 0.55}, // down the face x = 1 into the valley
        {1.009, 1.002, 0.3, 1.002, 1.009, 0.7}, // across the valley
        {1.004, 1.005, 0.45, 1.004, 1.005, 0.55},  // along the valley, over its internal vertex
        {1.004, 1.005, 0.95, 1.004, 1.005, 1.006}, // out past the valley's end at z = 1
        {1.9, 1.005, 0.45, 2.004, 1.005, 0.55},    // over the top, around the convex edge x = 2
    };
    path_check pc = {0};
    char what[32];
    for (size_t k = 0; k < sizeof paths / sizeof *paths; ++k) {
        const double *s = paths[k];
        double len = sqrt((s[3] - s[0]) * (s[3] - s[0]) + (s[4] - s[1]) * (s[4] - s[1]) +
                          (s[5] - s[2]) * (s[5] - s[2]));
        int n = (int)(len / 2e-5);
        snprintf(what, sizeof what, "path %zu", k);
        pc.samples = 0;
        for (int i = 0; i <= n; ++i) {
            double t = (double)i / n;
            move(r.w, r.probe, s[0] + t * (s[3] - s[0]), s[1] + t * (s[4] - s[1]), s[2] + t * (s[5] - s[2]));
            path_sample(&pc, energy(r.c, r.w), what);
        }
    }
    print_message("continuity: largest relative change between neighbours %.3g\n", pc.worst);
    rig_close(&r);
}

// A flat triangulated obstacle: its internal vertices are not points and
// its internal edges have no edge-edge terms, so a tet vertex at height h
// feels b(h), and a tet lying with an edge at height h across several of
// the plane's edges feels 2 b(h) (its two end vertices), nothing more.
// A convex obstacle ridge keeps its edge-edge term.
static ipcc_trimesh *grid(int n, double size) {
    int nv = (n + 1) * (n + 1);
    double *v = malloc(sizeof(double) * 3 * (size_t)nv);
    int *f = malloc(sizeof(int) * 6 * (size_t)(n * n));
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
            double *p = v + 3 * (j * (n + 1) + i);
            p[0] = size * i / n - size / 2;
            p[1] = 0;
            p[2] = size * j / n - size / 2;
        }
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int a = j * (n + 1) + i, bb = a + 1, cc = a + n + 1, d = cc + 1, *t = f + 6 * (j * n + i);
            int tri[6] = {a, cc, d, a, d, bb};
            memcpy(t, tri, sizeof tri);
        }
    ipcc_trimesh *m = NULL;
    assert_int_equal(ipcc_trimesh_create(nv, v, 2 * n * n, f, "grid", &m), IPCC_OK);
    free(v);
    free(f);
    return m;
}

static ipcc_mesh *tet(const double v[12]) {
    int t[4] = {0, 1, 2, 3};
    ipcc_mesh *m = NULL;
    assert_int_equal(ipcc_mesh_create(v, 4, t, 1, "tet", NULL, &m), IPCC_OK);
    return m;
}

static double obstacle_energy(const ipcc_trimesh *obstacle, const double tv[12]) {
    ipcc_world *w = new_world();
    ipcc_mesh *m = tet(tv);
    add_body(w, m);
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    od.mesh = obstacle;
    assert_int_equal(ipcc_world_add_obstacle(w, &od, NULL), IPCC_OK);
    ipcc_contact *c = new_contact(w);
    double e = energy(c, w);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(m);
    return e;
}

static void test_flat_obstacle_features(void **state) {
    (void)state;
    ipcc_trimesh *plane = grid(10, 1.0); // cells of 0.1 m
    double h = 0.003;
    // A vertex at height h over an internal vertex, then over an internal edge.
    double point_down[12] = {0.1, h, 0.1, 0.05, 0.3, 0.05, 0.2, 0.3, 0.05, 0.1, 0.3, 0.2};
    assert_near(obstacle_energy(plane, point_down), b(h), 1e-9 * b(h), 0);
    point_down[0] = 0.137;
    assert_near(obstacle_energy(plane, point_down), b(h), 1e-9 * b(h), 0);
    // An edge at height h from (-0.23, -0.17) to (0.21, 0.19) in (x, z): it crosses many plane edges.
    double edge_down[12] = {-0.23, h, -0.17, 0.21, h, 0.19, 0, 0.3, 0.1, 0.05, 0.3, -0.1};
    double e = obstacle_energy(plane, edge_down);
    print_message("tet edge over the flat grid: energy %.6g, two end vertices %.6g\n", e, 2 * b(h));
    assert_near(e, 2 * b(h), 1e-9 * b(h), 0);
    ipcc_trimesh_destroy(plane);
    // A roof whose ridge x = y = 0 (along z) is convex: an edge across it at
    // height h, whose ends are far from the roof, feels the edge-edge b(h).
    const double rv[18] = {-1, -1, -1, 0, 0, -1, 1, -1, -1, -1, -1, 1, 0, 0, 1, 1, -1, 1};
    const int rf[12] = {0, 4, 1, 0, 3, 4, 1, 4, 5, 1, 5, 2};
    ipcc_trimesh *roof = NULL;
    assert_int_equal(ipcc_trimesh_create(6, rv, 4, rf, "roof", &roof), IPCC_OK);
    double across[12] = {-0.5, h, 0.0, 0.5, h, 0.0, 0, 0.5, 0.3, 0, 0.5, -0.3};
    e = obstacle_energy(roof, across);
    print_message("tet edge across a convex ridge: energy %.6g, edge-edge b(h) %.6g\n", e, b(h));
    assert_near(e, b(h), 1e-9 * b(h), 0);
    ipcc_trimesh_destroy(roof);
}

// The L (owned) and a bar from x[0..2] to x[3..5] (a segment-set
// obstacle: an edge without faces), with its contact state; probe is the
// bar's first vertex.
static rig bar_rig_open(const double x[6]) {
    const int seg[2] = {0, 1};
    rig r = {.w = new_world(), .m = l_shape()};
    add_body(r.w, r.m);
    r.probe = add_segments(r.w, 2, x, 1, seg, "bar");
    r.c = new_contact(r.w);
    return r;
}

// A segment (a segment-set obstacle: an edge without faces) sliding low
// over the L's top and around its convex edge: its edge-edge terms with the
// body's edges switch to point-edge and point-point ones as its closest
// points reach an end; the 1-skeletons' inclusion-exclusion
// (contact_multiplicity.c, (2)) keeps the energy continuous there too.
// The bar crosses the grid's edges, or (parallel) lies exactly over and
// along the grid line z = 0.5, parallel to the body's edges there, whose
// edge-edge terms then have no unique closest points (that the
// classification of such pairs does not depend on which edge comes first
// is test_edge_pair.c's test_edge_pair_type_is_symmetric).
static void bar_path(bool parallel) {
    const char *what = parallel ? "parallel bar" : "bar";
    const double x[6] = {1.2, 1.5, 0.3, 1.5, 1.5, 0.4};
    rig r = bar_rig_open(x);
    ipcc_world *w = r.w;
    ipcc_contact *c = r.c;
    int first = r.probe;
    // The bar from (x, 1 + 0.003, 0.35) to (x + 0.3, 1 + 0.006, 0.42), x from 1.05 to 1.75: over the
    // internal edges x = 1.5 and the diagonals, its upper end beyond the convex edge x = 2 at the end.
    int n = (int)(0.7 / 2e-5);
    double emax = 0;
    path_check pc = {0};
    for (int i = 0; i <= n; ++i) {
        double x0 = 1.05 + 0.7 * i / n;
        double *p = w->x + 3 * first;
        p[0] = x0, p[1] = 1.003, p[2] = parallel ? 0.5 : 0.35;
        p[3] = x0 + 0.3, p[4] = parallel ? 1.003 : 1.006, p[5] = parallel ? 0.5 : 0.42;
        double e = energy(c, w);
        emax = fmax(emax, e);
        path_sample(&pc, e, what);
    }
    print_message("%s: %d samples, largest energy %.3g, largest relative change between neighbours %.3g\n",
                  what, n, emax, pc.worst);
    assert_true(emax > 0);
    rig_close(&r);
}

static void test_edge_terms_are_continuous(void **state) {
    (void)state;
    bar_path(false);
    bar_path(true);
}

// A bar lying exactly over the grid line z = 0.5 of the L's top (y = 1),
// across the grid vertex x = 1.5, tilted by theta about the horizontal axis
// through its middle. Against each grid edge it overlaps, the segment
// distance is the least of its ends' distances, and which end is closest
// changes at theta = 0: b of it has a kink there (its slope jumps by about
// |b'(d)| 2 h l, h the height, l the bar's half-length), on both edges at
// once. Nearly parallel pairs have their own C1 term (parallel_edges.c),
// so the total energy's one-sided slopes at theta = 0 agree.
static double tilted_bar_energy(ipcc_contact *c, ipcc_world *w, int first, double theta) {
    double *p = w->x + 3 * first;
    p[0] = 1.5 - 0.2 * cos(theta), p[1] = 1.003 - 0.2 * sin(theta), p[2] = 0.5;
    p[3] = 1.5 + 0.2 * cos(theta), p[4] = 1.003 + 0.2 * sin(theta), p[5] = 0.5;
    return energy(c, w);
}

static void test_parallel_edges_are_smooth(void **state) {
    (void)state;
    const double x[6] = {1.3, 1.003, 0.5, 1.7, 1.003, 0.5};
    rig r = bar_rig_open(x);
    ipcc_world *w = r.w;
    ipcc_contact *c = r.c;
    int first = r.probe;
    const double h = 1e-7;
    double e0 = tilted_bar_energy(c, w, first, 0), ef = tilted_bar_energy(c, w, first, h),
           eb = tilted_bar_energy(c, w, first, -h);
    double fwd = (ef - e0) / h, bwd = (e0 - eb) / h;
    double kink = fabs(ipcc_barrier_first_derivative(0.003 * 0.003, dhat * dhat)) * 2 * 0.003 * 0.2;
    print_message("tilted bar: energy %.6g, slopes %.4g | %.4g, a kink's jump %.4g\n", e0, bwd, fwd, kink);
    assert_true(e0 > 0 && isfinite(e0));
    assert_true(fabs(fwd - bwd) <= 1e-3 * kink);
    rig_close(&r);
}

// Self-contact: a vertex u of the slab's top, folded over to hover above
// the top near vertex w, two grid steps away along x, so that u and w share
// the neighbour x between them. u slides past w's end of the edge b = (x, w):
// b's closest point to u moves from w (key PP u-w) into b's inside (key
// PE u-b). The term of u and b in the 1-skeletons' inclusion-exclusion
// counts 1 - E(u), E(u) the edges at u apart from b; u's edge to x touches
// b, so E(u) must leave it out on both keys, or the energy jumps by b(d)
// where the term changes key (a stall of Newton's line search on the soft
// folding mats of 2_mat40x40s_fall_E1e2).
static int vertex_at(const ipcc_world *w, double x, double y, double z) {
    for (int i = 0; i < w->n; ++i)
        if (fabs(w->x[3 * i] - x) < 1e-12 && fabs(w->x[3 * i + 1] - y) < 1e-12 &&
            fabs(w->x[3 * i + 2] - z) < 1e-12)
            return i;
    fail_msg("no slab vertex at (%g, %g, %g)", x, y, z);
    return -1;
}

static void test_self_contact_terms_are_continuous(void **state) {
    (void)state;
    ipcc_world *w = new_world();
    ipcc_mesh *m = slab();
    add_body(w, m);
    ipcc_contact *c = new_contact(w);
    int u = vertex_at(w, 0.2, 0.2, 0.4);
    (void)vertex_at(w, 0.4, 0.2, 0.4); // x, u's neighbour
    (void)vertex_at(w, 0.6, 0.2, 0.4); // w
    const double h = 0.3 * dhat, off = 0.05 * dhat;
    int n = 4000;
    double emax = 0;
    path_check pc = {0};
    for (int i = 0; i <= n; ++i) {
        double s = 0.4 * dhat * (1 - 2.0 * i / n); // from 0.4 d̂ beyond w to 0.4 d̂ inside b
        move(w, u, 0.6 + s, 0.2 + h, 0.4 + off);
        double e = energy(c, w);
        emax = fmax(emax, e);
        path_sample(&pc, e, "folded vertex past an edge's end");
    }
    print_message("folded vertex: %d samples, largest energy %.3g, largest relative change %.3g\n", n, emax,
                  pc.worst);
    assert_true(emax > 0);
    // Neighbours 8e-6 m apart change the energy by about 5e-5 of itself;
    // one term b(d) appearing where the term changes key changes it by 6 %.
    assert_true(pc.worst < 1e-3);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(m);
}

// A sphere obstacle over the flat top of the (deformable) slab, at a gap h
// and at least 4 cm (horizontally) from every vertex, so that only its
// centre's terms act (sphere-triangle, sphere-edge): b(h) once, with the
// centre over a triangle or over an edge or a diagonal.
static void test_sphere_over_flat_mesh(void **state) {
    (void)state;
    ipcc_world *w = new_world();
    ipcc_mesh *m = slab();
    add_body(w, m);
    ipcc_shape_def sd = ipcc_default_shape_def();
    sd.kind = IPCC_SHAPE_SPHERE;
    sd.size[0] = 0.05;
    sd.center[0] = 0.5, sd.center[1] = 0.5, sd.center[2] = 0.5;
    assert_int_equal(ipcc_world_add_shape(w, &sd, NULL), IPCC_OK);
    assert_int_equal(ipcc_world_start(w), IPCC_OK); // the shapes' poses
    ipcc_contact *c = new_contact(w);
    ipcc_test_seed(8);
    int checked = 0;
    for (int k = 0; k < 400; ++k) {
        double x = ipcc_test_random(0.15, 0.85), z = ipcc_test_random(0.15, 0.85);
        if (k % 3 == 1) x = 0.2 * (1 + k % 3); // over an edge along z
        if (k % 3 == 2) z = x + 0.2 * (k % 2); // over a diagonal, or an edge's parallel
        double gx = fmod(x, 0.2), gz = fmod(z, 0.2);
        gx = fmin(gx, 0.2 - gx), gz = fmin(gz, 0.2 - gz);
        if (gx * gx + gz * gz < 0.04 * 0.04 || z < 0.15 || z > 0.85) continue;
        double h = ipcc_test_random(1e-3, 0.95) * dhat;
        // The current pose and the step's start, from which the contact state takes the pose.
        ipcc_shape *poses[2] = {&w->shape_pose[0], &w->shape_motion[0].start};
        for (int j = 0; j < 2; ++j) {
            poses[j]->center[0] = x;
            poses[j]->center[1] = 0.2 + 0.05 + h;
            poses[j]->center[2] = z;
        }
        double e = energy(c, w);
        assert_near(e, b(h), 1e-9 * b(h), 0);
        checked++;
    }
    print_message("sphere over the flat mesh: %d placements\n", checked);
    assert_true(checked > 150);
    ipcc_contact_destroy(c);
    ipcc_world_destroy(w);
    ipcc_mesh_destroy(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flat_mesh_is_one_barrier),
        cmocka_unit_test(test_convex_edge_and_corner),
        cmocka_unit_test(test_concave_valley),
        cmocka_unit_test(test_energy_is_continuous),
        cmocka_unit_test(test_flat_obstacle_features),
        cmocka_unit_test(test_edge_terms_are_continuous),
        cmocka_unit_test(test_parallel_edges_are_smooth),
        cmocka_unit_test(test_sphere_over_flat_mesh),
        cmocka_unit_test(test_self_contact_terms_are_continuous),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
