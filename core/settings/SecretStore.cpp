#include "core/settings/SecretStore.h"

#include <QEventLoop>
#include <QTimer>
#include <memory>
#include <qt6keychain/keychain.h>

namespace sandpad {

namespace {
enum class Op { Read, Write, Delete };

SecretStore::Result toResult(QKeychain::Job* job, Op op)
{
    SecretStore::Result r;
    switch (job->error()) {
    case QKeychain::NoError:
        r.ok = true;
        if (op == Op::Read)
            r.value = static_cast<QKeychain::ReadPasswordJob*>(job)->textData();
        break;
    case QKeychain::EntryNotFound:
        r.notFound = true;
        r.ok = op == Op::Delete; // deleting what is not there leaves the wanted state
        r.error = QStringLiteral("no secret stored under '%1'").arg(job->key());
        break;
    case QKeychain::NoBackendAvailable:
        r.error = QStringLiteral("no OS keychain is available (%1); use environment variables instead")
                      .arg(job->errorString());
        break;
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        r.error = QStringLiteral("access to the OS keychain was denied (%1)").arg(job->errorString());
        break;
    default:
#if defined(Q_OS_LINUX)
        // Without a D-Bus session QtKeychain only says "Unknown error": name the real cause.
        if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
            r.error = QStringLiteral("no OS keychain is available (no D-Bus session, so no Secret Service or "
                                     "KWallet); use environment variables instead");
            break;
        }
#endif
        r.error = QStringLiteral("OS keychain error: %1").arg(job->errorString());
        break;
    }
    return r;
}

QKeychain::Job* makeJob(const QString& service, Op op, const QString& key, const QString& value)
{
    QKeychain::Job* job = nullptr;
    if (op == Op::Read) {
        job = new QKeychain::ReadPasswordJob(service);
    } else if (op == Op::Write) {
        auto* w = new QKeychain::WritePasswordJob(service);
        w->setTextData(value);
        job = w;
    } else {
        job = new QKeychain::DeletePasswordJob(service);
    }
    job->setKey(key);
    job->setInsecureFallback(false); // never a plain-text file
    job->setAutoDelete(false);
    return job;
}

SecretStore::Result runBlocking(const QString& service, int timeoutMs, Op op, const QString& key, const QString& value)
{
    std::unique_ptr<QKeychain::Job> job(makeJob(service, op, key, value));
    QEventLoop loop;
    bool finished = false;
    QObject::connect(job.get(), &QKeychain::Job::finished, &loop, [&] {
        finished = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    job->start();
    if (!finished)
        loop.exec();
    if (!finished) {
        // A hung D-Bus call: the job may still finish later, so let it clean itself up then.
        job->setAutoDelete(true);
        job.release();
        SecretStore::Result r;
        r.error = QStringLiteral("the OS keychain did not answer within %1 s").arg(timeoutMs / 1000);
        return r;
    }
    return toResult(job.get(), op);
}

void runAsync(const QString& service, Op op, const QString& key, const QString& value, SecretStore::Callback done)
{
    QKeychain::Job* job = makeJob(service, op, key, value);
    QObject::connect(job, &QKeychain::Job::finished, job, [job, op, done = std::move(done)] {
        const SecretStore::Result r = toResult(job, op);
        job->deleteLater();
        if (done)
            done(r);
    });
    job->start();
}
} // namespace

SecretStore::SecretStore(QString service, int timeoutMs) : m_service(std::move(service)), m_timeoutMs(timeoutMs) {}

SecretStore::Result SecretStore::readSecret(const QString& key) const
{
    return runBlocking(m_service, m_timeoutMs, Op::Read, key, {});
}

SecretStore::Result SecretStore::writeSecret(const QString& key, const QString& value) const
{
    return runBlocking(m_service, m_timeoutMs, Op::Write, key, value);
}

SecretStore::Result SecretStore::deleteSecret(const QString& key) const
{
    return runBlocking(m_service, m_timeoutMs, Op::Delete, key, {});
}

void SecretStore::readSecretAsync(const QString& key, Callback done) const
{
    runAsync(m_service, Op::Read, key, {}, std::move(done));
}

void SecretStore::writeSecretAsync(const QString& key, const QString& value, Callback done) const
{
    runAsync(m_service, Op::Write, key, value, std::move(done));
}

void SecretStore::deleteSecretAsync(const QString& key, Callback done) const
{
    runAsync(m_service, Op::Delete, key, {}, std::move(done));
}

} // namespace sandpad
