#pragma once

#include "core/language/Language.h"
#include "core/run/RunArtifact.h"
#include "core/run/RunOutput.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <memory>
#include <optional>

namespace sandpad {

class ChartColumns;
class ChartSpec;

enum class RunStatus { Success, Error, Timeout, Cancelled, InfrastructureError };
QString runStatusName(RunStatus status); // "success", "error", "timeout", "cancelled", "infrastructure_error"
std::optional<RunStatus> runStatusFromName(const QString& name);

// An uncaught exception in the user's code (or a failed `!pip install`, or an invalid chart).
struct RunError {
    QString name;       // "ZeroDivisionError", "SyntaxError", "PipInstallError", "ChartError"
    QString value;      // the message
    QString traceback;  // user's frames only, with the editor's line numbers
    std::optional<int> line() const; // the innermost line of the user's code, when known
};

// One chart of a run: a matplotlib PNG, or an interactive chart dictionary validated by ChartSpec.
// A PNG may carry the chart extracted from its figure too (shown interactive, the PNG kept).
// The chart is kept parsed (its series as columns of doubles, shared by every copy of the run),
// never as a JSON tree: a million points are 16 MB here, not 170.
struct RunChart {
    enum class Kind { Png, Interactive };
    Kind kind = Kind::Png;
    QByteArray png;          // Kind::Png
    std::shared_ptr<const ChartSpec> spec; // Kind::Interactive: the validated chart; Kind::Png:
                                           // the chart extracted from the figure, or null
    bool hasInteractive() const { return kind == Kind::Interactive || spec != nullptr; }
    // The normalized dictionary with point lists (docs/runtime-protocol.md), built when asked
    // (`--json`, export): empty without a chart.
    QJsonObject specJson() const;
    QString title() const;   // the chart's title, or empty
    // Parses a chart dictionary into `spec` (tests, stored JSON): false, and no chart, when it
    // does not fit the schema.
    bool setSpec(const QJsonObject& dictionary, const ChartColumns* columns = nullptr, QString* error = nullptr);
};

struct ExecutionResult {
    QString runId;                     // UUID without braces
    RunStatus status = RunStatus::InfrastructureError;
    QString provider;                  // "local", "vercel", "daytona", "none"
    Language language = Language::Python;
    QString title;
    QString code;                      // exactly the source that ran (after nothing: the original text)
    QString documentId, revisionId;    // set for saved-revision runs
    // The editor line of the code's line 1 (a cell or selection run from further down; the
    // run's RunOrigin::firstLine, kept in the history so a reloaded run links the same lines).
    int firstLine = 1;
    QDateTime startedAt;               // UTC; when the Executor took the request

    QString stdoutText, stderrText;    // capped; a notice line is appended when cut
    bool stdoutTruncated = false, stderrTruncated = false;
    std::optional<QString> result;     // `result` / `results` as printed by the wrapper
    std::optional<RunError> error;
    QList<RunChart> charts;
    QList<RunArtifact> artifacts;      // files the run left in its working directory
    QList<RunOutput> outputs;          // display() and rich results, in order (RunOutput)
    std::optional<int> exitCode;
    qint64 durationMs = 0;
    qint64 costMicros = 0;             // 50000 for a completed run, else 0
    bool cleanupConfirmed = false;
    bool prestarted = false;           // the provider served a pre-started sandbox (the local pool)
    QString reason;                    // why the cost is 0 (timeout, cancelled, infrastructure...)
    // Set while the run is only validated (Run::validated): cleanup and the ledger row follow,
    // costMicros and cleanupConfirmed are not known yet.
    bool costPending = false;
    QString message;                   // the human text: output, then stderr, then the error
    // A notebook session's execution: its number in the session (In[n]/Out[n]); unset for fresh runs.
    std::optional<int> executionCount;
    // A fresh Python run's variables at its end, as the runtime's variables.json (parsed by
    // core/session/SessionVariables; not stored in the history). Empty otherwise.
    QByteArray variables;

    double costUsd() const { return double(costMicros) / 1e6; }
    // The JSON of `sandpad-run --json` (DESIGN.md).
    QJsonObject toJson() const;
    // Builds `message` from the other fields.
    QString composeMessage() const;
};

} // namespace sandpad

Q_DECLARE_METATYPE(sandpad::ExecutionResult)
