// Tests for src/world/world_fields.c and the analysis fields of a frame
// (output.c, vtk.c): a box of tets stretched uniformly, x = F X with
// F = diag(1.1, 0.95, 0.95), has in every tet J = det F and the Cauchy
// stress, von Mises stress and energy density of the material law,
// computed here in closed form for each model (the formulas of
// include/ipcc/elastic.h, not elastic.c's code):
//   neo-Hookean      sigma = (mu (F F^T - I) + lambda ln J I) / J
//   fixed corotated  sigma = (2 mu (F - I) F^T + lambda (J - 1) J I) / J   (R = I: F is SPD)
//   StVK             sigma = F (2 mu E + lambda tr E I) F^T / J,  E = (F^T F - I)/2
//   linear           sigma = (2 mu eps + lambda tr eps I) F^T / J,  eps = F - I
// and the .vtu written by ipcc_output_write_frame holds exactly those
// (`volume_ratio`, `cauchy_stress` 9 components row-major, `von_mises`,
// `energy_density` per rest volume) and the lumped `mass`, which sums to
// density * volume. Then a larger stretched box is written raw and
// compressed: the compressed .vtu says compressor="vtkZLibDataCompressor",
// is smaller, and every array inflated from VTK's block layout ([nblocks]
// [blocksize][last][csizes], several 32 KiB blocks for the stress) equals
// the raw file's bytes.
#include "support.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "ipcc/elastic.h"
#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/world.h"
#include "world/world.h"

static const double STRETCH[3] = {1.1, 0.95, 0.95};

static ipcc_world *stretched_box(ipcc_material_model model, int cells, double density) {
    const double size[3] = {0.4, 0.2, 0.2};
    ipcc_mesh *mesh = NULL;
    assert_int_equal(ipcc_mesh_create_box(2 * cells, cells, cells, size, &mesh), IPCC_OK);
    ipcc_world_def wd = ipcc_default_world_def();
    ipcc_world *w = NULL;
    assert_int_equal(ipcc_world_create(&wd, &w), IPCC_OK);
    ipcc_body_def bd = ipcc_default_body_def();
    bd.mesh = mesh;
    bd.material.model = model;
    bd.material.density = density;
    assert_int_equal(ipcc_world_add_body(w, &bd, NULL), IPCC_OK);
    ipcc_mesh_destroy(mesh);
    for (int i = 0; i < w->n; i++) // the state x = F X, set directly (no public setter)
        for (int c = 0; c < 3; c++)
            w->x[3 * i + c] = STRETCH[c] * w->x_rest[3 * i + c];
    return w;
}

/// Diagonal Cauchy stress and energy density of F = diag(f) for `model`, in closed form.
static void analytic(ipcc_material_model model, double mu, double lambda, const double f[3], double sigma[3],
                     double *psi) {
    const double J = f[0] * f[1] * f[2], lnJ = log(J);
    double tr_e = 0, e2 = 0;
    switch (model) {
    case IPCC_NEO_HOOKEAN:
        for (int i = 0; i < 3; i++)
            sigma[i] = (mu * (f[i] * f[i] - 1) + lambda * lnJ) / J;
        *psi = mu / 2 * (f[0] * f[0] + f[1] * f[1] + f[2] * f[2] - 3) - mu * lnJ + lambda / 2 * lnJ * lnJ;
        return;
    case IPCC_FIXED_COROTATED:
        for (int i = 0; i < 3; i++) {
            sigma[i] = (2 * mu * (f[i] - 1) * f[i] + lambda * (J - 1) * J) / J;
            e2 += (f[i] - 1) * (f[i] - 1);
        }
        *psi = mu * e2 + lambda / 2 * (J - 1) * (J - 1);
        return;
    case IPCC_STVK:
        for (int i = 0; i < 3; i++) {
            const double e = (f[i] * f[i] - 1) / 2;
            tr_e += e, e2 += e * e;
        }
        for (int i = 0; i < 3; i++)
            sigma[i] = f[i] * (2 * mu * (f[i] * f[i] - 1) / 2 + lambda * tr_e) * f[i] / J;
        *psi = mu * e2 + lambda / 2 * tr_e * tr_e;
        return;
    case IPCC_LINEAR:
        for (int i = 0; i < 3; i++)
            tr_e += f[i] - 1, e2 += (f[i] - 1) * (f[i] - 1);
        for (int i = 0; i < 3; i++)
            sigma[i] = (2 * mu * (f[i] - 1) + lambda * tr_e) * f[i] / J;
        *psi = mu * e2 + lambda / 2 * tr_e * tr_e;
        return;
    }
    fail_msg("unknown model %d", (int)model);
}

/// The appended block of the array `name` in a raw (uncompressed) .vtu held in buf.
static const unsigned char *raw_array(const char *buf, size_t size, const char *name, uint64_t *bytes) {
    char key[64];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
    const char *tag = strstr(buf, key);
    if (!tag) fail_msg("no array \"%s\"", name);
    assert_true(app && tag < app);
    const unsigned char *base = (const unsigned char *)strchr(app, '_') + 1;
    unsigned long long offset = strtoull(strstr(tag, "offset=\"") + 8, NULL, 10);
    assert_true((size_t)(base - (const unsigned char *)buf) + offset + 8 <= size);
    memcpy(bytes, base + offset, 8);
    assert_true((size_t)(base - (const unsigned char *)buf) + offset + 8 + *bytes <= size);
    return base + offset + 8;
}

/// The components attribute of array `name` (1 when absent).
static int components(const char *buf, const char *name) {
    char key[64];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *tag = strstr(buf, key);
    if (!tag) fail_msg("no array \"%s\"", name);
    const char *end = strstr(tag, "/>"), *c = strstr(tag, "NumberOfComponents=\"");
    return c && c < end ? atoi(c + 20) : 1;
}

static double get(const unsigned char *p, size_t k) {
    double v;
    memcpy(&v, p + 8 * k, 8);
    return v;
}

static char *write_one_frame(ipcc_world *w, const char *dir, bool compress, size_t *size) {
    ipcc_output *out = NULL;
    assert_int_equal(ipcc_output_create(dir, &out), IPCC_OK);
    assert_int_equal(ipcc_output_set_compress(out, compress), IPCC_OK);
    assert_int_equal(ipcc_output_write_frame(out, w), IPCC_OK);
    ipcc_output_destroy(out);
    char path[512];
    snprintf(path, sizeof path, "%s/frame_000000.vtu", dir);
    return ipcc_test_read_file(path, size);
}

static void test_stretched_box_fields(void **state) {
    (void)state;
    static const ipcc_material_model models[4] = {IPCC_NEO_HOOKEAN, IPCC_FIXED_COROTATED, IPCC_STVK,
                                                  IPCC_LINEAR};
    char dir[64];
    strcpy(dir, "/tmp/ipcc_test_world_fields_XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (int m = 0; m < 4; m++) {
        const double density = 1234.5;
        ipcc_world *w = stretched_box(models[m], 2, density);
        const int nv = ipcc_world_num_vertices(w), nt = ipcc_world_num_tets(w);
        ipcc_material mat = ipcc_default_body_def().material;
        double mu, lambda, sigma[3] = {0, 0, 0}, psi = 0;
        ipcc_lame_parameters(mat.youngs_modulus, mat.poisson_ratio, &mu, &lambda);
        analytic(models[m], mu, lambda, STRETCH, sigma, &psi);
        const double J = STRETCH[0] * STRETCH[1] * STRETCH[2];
        const double vm = fabs(sigma[0] - sigma[1]); // sigma_22 = sigma_33: sqrt(3 J2) = |s11 - s22|
        const double scale = fabs(sigma[0]) + fabs(sigma[1]) + vm;
        assert_true(scale > 1e3 && psi > 0); // a real stress, not zeros

        size_t size;
        char *buf = write_one_frame(w, dir, false, &size);
        uint64_t bytes;
        assert_int_equal(components(buf, "volume_ratio"), 1);
        assert_int_equal(components(buf, "cauchy_stress"), 9);
        assert_int_equal(components(buf, "von_mises"), 1);
        assert_int_equal(components(buf, "energy_density"), 1);
        assert_int_equal(components(buf, "mass"), 1);
        const unsigned char *jr = raw_array(buf, size, "volume_ratio", &bytes);
        assert_int_equal(bytes, 8 * (uint64_t)nt);
        const unsigned char *cs = raw_array(buf, size, "cauchy_stress", &bytes);
        assert_int_equal(bytes, 72 * (uint64_t)nt);
        const unsigned char *vr = raw_array(buf, size, "von_mises", &bytes);
        assert_int_equal(bytes, 8 * (uint64_t)nt);
        const unsigned char *er = raw_array(buf, size, "energy_density", &bytes);
        assert_int_equal(bytes, 8 * (uint64_t)nt);
        const unsigned char *mr = raw_array(buf, size, "mass", &bytes);
        assert_int_equal(bytes, 8 * (uint64_t)nv);
        for (int e = 0; e < nt; e++) {
            assert_near(get(jr, e), J, 0, 1e-13);
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++)
                    assert_near(get(cs, 9 * (size_t)e + 3 * i + k), i == k ? sigma[i] : 0, 1e-10 * scale, 0);
            assert_near(get(vr, e), vm, 1e-10 * scale, 0);
            assert_near(get(er, e), psi, 0, 1e-10);
        }
        double total = 0;
        for (int i = 0; i < nv; i++) {
            assert_true(get(mr, i) > 0);
            assert_memory_equal(mr + 8 * (size_t)i, &ipcc_world_masses(w)[i], 8);
            total += get(mr, i);
        }
        assert_near(total, density * 0.4 * 0.2 * 0.2, 0, 1e-12);
        free(buf);
        ipcc_world_destroy(w);
    }
    ipcc_test_remove_tree(dir);
}

/// Inflate the compressed block of array `name` (VTK's zlib layout, UInt64 words); malloc'ed, *bytes long.
static unsigned char *inflate_array(const char *buf, size_t size, const char *name, uint64_t *bytes,
                                    int *blocks) {
    char key[64];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *app = strstr(buf, "<AppendedData encoding=\"raw\">");
    const char *tag = strstr(buf, key);
    if (!tag) fail_msg("no array \"%s\"", name);
    assert_true(app && tag < app);
    const unsigned char *base = (const unsigned char *)strchr(app, '_') + 1;
    const unsigned char *h = base + strtoull(strstr(tag, "offset=\"") + 8, NULL, 10);
    uint64_t nb, bs, last;
    memcpy(&nb, h, 8);
    memcpy(&bs, h + 8, 8);
    memcpy(&last, h + 16, 8);
    assert_int_equal(bs, 32768);
    assert_true(last < bs);
    *bytes = nb == 0 ? 0 : (nb - 1) * bs + (last ? last : bs);
    *blocks = (int)nb;
    unsigned char *out = malloc(*bytes + 1);
    const unsigned char *src = h + 8 * (3 + nb);
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t c;
        memcpy(&c, h + 8 * (3 + b), 8);
        assert_true((size_t)(src - (const unsigned char *)buf) + c <= size);
        uLongf got = (uLongf)(b + 1 < nb || !last ? bs : last);
        assert_int_equal(uncompress(out + b * bs, &got, src, (uLong)c), Z_OK);
        assert_int_equal(got, b + 1 < nb || !last ? bs : last);
        src += c;
    }
    return out;
}

static void test_compressed_frame_equals_raw(void **state) {
    (void)state;
    char raw_dir[64], zip_dir[64];
    strcpy(raw_dir, "/tmp/ipcc_test_world_fields_XXXXXX");
    strcpy(zip_dir, raw_dir);
    assert_non_null(mkdtemp(raw_dir));
    assert_non_null(mkdtemp(zip_dir));
    ipcc_world *w = stretched_box(IPCC_NEO_HOOKEAN, 6, 1000);
    size_t raw_size, zip_size;
    char *raw = write_one_frame(w, raw_dir, false, &raw_size);
    char *zip = write_one_frame(w, zip_dir, true, &zip_size);
    assert_null(strstr(raw, "compressor="));
    assert_non_null(strstr(zip, "compressor=\"vtkZLibDataCompressor\""));
    assert_true(zip_size < raw_size / 2);
    static const char *const names[] = {"TimeValue",     "length_scale",   "velocity",  "displacement",
                                        "contact_force", "friction_force", "mass",      "body_id",
                                        "volume_ratio",  "cauchy_stress",  "von_mises", "energy_density",
                                        "Points",        "connectivity",   "offsets",   "types"};
    int most_blocks = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        uint64_t want, got;
        int blocks;
        const unsigned char *r = raw_array(raw, raw_size, names[k], &want);
        unsigned char *z = inflate_array(zip, zip_size, names[k], &got, &blocks);
        if (got != want)
            fail_msg("%s: %llu bytes inflated, %llu raw", names[k], (unsigned long long)got,
                     (unsigned long long)want);
        assert_memory_equal(z, r, want);
        most_blocks = blocks > most_blocks ? blocks : most_blocks;
        free(z);
    }
    assert_true(most_blocks >= 3); // the stress spans several blocks
    free(raw);
    free(zip);
    ipcc_world_destroy(w);
    ipcc_test_remove_tree(raw_dir);
    ipcc_test_remove_tree(zip_dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stretched_box_fields),
        cmocka_unit_test(test_compressed_frame_equals_raw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
