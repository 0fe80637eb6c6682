// An output folder that may hold an earlier run (run_folder.h).
//
// `ipcc run` refuses a folder that holds another run's files unless
// --overwrite is given: earlier output is never lost silently, and frames
// of a longer earlier run never linger beside the new frames.pvd (ParaView
// groups frame_*.vtu into one series by name, old and new alike). A run is
// recognised by the names it writes (ipcc_run_folder_is_run_file); any
// other file in the folder is the user's and is never touched.
//
// Removal order (crash safety, "never half"): checkpoint.bin and scene.json
// go first and the folder is synced, so a removal cut short (a crash, a
// kill, a file that cannot be removed) never leaves a folder that
// `ipcc resume` would take for a resumable run: what remains is frames
// without a scene, which `ipcc run` refuses again without --overwrite (and
// removes with it) and `ipcc resume` refuses ("no scene.json"). Then
// frames.pvd and stats.csv, then the frames. The names are collected before
// anything is removed, so the directory is not modified while it is read.
#include "cli/run_folder.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/common.h"

/// The files removed first, in this order.
static const char *const first_files[] = {"checkpoint.bin", "checkpoint.bin.tmp", "scene.json",
                                          "scene.json.tmp", "frames.pvd",         "frames.pvd.tmp",
                                          "stats.csv",      "stats.csv.tmp"};
enum { NUM_FIRST = sizeof first_files / sizeof first_files[0] };

/// `name` is PREFIX + 6 or more digits + SUFFIX.
static bool numbered(const char *name, size_t len, const char *prefix, const char *suffix) {
    size_t p = strlen(prefix), s = strlen(suffix);
    if (len < p + 6 + s || strncmp(name, prefix, p) != 0 || strncmp(name + len - s, suffix, s) != 0)
        return false;
    for (size_t i = p; i < len - s; i++)
        if (!isdigit((unsigned char)name[i])) return false;
    return true;
}

bool ipcc_run_folder_is_run_file(const char *name) {
    size_t len = strlen(name);
    if (len > 4 && !strcmp(name + len - 4, ".tmp")) len -= 4;
    for (int i = 0; i < NUM_FIRST; i += 2)
        if (strlen(first_files[i]) == len && !strncmp(name, first_files[i], len)) return true;
    return numbered(name, len, "frame_", ".vtu") || numbered(name, len, "obstacles_", ".vtp") ||
           numbered(name, len, "contacts_", ".vtp");
}

static bool is_frame(const char *name) { return numbered(name, strlen(name), "frame_", ".vtu"); }

/// A regular file (or a symbolic link: the run never writes one, but it is
/// a file of that name, so it counts and would be replaced).
static bool is_file(const char *dir, const char *name) {
    char *p = ipcc_cli_path_join(dir, name);
    struct stat st;
    bool ok = p && lstat(p, &st) == 0 && !S_ISDIR(st.st_mode);
    free(p);
    return ok;
}

/// The step column of stats.csv's last row, or -1.
static long last_stats_step(const char *dir) {
    char *p = ipcc_cli_path_join(dir, "stats.csv");
    FILE *f = p ? fopen(p, "rb") : NULL;
    free(p);
    if (!f) return -1;
    char buf[4096];
    long step = -1;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        long from = size > (long)sizeof buf - 1 ? size - (long)sizeof buf + 1 : 0;
        if (size > 0 && fseek(f, from, SEEK_SET) == 0) {
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            buf[n] = '\0';
            while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
                buf[--n] = '\0';
            char *line = strrchr(buf, '\n');
            line = line ? line + 1 : (from == 0 ? buf : NULL);
            char *end;
            long v = line ? strtol(line, &end, 10) : -1;
            if (line && end != line && *end == ',' && v >= 0) step = v;
        }
    }
    fclose(f);
    return step;
}

int ipcc_run_folder_scan(const char *dir, ipcc_run_folder *out) {
    out->files = 0;
    out->frames = 0;
    out->step = -1;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT || errno == ENOTDIR) return 0;
        fprintf(stderr, "ipcc: error: cannot read the output folder '%s': %s\n", dir, strerror(errno));
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (!ipcc_run_folder_is_run_file(e->d_name) || !is_file(dir, e->d_name)) continue;
        out->files++;
        out->frames += is_frame(e->d_name);
    }
    closedir(d);
    if (out->files > 0) out->step = last_stats_step(dir);
    return 0;
}

/// fsync the folder, so the removals so far reach the disk before the next ones.
static void sync_folder(const char *dir) {
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

/// Remove dir/name; 1 removed, 0 it was not there, -1 after printing an
/// error (which says whether `so_far` files were already removed).
static int remove_one(const char *dir, const char *name, int so_far) {
    char *p = ipcc_cli_path_join(dir, name);
    if (!p) return fprintf(stderr, "ipcc: error: out of memory\n"), -1;
    int r = 1;
    if (unlink(p) != 0) {
        if (errno == ENOENT) {
            r = 0;
        } else {
            fprintf(stderr, "ipcc: error: --overwrite: cannot remove '%s': %s; %s\n", p, strerror(errno),
                    so_far ? "the earlier run is partly removed (no longer resumable); fix this and run "
                             "again with --overwrite"
                           : "nothing was removed");
            r = -1;
        }
    }
    free(p);
    return r;
}

int ipcc_run_folder_remove(const char *dir) {
    // The names, before anything is removed.
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOENT || errno == ENOTDIR) return 0;
        fprintf(stderr, "ipcc: error: cannot read the output folder '%s': %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    int removed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!ipcc_run_folder_is_run_file(e->d_name) || !is_file(dir, e->d_name)) continue;
        bool first = false;
        for (int i = 0; i < NUM_FIRST; i++)
            first |= !strcmp(e->d_name, first_files[i]);
        if (first) continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) {
                removed = -1;
                break;
            }
            names = grown;
        }
        if (!(names[count] = strdup(e->d_name))) {
            removed = -1;
            break;
        }
        count++;
    }
    closedir(d);
    if (removed < 0) fprintf(stderr, "ipcc: error: out of memory\n");
    for (int i = 0; i < NUM_FIRST && removed >= 0; i++) {
        if (i == 4) sync_folder(dir); // the checkpoint and scene are gone before anything else
        if (!is_file(dir, first_files[i])) continue;
        int r = remove_one(dir, first_files[i], removed);
        removed = r < 0 ? -1 : removed + r;
    }
    for (size_t i = 0; i < count && removed >= 0; i++) {
        int r = remove_one(dir, names[i], removed);
        removed = r < 0 ? -1 : removed + r;
    }
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
    if (removed >= 0) sync_folder(dir);
    return removed;
}
