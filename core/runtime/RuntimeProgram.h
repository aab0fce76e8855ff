#pragma once

#include "core/language/Language.h"
#include "core/sandbox/RunInput.h"
#include "core/sandbox/Sandbox.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sandpad {

// A snippet turned into what a sandbox runs (docs/runtime-protocol.md): the wrapper, the user's
// program and manifest.json to place in the work dir, and the one command to run.
struct RuntimeProgram {
    QList<SandboxFile> files;   // wrapper.py|.mjs, main.py|.mjs, manifest.json, supportFiles()
    SandboxCommand command;     // argv, cwd and env; the caller sets timeoutMs
    QString outDir;             // W/out: where result.json and chart files appear
    QString cwd;                // W/work: the program's scratch working directory (artifacts)
    QString resultPath;         // W/out/result.json
    QStringList packages;       // the `!pip install` packages that will be installed (Python)
    QString error;              // set when the program could not be built (wrapper resource missing)

    bool ok() const { return error.isEmpty(); }
    // The path of a chart file named in result.json.
    QString chartPath(const QString& file) const { return outDir + u'/' + file; }

    struct Input {
        Language language = Language::Python;
        QString code;           // the editor's text; `!pip install` lines are handled here
        QString title;          // tracebacks name the program after it
        QString workDir;        // Sandbox::workDir()
        QString interpreter;    // Sandbox::interpreter(language)
        QStringList pipArgs;    // Sandbox::pipArguments()
        RunInput runInput = {}; // input files (placed read-only in W/work) and stdin (W/stdin)
    };
    static RuntimeProgram build(const Input& input);
    // The same with workDir, interpreter and pip arguments taken from the sandbox.
    static RuntimeProgram build(Language language, const QString& code, const QString& title,
                                const Sandbox& sandbox, const RunInput& runInput = {});
    // The program's working directory in a work dir: W/work.
    static QString workingDirectory(const QString& workDir);

    // The wrapper source compiled into the binary (":/sandpad/runtime/wrapper.py" / ".mjs").
    static QByteArray wrapperSource(Language language);
    // The modules placed beside the wrapper in workDir (Python: chart_extract.py, rich_display.py,
    // run_files.py, variables.py, session_complete.py, jedi_answers.py; JavaScript: js_program.mjs,
    // run_files.cjs), on the cold
    // and the pre-started path alike.
    static QList<SandboxFile> supportFiles(Language language, const QString& workDir);
    // The notebook session's runtime (":/sandpad/runtime/session.py" / ".mjs"), which a
    // pre-started wrapper loads when it is sent the job `--session`.
    static QByteArray sessionSource(Language language);
    // A remote session's host and relay (":/sandpad/runtime/session_host.py", run with the
    // sandbox's python3 for both languages; docs/runtime-protocol.md, "Remote sessions").
    static QByteArray sessionHostSource();
};

} // namespace sandpad
