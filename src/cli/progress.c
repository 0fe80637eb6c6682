// Progress of a run (progress.h): a bar redrawn in place on a TTY, plain
// lines elsewhere. The bar is redrawn at most 10 times a second (and always
// for the last step), erased with "\r" + CSI K, and laid out in fixed-width
// fields for the terminal's width (TIOCGWINSZ; 80 columns when unknown), see
// draw().
#include "cli/progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static ipcc_progress *active;

static double wall_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/// The terminal's width in columns (TIOCGWINSZ on stdout; 80 when unknown).
static int terminal_width(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

void ipcc_progress_begin(ipcc_progress *p, int verbosity, long first_step, long total_steps, double h) {
    memset(p, 0, sizeof *p);
    p->quiet = verbosity <= 0;
    p->bar = verbosity == 1 && isatty(STDOUT_FILENO);
    p->first_step = first_step;
    p->total_steps = total_steps;
    p->h = h;
    p->start = wall_now();
    active = p->bar ? p : NULL;
}

/// A duration in at most 8 characters: "m:ss", "h:mm:ss", ">99h", "--:--".
static void format_duration(char *out, size_t len, double s) {
    if (!isfinite(s) || s < 0) {
        snprintf(out, len, "--:--");
        return;
    }
    if (s >= 100 * 3600.0) {
        snprintf(out, len, ">99h");
        return;
    }
    int t = (int)(s + 0.5); // < 360000
    if (t >= 3600)
        snprintf(out, len, "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, len, "%d:%02d", t / 60, t % 60);
}

/// Simulated time in 7 characters: 4 decimals below 100 s, fewer above.
static void format_time(char *out, size_t len, double t) {
    if (!(t >= 0) || !isfinite(t))
        snprintf(out, len, "%7s", "?");
    else if (t < 99.99995)
        snprintf(out, len, "%7.4f", t);
    else if (t < 99999.95)
        snprintf(out, len, "%7.1f", t);
    else if (t < 9999999.5)
        snprintf(out, len, "%7.0f", t);
    else
        snprintf(out, len, "%7.1e", t);
}

/// Steps per second in 5 characters.
static void format_rate(char *out, size_t len, double r) {
    if (!(r > 0) || !isfinite(r))
        snprintf(out, len, "%5s", "--");
    else if (r < 99.995)
        snprintf(out, len, "%5.2f", r);
    else if (r < 99999.5)
        snprintf(out, len, "%5.0f", r);
    else
        snprintf(out, len, "%5.0e", r);
}

// The line: "[" bar "]" and fields of fixed width, so it never changes
// width while the terminal does not (the old line's numbers changed its
// length, and the bar shrank to make room). The fields, in order of
// priority, are shown while they fit in the terminal's width - 1 (the last
// column is left free: writing there makes some terminals wrap) with a bar
// of at least BAR_MIN; the bar takes what is left, up to BAR_MAX. At 80
// columns: a bar of 20, percent, t, steps/s, ETA and Newton iterations
// (79 characters); from 97 columns also the contacts.
enum { BAR_MIN = 20, BAR_MAX = 40, NUM_FIELDS = 6, FIELD_MAX = 64 };

/// Width of each field, leading blank included: " 100.0%", " t 12.3456 s",
/// " 12.34 steps/s", " ETA 12:34:56", " newton  12", " contacts 1234567".
static const int field_width[NUM_FIELDS] = {7, 12, 14, 13, 11, 17};

static void draw(ipcc_progress *p, const ipcc_step_stats *st) {
    long done = st->step - p->first_step, left = p->total_steps - st->step;
    double elapsed = wall_now() - p->start;
    double rate = elapsed > 0 && done > 0 ? done / elapsed : 0;
    double frac = p->total_steps > 0 ? (double)st->step / (double)p->total_steps : 1;
    if (!(frac >= 0)) frac = 0;
    if (frac > 1) frac = 1;
    char eta[32], t[32], r[32], field[NUM_FIELDS][FIELD_MAX];
    format_duration(eta, sizeof eta, rate > 0 ? left / rate : NAN);
    format_time(t, sizeof t, st->time);
    format_rate(r, sizeof r, rate);
    snprintf(field[0], FIELD_MAX, " %5.1f%%", 100 * frac);
    snprintf(field[1], FIELD_MAX, " t %s s", t);
    snprintf(field[2], FIELD_MAX, " %s steps/s", r);
    snprintf(field[3], FIELD_MAX, " ETA %-8s", eta);
    snprintf(field[4], FIELD_MAX, " newton %3d", st->newton_iterations < 999 ? st->newton_iterations : 999);
    snprintf(field[5], FIELD_MAX, " contacts %7d", st->num_contacts < 9999999 ? st->num_contacts : 9999999);
    int room = terminal_width() - 1, used = 0, shown = 0;
    while (shown < NUM_FIELDS && 2 + BAR_MIN + used + field_width[shown] <= room)
        used += field_width[shown++];
    int width = room - 2 - used;
    if (width > BAR_MAX) width = BAR_MAX;
    if (width < 1) width = 1;
    char bar[BAR_MAX + 1];
    int filled = (int)(frac * width + 0.5);
    for (int i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '-';
    bar[width] = '\0';
    printf("\r\033[K[%s]", bar);
    // Each field exactly its width (the formats above never exceed it).
    for (int k = 0; k < shown; k++)
        printf("%-*.*s", field_width[k], field_width[k], field[k]);
    fflush(stdout);
    p->drawn = true;
    p->last_draw = wall_now();
}

void ipcc_progress_step(ipcc_progress *p, const ipcc_step_stats *st) {
    if (p->quiet) return;
    if (p->bar) {
        if (st->step >= p->total_steps || wall_now() - p->last_draw >= 0.1) draw(p, st);
        return;
    }
    char parts[32] = ""; // a split step (newton.max_splits): its parts
    if (st->substeps > 1) snprintf(parts, sizeof parts, "  in %d parts", st->substeps);
    printf(
        "step %6d  t %10.5f s  newton %3d  line-search %3d  contacts %5d  dmin %9.3g m  wall %8.4f s%s%s\n",
        st->step, st->time, st->newton_iterations, st->line_search_steps, st->num_contacts, st->min_distance,
        st->time_total, parts, st->converged ? "" : "  UNCONVERGED");
    fflush(stdout);
}

void ipcc_progress_clear(ipcc_progress *p) {
    if (!p || !p->drawn) return;
    printf("\r\033[K");
    fflush(stdout);
    p->drawn = false;
}

void ipcc_progress_end(ipcc_progress *p) {
    if (p->bar && p->drawn) {
        printf("\n");
        fflush(stdout);
    }
    p->drawn = false;
    if (active == p) active = NULL;
}

ipcc_progress *ipcc_progress_active(void) { return active; }
