#pragma once

#include "core/sandbox/ProviderError.h"

#include <QDeadlineTimer>
#include <QJsonObject>
#include <QPointer>
#include <QProcess>
#include <functional>
#include <memory>

namespace sandpad {

class RunControl;

// The JSON-lines conversation with one command-provider process: requests on its stdin,
// responses and events on its stdout, its stderr kept for error messages. Blocking, in the
// calling worker thread (a local QEventLoop); the QProcess lives in that thread.
class CommandChannel {
public:
    CommandChannel(const QString& program, const QStringList& arguments);
    ~CommandChannel();

    // Starts the process. Throws ProviderError(Io) when it cannot start.
    void start();
    bool running() const;

    struct Reply {
        enum class End { Answered, Cancelled, DeadlineExpired };
        End end = End::Answered;
        QJsonObject response;
    };
    struct CallOptions {
        QDeadlineTimer deadline{QDeadlineTimer::Forever};
        RunControl* control = nullptr;
        std::function<void(const QJsonObject&)> onEvent;  // {"id": n, "event": ...} lines
        // Called once at cancellation or the deadline; the call then waits graceMs more for the
        // answer (a run ends after its kill). Without it the call returns at once.
        std::function<void(int id)> onInterrupted;
        int graceMs = 5000;
    };
    // Sends {"id": n, "op": op, ...}; returns the matching response. Throws ProviderError when the
    // process dies or answers garbage, or when the response says ok:false (its error kind mapped
    // onto ProviderError::Kind).
    Reply call(const QString& op, QJsonObject request, const CallOptions& options);
    // Sends a request without waiting for its answer (e.g. kill while a run is going).
    int post(const QString& op, QJsonObject request);
    // Closes stdin and waits for the process to exit; kills it after waitMs.
    bool finish(int waitMs);
    QString stderrTail() const;

    static ProviderError::Kind kindFromName(const QString& name);

private:
    bool readLine(QJsonObject& out);
    [[noreturn]] void fail(ProviderError::Kind kind, const QString& what);

    QString m_program;
    QStringList m_arguments;
    std::unique_ptr<QProcess> m_process;
    QByteArray m_buffer;
    QByteArray m_stderr;
    int m_nextId = 1;
};

} // namespace sandpad
