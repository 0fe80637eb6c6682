/// The tet mesh readers' toolkit (mesh_reader.c), below the Gmsh and TetGen
/// readers (mesh_gmsh.c, mesh_tetgen.c): a whole file in memory with a
/// line-counting cursor and a tokenizer, typed reads that name "file:line"
/// (or the section and byte offset of binary data) in every error, bounds-
/// checked binary reads in either byte order, and the raw mesh the readers
/// fill with the file's own node tags before ipcc_raw_to_mesh() maps them to
/// indices and builds the ipcc_mesh. Private to the library.
#ifndef IPCC_MESH_READER_H
#define IPCC_MESH_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/core.h"
#include "ipcc/mesh.h"

/// A whole file in memory and a cursor over it.
typedef struct ipcc_reader {
    const char *path;
    char *buf;           ///< file contents plus a terminating NUL
    size_t len;          ///< bytes in the file
    size_t pos;          ///< cursor
    long line;           ///< 1-based line of buf[pos] (meaningful in text parts)
    int comments;        ///< '#' starts a comment (TetGen)
    int binary;          ///< report byte offsets rather than lines
    int swap;            ///< binary data has the other byte order
    int size_bytes;      ///< Gmsh 4.1 binary size_t width
    const char *section; ///< current section, for binary messages
} ipcc_reader;

/// A whitespace-separated token (not NUL-terminated).
typedef struct ipcc_token {
    const char *s;
    size_t n;
} ipcc_token;

/// What the readers produce: raw tags, before mapping to indices.
typedef struct ipcc_raw_mesh {
    long long *node_tags;
    double *coords;
    int num_nodes, cap_nodes;
    long long *tet_nodes;  ///< 4 raw node tags per tet
    long *tet_ids;         ///< element number as the file gives it
    long long *tet_loc;    ///< line (ASCII) or byte offset (binary) of the tet
    long long *tet_region; ///< region number of each tet (Gmsh 4.1: its entity tag until resolved)
    int num_tets, cap_tets, cap_tet_nodes, cap_ids, cap_loc, cap_region;
    const char *tet_file; ///< file the tets came from (TetGen: the .ele)
    int has_regions;      ///< tet_region holds region numbers the mesh should keep
    int num_names, cap_names;
    int *name_numbers; ///< physical numbers of the dimension-3 $PhysicalNames
    char **names;      ///< their names (owned)
} ipcc_raw_mesh;

/// Record IPCC_ERR_PARSE with "file:line: message" (binary: "file: section
/// (binary, byte N): message") and return it.
ipcc_status ipcc_reader_error(const ipcc_reader *r, const char *fmt, ...) IPCC_PRINTF(2, 3);
/// Read `path` into r (NUL-terminated buffer; the caller frees r->buf) with
/// ipcc_read_file(), NUL bytes allowed (binary .msh). On failure r->buf is
/// NULL and the status and message are ipcc_read_file()'s: IPCC_ERR_IO
/// "PATH: cannot open: REASON" or "PATH: read error: REASON",
/// IPCC_ERR_NO_MEMORY "PATH: out of memory reading the file".
ipcc_status ipcc_reader_load(const char *path, ipcc_reader *r);
/// Next whitespace-separated token; crosses newlines only if `cross`.
/// Returns 0 at end of file (or of line when !cross).
int ipcc_reader_next(ipcc_reader *r, int cross, ipcc_token *t);
/// Moves the cursor to the '\n' ending the current line (or to the end).
void ipcc_reader_skip_line(ipcc_reader *r);
/// Moves past the '\n' ending the current line: the start of binary data.
ipcc_status ipcc_reader_skip_past_newline(ipcc_reader *r);
/// ipcc_reader_next(), or an error naming `what` was expected.
ipcc_status ipcc_reader_need(ipcc_reader *r, int cross, const char *what, ipcc_token *t);
/// Error for a token that is not the number `what`.
ipcc_status ipcc_reader_bad_number(ipcc_reader *r, ipcc_token t, const char *what);
/// The next token as a decimal integer (strtoll, the whole token), or an
/// error naming `what`.
ipcc_status ipcc_reader_ll(ipcc_reader *r, int cross, const char *what, long long *v);
/// The next token as a finite double (strtod, the whole token); nan, inf and
/// overflow are errors naming `what` and the line.
ipcc_status ipcc_reader_double(ipcc_reader *r, int cross, const char *what, double *v);
/// A number that may be missing at the end of the line (then 0).
ipcc_status ipcc_reader_optional_ll(ipcc_reader *r, const char *what, long long *v);
/// A count in [0, max] that the rest of the file can hold at `min_bytes` each.
ipcc_status ipcc_reader_count(ipcc_reader *r, int cross, const char *what, long long max, size_t min_bytes,
                              long long *v);

/// 1 if the token is exactly the string s.
static inline int ipcc_token_is(ipcc_token t, const char *s) {
    return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0;
}

/// Copies a token into tmp (NUL-terminated); 0 if it does not fit.
static inline int ipcc_token_copy(ipcc_token t, char *tmp, size_t cap) {
    if (t.n == 0 || t.n >= cap) return 0;
    memcpy(tmp, t.s, t.n);
    tmp[t.n] = '\0';
    return 1;
}

/// 1 if `count` items of `size` bytes are left after the cursor. The binary
/// reads below do not check: callers call this first.
int ipcc_bin_need(const ipcc_reader *r, unsigned long long count, size_t size);
/// A 4-byte int at the cursor, byte-swapped when r->swap; advances 4 bytes.
int32_t ipcc_bin_int(ipcc_reader *r);
/// An 8-byte double at the cursor, byte-swapped when r->swap; advances 8 bytes.
double ipcc_bin_double(ipcc_reader *r);
/// Gmsh 4.1 size_t of the header's data-size (r->size_bytes, 4 or 8).
unsigned long long ipcc_bin_size(ipcc_reader *r);
/// The "unexpected end of file (truncated?)" error at the cursor.
ipcc_status ipcc_bin_truncated(ipcc_reader *r);

/// Reserves room for `n` more nodes (a count already checked against the
/// file); "too many nodes" past INT_MAX, IPCC_ERR_NO_MEMORY naming the file.
ipcc_status ipcc_raw_reserve_nodes(ipcc_reader *r, ipcc_raw_mesh *m, long long n);
/// Appends a node with the file's tag and its coordinates (growing storage).
ipcc_status ipcc_raw_add_node(ipcc_reader *r, ipcc_raw_mesh *m, long long tag, const double x[3]);
/// A tet with its four raw node tags, the file's element number, where it
/// is (line or byte offset) and its raw region (0 = none).
ipcc_status ipcc_raw_add_tet(ipcc_reader *r, ipcc_raw_mesh *m, long long id, const long long v[4],
                             long long loc, long long region);
/// Frees the raw mesh's arrays and names (m itself is the caller's).
void ipcc_raw_free(ipcc_raw_mesh *m);
/// Maps raw tags to indices, builds the mesh (ipcc_mesh_create()) and hands
/// it the regions. `binary` selects how tet_loc is printed; `node_file`
/// names the node source. Fails (and *out is NULL) on no tets, a node
/// defined twice, an undefined node (named with the tet's line or byte) or
/// what ipcc_mesh_create() refuses.
ipcc_status ipcc_raw_to_mesh(const ipcc_raw_mesh *m, const char *path, const char *node_file, int binary,
                             ipcc_mesh **out);

#endif
