#include "core/runtime/ResultFrames.h"

#include "core/runtime/ResultFrameParser.h"

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
    // A cap of the stream's size skips no frame that is complete (a larger one is cut short).
    ResultFrameParser parser(stream.size());
    parser.feed(stream);
    parser.finish();
    if (!parser.protocolError().isEmpty())
        return invalid(parser.protocolError());
    // Stricter than the channel's parser (which allows sub-folders of out/): plain file names.
    for (auto it = parser.files().begin(); it != parser.files().end(); ++it) {
        if (it.key().contains(u'/') || it.key().startsWith(u'.'))
            return invalid(QStringLiteral("\"%1\" is not a plain file name").arg(it.key()));
    }
    return parser.files();
}

QByteArray ResultFrames::frame(const QString& name, const QByteArray& content)
{
    const QJsonObject header{{QStringLiteral("name"), name}, {QStringLiteral("size"), double(content.size())}};
    return QJsonDocument(header).toJson(QJsonDocument::Compact) + '\n' + content;
}

} // namespace sandpad
