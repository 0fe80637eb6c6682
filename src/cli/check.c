// ipcc check SCENE [--set K=V]... [--strict]: validate a scene without
// simulating it (scene, meshes, materials, the initial intersection check)
// and print a summary of what the world holds (docs/cli.md).
#include <stdio.h>

#include "ipcc/ipcc.h"

#include "commands.h"

int ipcc_cli_check(int argc, char **argv) {
    const char *scene_path = NULL;
    ipcc_scene_options opt = {.strict = false};
    for (int i = 0; i < argc; ++i)
        if (ipcc_cli_take_common(argc, argv, &i, &opt, &scene_path) < 0) return IPCC_EXIT_USAGE;
    if (!scene_path) return fprintf(stderr, "ipcc: error: check needs a scene file\n"), IPCC_EXIT_USAGE;
    ipcc_scene *scene;
    ipcc_world *world;
    if (ipcc_cli_load_world(scene_path, &opt, true, &scene, &world) != 0) return IPCC_EXIT_USAGE;
    printf("%s: ok (%s scene)\n", scene_path, scene->format ? scene->format : "json");
    int nb = ipcc_world_num_bodies(world), total_faces = 0;
    const int *tet_body = ipcc_world_tet_bodies(world);
    for (int b = 0; b < nb; ++b) {
        int first, count, nf;
        ipcc_world_body_vertices(world, b, &first, &count);
        ipcc_world_body_surface(world, b, &nf, NULL);
        int tets = 0;
        for (int t = 0; t < ipcc_world_num_tets(world); ++t)
            tets += tet_body[t] == b;
        total_faces += nf;
        printf("  %-9s %-24s %8d vertices %8d tets %8d surface triangles\n",
               ipcc_world_body_is_obstacle(world, b) ? "obstacle" : "body", ipcc_world_body_name(world, b),
               count, tets, nf);
    }
    printf("  total: %d bodies, %d vertices, %d tets, %d surface triangles, %d half-spaces\n", nb,
           ipcc_world_num_vertices(world), ipcc_world_num_tets(world), total_faces,
           ipcc_world_num_half_spaces(world));
    double kmin, kmax, h = ipcc_world_time_step(world);
    printf("  L = %.6g m, d-hat = %.6g m, h = %g s", ipcc_world_bbox_diagonal(world), ipcc_world_dhat(world),
           h);
    if (ipcc_world_kappa_bounds(world, &kmin, &kmax))
        printf(kmin == kmax ? ", kappa = %.6g (fixed)\n" : ", kappa in [%.6g, %.6g] (adaptive)\n", kmin,
               kmax);
    else
        printf(", no contact\n");
    ipcc_world_destroy(world);
    ipcc_scene_destroy(scene);
    return 0;
}
