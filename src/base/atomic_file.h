/// Files written atomically: everything goes to "<path>.tmp" in the same
/// folder, which is flushed, fsync'ed, closed and only then rename()d over
/// <path>, and the folder is fsync'ed (best effort). A reader, a crash, a
/// kill or a full disk sees either the old <path> or the complete new one.
///
/// Every write is checked; the first failure (ENOSPC, EFBIG, EIO...) is kept
/// (sticky), later writes are skipped, and commit then removes the temporary
/// and returns IPCC_ERR_IO naming the file and strerror, leaving an existing
/// <path> untouched. A temporary we did not create (the open failed, e.g.
/// "<path>.tmp" is a folder) is never removed. A stale "<path>.tmp" left by
/// a killed run is simply overwritten.
#ifndef IPCC_ATOMIC_FILE_H
#define IPCC_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "base/core.h"

typedef struct ipcc_atomic_file {
    const char *what; ///< message prefix, e.g. "vtk" (not copied)
    const char *path; ///< target (not copied; must outlive the file)
    char *tmp;        ///< "<path>.tmp"
    FILE *fp;
    int err; ///< first errno met, 0 if none
} ipcc_atomic_file;

/// Create "<path>.tmp". On failure nothing is left open and the status names both files.
ipcc_status ipcc_atomic_open(ipcc_atomic_file *f, const char *path, const char *what);
/// Append bytes (a no-op after an error).
void ipcc_atomic_write(ipcc_atomic_file *f, const void *data, size_t bytes);
/// Append formatted text (a no-op after an error).
void ipcc_atomic_printf(ipcc_atomic_file *f, const char *fmt, ...) IPCC_PRINTF(2, 3);
/// Flush, fsync, close and rename over the target; on any failure, abort and
/// return IPCC_ERR_IO. The file is closed either way.
ipcc_status ipcc_atomic_commit(ipcc_atomic_file *f);
/// Close and remove the temporary; the target is untouched. Safe to repeat.
void ipcc_atomic_abort(ipcc_atomic_file *f);

#endif
