// The tet mesh readers' toolkit (mesh_reader.h): what the Gmsh and TetGen
// readers (mesh_gmsh.c, mesh_tetgen.c) share, below them.
//
// The whole file is read into a NUL-terminated buffer by ipcc_read_file()
// (base/read_file.c, the project's one whole-file reader, so a file that can
// not be read fails with its messages) and parsed with a cursor that counts
// lines, so every error names "file:line" (ASCII) or "file: $Section
// (binary, byte N)" (binary). Records are read field by field: the first
// field of a record may be on a new line, the others must be on the same
// line, and the rest of the line is skipped where the format allows it.
//
// Node tags may be sparse and in any order (4.1 writes them per entity):
// they are mapped to 0-based indices through a dense table when the tag range
// is compact, otherwise through a sorted table and binary search. Elements
// keep their raw node tags until all sections are read, so section order does
// not matter; an undefined tag is reported with the element's line.
//
// Regions. Each raw tet carries a region number (0 = none): a Gmsh physical
// group or a TetGen region attribute. When the file has any (or names any
// volume physical group), ipcc_raw_to_mesh() hands them to the mesh with
// ipcc_mesh_set_regions() (mesh_regions.c); otherwise the mesh has none.
//
// Robustness: counts are checked against the bytes left in the file before
// anything is allocated (a count can not exceed what the remaining bytes can
// encode), every binary read is bounds-checked by its caller with
// ipcc_bin_need(). Validated geometry (orientation, zero volume) is left to
// ipcc_mesh_create(), which gets the file's element numbers as tet_ids.
#include "mesh/mesh_reader.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/read_file.h"

// ---------------------------------------------------------------------------
// Reader: file buffer, cursor, error messages.

ipcc_status ipcc_reader_error(const ipcc_reader *r, const char *fmt, ...) {
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->binary)
        return ipcc_fail(IPCC_ERR_PARSE, "%s: %s (binary, byte %zu): %s", r->path, r->section, r->pos, msg);
    return ipcc_fail(IPCC_ERR_PARSE, "%s:%ld: %s", r->path, r->line, msg);
}

ipcc_status ipcc_reader_load(const char *path, ipcc_reader *r) {
    memset(r, 0, sizeof *r);
    r->path = path;
    r->line = 1;
    r->section = "header";
    // Binary .msh files hold NUL bytes: not text_only.
    return ipcc_read_file(path, false, &r->buf, &r->len);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Next whitespace-separated token; crosses newlines only if `cross`.
// Returns 0 at end of file (or of line when !cross).
int ipcc_reader_next(ipcc_reader *r, int cross, ipcc_token *t) {
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
void ipcc_reader_skip_line(ipcc_reader *r) {
    while (r->pos < r->len && r->buf[r->pos] != '\n')
        r->pos++;
}

// Moves past the '\n' ending the current line: the start of binary data.
ipcc_status ipcc_reader_skip_past_newline(ipcc_reader *r) {
    ipcc_reader_skip_line(r);
    if (r->pos >= r->len) return ipcc_reader_error(r, "unexpected end of file (truncated?)");
    r->pos++;
    r->line++;
    return IPCC_OK;
}

ipcc_status ipcc_reader_need(ipcc_reader *r, int cross, const char *what, ipcc_token *t) {
    if (ipcc_reader_next(r, cross, t)) return IPCC_OK;
    if (r->pos >= r->len)
        return ipcc_reader_error(r, "unexpected end of file, expected %s (truncated?)", what);
    return ipcc_reader_error(r, "unexpected end of line, expected %s", what);
}

ipcc_status ipcc_reader_bad_number(ipcc_reader *r, ipcc_token t, const char *what) {
    int n = t.n > 40 ? 40 : (int)t.n;
    if (t.s[0] == '$')
        return ipcc_reader_error(r, "unexpected '%.*s', expected %s (section shorter than its count?)", n,
                                 t.s, what);
    return ipcc_reader_error(r, "bad number '%.*s', expected %s", n, t.s, what);
}

ipcc_status ipcc_reader_ll(ipcc_reader *r, int cross, const char *what, long long *v) {
    ipcc_token t;
    ipcc_status s = ipcc_reader_need(r, cross, what, &t);
    if (s != IPCC_OK) return s;
    char tmp[64], *end;
    if (!ipcc_token_copy(t, tmp, sizeof tmp)) return ipcc_reader_bad_number(r, t, what);
    errno = 0;
    *v = strtoll(tmp, &end, 10);
    if (errno || *end) return ipcc_reader_bad_number(r, t, what);
    return IPCC_OK;
}

ipcc_status ipcc_reader_double(ipcc_reader *r, int cross, const char *what, double *v) {
    ipcc_token t;
    ipcc_status s = ipcc_reader_need(r, cross, what, &t);
    if (s != IPCC_OK) return s;
    char tmp[128], *end;
    if (!ipcc_token_copy(t, tmp, sizeof tmp)) return ipcc_reader_bad_number(r, t, what);
    *v = strtod(tmp, &end);
    if (*end) return ipcc_reader_bad_number(r, t, what);
    // nan, inf, 1e999: named here with the line (binary files: by ipcc_mesh_create).
    if (!isfinite(*v)) return ipcc_reader_error(r, "non-finite %s '%s'", what, tmp);
    return IPCC_OK;
}

// A number that may be missing at the end of the line (then 0).
ipcc_status ipcc_reader_optional_ll(ipcc_reader *r, const char *what, long long *v) {
    size_t pos = r->pos;
    ipcc_token t;
    *v = 0;
    if (!ipcc_reader_next(r, 0, &t)) return IPCC_OK;
    r->pos = pos;
    return ipcc_reader_ll(r, 0, what, v);
}

// A count in [0, max] that the rest of the file can hold at `min_bytes` each.
ipcc_status ipcc_reader_count(ipcc_reader *r, int cross, const char *what, long long max, size_t min_bytes,
                              long long *v) {
    ipcc_status s = ipcc_reader_ll(r, cross, what, v);
    if (s != IPCC_OK) return s;
    if (*v < 0) return ipcc_reader_error(r, "negative %s %lld", what, *v);
    if (*v > max || (unsigned long long)*v > (r->len - r->pos) / min_bytes + 1)
        return ipcc_reader_error(r, "%s %lld is larger than the file can hold (truncated?)", what, *v);
    return IPCC_OK;
}

// ---------------------------------------------------------------------------
// Binary reads. Callers check the bytes are there with bin_need() first.

int ipcc_bin_need(const ipcc_reader *r, unsigned long long count, size_t size) {
    return count <= (r->len - r->pos) / size;
}

static void bin_get(ipcc_reader *r, void *dst, size_t n) {
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

int32_t ipcc_bin_int(ipcc_reader *r) {
    int32_t v;
    bin_get(r, &v, 4);
    return v;
}

double ipcc_bin_double(ipcc_reader *r) {
    double v;
    bin_get(r, &v, 8);
    return v;
}

// Gmsh 4.1 size_t of the header's data-size.
unsigned long long ipcc_bin_size(ipcc_reader *r) {
    if (r->size_bytes == 4) {
        uint32_t v;
        bin_get(r, &v, 4);
        return v;
    }
    uint64_t v;
    bin_get(r, &v, 8);
    return v;
}

ipcc_status ipcc_bin_truncated(ipcc_reader *r) {
    return ipcc_reader_error(r, "unexpected end of file (truncated?)");
}

// ---------------------------------------------------------------------------
// Raw mesh building and tag mapping.

// Grows node storage to hold `want` nodes (tags and coordinates together).
static ipcc_status grow_nodes(ipcc_reader *r, ipcc_raw_mesh *m, int want) {
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
ipcc_status ipcc_raw_reserve_nodes(ipcc_reader *r, ipcc_raw_mesh *m, long long n) {
    if (n > INT_MAX - m->num_nodes) return ipcc_reader_error(r, "too many nodes");
    return grow_nodes(r, m, m->num_nodes + (int)n);
}

ipcc_status ipcc_raw_add_node(ipcc_reader *r, ipcc_raw_mesh *m, long long tag, const double x[3]) {
    if (m->num_nodes == INT_MAX) return ipcc_reader_error(r, "too many nodes");
    ipcc_status s = grow_nodes(r, m, m->num_nodes + 1);
    if (s != IPCC_OK) return s;
    m->node_tags[m->num_nodes] = tag;
    memcpy(m->coords + 3 * (size_t)m->num_nodes, x, 3 * sizeof *x);
    m->num_nodes++;
    return IPCC_OK;
}

ipcc_status ipcc_raw_add_tet(ipcc_reader *r, ipcc_raw_mesh *m, long long id, const long long v[4],
                             long long loc, long long region) {
    if (m->num_tets >= INT_MAX / 4) return ipcc_reader_error(r, "too many tetrahedra");
    int n = m->num_tets + 1;
    if (ipcc_reserve((void **)&m->tet_nodes, &m->cap_tet_nodes, 4 * n, sizeof *m->tet_nodes) ||
        ipcc_reserve((void **)&m->tet_ids, &m->cap_ids, n, sizeof *m->tet_ids) ||
        ipcc_reserve((void **)&m->tet_loc, &m->cap_loc, n, sizeof *m->tet_loc) ||
        ipcc_reserve((void **)&m->tet_region, &m->cap_region, n, sizeof *m->tet_region))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for tetrahedra", r->path);
    memcpy(m->tet_nodes + 4 * (size_t)m->num_tets, v, 4 * sizeof *v);
    m->tet_ids[m->num_tets] = (long)id;
    m->tet_loc[m->num_tets] = loc;
    m->tet_region[m->num_tets] = region;
    m->num_tets++;
    return IPCC_OK;
}

void ipcc_raw_free(ipcc_raw_mesh *m) {
    IPCC_FREE(m->node_tags);
    IPCC_FREE(m->coords);
    IPCC_FREE(m->tet_nodes);
    IPCC_FREE(m->tet_ids);
    IPCC_FREE(m->tet_loc);
    IPCC_FREE(m->tet_region);
    for (int i = 0; i < m->num_names; i++)
        free(m->names[i]);
    IPCC_FREE(m->names);
    IPCC_FREE(m->name_numbers);
    m->num_names = m->cap_names = 0;
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

static ipcc_status tag_map_build(tag_map *map, const ipcc_raw_mesh *m, const char *path) {
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

// The tets' regions (ipcc_mesh_create() keeps the tet order) and the
// volume names, onto the mesh. A region number must fit an int.
static ipcc_status hand_over_regions(const ipcc_raw_mesh *m, const char *path, int binary, ipcc_mesh *mesh) {
    int *regions = calloc((size_t)m->num_tets, sizeof *regions);
    if (!regions) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for regions", path);
    for (int t = 0; m->has_regions && t < m->num_tets; t++) {
        long long g = m->tet_region[t];
        if (g < INT_MIN || g > INT_MAX) {
            free(regions);
            if (binary)
                return ipcc_fail(
                    IPCC_ERR_PARSE,
                    "%s: $Elements (binary, byte %lld): element %ld: region %lld is out of range",
                    m->tet_file, m->tet_loc[t], m->tet_ids[t], g);
            return ipcc_fail(IPCC_ERR_PARSE, "%s:%lld: element %ld: region %lld is out of range", m->tet_file,
                             m->tet_loc[t], m->tet_ids[t], g);
        }
        regions[t] = (int)g;
    }
    ipcc_status s =
        ipcc_mesh_set_regions(mesh, regions, m->num_names, m->name_numbers, (const char *const *)m->names);
    free(regions);
    if (s == IPCC_OK) return IPCC_OK;
    char reason[512];
    snprintf(reason, sizeof reason, "%s", ipcc_last_error());
    return ipcc_fail(s, "%s: %s", path, reason);
}

// Maps raw tags to indices and hands the arrays to ipcc_mesh_create().
// `binary` selects how tet_loc is printed; `node_file` names the node source.
ipcc_status ipcc_raw_to_mesh(const ipcc_raw_mesh *m, const char *path, const char *node_file, int binary,
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
    if (s == IPCC_OK && (m->has_regions || m->num_names > 0)) s = hand_over_regions(m, path, binary, *out);
    if (s != IPCC_OK && *out) {
        ipcc_mesh_destroy(*out);
        *out = NULL;
    }
    return s;
}
