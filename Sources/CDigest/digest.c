#include "dictee_digest.h"
#include <openssl/evp.h>
#include <stdio.h>

int dictee_sha256_hex(const void *data, size_t length, char hex_out[65]) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_length = 0;
    if (EVP_Digest(data, length, md, &md_length, EVP_sha256(), NULL) != 1 || md_length != 32) {
        return 0;
    }
    static const char digits[] = "0123456789abcdef";
    for (unsigned int i = 0; i < md_length; i++) {
        hex_out[2 * i] = digits[md[i] >> 4];
        hex_out[2 * i + 1] = digits[md[i] & 15];
    }
    hex_out[64] = 0;
    return 1;
}
