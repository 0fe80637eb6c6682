// Dirichlet conditions: prescribed rigid motion of selected vertices.
//
// Selection (as the original IPC): a vertex of body b is selected when its
// normalized coordinate u = (x - bbox_min) / (bbox_max - bbox_min) of the
// body as placed at t = 0 lies inside [box_min, box_max] (inclusive) on
// every axis. A vertex selected by several conditions belongs to the first
// one whose time range is active.
//
// Motion: while start <= t < end, the selected vertices move rigidly with
// linear velocity v and angular velocity w about their centre c (the mean of
// their positions, which a rigid motion carries along):
//   x_i(t + h) = c(t) + v h + Rot(w h) (x_i(t) - c(t)),
// with Rot(w h) the rotation by angle |w| h about w / |w| (Rodrigues). The
// update is exact for any h: no drift accumulates in the rigid shape of the
// group beyond roundoff. Prescribed vertices are removed from the unknowns
// of the Newton system (not penalized); when `end` passes they become free
// and keep their last velocity.
#include <math.h>
#include <string.h>

#include "core.h"
#include "vec3.h"
#include "world_internal.h"

ipcc_status ipcc_dirichlet_select(ipcc_world *w, int body, const ipcc_dirichlet_def *def,
                                  ipcc_dirichlet *out) {
    const ipcc_body *b = &w->bodies[body];
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = b->first_vertex; i < b->first_vertex + b->num_vertices; ++i)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], w->x_rest[3 * i + k]);
            hi[k] = fmax(hi[k], w->x_rest[3 * i + k]);
        }
    int count = 0;
    int *verts = malloc(sizeof(int) * (size_t)(b->num_vertices > 0 ? b->num_vertices : 1));
    if (!verts) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory selecting Dirichlet vertices");
    for (int i = b->first_vertex; i < b->first_vertex + b->num_vertices; ++i) {
        bool inside = true;
        for (int k = 0; k < 3 && inside; ++k) {
            double ext = hi[k] - lo[k];
            double u = ext > 0 ? (w->x_rest[3 * i + k] - lo[k]) / ext : 0.0;
            inside = u >= def->box_min[k] && u <= def->box_max[k];
        }
        if (inside) verts[count++] = i;
    }
    out->def = *def;
    out->body = body;
    out->num_vertices = count;
    out->vertices = verts;
    return IPCC_OK;
}

// R = rotation by angle |w| about w/|w| (Rodrigues), row-major.
static void rotation_from_vector(const double w[3], double R[9]) {
    double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    memset(R, 0, 9 * sizeof(double));
    R[0] = R[4] = R[8] = 1;
    if (th == 0) return;
    double k[3] = {w[0] / th, w[1] / th, w[2] / th}, c = cos(th), s = sin(th);
    // R = c I + s [k]x + (1 - c) k k^T
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            R[3 * i + j] = (i == j ? c : 0) + (1 - c) * k[i] * k[j];
    R[1] -= s * k[2];
    R[2] += s * k[1];
    R[3] += s * k[2];
    R[5] -= s * k[0];
    R[6] -= s * k[1];
    R[7] += s * k[0];
}

bool ipcc_dirichlet_prepare_step(ipcc_world *w) {
    double t = w->time, h = w->def.time_step;
    bool changed = false;
    // Which condition prescribes each vertex during [t, t + h).
    for (int i = 0; i < w->n; ++i)
        w->prescribed[i] = -1;
    for (int c = w->num_dirichlet - 1; c >= 0; --c) {
        const ipcc_dirichlet *bc = &w->dirichlet[c];
        if (!(t >= bc->def.start && t < bc->def.end)) continue;
        for (int j = 0; j < bc->num_vertices; ++j)
            w->prescribed[bc->vertices[j]] = c; // first wins
    }
    // Targets: rigid motion of each active group over the step.
    for (int c = 0; c < w->num_dirichlet; ++c) {
        const ipcc_dirichlet *bc = &w->dirichlet[c];
        if (!(t >= bc->def.start && t < bc->def.end) || bc->num_vertices == 0) continue;
        double centre[3] = {0, 0, 0};
        for (int j = 0; j < bc->num_vertices; ++j)
            for (int k = 0; k < 3; ++k)
                centre[k] += w->x[3 * bc->vertices[j] + k];
        for (int k = 0; k < 3; ++k)
            centre[k] /= bc->num_vertices;
        ipcc_dirichlet *mbc = &w->dirichlet[c];
        for (int k = 0; k < 3; ++k)
            mbc->centre_end[k] = centre[k] + bc->def.velocity[k] * h;
        double wh[3] = {bc->def.angular_velocity[0] * h, bc->def.angular_velocity[1] * h,
                        bc->def.angular_velocity[2] * h};
        double R[9];
        rotation_from_vector(wh, R);
        for (int j = 0; j < bc->num_vertices; ++j) {
            int i = bc->vertices[j];
            if (w->prescribed[i] != c) continue;
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
    return changed;
}

void ipcc_dirichlet_kinematics(const ipcc_world *w, int c, const double x[3], double v[3], double a[3]) {
    const ipcc_dirichlet *bc = &w->dirichlet[c];
    const double *om = bc->def.angular_velocity;
    double r[3] = {x[0] - bc->centre_end[0], x[1] - bc->centre_end[1], x[2] - bc->centre_end[2]}, wr[3];
    cross3(om, r, wr);
    cross3(om, wr, a);
    for (int k = 0; k < 3; ++k)
        v[k] = bc->def.velocity[k] + wr[k];
}
