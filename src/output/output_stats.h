/// stats.csv of an output (output_stats.c): besides the public
/// ipcc_output_write_stats and ipcc_output_stats_row_count (ipcc/output.h),
/// the cut a resume makes. Not part of the public API.
#ifndef IPCC_OUTPUT_STATS_H
#define IPCC_OUTPUT_STATS_H

#include "ipcc/output.h"

/// Cut stats.csv back to its header and first `rows` rows (atomically), and
/// open it for appending; the rows to come get the kept header's columns.
/// Keeps fewer rows if the file has fewer (a warning), and none if it is
/// missing (a warning; the next row writes a fresh file). IPCC_ERR_IO or
/// IPCC_ERR_NO_MEMORY with a message naming the file.
ipcc_status ipcc_output_cut_stats(ipcc_output *o, long rows);

#endif
