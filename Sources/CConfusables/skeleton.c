#include "dictee_confusables.h"
#include <pthread.h>
#include <unicode/uspoof.h>

static USpoofChecker *checker = NULL;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void open_checker(void) {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *c = uspoof_open(&status);
    if (U_SUCCESS(status)) checker = c;
}

int dictee_confusable_skeleton(const char *text, char *out, int capacity) {
    pthread_once(&once, open_checker);
    if (checker == NULL || text == NULL || out == NULL || capacity <= 0) return -1;
    UErrorCode status = U_ZERO_ERROR;
    // uspoof_getSkeleton* take a const checker: safe from several threads (ICU uspoof.h).
    int32_t length = uspoof_getSkeletonUTF8(checker, 0, text, -1, out, capacity, &status);
    if (U_FAILURE(status) || length >= capacity) return -1;
    out[length] = 0;
    return length;
}
