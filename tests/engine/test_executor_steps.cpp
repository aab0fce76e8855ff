// The Executor's eight steps (DESIGN.md, "The execution contract") and its accounting rules against
// FakeSandboxProvider: every step's failure, every way a run ends, what it costs and what the
// ledger and the credits account keep. In memory: no sandbox, no bubblewrap, milliseconds a case.
#include "FakeSandboxProvider.h"
#include "TempDatabase.h"
#include "TestChecks.h"

#include "core/accounting/CreditsAccount.h"
#include "core/accounting/UsageLedger.h"
#include "core/documents/DocumentStore.h"
#include "core/engine/Executor.h"
#include "core/run/ExecutionRequest.h"
#include "core/sandbox/RunControl.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace sandpad;

namespace {

constexpr qint64 kPaid = 50000; // $0.05 in micro-dollars

using Script = FakeSandboxScript;

ProviderError unavailable(const QString& what)
{
    return ProviderError(ProviderError::Kind::Unavailable, what);
}

QJsonObject lineChart()
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("line")},
                       {QStringLiteral("title"), QStringLiteral("t")},
                       {QStringLiteral("elements"),
                        QJsonArray{QJsonObject{{QStringLiteral("label"), QStringLiteral("s")},
                                               {QStringLiteral("points"), QJsonArray{QJsonArray{0, 1}, QJsonArray{1, 2}}}}}}};
}

QJsonObject interactive(const QJsonObject& spec)
{
    return {{QStringLiteral("kind"), QStringLiteral("interactive")}, {QStringLiteral("spec"), spec}};
}

} // namespace

class TestExecutorSteps : public QObject {
    Q_OBJECT
    TempDatabase m_data;
    std::unique_ptr<UsageLedger> m_ledger;
    std::unique_ptr<CreditsAccount> m_credits;
    std::shared_ptr<FakeSandboxProvider> m_fake;
    std::unique_ptr<Executor> m_executor;
    QSet<QString> m_checkedRuns; // the runs of this case whose row was checked

    ExecutionResult run(const QString& code, Language language = Language::Python, int deadline = 300)
    {
        auto request = ExecutionRequest::adHoc(language, code, QStringLiteral("t"));
        request.deadlineSeconds = deadline;
        return m_executor->run(request);
    }
    // The run has one ledger row (and the case no other rows than its checked runs'), with its
    // cost, status and, for $0, a reason.
    void verifyLedger(const ExecutionResult& r)
    {
        m_checkedRuns << r.runId;
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), int(m_checkedRuns.size()));
        const auto entry = m_ledger->find(r.runId);
        QVERIFY(entry);
        QCOMPARE(entry->costMicros, r.costMicros);
        QCOMPARE(entry->status, runStatusName(r.status));
        QCOMPARE(entry->provider, QStringLiteral("fake"));
        if (r.costMicros == 0)
            QVERIFY2(!entry->reason.isEmpty(), "a $0 run is recorded with its reason");
        else
            QVERIFY(entry->reason.isEmpty());
    }
    void verifyUnpaid(const ExecutionResult& r, RunStatus status, const QString& reasonPart)
    {
        QVERIFY2(r.status == status, qPrintable(runStatusName(r.status) + u' ' + r.reason));
        QCOMPARE(r.costMicros, 0);
        QVERIFY2(r.reason.contains(reasonPart), qPrintable(r.reason));
        SANDPAD_CHECK(verifyLedger(r));
    }
    void verifyPaid(const ExecutionResult& r, RunStatus status)
    {
        QVERIFY2(r.status == status, qPrintable(runStatusName(r.status) + u' ' + r.reason));
        QCOMPARE(r.costMicros, kPaid);
        QVERIFY(r.cleanupConfirmed);
        SANDPAD_CHECK(verifyLedger(r));
    }

private slots:
    // Every case on a new database, provider and executor: no case sees another's rows, credits
    // or scripts, whatever order they run in.
    void init()
    {
        m_data.initTest();
        m_ledger = std::make_unique<UsageLedger>(m_data.db());
        m_credits = std::make_unique<CreditsAccount>(m_data.db());
        m_fake = std::make_shared<FakeSandboxProvider>();
        m_executor = std::make_unique<Executor>(m_fake, m_ledger.get(), nullptr, m_credits.get());
        m_checkedRuns.clear();
    }
    void cleanup()
    {
        m_executor.reset();
        m_fake.reset();
        m_credits.reset();
        m_ledger.reset();
        m_data.close();
    }

    // --- A completed run, step by step.
    void successIsPaidWithOneRow()
    {
        m_fake->setScript(Script::completed(Script::resultJson(QStringLiteral("42")), "hello\n"));
        QStringList live;
        const auto r = m_executor->run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("print('hello')\nresult = 42"),
                                                               QStringLiteral("t.py")),
                                       [&](OutputStream, const QString& text) { live << text; });
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Success));
        QCOMPARE(r.result, QStringLiteral("42"));
        QCOMPARE(r.stdoutText, QStringLiteral("hello\n"));
        QCOMPARE(live.join(QString()), QStringLiteral("hello\n"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.provider, QStringLiteral("fake"));
        QCOMPARE(m_fake->createCalls(), 1);
        QCOMPARE(m_fake->lastRecord().destroyCalls, 1);
    }

    void programIsPlacedAndRunAsTheWrapperExpects()
    {
        const auto r = run(QStringLiteral("x = 1\n"));
        QCOMPARE(r.status, RunStatus::Success);
        const auto rec = m_fake->lastRecord();
        QCOMPARE(rec.options.language, Language::Python);
        QCOMPARE(rec.options.coldOnly, false);
        QCOMPARE(rec.file(QStringLiteral("/fake/work/main.py")), QByteArray("x = 1\n"));
        QVERIFY(!rec.file(QStringLiteral("/fake/work/wrapper.py")).isEmpty());
        const auto manifest = QJsonDocument::fromJson(rec.file(QStringLiteral("/fake/work/manifest.json"))).object();
        QCOMPARE(manifest.value(QStringLiteral("out_dir")).toString(), QStringLiteral("/fake/work/out"));
        QCOMPARE(manifest.value(QStringLiteral("title")).toString(), QStringLiteral("t"));
        QCOMPARE(rec.commands.size(), 1);
        QCOMPARE(rec.commands[0].argv, QStringList({QStringLiteral("python3"), QStringLiteral("/fake/work/wrapper.py"),
                                                    QStringLiteral("/fake/work/manifest.json")}));
        QCOMPARE(rec.commands[0].env.value(QStringLiteral("MPLBACKEND")), QStringLiteral("Agg"));
        QVERIFY(rec.reads.contains(QStringLiteral("/fake/work/out/result.json")));
    }

    void javascriptRunsTheModuleWrapper()
    {
        const auto r = run(QStringLiteral("console.log(1)"), Language::JavaScript);
        QCOMPARE(r.status, RunStatus::Success);
        QCOMPARE(r.language, Language::JavaScript);
        const auto rec = m_fake->lastRecord();
        QCOMPARE(rec.options.language, Language::JavaScript);
        QCOMPARE(rec.commands[0].argv.value(0), QStringLiteral("node"));
        QCOMPARE(rec.commands[0].argv.value(1), QStringLiteral("/fake/work/wrapper.mjs"));
    }

    // Step 3: `!pip install` lines become empty lines, their packages go to the manifest, and the
    // run must start cold (never a pre-started interpreter); the sandbox's pip arguments follow.
    void pipInstallRunsCold()
    {
        ExecutorConfig config;
        config.sandbox.pipWheelDir = QStringLiteral("/wheels");
        m_executor->setConfig(config);
        const auto r = run(QStringLiteral("!pip install tabulate\nprint(1)\n"));
        QCOMPARE(r.status, RunStatus::Success);
        const auto rec = m_fake->lastRecord();
        QVERIFY(rec.options.coldOnly);
        QCOMPARE(rec.file(QStringLiteral("/fake/work/main.py")), QByteArray("\nprint(1)\n"));
        const auto manifest = QJsonDocument::fromJson(rec.file(QStringLiteral("/fake/work/manifest.json"))).object();
        QCOMPARE(manifest.value(QStringLiteral("packages")).toArray(), QJsonArray{QStringLiteral("tabulate")});
        QCOMPARE(manifest.value(QStringLiteral("pip_args")).toArray(),
                 QJsonArray({QStringLiteral("--no-index"), QStringLiteral("--find-links"), QStringLiteral("/wheels")}));
    }

    // Step 5: the deadline is the lower of the request's and the settings', and it reaches the
    // sandbox (options) and the command (what is left of it).
    void deadlineReachesTheSandbox()
    {
        ExecutorConfig config;
        config.deadlineSeconds = 7;
        m_executor->setConfig(config);
        QCOMPARE(run(QStringLiteral("pass")).status, RunStatus::Success);
        auto rec = m_fake->lastRecord();
        QCOMPARE(rec.options.deadlineSeconds, 7);
        QVERIFY(rec.commands[0].timeoutMs > 0 && rec.commands[0].timeoutMs <= 7000);
        QCOMPARE(run(QStringLiteral("pass"), Language::Python, 2).status, RunStatus::Success);
        rec = m_fake->lastRecord();
        QCOMPARE(rec.options.deadlineSeconds, 2);
        QVERIFY(rec.commands[0].timeoutMs <= 2000);
    }

    // Step 4: stdout and stderr stay apart, and what is kept is capped with a notice.
    void outputIsSplitAndCapped()
    {
        ExecutorConfig config;
        config.keepBytesPerStream = 1000;
        m_executor->setConfig(config);
        Script script;
        script.output = {{OutputStream::Stdout, "out\n"}, {OutputStream::Stderr, "err\n"},
                         {OutputStream::Stdout, QByteArray(5000, 'x')}};
        m_fake->setScript(script);
        int liveStderr = 0;
        const auto r = m_executor->run(ExecutionRequest::adHoc(Language::Python, QStringLiteral("pass")),
                                       [&](OutputStream s, const QString& t) { liveStderr += s == OutputStream::Stderr ? int(t.size()) : 0; });
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Success));
        QCOMPARE(r.stderrText, QStringLiteral("err\n"));
        QCOMPARE(liveStderr, 4);
        QVERIFY(r.stdoutText.startsWith(QStringLiteral("out\nxxx")));
        QVERIFY(r.stdoutTruncated);
        QVERIFY(!r.stderrTruncated);
        QVERIFY(r.stdoutText.size() < 1500);
    }

    // --- Step 1: refusals before any sandbox exists, each with one $0 row.
    void noProviderIsRefused()
    {
        m_executor->setProvider(nullptr);
        const auto r = run(QStringLiteral("print(1)"));
        QCOMPARE(r.provider, QStringLiteral("none"));
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QVERIFY2(r.reason.contains(QStringLiteral("no sandbox provider")), qPrintable(r.reason));
        QCOMPARE(r.costMicros, 0);
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 1);
        QCOMPARE(m_fake->createCalls(), 0);
    }

    void savedRevisionWithoutStoreIsRefused()
    {
        const auto r = m_executor->run(ExecutionRequest::savedRevision(QStringLiteral("doc"), QStringLiteral("rev")));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::InfrastructureError, QStringLiteral("refused")));
        QCOMPARE(m_ledger->find(r.runId)->source, QStringLiteral("document"));
        QCOMPARE(m_fake->createCalls(), 0);
    }

    // A saved revision runs exactly its stored text, in the language of the document's title.
    void savedRevisionRunsTheStoredText()
    {
        DocumentStore documents(m_data.db());
        const auto document = documents.create(QStringLiteral("tool.js"), QStringLiteral("console.log('stored')"));
        QVERIFY(document);
        Executor executor(m_fake, m_ledger.get(), &documents);
        const auto r = executor.run(ExecutionRequest::savedRevision(document->id));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Success));
        QCOMPARE(r.language, Language::JavaScript);
        QCOMPARE(r.documentId, document->id);
        QVERIFY(!r.revisionId.isEmpty());
        QCOMPARE(m_fake->lastRecord().file(QStringLiteral("/fake/work/main.mjs")), QByteArray("console.log('stored')"));
        QCOMPARE(m_ledger->find(r.runId)->revisionId, r.revisionId);

        const auto forged = executor.run(ExecutionRequest::savedRevision(document->id, QStringLiteral("not-a-revision")));
        QCOMPARE(forged.status, RunStatus::InfrastructureError);
        QCOMPARE(forged.costMicros, 0);
        QCOMPARE(m_fake->createCalls(), 1);
    }

    // --- Credits: reserved before a sandbox exists, debited with the row, released at $0.
    void creditsAreReservedThenDebited()
    {
        m_credits->setEnabled(true);
        m_credits->topUp(70000); // pays one run, not two
        Script script;
        std::optional<qint64> heldDuringRun;
        script.duringRun = [&](RunControl&) { heldDuringRun = m_credits->summary()->reservedMicros; };
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("pass"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Success));
        QCOMPARE(heldDuringRun, kPaid);
        QCOMPARE(m_credits->balanceMicros(), 20000);
        QCOMPARE(m_credits->summary()->reservedMicros, 0);

        const auto refused = run(QStringLiteral("pass"));
        QCOMPARE(refused.status, RunStatus::InfrastructureError);
        QVERIFY2(refused.reason.contains(QStringLiteral("credits")), qPrintable(refused.reason));
        QCOMPARE(m_fake->createCalls(), 1); // refused before any sandbox
        QCOMPARE(m_credits->balanceMicros(), 20000);
    }

    void creditsAreReleasedWhenTheRunIsFree()
    {
        m_credits->setEnabled(true);
        m_credits->topUp(kPaid);
        Script script;
        script.createError = unavailable(QStringLiteral("down"));
        m_fake->setScript(script);
        SANDPAD_CHECK(verifyUnpaid(run(QStringLiteral("pass")), RunStatus::InfrastructureError, QStringLiteral("down")));
        QCOMPARE(m_credits->balanceMicros(), kPaid);
        QCOMPARE(m_credits->summary()->reservedMicros, 0);
        m_fake->setScript({});
        SANDPAD_CHECK(verifyPaid(run(QStringLiteral("pass")), RunStatus::Success));
        QCOMPARE(m_credits->balanceMicros(), 0);
    }

    void creditsOffRecordsWithoutDebit()
    {
        m_credits->topUp(kPaid);
        SANDPAD_CHECK(verifyPaid(run(QStringLiteral("pass")), RunStatus::Success));
        QCOMPARE(m_credits->balanceMicros(), kPaid);
    }

    // --- Step 2-3: infrastructure failures before the program started are $0.
    void createFailureIsFree()
    {
        Script script;
        script.createError = unavailable(QStringLiteral("the provider is unreachable"));
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("print(1)"));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::InfrastructureError, QStringLiteral("could not create a sandbox: the provider is unreachable")));
        QVERIFY(!r.cleanupConfirmed);
        QCOMPARE(m_fake->lastRecord().destroyCalls, 0); // there was none
    }

    void createThrowingAnyExceptionIsFree()
    {
        Script script;
        script.createThrowsStd = QStringLiteral("bad_alloc-ish");
        m_fake->setScript(script);
        SANDPAD_CHECK(verifyUnpaid(run(QStringLiteral("pass")), RunStatus::InfrastructureError, QStringLiteral("bad_alloc-ish")));
    }

    void uploadFailureIsFreeAndTheSandboxIsDestroyed()
    {
        Script script;
        script.writeError = ProviderError(ProviderError::Kind::Io, QStringLiteral("upload refused"));
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("print(1)"));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::InfrastructureError, QStringLiteral("the sandbox failed: upload refused")));
        QCOMPARE(m_fake->lastRecord().commands.size(), 0);
        QCOMPARE(m_fake->lastRecord().destroyCalls, 1);
        QVERIFY(r.cleanupConfirmed);
    }

    void runFailureIsFree()
    {
        Script script;
        script.runError = ProviderError(ProviderError::Kind::SandboxStopped, QStringLiteral("sandbox stopped"));
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("print(1)"));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::InfrastructureError, QStringLiteral("sandbox stopped")));
        QCOMPARE(m_fake->lastRecord().destroyCalls, 1);
    }

    // A provider that reports the cancel as an error while it waits: a cancellation, not a failure.
    void providerCancelledErrorIsACancellation()
    {
        Script script;
        script.runError = ProviderError(ProviderError::Kind::Cancelled, QStringLiteral("cancelled while waiting"));
        m_fake->setScript(script);
        SANDPAD_CHECK(verifyUnpaid(run(QStringLiteral("pass")), RunStatus::Cancelled, QStringLiteral("cancelled")));
    }

    // The interpreter never began the wrapper (no `started` frame): the sandbox's failure, $0,
    // whatever the output says.
    void endWithoutStartedIsFree()
    {
        Script script;
        script.resultChannel.clear();
        script.exitCode = 127;
        script.output = {{OutputStream::Stderr, "python3: not found\n"}};
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("print(1)"));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::InfrastructureError, QStringLiteral("the runtime did not start the program (exit code 127)")));
        QCOMPARE(r.stderrText, QStringLiteral("python3: not found\n"));
    }

    // --- Step 6: once `started` was sent, every end is the program's, billed.
    void programErrorIsBilled()
    {
        const QString tb = QStringLiteral("Traceback (most recent call last):\n  File \"t\", line 2, in <module>\nZeroDivisionError: division by zero");
        m_fake->setScript(Script::completed(Script::resultJson(std::nullopt, Script::error(QStringLiteral("ZeroDivisionError"), QStringLiteral("division by zero"), tb))));
        const auto r = run(QStringLiteral("x = 1\n1/0"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QVERIFY(r.error);
        QCOMPARE(r.error->name, QStringLiteral("ZeroDivisionError"));
        QCOMPARE(r.error->line(), 2);
    }

    void killedAfterStartedIsAResultError()
    {
        Script script;
        script.resultChannel = Script::frames({{QStringLiteral("started"), {}}});
        script.exitCode = 137;
        script.detail = QStringLiteral("killed by signal 9 (SIGKILL)");
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("import os; os.kill(os.getpid(), 9)"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QCOMPARE(r.error->name, QStringLiteral("ResultError"));
        QVERIFY2(r.error->value.contains(QStringLiteral("without a result")) && r.error->value.contains(QStringLiteral("SIGKILL")),
                 qPrintable(r.error->value));
    }

    void malformedResultAfterStartedIsBilled()
    {
        m_fake->setScript(Script::completed("{\"status\": \"success\", \"result\": "));
        const auto r = run(QStringLiteral("pass"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QCOMPARE(r.error->name, QStringLiteral("ResultError"));
        QVERIFY(!r.result);
    }

    // Garbage written to the channel after `started` (the snippet owns the wrapper's process).
    void malformedChannelAfterStartedIsBilled()
    {
        Script script;
        script.resultChannel = Script::frames({{QStringLiteral("started"), {}}}) + "not a frame header\n";
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("pass"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QCOMPARE(r.error->name, QStringLiteral("ResultError"));
        QVERIFY2(r.error->value.contains(QStringLiteral("malformed")), qPrintable(r.error->value));
    }

    // A remote provider cannot tell `started` from its channel: the Executor reads out/started.
    void remoteOutDirStartedFileDecides()
    {
        Script script;
        script.channel = Script::Channel::OutDir;
        script.exitCode = 1;
        script.outFiles = {{QStringLiteral("started"), {}}};
        m_fake->setScript(script);
        auto r = run(QStringLiteral("pass"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QCOMPARE(r.error->name, QStringLiteral("ResultError"));
        QVERIFY(m_fake->lastRecord().reads.contains(QStringLiteral("/fake/work/out/started")));

        cleanup();
        init();
        script.outFiles.clear();
        m_fake->setScript(script);
        r = run(QStringLiteral("pass"));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::InfrastructureError, QStringLiteral("did not start")));

        cleanup();
        init();
        script.exitCode = 0;
        script.outFiles = {{QStringLiteral("started"), {}}, {QStringLiteral("result.json"), Script::resultJson(QStringLiteral("7"))}};
        m_fake->setScript(script);
        r = run(QStringLiteral("pass"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Success));
        QCOMPARE(r.result, QStringLiteral("7"));
    }

    void readBackFailureIsFree()
    {
        Script script;
        script.readError = unavailable(QStringLiteral("read timed out"));
        m_fake->setScript(script);
        SANDPAD_CHECK(verifyUnpaid(run(QStringLiteral("pass")), RunStatus::InfrastructureError, QStringLiteral("invalid output: read timed out")));
    }

    void limitExceededIsTheProgramsError()
    {
        Script script;
        script.resultChannel = Script::frames({{QStringLiteral("started"), {}}});
        script.exitCode.reset();
        script.limitExceeded = QStringLiteral("The run used more than 1024 MiB of memory");
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("x = ' ' * 2**40"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QCOMPARE(r.error->name, QStringLiteral("SandboxLimitError"));
        QCOMPARE(r.error->value, script.limitExceeded);
    }

    void chartsAreValidated()
    {
        m_fake->setScript(Script::completed(Script::resultJson(std::nullopt, std::nullopt, {interactive(lineChart())})));
        auto r = run(QStringLiteral("chart = ..."));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Success));
        QCOMPARE(r.charts.size(), 1);
        QCOMPARE(r.charts[0].kind, RunChart::Kind::Interactive);

        cleanup();
        init();
        QJsonObject bad = lineChart();
        bad[QStringLiteral("type")] = QStringLiteral("pie-in-the-sky");
        m_fake->setScript(Script::completed(Script::resultJson(std::nullopt, std::nullopt, {interactive(bad)})));
        r = run(QStringLiteral("chart = ..."));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QCOMPARE(r.error->name, QStringLiteral("ChartError"));
        QVERIFY(r.charts.isEmpty());

        // A PNG named in result.json but never sent: the program's (it owns the channel).
        cleanup();
        init();
        m_fake->setScript(Script::completed(Script::resultJson(std::nullopt, std::nullopt,
            {QJsonObject{{QStringLiteral("kind"), QStringLiteral("png")}, {QStringLiteral("file"), QStringLiteral("chart-1.png")}}})));
        r = run(QStringLiteral("pass"));
        SANDPAD_CHECK(verifyPaid(r, RunStatus::Error));
        QVERIFY2(r.error->value.contains(QStringLiteral("chart-1.png")), qPrintable(r.error->value));
    }

    // --- Step 5: a timeout and a cancellation are $0, with what was printed kept.
    void timeoutIsFree()
    {
        Script script;
        script.output = {{OutputStream::Stdout, "start\n"}};
        script.end = Script::End::Timeout;
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("while True: pass"), Language::Python, 3);
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::Timeout, QStringLiteral("timeout: the run exceeded its 3 s deadline")));
        QCOMPARE(r.stdoutText, QStringLiteral("start\n"));
        QCOMPARE(m_fake->lastRecord().destroyCalls, 1);
        QVERIFY(r.cleanupConfirmed);
    }

    void cancelIsFree()
    {
        Script script;
        script.output = {{OutputStream::Stdout, "x\n"}};
        script.end = Script::End::Hang;
        // The user presses Stop while the program runs (RunControl is what the GUI's Stop calls).
        script.duringRun = [](RunControl& control) { control.cancel(); };
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("import time; time.sleep(60)"));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::Cancelled, QStringLiteral("cancelled")));
        QCOMPARE(r.stdoutText, QStringLiteral("x\n"));
        QCOMPARE(m_fake->lastRecord().destroyCalls, 1);
    }

    // --- Step 7: a run whose sandbox is not confirmed gone is not complete: $0, with why.
    void unconfirmedCleanupIsFree()
    {
        Script script = Script::completed(Script::resultJson(QStringLiteral("1")));
        script.cleanupConfirmed = false;
        script.cleanupDetail = QStringLiteral("pid 4242 still running");
        m_fake->setScript(script);
        const auto r = run(QStringLiteral("result = 1"));
        SANDPAD_CHECK(verifyUnpaid(r, RunStatus::InfrastructureError, QStringLiteral("cleanup not confirmed: pid 4242 still running")));
        QVERIFY(!r.cleanupConfirmed);
        QCOMPARE(r.result, QStringLiteral("1")); // the output is still shown
    }

    void unconfirmedCleanupAfterAnErrorIsFree()
    {
        Script script = Script::completed(Script::resultJson(std::nullopt, Script::error(QStringLiteral("E"), QStringLiteral("v"), {})));
        script.cleanupConfirmed = false;
        m_fake->setScript(script);
        SANDPAD_CHECK(verifyUnpaid(run(QStringLiteral("raise E")), RunStatus::InfrastructureError, QStringLiteral("cleanup not confirmed")));
    }

    void unconfirmedCleanupKeepsATimeout()
    {
        Script script;
        script.end = Script::End::Timeout;
        script.cleanupConfirmed = false;
        m_fake->setScript(script);
        SANDPAD_CHECK(verifyUnpaid(run(QStringLiteral("pass")), RunStatus::Timeout, QStringLiteral("timeout")));
    }

    // --- Step 8: one row per run, each with its own run id, many runs in a row.
    void everyRunHasItsOwnRow()
    {
        m_fake->queueScript(Script{});
        Script failing;
        failing.createError = unavailable(QStringLiteral("x"));
        m_fake->queueScript(failing);
        m_fake->queueScript(Script{});
        QSet<QString> ids;
        for (int i = 0; i < 3; ++i)
            ids << run(QStringLiteral("pass")).runId;
        QCOMPARE(ids.size(), 3);
        QCOMPARE(m_data.rowCount(QStringLiteral("usage")), 3);
        QCOMPARE(m_ledger->totalMicros(), 2 * kPaid);
    }
};

QTEST_GUILESS_MAIN(TestExecutorSteps)
#include "test_executor_steps.moc"
