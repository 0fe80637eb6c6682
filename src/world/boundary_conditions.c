// Boundary conditions on selected vertices: Dirichlet (prescribed rigid
// motion) and Neumann (an external acceleration).
//
// Selection (as the original IPC): a vertex of body b is selected when its
// normalized coordinate u = (x - bbox_min) / (bbox_max - bbox_min) of the
// body as placed at t = 0 lies inside [box_min, box_max] (inclusive) on
// every axis; or, when the def lists vertices, exactly those. A vertex
// selected by several Dirichlet conditions belongs to the first one whose
// time range is active.
//
// Motion: while start <= t < end, the selected vertices move rigidly with
// linear velocity v and angular velocity w about their centre c (the mean of
// their positions, which a rigid motion carries along, or the def's pivot,
// carried along by v):
//   x_i(t + h) = c(t) + v h + Rot(w h) (x_i(t) - c(t)),
// with Rot(w h) the rotation by angle |w| h about w / |w| (Rodrigues). The
// update is exact for any h: no drift accumulates in the rigid shape of the
// group beyond roundoff. Prescribed vertices are removed from the unknowns
// of the Newton system (not penalized); when `end` passes they become free
// and keep their last velocity.
//
// Stop triggers (IPC's stateful script presets, docs/ipc-compatibility.md):
// at the start of each step an active condition whose trigger has not fired
// measures min or max of one coordinate over a range of world vertices; if
// it passes the value, the condition stops for good: "hold" keeps its
// vertices prescribed where they are, "release" frees them.
//
// Neumann: while start <= t < end, each selected vertex that is not
// prescribed gets the acceleration a, i.e. the force m_i a (IPC's NBC); the
// incremental potential treats it like gravity (incremental_potential.c).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/rotation.h"
#include "base/vec3.h"
#include "world/world.h"
#include "world/boundary_conditions.h"

static int compare_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

ipcc_status ipcc_select_vertices(const ipcc_world *w, int body, int num_list, const int *list,
                                 const double box_min[3], const double box_max[3], int **out, int *count) {
    const ipcc_body *b = &w->bodies[body];
    int *verts = malloc(sizeof(int) * (size_t)(b->num_vertices > num_list ? b->num_vertices : num_list + 1));
    if (!verts) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory selecting vertices");
    int n = 0;
    if (num_list > 0) {
        for (int j = 0; j < num_list; ++j) {
            if (list[j] < 0 || list[j] >= b->num_vertices) {
                free(verts);
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "vertex %d is out of range (the body has %d)",
                                 list[j], b->num_vertices);
            }
            verts[n++] = b->first_vertex + list[j];
        }
        qsort(verts, (size_t)n, sizeof(int), compare_int);
        int u = 0;
        for (int j = 0; j < n; ++j)
            if (u == 0 || verts[u - 1] != verts[j]) verts[u++] = verts[j];
        n = u;
    } else {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int i = b->first_vertex; i < b->first_vertex + b->num_vertices; ++i)
            for (int k = 0; k < 3; ++k) {
                lo[k] = fmin(lo[k], w->x_rest[3 * i + k]);
                hi[k] = fmax(hi[k], w->x_rest[3 * i + k]);
            }
        for (int i = b->first_vertex; i < b->first_vertex + b->num_vertices; ++i) {
            bool inside = true;
            for (int k = 0; k < 3 && inside; ++k) {
                double ext = hi[k] - lo[k];
                double u = ext > 0 ? (w->x_rest[3 * i + k] - lo[k]) / ext : 0.0;
                inside = u >= box_min[k] && u <= box_max[k];
            }
            if (inside) verts[n++] = i;
        }
    }
    *out = verts;
    *count = n;
    return IPCC_OK;
}

ipcc_status ipcc_dirichlet_select(ipcc_world *w, int body, const ipcc_dirichlet_def *def,
                                  ipcc_dirichlet *out) {
    memset(out, 0, sizeof *out);
    ipcc_status st = ipcc_select_vertices(w, body, def->num_vertices, def->vertices, def->box_min,
                                          def->box_max, &out->vertices, &out->num_vertices);
    if (st != IPCC_OK) return st;
    out->def = *def;
    out->def.vertices = NULL; // the selection is kept in out->vertices
    out->body = body;
    memcpy(out->pivot_now, def->pivot, sizeof out->pivot_now);
    return IPCC_OK;
}

ipcc_status ipcc_neumann_select(ipcc_world *w, int body, const ipcc_neumann_def *def, ipcc_neumann *out) {
    memset(out, 0, sizeof *out);
    ipcc_status st = ipcc_select_vertices(w, body, def->num_vertices, def->vertices, def->box_min,
                                          def->box_max, &out->vertices, &out->num_vertices);
    if (st != IPCC_OK) return st;
    out->def = *def;
    out->def.vertices = NULL;
    return IPCC_OK;
}

// The stop trigger's measure passed its value at the current state.
static bool trigger_fires(const ipcc_world *w, const ipcc_stop_trigger *t) {
    double m = t->measure_max ? -INFINITY : INFINITY;
    for (int i = t->first_vertex; i < t->first_vertex + t->num_vertices; ++i)
        m = t->measure_max ? fmax(m, w->x[3 * i + t->axis]) : fmin(m, w->x[3 * i + t->axis]);
    return t->above ? m > t->value : m < t->value;
}

static bool in_range(double t, double start, double end) { return t >= start && t < end; }

void ipcc_neumann_prepare(ipcc_world *w) {
    double t = w->time;
    if (w->num_neumann == 0) return;
    memset(w->load, 0, sizeof(double) * 3 * (size_t)w->n);
    w->has_load = false;
    for (int c = 0; c < w->num_neumann; ++c) {
        const ipcc_neumann *nc = &w->neumann[c];
        if (!in_range(t, nc->def.start, nc->def.end)) continue;
        for (int j = 0; j < nc->num_vertices; ++j) {
            int i = nc->vertices[j];
            if (w->prescribed[i] >= 0) continue;
            for (int k = 0; k < 3; ++k)
                w->load[3 * i + k] += nc->def.acceleration[k];
            w->has_load = true;
        }
    }
}

bool ipcc_dirichlet_prepare_step(ipcc_world *w) {
    double t = w->time, h = w->h;
    bool changed = false;
    // Stop triggers, evaluated at the step start on conditions still running.
    for (int c = 0; c < w->num_dirichlet; ++c) {
        ipcc_dirichlet *bc = &w->dirichlet[c];
        if (bc->def.stop.axis >= 0 && !bc->stopped && in_range(t, bc->def.start, bc->def.end) &&
            trigger_fires(w, &bc->def.stop)) {
            bc->stopped = true;
            ipcc_log(IPCC_LOG_INFO, "t = %g: a prescribed motion of body \"%s\" stops (%s)", t,
                     w->bodies[bc->body].name, bc->def.stop.release ? "released" : "held");
        }
    }
    // Which condition prescribes each vertex during [t, t + h).
    for (int i = 0; i < w->n; ++i)
        w->prescribed[i] = -1;
    for (int c = w->num_dirichlet - 1; c >= 0; --c) {
        const ipcc_dirichlet *bc = &w->dirichlet[c];
        if (!ipcc_dirichlet_prescribes(bc, t)) continue;
        for (int j = 0; j < bc->num_vertices; ++j)
            w->prescribed[bc->vertices[j]] = c; // first wins
    }
    // Targets: rigid motion of each active group over the step (none once held).
    for (int c = 0; c < w->num_dirichlet; ++c) {
        ipcc_dirichlet *bc = &w->dirichlet[c];
        if (!in_range(t, bc->def.start, bc->def.end) || bc->num_vertices == 0) continue;
        if (bc->stopped) {
            if (bc->def.stop.release) continue;
            for (int j = 0; j < bc->num_vertices; ++j) {
                int i = bc->vertices[j];
                if (w->prescribed[i] == c) memcpy(w->x_target + 3 * i, w->x + 3 * i, 3 * sizeof(double));
            }
            continue;
        }
        double centre[3] = {0, 0, 0};
        if (bc->def.has_pivot) {
            memcpy(centre, bc->pivot_now, sizeof centre);
        } else {
            for (int j = 0; j < bc->num_vertices; ++j)
                for (int k = 0; k < 3; ++k)
                    centre[k] += w->x[3 * bc->vertices[j] + k];
            for (int k = 0; k < 3; ++k)
                centre[k] /= bc->num_vertices;
        }
        for (int k = 0; k < 3; ++k)
            bc->centre_end[k] = centre[k] + bc->def.velocity[k] * h;
        if (bc->def.has_pivot) memcpy(bc->pivot_now, bc->centre_end, sizeof bc->pivot_now);
        double wh[3] = {bc->def.angular_velocity[0] * h, bc->def.angular_velocity[1] * h,
                        bc->def.angular_velocity[2] * h};
        double R[9];
        ipcc_rotation_vector(wh, R);
        bool still = wh[0] == 0 && wh[1] == 0 && wh[2] == 0 && bc->def.velocity[0] == 0 &&
                     bc->def.velocity[1] == 0 && bc->def.velocity[2] == 0;
        for (int j = 0; j < bc->num_vertices; ++j) {
            int i = bc->vertices[j];
            if (w->prescribed[i] != c) continue;
            if (still) { // held exactly (c + (x - c) would drift by roundoff)
                memcpy(w->x_target + 3 * i, w->x + 3 * i, 3 * sizeof(double));
                continue;
            }
            double r[3] = {w->x[3 * i] - centre[0], w->x[3 * i + 1] - centre[1], w->x[3 * i + 2] - centre[2]};
            for (int k = 0; k < 3; ++k)
                w->x_target[3 * i + k] = centre[k] + bc->def.velocity[k] * h + R[3 * k] * r[0] +
                                         R[3 * k + 1] * r[1] + R[3 * k + 2] * r[2];
        }
    }
    // Unknowns: every dof of every vertex not prescribed.
    int u = 0;
    for (int i = 0; i < w->n; ++i)
        for (int k = 0; k < 3; ++k) {
            int m = w->prescribed[i] >= 0 ? -1 : u++;
            if (w->dof_map[3 * i + k] != m) changed = true;
            w->dof_map[3 * i + k] = m;
        }
    w->num_unknowns = u;
    if (changed) w->dof_version++;
    ipcc_neumann_prepare(w);
    return changed;
}

void ipcc_dirichlet_kinematics(const ipcc_world *w, int c, const double x[3], double v[3], double a[3]) {
    const ipcc_dirichlet *bc = &w->dirichlet[c];
    if (bc->stopped) { // held in place
        memset(v, 0, 3 * sizeof(double));
        memset(a, 0, 3 * sizeof(double));
        return;
    }
    const double *om = bc->def.angular_velocity;
    double r[3] = {x[0] - bc->centre_end[0], x[1] - bc->centre_end[1], x[2] - bc->centre_end[2]}, wr[3];
    cross3(om, r, wr);
    cross3(om, wr, a);
    for (int k = 0; k < 3; ++k)
        v[k] = bc->def.velocity[k] + wr[k];
}
