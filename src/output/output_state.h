/// The output's private state (output_state.c): struct ipcc_output and the
/// file names of its folder, with the two helpers that both of its writers
/// use, output.c (frames, the .pvd, the folder) and output_stats.c
/// (stats.csv): a file's path in the folder and the contact objects' names.
/// Not part of the public API (bench/frames_bench.c sets compress_level).
#ifndef IPCC_OUTPUT_STATE_H
#define IPCC_OUTPUT_STATE_H

#include <stdbool.h>
#include <stdio.h>

#include "ipcc/contact_report.h"
#include "ipcc/output.h"

#define OUTPUT_PVD "frames.pvd"
#define OUTPUT_STATS "stats.csv"
#define OUTPUT_NAME_MAX 32 // room for "obstacles_%06d.vtp" with any int and the probe name
#define OUTPUT_PARTS 3     // datasets per time step: 0 = frame_*.vtu, 1 = obstacles_*.vtp, 2 = contacts_*.vtp
#define OUTPUT_BASE_COLUMNS                                                                                  \
    26 // stats.csv's columns step ... time_energy (all an older ipcc wrote before the forces)
#define OUTPUT_ENERGY_COLUMNS 10 // then kinetic_energy ... angular_momentum_z (ipcc_world_energies)
#define OUTPUT_FIXED_COLUMNS                                                                                 \
    (OUTPUT_BASE_COLUMNS + OUTPUT_ENERGY_COLUMNS) // an older ipcc's, before the forces
#define OUTPUT_SUBSTEPS_COLUMNS 1 // then substeps (ipcc_step_stats), then the per-object forces

struct ipcc_output {
    char *dir;      ///< the folder, without trailing '/'
    char *path;     ///< scratch: dir + '/' + a file name
    int num_frames; ///< frames written (and listed in frames.pvd)
    double *times;  ///< simulated time of each frame
    int times_cap;
    char **files;  ///< OUTPUT_PARTS names per frame (owned; NULL = no such part), for num_named frames
    int num_named; ///< frames whose name slots exist (num_frames, + 1 after a failed write)
    int files_cap;
    double *displacement; ///< 3 * num_deformable_vertices scratch
    int displacement_cap;
    double *tet_fields; ///< 12 * num_tets scratch: J, Cauchy stress (9), von Mises, energy density
    int tet_fields_cap;
    int compress_level;           ///< zlib level of the .vtu/.vtp data, 0 = raw (IPCC_VTK_DEFAULT_LEVEL;
                                  ///< ipcc_output_set_compress; bench/frames_bench.c sets others)
    struct ipcc_vtk_codec *codec; ///< the frames' encoder (vtk.c) at that level, made by the next frame
    double *obstacle_points;      ///< 3 * points of the .vtp
    int obstacle_points_cap;
    double *obstacle_velocity; ///< 3 * points of the .vtp
    int obstacle_velocity_cap;
    int *obstacle_triangles; ///< 3 * triangles of the .vtp
    int obstacle_triangles_cap;
    int *obstacle_lines; ///< 2 * lines of the .vtp (segment sets' edges)
    int obstacle_lines_cap;
    int *obstacle_verts; ///< vertex cells of the .vtp (point sets' vertices)
    int obstacle_verts_cap;
    int *cell_objects; ///< per cell of the obstacles' .vtp (verts, lines, polys): its object id
    int cell_objects_cap;
    bool contacts;               ///< write contacts_NNNNNN.vtp with each frame
    ipcc_contact_report *report; ///< contacts of the state written (contacts file, per-object forces)
    double *contact_doubles;     ///< contacts .vtp scratch: points, normal, distance, forces
    int contact_doubles_cap;
    int *contact_ints; ///< contacts .vtp scratch: objects, kind, active, vertex cells
    int contact_ints_cap;
    double *object_forces; ///< 3 per object, a stats row's forces
    int object_forces_cap;
    char *names; ///< the objects' names, NUL-separated (output_object_names)
    int names_cap;
    const char **name_list; ///< pointers into names
    int name_list_cap;
    FILE *stats;         ///< stats.csv, open after the first row
    long stats_rows;     ///< rows in stats.csv (written by this output, or kept by a resume)
    int stats_objects;   ///< objects with force columns in stats.csv's header (0: none), once it exists
    bool stats_energies; ///< stats.csv's header has the energy columns (a resumed older file has not)
    bool stats_substeps; ///< ... and the substeps column after them (nor has an older one)
};

/// o->dir + '/' + name in o's scratch path o->path (valid until the next
/// call); `name` is at most OUTPUT_NAME_MAX - 1 bytes long.
const char *ipcc_output_path(ipcc_output *o, const char *name);

/// The names of the world's contact objects (ipcc_world_contact_object_name), in
/// o->name_list (valid until the next call). -1 when out of memory.
int ipcc_output_object_names(ipcc_output *o, const ipcc_world *w);

#endif
