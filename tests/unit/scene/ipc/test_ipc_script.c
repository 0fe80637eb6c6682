// Tests for the IPC script reader (src/scene/ipc/ipc_script.c, ipc_script_lexer.c,
// ipc_script_keywords.c): the lexer and keyword parser of IPC's `.txt`
// scene scripts (docs/ipc-script-format.md §2, §3). Every scene in
// tests/ipc_scenes/input parses in strict mode, with per-scene spot checks;
// synthetic scripts cover the lexical rules one by one: tol/tuning lists that
// span lines, `\` continuations and `#` in shape extras (with IPC's quirk),
// skipped lines inside `shapes`, `shapeMatrix` ordering, sections, unknown
// keywords (warning vs strict error), malformed numbers (the message names
// the line, keyword and token), CRLF, and dHat/epsv against a short tuning.
// ipcc_ipc_script_read() gives the record of the file's text, and names the
// file when it cannot be read, is a folder or holds a NUL byte (the messages
// of base/read_file.c, the project's one file reader).
#include "support.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scene/ipc/ipc_script.h"

#define SCENES IPCC_SOURCE_DIR "/tests/ipc_scenes/input"

// ---------------------------------------------------------------------------
// Helpers: log capture, parsing, lookups.

static int warnings, debugs;
static char last_warning[1024];
static char debug_log[16384];

static void capture(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    if (level == IPCC_LOG_WARNING) {
        warnings++;
        snprintf(last_warning, sizeof last_warning, "%s", message);
    } else if (level == IPCC_LOG_DEBUG) {
        debugs++;
        size_t used = strlen(debug_log);
        snprintf(debug_log + used, sizeof debug_log - used, "%s\n", message);
    }
}

static void capture_start(void) {
    warnings = debugs = 0;
    last_warning[0] = debug_log[0] = '\0';
    ipcc_set_log(capture, NULL);
}

static void capture_stop(void) { ipcc_set_log(NULL, NULL); }

static ipcc_ipc_script *parse_ok(const char *text, bool strict) {
    ipcc_ipc_script *s = NULL;
    ipcc_status st = ipcc_ipc_script_parse(text, "t.txt", strict, &s);
    if (st != IPCC_OK) fail_msg("%s: %s", ipcc_status_name(st), ipcc_last_error());
    assert_non_null(s);
    return s;
}

static ipcc_ipc_script *parse_scene(const char *rel) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", SCENES, rel);
    char *text = ipcc_test_read_file(path, NULL);
    ipcc_ipc_script *s = NULL;
    ipcc_status st = ipcc_ipc_script_parse(text, rel, true, &s);
    free(text);
    if (st != IPCC_OK) fail_msg("%s: %s: %s", rel, ipcc_status_name(st), ipcc_last_error());
    assert_string_equal(s->path, rel);
    return s;
}

static ipcc_ipc_script dummy; // a non-NULL *out that failures must reset

// The parse fails with IPCC_ERR_PARSE and a message containing `message`.
static void expect_error(const char *text, bool strict, const char *message) {
    ipcc_ipc_script *s = &dummy;
    ipcc_status st = ipcc_ipc_script_parse(text, "t.txt", strict, &s);
    if (st != IPCC_ERR_PARSE)
        fail_msg("expected IPCC_ERR_PARSE for:\n%s\ngot %s", text, ipcc_status_name(st));
    assert_null(s);
    if (!strstr(ipcc_last_error(), message))
        fail_msg("message '%s' does not contain '%s'", ipcc_last_error(), message);
}

static void assert_vec3(const double *v, double x, double y, double z) {
    assert_true(v[0] == x);
    assert_true(v[1] == y);
    assert_true(v[2] == z);
}

// Index of the first note with this keyword, or -1.
static int find_note(const ipcc_ipc_script *s, const char *keyword) {
    for (int i = 0; i < s->num_notes; i++)
        if (strcmp(s->notes[i].keyword, keyword) == 0) return i;
    return -1;
}

static void assert_default_tuning_from(const ipcc_ipc_script *s, int first) {
    static const double d[6] = {0, 1e-3, 1e-3, 1e-9, 1e-3, 1e-3};
    for (int i = first; i < 6; i++)
        assert_true(s->tuning[i] == d[i]);
}

// ---------------------------------------------------------------------------
// The scene files.

// Parses every .txt below dir (strict) and counts them.
static void parse_tree(const char *dir, int *count) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        size_t n = strlen(e->d_name);
        if (S_ISDIR(st.st_mode)) {
            parse_tree(path, count);
        } else if (n > 4 && strcmp(e->d_name + n - 4, ".txt") == 0) {
            const char *rel = path + strlen(SCENES) + 1;
            ipcc_ipc_script *s = parse_scene(rel);
            assert_true(s->num_shapes > 0);
            assert_int_equal(s->num_unknown, 0);
            ipcc_ipc_script_destroy(s);
            (*count)++;
        }
    }
    closedir(d);
}

static void test_all_scenes_strict(void **state) {
    (void)state;
    capture_start();
    int count = 0;
    parse_tree(SCENES, &count);
    capture_stop();
    assert_true(count >= 28);
    assert_int_equal(warnings, 0);
}

static void test_hit_card_house(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_scene("paperExamples/5_hitCardHouse.txt");
    assert_int_equal(s->num_shapes, 9);
    const double tuning[6] = {0, 1e-4, 1e-4, 1e-9, 1.000001e-5, 1e-5};
    assert_int_equal(s->num_tuning, 6);
    for (int i = 0; i < 6; i++)
        assert_true(s->tuning[i] == tuning[i]);
    assert_true(s->self_friction == 0.9);
    assert_int_equal(s->num_half_spaces, 1);
    assert_vec3(s->half_spaces[0].origin, 0, 2.568, 0);
    assert_vec3(s->half_spaces[0].normal, 0, 1, 0);
    assert_true(s->half_spaces[0].friction == 0.9);
    assert_true(s->size == 5);
    assert_true(s->youngs == 1e8);
    assert_string_equal(s->script, "fall");
    assert_false(s->fcr);
    assert_string_equal(s->shapes[4].path, "input/tetMeshes/mat20x20.msh");
    assert_vec3(s->shapes[4].translation, 0.78, 0.445, 0);
    assert_vec3(s->shapes[4].scale, 1.1, 1, 1.1);
    assert_vec3(s->shapes[1].rotation, 0, 0, -60);
    assert_string_equal(s->shapes[8].path, "input/tetMeshes/cube.msh");
    assert_int_equal(s->shapes[8].line, 18);
    assert_int_equal(s->num_tol, 0);
    assert_true(find_note(s, "zoom") >= 0 && find_note(s, "view") >= 0);
    ipcc_ipc_script_destroy(s);
}

static void test_mat_knives(void **state) {
    (void)state;
    capture_start();
    ipcc_ipc_script *s = parse_scene("paperExamples/2_matKnives.txt");
    capture_stop();
    assert_int_equal(s->num_shapes, 10);
    assert_string_equal(s->script, "DCOFix");
    assert_string_equal(s->shapes[9].path, "input/triMeshes/triangle.obj");
    assert_vec3(s->shapes[9].rotation, 0, 180, 90);
    // `section QP` ends with a bare `section`: skipped to the end of the file.
    assert_int_equal(s->num_tol, 0);
    assert_null(s->tol);
    assert_true(s->duration == 6 && s->time_step == 0.04);
    assert_int_equal(s->warm_start, 0);
    int n = find_note(s, "section");
    assert_true(n >= 0);
    assert_int_equal(s->notes[n].line, 33);
    assert_non_null(strstr(debug_log,
                           "paperExamples/2_matKnives.txt:33: 'section' ignored (lines 33-40 skipped "
                           "to the end of the file"));
    assert_int_equal(find_note(s, "constraintType"), -1); // inside the skipped section
    assert_int_equal(warnings, 0);
    assert_vec3(s->half_spaces[0].origin, 0, -0.01, 0);
    ipcc_ipc_script_destroy(s);
}

static void test_mat40x40s_fall(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_scene("otherExamples/varyYoungs/2_mat40x40s_fall_E1e2.txt");
    assert_int_equal(s->num_shapes, 2);
    assert_int_equal(s->num_tol, 1);
    assert_true(s->tol[0] == 1e-3); // the last line has no newline
    assert_int_equal(s->num_half_spaces, 1);
    assert_vec3(s->half_spaces[0].origin, 0, 0.5, 0); // `ground 0 0.5 50.0`: 50 ignored
    assert_vec3(s->half_spaces[0].normal, 0, 1, 0);
    assert_true(s->half_spaces[0].friction == 0);
    assert_true(s->youngs == 1e2 && s->poisson == 0.4 && s->density == 1000);
    assert_true(s->duration == 3 && s->time_step == 0.025);
    assert_true(s->size == 1);
    assert_false(s->newmark);
    assert_true(find_note(s, "cameraTracking") >= 0);
    ipcc_ipc_script_destroy(s);

    s = parse_scene("otherExamples/varyYoungs/2_mat40x40s_fall_E1e6.txt");
    assert_int_equal(s->num_tuning, 2);
    assert_true(s->tuning[0] == 0 && s->tuning[1] == 1e-3);
    assert_default_tuning_from(s, 2);
    ipcc_ipc_script_destroy(s);
}

static void test_dbc_time_range(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_scene("tutorialExamples/BC/2cubesFall_DBC_timeRange.txt");
    assert_int_equal(s->num_shapes, 2);
    assert_int_equal(s->shapes[0].num_dbc, 0);
    const ipcc_ipc_script_shape *sh = &s->shapes[1];
    assert_int_equal(sh->line, 3);
    assert_int_equal(sh->num_dbc, 4);
    assert_int_equal(sh->num_nbc, 0);
    const double start[4] = {0, 2.5, 0, 2.5}, end[4] = {2.5, INFINITY, 2.5, INFINITY};
    const double vx[4] = {-0.2, 0, 0, 0.2};
    for (int g = 0; g < 4; g++) {
        const ipcc_ipc_script_group *d = &sh->dbc[g];
        assert_int_equal(d->line, 4 + g);
        assert_true(d->start == start[g]);
        assert_true(d->end == end[g]);
        assert_vec3(d->value, vx[g], 0, vx[g]);
        assert_vec3(d->angular, 0, 0, 0);
    }
    assert_vec3(sh->dbc[0].box_min, -0.1, -0.1, -0.1);
    assert_vec3(sh->dbc[0].box_max, 0.1, 1.1, 0.1);
    assert_vec3(sh->dbc[3].box_min, 0.9, -0.1, 0.9);
    assert_vec3(sh->dbc[3].box_max, 1.1, 1.1, 1.1);
    assert_int_equal(s->num_half_spaces, 1);
    assert_true(s->half_spaces[0].friction == 0.1);
    assert_int_equal(s->half_spaces[0].line, 11);
    ipcc_ipc_script_destroy(s);

    s = parse_scene("tutorialExamples/BC/2cubesFall_DBC.txt");
    assert_int_equal(s->shapes[1].num_dbc, 2);
    assert_true(s->shapes[1].dbc[1].start == 0 && s->shapes[1].dbc[1].end == INFINITY);
    assert_vec3(s->shapes[1].dbc[1].value, 0.2, 0, 0.2);
    ipcc_ipc_script_destroy(s);
}

static void test_nbc(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_scene("tutorialExamples/BC/2cubesFall_NBC.txt");
    const ipcc_ipc_script_shape *sh = &s->shapes[1];
    assert_int_equal(sh->num_nbc, 2);
    assert_int_equal(sh->num_dbc, 0);
    assert_vec3(sh->nbc[0].value, -50, 0, -50);
    assert_vec3(sh->nbc[1].value, 50, 0, 50);
    assert_vec3(sh->nbc[1].box_min, 0.9, -0.1, 0.9);
    assert_vec3(sh->nbc[0].angular, 0, 0, 0);
    assert_true(sh->nbc[0].start == 0 && sh->nbc[0].end == INFINITY);
    ipcc_ipc_script_destroy(s);

    s = parse_scene("tutorialExamples/BC/2cubesFall_NBC_timeRange.txt");
    sh = &s->shapes[1];
    assert_int_equal(sh->num_nbc, 2);
    assert_vec3(sh->nbc[0].value, -5, 0, -5);
    assert_true(sh->nbc[0].start == 0 && sh->nbc[0].end == 1);
    assert_true(sh->nbc[1].start == 1 && sh->nbc[1].end == INFINITY);
    ipcc_ipc_script_destroy(s);
}

static void test_tet_slots(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_scene("paperExamples/10_tetSlots.txt");
    assert_int_equal(s->num_shapes, 1);
    assert_int_equal(s->num_mesh_cos, 4);
    assert_string_equal(s->mesh_cos[0].path, "input/triMeshes/cube.obj");
    assert_vec3(s->mesh_cos[0].position, -0.5000005, 0, 0.5);
    assert_true(s->mesh_cos[0].scale == 1 && s->mesh_cos[0].friction == 0);
    assert_vec3(s->mesh_cos[0].rotation, 0, 0, 0);
    assert_string_equal(s->mesh_cos[3].path, "input/triMeshes/plane.obj");
    assert_vec3(s->mesh_cos[3].position, 0, -0.5, 0);
    assert_true(s->mesh_cos[3].scale == 10);
    assert_int_equal(s->mesh_cos[3].line, 19);
    assert_int_equal(s->num_tuning, 3);
    assert_true(s->tuning[0] == 0 && s->tuning[1] == 1e-6 && s->tuning[2] == 1e-6);
    assert_default_tuning_from(s, 3);
    // `section SQP QP` ... `section end` is skipped.
    assert_true(s->duration == 2.5 && s->time_step == 0.025);
    assert_int_equal(s->warm_start, 0);
    assert_true(s->fcr);
    assert_string_equal(s->script, "fall");
    assert_int_equal(s->notes[find_note(s, "section")].line, 28);
    ipcc_ipc_script_destroy(s);
}

static void test_roller_ball(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_scene("paperExamples/8_rollerBall.txt");
    assert_string_equal(s->script, "DCORotCylinders");
    assert_int_equal(s->num_script_params, 0);
    assert_int_equal(s->num_shapes, 5);
    assert_vec3(s->shapes[2].rotation, 0, 90, 0);
    assert_vec3(s->shapes[2].scale, 2, 2, 2);
    assert_string_equal(s->shapes[4].path, "input/tetMeshes/sphere5K.msh");
    assert_true(s->size == 2 && s->self_friction == 0.5);
    assert_true(s->duration == 10 && s->time_step == 0.01);
    assert_vec3(s->half_spaces[0].origin, 0, -1.5, 0);
    ipcc_ipc_script_destroy(s);
}

static void test_cubes_fall_materials(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_scene("tutorialExamples/2cubesFall_full.txt");
    for (int i = 0; i < 2; i++) {
        assert_true(s->shapes[i].has_material);
        assert_true(s->shapes[i].density == 1000 && s->shapes[i].youngs == 1e5 &&
                    s->shapes[i].poisson == 0.4);
    }
    assert_true(s->damping_ratio == 0 && s->damping_stiff == 0);
    assert_false(s->newmark);
    assert_true(s->duration == 5 && s->time_step == 0.025); // last line without newline
    ipcc_ipc_script_destroy(s);

    s = parse_scene("tutorialExamples/2cubesFall_heavyTop.txt");
    assert_true(s->shapes[0].has_material);
    assert_true(s->shapes[0].density == 3000 && s->shapes[0].youngs == 1e8);
    assert_false(s->shapes[1].has_material);
    ipcc_ipc_script_destroy(s);

    s = parse_scene("tutorialExamples/2cubesFall_largerDt.txt");
    assert_true(s->duration == 5 && s->time_step == 1);
    assert_true(s->self_collision);
    ipcc_ipc_script_destroy(s);
}

// ---------------------------------------------------------------------------
// Synthetic scripts.

static void test_defaults(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_ok("", true);
    assert_string_equal(s->path, "t.txt");
    assert_int_equal(s->num_shapes, 0);
    assert_true(s->duration == 5 && s->time_step == 0.025);
    assert_true(s->density == 1000 && s->youngs == 1e5 && s->poisson == 0.4);
    assert_false(s->fcr);
    assert_false(s->newmark);
    assert_true(s->newmark_beta == 0.25 && s->newmark_gamma == 0.5);
    assert_true(s->damping_stiff == 0 && s->damping_ratio == 0);
    assert_false(s->gravity_off);
    assert_true(s->size == -1 && s->rotate_degrees == 0);
    assert_string_equal(s->script, "null");
    assert_int_equal(s->num_script_params, 0);
    assert_null(s->script_folder);
    assert_true(s->self_collision);
    assert_true(s->self_friction == 0);
    assert_int_equal(s->num_tuning, 6);
    assert_default_tuning_from(s, 0);
    assert_int_equal(s->num_tol, 0);
    assert_int_equal(s->fric_iter_amt, 1);
    assert_true(s->handle_ratio == 0.01);
    assert_true(s->dbc_time_range[0] == 0 && s->dbc_time_range[1] == INFINITY);
    assert_true(s->nbc_time_range[0] == 0 && s->nbc_time_range[1] == INFINITY);
    assert_int_equal(s->warm_start, 0);
    assert_true(s->kappa_min_multiplier == 1e11);
    assert_false(s->use_abs_parameters);
    assert_true(s->playback_speed == 1);
    assert_null(s->restart);
    assert_int_equal(s->num_notes + s->num_unknown, 0);
    ipcc_ipc_script_destroy(s);

    s = parse_ok("\n   \n# comment only\n  #another\n\t\n", true);
    assert_int_equal(s->num_notes + s->num_unknown + s->num_shapes, 0);
    ipcc_ipc_script_destroy(s);
    ipcc_ipc_script_destroy(NULL);
}

static void test_tol_tuning_span_lines(void **state) {
    (void)state;
    // Values come from the following tokens of the file; text after the K-th
    // value is a new line.
    ipcc_ipc_script *s =
        parse_ok("tol 3 ignored 7\n1e-2\n\n  1e-3 1e-4 selfCollisionOff\ntime 2 0.01\n", true);
    assert_int_equal(s->num_tol, 3);
    assert_true(s->tol[0] == 1e-2 && s->tol[1] == 1e-3 && s->tol[2] == 1e-4);
    assert_false(s->self_collision);
    assert_true(s->duration == 2 && s->time_step == 0.01);
    ipcc_ipc_script_destroy(s);

    s = parse_ok("tuning 2\n0\n1e-4 dHat 5e-5\ntol 1\n0.5\ntol 2 0.1 0.2\n0.3\n0.4", true);
    assert_int_equal(s->num_tuning, 3);
    assert_true(s->tuning[1] == 5e-5 && s->tuning[2] == 5e-5);
    assert_int_equal(s->num_tol, 2); // the second tol replaces the first
    assert_true(s->tol[0] == 0.3 && s->tol[1] == 0.4);
    ipcc_ipc_script_destroy(s);

    // `tol 1 1e-4` on one line does not work in IPC: the value is the next line's first token.
    expect_error("tol 1 1e-4\ntime 1 0.5\n", true, "t.txt:2: tol: value 1 of 1 is not a number (got 'time')");
    expect_error("size 1\ntol 3\n1e-3\n1e-4\ntime 1 0.5\n", true,
                 "t.txt:5: tol: value 3 of 3 is not a number (got 'time')");
    expect_error("tol 3\n1e-3\n1e-4\n", true,
                 "t.txt:1: tol: missing value 3 of 3 on the following lines (got end of file)");
    expect_error("tuning 6\n0\n1e-3\n# comment\n", true,
                 "t.txt:4: tuning: value 3 of 6 is not a number (got '#')");
    expect_error("tuning 2\n0\ninf\n", true, "t.txt:3: tuning: value 2 of 2 must be finite (got 'inf')");
}

static const char shapes_with_comments[] =
    "shapes input 3\n"
    "a.msh 0 0 0  0 0 0  1 1 1  # DBC 0 0 0 1 1 1 0 0 0 0 0 0 \\\n"             // 2: comment, yet continues
    "  NBC 0 0 0  1 1 1  0 -1 0  0.5 \\\n"                                      // 3
    "  material 10 20 0.3 # initVel 1 2 3 4 5 6\n"                              // 4: no continuation
    "b.msh 1 2 3  0 0 0  1 1 1 \\ material 1 2 3\n"                             // 5: `\` ends the line
    "  # just a comment line, continued anyway \\\n"                            // 6
    "  linearVelocity 1 2 3 angularVelocity 4 5 6 meshSeq seq DBC 0 0 0 1 1 1 " // 7
    "1 2 3 4 5 6 0.5 \\\n"
    "\n" // 8: blank continuation
    "c.msh 0 0 0  0 0 0  1 1 1  initVel 1 2 3 4 5 6 material 1 1 0.1 material 2 2 0.2   \n" // 9
    "selfCollisionOff\n";

static void test_shape_extras_comments_continuation(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_ok(shapes_with_comments, true);
    assert_int_equal(s->num_shapes, 3);
    const ipcc_ipc_script_shape *a = &s->shapes[0], *b = &s->shapes[1], *c = &s->shapes[2];
    assert_int_equal(a->line, 2);
    assert_int_equal(a->num_dbc, 0);
    assert_int_equal(a->num_nbc, 1);
    assert_int_equal(a->nbc[0].line, 3);
    assert_vec3(a->nbc[0].value, 0, -1, 0);
    assert_true(a->nbc[0].start == 0.5 && a->nbc[0].end == INFINITY);
    assert_true(a->has_material && a->density == 10 && a->youngs == 20 && a->poisson == 0.3);
    assert_false(a->has_init_vel);

    assert_int_equal(b->line, 5);
    assert_false(b->has_material);
    assert_true(b->has_linear_velocity && b->has_angular_velocity);
    assert_vec3(b->linear_velocity, 1, 2, 3);
    assert_vec3(b->angular_velocity, 4, 5, 6);
    assert_string_equal(b->mesh_seq, "seq");
    assert_int_equal(b->num_dbc, 1);
    assert_vec3(b->dbc[0].value, 1, 2, 3);
    assert_vec3(b->dbc[0].angular, 4, 5, 6);
    assert_true(b->dbc[0].start == 0.5 && b->dbc[0].end == INFINITY);
    assert_int_equal(b->dbc[0].line, 7);

    assert_int_equal(c->line, 9);
    assert_true(c->has_init_vel);
    assert_vec3(c->init_velocity, 1, 2, 3);
    assert_vec3(c->init_angular, 4, 5, 6);
    assert_true(c->density == 2 && c->poisson == 0.2); // the last material wins
    assert_false(c->from_matrix);
    assert_false(s->self_collision);
    ipcc_ipc_script_destroy(s);
}

static void test_shapes_skipped_lines_and_blocks(void **state) {
    (void)state;
    ipcc_ipc_script *s =
        parse_ok("shapes input 2\n\n# first\na.msh 0 0 0 0 0 0 1 1 1\n   \n"
                 "#b.msh 9 9 9 0 0 0 1 1 1\nb.msh 1 1 1 0 0 0 2 2 2\nselfCollisionOff\n"
                 "shape input c.obj\nshapes input 0\nshapes input 1\nd.msh 0 0 0 0 0 0 1 1 1\n",
                 true);
    assert_int_equal(s->num_shapes, 4);
    assert_int_equal(s->shapes[0].line, 4);
    assert_int_equal(s->shapes[1].line, 7);
    assert_vec3(s->shapes[1].scale, 2, 2, 2);
    assert_false(s->self_collision);
    assert_string_equal(s->shapes[2].path, "c.obj"); // `shape`: identity
    assert_vec3(s->shapes[2].translation, 0, 0, 0);
    assert_vec3(s->shapes[2].scale, 1, 1, 1);
    assert_int_equal(s->shapes[2].line, 9);
    assert_string_equal(s->shapes[3].path, "d.msh"); // blocks append
    ipcc_ipc_script_destroy(s);

    expect_error("shapes input 3\na.msh 0 0 0 0 0 0 1 1 1\n\n# c\n", true,
                 "t.txt:1: shapes: the block ends after 1 of 3 shapes (got end of file)");
    // Too few lines: the next keyword is read as a shape line.
    expect_error("shapes input 2\na.msh 0 0 0 0 0 0 1 1 1\nselfCollisionOn\n", true,
                 "t.txt:3: shapes: missing translation x (got end of line)");
}

static void test_shape_matrix(void **state) {
    (void)state;
    ipcc_ipc_script *s =
        parse_ok("shapeMatrix input 2 3 2\ncube.msh 1 2 3  0 90 0  0.5 0.5 0.5 material 10 20 0.3\n"
                 "shapeMatrix input 1 2 1 10 20 30\n\ttet.msh 1 2 3 0 0 0 1 1 1\n",
                 true);
    assert_int_equal(s->num_shapes, 14);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 2; k++) {
                const ipcc_ipc_script_shape *sh = &s->shapes[(i * 3 + j) * 2 + k];
                assert_string_equal(sh->path, "cube.msh");
                assert_vec3(sh->translation, i * 1.0, j * 2.0, k * 3.0); // missing p: 0
                assert_vec3(sh->rotation, 0, 90, 0);
                assert_vec3(sh->scale, 0.5, 0.5, 0.5);
                assert_true(sh->has_material && sh->density == 10 && sh->youngs == 20 && sh->poisson == 0.3);
                assert_true(sh->from_matrix);
                assert_int_equal(sh->line, 2);
                assert_int_equal(sh->num_dbc + sh->num_nbc, 0);
            }
    assert_vec3(s->shapes[12].translation, 10, 20, 30);
    assert_vec3(s->shapes[13].translation, 10, 22, 30);
    assert_false(s->shapes[13].has_material);
    assert_int_equal(s->shapes[13].line, 4);
    ipcc_ipc_script_destroy(s);

    s = parse_ok("shapeMatrix input 0 5 5\na.msh 0 0 0 0 0 0 1 1 1\n", true);
    assert_int_equal(s->num_shapes, 0);
    ipcc_ipc_script_destroy(s);

    expect_error("shapeMatrix input 1 1 1\n\na.msh 0 0 0 0 0 0 1 1 1\n", true,
                 "t.txt:2: shapeMatrix: missing the shape line (got an empty line)");
    expect_error("shapeMatrix input 1 1 1", true,
                 "t.txt:1: shapeMatrix: missing the shape line (got end of file)");
    expect_error("shapeMatrix input 1000 1000 2\na.msh 0 0 0 0 0 0 1 1 1\n", true,
                 "t.txt:1: shapeMatrix: 2000000 copies make more than 1000000 shapes");
    expect_error("shapeMatrix input 1 1 1 5 6\na.msh 0 0 0 0 0 0 1 1 1\n", true,
                 "t.txt:1: shapeMatrix: missing position z (got end of line)");
    expect_error("shapeMatrix input 1 1 1\na.msh 0 0 0 0 0 0 1 1 1 DBC 0 0 0 1 1 1 0 0 0 0 0 0\n", true,
                 "t.txt:2: shapeMatrix: unknown extra 'DBC' in a shape line");
}

static void test_sections(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_ok("section IP\ntime 1 0.5\nsection end\nsection interiorPoint\ndensity 7\n"
                                  "section QP interiorPoint\nsize 2\nsection end\nsection end\n",
                                  true);
    assert_true(s->duration == 1 && s->density == 7 && s->size == 2);
    assert_int_equal(s->num_notes, 0);
    ipcc_ipc_script_destroy(s);

    // A bare `section` does not end a skipped section; `section end` does.
    // Skipped lines are not parsed (the unknown keyword is no error).
    capture_start();
    s = parse_ok("section QP\ntime 1 0.5\nbogus 1\nsection\ndensity 5\nsection end\nsize 3\n"
                 "section SQP QP\ntol 1\n1e-4\n",
                 true);
    capture_stop();
    assert_true(s->duration == 5 && s->time_step == 0.025);
    assert_true(s->density == 1000);
    assert_true(s->size == 3);
    assert_int_equal(s->num_tol, 0);
    assert_int_equal(s->num_notes, 2);
    assert_string_equal(s->notes[0].keyword, "section");
    assert_int_equal(s->notes[0].line, 1);
    assert_int_equal(s->notes[1].line, 8);
    assert_non_null(strstr(debug_log, "t.txt:1: 'section' ignored (lines 1-6 skipped: not a section for the "
                                      "interiorPoint solver)"));
    assert_non_null(
        strstr(debug_log, "t.txt:8: 'section' ignored (lines 8-10 skipped to the end of the file"));

    // A bare `section` (no word names the solver) starts a skip.
    s = (ipcc_ipc_script_destroy(s), parse_ok("section\ntime 1 0.5\n", true));
    assert_true(s->duration == 5);
    ipcc_ipc_script_destroy(s);

    // constraintSolver IP / interiorPoint keep both names active; QP and SQP are errors.
    s = parse_ok("constraintSolver IP\nsection interiorPoint\ntime 1 0.5\nsection end\n"
                 "constraintSolver interiorPoint\nsection IP\ndensity 3\n",
                 true);
    assert_true(s->duration == 1 && s->density == 3);
    ipcc_ipc_script_destroy(s);
    expect_error("size 1\nconstraintSolver QP\nsection QP\n", false,
                 "t.txt:2: constraintSolver: ipcc implements only the interiorPoint solver (got 'QP')");
    expect_error("constraintSolver SQP\n", false, "ipcc implements only the interiorPoint solver");
    // A QP choice inside a skipped section is never read.
    s = parse_ok("section QP\nconstraintSolver QP\nsection end\n", true);
    ipcc_ipc_script_destroy(s);
}

static void test_unknown_keywords(void **state) {
    (void)state;
    const char *text = "size 1\nfooBar 1 2\nTime 1 2\n";
    capture_start();
    ipcc_ipc_script *s = parse_ok(text, false);
    capture_stop();
    assert_int_equal(warnings, 2);
    assert_string_equal(last_warning, "t.txt:3: unknown keyword 'Time' (ignored)");
    assert_int_equal(s->num_unknown, 2);
    assert_string_equal(s->unknown[0].keyword, "fooBar");
    assert_int_equal(s->unknown[0].line, 2);
    assert_true(s->duration == 5); // keywords are case-sensitive
    ipcc_ipc_script_destroy(s);
    expect_error(text, true, "t.txt:2: unknown keyword 'fooBar'");

    // Unknown shape extras and option words: warnings, or errors in strict mode.
    text = "shapes input 1\na.msh 0 0 0 0 0 0 1 1 1 velocity 1\nenergy StVK\ntimeIntegration RK4\n";
    capture_start();
    s = parse_ok(text, false);
    capture_stop();
    assert_int_equal(warnings, 4);
    assert_int_equal(s->num_unknown, 2); // `velocity` and `1`
    assert_string_equal(s->unknown[1].keyword, "1");
    assert_int_equal(s->unknown[1].line, 2);
    assert_false(s->fcr);
    assert_false(s->newmark);
    assert_string_equal(last_warning,
                        "t.txt:4: timeIntegration: unknown integrator 'RK4' (expected BE or NM); "
                        "using BE");
    ipcc_ipc_script_destroy(s);
    expect_error(text, true, "t.txt:2: shapes: unknown extra 'velocity' in a shape line");
    expect_error("energy StVK\n", true, "t.txt:1: energy: unknown energy model 'StVK' (expected NH or FCR)");
    expect_error("constraintSolver Newton\n", true, "t.txt:1: constraintSolver: unknown solver 'Newton'");
}

static void test_malformed_numbers(void **state) {
    (void)state;
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"time 5\n", "t.txt:1: time: missing time step h (got end of line)"},
        {"\ndensity abc\n", "t.txt:2: density: density is not a number (got 'abc')"},
        {"density 1e3x\n", "t.txt:1: density: density is not a number (got '1e3x')"},
        {"stiffness nan 0.4\n", "t.txt:1: stiffness: Young's modulus E must be finite (got 'nan')"},
        {"size inf\n", "t.txt:1: size: size must be finite (got 'inf')"},
        {"size 1e999\n", "t.txt:1: size: size must be finite (got '1e999')"},
        {"time 5 0\n", "t.txt:1: time: time step h must be > 0 (got '0')"},
        {"time 5 -0.1\n", "t.txt:1: time: time step h must be > 0 (got '-0.1')"},
        {"time -1 0.1\n", "t.txt:1: time: duration T must be >= 0 (got '-1')"},
        {"shapes input -1\n", "t.txt:1: shapes: shape count K must be in [0, 1000000] (got '-1')"},
        {"shapes input 2000000\n", "t.txt:1: shapes: shape count K must be in [0, 1000000] (got '2000000')"},
        {"shapes input two\n", "t.txt:1: shapes: shape count K is not an integer (got 'two')"},
        {"shapes input\n", "t.txt:1: shapes: missing shape count K (got end of line)"},
        {"tol 0\n", "t.txt:1: tol: value count K must be in [1, 1000000] (got '0')"},
        {"tuning 17\n", "t.txt:1: tuning: value count K must be in [0, 16] (got '17')"},
        {"tuning -1\n", "t.txt:1: tuning: value count K must be in [0, 16]"},
        {"shapes input 1\na.msh 0 0 0 0 0 0 1 1\n", "t.txt:2: shapes: missing scale z (got end of line)"},
        {"shapes input 1\na.msh 0 0 0 0 0 0 1 1 \\\n1\n",
         "t.txt:2: shapes: scale z is not a number (got '\\')"},
        {"shapes input 1\na.msh 0 0 0 0 0 0 1 1 1 DBC 0 0 0 1 1 1 0 0\n",
         "t.txt:2: shapes: missing DBC velocity z (got end of line)"},
        {"shapes input 1\n\na.msh 0 0 0 0 0 0 1 1 1 \\\n NBC 0 0 0 1 1 1 0 0 0 nan\n",
         "t.txt:4: shapes: start time t0 must be finite (got 'nan')"},
        {"shapes input 1\na.msh 0 0 0 0 0 0 1 1 1 material 1 x 3\n",
         "t.txt:2: shapes: material Young's modulus is not a number (got 'x')"},
        {"shapes input 1\na.msh 0 0 0 0 0 0 1 1 1 meshSeq\n", "t.txt:2: shapes: missing meshSeq folder"},
        {"ground 0.1\n", "t.txt:1: ground: missing height (got end of line)"},
        {"halfSpace 0 0 0 0 1 0 50\n", "t.txt:1: halfSpace: missing friction (got end of line)"},
        {"meshCO cube.obj 0 0 0 1 50\n", "t.txt:1: meshCO: missing friction (got end of line)"},
        {"meshCO cube.obj 0 0 0 1 50 0 rotate 1 2\n", "t.txt:1: meshCO: missing rotate z (got end of line)"},
        {"script twist 2 1\n", "t.txt:1: script: missing parameter 2 of 2 (got end of line)"},
        {"script twist 17\n", "t.txt:1: script: parameter count K must be in [0, 16] (got '17')"},
        {"script meshSeqFromFile\n", "t.txt:1: script: missing mesh sequence folder (got end of line)"},
        {"script a234567890123456789012345678901234567890123456789012345678901234\n",
         "t.txt:1: script: name longer than 63 characters"},
        {"warmStart 1.5\n", "t.txt:1: warmStart: mode is not an integer (got '1.5')"},
        {"fricIterAmt 99999999999999999999\n", "t.txt:1: fricIterAmt: iteration count must be in"},
        {"energy\n", "t.txt:1: energy: missing energy model (got end of line)"},
        {"selfFric 0,5\n", "t.txt:1: selfFric: friction is not a number (got '0,5')"},
        {"DBCTimeRange 0\n", "t.txt:1: DBCTimeRange: missing end time t1 (got end of line)"},
        {"CCDTolerance tiny\n", "t.txt:1: CCDTolerance: value is not a number (got 'tiny')"},
        {"rotateModel 0 0 1\n", "t.txt:1: rotateModel: missing angle (degrees) (got end of line)"},
        {"restart\n", "t.txt:1: restart: missing status file (got end of line)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        expect_error(cases[i].text, false, cases[i].message);
        expect_error(cases[i].text, true, cases[i].message);
    }
}

static void test_crlf(void **state) {
    (void)state;
    ipcc_ipc_script *s = parse_ok("shapes input 1\r\na.msh 0 0 0 0 0 0 1 1 1 \\\r\n"
                                  "  DBC 0 0 0 1 1 1 1 2 3 0 0 0 0.5\r\n\r\n# c\r\n"
                                  "time 2 0.5\r\ntol 2\r\n1e-3\r\n1e-4\r\nenergy FCR\r\n"
                                  "section QP\r\ntime 9 9\r\nsection end\r\nscript fall\r\n",
                                  true);
    assert_int_equal(s->num_shapes, 1);
    assert_string_equal(s->shapes[0].path, "a.msh");
    assert_int_equal(s->shapes[0].num_dbc, 1);
    assert_vec3(s->shapes[0].dbc[0].value, 1, 2, 3);
    assert_true(s->shapes[0].dbc[0].start == 0.5 && s->shapes[0].dbc[0].end == INFINITY);
    assert_true(s->duration == 2 && s->time_step == 0.5);
    assert_int_equal(s->num_tol, 2);
    assert_true(s->tol[1] == 1e-4);
    assert_true(s->fcr);
    assert_string_equal(s->script, "fall");
    ipcc_ipc_script_destroy(s);
    expect_error("size 1\r\ndensity x\r\n", true, "t.txt:2: density: density is not a number (got 'x')");
}

static void test_dhat_epsv_short_tuning(void **state) {
    (void)state;
    // epsv after a short tuning: the list is extended with the defaults first.
    ipcc_ipc_script *s = parse_ok("tuning 2\n1e3\n2e-4\nepsv 3e-5\n", true);
    assert_int_equal(s->num_tuning, 6);
    const double a[6] = {1e3, 2e-4, 1e-3, 1e-9, 3e-5, 3e-5};
    for (int i = 0; i < 6; i++)
        assert_true(s->tuning[i] == a[i]);
    ipcc_ipc_script_destroy(s);

    // tuning replaces the list: an earlier dHat is lost for the entries it does not give.
    s = parse_ok("dHat 1e-4\nepsv 2e-5\ntuning 2\n0\n5e-4\n", true);
    assert_int_equal(s->num_tuning, 2);
    assert_true(s->tuning[1] == 5e-4);
    assert_default_tuning_from(s, 2);
    ipcc_ipc_script_destroy(s);

    s = parse_ok("tuning 1\n7\ndHat 2e-4\n", true);
    assert_int_equal(s->num_tuning, 3);
    assert_true(s->tuning[0] == 7 && s->tuning[1] == 2e-4 && s->tuning[2] == 2e-4);
    assert_default_tuning_from(s, 3);
    ipcc_ipc_script_destroy(s);

    s = parse_ok("tuning 0\ndHat 3e-3\nepsv 4e-3\n", true);
    assert_int_equal(s->num_tuning, 6);
    assert_true(s->tuning[0] == 0 && s->tuning[1] == 3e-3 && s->tuning[2] == 3e-3 && s->tuning[3] == 1e-9);
    assert_true(s->tuning[4] == 4e-3 && s->tuning[5] == 4e-3);
    ipcc_ipc_script_destroy(s);

    s = parse_ok("tuning 8\n1\n2\n3\n4\n5\n6\n7\n8\n", true);
    assert_int_equal(s->num_tuning, 8);
    assert_true(s->tuning[5] == 6 && s->tuning[7] == 8 && s->tuning[8] == 0);
    ipcc_ipc_script_destroy(s);
}

static void test_all_keywords(void **state) {
    (void)state;
    static const char text[] = "energy FCR\n"                                  // 1
                               "timeIntegration NM 0.3 0.6\n"                  // 2
                               "dampingStiff -1\n"                             // 3
                               "dampingRatio 2\n"                              // 4
                               "turnOffGravity\n"                              // 5
                               "rotateModel 0 0 1 40\n"                        // 6
                               "script meshSeqFromFile seqdir 2 1.5 -2\n"      // 7
                               "selfFric -1\n"                                 // 8
                               "fricIterAmt -1\n"                              // 9
                               "warmStart 2\n"                                 // 10
                               "handleRatio 0.05\n"                            // 11
                               "DBCTimeRange 1 2\n"                            // 12
                               "NBCTimeRange 0.5 3\n"                          // 13
                               "kappaMinMultiplier 1e10\n"                     // 14
                               "minBarrierStiffnessScale 1e9\n"                // 15
                               "useAbsParameters\n"                            // 16
                               "CCDMethod TightInclusion\n"                    // 17
                               "CCDTolerance 1e-5\n"                           // 18
                               "linearSolver AMGCL\n"                          // 19
                               "linSysSolver Eigen\n"                          // 20
                               "view orthographic\n"                           // 21
                               "zoom 2\n"                                      // 22
                               "cameraTracking\n"                              // 23
                               "playBackSpeed -2\n"                            // 24
                               "appendStr run1\n"                              // 25
                               "disableCout\n"                                 // 26
                               "restart output/status10\n"                     // 27
                               "constraintType graphics\n"                     // 28
                               "constraintOffset 1e-3\n"                       // 29
                               "QPSolver OSQP\n"                               // 30
                               "noActiveSetConvergence\n"                      // 31
                               "useActiveSetConvergence\n"                     // 32
                               "meshCO m.obj 1 2 3 4 50 0.2 rotate 10 20 30\n" // 33
                               "halfSpace 1 2 3  1 2 0  50 0.49\n"             // 34
                               "selfCollisionOff\n"                            // 35
                               "selfCollisionOn\n"                             // 36
                               "density 2000\n"                                // 37
                               "stiffness 1e6 0.3\n"                           // 38
                               "size 2.5\n"                                    // 39
                               "timeIntegration BE\n"                          // 40
                               "script twist\n";                               // 41
    capture_start();
    ipcc_ipc_script *s = parse_ok(text, true);
    capture_stop();
    assert_true(s->fcr);
    assert_false(s->newmark); // BE on line 40
    assert_true(s->newmark_beta == 0.3 && s->newmark_gamma == 0.6);
    assert_true(s->damping_stiff == 0 && s->damping_ratio == 1);
    assert_true(s->gravity_off);
    assert_vec3(s->rotate_axis, 0, 0, 1);
    assert_true(s->rotate_degrees == 40);
    assert_string_equal(s->script, "twist"); // the last script wins, and its parameters
    assert_int_equal(s->num_script_params, 0);
    assert_null(s->script_folder);
    assert_true(s->self_friction == 0);
    assert_int_equal(s->fric_iter_amt, -1);
    assert_int_equal(s->warm_start, 2);
    assert_true(s->handle_ratio == 0.05);
    assert_true(s->dbc_time_range[0] == 1 && s->dbc_time_range[1] == 2);
    assert_true(s->nbc_time_range[0] == 0.5 && s->nbc_time_range[1] == 3);
    assert_true(s->kappa_min_multiplier == 1e9);
    assert_true(s->use_abs_parameters);
    assert_true(s->playback_speed == 1);
    assert_string_equal(s->restart, "output/status10");
    assert_int_equal(s->num_mesh_cos, 1);
    assert_vec3(s->mesh_cos[0].position, 1, 2, 3);
    assert_true(s->mesh_cos[0].scale == 4 && s->mesh_cos[0].friction == 0.2);
    assert_vec3(s->mesh_cos[0].rotation, 10, 20, 30);
    assert_int_equal(s->mesh_cos[0].line, 33);
    assert_vec3(s->half_spaces[0].origin, 1, 2, 3);
    assert_vec3(s->half_spaces[0].normal, 1, 2, 0);
    assert_true(s->half_spaces[0].friction == 0.49);
    assert_true(s->self_collision);
    assert_true(s->density == 2000 && s->youngs == 1e6 && s->poisson == 0.3 && s->size == 2.5);
    assert_int_equal(s->num_unknown, 0);

    // Notes, in file order: warmStart (10), then lines 14, 15, 17-26 and 28-32.
    static const char *const noted[] = {"warmStart",
                                        "kappaMinMultiplier",
                                        "minBarrierStiffnessScale",
                                        "CCDMethod",
                                        "CCDTolerance",
                                        "linearSolver",
                                        "linSysSolver",
                                        "view",
                                        "zoom",
                                        "cameraTracking",
                                        "playBackSpeed",
                                        "appendStr",
                                        "disableCout",
                                        "constraintType",
                                        "constraintOffset",
                                        "QPSolver",
                                        "noActiveSetConvergence",
                                        "useActiveSetConvergence"};
    static const int lines[] = {10, 14, 15, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 28, 29, 30, 31, 32};
    assert_int_equal(s->num_notes, (int)(sizeof noted / sizeof *noted));
    for (int i = 0; i < s->num_notes; i++) {
        assert_string_equal(s->notes[i].keyword, noted[i]);
        assert_int_equal(s->notes[i].line, lines[i]);
    }
    assert_int_equal(warnings, 1); // warmStart 2
    assert_non_null(strstr(last_warning,
                           "t.txt:10: 'warmStart 2' ignored: ipcc starts a step from x_n + h v_n when safe"));
    assert_non_null(strstr(debug_log, "t.txt:21: 'view' ignored (viewer only)\n"));
    assert_non_null(strstr(debug_log, "t.txt:30: 'QPSolver' ignored (QP/SQP solver only)\n"));
    assert_non_null(strstr(debug_log, "t.txt:14: 'kappaMinMultiplier' ignored ("));
    ipcc_ipc_script_destroy(s);

    s = parse_ok("script meshSeqFromFile seqdir 2 1.5 -2 trailing\nscript DCOFix extra words\n"
                 "timeIntegration NM\nwarmStart 0\nscript meshSeqFromFile f2 3 1 2 3\n",
                 true);
    assert_string_equal(s->script, "meshSeqFromFile");
    assert_string_equal(s->script_folder, "f2");
    assert_int_equal(s->num_script_params, 3);
    assert_true(s->script_params[0] == 1 && s->script_params[2] == 3);
    assert_true(s->newmark && s->newmark_beta == 0.25 && s->newmark_gamma == 0.5);
    assert_int_equal(s->num_notes, 0); // warmStart 0 is no note
    ipcc_ipc_script_destroy(s);
}

static void test_long_lines(void **state) {
    (void)state;
    // No fixed line length: a 200 000-character path and 100 000 blanks.
    size_t n = 200000, pad = 100000;
    char *text = malloc(n + pad + 200);
    assert_non_null(text);
    size_t k = (size_t)sprintf(text, "shapes input 1\n");
    memset(text + k, 'p', n);
    k += n;
    memset(text + k, ' ', pad);
    k += pad;
    sprintf(text + k, "0 0 0 0 0 0 1 1 1 NBC 0 0 0 1 1 1 0 -9 0\nsize 3");
    ipcc_ipc_script *s = parse_ok(text, true);
    assert_int_equal((int)strlen(s->shapes[0].path), (int)n);
    assert_vec3(s->shapes[0].nbc[0].value, 0, -9, 0);
    assert_true(s->size == 3);
    ipcc_ipc_script_destroy(s);

    // Many groups on one shape line.
    size_t groups = 1000;
    char *many = malloc(64 + groups * 40);
    assert_non_null(many);
    k = (size_t)sprintf(many, "shapes input 1\na.msh 0 0 0 0 0 0 1 1 1");
    for (size_t g = 0; g < groups; g++)
        k += (size_t)sprintf(many + k, " NBC 0 0 0 1 1 1 %zu 0 0", g);
    s = parse_ok(many, true);
    assert_int_equal(s->shapes[0].num_nbc, (int)groups);
    assert_true(s->shapes[0].nbc[groups - 1].value[0] == (double)(groups - 1));
    ipcc_ipc_script_destroy(s);
    free(many);
    free(text);
}

// ---------------------------------------------------------------------------
// Reading files.

// ipcc_ipc_script_read() fails with IPCC_ERR_IO, *out NULL, and a message
// containing `message`.
static void expect_read_error(const char *path, ipcc_status status, const char *message) {
    ipcc_ipc_script *s = &dummy;
    assert_int_equal(ipcc_ipc_script_read(path, false, &s), status);
    assert_null(s);
    if (!strstr(ipcc_last_error(), message))
        fail_msg("message '%s' does not contain '%s'", ipcc_last_error(), message);
}

static void test_read_file(void **state) {
    (void)state;
    // The file's record is the record of its text, named by the path.
    const char *path = SCENES "/paperExamples/5_hitCardHouse.txt";
    ipcc_ipc_script *read = NULL;
    assert_int_equal(ipcc_ipc_script_read(path, true, &read), IPCC_OK);
    ipcc_ipc_script *parsed = parse_scene("paperExamples/5_hitCardHouse.txt");
    assert_string_equal(read->path, path);
    assert_int_equal(read->num_shapes, parsed->num_shapes);
    for (int i = 0; i < read->num_shapes; i++) {
        assert_string_equal(read->shapes[i].path, parsed->shapes[i].path);
        assert_memory_equal(read->shapes[i].translation, parsed->shapes[i].translation, 3 * sizeof(double));
    }
    assert_true(read->time_step == parsed->time_step && read->duration == parsed->duration);
    assert_string_equal(read->script, parsed->script);
    ipcc_ipc_script_destroy(read);
    ipcc_ipc_script_destroy(parsed);

    // A keyword error names the file's path and the line.
    const char *bad = "\nshapes input 1\na.msh 0 0 0 0 0 0 1 1 1\ntime 5x 1\n";
    ipcc_test_write_file("test_ipc_script_bad.txt", bad, strlen(bad));
    read = &dummy;
    assert_int_equal(ipcc_ipc_script_read("test_ipc_script_bad.txt", false, &read), IPCC_ERR_PARSE);
    assert_null(read);
    assert_string_equal(ipcc_last_error(),
                        "test_ipc_script_bad.txt:4: time: duration T is not a number (got '5x')");
    // Missing, a folder (IPCC_ERR_IO), a NUL byte (IPCC_ERR_PARSE): the file reader's messages, naming the
    // file.
    expect_read_error("test_ipc_script_missing.txt", IPCC_ERR_IO,
                      "test_ipc_script_missing.txt: cannot open: No such file or directory");
    expect_read_error(SCENES, IPCC_ERR_IO, SCENES ": read error: Is a directory");
    ipcc_test_write_file("test_ipc_script_nul.txt", "time 1 0.1\n\0shapes", 18);
    expect_read_error("test_ipc_script_nul.txt", IPCC_ERR_PARSE,
                      "test_ipc_script_nul.txt: NUL byte at offset 11 (not a text file?)");
    remove("test_ipc_script_bad.txt");
    remove("test_ipc_script_nul.txt");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_scenes_strict),
        cmocka_unit_test(test_hit_card_house),
        cmocka_unit_test(test_mat_knives),
        cmocka_unit_test(test_mat40x40s_fall),
        cmocka_unit_test(test_dbc_time_range),
        cmocka_unit_test(test_nbc),
        cmocka_unit_test(test_tet_slots),
        cmocka_unit_test(test_roller_ball),
        cmocka_unit_test(test_cubes_fall_materials),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_tol_tuning_span_lines),
        cmocka_unit_test(test_shape_extras_comments_continuation),
        cmocka_unit_test(test_shapes_skipped_lines_and_blocks),
        cmocka_unit_test(test_shape_matrix),
        cmocka_unit_test(test_sections),
        cmocka_unit_test(test_unknown_keywords),
        cmocka_unit_test(test_malformed_numbers),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_dhat_epsv_short_tuning),
        cmocka_unit_test(test_all_keywords),
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_read_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
