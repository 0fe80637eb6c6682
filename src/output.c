// Output of a run: one .vtu per frame, a .pvd collection and stats.csv.
//
// The folder is created with its parents (mkdir -p) when the output is
// opened, and proven writable right away by creating and removing a probe
// file, so a bad --output path fails before any simulation time is spent.
//
// Frames are frame_000000.vtu, frame_000001.vtu, ... (see vtk.c for the
// format and the atomic write); after each one frames.pvd is rewritten, also
// atomically, listing every frame so far with its simulated time, so a run
// killed at any point leaves a collection ParaView can open. A frame counts
// only once both files are in place: if either write fails the status is
// returned, the count is unchanged and the next call retries the same index.
// The world is read only through its public accessors. The displacement
// buffer (x - rest) persists and grows with the mesh; nothing else is
// allocated per frame beyond the list of times and names.
//
// stats.csv is opened once, at the first row ("w": a stale file from an older
// run in the same folder is truncated), and flushed after every row, so a
// killed run keeps every row it reported. It is not rewritten atomically: it
// only ever grows, and a partial last line is the worst a crash can leave.
#include "ipcc/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "vtk.h"

#define OUTPUT_PVD "frames.pvd"
#define OUTPUT_STATS "stats.csv"
#define OUTPUT_NAME_MAX 32 // room for "frame_%06d.vtu" with any int and the probe name

struct ipcc_output {
    char *dir;      ///< the folder, without trailing '/'
    char *path;     ///< scratch: dir + '/' + a file name
    int num_frames; ///< frames written (and listed in frames.pvd)
    double *times;  ///< simulated time of each frame
    int times_cap;
    char **files; ///< file name of each frame (owned), num_files of them
    int num_files;
    int files_cap;
    double *displacement; ///< 3 * num_vertices scratch
    int displacement_cap;
    FILE *stats; ///< stats.csv, open after the first row
};

static const char *output_path(ipcc_output *o, const char *name) {
    sprintf(o->path, "%s/%s", o->dir, name);
    return o->path;
}

/// mkdir -p: create every missing component of `dir`, one prefix at a time.
static ipcc_status output_make_dirs(const char *dir) {
    size_t n = strlen(dir);
    char *prefix = malloc(n + 1);
    if (!prefix) return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory creating '%s'", dir);
    ipcc_status s = IPCC_OK;
    for (size_t i = 1; i <= n && s == IPCC_OK; i++) {
        if (dir[i] != '/' && dir[i] != '\0') continue;
        if (dir[i - 1] == '/') continue; // repeated slashes
        memcpy(prefix, dir, i);
        prefix[i] = '\0';
        if (mkdir(prefix, 0777) == 0) continue;
        int e = errno;
        struct stat st;
        int is_dir = stat(prefix, &st) == 0 && S_ISDIR(st.st_mode);
        if (e == EEXIST && !is_dir)
            s = ipcc_fail(IPCC_ERR_IO, "output: cannot create folder '%s': '%s' exists and is not a folder",
                          dir, prefix);
        else if (e == ENOTDIR)
            s = ipcc_fail(IPCC_ERR_IO,
                          "output: cannot create folder '%s': a component of '%s' is not a folder", dir,
                          prefix);
        else if (!is_dir)
            s = ipcc_fail(IPCC_ERR_IO, "output: cannot create folder '%s': mkdir '%s': %s", dir, prefix,
                          strerror(e));
    }
    free(prefix);
    return s;
}

/// Prove the folder writable by creating and removing a probe file.
static ipcc_status output_probe(ipcc_output *o) {
    char name[OUTPUT_NAME_MAX];
    snprintf(name, sizeof name, ".ipcc_probe_%ld", (long)getpid());
    const char *p = output_path(o, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST) { // a leftover from a killed run with our pid
        unlink(p);
        fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0666);
    }
    if (fd < 0)
        return ipcc_fail(IPCC_ERR_IO, "output: folder '%s' is not writable: cannot create '%s': %s", o->dir,
                         p, strerror(errno));
    close(fd);
    unlink(p);
    return IPCC_OK;
}

ipcc_status ipcc_output_open(const char *directory, ipcc_output **out) {
    IPCC_ASSERT(directory && out);
    *out = NULL;
    size_t n = strlen(directory);
    while (n > 1 && directory[n - 1] == '/')
        n--;
    if (n == 0) return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "output: the output folder name is empty");
    ipcc_output *o = calloc(1, sizeof *o);
    if (o) o->dir = malloc(n + 1);
    if (o) o->path = malloc(n + 1 + OUTPUT_NAME_MAX);
    if (!o || !o->dir || !o->path) {
        ipcc_output_close(o);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory opening '%s'", directory);
    }
    memcpy(o->dir, directory, n);
    o->dir[n] = '\0';
    if (n == 1 && o->dir[0] == '/') o->dir[0] = '\0'; // "/" + "/name" must not become "//name"
    ipcc_status s = o->dir[0] ? output_make_dirs(o->dir) : IPCC_OK;
    if (s == IPCC_OK) s = output_probe(o);
    if (s != IPCC_OK) {
        ipcc_output_close(o);
        return s;
    }
    ipcc_log(IPCC_LOG_INFO, "output: writing to '%s'", directory);
    *out = o;
    return IPCC_OK;
}

ipcc_status ipcc_output_write_frame(ipcc_output *o, const ipcc_world *world) {
    IPCC_ASSERT(o && world);
    const int nv = ipcc_world_num_vertices(world), nt = ipcc_world_num_tets(world);
    const double *x = ipcc_world_positions(world);
    const double *rest = ipcc_world_rest_positions(world);
    const int k = o->num_frames;
    if (ipcc_reserve((void **)&o->displacement, &o->displacement_cap, 3 * nv, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&o->times, &o->times_cap, k + 1, sizeof(double)) != 0 ||
        ipcc_reserve((void **)&o->files, &o->files_cap, k + 1, sizeof(char *)) != 0)
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing frame %d to '%s'", k, o->dir);
    for (int i = 0; i < 3 * nv; i++)
        o->displacement[i] = x[i] - rest[i];

    char name[OUTPUT_NAME_MAX];
    snprintf(name, sizeof name, "frame_%06d.vtu", k);
    const char *point_names[2] = {"velocity", "displacement"};
    const double *point_fields[2] = {ipcc_world_velocities(world), o->displacement};
    const char *cell_names[1] = {"body_id"};
    const int *cell_fields[1] = {ipcc_world_tet_bodies(world)};
    ipcc_vtk_frame frame = {
        .num_points = nv,
        .points = x,
        .num_tets = nt,
        .tets = ipcc_world_tets(world),
        .num_point_fields = 2,
        .point_field_names = point_names,
        .point_fields = point_fields,
        .num_cell_fields = 1,
        .cell_field_names = cell_names,
        .cell_fields = cell_fields,
    };
    ipcc_status s = ipcc_vtk_write_vtu(output_path(o, name), &frame);
    if (s != IPCC_OK) return s;

    if (k == o->num_files) { // a retried frame already has its (same) name
        char *copy = malloc(strlen(name) + 1);
        if (!copy) return ipcc_fail(IPCC_ERR_NO_MEMORY, "output: out of memory writing frame %d", k);
        strcpy(copy, name);
        o->files[o->num_files++] = copy;
    }
    o->times[k] = ipcc_world_time(world);
    s = ipcc_vtk_write_pvd(output_path(o, OUTPUT_PVD), k + 1, o->times, (const char *const *)o->files);
    if (s != IPCC_OK) return s;
    o->num_frames = k + 1;
    ipcc_log(IPCC_LOG_DEBUG, "output: frame %d (t = %g s) written to '%s/%s'", k, o->times[k], o->dir, name);
    return IPCC_OK;
}

ipcc_status ipcc_output_write_stats(ipcc_output *o, const ipcc_step_stats *st) {
    IPCC_ASSERT(o && st);
    const char *p = output_path(o, OUTPUT_STATS);
    if (!o->stats) {
        o->stats = fopen(p, "w");
        if (!o->stats) return ipcc_fail(IPCC_ERR_IO, "output: cannot create '%s': %s", p, strerror(errno));
        errno = 0;
        if (fprintf(o->stats, "step,time,newton_iterations,line_search_steps,factorization_fallbacks,energy,"
                              "residual,converged,time_assembly,time_factorization,time_solve,"
                              "time_line_search,time_total\n") < 0) {
            int e = errno ? errno : EIO;
            fclose(o->stats);
            o->stats = NULL; // the next row retries from a fresh file and header
            return ipcc_fail(IPCC_ERR_IO, "output: cannot write '%s': %s", p, strerror(e));
        }
    }
    errno = 0;
    if (fprintf(o->stats, "%d,%.17g,%d,%d,%d,%.17g,%.17g,%d,%.17g,%.17g,%.17g,%.17g,%.17g\n", st->step,
                st->time, st->newton_iterations, st->line_search_steps, st->factorization_fallbacks,
                st->energy, st->residual, st->converged ? 1 : 0, st->time_assembly, st->time_factorization,
                st->time_solve, st->time_line_search, st->time_total) < 0 ||
        fflush(o->stats) != 0)
        return ipcc_fail(IPCC_ERR_IO, "output: cannot write '%s': %s", p, strerror(errno ? errno : EIO));
    return IPCC_OK;
}

int ipcc_output_frame_count(const ipcc_output *o) {
    IPCC_ASSERT(o);
    return o->num_frames;
}

void ipcc_output_close(ipcc_output *o) {
    if (!o) return;
    if (o->stats && fclose(o->stats) != 0)
        ipcc_log(IPCC_LOG_WARNING, "output: error closing '%s/%s': %s", o->dir, OUTPUT_STATS,
                 strerror(errno));
    for (int i = 0; i < o->num_files; i++)
        free(o->files[i]);
    free(o->files);
    free(o->times);
    free(o->displacement);
    free(o->dir);
    free(o->path);
    free(o);
}
