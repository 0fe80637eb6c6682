// libFuzzer harness for the Gmsh .msh reader (src/mesh/mesh_gmsh.c): 2.2 and 4.1,
// ASCII and binary. The input is the whole file, written to a scratch .msh
// and read with ipcc_mesh_read(); a mesh that reads is checked against
// ipcc_mesh's documented invariants and measured with ipcc_mesh_compute_quality()
// (the `ipcc info` path). Seeds: tests/fuzz/corpus/msh.
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *path;
    fuzz_init();
    if (!path) path = fuzz_scratch("msh", ".msh");
    fuzz_write(path, data, size);
    ipcc_mesh *m = NULL;
    ipcc_clear_error();
    ipcc_status s = ipcc_mesh_read(path, &m);
    if (s != IPCC_OK) {
        fuzz_check_failure(s, m, path);
        return 0;
    }
    fuzz_check_mesh(m);
    ipcc_mesh_quality q;
    int bad[4];
    ipcc_mesh_compute_quality(m, &q, 4, bad);
    for (int i = 0; i < q.num_bad && i < 4; i++)
        if (bad[i] < 0 || bad[i] >= m->num_tets) fuzz_fail("mesh quality", "bad tet index out of range");
    ipcc_mesh_destroy(m);
    return 0;
}
