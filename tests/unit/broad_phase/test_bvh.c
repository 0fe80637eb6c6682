// The BVH (src/broad_phase/bvh.c) on random triangle soups, static and swept, from a
// few primitives to more than the refit plan's part size (so the plan has
// split nodes): after a build and after a refit the tree has the layout of
// bvh.h (subtree sizes, pre-order, leaves of at most IPCC_BVH_LEAF_SIZE),
// every item holds its primitive's current box, every node's box (and
// geometry box in sweep mode) is exactly the union of its children's (so
// contains them) and its max_id the largest id below it. A walk of a refit
// tree finds exactly the primitives a walk of a fresh tree finds, and a
// brute-force scan. The rebuild policy: a refit is kept exactly while its
// quality is <= the limit (the quality checked against the area ratio
// computed here), limit <= 0 always builds, a changed topology (same boxes)
// or a changed count rebuilds, and a one-off build is followed by a build.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "broad_phase/bvh.h"

// ---------------------------------------------------------------------------
// Scenes

typedef struct soup {
    int nv, nf;
    double *x; // 3 nv
    int *faces;
} soup;

// nf triangles with their own vertices in the unit cube, sizes from 0.005 to
// 0.3 (log-uniform).
static soup random_soup(int nf, unsigned long long seed) {
    ipcc_test_seed(seed);
    soup s = {3 * nf, nf, malloc(sizeof(double) * 9 * (size_t)nf), malloc(sizeof(int) * 3 * (size_t)nf)};
    for (int f = 0; f < nf; ++f) {
        double size = 0.005 * pow(60.0, ipcc_test_random(0, 1)), c[3];
        for (int k = 0; k < 3; ++k)
            c[k] = ipcc_test_random(0, 1);
        for (int i = 0; i < 3; ++i) {
            s.faces[3 * f + i] = 3 * f + i;
            for (int k = 0; k < 3; ++k)
                s.x[9 * f + 3 * i + k] = c[k] + size * ipcc_test_random(-1, 1);
        }
    }
    return s;
}

static void soup_free(soup *s) {
    free(s->x);
    free(s->faces);
    memset(s, 0, sizeof *s);
}

// A copy of s's positions, each vertex moved by up to d per axis.
static double *moved(const soup *s, double d) {
    double *y = malloc(sizeof(double) * 3 * (size_t)s->nv);
    for (int i = 0; i < 3 * s->nv; ++i)
        y[i] = s->x[i] + ipcc_test_random(-d, d);
    return y;
}

// A copy of s's positions, each triangle moved rigidly by up to d per axis:
// the same primitive boxes in new places, so a refit tree gets loose.
static double *shuffled(const soup *s, double d) {
    double *y = malloc(sizeof(double) * 3 * (size_t)s->nv);
    for (int f = 0; f < s->nf; ++f) {
        double t[3] = {ipcc_test_random(-d, d), ipcc_test_random(-d, d), ipcc_test_random(-d, d)};
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k)
                y[9 * f + 3 * i + k] = s->x[9 * f + 3 * i + k] + t[k];
    }
    return y;
}

static ipcc_bvh_source faces_at(const soup *s, const double *x0, const double *x1, double r) {
    ipcc_bvh_source src = {.verts = s->faces, .nvp = 3, .num_vertices = s->nv, .x0 = x0, .x1 = x1, .r = r};
    return src;
}

// Reserve and update t over all of src's primitives; returns ipcc_bvh_update's result.
static int update(ipcc_bvh *t, const ipcc_bvh_source *src, int n, uint64_t hash, double limit) {
    long allocations = 0;
    assert_int_equal(ipcc_bvh_reserve(t, n, src->x1 != NULL, &allocations), 0);
    return ipcc_bvh_update(t, src, n, hash, limit, &allocations);
}

// ---------------------------------------------------------------------------
// The tree's invariants

static void union_box(const ipcc_bvh_box *a, const ipcc_bvh_box *b, ipcc_bvh_box *u) {
    for (int k = 0; k < 3; ++k) {
        u->lo[k] = fmin(a->lo[k], b->lo[k]);
        u->hi[k] = fmax(a->hi[k], b->hi[k]);
    }
}

static bool inside(const ipcc_bvh_box *a, const ipcc_bvh_box *b) {
    for (int k = 0; k < 3; ++k)
        if (!(b->lo[k] <= a->lo[k] && a->hi[k] <= b->hi[k])) return false;
    return true;
}

// The box of primitive id as the source defines it.
static ipcc_bvh_box source_box(const ipcc_bvh_source *src, int id) {
    ipcc_bvh_box b;
    if (src->boxes) return src->boxes[id];
    ipcc_bvh_primitive_box(src->verts + src->nvp * id, src->nvp, src->num_vertices, src->x0, src->x1, src->r,
                           &b);
    return b;
}

// Bounds of primitive id's vertices at x0 (the policy's geometry in sweep mode).
static ipcc_bvh_box x0_box(const ipcc_bvh_source *src, int id) {
    ipcc_bvh_box b;
    const int *v = src->verts + src->nvp * id;
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = b.hi[k] = src->x0[3 * v[0] + k];
        for (int i = 1; i < src->nvp; ++i) {
            b.lo[k] = fmin(b.lo[k], src->x0[3 * v[i] + k]);
            b.hi[k] = fmax(b.hi[k], src->x0[3 * v[i] + k]);
        }
    }
    return b;
}

static int leaves_nodes(int m) { return 2 * ((m + IPCC_BVH_LEAF_SIZE - 1) / IPCC_BVH_LEAF_SIZE) - 1; }

// Check the subtree at node i over items [begin, end); returns the node after it.
static int check_subtree(const ipcc_bvh *t, const ipcc_bvh_source *src, int i, int begin, int end) {
    assert_true(i < t->num_nodes);
    const ipcc_bvh_node *nd = &t->nodes[i];
    ipcc_bvh_box u, g;
    int max_id = -1, next, m = end - begin;
    assert_int_equal(nd->first, begin);
    if (nd->count > 0) {
        assert_int_equal(nd->count, m);
        assert_true(m <= IPCC_BVH_LEAF_SIZE);
        for (int j = begin; j < end; ++j) {
            const ipcc_bvh_item *it = &t->items[j];
            ipcc_bvh_box b = source_box(src, it->id), b0 = x0_box(src, it->id);
            assert_memory_equal(&it->box, &b, sizeof b); // the current box
            assert_true(inside(&it->box, &nd->box));
            if (j == begin) {
                u = it->box;
                g = b0;
            } else {
                union_box(&u, &it->box, &u);
                union_box(&g, &b0, &g);
            }
            max_id = it->id > max_id ? it->id : max_id;
        }
        next = i + 1;
    } else {
        assert_true(m > IPCC_BVH_LEAF_SIZE);
        int right = nd->right, mid = t->nodes[right].first;
        assert_true(begin < mid && mid < end);
        assert_int_equal(check_subtree(t, src, i + 1, begin, mid), right); // pre-order: left subtree first
        next = check_subtree(t, src, right, mid, end);
        const ipcc_bvh_node *l = &t->nodes[i + 1], *r = &t->nodes[right];
        assert_true(inside(&l->box, &nd->box) && inside(&r->box, &nd->box));
        union_box(&l->box, &r->box, &u);
        if (src->x1) union_box(&t->geom[i + 1], &t->geom[right], &g);
        max_id = l->max_id > r->max_id ? l->max_id : r->max_id;
    }
    assert_int_equal(next - i, leaves_nodes(m));
    assert_memory_equal(&nd->box, &u, sizeof u); // exactly the union: no looser than needed
    if (src->x1) assert_memory_equal(&t->geom[i], &g, sizeof g);
    assert_int_equal(nd->max_id, max_id);
    return next;
}

// All of bvh.h's invariants for a tree over primitives [0, n) of src.
static void check_tree(const ipcc_bvh *t, const ipcc_bvh_source *src, int n) {
    assert_int_equal(t->num_items, n);
    assert_int_equal(t->num_nodes, leaves_nodes(n));
    int *seen = calloc((size_t)n, sizeof(int));
    for (int j = 0; j < n; ++j) {
        assert_true(t->items[j].id >= 0 && t->items[j].id < n);
        assert_int_equal(seen[t->items[j].id]++, 0);
    }
    free(seen);
    assert_int_equal(check_subtree(t, src, 0, 0, n), t->num_nodes);
}

// ---------------------------------------------------------------------------
// Walks

static int cmp_int(const void *a, const void *b) {
    int p = *(const int *)a, q = *(const int *)b;
    return (p > q) - (p < q);
}

// The ids of t's primitives whose boxes overlap q, ascending: a walk.
static int walk(const ipcc_bvh *t, const ipcc_bvh_box *q, int *ids) {
    int stack[IPCC_BVH_STACK_SIZE], sp = 0, n = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const ipcc_bvh_node *nd = &t->nodes[stack[--sp]];
        if (!ipcc_bvh_overlap(q, &nd->box)) continue;
        if (nd->count > 0) {
            for (int j = nd->first; j < nd->first + nd->count; ++j)
                if (ipcc_bvh_overlap(q, &t->items[j].box)) ids[n++] = t->items[j].id;
        } else {
            assert_true(sp + 2 <= IPCC_BVH_STACK_SIZE);
            stack[sp++] = nd->right;
            stack[sp++] = (int)(nd - t->nodes) + 1;
        }
    }
    qsort(ids, (size_t)n, sizeof(int), cmp_int);
    return n;
}

// The half surface area of b shrunk by pad per axis (clamped at 0).
static double half_area(const ipcc_bvh_box *b, double pad) {
    double e[3];
    for (int k = 0; k < 3; ++k)
        e[k] = fmax(b->hi[k] - b->lo[k] - pad, 0);
    return e[0] * e[1] + e[1] * e[2] + e[2] * e[0];
}

// Static mode's area ratio (bvh.c, Policy): node areas over item areas, every
// box shrunk by the inflation 2 r.
static double area_ratio(const ipcc_bvh *t, double r) {
    double nodes = 0, items = 0;
    for (int i = 0; i < t->num_nodes; ++i)
        nodes += half_area(&t->nodes[i].box, 2 * r);
    for (int j = 0; j < t->num_items; ++j)
        items += half_area(&t->items[j].box, 2 * r);
    return nodes / items;
}

// ---------------------------------------------------------------------------
// Tests

// The invariants after a build and after refits (small motion, then a large
// one kept by an infinite limit), static and swept, for sizes from one leaf
// to a plan with split nodes.
static void test_build_and_refit_bounds(void **state) {
    (void)state;
    static const int sizes[] = {1, 3, 4, 5, 17, 250, 5000};
    for (int si = 0; si < 7; ++si) {
        int n = sizes[si];
        soup s = random_soup(n, 40u + (unsigned)si);
        double *y = moved(&s, 0.01), *z = moved(&s, 0.5);
        for (int sweep = 0; sweep < 2; ++sweep) {
            ipcc_bvh t = {0};
            ipcc_bvh_source src = faces_at(&s, s.x, sweep ? y : NULL, 0.005);
            assert_int_equal(update(&t, &src, n, 0, INFINITY), 0);
            assert_true(t.builds == 1 && t.refits == 0 && t.valid && t.quality == 1);
            check_tree(&t, &src, n);
            src = faces_at(&s, y, sweep ? z : NULL, 0.01); // new positions, motion and inflation
            assert_int_equal(update(&t, &src, n, 0, INFINITY), 0);
            assert_true(t.builds == 1 && t.refits == 1);
            check_tree(&t, &src, n);
            src = faces_at(&s, z, sweep ? s.x : NULL, 0.0);
            assert_int_equal(update(&t, &src, n, 0, INFINITY), 0);
            assert_true(t.builds == 1 && t.refits == 2);
            check_tree(&t, &src, n);
            ipcc_bvh_free(&t);
        }
        free(y);
        free(z);
        soup_free(&s);
    }
}

// A tree built at x and refit at y finds, for every query box, exactly the
// primitives that a tree built at y and a brute-force scan find.
static void test_refit_walk_matches_fresh(void **state) {
    (void)state;
    int n = 3000;
    soup s = random_soup(n, 7);
    double *y = shuffled(&s, 0.3), r = 0.01;
    ipcc_bvh refit = {0}, fresh = {0};
    ipcc_bvh_source at_x = faces_at(&s, s.x, NULL, r), at_y = faces_at(&s, y, NULL, r);
    assert_int_equal(update(&refit, &at_x, n, 0, INFINITY), 0);
    assert_int_equal(update(&refit, &at_y, n, 0, INFINITY), 0);
    assert_int_equal(update(&fresh, &at_y, n, 0, INFINITY), 0);
    assert_true(refit.refits == 1 && fresh.refits == 0 && refit.quality > 1.5); // a loose tree
    int *a = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * (size_t)n), total = 0;
    for (int v = 0; v < s.nv; v += 3) {
        ipcc_bvh_box q;
        ipcc_bvh_primitive_box(&v, 1, s.nv, y, NULL, r, &q);
        int na = walk(&refit, &q, a), nb = walk(&fresh, &q, b), nc = 0;
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, sizeof(int) * (size_t)na);
        for (int f = 0; f < n; ++f) {
            ipcc_bvh_box fb = source_box(&at_y, f);
            if (ipcc_bvh_overlap(&q, &fb)) assert_int_equal(a[nc++], f);
        }
        assert_int_equal(nc, na);
        total += na;
    }
    assert_true(total > s.nv); // each query finds its own face and, on average, more than two others
    free(a);
    free(b);
    free(y);
    ipcc_bvh_free(&refit);
    ipcc_bvh_free(&fresh);
    soup_free(&s);
}

// A refit is kept exactly while its quality is <= the limit: the quality q
// of a refit after a large motion (checked against the area ratio computed
// here) passes a limit of q and fails a limit one ulp below, which rebuilds.
// Unchanged boxes refit to quality 1 exactly; limit 0 always builds.
static void test_policy_threshold(void **state) {
    (void)state;
    int n = 600;
    double r = 0.002;
    soup s = random_soup(n, 11);
    double *y = shuffled(&s, 0.3);
    ipcc_bvh_source at_x = faces_at(&s, s.x, NULL, r), at_y = faces_at(&s, y, NULL, r);
    ipcc_bvh a = {0}, b = {0}, c = {0};
    assert_int_equal(update(&a, &at_x, n, 0, INFINITY), 0);
    double built = area_ratio(&a, r);
    assert_int_equal(update(&a, &at_x, n, 0, 1.0), 0); // the same boxes: the same tree
    assert_true(a.refits == 1 && a.builds == 1 && a.quality == 1);
    assert_int_equal(update(&a, &at_y, n, 0, INFINITY), 0);
    double q = a.quality;
    assert_true(a.refits == 2 && q > 1.5);
    assert_near(q, area_ratio(&a, r) / built, 0, 1e-9);

    assert_int_equal(update(&b, &at_x, n, 0, INFINITY), 0);
    assert_int_equal(update(&b, &at_y, n, 0, q), 0);
    assert_true(b.builds == 1 && b.refits == 1 && b.rejected == 0 && b.quality == q);
    check_tree(&b, &at_y, n);

    assert_int_equal(update(&c, &at_x, n, 0, INFINITY), 0);
    assert_int_equal(update(&c, &at_y, n, 0, nextafter(q, 0)), 0);
    assert_true(c.builds == 2 && c.refits == 0 && c.rejected == 1 && c.quality == 1);
    check_tree(&c, &at_y, n);

    assert_int_equal(update(&c, &at_y, n, 0, 0.0), 0); // limit 0: no refit is tried
    assert_int_equal(update(&c, &at_x, n, 0, -1.0), 0);
    assert_true(c.builds == 4 && c.refits == 0 && c.rejected == 1);
    free(y);
    ipcc_bvh_free(&a);
    ipcc_bvh_free(&b);
    ipcc_bvh_free(&c);
    soup_free(&s);
}

// Whatever the limit, the tree is rebuilt when the primitives change with the
// boxes unchanged: two vertices of a face swapped (fingerprint from the
// vertices), a different fingerprint passed with precomputed boxes, or a
// different count. A one-off build leaves the tree to be built by the next
// update.
static void test_policy_rebuilds_changed_primitives(void **state) {
    (void)state;
    int n = 300;
    soup s = random_soup(n, 3);
    ipcc_bvh t = {0};
    ipcc_bvh_source src = faces_at(&s, s.x, NULL, 0.01);
    assert_int_equal(update(&t, &src, n, 0, INFINITY), 0);
    int tmp = s.faces[3 * 17];
    s.faces[3 * 17] = s.faces[3 * 17 + 1];
    s.faces[3 * 17 + 1] = tmp;
    assert_int_equal(update(&t, &src, n, 0, INFINITY), 0);
    assert_true(t.builds == 2 && t.rejected == 1 && t.refits == 0);
    assert_int_equal(update(&t, &src, n, 0, INFINITY), 0);
    assert_true(t.builds == 2 && t.refits == 1);

    // Precomputed boxes (as the broad phase's edge tree): the caller's hash.
    ipcc_bvh_box *boxes = malloc(sizeof(ipcc_bvh_box) * (size_t)n);
    for (int f = 0; f < n; ++f)
        boxes[f] = source_box(&src, f);
    ipcc_bvh u = {0};
    ipcc_bvh_source bsrc = src;
    bsrc.boxes = boxes;
    assert_int_equal(update(&u, &bsrc, n, 42, INFINITY), 0);
    check_tree(&u, &bsrc, n);
    assert_int_equal(update(&u, &bsrc, n, 42, INFINITY), 0);
    assert_true(u.builds == 1 && u.refits == 1);
    assert_int_equal(update(&u, &bsrc, n, 43, INFINITY), 0);
    assert_true(u.builds == 2 && u.rejected == 1);

    // One primitive fewer: built, no refit tried.
    assert_int_equal(update(&t, &src, n - 1, 0, INFINITY), 0);
    assert_true(t.builds == 3 && t.rejected == 1 && t.refits == 1);
    check_tree(&t, &src, n - 1);

    // A one-off build over the same primitives: a valid tree to walk, then a build.
    long allocations = 0;
    assert_int_equal(ipcc_bvh_build_once(&t, &src, n, &allocations), 0);
    assert_true(t.builds == 4 && !t.valid);
    check_tree(&t, &src, n);
    assert_int_equal(update(&t, &src, n, 0, INFINITY), 0);
    assert_true(t.builds == 5 && t.refits == 1 && t.rejected == 1);
    free(boxes);
    ipcc_bvh_free(&t);
    ipcc_bvh_free(&u);
    soup_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_and_refit_bounds),
        cmocka_unit_test(test_refit_walk_matches_fresh),
        cmocka_unit_test(test_policy_threshold),
        cmocka_unit_test(test_policy_rebuilds_changed_primitives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
