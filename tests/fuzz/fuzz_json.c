// libFuzzer harness for the JSON scene parser (src/scene.c, scene_json.c,
// scene_obstacles.c, scene_shapes.c): ipcc_scene_parse() on the input (a NUL-terminated
// copy; an embedded NUL ends the text), then, when the scene parses,
// ipcc_scene_create_world(), so the world's own validation of the defs is
// fuzzed too. Seeds: tests/fuzz/corpus/json.
//
// Mesh paths resolve in a scratch folder that holds one tiny file of each
// kind the scene format reads (MESH_FILES below; the seeds name them), and
// box meshes are generated. Two kinds of input are skipped, not failures, to
// keep every run fast and inside the scratch folder: a path value that is
// absolute or climbs out with "..", which could name a device or a huge file
// (/dev/zero), and box meshes with more than MAX_CELLS cells in all (the
// parser allows 10^7 per box). The harness finds them with its own cJSON
// parse of the text after blanking comments with the parser's own
// ipcc_scene_blank_comments(); text
// that this parse rejects is rejected by the parser before it opens a file.
//
// A scene that parses is also written back with ipcc_scene_write_json() and
// loaded again, which must succeed and give the same scene, numbers bit for
// bit (scene_write.c's contract: "loading the written file gives the same
// world").
#include <cjson/cJSON.h>

#include "fuzz_common.h"
#include "scene_parser.h"
#include "ipcc/scene.h"
#include "ipcc/world.h"

enum { MAX_CELLS = 2000 };

static const struct {
    const char *name, *text;
} MESH_FILES[] = {
    {"tet.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"
                "$EndNodes\n$Elements\n1\n1 4 0 1 2 3 4\n$EndElements\n"},
    {"tet.node", "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n"},
    {"tet.ele", "1 4 0\n1 1 2 3 4\n"},
    {"tri.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n"},
    {"seg.seg", "v 0 0 0\nv 1 0 0\nv 1 1 0\ns 1 2\ns 2 3\n"},
    {"pts.pt", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"},
};

// False if some string value could leave the scratch folder; adds every
// "cells" array's product to *cells.
static int walk(const cJSON *item, double *cells) {
    for (; item; item = item->next) {
        if (cJSON_IsString(item) && (item->valuestring[0] == '/' || strstr(item->valuestring, "..")))
            return 0;
        if (cJSON_IsArray(item) && item->string && strcmp(item->string, "cells") == 0) {
            double product = 1;
            for (const cJSON *c = item->child; c; c = c->next)
                if (cJSON_IsNumber(c) && c->valuedouble > 1) product *= c->valuedouble;
            *cells += product;
        }
        if (item->child && !walk(item->child, cells)) return 0;
    }
    return 1;
}

// True if the text is safe and cheap to load (see the preamble).
static int acceptable(const char *text) {
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        text += 3;
    char *copy = strdup(text);
    if (!copy) fuzz_fail("out of memory", "copying the input");
    size_t unterminated;
    (void)ipcc_scene_blank_comments(copy, &unterminated); // an open /* is left to the parser
    cJSON *root = cJSON_ParseWithOpts(copy, NULL, 1);
    double cells = 0;
    int ok = !root || (walk(root, &cells) && cells <= MAX_CELLS);
    cJSON_Delete(root);
    free(copy);
    return ok;
}

// Round trip: a difference aborts, naming the field.
static void same(const char *what, const void *a, const void *b, size_t n) {
    if (n > 0 && memcmp(a, b, n) != 0) fuzz_fail("the written scene loads different", what);
}

static void same_string(const char *what, const char *a, const char *b) {
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0))
        fuzz_fail("the written scene loads different", what);
}

#define SAME(what, a, b) same(what, &(a), &(b), sizeof(a))

static void same_stop(const ipcc_stop_trigger *a, const ipcc_stop_trigger *b) {
    SAME("stop.axis", a->axis, b->axis);
    if (a->axis < 0) return;
    SAME("stop.first_vertex", a->first_vertex, b->first_vertex);
    SAME("stop.num_vertices", a->num_vertices, b->num_vertices);
    SAME("stop.measure_max", a->measure_max, b->measure_max);
    SAME("stop.above", a->above, b->above);
    SAME("stop.value", a->value, b->value);
    SAME("stop.release", a->release, b->release);
}

static void same_selection(const double *a_min, const double *a_max, int na, const int *a_vertices,
                           const double *b_min, const double *b_max, int nb, const int *b_vertices) {
    same("selection.num_vertices", &na, &nb, sizeof na);
    if (na > 0) {
        same("selection.vertices", a_vertices, b_vertices, (size_t)na * sizeof *a_vertices);
        return;
    }
    same("selection.min", a_min, b_min, 3 * sizeof *a_min);
    same("selection.max", a_max, b_max, 3 * sizeof *a_max);
}

static void same_placement(bool a_use, const double *a_transform, const double *a_t, const double *a_r,
                           const double *a_s, bool b_use, const double *b_transform, const double *b_t,
                           const double *b_r, const double *b_s) {
    same("use_transform", &a_use, &b_use, sizeof a_use);
    if (a_use) {
        same("transform", a_transform, b_transform, 12 * sizeof *a_transform);
        return;
    }
    same("translation", a_t, b_t, 3 * sizeof *a_t);
    same("rotation", a_r, b_r, 3 * sizeof *a_r);
    same("scale", a_s, b_s, 3 * sizeof *a_s);
}

static void same_body(const ipcc_body_def *a, const ipcc_body_def *b) {
    same_string("body name", a->name, b->name);
    SAME("body mesh vertices", a->mesh->num_vertices, b->mesh->num_vertices);
    SAME("body mesh tets", a->mesh->num_tets, b->mesh->num_tets);
    same("body mesh coordinates", a->mesh->vertices, b->mesh->vertices,
         3 * (size_t)a->mesh->num_vertices * sizeof *a->mesh->vertices);
    SAME("material.model", a->material.model, b->material.model);
    SAME("material.density", a->material.density, b->material.density);
    SAME("material.youngs_modulus", a->material.youngs_modulus, b->material.youngs_modulus);
    SAME("material.poisson_ratio", a->material.poisson_ratio, b->material.poisson_ratio);
    same_placement(a->use_transform, a->transform, a->translation, a->rotation, a->scale, b->use_transform,
                   b->transform, b->translation, b->rotation, b->scale);
    SAME("body velocity", a->velocity, b->velocity);
    SAME("body angular_velocity", a->angular_velocity, b->angular_velocity);
    SAME("body has_velocity_pivot", a->has_velocity_pivot, b->has_velocity_pivot);
    if (a->has_velocity_pivot) SAME("angular_velocity_centre", a->velocity_pivot, b->velocity_pivot);
    SAME("body friction", a->friction, b->friction);
    SAME("num_dirichlet", a->num_dirichlet, b->num_dirichlet);
    for (int j = 0; j < a->num_dirichlet; j++) {
        const ipcc_dirichlet_def *p = &a->dirichlet[j], *q = &b->dirichlet[j];
        same_selection(p->box_min, p->box_max, p->num_vertices, p->vertices, q->box_min, q->box_max,
                       q->num_vertices, q->vertices);
        SAME("dirichlet velocity", p->velocity, q->velocity);
        SAME("dirichlet angular_velocity", p->angular_velocity, q->angular_velocity);
        SAME("dirichlet has_pivot", p->has_pivot, q->has_pivot);
        if (p->has_pivot) SAME("dirichlet pivot", p->pivot, q->pivot);
        SAME("dirichlet start", p->start, q->start);
        SAME("dirichlet end", p->end, q->end);
        same_stop(&p->stop, &q->stop);
    }
    SAME("num_neumann", a->num_neumann, b->num_neumann);
    for (int j = 0; j < a->num_neumann; j++) {
        const ipcc_neumann_def *p = &a->neumann[j], *q = &b->neumann[j];
        same_selection(p->box_min, p->box_max, p->num_vertices, p->vertices, q->box_min, q->box_max,
                       q->num_vertices, q->vertices);
        SAME("neumann acceleration", p->acceleration, q->acceleration);
        SAME("neumann start", p->start, q->start);
        SAME("neumann end", p->end, q->end);
    }
}

static void same_obstacle(const ipcc_obstacle_def *a, const ipcc_obstacle_def *b) {
    same_string("obstacle name", a->name, b->name);
    SAME("obstacle mesh vertices", a->mesh->num_vertices, b->mesh->num_vertices);
    SAME("obstacle mesh faces", a->mesh->num_faces, b->mesh->num_faces);
    SAME("obstacle mesh edges", a->mesh->num_edges, b->mesh->num_edges);
    same_placement(a->use_transform, a->transform, a->translation, a->rotation, a->scale, b->use_transform,
                   b->transform, b->translation, b->rotation, b->scale);
    SAME("obstacle velocity", a->velocity, b->velocity);
    SAME("obstacle angular_velocity", a->angular_velocity, b->angular_velocity);
    SAME("obstacle has_pivot", a->has_pivot, b->has_pivot);
    if (a->has_pivot) SAME("obstacle pivot", a->pivot, b->pivot);
    same_stop(&a->stop, &b->stop);
    SAME("obstacle friction", a->friction, b->friction);
}

static void same_shape(const ipcc_shape_def *a, const ipcc_shape_def *b) {
    same_string("shape name", a->name, b->name);
    SAME("shape kind", a->kind, b->kind);
    SAME("shape center", a->center, b->center);
    SAME("shape rotation", a->rotation, b->rotation);
    SAME("shape size", a->size, b->size);
    SAME("shape velocity", a->velocity, b->velocity);
    SAME("shape angular_velocity", a->angular_velocity, b->angular_velocity);
    SAME("shape friction", a->friction, b->friction);
}

static void same_half_space(const ipcc_half_space_def *a, const ipcc_half_space_def *b) {
    SAME("half-space point", a->point, b->point);
    SAME("half-space normal", a->normal, b->normal);
    SAME("half-space friction", a->friction, b->friction);
}

static void same_scene(const ipcc_scene *a, const ipcc_scene *b) {
    const ipcc_world_def *p = &a->world, *q = &b->world;
    SAME("time_step", p->time_step, q->time_step);
    SAME("gravity", p->gravity, q->gravity);
    SAME("integrator", p->integrator, q->integrator);
    SAME("newton.tolerance", p->newton_tolerance, q->newton_tolerance);
    SAME("newton.max_iterations", p->newton_max_iterations, q->newton_max_iterations);
    SAME("newton.project_hessian", p->project_hessian, q->project_hessian);
    SAME("num_tolerances", p->num_tolerances, q->num_tolerances);
    if (p->num_tolerances > 0)
        same("tolerances", p->tolerances, q->tolerances, (size_t)p->num_tolerances * sizeof *p->tolerances);
    SAME("contact.enabled", p->contact.enabled, q->contact.enabled);
    SAME("contact.dhat", p->contact.dhat, q->contact.dhat);
    SAME("contact.kappa", p->contact.kappa, q->contact.kappa);
    SAME("contact.self_collision", p->contact.self_collision, q->contact.self_collision);
    SAME("contact.friction", p->contact.friction, q->contact.friction);
    SAME("contact.friction_epsv", p->contact.friction_epsv, q->contact.friction_epsv);
    SAME("contact.friction_iterations", p->contact.friction_iterations, q->contact.friction_iterations);
    SAME("contact.friction_smoothing_time", p->contact.friction_smoothing_time,
         q->contact.friction_smoothing_time);
    SAME("contact.friction_slip_test", p->contact.friction_slip_test, q->contact.friction_slip_test);
    SAME("length_scale", p->length_scale, q->length_scale);
    SAME("damping", p->damping, q->damping);
    if (p->integrator == IPCC_NEWMARK) {
        SAME("newmark.beta", p->newmark_beta, q->newmark_beta);
        SAME("newmark.gamma", p->newmark_gamma, q->newmark_gamma);
    }
    SAME("duration", a->duration, b->duration);
    SAME("steps", a->num_steps, b->num_steps);
    SAME("output.fps", a->output_fps, b->output_fps);
    SAME("output.checkpoint_every", a->checkpoint_every, b->checkpoint_every);
    SAME("output.contacts", a->output_contacts, b->output_contacts);
    same_string("output.directory", a->output_directory, b->output_directory);
    SAME("num_bodies", a->num_bodies, b->num_bodies);
    for (int i = 0; i < a->num_bodies; i++)
        same_body(&a->bodies[i], &b->bodies[i]);
    SAME("num_obstacles", a->num_obstacles, b->num_obstacles);
    for (int i = 0; i < a->num_obstacles; i++)
        same_obstacle(&a->obstacles[i], &b->obstacles[i]);
    SAME("num_half_spaces", a->num_half_spaces, b->num_half_spaces);
    for (int i = 0; i < a->num_half_spaces; i++)
        same_half_space(&a->half_spaces[i], &b->half_spaces[i]);
    SAME("num_shapes", a->num_shapes, b->num_shapes);
    for (int i = 0; i < a->num_shapes; i++)
        same_shape(&a->shapes[i], &b->shapes[i]);
}

// Writes the scene to `written` and loads it back: it must give the same scene.
static void round_trip(const ipcc_scene *scene, const char *written) {
    ipcc_clear_error();
    ipcc_status s = ipcc_scene_write_json(scene, written);
    if (s != IPCC_OK) fuzz_fail("a parsed scene does not write", ipcc_last_error());
    ipcc_scene *again = NULL;
    s = ipcc_scene_load(written, &again);
    if (s != IPCC_OK) fuzz_fail("the written scene does not load", ipcc_last_error());
    same_scene(scene, again);
    ipcc_scene_destroy(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *dir;
    static char written[FUZZ_PATH_LEN];
    fuzz_init();
    if (!dir) {
        dir = fuzz_scratch_dir("json");
        for (size_t i = 0; i < sizeof MESH_FILES / sizeof *MESH_FILES; i++)
            fuzz_scratch_in(MESH_FILES[i].name, MESH_FILES[i].text);
        snprintf(written, sizeof written, "%s", fuzz_scratch_in("written.json", NULL));
        fuzz_scratch_in("written.json.tmp", NULL);
    }
    char *text = malloc(size + 1);
    if (!text) fuzz_fail("out of memory", "copying the input");
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    if (!acceptable(text)) {
        free(text);
        return 0;
    }
    ipcc_scene *scene = NULL;
    ipcc_clear_error();
    ipcc_status s = ipcc_scene_parse(text, "fuzz.json", dir, &scene);
    free(text);
    if (s != IPCC_OK) {
        fuzz_check_failure(s, scene, "fuzz.json");
        return 0;
    }
    if (scene->num_bodies < 1 || !(scene->duration > 0)) fuzz_fail("scene", "no bodies or no duration");
    for (int i = 0; i < scene->num_bodies; i++)
        fuzz_check_mesh(scene->bodies[i].mesh);
    for (int i = 0; i < scene->num_obstacles; i++)
        fuzz_check_trimesh(scene->obstacles[i].mesh);
    round_trip(scene, written);
    ipcc_world *world = NULL;
    ipcc_clear_error();
    s = ipcc_scene_create_world(scene, &world);
    if (s < 0)
        fuzz_check_failure(s, world, "fuzz.json");
    else
        ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    return 0;
}
