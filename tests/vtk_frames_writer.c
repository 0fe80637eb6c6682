// Writes a few synthetic frames (a 2x2x1 grid of cubes, 6 tets each, moving
// and spinning, in two "bodies") plus frames.pvd into OUTDIR with the
// low-level writers of src/vtk.c, for tests/vtk_check.py to read with VTK.
// Usage: vtk_frames_writer OUTDIR  (OUTDIR is created if missing). Prints
// "FRAMES POINTS TETS" on success.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "ipcc/base.h"
#include "vtk.h"

enum { NX = 2, NY = 2, NZ = 1, NP = (NX + 1) * (NY + 1) * (NZ + 1), NT = 6 * NX * NY * NZ, FRAMES = 4 };

static int vid(int i, int j, int k) { return i + (NX + 1) * (j + (NY + 1) * k); }

static void build_mesh(double *x, int *t, int *body) {
    for (int k = 0; k <= NZ; k++)
        for (int j = 0; j <= NY; j++)
            for (int i = 0; i <= NX; i++) {
                double *p = x + 3 * vid(i, j, k);
                p[0] = i, p[1] = j, p[2] = k;
            }
    // Kuhn split of each cube along its main diagonal c0 -> c7.
    static const int paths[6][2] = {{1, 3}, {1, 5}, {2, 3}, {2, 6}, {4, 5}, {4, 6}};
    int n = 0;
    for (int k = 0; k < NZ; k++)
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                int c[8];
                for (int b = 0; b < 8; b++)
                    c[b] = vid(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
                for (int s = 0; s < 6; s++) {
                    body[n / 4] = i; // body 0 for the left column, 1 for the right
                    t[n++] = c[0];
                    t[n++] = c[paths[s][0]];
                    t[n++] = c[paths[s][1]];
                    t[n++] = c[7];
                }
            }
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot create '%s': %s\n", dir, strerror(errno));
        return 1;
    }
    double rest[3 * NP], x[3 * NP], v[3 * NP], u[3 * NP];
    int t[4 * NT], body[NT];
    build_mesh(rest, t, body);
    const char *pnames[2] = {"velocity", "displacement"};
    const double *pfields[2] = {v, u};
    const char *cnames[1] = {"body_id"};
    const int *cfields[1] = {body};
    ipcc_vtk_frame frame = {NP, x, NT, t, 2, pnames, pfields, 1, cnames, cfields};
    double times[FRAMES];
    char names[FRAMES][32];
    const char *files[FRAMES];
    char path[4096];
    for (int f = 0; f < FRAMES; f++) {
        times[f] = 0.01 * f;
        double a = 0.3 * times[f];
        for (int i = 0; i < NP; i++) {
            const double *r = rest + 3 * i;
            x[3 * i + 0] = cos(a) * r[0] - sin(a) * r[1];
            x[3 * i + 1] = sin(a) * r[0] + cos(a) * r[1] - 4.905 * times[f] * times[f];
            x[3 * i + 2] = r[2];
            for (int c = 0; c < 3; c++)
                u[3 * i + c] = x[3 * i + c] - r[c];
            v[3 * i + 0] = -0.3 * x[3 * i + 1];
            v[3 * i + 1] = 0.3 * x[3 * i + 0] - 9.81 * times[f];
            v[3 * i + 2] = 0;
        }
        snprintf(names[f], sizeof names[f], "frame_%06d.vtu", f);
        files[f] = names[f];
        snprintf(path, sizeof path, "%s/%s", dir, names[f]);
        if (ipcc_vtk_write_vtu(path, &frame) != IPCC_OK ||
            (snprintf(path, sizeof path, "%s/frames.pvd", dir),
             ipcc_vtk_write_pvd(path, f + 1, times, files)) != IPCC_OK) {
            fprintf(stderr, "%s\n", ipcc_last_error());
            return 1;
        }
    }
    printf("%d %d %d\n", FRAMES, NP, NT);
    return 0;
}
