/// Command-line overrides of JSON scene keys (scene_override.c): `--set
/// key.path=value` applied to the parsed tree before validation. Private to
/// the library.
#ifndef IPCC_SCENE_OVERRIDE_H
#define IPCC_SCENE_OVERRIDE_H

#include <cjson/cJSON.h>

#include "ipcc/base.h"

/// Apply `count` "key.path=value" overrides, in order, to the tree `root`
/// of the scene `name` (for messages). A malformed override is
/// IPCC_ERR_INVALID_ARGUMENT naming the scene and the override; `root` may
/// then be partly changed (the caller discards it).
ipcc_status ipcc_scene_apply_overrides(const char *name, cJSON *root, int count,
                                       const char *const *overrides);

#endif
