// Reading a whole file into memory (read_file.h).
//
// The file is read in chunks into a buffer that doubles (from 64 KiB), so
// a pipe or a file whose size changes while it is read works as well as a
// regular file; no size is taken from fstat. A folder opens under Linux
// (fopen "rb") and fails at the first read with EISDIR, which the message
// names. errno is read right after the failing call, before fclose can
// change it.
#include "base/read_file.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"

ipcc_status ipcc_read_file(const char *path, bool text_only, char **text, size_t *len) {
    IPCC_ASSERT(path && text);
    *text = NULL;
    if (len) *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 0, n = 0;
    char *buf = NULL;
    int read_errno = 0;
    bool failed = false;
    for (;;) {
        if (n == cap) {
            size_t grown = cap ? 2 * cap : (size_t)1 << 16;
            char *b = grown > cap && grown < SIZE_MAX ? realloc(buf, grown + 1) : NULL;
            if (!b) {
                free(buf);
                fclose(f);
                return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory reading the file", path);
            }
            buf = b;
            cap = grown;
        }
        errno = 0;
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            failed = ferror(f) != 0;
            read_errno = errno;
            break;
        }
    }
    fclose(f);
    if (failed) {
        free(buf);
        return ipcc_fail(IPCC_ERR_IO, "%s: read error: %s", path, strerror(read_errno ? read_errno : EIO));
    }
    buf[n] = '\0';
    if (text_only && strlen(buf) != n) {
        size_t at = strlen(buf);
        free(buf);
        return ipcc_fail(IPCC_ERR_PARSE, "%s: NUL byte at offset %zu (not a text file?)", path, at);
    }
    *text = buf;
    if (len) *len = n;
    return IPCC_OK;
}
