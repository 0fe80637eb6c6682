// The keywords of the original IPC simulator's scene scripts (`.txt`): IPC's
// defaults, one handler per keyword that writes what it reads into the
// ipcc_ipc_script record, the keyword table, and the main loop over the
// statements. Nothing is loaded or resolved here (scene_ipc.c assembles the
// scene); the tokens come from the lexer (ipc_script_lexer.c, which lists
// the lexical rules of docs/ipc-script-format.md §2 and where each is
// implemented), and ipc_script.c ties the two. The format, with IPC's exact
// interpretation, is docs/ipc-script-format.md; section numbers below refer
// to it.
//
// Keywords (§3): the defaults are table 3.1 (set by
// ipcc_ipc_script_set_defaults() before reading); shapes, `shape` and
// `shapeMatrix` are §3.2, `size`/`rotateModel` §3.3, `ground`/`halfSpace`
// §3.4, `meshCO` §3.5, the contact and solver keywords §3.6, material and
// integrator §3.7, `script` §3.8, output and viewer keywords §3.9. Values are
// stored as read, except the clamps IPC applies while parsing (`dampingStiff`
// >= 0, `dampingRatio` in [0, 1], `selfFric` >= 0, `playBackSpeed` <= 0 -> 1).
// tuning[i], i < 6, always holds the effective value: a `tuning K` with K < 6
// leaves the built-in defaults in the entries it does not give (§3.6). `dHat`
// and `epsv` write entries [1],[2] and [4],[5]; where IPC would write past a
// list that a short `tuning` left (undefined behaviour, §3.6) ipcc extends
// the list with the defaults first, so num_tuning grows to 3 or 6.
//
// Keywords that are read but have no effect in ipcc (viewer-only ones, the
// CCD, linear-solver and QP/SQP options, `appendStr`, `disableCout`,
// `kappaMinMultiplier`, skipped sections) are recorded in `notes` and logged
// at debug level as "<name>:<line>: '<kw>' ignored (<reason>)", so `--verbose`
// lists them. `warmStart k` with k != 0 is noted too, and logged as a
// warning: ipcc chooses a step's start itself (world_step.c, warm_start).
//
// Failure modes (IPCC_ERR_PARSE unless noted; every message starts with
// "<name>:<line>: ", then mostly "<keyword>: "): a missing, malformed or non-finite number;
// a negative or zero time step; a count K out of range (negative, more than
// 10^6 shapes, more than 16 tuning or script values, `tol 0`, which IPC would
// index as an empty list); a `shapes` block, `tol` or `tuning` list cut short
// by the end of the file; a missing word (path, name); `constraintSolver
// QP`/`SQP`; in strict mode an unknown keyword, shape extra or option word.
// IPCC_ERR_NO_MEMORY when an allocation fails. Every allocation hangs off the
// script as soon as it is made, so ipcc_ipc_script_destroy() releases a partial
// script and no error path leaks.
#include "scene/ipc/ipc_script_keywords.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_SHAPES = 1000000,   // shapes in a script (all blocks and copies together)
    MAX_TOL = 1000000,      // values of `tol K`
    MAX_TUNING = 16,        // values of `tuning K` (ipcc_ipc_script.tuning)
    MAX_SCRIPT_PARAMS = 16, // values of `script name K ...`
};

// tuning[0..5] when `tuning` does not give them (docs/ipc-script-format.md §3.6).
static const double default_tuning[6] = {0, 1e-3, 1e-3, 1e-9, 1e-3, 1e-3};

// ---------------------------------------------------------------------------
// Parser state.

typedef struct parser {
    ipcc_ipc_lexer *lx; // the text, the current line, the name and keyword for messages
    bool strict;
    ipcc_ipc_script *s;
    int cap_shapes, cap_half_spaces, cap_mesh_cos, cap_notes, cap_unknown;
} parser;

static ipcc_status dup_word(const parser *p, const char *word, char **out) {
    char *d = strdup(word);
    if (!d) return ipcc_ipc_lexer_no_memory(p->lx);
    free(*out);
    *out = d;
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Notes, unknown keywords and list growth.

static ipcc_status add_note_to(parser *p, ipcc_ipc_script_note **list, int *count, int *cap, int line,
                               const char *keyword) {
    if (ipcc_reserve((void **)list, cap, *count + 1, sizeof **list)) return ipcc_ipc_lexer_no_memory(p->lx);
    ipcc_ipc_script_note *n = &(*list)[(*count)++];
    n->line = line;
    snprintf(n->keyword, sizeof n->keyword, "%s", keyword);
    return IPCC_OK;
}

// A keyword read without effect: noted and logged for --verbose.
static ipcc_status note_ignored(parser *p, int line, const char *keyword, const char *reason) {
    ipcc_log(IPCC_LOG_DEBUG, "%s:%d: '%s' ignored (%s)", p->lx->name, line, keyword, reason);
    return add_note_to(p, &p->s->notes, &p->s->num_notes, &p->cap_notes, line, keyword);
}

static ipcc_status unknown_keyword(parser *p) {
    const char *kw = p->lx->tok[0];
    if (p->strict) return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "unknown keyword '%.60s'", kw);
    ipcc_log(IPCC_LOG_WARNING, "%s:%d: unknown keyword '%.60s' (ignored)", p->lx->name, p->lx->line, kw);
    return add_note_to(p, &p->s->unknown, &p->s->num_unknown, &p->cap_unknown, p->lx->line, kw);
}

// An option word IPC does not know (`energy`, `timeIntegration`,
// `constraintSolver`): IPC falls back to `fallback`; strict mode rejects it.
static ipcc_status unknown_option(const parser *p, const char *what, const char *word, const char *expected,
                                  const char *fallback) {
    if (p->strict)
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "%s: unknown %s '%.60s' (expected %s)", p->lx->kw,
                                   what, word, expected);
    ipcc_log(IPCC_LOG_WARNING, "%s:%d: %s: unknown %s '%.60s' (expected %s); using %s", p->lx->name,
             p->lx->line, p->lx->kw, what, word, expected, fallback);
    return IPCC_OK;
}

// One more element of an array whose capacity is implicit: the smallest power
// of two >= count (so it is full exactly when count is 0 or a power of two).
static int grow_implicit(void **buf, int count, size_t size) {
    if (count > 0 && (count & (count - 1)) != 0) return 0;
    if (count > INT_MAX / 2) return -1;
    void *b = realloc(*buf, (size_t)(count ? 2 * count : 1) * size);
    if (!b) return -1;
    *buf = b;
    return 0;
}

// ---------------------------------------------------------------------------
// Shapes (docs/ipc-script-format.md §3.2).

// Appends a zeroed shape with identity transform; its index in *index.
static ipcc_status new_shape(parser *p, const char *path, int line, int *index) {
    ipcc_ipc_script *s = p->s;
    if (s->num_shapes >= MAX_SHAPES)
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "%s: more than %d shapes", p->lx->kw, MAX_SHAPES);
    if (ipcc_reserve((void **)&s->shapes, &p->cap_shapes, s->num_shapes + 1, sizeof *s->shapes))
        return ipcc_ipc_lexer_no_memory(p->lx);
    ipcc_ipc_script_shape *sh = &s->shapes[s->num_shapes];
    memset(sh, 0, sizeof *sh);
    sh->scale[0] = sh->scale[1] = sh->scale[2] = 1;
    sh->line = line;
    sh->path = strdup(path);
    if (!sh->path) return ipcc_ipc_lexer_no_memory(p->lx);
    *index = s->num_shapes++;
    return IPCC_OK;
}

// The nine numbers `tx ty tz rx ry rz sx sy sz` at tokens 1..9.
static ipcc_status get_transform(const parser *p, double t[3], double r[3], double sc[3]) {
    ipcc_status st = ipcc_ipc_lexer_vec3(p->lx, 1, "translation", t);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_vec3(p->lx, 4, "rotation", r);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_vec3(p->lx, 7, "scale", sc);
    return st;
}

static ipcc_status unknown_extra(parser *p, const char *t) {
    if (p->strict)
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "%s: unknown extra '%.60s' in a shape line",
                                   p->lx->kw, t);
    ipcc_log(IPCC_LOG_WARNING, "%s:%d: %s: unknown extra '%.60s' in a shape line (ignored)", p->lx->name,
             p->lx->line, p->lx->kw, t);
    return add_note_to(p, &p->s->unknown, &p->s->num_unknown, &p->cap_unknown, p->lx->line, t);
}

// `material rho E nu` at token *i (any shape line).
static ipcc_status parse_material(parser *p, ipcc_ipc_script_shape *sh, int *i) {
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, *i + 1, "material density", &sh->density);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, *i + 2, "material Young's modulus", &sh->youngs);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, *i + 3, "material Poisson ratio", &sh->poisson);
    sh->has_material = true;
    *i += 4;
    return st;
}

// `DBC a b v w [t0 [t1]]` or `NBC a b f [t0 [t1]]` at token *i. t0 and t1
// are taken only when the next token parses as a number.
static ipcc_status parse_group(parser *p, ipcc_ipc_script_shape *sh, bool dirichlet, int *i) {
    ipcc_ipc_script_group **list = dirichlet ? &sh->dbc : &sh->nbc;
    int *count = dirichlet ? &sh->num_dbc : &sh->num_nbc;
    if (grow_implicit((void **)list, *count, sizeof **list)) return ipcc_ipc_lexer_no_memory(p->lx);
    ipcc_ipc_script_group *g = &(*list)[(*count)++];
    memset(g, 0, sizeof *g);
    g->end = INFINITY;
    g->line = p->lx->line;
    int k = *i + 1;
    ipcc_status st = ipcc_ipc_lexer_vec3(p->lx, k, dirichlet ? "DBC box min" : "NBC box min", g->box_min);
    if (st == IPCC_OK)
        st = ipcc_ipc_lexer_vec3(p->lx, k + 3, dirichlet ? "DBC box max" : "NBC box max", g->box_max);
    if (st == IPCC_OK)
        st = ipcc_ipc_lexer_vec3(p->lx, k + 6, dirichlet ? "DBC velocity" : "NBC acceleration", g->value);
    k += 9;
    if (st == IPCC_OK && dirichlet) {
        st = ipcc_ipc_lexer_vec3(p->lx, k, "DBC angular velocity", g->angular);
        k += 3;
    }
    if (st == IPCC_OK && k < p->lx->num_tok && ipcc_ipc_lexer_is_number(p->lx->tok[k]))
        st = ipcc_ipc_lexer_to_number(p->lx, p->lx->tok[k++], "start time t0", &g->start);
    if (st == IPCC_OK && k < p->lx->num_tok && ipcc_ipc_lexer_is_number(p->lx->tok[k]))
        st = ipcc_ipc_lexer_to_number(p->lx, p->lx->tok[k++], "end time t1", &g->end);
    *i = k;
    return st;
}

// The extra at token *i of a `shapes` line; advances *i past it.
static ipcc_status parse_extra(parser *p, ipcc_ipc_script_shape *sh, int *i) {
    const char *t = p->lx->tok[*i];
    ipcc_status st = IPCC_OK;
    if (strcmp(t, "material") == 0) return parse_material(p, sh, i);
    if (strcmp(t, "DBC") == 0) return parse_group(p, sh, true, i);
    if (strcmp(t, "NBC") == 0) return parse_group(p, sh, false, i);
    if (strcmp(t, "initVel") == 0) {
        st = ipcc_ipc_lexer_vec3(p->lx, *i + 1, "initVel velocity", sh->init_velocity);
        if (st == IPCC_OK)
            st = ipcc_ipc_lexer_vec3(p->lx, *i + 4, "initVel angular velocity", sh->init_angular);
        sh->has_init_vel = true;
        *i += 7;
    } else if (strcmp(t, "linearVelocity") == 0) {
        st = ipcc_ipc_lexer_vec3(p->lx, *i + 1, "linearVelocity", sh->linear_velocity);
        sh->has_linear_velocity = true;
        *i += 4;
    } else if (strcmp(t, "angularVelocity") == 0) {
        st = ipcc_ipc_lexer_vec3(p->lx, *i + 1, "angularVelocity", sh->angular_velocity);
        sh->has_angular_velocity = true;
        *i += 4;
    } else if (strcmp(t, "meshSeq") == 0) {
        const char *folder;
        st = ipcc_ipc_lexer_word(p->lx, *i + 1, "meshSeq folder", &folder);
        if (st == IPCC_OK) st = dup_word(p, folder, &sh->mesh_seq);
        *i += 2;
    } else {
        st = unknown_extra(p, t);
        *i += 1;
    }
    return st;
}

// One shape line of a `shapes` block (the current line) with its
// continuation lines (§2.6, §2.7).
static ipcc_status parse_shape_line(parser *p) {
    ipcc_ipc_lexer *lx = p->lx;
    int index;
    ipcc_status st = new_shape(p, lx->tok[0], lx->line, &index);
    if (st != IPCC_OK) return st;
    ipcc_ipc_script_shape *sh = &p->s->shapes[index]; // stable: no shape is added below
    st = get_transform(p, sh->translation, sh->rotation, sh->scale);
    for (int i = 10; st == IPCC_OK;) {
        bool more = false;
        while (st == IPCC_OK && i < lx->num_tok) {
            const char *t = lx->tok[i];
            if (strcmp(t, "\\") == 0) {
                more = true;
                break;
            }
            if (t[0] == '#') { // the rest of this line is a comment, but a `\` in it still continues
                for (int j = i + 1; j < lx->num_tok; j++)
                    more = more || strcmp(lx->tok[j], "\\") == 0;
                break;
            }
            st = parse_extra(p, sh, &i);
        }
        if (st != IPCC_OK || !more) break;
        int r = ipcc_ipc_lexer_next_line(lx);
        if (r < 0) return ipcc_ipc_lexer_no_memory(p->lx);
        if (r == 0) break;
        i = 0;
    }
    return st;
}

// shapes <word> <K>, then K shape lines (blank and `#` lines not counted).
static ipcc_status kw_shapes(parser *p) {
    ipcc_ipc_lexer *lx = p->lx;
    const char *word;
    int count;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "word (input)", &word);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_int(p->lx, 2, "shape count K", 0, MAX_SHAPES, &count);
    if (st != IPCC_OK) return st;
    int line = lx->line;
    for (int n = 0; n < count;) {
        int r = ipcc_ipc_lexer_next_line(lx);
        if (r < 0) return ipcc_ipc_lexer_no_memory(p->lx);
        if (r == 0) {
            lx->line = line;
            return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE,
                                       "shapes: the block ends after %d of %d shapes (got end of file)", n,
                                       count);
        }
        if (lx->num_tok == 0 || lx->tok[0][0] == '#') continue;
        st = parse_shape_line(p);
        if (st != IPCC_OK) return st;
        n++;
    }
    return IPCC_OK;
}

// shape <word> <path>: one shape, identity transform, no extras.
static ipcc_status kw_shape(parser *p) {
    const char *word, *path;
    int index;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "word (input)", &word);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_word(p->lx, 2, "mesh path", &path);
    if (st == IPCC_OK) st = new_shape(p, path, p->lx->line, &index);
    return st;
}

// shapeMatrix <word> nx ny nz [px py pz], then one line
// `<path> dx dy dz rx ry rz sx sy sz [material rho E nu]`: nx*ny*nz copies,
// x outermost, copy (i,j,k) at p + (i dx, j dy, k dz). IPC reads missing
// px py pz into uninitialised variables; the intent, 0, is used.
static ipcc_status kw_shape_matrix(parser *p) {
    ipcc_ipc_lexer *lx = p->lx;
    const char *word;
    int n[3];
    double origin[3] = {0, 0, 0};
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "word (input)", &word);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_int(p->lx, 2, "count nx", 0, MAX_SHAPES, &n[0]);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_int(p->lx, 3, "count ny", 0, MAX_SHAPES, &n[1]);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_int(p->lx, 4, "count nz", 0, MAX_SHAPES, &n[2]);
    if (st == IPCC_OK && lx->num_tok > 5 && ipcc_ipc_lexer_is_number(lx->tok[5]))
        st = ipcc_ipc_lexer_vec3(p->lx, 5, "position", origin);
    if (st != IPCC_OK) return st;
    long long total = (long long)n[0] * n[1] * n[2];
    if (total > MAX_SHAPES - p->s->num_shapes)
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "shapeMatrix: %lld copies make more than %d shapes",
                                   total, MAX_SHAPES);
    int line = lx->line, r = ipcc_ipc_lexer_next_line(lx);
    if (r < 0) return ipcc_ipc_lexer_no_memory(p->lx);
    if (r == 0) {
        lx->line = line;
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE,
                                   "shapeMatrix: missing the shape line (got end of file)");
    }
    if (lx->num_tok == 0 || lx->tok[0][0] == '#')
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "shapeMatrix: missing the shape line (got %s)",
                                   lx->num_tok ? "a comment line" : "an empty line");
    ipcc_ipc_script_shape proto = {.line = lx->line}; // the template; owns nothing
    st = get_transform(p, proto.translation, proto.rotation, proto.scale);
    for (int i = 10; st == IPCC_OK && i < lx->num_tok;) {
        if (strcmp(lx->tok[i], "material") == 0) {
            st = parse_material(p, &proto, &i);
        } else {
            st = unknown_extra(p, lx->tok[i]);
            i++;
        }
    }
    for (int i = 0; st == IPCC_OK && i < n[0]; i++)
        for (int j = 0; st == IPCC_OK && j < n[1]; j++)
            for (int k = 0; st == IPCC_OK && k < n[2]; k++) {
                int index;
                st = new_shape(p, lx->tok[0], proto.line, &index);
                if (st != IPCC_OK) break;
                ipcc_ipc_script_shape *sh = &p->s->shapes[index];
                char *path = sh->path;
                *sh = proto;
                sh->path = path;
                sh->translation[0] = origin[0] + i * proto.translation[0];
                sh->translation[1] = origin[1] + j * proto.translation[1];
                sh->translation[2] = origin[2] + k * proto.translation[2];
                sh->from_matrix = true;
            }
    return st;
}

// ---------------------------------------------------------------------------
// Obstacles (docs/ipc-script-format.md §3.4, §3.5).

static ipcc_status add_half_space(parser *p, const ipcc_ipc_script_half_space *h) {
    ipcc_ipc_script *s = p->s;
    if (ipcc_reserve((void **)&s->half_spaces, &p->cap_half_spaces, s->num_half_spaces + 1,
                     sizeof *s->half_spaces))
        return ipcc_ipc_lexer_no_memory(p->lx);
    s->half_spaces[s->num_half_spaces++] = *h;
    return IPCC_OK;
}

// ground mu y: normal +Y through (0, y, 0); friction first.
static ipcc_status kw_ground(parser *p) {
    ipcc_ipc_script_half_space h = {.normal = {0, 1, 0}, .line = p->lx->line};
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "friction", &h.friction);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 2, "height", &h.origin[1]);
    if (st == IPCC_OK) st = add_half_space(p, &h);
    return st;
}

// halfSpace ox oy oz nx ny nz stiffness mu (the stiffness is ignored by IPC).
static ipcc_status kw_half_space(parser *p) {
    ipcc_ipc_script_half_space h = {.line = p->lx->line};
    double stiffness;
    ipcc_status st = ipcc_ipc_lexer_vec3(p->lx, 1, "origin", h.origin);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_vec3(p->lx, 4, "normal", h.normal);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 7, "stiffness", &stiffness);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 8, "friction", &h.friction);
    if (st == IPCC_OK) st = add_half_space(p, &h);
    return st;
}

// meshCO path x y z scale stiffness mu [rotate rx ry rz].
static ipcc_status kw_mesh_co(parser *p) {
    ipcc_ipc_script_mesh_co m = {.line = p->lx->line};
    const char *path;
    double stiffness;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "mesh path", &path);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_vec3(p->lx, 2, "position", m.position);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 5, "scale", &m.scale);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 6, "stiffness", &stiffness);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 7, "friction", &m.friction);
    if (st == IPCC_OK && p->lx->num_tok > 8 && strcmp(p->lx->tok[8], "rotate") == 0)
        st = ipcc_ipc_lexer_vec3(p->lx, 9, "rotate", m.rotation);
    if (st != IPCC_OK) return st;
    ipcc_ipc_script *s = p->s;
    if (ipcc_reserve((void **)&s->mesh_cos, &p->cap_mesh_cos, s->num_mesh_cos + 1, sizeof *s->mesh_cos))
        return ipcc_ipc_lexer_no_memory(p->lx);
    m.path = strdup(path);
    if (!m.path) return ipcc_ipc_lexer_no_memory(p->lx);
    s->mesh_cos[s->num_mesh_cos++] = m;
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Scalar keywords (docs/ipc-script-format.md §3.1, §3.3, §3.6-§3.9).

static ipcc_status kw_time(parser *p) {
    double t, h;
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "duration T", &t);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 2, "time step h", &h);
    if (st != IPCC_OK) return st;
    if (t < 0)
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "time: duration T must be >= 0 (got '%.60s')",
                                   p->lx->tok[1]);
    if (h <= 0)
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE, "time: time step h must be > 0 (got '%.60s')",
                                   p->lx->tok[2]);
    p->s->duration = t;
    p->s->time_step = h;
    return IPCC_OK;
}

static ipcc_status kw_density(parser *p) {
    return ipcc_ipc_lexer_number(p->lx, 1, "density", &p->s->density);
}

static ipcc_status kw_stiffness(parser *p) {
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "Young's modulus E", &p->s->youngs);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 2, "Poisson ratio nu", &p->s->poisson);
    return st;
}

static ipcc_status kw_energy(parser *p) {
    const char *w;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "energy model", &w);
    if (st != IPCC_OK) return st;
    p->s->fcr = strcmp(w, "FCR") == 0;
    if (!p->s->fcr && strcmp(w, "NH") != 0) return unknown_option(p, "energy model", w, "NH or FCR", "NH");
    return IPCC_OK;
}

// timeIntegration BE | NM [beta [gamma]] (each taken when it is a number).
static ipcc_status kw_time_integration(parser *p) {
    const char *w;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "integrator", &w);
    if (st != IPCC_OK) return st;
    p->s->newmark = strcmp(w, "NM") == 0;
    if (!p->s->newmark)
        return strcmp(w, "BE") == 0 ? IPCC_OK : unknown_option(p, "integrator", w, "BE or NM", "BE");
    if (p->lx->num_tok > 2 && ipcc_ipc_lexer_is_number(p->lx->tok[2]))
        st = ipcc_ipc_lexer_number(p->lx, 2, "Newmark beta", &p->s->newmark_beta);
    if (st == IPCC_OK && p->lx->num_tok > 3 && ipcc_ipc_lexer_is_number(p->lx->tok[3]))
        st = ipcc_ipc_lexer_number(p->lx, 3, "Newmark gamma", &p->s->newmark_gamma);
    return st;
}

static ipcc_status kw_damping_stiff(parser *p) {
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "stiffness damping", &p->s->damping_stiff);
    if (p->s->damping_stiff < 0) p->s->damping_stiff = 0;
    return st;
}

static ipcc_status kw_damping_ratio(parser *p) {
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "damping ratio", &p->s->damping_ratio);
    p->s->damping_ratio = fmin(fmax(p->s->damping_ratio, 0), 1);
    return st;
}

static ipcc_status kw_turn_off_gravity(parser *p) {
    p->s->gravity_off = true;
    return IPCC_OK;
}

static ipcc_status kw_size(parser *p) { return ipcc_ipc_lexer_number(p->lx, 1, "size", &p->s->size); }

static ipcc_status kw_rotate_model(parser *p) {
    ipcc_status st = ipcc_ipc_lexer_vec3(p->lx, 1, "axis", p->s->rotate_axis);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 4, "angle (degrees)", &p->s->rotate_degrees);
    return st;
}

// script name [K p1..pK]; meshSeqFromFile takes a folder before K.
static ipcc_status kw_script(parser *p) {
    ipcc_ipc_script *s = p->s;
    const char *name, *folder;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "script name", &name);
    if (st != IPCC_OK) return st;
    if (strlen(name) >= sizeof s->script)
        return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE,
                                   "script: name longer than %zu characters (got '%.60s')",
                                   sizeof s->script - 1, name);
    snprintf(s->script, sizeof s->script, "%s", name);
    s->script_line = p->lx->line;
    IPCC_FREE(s->script_folder);
    s->num_script_params = 0;
    int i = 2;
    if (strcmp(name, "meshSeqFromFile") == 0) {
        st = ipcc_ipc_lexer_word(p->lx, i++, "mesh sequence folder", &folder);
        if (st == IPCC_OK) st = dup_word(p, folder, &s->script_folder);
        if (st != IPCC_OK) return st;
    }
    if (i >= p->lx->num_tok || !ipcc_ipc_lexer_is_number(p->lx->tok[i])) return IPCC_OK;
    int count;
    st = ipcc_ipc_lexer_int(p->lx, i, "parameter count K", 0, MAX_SCRIPT_PARAMS, &count);
    for (int k = 0; st == IPCC_OK && k < count; k++) {
        char what[48];
        snprintf(what, sizeof what, "parameter %d of %d", k + 1, count);
        st = ipcc_ipc_lexer_number(p->lx, i + 1 + k, what, &s->script_params[k]);
    }
    if (st == IPCC_OK) s->num_script_params = count;
    return st;
}

static ipcc_status kw_self_collision_on(parser *p) {
    p->s->self_collision = true;
    return IPCC_OK;
}

static ipcc_status kw_self_collision_off(parser *p) {
    p->s->self_collision = false;
    return IPCC_OK;
}

static ipcc_status kw_self_fric(parser *p) {
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "friction", &p->s->self_friction);
    if (p->s->self_friction < 0) p->s->self_friction = 0;
    return st;
}

// Entries beyond num_tuning already hold the defaults; growing the count
// makes them part of the list (what IPC's out-of-bounds write intends).
static void extend_tuning(ipcc_ipc_script *s, int n) {
    if (s->num_tuning < n) s->num_tuning = n;
}

static ipcc_status kw_dhat(parser *p) {
    double r;
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "dHat", &r);
    if (st != IPCC_OK) return st;
    extend_tuning(p->s, 3);
    p->s->tuning[1] = p->s->tuning[2] = r;
    return IPCC_OK;
}

static ipcc_status kw_epsv(parser *p) {
    double r;
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "epsv", &r);
    if (st != IPCC_OK) return st;
    extend_tuning(p->s, 6);
    p->s->tuning[4] = p->s->tuning[5] = r;
    return IPCC_OK;
}

static ipcc_status kw_fric_iter_amt(parser *p) {
    return ipcc_ipc_lexer_int(p->lx, 1, "iteration count", INT_MIN, INT_MAX, &p->s->fric_iter_amt);
}

// The `count` values of `tol` or `tuning` from the next tokens of the file
// (§2.5); the keyword's line is the current line.
static ipcc_status read_values(parser *p, int count, double *out) {
    int line = p->lx->line;
    for (int k = 0; k < count; k++) {
        int r = ipcc_ipc_lexer_next_token(p->lx);
        if (r < 0) return ipcc_ipc_lexer_no_memory(p->lx);
        char what[48];
        snprintf(what, sizeof what, "value %d of %d", k + 1, count);
        if (r == 0) {
            p->lx->line = line;
            return ipcc_ipc_lexer_fail(p->lx, IPCC_ERR_PARSE,
                                       "%s: missing %s on the following lines (got end of file)", p->lx->kw,
                                       what);
        }
        ipcc_status st = ipcc_ipc_lexer_to_number(p->lx, p->lx->buf, what, &out[k]);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}

// tol K, then K values (IPC would index an empty list for K = 0).
static ipcc_status kw_tol(parser *p) {
    int count;
    ipcc_status st = ipcc_ipc_lexer_int(p->lx, 1, "value count K", 1, MAX_TOL, &count);
    if (st != IPCC_OK) return st;
    double *values = malloc((size_t)count * sizeof *values);
    if (!values) return ipcc_ipc_lexer_no_memory(p->lx);
    st = read_values(p, count, values);
    if (st != IPCC_OK) {
        free(values);
        return st;
    }
    free(p->s->tol);
    p->s->tol = values;
    p->s->num_tol = count;
    return IPCC_OK;
}

// tuning K, then K values: replaces the list; defaults fill [K, 6).
static ipcc_status kw_tuning(parser *p) {
    int count;
    double values[MAX_TUNING];
    ipcc_status st = ipcc_ipc_lexer_int(p->lx, 1, "value count K", 0, MAX_TUNING, &count);
    if (st == IPCC_OK) st = read_values(p, count, values);
    if (st != IPCC_OK) return st;
    ipcc_ipc_script *s = p->s;
    s->num_tuning = count;
    for (int i = 0; i < MAX_TUNING; i++)
        s->tuning[i] = i < count ? values[i] : i < 6 ? default_tuning[i] : 0;
    return IPCC_OK;
}

static ipcc_status kw_warm_start(parser *p) {
    ipcc_status st = ipcc_ipc_lexer_int(p->lx, 1, "mode", INT_MIN, INT_MAX, &p->s->warm_start);
    if (st != IPCC_OK || p->s->warm_start == 0) return st;
    ipcc_log(IPCC_LOG_WARNING,
             "%s:%d: 'warmStart %d' ignored: ipcc starts a step from x_n + h v_n when safe and lower in "
             "energy, else from x_n",
             p->lx->name, p->lx->line, p->s->warm_start);
    return add_note_to(p, &p->s->notes, &p->s->num_notes, &p->cap_notes, p->lx->line, "warmStart");
}

static bool names_active_solver(const char *w) {
    return strcmp(w, "interiorPoint") == 0 || strcmp(w, "IP") == 0;
}

static ipcc_status kw_constraint_solver(parser *p) {
    const char *w;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "solver", &w);
    if (st != IPCC_OK || names_active_solver(w)) return st;
    if (strcmp(w, "QP") == 0 || strcmp(w, "SQP") == 0)
        return ipcc_ipc_lexer_fail(
            p->lx, IPCC_ERR_PARSE,
            "constraintSolver: ipcc implements only the interiorPoint solver (got '%s')", w);
    return unknown_option(p, "solver", w, "interiorPoint or IP", "interiorPoint");
}

static ipcc_status kw_handle_ratio(parser *p) {
    return ipcc_ipc_lexer_number(p->lx, 1, "handle ratio", &p->s->handle_ratio);
}

static ipcc_status time_range(parser *p, double range[2]) {
    double r[2];
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "start time t0", &r[0]);
    if (st == IPCC_OK) st = ipcc_ipc_lexer_number(p->lx, 2, "end time t1", &r[1]);
    if (st == IPCC_OK) memcpy(range, r, sizeof r);
    return st;
}

static ipcc_status kw_dbc_time_range(parser *p) { return time_range(p, p->s->dbc_time_range); }
static ipcc_status kw_nbc_time_range(parser *p) { return time_range(p, p->s->nbc_time_range); }

static ipcc_status kw_kappa_min_multiplier(parser *p) {
    return ipcc_ipc_lexer_number(p->lx, 1, "multiplier", &p->s->kappa_min_multiplier);
}

static ipcc_status kw_use_abs_parameters(parser *p) {
    p->s->use_abs_parameters = true;
    return IPCC_OK;
}

static ipcc_status kw_word(parser *p) {
    const char *w;
    return ipcc_ipc_lexer_word(p->lx, 1, "value", &w);
}

static ipcc_status kw_number(parser *p) {
    double v;
    return ipcc_ipc_lexer_number(p->lx, 1, "value", &v);
}

static ipcc_status kw_playback_speed(parser *p) {
    ipcc_status st = ipcc_ipc_lexer_number(p->lx, 1, "speed", &p->s->playback_speed);
    if (p->s->playback_speed <= 0) p->s->playback_speed = 1;
    return st;
}

static ipcc_status kw_restart(parser *p) {
    const char *w;
    ipcc_status st = ipcc_ipc_lexer_word(p->lx, 1, "status file", &w);
    if (st == IPCC_OK) st = dup_word(p, w, &p->s->restart);
    return st;
}

// ---------------------------------------------------------------------------
// The keyword table and the main loop.

typedef ipcc_status keyword_fn(parser *p);

// `parse` (NULL: nothing is read) runs first; a non-NULL `ignored` then
// records the keyword in notes with that reason.
static const struct keyword {
    const char *name;
    keyword_fn *parse;
    const char *ignored;
} keywords[] = {
    {"shapes", kw_shapes, NULL},
    {"shape", kw_shape, NULL},
    {"shapeMatrix", kw_shape_matrix, NULL},
    {"ground", kw_ground, NULL},
    {"halfSpace", kw_half_space, NULL},
    {"meshCO", kw_mesh_co, NULL},
    {"time", kw_time, NULL},
    {"density", kw_density, NULL},
    {"stiffness", kw_stiffness, NULL},
    {"energy", kw_energy, NULL},
    {"timeIntegration", kw_time_integration, NULL},
    {"dampingStiff", kw_damping_stiff, NULL},
    {"dampingRatio", kw_damping_ratio, NULL},
    {"turnOffGravity", kw_turn_off_gravity, NULL},
    {"size", kw_size, NULL},
    {"rotateModel", kw_rotate_model, NULL},
    {"script", kw_script, NULL},
    {"selfCollisionOn", kw_self_collision_on, NULL},
    {"selfCollisionOff", kw_self_collision_off, NULL},
    {"selfFric", kw_self_fric, NULL},
    {"dHat", kw_dhat, NULL},
    {"epsv", kw_epsv, NULL},
    {"fricIterAmt", kw_fric_iter_amt, NULL},
    {"tol", kw_tol, NULL},
    {"tuning", kw_tuning, NULL},
    {"warmStart", kw_warm_start, NULL},
    {"constraintSolver", kw_constraint_solver, NULL},
    {"handleRatio", kw_handle_ratio, NULL},
    {"DBCTimeRange", kw_dbc_time_range, NULL},
    {"NBCTimeRange", kw_nbc_time_range, NULL},
    {"useAbsParameters", kw_use_abs_parameters, NULL},
    {"restart", kw_restart, NULL},
    {"kappaMinMultiplier", kw_kappa_min_multiplier, "no effect in ipcc"},
    {"minBarrierStiffnessScale", kw_kappa_min_multiplier, "no effect in ipcc"},
    {"CCDMethod", kw_word, "ipcc has one CCD method"},
    {"CCDTolerance", kw_number, "ipcc has one CCD method"},
    {"linearSolver", kw_word, "ipcc has one linear solver"},
    {"linSysSolver", kw_word, "ipcc has one linear solver"},
    {"playBackSpeed", kw_playback_speed, "viewer playback speed"},
    {"view", NULL, "viewer only"},
    {"zoom", NULL, "viewer only"},
    {"cameraTracking", NULL, "viewer only"},
    {"appendStr", NULL, "IPC output folder name"},
    {"disableCout", NULL, "IPC console output"},
    {"constraintType", NULL, "QP/SQP solver only"},
    {"constraintOffset", NULL, "QP/SQP solver only"},
    {"QPSolver", NULL, "QP/SQP solver only"},
    {"noActiveSetConvergence", NULL, "QP/SQP solver only"},
    {"useActiveSetConvergence", NULL, "QP/SQP solver only"},
};

// section w1 [w2 ...] (§2.10).
static ipcc_status parse_section(parser *p) {
    ipcc_ipc_lexer *lx = p->lx;
    for (int i = 1; i < lx->num_tok; i++)
        if (strcmp(lx->tok[i], "end") == 0 || names_active_solver(lx->tok[i])) return IPCC_OK;
    int first = lx->line, last = first, r = 0;
    bool ended = false;
    while (!ended && (r = ipcc_ipc_lexer_next_line(lx)) > 0) {
        last = lx->line;
        ended = lx->num_tok >= 2 && strcmp(lx->tok[0], "section") == 0 && strcmp(lx->tok[1], "end") == 0;
    }
    if (r < 0) return ipcc_ipc_lexer_no_memory(p->lx);
    char reason[128];
    snprintf(reason, sizeof reason, "lines %d-%d skipped%s: not a section for the interiorPoint solver",
             first, last, ended ? "" : " to the end of the file");
    return note_ignored(p, first, "section", reason);
}

static ipcc_status parse_statement(parser *p) {
    const char *kw = p->lx->tok[0];
    if (strcmp(kw, "section") == 0) return parse_section(p);
    for (size_t k = 0; k < sizeof keywords / sizeof *keywords; k++) {
        const struct keyword *e = &keywords[k];
        if (strcmp(kw, e->name) != 0) continue;
        int line = p->lx->line; // handlers may read further lines
        p->lx->kw = e->name;
        ipcc_status st = e->parse ? e->parse(p) : IPCC_OK;
        if (st == IPCC_OK && e->ignored) st = note_ignored(p, line, e->name, e->ignored);
        return st;
    }
    return unknown_keyword(p);
}

// The main loop: every statement; blank and `#` lines are skipped (§2.2).
ipcc_status ipcc_ipc_script_read_keywords(ipcc_ipc_lexer *lx, bool strict, ipcc_ipc_script *s) {
    parser p = {.lx = lx, .strict = strict, .s = s};
    for (;;) {
        int r = ipcc_ipc_lexer_next_line(lx);
        if (r < 0) return ipcc_ipc_lexer_no_memory(lx);
        if (r == 0) return IPCC_OK;
        if (lx->num_tok == 0 || lx->tok[0][0] == '#') continue;
        ipcc_status st = parse_statement(&p);
        if (st != IPCC_OK) return st;
    }
}

// IPC's defaults (docs/ipc-script-format.md table 3.1).
void ipcc_ipc_script_set_defaults(ipcc_ipc_script *s) {
    s->duration = 5;
    s->time_step = 0.025;
    s->density = 1000;
    s->youngs = 1e5;
    s->poisson = 0.4;
    s->newmark_beta = 0.25;
    s->newmark_gamma = 0.5;
    s->size = -1;
    snprintf(s->script, sizeof s->script, "null");
    s->self_collision = true;
    s->num_tuning = 6;
    memcpy(s->tuning, default_tuning, sizeof default_tuning);
    s->fric_iter_amt = 1;
    s->handle_ratio = 0.01;
    s->dbc_time_range[1] = s->nbc_time_range[1] = INFINITY;
    s->kappa_min_multiplier = 1e11;
    s->playback_speed = 1;
}
