/// The IPC script loader's presets (scene_ipc_presets.c): the DBC/NBC
/// groups of the shape lines and the `script` presets as prescribed
/// motions, stops and initial velocities. "F§n" cites section n of
/// docs/ipc-script-format.md. Private to the library.
#ifndef IPCC_SCENE_IPC_PRESETS_H
#define IPCC_SCENE_IPC_PRESETS_H

#include "scene/ipc/scene_ipc_placement.h"

/// +1/2 bbox diagonal in y for every shape (fall, dragright; F§6.2).
void ipcc_scene_ipc_shift_up(loader *L);
/// The script preset: prescribed motions, stops, initial velocities (F§6).
ipcc_status ipcc_scene_ipc_apply_script(loader *L);
/// NBC groups of the tet shapes (every script, F§3.2).
ipcc_status ipcc_scene_ipc_apply_nbc(loader *L);

#endif
