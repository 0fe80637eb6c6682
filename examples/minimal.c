// The smallest ipcc program: a soft cube dropped under gravity, written as
// VTK frames. Uses only the public API (include/ipcc/ipcc.h).
//   build/release/example_minimal out/minimal
#include <stdio.h>

#include "ipcc/ipcc.h"

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "out/minimal";
    ipcc_mesh *mesh = NULL;
    double size[3] = {0.2, 0.2, 0.2};
    if (ipcc_mesh_create_box(4, 4, 4, size, &mesh) != IPCC_OK) goto fail;

    ipcc_world_def def = ipcc_default_world_def(); // h = 0.01 s, gravity -9.81 y
    ipcc_world *world = NULL;
    if (ipcc_world_create(&def, &world) != IPCC_OK) goto fail;

    ipcc_body_def body = ipcc_default_body_def(); // Neo-Hookean rubber
    body.name = "cube";
    body.mesh = mesh;               // copied: the mesh can be freed after
    body.angular_velocity[2] = 3.0; // spin about z while falling
    if (ipcc_world_add_body(world, &body, NULL) != IPCC_OK) goto fail;
    ipcc_mesh_destroy(mesh);
    mesh = NULL;
    if (ipcc_world_start(world) != IPCC_OK) goto fail; // after the last body: checks the initial state

    ipcc_output *out = NULL;
    if (ipcc_output_create(dir, &out) != IPCC_OK || ipcc_output_write_frame(out, world) != IPCC_OK) goto fail;
    for (int step = 0; step < 50; ++step) {
        ipcc_step_stats stats;
        if (ipcc_world_step(world, &stats) < 0) goto fail;
        if (ipcc_output_write_frame(out, world) != IPCC_OK) goto fail;
        printf("t = %.2f s, %d Newton iterations\n", stats.time, stats.newton_iterations);
    }
    printf("frames in %s/frames.pvd\n", dir);
    ipcc_output_destroy(out);
    ipcc_world_destroy(world);
    return 0;
fail:
    fprintf(stderr, "example_minimal: %s\n", ipcc_last_error());
    ipcc_mesh_destroy(mesh);
    return 1;
}
