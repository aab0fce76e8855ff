// Benchmark: a notebook session's execution against a warm Jupyter kernel, side by side in one
// run (issue 13's goals: print(1) < 5 ms median, the seed's sine-wave chart < 80 ms). The session
// side is the whole path of a cell in the app: NotebookSession -> Executor (a Run, its worker
// thread, the ledger row) -> the local session sandbox -> result validated (the PNG decoded).
// Jupyter: python3-ipykernel with the inline backend (bench_session_jupyter.py), skipped with a
// message when it is not installed. Usage: bench_session [runs]   (default 50; the sine runs/5)
#include "BenchStats.h"

#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/local/LocalProvider.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"
#include "core/storage/Database.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdio>
#include <vector>

using namespace sandpad;

namespace {

ExecutionResult wait(Run* run)
{
    if (!run->isFinished()) {
        QEventLoop loop;
        QObject::connect(run, &Run::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    ExecutionResult r = run->result();
    delete run;
    return r;
}

std::vector<double> numbers(const QJsonArray& a)
{
    std::vector<double> v;
    for (const QJsonValue& x : a)
        v.push_back(x.toDouble());
    return v;
}

void row(const char* what, const bench::Stats& s, const char* jupyterText)
{
    std::printf("| %s | %.2f | %.2f | %s |\n", what, s.median, s.p95, jupyterText);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? qMax(5, QString::fromLocal8Bit(argv[1]).toInt()) : 50;
    if (QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty()) {
        std::printf("bench_session: skipped (bubblewrap is not installed)\n");
        return 0;
    }
    QFile sineFile(QStringLiteral(SANDPAD_SOURCE_DIR "/resources/examples/sine_wave.py"));
    if (!sineFile.open(QIODevice::ReadOnly))
        return 1;
    const QString sine = QString::fromUtf8(sineFile.readAll());

    QTemporaryDir dir;
    Database db(dir.path());
    if (!db.open()) {
        std::fprintf(stderr, "cannot open the database\n");
        return 1;
    }
    UsageLedger ledger(db);
    auto provider = std::make_shared<LocalProvider>();
    provider->setPoolSize(0);
    Executor executor(provider, &ledger);
    std::vector<double> prints, sines;
    {
        NotebookSession session(&executor);
        auto exec = [&](const QString& code) {
            return bench::timeMs([&] {
                const ExecutionResult r = wait(session.execute(Language::Python, code, QStringLiteral("bench")));
                if (r.status != RunStatus::Success)
                    std::fprintf(stderr, "session run failed: %s %s\n", qPrintable(runStatusName(r.status)), qPrintable(r.reason));
            });
        };
        const double first = exec(QStringLiteral("print(1)")); // the session's start
        for (int i = 0; i < 3; ++i) {
            exec(sine);
            exec(QStringLiteral("print(1)"));
        }
        for (int i = 0; i < runs; ++i)
            prints.push_back(exec(QStringLiteral("print(1)")));
        for (int i = 0; i < qMax(5, runs / 5); ++i)
            sines.push_back(exec(sine));
        std::fprintf(stderr, "session start (first execution, no pool): %.0f ms\n", first);
    }

    // Jupyter, after the session is gone (not competing for the 2 cores).
    QProcess jupyter;
    jupyter.start(QStringLiteral("/usr/bin/python3"),
                  {QStringLiteral(SANDPAD_SOURCE_DIR "/tests/bench/bench_session_jupyter.py"), QString::number(runs),
                   sineFile.fileName()});
    jupyter.waitForFinished(300000);
    const QJsonObject j = QJsonDocument::fromJson(jupyter.readAllStandardOutput().trimmed().split('\n').last()).object();
    QByteArray jPrint = "skipped", jSine = "skipped";
    if (j.contains(QStringLiteral("print"))) {
        const bench::Stats p = bench::stats(numbers(j.value(QStringLiteral("print")).toArray()));
        const bench::Stats s = bench::stats(numbers(j.value(QStringLiteral("sine")).toArray()));
        jPrint = QByteArray::number(p.median, 'f', 2) + " (p95 " + QByteArray::number(p.p95, 'f', 2) + ")";
        jSine = QByteArray::number(s.median, 'f', 2) + " (p95 " + QByteArray::number(s.p95, 'f', 2) + ")";
    } else {
        std::fprintf(stderr, "Jupyter side skipped: %s\n",
                     qPrintable(j.value(QStringLiteral("skip")).toString(QString::fromUtf8(jupyter.readAllStandardError().left(400)))));
    }

    std::printf("\n### Notebook session vs a warm Jupyter kernel (ms, %d runs of print(1), %d of the sine wave)\n\n", runs,
                qMax(5, runs / 5));
    std::printf("| execution | session median | session p95 | Jupyter median |\n|---|---:|---:|---:|\n");
    row("print(1)", bench::stats(prints), jPrint.constData());
    row("sine-wave chart (PNG)", bench::stats(sines), jSine.constData());
    return 0;
}
