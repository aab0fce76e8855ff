#pragma once

#include <QLocalServer>
#include <QString>
#include <QTcpServer>

namespace sandpad {

// Services on the host a sandbox must not reach: a TCP server on the host's loopback and a Unix
// socket in the abstract namespace (which a sandbox sharing the host's network namespace could
// reach without any file). The suite's snippet tries them with attemptFunction() and the test
// ends with verifyNotReached().
class HostListeners {
public:
    // Starts both; the abstract socket's name is `namePrefix` and this process's id. (Call it
    // through SANDPAD_CHECK.)
    void listen(const QString& namePrefix);
    quint16 tcpPort() const { return m_tcp.serverPort(); }
    QString abstractName() const { return m_abstractName; }

    // Python defining attempt(label, family, addr): connect with a timeout of `timeoutSeconds`
    // (and send a byte when `send`), then print "<label> CONNECTED" or "<label> blocked <error>".
    // It imports socket.
    static QString attemptFunction(int timeoutSeconds, bool send = false);

    // No connection reached either listener (after the event loop has had its turn).
    void verifyNotReached();

private:
    QTcpServer m_tcp;
    QLocalServer m_abstract;
    QString m_abstractName;
};

} // namespace sandpad
