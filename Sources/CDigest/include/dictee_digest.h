#ifndef DICTEE_DIGEST_H
#define DICTEE_DIGEST_H
#include <stddef.h>
// A plain-C doorway to OpenSSL's libcrypto (Debian libssl-dev): SHA-256 only, for the whitelist
// digest recorded in the audit file. Only Sources/PrivacyFilter/SHA256.swift calls it.

/// Writes the SHA-256 of `length` bytes at `data` as 64 lowercase hexadecimal digits and a NUL
/// into `hex_out` (65 bytes). Returns 1 on success, 0 on failure.
int dictee_sha256_hex(const void *data, size_t length, char hex_out[65]);

#endif
