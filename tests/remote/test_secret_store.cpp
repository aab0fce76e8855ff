// SecretStore over QtKeychain: works with a keychain, and without one (CI: no D-Bus) answers a
// clear error instead of crashing or writing the secret anywhere in plain text.
#include "core/settings/SecretStore.h"

#include <QDirIterator>
#include <QStandardPaths>
#include <QtTest>

using namespace sandpad;

class TestSecretStore : public QObject {
    Q_OBJECT

    // Files under the usual config/data folders that contain `needle`.
    static QStringList filesContaining(const QByteArray& needle)
    {
        QStringList hits;
        for (const auto loc : {QStandardPaths::GenericConfigLocation, QStandardPaths::GenericDataLocation}) {
            for (const QString& root : QStandardPaths::standardLocations(loc)) {
                QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
                int seen = 0;
                while (it.hasNext() && seen++ < 5000) {
                    QFile f(it.next());
                    if (f.size() < 1 << 20 && f.open(QIODevice::ReadOnly) && f.readAll().contains(needle))
                        hits << f.fileName();
                }
            }
        }
        return hits;
    }

private slots:
    void roundTripOrClearError()
    {
        const QByteArray secret = "sandpad-test-secret-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        SecretStore store(QStringLiteral("sandpad-test"), 8000);
        // Without a keychain service the store gives up after its 8 s timeout (a hang would end
        // at the suite's ctest TIMEOUT); no wall-clock bound here.
        const auto written = store.writeSecret(QStringLiteral("VERCEL_TOKEN"), QString::fromLatin1(secret));
        if (!written.ok) {
            qInfo("no keychain here: %s", qPrintable(written.error));
            QVERIFY(written.error.contains(QStringLiteral("keychain")));
            QVERIFY(!written.error.contains(QString::fromLatin1(secret)));
            const auto read = store.readSecret(QStringLiteral("VERCEL_TOKEN"));
            QVERIFY(!read.ok);
            QVERIFY(read.value.isEmpty());
            QVERIFY(!read.error.isEmpty());
            QVERIFY2(filesContaining(secret).isEmpty(), "the secret was written to a plain file");
            return;
        }
        const auto read = store.readSecret(QStringLiteral("VERCEL_TOKEN"));
        QVERIFY2(read.ok, qPrintable(read.error));
        QCOMPARE(read.value, QString::fromLatin1(secret));
        QVERIFY(store.deleteSecret(QStringLiteral("VERCEL_TOKEN")).ok);
        const auto gone = store.readSecret(QStringLiteral("VERCEL_TOKEN"));
        QVERIFY(!gone.ok && gone.notFound);
    }

    void asyncAnswersOnce()
    {
        SecretStore store(QStringLiteral("sandpad-test"));
        int calls = 0;
        SecretStore::Result got;
        store.readSecretAsync(QStringLiteral("DAYTONA_API_KEY_missing"), [&](const SecretStore::Result& r) {
            ++calls;
            got = r;
        });
        QTRY_COMPARE_WITH_TIMEOUT(calls, 1, 15000);
        QVERIFY(!got.ok);
        QVERIFY(!got.error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSecretStore)
#include "test_secret_store.moc"
