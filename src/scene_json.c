// The scene parser's JSON layer: messages that name the scene and the key
// path, "did you mean" suggestions, and typed getters that check type and
// range (see scene.c for the passes and the failure modes).
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scene_parser.h"

// ---------------------------------------------------------------------------
// Messages and key paths

IPCC_PRINTF(4, 5)
ipcc_status ipcc_scene_fail_at(const parser *p, ipcc_status status, const char *path, const char *fmt, ...) {
    char what[MESSAGE_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (path && path[0]) return ipcc_fail(status, "%s: %s: %s", p->name, path, what);
    return ipcc_fail(status, "%s: %s", p->name, what);
}

// Key paths are bounded; a path that does not fit ends in "..." so a
// message never silently names a different key.
static void mark_truncated(char out[PATH_LEN], int written) {
    if (written >= PATH_LEN) memcpy(out + PATH_LEN - 4, "...", 4);
}

void ipcc_scene_key_path(char out[PATH_LEN], const char *parent, const char *key) {
    mark_truncated(out, parent[0] ? snprintf(out, PATH_LEN, "%s.%s", parent, key)
                                  : snprintf(out, PATH_LEN, "%s", key));
}

void ipcc_scene_index_path(char out[PATH_LEN], const char *parent, int index) {
    mark_truncated(out, snprintf(out, PATH_LEN, "%s[%d]", parent, index));
}

const char *ipcc_scene_json_type_name(const cJSON *item) {
    if (cJSON_IsNull(item)) return "null";
    if (cJSON_IsBool(item)) return "a boolean";
    if (cJSON_IsNumber(item)) return "a number";
    if (cJSON_IsString(item)) return "a string";
    if (cJSON_IsArray(item)) return "an array";
    if (cJSON_IsObject(item)) return "an object";
    return "an invalid value";
}

static int min3(int a, int b, int c) {
    int m = a < b ? a : b;
    return m < c ? m : c;
}

// Levenshtein distance, for "did you mean" suggestions; long keys are capped.
static int edit_distance(const char *a, const char *b) {
    enum { MAXLEN = 63 };
    size_t na = strlen(a), nb = strlen(b);
    if (na > MAXLEN || nb > MAXLEN) return MAXLEN + 1;
    int prev[MAXLEN + 1], cur[MAXLEN + 1];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, sub);
        }
        memcpy(prev, cur, (nb + 1) * sizeof prev[0]);
    }
    return prev[nb];
}

// The closest of `choices` (NULL-terminated) to `word`, or NULL if none is close.
const char *ipcc_scene_closest(const char *word, const char *const *choices) {
    const char *best = NULL;
    int best_d = 0;
    int limit = (int)strlen(word) / 3;
    if (limit < 2) limit = 2;
    if (limit > 3) limit = 3;
    for (int i = 0; choices[i]; i++) {
        int d = edit_distance(word, choices[i]);
        if (d <= limit && (!best || d < best_d)) {
            best = choices[i];
            best_d = d;
        }
    }
    return best;
}

// "a, b, c" into out.
void ipcc_scene_join_names(char *out, size_t len, const char *const *names) {
    out[0] = '\0';
    size_t used = 0;
    for (int i = 0; names[i] && used < len; i++) {
        int n = snprintf(out + used, len - used, "%s%s", i ? ", " : "", names[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

// Error for a string value that is not one of `choices`.
ipcc_status ipcc_scene_fail_choice(const parser *p, const char *path, const char *what, const char *value,
                                   const char *const *choices) {
    char known[MESSAGE_LEN / 2];
    ipcc_scene_join_names(known, sizeof known, choices);
    const char *guess = ipcc_scene_closest(value, choices);
    if (guess)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, path,
                                  "unknown %s \"%s\" (known: %s); did you mean \"%s\"?", what, value, known,
                                  guess);
    return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, path, "unknown %s \"%s\" (known: %s)", what,
                              value, known);
}

// ---------------------------------------------------------------------------
// Typed getters. Each leaves *out unchanged when the key is absent.

// `item` must be an object whose keys are all in `keys` (NULL-terminated, or
// NULL for free names) and appear once.
ipcc_status ipcc_scene_check_object(const parser *p, const cJSON *item, const char *path,
                                    const char *const *keys) {
    if (!cJSON_IsObject(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, path[0] ? path : NULL,
                                  "expected an object (got %s)", ipcc_scene_json_type_name(item));
    char sub[PATH_LEN];
    for (const cJSON *c = item->child; c; c = c->next) {
        ipcc_scene_key_path(sub, path, c->string);
        for (const cJSON *d = item->child; d != c; d = d->next)
            if (strcmp(d->string, c->string) == 0)
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "duplicate key");
        if (!keys) continue;
        bool known = false;
        for (int i = 0; keys[i] && !known; i++)
            known = strcmp(keys[i], c->string) == 0;
        if (known) continue;
        const char *guess = ipcc_scene_closest(c->string, keys);
        if (guess)
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "unknown key; did you mean \"%s\"?",
                                      guess);
        char list[MESSAGE_LEN / 2];
        ipcc_scene_join_names(list, sizeof list, keys);
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "unknown key (known: %s)", list);
    }
    return IPCC_OK;
}

const cJSON *ipcc_scene_get(const cJSON *obj, const char *key) {
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

ipcc_status ipcc_scene_check_finite(const parser *p, const char *path, double v) {
    if (!isfinite(v))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, path, "must be finite (got %g)", v);
    return IPCC_OK;
}

ipcc_status ipcc_scene_get_number(const parser *p, const cJSON *obj, const char *path, const char *key,
                                  range r, double *out) {
    const cJSON *item = ipcc_scene_get(obj, key);
    if (!item) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    if (!cJSON_IsNumber(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected a number (got %s)",
                                  ipcc_scene_json_type_name(item));
    double v = item->valuedouble;
    ipcc_status st = ipcc_scene_check_finite(p, sub, v);
    if (st != IPCC_OK) return st;
    if (r == POSITIVE && !(v > 0))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be > 0 (got %g)", v);
    if (r == NON_NEGATIVE && !(v >= 0))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be >= 0 (got %g)", v);
    *out = v;
    return IPCC_OK;
}

bool ipcc_scene_is_int_value(const cJSON *item, int min) {
    if (!cJSON_IsNumber(item)) return false;
    double v = item->valuedouble;
    return isfinite(v) && v == floor(v) && v >= (double)min && v <= 2147483647.0;
}

ipcc_status ipcc_scene_get_int(const parser *p, const cJSON *obj, const char *path, const char *key, int min,
                               int *out) {
    const cJSON *item = ipcc_scene_get(obj, key);
    if (!item) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    if (!cJSON_IsNumber(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected an integer (got %s)",
                                  ipcc_scene_json_type_name(item));
    if (!ipcc_scene_is_int_value(item, min))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected an integer >= %d (got %g)",
                                  min, item->valuedouble);
    *out = (int)item->valuedouble;
    return IPCC_OK;
}

ipcc_status ipcc_scene_get_bool(const parser *p, const cJSON *obj, const char *path, const char *key,
                                bool *out) {
    const cJSON *item = ipcc_scene_get(obj, key);
    if (!item) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    if (!cJSON_IsBool(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected true or false (got %s)",
                                  ipcc_scene_json_type_name(item));
    *out = cJSON_IsTrue(item);
    return IPCC_OK;
}

// A non-empty string; *out points into the cJSON tree.
ipcc_status ipcc_scene_get_string(const parser *p, const cJSON *obj, const char *path, const char *key,
                                  const char **out) {
    const cJSON *item = ipcc_scene_get(obj, key);
    if (!item) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    if (!cJSON_IsString(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected a string (got %s)",
                                  ipcc_scene_json_type_name(item));
    if (!item->valuestring[0])
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must not be empty");
    *out = item->valuestring;
    return IPCC_OK;
}

// An array of exactly 3 finite numbers, checked against `r` component-wise.
ipcc_status ipcc_scene_parse_vec3(const parser *p, const cJSON *item, const char *sub, range r,
                                  double out[3]) {
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return ipcc_scene_fail_at(
            p, IPCC_ERR_INVALID_ARGUMENT, sub, "expected an array of 3 numbers (got %s%s)",
            ipcc_scene_json_type_name(item),
            cJSON_IsArray(item) ? (cJSON_GetArraySize(item) < 3 ? " that is too short" : " that is too long")
                                : "");
    double v[3];
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, i++) {
        if (!cJSON_IsNumber(c))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                      "expected an array of 3 numbers (item %d is %s)", i,
                                      ipcc_scene_json_type_name(c));
        v[i] = c->valuedouble;
        if (!isfinite(v[i]))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "item %d must be finite (got %g)", i,
                                      v[i]);
        if (r == POSITIVE && !(v[i] > 0))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "item %d must be > 0 (got %g)", i,
                                      v[i]);
    }
    memcpy(out, v, sizeof v);
    return IPCC_OK;
}

ipcc_status ipcc_scene_get_vec3(const parser *p, const cJSON *obj, const char *path, const char *key,
                                double out[3]) {
    const cJSON *item = ipcc_scene_get(obj, key);
    if (!item) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    return ipcc_scene_parse_vec3(p, item, sub, ANY, out);
}

char *ipcc_scene_copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

// `file` relative to the scene's folder: a malloc'ed path in *full (NULL when
// `file` is used as is). Returns the path to open.
const char *ipcc_scene_relative(const parser *p, const char *file, char **full) {
    *full = NULL;
    if (!p->base_dir || !p->base_dir[0] || file[0] == '/') return file;
    size_t nb = strlen(p->base_dir), nf = strlen(file);
    bool slash = p->base_dir[nb - 1] == '/';
    *full = malloc(nb + nf + 2);
    if (!*full) return NULL;
    snprintf(*full, nb + nf + 2, "%s%s%s", p->base_dir, slash ? "" : "/", file);
    return *full;
}

ipcc_status ipcc_scene_get_scale(const parser *p, const cJSON *obj, const char *path, double out[3]) {
    const cJSON *scale = ipcc_scene_get(obj, "scale");
    if (!scale) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, "scale");
    if (cJSON_IsArray(scale)) return ipcc_scene_parse_vec3(p, scale, sub, POSITIVE, out);
    if (!cJSON_IsNumber(scale))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "expected a number or an array of 3 numbers (got %s)",
                                  ipcc_scene_json_type_name(scale));
    double s = scale->valuedouble;
    ipcc_status st = ipcc_scene_check_finite(p, sub, s);
    if (st != IPCC_OK) return st;
    if (!(s > 0)) return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "must be > 0 (got %g)", s);
    out[0] = out[1] = out[2] = s;
    return IPCC_OK;
}
