/// What the contact and friction layers need to know of the current time
/// step, given to them by the world (world/world.h builds it) so that
/// they never reach up into it: the step length and the potential's scale,
/// the dof map, the state at the step's start, and the analytic shapes'
/// motion with the clock that carries it (world_shapes.c). Private to the
/// library.
#ifndef IPCC_STEP_CONTEXT_H
#define IPCC_STEP_CONTEXT_H

#include "shape/shape.h"

typedef struct ipcc_step_context {
    double time_step;       ///< h, s
    double potential_scale; ///< s of E = inertia + s (elastic + external) + kappa B + s D (integrator.c)
    int num_vertices;       ///< n: the vertex dofs are [0, 3n)
    const int *dof_map;     ///< per dof (3n, + 3 with a clock): unknown index, or -1 when prescribed
    const double *x_start;  ///< 3n: positions at the step's start
    double clock_length;    ///< > 0 when some shape moves: dof 3n is then s * clock_length (world_shapes.c)
    int num_shapes;
    const ipcc_shape_motion *shapes; ///< per analytic shape: its motion over the step
} ipcc_step_context;

/// The shapes' progress s in [0, 1] through the step at state x (0 when no
/// shape moves: any s gives the same pose then).
static inline double ipcc_step_shape_progress(const ipcc_step_context *sc, const double *x) {
    if (!(sc->clock_length > 0)) return 0.0;
    double s = x[3 * sc->num_vertices] / sc->clock_length;
    return s < 0 ? 0.0 : (s > 1 ? 1.0 : s);
}

#endif
