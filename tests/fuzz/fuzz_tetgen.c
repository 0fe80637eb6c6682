// libFuzzer harness for the TetGen .node/.ele reader (src/mesh/mesh_tetgen.c). The
// input holds both files, the .node first, split at the first
// FUZZ_TETGEN_SEPARATOR; without one, only the .node is written, so the
// missing-sibling path is fuzzed too. Inputs of even length are read through
// the .node path, odd ones through the .ele path (the reader finds the
// sibling either way). Seeds: tests/fuzz/corpus/tetgen.
#include "fuzz_common.h"

#define FUZZ_TETGEN_SEPARATOR "\n=== ele ===\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *node_path, *ele_path;
    fuzz_init();
    if (!node_path) {
        node_path = fuzz_scratch("tetgen", ".node");
        ele_path = fuzz_scratch("tetgen", ".ele");
    }
    const size_t sep_len = sizeof FUZZ_TETGEN_SEPARATOR - 1;
    size_t split = size;
    for (size_t i = 0; i + sep_len <= size; i++)
        if (memcmp(data + i, FUZZ_TETGEN_SEPARATOR, sep_len) == 0) {
            split = i;
            break;
        }
    fuzz_write(node_path, data, split);
    if (split < size)
        fuzz_write(ele_path, data + split + sep_len, size - split - sep_len);
    else
        remove(ele_path);

    // Every message names one of the two files: both share the stem.
    char stem[FUZZ_PATH_LEN];
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(node_path) - 5), node_path);
    ipcc_mesh *m = NULL;
    ipcc_clear_error();
    ipcc_status s = ipcc_mesh_read(size % 2 ? ele_path : node_path, &m);
    if (s != IPCC_OK) {
        fuzz_check_failure(s, m, stem);
        return 0;
    }
    fuzz_check_mesh(m);
    ipcc_mesh_destroy(m);
    return 0;
}
