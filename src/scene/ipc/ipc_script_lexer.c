// The lexer of the original IPC simulator's scene scripts (`.txt`): physical
// lines split into tokens, raw tokens across line breaks, tokens read as
// numbers, integers and words, and the messages that name the script, the
// line, the keyword and the token. The keywords are ipc_script_keywords.c;
// ipc_script.c ties the two. The format, with IPC's exact interpretation, is
// docs/ipc-script-format.md; section numbers below refer to it.
//
// Lexical rules (§2), and where each is implemented:
//   §2.1  The text is read one `\n`-terminated physical line at a time and split
//         on whitespace; the first token is the keyword, matched exactly
//         (case-sensitive). A trailing `\r` is whitespace, so CRLF files read
//         like LF files (§2.9 allows this). Here: ipcc_ipc_lexer_next_line().
//   §2.2  Blank lines and lines whose first token starts with `#` are skipped.
//         A keyword reads only the tokens it needs: the rest of its line is
//         ignored (`ground 0 0.5 50.0` ignores 50.0). The skipping is the
//         keyword reader's main loop.
//   §2.3  An unknown keyword is a warning naming the line, and is recorded in
//         `unknown`; with `strict` it is an error (the keyword reader).
//   §2.4  IPC keeps the old value when a number does not parse. ipcc does not:
//         a missing, malformed or non-finite number is IPCC_ERR_PARSE naming
//         the line, the keyword and the token. Here: the typed token readers
//         (ipcc_ipc_lexer_number() and its siblings).
//   §2.5  `tol K` and `tuning K` take their K values from the next K
//         whitespace-separated tokens of the file, across line breaks; what
//         follows the K-th value on its line is then read as a new line.
//         Here: ipcc_ipc_lexer_next_token().
//   §2.6  A `\` token continues a shape line onto the next physical line, only
//         in the extras after the nine transform numbers. Tokens after the `\`
//         on its line are discarded (the next line replaces them). The keyword
//         reader's shape lines.
//   §2.7  In shape extras a token starting with `#` discards the rest of its
//         physical line; IPC's quirk is reproduced: a later `\` on that same
//         line still continues onto the next line (the shape lines).
//   §2.8  Blank and `#` lines inside a `shapes` block are skipped and do not
//         count towards K (the `shapes` keyword).
//   §2.10 `section w1 [w2 ...]`: if some word is `end` or names the active
//         constraint solver (`interiorPoint`, alias `IP`), nothing happens.
//         Otherwise lines are skipped up to and including the next line whose
//         first two tokens are `section end`, or to the end of the file. A
//         bare `section` does not end a skip; having no word that matches, it
//         starts one. A skipped section is recorded in `notes`.
//         ipcc implements only interiorPoint (`constraintSolver QP`/`SQP` is
//         an error), so the active solver is always interiorPoint (the
//         keyword reader's `section`).
//
// Messages: every failure is "<name>:<line>: <message>" at the lexer's
// current line (ipcc_ipc_lexer_fail()); the typed readers' messages are
// "<keyword>: <what> ... (got '<token>')", the token cut at 60 characters.
// The line is that of the current physical line or, after
// ipcc_ipc_lexer_next_token(), of the raw token. Failure modes: -1 from the
// readers of lines and tokens when a buffer cannot grow; nothing else fails
// here.
#include "scene/ipc/ipc_script_lexer.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static int reserve_buf(ipcc_ipc_lexer *lx, size_t n) {
    if (n <= lx->cap_buf) return 0;
    size_t cap = lx->cap_buf ? lx->cap_buf : 256;
    while (cap < n)
        cap *= 2;
    char *b = realloc(lx->buf, cap);
    if (!b) return -1;
    lx->buf = b;
    lx->cap_buf = cap;
    return 0;
}

// ---------------------------------------------------------------------------
// Lines and raw tokens (§2.1, §2.5).

int ipcc_ipc_lexer_next_line(ipcc_ipc_lexer *lx) {
    const char *start = lx->text + lx->pos;
    if (*start == '\0') return 0;
    const char *nl = strchr(start, '\n');
    size_t len = nl ? (size_t)(nl - start) : strlen(start);
    if (reserve_buf(lx, len + 1)) return -1;
    memcpy(lx->buf, start, len);
    lx->buf[len] = '\0';
    lx->line = lx->pos_line;
    lx->pos += len + (nl != NULL);
    if (nl) lx->pos_line++;
    lx->num_tok = 0;
    for (char *s = lx->buf;;) {
        while (*s && is_space(*s))
            s++;
        if (!*s) break;
        if (ipcc_reserve((void **)&lx->tok, &lx->cap_tok, lx->num_tok + 1, sizeof *lx->tok)) return -1;
        lx->tok[lx->num_tok++] = s;
        while (*s && !is_space(*s))
            s++;
        if (*s) *s++ = '\0';
    }
    return 1;
}

int ipcc_ipc_lexer_next_token(ipcc_ipc_lexer *lx) {
    const char *t = lx->text;
    while (t[lx->pos] && is_space(t[lx->pos]))
        if (t[lx->pos++] == '\n') lx->pos_line++;
    lx->num_tok = 0;
    if (!t[lx->pos]) return 0;
    size_t len = 0;
    while (t[lx->pos + len] && !is_space(t[lx->pos + len]))
        len++;
    if (reserve_buf(lx, len + 1)) return -1;
    memcpy(lx->buf, t + lx->pos, len);
    lx->buf[len] = '\0';
    lx->pos += len;
    lx->line = lx->pos_line;
    return 1;
}

void ipcc_ipc_lexer_free(ipcc_ipc_lexer *lx) {
    IPCC_FREE(lx->buf);
    IPCC_FREE(lx->tok);
    lx->cap_buf = 0;
    lx->num_tok = lx->cap_tok = 0;
}

// ---------------------------------------------------------------------------
// Messages and typed tokens (§2.4).

ipcc_status ipcc_ipc_lexer_fail(const ipcc_ipc_lexer *lx, ipcc_status status, const char *fmt, ...) {
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ipcc_fail(status, "%s:%d: %s", lx->name, lx->line, msg);
}

ipcc_status ipcc_ipc_lexer_no_memory(const ipcc_ipc_lexer *lx) {
    return ipcc_ipc_lexer_fail(lx, IPCC_ERR_NO_MEMORY, "out of memory");
}

// strtod consumes the whole token.
bool ipcc_ipc_lexer_is_number(const char *t) {
    char *end;
    (void)strtod(t, &end);
    return end != t && *end == '\0';
}

// A bad number is an error: a deliberate difference from IPC, which silently
// keeps the old value (docs/ipc-script-format.md §2.4).
ipcc_status ipcc_ipc_lexer_to_number(const ipcc_ipc_lexer *lx, const char *t, const char *what, double *out) {
    char *end;
    double v = strtod(t, &end);
    *out = 0; // the readers always write their output (keeps -Wmaybe-uninitialized quiet)
    if (end == t || *end != '\0')
        return ipcc_ipc_lexer_fail(lx, IPCC_ERR_PARSE, "%s: %s is not a number (got '%.60s')", lx->kw, what,
                                   t);
    if (!isfinite(v))
        return ipcc_ipc_lexer_fail(lx, IPCC_ERR_PARSE, "%s: %s must be finite (got '%.60s')", lx->kw, what,
                                   t);
    *out = v;
    return IPCC_OK;
}

ipcc_status ipcc_ipc_lexer_number(const ipcc_ipc_lexer *lx, int i, const char *what, double *out) {
    *out = 0;
    if (i >= lx->num_tok)
        return ipcc_ipc_lexer_fail(lx, IPCC_ERR_PARSE, "%s: missing %s (got end of line)", lx->kw, what);
    return ipcc_ipc_lexer_to_number(lx, lx->tok[i], what, out);
}

ipcc_status ipcc_ipc_lexer_vec3(const ipcc_ipc_lexer *lx, int i, const char *what, double out[3]) {
    char name[64];
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "%s %c", what, "xyz"[k]);
        ipcc_status st = ipcc_ipc_lexer_number(lx, i + k, name, &out[k]);
        if (st != IPCC_OK) return st;
    }
    return IPCC_OK;
}

ipcc_status ipcc_ipc_lexer_int(const ipcc_ipc_lexer *lx, int i, const char *what, long lo, long hi,
                               int *out) {
    *out = 0;
    if (i >= lx->num_tok)
        return ipcc_ipc_lexer_fail(lx, IPCC_ERR_PARSE, "%s: missing %s (got end of line)", lx->kw, what);
    const char *t = lx->tok[i];
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end == t || *end != '\0')
        return ipcc_ipc_lexer_fail(lx, IPCC_ERR_PARSE, "%s: %s is not an integer (got '%.60s')", lx->kw, what,
                                   t);
    if (errno == ERANGE || v < lo || v > hi)
        return ipcc_ipc_lexer_fail(lx, IPCC_ERR_PARSE, "%s: %s must be in [%ld, %ld] (got '%.60s')", lx->kw,
                                   what, lo, hi, t);
    *out = (int)v;
    return IPCC_OK;
}

ipcc_status ipcc_ipc_lexer_word(const ipcc_ipc_lexer *lx, int i, const char *what, const char **out) {
    *out = "";
    if (i >= lx->num_tok)
        return ipcc_ipc_lexer_fail(lx, IPCC_ERR_PARSE, "%s: missing %s (got end of line)", lx->kw, what);
    *out = lx->tok[i];
    return IPCC_OK;
}
