// Tests for src/output/output.c: a world with a box body writes 3 frames and 3 stats
// rows into a nested folder created on open; the .pvd lists the frames (part 0
// only: no obstacles, no .vtp), the last .vtu holds displacement = x - rest,
// the velocities and the contact forces bit-exactly, stats.csv has a header
// and one row per step, nothing temporary is left behind. A box resting within
// d-hat of a half-space, with a second, tilted half-space and a moving
// tetrahedron obstacle far away: the .vtu holds only the box's vertices and
// every frame also writes obstacles_NNNNNN.vtp (the tetrahedron at its current
// place and velocity, faces re-indexed, then two squares of side 2 L centred
// at the half-space points, in their planes, facing their normals, velocity
// 0), listed as part 1 of the same time step; the contact forces reach the .vtu;
// a failed .vtp write leaves the frame uncounted and unlisted, and the retry
// writes the same index. A stale stats.csv is truncated and min_distance =
// inf prints as "inf"; a folder under a regular file (or a read-only one)
// fails on open.
//
// Set IPCC_OUTPUT_TEST_DIR to keep the frames of the first test in that folder
// and those of the obstacle test in "<that folder>_obstacles" (e.g. to run
// tests/vtk_check.py on them).
#include "support.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipcc/contact_report.h"
#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/world.h"
#include "shape/shape.h"
#include "output/shape_mesh.h"
#include "world_checks.h"

static void make_temp_dir(char dir[64]) {
    strcpy(dir, "/tmp/ipcc_test_output_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static int count_substr(const char *s, const char *needle) {
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static ipcc_world *make_box_world(void) {
    const double size[3] = {1.0, 0.5, 0.5};
    ipcc_mesh *mesh = NULL;
    assert_int_equal(ipcc_mesh_create_box(2, 1, 1, size, &mesh), IPCC_OK);
    ipcc_world_def wd = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "box";
    bd.mesh = mesh;
    bd.velocity[0] = 0.5;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    return w;
}

#define STATS_HEADER                                                                                         \
    "step,time,newton_iterations,line_search_steps,factorization_fallbacks,energy,residual,"                 \
    "converged,velocity_error,time_assembly,time_factorization,time_solve,time_line_search,time_total,lift_" \
    "iterations,"                                                                                            \
    "num_contacts,min_distance,kappa,time_ccd,time_broad_phase,friction_iterations,friction_contacts,"       \
    "friction_dissipation,time_symbolic,time_constraint_search,time_energy,kinetic_energy,elastic_energy,"   \
    "gravitational_energy,barrier_energy,momentum_x,momentum_y,momentum_z,angular_momentum_x,"               \
    "angular_momentum_y,angular_momentum_z,substeps\n"

/// Data of the appended array named `name` in a .vtu held in buf, after checking its UInt64 size header.
static const unsigned char *vtu_array(const char *buf, size_t size, const char *name, uint64_t bytes) {
    char key[64];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
    const char *tag = strstr(buf, key);
    assert_true(app && tag && tag < app);
    const unsigned char *base = (const unsigned char *)strchr(app, '_') + 1;
    unsigned long long offset = strtoull(strstr(tag, "offset=\"") + 8, NULL, 10);
    assert_true((size_t)(base - (const unsigned char *)buf) + offset + 8 + bytes <= size);
    uint64_t header;
    memcpy(&header, base + offset, 8);
    assert_int_equal(header, bytes);
    return base + offset + 8;
}

static void test_frames_and_stats(void **state) {
    (void)state;
    const char *keep = getenv("IPCC_OUTPUT_TEST_DIR");
    char base[64], dir[256], path[320];
    make_temp_dir(base);
    if (keep)
        snprintf(dir, sizeof dir, "%s", keep);
    else
        snprintf(dir, sizeof dir, "%s/run//frames/", base); // nested, repeated and trailing slashes
    ipcc_world *w = make_box_world();
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    assert_int_equal(ipcc_output_set_compress(out, false), IPCC_OK); // the checks below parse raw blocks
    assert_int_equal(ipcc_output_frame_count(out), 0);

    const int nv = ipcc_world_num_vertices(w), nt = ipcc_world_num_tets(w);
    assert_int_equal(ipcc_world_num_deformable_vertices(w), nv); // no obstacles
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
        assert_int_equal(ipcc_output_frame_count(out), i + 1);
        if (i == 2) { // the newest frame holds x - rest and the velocities, bit for bit
            snprintf(path, sizeof path, "%s/frame_000002.vtu", dir);
            size_t size;
            char *buf = ipcc_test_read_file(path, &size);
            const double *x = ipcc_world_positions(w), *rest = ipcc_world_rest_positions(w);
            const unsigned char *u = vtu_array(buf, size, "displacement", 3 * (uint64_t)nv * sizeof(double));
            for (int k = 0; k < 3 * nv; k++) {
                double d = x[k] - rest[k], got;
                memcpy(&got, u + 8 * k, 8);
                assert_memory_equal(&got, &d, 8);
            }
            const unsigned char *v = vtu_array(buf, size, "velocity", 3 * (uint64_t)nv * sizeof(double));
            assert_memory_equal(v, ipcc_world_velocities(w), 3 * (size_t)nv * sizeof(double));
            const unsigned char *f = vtu_array(buf, size, "contact_force", 3 * (uint64_t)nv * sizeof(double));
            assert_memory_equal(f, ipcc_world_contact_forces(w), 3 * (size_t)nv * sizeof(double));
            char counts[64];
            snprintf(counts, sizeof counts, "NumberOfPoints=\"%d\" NumberOfCells=\"%d\"", nv, nt);
            assert_non_null(strstr(buf, counts));
            const unsigned char *b = vtu_array(buf, size, "body_id", (uint64_t)nt * sizeof(int32_t));
            for (int c = 0; c < nt; c++) {
                int32_t id;
                memcpy(&id, b + 4 * c, 4);
                assert_int_equal(id, ipcc_world_tet_bodies(w)[c]);
            }
            free(buf);
        }
        ipcc_step_stats st;
        memset(&st, 0, sizeof st);
        ipcc_status s = ipcc_world_step(w, &st);
        assert_true(s >= 0);
        assert_int_equal(ipcc_output_write_stats(out, NULL, &st), IPCC_OK);
    }
    ipcc_output_destroy(out);

    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = ipcc_test_read_file(path, NULL);
    assert_int_equal(count_substr(pvd, "<DataSet "), 3);
    assert_int_equal(count_substr(pvd, "part=\"0\""), 3);
    for (int i = 0; i < 3; i++) {
        char want[64];
        snprintf(want, sizeof want, "file=\"frame_%06d.vtu\"", i);
        assert_non_null(strstr(pvd, want));
        snprintf(path, sizeof path, "%s/frame_%06d.vtu", dir, i);
        assert_int_equal(access(path, R_OK), 0);
    }
    free(pvd);

    snprintf(path, sizeof path, "%s/stats.csv", dir);
    char *csv = ipcc_test_read_file(path, NULL);
    const char *header = STATS_HEADER;
    assert_int_equal(strncmp(csv, header, strlen(header)), 0);
    assert_int_equal(count_substr(csv, "\n"), 4);
    const char *row = csv + strlen(header);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(atoi(row), i + 1); // steps are 1-based
        const char *end = strchr(row, '\n');
        int commas = 0;
        for (const char *p = row; p < end; p++)
            commas += *p == ',';
        assert_int_equal(commas, 36);
        row = end + 1;
    }
    free(csv);

    // Exactly the five outputs: no .tmp, no probe file.
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') assert_true(!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."));
        if (e->d_name[0] == '.') continue;
        assert_null(strstr(e->d_name, ".tmp"));
        files++;
    }
    closedir(d);
    assert_int_equal(files, 5);
    ipcc_world_destroy(w);
    ipcc_test_remove_tree(base);
}

/// Field `index` (0-based) of a CSV row, as a double.
static double csv_field(const char *row, int index) {
    for (int i = 0; i < index; i++) {
        row = strchr(row, ',');
        assert_non_null(row);
        row++;
    }
    return strtod(row, NULL);
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// Check the square of half-space `h` in a .vtp's points (corners first + 4h .. first + 4h + 3) and its
/// two triangles (triangle 2h, 2h + 1 after `first_tri`): centred at the point, in the plane, side 2L,
/// counter-clockwise seen along the normal.
static void check_half_space_square(const double *x, const int64_t *conn, int first, int first_tri,
                                    const double point[3], const double normal[3], double L) {
    double centre[3] = {0, 0, 0};
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 3; c++)
            centre[c] += 0.25 * x[3 * (first + k) + c];
    for (int c = 0; c < 3; c++)
        assert_near(centre[c], point[c], 1e-12, 1e-12);
    for (int k = 0; k < 4; k++) {
        const double *a = x + 3 * (first + k), *b = x + 3 * (first + (k + 1) % 4);
        double ap[3] = {a[0] - point[0], a[1] - point[1], a[2] - point[2]};
        double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        assert_near(dot3(ap, normal), 0, 1e-12, 0);               // in the plane
        assert_near(sqrt(dot3(ab, ab)), 2 * L, 0, 1e-12);         // side 2 L
        assert_near(sqrt(dot3(ap, ap)), sqrt(2.0) * L, 0, 1e-12); // a square: corners at L sqrt 2
    }
    for (int t = 0; t < 2; t++) {
        const int64_t *tri = conn + 3 * (first_tri + t);
        for (int k = 0; k < 3; k++)
            assert_true(tri[k] >= first && tri[k] < first + 4);
        const double *a = x + 3 * tri[0], *b = x + 3 * tri[1], *c = x + 3 * tri[2];
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
               e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                        e1[0] * e2[1] - e1[1] * e2[0]};
        assert_near(dot3(cr, normal), 4 * L * L, 0, 1e-12); // |e1 x e2| = 2 area = (2L)^2, along +normal
    }
}

static void test_obstacles_and_contact_force(void **state) {
    (void)state;
    const char *keep = getenv("IPCC_OUTPUT_TEST_DIR");
    char base[64], dir[256], path[320];
    make_temp_dir(base);
    if (keep)
        snprintf(dir, sizeof dir, "%s_obstacles", keep);
    else
        snprintf(dir, sizeof dir, "%s", base);
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 1, 1, 1.0, 0.5, 0.5); // [0, 1] x [0, 0.5] x [0, 0.5]
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "box";
    bd.mesh = mesh;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    // A floor 0.5 d-hat below the box (non-unit normal), and a tilted one far away.
    ipcc_half_space_def ground = ipcc_default_half_space_def(), tilted = ipcc_default_half_space_def();
    ground.point[0] = 0.5, ground.point[1] = -5e-4, ground.point[2] = 0.25;
    ground.normal[1] = 2;
    ground.friction = 0;
    tilted.point[1] = -10;
    tilted.normal[0] = tilted.normal[1] = tilted.normal[2] = 1;
    tilted.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    assert_int_equal(ipcc_world_add_half_space(w, &tilted, NULL), IPCC_OK);
    // A tetrahedron obstacle moving away from everything, 4 m to the right of the box.
    const double tv[12] = {0, 0, 0, 0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5};
    const int tf[12] = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    ipcc_trimesh *tet = NULL;
    assert_int_equal(ipcc_trimesh_create(4, tv, 4, tf, "tet", &tet), IPCC_OK);
    ipcc_obstacle_def od = ipcc_default_obstacle_def();
    od.name = "tet";
    od.mesh = tet;
    od.translation[0] = 5;
    od.velocity[0] = 0.5;
    od.velocity[2] = -0.25;
    int tet_body = -1;
    assert_int_equal(ipcc_world_add_obstacle(w, &od, &tet_body), IPCC_OK);
    if (ipcc_world_start(w) != IPCC_OK) fail_msg("start: %s", ipcc_last_error());
    ipcc_trimesh_destroy(tet);
    assert_true(ipcc_world_body_is_obstacle(w, tet_body));

    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    assert_int_equal(ipcc_output_set_compress(out, false), IPCC_OK); // the checks below parse raw blocks
    const int nv = ipcc_world_num_vertices(w), nd = ipcc_world_num_deformable_vertices(w);
    assert_int_equal(nv - nd, 4); // the tetrahedron's; half-spaces add none
    const double L = ipcc_world_bbox_diagonal(w);
    assert_true(L > 0);
    ipcc_step_stats st;
    for (int i = 0; i < 3; i++) {
        if (i == 2) { // a .vtp that cannot be written: the frame is neither counted nor listed
            snprintf(path, sizeof path, "%s/obstacles_000002.vtp.tmp", dir);
            assert_int_equal(mkdir(path, 0777), 0);
            assert_int_equal(ipcc_output_write_frame(out, w), IPCC_ERR_IO);
            assert_non_null(strstr(ipcc_last_error(), "obstacles_000002.vtp"));
            assert_int_equal(ipcc_output_frame_count(out), 2);
            snprintf(path, sizeof path, "%s/frames.pvd", dir);
            char *pvd = ipcc_test_read_file(path, NULL);
            assert_null(strstr(pvd, "_000002"));
            free(pvd);
            snprintf(path, sizeof path, "%s/obstacles_000002.vtp.tmp", dir);
            assert_int_equal(rmdir(path), 0);
        }
        assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
        assert_int_equal(ipcc_output_frame_count(out), i + 1);
        if (i < 2) {
            memset(&st, 0, sizeof st);
            assert_true(ipcc_world_step(w, &st) >= 0);
            assert_int_equal(ipcc_output_write_stats(out, NULL, &st), IPCC_OK);
        }
    }
    assert_true(st.num_contacts > 0); // the box rests within d-hat of the floor

    // The last .vtu: deformable vertices only, contact forces bit for bit, some of them pushing up.
    snprintf(path, sizeof path, "%s/frame_000002.vtu", dir);
    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    char counts[96];
    snprintf(counts, sizeof counts, "NumberOfPoints=\"%d\" NumberOfCells=\"%d\"", nd, ipcc_world_num_tets(w));
    assert_non_null(strstr(buf, counts));
    const double *fc = ipcc_world_contact_forces(w);
    const unsigned char *f = vtu_array(buf, size, "contact_force", 3 * (uint64_t)nd * sizeof(double));
    assert_memory_equal(f, fc, 3 * (size_t)nd * sizeof(double));
    double up = 0;
    for (int i = 0; i < nd; i++)
        up += fc[3 * i + 1];
    assert_true(up > 0);
    free(buf);

    // The last .vtp: the tetrahedron (its vertices, velocities and faces, re-indexed from nd), then
    // two squares with zero velocity.
    snprintf(path, sizeof path, "%s/obstacles_000002.vtp", dir);
    buf = ipcc_test_read_file(path, &size);
    assert_non_null(strstr(buf, "type=\"PolyData\""));
    assert_non_null(strstr(buf, "NumberOfPoints=\"12\""));
    assert_non_null(strstr(buf, "NumberOfPolys=\"8\""));
    double x[36], v[36];
    int64_t conn[24];
    memcpy(x, vtu_array(buf, size, "Points", sizeof x), sizeof x);
    memcpy(v, vtu_array(buf, size, "velocity", sizeof v), sizeof v);
    memcpy(conn, vtu_array(buf, size, "connectivity", sizeof conn), sizeof conn);
    assert_memory_equal(x, ipcc_world_positions(w) + 3 * nd, 12 * sizeof(double));
    assert_memory_equal(v, ipcc_world_velocities(w) + 3 * nd, 12 * sizeof(double));
    assert_near(x[0], 5 + 0.5 * ipcc_world_time(w), 1e-9, 0); // it moved, at its velocity
    assert_near(v[0], 0.5, 1e-9, 0);
    assert_near(v[2], -0.25, 1e-9, 0);
    int nf;
    const int *faces;
    ipcc_world_body_surface(w, tet_body, &nf, &faces);
    assert_int_equal(nf, 4);
    for (int k = 0; k < 12; k++)
        assert_int_equal(conn[k], faces[k] - nd);
    for (int i = 12; i < 36; i++)
        assert_true(v[i] == 0);
    double p[3], n[3];
    ipcc_world_half_space(w, 0, p, n);
    check_half_space_square(x, conn, 4, 4, p, n, L);
    ipcc_world_half_space(w, 1, p, n);
    check_half_space_square(x, conn, 8, 6, p, n, L);
    free(buf);

    // frames.pvd: both parts of every frame at the same timestep; no temporaries left.
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = ipcc_test_read_file(path, NULL);
    assert_int_equal(count_substr(pvd, "<DataSet "), 6);
    const char *cursor = pvd;
    double times[6];
    for (int k = 0; k < 6; k++) { // frame k / 2, part k % 2
        const char *ds = strstr(cursor, "<DataSet ");
        assert_non_null(ds);
        const char *end = strstr(ds, "/>");
        char file[32], want[64];
        snprintf(file, sizeof file, k % 2 ? "obstacles_%06d.vtp" : "frame_%06d.vtu", k / 2);
        snprintf(want, sizeof want, "part=\"%d\" file=\"%s\"", k % 2, file);
        const char *hit = strstr(ds, want), *ts = strstr(ds, "timestep=\"");
        assert_true(hit && hit < end && ts && ts < end);
        times[k] = strtod(ts + 10, NULL);
        snprintf(path, sizeof path, "%s/%s", dir, file);
        assert_int_equal(access(path, R_OK), 0);
        cursor = end;
    }
    for (int i = 0; i < 3; i++) {
        assert_true(times[2 * i] == times[2 * i + 1]);
        if (i > 0) assert_true(times[2 * i] > times[2 * i - 2]);
    }
    free(pvd);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)))
        assert_null(strstr(e->d_name, ".tmp"));
    closedir(d);

    // stats.csv: the second row's velocity_error (column 8), num_contacts (15), min_distance (16)
    // and kappa (17).
    ipcc_output_destroy(out);
    snprintf(path, sizeof path, "%s/stats.csv", dir);
    char *csv = ipcc_test_read_file(path, NULL);
    assert_int_equal(strncmp(csv, STATS_HEADER, strlen(STATS_HEADER)), 0);
    const char *row2 = strchr(csv + strlen(STATS_HEADER), '\n') + 1;
    assert_true(csv_field(row2, 8) == st.velocity_error);
    assert_true(st.velocity_error >= 0 && st.velocity_error <= ipcc_world_velocity_tolerance(w));
    assert_int_equal((int)csv_field(row2, 15), st.num_contacts);
    assert_true(csv_field(row2, 17) == st.kappa);
    assert_true(csv_field(row2, 16) == st.min_distance);
    free(csv);
    ipcc_world_destroy(w);
    ipcc_test_remove_tree(base);
}

/// Shapes, the contact report and the per-object forces: a box resting on a
/// floor, with a moving sphere, a spinning box shape (whose 12 edges become
/// a segment-set obstacle at start, part of the crate's object) and a torus far away. The obstacles'
/// .vtp holds the shapes' surfaces after the half-space square (points on
/// the exact surface at the current pose, velocity v + w x (p - c)) and a
/// cell array object_id in VTK's cell order (the box's edges as lines
/// first); contacts_NNNNNN.vtp holds one vertex per contact record, bit for
/// bit, and is part 2 of frames.pvd; stats.csv has three force columns per
/// object after the usual ones (CSV-safe names, "#<id>" after a shared
/// one), equal to ipcc_contact_report_object_forces;
/// a row without the world is refused on such a file; a resume keeps the
/// columns, and the contacts files are listed again.
static void test_shapes_contacts_and_forces(void **state) {
    (void)state;
    char dir[64], path[320];
    make_temp_dir(dir);
    ipcc_mesh *mesh = ipcc_test_box_mesh(2, 1, 1, 1.0, 0.5, 0.5);
    ipcc_world_def wd = ipcc_default_world_def();
    wd.contact.dhat = 1e-3;
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.name = "box, \"one\""; // a comma and quotes: CSV-safe column names
    bd.mesh = mesh;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    ipcc_half_space_def ground = ipcc_default_half_space_def(); // normal +y
    ground.point[0] = 0.5, ground.point[1] = -5e-4, ground.point[2] = 0.25;
    ground.friction = 0;
    assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    ipcc_shape_def sd[3] = {ipcc_default_shape_def(), ipcc_default_shape_def(), ipcc_default_shape_def()};
    sd[0].name = "ball";
    sd[0].center[0] = 5;
    sd[0].size[0] = 0.5;
    sd[0].velocity[2] = 0.5;
    sd[0].angular_velocity[1] = 2;
    sd[1].name = "crate";
    sd[1].kind = IPCC_SHAPE_BOX;
    sd[1].center[0] = -5;
    sd[1].size[0] = 0.3, sd[1].size[1] = 0.2, sd[1].size[2] = 0.1;
    sd[1].angular_velocity[1] = 1;
    sd[2].name = "ball"; // a name twice: its columns get the object ids
    sd[2].kind = IPCC_SHAPE_TORUS;
    sd[2].center[2] = 5;
    sd[2].size[0] = 0.5, sd[2].size[1] = 0.1;
    for (int i = 0; i < 3; i++)
        assert_int_equal(ipcc_world_add_shape(w, &sd[i], NULL), IPCC_OK);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    const int nb = ipcc_world_num_bodies(w), no = ipcc_world_num_contact_objects(w);
    assert_int_equal(nb, 2); // the box and the crate's edges
    assert_int_equal(no, 5); // the box, the floor, the three shapes (the crate's edges are the crate)

    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    assert_int_equal(ipcc_output_set_compress(out, false), IPCC_OK); // the checks below parse raw blocks
    assert_int_equal(ipcc_output_set_contacts(out, true), IPCC_OK);
    ipcc_step_stats st;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
        assert_true(ipcc_world_step(w, &st) >= 0);
        assert_int_equal(ipcc_output_write_stats(out, w, &st), IPCC_OK);
    }
    assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
    assert_int_equal(ipcc_output_write_stats(out, NULL, &st), IPCC_ERR_INVALID_ARGUMENT); // no world: refused
    assert_true(st.num_contacts > 0);

    // Obstacles: crate edges (8 points, 12 lines), the floor's square, then the three shapes.
    int sp[3], stri[3], np = 8 + 4, nt = 2;
    for (int i = 0; i < 3; i++) {
        ipcc_shape_mesh_size(sd[i].kind, IPCC_SHAPE_MESH_AROUND, IPCC_SHAPE_MESH_ALONG, &sp[i], &stri[i]);
        np += sp[i];
        nt += stri[i];
    }
    assert_int_equal(stri[1], 12);
    snprintf(path, sizeof path, "%s/obstacles_000002.vtp", dir);
    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    char counts[160];
    snprintf(counts, sizeof counts,
             "NumberOfPoints=\"%d\" NumberOfVerts=\"0\" NumberOfLines=\"12\" NumberOfStrips=\"0\" "
             "NumberOfPolys=\"%d\"",
             np, nt);
    assert_non_null(strstr(buf, counts));
    double *x = malloc(sizeof(double) * 3 * (size_t)np), *v = malloc(sizeof(double) * 3 * (size_t)np);
    int32_t *ids = malloc(sizeof(int32_t) * (size_t)(12 + nt));
    memcpy(x, vtu_array(buf, size, "Points", 3 * (uint64_t)np * sizeof(double)),
           3 * (size_t)np * sizeof(double));
    memcpy(v, vtu_array(buf, size, "velocity", 3 * (uint64_t)np * sizeof(double)),
           3 * (size_t)np * sizeof(double));
    memcpy(ids, vtu_array(buf, size, "object_id", (uint64_t)(12 + nt) * sizeof(int32_t)),
           (size_t)(12 + nt) * sizeof(int32_t));
    int cell = 0;
    for (int c = 0; c < 12; c++)
        assert_int_equal(ids[cell++], 3); // the crate's edges: the crate
    for (int c = 0; c < 2; c++)
        assert_int_equal(ids[cell++], 1); // half-space 0
    int first = 12;
    for (int i = 0; i < 3; i++) {
        for (int c = 0; c < stri[i]; c++)
            assert_int_equal(ids[cell++], 2 + i);
        ipcc_shape pose = {.kind = sd[i].kind};
        memcpy(pose.size, ipcc_world_shape_def(w, i)->size, sizeof pose.size);
        ipcc_world_shape_pose(w, i, pose.center, pose.rotation);
        if (i == 0) assert_near(pose.center[2], 0.5 * ipcc_world_time(w), 1e-12, 0); // it moved
        for (int j = first; j < first + sp[i]; j++) {
            const double *p = x + 3 * j;
            assert_near(ipcc_shape_distance(&pose, p, NULL, NULL), 0, 1e-12, 0);
            const double *lv = sd[i].velocity, *om = sd[i].angular_velocity;
            double r[3] = {p[0] - pose.center[0], p[1] - pose.center[1], p[2] - pose.center[2]};
            double want[3] = {lv[0] + om[1] * r[2] - om[2] * r[1], lv[1] + om[2] * r[0] - om[0] * r[2],
                              lv[2] + om[0] * r[1] - om[1] * r[0]};
            for (int k = 0; k < 3; k++)
                assert_near(v[3 * j + k], want[k], 1e-12, 0);
        }
        first += sp[i];
    }
    assert_int_equal(first, np);
    const char names[] = "box, \"one\"\0half-space 0\0ball\0crate\0ball";
    assert_memory_equal(vtu_array(buf, size, "object_names", sizeof names), names, sizeof names);
    free(buf);

    // Contacts: the records of the current state, bit for bit.
    ipcc_contact_report *rep = NULL;
    assert_int_equal(ipcc_contact_report_create(&rep), IPCC_OK);
    const ipcc_contact_record *rec;
    int m = 0;
    assert_int_equal(ipcc_world_contacts(w, rep, &rec, &m), IPCC_OK);
    assert_true(m > 0);
    snprintf(path, sizeof path, "%s/contacts_000002.vtp", dir);
    buf = ipcc_test_read_file(path, &size);
    snprintf(counts, sizeof counts, "NumberOfPoints=\"%d\" NumberOfVerts=\"%d\"", m, m);
    assert_non_null(strstr(buf, counts));
    const unsigned char *pos = vtu_array(buf, size, "Points", 3 * (uint64_t)m * sizeof(double));
    const unsigned char *fn = vtu_array(buf, size, "normal_force", (uint64_t)m * sizeof(double));
    const unsigned char *nrm = vtu_array(buf, size, "normal", 3 * (uint64_t)m * sizeof(double));
    const unsigned char *ob = vtu_array(buf, size, "object_b", (uint64_t)m * sizeof(int32_t));
    const unsigned char *kind = vtu_array(buf, size, "kind", (uint64_t)m * sizeof(int32_t));
    for (int k = 0; k < m; k++) {
        assert_memory_equal(pos + 24 * k, rec[k].position, 24);
        assert_memory_equal(nrm + 24 * k, rec[k].normal, 24);
        assert_memory_equal(fn + 8 * k, &rec[k].normal_force, 8);
        int32_t b, t;
        memcpy(&b, ob + 4 * k, 4);
        memcpy(&t, kind + 4 * k, 4);
        assert_int_equal(b, 1); // the floor
        assert_int_equal(t, IPCC_CONTACT_POINT_HALF_SPACE);
    }
    free(buf);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = ipcc_test_read_file(path, NULL);
    assert_int_equal(count_substr(pvd, "part=\"2\" file=\"contacts_"), 3);
    free(pvd);

    // stats.csv: the usual columns, then x, y, z per object; the last row's forces as the report's.
    double forces[15];
    ipcc_contact_report_object_forces(rep, w, forces);
    assert_true(forces[1] > 0);
    ipcc_output_destroy(out);
    snprintf(path, sizeof path, "%s/stats.csv", dir);
    char *csv = ipcc_test_read_file(path, NULL);
    const char *columns =
        ",contact_force_x:box_ _one_,contact_force_y:box_ _one_,contact_force_z:box_ _one_,"
        "contact_force_x:half-space 0,contact_force_y:half-space 0,"
        "contact_force_z:half-space 0,contact_force_x:ball#2,contact_force_y:ball#2,"
        "contact_force_z:ball#2,contact_force_x:crate,contact_force_y:crate,contact_force_z:crate,"
        "contact_force_x:ball#4,contact_force_y:ball#4,contact_force_z:ball#4\n";
    const size_t fixed = strlen(STATS_HEADER) - 1; // without its newline
    assert_int_equal(strncmp(csv, STATS_HEADER, fixed), 0);
    assert_int_equal(strncmp(csv + fixed, columns, strlen(columns)), 0);
    const char *row2 = strchr(strchr(csv, '\n') + 1, '\n') + 1;
    for (int k = 0; k < 15; k++)
        assert_true(csv_field(row2, 37 + k) == forces[k]);
    assert_near(forces[1] + forces[3 + 1], 0, 1e-9 * forces[1], 0); // the floor takes the opposite
    free(csv);

    // Resume at the first row and two frames: the same columns, the contacts listed again.
    const double times[2] = {0, wd.time_step};
    assert_int_equal(ipcc_output_resume(dir, w, 2, times, 1, &out), IPCC_OK);
    assert_int_equal(ipcc_output_set_contacts(out, true), IPCC_OK);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    pvd = ipcc_test_read_file(path, NULL);
    assert_int_equal(count_substr(pvd, "part=\"2\" file=\"contacts_"), 2);
    free(pvd);
    assert_int_equal(ipcc_output_write_stats(out, w, &st), IPCC_OK);
    ipcc_output_destroy(out);
    snprintf(path, sizeof path, "%s/stats.csv", dir);
    csv = ipcc_test_read_file(path, NULL);
    assert_int_equal(count_substr(csv, "\n"), 3);
    row2 = strchr(strchr(csv, '\n') + 1, '\n') + 1;
    int commas = 0;
    for (const char *c = row2; *c && *c != '\n'; c++)
        commas += *c == ',';
    assert_int_equal(commas, 37 + 15 - 1);
    for (int k = 0; k < 15; k++)
        assert_true(csv_field(row2, 37 + k) == forces[k]);
    free(csv);
    free(x);
    free(v);
    free(ids);
    ipcc_contact_report_destroy(rep);
    ipcc_world_destroy(w);
    ipcc_test_remove_tree(dir);
}

/// A world whose only obstacle is a shape still writes the obstacles' .vtp:
/// the sphere's surface, every cell naming it.
static void test_shape_only_obstacles(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    ipcc_world *w = make_box_world();
    ipcc_shape_def sd = ipcc_default_shape_def();
    sd.center[1] = -3;
    assert_int_equal(ipcc_world_add_shape(w, &sd, NULL), IPCC_OK);
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    assert_int_equal(ipcc_output_set_compress(out, false), IPCC_OK); // the checks below parse raw blocks
    assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
    ipcc_output_destroy(out);
    int np, nt;
    ipcc_shape_mesh_size(IPCC_SHAPE_SPHERE, IPCC_SHAPE_MESH_AROUND, IPCC_SHAPE_MESH_ALONG, &np, &nt);
    snprintf(path, sizeof path, "%s/obstacles_000000.vtp", dir);
    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    char counts[128];
    snprintf(counts, sizeof counts, "NumberOfPoints=\"%d\" NumberOfVerts=\"0\" NumberOfLines=\"0\"", np);
    assert_non_null(strstr(buf, counts));
    const unsigned char *ids = vtu_array(buf, size, "object_id", (uint64_t)nt * sizeof(int32_t));
    for (int c = 0; c < nt; c++) {
        int32_t id;
        memcpy(&id, ids + 4 * c, 4);
        assert_int_equal(id, 1); // one body, no half-space: the shape is object 1
    }
    free(buf);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = ipcc_test_read_file(path, NULL);
    assert_non_null(strstr(pvd, "part=\"1\" file=\"obstacles_000000.vtp\""));
    free(pvd);
    ipcc_world_destroy(w);
    ipcc_test_remove_tree(dir);
}

static void test_stale_stats_truncated(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/stats.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("stale rows from an older run\n1,2,3\n4,5,6\n7,8,9\n", f);
    fclose(f);
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    ipcc_step_stats st;
    memset(&st, 0, sizeof st);
    st.step = 1;
    st.time = 0.1;
    st.converged = true;
    assert_int_equal(ipcc_output_write_stats(out, NULL, &st), IPCC_OK);
    // Flushed after every row: readable before close.
    char *csv = ipcc_test_read_file(path, NULL);
    assert_null(strstr(csv, "stale"));
    assert_int_equal(strncmp(csv, "step,time,", 10), 0);
    assert_non_null(strstr(csv,
                           "\n1,0.10000000000000001,0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,nan,nan,"
                           "nan,nan,nan,nan,nan,nan,nan,nan,0\n"));
    st.step = 2;
    st.lift_iterations = 1;
    st.num_contacts = 3;
    st.min_distance = INFINITY; // no contact: "inf"
    st.kappa = 2.5;
    st.time_ccd = 0.25;
    st.time_broad_phase = 0.125;
    st.friction_iterations = 2;
    st.friction_contacts = 7;
    st.friction_dissipation = 0.75;
    st.time_symbolic = 0.5;
    st.time_constraint_search = 0.0625;
    st.time_energy = 1.5;
    st.velocity_error = 0.375;
    st.substeps = 3;
    assert_int_equal(ipcc_output_write_stats(out, NULL, &st), IPCC_OK);
    free(csv);
    csv = ipcc_test_read_file(path, NULL);
    assert_int_equal(strncmp(csv, STATS_HEADER, strlen(STATS_HEADER)), 0);
    assert_non_null(
        strstr(csv,
               "\n2,0.10000000000000001,0,0,0,0,0,1,0.375,0,0,0,0,0,1,3,inf,2.5,0.25,0.125,"
               "2,7,0.75,0.5,0.0625,1.5,nan,nan,nan,nan,nan,nan,nan,nan,nan,nan,3\n")); // no world
    free(csv);
    ipcc_output_destroy(out);
    ipcc_output_destroy(NULL);
    ipcc_test_remove_tree(dir);
}

static void test_unwritable_folder(void **state) {
    (void)state;
    char dir[64], file[128], path[192];
    make_temp_dir(dir);
    snprintf(file, sizeof file, "%s/plain_file", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);

    ipcc_output *out = (ipcc_output *)&out; // must be reset to NULL on failure
    snprintf(path, sizeof path, "%s/sub/frames", file);
    assert_int_equal(ipcc_output_create(path, &out), IPCC_ERR_IO);
    assert_null(out);
    assert_non_null(strstr(ipcc_last_error(), path));

    assert_int_equal(ipcc_output_create(file, &out), IPCC_ERR_IO); // the folder itself is a file
    assert_null(out);
    assert_non_null(strstr(ipcc_last_error(), file));

    assert_int_equal(ipcc_output_create("", &out), IPCC_ERR_INVALID_ARGUMENT);

    if (geteuid() != 0) { // root writes anywhere
        snprintf(path, sizeof path, "%s/readonly", dir);
        assert_int_equal(mkdir(path, 0555), 0);
        assert_int_equal(ipcc_output_create(path, &out), IPCC_ERR_IO);
        assert_non_null(strstr(ipcc_last_error(), "not writable"));
        chmod(path, 0755);
    }
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_and_stats),           cmocka_unit_test(test_obstacles_and_contact_force),
        cmocka_unit_test(test_shapes_contacts_and_forces), cmocka_unit_test(test_shape_only_obstacles),
        cmocka_unit_test(test_stale_stats_truncated),      cmocka_unit_test(test_unwritable_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
