/// Output of a run: VTK XML frames (.vtu bodies, .vtp obstacles), a ParaView
/// collection (.pvd) and per-step statistics (stats.csv). Frames and the
/// collection are written atomically (temporary file, then rename), so a run
/// stopped at any point leaves readable files. See docs/output.md.
#ifndef IPCC_OUTPUT_H
#define IPCC_OUTPUT_H

#include "ipcc/base.h"
#include "ipcc/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ipcc_output ipcc_output;

/// Open (create, with parents) an output directory. Writes nothing else yet.
IPCC_API ipcc_status ipcc_output_open(const char *directory, ipcc_output **out);

/// Write frame_NNNNNN.vtu for the current world state and rewrite frames.pvd.
/// The .vtu holds the deformable bodies: their vertices, VTK_TETRA cells,
/// point data `velocity` (m/s), `displacement` (x - rest, m) and
/// `contact_force` (N), cell data `body_id`. If the world has mesh obstacles
/// or half-spaces, obstacles_NNNNNN.vtp holds them as triangles (point data
/// `velocity`, m/s), listed as part 1 of the same time step. On failure the
/// frame is not counted and the next call rewrites the same index.
IPCC_API ipcc_status ipcc_output_write_frame(ipcc_output *output, const ipcc_world *world);

/// Append one row to stats.csv (the header is written with the first row).
IPCC_API ipcc_status ipcc_output_write_stats(ipcc_output *output, const ipcc_step_stats *stats);

/// Number of frames written so far.
IPCC_API int ipcc_output_frame_count(const ipcc_output *output);

/// Flush and free. NULL is fine.
IPCC_API void ipcc_output_close(ipcc_output *output);

#ifdef __cplusplus
}
#endif
#endif
