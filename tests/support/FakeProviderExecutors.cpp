#include "FakeProviderExecutors.h"

#include "FakeProviderConfigs.h"

#include "core/providers/command/CommandProvider.h"
#include "core/providers/daytona/DaytonaProvider.h"
#include "core/providers/vercel/VercelProvider.h"

#include <QTest>

namespace sandpad {

void FakeProviderExecutors::addProviderRows()
{
    QTest::addColumn<QString>("provider");
    QTest::newRow("vercel") << QStringLiteral("vercel");
    QTest::newRow("daytona") << QStringLiteral("daytona");
    QTest::newRow("command") << QStringLiteral("command");
}

QString FakeProviderExecutors::currentProvider()
{
    QFETCH_GLOBAL(QString, provider);
    return provider;
}

void FakeProviderExecutors::start(int confirmTimeoutMs, const std::optional<QStringList>& basePackages)
{
    QVERIFY2(m_data.open(), qPrintable(m_data.error()));
    m_ledger = std::make_unique<UsageLedger>(m_data.db());
    m_vercel = std::make_unique<FakeServer>(QStringLiteral("fake_vercel.py"));
    m_daytona = std::make_unique<FakeServer>(QStringLiteral("fake_daytona.py"));
    QVERIFY(m_vercel->started() && m_daytona->started());

    VercelConfig v = fakeVercelConfig(*m_vercel);
    if (basePackages)
        v.basePackages = *basePackages;
    v.confirmTimeoutMs = confirmTimeoutMs;
    DaytonaConfig d = fakeDaytonaConfig(*m_daytona);
    if (basePackages)
        d.basePackages = *basePackages;
    d.confirmTimeoutMs = confirmTimeoutMs;
    CommandProviderConfig c;
    c.program = QStringLiteral(SANDPAD_SOURCE_DIR "/resources/runtime/command-provider-example.py");
    m_executors.insert(QStringLiteral("vercel"), std::make_shared<Executor>(std::make_shared<VercelProvider>(v), m_ledger.get()));
    m_executors.insert(QStringLiteral("daytona"), std::make_shared<Executor>(std::make_shared<DaytonaProvider>(d), m_ledger.get()));
    m_executors.insert(QStringLiteral("command"), std::make_shared<Executor>(std::make_shared<CommandProvider>(c), m_ledger.get()));
}

FakeServer* FakeProviderExecutors::fake() const
{
    const QString p = currentProvider();
    return p == QLatin1String("vercel") ? m_vercel.get() : p == QLatin1String("daytona") ? m_daytona.get() : nullptr;
}

void FakeProviderExecutors::resetFake()
{
    if (FakeServer* f = fake())
        f->reset();
}

void FakeProviderExecutors::verifyCleaned()
{
    if (FakeServer* f = fake()) {
        QString why;
        QVERIFY2(f->allCleaned(&why), qPrintable(why));
    }
}

} // namespace sandpad
