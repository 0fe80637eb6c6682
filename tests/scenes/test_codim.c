// Codimensional kinematic obstacles (segment sets and point sets): the .seg
// and point readers and ipcc_trimesh_create_segments (src/mesh/mesh_obj.c), their
// contact with soft bodies (src/contact/contact.c, src/broad_phase/broad_phase.c), the
// initial-state refusals, and their output as VTK lines and vertices
// (src/output/output.c, src/output/vtk.c).
//
// Physics scenes check after every step, exactly (tests/support): no
// obstacle segment intersects a cube triangle (closed segment against closed
// triangle, touching counts), no obstacle point lies in the cube's closed
// volume (point in a closed tet, orient3d), no cube triangles intersect, no
// tet inverts, and the minimum contact distance is positive.
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exact_intersection.h"
#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/world.h"
#include "output/vtk.h"
#include "world_checks.h"

// ---------------------------------------------------------------------------
// Readers.

static char temp_path[128];

static const char *write_temp(const char *text, const char *ext) {
    snprintf(temp_path, sizeof temp_path, "/tmp/ipcc_test_codim_%ld%s", (long)getpid(), ext);
    FILE *f = fopen(temp_path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    fclose(f);
    return temp_path;
}

static ipcc_trimesh dummy; // a non-NULL *out that failures must reset

static void test_read_seg(void **state) {
    (void)state;
    // Comments, blank lines, a forward reference, a reversed duplicate.
    const char *text = "# a bed of two bars\n"
                       "v 0 0 0\n"
                       "v 1 0 0   # end of bar 1\n"
                       "\n"
                       "s 1 2\n"
                       "s 3 4\n"
                       "v 0 0 1\n"
                       "v 1 0 1\n"
                       "s 2 1\n";
    const char *path = write_temp(text, ".seg");
    ipcc_trimesh *m = NULL;
    if (ipcc_trimesh_read_seg(path, &m) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->num_faces, 0);
    assert_null(m->faces);
    assert_int_equal(m->num_edges, 2); // (1, 2) and (2, 1) merged
    const int edges[4] = {0, 1, 2, 3};
    assert_memory_equal(m->edges, edges, sizeof edges);
    assert_true(m->vertices[3 * 3] == 1.0 && m->vertices[3 * 3 + 2] == 1.0);
    ipcc_trimesh_destroy(m);

    // CRLF, tabs, no final newline.
    path = write_temp("v 0 0 0\r\nv\t0 1 0\r\n\r\ns\t2 1\r\nv 0 2 0\r\ns 2 3", ".seg");
    if (ipcc_trimesh_read_seg(path, &m) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(m->num_vertices, 3);
    assert_int_equal(m->num_edges, 2);
    const int crlf_edges[4] = {0, 1, 1, 2};
    assert_memory_equal(m->edges, crlf_edges, sizeof crlf_edges);
    assert_true(m->vertices[7] == 2.0);
    ipcc_trimesh_destroy(m);
    remove(path);
}

static void test_read_seg_errors(void **state) {
    (void)state;
    const struct {
        const char *text;
        ipcc_status status;
        const char *needle;
    } cases[] = {
        {"v 0 0 0\nv 1 0 0\nv 2 0 0\ns 1 5\n", IPCC_ERR_PARSE, ":4: vertex index 5 out of range"},
        {"v 0 0 0\nv 1 0 0\ns 0 1\n", IPCC_ERR_PARSE, ":3: vertex index 0 (indices start at 1)"},
        {"v 0 0 0\nv 1 0 0\ns -1 1\n", IPCC_ERR_PARSE, ":3: vertex index -1"},
        {"v 0 0 0\nv 1 0 0\n\ns 2 2\n", IPCC_ERR_MESH, ":4: segment repeats vertex 2"},
        {"v 0 0 0\nv 1 0 0\ns 1\n", IPCC_ERR_PARSE, ":3: segment with 1 vertices, expected 2"},
        {"v 0 0 0\nv 1 0 0\nv 2 0 0\ns 1 2 3\n", IPCC_ERR_PARSE, ":4: segment with more than 2 vertices"},
        {"v 0 0 0\nv 1 0 0\ns 1 2.5\n", IPCC_ERR_PARSE, ":3: bad segment vertex '2.5'"},
        {"v 0 0 0\nv 1 nan 0\ns 1 2\n", IPCC_ERR_PARSE, ":2: non-finite coordinate 'nan'"},
        {"v 0 0 0\nv 1 0 0\n# no segments\n", IPCC_ERR_MESH, ":3: end of file, and no segments"},
        {"", IPCC_ERR_MESH, ": the file is empty"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *path = write_temp(cases[i].text, ".seg");
        ipcc_trimesh *m = &dummy;
        ipcc_status s = ipcc_trimesh_read_seg(path, &m);
        assert_null(m);
        if (s != cases[i].status || !strstr(ipcc_last_error(), path) ||
            !strstr(ipcc_last_error(), cases[i].needle))
            fail_msg("case %zu: %s: '%s'", i, ipcc_status_name(s), ipcc_last_error());
        remove(path);
    }
    ipcc_trimesh *m = &dummy;
    assert_int_equal(ipcc_trimesh_read_seg("/nonexistent/bars.seg", &m), IPCC_ERR_IO);
    assert_null(m);
    assert_non_null(strstr(ipcc_last_error(), "/nonexistent/bars.seg: cannot open"));
    m = &dummy;
    assert_int_equal(ipcc_trimesh_read_points("/nonexistent/pins.obj", &m), IPCC_ERR_IO);
    assert_null(m);
}

static void test_read_points(void **state) {
    (void)state;
    // An OBJ with faces: only its vertices are kept; other statements are skipped.
    const char *text =
        "o pins\r\nv 0 0 0\r\nv 1 0 0\r\nvn 0 1 0\r\nv 0 0 1\r\nf 1 2 3\r\nv 1 0 1 0.5 0.5 0.5\r\n";
    const char *path = write_temp(text, ".obj");
    ipcc_trimesh *m = NULL;
    if (ipcc_trimesh_read_points(path, &m) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->num_faces, 0);
    assert_int_equal(m->num_edges, 0);
    assert_null(m->faces);
    assert_null(m->edges);
    const double expect[12] = {0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1};
    assert_memory_equal(m->vertices, expect, sizeof expect);
    ipcc_trimesh_destroy(m);

    const struct {
        const char *text;
        ipcc_status status;
        const char *needle;
    } cases[] = {
        {"# nothing\n", IPCC_ERR_MESH, ":1: end of file, and no vertices"},
        {"v 0 0 0\nv 1 x 0\n", IPCC_ERR_PARSE, ":2: bad number 'x'"},
        {"v 0 0\n", IPCC_ERR_PARSE, ":1: vertex with 2 coordinates"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        path = write_temp(cases[i].text, ".obj");
        m = &dummy;
        ipcc_status s = ipcc_trimesh_read_points(path, &m);
        assert_null(m);
        if (s != cases[i].status || !strstr(ipcc_last_error(), cases[i].needle))
            fail_msg("case %zu: %s: '%s'", i, ipcc_status_name(s), ipcc_last_error());
    }
    remove(path);
}

static void test_create_segments(void **state) {
    (void)state;
    const double x[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    const int segs[10] = {2, 1, 0, 1, 1, 2, 3, 0, 1, 0};
    ipcc_trimesh *m = NULL;
    assert_int_equal(ipcc_trimesh_create_segments(4, x, 5, segs, "bars", &m), IPCC_OK);
    assert_int_equal(m->num_edges, 3);
    const int expect[6] = {0, 1, 0, 3, 1, 2};
    assert_memory_equal(m->edges, expect, sizeof expect);
    assert_int_equal(m->num_faces, 0);
    ipcc_trimesh_destroy(m);

    assert_int_equal(ipcc_trimesh_create_segments(4, x, 0, NULL, NULL, &m), IPCC_OK);
    assert_int_equal(m->num_vertices, 4);
    assert_int_equal(m->num_edges, 0);
    assert_null(m->edges);
    ipcc_trimesh_destroy(m);

    const int out_of_range[2] = {0, 4}, repeated[4] = {0, 1, 2, 2};
    const double nan_x[6] = {0, 0, 0, NAN, 0, 0};
    m = &dummy;
    assert_int_equal(ipcc_trimesh_create_segments(4, x, 1, out_of_range, "bars", &m), IPCC_ERR_MESH);
    assert_null(m);
    assert_non_null(strstr(ipcc_last_error(), "bars: segment 0: vertex index 4 out of range"));
    assert_int_equal(ipcc_trimesh_create_segments(4, x, 2, repeated, NULL, &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "segment set: segment 1: vertex index 2 repeated"));
    assert_int_equal(ipcc_trimesh_create_segments(2, nan_x, 0, NULL, "pins", &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "pins: vertex 1: non-finite"));
    assert_int_equal(ipcc_trimesh_create_segments(0, NULL, 0, NULL, "pins", &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "pins: no vertices"));
    assert_int_equal(ipcc_trimesh_create_segments(-1, x, 0, NULL, "pins", &m), IPCC_ERR_INVALID_ARGUMENT);
    assert_null(m);
    // A triangle mesh still needs faces.
    assert_int_equal(ipcc_trimesh_create(4, x, 0, NULL, "tri", &m), IPCC_ERR_MESH);
    assert_non_null(strstr(ipcc_last_error(), "tri: no faces"));
}

// ---------------------------------------------------------------------------
// Scenes.

#define CUBE 0.2 // cube edge, m

// A world with a soft cube [0, CUBE]^3 + offset, named "cube" (body 0).
static ipcc_world *cube_world(int cells, const double offset[3], const double velocity[3]) {
    ipcc_world_def wd = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_mesh *mesh = ipcc_test_box_mesh(cells, cells, cells, CUBE, CUBE, CUBE);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "cube";
    bd.mesh = mesh;
    memcpy(bd.translation, offset, sizeof bd.translation);
    if (velocity) memcpy(bd.velocity, velocity, sizeof bd.velocity);
    int b = -1;
    assert_int_equal(ipcc_world_add_body(w, &bd, &b), IPCC_OK);
    assert_int_equal(b, 0);
    ipcc_mesh_destroy(mesh);
    return w;
}

// A codimensional obstacle from arrays (segments, or points if ne = 0).
// Returns its body index.
static int add_codim(ipcc_world *w, const char *name, int nv, const double *x, int ne, const int *edges,
                     const double velocity[3]) {
    ipcc_trimesh *m = NULL;
    if (ipcc_trimesh_create_segments(nv, x, ne, edges, name, &m) != IPCC_OK)
        fail_msg("%s", ipcc_last_error());
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    od.name = name;
    od.mesh = m;
    if (velocity) memcpy(od.velocity, velocity, sizeof od.velocity);
    int b = -1;
    if (ipcc_world_add_obstacle(w, &od, &b) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    ipcc_trimesh_destroy(m);
    return b;
}

// Parallel segments along x at height y, at z = z0 + k dz (k < n), from x0 to x1.
static int add_bed(ipcc_world *w, int n, double y, double z0, double dz, double x0, double x1) {
    double *x = malloc(sizeof(double) * 6 * (size_t)n);
    int *e = malloc(sizeof(int) * 2 * (size_t)n);
    assert_true(x && e);
    for (int k = 0; k < n; ++k) {
        const double p[6] = {x0, y, z0 + k * dz, x1, y, z0 + k * dz};
        memcpy(x + 6 * k, p, sizeof p);
        e[2 * k] = 2 * k;
        e[2 * k + 1] = 2 * k + 1;
    }
    int b = add_codim(w, "bed", 2 * n, x, n, e, NULL);
    free(x);
    free(e);
    return b;
}

// Exact: no segment of obstacle `ob` (its edges are consecutive vertex pairs,
// as add_bed and the rake make them) meets a closed triangle of body 0.
static void assert_segments_clear(const ipcc_world *w, int ob, const char *label) {
    const double *x = ipcc_world_positions(w);
    int first, count, nf;
    const int *faces;
    ipcc_world_body_vertices(w, ob, &first, &count);
    ipcc_world_body_surface(w, 0, &nf, &faces);
    for (int s = 0; s < count / 2; ++s) {
        const double *p = x + 3 * (first + 2 * s), *q = p + 3;
        for (int f = 0; f < nf; ++f) {
            const int *t = faces + 3 * f;
            if (ipcc_test_segment_triangle_intersect(p, q, x + 3 * t[0], x + 3 * t[1], x + 3 * t[2]))
                fail_msg("%s: segment %d touches cube triangle %d", label, s, f);
        }
    }
}

// Exact: no vertex of obstacle `ob` lies in a closed tet of body 0.
static void assert_points_outside(const ipcc_world *w, int ob, const char *label) {
    const double *x = ipcc_world_positions(w);
    const int *tets = ipcc_world_tets(w), *tet_body = ipcc_world_tet_bodies(w);
    int first, count;
    ipcc_world_body_vertices(w, ob, &first, &count);
    for (int e = 0; e < ipcc_world_num_tets(w); ++e) {
        if (tet_body[e] != 0) continue;
        const double *a = x + 3 * tets[4 * e], *b = x + 3 * tets[4 * e + 1], *c = x + 3 * tets[4 * e + 2],
                     *d = x + 3 * tets[4 * e + 3];
        int s = ipcc_test_orient3d(a, b, c, d);
        assert_true(s != 0);
        for (int i = first; i < first + count; ++i) {
            const double *p = x + 3 * i;
            if (s * ipcc_test_orient3d(p, b, c, d) >= 0 && s * ipcc_test_orient3d(a, p, c, d) >= 0 &&
                s * ipcc_test_orient3d(a, b, p, d) >= 0 && s * ipcc_test_orient3d(a, b, c, p) >= 0)
                fail_msg("%s: obstacle point %d is in the cube's closed tet %d", label, i - first, e);
        }
    }
}

typedef struct cube_track {
    double min_y;          ///< lowest cube vertex over all steps
    double min_cy, max_cy; ///< lowest and highest centroid height over all steps
    double final_low;      ///< lowest cube vertex at the end
    double centroid[3];    ///< at the end
    double max_speed;      ///< at the end
    int max_contacts;
} cube_track;

static void cube_state(const ipcc_world *w, double *low, double c[3], double *speed) {
    int first, count;
    ipcc_world_body_vertices(w, 0, &first, &count);
    const double *x = ipcc_world_positions(w), *v = ipcc_world_velocities(w);
    *low = INFINITY;
    *speed = 0;
    c[0] = c[1] = c[2] = 0;
    for (int i = first; i < first + count; ++i) {
        *low = fmin(*low, x[3 * i + 1]);
        *speed = fmax(*speed,
                      sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]));
        for (int k = 0; k < 3; ++k)
            c[k] += x[3 * i + k] / count;
    }
}

// Step `steps` times, checking the invariants after each; `ob` is the codim obstacle.
static void run_checked(ipcc_world *w, int ob, bool points, int steps, const char *name, cube_track *tr) {
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    char label[96];
    tr->min_y = tr->min_cy = INFINITY;
    tr->max_cy = -INFINITY;
    tr->max_contacts = 0;
    for (int s = 1; s <= steps; ++s) {
        ipcc_step_stats st;
        ipcc_status status = ipcc_world_step(w, &st);
        if (status < 0) fail_msg("%s step %d: %s", name, s, ipcc_last_error());
        snprintf(label, sizeof label, "%s step %d", name, s);
        // A segment that meets no cube triangle and whose end points are
        // outside the cube's volume is wholly outside it.
        assert_points_outside(w, ob, label);
        if (!points) assert_segments_clear(w, ob, label);
        ipcc_test_assert_intersection_free(w, label);
        ipcc_test_assert_no_inversion(w);
        assert_true(st.min_distance > 0);
        tr->max_contacts = st.num_contacts > tr->max_contacts ? st.num_contacts : tr->max_contacts;
        double low, c[3], speed;
        cube_state(w, &low, c, &speed);
        tr->min_y = fmin(tr->min_y, low);
        tr->min_cy = fmin(tr->min_cy, c[1]);
        tr->max_cy = fmax(tr->max_cy, c[1]);
    }
    cube_state(w, &tr->final_low, tr->centroid, &tr->max_speed);
}

// (1) A cube dropped on a bed of parallel static segments 0.04 m apart (a
// fifth of its width; 31 of them, symmetric about the cube, 1.2 m long), at
// 5 and at 20 m/s (0.2 m, its own width, per step). Each step proves the
// bed outside the cube exactly: no segment meets a cube triangle and every
// end point is outside its volume, so no segment is inside or through it.
// "On top": the centroid stays above the bars, and no cube vertex goes
// deeper than DROOP, half the gap, below them. Bars are lines, not a floor:
// the soft bottom face sags between two of them (0.8 mm measured at 5 m/s),
// and a tilted or bulging face pokes into a gap (12 mm when the cube, still
// ringing from the 20 m/s impact, lands again); a convex part with corners
// of 90 degrees or more fits at most half a gap deep between two lines.
#define SPACING 0.04
#define DROOP (0.5 * SPACING)

static void drop_on_bed(double speed, int steps, cube_track *tr) {
    const double offset[3] = {0, 0.05, 0}, velocity[3] = {0, -speed, 0};
    ipcc_world *w = cube_world(3, offset, velocity);
    int bed = add_bed(w, 31, 0.0, 0.1 - 0.5 * SPACING - 15 * SPACING, SPACING, -0.5, 0.7);
    char name[32];
    snprintf(name, sizeof name, "bed %g m/s", speed);
    run_checked(w, bed, false, steps, name, tr);
    print_message("%s: lowest cube vertex %.4g m (at the end %.4g m), centroid y %.4f .. %.4f m (at the end "
                  "%.4f m), max speed %.3g m/s, max contacts %d\n",
                  name, tr->min_y, tr->final_low, tr->min_cy, tr->max_cy, tr->centroid[1], tr->max_speed,
                  tr->max_contacts);
    assert_true(tr->max_contacts > 0);
    assert_true(tr->min_y > -DROOP && tr->min_cy > 0);
    ipcc_world_destroy(w);
}

static void test_drop_on_segments_5(void **state) {
    (void)state;
    cube_track tr;
    drop_on_bed(5, 60, &tr);
    // Resting on the bed at the end, its bottom face on the bars.
    assert_true(tr.final_low > -1e-3 && tr.final_low < 0.01);
    assert_true(tr.centroid[1] > 0.09 && tr.centroid[1] < 0.11);
    assert_true(tr.max_speed < 0.05);
}

static void test_drop_on_segments_20(void **state) {
    (void)state;
    cube_track tr;
    drop_on_bed(20, 60, &tr);
    // The bed threw it back up above its start (centroid 0.15 m), and it came down on it again.
    assert_true(tr.max_cy > 0.25);
    assert_true(tr.centroid[1] < 0.15);
}

// (2) A cube dropped on a grid of static points 0.02 m apart, some of them
// right under its corners and edges (point-point and point-edge contacts).
static void test_drop_on_points(void **state) {
    (void)state;
    const double offset[3] = {0, 0.02, 0}, velocity[3] = {0, -1, 0};
    ipcc_world *w = cube_world(3, offset, velocity);
    enum { N = 21 };
    double x[3 * N * N];
    for (int i = 0; i < N; ++i)
        for (int k = 0; k < N; ++k) {
            double *p = x + 3 * (N * i + k);
            p[0] = -0.1 + 0.02 * i;
            p[1] = 0;
            p[2] = -0.1 + 0.02 * k;
        }
    int pins = add_codim(w, "pins", N * N, x, 0, NULL, NULL);
    cube_track tr;
    run_checked(w, pins, true, 60, "points", &tr);
    print_message(
        "points: lowest cube vertex %.4g m (at the end %.4g m), centroid y %.4f m, max speed %.3g m/s, "
        "max contacts %d\n",
        tr.min_y, tr.final_low, tr.centroid[1], tr.max_speed, tr.max_contacts);
    assert_true(tr.max_contacts > 0);
    assert_true(tr.min_y > 0);
    // Resting on the points.
    assert_true(tr.final_low > 0 && tr.final_low < 0.01);
    assert_true(tr.centroid[1] > 0.09 && tr.centroid[1] < 0.11);
    assert_true(tr.max_speed < 0.05);
    ipcc_world_destroy(w);
}

// (3) Initial states that must be refused, and near misses that must not.
static void expect_start(ipcc_world *w, ipcc_status expect, const char *const *needles) {
    ipcc_status s = ipcc_world_start(w);
    if (s != expect)
        fail_msg("expected %s, got %s: %s", ipcc_status_name(expect), ipcc_status_name(s),
                 s ? ipcc_last_error() : "");
    for (; needles && *needles; ++needles)
        if (!strstr(ipcc_last_error(), *needles)) fail_msg("'%s' not in '%s'", *needles, ipcc_last_error());
    ipcc_world_destroy(w);
}

static void test_initial_state(void **state) {
    (void)state;
    const double zero[3] = {0, 0, 0};
    // Points inside the 2 x 2 x 2 cube: generic, on an interior face, on an
    // interior edge (a cell's diagonal), at the interior vertex (the centre).
    const double inside[][3] = {
        {0.037, 0.061, 0.113}, {0.05, 0.05, 0.1}, {0.05, 0.05, 0.05}, {0.1, 0.1, 0.1}};
    for (size_t i = 0; i < sizeof inside / sizeof *inside; ++i) {
        ipcc_world *w = cube_world(2, zero, NULL);
        const double pts[9] = {0.5, 0.5, 0.5, inside[i][0], inside[i][1], inside[i][2], -0.5, 0, 0};
        add_codim(w, "pins", 3, pts, 0, NULL, NULL);
        const char *needles[] = {"initial state", "obstacle \"pins\" point 1 lies inside body \"cube\"",
                                 NULL};
        expect_start(w, IPCC_ERR_INFEASIBLE, needles);
    }
    // A point on the surface touches; one 1e-6 m outside is fine (and pushes back).
    {
        ipcc_world *w = cube_world(2, zero, NULL);
        const double pts[3] = {0.07, 0.2, 0.118};
        add_codim(w, "pins", 1, pts, 0, NULL, NULL);
        const char *needles[] = {"\"pins\"", "\"cube\"", "touch", NULL};
        expect_start(w, IPCC_ERR_INFEASIBLE, needles);
    }
    {
        ipcc_world *w = cube_world(2, zero, NULL);
        const double pts[6] = {0.07, 0.2 + 1e-6, 0.118, 0.1, 0.1, -1e-6};
        add_codim(w, "pins", 2, pts, 0, NULL, NULL);
        expect_start(w, IPCC_OK, NULL);
    }
    // A segment through the cube crosses its triangles.
    {
        ipcc_world *w = cube_world(2, zero, NULL);
        const double seg[6] = {-0.1, 0.07, 0.13, 0.3, 0.07, 0.13};
        const int e[2] = {0, 1};
        add_codim(w, "bar", 2, seg, 1, e, NULL);
        const char *needles[] = {"\"bar\"", "\"cube\"", "intersect", NULL};
        expect_start(w, IPCC_ERR_INFEASIBLE, needles);
    }
    // A segment wholly inside the cube crosses nothing: its end points are inside.
    {
        ipcc_world *w = cube_world(2, zero, NULL);
        const double seg[6] = {0.05, 0.07, 0.13, 0.15, 0.07, 0.13};
        const int e[2] = {0, 1};
        add_codim(w, "bar", 2, seg, 1, e, NULL);
        const char *needles[] = {"obstacle \"bar\" vertex 0 lies inside body \"cube\"", NULL};
        expect_start(w, IPCC_ERR_INFEASIBLE, needles);
    }
    // A segment above the cube is fine.
    {
        ipcc_world *w = cube_world(2, zero, NULL);
        const double seg[6] = {-0.1, 0.21, 0.13, 0.3, 0.21, 0.13};
        const int e[2] = {0, 1};
        add_codim(w, "bar", 2, seg, 1, e, NULL);
        expect_start(w, IPCC_OK, NULL);
    }
    // A small triangle-mesh obstacle wholly inside the cube.
    {
        ipcc_world *w = cube_world(2, zero, NULL);
        const double tri[9] = {0.05, 0.05, 0.05, 0.08, 0.05, 0.05, 0.05, 0.08, 0.06};
        const int f[3] = {0, 1, 2};
        ipcc_trimesh *m = NULL;
        assert_int_equal(ipcc_trimesh_create(3, tri, 1, f, "chip", &m), IPCC_OK);
        ipcc_obstacle_def od = ipcc_default_obstacle_def();
        od.name = "chip";
        od.mesh = m;
        assert_int_equal(ipcc_world_add_obstacle(w, &od, NULL), IPCC_OK);
        ipcc_trimesh_destroy(m);
        const char *needles[] = {"obstacle \"chip\" vertex 0 lies inside body \"cube\"", NULL};
        expect_start(w, IPCC_ERR_INFEASIBLE, needles);
    }
}

// (4) A rake of vertical segments moving at 0.5 m/s pushes a cube resting on
// the ground (no friction) ahead of it.
static void test_moving_segments_push(void **state) {
    (void)state;
    const double offset[3] = {0, 0.002, -0.1};
    ipcc_world *w = cube_world(2, offset, NULL);
    ipcc_half_space_def ground = ipcc_default_half_space_def(); // y = 0, normal +y
    ground.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    double x[4 * 6];
    int e[8];
    for (int k = 0; k < 4; ++k) {
        const double z = -0.06 + 0.04 * k, p[6] = {-0.05, 0.01, z, -0.05, 0.15, z};
        memcpy(x + 6 * k, p, sizeof p);
        e[2 * k] = 2 * k;
        e[2 * k + 1] = 2 * k + 1;
    }
    const double velocity[3] = {0.5, 0, 0};
    int rake = add_codim(w, "rake", 8, x, 4, e, velocity);
    double low, c0[3], speed;
    cube_state(w, &low, c0, &speed);
    cube_track tr;
    run_checked(w, rake, false, 50, "rake", &tr);
    double front = -0.05 + 0.5 * ipcc_world_time(w);
    print_message("rake: cube centroid x %.4f -> %.4f m, rake at x %.4f m, max contacts %d\n", c0[0],
                  tr.centroid[0], front, tr.max_contacts);
    assert_true(tr.max_contacts > 0);
    // The cube (its back face at x = 0 at rest) was pushed ahead of the rake.
    assert_true(tr.centroid[0] > front + 0.1 - 0.01);
    ipcc_world_destroy(w);
}

// ---------------------------------------------------------------------------
// Output.

static void test_output_lines_and_verts(void **state) {
    (void)state;
    const double offset[3] = {0, 0.05, 0};
    ipcc_world *w = cube_world(1, offset, NULL);
    ipcc_half_space_def ground = ipcc_default_half_space_def(); // normal +y
    ground.point[1] = -1;
    ground.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    const double seg[9] = {-0.2, 0, 0.05, 0.4, 0, 0.05, 0.4, 0, 0.15};
    const int e[4] = {0, 1, 1, 2};
    add_codim(w, "bars", 3, seg, 2, e, NULL);
    const double pts[12] = {0, -0.01, 0, 0.1, -0.01, 0, 0.2, -0.01, 0, 0.3, -0.01, 0};
    add_codim(w, "pins", 4, pts, 0, NULL, NULL);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    assert_true(ipcc_world_step(w, NULL) >= 0);

    char dir[64] = "/tmp/ipcc_test_codim_out_XXXXXX";
    assert_non_null(mkdtemp(dir));
    ipcc_output *o = NULL;
    assert_int_equal(ipcc_output_create(dir, &o), IPCC_OK);
    assert_int_equal(ipcc_output_write_frame(o, w), IPCC_OK);
    ipcc_output_destroy(o);
    char path[128];
    snprintf(path, sizeof path, "%s/obstacles_000000.vtp", dir);
    char *buf = ipcc_test_read_file(path, NULL);
    // 3 + 4 obstacle points and the half-space's 4 corners; 2 lines, 4 verts, 2 triangles.
    assert_non_null(strstr(buf, "<Piece NumberOfPoints=\"11\" NumberOfVerts=\"4\" NumberOfLines=\"2\" "
                                "NumberOfStrips=\"0\" NumberOfPolys=\"2\">"));
    const char *verts = strstr(buf, "<Verts>"), *lines = strstr(buf, "<Lines>"),
               *polys = strstr(buf, "<Polys>");
    assert_true(verts && lines && polys && verts < lines && lines < polys);
    free(buf);

    // VTK's own reader, when /usr/bin/python3 has it.
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 - '%s' <<'EOF'\n"
             "import sys\n"
             "try:\n"
             "    import vtk\n"
             "except ImportError:\n"
             "    sys.exit(77)\n"
             "r = vtk.vtkXMLPolyDataReader()\n"
             "r.SetFileName(sys.argv[1])\n"
             "r.Update()\n"
             "p = r.GetOutput()\n"
             "assert p.GetNumberOfPoints() == 11, p.GetNumberOfPoints()\n"
             "assert (p.GetNumberOfVerts(), p.GetNumberOfLines(), p.GetNumberOfPolys()) == (4, 2, 2)\n"
             "types = [p.GetCellType(i) for i in range(p.GetNumberOfCells())]\n"
             "assert types == [vtk.VTK_VERTEX] * 4 + [vtk.VTK_LINE] * 2 + [vtk.VTK_TRIANGLE] * 2, types\n"
             "cells = [[p.GetCell(i).GetPointId(k) for k in range(p.GetCell(i).GetNumberOfPoints())]\n"
             "         for i in range(6)]\n"
             "assert cells == [[3], [4], [5], [6], [0, 1], [1, 2]], cells\n"
             "x = p.GetPoint(5)\n"
             "assert abs(x[0] - 0.2) < 1e-12 and abs(x[1] + 0.01) < 1e-12, x\n"
             "EOF\n",
             path);
    int rc = access("/usr/bin/python3", X_OK) == 0 ? system(cmd) : 77 << 8;
    ipcc_test_remove_tree(dir);
    ipcc_world_destroy(w);
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77) {
        print_message("VTK for /usr/bin/python3 not found: the XML checks only\n");
        return;
    }
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
}

// The writer itself: no cells = the triangles-only file, byte for byte; a
// bad index writes nothing.
static void test_vtk_codim_writer(void **state) {
    (void)state;
    const double x[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
    const int tri[3] = {0, 1, 2}, lines[4] = {0, 3, 1, 3}, verts[1] = {2};
    const ipcc_vtk_surface sf = {.num_points = 4, .points = x, .num_triangles = 1, .triangles = tri};
    char a[96], b[96];
    snprintf(a, sizeof a, "/tmp/ipcc_test_codim_%ld_a.vtp", (long)getpid());
    snprintf(b, sizeof b, "/tmp/ipcc_test_codim_%ld_b.vtp", (long)getpid());
    const ipcc_vtk_codim none = {0, NULL, 0, NULL};
    assert_int_equal(ipcc_vtk_write_vtp(a, &sf), IPCC_OK);
    assert_int_equal(ipcc_vtk_write_vtp_codim(b, &sf, &none), IPCC_OK);
    size_t na, nb;
    char *fa = ipcc_test_read_file(a, &na), *fb = ipcc_test_read_file(b, &nb);
    assert_true(na == nb && memcmp(fa, fb, na) == 0);
    free(fa);
    free(fb);
    const ipcc_vtk_codim cd = {2, lines, 1, verts};
    assert_int_equal(ipcc_vtk_write_vtp_codim(b, &sf, &cd), IPCC_OK);
    fb = ipcc_test_read_file(b, NULL);
    assert_non_null(
        strstr(fb, "NumberOfPoints=\"4\" NumberOfVerts=\"1\" NumberOfLines=\"2\" NumberOfStrips=\"0\" "
                   "NumberOfPolys=\"1\""));
    free(fb);
    remove(b);
    const int bad[4] = {0, 3, 1, 4};
    const ipcc_vtk_codim bad_cd = {2, bad, 0, NULL};
    assert_int_equal(ipcc_vtk_write_vtp_codim(b, &sf, &bad_cd), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), "line 1 references vertex 4 of 4"));
    assert_int_equal(access(b, F_OK), -1);
    remove(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_seg),
        cmocka_unit_test(test_read_seg_errors),
        cmocka_unit_test(test_read_points),
        cmocka_unit_test(test_create_segments),
        cmocka_unit_test(test_drop_on_segments_5),
        cmocka_unit_test(test_drop_on_segments_20),
        cmocka_unit_test(test_drop_on_points),
        cmocka_unit_test(test_initial_state),
        cmocka_unit_test(test_moving_segments_push),
        cmocka_unit_test(test_output_lines_and_verts),
        cmocka_unit_test(test_vtk_codim_writer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
