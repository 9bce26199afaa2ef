#!/usr/bin/env python3
"""Python baseline for `dictee events FILE --now ISO --tz IANA --json`.

Does the same job as dictee with the reference Python stack, icalendar +
recurring-ical-events (versions pinned by Scripts/bench-ingest):

1. parse FILE with icalendar.Calendar.from_ical;
2. split the VEVENTs: recurring series (any component whose UID has a VEVENT
   with RRULE or RDATE, or that carries a RECURRENCE-ID) versus one-off events;
3. expand the series with recurring_ical_events over the narrow window only,
   and check each one-off event against the wide window only, so that no
   series is expanded over two years (the fair way to use the library);
4. print the JSON that dictee prints, sorted by start instant.

Read window (wall-clock calendar arithmetic in --tz, on --now):
  one-off events:        start in [now - 2 years, now + 14 days)
  recurring occurrences: start in [now - 7 days,  now + 14 days)
All-day events start at 00:00 in --tz for the window test and the sort.
Occurrences with STATUS:CANCELLED (cancelled overrides) are left out. A series
the library cannot expand is skipped (skip_bad_series=True); "errors" lists
the components whose times could not be read.

Output: {"occurrences": [{"uid", "summary", "start", "end", "all_day",
"recurring"}], "errors": [...]}; start/end in ISO-8601 in --tz with offset
("2026-03-29T10:00:00+02:00"), all-day ones as plain dates ("2026-03-29").

Usage: baseline_events.py FILE --now 2026-11-29T18:00:00+01:00 --tz Europe/Paris
       [--one-offs rie]   (check one-off events through recurring-ical-events too)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events
from dateutil.relativedelta import relativedelta

# Calendar-level properties copied onto the split sub-calendars (X-WR-TIMEZONE
# matters to recurring-ical-events, which honours it like Google does).
CALENDAR_PROPS = ("VERSION", "PRODID", "CALSCALE", "X-WR-TIMEZONE")


def parse_now(text: str, zone: ZoneInfo) -> dt.datetime:
    now = dt.datetime.fromisoformat(text)
    return now.replace(tzinfo=zone) if now.tzinfo is None else now


def shift(now: dt.datetime, zone: ZoneInfo, **delta) -> dt.datetime:
    """now + delta, computed on the wall clock in zone (calendar arithmetic)."""
    wall = now.astimezone(zone).replace(tzinfo=None)
    return (wall + relativedelta(**delta)).replace(tzinfo=zone)


def instant(value: dt.date | dt.datetime, zone: ZoneInfo) -> dt.datetime:
    """Aware datetime for a DTSTART value; dates and floating times live in zone."""
    if not isinstance(value, dt.datetime):
        return dt.datetime(value.year, value.month, value.day, tzinfo=zone)
    return value.replace(tzinfo=zone) if value.tzinfo is None else value


def fmt(value: dt.date | dt.datetime, zone: ZoneInfo) -> str:
    if not isinstance(value, dt.datetime):
        return value.isoformat()
    return instant(value, zone).astimezone(zone).isoformat(timespec="seconds")


def start_end(component) -> tuple:
    start = component.decoded("DTSTART")
    if "DTEND" in component:
        end = component.decoded("DTEND")
    elif "DURATION" in component:
        end = start + component.decoded("DURATION")
    else:
        end = start if isinstance(start, dt.datetime) else start + dt.timedelta(days=1)
    return start, end


def sub_calendar(calendar, timezones, events) -> icalendar.Calendar:
    sub = icalendar.Calendar()
    for name in CALENDAR_PROPS:
        if name in calendar:
            sub[name] = calendar[name]
    for component in (*timezones, *events):
        sub.add_component(component)
    return sub


class Collector:
    """Builds the output rows and the error list."""

    def __init__(self, zone: ZoneInfo):
        self.zone = zone
        self.rows: list[tuple[dt.datetime, dict]] = []
        self.errors: list[dict] = []

    def add(self, component, recurring: bool, window: tuple) -> None:
        uid = str(component.get("UID", ""))
        try:
            if str(component.get("STATUS", "")).upper() == "CANCELLED":
                return
            start, end = start_end(component)
            at = instant(start, self.zone)
            if not window[0] <= at < window[1]:
                return
            self.rows.append((at, {
                "uid": uid,
                "summary": str(component.get("SUMMARY", "")),
                "start": fmt(start, self.zone),
                "end": fmt(end, self.zone),
                "all_day": not isinstance(start, dt.datetime),
                "recurring": recurring,
            }))
        except Exception as exc:  # noqa: BLE001 - report and go on, like dictee
            self.errors.append({"uid": uid, "message": f"{type(exc).__name__}: {exc}"})

    def result(self) -> dict:
        self.rows.sort(key=lambda row: (row[0], row[1]["uid"], row[1]["summary"]))
        return {"occurrences": [row for _, row in self.rows], "errors": self.errors}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="icalendar + recurring-ical-events baseline")
    ap.add_argument("file")
    ap.add_argument("--now", required=True, help="ISO-8601, e.g. 2026-11-29T18:00:00+01:00")
    ap.add_argument("--tz", required=True, help="IANA zone, e.g. Europe/Paris")
    ap.add_argument("--one-offs", choices=("direct", "rie"), default="direct",
                    help="how one-off events are checked against the wide window: "
                         "directly from DTSTART (default, fastest) or through "
                         "recurring-ical-events")
    args = ap.parse_args(argv)

    zone = ZoneInfo(args.tz)
    now = parse_now(args.now, zone)
    wide = (shift(now, zone, years=-2), shift(now, zone, days=14))
    narrow = (shift(now, zone, days=-7), shift(now, zone, days=14))

    with open(args.file, "rb") as f:
        calendar = icalendar.Calendar.from_ical(f.read())

    timezones, events = [], []
    for component in calendar.subcomponents:
        if component.name == "VTIMEZONE":
            timezones.append(component)
        elif component.name == "VEVENT":
            events.append(component)
    series_uids = {str(e.get("UID")) for e in events if "RRULE" in e or "RDATE" in e}
    series, one_offs = [], []
    for event in events:
        in_series = "RECURRENCE-ID" in event or str(event.get("UID")) in series_uids
        (series if in_series else one_offs).append(event)

    out = Collector(zone)

    # Recurring series: expand over the narrow window only. between() returns
    # occurrences overlapping the window; Collector keeps those starting in it.
    query = recurring_ical_events.of(sub_calendar(calendar, timezones, series),
                                     skip_bad_series=True)
    for occurrence in query.between(*narrow):
        out.add(occurrence, recurring=True, window=narrow)

    # One-off events: a single check against the wide window.
    if args.one_offs == "rie":
        query = recurring_ical_events.of(sub_calendar(calendar, timezones, one_offs),
                                         skip_bad_series=True)
        for occurrence in query.between(*wide):
            out.add(occurrence, recurring=False, window=wide)
    else:
        for event in one_offs:
            out.add(event, recurring=False, window=wide)

    json.dump(out.result(), sys.stdout, ensure_ascii=False, separators=(",", ":"))
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
