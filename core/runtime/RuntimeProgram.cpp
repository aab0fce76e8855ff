#include "core/runtime/RuntimeProgram.h"

#include "core/runtime/PipDirectives.h"
#include "core/runtime/ResultLimits.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

// The wrappers live in the static sandpad_resources library; a static library's resources must be
// registered explicitly (and Q_INIT_RESOURCE cannot be used inside a namespace).
static void initRuntimeResources()
{
    static const bool once = [] {
        Q_INIT_RESOURCE(resources);
        return true;
    }();
    (void)once;
}

namespace sandpad {

QByteArray RuntimeProgram::wrapperSource(Language language)
{
    initRuntimeResources();
    QFile file(language == Language::Python ? QStringLiteral(":/sandpad/runtime/wrapper.py")
                                            : QStringLiteral(":/sandpad/runtime/wrapper.mjs"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QList<SandboxFile> RuntimeProgram::supportFiles(Language language, const QString& workDir)
{
    initRuntimeResources();
    QString dir = workDir;
    while (dir.size() > 1 && dir.endsWith(u'/'))
        dir.chop(1);
    QList<SandboxFile> files;
    // chart_extract.py: without it figures stay PNG only; rich_display.py: without it a run has
    // no display() and text output only; run_files: without them no input files, stdin or
    // artifacts; variables.py: without it no variable listing or table windows;
    // session_complete.py and jedi_answers.py: without them a session completes from the
    // language service only; js_program.mjs: without it the JavaScript wrapper cannot start (a
    // broken build).
    const QStringList names = language == Language::Python
        ? QStringList{QStringLiteral("chart_extract.py"), QStringLiteral("rich_display.py"), QStringLiteral("run_files.py"),
                      QStringLiteral("variables.py"), QStringLiteral("session_complete.py"), QStringLiteral("jedi_answers.py")}
        : QStringList{QStringLiteral("js_program.mjs"), QStringLiteral("run_files.cjs")};
    for (const QString& name : names) {
        QFile file(QStringLiteral(":/sandpad/runtime/") + name);
        if (file.open(QIODevice::ReadOnly))
            files << SandboxFile{dir + u'/' + name, file.readAll(), 0644};
    }
    return files;
}

QString RuntimeProgram::workingDirectory(const QString& workDir)
{
    QString dir = workDir;
    while (dir.size() > 1 && dir.endsWith(u'/'))
        dir.chop(1);
    return dir + QStringLiteral("/work");
}

QByteArray RuntimeProgram::sessionSource(Language language)
{
    initRuntimeResources();
    QFile file(language == Language::Python ? QStringLiteral(":/sandpad/runtime/session.py")
                                            : QStringLiteral(":/sandpad/runtime/session.mjs"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QByteArray RuntimeProgram::sessionHostSource()
{
    initRuntimeResources();
    QFile file(QStringLiteral(":/sandpad/runtime/session_host.py"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

RuntimeProgram RuntimeProgram::build(const Input& input)
{
    RuntimeProgram program;
    const bool python = input.language == Language::Python;
    QString workDir = input.workDir;
    while (workDir.size() > 1 && workDir.endsWith(u'/'))
        workDir.chop(1);
    const QString wrapperPath = workDir + (python ? QStringLiteral("/wrapper.py") : QStringLiteral("/wrapper.mjs"));
    const QString codePath = workDir + (python ? QStringLiteral("/main.py") : QStringLiteral("/main.mjs"));
    const QString manifestPath = workDir + QStringLiteral("/manifest.json");
    program.outDir = workDir + QStringLiteral("/out");
    program.resultPath = program.outDir + QStringLiteral("/result.json");

    const QByteArray wrapper = wrapperSource(input.language);
    if (wrapper.isEmpty()) {
        program.error = QStringLiteral("The %1 runtime wrapper is missing from this build").arg(languageName(input.language));
        return program;
    }

    QString code = input.code;
    if (python) {
        const PipDirectives directives = PipDirectives::parse(code);
        code = directives.code();
        program.packages = directives.packagesToInstall();
    }

    const QString title = input.title.trimmed().isEmpty()
        ? (python ? QStringLiteral("main.py") : QStringLiteral("main.mjs")) : input.title.trimmed();
    program.cwd = workingDirectory(workDir);
    QJsonObject manifest{
        {QStringLiteral("language"), languageName(input.language)},
        {QStringLiteral("title"), title},
        {QStringLiteral("code_path"), codePath},
        {QStringLiteral("out_dir"), program.outDir},
        {QStringLiteral("packages"), QJsonArray::fromStringList(program.packages)},
        {QStringLiteral("pip_args"), QJsonArray::fromStringList(input.pipArgs)},
        {QStringLiteral("cwd"), program.cwd},
        {QStringLiteral("artifact_limits"), QJsonObject{{QStringLiteral("bytes"), double(ResultLimits::artifactBytesPerRun)},
                                                        {QStringLiteral("files"), ResultLimits::artifactsPerRun},
                                                        {QStringLiteral("entries"), ResultLimits::artifactEntriesPerRun}}},
    };
    const QString stdinPath = workDir + QStringLiteral("/stdin");
    if (input.runInput.stdinData)
        manifest.insert(QStringLiteral("stdin_path"), stdinPath);
    if (!input.runInput.files.isEmpty()) {
        // The wrapper makes them read-only too: not every provider's upload keeps a mode.
        QJsonArray names;
        for (const InputFile& file : input.runInput.files)
            names.append(file.name);
        manifest.insert(QStringLiteral("input_files"), names);
    }

    program.files = {
        SandboxFile{wrapperPath, wrapper, 0644},
        SandboxFile{codePath, code.toUtf8(), 0644},
        SandboxFile{manifestPath, QJsonDocument(manifest).toJson(QJsonDocument::Compact), 0644},
    };
    program.files += supportFiles(input.language, workDir);
    // Input files read-only in the working directory; the snippet cannot change the host's copy.
    for (const InputFile& file : input.runInput.files)
        program.files << SandboxFile{program.cwd + u'/' + file.name, file.content, 0444};
    if (input.runInput.stdinData)
        program.files << SandboxFile{stdinPath, *input.runInput.stdinData, 0444};
    const QString interpreter = !input.interpreter.isEmpty()
        ? input.interpreter : (python ? QStringLiteral("python3") : QStringLiteral("node"));
    program.command.argv = {interpreter, wrapperPath, manifestPath};
    program.command.cwd = workDir;
    if (python)
        program.command.env.insert(QStringLiteral("MPLBACKEND"), QStringLiteral("Agg"));
    return program;
}

RuntimeProgram RuntimeProgram::build(Language language, const QString& code, const QString& title,
                                     const Sandbox& sandbox, const RunInput& runInput)
{
    return build(Input{language, code, title, sandbox.workDir(), sandbox.interpreter(language),
                       sandbox.pipArguments(), runInput});
}

} // namespace sandpad
