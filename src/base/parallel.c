#include "base/parallel.h"

#include <math.h>
#include <omp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

// The choice per bucket is a two-armed bandit on measured time: run the arm
// (one thread or the team) with the lower smoothed cost per unit of work, and
// try the other arm again once the bucket has spent EXPLORE_FACTOR times that
// arm's expected cost since it was last tried, so that trying the worse arm
// costs at most 1/EXPLORE_FACTOR of the region's time, however slow it is
// (a team waiting milliseconds for a descheduled thread is tried again only
// after the region has run for EXPLORE_FACTOR times that on one thread).
// A bucket starts with the team and, where one thread would cost less than
// WARMUP_LIMIT, measures each arm WARMUP times, alternating, keeping each
// arm's fastest; where one thread would cost more (large work), it tries
// one thread only within the exploration budget. Then one slow sample (a
// thread woken from sleep, an interrupt) moves an estimate by at most a
// factor 1 + SMOOTHING (CLAMP - 1): the estimate follows a lasting change
// within a few runs and shrugs off a single outlier.
#define EXPLORE_FACTOR 16.0
#define SMOOTHING 0.25 // weight of a new measurement
#define CLAMP 3.0      // a sample counts as at most CLAMP times the estimate
#define WARMUP 3
#define WARMUP_LIMIT 2e-3 // seconds: one thread is tried in warm-up only where it costs less

static atomic_int adaptive = 1;
static atomic_int adaptive_read; // IPCC_ADAPTIVE_THREADS read once

void ipcc_region_set_adaptive(int on) {
    atomic_store(&adaptive_read, 1);
    atomic_store(&adaptive, on != 0);
}

static int is_adaptive(void) {
    if (!atomic_load_explicit(&adaptive_read, memory_order_relaxed)) {
        const char *e = getenv("IPCC_ADAPTIVE_THREADS");
        if (e && strcmp(e, "0") == 0) atomic_store(&adaptive, 0);
        atomic_store(&adaptive_read, 1);
    }
    return atomic_load_explicit(&adaptive, memory_order_relaxed);
}

static int bucket_of(long work) {
    int b = 0;
    while (work > 0 && b < IPCC_REGION_BUCKETS - 1) {
        work >>= 1;
        ++b;
    }
    return b;
}

static double load(_Atomic double *a) { return atomic_load_explicit(a, memory_order_relaxed); }
static void store(_Atomic double *a, double v) { atomic_store_explicit(a, v, memory_order_relaxed); }

// A bucket's first run takes what a measured bucket already knows: one
// thread wins at a size, so it wins at every smaller size (the team's wait
// weighs more there), and the team wins at a size, so it wins at every
// larger one. Its estimates per unit of work carry over (the team's
// understates its cost at smaller sizes: the conclusion holds), so the
// bucket skips its warm-up and tries the other arm within its budget.
static bool decided(ipcc_region *r, int b) {
    return atomic_load_explicit(&r->samples[b][0], memory_order_relaxed) >= WARMUP &&
           atomic_load_explicit(&r->samples[b][1], memory_order_relaxed) >= WARMUP;
}

static void inherit(ipcc_region *r, int b) {
    int from = -1;
    for (int a = b + 1; a < IPCC_REGION_BUCKETS && from < 0; ++a)
        if (decided(r, a) && load(&r->cost[a][0]) < load(&r->cost[a][1])) from = a;
    for (int a = b - 1; a >= 0 && from < 0; --a)
        if (decided(r, a) && load(&r->cost[a][1]) <= load(&r->cost[a][0])) from = a;
    if (from < 0) return;
    for (int arm = 0; arm < 2; ++arm) {
        store(&r->cost[b][arm], load(&r->cost[from][arm]));
        atomic_store_explicit(&r->samples[b][arm], WARMUP, memory_order_relaxed);
    }
}

ipcc_region_run ipcc_region_begin(ipcc_region *region, long work) {
    ipcc_region_run run = {.region = NULL, .threads = 1};
    int team = omp_get_max_threads();
    if (team <= 1 || work <= 0 || omp_in_parallel()) return run;
    if (!is_adaptive()) {
        run.threads = team;
        return run;
    }
    int b = bucket_of(work);
    if (atomic_load_explicit(&region->samples[b][0], memory_order_relaxed) == 0 &&
        atomic_load_explicit(&region->samples[b][1], memory_order_relaxed) == 0)
        inherit(region, b);
    int n_one = atomic_load_explicit(&region->samples[b][0], memory_order_relaxed),
        n_all = atomic_load_explicit(&region->samples[b][1], memory_order_relaxed);
    double one = load(&region->cost[b][0]), all = load(&region->cost[b][1]);
    int arm;
    if (n_all == 0) {
        arm = 1;
    } else if (n_one == 0 || (n_one < WARMUP && all * (double)work * team > WARMUP_LIMIT)) {
        // One thread not measured yet: the team, unless one thread is cheap
        // to try (then alternate), or the team has run long enough that one
        // thread's cost, at most the team's times the threads, is within
        // the exploration budget.
        arm = n_one < n_all && all * (double)work * team <= WARMUP_LIMIT ? 0 : 1;
        if (load(&region->spent[b]) > EXPLORE_FACTOR * all * (double)work * team) arm = 0;
    } else if (n_one < WARMUP || n_all < WARMUP) {
        arm = n_all <= n_one;
    } else {
        arm = all < one;
        // Try the other arm once this bucket has spent EXPLORE_FACTOR times
        // what that arm is expected to cost on this run's work.
        double other = arm ? one : all;
        if (load(&region->spent[b]) > EXPLORE_FACTOR * other * (double)work) arm = !arm;
    }
    run.region = region;
    run.work = (double)work;
    run.bucket = b;
    run.threads = arm ? team : 1;
    run.start = omp_get_wtime();
    return run;
}

void ipcc_region_end(const ipcc_region_run *run) {
    if (run->region) ipcc_region_record(run, omp_get_wtime() - run->start);
}

void ipcc_region_record(const ipcc_region_run *run, double seconds) {
    if (!run->region) return;
    ipcc_region *r = run->region;
    int b = run->bucket, arm = run->threads > 1;
    double per_unit = seconds / run->work;
    double old = load(&r->cost[b][arm]), other = load(&r->cost[b][!arm]);
    int n = atomic_fetch_add_explicit(&r->samples[b][arm], 1, memory_order_relaxed);
    // Warm-up keeps the fastest sample (the first run of a team often waits
    // for a sleeping thread); then a smoothed mean with outliers clamped,
    // which also bounds what one outlier adds to the exploration budget.
    if (n >= WARMUP && per_unit > CLAMP * old) per_unit = CLAMP * old;
    double est = n == 0 || (n < WARMUP && per_unit < old) ? per_unit
                 : n >= WARMUP                            ? (1 - SMOOTHING) * old + SMOOTHING * per_unit
                                                          : old;
    store(&r->cost[b][arm], est);
    // The arm just run was the one the bucket would not choose (a trial), or
    // its sample changes which arm the bucket chooses: start counting the
    // budget again.
    bool tried_other = (n >= WARMUP && other != 0 && (old > other || est > other)) || (!arm && n == 0);
    store(&r->spent[b], tried_other ? 0 : load(&r->spent[b]) + per_unit * run->work);
}
