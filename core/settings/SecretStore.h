#pragma once

#include <QString>
#include <functional>

namespace sandpad {

// Provider credentials in the OS keychain (Secret Service / KWallet / macOS Keychain / Windows
// Credential Store) through QtKeychain, under the service "sandpad". Never falls back to a plain
// text file: without a keychain backend (e.g. CI without D-Bus) every call reports a clear error.
class SecretStore {
public:
    struct Result {
        bool ok = false;
        bool notFound = false; // read/delete: no secret under that key
        QString value;         // read: the secret
        QString error;         // why not, for the user (never contains the secret)
    };
    using Callback = std::function<void(const Result&)>;

    explicit SecretStore(QString service = QStringLiteral("sandpad"), int timeoutMs = 10000);

    // Blocking (a local event loop; fine on a worker thread or for a short settings action).
    Result readSecret(const QString& key) const;
    Result writeSecret(const QString& key, const QString& value) const;
    Result deleteSecret(const QString& key) const;

    // Asynchronous: the callback runs on the calling thread's event loop.
    void readSecretAsync(const QString& key, Callback done) const;
    void writeSecretAsync(const QString& key, const QString& value, Callback done) const;
    void deleteSecretAsync(const QString& key, Callback done) const;

    QString service() const { return m_service; }

private:
    QString m_service;
    int m_timeoutMs;
};

} // namespace sandpad
