/// VTK XML writers (UnstructuredGrid .vtu, PolyData .vtp, Collection .pvd).
/// The only writer of VTK's formats (frames_read.c beside it reads ipcc's
/// files back; the two are the only zlib users). Files
/// are written to "<path>.tmp", fsync'ed and renamed over <path>, so a reader
/// never sees a partial file. Appended data is raw, or zlib-compressed
/// (vtkZLibDataCompressor) through an ipcc_vtk_codec.
#ifndef IPCC_VTK_H
#define IPCC_VTK_H

#include "ipcc/base.h"

/// How a .vtu or .vtp's appended data is encoded, with the scratch memory
/// that compression needs (it grows to the largest file written and is
/// reused, so a sequence of frames allocates nothing once sizes settle).
typedef struct ipcc_vtk_codec ipcc_vtk_codec;

/// The zlib level VTK files are compressed with by default (1: fastest;
/// see docs/output.md for the sizes and times that chose it).
#define IPCC_VTK_DEFAULT_LEVEL 1

/// A codec compressing at zlib `level` (1..9), or writing raw data (level
/// 0). NULL when out of memory. Free with ipcc_vtk_codec_destroy().
ipcc_vtk_codec *ipcc_vtk_codec_create(int level);
/// NULL is fine.
void ipcc_vtk_codec_destroy(ipcc_vtk_codec *codec);

/// A data array of any number of components: Int32 (from `ints`) or Float64
/// (from `doubles`).
typedef struct ipcc_vtk_array {
    const char *name;
    int components;        ///< >= 1
    const double *doubles; ///< Float64 values (tuples * components), when ints is NULL
    const int *ints;       ///< Int32 values, or NULL
} ipcc_vtk_array;

/// What one .vtu frame holds.
typedef struct ipcc_vtk_frame {
    int num_points;
    const double *points; ///< 3 * num_points
    int num_tets;
    const int *tets; ///< 4 * num_tets, written as VTK_TETRA (10)
    int num_point_fields;
    const char *const *point_field_names; ///< each field has 3 components per point
    const double *const *point_fields;    ///< 3 * num_points each
    int num_cell_fields;
    const char *const *cell_field_names; ///< Int32, one per cell
    const int *const *cell_fields;       ///< num_tets each
    int num_field_values;                ///< FieldData: one Float64 per name (e.g. TimeValue)
    const char *const *field_value_names;
    const double *field_values;
    int num_point_arrays;               ///< further point data, after the point fields
    const ipcc_vtk_array *point_arrays; ///< num_points tuples each
    int num_cell_arrays;                ///< further cell data, after the cell fields
    const ipcc_vtk_array *cell_arrays;  ///< num_tets tuples each
} ipcc_vtk_frame;

/// Write an UnstructuredGrid .vtu (binary appended, raw, UInt64 headers).
ipcc_status ipcc_vtk_write_vtu(const char *path, const ipcc_vtk_frame *frame);

/// ipcc_vtk_write_vtu() with the appended data encoded by `codec` (NULL or
/// level 0: raw). IPCC_ERR_NO_MEMORY when compression runs out of memory
/// (nothing written).
ipcc_status ipcc_vtk_write_vtu_encoded(const char *path, const ipcc_vtk_frame *frame, ipcc_vtk_codec *codec);

/// What one .vtp surface holds: triangles and per-point 3-vectors.
typedef struct ipcc_vtk_surface {
    int num_points;
    const double *points; ///< 3 * num_points
    int num_triangles;
    const int *triangles; ///< 3 * num_triangles, written as polys (VTK_TRIANGLE)
    int num_point_fields;
    const char *const *point_field_names; ///< each field has 3 components per point
    const double *const *point_fields;    ///< 3 * num_points each
} ipcc_vtk_surface;

/// Write a PolyData .vtp (binary appended, raw, UInt64 headers).
ipcc_status ipcc_vtk_write_vtp(const char *path, const ipcc_vtk_surface *surface);

/// Codimensional cells a .vtp may hold besides its triangles (segment and
/// point obstacles), indices into the surface's points.
typedef struct ipcc_vtk_codim {
    int num_lines;
    const int *lines; ///< 2 * num_lines point indices, written as Lines (VTK_LINE cells)
    int num_verts;
    const int *verts; ///< num_verts point indices, written as Verts (VTK_VERTEX cells)
} ipcc_vtk_codim;

/// ipcc_vtk_write_vtp() with Lines and Verts sections as well; `codim` may be
/// NULL, and with no lines and no verts the file is the same as
/// ipcc_vtk_write_vtp()'s. An index out of range is IPCC_ERR_INVALID_ARGUMENT
/// (nothing written).
ipcc_status ipcc_vtk_write_vtp_codim(const char *path, const ipcc_vtk_surface *surface,
                                     const ipcc_vtk_codim *codim);

/// A String array of field data (VTK's vtkStringArray): `count` values.
typedef struct ipcc_vtk_strings {
    const char *name;
    int count;
    const char *const *values; ///< NUL-terminated; written as they are (UTF-8 bytes)
} ipcc_vtk_strings;

/// What a .vtp may hold besides a surface's 3-vector point fields and its
/// cells (ipcc_vtk_write_polydata).
typedef struct ipcc_vtk_data {
    int num_point_arrays;
    const ipcc_vtk_array *point_arrays; ///< num_points tuples each, after the surface's point fields
    int num_cell_arrays;
    const ipcc_vtk_array *cell_arrays; ///< one tuple per cell, in VTK's cell order: verts, lines, polys
    int num_field_values;              ///< FieldData: one Float64 per name (e.g. TimeValue)
    const char *const *field_value_names;
    const double *field_values;
    int num_field_strings; ///< FieldData: String arrays (e.g. the names an id array refers to)
    const ipcc_vtk_strings *field_strings;
} ipcc_vtk_data;

/// ipcc_vtk_write_vtp_codim() with further point, cell and field data;
/// `codim` and `data` may be NULL (then the file is ipcc_vtk_write_vtp_codim()'s).
ipcc_status ipcc_vtk_write_polydata(const char *path, const ipcc_vtk_surface *surface,
                                    const ipcc_vtk_codim *codim, const ipcc_vtk_data *data);

/// ipcc_vtk_write_polydata() with the appended data encoded by `codec`
/// (NULL or level 0: raw).
ipcc_status ipcc_vtk_write_polydata_encoded(const char *path, const ipcc_vtk_surface *surface,
                                            const ipcc_vtk_codim *codim, const ipcc_vtk_data *data,
                                            ipcc_vtk_codec *codec);

/// Write a .pvd collection of `num_steps` time steps with up to `num_parts`
/// datasets each: files[s * num_parts + p] (relative to the .pvd's folder,
/// NULL = none) is listed with timestep times[s] and part p.
ipcc_status ipcc_vtk_write_pvd(const char *path, int num_steps, int num_parts, const double *times,
                               const char *const *files);

#endif
