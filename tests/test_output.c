// Tests for src/output.c: a world with a box body writes 3 frames and 3 stats
// rows into a nested folder created on open; the .pvd lists the frames, the
// last .vtu holds displacement = x - rest bit-exactly, stats.csv has a header
// and one row per step, nothing temporary is left behind; a stale stats.csv is
// truncated; a folder under a regular file (or a read-only one) fails on open.
//
// Set IPCC_OUTPUT_TEST_DIR to keep the frames of the first test in that folder
// (e.g. to run tests/vtk_check.py on them).
#include "support.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/world.h"

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
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_open(dir, &out), IPCC_OK);
    assert_int_equal(ipcc_output_frame_count(out), 0);

    const int nv = ipcc_world_num_vertices(w), nt = ipcc_world_num_tets(w);
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
        assert_int_equal(ipcc_output_write_stats(out, &st), IPCC_OK);
    }
    ipcc_output_close(out);

    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = ipcc_test_read_file(path, NULL);
    assert_int_equal(count_substr(pvd, "<DataSet "), 3);
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
    const char *header =
        "step,time,newton_iterations,line_search_steps,factorization_fallbacks,energy,residual,"
        "converged,time_assembly,time_factorization,time_solve,time_line_search,time_total\n";
    assert_int_equal(strncmp(csv, header, strlen(header)), 0);
    assert_int_equal(count_substr(csv, "\n"), 4);
    const char *row = csv + strlen(header);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(atoi(row), i + 1); // steps are 1-based
        const char *end = strchr(row, '\n');
        int commas = 0;
        for (const char *p = row; p < end; p++)
            commas += *p == ',';
        assert_int_equal(commas, 12);
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
    assert_int_equal(ipcc_output_open(dir, &out), IPCC_OK);
    ipcc_step_stats st;
    memset(&st, 0, sizeof st);
    st.step = 1;
    st.time = 0.1;
    st.converged = true;
    assert_int_equal(ipcc_output_write_stats(out, &st), IPCC_OK);
    // Flushed after every row: readable before close.
    char *csv = ipcc_test_read_file(path, NULL);
    assert_null(strstr(csv, "stale"));
    assert_int_equal(strncmp(csv, "step,time,", 10), 0);
    assert_non_null(strstr(csv, "\n1,0.10000000000000001,0,0,0,0,0,1,0,0,0,0,0\n"));
    free(csv);
    ipcc_output_close(out);
    ipcc_output_close(NULL);
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
    assert_int_equal(ipcc_output_open(path, &out), IPCC_ERR_IO);
    assert_null(out);
    assert_non_null(strstr(ipcc_last_error(), path));

    assert_int_equal(ipcc_output_open(file, &out), IPCC_ERR_IO); // the folder itself is a file
    assert_null(out);
    assert_non_null(strstr(ipcc_last_error(), file));

    assert_int_equal(ipcc_output_open("", &out), IPCC_ERR_INVALID_ARGUMENT);

    if (geteuid() != 0) { // root writes anywhere
        snprintf(path, sizeof path, "%s/readonly", dir);
        assert_int_equal(mkdir(path, 0555), 0);
        assert_int_equal(ipcc_output_open(path, &out), IPCC_ERR_IO);
        assert_non_null(strstr(ipcc_last_error(), "not writable"));
        chmod(path, 0755);
    }
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_and_stats),
        cmocka_unit_test(test_stale_stats_truncated),
        cmocka_unit_test(test_unwritable_folder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
