// Tests for src/output/vtk.c: a .vtu and a .vtp are parsed back byte by byte
// (appended block headers, contiguous offsets, bit-exact points,
// connectivity, offsets, fields), a .pvd lists each file with its time and
// part (several parts per time step, missing parts skipped), a .vtp's further
// point, cell and field data (Int32, Float64, String arrays), bad indices and
// non-finite times are refused, and the atomic write leaves the old file
// intact on every failure (missing folder, a directory in the way of the
// temporary, a write refused by RLIMIT_FSIZE), and no temporary after success.
// Compressed files (an ipcc_vtk_codec): the same XML but for
// compressor="vtkZLibDataCompressor" and the offsets, which are contiguous
// over VTK's zlib blocks ([nblocks][32768][last][csizes], the streams), and
// every block inflates to the raw file's bytes: a .vtu with further arrays,
// a .vtp with cells, Int32, String and field data, arrays of exactly one and
// three full blocks (last = 0) and empty ones ([0][32768][0]); one codec
// reused for a large then a small file.
#include "support.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "output/vtk.h"

/// A fresh folder under /tmp, emptied (one level, plus empty sub-folders) by rm_tree.
static void make_temp_dir(char dir[64]) {
    strcpy(dir, "/tmp/ipcc_test_vtk_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static int count_tmp_files(const char *dir) {
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len >= 4 && !strcmp(e->d_name + len - 4, ".tmp")) n++;
    }
    closedir(d);
    return n;
}

// Two tets sharing the face (1, 2, 3).
static const double points[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1.0 / 3.0, 1.0 / 7.0, 1e-300};
static const int tets[8] = {0, 1, 2, 3, 4, 3, 2, 1};
static const double velocity[15] = {0.1, -0.2, 0.3, 1e10, -1e-10, 0, 5, 6, 7, 8, 9, 10, -0.0, 2.5, 3.25};
static const double displacement[15] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15.5};
static const int body_id[2] = {0, 7};

static ipcc_vtk_frame sample_frame(void) {
    static const char *const pnames[2] = {"velocity", "displacement"};
    static const double *const pfields[2] = {velocity, displacement};
    static const char *const cnames[1] = {"body_id"};
    static const int *const cfields[1] = {body_id};
    ipcc_vtk_frame f = {5,       points, 2,    tets, 2, pnames, pfields, 1,   cnames,
                        cfields, 0,      NULL, NULL, 0, NULL,   0,       NULL};
    return f;
}

/// The data of the appended array whose tag contains `key`: checks the UInt64
/// header against `bytes` and returns a pointer to the bytes after it.
static const unsigned char *appended_array(const char *buf, size_t size, const char *key, uint64_t bytes) {
    const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
    assert_non_null(app);
    const char *under = strchr(app, '_');
    assert_non_null(under);
    const unsigned char *base = (const unsigned char *)under + 1;
    const char *tag = strstr(buf, key);
    assert_non_null(tag);
    assert_true(tag < app);
    const char *off = strstr(tag, "offset=\"");
    assert_non_null(off);
    unsigned long long offset = strtoull(off + 8, NULL, 10);
    assert_true((size_t)(base - (const unsigned char *)buf) + offset + 8 + bytes <= size);
    uint64_t header;
    memcpy(&header, base + offset, 8);
    assert_int_equal(header, bytes);
    return base + offset + 8;
}

/// Walk the DataArray tags in order: the first offset is 0, each block (UInt64
/// header + data) starts where the previous one ends, and the last one ends
/// right before the closing of AppendedData. Returns the number of arrays.
static int check_appended_layout(const char *buf, size_t size) {
    const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
    assert_non_null(app);
    const unsigned char *base = (const unsigned char *)strchr(app, '_') + 1;
    uint64_t expect = 0;
    int n = 0;
    for (const char *tag = strstr(buf, "<DataArray "); tag && tag < app;
         tag = strstr(tag + 1, "<DataArray ")) {
        const char *off = strstr(tag, "offset=\"");
        assert_non_null(off);
        assert_true(off < strchr(tag, '>'));
        assert_int_equal(strtoull(off + 8, NULL, 10), expect);
        assert_true((size_t)(base - (const unsigned char *)buf) + expect + 8 <= size);
        uint64_t header;
        memcpy(&header, base + expect, 8);
        expect += 8 + header;
        n++;
    }
    assert_true((size_t)(base - (const unsigned char *)buf) + expect <= size);
    const char *tail = "\n  </AppendedData>\n</VTKFile>\n";
    assert_true((size_t)(base - (const unsigned char *)buf) + expect + strlen(tail) == size);
    assert_memory_equal(base + expect, tail, strlen(tail));
    return n;
}

static void test_vtu_round_trip(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/frame.vtu", dir);
    ipcc_vtk_frame f = sample_frame();
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_OK);
    assert_int_equal(count_tmp_files(dir), 0);

    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    assert_non_null(strstr(buf, "header_type=\"UInt64\""));
    const uint16_t probe = 1;
    const char *order =
        *(const unsigned char *)&probe ? "byte_order=\"LittleEndian\"" : "byte_order=\"BigEndian\"";
    assert_non_null(strstr(buf, order));
    assert_non_null(strstr(buf, "NumberOfPoints=\"5\" NumberOfCells=\"2\""));
    assert_int_equal(check_appended_layout(buf, size), 7);

    const unsigned char *p = appended_array(buf, size, "Name=\"Points\"", sizeof points);
    assert_memory_equal(p, points, sizeof points);
    p = appended_array(buf, size, "Name=\"velocity\"", sizeof velocity);
    assert_memory_equal(p, velocity, sizeof velocity);
    p = appended_array(buf, size, "Name=\"displacement\"", sizeof displacement);
    assert_memory_equal(p, displacement, sizeof displacement);

    p = appended_array(buf, size, "Name=\"connectivity\"", 8 * sizeof(int64_t));
    for (int i = 0; i < 8; i++) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        assert_int_equal(v, tets[i]);
    }
    p = appended_array(buf, size, "Name=\"offsets\"", 2 * sizeof(int64_t));
    for (int i = 0; i < 2; i++) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        assert_int_equal(v, 4 * (i + 1));
    }
    p = appended_array(buf, size, "Name=\"types\"", 2);
    assert_int_equal(p[0], 10);
    assert_int_equal(p[1], 10);
    assert_int_equal(strncmp((const char *)p + 2, "\n  </AppendedData>", 18), 0); // the last block
    p = appended_array(buf, size, "Name=\"body_id\"", 2 * sizeof(int32_t));
    for (int i = 0; i < 2; i++) {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        assert_int_equal(v, body_id[i]);
    }
    free(buf);
    ipcc_test_remove_tree(dir);
}

static void test_vtu_large_streams_in_chunks(void **state) {
    (void)state;
    // More tets than one conversion chunk, to cross chunk boundaries.
    enum { NT = 1500, NP = NT + 3 };
    double *x = malloc(3 * NP * sizeof(double));
    int *t = malloc(4 * NT * sizeof(int));
    int *b = malloc(NT * sizeof(int));
    assert_true(x && t && b);
    for (int i = 0; i < 3 * NP; i++)
        x[i] = 0.001 * i;
    for (int c = 0; c < NT; c++) {
        for (int k = 0; k < 4; k++)
            t[4 * c + k] = c + k;
        b[c] = c % 5;
    }
    const char *cn[1] = {"body_id"};
    const int *cf[1] = {b};
    ipcc_vtk_frame f = {NP, x, NT, t, 0, NULL, NULL, 1, cn, cf, 0, NULL, NULL, 0, NULL, 0, NULL};
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/big.vtu", dir);
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_OK);
    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    const unsigned char *p = appended_array(buf, size, "Name=\"connectivity\"", 4 * NT * sizeof(int64_t));
    for (int i = 0; i < 4 * NT; i++) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        assert_int_equal(v, t[i]);
    }
    p = appended_array(buf, size, "Name=\"offsets\"", NT * sizeof(int64_t));
    int64_t last;
    memcpy(&last, p + 8 * (NT - 1), 8);
    assert_int_equal(last, 4 * NT);
    p = appended_array(buf, size, "Name=\"types\"", NT);
    for (int i = 0; i < NT; i++)
        assert_int_equal(p[i], 10);
    p = appended_array(buf, size, "Name=\"body_id\"", NT * sizeof(int32_t));
    for (int i = 0; i < NT; i++) {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        assert_int_equal(v, b[i]);
    }
    free(buf);
    free(x);
    free(t);
    free(b);
    ipcc_test_remove_tree(dir);
}

static void test_vtu_escapes_names(void **state) {
    (void)state;
    const char *pn[1] = {"a<b&\"c\""};
    const double *pf[1] = {velocity};
    ipcc_vtk_frame f = {5, points, 2, tets, 1, pn, pf, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, NULL};
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/esc.vtu", dir);
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_OK);
    char *buf = ipcc_test_read_file(path, NULL);
    assert_non_null(strstr(buf, "Name=\"a&lt;b&amp;&quot;c&quot;\""));
    free(buf);
    ipcc_test_remove_tree(dir);
}

static void test_vtu_bad_index(void **state) {
    (void)state;
    const int bad[4] = {0, 1, 2, 5};
    ipcc_vtk_frame f = {5, points, 1, bad, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, NULL};
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/bad.vtu", dir);
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), path));
    assert_int_equal(access(path, F_OK), -1);
    ipcc_test_remove_tree(dir);
}

// Three triangles over the sample points; the last one uses every corner but 0.
static const int triangles[9] = {0, 1, 2, 0, 1, 3, 4, 3, 2};

static ipcc_vtk_surface sample_surface(void) {
    static const char *const names[2] = {"velocity", "displacement"};
    static const double *const fields[2] = {velocity, displacement};
    ipcc_vtk_surface s = {5, points, 3, triangles, 2, names, fields};
    return s;
}

static void test_vtp_round_trip(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/obstacles.vtp", dir);
    ipcc_vtk_surface sf = sample_surface();
    assert_int_equal(ipcc_vtk_write_vtp(path, &sf), IPCC_OK);
    assert_int_equal(count_tmp_files(dir), 0);

    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    const char *head = "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" ";
    assert_memory_equal(buf, head, strlen(head));
    assert_non_null(strstr(buf, "header_type=\"UInt64\""));
    const uint16_t probe = 1;
    const char *order =
        *(const unsigned char *)&probe ? "byte_order=\"LittleEndian\"" : "byte_order=\"BigEndian\"";
    assert_non_null(strstr(buf, order));
    assert_non_null(strstr(buf, "<PolyData>"));
    assert_non_null(strstr(buf, "<Piece NumberOfPoints=\"5\" NumberOfVerts=\"0\" NumberOfLines=\"0\" "
                                "NumberOfStrips=\"0\" NumberOfPolys=\"3\">"));
    assert_null(strstr(buf, "UnstructuredGrid"));
    assert_null(strstr(buf, "Name=\"types\"")); // polys carry no cell types
    assert_int_equal(check_appended_layout(buf, size), 5);
    // Tags: point fields inside <PointData>, Points inside <Points>, cells inside <Polys>.
    const char *pd = strstr(buf, "<PointData>"), *pts = strstr(buf, "<Points>"),
               *polys = strstr(buf, "<Polys>");
    assert_true(pd && pts && polys && pd < pts && pts < polys);
    assert_true(strstr(buf, "Name=\"velocity\" NumberOfComponents=\"3\"") < pts);
    assert_true(strstr(buf, "Name=\"Points\" NumberOfComponents=\"3\"") > pts);
    assert_true(strstr(buf, "Name=\"connectivity\"") > polys);
    assert_true(strstr(buf, "Name=\"offsets\"") > polys);

    const unsigned char *p = appended_array(buf, size, "Name=\"Points\"", sizeof points);
    assert_memory_equal(p, points, sizeof points);
    p = appended_array(buf, size, "Name=\"velocity\"", sizeof velocity);
    assert_memory_equal(p, velocity, sizeof velocity);
    p = appended_array(buf, size, "Name=\"displacement\"", sizeof displacement);
    assert_memory_equal(p, displacement, sizeof displacement);
    p = appended_array(buf, size, "Name=\"connectivity\"", 9 * sizeof(int64_t));
    for (int i = 0; i < 9; i++) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        assert_int_equal(v, triangles[i]);
    }
    p = appended_array(buf, size, "Name=\"offsets\"", 3 * sizeof(int64_t));
    for (int i = 0; i < 3; i++) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        assert_int_equal(v, 3 * (i + 1));
    }
    free(buf);
    ipcc_test_remove_tree(dir);
}

static void test_vtp_large_and_empty(void **state) {
    (void)state;
    // More triangles than one conversion chunk, no point fields.
    enum { NF = 1300, NP = NF + 2 };
    double *x = malloc(3 * NP * sizeof(double));
    int *t = malloc(3 * NF * sizeof(int));
    assert_true(x && t);
    for (int i = 0; i < 3 * NP; i++)
        x[i] = -0.5 * i;
    for (int c = 0; c < NF; c++)
        for (int k = 0; k < 3; k++)
            t[3 * c + k] = c + (k + c) % 3;
    ipcc_vtk_surface sf = {NP, x, NF, t, 0, NULL, NULL};
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/big.vtp", dir);
    assert_int_equal(ipcc_vtk_write_vtp(path, &sf), IPCC_OK);
    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    assert_int_equal(check_appended_layout(buf, size), 3);
    const unsigned char *p = appended_array(buf, size, "Name=\"connectivity\"", 3 * NF * sizeof(int64_t));
    for (int i = 0; i < 3 * NF; i++) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        assert_int_equal(v, t[i]);
    }
    p = appended_array(buf, size, "Name=\"offsets\"", NF * sizeof(int64_t));
    for (int i = 0; i < NF; i++) {
        int64_t v;
        memcpy(&v, p + 8 * i, 8);
        assert_int_equal(v, 3 * (i + 1));
    }
    p = appended_array(buf, size, "Name=\"Points\"", 3 * NP * sizeof(double));
    assert_memory_equal(p, x, 3 * NP * sizeof(double));
    free(buf);

    // Nothing at all is still a valid file: zero counts, empty blocks.
    ipcc_vtk_surface empty = {0, NULL, 0, NULL, 0, NULL, NULL};
    assert_int_equal(ipcc_vtk_write_vtp(path, &empty), IPCC_OK);
    buf = ipcc_test_read_file(path, &size);
    assert_non_null(strstr(buf, "NumberOfPoints=\"0\""));
    assert_non_null(strstr(buf, "NumberOfPolys=\"0\""));
    assert_int_equal(check_appended_layout(buf, size), 3);
    free(buf);
    free(x);
    free(t);
    ipcc_test_remove_tree(dir);
}

/// ipcc_vtk_write_polydata: without data it writes ipcc_vtk_write_vtp_codim's
/// bytes; with data, FieldData (a Float64 value, then a String array whose
/// block is each value and its NUL) comes before the Piece, the further point
/// arrays (Int32 and Float64, any number of components) follow the point
/// fields, a cell array has one tuple per cell (verts, lines, polys), and
/// every block (DataArray and Array tags alike) is contiguous.
static void test_polydata_data(void **state) {
    (void)state;
    char dir[64], path[128], plain[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/data.vtp", dir);
    snprintf(plain, sizeof plain, "%s/plain.vtp", dir);
    ipcc_vtk_surface sf = sample_surface();
    const int line[2] = {0, 4}, vert[1] = {3};
    const ipcc_vtk_codim cd = {1, line, 1, vert};
    assert_int_equal(ipcc_vtk_write_vtp_codim(plain, &sf, &cd), IPCC_OK);
    assert_int_equal(ipcc_vtk_write_polydata(path, &sf, &cd, NULL), IPCC_OK);
    size_t na, nb;
    char *a = ipcc_test_read_file(plain, &na), *b = ipcc_test_read_file(path, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);

    const int pairs[10] = {1, -2, 3, -4, 5, -6, 7, -8, 2147483647, -2147483647 - 1};
    const double scalars[5] = {0.5, -1, 1e-300, 3, 4};
    const int cells[5] = {10, 20, 30, 40, 50}; // 1 vert, 1 line, 3 triangles
    const ipcc_vtk_array parr[2] = {{.name = "pair", .components = 2, .ints = pairs},
                                    {.name = "scalar", .components = 1, .doubles = scalars}};
    const ipcc_vtk_array carr[1] = {{.name = "cell_id", .components = 1, .ints = cells}};
    const char *const values[3] = {"a&b", "", "\xc3\xbc"};
    const ipcc_vtk_strings strings[1] = {{.name = "names<1>", .count = 3, .values = values}};
    const char *const value_names[1] = {"TimeValue"};
    const double time_value[1] = {0.25};
    const ipcc_vtk_data data = {.num_point_arrays = 2,
                                .point_arrays = parr,
                                .num_cell_arrays = 1,
                                .cell_arrays = carr,
                                .num_field_values = 1,
                                .field_value_names = value_names,
                                .field_values = time_value,
                                .num_field_strings = 1,
                                .field_strings = strings};
    assert_int_equal(ipcc_vtk_write_polydata(path, &sf, &cd, &data), IPCC_OK);
    size_t size;
    char *buf = ipcc_test_read_file(path, &size);
    const char *fd = strstr(buf, "<FieldData>"), *piece = strstr(buf, "<Piece ");
    const char *pts = strstr(buf, "<Points>"), *cdata = strstr(buf, "<CellData>");
    assert_true(fd && piece && fd < piece && cdata && pts && cdata < pts);
    const char *str = strstr(buf, "<Array type=\"String\" Name=\"names&lt;1&gt;\" NumberOfTuples=\"3\"");
    assert_true(str && str < piece);
    assert_true(strstr(buf, "Name=\"pair\" NumberOfComponents=\"2\"") < cdata);
    assert_true(strstr(buf, "<DataArray type=\"Int32\" Name=\"cell_id\"") > cdata);
    const char expect[] = "a&b\0\0\xc3\xbc"; // and the final NUL
    assert_memory_equal(appended_array(buf, size, "Name=\"names&lt;1&gt;\"", sizeof expect), expect,
                        sizeof expect);
    assert_memory_equal(appended_array(buf, size, "Name=\"TimeValue\"", 8), time_value, 8);
    assert_memory_equal(appended_array(buf, size, "Name=\"scalar\"", sizeof scalars), scalars,
                        sizeof scalars);
    const unsigned char *p = appended_array(buf, size, "Name=\"pair\"", 10 * sizeof(int32_t));
    for (int i = 0; i < 10; i++) {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        assert_int_equal(v, pairs[i]);
    }
    p = appended_array(buf, size, "Name=\"cell_id\"", 5 * sizeof(int32_t));
    for (int i = 0; i < 5; i++) {
        int32_t v;
        memcpy(&v, p + 4 * i, 4);
        assert_int_equal(v, cells[i]);
    }
    // Every block, in tag order, starts where the previous one ends.
    const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
    const unsigned char *base = (const unsigned char *)strchr(app, '_') + 1;
    uint64_t expect_offset = 0;
    int blocks = 0;
    for (const char *tag = buf; (tag = strstr(tag + 1, "Array ")) && tag < app;) {
        if (tag[-1] != '<' && !(tag[-1] == 'a' && tag[-5] == '<')) continue; // <Array or <DataArray
        const char *off = strstr(tag, "offset=\"");
        assert_int_equal(strtoull(off + 8, NULL, 10), expect_offset);
        uint64_t header;
        memcpy(&header, base + expect_offset, 8);
        expect_offset += 8 + header;
        blocks++;
    }
    // field value and strings, point fields, point arrays, the cell array, Points, verts, lines, polys
    assert_int_equal(blocks, 2 + 2 + 2 + 1 + 1 + 2 + 2 + 2);
    assert_int_equal((size_t)(base - (const unsigned char *)buf) + expect_offset +
                         strlen("\n  </AppendedData>\n</VTKFile>\n"),
                     size);
    free(buf);
    ipcc_test_remove_tree(dir);
}

static void test_vtp_bad_index(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/bad.vtp", dir);
    const int bad[2][6] = {{0, 1, 2, 2, 3, 5}, {0, 1, 2, -1, 3, 4}};
    for (int i = 0; i < 2; i++) {
        ipcc_vtk_surface sf = {5, points, 2, bad[i], 0, NULL, NULL};
        assert_int_equal(ipcc_vtk_write_vtp(path, &sf), IPCC_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(ipcc_last_error(), path));
        assert_non_null(strstr(ipcc_last_error(), "triangle 1"));
        assert_int_equal(access(path, F_OK), -1);
    }
    assert_int_equal(count_tmp_files(dir), 0);
    ipcc_test_remove_tree(dir);
}

static void test_pvd_round_trip(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    const double times[3] = {0.0, 0.1, 1.0 / 3.0};
    const char *files[3] = {"frame_000000.vtu", "frame_000001.vtu", "sub/frame_000002.vtu"};
    assert_int_equal(ipcc_vtk_write_pvd(path, 3, 1, times, files), IPCC_OK);
    assert_int_equal(count_tmp_files(dir), 0);
    char *buf = ipcc_test_read_file(path, NULL);
    assert_non_null(strstr(buf, "type=\"Collection\""));
    const char *cursor = buf;
    for (int i = 0; i < 3; i++) {
        const char *ds = strstr(cursor, "<DataSet ");
        assert_non_null(ds);
        const char *ts = strstr(ds, "timestep=\"");
        assert_non_null(ts);
        double t = strtod(ts + 10, NULL);
        assert_memory_equal(&t, &times[i], sizeof t); // %.17g round-trips exactly
        char want[64];
        snprintf(want, sizeof want, "file=\"%s\"", files[i]);
        const char *fl = strstr(ds, want);
        assert_non_null(fl);
        assert_true(fl < strchr(ds, '>'));
        assert_non_null(strstr(ds, "part=\"0\""));
        cursor = fl;
    }
    assert_null(strstr(cursor, "<DataSet "));
    free(buf);
    // Rewriting replaces the file.
    assert_int_equal(ipcc_vtk_write_pvd(path, 1, 1, times, files), IPCC_OK);
    buf = ipcc_test_read_file(path, NULL);
    assert_null(strstr(buf, "frame_000001.vtu"));
    free(buf);
    ipcc_test_remove_tree(dir);
}

/// The next <DataSet .../> at or after *cursor: checks its timestep (bit-exact),
/// part and file, and moves *cursor past it.
static void expect_dataset(const char **cursor, double time, int part, const char *file) {
    const char *ds = strstr(*cursor, "<DataSet ");
    assert_non_null(ds);
    const char *end = strstr(ds, "/>");
    assert_non_null(end);
    const char *ts = strstr(ds, "timestep=\"");
    assert_true(ts && ts < end);
    double t = strtod(ts + 10, NULL);
    assert_memory_equal(&t, &time, sizeof t);
    char want[96];
    snprintf(want, sizeof want, "part=\"%d\"", part);
    const char *pt = strstr(ds, want);
    assert_true(pt && pt < end);
    snprintf(want, sizeof want, "file=\"%s\"", file);
    const char *fl = strstr(ds, want);
    assert_true(fl && fl < end);
    *cursor = end;
}

static void test_pvd_multi_part(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    const double times[3] = {0.0, 0.01, 0.1 + 0.2};
    // Step 1 has no part 1 (NULL); step 2 has no part 0.
    const char *files[6] = {"frame_000000.vtu", "obstacles_000000.vtp", "frame_000001.vtu", NULL, NULL,
                            "obstacles_&2.vtp"};
    assert_int_equal(ipcc_vtk_write_pvd(path, 3, 2, times, files), IPCC_OK);
    assert_int_equal(count_tmp_files(dir), 0);
    char *buf = ipcc_test_read_file(path, NULL);
    assert_non_null(strstr(buf, "<VTKFile type=\"Collection\""));
    const char *cursor = buf;
    expect_dataset(&cursor, times[0], 0, "frame_000000.vtu");
    expect_dataset(&cursor, times[0], 1, "obstacles_000000.vtp");
    expect_dataset(&cursor, times[1], 0, "frame_000001.vtu");
    expect_dataset(&cursor, times[2], 1, "obstacles_&amp;2.vtp");
    assert_null(strstr(cursor, "<DataSet "));
    assert_non_null(strstr(cursor, "</Collection>\n</VTKFile>\n"));
    free(buf);

    // No steps: an empty but valid collection.
    assert_int_equal(ipcc_vtk_write_pvd(path, 0, 2, NULL, NULL), IPCC_OK);
    buf = ipcc_test_read_file(path, NULL);
    assert_null(strstr(buf, "<DataSet "));
    assert_non_null(strstr(buf, "<Collection>"));
    free(buf);
    ipcc_test_remove_tree(dir);
}

static void test_pvd_rejects_non_finite_time(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    ipcc_test_write_text(path, "old pvd");
    const double times[2] = {0.0, INFINITY};
    const char *files[4] = {"a.vtu", "a.vtp", NULL, "b.vtp"};
    assert_int_equal(ipcc_vtk_write_pvd(path, 2, 2, times, files), IPCC_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(ipcc_last_error(), path));
    assert_non_null(strstr(ipcc_last_error(), "b.vtp")); // names the step's first dataset
    char *buf = ipcc_test_read_file(path, NULL);
    assert_string_equal(buf, "old pvd");
    free(buf);
    assert_int_equal(count_tmp_files(dir), 0);
    ipcc_test_remove_tree(dir);
}

static void test_missing_folder_fails(void **state) {
    (void)state;
    char dir[64], path[160];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/does/not/exist/frame.vtu", dir);
    ipcc_vtk_frame f = sample_frame();
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_ERR_IO);
    assert_non_null(strstr(ipcc_last_error(), path));
    assert_non_null(strstr(ipcc_last_error(), strerror(ENOENT)));
    snprintf(path, sizeof path, "%s/does/not/exist/obstacles.vtp", dir);
    ipcc_vtk_surface sf = sample_surface();
    assert_int_equal(ipcc_vtk_write_vtp(path, &sf), IPCC_ERR_IO);
    assert_non_null(strstr(ipcc_last_error(), path));
    assert_non_null(strstr(ipcc_last_error(), strerror(ENOENT)));
    snprintf(path, sizeof path, "%s/nope/frames.pvd", dir);
    const double t = 0;
    const char *file = "a.vtu";
    assert_int_equal(ipcc_vtk_write_pvd(path, 1, 1, &t, &file), IPCC_ERR_IO);
    assert_non_null(strstr(ipcc_last_error(), path));
    ipcc_test_remove_tree(dir);
}

static void test_target_intact_when_tmp_blocked(void **state) {
    (void)state;
    char dir[64], path[128], tmp[160];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/frame.vtu", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ipcc_test_write_text(path, "old contents");
    assert_int_equal(mkdir(tmp, 0777), 0);
    ipcc_vtk_frame f = sample_frame();
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_ERR_IO);
    assert_non_null(strstr(ipcc_last_error(), path));
    char *buf = ipcc_test_read_file(path, NULL);
    assert_string_equal(buf, "old contents");
    free(buf);
    struct stat st;
    assert_int_equal(stat(tmp, &st), 0); // not ours: not removed
    assert_true(S_ISDIR(st.st_mode));

    snprintf(path, sizeof path, "%s/obstacles.vtp", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ipcc_test_write_text(path, "old vtp");
    assert_int_equal(mkdir(tmp, 0777), 0);
    ipcc_vtk_surface sf = sample_surface();
    assert_int_equal(ipcc_vtk_write_vtp(path, &sf), IPCC_ERR_IO);
    assert_non_null(strstr(ipcc_last_error(), path));
    buf = ipcc_test_read_file(path, NULL);
    assert_string_equal(buf, "old vtp");
    free(buf);
    assert_int_equal(stat(tmp, &st), 0);
    assert_true(S_ISDIR(st.st_mode));

    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ipcc_test_write_text(path, "old pvd");
    assert_int_equal(mkdir(tmp, 0777), 0);
    const double t = 0;
    const char *file = "a.vtu";
    assert_int_equal(ipcc_vtk_write_pvd(path, 1, 1, &t, &file), IPCC_ERR_IO);
    buf = ipcc_test_read_file(path, NULL);
    assert_string_equal(buf, "old pvd");
    free(buf);
    ipcc_test_remove_tree(dir);
}

static void test_target_intact_when_write_fails(void **state) {
    (void)state;
    // A file-size limit makes a write fail midway (EFBIG), as a full disk would.
    enum { NT = 4000, NP = NT + 3 };
    double *x = calloc(3 * NP, sizeof(double));
    int *t = malloc(4 * NT * sizeof(int));
    assert_true(x && t);
    for (int c = 0; c < NT; c++)
        for (int k = 0; k < 4; k++)
            t[4 * c + k] = c + k;
    ipcc_vtk_frame f = {NP, x, NT, t, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, 0, NULL};
    char dir[64], path[128], tmp[160];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/frame.vtu", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ipcc_test_write_text(path, "old contents");

    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 20000;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    ipcc_status s = ipcc_vtk_write_vtu(path, &f);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, old_handler);

    assert_int_equal(s, IPCC_ERR_IO);
    assert_non_null(strstr(ipcc_last_error(), path));
    assert_non_null(strstr(ipcc_last_error(), strerror(EFBIG)));
    char *buf = ipcc_test_read_file(path, NULL);
    assert_string_equal(buf, "old contents");
    free(buf);
    assert_int_equal(access(tmp, F_OK), -1); // ours: removed
    assert_int_equal(count_tmp_files(dir), 0);
    free(x);
    free(t);
    ipcc_test_remove_tree(dir);
}

static void test_overwrite_and_no_tmp_left(void **state) {
    (void)state;
    char dir[64], path[128];
    make_temp_dir(dir);
    snprintf(path, sizeof path, "%s/frame.vtu", dir);
    ipcc_test_write_text(path, "old contents");
    ipcc_vtk_frame f = sample_frame();
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_OK);
    assert_int_equal(ipcc_vtk_write_vtu(path, &f), IPCC_OK);
    char *buf = ipcc_test_read_file(path, NULL);
    assert_int_equal(strncmp(buf, "<?xml", 5), 0);
    free(buf);
    assert_int_equal(count_tmp_files(dir), 0);
    ipcc_test_remove_tree(dir);
}

/// The appended blocks of a VTK file in the order of its offset="N"
/// attributes, each as its raw bytes (inflated when the file is compressed):
/// *n blocks, malloc'ed (free each and the array). Offsets must be
/// contiguous: each block starts where the previous one ends.
static unsigned char **file_blocks(const char *buf, size_t size, int *n, uint64_t **sizes) {
    const bool zipped = strstr(buf, "compressor=\"vtkZLibDataCompressor\"") != NULL;
    const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
    assert_non_null(app);
    const unsigned char *base = (const unsigned char *)strchr(app, '_') + 1;
    const size_t avail = size - (size_t)(base - (const unsigned char *)buf);
    unsigned char **blocks = NULL;
    *sizes = NULL;
    *n = 0;
    uint64_t expect = 0;
    for (const char *p = strstr(buf, "offset=\""); p && p < app; p = strstr(p + 1, "offset=\"")) {
        const uint64_t off = strtoull(p + 8, NULL, 10);
        assert_int_equal(off, expect); // contiguous
        const unsigned char *h = base + off;
        uint64_t w[3];
        assert_true(off + 24 <= avail);
        memcpy(w, h, 24);
        uint64_t raw, used;
        unsigned char *out;
        if (!zipped) {
            raw = w[0];
            used = 8 + raw;
            assert_true(off + used <= avail);
            out = malloc(raw + 1);
            memcpy(out, h + 8, raw);
        } else {
            const uint64_t nb = w[0], bs = w[1], last = w[2];
            assert_int_equal(bs, 32768);
            assert_true(last < bs);
            raw = nb == 0 ? 0 : (nb - 1) * bs + (last ? last : bs);
            out = malloc(raw + 1);
            used = 8 * (3 + nb);
            for (uint64_t b = 0; b < nb; b++) {
                uint64_t c;
                memcpy(&c, h + 8 * (3 + b), 8);
                assert_true(off + used + c <= avail);
                const uLongf want = (uLongf)(b + 1 < nb || !last ? bs : last);
                uLongf got = want;
                assert_int_equal(uncompress(out + b * bs, &got, h + used, (uLong)c), Z_OK);
                assert_int_equal(got, want);
                used += c;
            }
        }
        expect = off + used;
        blocks = realloc(blocks, (size_t)(*n + 1) * sizeof *blocks);
        *sizes = realloc(*sizes, (size_t)(*n + 1) * sizeof **sizes);
        blocks[*n] = out;
        (*sizes)[*n] = raw;
        (*n)++;
    }
    assert_int_equal(base[expect], '\n'); // the blocks end where the data end
    return blocks;
}

/// The XML of a file up to its appended data, without offsets and compressor.
static char *xml_without_offsets(const char *buf) {
    static const char attr[] = " compressor=\"vtkZLibDataCompressor\"";
    const char *end = strstr(buf, "<AppendedData");
    char *out = malloc((size_t)(end - buf) + 1), *o = out;
    for (const char *p = buf; p < end;) {
        if (!strncmp(p, " offset=\"", 9)) {
            p = strchr(p + 9, '"') + 1;
        } else if (!strncmp(p, attr, sizeof attr - 1)) {
            p += sizeof attr - 1;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return out;
}

/// The files at raw_path and zip_path hold the same XML (but for offsets
/// and the compressor) and the same blocks; zip_path is compressed and,
/// when `smaller`, smaller.
static void assert_same_data(const char *raw_path, const char *zip_path, bool smaller) {
    size_t nr, nz;
    char *r = ipcc_test_read_file(raw_path, &nr), *z = ipcc_test_read_file(zip_path, &nz);
    assert_null(strstr(r, "compressor="));
    assert_non_null(strstr(z, "header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\">"));
    if (smaller) assert_true(nz < nr);
    char *xr = xml_without_offsets(r), *xz = xml_without_offsets(z);
    size_t d = 0;
    while (xr[d] && xr[d] == xz[d])
        d++;
    if (xr[d] != xz[d]) fail_msg("the XML differs at byte %zu: \"%.60s\" vs \"%.60s\"", d, xr + d, xz + d);
    int kr, kz;
    uint64_t *sr, *sz;
    unsigned char **br = file_blocks(r, nr, &kr, &sr), **bz = file_blocks(z, nz, &kz, &sz);
    assert_int_equal(kr, kz);
    for (int k = 0; k < kr; k++) {
        assert_int_equal(sr[k], sz[k]);
        assert_memory_equal(br[k], bz[k], sr[k]);
        free(br[k]);
        free(bz[k]);
    }
    free(br);
    free(bz);
    free(sr);
    free(sz);
    free(xr);
    free(xz);
    free(r);
    free(z);
}

static void test_compressed_vtu_and_vtp(void **state) {
    (void)state;
    char dir[64], raw[128], zip[128];
    make_temp_dir(dir);
    snprintf(raw, sizeof raw, "%s/raw.vtu", dir);
    snprintf(zip, sizeof zip, "%s/zip.vtu", dir);
    ipcc_vtk_codec *codec = ipcc_vtk_codec_create(1);
    assert_non_null(codec);
    // A frame with a 9-component cell array and a 1-component point array.
    const double sigma[18] = {1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -2, -3, -4, -5, -6, -7, -8, 1e300};
    const double mass[5] = {0.25, 0.5, 0.125, 1, 2};
    const ipcc_vtk_array parr[1] = {{.name = "mass", .components = 1, .doubles = mass}};
    const ipcc_vtk_array carr[2] = {{.name = "cauchy_stress", .components = 9, .doubles = sigma},
                                    {.name = "region", .components = 1, .ints = body_id}};
    ipcc_vtk_frame f = sample_frame();
    f.num_point_arrays = 1, f.point_arrays = parr, f.num_cell_arrays = 2, f.cell_arrays = carr;
    const char *const fnames[1] = {"TimeValue"};
    const double fvalues[1] = {0.5};
    f.num_field_values = 1, f.field_value_names = fnames, f.field_values = fvalues;
    assert_int_equal(ipcc_vtk_write_vtu(raw, &f), IPCC_OK);
    assert_int_equal(ipcc_vtk_write_vtu_encoded(zip, &f, codec), IPCC_OK);
    assert_same_data(raw, zip, false); // tiny arrays: zlib's 11 bytes of overhead win
    char *buf = ipcc_test_read_file(raw, NULL);
    assert_non_null(
        strstr(buf, "<DataArray type=\"Float64\" Name=\"cauchy_stress\" NumberOfComponents=\"9\""));
    assert_non_null(strstr(buf, "<DataArray type=\"Float64\" Name=\"mass\" format"));
    assert_non_null(strstr(buf, "<DataArray type=\"Int32\" Name=\"region\" format"));
    free(buf);

    // Exactly 1 and 3 full blocks (last = 0), and empty cell arrays.
    enum { NP = 4096 };
    double *x = malloc(3 * NP * sizeof(double)), *m = malloc(NP * sizeof(double));
    for (int i = 0; i < 3 * NP; i++)
        x[i] = i % 7 == 0 ? 0 : sin(i);
    for (int i = 0; i < NP; i++)
        m[i] = 1 + i % 3;
    const ipcc_vtk_array big[1] = {{.name = "mass", .components = 1, .doubles = m}};
    ipcc_vtk_frame g = {.num_points = NP, .points = x, .num_point_arrays = 1, .point_arrays = big};
    assert_int_equal(ipcc_vtk_write_vtu(raw, &g), IPCC_OK);
    assert_int_equal(ipcc_vtk_write_vtu_encoded(zip, &g, codec), IPCC_OK);
    assert_same_data(raw, zip, true);
    size_t nz;
    buf = ipcc_test_read_file(zip, &nz);
    const unsigned char *base = (const unsigned char *)strchr(strstr(buf, "<AppendedData"), '_') + 1;
    uint64_t w[3];
    memcpy(w, base + strtoull(strstr(strstr(buf, "Name=\"mass\""), "offset=\"") + 8, NULL, 10), 24);
    assert_true(w[0] == 1 && w[1] == 32768 && w[2] == 0);
    memcpy(w, base + strtoull(strstr(strstr(buf, "Name=\"Points\""), "offset=\"") + 8, NULL, 10), 24);
    assert_true(w[0] == 3 && w[1] == 32768 && w[2] == 0);
    memcpy(w, base + strtoull(strstr(strstr(buf, "Name=\"types\""), "offset=\"") + 8, NULL, 10), 24);
    assert_true(w[0] == 0 && w[1] == 32768 && w[2] == 0);
    free(buf);

    // A .vtp with verts, lines, polys, Int32 and String data, written after
    // the large file with the same codec.
    snprintf(raw, sizeof raw, "%s/raw.vtp", dir);
    snprintf(zip, sizeof zip, "%s/zip.vtp", dir);
    ipcc_vtk_surface sf = sample_surface();
    const int line[2] = {0, 4}, vert[1] = {3};
    const ipcc_vtk_codim cd = {1, line, 1, vert};
    const int cells[5] = {10, 20, 30, 40, 50};
    const ipcc_vtk_array carr2[1] = {{.name = "object_id", .components = 1, .ints = cells}};
    const char *const values[3] = {"a&b", "", "\xc3\xbc"};
    const ipcc_vtk_strings strings[1] = {{.name = "object_names", .count = 3, .values = values}};
    const ipcc_vtk_data data = {.num_cell_arrays = 1,
                                .cell_arrays = carr2,
                                .num_field_values = 1,
                                .field_value_names = fnames,
                                .field_values = fvalues,
                                .num_field_strings = 1,
                                .field_strings = strings};
    assert_int_equal(ipcc_vtk_write_polydata(raw, &sf, &cd, &data), IPCC_OK);
    assert_int_equal(ipcc_vtk_write_polydata_encoded(zip, &sf, &cd, &data, codec), IPCC_OK);
    assert_same_data(raw, zip, false);
    // Level 0 is raw: the same bytes as without a codec.
    ipcc_vtk_codec *none = ipcc_vtk_codec_create(0);
    assert_int_equal(ipcc_vtk_write_polydata_encoded(zip, &sf, &cd, &data, none), IPCC_OK);
    size_t na, nb;
    char *a = ipcc_test_read_file(raw, &na), *b = ipcc_test_read_file(zip, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);
    ipcc_vtk_codec_destroy(none);
    ipcc_vtk_codec_destroy(codec);
    ipcc_vtk_codec_destroy(NULL);
    assert_int_equal(count_tmp_files(dir), 0);
    free(x);
    free(m);
    ipcc_test_remove_tree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vtu_round_trip),
        cmocka_unit_test(test_vtu_large_streams_in_chunks),
        cmocka_unit_test(test_vtu_escapes_names),
        cmocka_unit_test(test_vtu_bad_index),
        cmocka_unit_test(test_vtp_round_trip),
        cmocka_unit_test(test_vtp_large_and_empty),
        cmocka_unit_test(test_vtp_bad_index),
        cmocka_unit_test(test_polydata_data),
        cmocka_unit_test(test_pvd_round_trip),
        cmocka_unit_test(test_pvd_multi_part),
        cmocka_unit_test(test_pvd_rejects_non_finite_time),
        cmocka_unit_test(test_missing_folder_fails),
        cmocka_unit_test(test_target_intact_when_tmp_blocked),
        cmocka_unit_test(test_target_intact_when_write_fails),
        cmocka_unit_test(test_overwrite_and_no_tmp_left),
        cmocka_unit_test(test_compressed_vtu_and_vtp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
