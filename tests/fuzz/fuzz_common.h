/// Shared pieces of the libFuzzer harnesses (tests/fuzz/fuzz_*.c): scratch
/// files, a silent log sink, and the invariants every reader must keep.
///
/// The harnesses use the public API (fuzz_json and fuzz_ipc also one private
/// header each: src/scene/scene_parse.h, src/scene/ipc/ipc_script.h). They are built two
/// ways: by bench/fuzz.sh with clang and -fsanitize=fuzzer (libFuzzer's
/// main), and by tests/fuzz/fuzz.cmake with the normal compiler, linked to
/// replay.c, which feeds the committed corpus through LLVMFuzzerTestOneInput()
/// as a ctest.
///
/// Scratch files live in "$TMPDIR" (else /dev/shm, else /tmp) under a name
/// that holds the target and the process id, so parallel fuzzers and ctest
/// runs never share a file. They are removed at exit; a crash can leave
/// them behind (bench/fuzz.sh points TMPDIR at a folder it removes).
///
/// A broken invariant calls abort(), which libFuzzer reports as a crash with
/// the input that caused it: a failing reader must leave its output NULL and
/// record a message naming the file; a successful one must return indices in
/// range and finite coordinates.
#ifndef IPCC_FUZZ_COMMON_H
#define IPCC_FUZZ_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipcc/base.h"
#include "ipcc/mesh.h"

/// libFuzzer's entry point, defined by each harness.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_PATH_LEN = 512, FUZZ_MAX_FILES = 16 };

static char fuzz_files[FUZZ_MAX_FILES][FUZZ_PATH_LEN]; // removed at exit
static int fuzz_num_files;
static char fuzz_dir[FUZZ_PATH_LEN]; // a folder the harness made (removed at exit), or ""

/// Prints the broken invariant and aborts (libFuzzer saves the input).
static inline void fuzz_fail(const char *what, const char *detail) {
    fprintf(stderr, "fuzz invariant broken: %s: %s\n", what, detail ? detail : "");
    abort();
}

// The log sink: touches every message (so a bad one is caught) and prints nothing.
static inline void fuzz_log(ipcc_log_level level, const char *message, void *user) {
    (void)level;
    size_t *total = user;
    *total += strlen(message);
}

static inline void fuzz_cleanup(void) {
    for (int i = 0; i < fuzz_num_files; i++)
        remove(fuzz_files[i]);
    if (fuzz_dir[0]) rmdir(fuzz_dir);
}

static inline const char *fuzz_tmp_root(void) {
    const char *t = getenv("TMPDIR");
    if (t && t[0]) return t;
    return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

/// Once per process: the silent log sink and the exit handler.
static inline void fuzz_init(void) {
    static int done;
    static size_t log_bytes;
    if (done) return;
    done = 1;
    ipcc_set_log(fuzz_log, &log_bytes);
    atexit(fuzz_cleanup);
}

/// "<tmp>/ipcc_fuzz_<target>_<pid><suffix>", registered for removal at exit.
static inline const char *fuzz_scratch(const char *target, const char *suffix) {
    if (fuzz_num_files == FUZZ_MAX_FILES) fuzz_fail("too many scratch files", suffix);
    char *p = fuzz_files[fuzz_num_files++];
    int n =
        snprintf(p, FUZZ_PATH_LEN, "%s/ipcc_fuzz_%s_%ld%s", fuzz_tmp_root(), target, (long)getpid(), suffix);
    if (n < 0 || n >= FUZZ_PATH_LEN) fuzz_fail("scratch path too long", p);
    return p;
}

/// A scratch folder (made once); files in it go through fuzz_scratch_in().
static inline const char *fuzz_scratch_dir(const char *target) {
    int n =
        snprintf(fuzz_dir, sizeof fuzz_dir, "%s/ipcc_fuzz_%s_%ld", fuzz_tmp_root(), target, (long)getpid());
    if (n < 0 || n >= (int)sizeof fuzz_dir) fuzz_fail("scratch path too long", fuzz_dir);
    if (mkdir(fuzz_dir, 0700) != 0) fuzz_fail("cannot make the scratch folder", fuzz_dir);
    return fuzz_dir;
}

/// Writes `size` bytes to `path` (replacing it); aborts when the disk refuses.
static inline void fuzz_write(const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) fuzz_fail("cannot write a scratch file", path);
    if (size && fwrite(data, 1, size, f) != size) fuzz_fail("cannot write a scratch file", path);
    if (fclose(f) != 0) fuzz_fail("cannot write a scratch file", path);
}

/// `file` in the scratch folder (removed at exit), written with `text` unless
/// that is NULL. Returns its path.
static inline const char *fuzz_scratch_in(const char *file, const char *text) {
    if (fuzz_num_files == FUZZ_MAX_FILES) fuzz_fail("too many scratch files", file);
    char *p = fuzz_files[fuzz_num_files++];
    int n = snprintf(p, FUZZ_PATH_LEN, "%s/%s", fuzz_dir, file);
    if (n < 0 || n >= FUZZ_PATH_LEN) fuzz_fail("scratch path too long", p);
    if (text) fuzz_write(p, text, strlen(text));
    return p;
}

/// A failed call: status negative, output NULL, a message that contains `name`.
static inline void fuzz_check_failure(ipcc_status s, const void *out, const char *name) {
    const char *msg = ipcc_last_error();
    if (s >= 0) fuzz_fail("failure with a non-negative status", ipcc_status_name(s));
    if (out) fuzz_fail("output not NULL after a failure", msg);
    if (!msg[0]) fuzz_fail("failure without a message", ipcc_status_name(s));
    if (name && !strstr(msg, name)) fuzz_fail("message does not name the file", msg);
}

static inline int fuzz_finite3(const double *x) { return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]); }

/// A tet mesh as ipcc_mesh documents it.
static inline void fuzz_check_mesh(const ipcc_mesh *m) {
    if (m->num_vertices < 4 || m->num_tets < 1) fuzz_fail("mesh", "too few vertices or tets");
    for (int i = 0; i < m->num_vertices; i++)
        if (!fuzz_finite3(m->vertices + 3 * i)) fuzz_fail("mesh", "non-finite vertex");
    for (int t = 0; t < m->num_tets; t++) {
        const int *v = m->tets + 4 * t;
        for (int k = 0; k < 4; k++)
            if (v[k] < 0 || v[k] >= m->num_vertices) fuzz_fail("mesh", "tet index out of range");
        const double *x0 = m->vertices + 3 * v[0];
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; k++) {
            a[k] = m->vertices[3 * v[1] + k] - x0[k];
            b[k] = m->vertices[3 * v[2] + k] - x0[k];
            c[k] = m->vertices[3 * v[3] + k] - x0[k];
        }
        double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
                     a[2] * (b[0] * c[1] - b[1] * c[0]);
        if (!(det > 0)) fuzz_fail("mesh", "tet not positively oriented");
    }
    if (m->num_faces < 4) fuzz_fail("mesh", "fewer than 4 boundary faces");
    for (int i = 0; i < 3 * m->num_faces; i++)
        if (m->faces[i] < 0 || m->faces[i] >= m->num_vertices) fuzz_fail("mesh", "face index out of range");
    for (int e = 0; e < m->num_edges; e++)
        if (m->edges[2 * e] < 0 || m->edges[2 * e] >= m->edges[2 * e + 1] ||
            m->edges[2 * e + 1] >= m->num_vertices)
            fuzz_fail("mesh", "bad boundary edge");
    for (int i = 0; i < m->num_surface_vertices; i++)
        if (m->surface_vertices[i] < 0 || m->surface_vertices[i] >= m->num_vertices ||
            (i > 0 && m->surface_vertices[i] <= m->surface_vertices[i - 1]))
            fuzz_fail("mesh", "surface vertices not ascending and in range");
    // Regions: tet_regions exactly when the list is non-empty; the list
    // ascending, without 0; every tet 0 or a listed number; names non-empty.
    if ((m->tet_regions != NULL) != (m->num_regions > 0)) fuzz_fail("mesh", "tet_regions without regions");
    for (int i = 0; i < m->num_regions; i++)
        if (m->region_numbers[i] == 0 || (i > 0 && m->region_numbers[i] <= m->region_numbers[i - 1]) ||
            (m->region_names[i] && !m->region_names[i][0]))
            fuzz_fail("mesh", "region list not ascending, with 0 or an empty name");
    for (int t = 0; m->tet_regions && t < m->num_tets; t++)
        if (m->tet_regions[t] != 0 && ipcc_mesh_region_index(m, m->tet_regions[t]) < 0)
            fuzz_fail("mesh", "a tet's region is not in the region list");
}

/// A triangle, segment or point mesh as ipcc_trimesh documents it.
static inline void fuzz_check_trimesh(const ipcc_trimesh *m) {
    if (m->num_vertices < 1) fuzz_fail("trimesh", "no vertices");
    for (int i = 0; i < m->num_vertices; i++)
        if (!fuzz_finite3(m->vertices + 3 * i)) fuzz_fail("trimesh", "non-finite vertex");
    for (int f = 0; f < m->num_faces; f++) {
        const int *v = m->faces + 3 * f;
        for (int k = 0; k < 3; k++)
            if (v[k] < 0 || v[k] >= m->num_vertices) fuzz_fail("trimesh", "face index out of range");
        if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) fuzz_fail("trimesh", "face repeats a vertex");
    }
    for (int e = 0; e < m->num_edges; e++) {
        const int *v = m->edges + 2 * e;
        if (v[0] < 0 || v[0] >= v[1] || v[1] >= m->num_vertices) fuzz_fail("trimesh", "bad edge");
        if (e > 0 && (v[-2] > v[0] || (v[-2] == v[0] && v[-1] >= v[1])))
            fuzz_fail("trimesh", "edges not sorted and unique");
    }
}

#endif
