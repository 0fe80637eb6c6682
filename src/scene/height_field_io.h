/// Reading a height-field grid from a file (height_field_io.c): CSV text
/// or a little-endian raw array. Scenes use it for "height_field" entries.
#ifndef IPCC_HEIGHT_FIELD_IO_H
#define IPCC_HEIGHT_FIELD_IO_H

#include <stdbool.h>

#include "ipcc/base.h"

/// Read a CSV grid: one row of heights per line, separated by commas (and/or
/// blanks), '#' lines and blank lines skipped. *heights (malloc'ed, row-major,
/// the caller frees it), *rows, *cols. Errors name the file and line: a
/// missing file (IPCC_ERR_IO), a cell that is no finite number, a row of
/// another length than the first, fewer than 4 x 4 samples (IPCC_ERR_PARSE).
ipcc_status ipcc_height_field_read_csv(const char *path, double **heights, int *rows, int *cols);

/// Read rows x cols little-endian float64 (`float32` false) or float32 values,
/// row-major. The file must hold exactly that many bytes; errors name the
/// file (and the row and column of a non-finite value).
ipcc_status ipcc_height_field_read_raw(const char *path, int rows, int cols, bool float32, double **heights);

#endif
