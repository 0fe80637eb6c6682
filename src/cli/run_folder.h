/// An output folder that may hold an earlier run (run_folder.c): what
/// `ipcc run` finds there, and the removal `--overwrite` asks for.
#ifndef IPCC_CLI_RUN_FOLDER_H
#define IPCC_CLI_RUN_FOLDER_H

#include <stdbool.h>

/// The files of an earlier run found in a folder.
typedef struct ipcc_run_folder {
    int files;  ///< files of a run (with .tmp leftovers); 0: nothing of a run
    int frames; ///< frame_NNNNNN.vtu files
    long step;  ///< the last step in stats.csv, -1 if unknown
} ipcc_run_folder;

/// True if `name` is a file an ipcc run writes: scene.json, checkpoint.bin,
/// frames.pvd, stats.csv, frame_NNNNNN.vtu, obstacles_NNNNNN.vtp,
/// contacts_NNNNNN.vtp (N: 6 or more digits), or one of those + ".tmp".
bool ipcc_run_folder_is_run_file(const char *name);

/// Look for an earlier run in `dir`. A missing folder (or a path that is not
/// a folder: the output's own check reports it) holds none. 0, or -1 after
/// printing an error (the folder cannot be read).
int ipcc_run_folder_scan(const char *dir, ipcc_run_folder *out);

/// Remove the earlier run's files in `dir`, and nothing else: checkpoint.bin
/// and scene.json first (a folder interrupted half-way is then never taken
/// for a resumable run), then frames.pvd and stats.csv, then the frames.
/// Returns the number of files removed, or -1 after printing an error naming
/// the file that could not be removed.
int ipcc_run_folder_remove(const char *dir);

#endif
