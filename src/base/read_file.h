/// Reading a whole file into memory (read_file.c): the one reader of the
/// scene, script, mesh and frame parsers, so that every file they cannot
/// read fails with the same messages.
#ifndef IPCC_READ_FILE_H
#define IPCC_READ_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "ipcc/base.h"

/// The whole file at `path` into *text (malloc'ed, NUL-terminated; the
/// caller frees it) and its length in bytes, without that NUL, into *len
/// (may be NULL). `text_only`: a NUL byte inside the file is refused (a
/// text format's parser would stop there). On failure *text is NULL and:
/// - IPCC_ERR_IO "PATH: cannot open: REASON" (a missing or unreadable file)
///   or "PATH: read error: REASON" (a folder: "Is a directory");
/// - IPCC_ERR_PARSE "PATH: NUL byte at offset N (not a text file?)";
/// - IPCC_ERR_NO_MEMORY "PATH: out of memory reading the file".
ipcc_status ipcc_read_file(const char *path, bool text_only, char **text, size_t *len);

#endif
