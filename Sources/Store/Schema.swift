/// The state database's schema, as numbered migrations (never edit a released one; add the next).
///
/// Privacy (ARCHITECTURE.md rule 2): no column holds SUMMARY, LOCATION or DESCRIPTION text or
/// anything derived from it, except the rule id and the captured first name of a moment. Events are
/// keyed by `event_ref` (a 48-bit hash of the UID) and, per occurrence, its start.
enum Schema {
    static let migrations: [Migration] = [
        Migration(version: 1, sql: """
            CREATE TABLE children (
                id INTEGER PRIMARY KEY,
                first_name TEXT NOT NULL UNIQUE,
                gender TEXT NOT NULL CHECK (gender IN ('f', 'm')),
                grade TEXT NOT NULL CHECK (grade IN ('CP', 'CE1', 'CE2', 'CM1', 'CM2'))
            );

            -- Calendar files ingested (their path only, so that review --show-titles can re-read
            -- a title for the terminal).
            CREATE TABLE sources (
                id INTEGER PRIMARY KEY,
                path TEXT NOT NULL UNIQUE
            );

            -- One row per series (or one-off event) that needed the parent: unlabeled events.
            CREATE TABLE suggestions (
                id INTEGER PRIMARY KEY,
                event_ref TEXT NOT NULL UNIQUE CHECK (event_ref GLOB 'ev-[0-9a-f]*'),
                status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'labeled', 'rejected')),
                label TEXT CHECK ((status = 'labeled') = (label IS NOT NULL))
            );

            -- One row per occurrence in a read window: a moment, a disqualified or an unlabeled one.
            CREATE TABLE occurrences (
                event_ref TEXT NOT NULL CHECK (event_ref GLOB 'ev-[0-9a-f]*'),
                start_key TEXT NOT NULL,               -- the start as stored below, for the key
                all_day INTEGER NOT NULL CHECK (all_day IN (0, 1)),
                start_seconds INTEGER,                 -- timed: seconds since the epoch
                end_seconds INTEGER,
                start_date TEXT,                       -- all-day: YYYY-MM-DD, end exclusive
                end_date TEXT,
                recurring INTEGER NOT NULL CHECK (recurring IN (0, 1)),
                decision TEXT NOT NULL CHECK (decision IN ('moment', 'disqualified', 'unlabeled')),
                rule TEXT CHECK (rule IS NULL OR rule = 'label' OR rule GLOB '[MD][0-9]*'),
                phrase TEXT,                           -- moments: canonical phrase with the name
                base_phrase TEXT,
                head_noun TEXT,
                gender TEXT CHECK (gender IS NULL OR gender IN ('f', 'm')),
                number TEXT CHECK (number IS NULL OR number IN ('s', 'p')),
                first_name TEXT,
                source_id INTEGER REFERENCES sources(id),
                PRIMARY KEY (event_ref, start_key),
                CHECK ((decision = 'moment') = (phrase IS NOT NULL))
            ) WITHOUT ROWID;
            CREATE INDEX occurrences_by_decision ON occurrences(decision, start_key);
            """),
        Migration(version: 2, sql: """
            -- Small facts about the family's setup, e.g. the time zone of the last ingest (so that
            -- 'suggestions list' and 'review' show times as the calendar meant them).
            CREATE TABLE settings (
                key TEXT PRIMARY KEY CHECK (key IN ('tz')),
                value TEXT NOT NULL
            );
            """),
    ]
}
