// Tests for src/mesh/mesh_reader.c, the mesh readers' toolkit, on its own:
// loading a file (NUL bytes kept, the whole-file reader's messages), the
// tokenizer and its line count, typed reads and their messages, binary reads
// in both byte orders, and the raw mesh: sparse tags mapped to indices
// (dense and sorted maps), a node defined twice, an undefined node named
// with the tet's line or byte, regions handed to the mesh. The formats
// themselves are tested through ipcc_mesh_read() in test_mesh_io.c.
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ipcc/mesh.h"
#include "mesh/mesh_reader.h"

static char temp_path[256];

static const char *temp_file(const char *suffix) {
    snprintf(temp_path, sizeof temp_path, "/tmp/ipcc_test_mesh_reader_%ld%s", (long)getpid(), suffix);
    return temp_path;
}

// A reader over text in memory, as ipcc_reader_load() leaves it.
static ipcc_reader text_reader(const char *text) {
    ipcc_reader r = {0};
    r.path = "mem.txt";
    r.buf = (char *)text;
    r.len = strlen(text);
    r.line = 1;
    r.section = "header";
    return r;
}

static void assert_error(ipcc_status s, ipcc_status want, const char *needle) {
    if (s != want || !strstr(ipcc_last_error(), needle))
        fail_msg("%s '%s', expected %s '%s'", ipcc_status_name(s), ipcc_last_error(), ipcc_status_name(want),
                 needle);
}

static void test_load_keeps_nul_bytes(void **state) {
    (void)state;
    const char data[] = {'a', 'b', '\0', 'c', '\n', '\0'};
    const char *path = temp_file(".bin");
    ipcc_test_write_file(path, data, sizeof data);
    ipcc_reader r;
    assert_int_equal(ipcc_reader_load(path, &r), IPCC_OK);
    assert_string_equal(r.path, path);
    assert_int_equal(r.len, sizeof data);
    assert_memory_equal(r.buf, data, sizeof data);
    assert_int_equal(r.buf[r.len], '\0');
    assert_int_equal(r.pos, 0);
    assert_int_equal(r.line, 1);
    assert_string_equal(r.section, "header");
    assert_int_equal(r.binary, 0);
    assert_int_equal(r.swap, 0);
    free(r.buf);
    remove(path);
}

static void test_load_failures_name_the_file(void **state) {
    (void)state;
    ipcc_reader r;
    const char *missing = temp_file(".missing");
    char want[300];
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", missing);
    assert_error(ipcc_reader_load(missing, &r), IPCC_ERR_IO, want);
    assert_null(r.buf);
    // A folder opens and fails at the first read.
    assert_error(ipcc_reader_load("/tmp", &r), IPCC_ERR_IO, "/tmp: read error: Is a directory");
    assert_null(r.buf);
}

static void test_tokens_and_lines(void **state) {
    (void)state;
    ipcc_reader r = text_reader("  one\ttwo \r\n\nthree # four\n");
    ipcc_token t;
    assert_int_equal(ipcc_reader_next(&r, 0, &t), 1);
    assert_true(ipcc_token_is(t, "one"));
    assert_int_equal(ipcc_reader_next(&r, 0, &t), 1);
    assert_true(ipcc_token_is(t, "two"));
    assert_false(ipcc_token_is(t, "tw"));
    // Not crossing: the end of the line is the end.
    assert_int_equal(ipcc_reader_next(&r, 0, &t), 0);
    assert_int_equal(r.line, 1);
    // Crossing counts the lines passed.
    assert_int_equal(ipcc_reader_next(&r, 1, &t), 1);
    assert_true(ipcc_token_is(t, "three"));
    assert_int_equal(r.line, 3);
    // Without comments '#' is a token.
    assert_int_equal(ipcc_reader_next(&r, 0, &t), 1);
    assert_true(ipcc_token_is(t, "#"));
    r = text_reader("1 2#c\n# whole line\n3");
    r.comments = 1;
    assert_int_equal(ipcc_reader_next(&r, 1, &t), 1);
    assert_int_equal(ipcc_reader_next(&r, 1, &t), 1);
    assert_true(ipcc_token_is(t, "2"));
    assert_int_equal(ipcc_reader_next(&r, 1, &t), 1);
    assert_true(ipcc_token_is(t, "3"));
    assert_int_equal(r.line, 3);
    assert_int_equal(ipcc_reader_next(&r, 1, &t), 0);

    char tmp[4];
    assert_int_equal(ipcc_token_copy((ipcc_token){"abc", 3}, tmp, sizeof tmp), 1);
    assert_string_equal(tmp, "abc");
    assert_int_equal(ipcc_token_copy((ipcc_token){"abcd", 4}, tmp, sizeof tmp), 0);
    assert_int_equal(ipcc_token_copy((ipcc_token){"", 0}, tmp, sizeof tmp), 0);

    r = text_reader("a b c\nd");
    ipcc_reader_skip_line(&r);
    assert_int_equal(r.buf[r.pos], '\n');
    assert_int_equal(ipcc_reader_skip_past_newline(&r), IPCC_OK);
    assert_int_equal(r.line, 2);
    assert_int_equal(r.buf[r.pos], 'd');
    assert_error(ipcc_reader_skip_past_newline(&r), IPCC_ERR_PARSE,
                 "mem.txt:2: unexpected end of file (truncated?)");
}

static void test_typed_reads_and_messages(void **state) {
    (void)state;
    ipcc_reader r = text_reader("12 -3 2.5e1\nx1 1e999 $EndNodes");
    long long v;
    double d;
    assert_int_equal(ipcc_reader_ll(&r, 1, "count", &v), IPCC_OK);
    assert_int_equal(v, 12);
    assert_int_equal(ipcc_reader_ll(&r, 0, "count", &v), IPCC_OK);
    assert_int_equal(v, -3);
    assert_int_equal(ipcc_reader_double(&r, 0, "coordinate", &d), IPCC_OK);
    assert_true(d == 25.0);
    assert_error(ipcc_reader_ll(&r, 0, "tag", &v), IPCC_ERR_PARSE,
                 "mem.txt:1: unexpected end of line, expected tag");
    assert_error(ipcc_reader_ll(&r, 1, "tag", &v), IPCC_ERR_PARSE,
                 "mem.txt:2: bad number 'x1', expected tag");
    assert_error(ipcc_reader_double(&r, 0, "coordinate", &d), IPCC_ERR_PARSE,
                 "mem.txt:2: non-finite coordinate '1e999'");
    assert_error(ipcc_reader_ll(&r, 0, "tag", &v), IPCC_ERR_PARSE,
                 "mem.txt:2: unexpected '$EndNodes', expected tag (section shorter than its count?)");
    assert_error(ipcc_reader_ll(&r, 1, "tag", &v), IPCC_ERR_PARSE,
                 "mem.txt:2: unexpected end of file, expected tag (truncated?)");

    // An optional number: missing at the end of the line is 0, present is read.
    r = text_reader("4 3\n5");
    assert_int_equal(ipcc_reader_ll(&r, 1, "n", &v), IPCC_OK);
    assert_int_equal(ipcc_reader_optional_ll(&r, "attributes", &v), IPCC_OK);
    assert_int_equal(v, 3);
    assert_int_equal(ipcc_reader_optional_ll(&r, "attributes", &v), IPCC_OK);
    assert_int_equal(v, 0);
    assert_int_equal(r.line, 1);

    // Counts: negative, over the maximum, more than the rest of the file holds.
    r = text_reader("-1");
    assert_error(ipcc_reader_count(&r, 1, "node count", 100, 2, &v), IPCC_ERR_PARSE,
                 "mem.txt:1: negative node count -1");
    r = text_reader("101 ");
    assert_error(ipcc_reader_count(&r, 1, "node count", 100, 2, &v), IPCC_ERR_PARSE,
                 "node count 101 is larger than the file can hold (truncated?)");
    r = text_reader("3\n1 2 3 4 5 ");
    assert_int_equal(ipcc_reader_count(&r, 1, "node count", 100, 2, &v), IPCC_OK);
    assert_int_equal(v, 3);
    r = text_reader("9\n1 2 3 ");
    assert_error(ipcc_reader_count(&r, 1, "node count", 100, 2, &v), IPCC_ERR_PARSE,
                 "node count 9 is larger than the file can hold");
}

static void test_binary_reads_both_byte_orders(void **state) {
    (void)state;
    unsigned char native[24], swapped[24];
    const int32_t i = -123456;
    const double d = 0.1;
    const uint32_t s4 = 7;
    const uint64_t s8 = 1ULL << 40;
    memcpy(native, &i, 4);
    memcpy(native + 4, &d, 8);
    memcpy(native + 12, &s4, 4);
    memcpy(native + 16, &s8, 8);
    const int widths[4] = {4, 8, 4, 8};
    for (int k = 0, at = 0; k < 4; at += widths[k], k++)
        for (int b = 0; b < widths[k]; b++)
            swapped[at + b] = native[at + widths[k] - 1 - b];
    for (int swap = 0; swap < 2; swap++) {
        ipcc_reader r = {0};
        r.path = "mem.msh";
        r.buf = (char *)(swap ? swapped : native);
        r.len = sizeof native;
        r.swap = swap;
        r.binary = 1;
        r.section = "$Nodes";
        assert_true(ipcc_bin_need(&r, 3, 8));
        assert_false(ipcc_bin_need(&r, 4, 8));
        assert_int_equal(ipcc_bin_int(&r), i);
        assert_true(ipcc_bin_double(&r) == d);
        r.size_bytes = 4;
        assert_int_equal(ipcc_bin_size(&r), 7);
        r.size_bytes = 8;
        assert_true(ipcc_bin_size(&r) == s8);
        assert_int_equal(r.pos, 24);
        assert_false(ipcc_bin_need(&r, 1, 1));
        assert_true(ipcc_bin_need(&r, 0, 4));
        assert_error(ipcc_bin_truncated(&r), IPCC_ERR_PARSE,
                     "mem.msh: $Nodes (binary, byte 24): unexpected end of file (truncated?)");
    }
}

// Four nodes of a tet with the given tags, and one tet over them.
static void add_tet(ipcc_reader *r, ipcc_raw_mesh *m, const long long tags[4], long long region) {
    const double x[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    assert_int_equal(ipcc_raw_reserve_nodes(r, m, 4), IPCC_OK);
    assert_true(m->cap_nodes >= m->num_nodes + 4);
    for (int k = 0; k < 4; k++)
        assert_int_equal(ipcc_raw_add_node(r, m, tags[k], x[k]), IPCC_OK);
    assert_int_equal(ipcc_raw_add_tet(r, m, 42, tags, 17, region), IPCC_OK);
}

static void test_raw_tags_to_mesh(void **state) {
    (void)state;
    // Compact tags (dense map) and spread tags (sorted map), in any order.
    const long long tag_sets[2][4] = {{12, 10, 13, 11}, {5000000000LL, -7, 3, 1LL << 40}};
    for (int k = 0; k < 2; k++) {
        ipcc_reader r = text_reader("");
        ipcc_raw_mesh m = {0};
        m.tet_file = "mem.txt";
        add_tet(&r, &m, tag_sets[k], 0);
        assert_int_equal(m.num_nodes, 4);
        assert_int_equal(m.num_tets, 1);
        ipcc_mesh *mesh = NULL;
        if (ipcc_raw_to_mesh(&m, "mem.txt", "mem.txt", 0, &mesh) != IPCC_OK)
            fail_msg("%s", ipcc_last_error());
        assert_int_equal(mesh->num_vertices, 4);
        assert_int_equal(mesh->num_tets, 1);
        assert_null(mesh->tet_regions);
        ipcc_mesh_destroy(mesh);
        ipcc_raw_free(&m);
        assert_null(m.node_tags);
        assert_null(m.tet_nodes);
    }
}

static void test_raw_errors_name_the_element(void **state) {
    (void)state;
    ipcc_reader r = text_reader("");
    ipcc_mesh *mesh = NULL;
    // No tets.
    ipcc_raw_mesh m = {0};
    m.tet_file = "mem.ele";
    assert_error(ipcc_raw_to_mesh(&m, "mem.ele", "mem.node", 0, &mesh), IPCC_ERR_MESH,
                 "mem.ele: no tetrahedra found");
    assert_null(strstr(ipcc_last_error(), "Gmsh"));
    // One file for nodes and tets (the same pointer): a Gmsh file.
    const char *msh = "mem.msh";
    m.tet_file = msh;
    assert_error(ipcc_raw_to_mesh(&m, msh, msh, 0, &mesh), IPCC_ERR_MESH,
                 "mem.msh: no tetrahedra found (Gmsh element type 4)");
    m.tet_file = "mem.ele";
    // An undefined node, in text (line) and binary (byte) form.
    const long long tags[4] = {1, 2, 3, 4};
    add_tet(&r, &m, tags, 0);
    m.tet_nodes[2] = 99;
    assert_error(ipcc_raw_to_mesh(&m, "mem.ele", "mem.node", 0, &mesh), IPCC_ERR_PARSE,
                 "mem.ele:17: element 42 references node 99, which mem.node does not define");
    assert_null(mesh);
    assert_error(ipcc_raw_to_mesh(&m, "mem.ele", "mem.ele", 1, &mesh), IPCC_ERR_PARSE,
                 "mem.ele: $Elements (binary, byte 17): element 42 references undefined node 99");
    // A node defined twice, in both maps.
    m.tet_nodes[2] = 3;
    m.node_tags[3] = 2;
    assert_error(ipcc_raw_to_mesh(&m, "mem.ele", "mem.node", 0, &mesh), IPCC_ERR_PARSE,
                 "mem.node: node 2 defined twice");
    m.node_tags[0] = 1LL << 40;
    assert_error(ipcc_raw_to_mesh(&m, "mem.ele", "mem.node", 0, &mesh), IPCC_ERR_PARSE,
                 "mem.node: node 2 defined twice");
    assert_null(mesh);
    ipcc_raw_free(&m);
}

static void test_raw_regions_handed_over(void **state) {
    (void)state;
    ipcc_reader r = text_reader("");
    ipcc_raw_mesh m = {0};
    m.tet_file = "mem.ele";
    const long long tags[4] = {1, 2, 3, 4};
    add_tet(&r, &m, tags, 7);
    m.has_regions = 1;
    ipcc_mesh *mesh = NULL;
    if (ipcc_raw_to_mesh(&m, "mem.ele", "mem.node", 0, &mesh) != IPCC_OK) fail_msg("%s", ipcc_last_error());
    assert_non_null(mesh->tet_regions);
    assert_int_equal(mesh->tet_regions[0], 7);
    assert_int_equal(mesh->num_regions, 1);
    ipcc_mesh_destroy(mesh);
    // A region number beyond int is named with the tet's line.
    m.tet_region[0] = 1LL << 40;
    assert_error(ipcc_raw_to_mesh(&m, "mem.ele", "mem.node", 0, &mesh), IPCC_ERR_PARSE,
                 "mem.ele:17: element 42: region 1099511627776 is out of range");
    assert_null(mesh);
    ipcc_raw_free(&m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_keeps_nul_bytes),
        cmocka_unit_test(test_load_failures_name_the_file),
        cmocka_unit_test(test_tokens_and_lines),
        cmocka_unit_test(test_typed_reads_and_messages),
        cmocka_unit_test(test_binary_reads_both_byte_orders),
        cmocka_unit_test(test_raw_tags_to_mesh),
        cmocka_unit_test(test_raw_errors_name_the_element),
        cmocka_unit_test(test_raw_regions_handed_over),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
