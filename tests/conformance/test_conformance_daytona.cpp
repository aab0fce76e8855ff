// The provider-conformance cases against the Daytona provider and tests/fakes/fake_daytona.py.
// Network off: the provider creates the sandbox with networkBlockAll (DaytonaSandbox), and the fake
// runs every command in bwrap --unshare-all, as such a sandbox is.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "ProviderConformance.h"

#include "core/providers/daytona/DaytonaProvider.h"

#include <QtTest>

using namespace sandpad;

class TestConformanceDaytona : public ProviderConformance {
    Q_OBJECT
    std::unique_ptr<FakeServer> m_fake;

protected:
    std::shared_ptr<SandboxProvider> makeProvider() override
    {
        m_fake = std::make_unique<FakeServer>(QStringLiteral("fake_daytona.py"));
        if (!m_fake->started())
            return nullptr;
        DaytonaConfig c = fakeDaytonaConfig(*m_fake);
        c.basePackages = {QStringLiteral("matplotlib"), QStringLiteral("numpy")};
        c.confirmTimeoutMs = 3000;
        return std::make_shared<DaytonaProvider>(c);
    }
    void resetProvider() override { m_fake->reset(); }
    void verifyNothingLeft() override
    {
        QString why;
        QVERIFY2(m_fake->allCleaned(&why), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestConformanceDaytona)
#include "test_conformance_daytona.moc"
