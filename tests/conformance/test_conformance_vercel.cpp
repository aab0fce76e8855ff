// The provider-conformance cases against the Vercel provider and tests/fakes/fake_vercel.py, then
// the faults of the Vercel API through the same Executor: each run under a fault ends with a clear
// message, $0 in the result and the ledger, and nothing left in the fake (no VM, no named sandbox,
// no snapshot). Network off: the client sends networkPolicy deny-all and the fake enforces it.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "ProviderConformance.h"
#include "TempDatabase.h"
#include "TestChecks.h"

#include "core/accounting/UsageLedger.h"
#include "core/engine/Executor.h"
#include "core/providers/vercel/VercelProvider.h"
#include "core/run/ExecutionRequest.h"

#include <QtTest>

using namespace sandpad;

class TestConformanceVercel : public ProviderConformance {
    Q_OBJECT
    std::unique_ptr<FakeServer> m_fake;
    std::shared_ptr<VercelProvider> m_vercel;

protected:
    std::shared_ptr<SandboxProvider> makeProvider() override
    {
        m_fake = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"));
        if (!m_fake->started())
            return nullptr;
        VercelConfig c = fakeVercelConfig(*m_fake);
        c.basePackages = {QStringLiteral("matplotlib"), QStringLiteral("numpy")};
        c.confirmTimeoutMs = 3000;
        m_vercel = std::make_shared<VercelProvider>(c);
        return m_vercel;
    }
    void resetProvider() override { m_fake->reset(); }
    void verifyNothingLeft() override
    {
        QString why;
        QVERIFY2(m_fake->allCleaned(&why), qPrintable(why));
    }

private slots:
    void faultEndsUnpaidAndClean_data()
    {
        QTest::addColumn<QJsonObject>("inject"); // /__fake/faults body
        QTest::addColumn<QString>("message");    // in the result's reason
        auto fault = [](const char* method, const char* path, int status, int count, int retryAfter = 0) {
            QJsonObject f{{QStringLiteral("method"), QLatin1String(method)}, {QStringLiteral("path"), QLatin1String(path)},
                          {QStringLiteral("status"), status}, {QStringLiteral("count"), count}};
            if (retryAfter > 0)
                f.insert(QStringLiteral("retry_after"), retryAfter);
            return QJsonObject{{QStringLiteral("faults"), QJsonArray{f}}};
        };
        auto option = [](const char* name, const QJsonValue& value) {
            return QJsonObject{{QStringLiteral("options"), QJsonObject{{QLatin1String(name), value}}}};
        };
        QTest::newRow("create 503") << fault("POST", "^/v2/sandboxes$", 503, 3) << QStringLiteral("service unavailable");
        QTest::newRow("create 429") << fault("POST", "^/v2/sandboxes$", 429, 3, 1) << QStringLiteral("rate limited");
        QTest::newRow("create 429 for 60 s") << fault("POST", "^/v2/sandboxes$", 429, 1, 60)
                                             << QStringLiteral("rate limited, try again in 60 s");
        QTest::newRow("write 503") << fault("POST", "/fs/write$", 503, 3) << QStringLiteral("service unavailable");
        QTest::newRow("cmd 500") << fault("POST", "/cmd$", 500, 6) << QStringLiteral("service unavailable");
        QTest::newRow("cmd 429") << fault("POST", "/cmd$", 429, 6, 1) << QStringLiteral("rate limited");
        QTest::newRow("read 500") << fault("POST", "/fs/read$", 500, 3) << QStringLiteral("service unavailable");
        QTest::newRow("cut log stream") << option("cut_logs", QJsonObject{{QStringLiteral("count"), 1}, {QStringLiteral("after_ms"), 300}})
                                        << QStringLiteral("log stream dropped");
        QTest::newRow("delete never confirmed") << option("stop_never_confirms", true) << QStringLiteral("not confirmed");
        QTest::newRow("aborted") << option("create_status", QStringLiteral("aborted"))
                                 << QStringLiteral("did not start (status aborted: the service aborted the VM before it ran); "
                                                   "the sandbox was deleted");
    }
    void faultEndsUnpaidAndClean()
    {
        QFETCH(QJsonObject, inject);
        QFETCH(QString, message);
        m_fake->inject(inject);
        TempDatabase data;
        QVERIFY2(data.open(), qPrintable(data.error()));
        UsageLedger ledger(data.db());
        Executor executor(m_vercel, &ledger);
        auto request = ExecutionRequest::adHoc(Language::Python,
                                               QStringLiteral("import time\nfor i in range(8):\n    print(i, flush=True)\n    time.sleep(0.1)\n"),
                                               QStringLiteral("snippet.py"));
        const ExecutionResult r = executor.run(request);
        QCOMPARE(r.status, RunStatus::InfrastructureError);
        QVERIFY2(r.reason.contains(message), qPrintable(r.reason));
        QCOMPARE(r.costMicros, 0);
        const auto entry = ledger.find(r.runId);
        QVERIFY(entry);
        QCOMPARE(entry->costMicros, 0);
        SANDPAD_CHECK(verifyNothingLeft());
        QVERIFY(m_fake->count(QStringLiteral("^POST /v2/sandboxes$")) <= 3); // at most the first try and two retries
    }

    void acceptedCreateAnswered500IsUsedNotDuplicated()
    {
        m_fake->injectOption(QStringLiteral("create_accepted_then_fail"),
                             QJsonObject{{QStringLiteral("count"), 1}, {QStringLiteral("status"), 500}});
        TempDatabase data;
        QVERIFY2(data.open(), qPrintable(data.error()));
        UsageLedger ledger(data.db());
        const ExecutionResult r = Executor(m_vercel, &ledger).run(
            ExecutionRequest::adHoc(Language::Python, QStringLiteral("print('once')\n"), QStringLiteral("snippet.py")));
        QCOMPARE(r.status, RunStatus::Success);
        QCOMPARE(r.stdoutText, QStringLiteral("once\n"));
        QCOMPARE(r.costMicros, 50000);
        QCOMPARE(m_fake->count(QStringLiteral("^POST /v2/sandboxes$")), 1);
        SANDPAD_CHECK(verifyNothingLeft());
    }
};

QTEST_GUILESS_MAIN(TestConformanceVercel)
#include "test_conformance_vercel.moc"
