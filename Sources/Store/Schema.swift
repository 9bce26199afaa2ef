/// The state database's schema, as numbered migrations (never edit a released one; add the next).
///
/// Privacy (Docs/architecture.md rule 2): no column holds SUMMARY, LOCATION or DESCRIPTION text or
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
        Migration(version: 3, sql: """
            -- Dictations written for a child (Docs/domain.md §7-8): validated texts ready behind a card, served
            -- (picked by the child), graded (by the parent), or retired (planned before a grading
            -- that changed the plan, or about a moment that left the calendar). The text holds the
            -- child's first name and the canonical phrase of the moment, never calendar text.
            CREATE TABLE dictations (
                id INTEGER PRIMARY KEY,
                child_id INTEGER NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                event_ref TEXT NOT NULL CHECK (event_ref GLOB 'ev-[0-9a-f]*'),  -- the occurrence
                start_key TEXT NOT NULL CHECK (start_key GLOB '[dt]:*'),
                moment TEXT NOT NULL,                  -- the canonical phrase the text is about
                title TEXT NOT NULL,
                body TEXT NOT NULL,
                origin TEXT NOT NULL,                  -- 'library:<text id>' or a model id
                targets TEXT NOT NULL,                 -- the planner's target skill ids, comma-separated
                aim_words REAL NOT NULL CHECK (aim_words > 0),  -- the planner's aimed word count
                density REAL NOT NULL CHECK (density > 0),      -- the planner's trap sites per sentence
                planned_after INTEGER NOT NULL DEFAULT 0,       -- the child's last graded dictation then (0: none)
                status TEXT NOT NULL DEFAULT 'ready'
                    CHECK (status IN ('ready', 'served', 'graded', 'retired')),
                card INTEGER CHECK (card IS NULL OR card BETWEEN 1 AND 3),  -- place in the current deal
                created_at INTEGER NOT NULL,           -- seconds since the epoch
                served_at INTEGER,
                graded_at INTEGER,
                CHECK ((status IN ('served', 'graded')) = (served_at IS NOT NULL)),
                CHECK ((status = 'graded') = (graded_at IS NOT NULL)),
                CHECK (card IS NULL OR status = 'ready')
            );
            CREATE UNIQUE INDEX dictations_by_card ON dictations(child_id, card) WHERE card IS NOT NULL;
            CREATE INDEX dictations_by_child ON dictations(child_id, status);

            -- The trap sites of a dictation, numbered in text order for the parent; 'missed' is set
            -- when the dictation is graded (1: the child got it wrong).
            CREATE TABLE trap_sites (
                dictation_id INTEGER NOT NULL REFERENCES dictations(id) ON DELETE CASCADE,
                number INTEGER NOT NULL CHECK (number >= 1),
                skill TEXT NOT NULL,
                start_offset INTEGER NOT NULL,         -- Unicode scalar offsets in the body, half-open
                end_offset INTEGER NOT NULL,
                word TEXT NOT NULL,
                choice TEXT,                           -- homophones: the right word
                alternatives TEXT NOT NULL DEFAULT '', -- homophones: the wrong ones, comma-separated
                missed INTEGER CHECK (missed IS NULL OR missed IN (0, 1)),
                PRIMARY KEY (dictation_id, number)
            ) WITHOUT ROWID;

            -- One graded exposure per skill exercised in a graded dictation: the history the skill
            -- states are replayed from (no state is stored, so none can drift).
            CREATE TABLE exposures (
                dictation_id INTEGER NOT NULL REFERENCES dictations(id) ON DELETE CASCADE,
                skill TEXT NOT NULL,
                child_id INTEGER NOT NULL REFERENCES children(id) ON DELETE CASCADE,
                graded_at INTEGER NOT NULL,
                sites INTEGER NOT NULL CHECK (sites >= 1),
                errors INTEGER NOT NULL CHECK (errors BETWEEN 0 AND sites),
                PRIMARY KEY (dictation_id, skill)
            );
            CREATE INDEX exposures_by_child ON exposures(child_id, graded_at);
            """),
        Migration(version: 4, sql: """
            -- Every attempt a language model made for a dictation (also those that ended in
            -- the library fallback), for 'dictee stats' (about the model, never about a child).
            CREATE TABLE attempts (
                dictation_id INTEGER NOT NULL REFERENCES dictations(id) ON DELETE CASCADE,
                number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 5),
                failed_steps TEXT NOT NULL,            -- step ids, comma-separated; empty: accepted
                prompt_tokens INTEGER NOT NULL CHECK (prompt_tokens >= 0),
                completion_tokens INTEGER NOT NULL CHECK (completion_tokens >= 0),
                seconds REAL NOT NULL CHECK (seconds >= 0),
                finish_reason TEXT NOT NULL,
                removed TEXT NOT NULL DEFAULT '',      -- prompt parts left out (refusal diagnosis)
                PRIMARY KEY (dictation_id, number)
            ) WITHOUT ROWID;
            -- Which removal unlocked a refusal (sans_moment, sans_regle_de_contenu), if any.
            ALTER TABLE dictations ADD COLUMN diagnosis TEXT;
            """),
        Migration(version: 5, sql: """
            -- The validator rules each attempt failed, as 'step/rule' ids, comma-separated
            -- (e.g. 'orthographe_grammaire/elision_consonne,longueur/longueur_mots'); empty when
            -- accepted, when it failed before the validator, and for attempts stored before.
            ALTER TABLE attempts ADD COLUMN failed_rules TEXT NOT NULL DEFAULT '';
            """),
        Migration(version: 6, sql: """
            -- Moments belong to children (issue 12): the ids of the children a title names, or a
            -- label was given for, comma-separated and sorted ('' : the whole family's); a label's
            -- library kind. Rules may now be parents' events (P..). SQLite cannot change a CHECK
            -- constraint in place: the table is rebuilt, every row kept.
            CREATE TABLE occurrences_v6 (
                event_ref TEXT NOT NULL CHECK (event_ref GLOB 'ev-[0-9a-f]*'),
                start_key TEXT NOT NULL,
                all_day INTEGER NOT NULL CHECK (all_day IN (0, 1)),
                start_seconds INTEGER,
                end_seconds INTEGER,
                start_date TEXT,
                end_date TEXT,
                recurring INTEGER NOT NULL CHECK (recurring IN (0, 1)),
                decision TEXT NOT NULL CHECK (decision IN ('moment', 'disqualified', 'unlabeled')),
                rule TEXT CHECK (rule IS NULL OR rule = 'label' OR rule GLOB '[MDP][0-9]*'),
                phrase TEXT,
                base_phrase TEXT,
                head_noun TEXT,
                gender TEXT CHECK (gender IS NULL OR gender IN ('f', 'm')),
                number TEXT CHECK (number IS NULL OR number IN ('s', 'p')),
                first_name TEXT,
                source_id INTEGER REFERENCES sources(id),
                children TEXT NOT NULL DEFAULT '' CHECK (children NOT GLOB '*[^0-9,]*'),
                kind TEXT,
                PRIMARY KEY (event_ref, start_key),
                CHECK ((decision = 'moment') = (phrase IS NOT NULL))
            ) WITHOUT ROWID;
            INSERT INTO occurrences_v6 (event_ref, start_key, all_day, start_seconds, end_seconds,
                start_date, end_date, recurring, decision, rule, phrase, base_phrase, head_noun, gender,
                number, first_name, source_id)
            SELECT event_ref, start_key, all_day, start_seconds, end_seconds, start_date, end_date,
                recurring, decision, rule, phrase, base_phrase, head_noun, gender, number, first_name,
                source_id FROM occurrences;
            DROP TABLE occurrences;
            ALTER TABLE occurrences_v6 RENAME TO occurrences;
            CREATE INDEX occurrences_by_decision ON occurrences(decision, start_key);

            -- A parent's label keeps what was derived from it when it was checked (Lexique):
            -- the head noun's gender and number, the head noun, the library kind, and the
            -- children it was given for (ids, as above). NULL for labels stored before.
            ALTER TABLE suggestions ADD COLUMN label_gender TEXT CHECK (label_gender IS NULL OR label_gender IN ('f', 'm'));
            ALTER TABLE suggestions ADD COLUMN label_number TEXT CHECK (label_number IS NULL OR label_number IN ('s', 'p'));
            ALTER TABLE suggestions ADD COLUMN label_head TEXT;
            ALTER TABLE suggestions ADD COLUMN label_kind TEXT;
            ALTER TABLE suggestions ADD COLUMN label_for TEXT NOT NULL DEFAULT '' CHECK (label_for NOT GLOB '*[^0-9,]*');
            """),
        Migration(version: 7, sql: """
            -- Remote calendar sources (issue 14): a subscription URL or a CalDAV collection is a
            -- row of `sources` (its URL in `path`). What dictee keeps to fetch only what changed,
            -- never calendar data: the collection's RFC 6578 sync token, and per calendar object
            -- (a CalDAV href; '' for a subscription's one document) its ETag (a subscription's
            -- Last-Modified too), the event references read from it, and from when it must be read
            -- again although unchanged (an occurrence of it enters the moving read window then).
            ALTER TABLE sources ADD COLUMN sync_token TEXT;
            CREATE TABLE remote_objects (
                source_id INTEGER NOT NULL REFERENCES sources(id),
                href TEXT NOT NULL,
                etag TEXT,
                last_modified TEXT,
                event_refs TEXT NOT NULL DEFAULT '' CHECK (event_refs NOT GLOB '*[^ev0-9a-f,-]*'),
                recheck_at INTEGER,
                PRIMARY KEY (source_id, href)
            ) WITHOUT ROWID;
            """),
        Migration(version: 8, sql: """
            -- A second setting, 'rules': the privacy filter's rules the last complete ingest decided
            -- with (the SHA-256 of each rule file, and whether the Lexique table was there). When
            -- they change, every remote source is read whole once, so that no stored moment decided
            -- by older rules stays (IngestRun). SQLite cannot change a CHECK: the table is copied.
            CREATE TABLE settings_v8 (
                key TEXT PRIMARY KEY CHECK (key IN ('tz', 'rules')),
                value TEXT NOT NULL
            );
            INSERT INTO settings_v8 (key, value) SELECT key, value FROM settings;
            DROP TABLE settings;
            ALTER TABLE settings_v8 RENAME TO settings;
            """),
        Migration(version: 9, sql: """
            -- Of each attempt's prompt tokens, those the model did not evaluate again because it
            -- kept them from an earlier request (its KV cache: the instructions of the same plan,
            -- the first prompt on a retry). 0 when the model cannot say (an HTTP server) and for
            -- attempts stored before.
            ALTER TABLE attempts ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cached_tokens >= 0);
            """),
    ]
}
