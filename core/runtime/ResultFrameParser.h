#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sandpad {

// Parses the result channel (SANDPAD_RESULT_FD, fd 3 in the local sandbox): frames of one header
// line `{"name": "...", "size": N}\n` followed by exactly N bytes (docs/runtime-protocol.md).
// Bytes arrive in arbitrary chunks (ResultFrames::parse feeds a whole stream at once). The total
// kept is capped; frames beyond the cap are skipped and remembered in truncatedNames(). A
// malformed header stops parsing (protocolError()).
class ResultFrameParser {
public:
    explicit ResultFrameParser(qint64 maxTotalBytes = 64LL * 1024 * 1024);

    void feed(const char* data, qint64 size);
    void feed(const QByteArray& data) { feed(data.constData(), data.size()); }
    // Call at EOF: a frame cut short is reported as a protocol error.
    void finish();

    const QMap<QString, QByteArray>& files() const { return m_files; }
    QStringList truncatedNames() const { return m_truncated; }
    bool wasTruncated() const { return !m_truncated.isEmpty(); }
    QString protocolError() const { return m_error; }

private:
    bool parseHeader(const QByteArray& line);

    enum class State { Header, Body, Skip, Broken };
    State m_state = State::Header;
    qint64 m_max;
    qint64 m_kept = 0;
    QByteArray m_header;
    QString m_name;
    qint64 m_remaining = 0;
    QByteArray m_body;
    QMap<QString, QByteArray> m_files;
    QStringList m_truncated;
    QString m_error;
};

} // namespace sandpad
