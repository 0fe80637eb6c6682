/// Reading ipcc's own output back (frames_read.c; docs/output.md): the
/// frames.pvd collection of an output folder, and the vertex positions
/// (`Points`) of its .vtu and .vtp files, the inverse of vtk.c. Used by
/// `ipcc compare` and by the scene tests' invariant checker
/// (tests/scenes/frames_check.c). Not part of the public API.
///
/// Only what ipcc writes is supported: VTK XML with raw appended data (UInt64
/// or UInt32 block headers, either byte order), uncompressed or compressed
/// with zlib (compressor="vtkZLibDataCompressor", ipcc's default since
/// output.compress), Points as Float64 or Float32 with three components.
/// Anything else (ascii or base64 Points, LZ4 or LZMA compression) is
/// refused with a message, never guessed at. The readers return IPCC_OK,
/// or a failure with a message (ipcc_last_error()) that names the file and
/// what is wrong: IPCC_ERR_IO (a folder or file that cannot be opened or
/// read: "PATH: cannot open: REASON", "PATH: read error: REASON", as
/// ipcc_read_file), IPCC_ERR_PARSE (malformed or unsupported contents) or
/// IPCC_ERR_NO_MEMORY; nothing is left allocated on failure.
#ifndef IPCC_FRAMES_READ_H
#define IPCC_FRAMES_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "ipcc/base.h"

/// The frames listed by DIR/frames.pvd, in file order. Part 0 datasets are
/// the bodies (.vtu), part 1 the obstacles (.vtp) of the same time step;
/// other parts are ignored.
typedef struct ipcc_frames_list {
    char *pvd;        ///< the collection's path, DIR/frames.pvd
    int num_frames;   ///< part 0 datasets
    double *times;    ///< num_frames simulated times (s), from `timestep`
    char **bodies;    ///< num_frames paths of the .vtu files (relative names joined to DIR)
    char **obstacles; ///< num_frames paths of the .vtp files, or NULL when there is no part 1
} ipcc_frames_list;

/// The positions read from one .vtu or .vtp file.
typedef struct ipcc_frames_points {
    int64_t num_points;
    double *xyz;           ///< 3 * num_points, converted to host doubles (NULL when num_points is 0)
    bool has_length_scale; ///< the file's FieldData has a `length_scale` array
    double length_scale;   ///< its first value (m)
    bool has_time;         ///< the file's FieldData has a `TimeValue` array
    double time;           ///< its first value (s)
} ipcc_frames_points;

/// Read DIR/frames.pvd. DIR must be a folder; the listed files are not opened.
ipcc_status ipcc_frames_list_read(const char *dir, ipcc_frames_list *out);
/// Free the list's arrays (the struct itself is the caller's). Safe on a zeroed or freed list.
void ipcc_frames_list_free(ipcc_frames_list *list);

/// Read the `Points` array (and the FieldData `length_scale` and
/// `TimeValue`, when present) of a .vtu or .vtp. Every offset and size is
/// checked against the file, so a truncated or corrupt file is an error.
ipcc_status ipcc_frames_points_read(const char *path, ipcc_frames_points *out);
/// Free the points (the struct itself is the caller's). Safe on a zeroed or freed struct.
void ipcc_frames_points_free(ipcc_frames_points *points);

#endif
