/// Internal helpers shared by every module: error recording, logging,
/// allocation and timing. Not part of the public API.
#ifndef IPCC_CORE_H
#define IPCC_CORE_H

#include <stddef.h>
#include <stdlib.h>

#include "ipcc/base.h"

#if defined(__GNUC__)
#define IPCC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define IPCC_PRINTF(a, b)
#endif

/// Record `status` with a formatted message for ipcc_last_error(); returns
/// status. The arguments may include ipcc_last_error() itself (to add context).
ipcc_status ipcc_fail(ipcc_status status, const char *fmt, ...) IPCC_PRINTF(2, 3);

/// Send a formatted message to the installed log sink (no-op without one).
void ipcc_log(ipcc_log_level level, const char *fmt, ...) IPCC_PRINTF(2, 3);

/// Programmer-error check (tier 1). Calls the handler of ipcc_set_assert()
/// (default: print and abort); define IPCC_ASSERT before including to
/// override at compile time.
#ifndef IPCC_ASSERT
void ipcc_assert_failed(const char *expr, const char *file, int line);
#define IPCC_ASSERT(c) ((c) ? (void)0 : ipcc_assert_failed(#c, __FILE__, __LINE__))
#endif

/// The value every ipcc_default_*() function (types.c) writes into its
/// def's `internal_value`. Not a secret, only unlikely in a zeroed struct
/// or in stack garbage.
#define IPCC_DEF_COOKIE 0x1CC0DEF

/// Assert that `def` started from its ipcc_default_*() function. `message`
/// (a string literal) names that function; it is printed with the condition.
#define IPCC_CHECK_DEF(def, message) IPCC_ASSERT((def)->internal_value == IPCC_DEF_COOKIE && message)

/// free() that nulls the pointer.
#define IPCC_FREE(p)                                                                                         \
    do {                                                                                                     \
        free(p);                                                                                             \
        (p) = NULL;                                                                                          \
    } while (0)

/// Capacity to allocate for `count` elements: `capacity` (or `initial` when
/// it is 0) doubled until it fits, switching to exactly `count` past 2^29 so
/// the result never overflows int. Amortized O(1) growth.
int ipcc_grow_capacity(int capacity, int initial, int count);

/// Grow *buf to hold at least `count` elements of `size` bytes (amortized
/// doubling). Returns 0 on success, -1 when out of memory (*buf unchanged).
int ipcc_reserve(void **buf, int *capacity, int count, size_t size);

/// ipcc_reserve that adds 1 to *counter when it has to grow *buf (also when
/// that fails): for objects that report their allocations.
int ipcc_reserve_counted(void **buf, int *capacity, int count, size_t size, long *counter);

/// Monotonic wall clock, seconds.
double ipcc_now(void);

#endif
