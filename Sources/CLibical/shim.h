#ifndef DICTEE_CLIBICAL_SHIM_H
#define DICTEE_CLIBICAL_SHIM_H
// libical 3 (Debian libical-dev). Only Sources/Ingest/Libical.swift calls into this module.
#include <libical/ical.h>

// Swift cannot read libical's errno (a macro over a per-thread slot); these wrappers expose it.
static inline int dictee_icalerrno(void) { return (int)icalerrno; }
static inline void dictee_icalerror_clear(void) { icalerror_clear_errno(); }

// Which BY* parts a rule uses, as a bit mask (the C arrays end with ICAL_RECURRENCE_ARRAY_MAX).
enum {
    DICTEE_BY_SECOND = 1, DICTEE_BY_MINUTE = 2, DICTEE_BY_HOUR = 4, DICTEE_BY_DAY = 8,
    DICTEE_BY_MONTH_DAY = 16, DICTEE_BY_YEAR_DAY = 32, DICTEE_BY_WEEK_NO = 64, DICTEE_BY_MONTH = 128,
    DICTEE_BY_SET_POS = 256
};
static inline int dictee_rrule_by_parts(const struct icalrecurrencetype *r) {
    int m = 0;
    if (r->by_second[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_SECOND;
    if (r->by_minute[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_MINUTE;
    if (r->by_hour[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_HOUR;
    if (r->by_day[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_DAY;
    if (r->by_month_day[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_MONTH_DAY;
    if (r->by_year_day[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_YEAR_DAY;
    if (r->by_week_no[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_WEEK_NO;
    if (r->by_month[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_MONTH;
    if (r->by_set_pos[0] != ICAL_RECURRENCE_ARRAY_MAX) m |= DICTEE_BY_SET_POS;
    return m;
}
// Whether a BYDAY value carries an ordinal (1MO, -1TH).
static inline int dictee_rrule_has_ordinal_day(const struct icalrecurrencetype *r) {
    for (int k = 0; k < ICAL_BY_DAY_SIZE && r->by_day[k] != ICAL_RECURRENCE_ARRAY_MAX; k++) {
        if (icalrecurrencetype_day_position(r->by_day[k]) != 0) return 1;
    }
    return 0;
}
#endif
