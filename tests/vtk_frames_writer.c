// Writes a few synthetic frames (a 2x2x1 grid of cubes, 6 tets each, moving
// and spinning, in two "bodies"), each with an obstacles .vtp (a sinking
// square plate and a spinning tetrahedron's surface), plus a multi-part
// frames.pvd (the .vtu as part 0, the .vtp as part 1 of each time step) into
// OUTDIR with the low-level writers of src/output/vtk.c, for tests/vtk_check.py to
// read with VTK.
// Every frame also has the analysis arrays ipcc writes (a point `mass`, cell
// `volume_ratio`, `cauchy_stress` with 9 components, `von_mises`,
// `energy_density`; synthetic values that change per frame, von Mises that
// of the stress's symmetric part, as ipcc writes it).
// Usage: vtk_frames_writer OUTDIR [LEVEL]  (OUTDIR is created if missing;
// LEVEL 1..9 compresses the .vtu and .vtp with zlib at that level, 0 or
// absent writes them raw, so the same frames can be written both ways). Prints
// "FRAMES POINTS TETS OBSTACLE_POINTS OBSTACLE_TRIANGLES VELOCITY_CHECKSUM
// POINTS_CHECKSUM" on success, the arguments vtk_check.py takes after OUTDIR;
// a checksum is sum_j (j + 1) * v[j] over the flat obstacle `velocity` array
// (points) v of the last frame, summed in order of j.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ipcc/base.h"
#include "output/vtk.h"

enum { NX = 2, NY = 2, NZ = 1, NP = (NX + 1) * (NY + 1) * (NZ + 1), NT = 6 * NX * NY * NZ, FRAMES = 4 };
enum { OP = 8, OF = 6 }; // obstacle points (plate 4 + tetrahedron 4) and triangles (2 + 4)

/// Obstacles at time t: a plate y = -1 - 0.5 t over [-1, 3] x [-1, 2] and a
/// tetrahedron spinning at 2 rad/s about the z axis through (4, 1, 0).
static void build_obstacles(double t, double *x, double *v, int *tri) {
    static const double plate[4][2] = {{-1, -1}, {3, -1}, {3, 2}, {-1, 2}}; // (x, z)
    static const double tet[4][3] = {{0.5, 0, 0}, {0, 0.5, 0}, {0, 0, 0.5}, {-0.3, -0.3, -0.3}};
    static const int faces[OF][3] = {{0, 3, 2}, {0, 2, 1}, {4, 6, 5}, {4, 5, 7}, {4, 7, 6}, {5, 6, 7}};
    for (int i = 0; i < 4; i++) {
        double *p = x + 3 * i, *q = v + 3 * i;
        p[0] = plate[i][0], p[1] = -1 - 0.5 * t, p[2] = plate[i][1];
        q[0] = 0, q[1] = -0.5, q[2] = 0;
    }
    const double a = 2 * t, c = cos(a), s = sin(a);
    for (int i = 0; i < 4; i++) {
        double *p = x + 3 * (4 + i), *q = v + 3 * (4 + i);
        const double rx = c * tet[i][0] - s * tet[i][1], ry = s * tet[i][0] + c * tet[i][1];
        p[0] = 4 + rx, p[1] = 1 + ry, p[2] = tet[i][2];
        q[0] = -2 * ry, q[1] = 2 * rx, q[2] = 0; // omega x r
    }
    memcpy(tri, faces, sizeof faces);
}

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
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s OUTDIR [LEVEL]\n", argv[0]);
        return 2;
    }
    const int level = argc == 3 ? atoi(argv[2]) : 0;
    if (level < 0 || level > 9) {
        fprintf(stderr, "level must be 0..9 (got '%s')\n", argv[2]);
        return 2;
    }
    ipcc_vtk_codec *codec = ipcc_vtk_codec_create(level);
    if (!codec) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    const char *dir = argv[1];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot create '%s': %s\n", dir, strerror(errno));
        return 1;
    }
    double rest[3 * NP], x[3 * NP], v[3 * NP], u[3 * NP];
    int t[4 * NT], body[NT];
    build_mesh(rest, t, body);
    double fc[3 * NP], ox[3 * OP], ov[3 * OP];
    int otri[3 * OF];
    const char *pnames[3] = {"velocity", "displacement", "contact_force"};
    const double *pfields[3] = {v, u, fc};
    const char *cnames[2] = {"body_id", "region"};
    const int *cfields[2] = {body, body}; // regions as ipcc writes them: Int32 per tet
    const char *fnames[2] = {"TimeValue", "length_scale"};
    double fvalues[2] = {0, 1.5};
    double mass[NP], jr[NT], sigma[9 * NT], vm[NT], psi[NT];
    const ipcc_vtk_array parrays[1] = {{.name = "mass", .components = 1, .doubles = mass}};
    const ipcc_vtk_array carrays[4] = {{.name = "volume_ratio", .components = 1, .doubles = jr},
                                       {.name = "cauchy_stress", .components = 9, .doubles = sigma},
                                       {.name = "von_mises", .components = 1, .doubles = vm},
                                       {.name = "energy_density", .components = 1, .doubles = psi}};
    ipcc_vtk_frame frame = {.num_points = NP,
                            .points = x,
                            .num_tets = NT,
                            .tets = t,
                            .num_point_fields = 3,
                            .point_field_names = pnames,
                            .point_fields = pfields,
                            .num_cell_fields = 2,
                            .cell_field_names = cnames,
                            .cell_fields = cfields,
                            .num_field_values = 2,
                            .field_value_names = fnames,
                            .field_values = fvalues,
                            .num_point_arrays = 1,
                            .point_arrays = parrays,
                            .num_cell_arrays = 4,
                            .cell_arrays = carrays};
    const char *onames[1] = {"velocity"};
    const double *ofields[1] = {ov};
    ipcc_vtk_surface obstacles = {OP, ox, OF, otri, 1, onames, ofields};
    double times[FRAMES];
    char names[FRAMES][2][32];
    const char *files[2 * FRAMES];
    char path[4096];
    for (int f = 0; f < FRAMES; f++) {
        times[f] = 0.01 * f;
        fvalues[0] = times[f];
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
            fc[3 * i + 0] = 0;
            fc[3 * i + 1] = x[3 * i + 1] < 0.5 ? 100.0 * (0.5 - x[3 * i + 1]) : 0; // pushed up near the floor
            fc[3 * i + 2] = -1e-3 * i;
        }
        for (int i = 0; i < NP; i++)
            mass[i] = 0.1 + 0.01 * i;
        for (int e = 0; e < NT; e++) {
            jr[e] = 1 + 0.01 * f - 0.001 * e;
            double *s = sigma + 9 * e;
            for (int k = 0; k < 9; k++)
                s[k] = 1e3 * (k + 1) * (f + 1) - 7.5 * e;
            // von Mises of the symmetric part, as ipcc computes it (src/world/world_fields.c)
            const double s12 = 0.5 * (s[1] + s[3]), s23 = 0.5 * (s[5] + s[7]), s13 = 0.5 * (s[2] + s[6]);
            const double d01 = s[0] - s[4], d12 = s[4] - s[8], d20 = s[8] - s[0];
            vm[e] = sqrt(0.5 * (d01 * d01 + d12 * d12 + d20 * d20) + 3 * (s12 * s12 + s23 * s23 + s13 * s13));
            psi[e] = 0.5 * e * (f + 1);
        }
        build_obstacles(times[f], ox, ov, otri);
        snprintf(names[f][0], sizeof names[f][0], "frame_%06d.vtu", f);
        snprintf(names[f][1], sizeof names[f][1], "obstacles_%06d.vtp", f);
        files[2 * f] = names[f][0];
        files[2 * f + 1] = names[f][1];
        snprintf(path, sizeof path, "%s/%s", dir, names[f][0]);
        ipcc_status s = ipcc_vtk_write_vtu_encoded(path, &frame, codec);
        if (s == IPCC_OK) {
            snprintf(path, sizeof path, "%s/%s", dir, names[f][1]);
            s = ipcc_vtk_write_polydata_encoded(path, &obstacles, NULL, NULL, codec);
        }
        if (s == IPCC_OK) {
            snprintf(path, sizeof path, "%s/frames.pvd", dir);
            s = ipcc_vtk_write_pvd(path, f + 1, 2, times, files);
        }
        if (s != IPCC_OK) {
            fprintf(stderr, "%s\n", ipcc_last_error());
            return 1;
        }
    }
    double velocity_sum = 0, points_sum = 0;
    for (int j = 0; j < 3 * OP; j++) {
        velocity_sum += (j + 1) * ov[j];
        points_sum += (j + 1) * ox[j];
    }
    printf("%d %d %d %d %d %.17g %.17g\n", FRAMES, NP, NT, OP, OF, velocity_sum, points_sum);
    ipcc_vtk_codec_destroy(codec);
    return 0;
}
