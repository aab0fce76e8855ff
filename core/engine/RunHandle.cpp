#include "engine/RunHandle.h"

#include "providers/RunControl.h"

#include <QMutexLocker>
#include <QStringDecoder>

namespace sandpad {

namespace {
// Splits bytes at the last complete UTF-8 sequence; the tail waits for the next batch.
qsizetype completeUtf8Prefix(const QByteArray& bytes)
{
    qsizetype n = bytes.size();
    // Look back at most 3 bytes for the start of a multi-byte sequence.
    for (qsizetype i = n - 1; i >= 0 && i >= n - 4; --i) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if ((c & 0xC0) == 0x80)
            continue; // continuation byte
        int need = (c & 0x80) == 0 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
        return (n - i) >= need ? n : i;
    }
    return n;
}
} // namespace

RunHandle::RunHandle(const QString& runId, const QString& title, QObject* parent)
    : QObject(parent), m_runId(runId), m_title(title), m_control(std::make_unique<RunControl>())
{
}

RunHandle::~RunHandle() = default;

void RunHandle::cancel()
{
    m_control->cancel();
}

void RunHandle::appendOutput(OutputStream stream, const QByteArray& bytes)
{
    if (bytes.isEmpty())
        return;
    bool queue = false;
    {
        QMutexLocker lock(&m_mutex);
        if (!m_pending.isEmpty() && m_pending.last().first == stream)
            m_pending.last().second += bytes;
        else
            m_pending.append({stream, bytes});
        if (!m_flushQueued) {
            m_flushQueued = true;
            queue = true;
        }
    }
    if (queue)
        QMetaObject::invokeMethod(this, &RunHandle::flush, Qt::QueuedConnection);
}

void RunHandle::flush()
{
    QList<std::pair<OutputStream, QByteArray>> batch;
    {
        QMutexLocker lock(&m_mutex);
        batch.swap(m_pending);
        m_flushQueued = false;
    }
    for (auto& [stream, bytes] : batch) {
        QByteArray& partial = m_partialUtf8[stream == OutputStream::Stdout ? 0 : 1];
        QByteArray data = partial + bytes;
        const qsizetype cut = completeUtf8Prefix(data);
        partial = data.mid(cut);
        data.truncate(cut);
        if (!data.isEmpty())
            emit output(stream, QString::fromUtf8(data));
    }
}

void RunHandle::deliverResult(const ExecutionResult& result)
{
    QMetaObject::invokeMethod(
        this,
        [this, result] {
            flush();
            for (QByteArray& partial : m_partialUtf8) {
                if (!partial.isEmpty())
                    emit output(&partial == &m_partialUtf8[0] ? OutputStream::Stdout : OutputStream::Stderr,
                                QString::fromUtf8(partial));
                partial.clear();
            }
            m_result = result;
            m_finished = true;
            emit finished(m_result);
        },
        Qt::QueuedConnection);
}

} // namespace sandpad
