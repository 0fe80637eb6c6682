/// What a contact state is built from (ipcc_contact_setup: the bodies'
/// surfaces, tets and masses, the half-spaces and the shapes, at a state)
/// and its opaque handle, shared by the contact layer's files: contact.h
/// (lifecycle and the potential's terms), contact_initial_check.h (the
/// state checks) and contact_ccd.h (the CCD step bound); the state itself is
/// contact_state.h. Types only. Private to the library.
#ifndef IPCC_CONTACT_SETUP_H
#define IPCC_CONTACT_SETUP_H

#include "collision/collision_mesh.h"
#include "ipcc/world.h"
#include "shape/shape.h"

/// The contact state (contact_state.h), created by ipcc_contact_create.
typedef struct ipcc_contact ipcc_contact;

/// What the contact state is built from (borrowed for the create call; the
/// half-spaces are copied).
typedef struct ipcc_contact_setup {
    ipcc_collision_mesh_def mesh;        ///< the bodies' surfaces
    const double *positions;             ///< 3n: the initial state, checked for intersections
    const double *masses;                ///< n lumped masses, kg (0 for obstacles): kappa's bounds
    int num_tets;                        ///< the bodies' tets, for the check that no point lies inside a body
    const int *tets;                     ///< 4 per tet, world vertex indices
    const int *tet_body;                 ///< per tet: its body
    int num_half_spaces;                 ///< static half-spaces
    const double *half_spaces;           ///< 6 per half-space: point, unit normal
    const char *const *half_space_names; ///< per half-space: its name, or NULL (messages)
    int num_shapes;                      ///< analytic shapes
    const ipcc_shape *shape_poses;       ///< per shape: its current pose
    const ipcc_shape_def *shape_defs;    ///< per shape: its definition (names in messages)
    double bbox_diagonal;                ///< L, m
    double dhat;                         ///< d̂, m; 0 = 1e-3 L
    double kappa;                        ///< barrier stiffness; 0 = adaptive
} ipcc_contact_setup;

#endif
