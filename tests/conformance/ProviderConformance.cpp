#include "ProviderConformance.h"

#include "CancellingProvider.h"
#include "ExecutionChecks.h"
#include "TestChecks.h"

#include "core/engine/Executor.h"
#include "core/run/ExecutionRequest.h"

#include <QtTest>

namespace sandpad {

void ProviderConformance::initTestCase()
{
    m_provider = makeProvider();
    QVERIFY(m_provider);
}

void ProviderConformance::init()
{
    // A new ledger for every case: each case finds its own rows only, in any order.
    QVERIFY2(m_data.open(), qPrintable(m_data.error()));
    m_ledger = std::make_unique<UsageLedger>(m_data.db());
    resetProvider();
}

void ProviderConformance::cleanup()
{
    m_ledger.reset();
    m_data.close();
}

void ProviderConformance::cleanupTestCase()
{
    m_provider.reset();
}

ExecutionResult ProviderConformance::run(const QString& code, int deadlineSeconds, Language language)
{
    Executor executor(m_provider, m_ledger.get());
    auto request = ExecutionRequest::adHoc(language, code, language == Language::Python ? QStringLiteral("snippet.py")
                                                                                        : QStringLiteral("snippet.mjs"));
    request.deadlineSeconds = deadlineSeconds;
    return executor.run(request);
}

void ProviderConformance::verifyCompleted(const ExecutionResult& r)
{
    QVERIFY2(r.status == RunStatus::Success || r.status == RunStatus::Error, qPrintable(describeResult(r)));
    QCOMPARE(r.provider, m_provider->name());
    QVERIFY(r.cleanupConfirmed);
    QCOMPARE(r.costMicros, 50000);
    const auto entry = m_ledger->find(r.runId);
    QVERIFY(entry);
    QCOMPARE(entry->costMicros, 50000);
    QCOMPARE(entry->provider, m_provider->name());
    QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 1);
    SANDPAD_CHECK(verifyNothingLeft());
}

void ProviderConformance::verifyUnpaid(const ExecutionResult& r, RunStatus status)
{
    QVERIFY2(r.status == status, qPrintable(describeResult(r)));
    QCOMPARE(r.costMicros, 0);
    QVERIFY(!r.reason.isEmpty());
    QVERIFY(r.cleanupConfirmed);
    const auto entry = m_ledger->find(r.runId);
    QVERIFY(entry);
    QCOMPARE(entry->costMicros, 0);
    QVERIFY(!entry->reason.isEmpty());
    SANDPAD_CHECK(verifyNothingLeft());
}

void ProviderConformance::printOutput()
{
    const auto r = run(QStringLiteral("print('hello')\nprint('world')\n"));
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.stdoutText, QStringLiteral("hello\nworld\n"));
    QVERIFY(!r.result);
    QVERIFY(!r.error);
    SANDPAD_CHECK(verifyCompleted(r));
}

void ProviderConformance::resultValue()
{
    auto r = run(QStringLiteral("result = 6 * 7\n"));
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.result, QStringLiteral("42"));
    QCOMPARE(r.stdoutText, QString()); // the wrapper never prints `result`
    SANDPAD_CHECK(verifyCompleted(r));
}

void ProviderConformance::errorWithItsLine()
{
    const auto r = run(QStringLiteral("print('before')\nx = 1 / 0\n"));
    QCOMPARE(r.status, RunStatus::Error);
    QCOMPARE(r.stdoutText, QStringLiteral("before\n"));
    QVERIFY(r.error);
    QCOMPARE(r.error->name, QStringLiteral("ZeroDivisionError"));
    QCOMPARE(r.error->line(), 2);
    QVERIFY2(r.error->traceback.contains(QStringLiteral("snippet.py")), qPrintable(r.error->traceback));
    QVERIFY2(!r.error->traceback.contains(QStringLiteral("wrapper")), qPrintable(r.error->traceback));
    SANDPAD_CHECK(verifyCompleted(r)); // the user's error is billed like a success
}

void ProviderConformance::interactiveChart()
{
    const auto r = run(QStringLiteral(
        "chart = {'type': 'line', 'title': 'T', 'elements': [{'label': 's', 'points': [[0, 1], [1, 2], [2, 4]]}]}\n"));
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.charts.size(), 1);
    QCOMPARE(r.charts[0].kind, RunChart::Kind::Interactive);
    QCOMPARE(r.charts[0].specJson().value(QStringLiteral("type")).toString(), QStringLiteral("line"));
    SANDPAD_CHECK(verifyCompleted(r));
}

void ProviderConformance::matplotlibChart()
{
    const auto r = run(sineWaveCode());
    SANDPAD_CHECK(verifySineWavePng(r));
    SANDPAD_CHECK(verifyCompleted(r));
}

void ProviderConformance::stdoutAndStderrApart()
{
    const auto r = run(QStringLiteral("import sys\nprint('out')\nprint('err', file=sys.stderr)\nprint('out2')\n"));
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.stdoutText, QStringLiteral("out\nout2\n"));
    QCOMPARE(r.stderrText, QStringLiteral("err\n"));
    SANDPAD_CHECK(verifyCompleted(r));
}

void ProviderConformance::nonZeroExitIsTheProgramsError()
{
    // os._exit skips the wrapper's report: once the program started, an end without a result is
    // the program's error, billed, with how it ended.
    const auto r = run(QStringLiteral("import os\nprint('bye', flush=True)\nos._exit(3)\n"));
    QCOMPARE(r.status, RunStatus::Error);
    QCOMPARE(r.exitCode, 3);
    QVERIFY(r.error);
    QCOMPARE(r.error->name, QStringLiteral("ResultError"));
    QVERIFY2(r.error->value.contains(QStringLiteral("exit code 3")), qPrintable(r.error->value));
    QCOMPARE(r.stdoutText, QStringLiteral("bye\n"));
    SANDPAD_CHECK(verifyCompleted(r));
}

void ProviderConformance::javascript()
{
    auto r = run(QStringLiteral("console.log('hi from node');\nconst result = {a: 1};\n"), 60, Language::JavaScript);
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.stdoutText, QStringLiteral("hi from node\n"));
    QCOMPARE(r.result, QStringLiteral("{ a: 1 }"));
    SANDPAD_CHECK(verifyCompleted(r));
}

void ProviderConformance::timeout()
{
    // 3 s: enough for every provider to create its sandbox and print before the deadline.
    const auto r = run(QStringLiteral("import time\nprint('start', flush=True)\ntime.sleep(60)\n"), 3);
    SANDPAD_CHECK(verifyUnpaid(r, RunStatus::Timeout));
    QCOMPARE(r.stdoutText, QStringLiteral("start\n")); // what was printed before is kept
    QVERIFY2(r.reason.contains(QStringLiteral("3 s deadline")), qPrintable(r.reason));
}

void ProviderConformance::cancel()
{
    Executor executor(std::make_shared<CancellingProvider>(m_provider), m_ledger.get());
    const auto r = executor.run(ExecutionRequest::adHoc(
        Language::Python, QStringLiteral("import time\nprint('x', flush=True)\ntime.sleep(60)\n"), QStringLiteral("snippet.py")));
    SANDPAD_CHECK(verifyUnpaid(r, RunStatus::Cancelled));
    QCOMPARE(r.stdoutText, QStringLiteral("x\n"));
}

void ProviderConformance::networkIsOff()
{
    // The default settings: no network. A connection to a public address fails at once (no
    // route) whichever layer refuses it (an empty network namespace, the seccomp filter).
    const auto r = run(QStringLiteral(
        "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 80), timeout=5)\n    print('connected')\n"
        "except OSError as e:\n    print('refused')\n"));
    QVERIFY2(r.status == RunStatus::Success, qPrintable(describeResult(r)));
    QCOMPARE(r.stdoutText, QStringLiteral("refused\n"));
    SANDPAD_CHECK(verifyCompleted(r));
}

} // namespace sandpad
