/// The keywords of the original IPC's scene scripts
/// (ipc_script_keywords.c): IPC's defaults, and every statement of a
/// script's text read through the lexer into an ipcc_ipc_script record.
/// ipc_script.c ties the two. Private to the library.
#ifndef IPCC_IPC_SCRIPT_KEYWORDS_H
#define IPCC_IPC_SCRIPT_KEYWORDS_H

#include <stdbool.h>

#include "scene/ipc/ipc_script.h"
#include "scene/ipc/ipc_script_lexer.h"

/// IPC's defaults (docs/ipc-script-format.md table 3.1) into a zeroed record.
void ipcc_ipc_script_set_defaults(ipcc_ipc_script *s);

/// Reads every statement of the lexer's text into `s` (which holds the
/// defaults). On failure the message is recorded and `s` may be partly
/// filled (everything it holds is owned, so ipcc_ipc_script_destroy() frees it).
ipcc_status ipcc_ipc_script_read_keywords(ipcc_ipc_lexer *lx, bool strict, ipcc_ipc_script *s);

#endif
