#include "HostListeners.h"

#include <QCoreApplication>
#include <QTest>

#include <unistd.h>

namespace sandpad {

void HostListeners::listen(const QString& namePrefix)
{
    QVERIFY(m_tcp.listen(QHostAddress::LocalHost));
    m_abstract.setSocketOptions(QLocalServer::AbstractNamespaceOption);
    m_abstractName = namePrefix + QString::number(::getpid());
    QVERIFY(m_abstract.listen(m_abstractName));
}

QString HostListeners::attemptFunction(int timeoutSeconds, bool send)
{
    return QStringLiteral(
               "import socket\n"
               "def attempt(label, family, addr):\n"
               "    s = socket.socket(family, socket.SOCK_STREAM)\n"
               "    s.settimeout(%1)\n"
               "    try:\n"
               "        s.connect(addr);%2 print(label, 'CONNECTED')\n"
               "    except OSError as e:\n"
               "        print(label, 'blocked', type(e).__name__)\n")
        .arg(timeoutSeconds)
        .arg(send ? QStringLiteral(" s.sendall(b'x');") : QString());
}

void HostListeners::verifyNotReached()
{
    QCoreApplication::processEvents();
    QVERIFY(!m_tcp.hasPendingConnections());
    QVERIFY(!m_abstract.hasPendingConnections());
}

} // namespace sandpad
