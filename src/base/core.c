// Error recording, logging, allocation and timing shared by every module.
//
// The last error is thread-local so that concurrent worlds in different
// threads do not clobber each other's messages. The log sink and the
// assertion handler are process-wide.
#define _POSIX_C_SOURCE 200809L
#include "base/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static _Thread_local char last_error[1024];
static ipcc_log_fn *log_fn;
static void *log_user;
static ipcc_assert_fn *assert_fn;

const char *ipcc_status_name(ipcc_status status) {
    switch (status) {
    case IPCC_OK: return "IPCC_OK";
    case IPCC_WARN_NOT_CONVERGED: return "IPCC_WARN_NOT_CONVERGED";
    case IPCC_ERR_INVALID_ARGUMENT: return "IPCC_ERR_INVALID_ARGUMENT";
    case IPCC_ERR_IO: return "IPCC_ERR_IO";
    case IPCC_ERR_PARSE: return "IPCC_ERR_PARSE";
    case IPCC_ERR_MESH: return "IPCC_ERR_MESH";
    case IPCC_ERR_NO_MEMORY: return "IPCC_ERR_NO_MEMORY";
    case IPCC_ERR_SOLVER: return "IPCC_ERR_SOLVER";
    case IPCC_ERR_INFEASIBLE: return "IPCC_ERR_INFEASIBLE";
    }
    return "IPCC_UNKNOWN_STATUS";
}

const char *ipcc_last_error(void) { return last_error; }

void ipcc_clear_error(void) { last_error[0] = '\0'; }

// Messages quote tokens of input files, which may be binary garbage: every
// control character (a message is one line) and every byte that is not part
// of a valid UTF-8 sequence, or that encodes a C1 control (U+0080..U+009F),
// is replaced in place by '?', so a message never sends escape sequences or
// broken text to a terminal or a log. A sequence cut by truncation ends in '?'.
static void make_printable(char *s) {
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        int n = c < 0x80                 ? 1
                : c >= 0xC2 && c <= 0xDF ? 2
                : (c & 0xF0) == 0xE0     ? 3
                : c >= 0xF0 && c <= 0xF4 ? 4
                                         : 0;
        int ok = n > 0 && !(n == 1 && (c < 0x20 || c == 0x7F)) && !(c == 0xC2 && p[1] < 0xA0);
        for (int k = 1; ok && k < n; k++)
            ok = (p[k] & 0xC0) == 0x80;
        if (!ok) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
}

// Formats into a local buffer first, so a caller may pass the previous
// message (ipcc_last_error()) as an argument to wrap it with context.
ipcc_status ipcc_fail(ipcc_status status, const char *fmt, ...) {
    char message[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    make_printable(message);
    memcpy(last_error, message, sizeof last_error);
    return status;
}

void ipcc_set_log(ipcc_log_fn *fn, void *user) {
    log_fn = fn;
    log_user = user;
}

void ipcc_log(ipcc_log_level level, const char *fmt, ...) {
    if (!log_fn) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    make_printable(msg);
    log_fn(level, msg, log_user);
}

void ipcc_set_assert(ipcc_assert_fn *fn) { assert_fn = fn; }

void ipcc_assert_failed(const char *expr, const char *file, int line) {
    if (assert_fn) assert_fn(expr, file, line); // may leave by longjmp
    fprintf(stderr, "ipcc: assertion failed: %s (%s:%d)\n", expr, file, line);
    abort();
}

int ipcc_grow_capacity(int capacity, int initial, int count) {
    int cap = capacity > 0 ? capacity : initial;
    while (cap < count)
        cap = cap > (1 << 29) ? count : 2 * cap;
    return cap;
}

int ipcc_reserve(void **buf, int *capacity, int count, size_t size) {
    if (count <= *capacity) return 0;
    int cap = ipcc_grow_capacity(*capacity, 16, count);
    void *p = realloc(*buf, (size_t)cap * size);
    if (!p) return -1;
    *buf = p;
    *capacity = cap;
    return 0;
}

int ipcc_reserve_counted(void **buf, int *capacity, int count, size_t size, long *counter) {
    if (count <= *capacity) return 0;
    ++*counter;
    return ipcc_reserve(buf, capacity, count, size);
}

double ipcc_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *ipcc_version(void) { return IPCC_VERSION_STRING; }
