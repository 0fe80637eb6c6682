// Checkpoints: the world's dynamic state in one binary file (checkpoint.h).
//
// What is saved, and why that is enough. A step reads, besides the setup
// the scene rebuilds, exactly: the positions x, velocities v and Newmark
// accelerations a; the time (a running sum, as IPC's clock) and the step
// count (the Newton tolerance schedule is indexed by it); the barrier
// stiffness kappa, the only contact state that outlives a step
// (ipcc_contact_begin_step resets the candidate cache, the rebalance flag
// and the distance history); and per Dirichlet condition its moving pivot,
// the group centre at the end of the last step and whether its scripted
// stop fired. Friction is re-lagged at each step's start from x, damping's
// Hessians from x, loads from the time, and the sparse pattern and CHOLMOD
// analysis are functions of the current matrix pattern alone (the broad
// phase returns pairs sorted), so none of them needs saving. The contact
// and friction forces of the last step are saved too: they are not read by
// the next step, but frames and the accessors report them.
//
// Analytic obstacle shapes (world_shapes.c) carry their pose as state (a
// blocked shape lags its prescribed motion), so version 2 adds it.
//
// Format (version 2; all fields in the host's byte order, which the header
// records; docs/output.md has the table):
//
//   char[8]  magic "IPCCCKPT"
//   u32      format version (2; version 1, without the shapes, is still read)
//   u32      byte-order mark 0x01020304 as written by the host
//   u64      world fingerprint (ipcc_world_fingerprint)
//   i32      vertices n, i32 Dirichlet conditions nd
//   i64      step
//   f64      time, kappa
//   f64[3n]  x, v, a, contact force, friction force (5 arrays)
//   nd x     { f64 pivot[3], f64 centre_end[3], u8 stopped, u8 pad[7] }
//   u64      shapes ns, then ns x { f64 centre[3], f64 rotation[9] }   (version 2)
//   u64      user data size k, then k bytes of user data
//   u64      FNV-1a 64 checksum of every byte before it
//
// Writing streams through a running checksum (no copy of the state); it
// goes through atomic_file.c, so the previous checkpoint survives any
// failure. Reading loads the file whole (base/read_file.c, whose messages
// name the file), checks size, magic, version, byte order, checksum and
// fingerprint before touching the world, then copies.
#include "ipcc/checkpoint.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/atomic_file.h"
#include "contact/contact.h"
#include "base/core.h"
#include "base/hash.h"
#include "base/read_file.h"
#include "world/world.h"

#define CKPT_MAGIC "IPCCCKPT"
#define CKPT_VERSION 2u
#define CKPT_BOM 0x01020304u
#define CKPT_ARRAYS 5 // x, v, a, contact force, friction force
// ---------------------------------------------------------------------------
// Write

typedef struct writer {
    ipcc_atomic_file file;
    uint64_t hash;
} writer;

static void put(writer *wr, const void *data, size_t bytes) {
    wr->hash = ipcc_fnv1a(wr->hash, data, bytes);
    ipcc_atomic_write(&wr->file, data, bytes);
}

static void put_u32(writer *wr, uint32_t v) { put(wr, &v, sizeof v); }
static void put_u64(writer *wr, uint64_t v) { put(wr, &v, sizeof v); }
static void put_i32(writer *wr, int32_t v) { put(wr, &v, sizeof v); }
static void put_f64(writer *wr, double v) { put(wr, &v, sizeof v); }

/// The 3n arrays in file order (a world without contact or friction saves zeros).
static void state_arrays(const ipcc_world *w, const double *arrays[CKPT_ARRAYS]) {
    arrays[0] = w->x;
    arrays[1] = w->v;
    arrays[2] = w->a;
    arrays[3] = w->contact_force;
    arrays[4] = w->friction_force;
}

ipcc_status ipcc_checkpoint_write(const char *path, const ipcc_world *w, const void *user, size_t user_size) {
    IPCC_ASSERT(path && w && (user || user_size == 0));
    if (!w->started)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "checkpoint '%s': the world has not been started", path);
    writer wr = {.hash = IPCC_FNV_OFFSET};
    ipcc_status s = ipcc_atomic_open(&wr.file, path, "checkpoint");
    if (s != IPCC_OK) return s;
    put(&wr, CKPT_MAGIC, 8);
    put_u32(&wr, CKPT_VERSION);
    put_u32(&wr, CKPT_BOM);
    put_u64(&wr, ipcc_world_fingerprint(w));
    put_i32(&wr, w->n);
    put_i32(&wr, w->num_dirichlet);
    int64_t step = w->step;
    put(&wr, &step, sizeof step);
    put_f64(&wr, w->time);
    put_f64(&wr, w->contact ? ipcc_contact_kappa(w->contact) : 0.0);
    const double *arrays[CKPT_ARRAYS];
    state_arrays(w, arrays);
    for (int k = 0; k < CKPT_ARRAYS; k++)
        put(&wr, arrays[k], sizeof(double) * 3 * (size_t)w->n);
    for (int c = 0; c < w->num_dirichlet; c++) {
        const ipcc_dirichlet *bc = &w->dirichlet[c];
        unsigned char flags[8] = {bc->stopped ? 1 : 0};
        put(&wr, bc->pivot_now, sizeof bc->pivot_now);
        put(&wr, bc->centre_end, sizeof bc->centre_end);
        put(&wr, flags, sizeof flags);
    }
    put_u64(&wr, (uint64_t)w->num_shapes);
    for (int i = 0; i < w->num_shapes; i++) {
        put(&wr, w->shape_pose[i].center, sizeof w->shape_pose[i].center);
        put(&wr, w->shape_pose[i].rotation, sizeof w->shape_pose[i].rotation);
    }
    put_u64(&wr, (uint64_t)user_size);
    put(&wr, user, user_size);
    uint64_t sum = wr.hash;
    ipcc_atomic_write(&wr.file, &sum, sizeof sum);
    return ipcc_atomic_commit(&wr.file);
}

// ---------------------------------------------------------------------------
// Read

typedef struct reader {
    const unsigned char *data;
    size_t size, at;
} reader;

static const void *take(reader *rd, size_t bytes) {
    if (rd->size - rd->at < bytes) return NULL;
    const void *p = rd->data + rd->at;
    rd->at += bytes;
    return p;
}

ipcc_status ipcc_checkpoint_read(const char *path, ipcc_world *w, void **user, size_t *user_size) {
    IPCC_ASSERT(path && w);
    if (user) *user = NULL;
    if (user_size) *user_size = 0;
    if (w->step != 0)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "checkpoint '%s': the world has already stepped", path);
    unsigned char *data = NULL;
    size_t size = 0;
    void *copy = NULL; // the caller's data
    char *text = NULL;
    ipcc_status s = ipcc_read_file(path, false, &text, &size); // "PATH: cannot open: REASON", ...
    if (s != IPCC_OK) return ipcc_fail(s, "checkpoint: %s", ipcc_last_error());
    data = (unsigned char *)text;
    reader rd = {data, size, 0};
    const size_t header = 8 + 4 + 4 + 8 + 4 + 4 + 8 + 8 + 8;
    uint32_t version, bom;
    uint64_t fingerprint, sum, user_bytes;
    int32_t n, nd;
    int64_t step;
    double time, kappa;
    if (size < header + 8 || memcmp(data, CKPT_MAGIC, 8) != 0) {
        s = ipcc_fail(IPCC_ERR_PARSE, "checkpoint '%s': not an ipcc checkpoint (%zu bytes, no '%s' header)",
                      path, size, CKPT_MAGIC);
        goto done;
    }
    take(&rd, 8);
    memcpy(&version, take(&rd, 4), 4);
    memcpy(&bom, take(&rd, 4), 4);
    if (bom != CKPT_BOM) {
        s = ipcc_fail(IPCC_ERR_PARSE, "checkpoint '%s': written on a machine of the other byte order", path);
        goto done;
    }
    if (version != CKPT_VERSION && version != 1) { // version 1: no shape block
        s = ipcc_fail(IPCC_ERR_PARSE, "checkpoint '%s': format version %u, this ipcc reads version %u", path,
                      version, CKPT_VERSION);
        goto done;
    }
    memcpy(&sum, data + size - 8, 8);
    if (ipcc_fnv1a(IPCC_FNV_OFFSET, data, size - 8) != sum) {
        s = ipcc_fail(IPCC_ERR_PARSE, "checkpoint '%s': checksum mismatch (truncated or corrupted file)",
                      path);
        goto done;
    }
    // Starting adds a box's or cylinder's feature obstacle (world_shapes.c),
    // which the writer's world had: compare with a started world.
    s = ipcc_world_start(w);
    if (s != IPCC_OK) goto done;
    memcpy(&fingerprint, take(&rd, 8), 8);
    memcpy(&n, take(&rd, 4), 4);
    memcpy(&nd, take(&rd, 4), 4);
    memcpy(&step, take(&rd, 8), 8);
    memcpy(&time, take(&rd, 8), 8);
    memcpy(&kappa, take(&rd, 8), 8);
    if (n != w->n || nd != w->num_dirichlet) {
        s = ipcc_fail(
            IPCC_ERR_INVALID_ARGUMENT,
            "checkpoint '%s' was written for another scene: %d vertices and %d Dirichlet conditions, "
            "this world has %d and %d",
            path, (int)n, (int)nd, w->n, w->num_dirichlet);
        goto done;
    }
    if (fingerprint != ipcc_world_fingerprint(w)) {
        s = ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                      "checkpoint '%s' was written for another scene (same size, but the meshes, placement, "
                      "materials or main parameters differ)",
                      path);
        goto done;
    }
    size_t arrays_bytes = sizeof(double) * 3 * (size_t)n;
    const unsigned char *arrays = take(&rd, CKPT_ARRAYS * arrays_bytes);
    const unsigned char *conditions = take(&rd, (size_t)nd * 56);
    uint64_t ns = 0;
    const unsigned char *ns_at = version >= 2 ? take(&rd, 8) : NULL, *poses = NULL;
    if (ns_at) memcpy(&ns, ns_at, 8);
    if (version >= 2 && ns_at && ns != (uint64_t)w->num_shapes) {
        s = ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                      "checkpoint '%s' was written for another scene: %llu shapes, this world has %d", path,
                      (unsigned long long)ns, w->num_shapes);
        goto done;
    }
    if (version < 2 && w->num_shapes > 0) {
        s = ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                      "checkpoint '%s' (format version 1) has no shape poses, and this world has %d shapes",
                      path, w->num_shapes);
        goto done;
    }
    if (ns > 0) poses = take(&rd, (size_t)ns * 96);
    const void *user_size_at = take(&rd, 8);
    if (!arrays || !conditions || (version >= 2 && !ns_at) || (ns > 0 && !poses) || !user_size_at) {
        s = ipcc_fail(IPCC_ERR_PARSE, "checkpoint '%s': too short for %d vertices", path, (int)n);
        goto done;
    }
    memcpy(&user_bytes, user_size_at, 8);
    const void *user_data = take(&rd, (size_t)user_bytes);
    if (user_bytes > size || !user_data || rd.at != size - 8 || step < 0 || step > INT32_MAX ||
        !isfinite(time) || !(kappa >= 0)) {
        s = ipcc_fail(IPCC_ERR_PARSE, "checkpoint '%s': inconsistent contents", path);
        goto done;
    }
    if (user && user_bytes > 0 && !(copy = malloc((size_t)user_bytes))) {
        s = ipcc_fail(IPCC_ERR_NO_MEMORY, "checkpoint '%s': out of memory", path);
        goto done;
    }
    // Everything checked: copy into the world.
    double *targets[CKPT_ARRAYS] = {w->x, w->v, w->a, w->contact_force, w->friction_force};
    for (int k = 0; k < CKPT_ARRAYS; k++)
        memcpy(targets[k], arrays + k * arrays_bytes, arrays_bytes);
    for (int c = 0; c < nd; c++) {
        ipcc_dirichlet *bc = &w->dirichlet[c];
        const unsigned char *at = conditions + 56 * (size_t)c;
        memcpy(bc->pivot_now, at, 24);
        memcpy(bc->centre_end, at + 24, 24);
        bc->stopped = at[48] != 0;
    }
    for (int i = 0; i < (int)ns; i++) {
        memcpy(w->shape_pose[i].center, poses + 96 * (size_t)i, 24);
        memcpy(w->shape_pose[i].rotation, poses + 96 * (size_t)i + 24, 72);
    }
    w->step = (int)step;
    w->time = time;
    w->kappa = kappa;
    if (w->contact) ipcc_contact_set_kappa(w->contact, kappa);
    if (copy) memcpy(copy, user_data, (size_t)user_bytes);
    if (user) *user = copy;
    copy = NULL;
    if (user_size) *user_size = (size_t)user_bytes;
done:
    free(copy);
    free(data);
    return s;
}
