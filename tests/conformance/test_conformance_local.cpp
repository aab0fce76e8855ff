// The provider-conformance cases against the local provider: real bubblewrap, cold sandboxes.
#include "ProcessChecks.h"
#include "ProviderConformance.h"

#include "core/providers/local/LocalProvider.h"

#include <QtTest>
#include <unistd.h>

using namespace sandpad;

class TestConformanceLocal : public ProviderConformance {
    Q_OBJECT

protected:
    std::shared_ptr<SandboxProvider> makeProvider() override { return std::make_shared<LocalProvider>(); }
    // Every sandbox is a child (bwrap) of this process; destroy() waited for PID 1 to exit, so
    // only a leak would still be there. This suite starts no other child.
    void verifyNothingLeft() override
    {
        const QList<int> left = childProcessesOf(int(::getpid()));
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("%1 processes left, e.g. pid %2").arg(left.size()).arg(left.value(0))));
    }
};

QTEST_GUILESS_MAIN(TestConformanceLocal)
#include "test_conformance_local.moc"
