// Cost and size of writing frames at each zlib level (docs/output.md,
// "Compressed frames"): a scene is stepped, then its state is written as
// frames (the .vtu, the obstacles' .vtp and the contacts' .vtp) raw and at
// levels 1, 6 and 9, several times each into a scratch folder.
//   frames_bench SCENE [STEPS [REPEATS]]     (defaults 5 and 10)
// Prints a Markdown table: the level, the bytes of each file and of the
// frame, and the wall time per frame (best of REPEATS; writing, fsync and
// rename included, so the disk counts too).
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/core.h"
#include "ipcc/ipcc.h"
#include "output/output_state.h"

static long file_size(const char *dir, const char *name) {
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

static void remove_tree(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[4400];
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    if (d) closedir(d);
    rmdir(dir);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: frames_bench SCENE [STEPS [REPEATS]]\n");
        return 2;
    }
    const int steps = argc > 2 ? atoi(argv[2]) : 5, repeats = argc > 3 ? atoi(argv[3]) : 10;
    ipcc_scene *scene = NULL;
    ipcc_world *w = NULL;
    if (ipcc_scene_load(argv[1], &scene) != IPCC_OK || ipcc_scene_create_world(scene, &w) != IPCC_OK ||
        ipcc_world_start(w) != IPCC_OK) {
        fprintf(stderr, "%s\n", ipcc_last_error());
        return 1;
    }
    for (int s = 0; s < steps; s++)
        if (ipcc_world_step(w, NULL) < 0) {
            fprintf(stderr, "%s\n", ipcc_last_error());
            return 1;
        }
    printf("%s after %d steps: %d vertices, %d tets\n\n", argv[1], steps, ipcc_world_num_vertices(w),
           ipcc_world_num_tets(w));
    printf("| level | frame .vtu (B) | obstacles .vtp (B) | contacts .vtp (B) | total (B) | vs raw | "
           "ms/frame |\n");
    printf("|---|---|---|---|---|---|---|\n");
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    static const int levels[4] = {0, 1, 6, 9};
    long raw_total = 0;
    for (int l = 0; l < 4; l++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/ipcc_frames_bench_%ld_%d", tmp, (long)getpid(), levels[l]);
        ipcc_output *o = NULL;
        if (ipcc_output_create(dir, &o) != IPCC_OK || ipcc_output_set_contacts(o, true) != IPCC_OK) {
            fprintf(stderr, "%s\n", ipcc_last_error());
            return 1;
        }
        o->compress_level = levels[l]; // a private knob: the API offers on (level 1) or off
        double best = 1e300;
        for (int r = 0; r < repeats; r++) {
            double t0 = ipcc_now();
            if (ipcc_output_write_frame(o, w) != IPCC_OK) {
                fprintf(stderr, "%s\n", ipcc_last_error());
                return 1;
            }
            double t = ipcc_now() - t0;
            best = t < best ? t : best;
        }
        long vtu = file_size(dir, "frame_000000.vtu"), vtp = file_size(dir, "obstacles_000000.vtp");
        long con = file_size(dir, "contacts_000000.vtp"), total = vtu + vtp + con;
        if (l == 0) raw_total = total;
        char name[8];
        snprintf(name, sizeof name, levels[l] ? "%d" : "raw", levels[l]);
        printf("| %s | %ld | %ld | %ld | %ld | %.3f | %.2f |\n", name, vtu, vtp, con, total,
               (double)total / (double)raw_total, 1e3 * best);
        ipcc_output_destroy(o);
        remove_tree(dir);
    }
    ipcc_world_destroy(w);
    ipcc_scene_destroy(scene);
    return 0;
}
