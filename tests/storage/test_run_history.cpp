#include "TempDatabase.h"
#include "TestRecords.h"

#include "core/notebook/RunHistory.h"

#include "core/charts/ChartSpec.h"
#include "core/run/Run.h"
#include "core/storage/Migrations.h"
#include "core/storage/Database.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QtTest>

using namespace sandpad;

namespace {

ExecutionResult makeRun(const QString& id, qint64 startedMs)
{
    ExecutionResult r = runResult(id, QStringLiteral("sine.py"), QStringLiteral("success"));
    r.startedAt = QDateTime::fromMSecsSinceEpoch(startedMs, Qt::UTC);
    r.code = QStringLiteral("import math\nprint('ok')\n");
    r.stdoutText = QStringLiteral("ok\n");
    r.stderrText = QString();
    r.message = QStringLiteral("ok");
    return r;
}

} // namespace

class TestRunHistory : public QObject {
    Q_OBJECT
    TempDatabase m_data;

private slots:
    void init() { m_data.initTest(); }
    void cleanup() { m_data.close(); }

    void roundTripWithCharts()
    {
        RunHistory history(m_data.db());
        ExecutionResult r = makeRun(QStringLiteral("run-1"), 1'700'000'000'123);
        r.stderrText = QStringLiteral("warning: ünïcode\n");
        r.result = QStringLiteral("42");
        r.error = RunError{QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"),
                                 QStringLiteral("Traceback...\n  line 3\n")};
        r.exitCode = 1;
        r.reason = QString();
        r.documentId = QStringLiteral("doc");
        r.revisionId = QStringLiteral("rev");
        QByteArray png("\x89PNG\r\n\x1a\n", 8);
        png.append('\0');
        png.append(QByteArray(4096, '\x7f'));
        RunChart c1;
        c1.kind = RunChart::Kind::Png;
        c1.png = png;
        RunChart c2;
        c2.kind = RunChart::Kind::Interactive;
        QVERIFY(c2.setSpec(QJsonDocument::fromJson(R"({"type":"line","title":"t","elements":[{"label":"a","points":[[1,2]]}]})").object()));
        RunChart c3 = c1;
        c3.png = QByteArray("second");
        r.charts = {c1, c2, c3};
        QVERIFY2(history.save(r), qPrintable(history.lastError()));

        const auto got = history.find(QStringLiteral("run-1"));
        QVERIFY(got);
        QCOMPARE(got->runId, r.runId);
        QCOMPARE(got->startedAt, r.startedAt);
        QCOMPARE(got->title, r.title);
        QCOMPARE(got->language, r.language);
        QCOMPARE(got->provider, r.provider);
        QCOMPARE(got->status, r.status);
        QCOMPARE(got->durationMs, 1234);
        QCOMPARE(got->costMicros, 50000);
        QCOMPARE(got->code, r.code);
        QCOMPARE(got->stdoutText, r.stdoutText);
        QCOMPARE(got->stderrText, r.stderrText);
        QCOMPARE(got->result, r.result);
        QVERIFY(got->error);
        QCOMPARE(got->error->name, r.error->name);
        QCOMPARE(got->error->value, r.error->value);
        QCOMPARE(got->error->traceback, r.error->traceback);
        QCOMPARE(got->exitCode, std::optional<int>(1));
        QCOMPARE(got->message, r.message);
        QCOMPARE(got->documentId, r.documentId);
        QCOMPARE(got->revisionId, r.revisionId);
        QCOMPARE(got->charts.size(), 3);
        QCOMPARE(got->charts[0].kind, RunChart::Kind::Png);
        QCOMPARE(got->charts[0].png, png);
        QCOMPARE(got->charts[1].kind, RunChart::Kind::Interactive);
        QCOMPARE(got->charts[1].specJson(), c2.specJson());
        QVERIFY(got->charts[1].png.isEmpty());
        QCOMPARE(got->charts[2].png, QByteArray("second"));
        QVERIFY(!history.find(QStringLiteral("nope")));
    }

    // A chart's numbers are stored as binary columns beside its dictionary (migration 8), not
    // as JSON number lists; rows written before keep their point lists and still load.
    void chartsAreStoredAsColumns()
    {
        RunHistory history(m_data.db());
        ExecutionResult r = makeRun(QStringLiteral("run-c"), 1'700'000'000'000);
        QJsonArray points;
        for (int i = 0; i < 1000; ++i)
            points.append(QJsonArray{i, i % 3 == 0 ? QJsonValue() : QJsonValue(i * 0.25)});
        RunChart line;
        line.kind = RunChart::Kind::Interactive;
        QVERIFY(line.setSpec(QJsonObject{{"type", "line"}, {"title", "cols"}, {"x_scale", "datetime"},
                                         {"elements", QJsonArray{QJsonObject{{"label", "a"}, {"points", points}}}}}));
        RunChart categories;
        categories.kind = RunChart::Kind::Png;
        categories.png = QByteArray("png");
        QVERIFY(categories.setSpec(QJsonObject{{"type", "scatter"}, {"elements", QJsonArray{QJsonObject{{"points", QJsonArray{QJsonArray{"mon", 1}}}}}}}));
        r.charts = {line, categories};
        QVERIFY2(history.save(r), qPrintable(history.lastError()));

        QSqlQuery q(m_data.db().connection());
        QVERIFY(q.exec(QStringLiteral("SELECT spec, columns FROM run_charts WHERE run_id = 'run-c' ORDER BY position")));
        QVERIFY(q.next());
        QVERIFY(q.value(0).toString().size() < 400); // references, not 1,000 points
        QVERIFY(q.value(0).toString().contains(QStringLiteral("\"offset\"")));
        QCOMPARE(q.value(1).toByteArray().size(), 2 * 1000 * 8);
        QVERIFY(q.next());
        QVERIFY(q.value(1).isNull()); // category x: points, no columns

        const auto got = history.find(QStringLiteral("run-c"));
        QVERIFY(got);
        QCOMPARE(got->charts.size(), 2);
        QCOMPARE(got->charts[0].specJson(), line.specJson());
        QCOMPARE(got->charts[1].specJson(), categories.specJson());
        QCOMPARE(got->charts[1].png, QByteArray("png"));

        // A row as migration 7 wrote it: the dictionary with its points, no columns.
        QVERIFY(q.exec(QStringLiteral("UPDATE run_charts SET spec = '{\"type\":\"line\",\"title\":\"old\",\"elements\":"
                                      "[{\"label\":\"a\",\"points\":[[1,2],[3,4]]}]}', columns = NULL "
                                      "WHERE run_id = 'run-c' AND position = 0")));
        const auto old = history.find(QStringLiteral("run-c"));
        QVERIFY(old && old->charts.size() == 2 && old->charts[0].spec);
        QCOMPARE(old->charts[0].spec->title(), QStringLiteral("old"));
        QCOMPARE(old->charts[0].spec->series()[0].ys, (std::vector<double>{2, 4}));
    }

    // Artifacts round-trip (store, reload, the same); previews carry contents up to 1 MiB only.
    void roundTripWithArtifacts()
    {
        RunHistory history(m_data.db());
        ExecutionResult r = makeRun(QStringLiteral("run-a"), 1'700'000'000'000);
        const QByteArray big(RunArtifact::jsonInlineBytes + 1, 'b');
        r.artifacts = {RunArtifact{QStringLiteral("out.csv"), 4, QStringLiteral("text/csv"), QStringLiteral("ab12"), QByteArray("a,b\n")},
                       RunArtifact{QStringLiteral("plots/big.bin"), big.size(), QStringLiteral("application/octet-stream"),
                                   QStringLiteral("cd34"), big},
                       RunArtifact{QStringLiteral("empty"), 0, QStringLiteral("application/x-zerosize"), QStringLiteral("e3b0"), QByteArray()}};
        QVERIFY2(history.save(r), qPrintable(history.lastError()));
        QVERIFY2(history.save(r), qPrintable(history.lastError())); // saved again: replaced, not doubled
        QCOMPARE(m_data.rowCount(QStringLiteral("run_artifacts")), 3);
        const auto got = history.find(QStringLiteral("run-a"));
        QVERIFY(got);
        QCOMPARE(got->artifacts.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(got->artifacts[i].name, r.artifacts[i].name);
            QCOMPARE(got->artifacts[i].size, r.artifacts[i].size);
            QCOMPARE(got->artifacts[i].mimeType, r.artifacts[i].mimeType);
            QCOMPARE(got->artifacts[i].sha256, r.artifacts[i].sha256);
            QCOMPARE(got->artifacts[i].content, r.artifacts[i].content);
        }
        const auto previews = history.recentPreviews(10);
        QCOMPARE(previews.size(), 1);
        QCOMPARE(previews[0].run.artifacts.size(), 3);
        QCOMPARE(previews[0].run.artifacts[0].content, QByteArray("a,b\n"));
        QVERIFY(previews[0].run.artifacts[1].content.isEmpty());
        QCOMPARE(previews[0].run.artifacts[1].size, big.size());
        QCOMPARE(history.artifactContent(QStringLiteral("run-a"), QStringLiteral("plots/big.bin")), std::optional(big));
        QVERIFY(history.remove(QStringLiteral("run-a")));
        QCOMPARE(m_data.rowCount(QStringLiteral("run_artifacts")), 0);
    }

    void optionalFieldsStayEmpty()
    {
        RunHistory history(m_data.db());
        ExecutionResult r = makeRun(QStringLiteral("plain"), 1000);
        r.exitCode = 0;
        QVERIFY(history.save(r));
        ExecutionResult e = makeRun(QStringLiteral("emptyresult"), 2000);
        e.result = QString(); // a result that printed as empty text is still a result
        QVERIFY(history.save(e));
        const auto p = history.find(QStringLiteral("plain"));
        QVERIFY(!p->result);
        QVERIFY(!p->error);
        QCOMPARE(p->exitCode, std::optional<int>(0));
        QVERIFY(p->charts.isEmpty());
        const auto er = history.find(QStringLiteral("emptyresult"));
        QVERIFY(er->result.has_value());
        QVERIFY(!er->exitCode);
    }

    void recentIsOldestFirst()
    {
        RunHistory history(m_data.db());
        for (int i = 0; i < 5; ++i)
            QVERIFY(history.save(makeRun(QStringLiteral("r%1").arg(i), 1000 + i)));
        const auto all = history.recent(-1);
        QCOMPARE(all.size(), 5);
        QCOMPARE(all.first().runId, QStringLiteral("r0"));
        QCOMPARE(all.last().runId, QStringLiteral("r4"));
        const auto last3 = history.recent(3);
        QCOMPARE(last3.size(), 3);
        QCOMPARE(last3[0].runId, QStringLiteral("r2"));
        QCOMPARE(last3[2].runId, QStringLiteral("r4"));
        QCOMPARE(history.count(), 5);
    }

    void resaveReplaces()
    {
        RunHistory history(m_data.db());
        ExecutionResult r = makeRun(QStringLiteral("x"), 1);
        RunChart c;
        c.png = "a";
        r.charts = {c, c};
        QVERIFY(history.save(r));
        QCOMPARE(m_data.rowCount(QStringLiteral("run_charts")), 2);
        r.status = RunStatus::Error;
        r.charts = {c};
        QVERIFY(history.save(r));
        QCOMPARE(history.count(), 1);
        QCOMPARE(m_data.rowCount(QStringLiteral("run_charts")), 1);
        QCOMPARE(history.find(QStringLiteral("x"))->status, RunStatus::Error);
        QVERIFY(!history.save(makeRun(QString(), 1)));
    }

    void forDocumentRemovePruneClear()
    {
        RunHistory history(m_data.db());
        RunChart c;
        c.png = "p";
        for (int i = 0; i < 6; ++i) {
            ExecutionResult r = makeRun(QStringLiteral("r%1").arg(i), 100 + i);
            if (i % 2 == 0)
                r.documentId = QStringLiteral("doc");
            r.charts = {c};
            QVERIFY(history.save(r));
        }
        const auto forDoc = history.forDocument(QStringLiteral("doc"));
        QCOMPARE(forDoc.size(), 3);
        QCOMPARE(forDoc[0].runId, QStringLiteral("r0"));
        QCOMPARE(forDoc[0].charts.size(), 1);

        QVERIFY(history.remove(QStringLiteral("r0")));
        QVERIFY(!history.remove(QStringLiteral("r0")));
        QCOMPARE(m_data.rowCount(QStringLiteral("run_charts")), 5); // its chart went with it
        QVERIFY(history.prune(3));
        QCOMPARE(history.count(), 3);
        QCOMPARE(history.recent(-1).first().runId, QStringLiteral("r3"));
        QCOMPARE(m_data.rowCount(QStringLiteral("run_charts")), 3);
        history.clear();
        QCOMPARE(history.count(), 0);
        QCOMPARE(m_data.rowCount(QStringLiteral("run_charts")), 0);
    }

    void survivesRestart()
    {
        {
            RunHistory history(m_data.db());
            ExecutionResult r = makeRun(QStringLiteral("persist"), 5);
            RunChart c;
            c.png = QByteArray(100000, 'z');
            r.charts = {c};
            QVERIFY(history.save(r));
        }
        QVERIFY(m_data.reopen()); // "quit" and start again
        RunHistory history(m_data.db());
        const auto runs = history.recent(10);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].runId, QStringLiteral("persist"));
        QCOMPARE(runs[0].charts.size(), 1);
        QCOMPARE(runs[0].charts[0].png, QByteArray(100000, 'z'));
    }
    // A cell run from editor line 8 keeps that line through the history (issue 16): the run's
    // origin says it, the stored row keeps it, and a reloaded run (whole or preview) gives it
    // back, so its traceback links and marks land on the editor's lines.
    void firstLineSurvivesTheHistory()
    {
        RunOrigin origin;
        origin.title = QStringLiteral("cells.py · lines 8–10");
        origin.firstLine = 8;
        Run live(QStringLiteral("cell8"), origin, QStringLiteral("local"));
        ExecutionResult r = makeRun(QStringLiteral("cell8"), 7);
        r.title = origin.title;
        r.error = RunError{QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"),
                           QStringLiteral("  File \"cells.py · lines 8–10\", line 3, in <module>\n")};
        live.deliverResult(r); // on its own thread: finished at once
        QCOMPARE(live.result().firstLine, 8); // the origin's, whatever the provider filled in
        {
            RunHistory history(m_data.db());
            QVERIFY2(history.save(live.result()), qPrintable(history.lastError()));
            QVERIFY(history.save(makeRun(QStringLiteral("whole"), 9))); // a whole-tab run: line 1
        }
        QVERIFY(m_data.reopen());
        RunHistory history(m_data.db());
        const QList<ExecutionResult> runs = history.recent(10);
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].firstLine, 8);
        QCOMPARE(runs[1].firstLine, 1);
        const QList<RunHistory::Preview> previews = history.recentPreviews(10);
        QCOMPARE(previews.size(), 2);
        QCOMPARE(previews[0].run.firstLine, 8);
        QCOMPARE(previews[1].run.firstLine, 1);
        const Run reloaded(previews[0].run);
        QCOMPARE(reloaded.origin().firstLine, 8);
        QCOMPARE(reloaded.origin().title, origin.title);
        QCOMPARE(history.find(QStringLiteral("cell8"))->firstLine, 8);
    }

    // A schema-8 database (before first_line) opens, migrates to 9, and its runs read as line 1.
    void schema8RunsReadAsLineOne()
    {
        QTemporaryDir tmp;
        const QString path = tmp.filePath(QStringLiteral("sandpad.db"));
        QStringList sql;
        for (const Migration& m : Migrations::all())
            if (m.version <= 8)
                sql += m.statements;
        sql << QStringLiteral("INSERT INTO runs (run_id, started_ms, title, language, provider, status, "
                              "duration_ms, cost_micros, code, stdout, stderr, has_error, reason, message, "
                              "document_id, revision_id) VALUES ('old', 5, 'old.py', 'python', 'local', "
                              "'success', 3, 50000, 'print(1)', '1\n', '', 0, '', '1', '', '')")
            << QStringLiteral("PRAGMA user_version = 8");
        {
            const QString name = QStringLiteral("raw-") + QUuid::createUuid().toString();
            {
                QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
                raw.setDatabaseName(path);
                QVERIFY(raw.open());
                for (const QString& statement : sql) {
                    QSqlQuery q(raw);
                    QVERIFY2(q.exec(statement), qPrintable(q.lastError().text() + QStringLiteral(": ") + statement));
                }
                raw.close();
            }
            QSqlDatabase::removeDatabase(name);
        }
        Database db(tmp.path());
        QVERIFY2(db.open(), qPrintable(db.error()));
        QCOMPARE(db.schemaVersion(), 9);
        RunHistory history(db);
        const QList<ExecutionResult> runs = history.recent(10);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].runId, QStringLiteral("old"));
        QCOMPARE(runs[0].firstLine, 1);
        QCOMPARE(history.recentPreviews(10).value(0).run.firstLine, 1);
        // And a new run in the migrated file keeps its line.
        ExecutionResult r = makeRun(QStringLiteral("new"), 6);
        r.firstLine = 12;
        QVERIFY(history.save(r));
        QCOMPARE(history.find(QStringLiteral("new"))->firstLine, 12);
    }
};

QTEST_GUILESS_MAIN(TestRunHistory)
#include "test_run_history.moc"
