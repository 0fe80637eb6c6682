// `ipcc run --profile`: sums of the step timers and their table (profile.h).
#include "cli/profile.h"

#include <sys/resource.h>

void ipcc_profile_add(ipcc_profile *p, const ipcc_step_stats *st) {
    p->steps++;
    p->iterations += st->newton_iterations;
    p->energies += st->line_search_steps;
    p->total += st->time_total;
    p->assembly += st->time_assembly;
    p->symbolic += st->time_symbolic;
    p->factorization += st->time_factorization;
    p->solve += st->time_solve;
    p->line_search += st->time_line_search;
    p->energy += st->time_energy;
    p->ccd += st->time_ccd;
    p->broad_phase += st->time_broad_phase;
    p->constraint_search += st->time_constraint_search;
}

static void row(FILE *out, const char *name, double seconds, const ipcc_profile *p) {
    fprintf(out, "  %-40s %10.3f %6.1f %% %11.2f %11.2f\n", name, seconds,
            p->total > 0 ? 100 * seconds / p->total : 0.0, 1e3 * seconds / (double)p->steps,
            p->iterations > 0 ? 1e3 * seconds / (double)p->iterations : 0.0);
}

void ipcc_profile_print(const ipcc_profile *p, FILE *out) {
    if (p->steps == 0) return;
    double numeric = p->factorization - p->symbolic;
    double rest = p->total - p->assembly - p->factorization - p->solve - p->line_search;
    fprintf(out,
            "profile: %ld steps, %ld Newton iterations (%.2f/step), %ld line-search energies (%.2f/step)\n",
            p->steps, p->iterations, (double)p->iterations / (double)p->steps, p->energies,
            (double)p->energies / (double)p->steps);
    fprintf(out, "  %-40s %10s %8s %11s %11s\n", "part", "seconds", "share", "ms/step", "ms/iteration");
    row(out, "assembly (energy, gradient, Hessian)", p->assembly, p);
    row(out, "factorization, symbolic", p->symbolic, p);
    row(out, "factorization, numeric", numeric, p);
    row(out, "solve", p->solve, p);
    row(out, "line search (step filter, energies)", p->line_search, p);
    row(out, "rest (prediction, forces, bookkeeping)", rest, p);
    row(out, "step total", p->total, p);
    fprintf(out, "  measured inside the parts above:\n");
    row(out, "trial energies (in line search)", p->energy, p);
    row(out, "CCD (in line search)", p->ccd, p);
    row(out, "broad phase (assembly, line search)", p->broad_phase, p);
    row(out, "constraint search (assembly, energies)", p->constraint_search, p);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) // Linux: ru_maxrss in KiB
        fprintf(out, "  peak resident memory: %.1f MB\n", (double)ru.ru_maxrss / 1024.0);
}
