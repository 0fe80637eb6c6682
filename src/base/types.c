// The public types (include/ipcc/types.h): every default of the public API
// in one file, the ipcc_default_*() functions of the defs, and the structs'
// sizes for bindings in other languages (ipcc_struct_size).
//
// A def is a plain struct the caller fills and passes by pointer; the
// library copies it and never keeps it. Each default function returns the
// documented defaults (the values in parentheses in types.h) and sets the
// def's internal_value to IPCC_DEF_COOKIE (core.h). Every function that
// takes a def asserts the cookie (IPCC_CHECK_DEF), so a def that did not
// start here (a zeroed struct, stack garbage, a struct literal) is a
// programmer error stopped at the call with the name of the function to
// use, rather than an IPCC_ERR_INVALID_ARGUMENT about a field the caller
// never set (a zeroed Neumann condition has end = 0 <= start) or a silent
// zero where zero is valid (a half-space's friction 0 instead of -1, "not
// set"). Nested structs that are never passed on their own (the
// material, the contact parameters, a stop trigger) carry no cookie: their
// defaults come with the def that holds them.
#include <string.h>

#include "base/core.h"
#include "ipcc/contact_report.h"
#include "ipcc/types.h"

ipcc_world_def ipcc_default_world_def(void) {
    ipcc_world_def d = {.time_step = 0.01,
                        .gravity = {0, -9.81, 0},
                        .integrator = IPCC_IMPLICIT_EULER,
                        .newton_tolerance = 1e-2,
                        .newton_max_iterations = 1000,
                        .newton_max_splits = 3,
                        .newton_check_forces = true,
                        .project_hessian = true,
                        .contact = {.enabled = true,
                                    .dhat = 0,
                                    .kappa = 0,
                                    .self_collision = true,
                                    .friction = -1,
                                    .friction_epsv = 0,
                                    .friction_iterations = -1,
                                    .friction_smoothing_time = 0},
                        .newmark_beta = 0.25,
                        .newmark_gamma = 0.5,
                        .internal_value = IPCC_DEF_COOKIE};
    return d;
}

ipcc_material ipcc_default_material(void) {
    ipcc_material m = {
        .model = IPCC_NEO_HOOKEAN, .density = 1000, .youngs_modulus = 1e5, .poisson_ratio = 0.4};
    return m;
}

ipcc_body_def ipcc_default_body_def(void) {
    ipcc_body_def b = {.name = NULL,
                       .mesh = NULL,
                       .material = ipcc_default_material(),
                       .scale = {1, 1, 1},
                       .internal_value = IPCC_DEF_COOKIE};
    return b;
}

ipcc_dirichlet_def ipcc_default_dirichlet_def(void) {
    ipcc_dirichlet_def d = {.box_min = {0, 0, 0},
                            .box_max = {1, 1, 1},
                            .start = 0,
                            .end = 1e30,
                            .stop = {.axis = -1},
                            .internal_value = IPCC_DEF_COOKIE};
    return d;
}

ipcc_neumann_def ipcc_default_neumann_def(void) {
    ipcc_neumann_def d = {.box_min = {0, 0, 0},
                          .box_max = {1, 1, 1},
                          .start = 0,
                          .end = 1e30,
                          .internal_value = IPCC_DEF_COOKIE};
    return d;
}

ipcc_obstacle_def ipcc_default_obstacle_def(void) {
    ipcc_obstacle_def d = {.name = NULL,
                           .mesh = NULL,
                           .scale = {1, 1, 1},
                           .stop = {.axis = -1},
                           .internal_value = IPCC_DEF_COOKIE};
    return d;
}

ipcc_half_space_def ipcc_default_half_space_def(void) {
    ipcc_half_space_def d = {
        .point = {0, 0, 0}, .normal = {0, 1, 0}, .friction = -1, .internal_value = IPCC_DEF_COOKIE};
    return d;
}

ipcc_shape_def ipcc_default_shape_def(void) {
    ipcc_shape_def d = {.kind = IPCC_SHAPE_SPHERE,
                        .rotation = {1, 0, 0, 0, 1, 0, 0, 0, 1},
                        .size = {1, 1, 1},
                        .friction = -1,
                        .spacing = {1, 1},
                        .face_samples = -1,
                        .internal_value = IPCC_DEF_COOKIE};
    return d;
}

size_t ipcc_struct_size(const char *name) {
    if (!name) return 0;
    if (strcmp(name, "ipcc_step_stats") == 0) return sizeof(ipcc_step_stats);
    if (strcmp(name, "ipcc_contact_record") == 0) return sizeof(ipcc_contact_record);
    if (strcmp(name, "ipcc_energies") == 0) return sizeof(ipcc_energies);
    return 0;
}
