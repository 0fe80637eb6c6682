/// Output of a run: VTK XML frames (.vtu bodies, .vtp obstacles), a ParaView
/// collection (.pvd) and per-step statistics (stats.csv). Frames and the
/// collection are written atomically (temporary file, then rename), so a run
/// stopped at any point leaves readable files. See docs/output.md.
#ifndef IPCC_OUTPUT_H
#define IPCC_OUTPUT_H

#include <stdbool.h>

#include "ipcc/base.h"
#include "ipcc/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ipcc_output ipcc_output;

/// Create an output writing into `directory` (made, with its parents, if
/// missing). Writes nothing else yet. Free with ipcc_output_destroy().
IPCC_API ipcc_status ipcc_output_create(const char *directory, ipcc_output **out);

/// Write frame_NNNNNN.vtu for the current world state and rewrite frames.pvd.
/// The .vtu holds the deformable bodies: their vertices, VTK_TETRA cells,
/// point data `velocity` (m/s), `displacement` (x - rest, m),
/// `contact_force` (N), `friction_force` (N) and `mass` (lumped, kg), cell
/// data `body_id`, `region` (the mesh region, 0 = none), `volume_ratio` (J = det F), `cauchy_stress` (Pa, 9
/// components, row-major), `von_mises` (Pa) and `energy_density` (J per m^3
/// of rest volume). If the world has mesh obstacles,
/// half-spaces or analytic shapes, obstacles_NNNNNN.vtp holds them (point
/// data `velocity`, m/s; cell data `object_id`), listed as part 1 of the same
/// time step; with ipcc_output_set_contacts(), contacts_NNNNNN.vtp holds the
/// contact report (include/ipcc/contact_report.h) as part 2. On failure the
/// frame is not counted and the next call rewrites the same index.
IPCC_API ipcc_status ipcc_output_write_frame(ipcc_output *output, const ipcc_world *world);

/// Write contacts_NNNNNN.vtp with every frame from now on (or stop). After
/// ipcc_output_resume(), also lists (or unlists) the contacts files of the
/// frames it kept, those that exist, and rewrites frames.pvd if that changed
/// (IPCC_ERR_NO_MEMORY, or IPCC_ERR_IO naming frames.pvd).
IPCC_API ipcc_status ipcc_output_set_contacts(ipcc_output *output, bool enabled);

/// Compress the appended data of the .vtu and .vtp files written from now on
/// with zlib (VTK's vtkZLibDataCompressor, level 1), or write it raw. On by
/// default (the scene's `output.compress`). Readers of either kind of file:
/// see docs/output.md. Returns IPCC_OK (it only records the choice: the next
/// frame makes the compressor and reports a failure to).
IPCC_API ipcc_status ipcc_output_set_compress(ipcc_output *output, bool enabled);

/// Append one row to stats.csv: the step's statistics, the energies and
/// momenta of `world`'s state (ipcc_world_energies; "nan" without the world)
/// and, after them, the total contact force (N, x y z) on every body,
/// half-space and shape of `world` (ipcc_contact_report_object_forces;
/// columns `contact_force_x:<name>`, ..., see docs/output.md). The first row
/// writes the header, whose columns every later row has: a file begun
/// without the world (world NULL: no force columns), or resumed from an
/// older ipcc's run, gets no force columns (nor, from an older ipcc, energy
/// columns). A NULL world when the header has force columns, or a world with
/// another number of objects, is IPCC_ERR_INVALID_ARGUMENT; a failed write
/// IPCC_ERR_IO (the row is not counted).
IPCC_API ipcc_status ipcc_output_write_stats(ipcc_output *output, const ipcc_world *world,
                                             const ipcc_step_stats *stats);

/// Number of frames written so far.
IPCC_API int ipcc_output_frame_count(const ipcc_output *output);

/// Simulated time of each frame written so far (ipcc_output_frame_count
/// entries; valid until the next write or ipcc_output_destroy()).
IPCC_API const double *ipcc_output_frame_times(const ipcc_output *output);

/// Number of rows in stats.csv so far (written by this output, or kept by
/// ipcc_output_resume()).
IPCC_API long ipcc_output_stats_row_count(const ipcc_output *output);

/// Create an output that continues a run in `directory` from a checkpoint taken
/// when it had `num_frames` frames (with these `times`) and `stats_rows`
/// rows in stats.csv: frames.pvd is rewritten to list exactly those frames
/// (the next frame written is number num_frames, replacing any later file a
/// killed run left), and stats.csv is cut back, atomically, to its header
/// and first stats_rows rows (fewer if the file has fewer). Frame files of
/// the kept frames must exist (IPCC_ERR_IO names a missing one).
IPCC_API ipcc_status ipcc_output_resume(const char *directory, const ipcc_world *world, int num_frames,
                                        const double *times, long stats_rows, ipcc_output **out);

/// Flush and free. NULL is fine.
IPCC_API void ipcc_output_destroy(ipcc_output *output);

#ifdef __cplusplus
}
#endif
#endif
