/// Progress of a run on the terminal (progress.c). On a TTY (stdout) at
/// normal verbosity: one line redrawn in place with a bar, the simulated
/// time, percent, steps/s, ETA, the last step's Newton iterations and
/// contacts. Otherwise (pipes, files, CI, or --verbose): one plain line per
/// step. --quiet: nothing per step.
#ifndef IPCC_CLI_PROGRESS_H
#define IPCC_CLI_PROGRESS_H

#include <stdbool.h>

#include "ipcc/world.h"

typedef struct ipcc_progress {
    bool bar;         ///< redraw one line (else plain lines, or nothing when quiet)
    bool quiet;       ///< nothing per step
    long first_step;  ///< step count when the run (or resume) started
    long total_steps; ///< the run ends at this step count
    double h;         ///< time step, s
    double start;     ///< wall clock at the start, s
    double last_draw; ///< wall clock of the last redraw, s
    bool drawn;       ///< the bar is on screen
} ipcc_progress;

/// Start: choose bar, lines or quiet from stdout and the verbosity.
void ipcc_progress_begin(ipcc_progress *p, int verbosity, long first_step, long total_steps, double h);
/// Report one finished step.
void ipcc_progress_step(ipcc_progress *p, const ipcc_step_stats *st);
/// Erase the bar (before printing something else); it is redrawn at the next step.
void ipcc_progress_clear(ipcc_progress *p);
/// Finish: draw the final state and end the line.
void ipcc_progress_end(ipcc_progress *p);
/// The progress being drawn (NULL if none), so the log sink can clear it.
ipcc_progress *ipcc_progress_active(void);

#endif
