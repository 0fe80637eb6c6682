// The output's private state (output_state.h) and the two helpers that both
// of its writers, output.c (frames) and output_stats.c (stats.csv), share:
// a file's path in the output folder, built in the output's scratch buffer
// (sized at creation for the longest name, OUTPUT_NAME_MAX), and the names
// of the world's contact objects, gathered into buffers that persist and
// grow. Neither fails but for memory (the names: -1, nothing recorded; the
// callers name the file they were writing).
#include "output/output_state.h"

#include <stdio.h>

#include "base/core.h"

const char *ipcc_output_path(ipcc_output *o, const char *name) {
    sprintf(o->path, "%s/%s", o->dir, name);
    return o->path;
}

int ipcc_output_object_names(ipcc_output *o, const ipcc_world *w) {
    const int no = ipcc_world_num_contact_objects(w);
    int total = 0;
    for (int i = 0; i < no; i++)
        total += ipcc_world_contact_object_name(w, i, NULL, 0) + 1;
    if (ipcc_reserve((void **)&o->names, &o->names_cap, total + 1, 1) != 0 ||
        ipcc_reserve((void **)&o->name_list, &o->name_list_cap, no + 1, sizeof *o->name_list) != 0)
        return -1;
    char *at = o->names;
    for (int i = 0; i < no; i++) {
        int len = ipcc_world_contact_object_name(w, i, at, (size_t)(o->names + total + 1 - at));
        o->name_list[i] = at;
        at += len + 1;
    }
    return 0;
}
