#pragma once

#include "core/sandbox/ProviderError.h"
#include "core/sandbox/Sandbox.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <functional>
#include <optional>

namespace sandpad {

// What one FakeSandbox does at each step of a run (tests/support/FakeSandboxProvider.h). The
// defaults are a clean, successful run that printed nothing and returned no `result`.
struct FakeSandboxScript {
    // Where the wrapper's results travel: as frames on the result channel, parsed by the sandbox
    // (the local provider: `started` then tells whether the program began), or as files in out/
    // that the Executor reads back (remote providers: programStarted stays unknown).
    enum class Channel { Frames, OutDir };
    // How the command ends: it exits; the provider reports the deadline passed (at once, so a
    // test does not wait for it); or it hangs until the run is cancelled or its timeoutMs passes.
    enum class End { Exit, Timeout, Hang };

    // Infrastructure failures: thrown by create(), writeFiles() (the upload), run(), readFile().
    std::optional<ProviderError> createError;
    std::optional<ProviderError> writeError;
    std::optional<ProviderError> runError;
    std::optional<ProviderError> readError;
    // create() throws a plain std::runtime_error with this text (a provider bug, not a ProviderError).
    QString createThrowsStd;

    QList<QPair<OutputStream, QByteArray>> output;  // streamed in this order
    Channel channel = Channel::Frames;
    QByteArray resultChannel = frames({{QStringLiteral("started"), {}},
                                       {QStringLiteral("result.json"), resultJson()}});
    QMap<QString, QByteArray> outFiles;             // Channel::OutDir: name -> content in out/
    End end = End::Exit;
    std::optional<int> exitCode = 0;
    QString detail;                                 // CommandOutcome::detail
    QString limitExceeded;                          // CommandOutcome::limitExceeded
    // Called in run() after the output, before the end: e.g. cancel the run from "the user".
    std::function<void(RunControl&)> duringRun;

    bool cleanupConfirmed = true;
    QString cleanupDetail = QStringLiteral("a fake process is still running");

    // Builders for what the wrappers write (docs/runtime-protocol.md).
    // Frames as on SANDPAD_RESULT_FD, in order.
    static QByteArray frames(const QList<QPair<QString, QByteArray>>& files);
    // result.json: status success unless `error` is given; charts as given.
    static QByteArray resultJson(const std::optional<QString>& result = std::nullopt,
                                 const std::optional<QJsonObject>& error = std::nullopt,
                                 const QJsonArray& charts = {});
    static QJsonObject error(const QString& name, const QString& value, const QString& traceback);
    // A run that printed `out` on stdout and reported this result.json on the channel.
    static FakeSandboxScript completed(const QByteArray& json, const QByteArray& out = {});
};

} // namespace sandpad
