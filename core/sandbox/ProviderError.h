#pragma once

#include <QString>
#include <stdexcept>

namespace sandpad {

// Raised by providers and sandboxes for infrastructure failures (never for the user's own errors,
// which travel in the run's result). The Executor turns it into status infrastructure_error, $0.
class ProviderError : public std::runtime_error {
public:
    enum class Kind {
        NotConfigured,   // credentials or settings missing/invalid
        Unauthorized,    // 401/403
        PaymentRequired, // 402
        RateLimited,     // 429 after retries
        NotFound,        // 404
        SandboxStopped,  // 410/422
        Unavailable,     // 5xx, connection refused, DNS
        Protocol,        // an answer that does not follow the contract
        Io,              // local process / file failure
        Cancelled,       // the run was cancelled while the provider waited
    };
    ProviderError(Kind kind, const QString& message)
        : std::runtime_error(message.toStdString()), m_kind(kind), m_message(message) {}
    Kind kind() const { return m_kind; }
    QString message() const { return m_message; }

private:
    Kind m_kind;
    QString m_message;
};

} // namespace sandpad
