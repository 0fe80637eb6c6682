/// Boundary conditions on selected vertices (boundary_conditions.c):
/// Dirichlet conditions (prescribed rigid motion, with pivots and stop
/// triggers) and Neumann conditions (loads); the vertex selection, each
/// step's targets and dof map, and the exact kinematics of prescribed
/// vertices.
#ifndef IPCC_BOUNDARY_CONDITIONS_H
#define IPCC_BOUNDARY_CONDITIONS_H

#include <stdbool.h>

#include "world/world.h"

/// Select the vertices of a new condition on body b (boundary_conditions.c).
ipcc_status ipcc_dirichlet_select(ipcc_world *w, int body, const ipcc_dirichlet_def *def,
                                  ipcc_dirichlet *out);
/// The loads of the active Neumann conditions at w->time into w->load, for
/// vertices not prescribed (boundary_conditions.c; ipcc_dirichlet_prepare_step calls it).
void ipcc_neumann_prepare(ipcc_world *w);
/// Select the vertices of a Neumann condition on body b (boundary_conditions.c).
ipcc_status ipcc_neumann_select(ipcc_world *w, int body, const ipcc_neumann_def *def, ipcc_neumann *out);
/// Selection shared by both: the vertex list, or the box in normalized
/// coordinates of the body's rest bbox. *out is malloc'ed (boundary_conditions.c).
ipcc_status ipcc_select_vertices(const ipcc_world *w, int body, int num_list, const int *list,
                                 const double box_min[3], const double box_max[3], int **out, int *count);
/// Mark the active conditions for the step starting at w->time, compute the
/// targets of prescribed vertices into x_target and rebuild dof_map.
/// Returns true if the set of unknowns changed.
bool ipcc_dirichlet_prepare_step(ipcc_world *w);
/// Exact rigid-motion velocity and acceleration at the end of the step of a
/// vertex prescribed by condition c: v = v_c + w x r, a = w x (w x r),
/// r = x - centre_end (boundary_conditions.c).
void ipcc_dirichlet_kinematics(const ipcc_world *w, int c, const double x[3], double v[3], double a[3]);
/// Whether Dirichlet condition bc prescribes its vertices during a step
/// starting at t: active then, and not released by its stop trigger
/// (boundary_conditions.c, world_state.c).
static inline bool ipcc_dirichlet_prescribes(const ipcc_dirichlet *bc, double t) {
    return t >= bc->def.start && t < bc->def.end && !(bc->stopped && bc->def.stop.release);
}

#endif
