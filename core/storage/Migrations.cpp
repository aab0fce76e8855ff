#include "core/storage/Migrations.h"

namespace sandpad {

const QList<Migration>& Migrations::all()
{
    static const QList<Migration> migrations = {
        // 1: usage ledger, credits account, documents and their immutable revisions.
        {1,
         {
             QStringLiteral(R"(CREATE TABLE usage (
                 run_id       TEXT PRIMARY KEY NOT NULL,
                 time_ms      INTEGER NOT NULL,          -- UTC, ms since the epoch
                 provider     TEXT NOT NULL DEFAULT '',
                 language     TEXT NOT NULL DEFAULT '',
                 source       TEXT NOT NULL DEFAULT '',
                 document_id  TEXT NOT NULL DEFAULT '',
                 revision_id  TEXT NOT NULL DEFAULT '',
                 title        TEXT NOT NULL DEFAULT '',
                 status       TEXT NOT NULL DEFAULT '',
                 cost_micros  INTEGER NOT NULL CHECK (cost_micros >= 0),
                 reason       TEXT NOT NULL DEFAULT ''
             ))"),
             QStringLiteral("CREATE INDEX usage_time ON usage(time_ms)"),
             QStringLiteral("CREATE INDEX usage_document ON usage(document_id)"),
             // A single row: the optional billing adapter (off by default).
             QStringLiteral(R"(CREATE TABLE credits (
                 id             INTEGER PRIMARY KEY CHECK (id = 1),
                 enabled        INTEGER NOT NULL DEFAULT 0,
                 balance_micros INTEGER NOT NULL DEFAULT 0
             ))"),
             QStringLiteral("INSERT INTO credits (id, enabled, balance_micros) VALUES (1, 0, 0)"),
             QStringLiteral(R"(CREATE TABLE documents (
                 id               TEXT PRIMARY KEY NOT NULL,
                 title            TEXT NOT NULL,
                 head_revision_id TEXT REFERENCES revisions(id),
                 created_ms       INTEGER NOT NULL,
                 updated_ms       INTEGER NOT NULL,
                 deleted          INTEGER NOT NULL DEFAULT 0
             ))"),
             QStringLiteral(R"(CREATE TABLE revisions (
                 id          TEXT PRIMARY KEY NOT NULL,
                 document_id TEXT NOT NULL REFERENCES documents(id),
                 parent_id   TEXT REFERENCES revisions(id),
                 seq         INTEGER NOT NULL,           -- 1, 2, ... within the document
                 content     TEXT NOT NULL,
                 sha256      TEXT NOT NULL,
                 size        INTEGER NOT NULL,
                 created_ms  INTEGER NOT NULL,
                 UNIQUE (document_id, seq)
             ))"),
             // Revisions are immutable: nothing may rewrite or remove one.
             QStringLiteral(R"(CREATE TRIGGER revisions_no_update BEFORE UPDATE ON revisions
                 BEGIN SELECT RAISE(ABORT, 'revisions are immutable'); END)"),
             QStringLiteral(R"(CREATE TRIGGER revisions_no_delete BEFORE DELETE ON revisions
                 BEGIN SELECT RAISE(ABORT, 'revisions are immutable'); END)"),
         }},
        // 2: the run notebook (finished runs shown by the GUI, kept across restarts).
        {2,
         {
             QStringLiteral(R"(CREATE TABLE runs (
                 run_id          TEXT PRIMARY KEY NOT NULL,
                 started_ms      INTEGER NOT NULL,
                 title           TEXT NOT NULL DEFAULT '',
                 language        TEXT NOT NULL DEFAULT '',
                 provider        TEXT NOT NULL DEFAULT '',
                 status          TEXT NOT NULL DEFAULT '',
                 duration_ms     INTEGER NOT NULL DEFAULT 0,
                 cost_micros     INTEGER NOT NULL DEFAULT 0,
                 code            TEXT NOT NULL DEFAULT '',
                 stdout          TEXT NOT NULL DEFAULT '',
                 stderr          TEXT NOT NULL DEFAULT '',
                 result          TEXT,                   -- NULL: no result variable
                 has_error       INTEGER NOT NULL DEFAULT 0,
                 error_name      TEXT NOT NULL DEFAULT '',
                 error_value     TEXT NOT NULL DEFAULT '',
                 error_traceback TEXT NOT NULL DEFAULT '',
                 exit_code       INTEGER,                -- NULL: unknown
                 reason          TEXT NOT NULL DEFAULT '',
                 message         TEXT NOT NULL DEFAULT '',
                 document_id     TEXT NOT NULL DEFAULT '',
                 revision_id     TEXT NOT NULL DEFAULT ''
             ))"),
             QStringLiteral("CREATE INDEX runs_started ON runs(started_ms)"),
             QStringLiteral("CREATE INDEX runs_document ON runs(document_id)"),
             QStringLiteral(R"(CREATE TABLE run_charts (
                 run_id   TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
                 position INTEGER NOT NULL,
                 kind     TEXT NOT NULL CHECK (kind IN ('png', 'interactive')),
                 png      BLOB,
                 spec     TEXT,
                 PRIMARY KEY (run_id, position)
             ))"),
         }},
        // 3: credits held by runs in progress, so that concurrent runs (threads and processes
        // sharing this file) cannot spend one balance twice. A row lives from before the sandbox
        // is created until the run's ledger row is written; expires_ms frees the money of a
        // process that crashed in between (see CreditReservations).
        {3,
         {
             QStringLiteral(R"(CREATE TABLE credit_reservations (
                 run_id        TEXT PRIMARY KEY NOT NULL,
                 amount_micros INTEGER NOT NULL CHECK (amount_micros > 0),
                 created_ms    INTEGER NOT NULL,          -- UTC, ms since the epoch
                 expires_ms    INTEGER NOT NULL
             ))"),
         }},
        // 4: a bounded preview of each run (RunPreview), so that the notebook's reload at start
        // never reads the megabytes a run may have printed. Runs stored before get theirs on
        // their first reload (RunHistory::recentPreviews).
        {4,
         {
             QStringLiteral(R"(CREATE TABLE run_previews (
                 run_id  TEXT PRIMARY KEY NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
                 format  INTEGER NOT NULL,       -- RunPreview::kFormat; another one is rebuilt
                 preview TEXT NOT NULL           -- RunPreview::toJson
             ))"),
         }},
        // 5: the remote sandboxes runs asked for (RemoteAllocations): the intent before each create,
        // the remote id once known, closed after a confirmed removal. An open row of a process that
        // no longer runs (owner pid + its start time) is an orphan for the OrphanReconciler.
        {5,
         {
             QStringLiteral(R"(CREATE TABLE remote_allocations (
                 run_id      TEXT PRIMARY KEY NOT NULL,   -- also the sandbox's sandpad-run label
                 provider    TEXT NOT NULL,
                 remote_id   TEXT NOT NULL DEFAULT '',    -- empty until the create answered
                 created_ms  INTEGER NOT NULL,            -- UTC, ms since the epoch
                 owner_pid   INTEGER NOT NULL,
                 owner_start TEXT NOT NULL,               -- ProcessIdentity::start
                 closed_ms   INTEGER,                     -- NULL: open
                 closed_how  TEXT NOT NULL DEFAULT ''
             ))"),
             QStringLiteral("CREATE INDEX remote_allocations_open ON remote_allocations(provider) "
                            "WHERE closed_ms IS NULL"),
         }},
        // 6: the files a run left in its working directory (RunArtifact), with their content.
        {6,
         {
             QStringLiteral(R"(CREATE TABLE run_artifacts (
                 run_id    TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
                 position  INTEGER NOT NULL,
                 name      TEXT NOT NULL,
                 size      INTEGER NOT NULL,
                 mime_type TEXT NOT NULL,
                 sha256    TEXT NOT NULL,
                 content   BLOB,
                 PRIMARY KEY (run_id, position)
             ))"),
         }},
        // 7: a run's rich outputs (display(), a DataFrame result: RunOutput), in order. A table's
        // rows are one JSON text (RunOutput::tableJson), a picture a BLOB.
        {7,
         {
             QStringLiteral(R"(CREATE TABLE run_outputs (
                 run_id       TEXT NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
                 position     INTEGER NOT NULL,
                 type         TEXT NOT NULL,             -- RunOutput::typeName
                 stdout_bytes INTEGER NOT NULL,
                 text         TEXT NOT NULL,
                 plain        TEXT NOT NULL,
                 png          BLOB,
                 table_json   TEXT,
                 table_preview TEXT,             -- its first 1,000 rows, for RunHistory::recentPreviews
                 PRIMARY KEY (run_id, position)
             ))"),
         }},
        // 8: a chart's numeric series as binary columns (ChartColumns::toFrames) beside its
        // dictionary, which then names them instead of listing points (ChartSpec::toPacked).
        {8,
         {
             QStringLiteral("ALTER TABLE run_charts ADD COLUMN columns BLOB"),
         }},
        // 9: the editor line of a run's line 1 (ExecutionResult::firstLine: a cell or selection
        // run from further down), so a run reloaded from the history links the editor's lines.
        // Runs stored before it ran from line 1 as far as anyone can tell.
        {9,
         {
             QStringLiteral("ALTER TABLE runs ADD COLUMN first_line INTEGER NOT NULL DEFAULT 1"),
         }},
    };
    return migrations;
}

} // namespace sandpad
