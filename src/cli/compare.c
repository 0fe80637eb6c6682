// ipcc compare DIR_A DIR_B [--tol X] [--length L] [-q]
//
// Compares two output folders of `ipcc run` frame by frame, for regression
// tests (docs/regression-testing.md): the frames listed by each folder's
// frames.pvd are paired in order, and for each pair the largest vertex
// displacement max_i |x_A,i - x_B,i| is reported relative to a length L, with
// the vertex where it occurs, for the bodies (.vtu) and, when both folders
// have them, separately for the obstacles (.vtp).
//
// L is --length when given, else the `length_scale` FieldData value of A's
// frame 0 when the file has one, else the diagonal of the bounding box of
// A's frame-0 points (the L ipcc itself uses for a scene without
// length_scale), else 1 m when that box is empty or not finite.
//
// The outputs differ (exit 5) when any frame is over the tolerance
// (max |dx| / L > tol, or NaN anywhere: a NaN is never "close"), when the
// folders hold different numbers of frames, when paired frames have
// different vertex counts (those frames are not compared further), when
// paired frames' times differ by more than 1e-9 relative (to the larger of
// the two times and A's last time, so t = 0 is not singular), or when only
// one folder has obstacles. Exit 0: everything within tolerance. Exit 1: bad
// usage, or a folder or file that cannot be read or is malformed; the
// message names the file (output/frames_read.c checks every offset and size).
//
// Output: L and where it came from; a table (frame, time A, time B,
// max |dx| / L and its vertex for bodies and obstacles; a '*' marks frames
// over the tolerance); a summary: the overall maxima (printed with 17
// digits, so they can be fed back as --tol), the first frame over the
// tolerance and every kind of difference found. -q leaves the table out.
// Vertex indices are point indices in the .vtu (the world's deformable
// vertex numbering) or the .vtp.
#include "cli/compare.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"
#include "cli/usage.h"
#include "output/frames_read.h"

#define COMPARE_DEFAULT_TOL 1e-6
#define COMPARE_TIME_RTOL 1e-9

/// Print the frame reader's message (ipcc_last_error()); IPCC_EXIT_USAGE.
static int compare_error(void) {
    fprintf(stderr, "ipcc: error: compare: %s\n", ipcc_last_error());
    return IPCC_EXIT_USAGE;
}

static bool parse_number(const char *s, double *out) {
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v)) return false;
    *out = v;
    return true;
}

/// Largest |a_i - b_i| over the points (same count): *max, NaN as soon as
/// any distance is NaN, and *vertex its index (-1 when every distance is 0).
static void points_max_diff(const ipcc_frames_points *a, const ipcc_frames_points *b, double *max,
                            int64_t *vertex) {
    *max = 0;
    *vertex = -1;
    for (int64_t i = 0; i < a->num_points; i++) {
        const double *p = a->xyz + 3 * i, *q = b->xyz + 3 * i;
        const double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
        const double d = sqrt(dx * dx + dy * dy + dz * dz);
        if (isnan(d)) {
            *max = NAN;
            *vertex = i;
            return;
        }
        if (d > *max) {
            *max = d;
            *vertex = i;
        }
    }
}

/// Diagonal of the bounding box of the points (NaN if none or not finite).
static double points_diagonal(const ipcc_frames_points *p) {
    if (p->num_points == 0) return NAN;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int64_t i = 0; i < p->num_points; i++)
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], p->xyz[3 * i + c]);
            hi[c] = fmax(hi[c], p->xyz[3 * i + c]);
        }
    const double d = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                          (hi[2] - lo[2]) * (hi[2] - lo[2]));
    return isfinite(d) ? d : NAN;
}

/// One kind of positions (bodies or obstacles) over the whole comparison.
typedef struct compare_part {
    const char *name;      ///< "bodies" or "obstacles"
    double max;            ///< largest |dx| / L so far (NaN once a NaN is met)
    int max_frame;         ///< its frame, -1 before any
    int64_t max_vertex;    ///< its vertex, -1 when all zero
    int count_mismatches;  ///< frames whose point counts differ
    int first_count_frame; ///< the first of them
    int64_t first_count_a, first_count_b;
} compare_part;

/// The state of the whole comparison.
typedef struct compare_run {
    double tol, L;
    bool obstacles; ///< both folders have obstacles: compared
    compare_part bodies, obst;
    int first_over_frame; ///< first frame over tolerance, -1 if none
    const compare_part *first_over_part;
    double first_over_value;
    int64_t first_over_vertex;
    int time_mismatches, first_time_frame;
    double first_time_a, first_time_b;
} compare_run;

/// Compare one kind of positions of frame i: the files at pa and pb. Fills
/// *rel (max |dx| / L, NaN) and *vertex, or sets *counts_differ. Returns 0 or
/// IPCC_EXIT_USAGE after printing the reader's message.
static int compare_files(compare_run *run, compare_part *part, int i, const char *pa, const char *pb,
                         double *rel, int64_t *vertex, bool *counts_differ) {
    ipcc_frames_points a, b;
    if (ipcc_frames_points_read(pa, &a) != IPCC_OK) return compare_error();
    if (ipcc_frames_points_read(pb, &b) != IPCC_OK) {
        ipcc_frames_points_free(&a);
        return compare_error();
    }
    *counts_differ = a.num_points != b.num_points;
    *rel = 0;
    *vertex = -1;
    if (*counts_differ) {
        if (part->count_mismatches++ == 0) {
            part->first_count_frame = i;
            part->first_count_a = a.num_points;
            part->first_count_b = b.num_points;
        }
    } else {
        double d;
        points_max_diff(&a, &b, &d, vertex);
        *rel = d / run->L;
        // The first NaN stays the maximum; otherwise the largest value wins.
        if (part->max_frame < 0 || (!isnan(part->max) && (isnan(*rel) || *rel > part->max))) {
            part->max = *rel;
            part->max_frame = i;
            part->max_vertex = *vertex;
        }
        if (!(*rel <= run->tol) && run->first_over_frame < 0) {
            run->first_over_frame = i;
            run->first_over_part = part;
            run->first_over_value = *rel;
            run->first_over_vertex = *vertex;
        }
    }
    ipcc_frames_points_free(&a);
    ipcc_frames_points_free(&b);
    return 0;
}

/// "%14.6e" of a relative difference, or "counts differ" / "nan".
static void print_cell(double rel, int64_t vertex, bool counts_differ) {
    if (counts_differ)
        printf("  %14s %8s", "counts differ", "-");
    else if (vertex < 0)
        printf("  %14.6e %8s", rel, "-");
    else
        printf("  %14.6e %8lld", rel, (long long)vertex);
}

/// L: --length, else frame 0's length_scale, else its bounding-box diagonal, else 1 m.
static int compare_length(const ipcc_frames_list *a, double length, double *L, char **source) {
    *source = NULL;
    if (length > 0) {
        *L = length;
        return 0;
    }
    ipcc_frames_points p;
    if (ipcc_frames_points_read(a->bodies[0], &p) != IPCC_OK) return compare_error();
    const char *what;
    if (p.has_length_scale && isfinite(p.length_scale) && p.length_scale > 0) {
        *L = p.length_scale;
        what = "the length_scale field of";
    } else if (points_diagonal(&p) > 0) {
        *L = points_diagonal(&p);
        what = "the bounding-box diagonal of";
    } else {
        *L = 1;
        what = "1 m: no extent in";
    }
    ipcc_frames_points_free(&p);
    size_t n = strlen(what) + strlen(a->bodies[0]) + 2;
    *source = malloc(n);
    if (*source) snprintf(*source, n, "%s %s", what, a->bodies[0]);
    return 0;
}

static void print_summary(const compare_run *run, const ipcc_frames_list *a, const ipcc_frames_list *b,
                          const char *dir_a, const char *dir_b, bool obstacles_a, bool obstacles_b) {
    const int n = a->num_frames < b->num_frames ? a->num_frames : b->num_frames;
    printf("compared %d frames: A %s (%d frames), B %s (%d frames)\n", n, dir_a, a->num_frames, dir_b,
           b->num_frames);
    const compare_part *parts[2] = {&run->bodies, &run->obst};
    for (int k = 0; k < (run->obstacles ? 2 : 1); k++) {
        const compare_part *p = parts[k];
        if (p->max_frame < 0)
            printf("%s: no frame with matching point counts\n", p->name);
        else if (p->max_vertex < 0)
            printf("%s: max |x_A - x_B| / L = 0 (identical positions)\n", p->name);
        else
            printf("%s: max |x_A - x_B| / L = %.17g at frame %d, vertex %lld\n", p->name, p->max,
                   p->max_frame, (long long)p->max_vertex);
    }
    if (!run->obstacles)
        printf("obstacles: %s\n", obstacles_a   ? "only in A: not compared"
                                  : obstacles_b ? "only in B: not compared"
                                                : "none");
    if (run->first_over_frame >= 0)
        printf("first frame over tolerance: %d (%s, vertex %lld: %.6g > %g)\n", run->first_over_frame,
               run->first_over_part->name, (long long)run->first_over_vertex, run->first_over_value,
               run->tol);
    else
        printf("first frame over tolerance: none\n");
    if (a->num_frames != b->num_frames)
        printf("differs: frame counts: A has %d frames, B has %d\n", a->num_frames, b->num_frames);
    for (int k = 0; k < 2; k++)
        if (parts[k]->count_mismatches)
            printf("differs: %s point counts in %d frames (first: frame %d, A %lld points, B %lld)\n",
                   parts[k]->name, parts[k]->count_mismatches, parts[k]->first_count_frame,
                   (long long)parts[k]->first_count_a, (long long)parts[k]->first_count_b);
    if (run->time_mismatches)
        printf("differs: frame times in %d frames (first: frame %d, A t = %.17g s, B t = %.17g s)\n",
               run->time_mismatches, run->first_time_frame, run->first_time_a, run->first_time_b);
    if (obstacles_a != obstacles_b) printf("differs: only %s has obstacles\n", obstacles_a ? "A" : "B");
}

int ipcc_cli_compare(int argc, char **argv) {
    const char *dirs[2] = {NULL, NULL};
    double tol = COMPARE_DEFAULT_TOL, length = 0;
    bool quiet = false;
    int ndirs = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            ipcc_cli_command_usage("compare", stdout);
            return IPCC_EXIT_OK;
        } else if (!strcmp(arg, "--tol")) {
            if (++i >= argc || !parse_number(argv[i], &tol) || tol < 0)
                return fprintf(stderr, "ipcc: error: compare: --tol needs a finite number >= 0\n"),
                       IPCC_EXIT_USAGE;
        } else if (!strcmp(arg, "--length")) {
            if (++i >= argc || !parse_number(argv[i], &length) || !(length > 0))
                return fprintf(stderr, "ipcc: error: compare: --length needs a finite number > 0 (metres)\n"),
                       IPCC_EXIT_USAGE;
        } else if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet")) {
            quiet = true;
        } else if (arg[0] == '-' && arg[1]) {
            return fprintf(stderr, "ipcc: error: compare: unknown option '%s' (see ipcc compare --help)\n",
                           arg),
                   IPCC_EXIT_USAGE;
        } else if (ndirs < 2) {
            dirs[ndirs++] = arg;
        } else {
            return fprintf(stderr, "ipcc: error: compare: unexpected argument '%s'\n", arg), IPCC_EXIT_USAGE;
        }
    }
    if (ndirs != 2) {
        fprintf(stderr, "ipcc: error: compare needs two output folders\n");
        ipcc_cli_command_usage("compare", stderr);
        return IPCC_EXIT_USAGE;
    }

    ipcc_frames_list a, b;
    if (ipcc_frames_list_read(dirs[0], &a) != IPCC_OK) return compare_error();
    if (ipcc_frames_list_read(dirs[1], &b) != IPCC_OK) {
        ipcc_frames_list_free(&a);
        return compare_error();
    }
    compare_run run = {.tol = tol,
                       .obstacles = a.obstacles && b.obstacles,
                       .bodies = {.name = "bodies", .max_frame = -1, .max_vertex = -1},
                       .obst = {.name = "obstacles", .max_frame = -1, .max_vertex = -1},
                       .first_over_frame = -1};
    char *source = NULL;
    int code = compare_length(&a, length, &run.L, &source);
    if (code != 0) goto done;
    printf("L = %.17g m (%s); tolerance %g L = %.6g m\n", run.L, source ? source : "--length", tol,
           tol * run.L);
    if (!quiet) {
        printf("%5s  %14s  %14s  %14s %8s", "frame", "time A (s)", "time B (s)", "bodies |dx|/L", "vertex");
        if (run.obstacles) printf("  %14s %8s", "obstacles", "vertex");
        printf("\n");
    }
    const int n = a.num_frames < b.num_frames ? a.num_frames : b.num_frames;
    const double t_scale = fabs(a.times[a.num_frames - 1]);
    for (int i = 0; i < n && code == 0; i++) {
        const double ta = a.times[i], tb = b.times[i];
        const bool time_differs = fabs(ta - tb) > COMPARE_TIME_RTOL * fmax(fmax(fabs(ta), fabs(tb)), t_scale);
        if (time_differs && run.time_mismatches++ == 0) {
            run.first_time_frame = i;
            run.first_time_a = ta;
            run.first_time_b = tb;
        }
        double rel, orel = 0;
        int64_t vertex, overtex = -1;
        bool counts_differ, ocounts_differ = false;
        code = compare_files(&run, &run.bodies, i, a.bodies[i], b.bodies[i], &rel, &vertex, &counts_differ);
        if (code == 0 && run.obstacles)
            code = compare_files(&run, &run.obst, i, a.obstacles[i], b.obstacles[i], &orel, &overtex,
                                 &ocounts_differ);
        if (code != 0 || quiet) continue;
        const bool over = !(rel <= tol) || !(orel <= tol);
        printf("%5d  %14.9g  %14.9g", i, ta, tb);
        print_cell(rel, vertex, counts_differ);
        if (run.obstacles) print_cell(orel, overtex, ocounts_differ);
        printf("%s%s\n", over ? "  *" : "", time_differs ? "  (times differ)" : "");
    }
    if (code == 0) {
        print_summary(&run, &a, &b, dirs[0], dirs[1], a.obstacles != NULL, b.obstacles != NULL);
        const char *reasons[5];
        int nr = 0;
        if (run.first_over_frame >= 0) reasons[nr++] = "over tolerance";
        if (a.num_frames != b.num_frames) reasons[nr++] = "frame counts";
        if (run.bodies.count_mismatches || run.obst.count_mismatches) reasons[nr++] = "point counts";
        if (run.time_mismatches) reasons[nr++] = "frame times";
        if ((a.obstacles != NULL) != (b.obstacles != NULL)) reasons[nr++] = "obstacles in one folder only";
        if (nr == 0) {
            printf("result: same within tolerance %g\n", tol);
        } else {
            printf("result: the outputs DIFFER (");
            for (int k = 0; k < nr; k++)
                printf("%s%s", k ? ", " : "", reasons[k]);
            printf("; tolerance %g)\n", tol);
        }
        code = nr ? IPCC_EXIT_DIFFERENT : IPCC_EXIT_OK;
    }
done:
    free(source);
    ipcc_frames_list_free(&a);
    ipcc_frames_list_free(&b);
    return code;
}
