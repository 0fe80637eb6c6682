/// FNV-1a, 64-bit (Fowler, Noll, Vo): the hash of the checkpoint's checksum
/// and of the world's fingerprint. Not cryptographic: it catches a torn or
/// corrupted file and a different setup, not an adversary.
#ifndef IPCC_HASH_H
#define IPCC_HASH_H

#include <stddef.h>
#include <stdint.h>

/// The hash of no bytes (FNV-1a's offset basis).
#define IPCC_FNV_OFFSET 14695981039346656037ull

/// h extended by `bytes` bytes at `data`: start from IPCC_FNV_OFFSET; a
/// hash of a, then b, equals the hash of a followed by b.
static inline uint64_t ipcc_fnv1a(uint64_t h, const void *data, size_t bytes) {
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 1099511628211ull; // FNV prime
    }
    return h;
}

#endif
