// VTK XML writers: UnstructuredGrid (.vtu) frames, PolyData (.vtp) surfaces
// and a Collection (.pvd).
//
// This is the only file that knows VTK's formats (and the only zlib
// writer). A .vtu or .vtp is written as version 1.0 with
// header_type="UInt64" and every array in one appended block, raw or
// compressed (below). Raw: after the '_' that opens <AppendedData encoding="raw">,
// each array is a UInt64 byte count followed by that many bytes, and each
// DataArray's `offset` counts bytes from the first byte after the '_'. The
// data are in the host's byte order, which byte_order declares (probed at run
// time), so double arrays go to the file untouched and a reader sees the same
// bits. Block order in a .vtu: field data (one Float64 each), point fields
// (Float64 x3), further point arrays, cell fields (Int32), further cell
// arrays (Int32 or Float64, any number of components), Points (Float64 x3),
// connectivity (Int64), offsets (Int64), types (UInt8, 10 = VTK_TETRA). In a
// .vtp: point fields, Points, then the connectivity and offsets (Int64) of
// the Verts (one point each: offsets 1, 2, 3, ...), of the Lines (two points
// each: 2, 4, 6, ...) and of the Polys (every poly a triangle: 3, 6, 9, ...).
// The Strips section, and a Verts or Lines section without cells, are left
// out and their counts written as 0, so a triangles-only .vtp is unchanged by
// the codimensional cells' existence.
// A .vtp may also carry further point and cell arrays (Int32 or Float64, any
// number of components; cell arrays in VTK's cell order: verts, lines,
// polys) and FieldData (Float64 values, and String arrays: each value's
// bytes and a NUL, the block's size the total), whose blocks come first.
//
// Compression (an ipcc_vtk_codec of level 1..9): the VTKFile element says
// compressor="vtkZLibDataCompressor" and each array's block is no longer a
// byte count and the bytes but VTK's compressed layout (VTK file formats,
// "VTK XML Formats" on the Kitware wiki: compressed appended data), all
// UInt64 words:
//   [nblocks][blocksize][last_blocksize][csize_0]...[csize_{nblocks-1}]
// followed by the nblocks zlib streams (compress()'s format), block b
// holding bytes [b blocksize, (b + 1) blocksize) of the raw array.
// blocksize is VTK's 32768, last_blocksize the raw size of the last block
// when it is partial and 0 when it is full, and an empty array is
// [0][32768][0]. The offsets of the DataArray tags count these encoded
// blocks, whose sizes are only known after compressing, so a compressed file
// is built in two passes over the same block-writing code: first every array
// is gathered raw into the codec's buffer and cut into blocks, the blocks
// are compressed (vtk_compress: in parallel over OpenMP threads, one
// z_stream each; every block is its own zlib stream, so the bytes are the
// same for any thread count) and packed with their headers, then the XML is
// written with the encoded sizes as offsets and the packed data after it.
// Raw files take one pass: the blocks are streamed straight to the file.
// The codec's buffers and z_streams persist between files.
//
// A .pvd lists datasets by time step and part: ParaView's PVD reader turns
// the parts of one time step into the blocks of one multiblock dataset, so a
// frame's bodies (.vtu, part 0) and obstacles (.vtp, part 1) show together.
//
// Integer arrays that need conversion (int -> Int64 connectivity, the
// generated offsets and types, int -> Int32 cell fields) are streamed through
// a fixed stack buffer, so a raw frame allocates nothing proportional to the
// mesh; a compressed one uses the codec's buffer, which grows to the largest
// file and is then reused.
//
// Atomicity (atomic_file.c): everything is written to "<path>.tmp" in the same folder,
// flushed, fsync'ed, closed and only then rename()d over <path>, so a reader
// (ParaView, a crash, a kill) sees either the old file or the complete new
// one. Every write is checked; the first failure (ENOSPC, EFBIG, EIO...)
// stops the writing, removes the temporary and returns IPCC_ERR_IO naming the
// file and strerror, leaving any existing <path> untouched. A temporary we did
// not create (fopen failed, e.g. "<path>.tmp" is a directory) is never
// removed. After the rename the folder is fsync'ed, best effort.
//
// Names (fields, files) are XML-escaped. Out-of-range cell indices and
// non-finite times in a .pvd are rejected (IPCC_ERR_INVALID_ARGUMENT, nothing
// written): VTK readers cannot use them.
#include "output/vtk.h"
#include "base/parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>
#include <zlib.h>

#include "base/atomic_file.h"
#include "base/core.h"

#define VTK_TETRA 10
#define VTK_TRIANGLE 5
#define VTK_CHUNK 512    // elements per conversion chunk (4 KiB of Int64)
#define VTK_BLOCK 32768u // raw bytes per compressed block (VTK's default)

typedef ipcc_atomic_file vtk_file;

/// One block of an array: raw bytes [raw, raw + n) of the codec's raw
/// buffer, compressed into `size` bytes at `out` of its data buffer.
typedef struct vtk_block {
    size_t raw, n; ///< in c->raw
    size_t out;    ///< in c->data: a slot of compressBound(n) bytes, then the packed position
    uint64_t size; ///< compressed bytes
} vtk_block;

/// One array of a compressed file.
typedef struct vtk_array_blocks {
    uint64_t raw_bytes; ///< its raw size
    size_t first;       ///< its first block in c->blocks
    size_t header_at;   ///< its header's slot in c->data
} vtk_array_blocks;

struct ipcc_vtk_codec {
    int level;          ///< 0 raw, 1..9 zlib
    int num_streams;    ///< deflate states in z, one per OpenMP thread (grown as needed)
    z_stream *z;        ///< reset per block
    unsigned char *raw; ///< pass 1: the raw bytes of every array of the file, in order
    size_t raw_size, raw_cap;
    vtk_block *blocks; ///< every block of the file, in order
    int num_blocks, blocks_cap;
    vtk_array_blocks *arrays; ///< every array of the file, in order
    int num_arrays, arrays_cap;
    unsigned char *data; ///< the file's encoded appended data
    size_t data_size, data_cap;
    uint64_t *sizes; ///< encoded bytes of each array, in file order
    int num_sizes, sizes_cap;
};

ipcc_vtk_codec *ipcc_vtk_codec_create(int level) {
    IPCC_ASSERT(level >= 0 && level <= 9);
    ipcc_vtk_codec *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->level = level;
    return c;
}

void ipcc_vtk_codec_destroy(ipcc_vtk_codec *c) {
    if (!c) return;
    for (int i = 0; i < c->num_streams; i++)
        deflateEnd(&c->z[i]);
    free(c->z);
    free(c->raw);
    free(c->blocks);
    free(c->arrays);
    free(c->data);
    free(c->sizes);
    free(c);
}

/// Make room for `extra` more bytes past `size` in *buf (capacity *cap); false when out of memory.
static bool grow_bytes(unsigned char **buf, size_t *cap, size_t size, size_t extra) {
    if (*cap - size >= extra) return true;
    size_t n = *cap ? *cap : (size_t)1 << 16;
    while (n - size < extra)
        n *= 2;
    unsigned char *d = realloc(*buf, n);
    if (!d) return false;
    *buf = d;
    *cap = n;
    return true;
}

/// Where array blocks go: straight to the file (raw), or into the codec's
/// raw buffer (pass 1 of a compressed file; vtk_compress then compresses them).
typedef struct vtk_enc {
    vtk_file *f;       ///< raw: the file
    ipcc_vtk_codec *c; ///< compressed: the codec, else NULL
    int next_size;     ///< the tags' pass: index of the next array's encoded size
    uint64_t done;     ///< raw bytes of the current array received so far
    uint64_t expect;   ///< raw bytes the current array announced
    bool failed;       ///< out of memory or a zlib error: the file is not written
} vtk_enc;

/// Start an array of `bytes` raw bytes: its byte count (raw), or room for
/// it in the codec's raw buffer.
static void enc_begin(vtk_enc *e, uint64_t bytes) {
    if (!e->c) {
        ipcc_atomic_write(e->f, &bytes, sizeof bytes);
        return;
    }
    e->done = 0;
    e->expect = bytes;
    ipcc_vtk_codec *c = e->c;
    if (e->failed || bytes > SIZE_MAX / 2 || !grow_bytes(&c->raw, &c->raw_cap, c->raw_size, (size_t)bytes) ||
        ipcc_reserve((void **)&c->arrays, &c->arrays_cap, c->num_arrays + 1, sizeof *c->arrays) != 0) {
        e->failed = true;
        return;
    }
    c->arrays[c->num_arrays++] = (vtk_array_blocks){.raw_bytes = bytes, .first = (size_t)c->num_blocks};
}

/// Raw bytes of the current array.
static void vtk_put(vtk_enc *e, const void *data, size_t bytes) {
    if (!e->c) {
        ipcc_atomic_write(e->f, data, bytes);
        return;
    }
    e->done += bytes;
    IPCC_ASSERT(e->done <= e->expect);
    if (e->failed) return;
    memcpy(e->c->raw + e->c->raw_size, data, bytes); // room made by enc_begin
    e->c->raw_size += bytes;
}

/// End the current array: cut its raw bytes into VTK_BLOCK blocks (the
/// last one partial; none for an empty array).
static void enc_end(vtk_enc *e) {
    if (!e->c || e->failed) return;
    IPCC_ASSERT(e->done == e->expect);
    ipcc_vtk_codec *c = e->c;
    const uint64_t bytes = e->expect, nblocks = (bytes + VTK_BLOCK - 1) / VTK_BLOCK;
    if (nblocks > (uint64_t)(INT32_MAX - c->num_blocks - 1) ||
        ipcc_reserve((void **)&c->blocks, &c->blocks_cap, c->num_blocks + (int)nblocks + 1,
                     sizeof *c->blocks) != 0) {
        e->failed = true;
        return;
    }
    const size_t start = c->raw_size - (size_t)bytes;
    for (uint64_t b = 0; b < nblocks; b++) {
        const size_t at = (size_t)(b * VTK_BLOCK);
        c->blocks[c->num_blocks++] =
            (vtk_block){.raw = start + at, .n = (size_t)(bytes - at < VTK_BLOCK ? bytes - at : VTK_BLOCK)};
    }
}

/// Pass 1's end: compress every block, in parallel (each block is its own
/// zlib stream, so the bytes do not depend on the thread count), and lay out
/// c->data as the file's appended data: per array its header
/// [nblocks][blocksize][last_blocksize][csize...] and its blocks. The blocks
/// are compressed into slots of compressBound bytes, then packed down in
/// order (a block's packed position never passes its slot's start).
static bool vtk_compress(ipcc_vtk_codec *c) {
    const int threads = omp_get_max_threads();
    if (threads > c->num_streams) {
        z_stream *z = realloc(c->z, sizeof *z * (size_t)threads);
        if (!z) return false;
        c->z = z;
        for (; c->num_streams < threads; c->num_streams++) {
            memset(&c->z[c->num_streams], 0, sizeof *z);
            if (deflateInit(&c->z[c->num_streams], c->level) != Z_OK) return false;
        }
    }
    // Slots: per array its header, then a compressBound slot per block.
    size_t total = 0;
    for (int a = 0; a < c->num_arrays; a++) {
        vtk_array_blocks *ar = &c->arrays[a];
        const size_t end = a + 1 < c->num_arrays ? c->arrays[a + 1].first : (size_t)c->num_blocks;
        ar->header_at = total;
        total += 8 * (3 + (end - ar->first));
        for (size_t b = ar->first; b < end; b++) {
            c->blocks[b].out = total;
            total += compressBound((uLong)c->blocks[b].n);
        }
    }
    if (!grow_bytes(&c->data, &c->data_cap, 0, total) ||
        ipcc_reserve((void **)&c->sizes, &c->sizes_cap, c->num_arrays + 1, sizeof *c->sizes) != 0)
        return false;
    int failed = 0;
    static ipcc_region region1;
    ipcc_region_run region1_run = ipcc_region_begin(&region1, c->num_blocks);
#pragma omp parallel for num_threads(region1_run.threads) schedule(dynamic, 1) reduction(| : failed)
    for (int b = 0; b < c->num_blocks; b++) {
        z_stream *z = &c->z[omp_get_thread_num()];
        vtk_block *k = &c->blocks[b];
        if (deflateReset(z) != Z_OK) {
            failed = 1;
            continue;
        }
        z->next_in = c->raw + k->raw;
        z->avail_in = (uInt)k->n;
        z->next_out = c->data + k->out;
        z->avail_out = (uInt)compressBound((uLong)k->n);
        failed |= deflate(z, Z_FINISH) != Z_STREAM_END;
        k->size = z->total_out;
    }
    ipcc_region_end(&region1_run);
    if (failed) return false;
    // Pack, in file order: headers and blocks move down to their final places.
    size_t at = 0;
    for (int a = 0; a < c->num_arrays; a++) {
        const vtk_array_blocks *ar = &c->arrays[a];
        const size_t end = a + 1 < c->num_arrays ? c->arrays[a + 1].first : (size_t)c->num_blocks;
        const size_t header = at;
        const uint64_t words[3] = {end - ar->first, VTK_BLOCK, ar->raw_bytes % VTK_BLOCK};
        memcpy(c->data + header, words, sizeof words);
        at += 8 * (3 + (end - ar->first));
        for (size_t b = ar->first; b < end; b++) {
            const vtk_block *k = &c->blocks[b];
            memcpy(c->data + header + 8 * (3 + (b - ar->first)), &k->size, 8);
            memmove(c->data + at, c->data + k->out, (size_t)k->size);
            at += (size_t)k->size;
        }
        c->sizes[a] = at - header;
    }
    c->data_size = at;
    c->num_sizes = c->num_arrays;
    return true;
}

/// The bytes an array of `bytes` raw bytes takes in the appended data.
static uint64_t enc_size(vtk_enc *e, uint64_t bytes) {
    if (!e->c) return sizeof(uint64_t) + bytes;
    IPCC_ASSERT(e->next_size < e->c->num_sizes);
    return e->c->sizes[e->next_size++];
}

/// One whole array from contiguous bytes.
static void enc_array(vtk_enc *e, const void *data, uint64_t bytes) {
    enc_begin(e, bytes);
    vtk_put(e, data, (size_t)bytes);
    enc_end(e);
}

static const char *host_byte_order(void) {
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first ? "LittleEndian" : "BigEndian";
}

#define vtk_printf ipcc_atomic_printf

/// Write `s` as an XML attribute value (escaping & < > " ').
static void vtk_put_escaped(vtk_file *f, const char *s) {
    const char *run = s;
    for (; *s; s++) {
        const char *ent = NULL;
        switch (*s) {
        case '&': ent = "&amp;"; break;
        case '<': ent = "&lt;"; break;
        case '>': ent = "&gt;"; break;
        case '"': ent = "&quot;"; break;
        case '\'': ent = "&apos;"; break;
        default: continue;
        }
        ipcc_atomic_write(f, run, (size_t)(s - run));
        ipcc_atomic_write(f, ent, strlen(ent));
        run = s + 1;
    }
    ipcc_atomic_write(f, run, (size_t)(s - run));
}

static void vtk_put_ints_as_int64(vtk_enc *f, const int *v, int64_t n) {
    int64_t buf[VTK_CHUNK];
    for (int64_t i = 0; i < n; i += VTK_CHUNK) {
        int64_t m = n - i < VTK_CHUNK ? n - i : VTK_CHUNK;
        for (int64_t k = 0; k < m; k++)
            buf[k] = v[i + k];
        vtk_put(f, buf, (size_t)m * sizeof buf[0]);
    }
}

static void vtk_put_ints_as_int32(vtk_enc *f, const int *v, int64_t n) {
    int32_t buf[VTK_CHUNK];
    for (int64_t i = 0; i < n; i += VTK_CHUNK) {
        int64_t m = n - i < VTK_CHUNK ? n - i : VTK_CHUNK;
        for (int64_t k = 0; k < m; k++)
            buf[k] = (int32_t)v[i + k];
        vtk_put(f, buf, (size_t)m * sizeof buf[0]);
    }
}

/// offsets[c] = size * (c + 1): the end of cell c in the connectivity array,
/// for `num_cells` cells of `size` vertices each.
static void vtk_put_offsets(vtk_enc *f, int64_t num_cells, int64_t size) {
    int64_t buf[VTK_CHUNK];
    for (int64_t i = 0; i < num_cells; i += VTK_CHUNK) {
        int64_t m = num_cells - i < VTK_CHUNK ? num_cells - i : VTK_CHUNK;
        for (int64_t k = 0; k < m; k++)
            buf[k] = size * (i + k + 1);
        vtk_put(f, buf, (size_t)m * sizeof buf[0]);
    }
}

static void vtk_put_tet_types(vtk_enc *f, int64_t num_tets) {
    uint8_t buf[VTK_CHUNK];
    memset(buf, VTK_TETRA, sizeof buf);
    for (int64_t i = 0; i < num_tets; i += VTK_CHUNK) {
        int64_t m = num_tets - i < VTK_CHUNK ? num_tets - i : VTK_CHUNK;
        vtk_put(f, buf, (size_t)m);
    }
}

/// The XML pass: the file and the running offset of the next appended block.
typedef struct vtk_xml {
    vtk_file *f;
    vtk_enc *e;      ///< gives each array's encoded size (enc_size)
    uint64_t offset; ///< from the first byte after '_'
} vtk_xml;

/// One <DataArray .../> line for an array of `bytes` raw bytes; advances the offset past its block.
static void vtk_put_array_tag(vtk_xml *x, const char *type, const char *name, int comps, uint64_t bytes) {
    vtk_printf(x->f, "        <DataArray type=\"%s\"", type);
    if (name) {
        vtk_printf(x->f, " Name=\"");
        vtk_put_escaped(x->f, name);
        vtk_printf(x->f, "\"");
    }
    if (comps > 1) vtk_printf(x->f, " NumberOfComponents=\"%d\"", comps);
    vtk_printf(x->f, " format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)x->offset);
    x->offset += enc_size(x->e, bytes);
}

/// A FieldData array tag (`element` DataArray or Array) of `tuples` values in `bytes` raw bytes.
static void vtk_put_field_tag(vtk_xml *x, const char *element, const char *type, const char *name, int tuples,
                              uint64_t bytes) {
    vtk_printf(x->f, "      <%s type=\"%s\" Name=\"", element, type);
    vtk_put_escaped(x->f, name);
    vtk_printf(x->f, "\" NumberOfTuples=\"%d\" format=\"appended\" offset=\"%llu\"/>\n", tuples,
               (unsigned long long)x->offset);
    x->offset += enc_size(x->e, bytes);
}

static void vtk_check_arrays(int n, const ipcc_vtk_array *a, int64_t tuples) {
    IPCC_ASSERT(n >= 0 && (a || n == 0));
    for (int k = 0; k < n; k++)
        IPCC_ASSERT(a[k].name && a[k].components >= 1 && (a[k].ints || a[k].doubles || tuples == 0));
}

static uint64_t vtk_array_bytes(const ipcc_vtk_array *a, int64_t tuples) {
    return (uint64_t)tuples * (uint64_t)a->components * (a->ints ? sizeof(int32_t) : sizeof(double));
}

static void vtk_put_array_tags(vtk_xml *x, int n, const ipcc_vtk_array *a, int64_t tuples) {
    for (int k = 0; k < n; k++)
        vtk_put_array_tag(x, a[k].ints ? "Int32" : "Float64", a[k].name, a[k].components,
                          vtk_array_bytes(&a[k], tuples));
}

static void vtk_put_array_blocks(vtk_enc *e, int n, const ipcc_vtk_array *a, int64_t tuples) {
    for (int k = 0; k < n; k++) {
        uint64_t bytes = vtk_array_bytes(&a[k], tuples);
        enc_begin(e, bytes);
        if (a[k].ints)
            vtk_put_ints_as_int32(e, a[k].ints, tuples * a[k].components);
        else
            vtk_put(e, a[k].doubles, (size_t)bytes);
        enc_end(e);
    }
}

/// Every appended block of a file, in the order of its tags.
typedef void (*vtk_blocks_fn)(vtk_enc *e, const void *what);
/// The XML between <VTKFile> and <AppendedData>.
typedef void (*vtk_xml_fn)(vtk_xml *x, const void *what);

/// Write a VTK XML file of `type` atomically: its XML (xml) and its
/// appended blocks (blocks), raw or compressed by `codec` (see the preamble).
static ipcc_status vtk_write_file(const char *path, const char *type, ipcc_vtk_codec *codec, vtk_xml_fn xml,
                                  vtk_blocks_fn blocks, const void *what) {
    vtk_enc e = {0};
    const bool compressed = codec && codec->level > 0;
    if (compressed) { // pass 1: every block compressed into the codec's buffer
        e.c = codec;
        codec->raw_size = 0;
        codec->num_blocks = 0;
        codec->num_arrays = 0;
        codec->data_size = 0;
        codec->num_sizes = 0;
        blocks(&e, what);
        if (!e.failed && !vtk_compress(codec)) e.failed = true;
        if (e.failed)
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "vtk: cannot write '%s': out of memory compressing its data",
                             path);
    }
    vtk_file f;
    ipcc_status s = ipcc_atomic_open(&f, path, "vtk");
    if (s != IPCC_OK) return s;
    vtk_xml x = {&f, &e, 0};
    vtk_printf(&f, "<?xml version=\"1.0\"?>\n");
    vtk_printf(&f, "<VTKFile type=\"%s\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\"%s>\n", type,
               host_byte_order(), compressed ? " compressor=\"vtkZLibDataCompressor\"" : "");
    xml(&x, what);
    vtk_printf(&f, "  <AppendedData encoding=\"raw\">\n   _");
    if (compressed) {
        IPCC_ASSERT(e.next_size == codec->num_sizes);
        ipcc_atomic_write(&f, codec->data, codec->data_size);
    } else {
        e.f = &f;
        blocks(&e, what);
    }
    vtk_printf(&f, "\n  </AppendedData>\n</VTKFile>\n");
    return ipcc_atomic_commit(&f);
}

// --- .vtu --------------------------------------------------------------------

static ipcc_status vtk_check_frame(const char *path, const ipcc_vtk_frame *fr) {
    IPCC_ASSERT(fr->num_points >= 0 && fr->num_tets >= 0);
    IPCC_ASSERT(fr->num_point_fields >= 0 && fr->num_cell_fields >= 0);
    IPCC_ASSERT(fr->points || fr->num_points == 0);
    IPCC_ASSERT(fr->tets || fr->num_tets == 0);
    for (int k = 0; k < fr->num_point_fields; k++)
        IPCC_ASSERT(fr->point_field_names[k] && (fr->point_fields[k] || fr->num_points == 0));
    for (int k = 0; k < fr->num_cell_fields; k++)
        IPCC_ASSERT(fr->cell_field_names[k] && (fr->cell_fields[k] || fr->num_tets == 0));
    vtk_check_arrays(fr->num_point_arrays, fr->point_arrays, fr->num_points);
    vtk_check_arrays(fr->num_cell_arrays, fr->cell_arrays, fr->num_tets);
    for (int64_t i = 0; i < 4 * (int64_t)fr->num_tets; i++) {
        if (fr->tets[i] < 0 || fr->tets[i] >= fr->num_points)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "vtk: cannot write '%s': tet %lld references vertex %d of %d", path,
                             (long long)(i / 4), fr->tets[i], fr->num_points);
    }
    return IPCC_OK;
}

static void vtu_xml(vtk_xml *x, const void *what) {
    const ipcc_vtk_frame *fr = what;
    const int64_t np = fr->num_points, nt = fr->num_tets;
    const uint64_t point_bytes = (uint64_t)np * 3 * sizeof(double);
    vtk_printf(x->f, "  <UnstructuredGrid>\n");
    if (fr->num_field_values > 0) {
        vtk_printf(x->f, "    <FieldData>\n");
        for (int k = 0; k < fr->num_field_values; k++)
            vtk_put_field_tag(x, "DataArray", "Float64", fr->field_value_names[k], 1, sizeof(double));
        vtk_printf(x->f, "    </FieldData>\n");
    }
    vtk_printf(x->f, "    <Piece NumberOfPoints=\"%lld\" NumberOfCells=\"%lld\">\n", (long long)np,
               (long long)nt);
    vtk_printf(x->f, "      <PointData>\n");
    for (int k = 0; k < fr->num_point_fields; k++)
        vtk_put_array_tag(x, "Float64", fr->point_field_names[k], 3, point_bytes);
    vtk_put_array_tags(x, fr->num_point_arrays, fr->point_arrays, np);
    vtk_printf(x->f, "      </PointData>\n      <CellData>\n");
    for (int k = 0; k < fr->num_cell_fields; k++)
        vtk_put_array_tag(x, "Int32", fr->cell_field_names[k], 1, (uint64_t)nt * sizeof(int32_t));
    vtk_put_array_tags(x, fr->num_cell_arrays, fr->cell_arrays, nt);
    vtk_printf(x->f, "      </CellData>\n      <Points>\n");
    vtk_put_array_tag(x, "Float64", "Points", 3, point_bytes);
    vtk_printf(x->f, "      </Points>\n      <Cells>\n");
    vtk_put_array_tag(x, "Int64", "connectivity", 1, (uint64_t)nt * 4 * sizeof(int64_t));
    vtk_put_array_tag(x, "Int64", "offsets", 1, (uint64_t)nt * sizeof(int64_t));
    vtk_put_array_tag(x, "UInt8", "types", 1, (uint64_t)nt);
    vtk_printf(x->f, "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n");
}

static void vtu_blocks(vtk_enc *e, const void *what) {
    const ipcc_vtk_frame *fr = what;
    const int64_t np = fr->num_points, nt = fr->num_tets;
    const uint64_t point_bytes = (uint64_t)np * 3 * sizeof(double);
    for (int k = 0; k < fr->num_field_values; k++)
        enc_array(e, &fr->field_values[k], sizeof(double));
    for (int k = 0; k < fr->num_point_fields; k++)
        enc_array(e, fr->point_fields[k], point_bytes);
    vtk_put_array_blocks(e, fr->num_point_arrays, fr->point_arrays, np);
    for (int k = 0; k < fr->num_cell_fields; k++) {
        enc_begin(e, (uint64_t)nt * sizeof(int32_t));
        vtk_put_ints_as_int32(e, fr->cell_fields[k], nt);
        enc_end(e);
    }
    vtk_put_array_blocks(e, fr->num_cell_arrays, fr->cell_arrays, nt);
    enc_array(e, fr->points, point_bytes);
    enc_begin(e, (uint64_t)nt * 4 * sizeof(int64_t));
    vtk_put_ints_as_int64(e, fr->tets, 4 * nt);
    enc_end(e);
    enc_begin(e, (uint64_t)nt * sizeof(int64_t));
    vtk_put_offsets(e, nt, 4);
    enc_end(e);
    enc_begin(e, (uint64_t)nt);
    vtk_put_tet_types(e, nt);
    enc_end(e);
}

ipcc_status ipcc_vtk_write_vtu(const char *path, const ipcc_vtk_frame *frame) {
    return ipcc_vtk_write_vtu_encoded(path, frame, NULL);
}

ipcc_status ipcc_vtk_write_vtu_encoded(const char *path, const ipcc_vtk_frame *frame, ipcc_vtk_codec *codec) {
    IPCC_ASSERT(path && frame);
    ipcc_status s = vtk_check_frame(path, frame);
    if (s != IPCC_OK) return s;
    return vtk_write_file(path, "UnstructuredGrid", codec, vtu_xml, vtu_blocks, frame);
}

// --- .vtp --------------------------------------------------------------------

static ipcc_status vtk_check_surface(const char *path, const ipcc_vtk_surface *sf) {
    IPCC_ASSERT(sf->num_points >= 0 && sf->num_triangles >= 0 && sf->num_point_fields >= 0);
    IPCC_ASSERT(sf->points || sf->num_points == 0);
    IPCC_ASSERT(sf->triangles || sf->num_triangles == 0);
    for (int k = 0; k < sf->num_point_fields; k++)
        IPCC_ASSERT(sf->point_field_names[k] && (sf->point_fields[k] || sf->num_points == 0));
    for (int64_t i = 0; i < 3 * (int64_t)sf->num_triangles; i++) {
        if (sf->triangles[i] < 0 || sf->triangles[i] >= sf->num_points)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "vtk: cannot write '%s': triangle %lld references vertex %d of %d", path,
                             (long long)(i / 3), sf->triangles[i], sf->num_points);
    }
    return IPCC_OK;
}

static ipcc_status vtk_check_codim(const char *path, int num_points, const ipcc_vtk_codim *cd) {
    IPCC_ASSERT(cd->num_lines >= 0 && cd->num_verts >= 0);
    IPCC_ASSERT(cd->lines || cd->num_lines == 0);
    IPCC_ASSERT(cd->verts || cd->num_verts == 0);
    for (int64_t i = 0; i < 2 * (int64_t)cd->num_lines; i++)
        if (cd->lines[i] < 0 || cd->lines[i] >= num_points)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "vtk: cannot write '%s': line %lld references vertex %d of %d", path,
                             (long long)(i / 2), cd->lines[i], num_points);
    for (int64_t i = 0; i < (int64_t)cd->num_verts; i++)
        if (cd->verts[i] < 0 || cd->verts[i] >= num_points)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "vtk: cannot write '%s': vertex cell %lld references vertex %d of %d", path,
                             (long long)i, cd->verts[i], num_points);
    return IPCC_OK;
}

/// One cell section (<Verts>, <Lines> or <Polys>) of `n` cells of `size` points: its two array tags.
static void vtk_put_cell_section(vtk_xml *x, const char *section, int64_t n, int size) {
    vtk_printf(x->f, "      <%s>\n", section);
    vtk_put_array_tag(x, "Int64", "connectivity", 1, (uint64_t)n * (uint64_t)size * sizeof(int64_t));
    vtk_put_array_tag(x, "Int64", "offsets", 1, (uint64_t)n * sizeof(int64_t));
    vtk_printf(x->f, "      </%s>\n", section);
}

/// The appended blocks of that section.
static void vtk_put_cell_blocks(vtk_enc *e, const int *cells, int64_t n, int size) {
    enc_begin(e, (uint64_t)n * (uint64_t)size * sizeof(int64_t));
    vtk_put_ints_as_int64(e, cells, size * n);
    enc_end(e);
    enc_begin(e, (uint64_t)n * sizeof(int64_t));
    vtk_put_offsets(e, n, size);
    enc_end(e);
}

ipcc_status ipcc_vtk_write_vtp(const char *path, const ipcc_vtk_surface *surface) {
    return ipcc_vtk_write_polydata(path, surface, NULL, NULL);
}

ipcc_status ipcc_vtk_write_vtp_codim(const char *path, const ipcc_vtk_surface *surface,
                                     const ipcc_vtk_codim *codim) {
    return ipcc_vtk_write_polydata(path, surface, codim, NULL);
}

/// Bytes of a String array's block: every value and its terminating NUL.
static uint64_t vtk_strings_bytes(const ipcc_vtk_strings *s) {
    uint64_t n = 0;
    for (int i = 0; i < s->count; i++)
        n += strlen(s->values[i]) + 1;
    return n;
}

/// <FieldData>: one Float64 tuple per value, then the String arrays.
static void vtk_put_field_data(vtk_xml *x, const ipcc_vtk_data *d) {
    if (d->num_field_values + d->num_field_strings == 0) return;
    vtk_printf(x->f, "    <FieldData>\n");
    for (int k = 0; k < d->num_field_values; k++)
        vtk_put_field_tag(x, "DataArray", "Float64", d->field_value_names[k], 1, sizeof(double));
    for (int k = 0; k < d->num_field_strings; k++) {
        const ipcc_vtk_strings *s = &d->field_strings[k];
        vtk_put_field_tag(x, "Array", "String", s->name, s->count, vtk_strings_bytes(s));
    }
    vtk_printf(x->f, "    </FieldData>\n");
}

static void vtk_put_field_blocks(vtk_enc *e, const ipcc_vtk_data *d) {
    for (int k = 0; k < d->num_field_values; k++)
        enc_array(e, &d->field_values[k], sizeof(double));
    for (int k = 0; k < d->num_field_strings; k++) {
        const ipcc_vtk_strings *s = &d->field_strings[k];
        enc_begin(e, vtk_strings_bytes(s));
        for (int i = 0; i < s->count; i++)
            vtk_put(e, s->values[i], strlen(s->values[i]) + 1);
        enc_end(e);
    }
}

/// A .vtp's content, for its two passes.
typedef struct vtp_parts {
    const ipcc_vtk_surface *surface;
    const ipcc_vtk_codim *cd;
    const ipcc_vtk_data *d;
    int64_t np, nf, nl, nv, ncells;
} vtp_parts;

static void vtp_xml(vtk_xml *x, const void *what) {
    const vtp_parts *p = what;
    const uint64_t point_bytes = (uint64_t)p->np * 3 * sizeof(double);
    vtk_printf(x->f, "  <PolyData>\n");
    vtk_put_field_data(x, p->d);
    vtk_printf(x->f,
               "    <Piece NumberOfPoints=\"%lld\" NumberOfVerts=\"%lld\" NumberOfLines=\"%lld\" "
               "NumberOfStrips=\"0\" NumberOfPolys=\"%lld\">\n",
               (long long)p->np, (long long)p->nv, (long long)p->nl, (long long)p->nf);
    vtk_printf(x->f, "      <PointData>\n");
    for (int k = 0; k < p->surface->num_point_fields; k++)
        vtk_put_array_tag(x, "Float64", p->surface->point_field_names[k], 3, point_bytes);
    vtk_put_array_tags(x, p->d->num_point_arrays, p->d->point_arrays, p->np);
    vtk_printf(x->f, "      </PointData>\n      <CellData>\n");
    vtk_put_array_tags(x, p->d->num_cell_arrays, p->d->cell_arrays, p->ncells);
    vtk_printf(x->f, "      </CellData>\n      <Points>\n");
    vtk_put_array_tag(x, "Float64", "Points", 3, point_bytes);
    vtk_printf(x->f, "      </Points>\n");
    if (p->nv > 0) vtk_put_cell_section(x, "Verts", p->nv, 1);
    if (p->nl > 0) vtk_put_cell_section(x, "Lines", p->nl, 2);
    vtk_put_cell_section(x, "Polys", p->nf, 3);
    vtk_printf(x->f, "    </Piece>\n  </PolyData>\n");
}

static void vtp_blocks(vtk_enc *e, const void *what) {
    const vtp_parts *p = what;
    const uint64_t point_bytes = (uint64_t)p->np * 3 * sizeof(double);
    vtk_put_field_blocks(e, p->d);
    for (int k = 0; k < p->surface->num_point_fields; k++)
        enc_array(e, p->surface->point_fields[k], point_bytes);
    vtk_put_array_blocks(e, p->d->num_point_arrays, p->d->point_arrays, p->np);
    vtk_put_array_blocks(e, p->d->num_cell_arrays, p->d->cell_arrays, p->ncells);
    enc_array(e, p->surface->points, point_bytes);
    if (p->nv > 0) vtk_put_cell_blocks(e, p->cd->verts, p->nv, 1);
    if (p->nl > 0) vtk_put_cell_blocks(e, p->cd->lines, p->nl, 2);
    vtk_put_cell_blocks(e, p->surface->triangles, p->nf, 3);
}

ipcc_status ipcc_vtk_write_polydata(const char *path, const ipcc_vtk_surface *surface,
                                    const ipcc_vtk_codim *codim, const ipcc_vtk_data *data) {
    return ipcc_vtk_write_polydata_encoded(path, surface, codim, data, NULL);
}

ipcc_status ipcc_vtk_write_polydata_encoded(const char *path, const ipcc_vtk_surface *surface,
                                            const ipcc_vtk_codim *codim, const ipcc_vtk_data *data,
                                            ipcc_vtk_codec *codec) {
    IPCC_ASSERT(path && surface);
    const ipcc_vtk_codim none = {0, NULL, 0, NULL};
    const ipcc_vtk_codim *cd = codim ? codim : &none;
    const ipcc_vtk_data no_data = {0};
    const ipcc_vtk_data *d = data ? data : &no_data;
    ipcc_status s = vtk_check_surface(path, surface);
    if (s == IPCC_OK) s = vtk_check_codim(path, surface->num_points, cd);
    if (s != IPCC_OK) return s;
    vtp_parts p = {surface,       cd, d, surface->num_points, surface->num_triangles, cd->num_lines,
                   cd->num_verts, 0};
    p.ncells = p.nv + p.nl + p.nf;
    vtk_check_arrays(d->num_point_arrays, d->point_arrays, p.np);
    vtk_check_arrays(d->num_cell_arrays, d->cell_arrays, p.ncells);
    IPCC_ASSERT(d->num_field_values >= 0 && d->num_field_strings >= 0);
    for (int k = 0; k < d->num_field_strings; k++)
        for (int i = 0; i < d->field_strings[k].count; i++)
            IPCC_ASSERT(d->field_strings[k].name && d->field_strings[k].values[i]);
    return vtk_write_file(path, "PolyData", codec, vtp_xml, vtp_blocks, &p);
}

ipcc_status ipcc_vtk_write_pvd(const char *path, int num_steps, int num_parts, const double *times,
                               const char *const *files) {
    IPCC_ASSERT(path && num_steps >= 0 && num_parts >= 1);
    IPCC_ASSERT(num_steps == 0 || (times && files));
    for (int i = 0; i < num_steps; i++) {
        if (isfinite(times[i])) continue;
        const char *first = NULL;
        for (int p = 0; p < num_parts && !first; p++)
            first = files[(int64_t)i * num_parts + p];
        return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "vtk: cannot write '%s': time of step %d ('%s') is %g",
                         path, i, first ? first : "no dataset", times[i]);
    }
    vtk_file f;
    ipcc_status s = ipcc_atomic_open(&f, path, "vtk");
    if (s != IPCC_OK) return s;
    vtk_printf(&f, "<?xml version=\"1.0\"?>\n");
    vtk_printf(&f, "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"%s\">\n", host_byte_order());
    vtk_printf(&f, "  <Collection>\n");
    for (int i = 0; i < num_steps; i++) {
        for (int p = 0; p < num_parts; p++) {
            const char *file = files[(int64_t)i * num_parts + p];
            if (!file) continue;
            vtk_printf(&f, "    <DataSet timestep=\"%.17g\" group=\"\" part=\"%d\" file=\"", times[i], p);
            vtk_put_escaped(&f, file);
            vtk_printf(&f, "\"/>\n");
        }
    }
    vtk_printf(&f, "  </Collection>\n</VTKFile>\n");
    return ipcc_atomic_commit(&f);
}
