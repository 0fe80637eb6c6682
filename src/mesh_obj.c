// Triangle surface meshes (kinematic obstacles): creation from arrays and the
// Wavefront .obj reader.
//
// ipcc_trimesh_create() validates (at least one face, indices in range, three
// distinct vertices per face, finite coordinates), copies, and builds the
// unique undirected edges by sorting the 3 * num_faces face edges, O(n log n).
// Faces whose doubled area is at most 1e-14 * (longest edge)^2 (collinear or
// coincident vertices, as far as round-off can tell) are legal but useless
// for contact: they are counted and logged as one warning. Vertices no face
// references are kept, so indices match the source, and logged.
//
// The .obj reader reads the file line by line (getline), so every message is
// "file:line: ...". Supported statements:
//   v x y z [w] [r g b]   3 coordinates, then up to 4 more numbers (a
//                         homogeneous w and/or vertex colours) that are checked
//                         to be numbers and ignored;
//   f v1 v2 v3 ...        each vertex `i`, `i/t`, `i//n` or `i/t/n`; i is
//                         1-based, or negative and relative to the vertices
//                         read so far (-1 = the last). t and n must be integers
//                         and are ignored. Positive indices may refer to
//                         vertices defined later in the file; they are
//                         range-checked at the end of the file. Polygons are
//                         fan-triangulated from their first vertex:
//                         (v1, v2, v3), (v1, v3, v4), ... (exact for convex
//                         polygons, which is what exporters write).
// `#` starts a comment anywhere; blank lines, CR before LF, and the statements
// vt, vn, vp, l, p, o, g, s, usemtl, mtllib are skipped. Any other statement
// (free-form curves and surfaces, ...) is skipped too, with one warning that
// names the first such line and the count. Line continuation with a trailing
// backslash is not supported.
//
// Errors: the file cannot be opened or read (IPCC_ERR_IO); a malformed or
// non-finite number, too few coordinates, a face with fewer than 3 vertices, a
// vertex index that is 0 or refers to no vertex (IPCC_ERR_PARSE); a face
// repeating a vertex, or no faces in the file (IPCC_ERR_MESH).
#include "ipcc/mesh.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "core.h"

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

// ipcc_trimesh_create(); `lines` (may be NULL) gives the file line of each face.
static ipcc_status trimesh_create(int num_vertices, const double *vertices, int num_faces, const int *faces,
                                  const char *src, const long *lines, ipcc_trimesh **out) {
    char where[600];
    if (num_vertices < 0 || num_vertices > INT_MAX / 3 || num_faces < 0 || num_faces > INT_MAX / 3)
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "%s: bad sizes (%d vertices, %d faces)", src,
                         num_vertices, num_faces);
    if (num_faces == 0) return ipcc_fail(IPCC_ERR_MESH, "%s: no faces", src);
    IPCC_ASSERT(faces != NULL);
    IPCC_ASSERT(vertices != NULL || num_vertices == 0);
    for (int v = 0; v < num_vertices; v++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(vertices[3 * v + k]))
                return ipcc_fail(IPCC_ERR_MESH, "%s: vertex %d: non-finite coordinate %g", src, v,
                                 vertices[3 * v + k]);
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

void ipcc_trimesh_destroy(ipcc_trimesh *m) {
    if (!m) return;
    IPCC_FREE(m->vertices);
    IPCC_FREE(m->faces);
    IPCC_FREE(m->edges);
    free(m);
}

// ---------------------------------------------------------------------------
// The .obj reader.

typedef struct obj_reader {
    const char *path;
    long line; // 1-based line being parsed
    double *vertices;
    int num_vertices, cap_vertices; // cap in doubles
    int *corners;                   // polygon corners, 0-based vertex indices (positive ones unchecked)
    int num_corners, cap_corners;
    int *poly_start; // first corner of each polygon, plus one past the last
    long *poly_line;
    int num_polys, cap_start, cap_line;
    int num_unknown; // statements skipped with a warning
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

static ipcc_status read_statement(obj_reader *r, char *text) {
    static const char *const skipped[] = {"vt", "vn", "vp", "l", "p", "o", "g", "s", "usemtl", "mtllib"};
    char *hash = strchr(text, '#');
    if (hash) *hash = '\0';
    char *cursor = text, *key = next_token(&cursor);
    if (!key) return IPCC_OK;
    if (strcmp(key, "v") == 0) return read_vertex(r, cursor);
    if (strcmp(key, "f") == 0) return read_face(r, cursor);
    for (size_t i = 0; i < sizeof skipped / sizeof *skipped; i++)
        if (strcmp(key, skipped[i]) == 0) return IPCC_OK;
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

ipcc_status ipcc_trimesh_read_obj(const char *path, ipcc_trimesh **out) {
    IPCC_ASSERT(out != NULL);
    *out = NULL;
    if (!path) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "mesh path is NULL");
    FILE *f = fopen(path, "rb");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    obj_reader r = {.path = path};
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
    if (s == IPCC_OK && r.num_unknown > 0)
        ipcc_log(IPCC_LOG_WARNING, "%s:%ld: skipped unsupported statement '%s' (%d such line%s in the file)",
                 path, r.first_unknown, r.unknown, r.num_unknown, r.num_unknown == 1 ? "" : "s");
    if (s == IPCC_OK) s = polygons_to_mesh(&r, out);
    free(r.vertices);
    free(r.corners);
    free(r.poly_start);
    free(r.poly_line);
    return s;
}
