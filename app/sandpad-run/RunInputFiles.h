#pragma once

#include "core/run/RunArtifact.h"
#include "core/sandbox/RunInput.h"

#include <QDir>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandpad {

// sandpad-run's files: --input and --stdin read into a RunInput, artifacts written to
// --artifacts-dir.
class RunInputFiles {
public:
    // Reads each --input FILE (its file name is its name in the run) and --stdin FILE ("-": this
    // program's stdin) into `input`. Returns a usage error naming the file (missing, unreadable,
    // not a regular file, over the limit), else empty.
    static QString read(const QStringList& inputs, const std::optional<QString>& stdinPath, RunInput& input);
    // Writes the artifact to dir/name (folders made as needed); never over an existing file,
    // never through a link. Returns the path written, or empty with *why.
    static QString writeArtifact(const QDir& dir, const RunArtifact& artifact, QString* why);
};

} // namespace sandpad
