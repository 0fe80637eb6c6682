// The original IPC's scene scripts (`.txt`) as ipcc scenes.
//
// The IPC script reader (ipc_script.h) reads the file into an
// ipcc_ipc_script record exactly as IPC does; this file turns that record
// into an ipcc_scene with IPC's interpretation
// (docs/ipc-script-format.md, cited as "F§n"; docs/ipc-compatibility.md
// lists every keyword and every deliberate difference):
//
//   1. Paths (F§1): absolute as given; else relative to the script's folder;
//      else relative to each parent folder in turn (the dataset root holding
//      `input/`).
//   2. Shapes (F§3.2, §9): by extension, `.msh` / `.ele` / no extension are
//      tet bodies, `.obj` / `.seg` / `.pt` kinematic obstacles (a missing
//      `.seg` or `.pt` falls back to the `.obj` of the same stem). Each is
//      placed by x = R (s ⊙ p) + t, R = Rx Ry Rz in degrees, about the
//      file's origin; then `rotateModel` (F§3.3, about half the extent
//      vector), then `size` (uniform scale S / longest extent of all shapes,
//      minimum corner to the origin), then the script's shift (`fall`,
//      `dragright`: +½ bbox diagonal in y). The composition is one affine
//      map per shape, handed to the world as its transform, so no vertex is
//      moved twice and the native scene (ipcc convert) carries it exactly.
//   3. Vertex selections (DBC/NBC boxes in each shape's raw bbox over its
//      surface vertices, F§3.2; script handles over the whole scene, F§6)
//      are computed here, with IPC's strict or inclusive comparisons, and
//      passed as explicit vertex lists, so they are exact.
//   4. Parameters in units of l (F§5): l = the rest bbox diagonal of the tet
//      shapes after placement and `size` (before `rotateModel`), handed to
//      the world as length_scale. d̂ = tuning[1] l (the barrier is on squared
//      distance with threshold d̂², as ipcc's), eps_v = tuning[5] l per
//      second with IPC's smoothing time 0.025 s, Newton tolerance tol l h.
//   5. Presets (F§6) become rigid prescribed motions (with pivots), stop
//      triggers for the stateful ones, initial velocities and obstacles.
//
// This file: paths, shapes, the scene-wide transforms and assembly;
// scene_ipc_presets.c: the DBC/NBC groups and the presets; below both,
// scene_ipc_placement.c: the loader's state and the shapes' placement maps
// (compose, placed vertices, bounding boxes). Errors name the script, the
// line and the keyword or shape.
#define _XOPEN_SOURCE 700 // realpath
#include "scene/ipc/scene_ipc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/core.h"
#include "scene/ipc/ipc_script.h"
#include "base/rotation.h"
#include "scene/ipc/scene_ipc_placement.h"
#include "scene/ipc/scene_ipc_presets.h"
#include "scene/scene_json.h"

// ---------------------------------------------------------------------------
// Small helpers

static bool file_exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *extension(const char *path) {
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot : "";
}

// Stem of a path (no folder, no extension) into out.
static void stem(const char *path, char *out, size_t len) {
    const char *slash = strrchr(path, '/');
    const char *s = slash ? slash + 1 : path;
    snprintf(out, len, "%s", s);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = '\0';
}

// Resolve a path as IPC does (F§1): absolute as given, else against the
// script's folder and then each parent folder in turn (the dataset root that
// holds `input/`). Returns a malloc'ed path, or NULL if no candidate exists.
static char *resolve(const loader *L, const char *rel) {
    if (rel[0] == '/') return file_exists(rel) ? ipcc_scene_copy_string(rel) : NULL;
    char *dir = realpath(L->dir, NULL);
    if (!dir) return NULL;
    char *found = NULL;
    for (;;) {
        size_t n = strlen(dir) + strlen(rel) + 2;
        char *cand = malloc(n);
        if (!cand) break;
        snprintf(cand, n, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", rel);
        if (file_exists(cand)) {
            found = cand;
            break;
        }
        free(cand);
        if (strcmp(dir, "/") == 0) break;
        char *slash = strrchr(dir, '/');
        if (slash == dir)
            dir[1] = '\0';
        else
            *slash = '\0';
    }
    free(dir);
    return found;
}

// ---------------------------------------------------------------------------
// Shapes

static ipcc_status load_shape(loader *L, int s) {
    shape *sh = &L->shapes[s];
    const ipcc_ipc_script_shape *t = &L->txt->shapes[s];
    sh->txt = t;
    const char *ext = extension(t->path);
    char *want = NULL;
    if (strcmp(ext, "") == 0) {
        size_t n = strlen(t->path) + 6;
        want = malloc(n);
        if (!want) return ipcc_scene_ipc_oom(L);
        snprintf(want, n, "%s.node", t->path);
        sh->kind = KIND_TETS;
    } else if (strcmp(ext, ".msh") == 0 || strcmp(ext, ".ele") == 0 || strcmp(ext, ".node") == 0) {
        sh->kind = KIND_TETS;
    } else if (strcmp(ext, ".obj") == 0) {
        sh->kind = KIND_TRIANGLES;
    } else if (strcmp(ext, ".seg") == 0) {
        sh->kind = KIND_SEGMENTS;
    } else if (strcmp(ext, ".pt") == 0) {
        sh->kind = KIND_POINTS;
    } else {
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "%s:%d: shape \"%s\": unknown mesh type \"%s\" (expected .msh, .ele, .node, no "
                         "extension (TetGen), .obj, .seg or .pt)",
                         L->path, t->line, t->path, ext);
    }
    const char *rel = want ? want : t->path;
    sh->resolved = resolve(L, rel);
    bool fallback = false;
    if (!sh->resolved && (sh->kind == KIND_SEGMENTS || sh->kind == KIND_POINTS)) {
        // F§9: a missing .seg / .pt falls back to the .obj of the same stem.
        size_t n = strlen(t->path) + 5;
        char *obj = malloc(n);
        if (!obj) {
            free(want);
            return ipcc_scene_ipc_oom(L);
        }
        snprintf(obj, n, "%.*s.obj", (int)(strlen(t->path) - strlen(ext)), t->path);
        sh->resolved = resolve(L, obj);
        if (sh->resolved) {
            fallback = true;
            ipcc_log(IPCC_LOG_INFO, "%s:%d: \"%s\" not found; using the %s of \"%s\" (as IPC)", L->path,
                     t->line, t->path, sh->kind == KIND_SEGMENTS ? "edges" : "vertices", obj);
        }
        free(obj);
    }
    if (!sh->resolved) {
        ipcc_status st = ipcc_fail(
            IPCC_ERR_IO, "%s:%d: shape \"%s\": file not found (looked in %s and its parent folders)", L->path,
            t->line, rel, L->dir);
        free(want);
        return st;
    }
    free(want);
    ipcc_clear_error();
    ipcc_status st;
    if (sh->kind == KIND_TETS) {
        st = ipcc_mesh_read(sh->resolved, &sh->tet);
        if (st == IPCC_OK) {
            sh->mesh = sh->tet;
            sh->nv = sh->tet->num_vertices;
            sh->raw = sh->tet->vertices;
        }
    } else {
        if (sh->kind == KIND_TRIANGLES)
            st = ipcc_trimesh_read_obj(sh->resolved, &sh->tri);
        else if (sh->kind == KIND_POINTS)
            st = ipcc_trimesh_read_points(sh->resolved, &sh->tri);
        else if (!fallback)
            st = ipcc_trimesh_read_seg(sh->resolved, &sh->tri);
        else {
            ipcc_trimesh *obj = NULL;
            st = ipcc_trimesh_read_obj(sh->resolved, &obj);
            if (st == IPCC_OK)
                st = ipcc_trimesh_create_segments(obj->num_vertices, obj->vertices, obj->num_edges,
                                                  obj->edges, sh->resolved, &sh->tri);
            ipcc_trimesh_destroy(obj);
        }
        if (st == IPCC_OK) {
            sh->nv = sh->tri->num_vertices;
            sh->raw = sh->tri->vertices;
        }
    }
    if (st != IPCC_OK)
        return ipcc_fail(st, "%s:%d: shape \"%s\": %s", L->path, t->line, t->path, ipcc_last_error());
    // Placement x = R (s ⊙ p) + t (F§3.2).
    double R[9];
    ipcc_rotation_euler_degrees(t->rotation, 0, R); // F§3.2: R = Rx Ry Rz
    for (int k = 0; k < 3; ++k) {
        if (!(t->scale[k] > 0) || !isfinite(t->scale[k]))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s:%d: shape \"%s\": scale must be > 0 (got %g)",
                             L->path, t->line, t->path, t->scale[k]);
        for (int j = 0; j < 3; ++j)
            sh->A[3 * k + j] = R[3 * k + j] * t->scale[j];
        sh->b[k] = t->translation[k];
    }
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Assembly

static void set_transform(double T[12], const double A[9], const double b[3]) {
    for (int k = 0; k < 3; ++k) {
        for (int j = 0; j < 3; ++j)
            T[4 * k + j] = A[3 * k + j];
        T[4 * k + 3] = b[k];
    }
}

static ipcc_status build(loader *L) {
    const ipcc_ipc_script *t = L->txt;
    ipcc_scene *sc = L->scene;
    if (t->restart)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "%s: 'restart' is not supported (ipcc resumes from its own checkpoints)", L->path);
    if (t->num_shapes <= 0)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: no shapes (a scene needs a body)", L->path);
    for (int s = 0; s < t->num_shapes; ++s)
        if (t->shapes[s].mesh_seq)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s:%d: 'meshSeq' (mesh-sequence playback) is not supported", L->path,
                             t->shapes[s].line);
    L->ns = t->num_shapes;
    L->shapes = calloc((size_t)L->ns, sizeof *L->shapes);
    if (!L->shapes) return ipcc_scene_ipc_oom(L);
    int nbodies = 0, nkin = 0, g = 0;
    for (int s = 0; s < L->ns; ++s) {
        ipcc_status st = load_shape(L, s);
        if (st != IPCC_OK) return st;
        L->shapes[s].global_first = g;
        g += L->shapes[s].nv;
        if (L->shapes[s].kind == KIND_TETS)
            L->shapes[s].index = nbodies++;
        else
            L->shapes[s].index = nkin++;
    }
    if (nbodies == 0)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "%s: no tet shape (.msh, .ele or TetGen): nothing to simulate", L->path);
    // World vertex order: bodies, then kinematic shapes, then meshCOs.
    int wv = 0;
    for (int s = 0; s < L->ns; ++s)
        if (L->shapes[s].kind == KIND_TETS) L->shapes[s].world_first = wv, wv += L->shapes[s].nv;
    for (int s = 0; s < L->ns; ++s)
        if (L->shapes[s].kind != KIND_TETS) L->shapes[s].world_first = wv, wv += L->shapes[s].nv;

    // l from the unrotated rest shape (F§5): computed after `size` below.
    double lo[3], hi[3];
    ipcc_scene_ipc_bbox(L, KIND_TETS, lo, hi);
    double l_unrotated = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                              (hi[2] - lo[2]) * (hi[2] - lo[2]));
    if (t->rotate_degrees != 0) {
        double al = sqrt(t->rotate_axis[0] * t->rotate_axis[0] + t->rotate_axis[1] * t->rotate_axis[1] +
                         t->rotate_axis[2] * t->rotate_axis[2]);
        if (!(al > 0) || !isfinite(al))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: rotateModel: the axis must be non-zero",
                             L->path);
        double Q[9], alo[3], ahi[3], C[3], c[3];
        double k[3] = {t->rotate_axis[0] / al, t->rotate_axis[1] / al, t->rotate_axis[2] / al};
        ipcc_rotation_axis_angle(k, t->rotate_degrees * PI / 180, Q);
        ipcc_scene_ipc_bbox(L, KIND_POINTS, alo, ahi);
        for (int k = 0; k < 3; ++k)
            C[k] = 0.5 * (ahi[k] - alo[k]); // F§3.3 quirk: half the extent, not the centre
        for (int k = 0; k < 3; ++k)
            c[k] = C[k] - (Q[3 * k] * C[0] + Q[3 * k + 1] * C[1] + Q[3 * k + 2] * C[2]);
        for (int s = 0; s < L->ns; ++s)
            ipcc_scene_ipc_compose(&L->shapes[s], Q, c);
    }
    double size_factor = 1;
    if (t->size > 0) {
        double alo[3], ahi[3];
        ipcc_scene_ipc_bbox(L, KIND_POINTS, alo, ahi);
        double E = fmax(ahi[0] - alo[0], fmax(ahi[1] - alo[1], ahi[2] - alo[2]));
        if (!(E > 0))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: size: the shapes have zero extent", L->path);
        size_factor = t->size / E;
        double M[9] = {size_factor, 0, 0, 0, size_factor, 0, 0, 0, size_factor};
        double c[3] = {-size_factor * alo[0], -size_factor * alo[1], -size_factor * alo[2]};
        for (int s = 0; s < L->ns; ++s)
            ipcc_scene_ipc_compose(&L->shapes[s], M, c);
    }
    double l = l_unrotated * size_factor;
    if (!(l > 0)) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: the tet shapes have zero extent", L->path);
    if (strcmp(t->script, "fall") == 0 || strcmp(t->script, "dragright") == 0) ipcc_scene_ipc_shift_up(L);

    // Scene records.
    sc->num_bodies = nbodies;
    sc->bodies = calloc((size_t)nbodies, sizeof *sc->bodies);
    sc->body_sources = calloc((size_t)nbodies, sizeof *sc->body_sources);
    int nobst = nkin + t->num_mesh_cos;
    sc->obstacles = calloc((size_t)(nobst + 1), sizeof *sc->obstacles);
    sc->obstacle_paths = calloc((size_t)(nobst + 1), sizeof *sc->obstacle_paths);
    sc->half_spaces = calloc((size_t)(t->num_half_spaces + 1), sizeof *sc->half_spaces);
    L->cond = calloc((size_t)nbodies, sizeof *L->cond);
    if (!sc->bodies || !sc->body_sources || !sc->obstacles || !sc->obstacle_paths || !sc->half_spaces ||
        !L->cond)
        return ipcc_scene_ipc_oom(L);
    // Counted before they are filled, so ipcc_scene_destroy() frees the
    // kinematic shapes already moved in when a later body fails.
    sc->num_obstacles = nkin;
    ipcc_material global = {.model = t->fcr ? IPCC_FIXED_COROTATED : IPCC_NEO_HOOKEAN,
                            .density = t->density,
                            .youngs_modulus = t->youngs,
                            .poisson_ratio = t->poisson};
    for (int s = 0; s < L->ns; ++s) {
        shape *sh = &L->shapes[s];
        char st_name[200], name[256];
        stem(sh->txt->path, st_name, sizeof st_name);
        snprintf(name, sizeof name, "%s_%d", st_name, s);
        if (sh->kind == KIND_TETS) {
            ipcc_body_def *b = &sc->bodies[sh->index];
            *b = ipcc_default_body_def();
            b->name = ipcc_scene_copy_string(name);
            b->mesh = sh->tet;
            sh->tet = NULL; // the scene owns it now
            b->use_transform = true;
            set_transform(b->transform, sh->A, sh->b);
            b->material = global;
            const ipcc_ipc_script_shape *ts = sh->txt;
            if (ts->has_material) {
                if (isfinite(ts->density) && isfinite(ts->youngs) && isfinite(ts->poisson) &&
                    ts->density > 0 && ts->youngs > 0) {
                    b->material.density = ts->density;
                    b->material.youngs_modulus = ts->youngs;
                    b->material.poisson_ratio = ts->poisson;
                } else {
                    ipcc_log(IPCC_LOG_WARNING,
                             "%s:%d: shape \"%s\": invalid material ignored (as IPC); using the "
                             "global one",
                             L->path, ts->line, ts->path);
                }
            }
            if (!(b->material.poisson_ratio >= 0 && b->material.poisson_ratio < 0.5))
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                                 "%s:%d: shape \"%s\": Poisson's ratio must be in [0, 0.5) (got %g)", L->path,
                                 ts->line, ts->path, b->material.poisson_ratio);
            if (!(b->material.density > 0) || !(b->material.youngs_modulus > 0))
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                                 "%s: density and Young's modulus must be > 0 (got %g and %g)", L->path,
                                 b->material.density, b->material.youngs_modulus);
            b->friction = t->self_friction;
            if (!b->name || !(sc->body_sources[sh->index].path = ipcc_scene_copy_string(sh->resolved)))
                return ipcc_scene_ipc_oom(L);
        } else {
            ipcc_obstacle_def *o = &sc->obstacles[sh->index];
            *o = ipcc_default_obstacle_def();
            o->name = ipcc_scene_copy_string(name);
            o->mesh = sh->tri;
            sh->tri = NULL;
            o->use_transform = true;
            set_transform(o->transform, sh->A, sh->b);
            o->friction = t->self_friction;
            if (!o->name || !(sc->obstacle_paths[sh->index] = ipcc_scene_copy_string(sh->resolved)))
                return ipcc_scene_ipc_oom(L);
        }
    }
    L->num_kinematic = nkin;
    // meshCO (F§3.5): centroid c, longest raw extent E: v -> R (v - c) scale / E + position.
    for (int m = 0; m < t->num_mesh_cos; ++m) {
        const ipcc_ipc_script_mesh_co *mc = &t->mesh_cos[m];
        char *path = resolve(L, mc->path);
        if (!path)
            return ipcc_fail(IPCC_ERR_IO,
                             "%s:%d: meshCO \"%s\": file not found (looked in %s and its parent folders)",
                             L->path, mc->line, mc->path, L->dir);
        ipcc_trimesh *mesh = NULL;
        ipcc_clear_error();
        ipcc_status st = ipcc_trimesh_read_obj(path, &mesh);
        if (st != IPCC_OK) {
            st = ipcc_fail(st, "%s:%d: meshCO \"%s\": %s", L->path, mc->line, mc->path, ipcc_last_error());
            free(path);
            return st;
        }
        int i = sc->num_obstacles++;
        sc->obstacle_paths[i] = path;
        ipcc_obstacle_def *o = &sc->obstacles[i];
        *o = ipcc_default_obstacle_def();
        o->mesh = mesh;
        char st_name[200], name[256];
        stem(mc->path, st_name, sizeof st_name);
        snprintf(name, sizeof name, "meshCO_%d_%s", m, st_name);
        if (!(o->name = ipcc_scene_copy_string(name))) return ipcc_scene_ipc_oom(L);
        double c[3] = {0, 0, 0}, mlo[3] = {INFINITY, INFINITY, INFINITY},
               mhi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int v = 0; v < mesh->num_vertices; ++v)
            for (int k = 0; k < 3; ++k) {
                c[k] += mesh->vertices[3 * v + k] / mesh->num_vertices;
                mlo[k] = fmin(mlo[k], mesh->vertices[3 * v + k]);
                mhi[k] = fmax(mhi[k], mesh->vertices[3 * v + k]);
            }
        double E = fmax(mhi[0] - mlo[0], fmax(mhi[1] - mlo[1], mhi[2] - mlo[2]));
        if (!(E > 0) || !(mc->scale > 0))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s:%d: meshCO \"%s\": zero extent or scale", L->path,
                             mc->line, mc->path);
        double R[9], A[9], b[3];
        ipcc_rotation_euler_degrees(mc->rotation, 0, R);
        for (int k = 0; k < 9; ++k)
            A[k] = R[k] * mc->scale / E;
        for (int k = 0; k < 3; ++k)
            b[k] = mc->position[k] - (A[3 * k] * c[0] + A[3 * k + 1] * c[1] + A[3 * k + 2] * c[2]);
        o->use_transform = true;
        set_transform(o->transform, A, b);
        o->friction = 0; // F§3.5 quirk: IPC computes no friction against meshCO
        if (mc->friction > 0)
            ipcc_log(IPCC_LOG_INFO, "%s:%d: meshCO friction %g ignored (as IPC: no friction against meshCO)",
                     L->path, mc->line, mc->friction);
    }
    // Half-spaces (F§3.4): not moved by size or scripts; friction as given.
    for (int h = 0; h < t->num_half_spaces; ++h) {
        const ipcc_ipc_script_half_space *hs = &t->half_spaces[h];
        ipcc_half_space_def *out = &sc->half_spaces[h];
        double n = sqrt(hs->normal[0] * hs->normal[0] + hs->normal[1] * hs->normal[1] +
                        hs->normal[2] * hs->normal[2]);
        if (!(n > 0) || !isfinite(n))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s:%d: half-space normal must be non-zero", L->path,
                             hs->line);
        if (!(hs->friction >= 0))
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s:%d: half-space friction must be >= 0 (got %g)",
                             L->path, hs->line, hs->friction);
        *out = ipcc_default_half_space_def();
        for (int k = 0; k < 3; ++k) {
            out->point[k] = hs->origin[k];
            out->normal[k] = hs->normal[k] / n;
        }
        out->friction = hs->friction;
    }
    sc->num_half_spaces = t->num_half_spaces;

    // World parameters (F§3.1, §5, §8).
    ipcc_world_def *w = &sc->world;
    *w = ipcc_default_world_def();
    if (!(t->time_step > 0) || !(t->duration > 0))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: time: duration and time step must be > 0", L->path);
    w->time_step = t->time_step;
    sc->duration = t->duration;
    double steps = ceil(t->duration / t->time_step); // F§8.6: N = ceil(T / h), in floating point as IPC
    if (steps > 1e9)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: time: too many steps (%g)", L->path, steps);
    sc->num_steps = (int)steps;
    w->gravity[0] = w->gravity[2] = 0;
    w->gravity[1] = t->gravity_off ? 0 : -9.80665;
    w->integrator = t->newmark ? IPCC_NEWMARK : IPCC_IMPLICIT_EULER;
    w->newmark_beta = t->newmark_beta;
    w->newmark_gamma = t->newmark_gamma;
    double h = t->time_step;
    // Damping (F§3.7, §8.7): K_d = k / h H_el, i.e. Rayleigh beta = k / h^2;
    // dampingRatio r > 0 sets k = 0.75 r h^3.
    double k = t->damping_ratio > 0 ? 0.75 * t->damping_ratio * h * h * h : t->damping_stiff;
    w->damping = k / (h * h);
    double abs_scale = t->use_abs_parameters ? 1.0 / l : 1.0; // useAbsParameters: no factors of l
    w->length_scale = l;
    w->newton_tolerance = 1e-2 * abs_scale;
    if (t->num_tol > 0) {
        double *tol = malloc(sizeof(double) * (size_t)t->num_tol);
        if (!tol) return ipcc_scene_ipc_oom(L);
        for (int i = 0; i < t->num_tol; ++i)
            tol[i] = t->tol[i] * abs_scale;
        w->tolerances = tol;
        w->num_tolerances = t->num_tol;
        w->newton_tolerance = tol[0];
    }
    // tuning: [0] kappa, [1] d̂ / l, [2] d̂ target / l, [3] d_tol / l, [4] eps_v / l, [5] its target (F§3.6).
    const double *tu = t->tuning;
    double lscale = t->use_abs_parameters ? 1.0 : l;
    w->contact.enabled = true;
    w->contact.dhat = tu[2] * lscale;
    // ipcc's 0 means "the default"; IPC has no such meaning (and a -0 would not convert to JSON).
    if (!(w->contact.dhat > 0))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: dHat/tuning: d̂ must be > 0 (got %g)", L->path,
                         tu[2]);
    if (tu[1] != tu[2])
        ipcc_log(IPCC_LOG_WARNING, "%s: tuning: d̂ homotopy (%g -> %g) not supported; using the target %g l",
                 L->path, tu[1], tu[2], tu[2]);
    if (tu[0] > 0) w->contact.kappa = tu[0];
    w->contact.friction_epsv = tu[5] * lscale;
    if (!(w->contact.friction_epsv > 0))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: epsv/tuning: eps_v must be > 0 (got %g)", L->path,
                         tu[5]);
    w->contact.friction_smoothing_time = 0.025; // F§5 quirk: IPC's code always uses 0.025 s
    w->contact.self_collision = t->self_collision;
    w->contact.friction = t->self_friction;
    w->contact.friction_iterations = t->fric_iter_amt > 0 ? t->fric_iter_amt : -1;
    if (t->kappa_min_multiplier != 1e11)
        ipcc_log(IPCC_LOG_WARNING, "%s: kappaMinMultiplier %g ignored (ipcc uses 1e11)", L->path,
                 t->kappa_min_multiplier);

    ipcc_status st = ipcc_scene_ipc_apply_script(L);
    if (st == IPCC_OK) st = ipcc_scene_ipc_apply_nbc(L);
    if (st != IPCC_OK) return st;
    for (int b = 0; b < nbodies; ++b) {
        sc->bodies[b].num_dirichlet = L->cond[b].nd;
        sc->bodies[b].dirichlet = L->cond[b].d;
        sc->bodies[b].num_neumann = L->cond[b].nn;
        sc->bodies[b].neumann = L->cond[b].nbc;
        L->cond[b].d = NULL;
        L->cond[b].nbc = NULL;
        L->cond[b].nd = L->cond[b].nn = 0;
    }
    // Output: output/<script stem> beside the working directory.
    char st_name[200], out[256];
    stem(L->path, st_name, sizeof st_name);
    snprintf(out, sizeof out, "output/%s", st_name);
    if (!(sc->output_directory = ipcc_scene_copy_string(out))) return ipcc_scene_ipc_oom(L);
    sc->output_fps = 0;
    sc->checkpoint_every = 10;
    return IPCC_OK;
}

ipcc_status ipcc_scene_load_ipc(const char *path, bool strict, ipcc_scene **out) {
    IPCC_ASSERT(path && out);
    *out = NULL;
    loader L = {.path = path};
    ipcc_status st = ipcc_ipc_script_read(path, strict, &L.txt);
    if (st != IPCC_OK) return st;
    L.dir = ipcc_scene_folder_of(path);
    L.scene = calloc(1, sizeof *L.scene);
    if (!L.dir || !L.scene) {
        st = ipcc_scene_ipc_oom(&L);
    } else {
        L.scene->format = "ipc";
        L.scene->path = ipcc_scene_copy_string(path);
        st = L.scene->path ? build(&L) : ipcc_scene_ipc_oom(&L);
    }
    for (int s = 0; s < L.ns; ++s) {
        ipcc_mesh_destroy(L.shapes[s].tet);
        ipcc_trimesh_destroy(L.shapes[s].tri);
        free(L.shapes[s].resolved);
    }
    free(L.shapes);
    for (int b = 0; L.cond && b < L.scene->num_bodies; ++b) {
        for (int c = 0; c < L.cond[b].nd; ++c)
            free((void *)L.cond[b].d[c].vertices);
        for (int c = 0; c < L.cond[b].nn; ++c)
            free((void *)L.cond[b].nbc[c].vertices);
        free(L.cond[b].d);
        free(L.cond[b].nbc);
    }
    free(L.cond);
    free(L.dir);
    ipcc_ipc_script_destroy(L.txt);
    if (st != IPCC_OK) {
        ipcc_scene_destroy(L.scene);
        return st;
    }
    *out = L.scene;
    return IPCC_OK;
}
