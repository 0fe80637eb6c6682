// Per-tet fields of the current state, for the frames (output.c): volume
// ratio, Cauchy stress, von Mises stress and elastic energy density.
//
// For each tet, ipcc_elastic_tet_stress gives F = Ds Dm^-1, the first
// Piola-Kirchhoff stress P = dPsi/dF of the tet's material and Psi(F), the
// same kernels the energy uses (elastic.c), so the fields are the stresses
// the simulation feels. Then (Bonet & Wood, "Nonlinear Continuum Mechanics
// for Finite Element Analysis", 2nd ed., eq. 5.42):
//   J = det F,   sigma = (1/J) P F^T   (Cauchy, true stress, Pa)
// For the hyperelastic models sigma is symmetric; for the linear model
// (not rotation invariant) P F^T need not be, so all nine components are
// written and von Mises takes the symmetric part S = (sigma + sigma^T)/2:
//   s = S - tr(S)/3 I,   sigma_vM = sqrt(3/2 s:s)
//     = sqrt(((S11-S22)^2 + (S22-S33)^2 + (S33-S11)^2)/2 + 3 (S12^2 + S23^2 + S13^2))
// The energy density is per unit rest volume (Psi is defined on the
// reference configuration).
//
// Failure modes: an inverted tet (J <= 0) of a neo-Hookean body has
// Psi = +inf and P = NaN, so its stresses are NaN (the solver never accepts
// such a state); J = 0 for the other models gives inf/NaN stresses. Nothing
// is clamped: a frame shows what the state is.
//
// A tet's material comes from ipcc_world_tet_law() (world/world.h), as in
// the element loops.
#include "world/world_fields.h"

#include <math.h>

#include "base/core.h"
#include "ipcc/elastic.h"
#include "fem/local_to_global.h"
#include "base/vec3.h"
#include "world/world.h"

void ipcc_world_tet_fields(const ipcc_world *w, double *J, double *cauchy, double *von_mises,
                           double *energy) {
    IPCC_ASSERT(w && (w->nt == 0 || (J && cauchy && von_mises && energy)));
    for (int e = 0; e < w->nt; e++) {
        ipcc_material_model model;
        double mu, lambda, xe[12], F[9], P[9];
        ipcc_world_tet_law(w, e, &model, &mu, &lambda);
        ipcc_local_gather(w->x, 4, w->tets + 4 * e, xe);
        energy[e] = ipcc_elastic_tet_stress(model, mu, lambda, w->Dm_inv + 9 * e, xe, F, P);
        const double j = det3x3(F);
        J[e] = j;
        double *s = cauchy + IPCC_CAUCHY_COMPONENTS * e;
        // sigma_ik = (1/J) sum_l P_il F_kl
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++)
                s[3 * i + k] =
                    (P[3 * i] * F[3 * k] + P[3 * i + 1] * F[3 * k + 1] + P[3 * i + 2] * F[3 * k + 2]) / j;
        const double s12 = 0.5 * (s[1] + s[3]), s23 = 0.5 * (s[5] + s[7]), s13 = 0.5 * (s[2] + s[6]);
        const double d01 = s[0] - s[4], d12 = s[4] - s[8], d20 = s[8] - s[0];
        von_mises[e] =
            sqrt(0.5 * (d01 * d01 + d12 * d12 + d20 * d20) + 3 * (s12 * s12 + s23 * s23 + s13 * s13));
    }
}
