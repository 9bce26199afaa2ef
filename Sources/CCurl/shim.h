// libcurl's easy interface (Debian libcurl4-openssl-dev), for Sources/Web/HTTPClient.swift only.
// curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each argument
// type gets a typed wrapper.
#include <curl/curl.h>

static inline CURLcode dictee_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode dictee_curl_set_off(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode dictee_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode dictee_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
typedef size_t (*dictee_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode dictee_curl_set_write_function(CURL *curl, dictee_curl_write_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode dictee_curl_set_header_function(CURL *curl, dictee_curl_write_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, callback);
}
static inline CURLcode dictee_curl_response_code(CURL *curl, long *code) {
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}
// CURLAUTH_* are macros with casts, which Swift does not import.
static inline CURLcode dictee_curl_set_basic_or_digest_auth(CURL *curl) {
    return curl_easy_setopt(curl, CURLOPT_HTTPAUTH, (long)(CURLAUTH_BASIC | CURLAUTH_DIGEST));
}
