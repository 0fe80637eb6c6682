// The frame reader's XML scanner (src/output/xml_scan.c): tags found in
// order past <?...?>, <!DOCTYPE> and comments (a '>' inside a comment or a
// quoted value does not end anything), opening, closing and empty tags told
// apart, attributes decoded (entities, &#N; and &#xN;) or reported absent,
// line numbers; and each failure with its status and a message naming the
// file, line and element: a missing required attribute, a malformed entity,
// malformed attributes, an unterminated tag or comment.
#include <stdlib.h>
#include <string.h>

#include "output/xml_scan.h"
#include "support.h"

static const char doc[] = "<?xml version=\"1.0\"?>\n"
                          "<!DOCTYPE x>\n"
                          "<!-- a comment with <tags> and > signs -->\n"
                          "<VTKFile type=\"Collection\" note='a > b'>\n"
                          "  <DataSet timestep = \"0.5\" file=\"a&amp;b&#95;c&#x2e;vtu\"/>\n"
                          "</VTKFile>\n";

static void test_tags_in_order(void **state) {
    (void)state;
    const char *p = doc, *end = doc + strlen(doc);
    ipcc_xml_tag t;
    assert_int_equal(ipcc_xml_next_tag(p, end, &t), 1);
    assert_true(ipcc_xml_is(&t, "VTKFile"));
    assert_false(ipcc_xml_is(&t, "VTK"));
    assert_false(t.closing);
    assert_false(t.empty);
    assert_int_equal(ipcc_xml_line(doc, t.start), 4);
    assert_int_equal(*t.end, '\n'); // the '>' in note='a > b' did not end the tag
    char *v = NULL;
    assert_int_equal(ipcc_xml_attr("f.pvd", doc, &t, "note", &v), IPCC_OK);
    assert_string_equal(v, "a > b");
    free(v);
    assert_int_equal(ipcc_xml_required("f.pvd", doc, &t, "type", &v), IPCC_OK);
    assert_string_equal(v, "Collection");
    free(v);
    // Absent: IPCC_OK and NULL.
    v = (char *)"untouched";
    assert_int_equal(ipcc_xml_attr("f.pvd", doc, &t, "byte_order", &v), IPCC_OK);
    assert_null(v);

    p = t.end;
    assert_int_equal(ipcc_xml_next_tag(p, end, &t), 1);
    assert_true(ipcc_xml_is(&t, "DataSet"));
    assert_true(t.empty);
    assert_int_equal(ipcc_xml_line(doc, t.start), 5);
    assert_int_equal(ipcc_xml_attr("f.pvd", doc, &t, "file", &v), IPCC_OK);
    assert_string_equal(v, "a&b_c.vtu");
    free(v);
    assert_int_equal(ipcc_xml_attr("f.pvd", doc, &t, "timestep", &v), IPCC_OK); // spaces around '='
    assert_string_equal(v, "0.5");
    free(v);
    assert_int_equal(ipcc_xml_required("f.pvd", doc, &t, "part", &v), IPCC_ERR_PARSE);
    assert_null(v);
    assert_string_equal(ipcc_last_error(), "'f.pvd', line 5: <DataSet> has no part attribute");

    p = t.end;
    assert_int_equal(ipcc_xml_next_tag(p, end, &t), 1);
    assert_true(ipcc_xml_is(&t, "VTKFile"));
    assert_true(t.closing);
    p = t.end;
    assert_int_equal(ipcc_xml_next_tag(p, end, &t), 0); // none left
}

static void test_malformed(void **state) {
    (void)state;
    ipcc_xml_tag t;
    char *v = NULL;
    const char *bad_entity = "\n<DataSet file=\"a&bogus;b\"/>";
    assert_int_equal(ipcc_xml_next_tag(bad_entity, bad_entity + strlen(bad_entity), &t), 1);
    assert_int_equal(ipcc_xml_attr("f.pvd", bad_entity, &t, "file", &v), IPCC_ERR_PARSE);
    assert_null(v);
    assert_string_equal(ipcc_last_error(),
                        "'f.pvd', line 2: <DataSet>: attribute file has a malformed '&' entity");
    const char *too_big = "<A x=\"&#200;\"/>"; // character references only below 128
    assert_int_equal(ipcc_xml_next_tag(too_big, too_big + strlen(too_big), &t), 1);
    assert_int_equal(ipcc_xml_attr("f.vtu", too_big, &t, "x", &v), IPCC_ERR_PARSE);

    const char *unquoted = "<Piece NumberOfPoints=3>";
    assert_int_equal(ipcc_xml_next_tag(unquoted, unquoted + strlen(unquoted), &t), 1);
    assert_int_equal(ipcc_xml_attr("f.vtu", unquoted, &t, "NumberOfPoints", &v), IPCC_ERR_PARSE);
    assert_null(v);
    assert_string_equal(ipcc_last_error(), "'f.vtu', line 1: <Piece>: malformed attributes");

    // Cut off: -1, with the start of what was cut.
    const char *cut_tag = "<A/>\n<B x=\"1";
    const char *end = cut_tag + strlen(cut_tag);
    assert_int_equal(ipcc_xml_next_tag(cut_tag, end, &t), 1);
    assert_int_equal(ipcc_xml_next_tag(t.end, end, &t), -1);
    assert_ptr_equal(t.start, cut_tag + 5);
    const char *cut_quote = "<B x=\">\">"; // the quote never closes: the '>'s are inside it
    assert_int_equal(ipcc_xml_next_tag(cut_quote, cut_quote + 7, &t), -1);
    const char *cut_comment = "<!-- no end -- >";
    assert_int_equal(ipcc_xml_next_tag(cut_comment, cut_comment + strlen(cut_comment), &t), -1);
    assert_ptr_equal(t.start, cut_comment);
    // The scanner stops at `end`, not at a NUL: a tag past it is not seen.
    const char *two = "<A/><B/>";
    assert_int_equal(ipcc_xml_next_tag(two + 4, two + 4, &t), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tags_in_order),
        cmocka_unit_test(test_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
