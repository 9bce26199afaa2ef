#!/usr/bin/env python3
"""Generate a deterministic synthetic family calendar for the ingestion benchmark.

The output imitates a Google Calendar export of a busy family calendar, scaled
up: about ten years of history (2016-12 .. 2027-05) with

* one-off events (the bulk): timed with TZID=Europe/Paris, all-day
  (VALUE=DATE, some multi-day) and some in UTC ("...Z");
* recurring series (masters + overrides are ~7-8 % of all VEVENTs):
  weekly, biweekly and monthly RRULEs (plus a few yearly birthdays), ending
  with UNTIL, COUNT or open-ended; some EXDATEs, some RECURRENCE-ID overrides
  (moved, retitled or STATUS:CANCELLED), a few RDATEs and RDATE-only series;
* French titles, some DESCRIPTION / LOCATION / ORGANIZER / ATTENDEE / VALARM,
  RFC 5545 TEXT escaping, CRLF line ends and lines folded at 75 octets;
* a Google-style header (X-WR-CALNAME, X-WR-TIMEZONE:Europe/Paris) and a
  Europe/Paris VTIMEZONE.

Series exceptions (EXDATE, overrides) are biased towards the benchmark's
default read window (around FOCUS = 2026-11-29) so that they actually matter
for the output. VEVENTs are written in shuffled order (overrides can come
before their master, as in real exports).

The output depends only on --events and --seed (random.Random(seed), a fixed
DTSTAMP, no wall-clock input): same arguments, byte-identical file.

Usage: gen_calendar.py --events 50000 --seed 7 --out FILE
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import string
import sys
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

PARIS = ZoneInfo("Europe/Paris")
UTC = dt.timezone.utc

FIRST_DAY = dt.date(2016, 12, 1)
LAST_DAY = dt.date(2027, 5, 31)
FOCUS = dt.date(2026, 11, 29)  # default --now of Scripts/bench-ingest
FOCUS_SPAN = (FOCUS - dt.timedelta(days=10), FOCUS + dt.timedelta(days=18))
EXPORT_STAMP = "20261129T170000Z"  # DTSTAMP of every event (export time)

MASTER_SHARE = 0.06  # recurring masters, as a share of all VEVENTs

# --------------------------------------------------------------------------
# French vocabulary
# --------------------------------------------------------------------------

KIDS = ["Léa", "Hugo", "Chloé", "Théo", "Zoé", "Maël", "Inès", "Noé"]
ADULTS = ["Maman", "Papa", "Mamie", "Papi", "Tata Hélène", "Tonton Jérôme"]
FRIENDS = ["les Dupont", "les Martin", "les Lefèvre", "Amélie", "François", "Sébastien"]

TIMED_TITLES = [
    "Rendez-vous pédiatre ({kid})", "Dentiste – {kid}", "Orthodontiste {kid}",
    "Ophtalmo {adult}", "Médecin généraliste", "Vaccin {kid} (rappel)",
    "Réunion parents-professeurs", "Kermesse de l'école", "Spectacle de fin d'année",
    "Anniversaire chez {friend}", "Dîner chez {friend}", "Apéro avec {friend}",
    "Courses : pain, lait, œufs", "Marché du samedi", "Coiffeur {adult}",
    "Garage – révision voiture", "Contrôle technique", "Rendez-vous banque",
    "Réunion de copropriété", "Visio avec {adult}", "Cinéma en famille",
    "Piscine avec {kid}", "Atelier poterie", "Séance d'orthophonie ({kid})",
    "Kiné {adult}", "Déjeuner avec {adult}", "Goûter d'anniversaire de {kid}",
    "Brocante du quartier", "Bibliothèque – rendre les livres", "Vétérinaire (Caramel)",
    "Rentrée scolaire – réunion", "Sortie au musée d'Orsay", "Concert au conservatoire",
    "Répétition chorale", "Plombier – fuite cuisine", "Livraison électroménager",
]
ALLDAY_TITLES = [
    "Anniversaire de {adult}", "Vacances à Saint-Malo", "Vacances chez {adult}",
    "Week-end à Annecy", "Sortie scolaire ({kid})", "Classe verte {kid}",
    "Journée pédagogique – pas d'école", "Grève SNCF ?", "Fête des voisins",
    "Pont de l'Ascension", "Séjour ski – Les Arcs", "Stage de théâtre ({kid})",
    "Jour férié", "Déménagement {friend}", "Poubelles : encombrants",
]
SERIES_WEEKLY = [
    "Entraînement de foot ({kid})", "Cours de piano – {kid}", "Judo {kid}",
    "Danse classique ({kid})", "Natation {kid}", "Solfège au conservatoire",
    "Cours d'anglais {kid}", "Scouts – réunion", "Yoga {adult}", "Chorale",
    "Aide aux devoirs", "Basket {kid}", "Catéchisme", "Escalade en salle",
]
SERIES_BIWEEKLY = [
    "Garde alternée – semaine de {adult}", "Ménage (aide à domicile)",
    "Club de lecture", "Atelier jardinage partagé", "Permanence AMAP",
]
SERIES_MONTHLY = [
    "Réunion du club de bridge", "Dîner des copains", "Conseil d'école",
    "Bénévolat Restos du Cœur", "Loyer à payer", "Réunion association sportive",
    "Visite chez {adult}", "Orthodontiste {kid} (suivi)",
]
BIRTHDAY = "Anniversaire de {name} 🎂"

STREETS = [
    "rue de la Paix", "avenue Jean-Jaurès", "boulevard Saint-Germain",
    "rue des Écoles", "place de la République", "chemin des Vignes",
    "allée des Tilleuls", "rue Émile-Zola", "quai de la Loire",
]
CITIES = ["75005 Paris", "92100 Boulogne-Billancourt", "69003 Lyon", "35400 Saint-Malo",
          "74000 Annecy", "94300 Vincennes", "78000 Versailles"]
PLACES = [
    "Gymnase municipal", "Conservatoire Hector-Berlioz", "École élémentaire Jules-Ferry",
    "Cabinet médical", "Piscine Georges-Vallerey", "Médiathèque", "Stade Charléty",
    "Salle des fêtes",
]
DESCRIPTION_LINES = [
    "Penser à prendre la carte Vitale.",
    "Apporter le carnet de santé, l'ordonnance et la mutuelle.",
    "Prévoir un goûter et une gourde ; tenue de sport obligatoire.",
    "Code porte : 4521B, 3e étage, interphone « Dupont ».",
    "Covoiturage avec les Martin (aller) et les Lefèvre (retour).",
    "Rappel : payer la cotisation (45 €) avant la fin du mois.",
    "Lien visio : https://meet.google.com/abc-defg-hij",
    "Ne pas oublier le cadeau ! Idées : livre, puzzle, jeu de société.",
    "Annulé si pluie, sinon rendez-vous devant l'entrée principale.",
    "Réponse attendue avant vendredi, merci de confirmer par SMS.",
]
EMAILS = ["marie.dupont@gmail.com", "jerome.lefevre@gmail.com", "famille.martin@gmail.com",
          "helene.bernard@orange.fr", "ecole.jules-ferry@ac-paris.fr"]

# --------------------------------------------------------------------------
# iCalendar writing helpers
# --------------------------------------------------------------------------


def escape_text(value: str) -> str:
    """RFC 5545 TEXT escaping."""
    return (value.replace("\\", "\\\\").replace(";", "\\;")
            .replace(",", "\\,").replace("\n", "\\n"))


def fold(line: str) -> str:
    """Fold a content line at 75 octets without splitting UTF-8 sequences."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line + "\r\n"
    parts, start, limit = [], 0, 75
    while start < len(data):
        end = min(start + limit, len(data))
        while end < len(data) and (data[end] & 0xC0) == 0x80:  # continuation byte
            end -= 1
        parts.append(data[start:end].decode("utf-8"))
        start, limit = end, 74  # continuation lines begin with one space
    return "\r\n ".join(parts) + "\r\n"


def fmt_local(t: dt.datetime) -> str:
    return t.strftime("%Y%m%dT%H%M%S")


def fmt_utc(t: dt.datetime) -> str:
    return t.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def fmt_date(d: dt.date) -> str:
    return d.strftime("%Y%m%d")


def paris(naive: dt.datetime) -> dt.datetime:
    return naive.replace(tzinfo=PARIS)


VTIMEZONE = [
    "BEGIN:VTIMEZONE", "TZID:Europe/Paris", "X-LIC-LOCATION:Europe/Paris",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "TZNAME:CEST",
    "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET",
    "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD",
    "END:VTIMEZONE",
]

# --------------------------------------------------------------------------
# Model
# --------------------------------------------------------------------------


@dataclass
class Event:
    """One VEVENT; `start`/`end` are Paris-aware datetimes, UTC datetimes or dates."""

    uid: str
    summary: str
    start: dt.date | dt.datetime
    end: dt.date | dt.datetime
    utc: bool = False
    rrule: str | None = None
    rdates: list = field(default_factory=list)
    exdates: list = field(default_factory=list)
    recurrence_id: dt.date | dt.datetime | None = None
    status: str = "CONFIRMED"
    sequence: int = 0
    extra: list = field(default_factory=list)  # pre-built content lines


class Generator:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.uids: set[str] = set()

    # -- small random helpers ------------------------------------------------

    def uid(self) -> str:
        while True:
            n = self.rng.randint(20, 26)
            u = "".join(self.rng.choices(string.ascii_lowercase + string.digits, k=n))
            if u not in self.uids:
                self.uids.add(u)
                return u + "@google.com"

    def fill(self, template: str) -> str:
        r = self.rng
        return template.format(kid=r.choice(KIDS), adult=r.choice(ADULTS),
                               friend=r.choice(FRIENDS), name=r.choice(KIDS + ADULTS))

    def day(self) -> dt.date:
        """A day in [FIRST_DAY, LAST_DAY], denser in recent years (usage grows)."""
        span = (LAST_DAY - FIRST_DAY).days
        return FIRST_DAY + dt.timedelta(days=int(span * self.rng.random() ** 0.8))

    def clock(self, weekend: bool) -> dt.time:
        r = self.rng
        hour = r.choice([9, 10, 11, 12, 14, 15, 16, 17, 19, 20] if weekend
                        else [8, 9, 10, 12, 14, 16, 17, 17, 18, 18, 19, 20])
        return dt.time(hour, r.choice([0, 0, 0, 15, 30, 30, 45]))

    def minutes(self) -> int:
        return self.rng.choice([30, 45, 60, 60, 60, 90, 90, 120, 180, 240])

    def decorate(self, ev: Event, place_bias: float = 0.4) -> None:
        """Optional LOCATION / DESCRIPTION / ORGANIZER / ATTENDEE / VALARM lines."""
        r = self.rng
        if r.random() < place_bias:
            loc = (f"{r.choice(PLACES)}, {r.randint(1, 120)} {r.choice(STREETS)}, "
                   f"{r.choice(CITIES)}")
            ev.extra.append("LOCATION:" + escape_text(loc))
        if r.random() < 0.3:
            text = "\n".join(r.sample(DESCRIPTION_LINES, r.randint(1, 4)))
            ev.extra.append("DESCRIPTION:" + escape_text(text))
        if r.random() < 0.2:
            mail = r.choice(EMAILS)
            ev.extra.append(f"ORGANIZER;CN={mail}:mailto:{mail}")
            for other in r.sample(EMAILS, r.randint(0, 2)):
                ev.extra.append(
                    "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT="
                    f"{r.choice(['ACCEPTED', 'NEEDS-ACTION', 'TENTATIVE'])};CN={other};"
                    f"X-NUM-GUESTS=0:mailto:{other}")
        if r.random() < 0.12:
            ev.extra += ["BEGIN:VALARM", "ACTION:DISPLAY",
                         "DESCRIPTION:This is an event reminder",
                         f"TRIGGER:-P0DT0H{r.choice([10, 30])}M0S", "END:VALARM"]

    # -- one-off events --------------------------------------------------------

    def one_off(self) -> Event:
        r = self.rng
        day = self.day()
        kind = r.random()
        if kind < 0.16:  # all-day, sometimes several days
            length = 1 if r.random() < 0.8 else r.randint(2, 9)
            ev = Event(self.uid(), self.fill(r.choice(ALLDAY_TITLES)), day,
                       day + dt.timedelta(days=length))
        else:
            start = paris(dt.datetime.combine(day, self.clock(day.weekday() >= 5)))
            end = start + dt.timedelta(minutes=self.minutes())
            utc = kind > 0.88  # ~12 % of all one-offs are written in UTC
            ev = Event(self.uid(), self.fill(r.choice(TIMED_TITLES)), start, end, utc=utc)
            if r.random() < 0.03:
                ev.status = "TENTATIVE"
        self.decorate(ev)
        return ev

    # -- recurring series ------------------------------------------------------

    def series(self) -> list[Event]:
        """A master plus its overrides."""
        r = self.rng
        kind = r.random()
        if kind < 0.03:
            return self.rdate_series()
        if kind < 0.11:
            return self.birthday_series()
        start_day = self.day()
        if kind < 0.55:
            freq, interval, title = "WEEKLY", 1, r.choice(SERIES_WEEKLY)
        elif kind < 0.75:
            freq, interval, title = "WEEKLY", 2, r.choice(SERIES_BIWEEKLY)
        else:
            freq, interval, title = "MONTHLY", 1, r.choice(SERIES_MONTHLY)
        all_day = freq == "WEEKLY" and interval == 2 and r.random() < 0.5
        parts = [f"FREQ={freq}"]
        if interval > 1:
            parts.append(f"INTERVAL={interval}")

        if freq == "WEEKLY":
            days = [start_day.weekday()]
            if interval == 1 and not all_day and r.random() < 0.2:
                days.append((days[0] + r.choice([2, 3])) % 7)  # e.g. TU,TH
            byday = sorted(set(days))
            parts.append("BYDAY=" + ",".join(WEEKDAYS[d] for d in byday))
            dates = weekly_dates(start_day, byday, interval)
        else:
            if r.random() < 0.5:
                start_day = start_day.replace(day=min(start_day.day, 28))
                parts.append(f"BYMONTHDAY={start_day.day}")
                dates = monthly_dates_by_day(start_day)
            else:
                nth = min((start_day.day - 1) // 7 + 1, 4)
                wd = start_day.weekday()
                start_day = nth_weekday(start_day.year, start_day.month, nth, wd)
                parts.append(f"BYDAY={nth}{WEEKDAYS[wd]}")
                dates = monthly_dates_by_weekday(start_day, nth, wd)

        if all_day:
            starts = dates
            dur = dt.timedelta(days=7 if r.random() < 0.5 else 1)
        else:
            t = self.clock(start_day.weekday() >= 5)
            starts = [paris(dt.datetime.combine(d, t)) for d in dates]
            dur = dt.timedelta(minutes=r.choice([45, 60, 60, 90, 120]))

        # Termination: UNTIL (often a school year), COUNT, or open-ended.
        end_kind = r.random()
        if end_kind < 0.45:
            months = r.choice([2, 3, 6, 9, 10, 10, 10, 12, 24])
            last_day = start_day + dt.timedelta(days=int(months * 30.4))
            starts = [s for s in starts if as_date(s) <= last_day] or starts[:1]
            if all_day:
                until = fmt_date(starts[-1] + dt.timedelta(days=r.choice([0, 3])))
            elif r.random() < 0.3:  # UNTIL exactly on the last occurrence (inclusive)
                until = fmt_utc(starts[-1])
            else:  # Google style: end of the last day, local, in UTC
                until = fmt_utc(paris(dt.datetime.combine(
                    starts[-1].date(), dt.time(23, 59, 59))))
            parts.append(f"UNTIL={until}")
        elif end_kind < 0.65:
            count = r.randint(4, 40)
            starts = starts[:count]
            parts.append(f"COUNT={count}")

        master = Event(self.uid(), self.fill(title), starts[0], starts[0] + dur,
                       rrule=";".join(parts), sequence=r.randint(0, 2))
        if r.random() < 0.5:
            master.extra.append("LOCATION:" + escape_text(r.choice(PLACES)))
        self.decorate(master, place_bias=0.0)
        events = [master]

        if not all_day and r.random() < 0.04:  # an extra date (RDATE)
            extra = starts[-1] + dt.timedelta(days=r.choice([1, 2, 3]), hours=r.choice([0, 1]))
            master.rdates.append(extra)

        # Exceptions: EXDATEs and overrides on distinct occurrences.
        candidates = list(starts[1:])
        if r.random() < 0.22:
            for _ in range(r.randint(1, 3)):
                occ = self.pick(candidates)
                if occ is not None:
                    master.exdates.append(occ)
        if r.random() < 0.28:
            for _ in range(r.randint(1, 3)):
                occ = self.pick(candidates)
                if occ is not None:
                    events.append(self.override(master, occ, dur))
        return events

    def pick(self, candidates: list):
        """Pop an occurrence, preferring the default read window half of the time."""
        if not candidates:
            return None
        near = [c for c in candidates if FOCUS_SPAN[0] <= as_date(c) <= FOCUS_SPAN[1]]
        pool = near if near and self.rng.random() < 0.5 else candidates
        choice = self.rng.choice(pool)
        candidates.remove(choice)
        return choice

    def override(self, master: Event, occ, dur: dt.timedelta) -> Event:
        r = self.rng
        ev = Event(master.uid, master.summary, occ, occ + dur, recurrence_id=occ,
                   sequence=master.sequence + 1)
        kind = r.random()
        if kind < 0.25:
            ev.status = "CANCELLED"
        elif kind < 0.55 and isinstance(occ, dt.datetime):  # moved by an hour or so
            ev.start = occ + dt.timedelta(minutes=r.choice([-60, -30, 30, 60, 90]))
            ev.end = ev.start + dur
        elif kind < 0.8:  # moved to another day
            ev.start = occ + dt.timedelta(days=r.choice([-2, -1, 1, 2, 3]))
            ev.end = ev.start + dur
        else:
            ev.summary = master.summary + " (exceptionnellement)"
        if r.random() < 0.3:
            ev.extra.append("LOCATION:" + escape_text(r.choice(PLACES)))
        return ev

    def birthday_series(self) -> list[Event]:
        r = self.rng
        day = self.day()
        if day.month == 2 and day.day == 29:
            day = day.replace(day=28)
        ev = Event(self.uid(), BIRTHDAY.format(name=r.choice(KIDS + ADULTS + FRIENDS)),
                   day, day + dt.timedelta(days=1), rrule="FREQ=YEARLY")
        ev.extra.append("TRANSP:TRANSPARENT")
        return [ev]

    def rdate_series(self) -> list[Event]:
        """DTSTART plus an explicit RDATE list (no RRULE), e.g. a set of sessions."""
        r = self.rng
        day = self.day()
        start = paris(dt.datetime.combine(day, self.clock(day.weekday() >= 5)))
        dur = dt.timedelta(minutes=r.choice([60, 90, 120]))
        ev = Event(self.uid(), self.fill(r.choice(SERIES_WEEKLY)), start, start + dur)
        gap = 0
        for _ in range(r.randint(2, 8)):
            gap += r.randint(5, 20)
            ev.rdates.append(start + dt.timedelta(days=gap))
        self.decorate(ev, place_bias=0.3)
        return [ev]


WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def as_date(value) -> dt.date:
    return value.date() if isinstance(value, dt.datetime) else value


def weekly_dates(start: dt.date, weekdays: list[int], interval: int) -> list[dt.date]:
    """Occurrence days of FREQ=WEEKLY;BYDAY=... up to LAST_DAY (WKST=MO)."""
    out = []
    week = start - dt.timedelta(days=start.weekday())
    while week <= LAST_DAY:
        for wd in weekdays:
            d = week + dt.timedelta(days=wd)
            if start <= d <= LAST_DAY:
                out.append(d)
        week += dt.timedelta(days=7 * interval)
    return out


def monthly_dates_by_day(start: dt.date) -> list[dt.date]:
    out, y, m = [], start.year, start.month
    while (d := dt.date(y, m, start.day)) <= LAST_DAY:
        out.append(d)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def nth_weekday(year: int, month: int, nth: int, weekday: int) -> dt.date:
    first = dt.date(year, month, 1)
    return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))


def monthly_dates_by_weekday(start: dt.date, nth: int, weekday: int) -> list[dt.date]:
    out, y, m = [], start.year, start.month
    while (d := nth_weekday(y, m, nth, weekday)) <= LAST_DAY:
        out.append(d)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


# --------------------------------------------------------------------------
# Serialisation
# --------------------------------------------------------------------------


def time_prop(name: str, value, utc: bool = False) -> str:
    if not isinstance(value, dt.datetime):
        return f"{name};VALUE=DATE:{fmt_date(value)}"
    if utc:
        return f"{name}:{fmt_utc(value)}"
    return f"{name};TZID=Europe/Paris:{fmt_local(value)}"


def vevent_lines(ev: Event, rng: random.Random) -> list[str]:
    lines = ["BEGIN:VEVENT", time_prop("DTSTART", ev.start, ev.utc),
             time_prop("DTEND", ev.end, ev.utc)]
    if ev.rrule:
        lines.append("RRULE:" + ev.rrule)
    for d in ev.rdates:
        lines.append(time_prop("RDATE", d))
    for d in ev.exdates:
        lines.append(time_prop("EXDATE", d))
    lines.append("DTSTAMP:" + EXPORT_STAMP)
    lines.append("UID:" + ev.uid)
    if ev.recurrence_id is not None:
        lines.append(time_prop("RECURRENCE-ID", ev.recurrence_id))
    created = as_date(ev.recurrence_id or ev.start) - dt.timedelta(days=rng.randint(1, 60))
    created_at = dt.datetime.combine(created, dt.time(rng.randint(6, 22), rng.randint(0, 59)),
                                     tzinfo=UTC)
    lines.append("CREATED:" + fmt_utc(created_at))
    lines.append("LAST-MODIFIED:" + fmt_utc(created_at + dt.timedelta(hours=rng.randint(0, 72))))
    lines.append(f"SEQUENCE:{ev.sequence}")
    lines.append("STATUS:" + ev.status)
    lines.append("SUMMARY:" + escape_text(ev.summary))
    if not any(x.startswith("TRANSP:") for x in ev.extra):
        lines.append("TRANSP:" + ("TRANSPARENT" if not isinstance(ev.start, dt.datetime)
                                  else "OPAQUE"))
    lines.extend(ev.extra)
    lines.append("END:VEVENT")
    return lines


def generate(n_events: int, seed: int) -> tuple[str, dict]:
    gen = Generator(seed)
    events: list[Event] = []
    n_masters = round(n_events * MASTER_SHARE)
    masters = 0
    while masters < n_masters and len(events) < n_events:
        group = gen.series()
        events.extend(group[: n_events - len(events)])
        masters += 1
    while len(events) < n_events:
        events.append(gen.one_off())
    gen.rng.shuffle(events)

    out = [
        "BEGIN:VCALENDAR", "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
        "VERSION:2.0", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
        "X-WR-CALNAME:Famille Moreau", "X-WR-TIMEZONE:Europe/Paris",
        "X-WR-CALDESC:" + escape_text("Agenda partagé de la famille, écoles, sports, santé"),
        *VTIMEZONE,
    ]
    for ev in events:
        out.extend(vevent_lines(ev, gen.rng))
    out.append("END:VCALENDAR")

    stats = {
        "vevents": len(events),
        "masters": sum(1 for e in events if e.rrule or e.rdates),
        "overrides": sum(1 for e in events if e.recurrence_id is not None),
        "cancelled_overrides": sum(1 for e in events if e.status == "CANCELLED"),
        "exdates": sum(len(e.exdates) for e in events),
        "with_rdate": sum(1 for e in events if e.rdates),
    }
    return "".join(fold(line) for line in out), stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=50000, help="number of VEVENTs")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", required=True, help="output .ics path")
    args = ap.parse_args(argv)
    if args.events < 1:
        ap.error("--events must be positive")

    text, stats = generate(args.events, args.seed)
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, args.out)
    series_share = (stats["masters"] + stats["overrides"]) / stats["vevents"]
    print(f"gen_calendar: {args.out}: {stats['vevents']} VEVENTs "
          f"({stats['masters']} series masters, {stats['overrides']} overrides of which "
          f"{stats['cancelled_overrides']} cancelled, {stats['exdates']} EXDATEs, "
          f"{stats['with_rdate']} with RDATE; {series_share:.1%} of VEVENTs in series), "
          f"{len(text.encode('utf-8')) / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
