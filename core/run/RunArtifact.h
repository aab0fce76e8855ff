#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sandpad {

// A file a run left in its working directory (docs/runtime-protocol.md, "Artifacts"): read back
// from the sandbox without following links, checked and measured on the host.
struct RunArtifact {
    QString name;        // relative to the working directory, '/'-separated: "out.csv", "plots/a.png"
    qint64 size = 0;     // bytes
    QString mimeType;    // by name and content (QMimeDatabase), e.g. "text/csv", "image/png"
    QString sha256;      // hex, of the content
    QByteArray content;  // may be empty when not kept (size says how large it was)

    // `--json` carries the content as base64 up to this size; larger ones go to --artifacts-dir.
    static constexpr qint64 jsonInlineBytes = 1LL << 20;
    // {"name", "size", "mime_type", "sha256"[, "base64"]} (base64 when kept and small enough).
    QJsonObject toJson() const;

    bool isImage() const { return mimeType == QLatin1String("image/png") || mimeType == QLatin1String("image/jpeg")
                                  || mimeType == QLatin1String("image/gif"); }
};

} // namespace sandpad
