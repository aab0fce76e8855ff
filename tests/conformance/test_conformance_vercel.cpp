// The provider-conformance cases against the Vercel provider and tests/fakes/fake_vercel.py.
// Network off: the fake runs every command in bwrap --unshare-all, as a Vercel sandbox created
// without network access would be; the contract (docs/providers.md) has no switch for it to send.
#include "FakeProviderConfigs.h"
#include "FakeServer.h"
#include "ProviderConformance.h"

#include "core/providers/vercel/VercelProvider.h"

#include <QtTest>

using namespace sandpad;

class TestConformanceVercel : public ProviderConformance {
    Q_OBJECT
    std::unique_ptr<FakeServer> m_fake;

protected:
    std::shared_ptr<SandboxProvider> makeProvider() override
    {
        m_fake = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"));
        if (!m_fake->started())
            return nullptr;
        VercelConfig c = fakeVercelConfig(*m_fake);
        c.basePackages = {QStringLiteral("matplotlib"), QStringLiteral("numpy")};
        c.confirmTimeoutMs = 3000;
        return std::make_shared<VercelProvider>(c);
    }
    void resetProvider() override { m_fake->reset(); }
    void verifyNothingLeft() override
    {
        QString why;
        QVERIFY2(m_fake->allCleaned(&why), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestConformanceVercel)
#include "test_conformance_vercel.moc"
