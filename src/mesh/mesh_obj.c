// Triangle surface meshes (kinematic obstacles) and codimensional ones
// (segment sets, point sets): creation from arrays and the Wavefront .obj,
// IPC .seg and point (.pt) readers.
//
// ipcc_trimesh_create() validates (at least one face, indices in range, three
// distinct vertices per face, finite coordinates), copies, and builds the
// unique undirected edges by sorting the 3 * num_faces face edges, O(n log n).
// Faces whose doubled area is at most 1e-14 * (longest edge)^2 (collinear or
// coincident vertices, as far as round-off can tell) are legal but useless
// for contact: they are counted and logged as one warning. Vertices no face
// references are kept, so indices match the source, and logged.
//
// ipcc_trimesh_create_segments() builds the codimensional meshes: num_faces =
// 0 and faces = NULL always. With num_edges >= 1 it is a segment set: the
// segments are validated (indices in range, two distinct vertices), stored as
// (lo, hi), sorted and merged (a duplicate or reversed duplicate is one edge,
// logged), so `edges` has the same form as a triangle mesh's. Vertices in no
// segment are kept and logged; contact ignores them (as it ignores a
// triangle mesh's unreferenced vertices). With num_edges = 0 it is a point
// set (edges = NULL): every vertex is a point, and at least one is required.
//
// The readers read the file line by line (getline), so every message is
// "file:line: ...". One tokenizer serves three formats:
//   .obj    `v x y z [w] [r g b]`: 3 coordinates, then up to 4 more numbers
//           (a homogeneous w and/or vertex colours) that are checked to be
//           numbers and ignored;
//           `f v1 v2 v3 ...`: each vertex `i`, `i/t`, `i//n` or `i/t/n`; i is
//           1-based, or negative and relative to the vertices read so far
//           (-1 = the last). t and n must be integers and are ignored.
//           Positive indices may refer to vertices defined later in the file;
//           they are range-checked at the end of the file. Polygons are
//           fan-triangulated from their first vertex: (v1, v2, v3),
//           (v1, v3, v4), ... (exact for convex polygons, which is what
//           exporters write).
//   .seg    v lines as above, and `s i j`: a segment between 1-based
//           vertices i and j (exactly two positive integers; forward
//           references allowed, range-checked at the end of the file).
//   points  (ipcc_trimesh_read_points, IPC's .pt): the v lines of an .obj;
//           f lines and the other statements are skipped.
// `#` starts a comment anywhere; blank lines, CR before LF, and the statements
// vt, vn, vp, l, p, o, g, s, usemtl, mtllib (in .obj and point files) are
// skipped. Any other statement (free-form curves and surfaces, `f` or `l` in
// a .seg, ...) is skipped too, with one warning that names the first such
// line and the count. Line continuation with a trailing backslash is not
// supported.
//
// Errors: the file cannot be opened or read (IPCC_ERR_IO); a malformed or
// non-finite number, too few coordinates, a face with fewer than 3 vertices, a
// segment without exactly 2 vertices, a vertex index that is 0, negative (in
// a .seg) or refers to no vertex (IPCC_ERR_PARSE); a face or segment
// repeating a vertex, or no faces (.obj), no segments (.seg), no vertices
// (points) in the file (IPCC_ERR_MESH).
#include "ipcc/mesh.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "base/core.h"

// ---------------------------------------------------------------------------
// Creation from arrays.

typedef struct edge_pair {
    int a, b;
} edge_pair;

static int compare_edge_pairs(const void *pa, const void *pb) {
    const edge_pair *x = pa, *y = pb;
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return (x->b > y->b) - (x->b < y->b);
}

// "<source>:<line>" when the faces came from a file, "<source>: face <f>" otherwise.
static void face_location(char *buf, size_t n, const char *src, const long *lines, int f) {
    if (lines)
        snprintf(buf, n, "%s:%ld", src, lines[f]);
    else
        snprintf(buf, n, "%s: face %d", src, f);
}

// Twice the area of face f is at most 1e-14 times its longest edge squared.
static int zero_area(const double *x, const int *f) {
    const double *p = x + 3 * f[0], *q = x + 3 * f[1], *r = x + 3 * f[2];
    double u[3], v[3], w[3], n[3];
    for (int k = 0; k < 3; k++)
        u[k] = q[k] - p[k], v[k] = r[k] - p[k], w[k] = r[k] - q[k];
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2], vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    double ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    double longest2 = fmax(uu, fmax(vv, ww));
    return !(sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) > 1e-14 * longest2);
}

static ipcc_status build_edges(ipcc_trimesh *m, const char *src) {
    size_t n = 3 * (size_t)m->num_faces;
    edge_pair *e = malloc(n * sizeof *e);
    if (!e) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %d faces", src, m->num_faces);
    for (size_t f = 0; f < (size_t)m->num_faces; f++)
        for (int i = 0; i < 3; i++) {
            int a = m->faces[3 * f + i], b = m->faces[3 * f + (i + 1) % 3];
            e[3 * f + i] = (edge_pair){a < b ? a : b, a < b ? b : a};
        }
    qsort(e, n, sizeof *e, compare_edge_pairs);
    size_t nu = 0;
    for (size_t i = 0; i < n; i++)
        if (nu == 0 || compare_edge_pairs(&e[i], &e[nu - 1]) != 0) e[nu++] = e[i];
    m->edges = malloc(2 * nu * sizeof *m->edges);
    if (!m->edges) {
        free(e);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %zu edges", src, nu);
    }
    for (size_t i = 0; i < nu; i++) {
        m->edges[2 * i] = e[i].a;
        m->edges[2 * i + 1] = e[i].b;
    }
    m->num_edges = (int)nu;
    free(e);
    return IPCC_OK;
}

// Every coordinate finite (IPCC_ERR_MESH naming the 0-based vertex otherwise).
static ipcc_status check_vertices(int num_vertices, const double *vertices, const char *src) {
    IPCC_ASSERT(vertices != NULL || num_vertices == 0);
    for (int v = 0; v < num_vertices; v++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(vertices[3 * v + k]))
                return ipcc_fail(IPCC_ERR_MESH, "%s: vertex %d: non-finite coordinate %g", src, v,
                                 vertices[3 * v + k]);
    return IPCC_OK;
}

// ipcc_trimesh_create(); `lines` (may be NULL) gives the file line of each face.
static ipcc_status trimesh_create(int num_vertices, const double *vertices, int num_faces, const int *faces,
                                  const char *src, const long *lines, ipcc_trimesh **out) {
    char where[600];
    if (num_vertices < 0 || num_vertices > INT_MAX / 3 || num_faces < 0 || num_faces > INT_MAX / 3)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: bad sizes (%d vertices, %d faces)", src,
                         num_vertices, num_faces);
    if (num_faces == 0) return ipcc_fail(IPCC_ERR_MESH, "%s: no faces", src);
    IPCC_ASSERT(faces != NULL);
    ipcc_status vs = check_vertices(num_vertices, vertices, src);
    if (vs != IPCC_OK) return vs;
    for (int f = 0; f < num_faces; f++) {
        const int *t = faces + 3 * f;
        for (int i = 0; i < 3; i++) {
            if (t[i] < 0 || t[i] >= num_vertices) {
                face_location(where, sizeof where, src, lines, f);
                return ipcc_fail(IPCC_ERR_MESH, "%s: vertex index %d out of range (%d vertices)", where, t[i],
                                 num_vertices);
            }
            if (t[i] == t[(i + 1) % 3]) {
                face_location(where, sizeof where, src, lines, f);
                return ipcc_fail(IPCC_ERR_MESH, "%s: vertex index %d repeated in a face", where, t[i]);
            }
        }
    }

    ipcc_trimesh *m = calloc(1, sizeof *m);
    if (m) {
        m->vertices = malloc((num_vertices ? 3 * (size_t)num_vertices : 1) * sizeof *m->vertices);
        m->faces = malloc(3 * (size_t)num_faces * sizeof *m->faces);
    }
    char *used = calloc(num_vertices ? (size_t)num_vertices : 1, 1);
    if (!m || !m->vertices || !m->faces || !used) {
        free(used);
        ipcc_trimesh_destroy(m);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %d vertices, %d faces", src, num_vertices,
                         num_faces);
    }
    m->num_vertices = num_vertices;
    m->num_faces = num_faces;
    if (num_vertices) memcpy(m->vertices, vertices, 3 * (size_t)num_vertices * sizeof *m->vertices);
    memcpy(m->faces, faces, 3 * (size_t)num_faces * sizeof *m->faces);
    ipcc_status s = build_edges(m, src);
    if (s != IPCC_OK) {
        free(used);
        ipcc_trimesh_destroy(m);
        return s;
    }

    int num_flat = 0, first_flat = -1, num_unused = 0;
    for (int f = 0; f < num_faces; f++) {
        for (int i = 0; i < 3; i++)
            used[faces[3 * f + i]] = 1;
        if (zero_area(vertices, faces + 3 * f) && num_flat++ == 0) first_flat = f;
    }
    for (int v = 0; v < num_vertices; v++)
        num_unused += !used[v];
    free(used);
    if (num_flat > 0) {
        face_location(where, sizeof where, src, lines, first_flat);
        ipcc_log(IPCC_LOG_WARNING, "%s: zero-area face (collinear vertices); %d such face%s of %d", where,
                 num_flat, num_flat == 1 ? "" : "s", num_faces);
    }
    if (num_unused > 0)
        ipcc_log(IPCC_LOG_WARNING, "%s: %d of %d vertices are in no face (kept)", src, num_unused,
                 num_vertices);
    ipcc_log(IPCC_LOG_DEBUG, "%s: %d vertices, %d triangles, %d edges", src, num_vertices, num_faces,
             m->num_edges);
    *out = m;
    return IPCC_OK;
}

ipcc_status ipcc_trimesh_create(int num_vertices, const double *vertices, int num_faces, const int *faces,
                                const char *source, ipcc_trimesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    return trimesh_create(num_vertices, vertices, num_faces, faces, source ? source : "triangle mesh", NULL,
                          out);
}

// "<source>:<line>" when the segments came from a file, "<source>: segment <s>" otherwise.
static void segment_location(char *buf, size_t n, const char *src, const long *lines, int s) {
    if (lines)
        snprintf(buf, n, "%s:%ld", src, lines[s]);
    else
        snprintf(buf, n, "%s: segment %d", src, s);
}

// ipcc_trimesh_create_segments(); `lines` (may be NULL) gives the file line of each segment.
static ipcc_status segments_create(int num_vertices, const double *vertices, int num_edges, const int *edges,
                                   const char *src, const long *lines, ipcc_trimesh **out) {
    char where[600];
    if (num_vertices < 0 || num_vertices > INT_MAX / 3 || num_edges < 0 || num_edges > INT_MAX / 3)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: bad sizes (%d vertices, %d segments)", src,
                         num_vertices, num_edges);
    if (num_vertices == 0) return ipcc_fail(IPCC_ERR_MESH, "%s: no vertices", src);
    IPCC_ASSERT(edges != NULL || num_edges == 0);
    ipcc_status s = check_vertices(num_vertices, vertices, src);
    if (s != IPCC_OK) return s;
    for (int e = 0; e < num_edges; e++) {
        const int *g = edges + 2 * e;
        for (int i = 0; i < 2; i++)
            if (g[i] < 0 || g[i] >= num_vertices) {
                segment_location(where, sizeof where, src, lines, e);
                return ipcc_fail(IPCC_ERR_MESH, "%s: vertex index %d out of range (%d vertices)", where, g[i],
                                 num_vertices);
            }
        if (g[0] == g[1]) {
            segment_location(where, sizeof where, src, lines, e);
            return ipcc_fail(IPCC_ERR_MESH, "%s: vertex index %d repeated in a segment", where, g[0]);
        }
    }

    ipcc_trimesh *m = calloc(1, sizeof *m);
    edge_pair *pairs = malloc((num_edges ? (size_t)num_edges : 1) * sizeof *pairs);
    char *used = calloc((size_t)num_vertices, 1);
    if (m) {
        m->vertices = malloc(3 * (size_t)num_vertices * sizeof *m->vertices);
        if (num_edges) m->edges = malloc(2 * (size_t)num_edges * sizeof *m->edges);
    }
    if (!m || !m->vertices || (num_edges && !m->edges) || !pairs || !used) {
        free(pairs);
        free(used);
        ipcc_trimesh_destroy(m);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory for %d vertices, %d segments", src,
                         num_vertices, num_edges);
    }
    m->num_vertices = num_vertices;
    memcpy(m->vertices, vertices, 3 * (size_t)num_vertices * sizeof *m->vertices);
    for (int e = 0; e < num_edges; e++) {
        int a = edges[2 * e], b = edges[2 * e + 1];
        pairs[e] = (edge_pair){a < b ? a : b, a < b ? b : a};
        used[a] = used[b] = 1;
    }
    qsort(pairs, (size_t)num_edges, sizeof *pairs, compare_edge_pairs);
    int nu = 0;
    for (int e = 0; e < num_edges; e++)
        if (nu == 0 || compare_edge_pairs(&pairs[e], &pairs[nu - 1]) != 0) pairs[nu++] = pairs[e];
    for (int e = 0; e < nu; e++) {
        m->edges[2 * e] = pairs[e].a;
        m->edges[2 * e + 1] = pairs[e].b;
    }
    m->num_edges = nu;
    int num_unused = 0;
    for (int v = 0; v < num_vertices && num_edges > 0; v++)
        num_unused += !used[v];
    free(pairs);
    free(used);
    if (nu < num_edges)
        ipcc_log(IPCC_LOG_WARNING, "%s: %d duplicate segment%s merged (%d of %d unique)", src, num_edges - nu,
                 num_edges - nu == 1 ? "" : "s", nu, num_edges);
    if (num_unused > 0)
        ipcc_log(IPCC_LOG_WARNING, "%s: %d of %d vertices are in no segment (kept, not in contact)", src,
                 num_unused, num_vertices);
    if (num_edges > 0)
        ipcc_log(IPCC_LOG_DEBUG, "%s: %d vertices, %d segments", src, num_vertices, nu);
    else
        ipcc_log(IPCC_LOG_DEBUG, "%s: %d points", src, num_vertices);
    *out = m;
    return IPCC_OK;
}

ipcc_status ipcc_trimesh_create_segments(int num_vertices, const double *vertices, int num_edges,
                                         const int *edges, const char *source, ipcc_trimesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    return segments_create(num_vertices, vertices, num_edges, edges,
                           source ? source : (num_edges > 0 ? "segment set" : "point set"), NULL, out);
}

void ipcc_trimesh_destroy(ipcc_trimesh *m) {
    if (!m) return;
    IPCC_FREE(m->vertices);
    IPCC_FREE(m->faces);
    IPCC_FREE(m->edges);
    free(m);
}

// ---------------------------------------------------------------------------
// The .obj reader.

/// What a reader keeps from the file.
typedef enum reader_mode {
    READ_OBJ,    ///< v and f: a triangle mesh
    READ_SEG,    ///< v and s: a segment set
    READ_POINTS, ///< v only: a point set
} reader_mode;

typedef struct obj_reader {
    const char *path;
    reader_mode mode;
    long line; // 1-based line being parsed
    double *vertices;
    int num_vertices, cap_vertices; // cap in doubles
    int *corners;                   // polygon corners (.seg: 2 per segment), 0-based vertex indices
    int num_corners, cap_corners;   // (positive ones unchecked)
    int *poly_start;                // first corner of each polygon, plus one past the last (unused in a .seg)
    long *poly_line;                // file line of each polygon (.seg: of each segment)
    int num_polys, cap_start, cap_line; // polygons (.seg: segments)
    int num_unknown;                    // statements skipped with a warning
    long first_unknown;
    char unknown[32];
} obj_reader;

static ipcc_status obj_error(const obj_reader *r, ipcc_status status, const char *fmt, ...) IPCC_PRINTF(3, 4);

static ipcc_status obj_error(const obj_reader *r, ipcc_status status, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ipcc_fail(status, "%s:%ld: %s", r->path, r->line, msg);
}

static ipcc_status obj_no_memory(const obj_reader *r) {
    return obj_error(r, IPCC_ERR_NO_MEMORY, "out of memory");
}

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

// Next whitespace-separated token of *cursor, NUL-terminated in place; NULL at the end.
static char *next_token(char **cursor) {
    char *s = *cursor;
    while (*s && is_space(*s))
        s++;
    if (!*s) {
        *cursor = s;
        return NULL;
    }
    char *t = s;
    while (*s && !is_space(*s))
        s++;
    if (*s) *s++ = '\0';
    *cursor = s;
    return t;
}

// A whole token as a double; 0 if it is not a number.
static int parse_double(const char *t, double *v) {
    char *end;
    *v = strtod(t, &end);
    return end != t && *end == '\0';
}

// Leading integer of *s (optional sign, at least one digit), saturating near
// +-LLONG_MAX / 10; advances *s. 0 if there is none.
static int parse_integer(const char **s, long long *v) {
    const char *p = *s;
    int neg = *p == '-';
    if (*p == '-' || *p == '+') p++;
    if (*p < '0' || *p > '9') return 0;
    long long x = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if (x < LLONG_MAX / 10 - 10) x = 10 * x + (*p - '0');
    *v = neg ? -x : x;
    *s = p;
    return 1;
}

// `v x y z [w] [r g b]`; the cursor is past the keyword.
static ipcc_status read_vertex(obj_reader *r, char *cursor) {
    if (r->num_vertices >= INT_MAX / 3) return obj_error(r, IPCC_ERR_PARSE, "too many vertices");
    if (ipcc_reserve((void **)&r->vertices, &r->cap_vertices, 3 * (r->num_vertices + 1), sizeof *r->vertices))
        return obj_no_memory(r);
    double *x = r->vertices + 3 * (size_t)r->num_vertices;
    int n = 0;
    for (char *t; (t = next_token(&cursor)) != NULL; n++) {
        double v;
        if (n == 7) return obj_error(r, IPCC_ERR_PARSE, "vertex with more than 7 values (x y z [w] [r g b])");
        if (!parse_double(t, &v))
            return obj_error(r, IPCC_ERR_PARSE, "bad number '%.40s' in vertex %d", t, r->num_vertices + 1);
        if (n >= 3) continue;
        if (!isfinite(v))
            return obj_error(r, IPCC_ERR_PARSE, "non-finite coordinate '%.40s' in vertex %d", t,
                             r->num_vertices + 1);
        x[n] = v;
    }
    if (n < 3) return obj_error(r, IPCC_ERR_PARSE, "vertex with %d coordinates, expected 3", n);
    r->num_vertices++;
    return IPCC_OK;
}

// One face vertex `i`, `i/t`, `i//n` or `i/t/n` into a 0-based index.
static ipcc_status read_corner(obj_reader *r, const char *t, int *index) {
    const char *s = t;
    long long i, other;
    int ok = parse_integer(&s, &i);
    if (ok && *s == '/') {
        s++;
        if (*s == '/') { // i//n
            s++;
            ok = parse_integer(&s, &other);
        } else { // i/t or i/t/n
            ok = parse_integer(&s, &other);
            if (ok && *s == '/') {
                s++;
                ok = parse_integer(&s, &other);
            }
        }
    }
    if (!ok || *s != '\0')
        return obj_error(r, IPCC_ERR_PARSE, "bad face vertex '%.40s' (expected i, i/t, i//n or i/t/n)", t);
    if (i == 0) return obj_error(r, IPCC_ERR_PARSE, "vertex index 0 (indices start at 1)");
    if (i < 0) {
        if (-i > r->num_vertices)
            return obj_error(r, IPCC_ERR_PARSE, "relative vertex index %lld, but only %d vertices so far", i,
                             r->num_vertices);
        *index = r->num_vertices + (int)i;
    } else {
        // Forward references are allowed; the range is checked at the end.
        *index = i > INT_MAX / 3 ? INT_MAX / 3 : (int)i - 1;
    }
    return IPCC_OK;
}

// `f v1 v2 v3 ...`; the cursor is past the keyword.
static ipcc_status read_face(obj_reader *r, char *cursor) {
    if (ipcc_reserve((void **)&r->poly_start, &r->cap_start, r->num_polys + 2, sizeof *r->poly_start) ||
        ipcc_reserve((void **)&r->poly_line, &r->cap_line, r->num_polys + 1, sizeof *r->poly_line))
        return obj_no_memory(r);
    int first = r->num_corners;
    for (char *t; (t = next_token(&cursor)) != NULL;) {
        if (r->num_corners >= INT_MAX / 3) return obj_error(r, IPCC_ERR_PARSE, "too many faces");
        if (ipcc_reserve((void **)&r->corners, &r->cap_corners, r->num_corners + 1, sizeof *r->corners))
            return obj_no_memory(r);
        ipcc_status s = read_corner(r, t, &r->corners[r->num_corners]);
        if (s != IPCC_OK) return s;
        r->num_corners++;
    }
    int n = r->num_corners - first;
    if (n < 3) return obj_error(r, IPCC_ERR_PARSE, "face with %d vertices, expected at least 3", n);
    r->poly_start[r->num_polys] = first;
    r->poly_line[r->num_polys] = r->line;
    r->num_polys++;
    r->poly_start[r->num_polys] = r->num_corners;
    return IPCC_OK;
}

// `s i j` of a .seg; the cursor is past the keyword.
static ipcc_status read_segment(obj_reader *r, char *cursor) {
    if (r->num_polys >= INT_MAX / 3) return obj_error(r, IPCC_ERR_PARSE, "too many segments");
    if (ipcc_reserve((void **)&r->corners, &r->cap_corners, 2 * (r->num_polys + 1), sizeof *r->corners) ||
        ipcc_reserve((void **)&r->poly_line, &r->cap_line, r->num_polys + 1, sizeof *r->poly_line))
        return obj_no_memory(r);
    int n = 0, index[2];
    for (char *t; (t = next_token(&cursor)) != NULL; n++) {
        if (n == 2) return obj_error(r, IPCC_ERR_PARSE, "segment with more than 2 vertices");
        const char *q = t;
        long long i;
        if (!parse_integer(&q, &i) || *q != '\0')
            return obj_error(r, IPCC_ERR_PARSE, "bad segment vertex '%.40s' (expected a 1-based index)", t);
        if (i <= 0) return obj_error(r, IPCC_ERR_PARSE, "vertex index %lld (indices start at 1)", i);
        // Forward references are allowed; the range is checked at the end.
        index[n] = i > INT_MAX / 3 ? INT_MAX / 3 : (int)i - 1;
    }
    if (n < 2) return obj_error(r, IPCC_ERR_PARSE, "segment with %d vertices, expected 2", n);
    r->corners[2 * r->num_polys] = index[0];
    r->corners[2 * r->num_polys + 1] = index[1];
    r->poly_line[r->num_polys++] = r->line;
    return IPCC_OK;
}

static ipcc_status read_statement(obj_reader *r, char *text) {
    static const char *const skipped[] = {"vt", "vn", "vp", "l", "p", "o", "g", "s", "usemtl", "mtllib"};
    char *hash = strchr(text, '#');
    if (hash) *hash = '\0';
    char *cursor = text, *key = next_token(&cursor);
    if (!key) return IPCC_OK;
    if (strcmp(key, "v") == 0) return read_vertex(r, cursor);
    if (r->mode == READ_SEG) {
        if (strcmp(key, "s") == 0) return read_segment(r, cursor);
    } else {
        if (strcmp(key, "f") == 0) return r->mode == READ_OBJ ? read_face(r, cursor) : IPCC_OK;
        for (size_t i = 0; i < sizeof skipped / sizeof *skipped; i++)
            if (strcmp(key, skipped[i]) == 0) return IPCC_OK;
    }
    if (r->num_unknown++ == 0) {
        r->first_unknown = r->line;
        snprintf(r->unknown, sizeof r->unknown, "%s", key);
    }
    return IPCC_OK;
}

static int compare_ints(const void *pa, const void *pb) {
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

// Range and repetition checks of polygon p, with the file's 1-based numbers.
static ipcc_status check_polygon(obj_reader *r, int p, int *scratch) {
    const int *c = r->corners + r->poly_start[p];
    int n = r->poly_start[p + 1] - r->poly_start[p];
    r->line = r->poly_line[p];
    for (int i = 0; i < n; i++)
        if (c[i] >= r->num_vertices)
            return obj_error(r, IPCC_ERR_PARSE, "vertex index %d out of range (the file has %d vertices)",
                             c[i] + 1, r->num_vertices);
    memcpy(scratch, c, (size_t)n * sizeof *scratch);
    qsort(scratch, (size_t)n, sizeof *scratch, compare_ints);
    for (int i = 1; i < n; i++)
        if (scratch[i] == scratch[i - 1])
            return obj_error(r, IPCC_ERR_MESH, "face repeats vertex %d (degenerate face)", scratch[i] + 1);
    return IPCC_OK;
}

// Checks the polygons and fan-triangulates them into a mesh.
static ipcc_status polygons_to_mesh(obj_reader *r, ipcc_trimesh **out) {
    if (r->num_polys == 0)
        return obj_error(r, IPCC_ERR_MESH, "end of file, and no faces ('f' lines) were found");
    size_t num_tris = (size_t)r->num_corners - 2 * (size_t)r->num_polys;
    int *tris = malloc(3 * num_tris * sizeof *tris);
    long *lines = malloc(num_tris * sizeof *lines);
    int *scratch = malloc((size_t)r->num_corners * sizeof *scratch);
    ipcc_status s = IPCC_OK;
    if (!tris || !lines || !scratch) s = obj_no_memory(r);
    size_t t = 0;
    for (int p = 0; s == IPCC_OK && p < r->num_polys; p++) {
        s = check_polygon(r, p, scratch);
        const int *c = r->corners + r->poly_start[p];
        int n = r->poly_start[p + 1] - r->poly_start[p];
        for (int i = 1; s == IPCC_OK && i + 1 < n; i++, t++) {
            tris[3 * t] = c[0];
            tris[3 * t + 1] = c[i];
            tris[3 * t + 2] = c[i + 1];
            lines[t] = r->poly_line[p];
        }
    }
    if (s == IPCC_OK)
        s = trimesh_create(r->num_vertices, r->vertices, (int)num_tris, tris, r->path, lines, out);
    free(tris);
    free(lines);
    free(scratch);
    return s;
}

// Checks the segments (range with the file's 1-based numbers, repeats) and builds the segment set.
static ipcc_status segments_to_mesh(obj_reader *r, ipcc_trimesh **out) {
    if (r->num_polys == 0)
        return obj_error(r, IPCC_ERR_MESH, "end of file, and no segments ('s' lines) were found");
    for (int k = 0; k < r->num_polys; k++) {
        const int *c = r->corners + 2 * k;
        r->line = r->poly_line[k];
        for (int i = 0; i < 2; i++)
            if (c[i] >= r->num_vertices)
                return obj_error(r, IPCC_ERR_PARSE, "vertex index %d out of range (the file has %d vertices)",
                                 c[i] + 1, r->num_vertices);
        if (c[0] == c[1])
            return obj_error(r, IPCC_ERR_MESH, "segment repeats vertex %d (degenerate segment)", c[0] + 1);
    }
    return segments_create(r->num_vertices, r->vertices, r->num_polys, r->corners, r->path, r->poly_line,
                           out);
}

static ipcc_status points_to_mesh(obj_reader *r, ipcc_trimesh **out) {
    if (r->num_vertices == 0)
        return obj_error(r, IPCC_ERR_MESH, "end of file, and no vertices ('v' lines) were found");
    return segments_create(r->num_vertices, r->vertices, 0, NULL, r->path, NULL, out);
}

// The three readers: read every line, then build the mesh the mode asks for.
static ipcc_status read_mesh_file(const char *path, reader_mode mode, ipcc_trimesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    if (!path) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "mesh path is NULL");
    FILE *f = fopen(path, "rb");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    obj_reader r = {.path = path, .mode = mode};
    char *text = NULL;
    size_t cap = 0;
    ipcc_status s = IPCC_OK;
    while (s == IPCC_OK) {
        errno = 0;
        ssize_t n = getline(&text, &cap, f);
        if (n < 0) {
            if (ferror(f))
                s = ipcc_fail(errno == ENOMEM ? IPCC_ERR_NO_MEMORY : IPCC_ERR_IO, "%s:%ld: read error: %s",
                              path, r.line + 1, strerror(errno));
            break;
        }
        r.line++;
        if ((size_t)n != strlen(text))
            s = obj_error(&r, IPCC_ERR_PARSE, "NUL byte in the line (not a text .obj file?)");
        else
            s = read_statement(&r, text);
    }
    free(text);
    fclose(f);
    if (s == IPCC_OK && r.line == 0) s = ipcc_fail(IPCC_ERR_MESH, "%s: the file is empty", path);
    if (s == IPCC_OK && r.num_unknown > 0)
        ipcc_log(IPCC_LOG_WARNING, "%s:%ld: skipped unsupported statement '%s' (%d such line%s in the file)",
                 path, r.first_unknown, r.unknown, r.num_unknown, r.num_unknown == 1 ? "" : "s");
    if (s == IPCC_OK)
        s = mode == READ_OBJ   ? polygons_to_mesh(&r, out)
            : mode == READ_SEG ? segments_to_mesh(&r, out)
                               : points_to_mesh(&r, out);
    free(r.vertices);
    free(r.corners);
    free(r.poly_start);
    free(r.poly_line);
    return s;
}

ipcc_status ipcc_trimesh_read_obj(const char *path, ipcc_trimesh **out) {
    return read_mesh_file(path, READ_OBJ, out);
}

ipcc_status ipcc_trimesh_read_seg(const char *path, ipcc_trimesh **out) {
    return read_mesh_file(path, READ_SEG, out);
}

ipcc_status ipcc_trimesh_read_points(const char *path, ipcc_trimesh **out) {
    return read_mesh_file(path, READ_POINTS, out);
}
