// Progress of a run (progress.h): a bar redrawn in place on a TTY, plain
// lines elsewhere. The bar is redrawn at most 10 times a second (and always
// for the last step), erased with "\r" + CSI K, and fitted to the terminal
// width (TIOCGWINSZ; 80 columns when unknown).
#include "progress.h"

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

static int terminal_width(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
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

static void format_duration(char *out, size_t len, double s) {
    if (!isfinite(s) || s < 0) {
        snprintf(out, len, "--:--");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, len, "%ld:%02ld", t / 60, t % 60);
}

static void draw(ipcc_progress *p, const ipcc_step_stats *st) {
    long done = st->step - p->first_step, left = p->total_steps - st->step;
    double elapsed = wall_now() - p->start;
    double rate = elapsed > 0 && done > 0 ? done / elapsed : 0;
    double frac = p->total_steps > 0 ? (double)st->step / (double)p->total_steps : 1;
    char eta[32], info[160];
    format_duration(eta, sizeof eta, rate > 0 ? left / rate : NAN);
    int n = snprintf(info, sizeof info,
                     " %5.1f%%  t %.4g/%.4g s  %.3g steps/s  ETA %s  newton %d  contacts %d", 100 * frac,
                     st->time, p->total_steps * p->h, rate, eta, st->newton_iterations, st->num_contacts);
    int width = terminal_width() - 1 - n - 2; // room for "[" and "]"
    if (width > 40) width = 40;
    char bar[48];
    int filled = width > 0 ? (int)(frac * width + 0.5) : 0;
    for (int i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '-';
    bar[width > 0 ? width : 0] = '\0';
    if (width > 0)
        printf("\r\033[K[%s]%s", bar, info);
    else
        printf("\r\033[K%s", info + 1);
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
    printf("step %6d  t %10.5f s  newton %3d  line-search %3d  contacts %5d  dmin %9.3g m  wall %8.4f s%s\n",
           st->step, st->time, st->newton_iterations, st->line_search_steps, st->num_contacts,
           st->min_distance, st->time_total, st->converged ? "" : "  UNCONVERGED");
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
