// What bindings in other languages need to check their mirrors of the
// public structs (python/ipcc/_lib.py).
#include <string.h>

#include "ipcc/contact_report.h"
#include "ipcc/world.h"

size_t ipcc_struct_size(const char *name) {
    if (!name) return 0;
    if (strcmp(name, "ipcc_step_stats") == 0) return sizeof(ipcc_step_stats);
    if (strcmp(name, "ipcc_contact_record") == 0) return sizeof(ipcc_contact_record);
    if (strcmp(name, "ipcc_energies") == 0) return sizeof(ipcc_energies);
    return 0;
}
