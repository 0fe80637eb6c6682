// ipcc_scene_write_json(): a scene written back as native JSON
// (docs/scene-format.md), whichever format it was loaded from.
//
// Contract: loading the written file gives the same world. Every world def
// field is written; body and obstacle fields are written when they differ
// from the defaults the parser fills in (a -0.0 counts as different, so
// placements stay bit-identical). Numbers are printed with the fewest
// digits (15, 16 or 17) that strtod() reads back to the same double, so
// they round-trip exactly and still read as "0.01". NaN and infinities are
// not JSON: an infinite time ("forever") is written as +-1e30, which the
// parser and the world treat as forever; any other non-finite value fails
// with IPCC_ERR_INVALID_ARGUMENT naming its key path, and nothing is written.
//
// Analytic shapes follow the file obstacles in "obstacles"; a shape's
// orientation is written with the key it was read with (shape_sources), so
// the reload computes the same matrix, and a matrix no source gives is an
// error rather than an approximation.
//
// Paths: mesh files are written relative to the folder of the output file
// (computed from realpath()s of both) when the two share a folder below the
// root, else as absolute paths; a file that cannot be resolved is written
// absolute as given. Box meshes are written as {"box": ...}, materials
// inline. The output directory is kept as is (it is relative to the working
// directory, not to the scene file).
//
// Layout: 2-space indent, one key per line at the top, short arrays and
// small objects on one line, long vertex lists wrapped. The file starts
// with `//` comment lines (the parser skips them) naming the writer and the
// source scene.
//
// Atomicity: the text is built in memory first (so a bad value writes
// nothing), then written through atomic_file.c ("<path>.tmp", fsync,
// rename). On any failure the temporary is removed, an existing file is
// left untouched, and IPCC_ERR_IO names the path and strerror.
#define _XOPEN_SOURCE 700 // realpath
#include "ipcc/scene.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/core.h"
#include "scene/scene_json.h"
#include "scene/scene_materials.h"
#include "scene/scene_parse.h"
#include "scene/scene_shapes.h"
#include "shape/shape.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

enum {
    MAX_DEPTH = 16,
    CTX_LEN = 256,
    INLINE_NUMBERS = 8,
    WRAP_NUMBERS = 8,
    INLINE_INDICES = 16,
    WRAP_INDICES = 16
};

// One open container: inline ({"a": 1, "b": 2}) or one item per line, or
// wrapped (`wrap` items per line).
typedef struct frame {
    bool is_array;
    bool is_inline;
    int wrap;  // > 0: items per line
    int count; // items written so far
} frame;

typedef struct writer {
    char *buf;
    size_t len, cap;
    bool oom;
    bool bad; // a non-finite value was met (the first is named in `bad_path`)
    char bad_path[CTX_LEN + 64];
    char ctx[CTX_LEN]; // key path of the object being written, e.g. "bodies[1].dirichlet[0]"
    const char *key;   // last key written in it
    frame stack[MAX_DEPTH];
    int depth;
    const char *dir_real; // the output file's folder, resolved (NULL if it does not resolve)
} writer;

// ---------------------------------------------------------------------------
// Text buffer

static void put(writer *w, const char *s, size_t n) {
    if (w->oom) return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + n + 1)
            cap *= 2;
        char *b = realloc(w->buf, cap);
        if (!b) {
            w->oom = true;
            return;
        }
        w->buf = b;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void puts_(writer *w, const char *s) { put(w, s, strlen(s)); }

static void putf(writer *w, const char *fmt, ...) IPCC_PRINTF(2, 3);
static void putf(writer *w, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    put(w, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void newline(writer *w, int level) {
    put(w, "\n", 1);
    for (int i = 0; i < level; i++)
        put(w, "  ", 2);
}

// ---------------------------------------------------------------------------
// JSON structure

// Separator and line break before the next item of the open container.
static void next_item(writer *w) {
    if (w->depth == 0) return;
    frame *f = &w->stack[w->depth - 1];
    if (f->count > 0) put(w, ",", 1);
    if (f->is_inline) {
        if (f->count > 0) put(w, " ", 1);
    } else if (f->wrap > 0 && f->count % f->wrap != 0) {
        put(w, " ", 1);
    } else {
        newline(w, w->depth);
    }
    f->count++;
}

// Prefix of a value: in an array it is an item, in an object key() did it.
static void value_prefix(writer *w) {
    if (w->depth > 0 && w->stack[w->depth - 1].is_array) next_item(w);
}

static void key(writer *w, const char *k);

static void begin(writer *w, bool is_array, bool is_inline, int wrap) {
    value_prefix(w);
    put(w, is_array ? "[" : "{", 1);
    IPCC_ASSERT(w->depth < MAX_DEPTH);
    w->stack[w->depth++] = (frame){.is_array = is_array, .is_inline = is_inline, .wrap = wrap};
}

static void end(writer *w) {
    IPCC_ASSERT(w->depth > 0);
    frame f = w->stack[--w->depth];
    if (!f.is_inline && f.count > 0) newline(w, w->depth);
    put(w, f.is_array ? "]" : "}", 1);
}

// A JSON string: quotes, backslashes and control characters escaped; other
// bytes (UTF-8 included) as they are.
static void string_literal(writer *w, const char *s) {
    put(w, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c != '"' && c != '\\' && c >= 0x20) continue;
        put(w, run, (size_t)(s - run));
        if (c == '"')
            puts_(w, "\\\"");
        else if (c == '\\')
            puts_(w, "\\\\");
        else if (c == '\n')
            puts_(w, "\\n");
        else if (c == '\t')
            puts_(w, "\\t");
        else
            putf(w, "\\u%04x", c);
        run = s + 1;
    }
    put(w, run, (size_t)(s - run));
    put(w, "\"", 1);
}

static void key(writer *w, const char *k) {
    next_item(w);
    string_literal(w, k);
    put(w, ": ", 2);
    w->key = k;
}

static void string_value(writer *w, const char *s) {
    value_prefix(w);
    string_literal(w, s);
}

static void bool_value(writer *w, bool b) {
    value_prefix(w);
    puts_(w, b ? "true" : "false");
}

static void int_value(writer *w, int v) {
    value_prefix(w);
    putf(w, "%d", v);
}

// The shortest of %.15g, %.16g, %.17g that reads back as v (%.17g always
// does). A locale's decimal comma is turned into a point.
static void format_double(char out[40], double v) {
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, 40, "%.*g", prec, v);
        if (strtod(out, NULL) == v) break;
    }
    for (char *c = out; *c; c++)
        if (*c == ',') *c = '.';
}

static void note_bad(writer *w, double v) {
    if (w->bad) return;
    w->bad = true;
    snprintf(w->bad_path, sizeof w->bad_path, "%s%s%s is %s", w->ctx, w->ctx[0] && w->key ? "." : "",
             w->key ? w->key : "", isnan(v) ? "NaN" : "infinite");
}

static void number_value(writer *w, double v) {
    value_prefix(w);
    if (!isfinite(v)) {
        note_bad(w, v);
        puts_(w, "0");
        return;
    }
    char s[40];
    format_double(s, v);
    puts_(w, s);
}

// A time: +-infinity ("forever") is written as +-1e30.
static void time_value(writer *w, double v) {
    if (isinf(v)) {
        value_prefix(w);
        puts_(w, v > 0 ? "1e30" : "-1e30");
        return;
    }
    number_value(w, v);
}

static void numbers(writer *w, int n, const double *v) {
    bool inl = n <= INLINE_NUMBERS;
    begin(w, true, inl, inl ? 0 : WRAP_NUMBERS);
    for (int i = 0; i < n; i++)
        number_value(w, v[i]);
    end(w);
}

static void indices(writer *w, int n, const int *v) {
    bool inl = n <= INLINE_INDICES;
    begin(w, true, inl, inl ? 0 : WRAP_INDICES);
    for (int i = 0; i < n; i++)
        int_value(w, v[i]);
    end(w);
}

static void key_number(writer *w, const char *k, double v) {
    key(w, k);
    number_value(w, v);
}

static void key_vec3(writer *w, const char *k, const double v[3]) {
    key(w, k);
    numbers(w, 3, v);
}

// Exactly +0.0 (a -0.0 is written, so placements stay bit-identical).
static bool is_plus_zero(double v) { return v == 0 && !signbit(v); }
static bool is_zero3(const double v[3]) {
    return is_plus_zero(v[0]) && is_plus_zero(v[1]) && is_plus_zero(v[2]);
}

static void optional_vec3(writer *w, const char *k, const double v[3]) {
    if (!is_zero3(v)) key_vec3(w, k, v);
}

// ---------------------------------------------------------------------------
// Paths

// Absolute form of `path` (realpath when it exists, else joined with the
// working directory); malloc'ed, NULL when out of memory.
static char *absolute_path(const char *path) {
    char *real = realpath(path, NULL);
    if (real) return real;
    if (path[0] == '/') return strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return strdup(path);
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s/%s", cwd, path);
    return s;
}

// `target` as written into a scene in the folder `dir_real` (a realpath, or
// NULL): relative when both resolve and share a folder below the root,
// else absolute. malloc'ed; NULL when out of memory.
static char *path_from(const char *dir_real, const char *target) {
    char *t = realpath(target, NULL);
    if (!t || !dir_real) {
        free(t);
        return absolute_path(target);
    }
    // Longest common prefix of whole components.
    size_t common = 0, i = 0;
    for (;; i++) {
        char a = dir_real[i], b = t[i];
        bool a_end = a == '\0' || a == '/', b_end = b == '\0' || b == '/';
        if (a_end && b_end) {
            common = i;
            if (a == '\0' || b == '\0') break;
        } else if (a != b) {
            break;
        }
    }
    if (common == 0) return t; // only the root in common: absolute
    int ups = 0;
    for (const char *c = dir_real + common; *c; c++)
        if (*c == '/') ups++;
    const char *rest = t + common + (t[common] == '/');
    size_t n = 3 * (size_t)ups + strlen(rest) + 2;
    char *s = malloc(n);
    if (s) {
        s[0] = '\0';
        for (int k = 0; k < ups; k++)
            strcat(s, "../");
        strcat(s, rest[0] ? rest : ".");
    }
    free(t);
    return s;
}

// The folder of `path`, resolved (NULL if it does not resolve).
static char *folder_real(const char *path) {
    char *dir = ipcc_scene_folder_of(path);
    if (!dir) return NULL;
    char *real = realpath(dir, NULL);
    free(dir);
    return real;
}

// ---------------------------------------------------------------------------
// Scene parts

static const char *model_name(ipcc_material_model m) {
    for (int i = 0; ipcc_scene_model_names[i]; i++)
        if (ipcc_scene_model_values[i] == m) return ipcc_scene_model_names[i];
    return NULL;
}

static const char *integrator_name(ipcc_integrator it) {
    for (int i = 0; ipcc_scene_integrator_names[i]; i++)
        if (ipcc_scene_integrator_values[i] == it) return ipcc_scene_integrator_names[i];
    return NULL;
}

static void set_ctx(writer *w, const char *fmt, ...) IPCC_PRINTF(2, 3);
static void set_ctx(writer *w, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->ctx, sizeof w->ctx, fmt, ap);
    va_end(ap);
    w->key = NULL;
}

static void write_world(writer *w, const ipcc_scene *s) {
    const ipcc_world_def *d = &s->world;
    set_ctx(w, "%s", "");
    key_number(w, "time_step", d->time_step);
    if (s->duration > 0 || s->num_steps <= 0) key_number(w, "duration", s->duration);
    if (s->num_steps > 0) {
        key(w, "steps");
        int_value(w, s->num_steps);
    }
    key_vec3(w, "gravity", d->gravity);
    key(w, "integrator");
    string_value(w, integrator_name(d->integrator));
    key(w, "newmark");
    begin(w, false, true, 0);
    set_ctx(w, "newmark");
    key_number(w, "beta", d->newmark_beta);
    key_number(w, "gamma", d->newmark_gamma);
    end(w);
    set_ctx(w, "%s", "");
    if (!is_plus_zero(d->length_scale)) key_number(w, "length_scale", d->length_scale);
    key_number(w, "damping", d->damping);

    key(w, "newton");
    begin(w, false, d->num_tolerances <= INLINE_NUMBERS, 0);
    set_ctx(w, "newton");
    key(w, "tolerance");
    if (d->num_tolerances > 0)
        numbers(w, d->num_tolerances, d->tolerances);
    else
        number_value(w, d->newton_tolerance);
    key(w, "max_iterations");
    int_value(w, d->newton_max_iterations);
    key(w, "max_splits");
    int_value(w, d->newton_max_splits);
    key(w, "project_hessian");
    bool_value(w, d->project_hessian);
    key(w, "check_forces");
    bool_value(w, d->newton_check_forces);
    end(w);

    const ipcc_contact_def *c = &d->contact;
    key(w, "contact");
    begin(w, false, false, 0);
    set_ctx(w, "contact");
    key(w, "enabled");
    bool_value(w, c->enabled);
    if (!is_plus_zero(c->dhat)) key_number(w, "dhat", c->dhat);
    if (!is_plus_zero(c->kappa)) key_number(w, "kappa", c->kappa);
    key(w, "self_collision");
    bool_value(w, c->self_collision);
    if (c->friction >= 0 || !isfinite(c->friction)) key_number(w, "friction", c->friction);
    if (!is_plus_zero(c->friction_epsv)) key_number(w, "friction_epsv", c->friction_epsv);
    key(w, "friction_iterations");
    int_value(w, c->friction_iterations);
    key_number(w, "friction_smoothing_time", c->friction_smoothing_time);
    end(w);

    set_ctx(w, "output");
    key(w, "output");
    begin(w, false, true, 0);
    if (s->output_directory) {
        key(w, "directory");
        string_value(w, s->output_directory);
    }
    key_number(w, "fps", s->output_fps);
    key_number(w, "checkpoint_every", s->checkpoint_every);
    key(w, "contacts");
    bool_value(w, s->output_contacts);
    key(w, "compress");
    bool_value(w, !s->output_uncompressed);
    end(w);
}

// "transform" as three rows, one per line.
static void write_transform(writer *w, const double t[12]) {
    key(w, "transform");
    begin(w, true, false, 0);
    for (int r = 0; r < 3; r++)
        numbers(w, 4, t + 4 * r);
    end(w);
}

// translation/rotation/scale or transform (bodies and obstacles alike).
static void write_placement(writer *w, bool use_transform, const double transform[12],
                            const double translation[3], const double rotation[3], const double scale[3]) {
    if (use_transform) {
        write_transform(w, transform);
        return;
    }
    optional_vec3(w, "translation", translation);
    optional_vec3(w, "rotation", rotation);
    if (scale[0] == 1 && scale[1] == 1 && scale[2] == 1) return;
    if (memcmp(&scale[0], &scale[1], sizeof scale[0]) == 0 &&
        memcmp(&scale[0], &scale[2], sizeof scale[0]) == 0)
        key_number(w, "scale", scale[0]);
    else
        key_vec3(w, "scale", scale);
}

static ipcc_status write_stop(writer *w, const ipcc_stop_trigger *s) {
    if (s->axis == -1) return IPCC_OK;
    if (s->axis < -1 || s->axis > 2)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s.stop.axis is %d (expected -1, 0, 1 or 2)", w->ctx,
                         s->axis);
    static const char *const axes[] = {"x", "y", "z"};
    key(w, "stop");
    begin(w, false, true, 0);
    key(w, "axis");
    string_value(w, axes[s->axis]);
    key(w, "measure");
    string_value(w, s->measure_max ? "max" : "min");
    key(w, "vertices");
    int range[2] = {s->first_vertex, s->num_vertices};
    indices(w, 2, range);
    key_number(w, s->above ? "above" : "below", s->value);
    key(w, "then");
    string_value(w, s->release ? "release" : "hold");
    end(w);
    return IPCC_OK;
}

// The selection and time range shared by Dirichlet and Neumann entries.
static void write_selection(writer *w, const double box_min[3], const double box_max[3], int num_vertices,
                            const int *vertices) {
    if (num_vertices > 0) {
        key(w, "vertices");
        indices(w, num_vertices, vertices);
        return;
    }
    key_vec3(w, "min", box_min);
    key_vec3(w, "max", box_max);
}

static void write_interval(writer *w, double start, double end_) {
    if (!is_plus_zero(start)) {
        key(w, "start");
        time_value(w, start);
    }
    if (end_ != 1e30) {
        key(w, "end");
        time_value(w, end_);
    }
}

static ipcc_status write_mesh_source(writer *w, const ipcc_scene *s, int i) {
    const ipcc_scene_mesh_source *src = s->body_sources ? &s->body_sources[i] : NULL;
    if (src && src->path) {
        char *rel = path_from(w->dir_real, src->path);
        if (!rel) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
        key(w, "mesh");
        string_value(w, rel);
        free(rel);
        return IPCC_OK;
    }
    if (!src || src->cells[0] < 1 || src->cells[1] < 1 || src->cells[2] < 1)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "bodies[%d].mesh: the scene does not record the mesh's file or box (body_sources)",
                         i);
    key(w, "mesh");
    begin(w, false, true, 0);
    key(w, "box");
    begin(w, false, true, 0);
    set_ctx(w, "bodies[%d].mesh.box", i);
    key_vec3(w, "size", src->size);
    key(w, "cells");
    indices(w, 3, src->cells);
    end(w);
    end(w);
    set_ctx(w, "bodies[%d]", i);
    return IPCC_OK;
}

static void write_material(writer *w, const ipcc_material *m) {
    begin(w, false, true, 0);
    key(w, "model");
    string_value(w, model_name(m->model));
    key_number(w, "density", m->density);
    key_number(w, "youngs_modulus", m->youngs_modulus);
    key_number(w, "poisson_ratio", m->poisson_ratio);
    end(w);
}

// "regions": each per-tet material under the number of the mesh region its
// tets belong to (scene_regions.c gives every material slot the tets of one
// region), inline, in slot order, so the reload rebuilds the same slots.
static ipcc_status write_regions(writer *w, const ipcc_scene *s, int i) {
    const ipcc_body_def *b = &s->bodies[i];
    if (b->num_materials == 0 || !b->tet_materials) return IPCC_OK;
    const ipcc_mesh *mesh = b->mesh;
    if (!mesh || !mesh->tet_regions)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "bodies[%d].regions: per-tet materials without mesh regions", i);
    key(w, "regions");
    begin(w, false, false, 0);
    for (int k = 0; k < b->num_materials; k++) {
        int e = 0;
        while (e < mesh->num_tets && b->tet_materials[e] != k)
            e++;
        if (e == mesh->num_tets) continue; // a material no tet uses
        int region = mesh->tet_regions[e];
        for (int t = 0; t < mesh->num_tets; t++)
            if (b->tet_materials[t] == k && mesh->tet_regions[t] != region)
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                                 "bodies[%d].regions: material %d spans regions %d and %d (not a region map)",
                                 i, k, region, mesh->tet_regions[t]);
        if (!model_name(b->materials[k].model))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "bodies[%d].regions: unknown model %d", i,
                             (int)b->materials[k].model);
        char name[16];
        snprintf(name, sizeof name, "%d", region);
        set_ctx(w, "bodies[%d].regions.%d", i, region);
        key(w, name);
        write_material(w, &b->materials[k]);
    }
    end(w);
    set_ctx(w, "bodies[%d]", i);
    return IPCC_OK;
}

static ipcc_status write_body(writer *w, const ipcc_scene *s, int i) {
    const ipcc_body_def *b = &s->bodies[i];
    set_ctx(w, "bodies[%d]", i);
    begin(w, false, false, 0);
    if (b->name) {
        key(w, "name");
        string_value(w, b->name);
    }
    ipcc_status st = write_mesh_source(w, s, i);
    if (st != IPCC_OK) return st;

    const ipcc_material *m = &b->material;
    if (!model_name(m->model))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "bodies[%d].material: unknown model %d", i,
                         (int)m->model);
    key(w, "material");
    set_ctx(w, "bodies[%d].material", i);
    write_material(w, m);
    set_ctx(w, "bodies[%d]", i);
    if ((st = write_regions(w, s, i)) != IPCC_OK) return st;

    write_placement(w, b->use_transform, b->transform, b->translation, b->rotation, b->scale);
    optional_vec3(w, "velocity", b->velocity);
    optional_vec3(w, "angular_velocity", b->angular_velocity);
    if (b->has_velocity_pivot) key_vec3(w, "angular_velocity_centre", b->velocity_pivot);
    if (!is_plus_zero(b->friction)) key_number(w, "friction", b->friction);

    if (b->num_dirichlet > 0) {
        key(w, "dirichlet");
        begin(w, true, false, 0);
        for (int j = 0; j < b->num_dirichlet; j++) {
            const ipcc_dirichlet_def *d = &b->dirichlet[j];
            set_ctx(w, "bodies[%d].dirichlet[%d]", i, j);
            begin(w, false, d->num_vertices <= INLINE_INDICES && d->stop.axis == -1, 0);
            write_selection(w, d->box_min, d->box_max, d->num_vertices, d->vertices);
            optional_vec3(w, "velocity", d->velocity);
            optional_vec3(w, "angular_velocity", d->angular_velocity);
            if (d->has_pivot) key_vec3(w, "pivot", d->pivot);
            write_interval(w, d->start, d->end);
            if ((st = write_stop(w, &d->stop)) != IPCC_OK) return st;
            end(w);
        }
        end(w);
    }
    if (b->num_neumann > 0) {
        key(w, "neumann");
        begin(w, true, false, 0);
        for (int j = 0; j < b->num_neumann; j++) {
            const ipcc_neumann_def *n = &b->neumann[j];
            set_ctx(w, "bodies[%d].neumann[%d]", i, j);
            begin(w, false, n->num_vertices <= INLINE_INDICES, 0);
            write_selection(w, n->box_min, n->box_max, n->num_vertices, n->vertices);
            key_vec3(w, "acceleration", n->acceleration);
            write_interval(w, n->start, n->end);
            end(w);
        }
        end(w);
    }
    end(w);
    return IPCC_OK;
}

static void write_half_space(writer *w, const ipcc_scene *s, int i) {
    const ipcc_half_space_def *h = &s->half_spaces[i];
    set_ctx(w, "obstacles[%d]", i); // half-spaces are written first
    begin(w, false, true, 0);
    key(w, "type");
    string_value(w, "half_space");
    if (h->name) {
        key(w, "name");
        string_value(w, h->name);
    }
    key_vec3(w, "point", h->point);
    key_vec3(w, "normal", h->normal);
    if (h->friction >= 0 || isnan(h->friction)) key_number(w, "friction", h->friction); // < 0: not set
    end(w);
}

static ipcc_status write_obstacle(writer *w, const ipcc_scene *s, int i) {
    const ipcc_obstacle_def *o = &s->obstacles[i];
    const char *file = s->obstacle_paths ? s->obstacle_paths[i] : NULL;
    int at = s->num_half_spaces + i; // its index in the written "obstacles"
    if (!o->mesh || !file)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "obstacles[%d]%s%s%s: the scene does not record its mesh file (obstacle_paths)", at,
                         o->name ? " (\"" : "", o->name ? o->name : "", o->name ? "\")" : "");
    const char *type = o->mesh->num_faces > 0 ? "mesh" : o->mesh->num_edges > 0 ? "segments" : "points";
    char *rel = path_from(w->dir_real, file);
    if (!rel) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
    set_ctx(w, "obstacles[%d]", at);
    begin(w, false, false, 0);
    key(w, "type");
    string_value(w, type);
    if (o->name) {
        key(w, "name");
        string_value(w, o->name);
    }
    key(w, "path");
    string_value(w, rel);
    free(rel);
    write_placement(w, o->use_transform, o->transform, o->translation, o->rotation, o->scale);
    optional_vec3(w, "velocity", o->velocity);
    optional_vec3(w, "angular_velocity", o->angular_velocity);
    if (o->has_pivot) key_vec3(w, "pivot", o->pivot);
    ipcc_status st = write_stop(w, &o->stop);
    if (st != IPCC_OK) return st;
    if (!is_plus_zero(o->friction)) key_number(w, "friction", o->friction);
    end(w);
    return IPCC_OK;
}

// An analytic shape: its sizes under their keys, its orientation under the
// key it was given with (shape_sources), so a reload computes the same
// rotation matrix bit for bit. A rotation the source does not give (or, with
// no sources, any rotation but the identity) cannot be written exactly and
// fails.
static ipcc_status write_shape(writer *w, const ipcc_scene *s, int i) {
    const ipcc_shape_def *d = &s->shapes[i];
    int at = s->num_half_spaces + s->num_obstacles + i; // its index in the written "obstacles"
    const char *type = ipcc_shape_kind_name(d->kind);
    if (!type)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "obstacles[%d]: unknown shape kind %d", at, (int)d->kind);
    ipcc_scene_shape_source src = {.orientation = IPCC_SCENE_ORIENTATION_NONE};
    if (s->shape_sources) src = s->shape_sources[i];
    double R[9];
    ipcc_scene_shape_rotation(&src, R);
    if (memcmp(R, d->rotation, sizeof R) != 0)
        return ipcc_fail(
            IPCC_ERR_INVALID_ARGUMENT,
            "obstacles[%d]%s%s%s.rotation: the matrix is not the one its recorded \"rotation\" or "
            "\"axis\" gives (shape_sources), so it cannot be written exactly",
            at, d->name ? " (\"" : "", d->name ? d->name : "", d->name ? "\")" : "");
    set_ctx(w, "obstacles[%d]", at);
    bool moves = !is_zero3(d->velocity) || !is_zero3(d->angular_velocity);
    begin(w, false, !moves && d->kind != IPCC_SHAPE_HEIGHT_FIELD, 0);
    key(w, "type");
    if (d->kind == IPCC_SHAPE_PLANE) { // a moving half-space: its velocity key makes it one when read
        string_value(w, "half_space");
        if (d->name) {
            key(w, "name");
            string_value(w, d->name);
        }
        key_vec3(w, "point", d->center);
        key_vec3(w, "normal",
                 src.orientation == IPCC_SCENE_ORIENTATION_AXIS
                     ? src.value
                     : (double[3]){d->rotation[2], d->rotation[5], d->rotation[8]});
        key_vec3(w, "velocity", d->velocity);
        optional_vec3(w, "angular_velocity", d->angular_velocity);
        if (d->friction >= 0 || isnan(d->friction)) key_number(w, "friction", d->friction);
        end(w);
        return IPCC_OK;
    }
    string_value(w, type);
    if (d->name) {
        key(w, "name");
        string_value(w, d->name);
    }
    key_vec3(w, "center", d->center);
    switch (d->kind) {
    case IPCC_SHAPE_SPHERE: key_number(w, "radius", d->size[0]); break;
    case IPCC_SHAPE_BOX: key_vec3(w, "half_extents", d->size); break;
    case IPCC_SHAPE_ELLIPSOID: key_vec3(w, "semi_axes", d->size); break;
    case IPCC_SHAPE_CYLINDER:
        key_number(w, "radius", d->size[0]);
        key_number(w, "half_length", d->size[1]);
        break;
    case IPCC_SHAPE_TORUS:
        key_number(w, "major_radius", d->size[0]);
        key_number(w, "minor_radius", d->size[1]);
        break;
    case IPCC_SHAPE_PLANE: break; // written above
    case IPCC_SHAPE_HEIGHT_FIELD: // the grid inline, whatever file it came from: exact and self-contained
        key(w, "spacing");
        numbers(w, 2, d->spacing);
        key(w, "heights");
        begin(w, true, false, 0);
        for (int r = 0; r < d->rows; r++)
            numbers(w, d->cols, d->heights + (size_t)r * d->cols);
        end(w);
        break;
    }
    if (src.orientation == IPCC_SCENE_ORIENTATION_EULER) key_vec3(w, "rotation", src.value);
    if (src.orientation == IPCC_SCENE_ORIENTATION_AXIS) key_vec3(w, "axis", src.value);
    optional_vec3(w, "velocity", d->velocity);
    optional_vec3(w, "angular_velocity", d->angular_velocity);
    if (d->friction >= 0 || isnan(d->friction)) key_number(w, "friction", d->friction); // < 0: not set
    if (d->face_samples >= 0) { // -1: the kind's default
        key(w, "face_samples");
        bool_value(w, d->face_samples == 1);
    }
    end(w);
    return IPCC_OK;
}

// The whole document into w->buf.
static ipcc_status write_scene(writer *w, const ipcc_scene *s) {
    // Header comments: one line each, without the line breaks a path might hold.
    puts_(w, "// Written by ipcc ");
    puts_(w, ipcc_version());
    puts_(w, " from ");
    for (const char *c = s->path ? s->path : "<unknown>"; *c; c++)
        put(w, *c == '\n' || *c == '\r' ? " " : c, 1);
    puts_(w, "\n// Native scene format: docs/scene-format.md\n");
    if (!integrator_name(s->world.integrator))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "integrator: unknown value %d", (int)s->world.integrator);

    begin(w, false, false, 0);
    write_world(w, s);
    ipcc_status st;
    if (s->num_bodies > 0) {
        set_ctx(w, "%s", "");
        key(w, "bodies");
        begin(w, true, false, 0);
        for (int i = 0; i < s->num_bodies; i++)
            if ((st = write_body(w, s, i)) != IPCC_OK) return st;
        end(w);
    }
    if (s->num_half_spaces + s->num_obstacles + s->num_shapes > 0) {
        set_ctx(w, "%s", "");
        key(w, "obstacles");
        begin(w, true, false, 0);
        for (int i = 0; i < s->num_half_spaces; i++)
            write_half_space(w, s, i);
        for (int i = 0; i < s->num_obstacles; i++)
            if ((st = write_obstacle(w, s, i)) != IPCC_OK) return st;
        for (int i = 0; i < s->num_shapes; i++)
            if ((st = write_shape(w, s, i)) != IPCC_OK) return st;
        end(w);
    }
    end(w);
    puts_(w, "\n");
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Atomic write

static ipcc_status write_atomically(const char *path, const char *text, size_t len) {
    ipcc_atomic_file f;
    ipcc_status st = ipcc_atomic_open(&f, path, "scene");
    if (st != IPCC_OK) return st;
    ipcc_atomic_write(&f, text, len);
    return ipcc_atomic_commit(&f);
}

// ---------------------------------------------------------------------------
// Public API

ipcc_status ipcc_scene_write_json(const ipcc_scene *scene, const char *path) {
    IPCC_ASSERT(scene && path);
    if (!path[0]) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "cannot write scene: empty path");
    writer w = {.buf = NULL};
    char *dir_real = folder_real(path);
    w.dir_real = dir_real;
    ipcc_status st = write_scene(&w, scene);
    if (st == IPCC_OK && w.oom) st = ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
    if (st == IPCC_OK && w.bad)
        st = ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s (JSON has no NaN or infinity)", w.bad_path);
    if (st != IPCC_OK) {
        char reason[1024];
        snprintf(reason, sizeof reason, "%s", ipcc_last_error());
        st = ipcc_fail(st, "cannot write scene \"%s\": %s", path, reason);
    } else {
        st = write_atomically(path, w.buf, w.len);
    }
    free(w.buf);
    free(dir_real);
    return st;
}
