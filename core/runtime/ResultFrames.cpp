#include "runtime/ResultFrames.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace sandpad {

std::optional<QMap<QString, QByteArray>> ResultFrames::parse(const QByteArray& stream, QString* problem)
{
    const auto invalid = [problem](const QString& what) -> std::optional<QMap<QString, QByteArray>> {
        if (problem)
            *problem = QStringLiteral("Invalid result frames from the runtime wrapper: ") + what;
        return std::nullopt;
    };
    QMap<QString, QByteArray> files;
    qsizetype pos = 0;
    while (pos < stream.size()) {
        const qsizetype newline = stream.indexOf('\n', pos);
        if (newline < 0 || newline - pos > 4096)
            return invalid(QStringLiteral("header without end at offset %1").arg(pos));
        const QJsonDocument header = QJsonDocument::fromJson(stream.mid(pos, newline - pos));
        const QJsonObject h = header.object();
        const QString name = h.value(QStringLiteral("name")).toString();
        const double size = h.value(QStringLiteral("size")).toDouble(-1);
        if (!header.isObject() || name.isEmpty() || name.contains(u'/') || name.startsWith(u'.')
            || size < 0 || size != double(qint64(size)))
            return invalid(QStringLiteral("bad header at offset %1").arg(pos));
        pos = newline + 1;
        if (qint64(size) > stream.size() - pos)
            return invalid(QStringLiteral("\"%1\" is truncated").arg(name));
        files.insert(name, stream.mid(pos, qsizetype(size)));
        pos += qsizetype(size);
    }
    return files;
}

QByteArray ResultFrames::frame(const QString& name, const QByteArray& content)
{
    const QJsonObject header{{QStringLiteral("name"), name}, {QStringLiteral("size"), double(content.size())}};
    return QJsonDocument(header).toJson(QJsonDocument::Compact) + '\n' + content;
}

} // namespace sandpad
