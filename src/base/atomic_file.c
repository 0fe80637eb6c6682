// Atomic file writes: temporary, fsync, rename, fsync of the folder (see
// atomic_file.h). Used by every writer whose output must survive a crash:
// VTK frames and collections, checkpoints, scenes.
#include "base/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

ipcc_status ipcc_atomic_open(ipcc_atomic_file *f, const char *path, const char *what) {
    memset(f, 0, sizeof *f);
    f->what = what;
    f->path = path;
    size_t n = strlen(path);
    f->tmp = malloc(n + 5);
    if (!f->tmp) return ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory writing '%s'", what, path);
    memcpy(f->tmp, path, n);
    memcpy(f->tmp + n, ".tmp", 5);
    f->fp = fopen(f->tmp, "wb");
    if (!f->fp) {
        int e = errno;
        ipcc_status s = ipcc_fail(IPCC_ERR_IO, "%s: cannot write '%s': cannot create '%s': %s", what, path,
                                  f->tmp, strerror(e));
        IPCC_FREE(f->tmp);
        return s;
    }
    return IPCC_OK;
}

static void note_error(ipcc_atomic_file *f) {
    if (!f->err) f->err = errno ? errno : EIO;
}

void ipcc_atomic_write(ipcc_atomic_file *f, const void *data, size_t bytes) {
    if (f->err || bytes == 0) return;
    errno = 0;
    if (fwrite(data, 1, bytes, f->fp) != bytes) note_error(f);
}

void ipcc_atomic_printf(ipcc_atomic_file *f, const char *fmt, ...) {
    if (f->err) return;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    if (vfprintf(f->fp, fmt, ap) < 0) note_error(f);
    va_end(ap);
}

/// fsync the folder holding `path` so the rename itself is durable (best effort).
static void sync_folder(const char *path) {
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) {
        strcpy(dir, ".");
    } else if (slash == path) {
        strcpy(dir, "/");
    } else {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof dir) return;
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    int fd = open(dir, O_RDONLY);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

void ipcc_atomic_abort(ipcc_atomic_file *f) {
    if (f->fp) fclose(f->fp);
    f->fp = NULL;
    if (f->tmp) remove(f->tmp);
    IPCC_FREE(f->tmp);
}

ipcc_status ipcc_atomic_commit(ipcc_atomic_file *f) {
    if (!f->err) {
        errno = 0;
        if (fflush(f->fp) != 0 || ferror(f->fp)) note_error(f);
    }
    if (!f->err && fsync(fileno(f->fp)) != 0) note_error(f);
    if (!f->err) {
        FILE *fp = f->fp;
        f->fp = NULL;
        errno = 0;
        if (fclose(fp) != 0) note_error(f);
    }
    if (!f->err && rename(f->tmp, f->path) != 0) {
        int e = errno;
        ipcc_status s = ipcc_fail(IPCC_ERR_IO, "%s: cannot rename '%s' to '%s': %s", f->what, f->tmp, f->path,
                                  strerror(e));
        ipcc_atomic_abort(f);
        return s;
    }
    if (f->err) {
        ipcc_status s = ipcc_fail(IPCC_ERR_IO, "%s: cannot write '%s' (via '%s'): %s", f->what, f->path,
                                  f->tmp, strerror(f->err));
        ipcc_atomic_abort(f);
        return s;
    }
    IPCC_FREE(f->tmp);
    sync_folder(f->path);
    return IPCC_OK;
}
