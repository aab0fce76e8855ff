#pragma once

#include <QHash>
#include <QMutex>
#include <QString>
#include <QThread>

namespace sandpad {

// The "last error" of an object used from several threads: each thread sees the error of its
// own last call (a shared string would be a data race and would show other threads' errors).
class ThreadLocalError {
public:
    ThreadLocalError& operator=(const QString& message)
    {
        QMutexLocker lock(&m_mutex);
        m_errors.insert(QThread::currentThreadId(), message);
        return *this;
    }
    void clear() { *this = QString(); }
    QString get() const
    {
        QMutexLocker lock(&m_mutex);
        return m_errors.value(QThread::currentThreadId());
    }

private:
    mutable QMutex m_mutex;
    QHash<Qt::HANDLE, QString> m_errors;
};

} // namespace sandpad
