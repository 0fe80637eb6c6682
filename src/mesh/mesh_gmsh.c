// Gmsh .msh reader: versions 2.2 and 4.1, ASCII and binary
// (https://gmsh.info/doc/texinfo/gmsh.html, "MSH file format").
//
// Only 4-node tetrahedra (element type 4) are kept; other elements are
// skipped (ASCII: by line; binary: by the node count of their type, so an
// unknown type in a binary file is an error). Unknown sections ($NodeData,
// the original IPC's $Surface, ...) are skipped up to their $End marker, and
// a missing $End marker is an error. Binary files carry an int 1 after the
// format line to detect the byte order; the other byte order is swapped on
// reading. In 4.1 binary, tags and counts are unsigned integers of the
// header's data-size (4 or 8 bytes); in 2.2 binary they are 4-byte ints.
//
// Regions (physical groups). 2.2: an element's first tag is its physical
// group (0 or no tag: none); after a tet's four nodes nothing may follow on
// its line, so a tag count that does not match the line is an error rather
// than a misread node. 4.1: an element block names its entity; $Entities
// gives each volume entity its physical tags, and a tet takes the first of
// its volume's (several: a warning). Either every volume entity is in a
// physical group or none is. $PhysicalNames (both versions, text even in
// binary files) names groups; the dimension-3 names are kept, and a name
// without quotes, an empty one, or a volume name or tag given twice is an
// error at its line.
#include "mesh/mesh_gmsh.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "mesh/mesh_reader.h"

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
static ipcc_status expect_end(ipcc_reader *r, const char *name) {
    char want[64];
    snprintf(want, sizeof want, "$End%s", name);
    ipcc_token t;
    ipcc_status s = ipcc_reader_need(r, 1, want, &t);
    if (s != IPCC_OK) return s;
    if (!ipcc_token_is(t, want)) {
        int n = t.n > 40 ? 40 : (int)t.n;
        return ipcc_reader_error(r, "expected %s, found '%.*s'", want, n, t.s);
    }
    return IPCC_OK;
}

// Skips an unknown section whose opening token `t` was just read.
static ipcc_status skip_section(ipcc_reader *r, ipcc_token t) {
    char want[80];
    if (t.n > 60) return ipcc_reader_error(r, "section name '%.40s...' is too long", t.s);
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
    return ipcc_reader_error(r, "section %.*s has no %s (truncated?)", n + 1, t.s, want);
}

// A volume entity of a 4.1 $Entities section.
typedef struct msh_volume {
    long long tag;      // entity tag
    long long physical; // its (first) physical tag, 0 if none
} msh_volume;

typedef struct msh_state {
    int major; // 2 or 4
    int have_format, have_nodes, have_elements, have_names, have_entities;
    msh_volume *volumes; // 4.1 $Entities: the volume entities, sorted by tag
    int num_volumes;
} msh_state;

static ipcc_status msh_format(ipcc_reader *r, msh_state *st) {
    ipcc_token t;
    ipcc_status s = ipcc_reader_need(r, 1, "msh version", &t);
    if (s != IPCC_OK) return s;
    char tmp[32], *end;
    if (!ipcc_token_copy(t, tmp, sizeof tmp)) return ipcc_reader_bad_number(r, t, "msh version");
    double version = strtod(tmp, &end);
    if (*end) return ipcc_reader_bad_number(r, t, "msh version");
    if (version >= 2.0 && version < 3.0)
        st->major = 2;
    else if (version == 4.1)
        st->major = 4;
    else
        return ipcc_reader_error(r, "unsupported msh version %s (supported: 2.2 and 4.1)", tmp);
    long long file_type, data_size;
    if ((s = ipcc_reader_ll(r, 0, "file type", &file_type)) != IPCC_OK) return s;
    if ((s = ipcc_reader_ll(r, 0, "data size", &data_size)) != IPCC_OK) return s;
    if (file_type != 0 && file_type != 1)
        return ipcc_reader_error(r, "file type %lld is neither 0 nor 1", file_type);
    if (file_type == 1) {
        if (st->major == 2 && data_size != 8)
            return ipcc_reader_error(r, "binary data size %lld (expected 8)", data_size);
        if (st->major == 4 && data_size != 4 && data_size != 8)
            return ipcc_reader_error(r, "binary data size %lld (expected 4 or 8)", data_size);
        r->size_bytes = (int)data_size;
        if ((s = ipcc_reader_skip_past_newline(r)) != IPCC_OK) return s;
        r->binary = 1;
        r->section = "$MeshFormat";
        if (!ipcc_bin_need(r, 1, 4)) return ipcc_bin_truncated(r);
        // The integer 1 as written by the file's machine: native, or byte-swapped.
        int32_t one = ipcc_bin_int(r);
        if (one != 1) {
            r->pos -= 4;
            r->swap = 1;
            if (ipcc_bin_int(r) != 1) return ipcc_reader_error(r, "endianness check is not the integer 1");
        }
    }
    st->have_format = 1;
    return expect_end(r, "MeshFormat");
}

static ipcc_status msh2_nodes(ipcc_reader *r, ipcc_raw_mesh *m) {
    long long n;
    ipcc_status s = ipcc_reader_count(r, 1, "node count", INT_MAX, r->binary ? 28 : 2, &n);
    if (s != IPCC_OK || (s = ipcc_raw_reserve_nodes(r, m, n)) != IPCC_OK) return s;
    if (r->binary) {
        if ((s = ipcc_reader_skip_past_newline(r)) != IPCC_OK) return s;
        if (!ipcc_bin_need(r, (unsigned long long)n, 28)) return ipcc_bin_truncated(r);
        for (long long i = 0; i < n; i++) {
            long long tag = ipcc_bin_int(r);
            double x[3] = {ipcc_bin_double(r), ipcc_bin_double(r), ipcc_bin_double(r)};
            if ((s = ipcc_raw_add_node(r, m, tag, x)) != IPCC_OK) return s;
        }
    } else {
        for (long long i = 0; i < n; i++) {
            long long tag;
            double x[3];
            if ((s = ipcc_reader_ll(r, 1, "node tag", &tag)) != IPCC_OK) return s;
            for (int k = 0; k < 3 && s == IPCC_OK; k++)
                s = ipcc_reader_double(r, 0, "node coordinate", &x[k]);
            if (s != IPCC_OK || (s = ipcc_raw_add_node(r, m, tag, x)) != IPCC_OK) return s;
            ipcc_reader_skip_line(r);
        }
    }
    return expect_end(r, "Nodes");
}

static ipcc_status msh2_elements(ipcc_reader *r, ipcc_raw_mesh *m) {
    long long n;
    ipcc_status s = ipcc_reader_count(r, 1, "element count", LLONG_MAX, r->binary ? 8 : 2, &n);
    if (s != IPCC_OK) return s;
    if (r->binary) {
        if ((s = ipcc_reader_skip_past_newline(r)) != IPCC_OK) return s;
        for (long long done = 0; done < n;) {
            if (!ipcc_bin_need(r, 3, 4)) return ipcc_bin_truncated(r);
            long long type = ipcc_bin_int(r), count = ipcc_bin_int(r), ntags = ipcc_bin_int(r);
            int nn = gmsh_nodes_per_element(type);
            if (!nn) return ipcc_reader_error(r, "unknown element type %lld", type);
            if (count < 1 || count > n - done || ntags < 0)
                return ipcc_reader_error(r, "bad element block header (%lld elements, %lld tags)", count,
                                         ntags);
            size_t rec = 4 * (size_t)(1 + ntags + nn);
            if (!ipcc_bin_need(r, (unsigned long long)count, rec)) return ipcc_bin_truncated(r);
            for (long long i = 0; i < count; i++) {
                long long loc = (long long)r->pos, id = ipcc_bin_int(r), v[4], physical = 0;
                if (ntags > 0) {
                    physical = ipcc_bin_int(r);
                    r->pos += 4 * (size_t)(ntags - 1);
                }
                if (type != 4) {
                    r->pos += 4 * (size_t)nn;
                    continue;
                }
                for (int k = 0; k < 4; k++)
                    v[k] = ipcc_bin_int(r);
                if ((s = ipcc_raw_add_tet(r, m, id, v, loc, physical)) != IPCC_OK) return s;
                if (physical != 0) m->has_regions = 1;
            }
            done += count;
        }
    } else {
        for (long long i = 0; i < n; i++) {
            long long id, type, ntags, tag, v[4], physical = 0;
            if ((s = ipcc_reader_ll(r, 1, "element tag", &id)) != IPCC_OK) return s;
            if ((s = ipcc_reader_ll(r, 0, "element type", &type)) != IPCC_OK) return s;
            if ((s = ipcc_reader_ll(r, 0, "number of tags", &ntags)) != IPCC_OK) return s;
            if (ntags < 0) return ipcc_reader_error(r, "negative number of tags %lld", ntags);
            for (long long k = 0; k < ntags; k++) {
                if ((s = ipcc_reader_ll(
                         r, 0, type == 4 ? "element tag (does the tag count fit the line?)" : "element tag",
                         &tag)) != IPCC_OK)
                    return s;
                if (k == 0) physical = tag;
            }
            if (type == 4) {
                for (int k = 0; k < 4; k++)
                    if ((s = ipcc_reader_ll(r, 0, "node tag (does the tag count fit the line?)", &v[k])) !=
                        IPCC_OK)
                        return s;
                ipcc_token extra;
                if (ipcc_reader_next(r, 0, &extra))
                    return ipcc_reader_error(
                        r,
                        "element %lld: '%.*s' after the 4 nodes of a tetrahedron (the tag "
                        "count %lld does not fit the line)",
                        id, (int)(extra.n > 32 ? 32 : extra.n), extra.s, ntags);
                if ((s = ipcc_raw_add_tet(r, m, id, v, r->line, physical)) != IPCC_OK) return s;
                if (physical != 0) m->has_regions = 1;
            }
            ipcc_reader_skip_line(r);
        }
    }
    return expect_end(r, "Elements");
}

// Reads the four numbers heading a 4.1 $Nodes or $Elements section.
static ipcc_status msh4_header(ipcc_reader *r, const char *what, unsigned long long h[4]) {
    if (r->binary) {
        ipcc_status s = ipcc_reader_skip_past_newline(r);
        if (s != IPCC_OK) return s;
        if (!ipcc_bin_need(r, 4, (size_t)r->size_bytes)) return ipcc_bin_truncated(r);
        for (int i = 0; i < 4; i++)
            h[i] = ipcc_bin_size(r);
    } else {
        for (int i = 0; i < 4; i++) {
            long long v = 0;
            ipcc_status s = ipcc_reader_ll(r, i == 0, what, &v);
            if (s != IPCC_OK) return s;
            if (v < 0) return ipcc_reader_error(r, "negative %s %lld", what, v);
            h[i] = (unsigned long long)v;
        }
    }
    // Every block and every entry needs at least 2 bytes of file.
    if (h[0] > r->len - r->pos || h[1] > r->len - r->pos)
        return ipcc_reader_error(r, "%s %llu is larger than the file can hold (truncated?)", what, h[1]);
    return IPCC_OK;
}

static ipcc_status msh4_nodes(ipcc_reader *r, ipcc_raw_mesh *m) {
    unsigned long long h[4];
    ipcc_status s = msh4_header(r, "node count", h);
    if (s != IPCC_OK) return s;
    if (h[1] > INT_MAX) return ipcc_reader_error(r, "too many nodes (%llu)", h[1]);
    if ((s = ipcc_raw_reserve_nodes(r, m, (long long)h[1])) != IPCC_OK) return s;
    unsigned long long total = 0, sz = (unsigned long long)r->size_bytes;
    for (unsigned long long b = 0; b < h[0]; b++) {
        long long dim, par, count;
        if (r->binary) {
            if (!ipcc_bin_need(r, 1, 12 + sz)) return ipcc_bin_truncated(r);
            dim = ipcc_bin_int(r);
            ipcc_bin_int(r);
            par = ipcc_bin_int(r);
            unsigned long long c = ipcc_bin_size(r);
            count = c > h[1] ? -1 : (long long)c;
        } else {
            long long tag;
            if ((s = ipcc_reader_ll(r, 1, "entity dimension", &dim)) != IPCC_OK ||
                (s = ipcc_reader_ll(r, 0, "entity tag", &tag)) != IPCC_OK ||
                (s = ipcc_reader_ll(r, 0, "parametric flag", &par)) != IPCC_OK ||
                (s = ipcc_reader_ll(r, 0, "nodes in block", &count)) != IPCC_OK)
                return s;
        }
        if (dim < 0 || dim > 3 || par < 0 || par > 1 || count < 0 || (unsigned long long)count > h[1] - total)
            return ipcc_reader_error(r, "bad node block header (dimension %lld, parametric %lld, %lld nodes)",
                                     dim, par, count);
        int first = m->num_nodes;
        if (r->binary) {
            unsigned long long npar = par ? (unsigned long long)dim : 0;
            if (!ipcc_bin_need(r, (unsigned long long)count, sz + 8 * (3 + npar)))
                return ipcc_bin_truncated(r);
            for (long long i = 0; i < count; i++) {
                unsigned long long tag = ipcc_bin_size(r);
                if (tag > LLONG_MAX) return ipcc_reader_error(r, "node tag %llu out of range", tag);
                double zero[3] = {0, 0, 0};
                if ((s = ipcc_raw_add_node(r, m, (long long)tag, zero)) != IPCC_OK) return s;
            }
            for (long long i = 0; i < count; i++) {
                double *x = m->coords + 3 * (size_t)(first + i);
                for (int k = 0; k < 3; k++)
                    x[k] = ipcc_bin_double(r);
                r->pos += 8 * (size_t)npar;
            }
        } else {
            for (long long i = 0; i < count; i++) {
                long long tag;
                double zero[3] = {0, 0, 0};
                if ((s = ipcc_reader_ll(r, 1, "node tag", &tag)) != IPCC_OK) return s;
                if ((s = ipcc_raw_add_node(r, m, tag, zero)) != IPCC_OK) return s;
                ipcc_reader_skip_line(r);
            }
            for (long long i = 0; i < count; i++) {
                double *x = m->coords + 3 * (size_t)(first + i);
                for (int k = 0; k < 3; k++)
                    if ((s = ipcc_reader_double(r, k == 0, "node coordinate", &x[k])) != IPCC_OK) return s;
                ipcc_reader_skip_line(r);
            }
        }
        total += (unsigned long long)count;
    }
    if (total != h[1])
        return ipcc_reader_error(r, "node blocks hold %llu nodes, the header says %llu", total, h[1]);
    return expect_end(r, "Nodes");
}

static ipcc_status msh4_elements(ipcc_reader *r, ipcc_raw_mesh *m) {
    unsigned long long h[4];
    ipcc_status s = msh4_header(r, "element count", h);
    if (s != IPCC_OK) return s;
    unsigned long long total = 0, sz = (unsigned long long)r->size_bytes;
    for (unsigned long long b = 0; b < h[0]; b++) {
        long long type, count, entity;
        if (r->binary) {
            if (!ipcc_bin_need(r, 1, 12 + sz)) return ipcc_bin_truncated(r);
            ipcc_bin_int(r);
            entity = ipcc_bin_int(r);
            type = ipcc_bin_int(r);
            unsigned long long c = ipcc_bin_size(r);
            count = c > h[1] ? -1 : (long long)c;
        } else {
            long long dim;
            if ((s = ipcc_reader_ll(r, 1, "entity dimension", &dim)) != IPCC_OK ||
                (s = ipcc_reader_ll(r, 0, "entity tag", &entity)) != IPCC_OK ||
                (s = ipcc_reader_ll(r, 0, "element type", &type)) != IPCC_OK ||
                (s = ipcc_reader_ll(r, 0, "elements in block", &count)) != IPCC_OK)
                return s;
        }
        if (count < 0 || (unsigned long long)count > h[1] - total)
            return ipcc_reader_error(r, "bad element block header (type %lld, %lld elements)", type, count);
        if (r->binary) {
            int nn = gmsh_nodes_per_element(type);
            if (!nn) return ipcc_reader_error(r, "unknown element type %lld", type);
            if (!ipcc_bin_need(r, (unsigned long long)count, sz * (1 + (unsigned long long)nn)))
                return ipcc_bin_truncated(r);
            for (long long i = 0; i < count; i++) {
                long long loc = (long long)r->pos, v[4];
                unsigned long long id = ipcc_bin_size(r);
                if (type != 4) {
                    r->pos += (size_t)(sz * (unsigned long long)nn);
                    continue;
                }
                for (int k = 0; k < 4; k++) {
                    unsigned long long tag = ipcc_bin_size(r);
                    v[k] = tag > LLONG_MAX ? -1 : (long long)tag;
                }
                if (id > LONG_MAX) return ipcc_reader_error(r, "element tag %llu out of range", id);
                if ((s = ipcc_raw_add_tet(r, m, (long long)id, v, loc, entity)) != IPCC_OK) return s;
            }
        } else {
            for (long long i = 0; i < count; i++) {
                long long id, v[4];
                if ((s = ipcc_reader_ll(r, 1, "element tag", &id)) != IPCC_OK) return s;
                if (type == 4) {
                    for (int k = 0; k < 4; k++)
                        if ((s = ipcc_reader_ll(r, 0, "node tag", &v[k])) != IPCC_OK) return s;
                    if ((s = ipcc_raw_add_tet(r, m, id, v, r->line, entity)) != IPCC_OK) return s;
                }
                ipcc_reader_skip_line(r);
            }
        }
        total += (unsigned long long)count;
    }
    if (total != h[1])
        return ipcc_reader_error(r, "element blocks hold %llu elements, the header says %llu", total, h[1]);
    return expect_end(r, "Elements");
}

// $PhysicalNames (the same text in 2.2 and 4.1, also in binary files):
// "dimension tag "name"" per line. The volume names (dimension 3) are kept;
// a name without quotes, an empty one, or a volume name or number given
// twice is an error at its line.
static ipcc_status physical_names(ipcc_reader *r, ipcc_raw_mesh *m) {
    long long n;
    ipcc_status s = ipcc_reader_count(r, 1, "number of physical names", INT_MAX, 8, &n);
    if (s != IPCC_OK) return s;
    long long *where = NULL; // line (or byte) of each kept name
    int cap_where = 0;
    const char *unit = r->binary ? "byte" : "line";
    for (long long i = 0; i < n && s == IPCC_OK; i++) {
        long long dim, tag;
        if ((s = ipcc_reader_ll(r, 1, "physical dimension", &dim)) != IPCC_OK ||
            (s = ipcc_reader_ll(r, 0, "physical tag", &tag)) != IPCC_OK)
            break;
        long long loc = r->binary ? (long long)r->pos : r->line;
        while (r->pos < r->len && (r->buf[r->pos] == ' ' || r->buf[r->pos] == '\t'))
            r->pos++;
        if (r->pos >= r->len || r->buf[r->pos] != '"') {
            s = ipcc_reader_error(r, "the name of physical group %lld must be in double quotes", tag);
            break;
        }
        size_t start = ++r->pos;
        while (r->pos < r->len && r->buf[r->pos] != '"' && r->buf[r->pos] != '\n')
            r->pos++;
        if (r->pos >= r->len || r->buf[r->pos] != '"') {
            s = ipcc_reader_error(r, "the name of physical group %lld has no closing quote", tag);
            break;
        }
        size_t len = r->pos - start;
        r->pos++;
        ipcc_reader_skip_line(r);
        if (dim < 0 || dim > 3) {
            s = ipcc_reader_error(r, "physical dimension %lld (expected 0 to 3)", dim);
            break;
        }
        if (dim != 3) continue;
        const char *name = r->buf + start;
        if (tag <= 0 || tag > INT_MAX) {
            s = ipcc_reader_error(r, "physical group \"%.*s\" has tag %lld (expected 1 to %d)", (int)len,
                                  name, tag, INT_MAX);
            break;
        }
        if (len == 0) {
            s = ipcc_reader_error(r, "physical group %lld has an empty name", tag);
            break;
        }
        for (int j = 0; j < m->num_names && s == IPCC_OK; j++) {
            if (strlen(m->names[j]) == len && memcmp(m->names[j], name, len) == 0)
                s = ipcc_reader_error(r, "volume name \"%s\" is given twice (tags %d and %lld; also %s %lld)",
                                      m->names[j], m->name_numbers[j], tag, unit, where[j]);
            else if (m->name_numbers[j] == tag)
                s = ipcc_reader_error(
                    r, "physical group %lld is named twice (\"%s\" and \"%.*s\"; also %s %lld)", tag,
                    m->names[j], (int)len, name, unit, where[j]);
        }
        if (s != IPCC_OK) break;
        int k = m->num_names;
        char *copy = malloc(len + 1);
        if (!copy || ipcc_reserve((void **)&m->names, &m->cap_names, k + 1, sizeof *m->names) ||
            ipcc_reserve((void **)&m->name_numbers, &cap_where, k + 1, sizeof *m->name_numbers)) {
            free(copy);
            s = ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for physical names", r->path);
            break;
        }
        long long *w2 = realloc(where, (size_t)cap_where * sizeof *where);
        if (!w2) {
            free(copy);
            s = ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for physical names", r->path);
            break;
        }
        where = w2;
        memcpy(copy, name, len);
        copy[len] = '\0';
        m->names[k] = copy;
        m->name_numbers[k] = (int)tag;
        where[k] = loc;
        m->num_names++;
    }
    free(where);
    if (s != IPCC_OK) return s;
    return expect_end(r, "PhysicalNames");
}

static int compare_volumes(const void *pa, const void *pb) {
    const msh_volume *a = pa, *b = pb;
    return (a->tag > b->tag) - (a->tag < b->tag);
}

// One 4.1 $Entities record of dimension `dim` (0 = point: x y z; else a
// bounding box and the bounding entities). *physical gets the first of its
// physical tags (0 if none), *num_physicals their number.
static ipcc_status entity_record(ipcc_reader *r, int dim, long long *tag, long long *physical,
                                 long long *num_physicals) {
    ipcc_status s;
    *physical = 0;
    size_t sz = (size_t)r->size_bytes, coords = dim == 0 ? 3 : 6;
    if (r->binary) {
        if (!ipcc_bin_need(r, 1, 4 + 8 * coords + sz)) return ipcc_bin_truncated(r);
        *tag = ipcc_bin_int(r);
        r->pos += 8 * coords;
        unsigned long long np = ipcc_bin_size(r);
        if (!ipcc_bin_need(r, np, 4))
            return ipcc_reader_error(r, "entity %lld: %llu physical tags do not fit the file", *tag, np);
        *num_physicals = (long long)np;
        if (np > 0) *physical = ipcc_bin_int(r);
        r->pos += 4 * (size_t)(np > 0 ? np - 1 : 0);
        if (dim > 0) {
            if (!ipcc_bin_need(r, 1, sz)) return ipcc_bin_truncated(r);
            unsigned long long nb = ipcc_bin_size(r);
            if (!ipcc_bin_need(r, nb, 4))
                return ipcc_reader_error(r, "entity %lld: %llu bounding entities do not fit the file", *tag,
                                         nb);
            r->pos += 4 * (size_t)nb;
        }
        return IPCC_OK;
    }
    if ((s = ipcc_reader_ll(r, 1, "entity tag", tag)) != IPCC_OK) return s;
    for (size_t k = 0; k < coords; k++) { // a point or a bounding box: not used
        ipcc_token t;
        if ((s = ipcc_reader_need(r, 0, "entity coordinate", &t)) != IPCC_OK) return s;
    }
    if ((s = ipcc_reader_ll(r, 0, "number of physical tags", num_physicals)) != IPCC_OK) return s;
    if (*num_physicals < 0)
        return ipcc_reader_error(r, "entity %lld: negative number of physical tags", *tag);
    for (long long k = 0; k < *num_physicals; k++) {
        long long p;
        if ((s = ipcc_reader_ll(r, 0, "physical tag (does the count of physical tags fit the line?)", &p)) !=
            IPCC_OK)
            return s;
        if (k == 0) *physical = p;
    }
    ipcc_reader_skip_line(r); // the bounding entities
    return IPCC_OK;
}

// 4.1 $Entities: the physical group of every volume entity. Either every
// volume is in a physical group or none is (a volume left out would get no
// material silently); a volume in several takes the first (a warning).
static ipcc_status msh4_entities(ipcc_reader *r, msh_state *st) {
    unsigned long long counts[4];
    ipcc_status s = msh4_header(r, "entity count", counts);
    if (s != IPCC_OK) return s;
    if (counts[2] > r->len - r->pos || counts[3] > r->len - r->pos)
        return ipcc_reader_error(r, "entity counts are larger than the file can hold (truncated?)");
    if (counts[3] > 0 && !(st->volumes = malloc((size_t)counts[3] * sizeof *st->volumes)))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %llu volume entities", r->path,
                         counts[3]);
    long long with = -1, without = -1, with_loc = 0, without_loc = 0, several = -1;
    for (int dim = 0; dim < 4; dim++) {
        for (unsigned long long i = 0; i < counts[dim]; i++) {
            long long tag, physical, np;
            if ((s = entity_record(r, dim, &tag, &physical, &np)) != IPCC_OK) return s;
            if (dim != 3) continue;
            long long loc = r->binary ? (long long)r->pos : r->line;
            if (physical < 0 || physical > INT_MAX)
                return ipcc_reader_error(r, "volume entity %lld: physical tag %lld out of range", tag,
                                         physical);
            if (np > 0 && with < 0) with = tag, with_loc = loc;
            if (np == 0 && without < 0) without = tag, without_loc = loc;
            if (np > 1 && several < 0) several = tag;
            st->volumes[st->num_volumes++] = (msh_volume){tag, physical};
        }
    }
    if (with >= 0 && without >= 0) {
        if (r->binary)
            r->pos = (size_t)without_loc;
        else
            r->line = (long)without_loc;
        return ipcc_reader_error(
            r,
            "volume entity %lld is in no physical group, but volume entity %lld (%s %lld) is "
            "in one: put every volume in a physical group, or none",
            without, with, r->binary ? "byte" : "line", with_loc);
    }
    if (several >= 0)
        ipcc_log(IPCC_LOG_WARNING,
                 "%s: volume entity %lld is in several physical groups; its tets take the first", r->path,
                 several);
    qsort(st->volumes, (size_t)st->num_volumes, sizeof *st->volumes, compare_volumes);
    for (int i = 1; i < st->num_volumes; i++)
        if (st->volumes[i].tag == st->volumes[i - 1].tag)
            return ipcc_reader_error(r, "volume entity %lld is defined twice", st->volumes[i].tag);
    st->have_entities = with >= 0 ? 2 : 1; // 2: the volumes carry physical groups
    return expect_end(r, "Entities");
}

// 4.1: each tet's entity tag becomes its volume's physical group.
static ipcc_status resolve_entities(const ipcc_reader *r, const msh_state *st, ipcc_raw_mesh *m) {
    for (int t = 0; t < m->num_tets; t++) {
        long long entity = m->tet_region[t];
        m->tet_region[t] = 0;
        if (st->have_entities != 2) continue;
        msh_volume key = {entity, 0};
        const msh_volume *v =
            bsearch(&key, st->volumes, (size_t)st->num_volumes, sizeof key, compare_volumes);
        if (!v) {
            if (r->binary)
                return ipcc_fail(
                    IPCC_ERR_PARSE,
                    "%s: $Elements (binary, byte %lld): element %ld: volume entity %lld is not in "
                    "$Entities",
                    r->path, m->tet_loc[t], m->tet_ids[t], entity);
            return ipcc_fail(IPCC_ERR_PARSE, "%s:%lld: element %ld: volume entity %lld is not in $Entities",
                             r->path, m->tet_loc[t], m->tet_ids[t], entity);
        }
        m->tet_region[t] = v->physical;
        if (v->physical != 0) m->has_regions = 1;
    }
    return IPCC_OK;
}

static ipcc_status read_sections(ipcc_reader *r, ipcc_raw_mesh *m, msh_state *st) {
    ipcc_token t;
    ipcc_status s = IPCC_OK;
    while (s == IPCC_OK && ipcc_reader_next(r, 1, &t)) {
        int is_nodes = ipcc_token_is(t, "$Nodes"), is_elements = ipcc_token_is(t, "$Elements");
        if (ipcc_token_is(t, "$MeshFormat")) {
            if (st->have_format) return ipcc_reader_error(r, "second $MeshFormat section");
            s = msh_format(r, st);
        } else if (is_nodes || is_elements) {
            if (!st->have_format) return ipcc_reader_error(r, "%.*s before $MeshFormat", (int)t.n, t.s);
            int *have = is_nodes ? &st->have_nodes : &st->have_elements;
            if (*have) return ipcc_reader_error(r, "second %.*s section", (int)t.n, t.s);
            *have = 1;
            r->section = is_nodes ? "$Nodes" : "$Elements";
            if (is_nodes)
                s = st->major == 2 ? msh2_nodes(r, m) : msh4_nodes(r, m);
            else
                s = st->major == 2 ? msh2_elements(r, m) : msh4_elements(r, m);
        } else if (ipcc_token_is(t, "$PhysicalNames")) {
            if (st->have_names) return ipcc_reader_error(r, "second $PhysicalNames section");
            st->have_names = 1;
            r->section = "$PhysicalNames";
            s = physical_names(r, m);
        } else if (ipcc_token_is(t, "$Entities") && st->major == 4) {
            if (st->have_entities) return ipcc_reader_error(r, "second $Entities section");
            r->section = "$Entities";
            s = msh4_entities(r, st);
        } else if (t.n > 1 && t.s[0] == '$' && !(t.n >= 4 && memcmp(t.s, "$End", 4) == 0)) {
            r->section = "unknown section";
            s = skip_section(r, t);
        } else {
            int n = t.n > 40 ? 40 : (int)t.n;
            return ipcc_reader_error(r, "unexpected '%.*s' outside a section", n, t.s);
        }
    }
    if (s != IPCC_OK) return s;
    if (!st->have_format)
        return ipcc_fail(IPCC_ERR_PARSE, "%s: no $MeshFormat section (not a Gmsh file?)", r->path);
    if (!st->have_nodes) return ipcc_fail(IPCC_ERR_PARSE, "%s: no $Nodes section", r->path);
    if (!st->have_elements) return ipcc_fail(IPCC_ERR_PARSE, "%s: no $Elements section", r->path);
    return IPCC_OK;
}

// The sections of the loaded file into the raw mesh, 4.1 entities resolved.
static ipcc_status read_gmsh(ipcc_reader *r, ipcc_raw_mesh *m) {
    msh_state st = {0};
    m->tet_file = r->path;
    ipcc_status s = read_sections(r, m, &st);
    if (s == IPCC_OK && st.major == 4) s = resolve_entities(r, &st, m);
    free(st.volumes);
    return s;
}

ipcc_status ipcc_gmsh_read(const char *path, ipcc_mesh **out) {
    ipcc_reader r;
    ipcc_status s = ipcc_reader_load(path, &r);
    if (s != IPCC_OK) return s;
    ipcc_raw_mesh m = {0};
    s = read_gmsh(&r, &m);
    if (s == IPCC_OK) s = ipcc_raw_to_mesh(&m, path, path, r.binary, out);
    ipcc_raw_free(&m);
    free(r.buf);
    return s;
}
