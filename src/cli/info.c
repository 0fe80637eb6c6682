// ipcc info MESH: what a mesh file holds and how good its tets are
// (docs/cli.md): counts, reoriented tets and dropped vertices, the bounding
// box and volume, edge lengths, dihedral angles and aspect ratios, the
// regions with their tet counts, and the first ten bad tets. A mesh that
// cannot be read exits 1 with the reader's message.
#include "cli/info.h"

#include <stdio.h>
#include <string.h>

#include "ipcc/ipcc.h"

#include "cli/common.h"

int ipcc_cli_info(int argc, char **argv) {
    if (argc != 1 || argv[0][0] == '-')
        return fprintf(stderr, "ipcc: error: info needs exactly one mesh file\n"), IPCC_EXIT_USAGE;
    const char *path = argv[0];
    ipcc_mesh *mesh = NULL;
    if (ipcc_mesh_read(path, &mesh) != IPCC_OK) return ipcc_cli_fail(IPCC_EXIT_USAGE, "cannot read mesh");
    ipcc_mesh_quality q;
    int bad[10];
    ipcc_mesh_compute_quality(mesh, &q, 10, bad);
    printf("%s: %d vertices, %d tets, %d boundary triangles, %d boundary edges, %d surface vertices\n", path,
           mesh->num_vertices, mesh->num_tets, mesh->num_faces, mesh->num_edges, mesh->num_surface_vertices);
    if (mesh->num_reoriented || mesh->num_unreferenced)
        printf("  %d tets reoriented, %d unreferenced vertices dropped\n", mesh->num_reoriented,
               mesh->num_unreferenced);
    printf("  bbox [%g, %g] x [%g, %g] x [%g, %g] m, volume %.6g m^3 (smallest tet %.3g)\n", q.bbox_min[0],
           q.bbox_max[0], q.bbox_min[1], q.bbox_max[1], q.bbox_min[2], q.bbox_max[2], q.volume, q.min_volume);
    printf("  edges %.4g to %.4g m; dihedral angles %.2f to %.2f deg (regular tet: 70.53); aspect ratio max "
           "%.3g (tet %d), mean %.3g (regular tet: 1)\n",
           q.min_edge, q.max_edge, q.min_dihedral, q.max_dihedral, q.max_aspect, q.worst_tet, q.mean_aspect);
    if (mesh->tet_regions) { // each region: its number, name and tet count (0: tets in no region)
        printf("  %d regions:", mesh->num_regions);
        int none = 0;
        for (int t = 0; t < mesh->num_tets; ++t)
            none += mesh->tet_regions[t] == 0;
        for (int r = 0; r < mesh->num_regions; ++r) {
            int count = 0;
            for (int t = 0; t < mesh->num_tets; ++t)
                count += mesh->tet_regions[t] == mesh->region_numbers[r];
            printf("%s %d", r ? "," : "", mesh->region_numbers[r]);
            if (mesh->region_names[r]) printf(" \"%s\"", mesh->region_names[r]);
            printf(" (%d tets)", count);
        }
        if (none) printf(", %d tets in no region", none);
        printf("\n");
    }
    printf("  %d bad tets (a dihedral angle < 5 or > 170 deg, or aspect ratio > 10)\n", q.num_bad);
    for (int i = 0; i < q.num_bad && i < 10; ++i) {
        double x[12], lo, hi, aspect;
        for (int k = 0; k < 4; ++k)
            memcpy(x + 3 * k, mesh->vertices + 3 * mesh->tets[4 * bad[i] + k], 3 * sizeof(double));
        ipcc_tet_quality(x, &lo, &hi, &aspect);
        printf("    tet %d (vertices %d %d %d %d): dihedral %.2f to %.2f deg, aspect %.3g\n", bad[i],
               mesh->tets[4 * bad[i]], mesh->tets[4 * bad[i] + 1], mesh->tets[4 * bad[i] + 2],
               mesh->tets[4 * bad[i] + 3], lo, hi, aspect);
    }
    ipcc_mesh_destroy(mesh);
    return 0;
}
