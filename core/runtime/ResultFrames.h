#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <optional>

namespace sandpad {

// The framing the wrapper uses on SANDPAD_RESULT_FD (docs/runtime-protocol.md): per file, one
// header line `{"name": "result.json", "size": N}\n` and exactly N bytes.
class ResultFrames {
public:
    // All complete files, by name; nullopt (and *problem) when the stream is not valid framing,
    // e.g. truncated, a bad header, or a name that is not a plain file name. A whole stream fed
    // to one ResultFrameParser (the local sandbox parses its channel incrementally with it).
    static std::optional<QMap<QString, QByteArray>> parse(const QByteArray& stream,
                                                          QString* problem = nullptr);
    static QByteArray frame(const QString& name, const QByteArray& content);
};

} // namespace sandpad
