#include "core/recovery/TabInput.h"

#include <QJsonArray>

namespace sandpad {

QJsonObject TabInput::toJson() const
{
    QJsonObject o;
    if (!files.isEmpty()) {
        QJsonArray list;
        for (const File& f : files)
            list.append(QJsonObject{{QStringLiteral("name"), f.name}, {QStringLiteral("path"), f.path}});
        o.insert(QStringLiteral("files"), list);
    }
    if (!stdinText.isEmpty())
        o.insert(QStringLiteral("stdin"), stdinText.left(kMaxStdinChars));
    if (inputShown)
        o.insert(QStringLiteral("stdin_shown"), true);
    return o;
}

TabInput TabInput::fromJson(const QJsonValue& value)
{
    TabInput input;
    const QJsonObject o = value.toObject();
    for (const QJsonValue& v : o.value(QStringLiteral("files")).toArray()) {
        if (input.files.size() >= kMaxFiles)
            break;
        const QJsonObject f = v.toObject();
        File file{f.value(QStringLiteral("name")).toString(), f.value(QStringLiteral("path")).toString()};
        // The strip checks the name again when it attaches the file (RunInput::nameProblem).
        if (file.path.isEmpty() || file.name.isEmpty() || file.name.contains(u'/') || file.name.contains(u'\\'))
            continue;
        input.files.removeIf([&](const File& other) { return other.name == file.name; });
        input.files.append(file);
    }
    input.stdinText = o.value(QStringLiteral("stdin")).toString().left(kMaxStdinChars);
    input.inputShown = o.value(QStringLiteral("stdin_shown")).toBool() || !input.stdinText.isEmpty();
    return input;
}

} // namespace sandpad
