/// Loading the original IPC's `.txt` scene scripts into an ipcc_scene
/// (scene_ipc.c): path resolution, placement, `size`, script presets and
/// parameters, as docs/ipc-compatibility.md describes. Private to the library.
#ifndef IPCC_SCENE_IPC_H
#define IPCC_SCENE_IPC_H

#include <stdbool.h>

#include "ipcc/scene.h"

/// Load an IPC script. With `strict`, unknown keywords are errors.
ipcc_status ipcc_scene_load_ipc(const char *path, bool strict, ipcc_scene **out);

#endif
