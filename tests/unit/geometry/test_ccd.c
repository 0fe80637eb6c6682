// Continuous collision detection (src/geometry/ccd.c): externally authored queries
// with ground truth (tests/data/ccd, see its README.md), minimum separation
// against an independent long-double distance, and degenerate cases.
//
// The invariant checked everywhere: a reported toi is never later than the
// first time the distance reaches min_distance, and a "no collision" answer
// never hides a contact. False positives are counted and printed only.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/ccd.h"
#include "support.h"

#ifndef CCD_RANDOM_TRIALS
#define CCD_RANDOM_TRIALS 3000
#endif

// ---------------------------------------------------------------------------
// Independent distances in long double (closest points by the normal
// equations, then the boundary), and query helpers.

typedef long double real;

static real dotl(const real a[3], const real b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static real point_segment_distance(const real p[3], const real a[3], const real b[3]) {
    real e[3], r[3], v[3];
    for (int i = 0; i < 3; ++i) {
        e[i] = b[i] - a[i];
        r[i] = p[i] - a[i];
    }
    real ee = dotl(e, e), s = ee > 0 ? dotl(r, e) / ee : 0;
    s = s < 0 ? 0 : s > 1 ? 1 : s;
    for (int i = 0; i < 3; ++i)
        v[i] = r[i] - s * e[i];
    return sqrtl(dotl(v, v));
}

static real point_triangle_distance(const real p[3], const real a[3], const real b[3], const real c[3]) {
    real e0[3], e1[3], r[3];
    for (int i = 0; i < 3; ++i) {
        e0[i] = b[i] - a[i];
        e1[i] = c[i] - a[i];
        r[i] = p[i] - a[i];
    }
    // Gram system [e0.e0 e0.e1; e0.e1 e1.e1] (u, v) = (r.e0, r.e1)
    real g00 = dotl(e0, e0), g01 = dotl(e0, e1), g11 = dotl(e1, e1), det = g00 * g11 - g01 * g01;
    real best = point_segment_distance(p, a, b);
    real d = point_segment_distance(p, b, c);
    best = d < best ? d : best;
    d = point_segment_distance(p, c, a);
    best = d < best ? d : best;
    if (det > 1e-30L * g00 * g11) {
        real r0 = dotl(r, e0), r1 = dotl(r, e1);
        real u = (g11 * r0 - g01 * r1) / det, v = (g00 * r1 - g01 * r0) / det;
        if (u >= 0 && v >= 0 && u + v <= 1) {
            real w[3];
            for (int i = 0; i < 3; ++i)
                w[i] = r[i] - u * e0[i] - v * e1[i];
            d = sqrtl(dotl(w, w));
            best = d < best ? d : best;
        }
    }
    return best;
}

static real segment_segment_distance(const real a0[3], const real a1[3], const real b0[3], const real b1[3]) {
    real best = point_segment_distance(a0, b0, b1), d;
    d = point_segment_distance(a1, b0, b1);
    best = d < best ? d : best;
    d = point_segment_distance(b0, a0, a1);
    best = d < best ? d : best;
    d = point_segment_distance(b1, a0, a1);
    best = d < best ? d : best;
    real da[3], db[3], r[3];
    for (int i = 0; i < 3; ++i) {
        da[i] = a1[i] - a0[i];
        db[i] = b1[i] - b0[i];
        r[i] = b0[i] - a0[i];
    }
    real aa = dotl(da, da), bb = dotl(db, db), ab = dotl(da, db), det = aa * bb - ab * ab;
    if (det > 1e-30L * aa * bb) {
        real rda = dotl(r, da), rdb = dotl(r, db);
        real s = (rda * bb - rdb * ab) / det, u = (rda * ab - rdb * aa) / det;
        if (s >= 0 && s <= 1 && u >= 0 && u <= 1) {
            real w[3];
            for (int i = 0; i < 3; ++i)
                w[i] = a0[i] + s * da[i] - b0[i] - u * db[i];
            d = sqrtl(dotl(w, w));
            best = d < best ? d : best;
        }
    }
    return best;
}

typedef enum query_kind { KIND_VF, KIND_EE, KIND_PE, KIND_PP } query_kind;

/// One query: `np` points at t = 0 (x[0 .. 3np)) then at t = 1 (x[3np ..)),
/// in the argument order of the ccd function of its kind.
typedef struct ccd_case {
    query_kind kind;
    double x[24];
} ccd_case;

static int kind_points(query_kind kind) { return kind == KIND_PP ? 2 : kind == KIND_PE ? 3 : 4; }

static bool run_ccd(const ccd_case *c, double min_distance, double tmax, double *toi) {
    const double *x = c->x;
    switch (c->kind) {
    case KIND_VF:
        return ipcc_point_triangle_ccd(x, x + 3, x + 6, x + 9, x + 12, x + 15, x + 18, x + 21, min_distance,
                                       tmax, toi);
    case KIND_EE:
        return ipcc_edge_edge_ccd(x, x + 3, x + 6, x + 9, x + 12, x + 15, x + 18, x + 21, min_distance, tmax,
                                  toi);
    case KIND_PE: return ipcc_point_edge_ccd(x, x + 3, x + 6, x + 9, x + 12, x + 15, min_distance, tmax, toi);
    default: return ipcc_point_point_ccd(x, x + 3, x + 6, x + 9, min_distance, tmax, toi);
    }
}

// Exact-input distance at time t (long double positions (1 - t) x0 + t x1).
static real distance_at(const ccd_case *c, real t) {
    int np = kind_points(c->kind);
    real p[4][3];
    for (int k = 0; k < np; ++k)
        for (int i = 0; i < 3; ++i)
            p[k][i] = (1 - t) * (real)c->x[3 * k + i] + t * (real)c->x[3 * (np + k) + i];
    switch (c->kind) {
    case KIND_VF: return point_triangle_distance(p[0], p[1], p[2], p[3]);
    case KIND_EE: return segment_segment_distance(p[0], p[1], p[2], p[3]);
    case KIND_PE: return point_segment_distance(p[0], p[1], p[2]);
    default: {
        real v[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
        return sqrtl(dotl(v, v));
    }
    }
}

// Print a query's coordinates (for a failure message).
static void print_case(const ccd_case *c) {
    int n = 6 * kind_points(c->kind);
    printf("case kind %d:", c->kind);
    for (int k = 0; k < n; ++k)
        printf(" %.17g", c->x[k]);
    printf("\n");
}

// Minimum of the distance over [lo, hi]: dense samples, then golden-section
// refinement around the best few samples.
static real min_distance_over(const ccd_case *c, real lo, real hi, int samples) {
    real best = distance_at(c, lo), best_t = lo;
    for (int k = 1; k <= samples; ++k) {
        real t = lo + (hi - lo) * k / samples, d = distance_at(c, t);
        if (d < best) {
            best = d;
            best_t = t;
        }
    }
    real h = (hi - lo) / samples, a = best_t - h, b = best_t + h;
    a = a < lo ? lo : a;
    b = b > hi ? hi : b;
    for (int it = 0; it < 120; ++it) {
        real m1 = a + (b - a) * 0.381966L, m2 = b - (b - a) * 0.381966L;
        if (distance_at(c, m1) < distance_at(c, m2))
            b = m2;
        else
            a = m1;
    }
    real d = distance_at(c, 0.5L * (a + b));
    return d < best ? d : best;
}

// ---------------------------------------------------------------------------
// Data files (formats in tests/data/ccd/README.md).

// Next non-comment line of f into buf, or false at the end.
static bool next_data_line(FILE *f, char *buf, int size) {
    while (fgets(buf, size, f))
        if (buf[0] != '#' && buf[0] != '\n') return true;
    return false;
}

static query_kind parse_kind(const char *s) {
    if (!strcmp(s, "vf")) return KIND_VF;
    if (!strcmp(s, "ee")) return KIND_EE;
    if (!strcmp(s, "pe")) return KIND_PE;
    assert_string_equal(s, "pp");
    return KIND_PP;
}

// Read n doubles from *s (advancing it); fails the test on a short line.
static void parse_doubles(char **s, int n, double *out) {
    for (int k = 0; k < n; ++k) {
        char *end;
        out[k] = strtod(*s, &end);
        assert_true(end != *s);
        *s = end;
    }
}

static FILE *open_data(const char *name) {
    FILE *f = fopen(ipcc_test_data_path(name), "r");
    if (!f) fail_msg("cannot open %s", ipcc_test_data_path(name));
    return f;
}

// Wang et al. 2021 handcrafted benchmark with the exact toi file: every
// positive is reported, and no toi is later than the exact one (toi_lo, the
// double at or below the exact root).
static void test_wang2021_handcrafted(void **state) {
    (void)state;
    FILE *f = open_data("ccd/wang2021_handcrafted.txt"), *g = open_data("ccd/wang2021_handcrafted.toi.txt");
    char line[1024], tline[256];
    int n = 0, positives = 0, with_toi = 0, false_positives = 0, negatives = 0;
    while (next_data_line(f, line, sizeof line)) {
        assert_true(next_data_line(g, tline, sizeof tline));
        char kind[4], tkind[4], lo[64];
        int truth, ttruth, off;
        assert_int_equal(sscanf(line, "%3s %d%n", kind, &truth, &off), 2);
        assert_int_equal(sscanf(tline, "%3s %d %63s", tkind, &ttruth, lo), 3);
        assert_string_equal(kind, tkind);
        assert_int_equal(truth, ttruth);
        ccd_case c = {.kind = parse_kind(kind)};
        char *s = line + off;
        parse_doubles(&s, 24, c.x);
        double toi = -1;
        bool hit = run_ccd(&c, 0.0, 1.0, &toi);
        assert_true(toi >= 0 && toi <= 1);
        if (truth) {
            positives++;
            if (!hit) fail_msg("false negative: query %d (%s)", n, kind);
            if (strcmp(lo, "?") != 0) {
                double toi_lo = strtod(lo, NULL);
                assert_true(toi_lo >= 0);
                if (!(toi <= toi_lo)) fail_msg("query %d: toi %.17g later than exact %.17g", n, toi, toi_lo);
                with_toi++;
            }
        } else {
            negatives++;
            false_positives += hit;
            if (!hit) assert_true(toi == 1.0);
        }
        n++;
    }
    assert_false(next_data_line(g, tline, sizeof tline));
    fclose(f);
    fclose(g);
    assert_int_equal(n, 7279);
    assert_int_equal(positives, 435);
    assert_int_equal(with_toi, 412);
    printf(
        "wang2021_handcrafted: %d queries, %d positives (0 missed, %d toi checked), %d/%d false positives\n",
        n, positives, with_toi, false_positives, negatives);
}

// ipc-toolkit / CCD-Wrapper vf and ee unit-test cases. Their `check` column:
// 'exact' asserts result == truth, 'conservative' only truth 1 => hit. The 14
// "General/fixed" labels the README shows to be wrong are conservative
// checks, so the exact classification decides those. "Slow Case 1" (exact,
// truth 1) is geometrically a miss by ~5e-7; the source requires a hit only
// from a method with a tolerance, so either answer is accepted and printed.
static void test_ipctk_ccd_cases(void **state) {
    (void)state;
    FILE *f = open_data("ccd/ipctk_ccd_cases.txt");
    char line[1024];
    int n = 0, must_hit = 0, must_miss = 0, false_positives = 0, negatives = 0;
    while (next_data_line(f, line, sizeof line)) {
        char kind[4], check[16], exact[8], exact_toi[64];
        int truth, off;
        double tmax, toi_src;
        assert_int_equal(sscanf(line, "%3s %d %15s %lf %lf %7s %63s%n", kind, &truth, check, &tmax, &toi_src,
                                exact, exact_toi, &off),
                         7);
        ccd_case c = {.kind = parse_kind(kind)};
        char *s = line + off;
        parse_doubles(&s, 24, c.x);
        double toi = -1;
        bool hit = run_ccd(&c, 0.0, tmax, &toi);
        assert_true(toi >= 0 && toi <= tmax);
        bool is_exact = !strcmp(check, "exact");
        bool geometric_hit = !strcmp(exact, "1"), geometric_miss = !strcmp(exact, "0");
        if (geometric_hit || (truth && !geometric_miss)) {
            must_hit++;
            if (!hit) fail_msg("false negative: line %d of ipctk_ccd_cases", n);
            if (geometric_hit && strcmp(exact_toi, "?") != 0) {
                // exact_toi is the double nearest the root: allow its one ulp
                double t_exact = strtod(exact_toi, NULL);
                if (!(toi <= nextafter(t_exact, INFINITY)))
                    fail_msg("case %d: toi %.17g later than exact %.17g", n, toi, t_exact);
            }
        } else if (is_exact && !truth) {
            must_miss++;
            if (hit) fail_msg("case %d must be a miss (exact check), toi %.17g", n, toi);
            assert_true(toi == tmax);
        } else if (is_exact && truth && geometric_miss) {
            printf("ipctk_ccd_cases: 'Slow Case 1' (truth 1, geometric miss) -> %s\n", hit ? "hit" : "miss");
        }
        if (geometric_miss || (!truth && !geometric_hit)) {
            negatives++;
            false_positives += hit;
        }
        n++;
    }
    fclose(f);
    assert_int_equal(n, 768);
    assert_true(must_hit > 350);
    assert_int_equal(must_miss, 1);
    printf("ipctk_ccd_cases: %d queries, %d must hit (0 missed), %d/%d false positives\n", n, must_hit,
           false_positives, negatives);
}

// Exact first time |r0 + t (r1 - r0)| = d for the relative motion of two
// points, or -1 when never (t in [0, 1]).
static double point_point_exact_toi(const ccd_case *c, double d) {
    real r0[3], dr[3];
    for (int i = 0; i < 3; ++i) {
        r0[i] = (real)c->x[3 + i] - c->x[i];
        dr[i] = ((real)c->x[9 + i] - c->x[6 + i]) - r0[i];
    }
    // |r0 + t dr|^2 = d^2: A t^2 + B t + C = 0
    real A = dotl(dr, dr), B = 2 * dotl(r0, dr), C = dotl(r0, r0) - (real)d * d;
    if (C <= 0) return 0;
    real disc = B * B - 4 * A * C;
    if (A == 0 || disc < 0) return -1;
    real t = (-B - sqrtl(disc)) / (2 * A);
    return t >= 0 && t <= 1 ? (double)t : -1;
}

// ipc-toolkit point-edge / point-point cases with a stated toi. 'le': the
// toi may not exceed toi_src (nor the exact toi). 'approx1e-3' (point-point,
// toi 0.5 at min_distance 0): within 1e-3 of the exact toi for the stated
// min_distance. The source's GENERATE(0, 1e-6, 1e-4, 1e-2) is typed int, so
// upstream actually runs min_distance 0 four times; here the stated values
// are used and compared with the exact toi, which for 1e-2 is 0.4965.
static void test_ipctk_point_edge_point_point(void **state) {
    (void)state;
    FILE *f = open_data("ccd/ipctk_point_edge_point_point_ccd_cases.txt");
    char line[1024];
    int n = 0;
    while (next_data_line(f, line, sizeof line)) {
        char kind[4], rule[16], exact_toi[64];
        int truth, off;
        double toi_src, min_distance;
        assert_int_equal(sscanf(line, "%3s %d %lf %15s %lf %63s%n", kind, &truth, &toi_src, rule,
                                &min_distance, exact_toi, &off),
                         6);
        ccd_case c = {.kind = parse_kind(kind)};
        char *s = line + off;
        parse_doubles(&s, 3 * 2 * kind_points(c.kind), c.x);
        double toi = -1;
        bool hit = run_ccd(&c, min_distance, 1.0, &toi);
        if (hit != (truth == 1)) fail_msg("case %d: hit %d, expected %d", n, hit, truth);
        if (!truth) assert_true(toi == 1.0);
        if (truth && !strcmp(rule, "le")) {
            if (!(toi <= toi_src)) fail_msg("case %d: toi %.17g > %.17g", n, toi, toi_src);
            if (strcmp(exact_toi, "?") != 0) assert_true(toi <= nextafter(strtod(exact_toi, NULL), INFINITY));
        }
        if (truth && !strcmp(rule, "approx1e-3")) {
            assert_int_equal(c.kind, KIND_PP);
            double t_exact = point_point_exact_toi(&c, min_distance);
            assert_true(t_exact > 0);
            assert_true(toi <= t_exact);
            assert_near(toi, t_exact, 1e-3, 0);
        }
        n++;
    }
    fclose(f);
    assert_int_equal(n, 105);
}

// ---------------------------------------------------------------------------
// Minimum separation: the distance never drops below min_distance before toi,
// and a trajectory that reaches min_distance is reported.

static void random_point(double lo, double hi, double out[3]) {
    for (int i = 0; i < 3; ++i)
        out[i] = ipcc_test_random(lo, hi);
}

// Random query of a kind: points in the unit box moving by up to `motion`;
// with `approach`, side A moves little and side B (the point, or edge b)
// passes near A's centroid, so that many of those queries collide.
static void random_case(query_kind kind, double motion, bool approach, ccd_case *c) {
    c->kind = kind;
    int np = kind_points(kind);
    for (int k = 0; k < np; ++k) {
        random_point(0, 1, c->x + 3 * k);
        for (int i = 0; i < 3; ++i)
            c->x[3 * (np + k) + i] = c->x[3 * k + i] + ipcc_test_random(-motion, motion);
    }
    if (!approach) return;
    // Side B: vf p (0), ee eb0 eb1 (2, 3), pe p (0), pp p1 (1).
    int b_first = kind == KIND_EE ? 2 : kind == KIND_PP ? 1 : 0, b_count = kind == KIND_EE ? 2 : 1;
    double centroid[3] = {0, 0, 0};
    for (int k = 0; k < np; ++k)
        if (k < b_first || k >= b_first + b_count)
            for (int i = 0; i < 3; ++i) {
                centroid[i] += c->x[3 * k + i] / (np - b_count);
                c->x[3 * (np + k) + i] = c->x[3 * k + i] + ipcc_test_random(-0.1, 0.1);
            }
    // B passes near A's centroid and overshoots it by half its way there.
    for (int k = b_first; k < b_first + b_count; ++k)
        for (int i = 0; i < 3; ++i)
            c->x[3 * (np + k) + i] =
                centroid[i] + 0.5 * (centroid[i] - c->x[3 * k + i]) + ipcc_test_random(-0.15, 0.15);
}

// Check one query against sampling: D >= xi (1 - 1e-9) on [0, toi]; a miss
// must stay above xi on all of [0, tmax]; a sampled dip clearly below xi must
// be reported. Returns 1 when the query reported a hit.
static int check_separation(const ccd_case *c, double xi, double tmax) {
    double toi = -1;
    bool hit = run_ccd(c, xi, tmax, &toi);
    assert_true(toi >= 0 && toi <= tmax);
    real floor_xi = (real)xi * (1 - 1e-9L);
    if (toi > 0) {
        real before = min_distance_over(c, 0, toi, 400);
        if (!(before >= floor_xi))
            fail_msg("distance %.17Lg < min_distance %.17g before toi %.17g (kind %d)", before, xi, toi,
                     c->kind);
    } else {
        assert_true(distance_at(c, 0) >= floor_xi || hit);
    }
    if (!hit) {
        assert_true(toi == tmax);
        real all = min_distance_over(c, 0, tmax, 400);
        if (!(all > floor_xi)) fail_msg("missed: distance %.17Lg <= min_distance %.17g", all, xi);
    }
    return hit;
}

static void test_min_separation_random(void **state) {
    (void)state;
    ipcc_test_seed(20211);
    const double xis[] = {0, 1e-4, 1e-2, 0.1};
    int hits = 0, total = 0;
    for (int trial = 0; trial < CCD_RANDOM_TRIALS; ++trial) {
        ccd_case c;
        random_case((query_kind)(trial % 4), trial % 3 == 0 ? 0.3 : 1.5, (trial / 4) % 2 == 0, &c);
        double xi = xis[(trial / 8) % 4];
        double tmax = trial % 5 == 0 ? ipcc_test_random(0.2, 1) : 1.0;
        hits += check_separation(&c, xi, tmax);
        total++;
    }
    printf("random min-separation queries: %d of %d hit\n", hits, total);
    // Both outcomes must be exercised.
    assert_true(hits > total / 10 && hits < total - total / 10);
}

// Random multiple of 2^-20 in [lo, hi]: few enough bits that the sums and
// products below are exact.
static double dyadic(double lo, double hi) { return round(ipcc_test_random(lo, hi) * 0x1p20) * 0x1p-20; }

// Trajectories built to touch exactly: every coordinate is dyadic with few
// bits and t* is 2^-m or 1 - 2^-m, so the configuration at t* is exactly the
// constructed one, with the point on the triangle (on an edge or a vertex
// for some), the edges crossing, the point on the edge, the points together.
// The contact must be reported, no later than t*. Some are degenerate at t*
// (collinear triangle, parallel edges, zero-length edge) and some sit 100 m
// from the origin.
static void test_constructed_contacts(void **state) {
    (void)state;
    ipcc_test_seed(777);
    for (int trial = 0; trial < CCD_RANDOM_TRIALS; ++trial) {
        query_kind kind = (query_kind)(trial % 4);
        int np = kind_points(kind);
        int m = 1 + (trial / 4) % 6;
        bool early = (trial / 24) % 2 == 0;
        double tstar = early ? ldexp(1, -m) : 1 - ldexp(1, -m), at[4][3];
        for (int k = 0; k < np; ++k)
            for (int i = 0; i < 3; ++i)
                at[k][i] = dyadic(-1, 1);
        if (trial % 13 == 0) {
            for (int i = 0; i < 3; ++i) {
                if (kind == KIND_VF) at[3][i] = 0.5 * (at[1][i] + at[2][i]);
                if (kind == KIND_EE) at[3][i] = at[2][i] + (at[1][i] - at[0][i]);
                if (kind == KIND_PE) at[2][i] = at[1][i];
            }
        }
        // Barycentric coordinates, multiples of 1/16.
        double u = floor(ipcc_test_random(0, 17)) / 16, v = floor(ipcc_test_random(0, 17 - 16 * u)) / 16;
        if (trial % 7 == 0) u = 0;
        if (trial % 11 == 0) v = 0;
        for (int i = 0; i < 3; ++i) {
            if (kind == KIND_VF) at[0][i] = (1 - u - v) * at[1][i] + u * at[2][i] + v * at[3][i];
            if (kind == KIND_PE) at[0][i] = (1 - u) * at[1][i] + u * at[2][i];
            if (kind == KIND_PP) at[1][i] = at[0][i];
        }
        if (kind == KIND_EE) {
            // Shift edge b so that its point at parameter v meets edge a's point at u.
            double d[3];
            for (int i = 0; i < 3; ++i)
                d[i] = ((1 - u) * at[0][i] + u * at[1][i]) - ((1 - v) * at[2][i] + v * at[3][i]);
            for (int i = 0; i < 3; ++i) {
                at[2][i] += d[i];
                at[3][i] += d[i];
            }
        }
        ccd_case c = {.kind = kind};
        double offset = trial % 5 == 0 ? 100 : 0; // away from the origin
        for (int k = 0; k < np; ++k)
            for (int i = 0; i < 3; ++i) {
                double x = at[k][i] + offset, other = x + dyadic(-1, 1);
                // (1 - t*) x0 + t* x1 = x exactly: one end is chosen, the other
                // solved for with a division by a power of two.
                double *x0 = &c.x[3 * k + i], *x1 = &c.x[3 * (np + k) + i];
                if (early) {
                    *x0 = other;
                    *x1 = (x - (1 - tstar) * other) / tstar;
                } else {
                    *x1 = other;
                    *x0 = (x - tstar * other) / (1 - tstar);
                }
            }
        double toi = -1;
        bool hit = run_ccd(&c, 0.0, 1.0, &toi);
        if (!hit || !(toi <= tstar)) {
            print_case(&c);
            fail_msg("exact contact at t* = %.17g: hit %d, toi %.17g (kind %d, trial %d)", tstar, hit, toi,
                     kind, trial);
        }
        assert_true(distance_at(&c, tstar) < 1e-12L); // the oracle itself rounds in long double
    }
}

// Handcrafted min_distance trajectories with exact times: a point falling
// onto a face, crossing edges, a point onto an edge, two points. toi must be
// at or just before the exact time (within the 1e-9 relative tolerance).
static void test_min_separation_exact_times(void **state) {
    (void)state;
    const double xis[] = {0, 1e-8, 1e-4, 0.1, 0.5};
    for (size_t k = 0; k < sizeof xis / sizeof *xis; ++k) {
        double xi = xis[k], toi;
        // Point from height 1 to -1 above the triangle interior: D = |1 - 2t|.
        ccd_case vf = {KIND_VF,
                       {0.2, 0.2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, -1, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
        assert_true(run_ccd(&vf, xi, 1, &toi));
        assert_true(toi <= (1 - xi) / 2);
        assert_near(toi, (1 - xi) / 2, 1e-9, 0);
        check_separation(&vf, xi, 1);
        // Edge a along x at z = 1 moving to z = -1 over edge b along y at z = 0.
        ccd_case ee = {KIND_EE,
                       {-1, 0, 1, 1, 0, 1, 0, -1, 0, 0, 1, 0, -1, 0, -1, 1, 0, -1, 0, -1, 0, 0, 1, 0}};
        assert_true(run_ccd(&ee, xi, 1, &toi));
        assert_true(toi <= (1 - xi) / 2);
        assert_near(toi, (1 - xi) / 2, 1e-9, 0);
        // Point moving onto an edge from distance 2, reaching it at t = 1.
        ccd_case pe = {KIND_PE, {0.5, 2, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 0, 0, 0, 0, 1, 0, 0}};
        assert_true(run_ccd(&pe, xi, 1, &toi));
        assert_true(toi <= 1 - xi / 2);
        assert_near(toi, 1 - xi / 2, 1e-9, 0);
        // Two points approaching head-on: D = 3 - 4t, contact at 0.75 - xi / 4.
        ccd_case pp = {KIND_PP, {0, 0, 0, 3, 0, 0, 2, 0, 0, 1, 0, 0}};
        assert_true(run_ccd(&pp, xi, 1, &toi));
        assert_true(toi <= 0.75 - xi / 4);
        assert_near(toi, 0.75 - xi / 4, 1e-9, 0);
    }
    // A rotating edge sweeping past a point it touches at t = 0.5 only if the
    // point sits on the swept path; here it passes 1e-3 away: a miss for
    // min_distance 5e-4, a hit for 2e-3.
    ccd_case rot = {KIND_PE, {0, 1.001, 0, -1, -1, 0, 1, 1, 0, 0, 1.001, 0, 1, -1, 0, -1, 1, 0}};
    double toi;
    assert_false(run_ccd(&rot, 5e-4, 1, &toi));
    assert_true(toi == 1);
    assert_true(run_ccd(&rot, 2e-3, 1, &toi));
    check_separation(&rot, 2e-3, 1);
    check_separation(&rot, 5e-4, 1);
}

// ---------------------------------------------------------------------------
// Degenerate configurations.

static void test_zero_motion(void **state) {
    (void)state;
    double toi;
    // Static, apart: never within 0.5, always within 1.5 (the distance is 1).
    ccd_case vf = {KIND_VF, {0.2, 0.2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
    assert_false(run_ccd(&vf, 0.5, 1, &toi));
    assert_true(toi == 1);
    assert_false(run_ccd(&vf, 0.0, 0.25, &toi));
    assert_true(toi == 0.25);
    assert_true(run_ccd(&vf, 1.5, 1, &toi));
    assert_true(toi == 0);
    // Exactly at min_distance counts as within it.
    assert_true(run_ccd(&vf, 1.0, 1, &toi));
    assert_true(toi == 0);
    // Static and touching: the point on the face.
    ccd_case touch = vf;
    touch.x[2] = touch.x[14] = 0;
    assert_true(run_ccd(&touch, 0, 1, &toi));
    assert_true(toi == 0);
    // Static edges at distance 1e-12.
    ccd_case ee = {KIND_EE, {-1, 0, 0, 1, 0, 0, 0, -1, 1e-12, 0, 1, 1e-12,
                             -1, 0, 0, 1, 0, 0, 0, -1, 1e-12, 0, 1, 1e-12}};
    assert_false(run_ccd(&ee, 0, 1, &toi));
    assert_true(run_ccd(&ee, 1e-12, 1, &toi));
    assert_true(toi == 0);
    // Both points static and coincident.
    ccd_case pp = {KIND_PP, {1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}};
    assert_true(run_ccd(&pp, 0, 1, &toi));
    assert_true(toi == 0);
}

static void test_parallel_edges(void **state) {
    (void)state;
    double toi;
    // Parallel edges 1e-3 apart sliding along each other: never closer.
    ccd_case slide = {KIND_EE, {0, 0, 0, 1, 0, 0, 0.5,  1e-3, 0, 1.5, 1e-3, 0,
                                0, 0, 0, 1, 0, 0, -0.5, 1e-3, 0, 0.5, 1e-3, 0}};
    assert_false(run_ccd(&slide, 0, 1, &toi));
    assert_false(run_ccd(&slide, 0.9e-3, 1, &toi));
    assert_true(run_ccd(&slide, 1.1e-3, 1, &toi));
    assert_true(toi == 0);
    // Same, also approaching: distance 1e-3 (1 - t), reaches xi at 1 - xi / 1e-3.
    ccd_case close = slide;
    close.x[19] = close.x[22] = 0;
    assert_true(run_ccd(&close, 0, 1, &toi));
    assert_true(toi <= 1);
    assert_true(toi >= 1 - 1e-6);
    assert_true(run_ccd(&close, 0.5e-3, 1, &toi));
    assert_true(toi <= 0.5);
    assert_near(toi, 0.5, 1e-9, 0);
    check_separation(&close, 0.5e-3, 1);
    // Collinear edges approaching end to end: touch at t = 0.5.
    ccd_case line = {KIND_EE, {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0}};
    assert_true(run_ccd(&line, 0, 1, &toi));
    assert_true(toi <= 0.5);
    assert_near(toi, 0.5, 1e-9, 0);
    // Parallel edges passing 1e-12 apart (offset in z), sliding across.
    ccd_case pass = {KIND_EE, {0, 0, 0, 1, 0, 0, -2, 0, 1e-12, -1.5, 0, 1e-12,
                               0, 0, 0, 1, 0, 0, 2,  0, 1e-12, 2.5,  0, 1e-12}};
    assert_true(run_ccd(&pass, 2e-12, 1, &toi));
    check_separation(&pass, 2e-12, 1);
    // Nearly parallel edges (angle 1e-9) crossing through each other.
    ccd_case nearly = {KIND_EE,
                       {0, 0, 1, 1, 1e-9, 1, 0, 0, 0, 1, 0, 0, 0, 0, -1, 1, 1e-9, -1, 0, 0, 0, 1, 0, 0}};
    assert_true(run_ccd(&nearly, 0, 1, &toi));
    assert_true(toi <= 0.5);
    assert_near(toi, 0.5, 1e-9, 0);
}

static void test_point_in_triangle_plane(void **state) {
    (void)state;
    double toi;
    // Point sliding in the plane z = 0 towards the triangle's edge x + y = 1:
    // from (1, 1) to (0, 0), it enters at t = 0.5.
    ccd_case in = {KIND_VF, {1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
    assert_true(run_ccd(&in, 0, 1, &toi));
    assert_true(toi <= 0.5);
    assert_near(toi, 0.5, 1e-9, 0);
    check_separation(&in, 0.1, 1);
    // In the plane, parallel to that edge on the line x + y = 2: a miss by 1/sqrt(2).
    ccd_case beside = {KIND_VF, {3, -1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, -1, 3, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
    assert_false(run_ccd(&beside, 0, 1, &toi));
    check_separation(&beside, 0.5, 1);
    // Point moving in the plane exactly along the triangle's edge line,
    // starting outside past vertex t1: reaches t1 at t = 0.5.
    ccd_case along = {KIND_VF, {2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
    assert_true(run_ccd(&along, 0, 1, &toi));
    assert_true(toi <= 0.5);
    assert_near(toi, 0.5, 1e-9, 0);
}

static void test_degenerate_primitives(void **state) {
    (void)state;
    double toi;
    // Collinear triangle (a segment from (0,0,0) to (2,0,0)): a point falling
    // through its middle hits at 0.5; one passing beside misses.
    ccd_case flat = {KIND_VF, {1, 0, 1, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 0, -1, 0, 0, 0, 1, 0, 0, 2, 0, 0}};
    assert_true(run_ccd(&flat, 0, 1, &toi));
    assert_true(toi <= 0.5);
    assert_near(toi, 0.5, 1e-9, 0);
    ccd_case flat_miss = flat;
    flat_miss.x[1] = flat_miss.x[13] = 0.25;
    assert_false(run_ccd(&flat_miss, 0, 1, &toi));
    check_separation(&flat_miss, 0.2, 1);
    // Triangle collapsed to a point.
    ccd_case dot = {KIND_VF, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
    assert_true(run_ccd(&dot, 0, 1, &toi));
    assert_near(toi, 0.5, 1e-9, 0);
    assert_true(toi <= 0.5);
    // A triangle that degenerates during the step (a vertex moves onto the
    // opposite edge) while a point hovers 0.1 above it: never touches.
    ccd_case collapsing = {
        KIND_VF, {0.3, 0.3, 0.1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.3, 0.3, 0.1, 0, 0, 0, 1, 0, 0, 1, 0, 0}};
    check_separation(&collapsing, 0.05, 1);
    // Zero-length edge against an edge: a point-edge query in disguise.
    ccd_case stub = {KIND_EE,
                     {0.5, 1, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0.5, -1, 0, 0.5, -1, 0, 0, 0, 0, 1, 0, 0}};
    assert_true(run_ccd(&stub, 0, 1, &toi));
    assert_near(toi, 0.5, 1e-9, 0);
    assert_true(toi <= 0.5);
    // Zero-length edge in a point-edge query.
    ccd_case pe = {KIND_PE, {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0}};
    assert_true(run_ccd(&pe, 0.1, 1, &toi));
    assert_near(toi, 0.45, 1e-9, 0);
    assert_true(toi <= 0.45);
}

static void test_tmax(void **state) {
    (void)state;
    double toi;
    // Contact at t = 0.6.
    ccd_case vf = {KIND_VF,
                   {0.2, 0.2, 0.6, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, -0.4, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
    assert_false(run_ccd(&vf, 0, 0.5, &toi));
    assert_true(toi == 0.5);
    assert_true(run_ccd(&vf, 0, 0.7, &toi));
    assert_true(toi <= 0.6);
    assert_near(toi, 0.6, 1e-9, 0);
    // Reaching min_distance 0.1 at t = 0.5 exactly, with tmax = 0.5.
    assert_true(run_ccd(&vf, 0.1, 0.5, &toi));
    assert_true(toi <= 0.5);
    assert_false(run_ccd(&vf, 0.1, 0.49, &toi));
    assert_true(toi == 0.49);
}

// Primitives starting 1e-9 apart and approaching (barrier contact in IPC):
// the toi must be useful, not 0.
static void test_close_start(void **state) {
    (void)state;
    double toi;
    ccd_case vf = {KIND_VF,
                   {0.2, 0.2, 1e-9, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, -1e-3, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
    double exact = 1e-9 / (1e-9 + 1e-3);
    assert_true(run_ccd(&vf, 0, 1, &toi));
    assert_true(toi <= exact);
    assert_true(toi > 0.99 * exact);
    // Far from the origin: coordinates 1e3, gap 1e-6, sliding sideways.
    ccd_case far = {KIND_EE,
                    {1000,        1000,   1000,   1001,        1000,        1000,   1000.5, 999.5,
                     1000 + 1e-6, 1000.5, 1000.5, 1000 + 1e-6, 1000,        1000,   1000,   1001,
                     1000,        1000,   1000.7, 999.5,       1000 + 1e-6, 1000.7, 1000.5, 1000 + 1e-6}};
    assert_false(run_ccd(&far, 0, 1, &toi));
    assert_false(run_ccd(&far, 0.5e-6, 1, &toi));
}

static void test_non_finite_input(void **state) {
    (void)state;
    double toi = -1;
    ccd_case vf = {KIND_VF, {0.2, 0.2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0}};
    vf.x[13] = NAN;
    assert_true(run_ccd(&vf, 0, 1, &toi));
    assert_true(toi == 0);
    vf.x[13] = INFINITY;
    assert_true(run_ccd(&vf, 0, 1, &toi));
    assert_true(toi == 0);
    ccd_case huge = {KIND_PP, {-DBL_MAX, 0, 0, DBL_MAX, 0, 0, -DBL_MAX, 0, 0, DBL_MAX, 0, 0}};
    assert_true(run_ccd(&huge, 0, 1, &toi));
    assert_true(toi == 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wang2021_handcrafted),
        cmocka_unit_test(test_ipctk_ccd_cases),
        cmocka_unit_test(test_ipctk_point_edge_point_point),
        cmocka_unit_test(test_min_separation_random),
        cmocka_unit_test(test_constructed_contacts),
        cmocka_unit_test(test_min_separation_exact_times),
        cmocka_unit_test(test_zero_motion),
        cmocka_unit_test(test_parallel_edges),
        cmocka_unit_test(test_point_in_triangle_plane),
        cmocka_unit_test(test_degenerate_primitives),
        cmocka_unit_test(test_tmax),
        cmocka_unit_test(test_close_start),
        cmocka_unit_test(test_non_finite_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
