// Height-field grids from files: CSV text and little-endian raw arrays.
//
// CSV: each non-blank line that does not start with '#' is one row of the
// grid (row r at local y = (r - (rows - 1) / 2) dy, docs/scene-format.md),
// its cells separated by commas, blanks or both, each parsed by strtod and
// required to be finite. Every row must have the first row's length.
// Raw: rows * cols values of 8 (float64) or 4 (float32) bytes, little-endian,
// row-major; the file's size must match exactly. Both are read whole into a
// malloc'ed array; failures name the file (and line / row and column) and
// free what they allocated.
#include "scene/height_field_io.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"

// Append v to the growing array *a (count *n, capacity *cap); -1 when out of memory.
static int push(double **a, size_t *n, size_t *cap, double v) {
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 256;
        double *b = realloc(*a, c * sizeof *b);
        if (!b) return -1;
        *a = b, *cap = c;
    }
    (*a)[(*n)++] = v;
    return 0;
}

ipcc_status ipcc_height_field_read_csv(const char *path, double **heights, int *rows, int *cols) {
    *heights = NULL;
    *rows = *cols = 0;
    FILE *f = fopen(path, "r");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    double *a = NULL;
    size_t n = 0, cap = 0;
    char *line = NULL;
    size_t line_cap = 0;
    int lineno = 0, nr = 0, nc = 0;
    ipcc_status st = IPCC_OK;
    while (getline(&line, &line_cap, f) != -1) {
        ++lineno;
        char *s = line;
        while (*s == ' ' || *s == '\t')
            ++s;
        if (*s == '#' || *s == '\n' || *s == '\r' || *s == '\0') continue;
        int count = 0;
        for (;;) {
            while (*s == ' ' || *s == '\t')
                ++s;
            if (*s == '\n' || *s == '\r' || *s == '\0') break;
            char *end;
            double v = strtod(s, &end);
            if (end == s || !isfinite(v)) {
                int len = 0;
                while (s[len] && s[len] != ',' && s[len] != '\n' && s[len] != '\r' && len < 32)
                    ++len;
                st = ipcc_fail(IPCC_ERR_PARSE, "%s:%d: row %d, column %d: '%.*s' is not a finite number",
                               path, lineno, nr, count, len, s);
                goto done;
            }
            if (push(&a, &n, &cap, v) != 0) {
                st = ipcc_fail(IPCC_ERR_NO_MEMORY, "%s: out of memory", path);
                goto done;
            }
            ++count;
            s = end;
            while (*s == ' ' || *s == '\t')
                ++s;
            if (*s == ',') ++s;
        }
        if (nr == 0) nc = count;
        if (count != nc) {
            st = ipcc_fail(IPCC_ERR_PARSE, "%s:%d: row %d has %d values, the first row has %d (ragged grid)",
                           path, lineno, nr, count, nc);
            goto done;
        }
        ++nr;
    }
    if (nr < 4 || nc < 4)
        st = ipcc_fail(IPCC_ERR_PARSE,
                       "%s: a height field needs at least 4 x 4 samples (got %d rows x %d columns)", path, nr,
                       nc);
done:
    free(line);
    fclose(f);
    if (st != IPCC_OK) {
        free(a);
        return st;
    }
    *heights = a, *rows = nr, *cols = nc;
    return IPCC_OK;
}

ipcc_status ipcc_height_field_read_raw(const char *path, int rows, int cols, bool float32, double **heights) {
    *heights = NULL;
    size_t count = (size_t)rows * (size_t)cols, width = float32 ? 4 : 8;
    FILE *f = fopen(path, "rb");
    if (!f) return ipcc_fail(IPCC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    rewind(f);
    if (size < 0 || (size_t)size != count * width) {
        fclose(f);
        return ipcc_fail(IPCC_ERR_PARSE, "%s: holds %ld bytes, but %d rows x %d columns of %s need %zu", path,
                         size, rows, cols, float32 ? "float32" : "float64", count * width);
    }
    unsigned char *bytes = malloc(count * width + 1);
    double *a = malloc(count * sizeof *a + 1);
    if (!bytes || !a || fread(bytes, 1, count * width, f) != count * width) {
        free(bytes);
        free(a);
        fclose(f);
        return ipcc_fail(bytes && a ? IPCC_ERR_IO : IPCC_ERR_NO_MEMORY, "%s: cannot read %zu bytes", path,
                         count * width);
    }
    fclose(f);
    for (size_t k = 0; k < count; ++k) {
        const unsigned char *b = bytes + k * width;
        uint64_t u = 0;
        for (size_t j = 0; j < width; ++j) // little-endian, whatever the host's order
            u |= (uint64_t)b[j] << (8 * j);
        if (float32) {
            uint32_t u32 = (uint32_t)u;
            float v;
            memcpy(&v, &u32, sizeof v);
            a[k] = v;
        } else {
            memcpy(&a[k], &u, sizeof a[k]);
        }
        if (!isfinite(a[k])) {
            free(bytes);
            free(a);
            return ipcc_fail(IPCC_ERR_PARSE, "%s: the value at row %zu, column %zu is not finite", path,
                             k / (size_t)cols, k % (size_t)cols);
        }
    }
    free(bytes);
    *heights = a;
    return IPCC_OK;
}
