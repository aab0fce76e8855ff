#include "core/notebook/RunHistory.h"

#include "core/charts/ChartColumns.h"
#include "core/charts/ChartSpec.h"

#include "core/notebook/RunPreview.h"

#include "core/storage/Database.h"
#include "core/storage/SqlText.h"
#include "core/storage/Transaction.h"

#include <QHash>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <algorithm>

namespace sandpad {

namespace {

const QString kColumns = QStringLiteral(
    "run_id, started_ms, title, language, provider, status, duration_ms, cost_micros, code, "
    "stdout, stderr, result, has_error, error_name, error_value, error_traceback, exit_code, "
    "reason, message, document_id, revision_id, first_line");

// The rows of a table a preview holds (the notebook at start): the rest is the run's, in table_json.
constexpr qsizetype kPreviewTableRows = 1000;

QVariant nullString()
{
    return QVariant(QMetaType(QMetaType::QString));
}

// The leading columns of a runs row: small, stored before the texts. A preview reads only
// these (a column after a text of megabytes costs a walk through its overflow pages).
const QString kLeadingColumns = QStringLiteral(
    "r.run_id, r.started_ms, r.title, r.language, r.provider, r.status, r.duration_ms, r.cost_micros");

void leadingFrom(const QSqlQuery& q, ExecutionResult& r)
{
    r.runId = q.value(0).toString();
    r.startedAt = QDateTime::fromMSecsSinceEpoch(q.value(1).toLongLong(), Qt::UTC);
    r.title = q.value(2).toString();
    r.language = languageFromName(q.value(3).toString()).value_or(Language::Python);
    r.provider = q.value(4).toString();
    r.status = runStatusFromName(q.value(5).toString()).value_or(RunStatus::InfrastructureError);
    r.durationMs = q.value(6).toLongLong();
    r.costMicros = q.value(7).toLongLong();
    r.cleanupConfirmed = r.costMicros > 0; // only a confirmed cleanup is billed
}

ExecutionResult resultFrom(const QSqlQuery& q)
{
    ExecutionResult r;
    leadingFrom(q, r);
    r.code = q.value(8).toString();
    r.stdoutText = q.value(9).toString();
    r.stderrText = q.value(10).toString();
    if (!q.value(11).isNull())
        r.result = q.value(11).toString();
    if (q.value(12).toLongLong() != 0)
        r.error = RunError{q.value(13).toString(), q.value(14).toString(), q.value(15).toString()};
    if (!q.value(16).isNull())
        r.exitCode = q.value(16).toInt();
    r.reason = q.value(17).toString();
    r.message = q.value(18).toString();
    r.documentId = q.value(19).toString();
    r.revisionId = q.value(20).toString();
    r.firstLine = std::max(1, q.value(21).toInt());
    return r;
}

} // namespace

RunHistory::RunHistory(Database& database) : m_db(database) {}

bool RunHistory::save(const ExecutionResult& r)
{
    m_lastError.clear();
    if (r.runId.isEmpty()) {
        m_lastError = QStringLiteral("a run needs a run id");
        return false;
    }
    QSqlDatabase db = m_db.connection();
    Transaction tx(db);
    if (!tx.isActive()) {
        m_lastError = QStringLiteral("cannot save the run: %1").arg(tx.error());
        return false;
    }
    auto fail = [&](const QSqlQuery& q) {
        m_lastError = QStringLiteral("cannot save the run: %1").arg(q.lastError().text());
        return false;
    };
    {
        // Replace an earlier copy explicitly (INSERT OR REPLACE would not cascade to the charts).
        QSqlQuery q(db);
        q.prepare(QStringLiteral("DELETE FROM run_charts WHERE run_id = ?"));
        q.addBindValue(sqlText(r.runId));
        if (!q.exec())
            return fail(q);
        q.prepare(QStringLiteral("DELETE FROM run_artifacts WHERE run_id = ?"));
        q.addBindValue(sqlText(r.runId));
        if (!q.exec())
            return fail(q);
        q.prepare(QStringLiteral("DELETE FROM run_outputs WHERE run_id = ?"));
        q.addBindValue(sqlText(r.runId));
        if (!q.exec())
            return fail(q);
        q.prepare(QStringLiteral("DELETE FROM runs WHERE run_id = ?"));
        q.addBindValue(sqlText(r.runId));
        if (!q.exec())
            return fail(q);
    }
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO runs (%1) VALUES "
                                 "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                      .arg(kColumns));
        const QDateTime started = r.startedAt.isValid() ? r.startedAt
                                                        : QDateTime::currentDateTimeUtc().addMSecs(-r.durationMs);
        q.addBindValue(sqlText(r.runId));
        q.addBindValue(started.toMSecsSinceEpoch());
        q.addBindValue(sqlText(r.title));
        q.addBindValue(sqlText(languageName(r.language)));
        q.addBindValue(sqlText(r.provider));
        q.addBindValue(sqlText(runStatusName(r.status)));
        q.addBindValue(r.durationMs);
        q.addBindValue(r.costMicros);
        q.addBindValue(sqlText(r.code));
        q.addBindValue(sqlText(r.stdoutText));
        q.addBindValue(sqlText(r.stderrText));
        q.addBindValue(r.result ? sqlText(*r.result) : nullString());
        q.addBindValue(r.error ? 1 : 0);
        q.addBindValue(sqlText(r.error ? r.error->name : QString()));
        q.addBindValue(sqlText(r.error ? r.error->value : QString()));
        q.addBindValue(sqlText(r.error ? r.error->traceback : QString()));
        q.addBindValue(r.exitCode ? QVariant(*r.exitCode) : QVariant(QMetaType(QMetaType::Int)));
        q.addBindValue(sqlText(r.reason));
        q.addBindValue(sqlText(r.message));
        q.addBindValue(sqlText(r.documentId));
        q.addBindValue(sqlText(r.revisionId));
        q.addBindValue(std::max(1, r.firstLine));
        if (!q.exec())
            return fail(q);
    }
    RunPreviewCuts cuts;
    const ExecutionResult preview = RunPreview::make(r, &cuts);
    if (!storePreview(db, preview, cuts)) {
        m_lastError = QStringLiteral("cannot save the run: %1").arg(m_lastError.get());
        return false;
    }
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO run_charts (run_id, position, kind, png, spec, columns) "
                                 "VALUES (?, ?, ?, ?, ?, ?)"));
        for (int i = 0; i < r.charts.size(); ++i) {
            const RunChart& c = r.charts.at(i);
            const bool png = c.kind == RunChart::Kind::Png;
            q.addBindValue(sqlText(r.runId));
            q.addBindValue(i);
            q.addBindValue(png ? QStringLiteral("png") : QStringLiteral("interactive"));
            q.addBindValue(png ? QVariant(c.png) : QVariant(QMetaType(QMetaType::QByteArray)));
            // The one serialization of the chart a run makes: its dictionary, with its numeric
            // series as binary columns beside it (no JSON number lists).
            // A PNG's spec is the chart extracted from its figure, when there is one.
            ChartColumns columns;
            const QJsonObject packed = c.spec ? c.spec->toPacked(columns) : QJsonObject();
            q.addBindValue(!c.spec ? nullString()
                                   : sqlText(QString::fromUtf8(QJsonDocument(packed).toJson(QJsonDocument::Compact))));
            q.addBindValue(columns.isEmpty() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(columns.bytes()));
            if (!q.exec())
                return fail(q);
        }
    }
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO run_artifacts (run_id, position, name, size, mime_type, sha256, content) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?)"));
        for (int i = 0; i < r.artifacts.size(); ++i) {
            const RunArtifact& a = r.artifacts.at(i);
            q.addBindValue(sqlText(r.runId));
            q.addBindValue(i);
            q.addBindValue(sqlText(a.name));
            q.addBindValue(a.size);
            q.addBindValue(sqlText(a.mimeType));
            q.addBindValue(sqlText(a.sha256));
            q.addBindValue(a.content.isEmpty() && a.size > 0 ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(a.content));
            if (!q.exec())
                return fail(q);
        }
    }
    if (!r.outputs.isEmpty()) {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("INSERT INTO run_outputs (run_id, position, type, stdout_bytes, text, plain, png, table_json, "
                                 "table_preview) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        for (int i = 0; i < r.outputs.size(); ++i) {
            const RunOutput& o = r.outputs.at(i);
            q.addBindValue(sqlText(r.runId));
            q.addBindValue(i);
            q.addBindValue(sqlText(RunOutput::typeName(o.type)));
            q.addBindValue(o.stdoutBytes);
            q.addBindValue(sqlText(o.text));
            q.addBindValue(sqlText(o.plain));
            q.addBindValue(o.png.isEmpty() ? QVariant(QMetaType(QMetaType::QByteArray)) : QVariant(o.png));
            const auto tableText = [](const RunOutput& table) {
                return sqlText(QString::fromUtf8(QJsonDocument(table.tableJson()).toJson(QJsonDocument::Compact)));
            };
            q.addBindValue(o.type == RunOutput::Type::Table ? tableText(o) : nullString());
            if (o.type == RunOutput::Type::Table && o.rows.size() > kPreviewTableRows) {
                RunOutput head = o;
                head.rows.resize(kPreviewTableRows);
                head.index.resize(kPreviewTableRows);
                q.addBindValue(tableText(head));
            } else {
                q.addBindValue(o.type == RunOutput::Type::Table ? tableText(o) : nullString());
            }
            if (!q.exec())
                return fail(q);
        }
    }
    if (!tx.commit()) {
        m_lastError = QStringLiteral("cannot save the run: %1").arg(tx.error());
        return false;
    }
    return true;
}

bool RunHistory::storePreview(QSqlDatabase& db, const ExecutionResult& preview, const RunPreviewCuts& cuts) const
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("INSERT OR REPLACE INTO run_previews (run_id, format, preview) VALUES (?, ?, ?)"));
    q.addBindValue(sqlText(preview.runId));
    q.addBindValue(RunPreview::kFormat);
    q.addBindValue(sqlText(RunPreview::toJson(preview, cuts)));
    if (!q.exec()) {
        m_lastError = q.lastError().text();
        return false;
    }
    return true;
}

QList<ExecutionResult> RunHistory::loadRows(const QString& where, const QVariantList& binds, int limit) const
{
    QList<ExecutionResult> out;
    QSqlQuery q(m_db.connection());
    q.setForwardOnly(true);
    q.prepare(QStringLiteral("SELECT %1 FROM runs %2 ORDER BY started_ms DESC, rowid DESC "
                             "LIMIT ?")
                  .arg(kColumns, where.isEmpty() ? QString() : QStringLiteral("WHERE ") + where));
    for (const QVariant& v : binds)
        q.addBindValue(v);
    q.addBindValue(limit < 0 ? -1 : limit);
    if (!q.exec()) {
        m_lastError = q.lastError().text();
        return out;
    }
    while (q.next())
        out.append(resultFrom(q));
    std::reverse(out.begin(), out.end()); // oldest first
    return out;
}

QList<ExecutionResult> RunHistory::load(const QString& where, const QVariantList& binds, int limit) const
{
    QList<ExecutionResult> out = loadRows(where, binds, limit);
    for (ExecutionResult& r : out) {
        loadCharts(r);
        loadArtifacts(r, -1);
    }
    return out;
}

void RunHistory::loadArtifacts(ExecutionResult& r, qint64 contentLimit) const
{
    QSqlQuery c(m_db.connection());
    c.setForwardOnly(true);
    c.prepare(QStringLiteral("SELECT name, size, mime_type, sha256, CASE WHEN ? < 0 OR size <= ? THEN content END "
                             "FROM run_artifacts WHERE run_id = ? ORDER BY position"));
    c.addBindValue(contentLimit);
    c.addBindValue(contentLimit);
    c.addBindValue(r.runId);
    if (!c.exec()) {
        m_lastError = c.lastError().text();
        return;
    }
    while (c.next()) {
        RunArtifact a;
        a.name = c.value(0).toString();
        a.size = c.value(1).toLongLong();
        a.mimeType = c.value(2).toString();
        a.sha256 = c.value(3).toString();
        a.content = c.value(4).toByteArray();
        r.artifacts.append(a);
    }
}

std::optional<QByteArray> RunHistory::artifactContent(const QString& runId, const QString& name) const
{
    QSqlQuery c(m_db.connection());
    c.prepare(QStringLiteral("SELECT content FROM run_artifacts WHERE run_id = ? AND name = ?"));
    c.addBindValue(runId);
    c.addBindValue(name);
    if (!c.exec() || !c.next() || c.value(0).isNull()) {
        m_lastError = c.lastError().text();
        return std::nullopt;
    }
    return c.value(0).toByteArray();
}

void RunHistory::loadCharts(ExecutionResult& r, bool preview) const
{
    QSqlQuery c(m_db.connection());
    c.setForwardOnly(true);
    c.prepare(QStringLiteral("SELECT kind, png, spec, columns FROM run_charts WHERE run_id = ? "
                             "ORDER BY position"));
    c.addBindValue(r.runId);
    if (!c.exec()) {
        m_lastError = c.lastError().text();
        return;
    }
    while (c.next()) {
        RunChart chart;
        chart.kind = c.value(0).toString() == u"png" ? RunChart::Kind::Png : RunChart::Kind::Interactive;
        chart.png = c.value(1).toByteArray();
        // The one parse of a stored chart: the notebook and the chart pane share this object.
        // Rows written before migration 8 hold point lists and no columns.
        if (!c.value(2).isNull()) {
            const QJsonObject dictionary = QJsonDocument::fromJson(c.value(2).toString().toUtf8()).object();
            const ChartColumns columns(c.value(3).toByteArray());
            chart.setSpec(dictionary, &columns);
        }
        if (chart.kind == RunChart::Kind::Interactive && !chart.spec)
            continue; // a stored chart that no longer parses: nothing to draw
        r.charts.append(chart);
    }
    loadOutputs(r, preview);
}

void RunHistory::loadOutputs(ExecutionResult& r, bool preview) const
{
    QSqlQuery c(m_db.connection());
    c.setForwardOnly(true);
    // A preview reads a table's first rows only (table_preview), not its up to 1,000,000 cells.
    c.prepare(QStringLiteral("SELECT type, stdout_bytes, text, plain, png, %1 FROM run_outputs "
                             "WHERE run_id = ? ORDER BY position")
                  .arg(preview ? QStringLiteral("table_preview") : QStringLiteral("table_json")));
    c.addBindValue(r.runId);
    if (!c.exec()) {
        m_lastError = c.lastError().text(); // a file of a schema before outputs: none
        return;
    }
    while (c.next()) {
        RunOutput o;
        o.type = RunOutput::typeFromName(c.value(0).toString()).value_or(RunOutput::Type::Text);
        o.stdoutBytes = c.value(1).toLongLong();
        o.text = c.value(2).toString();
        o.plain = c.value(3).toString();
        o.png = c.value(4).toByteArray();
        if (o.type == RunOutput::Type::Table
            && !o.tableFromJson(QJsonDocument::fromJson(c.value(5).toString().toUtf8()).object()))
            o = RunOutput::notice(QStringLiteral("This table could not be read back from the run history."), o.stdoutBytes);
        r.outputs.append(std::move(o));
    }
}

QList<ExecutionResult> RunHistory::recent(int limit) const
{
    return load(QString(), {}, limit);
}

QList<RunHistory::Preview> RunHistory::recentPreviews(int limit) const
{
    QList<Preview> out;
    QList<qsizetype> missing; // stored before previews existed, or in another format
    QSqlDatabase db = m_db.connection();
    {
        QSqlQuery q(db);
        q.setForwardOnly(true);
        q.prepare(QStringLiteral("SELECT %1, r.first_line, p.format, p.preview FROM runs r "
                                 "LEFT JOIN run_previews p ON p.run_id = r.run_id "
                                 "ORDER BY r.started_ms DESC, r.rowid DESC LIMIT ?")
                      .arg(kLeadingColumns));
        q.addBindValue(limit < 0 ? -1 : limit);
        if (!q.exec()) {
            // No run_previews table (a file of another build's schema): the whole runs, bounded
            // here. Slower, but the notebook still shows them and holds only previews.
            m_lastError = q.lastError().text();
            for (const ExecutionResult& r : recent(limit)) {
                Preview p;
                p.run = RunPreview::make(r, &p.cuts);
                out.append(std::move(p));
            }
            return out;
        }
        while (q.next()) {
            Preview p;
            leadingFrom(q, p.run);
            const bool ok = !q.value(10).isNull() && q.value(9).toInt() == RunPreview::kFormat
                            && RunPreview::fromJson(q.value(10).toString(), &p.run, &p.cuts);
            p.run.firstLine = std::max(1, q.value(8).toInt());
            if (!ok)
                missing.append(out.size());
            out.append(std::move(p));
        }
    }
    // Built from the whole run once and kept, so the next start reads only the preview.
    for (const qsizetype i : missing) {
        const QList<ExecutionResult> whole = loadRows(QStringLiteral("run_id = ?"), {out[i].run.runId}, 1);
        if (whole.isEmpty())
            continue;
        out[i].run = RunPreview::make(whole.first(), &out[i].cuts);
        storePreview(db, out[i].run, out[i].cuts); // best effort: a read-only file still shows the run
    }
    std::reverse(out.begin(), out.end()); // oldest first
    for (Preview& p : out) {
        loadCharts(p.run, true);
        loadArtifacts(p.run, RunArtifact::jsonInlineBytes); // larger ones: artifactContent()
    }
    return out;
}

std::optional<ExecutionResult> RunHistory::find(const QString& runId) const
{
    const auto runs = load(QStringLiteral("run_id = ?"), {runId}, 1);
    if (runs.isEmpty())
        return std::nullopt;
    return runs.first();
}

QList<ExecutionResult> RunHistory::forDocument(const QString& documentId) const
{
    return load(QStringLiteral("document_id = ?"), {documentId}, -1);
}

int RunHistory::count() const
{
    QSqlQuery q(m_db.connection());
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM runs")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

bool RunHistory::remove(const QString& runId)
{
    QSqlQuery q(m_db.connection()); // charts go with it (ON DELETE CASCADE)
    q.prepare(QStringLiteral("DELETE FROM runs WHERE run_id = ?"));
    q.addBindValue(runId);
    if (!q.exec()) {
        m_lastError = q.lastError().text();
        return false;
    }
    return q.numRowsAffected() > 0;
}

bool RunHistory::prune(int keep)
{
    QSqlQuery q(m_db.connection());
    q.prepare(QStringLiteral("DELETE FROM runs WHERE run_id NOT IN (SELECT run_id FROM runs "
                             "ORDER BY started_ms DESC, rowid DESC LIMIT ?)"));
    q.addBindValue(std::max(0, keep));
    if (!q.exec()) {
        m_lastError = q.lastError().text();
        return false;
    }
    return true;
}

void RunHistory::clear()
{
    QSqlQuery q(m_db.connection());
    if (!q.exec(QStringLiteral("DELETE FROM runs")))
        m_lastError = q.lastError().text();
}

} // namespace sandpad
