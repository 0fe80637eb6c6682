// libFuzzer harness for the triangle and codimensional mesh readers
// (src/mesh/mesh_obj.c). The input is one file, read three ways, as the scene's
// obstacles read it: ipcc_trimesh_read_obj() (and, when it reads, the
// segment set of its edges, as a "segments" obstacle built from an .obj),
// ipcc_trimesh_read_seg() and ipcc_trimesh_read_points(). Seeds:
// tests/fuzz/corpus/obj.
#include "fuzz_common.h"

typedef ipcc_status read_fn(const char *path, ipcc_trimesh **out);

static void read_one(read_fn *read, const char *path) {
    ipcc_trimesh *m = NULL;
    ipcc_clear_error();
    ipcc_status s = read(path, &m);
    if (s != IPCC_OK) {
        fuzz_check_failure(s, m, path);
        return;
    }
    fuzz_check_trimesh(m);
    if (read == ipcc_trimesh_read_obj) {
        ipcc_trimesh *edges = NULL;
        ipcc_clear_error();
        s = ipcc_trimesh_create_segments(m->num_vertices, m->vertices, m->num_edges, m->edges, path, &edges);
        if (s != IPCC_OK) fuzz_fail("the edges of a triangle mesh are not a segment set", ipcc_last_error());
        fuzz_check_trimesh(edges);
        if (edges->num_edges != m->num_edges) fuzz_fail("segment set", "edge count changed");
        ipcc_trimesh_destroy(edges);
    }
    ipcc_trimesh_destroy(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *path;
    fuzz_init();
    if (!path) path = fuzz_scratch("obj", ".obj");
    fuzz_write(path, data, size);
    read_one(ipcc_trimesh_read_obj, path);
    read_one(ipcc_trimesh_read_seg, path);
    read_one(ipcc_trimesh_read_points, path);
    return 0;
}
