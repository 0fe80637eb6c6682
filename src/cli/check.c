// ipcc check SCENE [--set K=V]... [--strict]: validate a scene without
// simulating it (scene, meshes, materials, the initial intersection check)
// and print a summary of what the world holds (docs/cli.md): one line per
// thing of the scene, in the contact report's object order (deformable
// bodies and mesh obstacles, half-spaces, analytic shapes), then the totals.
//
// A box's edges and a cylinder's rims are a segment-set body of the world
// (ipcc_world_body_shape() >= 0); they are part of their shape and are not
// listed, nor counted, as an obstacle of their own.
#include "cli/check.h"

#include <math.h>
#include <stdio.h>

#include "ipcc/ipcc.h"

#include "cli/common.h"

/// Print a shape's kind and size (metres), e.g. "box  crate  half-extents 0.3 x 0.2 x 0.1 m".
static void check_print_shape(const ipcc_world *w, int i) {
    const ipcc_shape_def *d = ipcc_world_shape_def(w, i);
    const double *s = d->size;
    double c[3];
    ipcc_world_shape_pose(w, i, c, NULL);
    switch (d->kind) {
    case IPCC_SHAPE_SPHERE: printf("  %-11s %-22s radius %g m", "sphere", d->name, s[0]); break;
    case IPCC_SHAPE_BOX:
        printf("  %-11s %-22s half-extents %g x %g x %g m", "box", d->name, s[0], s[1], s[2]);
        break;
    case IPCC_SHAPE_CYLINDER:
        printf("  %-11s %-22s radius %g m, half-length %g m", "cylinder", d->name, s[0], s[1]);
        break;
    case IPCC_SHAPE_ELLIPSOID:
        printf("  %-11s %-22s semi-axes %g x %g x %g m", "ellipsoid", d->name, s[0], s[1], s[2]);
        break;
    case IPCC_SHAPE_TORUS:
        printf("  %-11s %-22s major radius %g m, minor radius %g m", "torus", d->name, s[0], s[1]);
        break;
    case IPCC_SHAPE_PLANE: { // a moving half-space: its normal is the local z axis
        const double *R = d->rotation, *v = d->velocity, *om = d->angular_velocity;
        printf("  %-11s %-22s point (%g, %g, %g), normal (%g, %g, %g), moving at (%g, %g, %g) m/s, (%g, %g, "
               "%g) rad/s\n",
               "half-space", d->name, c[0], c[1], c[2], R[2], R[5], R[8], v[0], v[1], v[2], om[0], om[1],
               om[2]);
        return;
    }
    case IPCC_SHAPE_HEIGHT_FIELD: { // the grid's size and extent, its height range
        double lo = INFINITY, hi = -INFINITY;
        for (long k = 0; k < (long)d->rows * d->cols; ++k)
            lo = fmin(lo, d->heights[k]), hi = fmax(hi, d->heights[k]);
        printf("  %-11s %-22s %d x %d samples, %g x %g m, heights %g to %g m", "height_field", d->name,
               d->rows, d->cols, (d->cols - 1) * d->spacing[0], (d->rows - 1) * d->spacing[1], lo, hi);
        break;
    }
    }
    printf(", centre (%g, %g, %g)\n", c[0], c[1], c[2]);
}

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
    const int nb = ipcc_world_num_bodies(world), nh = ipcc_world_num_half_spaces(world),
              ns = ipcc_world_num_shapes(world);
    const int *tet_body = ipcc_world_tet_bodies(world);
    int bodies = 0, body_vertices = 0, body_faces = 0, obstacles = 0, obstacle_vertices = 0,
        obstacle_faces = 0;
    for (int b = 0; b < nb; ++b) {
        if (ipcc_world_body_shape(world, b) >= 0) continue; // a shape's edges or rims: listed as the shape
        int first, count, nf, tets = 0;
        ipcc_world_body_vertices(world, b, &first, &count);
        ipcc_world_body_surface(world, b, &nf, NULL);
        for (int t = 0; t < ipcc_world_num_tets(world); ++t)
            tets += tet_body[t] == b;
        const bool obstacle = ipcc_world_body_is_obstacle(world, b);
        if (obstacle) {
            obstacles++, obstacle_vertices += count, obstacle_faces += nf;
        } else {
            bodies++, body_vertices += count, body_faces += nf;
        }
        printf("  %-11s %-22s %8d vertices %8d tets %8d surface triangles\n", obstacle ? "obstacle" : "body",
               ipcc_world_body_name(world, b), count, tets, nf);
    }
    for (int h = 0; h < nh; ++h) {
        double p[3], n[3];
        char name[128];
        ipcc_world_half_space(world, h, p, n);
        ipcc_world_contact_object_name(world, ipcc_world_contact_object_of_half_space(world, h), name,
                                       sizeof name);
        printf("  %-11s %-22s point (%g, %g, %g), normal (%g, %g, %g)\n", "half-space", name, p[0], p[1],
               p[2], n[0], n[1], n[2]);
    }
    int planes = 0; // moving half-spaces are shapes in the world, half-spaces to the user
    for (int i = 0; i < ns; ++i) {
        check_print_shape(world, i);
        planes += ipcc_world_shape_def(world, i)->kind == IPCC_SHAPE_PLANE;
    }
    printf(
        "  total: %d bodies, %d vertices, %d tets, %d surface triangles; %d mesh obstacles (%d vertices, %d "
        "triangles), %d half-spaces, %d shapes\n",
        bodies, body_vertices, ipcc_world_num_tets(world), body_faces, obstacles, obstacle_vertices,
        obstacle_faces, nh + planes, ns - planes);
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
