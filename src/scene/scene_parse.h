/// The JSON scene parser's entry points (scene_parse.c): text to an
/// ipcc_scene in three passes (text, values, meshes), with `--set`
/// overrides; the comment blanking that the fuzz harness shares; and the
/// JSON names of the integrators, which the writer shares. ipcc_scene_parse()
/// (include/ipcc/scene.h) is defined there too. Private to the library.
#ifndef IPCC_SCENE_PARSE_H
#define IPCC_SCENE_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "ipcc/scene.h"

/// ipcc_scene_parse() with options (NULL = none; JSON uses only the
/// overrides): `text` named `name` in messages, mesh paths relative to
/// `base_dir` (NULL = working directory). On failure *out is NULL.
ipcc_status ipcc_scene_parse_with_options(const char *text, const char *name, const char *base_dir,
                                          const ipcc_scene_options *options, ipcc_scene **out);

/// Blank out `//` and `/* */` comments of JSON text in place (outside strings),
/// keeping newlines so line and column numbers still match the file. False
/// if a `/*` is never closed; *unterminated_at is then its offset.
bool ipcc_scene_blank_comments(char *s, size_t *unterminated_at);

/// The JSON names of the integrators (NULL-terminated) and the values they
/// stand for, in the same order; the parser and the writer (scene_write.c)
/// share them.
extern const char *const ipcc_scene_integrator_names[];
extern const ipcc_integrator ipcc_scene_integrator_values[];

#endif
