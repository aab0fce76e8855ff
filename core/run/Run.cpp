#include "core/run/Run.h"

#include "core/sandbox/RunControl.h"

#include <QMutexLocker>
#include <QThread>

#include <algorithm>

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

RunOrigin originOf(const ExecutionResult& r)
{
    RunOrigin o;
    o.title = r.title;
    o.code = r.code;
    o.language = r.language;
    o.documentId = r.documentId;
    o.revisionId = r.revisionId;
    o.firstLine = std::max(1, r.firstLine);
    return o;
}
} // namespace

Run::Run(const QString& id, const RunOrigin& origin, const QString& provider, QObject* parent)
    : QObject(parent), m_id(id), m_origin(origin), m_provider(provider),
      m_startedAt(QDateTime::currentDateTimeUtc()), m_control(std::make_unique<RunControl>())
{
}

Run::Run(const ExecutionResult& finished, QObject* parent)
    : QObject(parent), m_id(finished.runId), m_origin(originOf(finished)), m_provider(finished.provider),
      m_startedAt(finished.startedAt), m_state(State::Finished), m_control(std::make_unique<RunControl>()),
      m_result(finished)
{
}

Run::~Run() = default;

void Run::cancel()
{
    m_control->cancel();
}

void Run::setRunning()
{
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (m_state != State::Queued)
                return;
            m_state = State::Running;
            emit statusChanged(m_state);
        },
        Qt::QueuedConnection);
}

void Run::appendOutput(OutputStream stream, const QByteArray& bytes)
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
        QMetaObject::invokeMethod(this, &Run::flush, Qt::QueuedConnection);
}

void Run::flush()
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

void Run::deliverResult(const ExecutionResult& result)
{
    if (QThread::currentThread() == thread())
        finish(result);
    else
        QMetaObject::invokeMethod(this, [this, result] { finish(result); }, Qt::QueuedConnection);
}

void Run::deliverValidated(const ExecutionResult& result)
{
    if (QThread::currentThread() == thread())
        validate(result);
    else
        QMetaObject::invokeMethod(this, [this, result] { validate(result); }, Qt::QueuedConnection);
}

void Run::flushAll()
{
    flush();
    for (QByteArray& partial : m_partialUtf8) {
        if (!partial.isEmpty())
            emit output(&partial == &m_partialUtf8[0] ? OutputStream::Stdout : OutputStream::Stderr,
                        QString::fromUtf8(partial));
        partial.clear();
    }
}

void Run::validate(const ExecutionResult& result)
{
    if (m_state == State::Validated || m_state == State::Finished)
        return;
    flushAll();
    m_result = result;
    m_result.firstLine = m_origin.firstLine;
    m_result.costPending = true;
    if (!m_result.startedAt.isValid())
        m_result.startedAt = m_startedAt;
    m_state = State::Validated;
    emit statusChanged(m_state);
    emit validated(m_result);
}

void Run::finish(const ExecutionResult& result)
{
    if (m_state == State::Finished)
        return; // one result, one finished signal
    flushAll();
    m_result = result;
    m_result.firstLine = m_origin.firstLine;
    m_result.costPending = false;
    if (m_result.startedAt.isValid())
        m_startedAt = m_result.startedAt;
    else
        m_result.startedAt = m_startedAt;
    m_state = State::Finished;
    emit statusChanged(m_state);
    emit finished(m_result);
}

} // namespace sandpad
