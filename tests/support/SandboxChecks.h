#pragma once

#include "core/sandbox/ProviderError.h"
#include "core/sandbox/RunControl.h"
#include "core/sandbox/Sandbox.h"
#include "core/sandbox/SandboxOptions.h"

#include <functional>
#include <memory>

namespace sandpad {

// A sandbox from `Provider(config)` as the remote provider suites create them (60 s deadline).
template <class Provider, class Config>
std::unique_ptr<Sandbox> createSandbox(const Config& config, RunControl& control,
                                       Language language = Language::Python)
{
    Provider provider(config);
    SandboxOptions options;
    options.language = language;
    options.deadlineSeconds = 60;
    return provider.create(options, control);
}

// `python3 -c code`.
SandboxCommand pythonCommand(const QString& code, qint64 timeoutMs = 30000);

// Writes main.py to the work dir and runs it there with `argument` and GREETING="hi there": it
// prints "out <argument>" and "err" (on stderr), writes GREETING to out/<outFile> and exits with 3.
struct ScriptRun {
    CommandOutcome outcome;
    QByteArray out, err;
};
ScriptRun runMainScript(Sandbox& sandbox, RunControl& control, const QString& argument, const QString& outFile);
// runMainScript() and the check of all it did: exit code 3 (not timed out, not cancelled), its
// stdout and stderr, and out/<outFile> holding GREETING, read back. (Call it through SANDPAD_CHECK.)
void verifyMainScriptRun(Sandbox& sandbox, RunControl& control, const QString& argument, const QString& outFile);

// `call` must throw a ProviderError of `kind` whose message contains `text` (when not empty); when
// it returns instead, the check fails with `whyNot`. The error's message is kept in `message`.
// (Call it through SANDPAD_CHECK.)
void verifyProviderError(const std::function<void()>& call, ProviderError::Kind kind, const QString& text,
                         const char* whyNot, QString* message = nullptr);

// Runs `command`; as soon as `when(stdout, stderr)` holds for what was printed so far, cancels the
// run from another thread (as the Stop button does). *out and *err get the output when not null.
CommandOutcome runAndCancelWhen(Sandbox& sandbox, RunControl& control, const SandboxCommand& command,
                                const std::function<bool(const QByteArray&, const QByteArray&)>& when,
                                QByteArray* out = nullptr, QByteArray* err = nullptr);

// Checks that every remote sandbox passes (call them through SANDPAD_CHECK):
// output reaches the caller while the command still runs, not only at its exit (a cancel at the
// first line ends the run before the second);
void verifyOutputIsStreamedBeforeExit(Sandbox& sandbox, RunControl& control);
// a cancel during a 60 s command ends the run as cancelled, not at its deadline.
void verifyCancellationAbortsTheRun(Sandbox& sandbox, RunControl& control);

} // namespace sandpad
