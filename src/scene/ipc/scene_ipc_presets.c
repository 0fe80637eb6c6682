// IPC script loader, part 2: DBC/NBC groups and the script presets
// (docs/ipc-script-format.md, "F§n"; docs/ipc-compatibility.md).
//
// Every selection is computed here on the placed (or, for DBC/NBC, the raw
// file) coordinates with IPC's comparisons, strict or inclusive as IPC
// makes them, and handed to the world as an explicit vertex list. Motions
// are rigid (velocity, angular velocity about a pivot); the stateful
// presets (dragright, DCOSegBedSquash, stretchAndPause) stop through a stop
// trigger on a measured coordinate.
#include "scene/ipc/scene_ipc_presets.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"

// ---------------------------------------------------------------------------
// Conditions

static ipcc_dirichlet_def *add_dirichlet(loader *L, int body) {
    body_conditions *c = &L->cond[body];
    if (ipcc_reserve((void **)&c->d, &c->capd, c->nd + 1, sizeof *c->d) != 0) return NULL;
    ipcc_dirichlet_def *d = &c->d[c->nd++];
    *d = ipcc_default_dirichlet_def();
    return d;
}

static ipcc_neumann_def *add_neumann(loader *L, int body) {
    body_conditions *c = &L->cond[body];
    if (ipcc_reserve((void **)&c->nbc, &c->capn, c->nn + 1, sizeof *c->nbc) != 0) return NULL;
    ipcc_neumann_def *n = &c->nbc[c->nn++];
    *n = ipcc_default_neumann_def();
    return n;
}

// Body-local vertices of a tet shape for which keep(x) holds, x placed
// (or raw with `raw`); surface vertices only with `surface`. NULL + 0 when
// none (count in *n). Returns -1 when out of memory.
typedef bool (*vertex_test)(const double x[3], const void *arg);

static int select_vertices(const shape *sh, bool raw, bool surface, vertex_test keep, const void *arg,
                           int **out, int *n) {
    *out = NULL;
    *n = 0;
    int *v = malloc(sizeof(int) * (size_t)(sh->nv + 1));
    if (!v) return -1;
    int count = 0;
    int ncand = surface ? sh->mesh->num_surface_vertices : sh->nv;
    for (int j = 0; j < ncand; ++j) {
        int i = surface ? sh->mesh->surface_vertices[j] : j;
        double x[3];
        if (raw)
            memcpy(x, sh->raw + 3 * i, sizeof x);
        else
            ipcc_scene_ipc_placed(sh, i, x);
        if (keep(x, arg)) v[count++] = i;
    }
    if (count == 0) {
        free(v);
        return 0;
    }
    *out = v;
    *n = count;
    return 0;
}

// A DBC/NBC box in the raw bbox of the shape, inclusive (F§3.2).
typedef struct raw_box {
    double lo[3], hi[3];
} raw_box;

static bool in_raw_box(const double x[3], const void *arg) {
    const raw_box *b = arg;
    for (int k = 0; k < 3; ++k)
        if (!(x[k] >= b->lo[k] && x[k] <= b->hi[k])) return false;
    return true;
}

static raw_box group_box(const shape *sh, const ipcc_ipc_script_group *g) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < sh->nv; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], sh->raw[3 * i + k]);
            hi[k] = fmax(hi[k], sh->raw[3 * i + k]);
        }
    raw_box b;
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = lo[k] + g->box_min[k] * (hi[k] - lo[k]);
        b.hi[k] = lo[k] + g->box_max[k] * (hi[k] - lo[k]);
    }
    return b;
}

// A half-open coordinate threshold: x[axis] < value (below) or > value.
typedef struct threshold {
    int axis;
    bool below;
    double value;
} threshold;

static bool passes(const double x[3], const void *arg) {
    const threshold *t = arg;
    return t->below ? x[t->axis] < t->value : x[t->axis] > t->value;
}

static bool always(const double x[3], const void *arg) {
    (void)x;
    (void)arg;
    return true;
}

// Intersect [start, end) with a global time range; INFINITY becomes 1e30.
static void time_range(double t0, double t1, const double global[2], double *start, double *end) {
    double s = fmax(t0, global[0]), e = fmin(t1, global[1]);
    *start = s;
    *end = isinf(e) ? 1e30 : e;
}

// A prescribed motion on the vertices of a tet shape selected by keep: over
// the placed positions of all vertices, or (raw_surface, DBC boxes) over the
// file coordinates of the surface vertices. *out is the new def, or NULL
// when nothing was selected.
static ipcc_status add_motion(loader *L, const shape *sh, bool raw_surface, vertex_test keep, const void *arg,
                              const double v[3], const double w[3], const double *pivot,
                              ipcc_dirichlet_def **out) {
    *out = NULL;
    int *verts, n;
    if (select_vertices(sh, raw_surface, raw_surface, keep, arg, &verts, &n) != 0)
        return ipcc_scene_ipc_oom(L);
    if (n == 0) return IPCC_OK;
    ipcc_dirichlet_def *d = add_dirichlet(L, sh->index);
    if (!d) {
        free(verts);
        return ipcc_scene_ipc_oom(L);
    }
    d->num_vertices = n;
    d->vertices = verts;
    if (v) memcpy(d->velocity, v, sizeof d->velocity);
    if (w) memcpy(d->angular_velocity, w, sizeof d->angular_velocity);
    if (pivot) {
        d->has_pivot = true;
        memcpy(d->pivot, pivot, sizeof d->pivot);
    }
    *out = d;
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Presets (F§6)

static const char *const presets[] = {"null",
                                      "fall",
                                      "fallNoShift",
                                      "twist",
                                      "dragright",
                                      "DCOFix",
                                      "DCORotCylinders",
                                      "DCOSegBedSquash",
                                      "DCOBallHitWall",
                                      "stretchAndPause",
                                      "pushRightMost1",
                                      "fixLowerHalf",
                                      NULL};

static bool is_preset(const char *name, const char *p) { return strcmp(name, p) == 0; }

// Scripts that fix the kinematic shapes (F§6, rules common to every script).
static bool fixes_kinematic(const char *script) {
    return is_preset(script, "null") || is_preset(script, "DCOFix") || is_preset(script, "DCORotCylinders") ||
           is_preset(script, "DCOSegBedSquash") || is_preset(script, "DCOBallHitWall");
}

// Shift every shape by +½ bbox diagonal of all current vertices in y (fall, dragright).
void ipcc_scene_ipc_shift_up(loader *L) {
    double lo[3], hi[3];
    ipcc_scene_ipc_bbox(L, KIND_POINTS, lo, hi);
    double d = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                    (hi[2] - lo[2]) * (hi[2] - lo[2]));
    double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, c[3] = {0, 0.5 * d, 0};
    for (int s = 0; s < L->ns; ++s)
        ipcc_scene_ipc_compose(&L->shapes[s], I, c);
}

// The shape of IPC global vertex g (shape order), and its local index.
static const shape *global_vertex(const loader *L, int g, int *local) {
    for (int s = 0; s < L->ns; ++s)
        if (g >= L->shapes[s].global_first && g < L->shapes[s].global_first + L->shapes[s].nv) {
            *local = g - L->shapes[s].global_first;
            return &L->shapes[s];
        }
    return NULL;
}

// Motion of a kinematic shape (an obstacle).
static void obstacle_motion(loader *L, const shape *sh, const double v[3], const double w[3],
                            const double *pivot) {
    ipcc_obstacle_def *o = &L->scene->obstacles[sh->index];
    if (v) memcpy(o->velocity, v, sizeof o->velocity);
    if (w) memcpy(o->angular_velocity, w, sizeof o->angular_velocity);
    if (pivot) {
        o->has_pivot = true;
        memcpy(o->pivot, pivot, sizeof o->pivot);
    }
    ((shape *)sh)->moved = true;
}

static ipcc_status apply_null(loader *L) {
    const ipcc_ipc_script *t = L->txt;
    for (int s = 0; s < L->ns; ++s) {
        shape *sh = &L->shapes[s];
        const ipcc_ipc_script_shape *ts = sh->txt;
        double v[3] = {0, 0, 0}, w[3] = {0, 0, 0}, c[3];
        ipcc_scene_ipc_shape_centre(sh, NULL, 0, c);
        bool scripted = ts->has_linear_velocity || ts->has_angular_velocity;
        if (ts->has_linear_velocity) memcpy(v, ts->linear_velocity, sizeof v);
        if (ts->has_angular_velocity)
            for (int k = 0; k < 3; ++k)
                w[k] = ts->angular_velocity[k] * PI / 180;
        if (sh->kind != KIND_TETS) {
            // (a)/(b): kinematic shapes are fixed unless scripted (F§6.1).
            if (scripted) obstacle_motion(L, sh, v, w, c);
            if (ts->num_dbc > 0)
                ipcc_log(IPCC_LOG_WARNING,
                         "%s:%d: DBC on the kinematic shape \"%s\" ignored (it is prescribed whole)", L->path,
                         ts->line, ts->path);
            continue;
        }
        if (scripted) {
            ipcc_dirichlet_def *d;
            ipcc_status st = add_motion(L, sh, false, always, NULL, v, w, c, &d);
            if (st != IPCC_OK) return st;
        }
        for (int g = 0; g < ts->num_dbc; ++g) {
            const ipcc_ipc_script_group *grp = &ts->dbc[g];
            raw_box box = group_box(sh, grp);
            double wg[3] = {grp->angular[0] * PI / 180, grp->angular[1] * PI / 180,
                            grp->angular[2] * PI / 180};
            ipcc_dirichlet_def *d;
            ipcc_status st = add_motion(L, sh, true, in_raw_box, &box, grp->value, wg, NULL, &d);
            if (st != IPCC_OK) return st;
            if (!d) continue; // F§3.2: a box that selects nothing is dropped
            // Rotation about the centre of the group's bbox (at t = 0, carried by v).
            d->has_pivot = true;
            ipcc_scene_ipc_shape_centre(sh, d->vertices, d->num_vertices, d->pivot);
            time_range(grp->start, grp->end, t->dbc_time_range, &d->start, &d->end);
            if (!(d->end > d->start)) L->cond[sh->index].nd--, free((void *)d->vertices);
        }
        if (ts->has_init_vel) {
            ipcc_body_def *b = &L->scene->bodies[sh->index];
            memcpy(b->velocity, ts->init_velocity, sizeof b->velocity);
            for (int k = 0; k < 3; ++k)
                b->angular_velocity[k] = ts->init_angular[k] * PI / 180;
            b->has_velocity_pivot = true;
            memcpy(b->velocity_pivot, c, sizeof c);
        }
    }
    return IPCC_OK;
}

// Warn about shape extras the script ignores (F§6: only `null` uses them).
static void warn_ignored_extras(const loader *L) {
    for (int s = 0; s < L->ns; ++s) {
        const ipcc_ipc_script_shape *ts = L->shapes[s].txt;
        if (ts->num_dbc || ts->has_init_vel || ts->has_linear_velocity || ts->has_angular_velocity)
            ipcc_log(
                IPCC_LOG_WARNING,
                "%s:%d: DBC/initVel/linearVelocity/angularVelocity of shape \"%s\" ignored: script \"%s\" "
                "does not use them (as IPC)",
                L->path, ts->line, ts->path, L->txt->script);
    }
}

static ipcc_status apply_twist(loader *L) {
    // Handles over all rest positions (F§6.3), rotating about +X through the rest bbox centre.
    double lo[3], hi[3];
    ipcc_scene_ipc_bbox(L, KIND_POINTS, lo, hi);
    double r = L->txt->handle_ratio, dx = hi[0] - lo[0];
    double centre[3] = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
    threshold left = {0, true, lo[0] + r * dx}, right = {0, false, hi[0] - r * dx};
    double wl[3] = {-0.4 * PI, 0, 0}, wr[3] = {0.4 * PI, 0, 0};
    for (int s = 0; s < L->ns; ++s) {
        shape *sh = &L->shapes[s];
        if (sh->kind != KIND_TETS) continue;
        ipcc_dirichlet_def *d;
        ipcc_status st = add_motion(L, sh, false, passes, &left, NULL, wl, centre, &d);
        if (st == IPCC_OK) st = add_motion(L, sh, false, passes, &right, NULL, wr, centre, &d);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}

// Largest x over all meshCO vertices (for dragright's release).
static double mesh_co_max_x(const loader *L) {
    double m = -1e300; // F§6.5 quirk: with no meshCO the release happens at once
    for (int i = L->num_kinematic; i < L->scene->num_obstacles; ++i) {
        const ipcc_obstacle_def *o = &L->scene->obstacles[i];
        for (int v = 0; v < o->mesh->num_vertices; ++v) {
            const double *p = o->mesh->vertices + 3 * v;
            double x =
                o->transform[0] * p[0] + o->transform[1] * p[1] + o->transform[2] * p[2] + o->transform[3];
            m = fmax(m, x);
        }
    }
    return m;
}

// World vertex range of every shape (tet bodies and kinematic shapes).
static void all_shape_vertices(const loader *L, int *first, int *count) {
    int n = 0;
    for (int s = 0; s < L->ns; ++s)
        n += L->shapes[s].nv;
    *first = 0;
    *count = n; // bodies, then kinematic shapes: contiguous from 0
}

ipcc_status ipcc_scene_ipc_apply_script(loader *L) {
    const ipcc_ipc_script *t = L->txt;
    const char *name = t->script;
    int i = 0;
    while (presets[i] && strcmp(presets[i], name) != 0)
        i++;
    if (!presets[i])
        return ipcc_fail(
            IPCC_ERR_INVALID_ARGUMENT,
            "%s:%d: script \"%s\" is not supported (ipcc implements null, fall, fallNoShift, twist, "
            "dragright, DCOFix, DCORotCylinders, DCOSegBedSquash, DCOBallHitWall, stretchAndPause, "
            "pushRightMost1, fixLowerHalf)",
            L->path, t->script_line, name);
    if (!is_preset(name, "null")) warn_ignored_extras(L);
    if (!fixes_kinematic(name))
        for (int s = 0; s < L->ns; ++s)
            if (L->shapes[s].kind != KIND_TETS) {
                ipcc_log(
                    IPCC_LOG_WARNING,
                    "%s: kinematic shape \"%s\" stays fixed (IPC would leave it free under script \"%s\"; "
                    "ipcc's kinematic shapes are always prescribed)",
                    L->path, L->shapes[s].txt->path, name);
                break;
            }
    if (is_preset(name, "null")) return apply_null(L);
    if (is_preset(name, "fall") || is_preset(name, "fallNoShift") || is_preset(name, "DCOFix"))
        return IPCC_OK;
    if (is_preset(name, "twist")) return apply_twist(L);
    if (is_preset(name, "DCOBallHitWall")) {
        double v = 1000;
        if (t->num_script_params >= 1 && !isnan(t->script_params[0])) v = t->script_params[0];
        for (int s = 0; s < L->ns; ++s)
            if (L->shapes[s].kind == KIND_TETS) L->scene->bodies[L->shapes[s].index].velocity[0] = v;
        return IPCC_OK;
    }
    if (is_preset(name, "DCORotCylinders")) {
        if (L->ns < 5)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "%s: script DCORotCylinders needs at least 5 shapes (got %d)", L->path, L->ns);
        static const double w[4][3] = {{PI / 2, 0, 0}, {-PI / 2, 0, 0}, {0, 0, -PI / 2}, {0, 0, PI / 2}};
        for (int s = 0; s < 4; ++s) {
            shape *sh = &L->shapes[s];
            double c[3];
            ipcc_scene_ipc_shape_centre(sh, NULL, 0, c);
            if (sh->kind != KIND_TETS) {
                obstacle_motion(L, sh, NULL, w[s], c);
            } else {
                ipcc_dirichlet_def *d;
                ipcc_status st = add_motion(L, sh, false, always, NULL, NULL, w[s], c, &d);
                if (st != IPCC_OK) return st;
            }
        }
        return IPCC_OK;
    }
    if (is_preset(name, "DCOSegBedSquash")) {
        // Kinematic components with index >= floor((C + 1) / 2) move down at 1 m/s
        // while (their min y) - (max y of the other kinematic ones) > 0.1 (F§6.8).
        int C = L->ns, half = (C + 1) / 2;
        double other_max = -INFINITY;
        int first = -1, last = -1;
        for (int s = 0; s < C; ++s) {
            const shape *sh = &L->shapes[s];
            if (sh->kind == KIND_TETS) continue;
            if (s < half) {
                for (int v = 0; v < sh->nv; ++v) {
                    double x[3];
                    ipcc_scene_ipc_placed(sh, v, x);
                    other_max = fmax(other_max, x[1]);
                }
            } else {
                if (first < 0) first = sh->world_first;
                last = sh->world_first + sh->nv;
            }
        }
        if (first < 0) return IPCC_OK;
        double v[3] = {0, -1, 0};
        for (int s = half; s < C; ++s) {
            shape *sh = &L->shapes[s];
            if (sh->kind == KIND_TETS) continue;
            obstacle_motion(L, sh, v, NULL, NULL);
            ipcc_obstacle_def *o = &L->scene->obstacles[sh->index];
            o->stop = (ipcc_stop_trigger){.axis = 1,
                                          .first_vertex = first,
                                          .num_vertices = last - first,
                                          .measure_max = false,
                                          .above = false,
                                          .value = (isfinite(other_max) ? other_max : -1e300) + 0.1,
                                          .release = false};
        }
        return IPCC_OK;
    }
    // The remaining presets select on the current positions of all vertices.
    double lo[3], hi[3];
    ipcc_scene_ipc_bbox(L, KIND_POINTS, lo, hi);
    double ext[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    if (is_preset(name, "dragright")) {
        threshold right = {0, false, hi[0] - 0.04 * ext[0]};
        double v[3] = {0.5, 0, 0}, release = mesh_co_max_x(L);
        int first, count;
        all_shape_vertices(L, &first, &count);
        for (int s = 0; s < L->ns; ++s) {
            shape *sh = &L->shapes[s];
            if (sh->kind != KIND_TETS) continue;
            ipcc_dirichlet_def *d;
            ipcc_status st = add_motion(L, sh, false, passes, &right, v, NULL, NULL, &d);
            if (st != IPCC_OK) return st;
            if (d)
                d->stop = (ipcc_stop_trigger){.axis = 0,
                                              .first_vertex = first,
                                              .num_vertices = count,
                                              .measure_max = false,
                                              .above = true,
                                              .value = release,
                                              .release = true};
        }
        return IPCC_OK;
    }
    if (is_preset(name, "stretchAndPause")) {
        threshold left = {0, true, lo[0] + 0.01 * ext[0]}, right = {0, false, hi[0] - 0.01 * ext[0]};
        // The tracker: the highest-indexed left-handle vertex (IPC's global order).
        int tracker = -1;
        for (int s = 0; s < L->ns; ++s)
            for (int v = 0; v < L->shapes[s].nv; ++v) {
                double x[3];
                ipcc_scene_ipc_placed(&L->shapes[s], v, x);
                if (passes(x, &left)) tracker = L->shapes[s].global_first + v;
            }
        int local = 0;
        const shape *ts = tracker >= 0 ? global_vertex(L, tracker, &local) : NULL;
        ipcc_stop_trigger stop = {.axis = -1};
        if (ts)
            stop = (ipcc_stop_trigger){.axis = 0,
                                       .first_vertex = ts->world_first + local,
                                       .num_vertices = 1,
                                       .above = false,
                                       .value = -0.28,
                                       .release = false};
        double vl[3] = {-1, 0, 0}, vr[3] = {1, 0, 0};
        for (int s = 0; s < L->ns; ++s) {
            shape *sh = &L->shapes[s];
            if (sh->kind != KIND_TETS) continue;
            ipcc_dirichlet_def *d;
            ipcc_status st = add_motion(L, sh, false, passes, &left, vl, NULL, NULL, &d);
            if (st != IPCC_OK) return st;
            if (d) d->stop = stop;
            if ((st = add_motion(L, sh, false, passes, &right, vr, NULL, NULL, &d)) != IPCC_OK) return st;
            if (d) d->stop = stop;
        }
        return IPCC_OK;
    }
    if (is_preset(name, "pushRightMost1")) {
        threshold right = {0, false, hi[0] - 1e-3 * ext[0]};
        for (int s = 0; s < L->ns; ++s) {
            shape *sh = &L->shapes[s];
            for (int v = 0; v < sh->nv; ++v) {
                double x[3];
                ipcc_scene_ipc_placed(sh, v, x);
                if (!passes(x, &right)) continue;
                if (sh->kind != KIND_TETS) return IPCC_OK; // an obstacle vertex: already prescribed
                ipcc_dirichlet_def *d = add_dirichlet(L, sh->index);
                int *one = malloc(sizeof(int));
                if (!d || !one) {
                    free(one);
                    return ipcc_scene_ipc_oom(L);
                }
                one[0] = v;
                d->num_vertices = 1;
                d->vertices = one;
                d->velocity[0] = -0.15;
                return IPCC_OK;
            }
        }
        return IPCC_OK;
    }
    // fixLowerHalf (F§6.12).
    threshold lower = {1, true, lo[1] + 0.5 * ext[1]};
    for (int s = 0; s < L->ns; ++s) {
        shape *sh = &L->shapes[s];
        if (sh->kind != KIND_TETS) continue;
        ipcc_dirichlet_def *d;
        ipcc_status st = add_motion(L, sh, false, passes, &lower, NULL, NULL, NULL, &d);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}

// NBC groups on tet shapes, for every script (F§3.2).
ipcc_status ipcc_scene_ipc_apply_nbc(loader *L) {
    for (int s = 0; s < L->ns; ++s) {
        shape *sh = &L->shapes[s];
        const ipcc_ipc_script_shape *ts = sh->txt;
        if (sh->kind != KIND_TETS) continue;
        for (int g = 0; g < ts->num_nbc; ++g) {
            raw_box box = group_box(sh, &ts->nbc[g]);
            int *verts, n;
            if (select_vertices(sh, true, true, in_raw_box, &box, &verts, &n) != 0)
                return ipcc_scene_ipc_oom(L);
            if (n == 0) continue;
            ipcc_neumann_def *d = add_neumann(L, sh->index);
            if (!d) {
                free(verts);
                return ipcc_scene_ipc_oom(L);
            }
            d->num_vertices = n;
            d->vertices = verts;
            memcpy(d->acceleration, ts->nbc[g].value, sizeof d->acceleration);
            time_range(ts->nbc[g].start, ts->nbc[g].end, L->txt->nbc_time_range, &d->start, &d->end);
            if (!(d->end > d->start)) L->cond[sh->index].nn--, free(verts);
        }
    }
    return IPCC_OK;
}
