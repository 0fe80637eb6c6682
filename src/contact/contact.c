// Barrier contact over a simulation (IPC, Li et al. 2020, Sec. 4): the
// contact state a world holds and drives through each step.
//
// The pieces, one file each: the collision mesh (collision_mesh.c), the
// constraint set and its keys (constraint_set.c) with their
// multiplicities (contact_multiplicity.c), the barrier potential
// (barrier_potential.c), the adaptive stiffness (barrier_stiffness.c), the
// CCD step bound (contact_ccd.c) and the initial-state check
// (contact_initial_check.c). The state that ties them, with the operations
// they share (the shapes' poses at a state, the broad-phase query, the
// set's build), is contact_state.c, below them all. This file is on top:
// the state's lifecycle (create builds it and runs the initial check), the
// stiffness kappa, a step's evaluations, and the view of the active
// constraints that friction and contact reports read (closest points,
// normals, normal forces).
//
// What it receives. The bodies' description at creation (ipcc_contact_setup:
// their surfaces, tets, masses, half-spaces and shapes) and, at every call
// of a step, the step's context (step_context.h: the dof map, the
// potential's scale, the shapes' motion and clock). It never reads the
// world.
//
// A step, as the incremental potential drives it (incremental_potential.c):
// begin_step; then at each Newton evaluation update (the constraint set at
// x), at the step's first one balance_stiffness, then update_stiffness and
// assemble; max_step for each direction; energy for each line-search trial;
// end_step for the forces.
//
// Candidates are searched once per Newton iteration: a swept query over the
// step's segment in max_step serves the line search's energies AND the next
// evaluation, because Newton only ever evaluates a point it accepted on
// that segment (or, at the start of a step, the step's first state, for
// which begin_step forces a static query). A pair the sweep could miss at
// the accepted point is one within rounding of d̂ itself, where the barrier
// and its derivatives vanish (it is C2 there).
//
// Failures: out of memory anywhere returns IPCC_ERR_NO_MEMORY with a
// message (ipcc_fail), never a silent default. Determinism and memory: the
// parts run per-candidate and per-constraint work under OpenMP into slots,
// with serial or order-free reductions, so results do not depend on the
// thread count; every buffer is grow-only.
#include "contact/contact.h"
#include "base/parallel.h"

#include <math.h>
#include <string.h>

#include "geometry/barrier.h"
#include "collision/barrier_stiffness.h"
#include "geometry/closest_point.h"
#include "collision/contact_samples.h"
#include "base/core.h"
#include "geometry/distance.h"
#include "base/vec3.h"
#include "contact/contact_initial_check.h"
#include "contact/contact_state.h"

static ipcc_status out_of_memory(void) { return ipcc_fail(IPCC_ERR_NO_MEMORY, "contact: out of memory"); }

// The collision positions of x into c->xc and the shapes' poses at x.
static void gather(ipcc_contact *c, const ipcc_step_context *sc, const double *x) {
    ipcc_collision_mesh_gather(&c->mesh, x, c->xc);
    ipcc_contact_shapes_at(c, sc, x);
}

// ---------------------------------------------------------------------------
// Lifecycle.

void ipcc_contact_destroy(ipcc_contact *c) {
    if (!c) return;
    ipcc_collision_mesh_free(&c->mesh);
    free(c->planes);
    free(c->pose);
    free(c->shape_radius);
    free(c->shape_sampled);
    free(c->edge_divisions);
    free(c->face_divisions);
    ipcc_broad_phase_destroy(c->bp);
    ipcc_candidates_free(&c->cand);
    ipcc_candidate_cache_free(&c->cache);
    ipcc_constraint_set_free(&c->set);
    ipcc_barrier_potential_free(&c->potential);
    free(c->xc);
    free(c->xc1);
    free(c->gb);
    free(c->toi);
    free(c->info);
    free(c);
}

// The obstacles that are no mesh: half-spaces (copied), shapes at their
// current poses, and the collision positions' buffers.
static ipcc_status build_obstacles(ipcc_contact *c, const ipcc_contact_setup *def) {
    int nh = def->num_half_spaces, ns = def->num_shapes, nc = c->mesh.nc;
    c->planes = malloc(sizeof(double) * (size_t)(6 * nh + 1));
    c->pose = malloc(sizeof *c->pose * (size_t)(ns + 1));
    c->shape_radius = malloc(sizeof(double) * (size_t)(ns + 1));
    c->shape_sampled = calloc((size_t)(ns + 1), sizeof(bool));
    c->xc = malloc(sizeof(double) * (size_t)(3 * nc + 1));
    c->xc1 = malloc(sizeof(double) * (size_t)(3 * nc + 1));
    if (!c->planes || !c->pose || !c->shape_radius || !c->shape_sampled || !c->xc || !c->xc1)
        return out_of_memory();
    if (nh > 0) memcpy(c->planes, def->half_spaces, sizeof(double) * 6 * (size_t)nh);
    int nsph = 0;
    for (int i = 0; i < ns; ++i) {
        c->pose[i] = def->shape_poses[i];
        c->shape_radius[i] = ipcc_shape_bounding_radius(&c->pose[i]);
        nsph += c->pose[i].kind == IPCC_SHAPE_SPHERE;
    }
    c->obstacles = (ipcc_contact_obstacles){.num_planes = nh,
                                            .planes = c->planes,
                                            .num_shapes = ns,
                                            .pose = c->pose,
                                            .radius = c->shape_radius,
                                            .num_spheres = nsph};
    return IPCC_OK;
}

// Distance between collision vertices a and b at rest.
static double rest_length(const ipcc_collision_mesh *m, int a, int b) {
    const double *p = m->rest + 3 * a, *q = m->rest + 3 * b;
    return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                (p[2] - q[2]) * (p[2] - q[2]));
}

// The subdivisions of every edge and face for each curved shape's sample
// points (contact_samples.c), from their rest lengths: a face takes its
// longest edge's; whether each shape has samples (its definition's
// face_samples). No arrays when no shape has samples.
static ipcc_status build_samples(ipcc_contact *c, const ipcc_shape_def *defs) {
    const ipcc_collision_mesh *m = &c->mesh;
    int ns = c->obstacles.num_shapes, ne = m->ne, nf = m->nf;
    bool any = false;
    for (int i = 0; i < ns; ++i) {
        c->shape_sampled[i] = ipcc_shape_face_samples_on(c->pose[i].kind, defs[i].face_samples) &&
                              ipcc_contact_sample_spacing(&c->pose[i], c->dhat) > 0;
        any = any || c->shape_sampled[i];
    }
    if (!any) return IPCC_OK;
    c->edge_divisions = malloc((size_t)ns * ne + 1);
    c->face_divisions = malloc((size_t)ns * nf + 1);
    if (!c->edge_divisions || !c->face_divisions) return out_of_memory();
    for (int i = 0; i < ns; ++i) {
        double spacing = c->shape_sampled[i] ? ipcc_contact_sample_spacing(&c->pose[i], c->dhat) : 0;
        for (int e = 0; e < ne; ++e)
            c->edge_divisions[(size_t)i * ne + e] = (unsigned char)ipcc_contact_sample_divisions(
                rest_length(m, m->cedges[2 * e], m->cedges[2 * e + 1]), spacing);
        for (int f = 0; f < nf; ++f) {
            const int *t = m->cfaces + 3 * f;
            double l = fmax(rest_length(m, t[0], t[1]),
                            fmax(rest_length(m, t[1], t[2]), rest_length(m, t[2], t[0])));
            c->face_divisions[(size_t)i * nf + f] = (unsigned char)ipcc_contact_sample_divisions(l, spacing);
        }
    }
    c->obstacles.edge_divisions = c->edge_divisions;
    c->obstacles.face_divisions = c->face_divisions;
    return IPCC_OK;
}

ipcc_status ipcc_contact_create(const ipcc_contact_setup *def, ipcc_contact **out) {
    *out = NULL;
    ipcc_contact *c = calloc(1, sizeof *c);
    if (!c) return out_of_memory();
    c->bp = ipcc_broad_phase_create();
    ipcc_status st = c->bp ? ipcc_collision_mesh_build(&c->mesh, &def->mesh) : out_of_memory();
    if (st == IPCC_OK) st = build_obstacles(c, def);
    if (st != IPCC_OK) {
        ipcc_contact_destroy(c);
        return st;
    }
    c->L = def->bbox_diagonal;
    c->dhat = def->dhat > 0 ? def->dhat : 1e-3 * def->bbox_diagonal;
    c->dhat2 = c->dhat * c->dhat;
    st = build_samples(c, def->shape_defs);
    if (st != IPCC_OK) {
        ipcc_contact_destroy(c);
        return st;
    }
    double msum = 0;
    int mcount = 0;
    for (int i = 0; i < def->mesh.num_vertices; ++i)
        if (def->masses[i] > 0) {
            msum += def->masses[i];
            mcount++;
        }
    ipcc_barrier_stiffness_bounds(mcount > 0 ? msum / mcount : 1.0, c->L, c->dhat2, &c->kappa_min,
                                  &c->kappa_max);
    c->kappa_fixed = def->kappa > 0;
    c->kappa = c->kappa_fixed ? def->kappa : 0;
    c->prev_min_d2 = INFINITY;
    st = ipcc_contact_check_state(c, def, "initial state", false);
    if (st != IPCC_OK) {
        ipcc_contact_destroy(c);
        return st;
    }
    *out = c;
    return IPCC_OK;
}

void ipcc_contact_begin_step(ipcc_contact *c) {
    c->cand_valid = false;
    c->prev_min_d2 = INFINITY;
    c->ccd_cut = false;
    c->time_ccd = c->time_broad_phase = c->time_constraint_search = 0;
}

double ipcc_contact_dhat(const ipcc_contact *c) { return c->dhat; }
double ipcc_contact_kappa(const ipcc_contact *c) { return c->kappa; }
void ipcc_contact_set_kappa(ipcc_contact *c, double kappa) { c->kappa = kappa; }
void ipcc_contact_kappa_bounds(const ipcc_contact *c, double *kappa_min, double *kappa_max) {
    *kappa_min = c->kappa_fixed ? c->kappa : c->kappa_min;
    *kappa_max = c->kappa_fixed ? c->kappa : c->kappa_max;
}

// ---------------------------------------------------------------------------
// A Newton evaluation: the set, the stiffness, the terms.

ipcc_status ipcc_contact_update(ipcc_contact *c, const ipcc_step_context *sc, const double *x) {
    gather(c, sc, x);
    if (!c->cand_valid) {
        ipcc_status st = ipcc_contact_query(c, c->xc, NULL, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE);
        if (st != IPCC_OK) return st;
        c->cand_valid = true;
    }
    return ipcc_contact_build_set(c, c->xc);
}

// Newton's "gaps settled" test (newton.c): how far a direction moves the
// active contacts relative to their own distances. The shapes are held at
// their poses at x (a shape's motion within one direction is the lift's,
// which Newton has finished before it asks). A max reduction: the same for
// any thread count.
double ipcc_contact_gap_change(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                               const double *p) {
    gather(c, sc, x);
    ipcc_collision_mesh_gather_moved(&c->mesh, x, p, 1.0, c->xc1);
    double worst = 0;
    int np = c->set.np;
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, np);
#pragma omp parallel for num_threads(region1_run.threads) schedule(guided, 64) reduction(max : worst)
    for (int k = 0; k < np; ++k) {
        const ipcc_contact_pair *q = c->set.pairs + k;
        double d0 = sqrt(ipcc_contact_pair_distance(&c->obstacles, q, c->xc)),
               d1 = sqrt(ipcc_contact_pair_distance(&c->obstacles, q, c->xc1));
        if (d0 > 0) worst = fmax(worst, fabs(d1 - d0) / d0);
    }
    ipcc_region_end(&region1_run);
    return worst;
}

ipcc_status ipcc_contact_balance_stiffness(ipcc_contact *c, const ipcc_step_context *sc,
                                           const double *g_rest) {
    if (c->kappa_fixed) return IPCC_OK;
    int m = 3 * sc->num_vertices;
    const double *gb = NULL;
    if (c->set.np > 0) {
        if (ipcc_reserve((void **)&c->gb, &c->cap_gb, m, sizeof(double)) != 0) return out_of_memory();
        memset(c->gb, 0, sizeof(double) * (size_t)m);
        ipcc_barrier_potential_gradient(&c->set, &c->mesh, &c->obstacles, c->xc, c->dhat2, c->gb);
        gb = c->gb;
    }
    c->kappa =
        ipcc_barrier_stiffness_initial(c->kappa, c->kappa_min, c->kappa_max, m, sc->dof_map, g_rest, gb);
    return IPCC_OK;
}

void ipcc_contact_update_stiffness(ipcc_contact *c) {
    if (c->kappa_fixed) return;
    double dmin2 = ipcc_barrier_potential_min_distance2(&c->set, &c->obstacles, c->xc);
    c->kappa = ipcc_barrier_stiffness_update(c->kappa, c->kappa_max, c->prev_min_d2, dmin2, c->L, c->dhat2,
                                             c->ccd_cut);
    c->prev_min_d2 = dmin2;
}

ipcc_status ipcc_contact_assemble(ipcc_contact *c, const ipcc_step_context *sc, const double *lift, double *g,
                                  ipcc_triplets *T, double *energy) {
    return ipcc_barrier_potential_assemble(&c->potential, &c->set, &c->mesh, &c->obstacles, c->xc, c->dhat2,
                                           c->kappa, sc, lift, g, T, energy);
}

ipcc_status ipcc_contact_energy(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                double *energy) {
    gather(c, sc, x);
    ipcc_status st = ipcc_contact_build_set(c, c->xc);
    if (st != IPCC_OK) return st;
    double e = ipcc_barrier_potential_energy(&c->potential, &c->set, &c->obstacles, c->xc, c->dhat2);
    if (isnan(e)) return out_of_memory();
    *energy = isfinite(e) ? c->kappa * e : INFINITY;
    return IPCC_OK;
}

ipcc_status ipcc_contact_end_step(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                  double *force, ipcc_step_stats *stats) {
    memset(force, 0, sizeof(double) * 3 * (size_t)sc->num_vertices);
    gather(c, sc, x);
    ipcc_status st = IPCC_OK;
    if (!c->cand_valid)
        st = ipcc_contact_query(c, c->xc, NULL, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE);
    if (st == IPCC_OK) st = ipcc_contact_build_set(c, c->xc);
    if (st != IPCC_OK) return st;
    double s = sc->potential_scale, dmin2 = INFINITY;
    for (int k = 0; k < c->set.np; ++k) {
        const ipcc_contact_pair *p = &c->set.pairs[k];
        double g[12];
        ipcc_contact_pair_barrier(&c->obstacles, p, c->xc, c->dhat2, g, NULL);
        dmin2 = fmin(dmin2, ipcc_contact_pair_distance(&c->obstacles, p, c->xc));
        int nv = ipcc_contact_kind_vertices(p->kind);
        for (int a = 0; a < nv; ++a)
            for (int i = 0; i < 3; ++i)
                force[3 * c->mesh.cvert[p->v[a]] + i] -= c->kappa * g[3 * a + i] / s;
    }
    if (stats) {
        stats->num_contacts = c->set.np;
        stats->min_distance = sqrt(dmin2);
        stats->kappa = c->kappa;
        stats->time_ccd = c->time_ccd;
        stats->time_broad_phase = c->time_broad_phase;
        stats->time_constraint_search = c->time_constraint_search;
    }
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Active constraints as friction and contact reports see them.

// Closest-point weights of pair p at xc (see ipcc_contact_info): the
// difference of the two closest points is sum_i w_i x_i.
static void pair_weights(const ipcc_contact_pair *p, const double *xc, double w[4]) {
    const double *x0 = xc + 3 * p->v[0], *x1 = xc + 3 * p->v[1];
    switch (p->kind) {
    case IPCC_CONTACT_PP:
        w[0] = 1;
        w[1] = -1;
        return;
    case IPCC_CONTACT_PE: { // the line's closest point
        double a = ipcc_point_edge_closest_point(x0, x1, xc + 3 * p->v[2]);
        w[0] = 1;
        w[1] = -(1 - a);
        w[2] = -a;
        return;
    }
    case IPCC_CONTACT_PT: { // barycentric coordinates of p's projection on the triangle's plane
        double b[2];
        ipcc_point_triangle_closest_point(x0, x1, xc + 3 * p->v[2], xc + 3 * p->v[3], b);
        w[0] = 1;
        w[1] = -(1 - b[0] - b[1]);
        w[2] = -b[0];
        w[3] = -b[1];
        return;
    }
    case IPCC_CONTACT_EE:
    case IPCC_CONTACT_EP: {
        // pa = ea0 + s (ea1 - ea0), pb = eb0 + t (eb1 - eb0): for EE the closest
        // points of the two lines (EE keys are interior-interior,
        // constraint_set.c), for EP of the two segments (an end of one, for
        // nearly parallel edges)
        const double *b0 = xc + 3 * p->v[2], *b1 = xc + 3 * p->v[3];
        double st[2];
        if (p->kind == IPCC_CONTACT_EE)
            ipcc_edge_edge_closest_point(x0, x1, b0, b1, st);
        else
            ipcc_segment_segment_closest_parameters(x0, x1, b0, b1, st);
        w[0] = 1 - st[0];
        w[1] = st[0];
        w[2] = -(1 - st[1]);
        w[3] = -st[1];
        return;
    }
    case IPCC_CONTACT_PH:
    case IPCC_CONTACT_PS: w[0] = 1; return;
    case IPCC_CONTACT_QE:
    case IPCC_CONTACT_QT: // the sample's weights (the body is the first primitive)
        ipcc_sample_weights(ipcc_contact_kind_vertices(p->kind), p->sample, w);
        return;
    }
}

// QE and QT as friction sees them: the sample q, its closest point on the
// shape and the outward normal there.
static void sample_info(const ipcc_contact *c, const ipcc_contact_pair *p, ipcc_contact_info *in) {
    int nv = ipcc_contact_kind_vertices(p->kind);
    double q[3];
    ipcc_sample_at(nv, p->v, c->xc, p->sample, in->weights, q);
    in->obstacle = p->v[nv];
    in->body[1] = -1;
    in->sample = p->sample;
    ipcc_shape_distance(&c->pose[in->obstacle], q, in->point, in->normal);
}

// ST and SE as friction sees them: the face's (edge's) point nearest the
// sphere's centre o, q = sum_i w_i x_i (barycentric weights of o's
// projection, summing to 1: the body is the first primitive, the sphere the
// second), the normal from the sphere towards it, (q - o) / |q - o|, and
// the sphere's surface point o + r n.
static void sphere_info(const ipcc_contact *c, const ipcc_contact_pair *p, ipcc_contact_info *in) {
    int nv = ipcc_contact_kind_vertices(p->kind), i = p->v[nv];
    const double *o = c->pose[i].center, *x0 = c->xc + 3 * p->v[0], *x1 = c->xc + 3 * p->v[1];
    if (p->kind == IPCC_CONTACT_SE) {
        double a = ipcc_point_edge_closest_point(o, x0, x1);
        in->weights[0] = 1 - a;
        in->weights[1] = a;
    } else {
        double b[2];
        ipcc_point_triangle_closest_point(o, x0, x1, c->xc + 3 * p->v[2], b);
        in->weights[0] = 1 - b[0] - b[1];
        in->weights[1] = b[0];
        in->weights[2] = b[1];
    }
    double q[3] = {0, 0, 0};
    for (int a = 0; a < nv; ++a)
        for (int k = 0; k < 3; ++k)
            q[k] += in->weights[a] * c->xc[3 * p->v[a] + k];
    double dq[3];
    sub3(q, o, dq);
    double len = sqrt(dot3(dq, dq));
    for (int k = 0; k < 3; ++k) {
        in->normal[k] = len > 0 ? dq[k] / len : (k == 1);
        in->point[k] = o[k] + c->pose[i].size[0] * in->normal[k];
    }
    in->body[1] = -1;
    in->obstacle = i;
}

// A nearly parallel edge pair's term is no function of one distance
// (parallel_edges.c): its force on edge a, -kappa n (g_a0 + g_a1) with g
// the term's gradient, is the normal force and its direction the normal
// (within the edges' angle of the closest points' direction where one end
// dominates), so the reports' forces still add up to the barrier force.
static void parallel_force(const ipcc_contact *c, const ipcc_contact_pair *p, ipcc_contact_info *in) {
    double g[12], f[3];
    ipcc_contact_pair_barrier(&c->obstacles, p, c->xc, c->dhat2, g, NULL);
    for (int k = 0; k < 3; ++k)
        f[k] = -c->kappa * (g[k] + g[3 + k]);
    double len = sqrt(dot3(f, f));
    if (!(len > 0) || !isfinite(len)) return;
    for (int k = 0; k < 3; ++k)
        in->normal[k] = f[k] / len;
    in->normal_force = len;
}

// Constraint p at c->xc as friction sees it.
static void pair_info(const ipcc_contact *c, const ipcc_contact_pair *p, ipcc_contact_info *in) {
    const ipcc_collision_mesh *m = &c->mesh;
    int nv = ipcc_contact_pair_world_vertices(m, p, in->vertices);
    in->kind = (ipcc_contact_kind)p->kind;
    in->body[0] = m->group[p->v[0]];
    in->obstacle = -1;
    in->sample = 0;
    if (p->kind == IPCC_CONTACT_ST || p->kind == IPCC_CONTACT_SE) {
        sphere_info(c, p, in);
    } else if (p->kind == IPCC_CONTACT_QE || p->kind == IPCC_CONTACT_QT) {
        sample_info(c, p, in);
    } else if (p->kind == IPCC_CONTACT_PH) {
        pair_weights(p, c->xc, in->weights);
        in->body[1] = -1;
        in->obstacle = p->v[1];
        memcpy(in->normal, c->planes + 6 * p->v[1] + 3, 3 * sizeof(double));
        const double *xv = c->xc + 3 * p->v[0], *pl = c->planes + 6 * p->v[1];
        double sd = ipcc_contact_plane_signed(pl, xv);
        for (int k = 0; k < 3; ++k)
            in->point[k] = xv[k] - sd * pl[3 + k];
    } else if (p->kind == IPCC_CONTACT_PS) {
        pair_weights(p, c->xc, in->weights);
        in->body[1] = -1;
        in->obstacle = p->v[1];
        ipcc_shape_distance(&c->pose[p->v[1]], c->xc + 3 * p->v[0], in->point, in->normal);
    } else {
        pair_weights(p, c->xc, in->weights);
        int first = ipcc_contact_kind_edge_edge(p->kind) ? 2 : 1; // the second primitive's first vertex
        in->body[1] = m->group[p->v[first]];
        // normal = (difference of the closest points) / its length
        double dvec[3] = {0, 0, 0};
        for (int a = 0; a < nv; ++a)
            for (int k = 0; k < 3; ++k)
                dvec[k] += in->weights[a] * c->xc[3 * p->v[a] + k];
        double len = sqrt(dot3(dvec, dvec));
        for (int k = 0; k < 3; ++k)
            in->normal[k] = len > 0 ? dvec[k] / len : (k == 1);
        // the second primitive's closest point: minus its weighted vertices
        memset(in->point, 0, sizeof in->point);
        for (int a = first; a < nv; ++a)
            for (int k = 0; k < 3; ++k)
                in->point[k] -= in->weights[a] * c->xc[3 * p->v[a] + k];
    }
    // lambda_hat = kappa n |d b(r^2) / dr| = kappa n |b'(d)| 2 sqrt(d), r the distance
    double d = ipcc_contact_pair_distance(&c->obstacles, p, c->xc);
    in->normal_force = c->kappa * p->mult * fabs(ipcc_barrier_first_derivative(d, c->dhat2)) * 2 * sqrt(d);
    in->distance = sqrt(d);
    if (p->kind == IPCC_CONTACT_EP) parallel_force(c, p, in);
}

ipcc_status ipcc_contact_active(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                const ipcc_contact_info **out, int *count) {
    gather(c, sc, x);
    c->cand_valid = false; // evaluations at other states search afresh
    ipcc_status st = ipcc_contact_query(c, c->xc, NULL, c->dhat, IPCC_CANDIDATES_VF | IPCC_CANDIDATES_EE);
    if (st == IPCC_OK) st = ipcc_contact_build_set(c, c->xc);
    if (st != IPCC_OK) return st;
    if (ipcc_reserve((void **)&c->info, &c->cap_info, c->set.np + 1, sizeof *c->info) != 0)
        return out_of_memory();
    for (int k = 0; k < c->set.np; ++k)
        pair_info(c, &c->set.pairs[k], &c->info[k]);
    *out = c->info;
    *count = c->set.np;
    return IPCC_OK;
}
