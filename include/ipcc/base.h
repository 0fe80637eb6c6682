/// ipcc: status codes, error messages, logging and version.
///
/// Status convention (as CHOLMOD): 0 is success, negative values are failures
/// that leave the object unchanged, positive values mean "finished, with a
/// caveat". Every failure also records a human-readable message, naming the
/// file, line, key, body or element, retrievable with ipcc_last_error().
#ifndef IPCC_BASE_H
#define IPCC_BASE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Marks the exported API. The shared library is built with hidden
/// visibility, so only declarations carrying IPCC_API are exported.
#if defined(IPCC_BUILDING_SHARED) && defined(__GNUC__)
#define IPCC_API __attribute__((visibility("default")))
#else
#define IPCC_API
#endif

#define IPCC_VERSION_MAJOR 0
#define IPCC_VERSION_MINOR 1
#define IPCC_VERSION_PATCH 0
#define IPCC_VERSION_STRING "0.1.0"

/// Result of every fallible ipcc call.
typedef enum ipcc_status {
    IPCC_OK = 0,                 ///< success
    IPCC_WARN_NOT_CONVERGED = 1, ///< step finished unconverged (iteration cap, stall or failed line search)
    IPCC_ERR_INVALID_ARGUMENT = -1, ///< a value out of range (names the key or field)
    IPCC_ERR_IO = -2,               ///< a file could not be opened, read or written
    IPCC_ERR_PARSE = -3,            ///< malformed file contents (names file and line)
    IPCC_ERR_MESH = -4,             ///< invalid mesh: bad index, degenerate tet, NaN
    IPCC_ERR_NO_MEMORY = -5,        ///< an allocation failed
    IPCC_ERR_SOLVER = -6,           ///< the linear or nonlinear solver failed
    IPCC_ERR_INFEASIBLE = -7,       ///< a state that is inverted, intersecting or touching
} ipcc_status;

/// Short constant name of a status, e.g. "IPCC_ERR_PARSE".
IPCC_API const char *ipcc_status_name(ipcc_status status);

/// Message of the last failure recorded in this thread ("" if none).
/// The pointer stays valid until the next failing ipcc call in this thread.
IPCC_API const char *ipcc_last_error(void);

/// Clear the message returned by ipcc_last_error().
IPCC_API void ipcc_clear_error(void);

/// Log levels, most severe first.
typedef enum ipcc_log_level {
    IPCC_LOG_ERROR = 0,
    IPCC_LOG_WARNING = 1,
    IPCC_LOG_INFO = 2,
    IPCC_LOG_DEBUG = 3,
} ipcc_log_level;

/// Log sink. `message` has no trailing newline and is only valid during the call.
typedef void ipcc_log_fn(ipcc_log_level level, const char *message, void *user);

/// Install the process-wide log sink (NULL silences the library, the default).
/// The library never prints except through this hook.
IPCC_API void ipcc_set_log(ipcc_log_fn *fn, void *user);

/// Handler of programmer errors (a NULL argument, an index out of range, a
/// def not started from its ipcc_default_*() function): the failed
/// condition (with its message), the library's source file and line.
typedef void ipcc_assert_fn(const char *condition, const char *file, int line);

/// Install the process-wide programmer-error handler (NULL: the default,
/// which prints the condition to stderr and aborts). The library cannot go
/// on after such an error: if the handler returns, the process aborts, so a
/// handler either ends the process itself or leaves by longjmp (a test
/// harness catching expected assertions does).
IPCC_API void ipcc_set_assert(ipcc_assert_fn *fn);

/// Library version string, e.g. "0.1.0".
IPCC_API const char *ipcc_version(void);

#ifdef __cplusplus
}
#endif
#endif
