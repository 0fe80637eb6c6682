// JSON scene text: parse, validate, and turn into world and body defs.
//
// The format is specified in docs/scene-format.md; the key names there are a
// contract. Parsing runs in three passes so that cheap mistakes are reported
// before any slow work is done:
//
//   1. Text: `//` and `/* */` comments are blanked out with spaces (newlines
//      are kept, string literals are left alone), so that cJSON's error
//      pointer still maps onto the user's line and column.
//   2. Values: every object is checked for unknown keys (with a "did you
//      mean" suggestion when the edit distance is small) and duplicate keys
//      (cJSON keeps both silently), then every value for type and range.
//      Defaults come from ipcc_default_world_def() and friends, so the scene
//      format and the C API cannot drift apart.
//   3. Meshes: files are read (paths relative to the scene's folder) or box
//      meshes generated, only once the whole scene is known to be valid.
//
//      Indices that depend on the meshes (Dirichlet/Neumann vertex lists,
//      the world vertex ranges of scripted stops) are checked here too.
//
// Files: this one holds the passes, the text, the top-level keys (time,
// integrator, "newmark", "newton", "output") and the third-pass index
// checks; the keys below the top level are parsed by scene_materials.c
// ("materials"), scene_bodies.c ("bodies"), scene_regions.c (a body's
// "regions"), scene_obstacles.c ("contact", "obstacles") and scene_shapes.c
// (the analytic obstacles among them), all on the toolkit of scene_json.c
// (the parse state, messages and typed getters); scene_override.c applies
// `--set` to the tree. scene_load.c reads a scene file and picks the reader
// by extension; scene_write.c writes a scene back as JSON; scene.c is the
// scene object (its world and its release).
//
// Ownership: the scene owns everything its defs point at (names, meshes,
// Dirichlet and Neumann arrays and their vertex lists, the tolerance
// schedule, body_sources, obstacle_paths, shapes and shape_sources);
// ipcc_scene_destroy() frees them all and accepts NULL in any of them, so
// scene_ipc.c builds scenes the same way.
//
// Failure modes: every problem is a negative status plus a message of the form
// `<scene>: <key path>: <what>` (or `<scene>:<line>:<column>: ...` for syntax
// errors). IPCC_ERR_PARSE is bad JSON, IPCC_ERR_INVALID_ARGUMENT a bad key or
// value; a mesh reader's status and message are passed on, prefixed with the
// key path. Nothing leaks on any error path: a partially built scene is
// released with ipcc_scene_destroy(), which accepts NULL fields.
#include "scene/scene_parse.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/core.h"
#include "scene/scene_bodies.h"
#include "scene/scene_json.h"
#include "scene/scene_materials.h"
#include "scene/scene_obstacles.h"
#include "scene/scene_override.h"
#include "scene/scene_regions.h"

// Upper bound on ceil(duration / time_step) without "steps" (IPC scripts: the
// same bound), so the step count is a representable integer.
#define MAX_SCENE_STEPS 1e9

// ---------------------------------------------------------------------------
// Top-level keys

// "tolerance": a number, or a per-step schedule [t0, t1, ...] (step n uses
// item min(n, K - 1)); the scene owns the schedule, newton_tolerance = t0.
static ipcc_status parse_tolerance(const parser *p, const cJSON *obj, ipcc_world_def *w) {
    const cJSON *tol = ipcc_scene_get(obj, "tolerance");
    if (!cJSON_IsArray(tol))
        return ipcc_scene_get_number(p, obj, "newton", "tolerance", POSITIVE, &w->newton_tolerance);
    int n = cJSON_GetArraySize(tol), i = 0;
    if (n == 0)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newton.tolerance",
                                  "must not be an empty array (give a number, or one tolerance per step)");
    for (const cJSON *c = tol->child; c; c = c->next, i++)
        if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) || !(c->valuedouble > 0))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newton.tolerance",
                                      "item %d: expected a finite number > 0 (got %s)", i,
                                      cJSON_IsNumber(c) ? "a number out of range"
                                                        : ipcc_scene_json_type_name(c));
    double *t = malloc((size_t)n * sizeof *t);
    if (!t) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "newton.tolerance", "out of memory");
    i = 0;
    for (const cJSON *c = tol->child; c; c = c->next, i++)
        t[i] = c->valuedouble;
    w->tolerances = t;
    w->num_tolerances = n;
    w->newton_tolerance = t[0];
    return IPCC_OK;
}

static ipcc_status parse_newton(const parser *p, const cJSON *obj, ipcc_world_def *w) {
    static const char *const keys[] = {"tolerance",       "max_iterations", "max_splits",
                                       "project_hessian", "check_forces",   NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "newton", keys);
    if (st != IPCC_OK) return st;
    if ((st = parse_tolerance(p, obj, w)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_int(p, obj, "newton", "max_iterations", 1, &w->newton_max_iterations)) !=
        IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_int(p, obj, "newton", "max_splits", 0, &w->newton_max_splits)) != IPCC_OK)
        return st;
    if (w->newton_max_splits > IPCC_MAX_SPLITS)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newton.max_splits",
                                  "expected an integer in [0, %d] (1 / 2^%d of the time step); got %d",
                                  IPCC_MAX_SPLITS, IPCC_MAX_SPLITS, w->newton_max_splits);
    if ((st = ipcc_scene_get_bool(p, obj, "newton", "check_forces", &w->newton_check_forces)) != IPCC_OK)
        return st;
    return ipcc_scene_get_bool(p, obj, "newton", "project_hessian", &w->project_hessian);
}

static ipcc_status parse_output(const parser *p, const cJSON *obj, ipcc_scene *scene) {
    static const char *const keys[] = {"directory", "fps", "checkpoint_every", "contacts", "compress", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "output", keys);
    if (st != IPCC_OK) return st;
    const char *dir = NULL;
    if ((st = ipcc_scene_get_string(p, obj, "output", "directory", &dir)) != IPCC_OK) return st;
    if (dir) {
        free(scene->output_directory);
        if (!(scene->output_directory = ipcc_scene_copy_string(dir)))
            return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, "output.directory", "out of memory");
    }
    if ((st = ipcc_scene_get_int(p, obj, "output", "checkpoint_every", 0, &scene->checkpoint_every)) !=
        IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_bool(p, obj, "output", "contacts", &scene->output_contacts)) != IPCC_OK)
        return st;
    bool compress = !scene->output_uncompressed;
    if ((st = ipcc_scene_get_bool(p, obj, "output", "compress", &compress)) != IPCC_OK) return st;
    scene->output_uncompressed = !compress;
    return ipcc_scene_get_number(p, obj, "output", "fps", NON_NEGATIVE, &scene->output_fps);
}

const char *const ipcc_scene_integrator_names[] = {"implicit_euler", "newmark", "static", NULL};
const ipcc_integrator ipcc_scene_integrator_values[] = {IPCC_IMPLICIT_EULER, IPCC_NEWMARK, IPCC_STATIC};

// "newmark": {"beta": (0, 0.5], "gamma": [0.5, 1]}.
static ipcc_status parse_newmark(const parser *p, const cJSON *obj, ipcc_world_def *w) {
    static const char *const keys[] = {"beta", "gamma", NULL};
    ipcc_status st = ipcc_scene_check_object(p, obj, "newmark", keys);
    if (st != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, "newmark", "beta", ANY, &w->newmark_beta)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, obj, "newmark", "gamma", ANY, &w->newmark_gamma)) != IPCC_OK)
        return st;
    if (!(w->newmark_beta > 0 && w->newmark_beta <= 0.5))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newmark.beta",
                                  "must be in (0, 0.5] (got %g)", w->newmark_beta);
    if (!(w->newmark_gamma >= 0.5 && w->newmark_gamma <= 1))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "newmark.gamma",
                                  "must be in [0.5, 1] (got %g)", w->newmark_gamma);
    return IPCC_OK;
}

static ipcc_status parse_root(parser *p, const cJSON *root, ipcc_scene *scene) {
    static const char *const keys[] = {"time_step", "duration",     "steps",     "gravity", "integrator",
                                       "newmark",   "length_scale", "damping",   "newton",  "contact",
                                       "materials", "bodies",       "obstacles", "output",  NULL};
    if (!cJSON_IsObject(root))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, NULL,
                                  "expected an object at the top level (got %s)",
                                  ipcc_scene_json_type_name(root));
    ipcc_status st = ipcc_scene_check_object(p, root, "", keys);
    if (st != IPCC_OK) return st;
    ipcc_world_def *w = &scene->world;
    if ((st = ipcc_scene_get_number(p, root, "", "time_step", POSITIVE, &w->time_step)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_vec3(p, root, "", "gravity", w->gravity)) != IPCC_OK) return st;
    const char *integrator = NULL;
    if ((st = ipcc_scene_get_string(p, root, "", "integrator", &integrator)) != IPCC_OK) return st;
    if (integrator) {
        int i = 0;
        while (ipcc_scene_integrator_names[i] && strcmp(ipcc_scene_integrator_names[i], integrator) != 0)
            i++;
        if (!ipcc_scene_integrator_names[i])
            return ipcc_scene_fail_choice(p, "integrator", "integrator", integrator,
                                          ipcc_scene_integrator_names);
        w->integrator = ipcc_scene_integrator_values[i];
    }
    if ((st = ipcc_scene_get_number(p, root, "", "length_scale", POSITIVE, &w->length_scale)) != IPCC_OK)
        return st;
    if ((st = ipcc_scene_get_number(p, root, "", "damping", NON_NEGATIVE, &w->damping)) != IPCC_OK) return st;
    const cJSON *newmark = ipcc_scene_get(root, "newmark");
    if (newmark && (st = parse_newmark(p, newmark, w)) != IPCC_OK) return st;
    scene->duration = 0;
    scene->num_steps = 0;
    if ((st = ipcc_scene_get_int(p, root, "", "steps", 1, &scene->num_steps)) != IPCC_OK) return st;
    if ((st = ipcc_scene_get_number(p, root, "", "duration", POSITIVE, &scene->duration)) != IPCC_OK)
        return st;
    if (!ipcc_scene_get(root, "duration")) {
        if (scene->num_steps > 0)
            scene->duration = scene->num_steps * w->time_step;
        else if (w->integrator == IPCC_STATIC)
            scene->duration = w->time_step;
        else
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "duration",
                                      "missing (required unless \"steps\" is given or \"integrator\" is "
                                      "\"static\")");
    }
    if (scene->num_steps == 0 && !(scene->duration / w->time_step <= MAX_SCENE_STEPS))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, "duration",
                                  "%g s at a time_step of %g s is more than %g steps", scene->duration,
                                  w->time_step, MAX_SCENE_STEPS);
    const cJSON *newton = ipcc_scene_get(root, "newton");
    if (newton && (st = parse_newton(p, newton, w)) != IPCC_OK) return st;
    const cJSON *materials = ipcc_scene_get(root, "materials");
    if (materials && (st = ipcc_scene_parse_materials(p, materials)) != IPCC_OK) return st;
    if ((st = ipcc_scene_parse_bodies(p, root, scene)) != IPCC_OK) return st;
    const cJSON *contact = ipcc_scene_get(root, "contact");
    if (contact && (st = ipcc_scene_parse_contact(p, contact, &w->contact)) != IPCC_OK) return st;
    const cJSON *obstacles = ipcc_scene_get(root, "obstacles");
    if (obstacles && (st = ipcc_scene_parse_obstacles(p, obstacles, scene)) != IPCC_OK) return st;
    const cJSON *output = ipcc_scene_get(root, "output");
    if (output && (st = parse_output(p, output, scene)) != IPCC_OK) return st;
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Indices (third pass)

// A body-local vertex list against the body's mesh.
static ipcc_status check_vertex_list(const parser *p, int body, const char *key, int entry, int n,
                                     const int *vertices, int num_vertices) {
    for (int k = 0; k < n; k++) {
        if (vertices[k] >= num_vertices)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s: bodies[%d].%s[%d].vertices: item %d (%d) is out of range (the mesh has %d "
                             "vertices)",
                             p->name, body, key, entry, k, vertices[k], num_vertices);
    }
    return IPCC_OK;
}

// A stop's world vertex range against the world's vertices (bodies first,
// then obstacles, in scene order).
static ipcc_status check_stop(const parser *p, const char *where, const ipcc_stop_trigger *s, int total) {
    if (s->axis < 0 || (long)s->first_vertex + s->num_vertices <= total) return IPCC_OK;
    return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                     "%s: %s.stop.vertices: [%d, %d] reaches past the last world vertex (%d vertices: the "
                     "bodies', then the obstacles')",
                     p->name, where, s->first_vertex, s->num_vertices, total);
}

// Third-pass checks of indices that need the meshes.
static ipcc_status check_indices(const parser *p, const ipcc_scene *scene) {
    int total = 0;
    for (int i = 0; i < scene->num_bodies; i++)
        total += scene->bodies[i].mesh->num_vertices;
    for (int i = 0; i < scene->num_obstacles; i++)
        total += scene->obstacles[i].mesh->num_vertices;
    char where[PATH_LEN];
    ipcc_status st;
    for (int i = 0; i < scene->num_bodies; i++) {
        const ipcc_body_def *b = &scene->bodies[i];
        int nv = b->mesh->num_vertices;
        for (int j = 0; j < b->num_dirichlet; j++) {
            const ipcc_dirichlet_def *d = &b->dirichlet[j];
            if ((st = check_vertex_list(p, i, "dirichlet", j, d->num_vertices, d->vertices, nv)) != IPCC_OK)
                return st;
            snprintf(where, sizeof where, "bodies[%d].dirichlet[%d]", i, j);
            if ((st = check_stop(p, where, &d->stop, total)) != IPCC_OK) return st;
        }
        for (int j = 0; j < b->num_neumann; j++) {
            const ipcc_neumann_def *n = &b->neumann[j];
            if ((st = check_vertex_list(p, i, "neumann", j, n->num_vertices, n->vertices, nv)) != IPCC_OK)
                return st;
        }
    }
    for (int i = 0; i < scene->num_obstacles; i++) {
        snprintf(where, sizeof where, "obstacles[%d]", p->obstacle_index[i]);
        if ((st = check_stop(p, where, &scene->obstacles[i].stop, total)) != IPCC_OK) return st;
    }
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Text

bool ipcc_scene_blank_comments(char *s, size_t *unterminated_at) {
    enum { CODE, STRING, LINE, BLOCK } state = CODE;
    size_t block_start = 0;
    for (size_t i = 0; s[i]; i++) {
        switch (state) {
        case CODE:
            if (s[i] == '"') {
                state = STRING;
            } else if (s[i] == '/' && (s[i + 1] == '/' || s[i + 1] == '*')) {
                state = s[i + 1] == '/' ? LINE : BLOCK;
                block_start = i;
                s[i] = s[i + 1] = ' ';
                i++;
            }
            break;
        case STRING:
            if (s[i] == '\\' && s[i + 1])
                i++;
            else if (s[i] == '"')
                state = CODE;
            break;
        case LINE:
            if (s[i] == '\n')
                state = CODE;
            else
                s[i] = ' ';
            break;
        case BLOCK:
            if (s[i] == '*' && s[i + 1] == '/') {
                s[i] = s[i + 1] = ' ';
                i++;
                state = CODE;
            } else if (s[i] != '\n' && s[i] != '\r') {
                s[i] = ' ';
            }
            break;
        }
    }
    *unterminated_at = block_start;
    return state != BLOCK;
}

// The parser's use: an unterminated comment is an error naming its line and column.
static ipcc_status strip_comments(const parser *p, char *s) {
    size_t block_start;
    if (ipcc_scene_blank_comments(s, &block_start)) return IPCC_OK;
    int line = 1, col = 1;
    for (size_t i = 0; i < block_start; i++) {
        if (s[i] == '\n')
            line++, col = 1;
        else
            col++;
    }
    return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: unterminated /* comment", p->name, line, col);
}

// Nesting depth of arrays and objects at `where` (brackets inside strings do
// not count), to tell cJSON's nesting limit from a plain syntax error.
static int json_depth(const char *text, const char *where) {
    int depth = 0, in_string = 0;
    for (const char *c = text; c < where && *c; c++) {
        if (in_string) {
            if (*c == '\\' && c + 1 < where && c[1])
                c++;
            else if (*c == '"')
                in_string = 0;
        } else if (*c == '"') {
            in_string = 1;
        } else if (*c == '[' || *c == '{') {
            depth++;
        } else if (*c == ']' || *c == '}') {
            depth--;
        }
    }
    return depth;
}

static ipcc_status syntax_error(const parser *p, const char *text, const char *where) {
    size_t blank = strspn(text, " \t\r\n");
    if (!text[blank])
        return ipcc_fail(IPCC_ERR_PARSE, "%s: no JSON value (the file is empty or holds only comments)",
                         p->name);
    int line = 1, col = 1;
    for (const char *c = text; c < where && *c; c++) {
        if (*c == '\n')
            line++, col = 1;
        else
            col++;
    }
    if ((*where == '[' || *where == '{') && json_depth(text, where) >= CJSON_NESTING_LIMIT)
        return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: arrays and objects nested deeper than %d levels", p->name,
                         line, col, CJSON_NESTING_LIMIT);
    char near[24];
    size_t n = 0;
    while (where[n] && where[n] != '\n' && where[n] != '\r' && n < sizeof near - 1)
        n++;
    memcpy(near, where, n);
    near[n] = '\0';
    while (n > 0 && (near[n - 1] == ' ' || near[n - 1] == '\t'))
        near[--n] = '\0';
    if (!where[0] || n == 0)
        return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: JSON syntax error (unexpected end of line or text)",
                         p->name, line, col);
    return ipcc_fail(IPCC_ERR_PARSE, "%s:%d:%d: JSON syntax error near '%s'", p->name, line, col, near);
}

// ---------------------------------------------------------------------------
// Entry points

ipcc_status ipcc_scene_parse_with_options(const char *text, const char *name, const char *base_dir,
                                          const ipcc_scene_options *options, ipcc_scene **out) {
    IPCC_ASSERT(text && out);
    *out = NULL;
    parser p = {.name = name ? name : "<string>", .base_dir = base_dir};

    // Skip a UTF-8 byte order mark.
    if ((unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB && (unsigned char)text[2] == 0xBF)
        text += 3;
    char *copy = ipcc_scene_copy_string(text);
    ipcc_scene *scene = calloc(1, sizeof *scene);
    if (!copy || !scene) {
        free(copy);
        free(scene);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", p.name);
    }
    ipcc_status st = IPCC_OK;
    cJSON *root = NULL;
    scene->path = ipcc_scene_copy_string(p.name);
    scene->output_directory = ipcc_scene_copy_string("out");
    scene->checkpoint_every = 10;
    scene->format = "json";
    scene->world = ipcc_default_world_def();
    // Newmark's defaults, should the world's defaults predate them.
    if (scene->world.newmark_beta == 0) scene->world.newmark_beta = 0.25;
    if (scene->world.newmark_gamma == 0) scene->world.newmark_gamma = 0.5;
    if (!scene->path || !scene->output_directory) {
        st = ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", p.name);
        goto done;
    }
    if ((st = strip_comments(&p, copy)) != IPCC_OK) goto done;
    const char *end = NULL;
    root = cJSON_ParseWithOpts(copy, &end, true);
    if (!root) {
        st = syntax_error(&p, copy, end ? end : copy);
        goto done;
    }
    if (options && options->num_overrides > 0 &&
        (st = ipcc_scene_apply_overrides(p.name, root, options->num_overrides, options->overrides)) !=
            IPCC_OK)
        goto done;
    if ((st = parse_root(&p, root, scene)) != IPCC_OK) goto done;
    if ((st = ipcc_scene_load_body_meshes(&p, scene)) != IPCC_OK) goto done;
    if ((st = ipcc_scene_load_obstacle_meshes(&p, scene)) != IPCC_OK) goto done;
    if ((st = ipcc_scene_resolve_regions(&p, scene)) != IPCC_OK) goto done;
    st = check_indices(&p, scene);

done:
    cJSON_Delete(root);
    free(copy);
    free(p.materials);
    free(p.meshes);
    free(p.obstacle_kind);
    free(p.obstacle_index);
    if (st != IPCC_OK) {
        ipcc_scene_destroy(scene);
        return st;
    }
    *out = scene;
    return IPCC_OK;
}

ipcc_status ipcc_scene_parse(const char *text, const char *name, const char *base_dir, ipcc_scene **out) {
    return ipcc_scene_parse_with_options(text, name, base_dir, NULL, out);
}
