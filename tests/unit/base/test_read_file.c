// The whole-file reader (src/base/read_file.c): contents and length exact
// across the buffer's growth (64 KiB doubling, files of 0, 1, 65535, 65536,
// 65537 and 300,000 bytes, binary bytes included), and each failure with
// its status and a message naming the file: missing, a folder, unreadable
// (skipped as root), a NUL byte in a text file.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/read_file.h"
#include "support.h"

static void write_and_read(size_t size) {
    char *data = malloc(size + 1);
    assert_non_null(data);
    for (size_t i = 0; i < size; ++i)
        data[i] = (char)(1 + (i * 7919) % 255); // every byte but NUL
    ipcc_test_write_file("test_read_file.bin", data, size);
    char *text = (char *)"untouched";
    size_t len = 12345;
    assert_int_equal(ipcc_read_file("test_read_file.bin", true, &text, &len), IPCC_OK);
    assert_int_equal(len, size);
    assert_memory_equal(text, data, size);
    assert_int_equal(text[size], '\0');
    free(text);
    // len may be NULL.
    assert_int_equal(ipcc_read_file("test_read_file.bin", false, &text, NULL), IPCC_OK);
    assert_int_equal(strlen(text), size);
    free(text);
    free(data);
    remove("test_read_file.bin");
}

static void test_contents_across_growth(void **state) {
    (void)state;
    const size_t sizes[] = {0, 1, 65535, 65536, 65537, 300000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; ++k)
        write_and_read(sizes[k]);
}

static void expect_failure(const char *path, bool text_only, ipcc_status status, const char *message) {
    char *text = (char *)"untouched";
    size_t len = 7;
    assert_int_equal(ipcc_read_file(path, text_only, &text, &len), status);
    assert_null(text);
    assert_int_equal(len, 0);
    if (!strstr(ipcc_last_error(), message))
        fail_msg("got \"%s\", expected \"%s\"", ipcc_last_error(), message);
}

static void test_failures_name_the_file(void **state) {
    (void)state;
    expect_failure("test_read_file_missing.txt", true, IPCC_ERR_IO,
                   "test_read_file_missing.txt: cannot open: No such file or directory");
    mkdir("test_read_file_folder", 0755);
    expect_failure("test_read_file_folder", false, IPCC_ERR_IO,
                   "test_read_file_folder: read error: Is a directory");
    rmdir("test_read_file_folder");
    // A NUL byte: refused in text, kept in binary.
    ipcc_test_write_file("test_read_file_nul.txt", "ab\0cd", 5);
    expect_failure("test_read_file_nul.txt", true, IPCC_ERR_PARSE,
                   "test_read_file_nul.txt: NUL byte at offset 2 (not a text file?)");
    char *text;
    size_t len;
    assert_int_equal(ipcc_read_file("test_read_file_nul.txt", false, &text, &len), IPCC_OK);
    assert_int_equal(len, 5);
    assert_memory_equal(text, "ab\0cd", 6);
    free(text);
    remove("test_read_file_nul.txt");
    // Unreadable: root reads anything, so only as another user.
    if (geteuid() != 0) {
        ipcc_test_write_text("test_read_file_locked.txt", "x");
        chmod("test_read_file_locked.txt", 0);
        expect_failure("test_read_file_locked.txt", true, IPCC_ERR_IO,
                       "test_read_file_locked.txt: cannot open: Permission denied");
        remove("test_read_file_locked.txt");
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contents_across_growth),
        cmocka_unit_test(test_failures_name_the_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
