#include "core/providers/http/Multipart.h"

#include <QHttpMultiPart>
#include <QRegularExpression>

namespace sandpad {

namespace {
// A parameter of a header value (`name="x"` or `name=x`), unquoted; empty when absent.
QByteArray parameter(const QByteArray& header, const char* key)
{
    const QRegularExpression re(QStringLiteral("(?:^|;)\\s*%1=(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^;\\s]*))")
                                    .arg(QLatin1String(key)),
                                QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(QString::fromUtf8(header));
    if (!m.hasMatch())
        return {};
    QString value = m.captured(1).isNull() ? m.captured(2) : m.captured(1);
    value.replace(QLatin1String("\\\""), QLatin1String("\""));
    return value.toUtf8();
}

QByteArray quoted(const QByteArray& value)
{
    QByteArray v = value;
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\r', "").replace('\n', "");
    return '"' + v + '"';
}
} // namespace

std::optional<QList<MultipartPart>> Multipart::parse(const QByteArray& contentType, const QByteArray& body)
{
    if (!contentType.trimmed().toLower().startsWith("multipart/"))
        return std::nullopt;
    const QByteArray boundary = parameter(contentType, "boundary");
    if (boundary.isEmpty())
        return std::nullopt;
    const QByteArray delimiter = "--" + boundary;
    QList<MultipartPart> parts;
    qsizetype pos = body.indexOf(delimiter);
    if (pos < 0)
        return std::nullopt;
    for (;;) {
        pos += delimiter.size();
        if (body.mid(pos, 2) == "--")
            return parts; // the closing delimiter
        if (body.mid(pos, 2) != "\r\n")
            return std::nullopt;
        pos += 2;
        const qsizetype headersEnd = body.indexOf("\r\n\r\n", pos);
        if (headersEnd < 0)
            return std::nullopt;
        MultipartPart part;
        for (const QByteArray& line : body.mid(pos, headersEnd - pos).split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon < 0)
                continue;
            const QByteArray key = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            if (key == "content-disposition") {
                part.name = parameter(value, "name");
                part.filename = parameter(value, "filename");
            } else if (key == "content-type") {
                part.contentType = value;
            }
        }
        const qsizetype next = body.indexOf("\r\n" + delimiter, headersEnd + 4);
        if (next < 0)
            return std::nullopt;
        part.body = body.mid(headersEnd + 4, next - headersEnd - 4);
        parts.append(part);
        pos = next + 2;
    }
}

QHttpMultiPart* Multipart::form(const QList<MultipartPart>& parts)
{
    auto* mp = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    for (const auto& p : parts) {
        QHttpPart part;
        QByteArray disposition = "form-data; name=" + quoted(p.name);
        if (!p.filename.isEmpty()) {
            disposition += "; filename=" + quoted(p.filename);
            part.setRawHeader("Content-Type", p.contentType.isEmpty() ? "application/octet-stream" : p.contentType);
        }
        part.setRawHeader("Content-Disposition", disposition);
        part.setBody(p.body);
        mp->append(part);
    }
    return mp;
}

} // namespace sandpad
