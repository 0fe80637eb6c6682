// Command-line overrides of scene keys (`ipcc run SCENE --set key.path=value`):
// each one edits the parsed JSON tree before validation, so an override is
// checked exactly like the key written in the file (unknown keys, types,
// ranges, with the same key-path messages).
//
// Path syntax: keys separated by '.', each optionally followed by one or
// more `[index]` (0-based) into an array: `contact.friction`,
// `materials.rubber.youngs_modulus`, `bodies[1].dirichlet[0].velocity`.
// Missing objects along the path are created (`contact.friction` works on a
// scene without "contact"); a missing array element is an error. The value
// is JSON (`0.3`, `true`, `[0, 1, 0]`, `"text"`); anything that does not
// parse as JSON is taken as a string (`--set output.directory=out2`).
// Blanks around the value are fine, but a JSON value followed by more text
// (`1e6x`, `0.3 0.5`, `[0,-2,0]]junk`) is an error naming the key and the
// text: cJSON stops at the end of the first value, and a typo in a sweep
// must not silently run with that prefix. A string that starts like JSON
// (`1abc`, `true_name`) must be quoted: `key='"1abc"'`.
#include "scene/scene_override.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"

static ipcc_status bad(const char *name, const char *ov, const char *what) {
    return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: --set %s: %s", name, ov, what);
}

// The value of override `ov` (the text after '='): JSON, or a string when
// it does not start with a JSON value; trailing text after a JSON value is an
// error.
static ipcc_status parse_value(const char *name, const char *ov, const char *text, cJSON **out) {
    const char *end = NULL;
    cJSON *value = cJSON_ParseWithOpts(text, &end, false);
    if (!value) {
        *out = cJSON_CreateString(text);
        return *out ? IPCC_OK : ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
    }
    while (*end && isspace((unsigned char)*end))
        end++;
    if (*end) {
        const char *start = text;
        while (isspace((unsigned char)*start))
            start++;
        int value_len = (int)(end - start);
        while (value_len > 0 && isspace((unsigned char)start[value_len - 1]))
            value_len--;
        cJSON_Delete(value);
        *out = NULL;
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                         "%s: --set %s: unexpected text '%s' after the value '%.*s' (give one JSON value; "
                         "quote a string as '\"text\"')",
                         name, ov, end, value_len, start);
    }
    *out = value;
    return IPCC_OK;
}

// One override "path=value" applied to root.
static ipcc_status apply_one(const char *name, cJSON *root, const char *ov) {
    cJSON *value_out;
    const char *eq = strchr(ov, '=');
    if (!eq || eq == ov) return bad(name, ov, "expected key.path=value");
    size_t plen = (size_t)(eq - ov);
    char *path = malloc(plen + 1);
    if (!path) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
    memcpy(path, ov, plen);
    path[plen] = '\0';
    ipcc_status st = parse_value(name, ov, eq + 1, &value_out);
    if (st != IPCC_OK) {
        free(path);
        return st;
    }
    cJSON *value = value_out;
    cJSON *node = root;
    // Split at every '.' (not strtok_r, which would merge "a..b" into "a.b"
    // and drop a leading or trailing '.'): an empty key is an error.
    for (char *seg = path, *next; seg; seg = next) {
        char *dot = strchr(seg, '.');
        if (dot) *dot = '\0';
        next = dot ? dot + 1 : NULL;
        char *bracket = strchr(seg, '[');
        if (bracket) *bracket = '\0';
        bool last_key = !bracket && !next;
        if (!seg[0] || !cJSON_IsObject(node)) {
            st = bad(name, ov,
                     !seg[0] ? "empty key in the path"
                             : "the path goes through a value that is not an object");
            break;
        }
        cJSON *child = cJSON_GetObjectItemCaseSensitive(node, seg);
        if (last_key) {
            if (child)
                cJSON_ReplaceItemInObjectCaseSensitive(node, seg, value);
            else
                cJSON_AddItemToObject(node, seg, value);
            value = NULL;
            node = NULL;
            break;
        }
        if (!child) {
            if (bracket) {
                st = bad(name, ov, "the path indexes an array that the scene does not have");
                break;
            }
            child = cJSON_AddObjectToObject(node, seg);
            if (!child) {
                st = ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
                break;
            }
        }
        node = child;
        // Indices: seg[...][...]
        for (char *b = bracket; b && st == IPCC_OK;) {
            char *end = NULL;
            long i = strtol(b + 1, &end, 10);
            if (end == b + 1 || *end != ']' || i < 0) {
                st = bad(name, ov, "expected [index] with a non-negative integer");
                break;
            }
            if (!cJSON_IsArray(node) || i >= cJSON_GetArraySize(node)) {
                st = bad(name, ov, "index out of range (or not an array)");
                break;
            }
            b = end[1] == '[' ? end + 1 : NULL;
            if (end[1] != '\0' && end[1] != '[') {
                st = bad(name, ov, "unexpected text after ]");
                break;
            }
            bool last = !b && !next;
            if (last) {
                cJSON_ReplaceItemInArray(node, (int)i, value);
                value = NULL;
                node = NULL;
                break;
            }
            node = cJSON_GetArrayItem(node, (int)i);
        }
        if (st != IPCC_OK || !node) break;
    }
    if (st == IPCC_OK && value) st = bad(name, ov, "empty path");
    cJSON_Delete(value);
    free(path);
    return st;
}

ipcc_status ipcc_scene_apply_overrides(const char *name, cJSON *root, int count,
                                       const char *const *overrides) {
    for (int i = 0; i < count; i++) {
        ipcc_status st = apply_one(name, root, overrides[i]);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}
