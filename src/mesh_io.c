// Tet mesh readers: Gmsh .msh (2.2 and 4.1, ASCII and binary) and TetGen
// .node/.ele.
//
// The whole file is read into a NUL-terminated buffer and parsed with a
// cursor that counts lines, so every error names "file:line" (ASCII) or
// "file: $Section (binary, byte N)" (binary). Records are read field by field:
// the first field of a record may be on a new line, the others must be on the
// same line, and the rest of the line is skipped (TetGen attributes and
// boundary markers, Gmsh parametric coordinates and extra element nodes).
//
// Gmsh. Only 4-node tetrahedra (element type 4) are kept; other elements are
// skipped (ASCII: by line; binary: by the node count of their type, so an
// unknown type in a binary file is an error). Unknown sections ($Entities,
// $PhysicalNames, $NodeData, the original IPC's $Surface, ...) are skipped up
// to their $End marker. Binary files carry an int 1 after the format line to
// detect the byte order; the other byte order is swapped on reading. In 4.1
// binary, tags and counts are unsigned integers of the header's data-size
// (4 or 8 bytes); in 2.2 binary they are 4-byte ints.
//
// Node tags may be sparse and in any order (4.1 writes them per entity):
// they are mapped to 0-based indices through a dense table when the tag range
// is compact, otherwise through a sorted table and binary search. Elements
// keep their raw node tags until all sections are read, so section order does
// not matter; an undefined tag is reported with the element's line.
//
// TetGen. Either path may be given; the sibling with the other extension is
// read too. Point numbers may start at 0 or 1 (or anywhere): they are tags.
// Tets with 10 nodes keep their 4 corners.
//
// Robustness: counts are checked against the bytes left in the file before
// anything is allocated (a count can not exceed what the remaining bytes can
// encode), every binary read is bounds-checked, and a missing $End marker is
// an error. Validated geometry (orientation, zero volume) is left to
// ipcc_mesh_create(), which gets the file's element numbers as tet_ids.
#include "ipcc/mesh.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core.h"

// ---------------------------------------------------------------------------
// Reader: file buffer, cursor, error messages.

typedef struct reader {
    const char *path;
    char *buf;           // file contents plus a terminating NUL
    size_t len;          // bytes in the file
    size_t pos;          // cursor
    long line;           // 1-based line of buf[pos] (meaningful in text parts)
    int comments;        // '#' starts a comment (TetGen)
    int binary;          // report byte offsets rather than lines
    int swap;            // binary data has the other byte order
    int size_bytes;      // Gmsh 4.1 binary size_t width
    const char *section; // current section, for binary messages
} reader;

typedef struct token {
    const char *s;
    size_t n;
} token;

// What the readers produce: raw tags, before mapping to indices.
typedef struct raw_mesh {
    long long *node_tags;
    double *coords;
    int num_nodes, cap_nodes;
    long long *tet_nodes; // 4 raw node tags per tet
    long *tet_ids;        // element number as the file gives it
    long long *tet_loc;   // line (ASCII) or byte offset (binary) of the tet
    int num_tets, cap_tets, cap_tet_nodes, cap_ids, cap_loc;
    const char *tet_file; // file the tets came from (TetGen: the .ele)
} raw_mesh;

static ipcc_status parse_error(const reader *r, const char *fmt, ...) IPCC_PRINTF(2, 3);

static ipcc_status parse_error(const reader *r, const char *fmt, ...) {
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->binary)
        return ipcc_fail(IPCC_ERR_PARSE, "%s: %s (binary, byte %zu): %s", r->path, r->section, r->pos, msg);
    return ipcc_fail(IPCC_ERR_PARSE, "%s:%ld: %s", r->path, r->line, msg);
}

static ipcc_status load_file(const char *path, reader *r) {
    memset(r, 0, sizeof *r);
    r->path = path;
    r->line = 1;
    r->section = "header";
    FILE *f = fopen(path, "rb");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - 1 - len, f);
        if (len < cap - 1) break;
        char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!bigger) IPCC_FREE(buf);
        buf = bigger;
        cap *= 2;
    }
    int failed = ferror(f);
    int err = errno;
    fclose(f);
    if (!buf) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory reading the file", path);
    if (failed) {
        free(buf);
        return ipcc_fail(IPCC_ERR_IO, "%s: read error: %s", path, strerror(err));
    }
    buf[len] = '\0';
    r->buf = buf;
    r->len = len;
    return IPCC_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Next whitespace-separated token; crosses newlines only if `cross`.
// Returns 0 at end of file (or of line when !cross).
static int next_token(reader *r, int cross, token *t) {
    while (r->pos < r->len) {
        char c = r->buf[r->pos];
        if (c == '\n') {
            if (!cross) return 0;
            r->line++;
            r->pos++;
        } else if (is_blank(c)) {
            r->pos++;
        } else if (c == '#' && r->comments) {
            while (r->pos < r->len && r->buf[r->pos] != '\n')
                r->pos++;
        } else {
            break;
        }
    }
    if (r->pos >= r->len) return 0;
    size_t start = r->pos;
    while (r->pos < r->len && r->buf[r->pos] != '\n' && !is_blank(r->buf[r->pos]) &&
           !(r->comments && r->buf[r->pos] == '#'))
        r->pos++;
    t->s = r->buf + start;
    t->n = r->pos - start;
    return 1;
}

// Moves the cursor to the '\n' ending the current line (or to the end).
static void skip_line(reader *r) {
    while (r->pos < r->len && r->buf[r->pos] != '\n')
        r->pos++;
}

// Moves past the '\n' ending the current line: the start of binary data.
static ipcc_status skip_past_newline(reader *r) {
    skip_line(r);
    if (r->pos >= r->len) return parse_error(r, "unexpected end of file (truncated?)");
    r->pos++;
    r->line++;
    return IPCC_OK;
}

static int token_is(token t, const char *s) { return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0; }

static ipcc_status need_token(reader *r, int cross, const char *what, token *t) {
    if (next_token(r, cross, t)) return IPCC_OK;
    if (r->pos >= r->len) return parse_error(r, "unexpected end of file, expected %s (truncated?)", what);
    return parse_error(r, "unexpected end of line, expected %s", what);
}

static ipcc_status bad_number(reader *r, token t, const char *what) {
    int n = t.n > 40 ? 40 : (int)t.n;
    if (t.s[0] == '$')
        return parse_error(r, "unexpected '%.*s', expected %s (section shorter than its count?)", n, t.s,
                           what);
    return parse_error(r, "bad number '%.*s', expected %s", n, t.s, what);
}

// Copies a token into tmp (NUL-terminated); 0 if it does not fit.
static int token_copy(token t, char *tmp, size_t cap) {
    if (t.n == 0 || t.n >= cap) return 0;
    memcpy(tmp, t.s, t.n);
    tmp[t.n] = '\0';
    return 1;
}

static ipcc_status read_ll(reader *r, int cross, const char *what, long long *v) {
    token t;
    ipcc_status s = need_token(r, cross, what, &t);
    if (s != IPCC_OK) return s;
    char tmp[64], *end;
    if (!token_copy(t, tmp, sizeof tmp)) return bad_number(r, t, what);
    errno = 0;
    *v = strtoll(tmp, &end, 10);
    if (errno || *end) return bad_number(r, t, what);
    return IPCC_OK;
}

static ipcc_status read_double(reader *r, int cross, const char *what, double *v) {
    token t;
    ipcc_status s = need_token(r, cross, what, &t);
    if (s != IPCC_OK) return s;
    char tmp[128], *end;
    if (!token_copy(t, tmp, sizeof tmp)) return bad_number(r, t, what);
    *v = strtod(tmp, &end);
    if (*end) return bad_number(r, t, what);
    // nan, inf, 1e999: named here with the line (binary files: by ipcc_mesh_create).
    if (!isfinite(*v)) return parse_error(r, "non-finite %s '%s'", what, tmp);
    return IPCC_OK;
}

// A number that may be missing at the end of the line (then 0).
static ipcc_status read_optional_ll(reader *r, const char *what, long long *v) {
    size_t pos = r->pos;
    token t;
    *v = 0;
    if (!next_token(r, 0, &t)) return IPCC_OK;
    r->pos = pos;
    return read_ll(r, 0, what, v);
}

// A count in [0, max] that the rest of the file can hold at `min_bytes` each.
static ipcc_status read_count(reader *r, int cross, const char *what, long long max, size_t min_bytes,
                              long long *v) {
    ipcc_status s = read_ll(r, cross, what, v);
    if (s != IPCC_OK) return s;
    if (*v < 0) return parse_error(r, "negative %s %lld", what, *v);
    if (*v > max || (unsigned long long)*v > (r->len - r->pos) / min_bytes + 1)
        return parse_error(r, "%s %lld is larger than the file can hold (truncated?)", what, *v);
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Binary reads. Callers check the bytes are there with bin_need() first.

static int bin_need(const reader *r, unsigned long long count, size_t size) {
    return count <= (r->len - r->pos) / size;
}

static void bin_get(reader *r, void *dst, size_t n) {
    unsigned char tmp[8];
    memcpy(tmp, r->buf + r->pos, n);
    r->pos += n;
    if (r->swap)
        for (size_t i = 0; i < n / 2; i++) {
            unsigned char c = tmp[i];
            tmp[i] = tmp[n - 1 - i];
            tmp[n - 1 - i] = c;
        }
    memcpy(dst, tmp, n);
}

static int32_t bin_int(reader *r) {
    int32_t v;
    bin_get(r, &v, 4);
    return v;
}

static double bin_double(reader *r) {
    double v;
    bin_get(r, &v, 8);
    return v;
}

// Gmsh 4.1 size_t of the header's data-size.
static unsigned long long bin_size(reader *r) {
    if (r->size_bytes == 4) {
        uint32_t v;
        bin_get(r, &v, 4);
        return v;
    }
    uint64_t v;
    bin_get(r, &v, 8);
    return v;
}

static ipcc_status bin_truncated(reader *r) { return parse_error(r, "unexpected end of file (truncated?)"); }

// ---------------------------------------------------------------------------
// Raw mesh building and tag mapping.

// Grows node storage to hold `want` nodes (tags and coordinates together).
static ipcc_status grow_nodes(reader *r, raw_mesh *m, int want) {
    if (want <= m->cap_nodes) return IPCC_OK;
    if (ipcc_reserve((void **)&m->node_tags, &m->cap_nodes, want, sizeof *m->node_tags))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %d nodes", r->path, want);
    void *p = realloc(m->coords, 3 * (size_t)m->cap_nodes * sizeof *m->coords);
    if (!p) {
        m->cap_nodes = m->num_nodes; // coords still hold only the old nodes
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %d nodes", r->path, want);
    }
    m->coords = p;
    return IPCC_OK;
}

// Reserves node storage for `n` more nodes up front (counts already checked).
static ipcc_status reserve_nodes(reader *r, raw_mesh *m, long long n) {
    if (n > INT_MAX - m->num_nodes) return parse_error(r, "too many nodes");
    return grow_nodes(r, m, m->num_nodes + (int)n);
}

static ipcc_status add_node(reader *r, raw_mesh *m, long long tag, const double x[3]) {
    if (m->num_nodes == INT_MAX) return parse_error(r, "too many nodes");
    ipcc_status s = grow_nodes(r, m, m->num_nodes + 1);
    if (s != IPCC_OK) return s;
    m->node_tags[m->num_nodes] = tag;
    memcpy(m->coords + 3 * (size_t)m->num_nodes, x, 3 * sizeof *x);
    m->num_nodes++;
    return IPCC_OK;
}

static ipcc_status add_tet(reader *r, raw_mesh *m, long long id, const long long v[4], long long loc) {
    if (m->num_tets >= INT_MAX / 4) return parse_error(r, "too many tetrahedra");
    int n = m->num_tets + 1;
    if (ipcc_reserve((void **)&m->tet_nodes, &m->cap_tet_nodes, 4 * n, sizeof *m->tet_nodes) ||
        ipcc_reserve((void **)&m->tet_ids, &m->cap_ids, n, sizeof *m->tet_ids) ||
        ipcc_reserve((void **)&m->tet_loc, &m->cap_loc, n, sizeof *m->tet_loc))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for tetrahedra", r->path);
    memcpy(m->tet_nodes + 4 * (size_t)m->num_tets, v, 4 * sizeof *v);
    m->tet_ids[m->num_tets] = (long)id;
    m->tet_loc[m->num_tets] = loc;
    m->num_tets++;
    return IPCC_OK;
}

static void raw_free(raw_mesh *m) {
    IPCC_FREE(m->node_tags);
    IPCC_FREE(m->coords);
    IPCC_FREE(m->tet_nodes);
    IPCC_FREE(m->tet_ids);
    IPCC_FREE(m->tet_loc);
}

typedef struct tag_pair {
    long long tag;
    int index;
} tag_pair;

static int compare_tag_pairs(const void *pa, const void *pb) {
    const tag_pair *a = pa, *b = pb;
    return (a->tag > b->tag) - (a->tag < b->tag);
}

// Tag -> index: dense table over [min, max] when compact, else sorted pairs.
typedef struct tag_map {
    long long min, max;
    int *dense;
    tag_pair *sorted;
    int n;
} tag_map;

static ipcc_status tag_map_build(tag_map *map, const raw_mesh *m, const char *path) {
    memset(map, 0, sizeof *map);
    map->n = m->num_nodes;
    if (m->num_nodes == 0) return IPCC_OK;
    map->min = map->max = m->node_tags[0];
    for (int i = 1; i < m->num_nodes; i++) {
        if (m->node_tags[i] < map->min) map->min = m->node_tags[i];
        if (m->node_tags[i] > map->max) map->max = m->node_tags[i];
    }
    long long dup = 0;
    int has_dup = 0;
    if (map->min >= 0 && map->max - map->min < 4LL * m->num_nodes + 1024) {
        size_t range = (size_t)(map->max - map->min) + 1;
        map->dense = malloc(range * sizeof *map->dense);
        if (!map->dense) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory mapping node tags", path);
        for (size_t i = 0; i < range; i++)
            map->dense[i] = -1;
        for (int i = 0; i < m->num_nodes && !has_dup; i++) {
            int *slot = &map->dense[m->node_tags[i] - map->min];
            if (*slot >= 0) has_dup = 1, dup = m->node_tags[i];
            *slot = i;
        }
    } else {
        map->sorted = malloc((size_t)m->num_nodes * sizeof *map->sorted);
        if (!map->sorted) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory mapping node tags", path);
        for (int i = 0; i < m->num_nodes; i++)
            map->sorted[i] = (tag_pair){m->node_tags[i], i};
        qsort(map->sorted, (size_t)m->num_nodes, sizeof *map->sorted, compare_tag_pairs);
        for (int i = 1; i < m->num_nodes && !has_dup; i++)
            if (map->sorted[i].tag == map->sorted[i - 1].tag) has_dup = 1, dup = map->sorted[i].tag;
    }
    if (has_dup) return ipcc_fail(IPCC_ERR_PARSE, "%s: node %lld defined twice", path, dup);
    return IPCC_OK;
}

static int tag_map_find(const tag_map *map, long long tag) {
    if (map->n == 0 || tag < map->min || tag > map->max) return -1;
    if (map->dense) return map->dense[tag - map->min];
    tag_pair key = {tag, 0};
    const tag_pair *hit = bsearch(&key, map->sorted, (size_t)map->n, sizeof key, compare_tag_pairs);
    return hit ? hit->index : -1;
}

static void tag_map_free(tag_map *map) {
    IPCC_FREE(map->dense);
    IPCC_FREE(map->sorted);
}

// Maps raw tags to indices and hands the arrays to ipcc_mesh_create().
// `binary` selects how tet_loc is printed; `node_file` names the node source.
static ipcc_status raw_to_mesh(const raw_mesh *m, const char *path, const char *node_file, int binary,
                               ipcc_mesh **out) {
    if (m->num_tets == 0)
        return ipcc_fail(IPCC_ERR_MESH, "%s: no tetrahedra found%s", m->tet_file,
                         node_file == path ? " (Gmsh element type 4)" : "");
    tag_map map;
    ipcc_status s = tag_map_build(&map, m, node_file);
    int *tets = NULL;
    if (s == IPCC_OK) {
        tets = malloc(4 * (size_t)m->num_tets * sizeof *tets);
        if (!tets) s = ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for tetrahedra", path);
    }
    for (size_t i = 0; s == IPCC_OK && i < 4 * (size_t)m->num_tets; i++) {
        tets[i] = tag_map_find(&map, m->tet_nodes[i]);
        if (tets[i] >= 0) continue;
        size_t t = i / 4;
        if (binary)
            s = ipcc_fail(IPCC_ERR_PARSE,
                          "%s: $Elements (binary, byte %lld): element %ld references undefined node %lld",
                          m->tet_file, m->tet_loc[t], m->tet_ids[t], m->tet_nodes[i]);
        else
            s = ipcc_fail(IPCC_ERR_PARSE,
                          "%s:%lld: element %ld references node %lld, which %s does not define", m->tet_file,
                          m->tet_loc[t], m->tet_ids[t], m->tet_nodes[i], node_file);
    }
    tag_map_free(&map);
    if (s == IPCC_OK) s = ipcc_mesh_create(m->coords, m->num_nodes, tets, m->num_tets, path, m->tet_ids, out);
    free(tets);
    return s;
}

// ---------------------------------------------------------------------------
// Gmsh.

// Nodes per element of Gmsh element type `type` (0 if unknown).
static int gmsh_nodes_per_element(long long type) {
    static const int table[32] = {0, 2,  3,  4,  4, 8,  6,  5,  3,  6,  9, 10, 27, 18, 14, 1,
                                  8, 20, 15, 13, 9, 10, 12, 15, 15, 21, 4, 5,  6,  20, 35, 56};
    if (type >= 1 && type < 32) return table[type];
    if (type == 92) return 64;
    if (type == 93) return 125;
    return 0;
}

// Expects the $End marker of section `name` ("Nodes" -> "$EndNodes").
static ipcc_status expect_end(reader *r, const char *name) {
    char want[64];
    snprintf(want, sizeof want, "$End%s", name);
    token t;
    ipcc_status s = need_token(r, 1, want, &t);
    if (s != IPCC_OK) return s;
    if (!token_is(t, want)) {
        int n = t.n > 40 ? 40 : (int)t.n;
        return parse_error(r, "expected %s, found '%.*s'", want, n, t.s);
    }
    return IPCC_OK;
}

// Skips an unknown section whose opening token `t` was just read.
static ipcc_status skip_section(reader *r, token t) {
    char want[80];
    if (t.n > 60) return parse_error(r, "section name '%.40s...' is too long", t.s);
    int n = (int)t.n - 1;
    snprintf(want, sizeof want, "$End%.*s", n, t.s + 1);
    size_t wl = strlen(want);
    long start_line = r->line;
    while (r->pos < r->len) {
        if (r->buf[r->pos] == '\n') {
            r->line++;
            r->pos++;
            if (r->len - r->pos >= wl && memcmp(r->buf + r->pos, want, wl) == 0 &&
                (r->pos + wl == r->len || isspace((unsigned char)r->buf[r->pos + wl]))) {
                r->pos += wl;
                return IPCC_OK;
            }
        } else {
            r->pos++;
        }
    }
    r->line = start_line;
    return parse_error(r, "section %.*s has no %s (truncated?)", n + 1, t.s, want);
}

typedef struct msh_state {
    int major; // 2 or 4
    int have_format, have_nodes, have_elements;
} msh_state;

static ipcc_status msh_format(reader *r, msh_state *st) {
    token t;
    ipcc_status s = need_token(r, 1, "msh version", &t);
    if (s != IPCC_OK) return s;
    char tmp[32], *end;
    if (!token_copy(t, tmp, sizeof tmp)) return bad_number(r, t, "msh version");
    double version = strtod(tmp, &end);
    if (*end) return bad_number(r, t, "msh version");
    if (version >= 2.0 && version < 3.0)
        st->major = 2;
    else if (version == 4.1)
        st->major = 4;
    else
        return parse_error(r, "unsupported msh version %s (supported: 2.2 and 4.1)", tmp);
    long long file_type, data_size;
    if ((s = read_ll(r, 0, "file type", &file_type)) != IPCC_OK) return s;
    if ((s = read_ll(r, 0, "data size", &data_size)) != IPCC_OK) return s;
    if (file_type != 0 && file_type != 1)
        return parse_error(r, "file type %lld is neither 0 nor 1", file_type);
    if (file_type == 1) {
        if (st->major == 2 && data_size != 8)
            return parse_error(r, "binary data size %lld (expected 8)", data_size);
        if (st->major == 4 && data_size != 4 && data_size != 8)
            return parse_error(r, "binary data size %lld (expected 4 or 8)", data_size);
        r->size_bytes = (int)data_size;
        if ((s = skip_past_newline(r)) != IPCC_OK) return s;
        r->binary = 1;
        r->section = "$MeshFormat";
        if (!bin_need(r, 1, 4)) return bin_truncated(r);
        // The integer 1 as written by the file's machine: native, or byte-swapped.
        int32_t one = bin_int(r);
        if (one != 1) {
            r->pos -= 4;
            r->swap = 1;
            if (bin_int(r) != 1) return parse_error(r, "endianness check is not the integer 1");
        }
    }
    st->have_format = 1;
    return expect_end(r, "MeshFormat");
}

static ipcc_status msh2_nodes(reader *r, raw_mesh *m) {
    long long n;
    ipcc_status s = read_count(r, 1, "node count", INT_MAX, r->binary ? 28 : 2, &n);
    if (s != IPCC_OK || (s = reserve_nodes(r, m, n)) != IPCC_OK) return s;
    if (r->binary) {
        if ((s = skip_past_newline(r)) != IPCC_OK) return s;
        if (!bin_need(r, (unsigned long long)n, 28)) return bin_truncated(r);
        for (long long i = 0; i < n; i++) {
            long long tag = bin_int(r);
            double x[3] = {bin_double(r), bin_double(r), bin_double(r)};
            if ((s = add_node(r, m, tag, x)) != IPCC_OK) return s;
        }
    } else {
        for (long long i = 0; i < n; i++) {
            long long tag;
            double x[3];
            if ((s = read_ll(r, 1, "node tag", &tag)) != IPCC_OK) return s;
            for (int k = 0; k < 3 && s == IPCC_OK; k++)
                s = read_double(r, 0, "node coordinate", &x[k]);
            if (s != IPCC_OK || (s = add_node(r, m, tag, x)) != IPCC_OK) return s;
            skip_line(r);
        }
    }
    return expect_end(r, "Nodes");
}

static ipcc_status msh2_elements(reader *r, raw_mesh *m) {
    long long n;
    ipcc_status s = read_count(r, 1, "element count", LLONG_MAX, r->binary ? 8 : 2, &n);
    if (s != IPCC_OK) return s;
    if (r->binary) {
        if ((s = skip_past_newline(r)) != IPCC_OK) return s;
        for (long long done = 0; done < n;) {
            if (!bin_need(r, 3, 4)) return bin_truncated(r);
            long long type = bin_int(r), count = bin_int(r), ntags = bin_int(r);
            int nn = gmsh_nodes_per_element(type);
            if (!nn) return parse_error(r, "unknown element type %lld", type);
            if (count < 1 || count > n - done || ntags < 0)
                return parse_error(r, "bad element block header (%lld elements, %lld tags)", count, ntags);
            size_t rec = 4 * (size_t)(1 + ntags + nn);
            if (!bin_need(r, (unsigned long long)count, rec)) return bin_truncated(r);
            for (long long i = 0; i < count; i++) {
                long long loc = (long long)r->pos, id = bin_int(r), v[4];
                r->pos += 4 * (size_t)ntags;
                if (type != 4) {
                    r->pos += 4 * (size_t)nn;
                    continue;
                }
                for (int k = 0; k < 4; k++)
                    v[k] = bin_int(r);
                if ((s = add_tet(r, m, id, v, loc)) != IPCC_OK) return s;
            }
            done += count;
        }
    } else {
        for (long long i = 0; i < n; i++) {
            long long id, type, ntags, tag, v[4];
            if ((s = read_ll(r, 1, "element tag", &id)) != IPCC_OK) return s;
            if ((s = read_ll(r, 0, "element type", &type)) != IPCC_OK) return s;
            if ((s = read_ll(r, 0, "number of tags", &ntags)) != IPCC_OK) return s;
            if (ntags < 0) return parse_error(r, "negative number of tags %lld", ntags);
            for (long long k = 0; k < ntags; k++)
                if ((s = read_ll(r, 0, "element tag", &tag)) != IPCC_OK) return s;
            if (type == 4) {
                for (int k = 0; k < 4; k++)
                    if ((s = read_ll(r, 0, "node tag", &v[k])) != IPCC_OK) return s;
                if ((s = add_tet(r, m, id, v, r->line)) != IPCC_OK) return s;
            }
            skip_line(r);
        }
    }
    return expect_end(r, "Elements");
}

// Reads the four numbers heading a 4.1 $Nodes or $Elements section.
static ipcc_status msh4_header(reader *r, const char *what, unsigned long long h[4]) {
    if (r->binary) {
        ipcc_status s = skip_past_newline(r);
        if (s != IPCC_OK) return s;
        if (!bin_need(r, 4, (size_t)r->size_bytes)) return bin_truncated(r);
        for (int i = 0; i < 4; i++)
            h[i] = bin_size(r);
    } else {
        for (int i = 0; i < 4; i++) {
            long long v = 0;
            ipcc_status s = read_ll(r, i == 0, what, &v);
            if (s != IPCC_OK) return s;
            if (v < 0) return parse_error(r, "negative %s %lld", what, v);
            h[i] = (unsigned long long)v;
        }
    }
    // Every block and every entry needs at least 2 bytes of file.
    if (h[0] > r->len - r->pos || h[1] > r->len - r->pos)
        return parse_error(r, "%s %llu is larger than the file can hold (truncated?)", what, h[1]);
    return IPCC_OK;
}

static ipcc_status msh4_nodes(reader *r, raw_mesh *m) {
    unsigned long long h[4];
    ipcc_status s = msh4_header(r, "node count", h);
    if (s != IPCC_OK) return s;
    if (h[1] > INT_MAX) return parse_error(r, "too many nodes (%llu)", h[1]);
    if ((s = reserve_nodes(r, m, (long long)h[1])) != IPCC_OK) return s;
    unsigned long long total = 0, sz = (unsigned long long)r->size_bytes;
    for (unsigned long long b = 0; b < h[0]; b++) {
        long long dim, par, count;
        if (r->binary) {
            if (!bin_need(r, 1, 12 + sz)) return bin_truncated(r);
            dim = bin_int(r);
            bin_int(r);
            par = bin_int(r);
            unsigned long long c = bin_size(r);
            count = c > h[1] ? -1 : (long long)c;
        } else {
            long long tag;
            if ((s = read_ll(r, 1, "entity dimension", &dim)) != IPCC_OK ||
                (s = read_ll(r, 0, "entity tag", &tag)) != IPCC_OK ||
                (s = read_ll(r, 0, "parametric flag", &par)) != IPCC_OK ||
                (s = read_ll(r, 0, "nodes in block", &count)) != IPCC_OK)
                return s;
        }
        if (dim < 0 || dim > 3 || par < 0 || par > 1 || count < 0 || (unsigned long long)count > h[1] - total)
            return parse_error(r, "bad node block header (dimension %lld, parametric %lld, %lld nodes)", dim,
                               par, count);
        int first = m->num_nodes;
        if (r->binary) {
            unsigned long long npar = par ? (unsigned long long)dim : 0;
            if (!bin_need(r, (unsigned long long)count, sz + 8 * (3 + npar))) return bin_truncated(r);
            for (long long i = 0; i < count; i++) {
                unsigned long long tag = bin_size(r);
                if (tag > LLONG_MAX) return parse_error(r, "node tag %llu out of range", tag);
                double zero[3] = {0, 0, 0};
                if ((s = add_node(r, m, (long long)tag, zero)) != IPCC_OK) return s;
            }
            for (long long i = 0; i < count; i++) {
                double *x = m->coords + 3 * (size_t)(first + i);
                for (int k = 0; k < 3; k++)
                    x[k] = bin_double(r);
                r->pos += 8 * (size_t)npar;
            }
        } else {
            for (long long i = 0; i < count; i++) {
                long long tag;
                double zero[3] = {0, 0, 0};
                if ((s = read_ll(r, 1, "node tag", &tag)) != IPCC_OK) return s;
                if ((s = add_node(r, m, tag, zero)) != IPCC_OK) return s;
                skip_line(r);
            }
            for (long long i = 0; i < count; i++) {
                double *x = m->coords + 3 * (size_t)(first + i);
                for (int k = 0; k < 3; k++)
                    if ((s = read_double(r, k == 0, "node coordinate", &x[k])) != IPCC_OK) return s;
                skip_line(r);
            }
        }
        total += (unsigned long long)count;
    }
    if (total != h[1])
        return parse_error(r, "node blocks hold %llu nodes, the header says %llu", total, h[1]);
    return expect_end(r, "Nodes");
}

static ipcc_status msh4_elements(reader *r, raw_mesh *m) {
    unsigned long long h[4];
    ipcc_status s = msh4_header(r, "element count", h);
    if (s != IPCC_OK) return s;
    unsigned long long total = 0, sz = (unsigned long long)r->size_bytes;
    for (unsigned long long b = 0; b < h[0]; b++) {
        long long type, count;
        if (r->binary) {
            if (!bin_need(r, 1, 12 + sz)) return bin_truncated(r);
            bin_int(r);
            bin_int(r);
            type = bin_int(r);
            unsigned long long c = bin_size(r);
            count = c > h[1] ? -1 : (long long)c;
        } else {
            long long dim, tag;
            if ((s = read_ll(r, 1, "entity dimension", &dim)) != IPCC_OK ||
                (s = read_ll(r, 0, "entity tag", &tag)) != IPCC_OK ||
                (s = read_ll(r, 0, "element type", &type)) != IPCC_OK ||
                (s = read_ll(r, 0, "elements in block", &count)) != IPCC_OK)
                return s;
        }
        if (count < 0 || (unsigned long long)count > h[1] - total)
            return parse_error(r, "bad element block header (type %lld, %lld elements)", type, count);
        if (r->binary) {
            int nn = gmsh_nodes_per_element(type);
            if (!nn) return parse_error(r, "unknown element type %lld", type);
            if (!bin_need(r, (unsigned long long)count, sz * (1 + (unsigned long long)nn)))
                return bin_truncated(r);
            for (long long i = 0; i < count; i++) {
                long long loc = (long long)r->pos, v[4];
                unsigned long long id = bin_size(r);
                if (type != 4) {
                    r->pos += (size_t)(sz * (unsigned long long)nn);
                    continue;
                }
                for (int k = 0; k < 4; k++) {
                    unsigned long long tag = bin_size(r);
                    v[k] = tag > LLONG_MAX ? -1 : (long long)tag;
                }
                if (id > LONG_MAX) return parse_error(r, "element tag %llu out of range", id);
                if ((s = add_tet(r, m, (long long)id, v, loc)) != IPCC_OK) return s;
            }
        } else {
            for (long long i = 0; i < count; i++) {
                long long id, v[4];
                if ((s = read_ll(r, 1, "element tag", &id)) != IPCC_OK) return s;
                if (type == 4) {
                    for (int k = 0; k < 4; k++)
                        if ((s = read_ll(r, 0, "node tag", &v[k])) != IPCC_OK) return s;
                    if ((s = add_tet(r, m, id, v, r->line)) != IPCC_OK) return s;
                }
                skip_line(r);
            }
        }
        total += (unsigned long long)count;
    }
    if (total != h[1])
        return parse_error(r, "element blocks hold %llu elements, the header says %llu", total, h[1]);
    return expect_end(r, "Elements");
}

static ipcc_status read_msh(reader *r, raw_mesh *m) {
    msh_state st = {0};
    token t;
    ipcc_status s = IPCC_OK;
    m->tet_file = r->path;
    while (s == IPCC_OK && next_token(r, 1, &t)) {
        int is_nodes = token_is(t, "$Nodes"), is_elements = token_is(t, "$Elements");
        if (token_is(t, "$MeshFormat")) {
            if (st.have_format) return parse_error(r, "second $MeshFormat section");
            s = msh_format(r, &st);
        } else if (is_nodes || is_elements) {
            if (!st.have_format) return parse_error(r, "%.*s before $MeshFormat", (int)t.n, t.s);
            int *have = is_nodes ? &st.have_nodes : &st.have_elements;
            if (*have) return parse_error(r, "second %.*s section", (int)t.n, t.s);
            *have = 1;
            r->section = is_nodes ? "$Nodes" : "$Elements";
            if (is_nodes)
                s = st.major == 2 ? msh2_nodes(r, m) : msh4_nodes(r, m);
            else
                s = st.major == 2 ? msh2_elements(r, m) : msh4_elements(r, m);
        } else if (t.n > 1 && t.s[0] == '$' && !(t.n >= 4 && memcmp(t.s, "$End", 4) == 0)) {
            r->section = "unknown section";
            s = skip_section(r, t);
        } else {
            int n = t.n > 40 ? 40 : (int)t.n;
            return parse_error(r, "unexpected '%.*s' outside a section", n, t.s);
        }
    }
    if (s != IPCC_OK) return s;
    if (!st.have_format)
        return ipcc_fail(IPCC_ERR_PARSE, "%s: no $MeshFormat section (not a Gmsh file?)", r->path);
    if (!st.have_nodes) return ipcc_fail(IPCC_ERR_PARSE, "%s: no $Nodes section", r->path);
    if (!st.have_elements) return ipcc_fail(IPCC_ERR_PARSE, "%s: no $Elements section", r->path);
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// TetGen.

// Only blanks and comments may follow the records a TetGen header counts: a
// wrong count must not silently drop (or ignore) part of the mesh.
static ipcc_status expect_tetgen_end(reader *r, long long n, const char *what) {
    token t;
    if (!next_token(r, 1, &t)) return IPCC_OK;
    return parse_error(r, "'%.*s' after the %lld %s the header declares (wrong count in the header?)",
                       (int)(t.n > 32 ? 32 : t.n), t.s, n, what);
}

static ipcc_status read_tetgen_node(reader *r, raw_mesh *m) {
    long long n, dim, nattr, nmark;
    ipcc_status s;
    if ((s = read_count(r, 1, "number of points", INT_MAX, 2, &n)) != IPCC_OK ||
        (s = read_ll(r, 0, "dimension", &dim)) != IPCC_OK)
        return s;
    // Attribute and marker counts are optional in the header.
    if ((s = read_optional_ll(r, "number of attributes", &nattr)) != IPCC_OK ||
        (s = read_optional_ll(r, "boundary marker flag", &nmark)) != IPCC_OK)
        return s;
    if (dim != 3) return parse_error(r, "dimension %lld, expected 3", dim);
    if (nattr < 0 || nmark < 0 || nmark > 1)
        return parse_error(r, "bad header (%lld attributes, boundary marker flag %lld)", nattr, nmark);
    skip_line(r);
    if ((s = reserve_nodes(r, m, n)) != IPCC_OK) return s;
    for (long long i = 0; i < n; i++) {
        long long tag;
        double x[3];
        if ((s = read_ll(r, 1, "point number", &tag)) != IPCC_OK) return s;
        for (int k = 0; k < 3 && s == IPCC_OK; k++)
            s = read_double(r, 0, "point coordinate", &x[k]);
        if (s != IPCC_OK || (s = add_node(r, m, tag, x)) != IPCC_OK) return s;
        skip_line(r);
    }
    return expect_tetgen_end(r, n, "points");
}

static ipcc_status read_tetgen_ele(reader *r, raw_mesh *m) {
    long long n, per, nattr;
    ipcc_status s;
    if ((s = read_count(r, 1, "number of tetrahedra", INT_MAX / 4, 2, &n)) != IPCC_OK ||
        (s = read_ll(r, 0, "nodes per tetrahedron", &per)) != IPCC_OK)
        return s;
    if ((s = read_optional_ll(r, "number of attributes", &nattr)) != IPCC_OK) return s;
    if (per != 4 && per != 10) return parse_error(r, "%lld nodes per tetrahedron, expected 4 or 10", per);
    skip_line(r);
    m->tet_file = r->path;
    for (long long i = 0; i < n; i++) {
        long long id, v[4];
        if ((s = read_ll(r, 1, "tetrahedron number", &id)) != IPCC_OK) return s;
        for (int k = 0; k < 4; k++)
            if ((s = read_ll(r, 0, "node number", &v[k])) != IPCC_OK) return s;
        if ((s = add_tet(r, m, id, v, r->line)) != IPCC_OK) return s;
        skip_line(r);
    }
    return expect_tetgen_end(r, n, "tetrahedra");
}

// Replaces the extension `from` (at the end of path) with `to`; NULL if OOM.
static char *sibling_path(const char *path, size_t ext_len, const char *to) {
    size_t stem = strlen(path) - ext_len, n = stem + strlen(to) + 1;
    char *p = malloc(n);
    if (!p) return NULL;
    memcpy(p, path, stem);
    strcpy(p + stem, to);
    return p;
}

static ipcc_status read_tetgen(const char *path, size_t ext_len, int given_is_node, ipcc_mesh **out) {
    char *other = sibling_path(path, ext_len, given_is_node ? ".ele" : ".node");
    if (!other) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", path);
    const char *node_path = given_is_node ? path : other, *ele_path = given_is_node ? other : path;
    raw_mesh m = {0};
    reader rn, re;
    ipcc_status s = load_file(node_path, &rn);
    if (s == IPCC_OK) {
        rn.comments = 1;
        s = read_tetgen_node(&rn, &m);
        free(rn.buf);
    }
    if (s == IPCC_OK && (s = load_file(ele_path, &re)) == IPCC_OK) {
        re.comments = 1;
        s = read_tetgen_ele(&re, &m);
        free(re.buf);
    }
    if (s == IPCC_OK) s = raw_to_mesh(&m, ele_path, node_path, 0, out);
    raw_free(&m);
    free(other);
    return s;
}

// ---------------------------------------------------------------------------

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k) return 0;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[n - k + i]) != suffix[i]) return 0;
    return 1;
}

ipcc_status ipcc_mesh_read(const char *path, ipcc_mesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    if (!path) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "mesh path is NULL");
    if (ends_with(path, ".node")) return read_tetgen(path, 5, 1, out);
    if (ends_with(path, ".ele")) return read_tetgen(path, 4, 0, out);
    if (!ends_with(path, ".msh"))
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: unknown mesh format (expected .msh, .node or .ele)",
                         path);
    reader r;
    ipcc_status s = load_file(path, &r);
    if (s != IPCC_OK) return s;
    raw_mesh m = {0};
    s = read_msh(&r, &m);
    if (s == IPCC_OK) s = raw_to_mesh(&m, path, path, r.binary, out);
    raw_free(&m);
    free(r.buf);
    return s;
}
