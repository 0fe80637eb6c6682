// Reading ipcc's output back: frames.pvd and the Points of .vtu/.vtp files
// (the format is in docs/output.md; vtk.c beside this file writes it).
//
// A file is read whole into memory (ipcc_read_file). Its XML part is
// scanned tag by tag (xml_scan.c: element tags with quoted attributes;
// <?...?>, <!...> and comments skipped) up to <AppendedData encoding="raw">,
// whose '_' marks the start of the binary blocks; the scanner never looks
// past it. Arrays are found by their attribute names, never by position:
// the first DataArray inside <Points>, and the DataArrays named
// `length_scale` and `TimeValue` inside <FieldData> (wherever that block
// is). A block at `offset` is a UInt64 (or UInt32, per the VTKFile's
// header_type) byte count followed by that many bytes; byte_order says
// whether to swap. A file whose VTKFile has
// compressor="vtkZLibDataCompressor" (what ipcc writes by default, vtk.c)
// has instead, per block, header words [nblocks][blocksize][last_blocksize]
// [csize_0 .. csize_{nblocks-1}] and then the zlib streams; each is
// inflated (zlib's uncompress) into a buffer of the array's raw size and
// must give exactly its block's size. Raw files (older ipcc output) read as
// before; other compressors (LZ4, LZMA) are refused.
//
// Failure modes: every offset, byte count and point count is checked
// against the bytes actually in the file before it is used (compressed
// sizes too, and a raw size more than zlib's largest ratio, 1032:1, above
// the compressed bytes is refused before anything is allocated), and a file must
// end with </VTKFile> (ipcc writes atomically, so a shorter file is
// corrupt), so a truncated or garbage file gives a message naming it and
// what is wrong, never a read out of bounds. Every failure is an
// ipcc_status with its message recorded by ipcc_fail (ipcc_last_error):
// IPCC_ERR_IO for a folder or file that cannot be opened or read,
// IPCC_ERR_PARSE for malformed or unsupported contents, IPCC_ERR_NO_MEMORY.
// No fixed-size buffers: names are malloc'ed to size.
#include "output/frames_read.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <zlib.h>

#include "base/core.h"
#include "base/read_file.h"
#include "output/xml_scan.h"

// --- small helpers ---------------------------------------------------------------

static char *frames_strdup(const char *s, size_t n) {
    char *c = malloc(n + 1);
    if (!c) return NULL;
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

/// dir + '/' + name, or name itself when it is absolute. malloc'ed.
static char *frames_join(const char *dir, const char *name) {
    if (name[0] == '/') return frames_strdup(name, strlen(name));
    size_t nd = strlen(dir), nn = strlen(name);
    while (nd > 1 && dir[nd - 1] == '/')
        nd--;
    char *p = malloc(nd + 1 + nn + 1);
    if (!p) return NULL;
    memcpy(p, dir, nd);
    size_t k = nd;
    if (nd == 0 || dir[nd - 1] != '/') p[k++] = '/';
    memcpy(p + k, name, nn + 1);
    return p;
}

static bool host_is_little_endian(void) {
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

static void swap_bytes(unsigned char *b, size_t n) {
    for (size_t i = 0; i < n / 2; i++) {
        unsigned char t = b[i];
        b[i] = b[n - 1 - i];
        b[n - 1 - i] = t;
    }
}

/// A whole string as a finite or infinite double (no trailing garbage).
static bool parse_double(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s) return false;
    while (isspace((unsigned char)*end))
        end++;
    if (*end) return false;
    *out = v;
    return true;
}

/// A whole string as a non-negative integer below 2^63.
static bool parse_count(const char *s, int64_t *out) {
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s)) return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE || v > (unsigned long long)INT64_MAX) return false;
    while (isspace((unsigned char)*end))
        end++;
    if (*end) return false;
    *out = (int64_t)v;
    return true;
}

// --- frames.pvd ----------------------------------------------------------------

/// A growing list of (time, file) datasets of one part.
typedef struct pvd_part {
    int n, cap;
    double *times;
    char **files;
    int *lines;
} pvd_part;

static void pvd_part_free(pvd_part *p) {
    for (int i = 0; i < p->n; i++)
        free(p->files[i]);
    free(p->times);
    free(p->files);
    free(p->lines);
    memset(p, 0, sizeof *p);
}

/// Append (time, file); takes `file`. -1 when out of memory (file freed).
static int pvd_part_push(pvd_part *p, double time, char *file, int line) {
    if (p->n == p->cap) {
        if (p->cap > INT_MAX / 2) {
            free(file);
            return -1;
        }
        int cap = p->cap ? 2 * p->cap : 64;
        double *t = realloc(p->times, sizeof *t * (size_t)cap);
        if (t) p->times = t;
        char **f = t ? realloc(p->files, sizeof *f * (size_t)cap) : NULL;
        if (f) p->files = f;
        int *l = f ? realloc(p->lines, sizeof *l * (size_t)cap) : NULL;
        if (l) p->lines = l;
        if (!l || cap <= p->cap) {
            free(file);
            return -1;
        }
        p->cap = cap;
    }
    p->times[p->n] = time;
    p->files[p->n] = file;
    p->lines[p->n] = line;
    p->n++;
    return 0;
}

void ipcc_frames_list_free(ipcc_frames_list *list) {
    if (!list) return;
    for (int i = 0; i < list->num_frames; i++) {
        if (list->bodies) free(list->bodies[i]);
        if (list->obstacles) free(list->obstacles[i]);
    }
    free(list->pvd);
    free(list->times);
    free(list->bodies);
    free(list->obstacles);
    memset(list, 0, sizeof *list);
}

/// One <DataSet> (at `line`): its part, time and file, appended to parts[0] or parts[1].
static ipcc_status pvd_dataset(const char *pvd, const char *text, const ipcc_xml_tag *t, int line,
                               pvd_part parts[2]) {
    char *part = NULL, *time = NULL, *file = NULL;
    ipcc_status r = ipcc_xml_attr(pvd, text, t, "part", &part);
    if (r == IPCC_OK) r = ipcc_xml_required(pvd, text, t, "timestep", &time);
    if (r == IPCC_OK) r = ipcc_xml_required(pvd, text, t, "file", &file);
    int64_t p = 0;
    double tv = 0;
    if (r == IPCC_OK && part && !parse_count(part, &p))
        r = ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: <DataSet>: part \"%s\" is not a non-negative integer",
                      pvd, line, part);
    if (r == IPCC_OK && (!parse_double(time, &tv) || !isfinite(tv)))
        r = ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: <DataSet>: timestep \"%s\" is not a finite number", pvd,
                      line, time);
    if (r == IPCC_OK && !file[0])
        r = ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: <DataSet>: the file name is empty", pvd, line);
    free(part);
    free(time);
    if (r != IPCC_OK) {
        free(file);
        return r;
    }
    if (p > 1) { // parts ipcc does not write: ignored
        free(file);
        return IPCC_OK;
    }
    if (pvd_part_push(&parts[p], tv, file, line) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory", pvd);
    return IPCC_OK;
}

/// Turn the parts into the list: part 1, when present, must pair up with part 0.
static ipcc_status pvd_finish(const char *dir, pvd_part parts[2], ipcc_frames_list *out) {
    const char *pvd = out->pvd;
    if (parts[0].n == 0)
        return ipcc_fail(IPCC_ERR_PARSE, "'%s' lists no frames (no <DataSet> with part=\"0\")", pvd);
    if (parts[1].n > 0 && parts[1].n != parts[0].n)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s' lists %d frames (part 0) but %d obstacle files (part 1); ipcc writes one of "
                         "each per frame",
                         pvd, parts[0].n, parts[1].n);
    for (int i = 0; i < parts[1].n; i++)
        if (parts[1].times[i] != parts[0].times[i])
            return ipcc_fail(IPCC_ERR_PARSE,
                             "'%s', line %d: obstacle file %d has timestep %.17g but frame %d has %.17g", pvd,
                             parts[1].lines[i], i, parts[1].times[i], i, parts[0].times[i]);
    const int n = parts[0].n;
    out->times = malloc(sizeof(double) * (size_t)n);
    out->bodies = calloc((size_t)n, sizeof(char *));
    out->obstacles = parts[1].n ? calloc((size_t)n, sizeof(char *)) : NULL;
    if (!out->times || !out->bodies || (parts[1].n && !out->obstacles))
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory", pvd);
    out->num_frames = n;
    for (int i = 0; i < n; i++) {
        out->times[i] = parts[0].times[i];
        out->bodies[i] = frames_join(dir, parts[0].files[i]);
        if (!out->bodies[i]) return ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory", pvd);
        if (out->obstacles) {
            out->obstacles[i] = frames_join(dir, parts[1].files[i]);
            if (!out->obstacles[i])
                return ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory", pvd);
        }
    }
    return IPCC_OK;
}

ipcc_status ipcc_frames_list_read(const char *dir, ipcc_frames_list *out) {
    memset(out, 0, sizeof *out);
    struct stat st;
    if (stat(dir, &st) != 0)
        return ipcc_fail(IPCC_ERR_IO, "cannot open folder '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return ipcc_fail(IPCC_ERR_IO,
                         "'%s' is not a folder (expected an ipcc output folder holding frames.pvd)", dir);
    out->pvd = frames_join(dir, "frames.pvd");
    if (!out->pvd) return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory");
    if (stat(out->pvd, &st) != 0 && errno == ENOENT) {
        ipcc_frames_list_free(out);
        return ipcc_fail(IPCC_ERR_IO,
                         "'%s' has no frames.pvd: not an ipcc output folder (or no frame was written)", dir);
    }
    char *text;
    size_t size;
    ipcc_status r = ipcc_read_file(out->pvd, false, &text, &size);
    if (r != IPCC_OK) {
        ipcc_frames_list_free(out);
        return r;
    }
    const char *p = text, *end = text + size;
    pvd_part parts[2];
    memset(parts, 0, sizeof parts);
    bool seen_root = false;
    int line = 1;
    const char *line_pos = text;
    ipcc_xml_tag t;
    while (r == IPCC_OK) {
        int k = ipcc_xml_next_tag(p, end, &t);
        if (k == 0) break;
        if (k < 0) {
            r = ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: unterminated tag or comment", out->pvd,
                          ipcc_xml_line(text, t.start));
            break;
        }
        p = t.end;
        if (t.closing) continue;
        if (!seen_root) {
            char *type = NULL;
            if (!ipcc_xml_is(&t, "VTKFile")) {
                r = ipcc_fail(IPCC_ERR_PARSE, "'%s' is not a VTK file: it starts with <%.*s>, not <VTKFile>",
                              out->pvd, (int)t.name_len, t.name);
            } else if ((r = ipcc_xml_required(out->pvd, text, &t, "type", &type)) == IPCC_OK &&
                       strcmp(type, "Collection") != 0) {
                r = ipcc_fail(IPCC_ERR_PARSE, "'%s' is a VTK %s file, not a Collection (.pvd)", out->pvd,
                              type);
            }
            free(type);
            seen_root = true;
        } else if (ipcc_xml_is(&t, "DataSet")) {
            // Lines counted incrementally: a long collection stays linear.
            for (; line_pos < t.start; line_pos++)
                line += *line_pos == '\n';
            r = pvd_dataset(out->pvd, text, &t, line, parts);
        }
    }
    if (r == IPCC_OK && !seen_root)
        r = ipcc_fail(IPCC_ERR_PARSE, "'%s' is not a VTK file (no <VTKFile> tag)", out->pvd);
    if (r == IPCC_OK) r = pvd_finish(dir, parts, out);
    pvd_part_free(&parts[0]);
    pvd_part_free(&parts[1]);
    free(text);
    if (r != IPCC_OK) ipcc_frames_list_free(out);
    return r;
}

// --- .vtu / .vtp points ------------------------------------------------------------

/// A DataArray tag's layout, as far as reading one array needs.
typedef struct array_ref {
    bool found;
    int line;
    size_t elem;        ///< bytes per value: 8 (Float64) or 4 (Float32)
    int64_t components; ///< NumberOfComponents (default 1)
    int64_t tuples;     ///< NumberOfTuples, or -1 when absent
    bool appended;      ///< format="appended"; else ascii
    uint64_t offset;    ///< appended: from the byte after '_'
    const char *text;   ///< ascii: the element's content, [text, text_end)
    const char *text_end;
} array_ref;

/// The file being read and what its header says.
typedef struct vtk_read {
    const char *path;
    const char *text; ///< whole file
    const char *end;
    const char *base; ///< first byte after '_', or NULL without appended data
    int header_bytes; ///< 8 (UInt64) or 4 (UInt32)
    bool swap;        ///< the file's byte order differs from the host's
    bool zlib;        ///< compressor="vtkZLibDataCompressor": blocks are zlib-compressed
} vtk_read;

/// Fill *a from a DataArray tag (`what` names the array in messages).
static ipcc_status array_ref_parse(const vtk_read *f, const ipcc_xml_tag *t, const char *what, array_ref *a) {
    char *type = NULL, *comps = NULL, *tuples = NULL, *format = NULL, *offset = NULL;
    memset(a, 0, sizeof *a);
    a->found = true;
    a->line = ipcc_xml_line(f->text, t->start);
    a->components = 1;
    a->tuples = -1;
    ipcc_status r = ipcc_xml_required(f->path, f->text, t, "type", &type);
    if (r == IPCC_OK) r = ipcc_xml_attr(f->path, f->text, t, "NumberOfComponents", &comps);
    if (r == IPCC_OK) r = ipcc_xml_attr(f->path, f->text, t, "NumberOfTuples", &tuples);
    if (r == IPCC_OK) r = ipcc_xml_attr(f->path, f->text, t, "format", &format);
    if (r == IPCC_OK) {
        if (!strcmp(type, "Float64"))
            a->elem = 8;
        else if (!strcmp(type, "Float32"))
            a->elem = 4;
        else
            r = ipcc_fail(IPCC_ERR_PARSE,
                          "'%s', line %d: %s has type %s; only Float64 and Float32 are supported", f->path,
                          a->line, what, type);
    }
    if (r == IPCC_OK && comps && (!parse_count(comps, &a->components) || a->components < 1))
        r = ipcc_fail(IPCC_ERR_PARSE,
                      "'%s', line %d: %s: NumberOfComponents \"%s\" is not a positive integer", f->path,
                      a->line, what, comps);
    if (r == IPCC_OK && tuples && !parse_count(tuples, &a->tuples))
        r = ipcc_fail(IPCC_ERR_PARSE,
                      "'%s', line %d: %s: NumberOfTuples \"%s\" is not a non-negative integer", f->path,
                      a->line, what, tuples);
    if (r == IPCC_OK) {
        if (format && !strcmp(format, "appended")) {
            a->appended = true;
            int64_t o = 0;
            if ((r = ipcc_xml_required(f->path, f->text, t, "offset", &offset)) == IPCC_OK &&
                !parse_count(offset, &o))
                r = ipcc_fail(IPCC_ERR_PARSE,
                              "'%s', line %d: %s: offset \"%s\" is not a non-negative integer", f->path,
                              a->line, what, offset);
            a->offset = (uint64_t)o;
        } else if (format && !strcmp(format, "ascii")) {
            a->text = t->end;
            const char *lt = t->empty ? t->end : memchr(t->end, '<', (size_t)(f->end - t->end));
            a->text_end = lt ? lt : t->end;
        } else {
            r = ipcc_fail(IPCC_ERR_PARSE,
                          "'%s', line %d: %s has format \"%s\"; only appended (raw) and ascii are supported",
                          f->path, a->line, what, format ? format : "(none)");
        }
    }
    free(type);
    free(comps);
    free(tuples);
    free(format);
    free(offset);
    return r;
}

/// Header word k (UInt64 or UInt32, in the file's byte order) at h.
static uint64_t header_word(const vtk_read *f, const unsigned char *h, uint64_t k) {
    unsigned char b[8];
    if (f->header_bytes == 8) {
        uint64_t n;
        memcpy(b, h + 8 * k, 8);
        if (f->swap) swap_bytes(b, 8);
        memcpy(&n, b, 8);
        return n;
    }
    uint32_t v;
    memcpy(b, h + 4 * k, 4);
    if (f->swap) swap_bytes(b, 4);
    memcpy(&v, b, 4);
    return v;
}

/// Inflate the compressed block at h (avail bytes from h to the end of the
/// file) into a malloc'ed *owned of *bytes bytes.
static ipcc_status array_inflate(const vtk_read *f, const char *what, uint64_t offset, const unsigned char *h,
                                 uint64_t avail, unsigned char **owned, uint64_t *bytes) {
    const uint64_t hb = (uint64_t)f->header_bytes;
    if (avail < 3 * hb)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s: its compression header at offset %" PRIu64
                         " is cut off: the file is truncated or corrupt",
                         f->path, what, offset);
    const uint64_t nblocks = header_word(f, h, 0), block = header_word(f, h, 1), last = header_word(f, h, 2);
    if (nblocks > avail / hb - 3)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s: %" PRIu64 " compressed blocks at offset %" PRIu64
                         " do not fit in the file: it is truncated or corrupt",
                         f->path, what, nblocks, offset);
    uint64_t packed = 0;
    const uint64_t head = (3 + nblocks) * hb;
    for (uint64_t b = 0; b < nblocks; b++)
        packed += header_word(f, h, 3 + b); // each < avail: no overflow
    if (packed > avail - head)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s: its blocks claim %" PRIu64 " compressed bytes but only %" PRIu64
                         " follow: the file is truncated or corrupt",
                         f->path, what, packed, avail - head);
    if (nblocks > 0 && (block == 0 || last > block || block > ((uint64_t)1 << 32) ||
                        nblocks - 1 > (UINT64_MAX - block) / block))
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s: block size %" PRIu64 " and last block size %" PRIu64 " are invalid",
                         f->path, what, block, last);
    const uint64_t total = nblocks == 0 ? 0 : (nblocks - 1) * block + (last ? last : block);
    if (total / 1032 > packed + nblocks)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s: %" PRIu64 " bytes cannot come from %" PRIu64
                         " compressed bytes: the file is corrupt",
                         f->path, what, total, packed);
    unsigned char *out = malloc(total ? (size_t)total : 1);
    if (!out) return ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory for %s", f->path, what);
    const unsigned char *src = h + head;
    for (uint64_t b = 0; b < nblocks; b++) {
        const uint64_t c = header_word(f, h, 3 + b);
        const uint64_t want = b + 1 < nblocks || last == 0 ? block : last;
        uLongf got = (uLongf)want;
        int z = uncompress(out + b * block, &got, src, (uLong)c);
        if (z != Z_OK || got != want) {
            free(out);
            return ipcc_fail(IPCC_ERR_PARSE,
                             "'%s': %s: compressed block %" PRIu64 " of %" PRIu64
                             " does not inflate to %" PRIu64 " bytes (%s): the file is corrupt",
                             f->path, what, b, nblocks, want, z == Z_OK ? "size mismatch" : zError(z));
        }
        src += c;
    }
    *owned = out;
    *bytes = total;
    return IPCC_OK;
}

/// The appended block of array a: *data and *bytes, checked against the
/// file. A compressed block is inflated into *owned (free() it; NULL for a
/// raw block, which *data points into the file's bytes).
static ipcc_status array_block(const vtk_read *f, const array_ref *a, const char *what,
                               const unsigned char **data, uint64_t *bytes, unsigned char **owned) {
    *owned = NULL;
    if (!f->base)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s is appended but the file has no <AppendedData encoding=\"raw\"> section",
                         f->path, what);
    const uint64_t avail = (uint64_t)(f->end - f->base), hb = (uint64_t)f->header_bytes;
    if (a->offset > avail || avail - a->offset < hb)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s: offset %" PRIu64 " is past the end of the appended data (%" PRIu64
                         " bytes): the file is truncated or corrupt",
                         f->path, what, a->offset, avail);
    const unsigned char *h = (const unsigned char *)f->base + a->offset;
    if (f->zlib) {
        ipcc_status s = array_inflate(f, what, a->offset, h, avail - a->offset, owned, bytes);
        if (s != IPCC_OK) return s;
        *data = *owned;
        return IPCC_OK;
    }
    uint64_t n = header_word(f, h, 0);
    if (n > avail - a->offset - hb)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': %s: its block at offset %" PRIu64 " claims %" PRIu64
                         " bytes but only %" PRIu64 " follow: the file is truncated or corrupt",
                         f->path, what, a->offset, n, avail - a->offset - hb);
    *data = h + hb;
    *bytes = n;
    return IPCC_OK;
}

/// Value k of a block of elem-byte floats, in host order, as a double.
static double block_value(const vtk_read *f, const unsigned char *data, size_t elem, uint64_t k) {
    unsigned char b[8];
    memcpy(b, data + k * elem, elem);
    if (f->swap) swap_bytes(b, elem);
    if (elem == 8) {
        double v;
        memcpy(&v, b, 8);
        return v;
    }
    float v;
    memcpy(&v, b, 4);
    return (double)v;
}

/// The first value of a FieldData array (`length_scale`, `TimeValue`).
static ipcc_status field_value(const vtk_read *f, const array_ref *a, const char *name, double *value) {
    if (a->appended) {
        const unsigned char *data;
        unsigned char *owned;
        uint64_t bytes;
        ipcc_status s = array_block(f, a, name, &data, &bytes, &owned);
        if (s != IPCC_OK) return s;
        uint64_t expect = a->tuples >= 0 ? (uint64_t)a->tuples * (uint64_t)a->components * a->elem : bytes;
        ipcc_status r = IPCC_OK;
        if (bytes < a->elem || bytes != expect)
            r = ipcc_fail(IPCC_ERR_PARSE,
                          "'%s', line %d: FieldData %s: its block has %" PRIu64 " bytes, expected %" PRIu64,
                          f->path, a->line, name, bytes, expect < a->elem ? (uint64_t)a->elem : expect);
        else
            *value = block_value(f, data, a->elem, 0);
        free(owned);
        return r;
    }
    char *s = frames_strdup(a->text, (size_t)(a->text_end - a->text));
    if (!s) return ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory", f->path);
    char *end;
    double v = strtod(s, &end);
    bool ok = end != s;
    free(s);
    if (!ok)
        return ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: FieldData %s has no ascii value", f->path, a->line,
                         name);
    *value = v;
    return IPCC_OK;
}

/// The Points: a block of exactly num_points * 3 floats.
static ipcc_status points_value(const vtk_read *f, const array_ref *a, int64_t num_points,
                                ipcc_frames_points *out) {
    if (a->components != 3)
        return ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: Points have %" PRId64 " components, expected 3",
                         f->path, a->line, a->components);
    if (!a->appended)
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s', line %d: Points are ascii; only appended raw data is supported", f->path,
                         a->line);
    const unsigned char *data;
    unsigned char *owned;
    uint64_t bytes;
    ipcc_status s = array_block(f, a, "Points", &data, &bytes, &owned);
    if (s != IPCC_OK) return s;
    const uint64_t per_point = 3 * (uint64_t)a->elem;
    ipcc_status r = IPCC_OK;
    if ((uint64_t)num_points > bytes / per_point || bytes != (uint64_t)num_points * per_point)
        r = ipcc_fail(IPCC_ERR_PARSE,
                      "'%s': Points: the block has %" PRIu64 " bytes but NumberOfPoints=%" PRId64
                      " needs %" PRId64 " x %" PRIu64,
                      f->path, bytes, num_points, num_points, per_point);
    if (r == IPCC_OK) out->num_points = num_points;
    if (r == IPCC_OK && num_points > 0 && !(out->xyz = malloc((size_t)num_points * 3 * sizeof(double))))
        r = ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory for %" PRId64 " points", f->path,
                      num_points);
    for (uint64_t k = 0; r == IPCC_OK && k < 3 * (uint64_t)num_points; k++)
        out->xyz[k] = block_value(f, data, a->elem, k);
    free(owned);
    return r;
}

/// The <VTKFile> tag: a dataset type with points, raw byte order and header type.
static ipcc_status vtkfile_tag(vtk_read *f, const ipcc_xml_tag *t) {
    char *type = NULL, *order = NULL, *header = NULL, *compressor = NULL;
    ipcc_status r = ipcc_xml_required(f->path, f->text, t, "type", &type);
    if (r == IPCC_OK) r = ipcc_xml_attr(f->path, f->text, t, "byte_order", &order);
    if (r == IPCC_OK) r = ipcc_xml_attr(f->path, f->text, t, "header_type", &header);
    if (r == IPCC_OK) r = ipcc_xml_attr(f->path, f->text, t, "compressor", &compressor);
    if (r == IPCC_OK && strcmp(type, "UnstructuredGrid") && strcmp(type, "PolyData"))
        r = ipcc_fail(IPCC_ERR_PARSE,
                      "'%s' is a VTK %s file; expected UnstructuredGrid (.vtu) or PolyData (.vtp)", f->path,
                      type);
    if (r == IPCC_OK && compressor && compressor[0]) {
        if (!strcmp(compressor, "vtkZLibDataCompressor"))
            f->zlib = true;
        else
            r = ipcc_fail(IPCC_ERR_PARSE,
                          "'%s' is compressed with %s; only vtkZLibDataCompressor (zlib) is supported",
                          f->path, compressor);
    }
    bool little = host_is_little_endian();
    if (r == IPCC_OK && order) {
        if (!strcmp(order, "LittleEndian"))
            f->swap = !little;
        else if (!strcmp(order, "BigEndian"))
            f->swap = little;
        else
            r = ipcc_fail(IPCC_ERR_PARSE, "'%s': byte_order \"%s\" is neither LittleEndian nor BigEndian",
                          f->path, order);
    }
    f->header_bytes = 4; // VTK's default header type is UInt32
    if (r == IPCC_OK && header) {
        if (!strcmp(header, "UInt64"))
            f->header_bytes = 8;
        else if (strcmp(header, "UInt32"))
            r = ipcc_fail(IPCC_ERR_PARSE, "'%s': header_type \"%s\" is neither UInt64 nor UInt32", f->path,
                          header);
    }
    free(type);
    free(order);
    free(header);
    free(compressor);
    return r;
}

/// <AppendedData encoding="raw">: base = the byte after its '_'.
static ipcc_status appended_tag(vtk_read *f, const ipcc_xml_tag *t) {
    char *encoding = NULL;
    ipcc_status r = ipcc_xml_required(f->path, f->text, t, "encoding", &encoding);
    if (r == IPCC_OK && strcmp(encoding, "raw"))
        r = ipcc_fail(IPCC_ERR_PARSE, "'%s': the appended data is %s-encoded; only raw is supported", f->path,
                      encoding);
    free(encoding);
    if (r != IPCC_OK) return r;
    const char *q = t->end;
    while (q < f->end && isspace((unsigned char)*q))
        q++;
    if (q >= f->end || *q != '_')
        return ipcc_fail(IPCC_ERR_PARSE,
                         "'%s': no '_' opens the appended data after <AppendedData> (line %d)", f->path,
                         ipcc_xml_line(f->text, t->start));
    f->base = q + 1;
    return IPCC_OK;
}

/// True when the file ends with </VTKFile> (and whitespace).
static bool ends_with_root(const char *text, const char *end) {
    static const char tail[] = "</VTKFile>";
    const size_t n = sizeof tail - 1;
    while (end > text && isspace((unsigned char)end[-1]))
        end--;
    return (size_t)(end - text) >= n && !memcmp(end - n, tail, n);
}

void ipcc_frames_points_free(ipcc_frames_points *points) {
    if (!points) return;
    free(points->xyz);
    memset(points, 0, sizeof *points);
}

ipcc_status ipcc_frames_points_read(const char *path, ipcc_frames_points *out) {
    memset(out, 0, sizeof *out);
    char *text;
    size_t size;
    ipcc_status r = ipcc_read_file(path, false, &text, &size);
    if (r != IPCC_OK) return r;
    vtk_read f = {.path = path, .text = text, .end = text + size, .header_bytes = 4};
    array_ref points = {0}, length = {0}, time = {0};
    bool seen_root = false, in_points = false, in_field = false;
    int64_t num_points = -1;
    const char *p = text;
    ipcc_xml_tag t;
    if (!ends_with_root(text, f.end))
        r = ipcc_fail(IPCC_ERR_PARSE,
                      "'%s' does not end with </VTKFile>: the file is truncated or not a VTK XML file", path);
    while (r == IPCC_OK && !f.base) {
        int k = ipcc_xml_next_tag(p, f.end, &t);
        if (k == 0) break;
        if (k < 0) {
            r = ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: unterminated tag or comment", path,
                          ipcc_xml_line(text, t.start));
            break;
        }
        p = t.end;
        if (!seen_root) {
            if (t.closing || !ipcc_xml_is(&t, "VTKFile"))
                r = ipcc_fail(IPCC_ERR_PARSE,
                              "'%s' is not a VTK XML file: it starts with <%s%.*s>, not <VTKFile>", path,
                              t.closing ? "/" : "", (int)t.name_len, t.name);
            else
                r = vtkfile_tag(&f, &t);
            seen_root = true;
        } else if (ipcc_xml_is(&t, "Points")) {
            in_points = !t.closing && !t.empty;
        } else if (ipcc_xml_is(&t, "FieldData")) {
            in_field = !t.closing && !t.empty;
        } else if (ipcc_xml_is(&t, "Piece") && !t.closing) {
            if (num_points >= 0) {
                r = ipcc_fail(IPCC_ERR_PARSE,
                              "'%s', line %d: a second <Piece>; ipcc writes one piece per file", path,
                              ipcc_xml_line(text, t.start));
                break;
            }
            char *n = NULL;
            r = ipcc_xml_required(path, text, &t, "NumberOfPoints", &n);
            if (r == IPCC_OK && !parse_count(n, &num_points))
                r = ipcc_fail(IPCC_ERR_PARSE,
                              "'%s', line %d: NumberOfPoints \"%s\" is not a non-negative integer", path,
                              ipcc_xml_line(text, t.start), n);
            free(n);
        } else if (ipcc_xml_is(&t, "DataArray") && !t.closing) {
            if (in_points && !points.found) {
                r = array_ref_parse(&f, &t, "Points", &points);
            } else if (in_field) {
                char *name = NULL;
                r = ipcc_xml_attr(path, text, &t, "Name", &name);
                if (r == IPCC_OK && name && !strcmp(name, "length_scale") && !length.found)
                    r = array_ref_parse(&f, &t, "FieldData length_scale", &length);
                else if (r == IPCC_OK && name && !strcmp(name, "TimeValue") && !time.found)
                    r = array_ref_parse(&f, &t, "FieldData TimeValue", &time);
                free(name);
            }
        } else if (ipcc_xml_is(&t, "AppendedData") && !t.closing) {
            r = appended_tag(&f, &t);
        }
    }
    if (r == IPCC_OK && !seen_root)
        r = ipcc_fail(IPCC_ERR_PARSE, "'%s' is not a VTK XML file (no <VTKFile> tag)", path);
    if (r == IPCC_OK && num_points < 0)
        r = ipcc_fail(IPCC_ERR_PARSE, "'%s' has no <Piece NumberOfPoints=...>", path);
    if (r == IPCC_OK && !points.found) r = ipcc_fail(IPCC_ERR_PARSE, "'%s' has no <Points> DataArray", path);
    if (r == IPCC_OK) r = points_value(&f, &points, num_points, out);
    if (r == IPCC_OK && length.found) {
        r = field_value(&f, &length, "length_scale", &out->length_scale);
        out->has_length_scale = r == IPCC_OK;
    }
    if (r == IPCC_OK && time.found) {
        r = field_value(&f, &time, "TimeValue", &out->time);
        out->has_time = r == IPCC_OK;
    }
    free(text);
    if (r != IPCC_OK) ipcc_frames_points_free(out);
    return r;
}
