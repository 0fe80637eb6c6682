// VTK XML writers: UnstructuredGrid (.vtu) frames, PolyData (.vtp) surfaces
// and a Collection (.pvd).
//
// This is the only file that knows VTK's formats. A .vtu or .vtp is written
// as version 1.0 with header_type="UInt64" and every array in one raw
// appended block: after the '_' that opens <AppendedData encoding="raw">,
// each array is a UInt64 byte count followed by that many bytes, and each
// DataArray's `offset` counts bytes from the first byte after the '_'. The
// data are in the host's byte order, which byte_order declares (probed at run
// time), so double arrays go to the file untouched and a reader sees the same
// bits. Block order in a .vtu: field data (one Float64 each), point fields, cell fields, Points (Float64 x3),
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
// A .pvd lists datasets by time step and part: ParaView's PVD reader turns
// the parts of one time step into the blocks of one multiblock dataset, so a
// frame's bodies (.vtu, part 0) and obstacles (.vtp, part 1) show together.
//
// Integer arrays that need conversion (int -> Int64 connectivity, the
// generated offsets and types, int -> Int32 cell fields) are streamed through
// a fixed stack buffer, so a frame allocates nothing proportional to the mesh.
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
#include "vtk.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "core.h"

#define VTK_TETRA 10
#define VTK_TRIANGLE 5
#define VTK_CHUNK 512 // elements per conversion chunk (4 KiB of Int64)

typedef ipcc_atomic_file vtk_file;

static const char *host_byte_order(void) {
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first ? "LittleEndian" : "BigEndian";
}

static void vtk_put(vtk_file *f, const void *data, size_t bytes) { ipcc_atomic_write(f, data, bytes); }

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
        vtk_put(f, run, (size_t)(s - run));
        vtk_put(f, ent, strlen(ent));
        run = s + 1;
    }
    vtk_put(f, run, (size_t)(s - run));
}

static void vtk_put_header(vtk_file *f, uint64_t bytes) { vtk_put(f, &bytes, sizeof bytes); }

static void vtk_put_ints_as_int64(vtk_file *f, const int *v, int64_t n) {
    int64_t buf[VTK_CHUNK];
    for (int64_t i = 0; i < n; i += VTK_CHUNK) {
        int64_t m = n - i < VTK_CHUNK ? n - i : VTK_CHUNK;
        for (int64_t k = 0; k < m; k++)
            buf[k] = v[i + k];
        vtk_put(f, buf, (size_t)m * sizeof buf[0]);
    }
}

static void vtk_put_ints_as_int32(vtk_file *f, const int *v, int64_t n) {
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
static void vtk_put_offsets(vtk_file *f, int64_t num_cells, int64_t size) {
    int64_t buf[VTK_CHUNK];
    for (int64_t i = 0; i < num_cells; i += VTK_CHUNK) {
        int64_t m = num_cells - i < VTK_CHUNK ? num_cells - i : VTK_CHUNK;
        for (int64_t k = 0; k < m; k++)
            buf[k] = size * (i + k + 1);
        vtk_put(f, buf, (size_t)m * sizeof buf[0]);
    }
}

static void vtk_put_tet_types(vtk_file *f, int64_t num_tets) {
    uint8_t buf[VTK_CHUNK];
    memset(buf, VTK_TETRA, sizeof buf);
    for (int64_t i = 0; i < num_tets; i += VTK_CHUNK) {
        int64_t m = num_tets - i < VTK_CHUNK ? num_tets - i : VTK_CHUNK;
        vtk_put(f, buf, (size_t)m);
    }
}

/// One <DataArray .../> line; advances *offset past its block (header + data).
static void vtk_put_array_tag(vtk_file *f, const char *type, const char *name, int comps, uint64_t bytes,
                              uint64_t *offset) {
    vtk_printf(f, "        <DataArray type=\"%s\"", type);
    if (name) {
        vtk_printf(f, " Name=\"");
        vtk_put_escaped(f, name);
        vtk_printf(f, "\"");
    }
    if (comps > 1) vtk_printf(f, " NumberOfComponents=\"%d\"", comps);
    vtk_printf(f, " format=\"appended\" offset=\"%llu\"/>\n", (unsigned long long)*offset);
    *offset += sizeof(uint64_t) + bytes;
}

static ipcc_status vtk_check_frame(const char *path, const ipcc_vtk_frame *fr) {
    IPCC_ASSERT(fr->num_points >= 0 && fr->num_tets >= 0);
    IPCC_ASSERT(fr->num_point_fields >= 0 && fr->num_cell_fields >= 0);
    IPCC_ASSERT(fr->points || fr->num_points == 0);
    IPCC_ASSERT(fr->tets || fr->num_tets == 0);
    for (int k = 0; k < fr->num_point_fields; k++)
        IPCC_ASSERT(fr->point_field_names[k] && (fr->point_fields[k] || fr->num_points == 0));
    for (int k = 0; k < fr->num_cell_fields; k++)
        IPCC_ASSERT(fr->cell_field_names[k] && (fr->cell_fields[k] || fr->num_tets == 0));
    for (int64_t i = 0; i < 4 * (int64_t)fr->num_tets; i++) {
        if (fr->tets[i] < 0 || fr->tets[i] >= fr->num_points)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "vtk: cannot write '%s': tet %lld references vertex %d of %d", path,
                             (long long)(i / 4), fr->tets[i], fr->num_points);
    }
    return IPCC_OK;
}

ipcc_status ipcc_vtk_write_vtu(const char *path, const ipcc_vtk_frame *frame) {
    IPCC_ASSERT(path && frame);
    ipcc_status s = vtk_check_frame(path, frame);
    if (s != IPCC_OK) return s;
    const int64_t np = frame->num_points, nt = frame->num_tets;
    const uint64_t point_bytes = (uint64_t)np * 3 * sizeof(double);
    const uint64_t cell_i32_bytes = (uint64_t)nt * sizeof(int32_t);
    const uint64_t conn_bytes = (uint64_t)nt * 4 * sizeof(int64_t);
    const uint64_t offs_bytes = (uint64_t)nt * sizeof(int64_t);
    const uint64_t type_bytes = (uint64_t)nt;

    vtk_file f;
    s = ipcc_atomic_open(&f, path, "vtk");
    if (s != IPCC_OK) return s;

    uint64_t offset = 0;
    vtk_printf(&f, "<?xml version=\"1.0\"?>\n");
    vtk_printf(
        &f, "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\">\n",
        host_byte_order());
    vtk_printf(&f, "  <UnstructuredGrid>\n");
    if (frame->num_field_values > 0) {
        vtk_printf(&f, "    <FieldData>\n");
        for (int k = 0; k < frame->num_field_values; k++) {
            vtk_printf(&f, "      <DataArray type=\"Float64\" Name=\"");
            vtk_put_escaped(&f, frame->field_value_names[k]);
            vtk_printf(&f, "\" NumberOfTuples=\"1\" format=\"appended\" offset=\"%llu\"/>\n",
                       (unsigned long long)offset);
            offset += sizeof(uint64_t) + sizeof(double);
        }
        vtk_printf(&f, "    </FieldData>\n");
    }
    vtk_printf(&f, "    <Piece NumberOfPoints=\"%lld\" NumberOfCells=\"%lld\">\n", (long long)np,
               (long long)nt);
    vtk_printf(&f, "      <PointData>\n");
    for (int k = 0; k < frame->num_point_fields; k++)
        vtk_put_array_tag(&f, "Float64", frame->point_field_names[k], 3, point_bytes, &offset);
    vtk_printf(&f, "      </PointData>\n      <CellData>\n");
    for (int k = 0; k < frame->num_cell_fields; k++)
        vtk_put_array_tag(&f, "Int32", frame->cell_field_names[k], 1, cell_i32_bytes, &offset);
    vtk_printf(&f, "      </CellData>\n      <Points>\n");
    vtk_put_array_tag(&f, "Float64", "Points", 3, point_bytes, &offset);
    vtk_printf(&f, "      </Points>\n      <Cells>\n");
    vtk_put_array_tag(&f, "Int64", "connectivity", 1, conn_bytes, &offset);
    vtk_put_array_tag(&f, "Int64", "offsets", 1, offs_bytes, &offset);
    vtk_put_array_tag(&f, "UInt8", "types", 1, type_bytes, &offset);
    vtk_printf(&f, "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n");
    vtk_printf(&f, "  <AppendedData encoding=\"raw\">\n   _");

    for (int k = 0; k < frame->num_field_values; k++) {
        vtk_put_header(&f, sizeof(double));
        vtk_put(&f, &frame->field_values[k], sizeof(double));
    }
    for (int k = 0; k < frame->num_point_fields; k++) {
        vtk_put_header(&f, point_bytes);
        vtk_put(&f, frame->point_fields[k], (size_t)point_bytes);
    }
    for (int k = 0; k < frame->num_cell_fields; k++) {
        vtk_put_header(&f, cell_i32_bytes);
        vtk_put_ints_as_int32(&f, frame->cell_fields[k], nt);
    }
    vtk_put_header(&f, point_bytes);
    vtk_put(&f, frame->points, (size_t)point_bytes);
    vtk_put_header(&f, conn_bytes);
    vtk_put_ints_as_int64(&f, frame->tets, 4 * nt);
    vtk_put_header(&f, offs_bytes);
    vtk_put_offsets(&f, nt, 4);
    vtk_put_header(&f, type_bytes);
    vtk_put_tet_types(&f, nt);
    vtk_printf(&f, "\n  </AppendedData>\n</VTKFile>\n");
    return ipcc_atomic_commit(&f);
}

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
static void vtk_put_cell_section(vtk_file *f, const char *section, int64_t n, int size, uint64_t *offset) {
    vtk_printf(f, "      <%s>\n", section);
    vtk_put_array_tag(f, "Int64", "connectivity", 1, (uint64_t)n * (uint64_t)size * sizeof(int64_t), offset);
    vtk_put_array_tag(f, "Int64", "offsets", 1, (uint64_t)n * sizeof(int64_t), offset);
    vtk_printf(f, "      </%s>\n", section);
}

/// The appended blocks of that section.
static void vtk_put_cell_blocks(vtk_file *f, const int *cells, int64_t n, int size) {
    vtk_put_header(f, (uint64_t)n * (uint64_t)size * sizeof(int64_t));
    vtk_put_ints_as_int64(f, cells, size * n);
    vtk_put_header(f, (uint64_t)n * sizeof(int64_t));
    vtk_put_offsets(f, n, size);
}

ipcc_status ipcc_vtk_write_vtp(const char *path, const ipcc_vtk_surface *surface) {
    return ipcc_vtk_write_polydata(path, surface, NULL, NULL);
}

ipcc_status ipcc_vtk_write_vtp_codim(const char *path, const ipcc_vtk_surface *surface,
                                     const ipcc_vtk_codim *codim) {
    return ipcc_vtk_write_polydata(path, surface, codim, NULL);
}

static void vtk_check_arrays(int n, const ipcc_vtk_array *a, int64_t tuples) {
    IPCC_ASSERT(n >= 0 && (a || n == 0));
    for (int k = 0; k < n; k++)
        IPCC_ASSERT(a[k].name && a[k].components >= 1 && (a[k].ints || a[k].doubles || tuples == 0));
}

static uint64_t vtk_array_bytes(const ipcc_vtk_array *a, int64_t tuples) {
    return (uint64_t)tuples * (uint64_t)a->components * (a->ints ? sizeof(int32_t) : sizeof(double));
}

static void vtk_put_array_tags(vtk_file *f, int n, const ipcc_vtk_array *a, int64_t tuples,
                               uint64_t *offset) {
    for (int k = 0; k < n; k++)
        vtk_put_array_tag(f, a[k].ints ? "Int32" : "Float64", a[k].name, a[k].components,
                          vtk_array_bytes(&a[k], tuples), offset);
}

static void vtk_put_array_blocks(vtk_file *f, int n, const ipcc_vtk_array *a, int64_t tuples) {
    for (int k = 0; k < n; k++) {
        uint64_t bytes = vtk_array_bytes(&a[k], tuples);
        vtk_put_header(f, bytes);
        if (a[k].ints)
            vtk_put_ints_as_int32(f, a[k].ints, tuples * a[k].components);
        else
            vtk_put(f, a[k].doubles, (size_t)bytes);
    }
}

/// Bytes of a String array's block: every value and its terminating NUL.
static uint64_t vtk_strings_bytes(const ipcc_vtk_strings *s) {
    uint64_t n = 0;
    for (int i = 0; i < s->count; i++)
        n += strlen(s->values[i]) + 1;
    return n;
}

/// <FieldData>: one Float64 tuple per value, then the String arrays.
static void vtk_put_field_data(vtk_file *f, const ipcc_vtk_data *d, uint64_t *offset) {
    if (d->num_field_values + d->num_field_strings == 0) return;
    vtk_printf(f, "    <FieldData>\n");
    for (int k = 0; k < d->num_field_values; k++) {
        vtk_printf(f, "      <DataArray type=\"Float64\" Name=\"");
        vtk_put_escaped(f, d->field_value_names[k]);
        vtk_printf(f, "\" NumberOfTuples=\"1\" format=\"appended\" offset=\"%llu\"/>\n",
                   (unsigned long long)*offset);
        *offset += sizeof(uint64_t) + sizeof(double);
    }
    for (int k = 0; k < d->num_field_strings; k++) {
        const ipcc_vtk_strings *s = &d->field_strings[k];
        vtk_printf(f, "      <Array type=\"String\" Name=\"");
        vtk_put_escaped(f, s->name);
        vtk_printf(f, "\" NumberOfTuples=\"%d\" format=\"appended\" offset=\"%llu\"/>\n", s->count,
                   (unsigned long long)*offset);
        *offset += sizeof(uint64_t) + vtk_strings_bytes(s);
    }
    vtk_printf(f, "    </FieldData>\n");
}

static void vtk_put_field_blocks(vtk_file *f, const ipcc_vtk_data *d) {
    for (int k = 0; k < d->num_field_values; k++) {
        vtk_put_header(f, sizeof(double));
        vtk_put(f, &d->field_values[k], sizeof(double));
    }
    for (int k = 0; k < d->num_field_strings; k++) {
        const ipcc_vtk_strings *s = &d->field_strings[k];
        vtk_put_header(f, vtk_strings_bytes(s));
        for (int i = 0; i < s->count; i++)
            vtk_put(f, s->values[i], strlen(s->values[i]) + 1);
    }
}

ipcc_status ipcc_vtk_write_polydata(const char *path, const ipcc_vtk_surface *surface,
                                    const ipcc_vtk_codim *codim, const ipcc_vtk_data *data) {
    IPCC_ASSERT(path && surface);
    const ipcc_vtk_codim none = {0, NULL, 0, NULL};
    const ipcc_vtk_codim *cd = codim ? codim : &none;
    const ipcc_vtk_data no_data = {0};
    const ipcc_vtk_data *d = data ? data : &no_data;
    ipcc_status s = vtk_check_surface(path, surface);
    if (s == IPCC_OK) s = vtk_check_codim(path, surface->num_points, cd);
    if (s != IPCC_OK) return s;
    const int64_t np = surface->num_points, nf = surface->num_triangles;
    const int64_t nl = cd->num_lines, nv = cd->num_verts, ncells = nv + nl + nf;
    const uint64_t point_bytes = (uint64_t)np * 3 * sizeof(double);
    vtk_check_arrays(d->num_point_arrays, d->point_arrays, np);
    vtk_check_arrays(d->num_cell_arrays, d->cell_arrays, ncells);
    IPCC_ASSERT(d->num_field_values >= 0 && d->num_field_strings >= 0);
    for (int k = 0; k < d->num_field_strings; k++)
        for (int i = 0; i < d->field_strings[k].count; i++)
            IPCC_ASSERT(d->field_strings[k].name && d->field_strings[k].values[i]);

    vtk_file f;
    s = ipcc_atomic_open(&f, path, "vtk");
    if (s != IPCC_OK) return s;

    uint64_t offset = 0;
    vtk_printf(&f, "<?xml version=\"1.0\"?>\n");
    vtk_printf(&f, "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\">\n",
               host_byte_order());
    vtk_printf(&f, "  <PolyData>\n");
    vtk_put_field_data(&f, d, &offset);
    vtk_printf(&f,
               "    <Piece NumberOfPoints=\"%lld\" NumberOfVerts=\"%lld\" NumberOfLines=\"%lld\" "
               "NumberOfStrips=\"0\" NumberOfPolys=\"%lld\">\n",
               (long long)np, (long long)nv, (long long)nl, (long long)nf);
    vtk_printf(&f, "      <PointData>\n");
    for (int k = 0; k < surface->num_point_fields; k++)
        vtk_put_array_tag(&f, "Float64", surface->point_field_names[k], 3, point_bytes, &offset);
    vtk_put_array_tags(&f, d->num_point_arrays, d->point_arrays, np, &offset);
    vtk_printf(&f, "      </PointData>\n      <CellData>\n");
    vtk_put_array_tags(&f, d->num_cell_arrays, d->cell_arrays, ncells, &offset);
    vtk_printf(&f, "      </CellData>\n      <Points>\n");
    vtk_put_array_tag(&f, "Float64", "Points", 3, point_bytes, &offset);
    vtk_printf(&f, "      </Points>\n");
    if (nv > 0) vtk_put_cell_section(&f, "Verts", nv, 1, &offset);
    if (nl > 0) vtk_put_cell_section(&f, "Lines", nl, 2, &offset);
    vtk_put_cell_section(&f, "Polys", nf, 3, &offset);
    vtk_printf(&f, "    </Piece>\n  </PolyData>\n");
    vtk_printf(&f, "  <AppendedData encoding=\"raw\">\n   _");

    vtk_put_field_blocks(&f, d);
    for (int k = 0; k < surface->num_point_fields; k++) {
        vtk_put_header(&f, point_bytes);
        vtk_put(&f, surface->point_fields[k], (size_t)point_bytes);
    }
    vtk_put_array_blocks(&f, d->num_point_arrays, d->point_arrays, np);
    vtk_put_array_blocks(&f, d->num_cell_arrays, d->cell_arrays, ncells);
    vtk_put_header(&f, point_bytes);
    vtk_put(&f, surface->points, (size_t)point_bytes);
    if (nv > 0) vtk_put_cell_blocks(&f, cd->verts, nv, 1);
    if (nl > 0) vtk_put_cell_blocks(&f, cd->lines, nl, 2);
    vtk_put_cell_blocks(&f, surface->triangles, nf, 3);
    vtk_printf(&f, "\n  </AppendedData>\n</VTKFile>\n");
    return ipcc_atomic_commit(&f);
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
