// The frame reader (src/output/frames_read.c) against the writer beside it:
// a box above a half-space written by ipcc_output, raw and zlib-compressed,
// reads back as two parts per frame, with each frame's time and path, the
// box's positions bit for bit (Points of the .vtu), the obstacle square's
// four corners (Points of the .vtp) and the FieldData TimeValue and
// length_scale. Each failure has its status and a message naming the file,
// with nothing left allocated: a missing folder, a file given as the
// folder, a folder without frames.pvd, a listed frame that is missing or is
// a folder (ipcc_read_file's messages), a truncated frame.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/world.h"
#include "output/frames_read.h"
#include "support.h"

static ipcc_world *make_world(void) {
    const double size[3] = {1.0, 0.5, 0.5};
    ipcc_mesh *mesh = NULL;
    assert_int_equal(ipcc_mesh_create_box(2, 1, 1, size, &mesh), IPCC_OK);
    ipcc_world_def wd = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = mesh;
    bd.translation[1] = 1;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    ipcc_half_space_def ground = ipcc_default_half_space_def(); // normal +y, through the origin
    assert_int_equal(ipcc_world_add_half_space(w, &ground, NULL), IPCC_OK);
    assert_int_equal(ipcc_world_start(w), IPCC_OK);
    return w;
}

/// Two frames of w (a step between them) into dir; the second frame's positions into x.
static void write_frames(ipcc_world *w, const char *dir, bool compress, double *x) {
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    assert_int_equal(ipcc_output_set_compress(out, compress), IPCC_OK);
    assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
    ipcc_step_stats st;
    assert_true(ipcc_world_step(w, &st) >= 0);
    assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
    memcpy(x, ipcc_world_positions(w), sizeof(double) * 3 * (size_t)ipcc_world_num_deformable_vertices(w));
    ipcc_output_destroy(out);
}

static void check_read_back(bool compress) {
    char base[] = "/tmp/ipcc_test_frames_read_XXXXXX", dir[128], path[192];
    assert_non_null(mkdtemp(base));
    snprintf(dir, sizeof dir, "%s/run", base);
    ipcc_world *w = make_world();
    const int nd = ipcc_world_num_deformable_vertices(w);
    double *x = malloc(sizeof(double) * 3 * (size_t)nd);
    assert_non_null(x);
    write_frames(w, dir, compress, x);

    ipcc_frames_list list;
    assert_int_equal(ipcc_frames_list_read(dir, &list), IPCC_OK);
    assert_int_equal(list.num_frames, 2);
    assert_non_null(list.obstacles);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    assert_string_equal(list.pvd, path);
    snprintf(path, sizeof path, "%s/frame_000001.vtu", dir);
    assert_string_equal(list.bodies[1], path);
    snprintf(path, sizeof path, "%s/obstacles_000001.vtp", dir);
    assert_string_equal(list.obstacles[1], path);
    assert_true(list.times[0] == 0);
    assert_true(list.times[1] == ipcc_world_time(w));

    ipcc_frames_points p;
    assert_int_equal(ipcc_frames_points_read(list.bodies[1], &p), IPCC_OK);
    assert_int_equal(p.num_points, nd);
    assert_memory_equal(p.xyz, x, sizeof(double) * 3 * (size_t)nd);
    assert_true(p.has_time && p.time == ipcc_world_time(w));
    assert_true(p.has_length_scale && p.length_scale == ipcc_world_bbox_diagonal(w));
    ipcc_frames_points_free(&p);
    assert_null(p.xyz);

    // The half-space's square: 4 corners in the plane y = 0.
    assert_int_equal(ipcc_frames_points_read(list.obstacles[1], &p), IPCC_OK);
    assert_int_equal(p.num_points, 4);
    for (int k = 0; k < 4; k++)
        assert_true(p.xyz[3 * k + 1] == 0);
    ipcc_frames_points_free(&p);

    // A truncated frame: a parse error naming it, nothing left allocated.
    size_t size;
    char *text = ipcc_test_read_file(list.bodies[1], &size);
    ipcc_test_write_file(list.bodies[1], text, size / 2);
    free(text);
    p.num_points = 7;
    assert_int_equal(ipcc_frames_points_read(list.bodies[1], &p), IPCC_ERR_PARSE);
    assert_non_null(strstr(ipcc_last_error(), list.bodies[1]));
    assert_non_null(strstr(ipcc_last_error(), "truncated"));
    assert_int_equal(p.num_points, 0);
    assert_null(p.xyz);

    ipcc_frames_list_free(&list);
    assert_int_equal(list.num_frames, 0);
    assert_null(list.bodies);
    ipcc_world_destroy(w);
    free(x);
    ipcc_test_remove_tree(base);
}

static void test_raw(void **state) {
    (void)state;
    check_read_back(false);
}

static void test_compressed(void **state) {
    (void)state;
    check_read_back(true);
}

static void test_unreadable(void **state) {
    (void)state;
    char base[] = "/tmp/ipcc_test_frames_read_XXXXXX", path[128], msg[256];
    assert_non_null(mkdtemp(base));
    ipcc_frames_list list;
    snprintf(path, sizeof path, "%s/nowhere", base);
    assert_int_equal(ipcc_frames_list_read(path, &list), IPCC_ERR_IO);
    snprintf(msg, sizeof msg, "cannot open folder '%s': No such file or directory", path);
    assert_string_equal(ipcc_last_error(), msg);
    assert_null(list.pvd);

    snprintf(path, sizeof path, "%s/plain", base);
    ipcc_test_write_text(path, "");
    assert_int_equal(ipcc_frames_list_read(path, &list), IPCC_ERR_IO);
    snprintf(msg, sizeof msg, "'%s' is not a folder (expected an ipcc output folder holding frames.pvd)",
             path);
    assert_string_equal(ipcc_last_error(), msg);

    assert_int_equal(ipcc_frames_list_read(base, &list), IPCC_ERR_IO);
    snprintf(msg, sizeof msg, "'%s' has no frames.pvd: not an ipcc output folder (or no frame was written)",
             base);
    assert_string_equal(ipcc_last_error(), msg);
    assert_null(list.pvd);

    // frames.pvd lists a frame that is missing, or a folder: ipcc_read_file's messages.
    snprintf(path, sizeof path, "%s/frames.pvd", base);
    ipcc_test_write_text(path, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\">\n<Collection>\n"
                               "<DataSet timestep=\"0\" part=\"0\" file=\"frame_000000.vtu\"/>\n"
                               "<DataSet timestep=\"1\" part=\"0\" file=\"frame_000001.vtu\"/>\n"
                               "</Collection>\n</VTKFile>\n");
    assert_int_equal(ipcc_frames_list_read(base, &list), IPCC_OK);
    assert_int_equal(list.num_frames, 2);
    assert_null(list.obstacles);
    ipcc_frames_points p;
    assert_int_equal(ipcc_frames_points_read(list.bodies[0], &p), IPCC_ERR_IO);
    snprintf(msg, sizeof msg, "%s: cannot open: No such file or directory", list.bodies[0]);
    assert_string_equal(ipcc_last_error(), msg);
    assert_int_equal(mkdir(list.bodies[1], 0777), 0);
    assert_int_equal(ipcc_frames_points_read(list.bodies[1], &p), IPCC_ERR_IO);
    snprintf(msg, sizeof msg, "%s: read error: Is a directory", list.bodies[1]);
    assert_string_equal(ipcc_last_error(), msg);
    ipcc_frames_list_free(&list);
    ipcc_test_remove_tree(base);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw),
        cmocka_unit_test(test_compressed),
        cmocka_unit_test(test_unreadable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
