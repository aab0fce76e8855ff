#include "ExecutionChecks.h"

#include "core/run/Run.h"

#include <QEventLoop>
#include <QImage>
#include <QtTest>

namespace sandpad {

QString describeResult(const ExecutionResult& r)
{
    return QStringLiteral("status=%1 reason=%2\nstdout=%3\nstderr=%4\nerror=%5")
        .arg(runStatusName(r.status), r.reason, r.stdoutText.left(1500), r.stderrText.left(2000),
             r.error ? r.error->name + QStringLiteral(": ") + r.error->value + u'\n' + r.error->traceback : QString());
}

QStringList artifactNames(const ExecutionResult& r)
{
    QStringList out;
    for (const RunArtifact& a : r.artifacts)
        out << a.name;
    return out;
}

const RunArtifact* findArtifact(const ExecutionResult& r, const QString& name)
{
    for (const RunArtifact& a : r.artifacts)
        if (a.name == name)
            return &a;
    return nullptr;
}

QString sineWaveCode()
{
    return QStringLiteral(
        "import matplotlib.pyplot as plt\nimport numpy as np\n\nx = np.linspace(0, 10, 100)\ny = np.sin(x)\n\n"
        "plt.figure(figsize=(10, 6))\nplt.plot(x, y)\nplt.title(\"Sine Wave\")\nplt.xlabel(\"x\")\nplt.ylabel(\"sin(x)\")\n");
}

void verifySineWavePng(const ExecutionResult& r)
{
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.charts.size(), 1);
    QCOMPARE(r.charts[0].kind, RunChart::Kind::Png);
    QVERIFY(r.charts[0].png.startsWith("\x89PNG\r\n\x1a\n"));
    QImage image;
    QVERIFY(image.loadFromData(r.charts[0].png, "PNG"));
    QVERIFY(image.width() > 600 && image.height() > 300);
}

ExecutionResult waitForResult(Run* run)
{
    if (!run->isFinished()) {
        QEventLoop loop;
        QObject::connect(run, &Run::finished, &loop, &QEventLoop::quit);
        loop.exec();
    }
    ExecutionResult result = run->result();
    run->deleteLater();
    return result;
}

bool waitForOutput(Run* run, const QString& text)
{
    QString seen;
    QEventLoop loop;
    QObject::connect(run, &Run::output, &loop, [&](OutputStream, const QString& chunk) {
        seen += chunk;
        if (seen.contains(text))
            loop.quit();
    });
    QObject::connect(run, &Run::finished, &loop, &QEventLoop::quit);
    loop.exec();
    return seen.contains(text);
}

} // namespace sandpad
