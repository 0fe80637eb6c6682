// Core: status names, error messages (including wrapping the previous
// message with context), the log hook, ipcc_reserve.
#include <string.h>

#include "base/core.h"
#include "ipcc/contact_report.h"
#include "support.h"

static void test_fail_wraps_previous_message(void **state) {
    (void)state;
    assert_int_equal(ipcc_fail(IPCC_ERR_IO, "cannot open %s", "a.msh"), IPCC_ERR_IO);
    assert_string_equal(ipcc_last_error(), "cannot open a.msh");
    // The previous message as an argument: formatted before it is overwritten.
    assert_int_equal(ipcc_fail(IPCC_ERR_PARSE, "scene.json: bodies[0].mesh: %s", ipcc_last_error()),
                     IPCC_ERR_PARSE);
    assert_string_equal(ipcc_last_error(), "scene.json: bodies[0].mesh: cannot open a.msh");
    assert_int_equal(ipcc_fail(IPCC_ERR_PARSE, "%s; %s", ipcc_last_error(), ipcc_last_error()),
                     IPCC_ERR_PARSE);
    assert_string_equal(
        ipcc_last_error(),
        "scene.json: bodies[0].mesh: cannot open a.msh; scene.json: bodies[0].mesh: cannot open a.msh");
    ipcc_clear_error();
    assert_string_equal(ipcc_last_error(), "");
}

// Tokens quoted from binary files: control characters, invalid UTF-8 and C1
// controls become '?'; valid UTF-8 (a file name with an accent) is kept.
static void test_fail_makes_message_printable(void **state) {
    (void)state;
    ipcc_fail(IPCC_ERR_PARSE, "%s: unexpected '%s'", "caf\xc3\xa9.msh", "\x1b[31m\xff\x01\t\xc2\x9b\xe2\x82");
    assert_string_equal(ipcc_last_error(), "caf\xc3\xa9.msh: unexpected '?[31m"
                                           "???????" // split: "??'" would be a trigraph
                                           "'");
}

static void test_status_names(void **state) {
    (void)state;
    assert_string_equal(ipcc_status_name(IPCC_OK), "IPCC_OK");
    assert_string_equal(ipcc_status_name(IPCC_ERR_INFEASIBLE), "IPCC_ERR_INFEASIBLE");
    assert_string_equal(ipcc_status_name((ipcc_status)42), "IPCC_UNKNOWN_STATUS");
}

static char logged[256];
static ipcc_log_level logged_level;
static void sink(ipcc_log_level level, const char *message, void *user) {
    (void)user;
    logged_level = level;
    strncpy(logged, message, sizeof logged - 1);
}

static void test_log_hook(void **state) {
    (void)state;
    ipcc_log(IPCC_LOG_INFO, "dropped %d", 1); // no sink installed: nothing happens
    ipcc_set_log(sink, NULL);
    ipcc_log(IPCC_LOG_WARNING, "flipped %d tets", 3);
    assert_string_equal(logged, "flipped 3 tets");
    assert_int_equal(logged_level, IPCC_LOG_WARNING);
    ipcc_log(IPCC_LOG_WARNING, "keyword '%s'",
             "a\x7f\x80"
             "b");
    assert_string_equal(logged, "keyword 'a??b'");
    ipcc_set_log(NULL, NULL);
}

static void test_reserve_grows(void **state) {
    (void)state;
    int *buf = NULL, cap = 0;
    assert_int_equal(ipcc_reserve((void **)&buf, &cap, 100, sizeof *buf), 0);
    assert_true(cap >= 100);
    buf[99] = 7;
    int cap_before = cap;
    assert_int_equal(ipcc_reserve((void **)&buf, &cap, 50, sizeof *buf), 0); // never shrinks
    assert_int_equal(cap, cap_before);
    assert_int_equal(buf[99], 7);
    free(buf);
}

static void test_grow_capacity(void **state) {
    (void)state;
    assert_int_equal(ipcc_grow_capacity(0, 64, 1), 64);                        // initial
    assert_int_equal(ipcc_grow_capacity(0, 64, 100), 128);                     // doubled from initial
    assert_int_equal(ipcc_grow_capacity(100, 64, 150), 200);                   // doubled from current
    assert_int_equal(ipcc_grow_capacity(100, 64, 50), 100);                    // never shrinks
    assert_int_equal(ipcc_grow_capacity(1 << 30, 64, 2000000000), 2000000000); // no int overflow
}

// The sizes bindings check their struct mirrors against (python/ipcc/_lib.py).
static void test_struct_sizes(void **state) {
    (void)state;
    assert_int_equal(ipcc_struct_size("ipcc_step_stats"), sizeof(ipcc_step_stats));
    assert_int_equal(ipcc_struct_size("ipcc_contact_record"), sizeof(ipcc_contact_record));
    assert_int_equal(ipcc_struct_size("ipcc_energies"), sizeof(ipcc_energies));
    assert_int_equal(ipcc_struct_size("ipcc_world"), 0);
    assert_int_equal(ipcc_struct_size(NULL), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fail_wraps_previous_message),
        cmocka_unit_test(test_fail_makes_message_printable),
        cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_log_hook),
        cmocka_unit_test(test_reserve_grows),
        cmocka_unit_test(test_grow_capacity),
        cmocka_unit_test(test_struct_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
