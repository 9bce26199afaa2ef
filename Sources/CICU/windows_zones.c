#include "dictee_icu.h"
#include <string.h>
#include <unicode/ucal.h>
#include <unicode/ustring.h>

int dictee_icu_iana_for_windows_zone(const char *windows_name, char *iana_out, int capacity) {
    UChar source[128];
    UChar result[128];
    int32_t sourceLength = 0;
    UErrorCode status = U_ZERO_ERROR;
    if (windows_name == NULL || iana_out == NULL || capacity <= 0) return 0;
    u_strFromUTF8(source, 128, &sourceLength, windows_name, -1, &status);
    if (U_FAILURE(status) || sourceLength <= 0 || sourceLength >= 128) return 0;
    int32_t length = ucal_getTimeZoneIDForWindowsID(source, sourceLength, NULL, result, 128, &status);
    if (U_FAILURE(status) || length <= 0) return 0;
    int32_t written = 0;
    u_strToUTF8(iana_out, capacity, &written, result, length, &status);
    if (U_FAILURE(status) || written <= 0 || written >= capacity) return 0;
    iana_out[written] = 0;
    return written;
}
