#pragma once

#include "FakeServer.h"
#include "SandboxChecks.h"
#include "TestChecks.h"

#include "core/sandbox/ValidationReport.h"

#include <QElapsedTimer>
#include <QtTest>
#include <memory>
#include <utility>

namespace sandpad {

// What the suites of one remote provider against its fake share (the suite derives from QObject
// first, then from this): the fake server, a config that reaches it, and sandboxes from that
// provider. `fakeConfig` is fakeVercelConfig or fakeDaytonaConfig (FakeProviderConfigs.h).
template <class Provider, auto fakeConfig>
class FakeProviderFixture {
public:
    using Config = decltype(fakeConfig(std::declval<const FakeServer&>()));

protected:
    // For initTestCase(): starts tests/fakes/<script>.
    void startFake(const QString& script, const QStringList& args = {})
    {
        fake = std::make_unique<FakeServer>(script, args);
        QVERIFY2(fake->started(), qPrintable(script + QStringLiteral(" did not start")));
    }

    // The fake's config with two base packages (numpy, matplotlib) and a 2 s confirm timeout.
    Config config() const
    {
        Config c = fakeConfig(*fake);
        c.basePackages = {QStringLiteral("numpy"), QStringLiteral("matplotlib")};
        c.confirmTimeoutMs = 2000;
        return c;
    }

    std::unique_ptr<Sandbox> create(const Config& c, RunControl& control, Language lang = Language::Python)
    {
        return createSandbox<Provider>(c, control, lang);
    }

    // The body of a suite's outputIsStreamedBeforeExit(): a new sandbox passes
    // verifyOutputIsStreamedBeforeExit() and its destroy is confirmed.
    void outputIsStreamedBeforeExitCase()
    {
        RunControl control;
        auto sb = create(config(), control);
        SANDPAD_CHECK(verifyOutputIsStreamedBeforeExit(*sb, control));
        QVERIFY(sb->destroy().confirmed);
    }

    // The create (POST `createPath`) answered once with 429 and Retry-After: 1 is tried again after
    // that second, and then succeeds.
    void rateLimitedCreateIsRetriedCase(const QString& createPath)
    {
        fake->injectFault(QLatin1Char('^') + createPath + QLatin1Char('$'), 429, 1, QStringLiteral("POST"), 1);
        RunControl control;
        QElapsedTimer clock;
        clock.start();
        auto sb = create(config(), control);
        QVERIFY(clock.elapsed() >= 950);
        QCOMPARE(fake->count(QStringLiteral("^POST ") + createPath + QLatin1Char('$')), 2);
        QVERIFY(sb->destroy().confirmed);
    }

    // A JavaScript sandbox runs `node -e code` (which prints 2) and is destroyed.
    void verifyJavaScriptPrintsTwo(const QString& code)
    {
        RunControl control;
        auto sb = create(config(), control, Language::JavaScript);
        SandboxCommand cmd;
        cmd.argv = {sb->interpreter(Language::JavaScript), QStringLiteral("-e"), code};
        QByteArray out;
        QCOMPARE(sb->run(cmd, [&](OutputStream, const QByteArray& b) { out += b; }, control).exitCode.value_or(-1), 0);
        QCOMPARE(out, QByteArray("2\n"));
        QVERIFY(sb->destroy().confirmed);
    }

    // `c`, with a wrong secret, is refused as bad credentials, in a message that does not quote it.
    void verifyBadCredentialsRefused(const Config& c, const QString& secret)
    {
        RunControl control;
        QString message;
        SANDPAD_CHECK(verifyProviderError([&] { create(c, control); }, ProviderError::Kind::Unauthorized,
                                          QStringLiteral("bad credentials"), "create should fail", &message));
        QVERIFY(!message.contains(secret));
    }

    // `c`, with a wrong secret, fails validate() as bad credentials, in a text that does not quote it.
    void verifyBadCredentialsFailValidation(const Config& c, const QString& secret)
    {
        const ValidationReport bad = Provider(c).validate();
        QVERIFY(!bad.usable());
        QVERIFY2(bad.toText().contains(QStringLiteral("bad credentials")), qPrintable(bad.toText()));
        QVERIFY(!bad.toText().contains(secret));
    }

    // `sb` is destroyed, confirmed, and the fake has nothing left of it.
    void verifyDestroyedAndCleaned(Sandbox& sb)
    {
        QVERIFY(sb.destroy().confirmed);
        QVERIFY(fake->allCleaned());
    }

    // Every sandbox the fake created is destroyed (call it through SANDPAD_CHECK mid-test).
    void verifyAllCleaned()
    {
        QString why;
        QVERIFY2(fake->allCleaned(&why), qPrintable(why));
    }

    std::unique_ptr<FakeServer> fake;
};

} // namespace sandpad
