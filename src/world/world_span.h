/// The saved starts of a split step's parts (world_span.c): what a part of
/// a step changes of the world, saved before it so that a part that does
/// not converge can be redone as two halves (world_step.c).
#ifndef IPCC_WORLD_SPAN_H
#define IPCC_WORLD_SPAN_H

#include "world/world.h"

/// Room for def.newton_max_splits levels of saved starts (none when it is
/// 0), once the world's vertices and conditions are final (world_start.c).
ipcc_status ipcc_world_span_reserve(ipcc_world *w);
/// Free what ipcc_world_span_reserve allocated.
void ipcc_world_span_free(ipcc_world *w);

/// Before a part at `level` (< def.newton_max_splits) starts: what its start
/// changes (kappa, the Dirichlet conditions' pivots, centres and stop
/// flags, the blocked-motion warning).
void ipcc_world_span_mark(ipcc_world *w, int level);
/// After the part did not converge, before the step's end updates anything
/// else: its start state (x_start, v, a, the shapes' poses, the time) joins
/// the mark. The level can then be restored.
void ipcc_world_span_save(ipcc_world *w, int level);
/// The world as it was at the start of the part saved at `level`.
void ipcc_world_span_restore(ipcc_world *w, int level);

#endif
