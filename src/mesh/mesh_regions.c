// Regions of a tet mesh: per-tet region numbers and the names of regions.
//
// A region is a set of tets that share a number: a Gmsh physical group of
// dimension 3 or a TetGen region attribute (the readers in mesh_gmsh.c and
// mesh_tetgen.c collect them). Number 0 means "no region"; any other int is
// a region, named or not. The region list is the union of the numbers the
// tets carry and the numbers that have a name (a physical group may be
// named and hold no tets), ascending, so scenes can address a region by its
// name or by its number (ipcc_mesh_find_region()).
//
// Failures: names must be non-empty and unique in both directions (one name
// per number, one number per name); a name for region 0 is refused. Every
// check runs before the mesh changes, so a failure leaves it as it was.
#include "ipcc/mesh.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"

static int compare_ints(const void *pa, const void *pb) {
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

static char *copy_string(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static ipcc_status check_names(int num_names, const int *numbers, const char *const *names) {
    for (int i = 0; i < num_names; i++) {
        if (!names[i] || !names[i][0])
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "region %d has an empty name", numbers[i]);
        if (numbers[i] == 0)
            return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT,
                             "region name \"%s\" is given to number 0, which means no region", names[i]);
        for (int j = 0; j < i; j++) {
            if (numbers[j] == numbers[i])
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "region %d is named twice (\"%s\" and \"%s\")",
                                 numbers[i], names[j], names[i]);
            if (strcmp(names[j], names[i]) == 0)
                return ipcc_fail(IPCC_ERR_INVALID_ARGUMENT, "region name \"%s\" is given to %d and %d",
                                 names[i], numbers[j], numbers[i]);
        }
    }
    return IPCC_OK;
}

ipcc_status ipcc_mesh_set_regions(ipcc_mesh *mesh, const int *tet_regions, int num_names,
                                  const int *name_numbers, const char *const *names) {
    IPCC_ASSERT(mesh != NULL);
    IPCC_ASSERT(num_names >= 0 && (num_names == 0 || (name_numbers && names)));
    ipcc_status st = check_names(num_names, name_numbers, names);
    if (st != IPCC_OK) return st;

    // Distinct non-zero numbers of the tets and the names, ascending.
    int nt = mesh->num_tets;
    int *all = malloc(((size_t)nt + (size_t)num_names + 1) * sizeof *all);
    int *copy = malloc(((size_t)nt + 1) * sizeof *copy);
    if (!all || !copy) {
        free(all);
        free(copy);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for regions");
    }
    int n = 0;
    for (int t = 0; t < nt; t++) {
        copy[t] = tet_regions ? tet_regions[t] : 0;
        if (copy[t] != 0) all[n++] = copy[t];
    }
    for (int i = 0; i < num_names; i++)
        all[n++] = name_numbers[i];
    qsort(all, (size_t)n, sizeof *all, compare_ints);
    int distinct = 0;
    for (int i = 0; i < n; i++)
        if (distinct == 0 || all[distinct - 1] != all[i]) all[distinct++] = all[i];

    char **region_names = calloc((size_t)distinct + 1, sizeof *region_names);
    if (!region_names) {
        free(all);
        free(copy);
        return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for regions");
    }
    for (int i = 0; i < num_names; i++) {
        const int *hit = bsearch(&name_numbers[i], all, (size_t)distinct, sizeof *all, compare_ints);
        size_t k = (size_t)(hit - all);
        if (!(region_names[k] = copy_string(names[i]))) {
            for (int j = 0; j < distinct; j++)
                free(region_names[j]);
            free(region_names);
            free(all);
            free(copy);
            return ipcc_fail(IPCC_ERR_NO_MEMORY, "out of memory for region names");
        }
    }

    if (distinct == 0) { // every tet 0, nothing named: no regions
        IPCC_FREE(copy);
        IPCC_FREE(all);
        IPCC_FREE(region_names);
    }
    free(mesh->tet_regions);
    free(mesh->region_numbers);
    for (int i = 0; mesh->region_names && i < mesh->num_regions; i++)
        free(mesh->region_names[i]);
    free(mesh->region_names);
    mesh->tet_regions = copy;
    mesh->num_regions = distinct;
    mesh->region_numbers = all;
    mesh->region_names = region_names;
    return IPCC_OK;
}

int ipcc_mesh_region_index(const ipcc_mesh *mesh, int number) {
    IPCC_ASSERT(mesh);
    if (number == 0 || mesh->num_regions == 0) return -1;
    const int *hit =
        bsearch(&number, mesh->region_numbers, (size_t)mesh->num_regions, sizeof number, compare_ints);
    return hit ? (int)(hit - mesh->region_numbers) : -1;
}

int ipcc_mesh_find_region(const ipcc_mesh *mesh, const char *key) {
    IPCC_ASSERT(mesh && key);
    for (int i = 0; i < mesh->num_regions; i++)
        if (mesh->region_names[i] && strcmp(mesh->region_names[i], key) == 0) return i;
    char *end;
    errno = 0;
    long v = strtol(key, &end, 10);
    if (!key[0] || *end || errno || v < INT_MIN || v > INT_MAX || v == 0) return -1;
    return ipcc_mesh_region_index(mesh, (int)v);
}
