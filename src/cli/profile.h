/// `ipcc run --profile`: where a run's wall time went (profile.c).
///
/// The per-step timers of ipcc_step_stats are summed over the steps this
/// invocation ran and printed as one table after the summary line: the
/// disjoint parts of a step (assembly, symbolic and numeric factorization,
/// solve, line search, the rest) with their shares, then the cross-cutting
/// parts measured inside them (trial energies, CCD, broad phase, constraint
/// search), each per step and per Newton iteration, and the process's peak
/// resident memory. The same figures are in stats.csv, per step.
#ifndef IPCC_CLI_PROFILE_H
#define IPCC_CLI_PROFILE_H

#include <stdio.h>

#include "ipcc/world.h"

typedef struct ipcc_profile {
    long steps, iterations, energies;
    double total, assembly, symbolic, factorization, solve, line_search;
    double energy, ccd, broad_phase, constraint_search;
} ipcc_profile;

/// Add one step's timers.
void ipcc_profile_add(ipcc_profile *p, const ipcc_step_stats *st);
/// Print the table (nothing if no step ran).
void ipcc_profile_print(const ipcc_profile *p, FILE *out);

#endif
