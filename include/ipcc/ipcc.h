/// ipcc: soft-body simulation with Incremental Potential Contact. Umbrella header.
#ifndef IPCC_IPCC_H
#define IPCC_IPCC_H

#include "ipcc/base.h"
#include "ipcc/checkpoint.h"
#include "ipcc/contact_report.h"
#include "ipcc/elastic.h"
#include "ipcc/mesh.h"
#include "ipcc/output.h"
#include "ipcc/scene.h"
#include "ipcc/types.h"
#include "ipcc/world.h"

#endif
