// The saved starts of a split step's parts (world_span.h).
//
// A part of a step (the whole step, or a half, a quarter... of it) that
// Newton does not converge is redone as two halves (world_step.c, "Split
// steps"). Redoing it needs the world as it was at the part's start. What
// a part changes is what a checkpoint saves (checkpoint.c explains why that
// is all a step reads): the positions, velocities and accelerations, the
// shapes' poses, the time, kappa, and per Dirichlet condition its pivot,
// end centre and stop flag; plus the warning flag of a blocked motion.
// The positions of the part's start are in x_start until the next part
// begins, and velocities, accelerations, poses and time change only when a
// part ends (end_step), so those are copied only when a part failed
// (ipcc_world_span_save); kappa, the conditions and the flag change as the
// part starts and runs, so they are noted before each part that may split
// (ipcc_world_span_mark): a few numbers per condition.
//
// One level per split depth (def.newton_max_splits, at most IPCC_MAX_SPLITS),
// allocated when the world starts: 9 doubles per vertex and level (216
// bytes per vertex at the default 3 levels, under 1 % of a step's memory).
#include "world/world_span.h"

#include <stdlib.h>
#include <string.h>

#include "base/core.h"

#define BC_DOUBLES 7 // pivot_now[3], centre_end[3], stopped

struct ipcc_world_span {
    double *x, *v, *a; // 3n each
    ipcc_shape *poses; // num_shapes
    double *bc;        // BC_DOUBLES per Dirichlet condition
    double kappa, time;
    bool penalty_warned;
};

void ipcc_world_span_free(ipcc_world *w) {
    if (!w->spans) return;
    for (int l = 0; l < w->def.newton_max_splits; ++l) {
        ipcc_world_span *s = &w->spans[l];
        free(s->x);
        free(s->v);
        free(s->a);
        free(s->poses);
        free(s->bc);
    }
    free(w->spans);
    w->spans = NULL;
}

ipcc_status ipcc_world_span_reserve(ipcc_world *w) {
    int levels = w->def.newton_max_splits;
    if (levels == 0 || w->spans) return IPCC_OK;
    w->spans = calloc((size_t)levels, sizeof *w->spans);
    bool ok = w->spans != NULL;
    size_t m = 3 * (size_t)w->n + 3; // + 3: never a malloc(0)
    for (int l = 0; ok && l < levels; ++l) {
        ipcc_world_span *s = &w->spans[l];
        s->x = malloc(sizeof(double) * m);
        s->v = malloc(sizeof(double) * m);
        s->a = malloc(sizeof(double) * m);
        s->poses = malloc(sizeof(ipcc_shape) * (size_t)(w->num_shapes + 1));
        s->bc = malloc(sizeof(double) * BC_DOUBLES * (size_t)(w->num_dirichlet + 1));
        ok = s->x && s->v && s->a && s->poses && s->bc;
    }
    if (ok) return IPCC_OK;
    ipcc_world_span_free(w);
    return ipcc_fail(IPCC_ERR_NO_MEMORY,
                     "out of memory for the saved starts of split steps (newton.max_splits)");
}

void ipcc_world_span_mark(ipcc_world *w, int level) {
    IPCC_ASSERT(w->spans && level >= 0 && level < w->def.newton_max_splits);
    ipcc_world_span *s = &w->spans[level];
    s->kappa = w->contact ? ipcc_contact_kappa(w->contact) : w->kappa;
    s->penalty_warned = w->penalty_warned;
    for (int c = 0; c < w->num_dirichlet; ++c) {
        const ipcc_dirichlet *bc = &w->dirichlet[c];
        double *b = s->bc + BC_DOUBLES * c;
        memcpy(b, bc->pivot_now, sizeof bc->pivot_now);
        memcpy(b + 3, bc->centre_end, sizeof bc->centre_end);
        b[6] = bc->stopped ? 1 : 0;
    }
}

void ipcc_world_span_save(ipcc_world *w, int level) {
    IPCC_ASSERT(w->spans && level >= 0 && level < w->def.newton_max_splits);
    ipcc_world_span *s = &w->spans[level];
    size_t m = 3 * (size_t)w->n;
    memcpy(s->x, w->x_start, sizeof(double) * m);
    memcpy(s->v, w->v, sizeof(double) * m);
    memcpy(s->a, w->a, sizeof(double) * m);
    if (w->num_shapes > 0) memcpy(s->poses, w->shape_pose, sizeof(ipcc_shape) * (size_t)w->num_shapes);
    s->time = w->time;
}

void ipcc_world_span_restore(ipcc_world *w, int level) {
    IPCC_ASSERT(w->spans && level >= 0 && level < w->def.newton_max_splits);
    const ipcc_world_span *s = &w->spans[level];
    size_t m = 3 * (size_t)w->n;
    memcpy(w->x, s->x, sizeof(double) * m);
    memcpy(w->v, s->v, sizeof(double) * m);
    memcpy(w->a, s->a, sizeof(double) * m);
    if (w->num_shapes > 0) memcpy(w->shape_pose, s->poses, sizeof(ipcc_shape) * (size_t)w->num_shapes);
    w->time = s->time;
    w->kappa = s->kappa;
    if (w->contact) ipcc_contact_set_kappa(w->contact, s->kappa);
    w->penalty_warned = s->penalty_warned;
    for (int c = 0; c < w->num_dirichlet; ++c) {
        ipcc_dirichlet *bc = &w->dirichlet[c];
        const double *b = s->bc + BC_DOUBLES * c;
        memcpy(bc->pivot_now, b, sizeof bc->pivot_now);
        memcpy(bc->centre_end, b + 3, sizeof bc->centre_end);
        bc->stopped = b[6] != 0;
    }
}
