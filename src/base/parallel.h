/// Team sizes of the OpenMP parallel regions, chosen by measurement.
///
/// A parallel region on T threads ends in a barrier that waits for its
/// slowest thread. On an idle machine that costs microseconds; on a busy one
/// a thread that shares its core with another process may wait a whole time
/// slice (milliseconds) to start, and a region worth microseconds then takes
/// milliseconds: 2 threads ran 3x slower than 1 beside one busy core. Each
/// region therefore times itself and runs on one thread or on the whole team,
/// whichever has been faster for work of its size (docs/design.md, "Threads
/// on a busy machine"). Every region's result is independent of its team
/// size, so results stay bit-identical whatever is chosen.
///
///     static ipcc_region region; // one per parallel region, zero-initialized
///     ipcc_region_run run = ipcc_region_begin(&region, n);
///     #pragma omp parallel for num_threads(run.threads) schedule(guided, 64)
///     for (int i = 0; i < n; ++i) ...
///     ipcc_region_end(&run);
#ifndef IPCC_PARALLEL_H
#define IPCC_PARALLEL_H

#include <stdatomic.h>

/// Work sizes in powers of two (the bucket of n is the bit length of n).
#define IPCC_REGION_BUCKETS 40

/// A region's measurements: per work-size bucket, the smoothed seconds per
/// unit of work on one thread [0] and on the team [1], how many times each
/// was measured, and the seconds spent since the other choice was last
/// tried. Shared by every caller of the region (relaxed atomics: a race
/// costs a measurement, never a result).
typedef struct ipcc_region {
    _Atomic double cost[IPCC_REGION_BUCKETS][2];
    _Atomic double spent[IPCC_REGION_BUCKETS];
    atomic_int samples[IPCC_REGION_BUCKETS][2];
} ipcc_region;

/// One execution of a region: its team size (for num_threads) and its clock.
typedef struct ipcc_region_run {
    ipcc_region *region;
    double work;
    double start;
    int bucket;
    int threads;
} ipcc_region_run;

/// The team size for `work` units in `region` (1 inside another parallel
/// region, with one thread, or for no work), and the start of its timing.
ipcc_region_run ipcc_region_begin(ipcc_region *region, long work);

/// Records the run's time for its choice.
void ipcc_region_end(const ipcc_region_run *run);

/// Records `seconds` as the run's time (what ipcc_region_end measures; the
/// tests give made-up times).
void ipcc_region_record(const ipcc_region_run *run, double seconds);

/// Tests and benchmarks: 0 makes every region run on the whole team (the
/// behaviour before the measurement), 1 (default) chooses by measurement.
void ipcc_region_set_adaptive(int adaptive);

#endif
