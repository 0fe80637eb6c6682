/// The CCD step bound of barrier contact (contact_ccd.c): the largest
/// fraction of a Newton direction that keeps every contact distance
/// positive. Private to the library.
#ifndef IPCC_CONTACT_CCD_H
#define IPCC_CONTACT_CCD_H

#include "collision/step_context.h"
#include "contact/contact_setup.h"

/// *alpha = the largest step <= alpha_max such that x + [0, alpha] p is
/// intersection-free (CCD), times IPC's safety factor; alpha_max when no
/// contact is reachable. Keeps the swept candidates for the line search's
/// energies and the next update (contact.h). IPCC_ERR_NO_MEMORY when out of
/// memory, never a zero step.
ipcc_status ipcc_contact_max_step(ipcc_contact *c, const ipcc_step_context *sc, const double *x,
                                  const double *p, double alpha_max, double *alpha);

#endif
