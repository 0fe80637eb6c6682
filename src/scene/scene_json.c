// The scene parser's JSON layer: messages that name the scene and the key
// path, "did you mean" suggestions, and typed getters that check type and
// range (see scene_parse.c for the passes and the failure modes).
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scene/scene_json.h"

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

char *ipcc_scene_folder_of(const char *path) {
    char *dir = ipcc_scene_copy_string(path);
    if (!dir) return NULL;
    char *slash = strrchr(dir, '/');
    if (!slash) {
        free(dir);
        return ipcc_scene_copy_string(".");
    }
    if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return dir;
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

// "transform": [[a, b, c, tx], [d, e, f, ty], [g, h, i, tz]] maps the file's
// coordinates x to A x + t. It is the whole placement, so it cannot be mixed
// with the translation/rotation/scale keys (which would be ambiguous about
// the order they compose in).
ipcc_status ipcc_scene_get_transform(const parser *p, const cJSON *obj, const char *path, bool *use,
                                     double t[12]) {
    const cJSON *item = ipcc_scene_get(obj, "transform");
    if (!item) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, "transform");
    static const char *const placement[] = {"translation", "rotation", "scale", NULL};
    for (int i = 0; placement[i]; i++) {
        if (ipcc_scene_get(obj, placement[i]))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                      "cannot be combined with \"%s\" (give either \"transform\" or "
                                      "translation/rotation/scale)",
                                      placement[i]);
    }
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
        return ipcc_scene_fail_at(
            p, IPCC_ERR_INVALID_ARGUMENT, sub,
            "expected 3 rows of 4 numbers, [[a, b, c, tx], [d, e, f, ty], [g, h, i, tz]] "
            "(got %s)",
            ipcc_scene_json_type_name(item));
    double m[12];
    int r = 0;
    for (const cJSON *row = item->child; row; row = row->next, r++) {
        if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 4)
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                      "row %d: expected an array of 4 numbers (got %s)", r,
                                      ipcc_scene_json_type_name(row));
        int c = 0;
        for (const cJSON *v = row->child; v; v = v->next, c++) {
            if (!cJSON_IsNumber(v))
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                          "row %d: expected an array of 4 numbers (item %d is %s)", r, c,
                                          ipcc_scene_json_type_name(v));
            if (!isfinite(v->valuedouble))
                return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                          "row %d: item %d must be finite (got %g)", r, c, v->valuedouble);
            m[4 * r + c] = v->valuedouble;
        }
    }
    // det A of the 3x3 part (columns 0..2 of each row), by cofactors of the first row.
    double det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[1] * (m[4] * m[10] - m[6] * m[8]) +
                 m[2] * (m[4] * m[9] - m[5] * m[8]);
    if (!(det > 0))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "the 3x3 part must have a positive determinant (got %g): no mirroring "
                                  "or collapse",
                                  det);
    memcpy(t, m, sizeof m);
    *use = true;
    return IPCC_OK;
}

ipcc_status ipcc_scene_get_point(const parser *p, const cJSON *obj, const char *path, const char *key,
                                 bool *has, double out[3]) {
    if (!ipcc_scene_get(obj, key)) return IPCC_OK;
    ipcc_status st = ipcc_scene_get_vec3(p, obj, path, key, out);
    if (st == IPCC_OK) *has = true;
    return st;
}

ipcc_status ipcc_scene_get_index_list(const parser *p, const cJSON *obj, const char *path, const char *key,
                                      int *n, int **out) {
    const cJSON *item = ipcc_scene_get(obj, key);
    if (!item) return IPCC_OK;
    char sub[PATH_LEN];
    ipcc_scene_key_path(sub, path, key);
    if (!cJSON_IsArray(item))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "expected an array of vertex indices (integers >= 0) (got %s)",
                                  ipcc_scene_json_type_name(item));
    int count = cJSON_GetArraySize(item);
    if (count == 0)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "must not be empty (omit it to select by box)");
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, i++) {
        if (!ipcc_scene_is_int_value(c, 0))
            return ipcc_scene_fail_at(
                p, IPCC_ERR_INVALID_ARGUMENT, sub, "item %d: expected an integer >= 0 (got %s)", i,
                cJSON_IsNumber(c) ? "a negative or fractional number" : ipcc_scene_json_type_name(c));
    }
    int *v = malloc((size_t)count * sizeof *v);
    if (!v) return ipcc_scene_fail_at(p, IPCC_ERR_NO_MEMORY, sub, "out of memory");
    i = 0;
    for (const cJSON *c = item->child; c; c = c->next, i++)
        v[i] = (int)c->valuedouble;
    *n = count;
    *out = v;
    return IPCC_OK;
}

// "stop": {"axis": "y", "measure": "min", "vertices": [first, count],
//          "below": v | "above": v, "then": "hold" | "release"}.
ipcc_status ipcc_scene_get_stop(const parser *p, const cJSON *obj, const char *path, ipcc_stop_trigger *s) {
    static const char *const keys[] = {"axis", "measure", "vertices", "below", "above", "then", NULL};
    static const char *const axes[] = {"x", "y", "z", NULL};
    static const char *const measures[] = {"min", "max", NULL};
    static const char *const thens[] = {"hold", "release", NULL};
    memset(s, 0, sizeof *s);
    s->axis = -1;
    const cJSON *item = ipcc_scene_get(obj, "stop");
    if (!item) return IPCC_OK;
    char sub[PATH_LEN], leaf[PATH_LEN];
    ipcc_scene_key_path(sub, path, "stop");
    ipcc_status st = ipcc_scene_check_object(p, item, sub, keys);
    if (st != IPCC_OK) return st;
    static const char *const required[] = {"axis", "measure", "vertices", NULL};
    for (int i = 0; required[i]; i++)
        if (!ipcc_scene_get(item, required[i]))
            return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub, "missing required key \"%s\"",
                                      required[i]);
    const char *axis = NULL, *measure = NULL, *then = NULL;
    if ((st = ipcc_scene_get_string(p, item, sub, "axis", &axis)) != IPCC_OK) return st;
    int a = 0;
    while (axes[a] && strcmp(axes[a], axis) != 0)
        a++;
    ipcc_scene_key_path(leaf, sub, "axis");
    if (!axes[a]) return ipcc_scene_fail_choice(p, leaf, "axis", axis, axes);
    if ((st = ipcc_scene_get_string(p, item, sub, "measure", &measure)) != IPCC_OK) return st;
    ipcc_scene_key_path(leaf, sub, "measure");
    if (strcmp(measure, "min") != 0 && strcmp(measure, "max") != 0)
        return ipcc_scene_fail_choice(p, leaf, "measure", measure, measures);
    if ((st = ipcc_scene_get_string(p, item, sub, "then", &then)) != IPCC_OK) return st;
    ipcc_scene_key_path(leaf, sub, "then");
    if (then && strcmp(then, "hold") != 0 && strcmp(then, "release") != 0)
        return ipcc_scene_fail_choice(p, leaf, "action", then, thens);

    const cJSON *range = ipcc_scene_get(item, "vertices");
    ipcc_scene_key_path(leaf, sub, "vertices");
    if (!cJSON_IsArray(range) || cJSON_GetArraySize(range) != 2 ||
        !ipcc_scene_is_int_value(range->child, 0) || !ipcc_scene_is_int_value(range->child->next, 1))
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, leaf,
                                  "expected [first, count]: a world vertex index >= 0 and a count >= 1");
    double first = range->child->valuedouble, count = range->child->next->valuedouble;
    if (first + count > 2147483647.0)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, leaf, "range too large");

    const cJSON *below = ipcc_scene_get(item, "below"), *above = ipcc_scene_get(item, "above");
    if (below && above)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "\"below\" and \"above\" cannot both be given (one threshold per stop)");
    if (!below && !above)
        return ipcc_scene_fail_at(p, IPCC_ERR_INVALID_ARGUMENT, sub,
                                  "missing the threshold: give \"below\" or \"above\"");
    double value = 0;
    if ((st = ipcc_scene_get_number(p, item, sub, below ? "below" : "above", ANY, &value)) != IPCC_OK)
        return st;

    s->axis = a;
    s->first_vertex = (int)first;
    s->num_vertices = (int)count;
    s->measure_max = strcmp(measure, "max") == 0;
    s->above = above != NULL;
    s->value = value;
    s->release = then && strcmp(then, "release") == 0;
    return IPCC_OK;
}

bool ipcc_scene_has_extension(const char *path, const char *ext) {
    size_t n = strlen(path), m = strlen(ext);
    if (n < m + 1 || path[n - m - 1] != '.') return false;
    for (size_t i = 0; i < m; i++)
        if (tolower((unsigned char)path[n - m + i]) != ext[i]) return false;
    return true;
}
