#pragma once

#include "core/run/RunArtifact.h"

#include <QJsonArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandpad {

class Sandbox;

// The files a run left in its working directory (docs/runtime-protocol.md, "Artifacts"). The
// wrapper lists and sends them (it reads inside the sandbox, never through a link); nothing of
// that is trusted here: every name is checked to be a plain relative path, every file is read
// from out_dir by its frame name, its size counted against ResultLimits before it is kept, and
// its type and hash computed on the host.
class ArtifactCollector {
public:
    // `listed`/`omitted`: result.json's "artifacts" and "artifacts_omitted". Returns the kept
    // artifacts; *notices gets one line per thing not kept, naming the limit or the reason (a
    // name the wrapper did not escape is named escaped, never left out of the notice).
    static QList<RunArtifact> collect(const QJsonArray& listed, const QJsonArray& omitted, const QString& outDir,
                                      Sandbox& sandbox, QStringList* notices);
    // A relative '/'-separated path with no empty, "." or ".." part, no control or format
    // character and no lone surrogate, whose backslashes are the wrapper's escapes (a doubled
    // backslash, or \xHH for a byte that is not UTF-8 or belongs to a control character).
    static bool isSafeName(const QString& name);
    static QString mimeType(const QString& name, const QByteArray& content);
};

} // namespace sandpad
