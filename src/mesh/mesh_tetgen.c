// TetGen .node/.ele reader (https://wias-berlin.de/software/tetgen/fformats.html).
//
// Either path may be given; the sibling with the other extension is read
// too. Point numbers may start at 0 or 1 (or anywhere): they are tags. Tets
// with 10 nodes keep their 4 corners. `#` starts a comment. Only blanks and
// comments may follow the records a header counts, so a wrong count is an
// error rather than a silently shorter mesh.
//
// Regions. When the .ele header declares attributes, the first attribute
// of each tet is its region number (`tetgen -A` writes the region attribute
// there); it must be an integer, and a tet without it is an error naming
// its line. 0 is "no region". Point attributes and boundary markers of the
// .node file are skipped.
#include "mesh/mesh_tetgen.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "mesh/mesh_reader.h"

// Only blanks and comments may follow the records a TetGen header counts: a
// wrong count must not silently drop (or ignore) part of the mesh.
static ipcc_status expect_tetgen_end(ipcc_reader *r, long long n, const char *what) {
    ipcc_token t;
    if (!ipcc_reader_next(r, 1, &t)) return IPCC_OK;
    return ipcc_reader_error(r, "'%.*s' after the %lld %s the header declares (wrong count in the header?)",
                             (int)(t.n > 32 ? 32 : t.n), t.s, n, what);
}

static ipcc_status read_tetgen_node(ipcc_reader *r, ipcc_raw_mesh *m) {
    long long n, dim, nattr, nmark;
    ipcc_status s;
    if ((s = ipcc_reader_count(r, 1, "number of points", INT_MAX, 2, &n)) != IPCC_OK ||
        (s = ipcc_reader_ll(r, 0, "dimension", &dim)) != IPCC_OK)
        return s;
    // Attribute and marker counts are optional in the header.
    if ((s = ipcc_reader_optional_ll(r, "number of attributes", &nattr)) != IPCC_OK ||
        (s = ipcc_reader_optional_ll(r, "boundary marker flag", &nmark)) != IPCC_OK)
        return s;
    if (dim != 3) return ipcc_reader_error(r, "dimension %lld, expected 3", dim);
    if (nattr < 0 || nmark < 0 || nmark > 1)
        return ipcc_reader_error(r, "bad header (%lld attributes, boundary marker flag %lld)", nattr, nmark);
    ipcc_reader_skip_line(r);
    if ((s = ipcc_raw_reserve_nodes(r, m, n)) != IPCC_OK) return s;
    for (long long i = 0; i < n; i++) {
        long long tag;
        double x[3];
        if ((s = ipcc_reader_ll(r, 1, "point number", &tag)) != IPCC_OK) return s;
        for (int k = 0; k < 3 && s == IPCC_OK; k++)
            s = ipcc_reader_double(r, 0, "point coordinate", &x[k]);
        if (s != IPCC_OK || (s = ipcc_raw_add_node(r, m, tag, x)) != IPCC_OK) return s;
        ipcc_reader_skip_line(r);
    }
    return expect_tetgen_end(r, n, "points");
}

static ipcc_status read_tetgen_ele(ipcc_reader *r, ipcc_raw_mesh *m) {
    long long n, per, nattr;
    ipcc_status s;
    if ((s = ipcc_reader_count(r, 1, "number of tetrahedra", INT_MAX / 4, 2, &n)) != IPCC_OK ||
        (s = ipcc_reader_ll(r, 0, "nodes per tetrahedron", &per)) != IPCC_OK)
        return s;
    if ((s = ipcc_reader_optional_ll(r, "number of attributes", &nattr)) != IPCC_OK) return s;
    if (per != 4 && per != 10)
        return ipcc_reader_error(r, "%lld nodes per tetrahedron, expected 4 or 10", per);
    if (nattr < 0) return ipcc_reader_error(r, "negative number of attributes %lld", nattr);
    ipcc_reader_skip_line(r);
    m->tet_file = r->path;
    m->has_regions = nattr > 0;
    for (long long i = 0; i < n; i++) {
        long long id, v[4], region = 0;
        if ((s = ipcc_reader_ll(r, 1, "tetrahedron number", &id)) != IPCC_OK) return s;
        for (int k = 0; k < 4; k++)
            if ((s = ipcc_reader_ll(r, 0, "node number", &v[k])) != IPCC_OK) return s;
        if (nattr > 0) {
            // The region attribute: the first attribute, after all `per` nodes.
            for (long long k = 4; k < per; k++) {
                long long ignored;
                if ((s = ipcc_reader_ll(r, 0, "node number", &ignored)) != IPCC_OK) return s;
            }
            double a;
            if ((s = ipcc_reader_double(r, 0, "region attribute (the header declares attributes)", &a)) !=
                IPCC_OK)
                return s;
            if (a != floor(a) || a < INT_MIN || a > INT_MAX)
                return ipcc_reader_error(r, "tetrahedron %lld: region attribute %g is not an integer", id, a);
            region = (long long)a;
        }
        if ((s = ipcc_raw_add_tet(r, m, id, v, r->line, region)) != IPCC_OK) return s;
        ipcc_reader_skip_line(r);
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

ipcc_status ipcc_tetgen_read(const char *path, size_t ext_len, int given_is_node, ipcc_mesh **out) {
    char *other = sibling_path(path, ext_len, given_is_node ? ".ele" : ".node");
    if (!other) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", path);
    const char *node_path = given_is_node ? path : other, *ele_path = given_is_node ? other : path;
    ipcc_raw_mesh m = {0};
    ipcc_reader rn, re;
    ipcc_status s = ipcc_reader_load(node_path, &rn);
    if (s == IPCC_OK) {
        rn.comments = 1;
        s = read_tetgen_node(&rn, &m);
        free(rn.buf);
    }
    if (s == IPCC_OK && (s = ipcc_reader_load(ele_path, &re)) == IPCC_OK) {
        re.comments = 1;
        s = read_tetgen_ele(&re, &m);
        free(re.buf);
    }
    if (s == IPCC_OK) s = ipcc_raw_to_mesh(&m, ele_path, node_path, 0, out);
    ipcc_raw_free(&m);
    free(other);
    return s;
}
