#include "LocalRunFixture.h"

#include "core/providers/local/SandboxPool.h"

#include <QStandardPaths>
#include <QTest>

namespace sandpad {

bool LocalRunFixture::hasBubblewrap()
{
    return !QStandardPaths::findExecutable(QStringLiteral("bwrap")).isEmpty();
}

void LocalRunFixture::addPathRows()
{
    QTest::addColumn<bool>("pooled");
    QTest::newRow("cold") << false;
    QTest::newRow("pooled") << true;
}

bool LocalRunFixture::start(std::initializer_list<Language> alsoWarm)
{
    if (!hasBubblewrap())
        return false;
    m_coldProvider = std::make_shared<LocalProvider>();
    m_coldProvider->setPoolSize(0);
    m_pooledProvider = std::make_shared<LocalProvider>();
    m_pooledProvider->setPoolSize(1);
    m_pooledProvider->startPool();
    for (Language language : alsoWarm)
        m_pooledProvider->warmLanguage(language);
    m_cold = std::make_unique<Executor>(m_coldProvider, nullptr);
    m_pooled = std::make_unique<Executor>(m_pooledProvider, nullptr);
    return true;
}

void LocalRunFixture::stop()
{
    m_pooled.reset();
    m_cold.reset();
    m_pooledProvider.reset();
    m_coldProvider.reset();
}

ExecutionRequest LocalRunFixture::request(Language language, const QString& code, const QString& title, int deadlineSeconds)
{
    ExecutionRequest request = ExecutionRequest::adHoc(language, code, title);
    request.deadlineSeconds = deadlineSeconds;
    return request;
}

ExecutionResult LocalRunFixture::runPooled(const ExecutionRequest& request, PoolUse use)
{
    // The checks are in lambdas so that a failed one still lets the run go ahead (its result is
    // what the caller's own checks then describe).
    [&] { QVERIFY2(m_pooledProvider->pool().waitUntilFull(120000), "the pool did not fill"); }();
    const int before = m_pooledProvider->pooledCreates();
    ExecutionResult r = m_pooled->run(request);
    if (use != PoolUse::Unchecked)
        [&] { QCOMPARE(m_pooledProvider->pooledCreates() - before, use == PoolUse::Taken ? 1 : 0); }();
    return r;
}

} // namespace sandpad
