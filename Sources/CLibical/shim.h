#ifndef DICTEE_CLIBICAL_SHIM_H
#define DICTEE_CLIBICAL_SHIM_H
// libical 3 (Debian libical-dev). Only Sources/Ingest/Libical.swift calls into this module.
#include <libical/ical.h>
#include <string.h>

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
// A line generator for icalparser_parse, in place of libical 3.0's icalparser_string_line_generator:
// that one hands a line over in pieces of the parser's small buffer and looks for the line's end
// again (strchr) for every piece, so a 10 MB line cost 10,000 scans of megabytes (minutes).
// This one finds each line end once (memchr, bounded by the data's end) and remembers it.
struct dictee_line_source { const char *pos; const char *end; const char *eol; };
static inline char *dictee_line_generator(char *out, size_t buf_size, void *d) {
    struct dictee_line_source *s = (struct dictee_line_source *)d;
    if (s->pos >= s->end || buf_size < 2) return 0;
    if (s->eol == 0 || s->eol <= s->pos) {
        const char *n = (const char *)memchr(s->pos, '\n', (size_t)(s->end - s->pos));
        s->eol = n ? n + 1 : s->end;
    }
    size_t size = (size_t)(s->eol - s->pos);
    if (size > buf_size - 1) size = buf_size - 1;
    memcpy(out, s->pos, size);
    out[size] = '\0';
    s->pos += size;
    return out;
}
// icalparser_parse_string over `count` bytes with the generator above: the same parser, the same
// error state handling, linear in the length of the longest line. A NUL ends the text, as in C.
static inline icalcomponent *dictee_parse_bytes(const char *bytes, size_t count) {
    const char *nul = (const char *)memchr(bytes, 0, count);
    if (nul) count = (size_t)(nul - bytes);
    struct dictee_line_source source = { bytes, bytes + count, 0 };
    icalerrorstate es = icalerror_get_error_state(ICAL_MALFORMEDDATA_ERROR);
    icalparser *parser = icalparser_new();
    if (parser == 0) return 0;
    icalparser_set_gen_data(parser, &source);
    icalerror_set_error_state(ICAL_MALFORMEDDATA_ERROR, ICAL_ERROR_NONFATAL);
    icalcomponent *root = icalparser_parse(parser, dictee_line_generator);
    icalerror_set_error_state(ICAL_MALFORMEDDATA_ERROR, es);
    icalparser_free(parser);
    return root;
}
#endif
