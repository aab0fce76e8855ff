#include "core/runtime/ResultFrameParser.h"

#include <nlohmann/json.hpp>

namespace sandpad {

namespace {
constexpr qint64 kMaxHeader = 4096;
}

ResultFrameParser::ResultFrameParser(qint64 maxTotalBytes) : m_max(maxTotalBytes) {}

bool ResultFrameParser::parseHeader(const QByteArray& line)
{
    const auto json = nlohmann::json::parse(line.constData(), line.constData() + line.size(),
                                            nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.contains("name") ||
        !json.contains("size") || !json["name"].is_string() ||
        !json["size"].is_number_integer()) {
        m_error = QStringLiteral("malformed frame header");
        return false;
    }
    const QString name = QString::fromStdString(json["name"].get<std::string>());
    const long long size = json["size"].get<long long>();
    // Names become paths under out/: no absolute paths, no climbing out.
    if (name.isEmpty() || name.startsWith(u'/') || name.split(u'/').contains(QStringLiteral(".."))
        || name.contains(QChar(0)) || size < 0) {
        m_error = QStringLiteral("invalid frame name or size");
        return false;
    }
    m_name = name;
    m_remaining = size;
    m_body.clear();
    if (size > m_max - m_kept) { // not m_kept + size: a huge size must not overflow
        m_truncated.append(name);
        m_state = State::Skip;
    } else {
        m_kept += size;
        m_body.reserve(size);
        m_state = State::Body;
    }
    return true;
}

void ResultFrameParser::feed(const char* data, qint64 size)
{
    qint64 pos = 0;
    while (pos < size && m_state != State::Broken) {
        if (m_state == State::Header) {
            const char* nl = static_cast<const char*>(memchr(data + pos, '\n', size - pos));
            const qint64 end = nl ? (nl - data) : size;
            m_header.append(data + pos, end - pos);
            pos = nl ? end + 1 : size;
            if (m_header.size() > kMaxHeader) {
                m_error = QStringLiteral("frame header too long");
                m_state = State::Broken;
                break;
            }
            if (!nl)
                break;
            const QByteArray line = m_header;
            m_header.clear();
            if (!parseHeader(line)) {
                m_state = State::Broken;
                break;
            }
        }
        if (m_state == State::Body || m_state == State::Skip) {
            const qint64 take = qMin(m_remaining, size - pos);
            if (m_state == State::Body)
                m_body.append(data + pos, take);
            pos += take;
            m_remaining -= take;
            if (m_remaining == 0) {
                if (m_state == State::Body) {
                    // A repeated name replaces the earlier file; keep the byte count honest.
                    if (auto it = m_files.find(m_name); it != m_files.end())
                        m_kept -= it->size();
                    m_files.insert(m_name, m_body);
                }
                m_body.clear();
                m_state = State::Header;
            }
        }
    }
}

void ResultFrameParser::finish()
{
    if (m_state == State::Body || m_state == State::Skip)
        m_error = QStringLiteral("frame \"%1\" is truncated (cut short)").arg(m_name);
    else if (m_state == State::Header && !m_header.isEmpty())
        m_error = QStringLiteral("incomplete frame header at end of stream");
    if (m_state == State::Body) {
        m_kept -= m_body.size() + m_remaining;
        m_body.clear();
    }
}

} // namespace sandpad
