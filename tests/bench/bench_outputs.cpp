// Rich outputs: what a large table costs. The paged table view opening and scrolling a
// 1,000,000-row table (a RunOutput made here), and ResultCollector reading a table at the run's
// cell limit (100,000 rows × 10 columns) from a hand-made result. Prints a Markdown table.
#include "BenchStats.h"

#include "core/engine/ResultCollector.h"
#include "core/run/ExecutionResult.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/sandbox/Sandbox.h"
#include "ui/outputs/TableOutputModel.h"
#include "ui/outputs/TableOutputView.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableView>
#include <cstdio>

using namespace sandpad;

namespace {

class OutSandbox : public Sandbox {
public:
    QMap<QString, QByteArray> files;
    QString id() const override { return QStringLiteral("out"); }
    QString workDir() const override { return QStringLiteral("/w"); }
    QString interpreter(Language) const override { return QStringLiteral("python3"); }
    QStringList pipArguments() const override { return {}; }
    void writeFiles(const QList<SandboxFile>&) override {}
    CommandOutcome run(const SandboxCommand&, const OutputCallback&, RunControl&) override { return {}; }
    std::optional<QByteArray> readFile(const QString& path) override
    {
        const auto it = files.constFind(path.section(u'/', -1));
        return it == files.constEnd() ? std::nullopt : std::optional<QByteArray>(*it);
    }
    CleanupReport destroy() override { return {true, {}}; }
};

RunOutput bigTable(qsizetype rows, int columns)
{
    RunOutput t;
    t.type = RunOutput::Type::Table;
    for (int c = 0; c < columns; ++c) {
        t.columns << QStringLiteral("column %1").arg(c);
        t.dtypes << QStringLiteral("float64");
    }
    const QStringList row = [&] {
        QStringList cells;
        for (int c = 0; c < columns; ++c)
            cells << QString::number(0.1 * c);
        return cells;
    }();
    t.rows.reserve(rows);
    t.index.reserve(rows);
    for (qsizetype r = 0; r < rows; ++r) {
        t.rows << row;
        t.index << QString::number(r);
    }
    t.totalRows = rows;
    return t;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    std::printf("| what | median ms | p95 ms |\n|---|---:|---:|\n");
    const RunOutput million = bigTable(1'000'000, 5);
    std::vector<double> open, scroll;
    for (int i = 0; i < 5; ++i) {
        TableOutputView* view = nullptr;
        open.push_back(bench::timeMs([&] {
            view = new TableOutputView(million);
            view->resize(800, 400);
            view->show();
            QApplication::processEvents();
        }));
        scroll.push_back(bench::timeMs([&] {
            view->tableView()->scrollToBottom();
            QApplication::processEvents();
        }));
        delete view;
    }
    const auto o = bench::stats(open), s = bench::stats(scroll);
    std::printf("| table view: open a 1,000,000-row × 5 table, first paint | %.1f | %.1f |\n", o.median, o.p95);
    std::printf("| table view: scroll to the end (one more page) | %.1f | %.1f |\n", s.median, s.p95);

    // A table at the run's cell limit as the wrapper sends it, collected.
    OutSandbox sandbox;
    const RunOutput limit = bigTable(100'000, 10);
    sandbox.files.insert(QStringLiteral("output-1.json"), QJsonDocument(limit.tableJson()).toJson(QJsonDocument::Compact));
    sandbox.files.insert(QStringLiteral("result.json"),
                         QJsonDocument(QJsonObject{{"status", "success"}, {"charts", QJsonArray{}},
                                                   {"outputs", QJsonArray{QJsonObject{{"type", "table"}, {"file", "output-1.json"},
                                                                                      {"rows", 100000}, {"columns", 10}, {"total_rows", 100000}}}}})
                             .toJson());
    RuntimeProgram program;
    program.outDir = QStringLiteral("/w/out");
    program.resultPath = QStringLiteral("/w/out/result.json");
    std::vector<double> collect;
    for (int i = 0; i < 5; ++i) {
        ExecutionResult r;
        collect.push_back(bench::timeMs([&] { ResultCollector::collect(program, sandbox, r); }));
        if (r.outputs.size() != 1 || r.outputs[0].cellCount() != 1'000'000)
            std::fprintf(stderr, "unexpected result\n");
    }
    const auto c = bench::stats(collect);
    std::printf("| collect a 100,000 × 10 table (%.1f MiB of JSON) | %.1f | %.1f |\n",
                double(sandbox.files.value(QStringLiteral("output-1.json")).size()) / (1 << 20), c.median, c.p95);
    return 0;
}
