// The world's fingerprint (ipcc_world_fingerprint, world.h): a hash of
// its setup, which a checkpoint records so that it is only ever restored
// into a world built from the same scene (checkpoint.c).
//
// What it covers: the counts (vertices, tets, bodies, conditions,
// half-spaces), the rest positions, masses, tets and half-spaces, the
// Dirichlet conditions' vertex sets, the time step, gravity, integrator and
// the main contact and solver parameters, L, and every body's material
// (per-tet materials only when a body has regions, so that worlds without
// them keep the fingerprint they always had). The hash is FNV-1a over the
// values' bytes (base/hash.h): the same on every run on one machine, not
// across byte orders (a checkpoint records its byte order anyway).
#include <stdint.h>

#include "base/core.h"
#include "base/hash.h"
#include "world/world.h"

static uint64_t hash_int(uint64_t h, long long v) { return ipcc_fnv1a(h, &v, sizeof v); }
static uint64_t hash_double(uint64_t h, double v) { return ipcc_fnv1a(h, &v, sizeof v); }

unsigned long long ipcc_world_fingerprint(const ipcc_world *w) {
    IPCC_ASSERT(w);
    uint64_t h = IPCC_FNV_OFFSET;
    h = hash_int(h, w->n);
    h = hash_int(h, w->nt);
    h = hash_int(h, w->num_bodies);
    h = hash_int(h, w->num_dirichlet);
    h = hash_int(h, w->num_neumann);
    h = hash_int(h, w->num_half_spaces);
    h = ipcc_fnv1a(h, w->x_rest, sizeof(double) * 3 * (size_t)w->n);
    h = ipcc_fnv1a(h, w->mass, sizeof(double) * (size_t)w->n);
    h = ipcc_fnv1a(h, w->tets, sizeof(int) * 4 * (size_t)w->nt);
    h = ipcc_fnv1a(h, w->half_spaces, sizeof(double) * 6 * (size_t)w->num_half_spaces);
    for (int c = 0; c < w->num_dirichlet; c++)
        h = ipcc_fnv1a(h, w->dirichlet[c].vertices, sizeof(int) * (size_t)w->dirichlet[c].num_vertices);
    const ipcc_world_def *d = &w->def;
    h = hash_double(h, d->time_step);
    h = ipcc_fnv1a(h, d->gravity, sizeof d->gravity);
    h = hash_int(h, d->integrator);
    h = hash_int(h, d->contact.enabled);
    h = hash_double(h, d->contact.dhat);
    h = hash_double(h, d->contact.kappa);
    h = hash_double(h, d->contact.friction);
    h = hash_double(h, d->damping);
    h = hash_double(h, d->newton_tolerance);
    h = hash_double(h, w->bbox_diagonal);
    for (int b = 0; b < w->num_bodies; b++) {
        h = hash_double(h, w->bodies[b].mu);
        h = hash_double(h, w->bodies[b].lambda);
        h = hash_double(h, w->bodies[b].friction);
        // Per-tet materials (regions): hashed only when present, so worlds
        // without them keep the fingerprint they always had.
        const ipcc_body *body = &w->bodies[b];
        if (body->num_materials > 1) {
            for (int k = body->first_material; k < body->first_material + body->num_materials; k++) {
                h = hash_int(h, w->materials[k].material.model);
                h = hash_double(h, w->materials[k].mu);
                h = hash_double(h, w->materials[k].lambda);
            }
            h = ipcc_fnv1a(h, w->tet_material + body->first_tet, sizeof(int) * (size_t)body->num_tets);
        }
    }
    return (unsigned long long)h;
}
