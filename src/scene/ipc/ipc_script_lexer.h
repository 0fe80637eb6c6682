/// The lexer of the original IPC's scene scripts (ipc_script_lexer.c):
/// physical lines split into tokens, raw tokens across line breaks, tokens
/// read as numbers, integers and words, and messages that name the script,
/// the line and the keyword. The keyword reader (ipc_script_keywords.c)
/// reads the statements through it. Private to the library.
#ifndef IPCC_IPC_SCRIPT_LEXER_H
#define IPCC_IPC_SCRIPT_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "base/core.h"

/// The lexer's state over one script text. Zero it, then set text, pos_line
/// = 1, name and kw = ""; release with ipcc_ipc_lexer_free().
typedef struct ipcc_ipc_lexer {
    const char *text; ///< the whole script, NUL-terminated (not owned)
    size_t pos;       ///< first unread character
    int pos_line;     ///< line number of text[pos]
    int line;         ///< line of the current line or raw token (messages)
    char *buf;        ///< copy of the current line or raw token; tokens are NUL-terminated in place
    size_t cap_buf;
    char **tok; ///< tokens of the current line (into buf)
    int num_tok, cap_tok;
    const char *name; ///< the script's name, for messages (not owned)
    const char *kw;   ///< keyword being read (a static string), for messages
} ipcc_ipc_lexer;

/// Reads the next physical line and splits it into lx->tok. Returns 1, 0 at
/// the end of the text, -1 when out of memory.
int ipcc_ipc_lexer_next_line(ipcc_ipc_lexer *lx);

/// The next whitespace-separated token of the text, wherever it is
/// (docs/ipc-script-format.md §2.5), copied into lx->buf (the current
/// line's tokens are dropped); lx->line becomes its line. Returns 1, 0 at the end of the text,
/// -1 when out of memory.
int ipcc_ipc_lexer_next_token(ipcc_ipc_lexer *lx);

/// Frees the lexer's buffers (not the text).
void ipcc_ipc_lexer_free(ipcc_ipc_lexer *lx);

/// Records "<name>:<line>: <message>" at the lexer's current line and
/// returns `status`.
ipcc_status ipcc_ipc_lexer_fail(const ipcc_ipc_lexer *lx, ipcc_status status, const char *fmt, ...)
    IPCC_PRINTF(3, 4);

/// "<name>:<line>: out of memory", IPCC_ERR_NO_MEMORY.
ipcc_status ipcc_ipc_lexer_no_memory(const ipcc_ipc_lexer *lx);

/// True if the whole token parses as a number (finite or not).
bool ipcc_ipc_lexer_is_number(const char *t);

/// Token text `t` as a finite number into *out (0 on failure); a malformed
/// or non-finite number is IPCC_ERR_PARSE "<kw>: <what> ... (got '<t>')".
ipcc_status ipcc_ipc_lexer_to_number(const ipcc_ipc_lexer *lx, const char *t, const char *what, double *out);

/// Token i of the current line as a finite number (missing: an error).
ipcc_status ipcc_ipc_lexer_number(const ipcc_ipc_lexer *lx, int i, const char *what, double *out);

/// Tokens i, i+1, i+2 as "<what> x", "<what> y", "<what> z".
ipcc_status ipcc_ipc_lexer_vec3(const ipcc_ipc_lexer *lx, int i, const char *what, double out[3]);

/// Token i as an integer in [lo, hi].
ipcc_status ipcc_ipc_lexer_int(const ipcc_ipc_lexer *lx, int i, const char *what, long lo, long hi, int *out);

/// Token i, which must exist; *out points into the line (valid until the next read).
ipcc_status ipcc_ipc_lexer_word(const ipcc_ipc_lexer *lx, int i, const char *what, const char **out);

#endif
