// The team size of a parallel region, chosen by measurement (base/parallel.c):
// with made-up times, a region whose team waits for a descheduled thread runs
// on one thread and tries the team again only within its exploration budget;
// a large region keeps the team and tries one thread only within that budget;
// one slow sample does not flip a choice; one thread, nested regions and no
// work never use the team; IPCC_ADAPTIVE_THREADS=0 always does.
#include <omp.h>
#include <string.h>

#include "base/parallel.h"
#include "support.h"

// Runs `calls` regions of `work` units; each takes team_s on the team and
// one_s on one thread (seconds). Returns how many ran on the team.
static int simulate(ipcc_region *r, long work, int calls, double team_s, double one_s) {
    int on_team = 0;
    for (int i = 0; i < calls; ++i) {
        ipcc_region_run run = ipcc_region_begin(r, work);
        on_team += run.threads > 1;
        ipcc_region_record(&run, run.threads > 1 ? team_s : one_s);
    }
    return on_team;
}

static void test_latency_bound_region_runs_on_one_thread(void **state) {
    (void)state;
    omp_set_num_threads(2);
    static ipcc_region r;
    memset(&r, 0, sizeof r);
    // 1000 units: 20 us on one thread, 1 ms on the team (a thread that waits
    // for a busy core). Warm-up tries each arm 3 times, then one thread.
    int first = simulate(&r, 1000, 10, 1e-3, 20e-6);
    assert_int_equal(first, 3);
    // Then the team only once the region has spent 16 times its cost
    // (16 ms, 800 runs of 20 us): at most 1/16 of the time in trials.
    int team = simulate(&r, 1000, 4000, 1e-3, 20e-6);
    assert_in_range(team, 3, 6);
    // The same region on an idle machine: the team takes 12 us. Each trial
    // lowers its estimate by a quarter and the next trial comes sooner: it
    // wins after about 64 times its old cost (64 ms, 3,200 runs), and stays
    // (one thread is tried again every 16 times its cost, 27 runs).
    simulate(&r, 1000, 3500, 12e-6, 20e-6);
    assert_in_range(simulate(&r, 1000, 100, 12e-6, 20e-6), 94, 99);
}

static void test_sizes_learn_from_each_other(void **state) {
    (void)state;
    omp_set_num_threads(2);
    static ipcc_region r;
    memset(&r, 0, sizeof r);
    // One thread wins at 1000 units (latency-bound team)...
    simulate(&r, 1000, 10, 1e-3, 20e-6);
    // ... so a smaller size starts on one thread, without a warm-up.
    assert_int_equal(simulate(&r, 100, 20, 1e-3, 2e-6), 0);
    // The team wins at 100,000 units, so a larger size starts on the team.
    simulate(&r, 100000, 10, 1e-3, 1.8e-3);
    assert_int_equal(simulate(&r, 1000000, 10, 1e-2, 1.8e-2), 10);
}

static void test_large_region_keeps_the_team(void **state) {
    (void)state;
    omp_set_num_threads(2);
    static ipcc_region r;
    memset(&r, 0, sizeof r);
    // 100,000 units: 0.1 s on the team, 0.18 s on one thread. One thread
    // would cost more than the warm-up limit: not tried for the first 32
    // runs (its expected cost, the team's times 2, within 16 times the
    // team's time spent).
    assert_int_equal(simulate(&r, 100000, 32, 0.1, 0.18), 32);
    // Tried later, found slower: the team again, and one thread only at
    // intervals of 16 times its cost: within 5 % of the team's time.
    int team = simulate(&r, 100000, 200, 0.1, 0.18);
    assert_true(team < 200);
    assert_true((200 - team) * (0.18 - 0.1) <= 0.05 * 200 * 0.1);
}

static void test_outlier_does_not_flip_the_choice(void **state) {
    (void)state;
    omp_set_num_threads(2);
    static ipcc_region r;
    memset(&r, 0, sizeof r);
    simulate(&r, 5000, 50, 50e-6, 90e-6); // the team wins: 50 against 90 us
    ipcc_region_run run = ipcc_region_begin(&r, 5000);
    assert_int_equal(run.threads, 2);
    ipcc_region_record(&run, 20e-3); // one run waits 20 ms (an interrupt)
    // Still the team: the sample counted as at most 3x, in the estimate and
    // in the budget (one thread is tried as before, about every 29 runs).
    assert_in_range(simulate(&r, 5000, 20, 50e-6, 90e-6), 19, 20);
    // A lasting change (the machine got busy) does flip it within a few runs.
    int team = simulate(&r, 5000, 10, 5e-3, 90e-6);
    assert_true(team < 10);
    assert_int_equal(simulate(&r, 5000, 5, 5e-3, 90e-6), 0);
}

static void test_no_team_without_threads_or_work(void **state) {
    (void)state;
    static ipcc_region r;
    memset(&r, 0, sizeof r);
    omp_set_num_threads(1);
    assert_int_equal(ipcc_region_begin(&r, 1000000).threads, 1);
    omp_set_num_threads(2);
    assert_int_equal(ipcc_region_begin(&r, 0).threads, 1);
    int inner = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
        inner = ipcc_region_begin(&r, 1000000).threads;
    }
    assert_int_equal(inner, 1); // nested: one thread
    ipcc_region_set_adaptive(0);
    memset(&r, 0, sizeof r);
    assert_int_equal(simulate(&r, 1000, 20, 1e-3, 20e-6), 20); // always the team
    ipcc_region_set_adaptive(1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_bound_region_runs_on_one_thread),
        cmocka_unit_test(test_sizes_learn_from_each_other),
        cmocka_unit_test(test_large_region_keeps_the_team),
        cmocka_unit_test(test_outlier_does_not_flip_the_choice),
        cmocka_unit_test(test_no_team_without_threads_or_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
