/// Checkpoints: the complete dynamic state of a world in one binary file, so
/// a run can stop at any step and continue bit-identically.
///
/// A checkpoint holds what the next steps depend on: positions, velocities,
/// accelerations, the time and step count, the barrier stiffness kappa, the
/// state of every prescribed motion (pivots, scripted stops), the pose of
/// every analytic shape, and the contact and friction forces of the last
/// step (reported in frames). The
/// rest of the world (meshes, materials, parameters) comes from the scene,
/// so a checkpoint is loaded into a world built from the same scene; a
/// fingerprint of that setup is checked and a mismatch is refused. The
/// library keeps no other state between steps (caches are rebuilt each step
/// and results do not depend on them), which is why a restored world steps
/// exactly like the original. ipcc has no random numbers.
///
/// Files are written atomically (a temporary beside the target, fsync,
/// rename, fsync of the folder): after a crash, kill or full disk the target
/// is either the previous checkpoint or the new one, never a mix. A checksum
/// over the whole file rejects truncated or corrupted files. The format is
/// in docs/output.md.
#ifndef IPCC_CHECKPOINT_H
#define IPCC_CHECKPOINT_H

#include <stddef.h>

#include "ipcc/base.h"
#include "ipcc/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Write the state of `world` to `path`, with `user_size` bytes of the
/// caller's own data (may be 0; the CLI stores its run loop's counters and
/// frame list there). The world must have been started (ipcc_world_start or
/// a step). IPCC_ERR_IO names the path and the system error; an existing
/// file at `path` is then left as it was.
IPCC_API ipcc_status ipcc_checkpoint_write(const char *path, const ipcc_world *world, const void *user,
                                           size_t user_size);

/// Restore the state saved in `path` into `world`, which must be built from
/// the same scene and not stepped yet (it is started here if needed). On
/// success *user (if not NULL) receives a malloc'ed copy of the caller's
/// data (free() it; NULL when empty) and *user_size its size. Errors leave
/// the world unchanged: IPCC_ERR_IO (cannot read), IPCC_ERR_PARSE (not a
/// checkpoint, another format version, truncated or corrupted, each named),
/// IPCC_ERR_INVALID_ARGUMENT (written for a different world: the message
/// names what differs).
IPCC_API ipcc_status ipcc_checkpoint_read(const char *path, ipcc_world *world, void **user,
                                          size_t *user_size);

#ifdef __cplusplus
}
#endif
#endif
