#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// One chart of a finished run as stored: a PNG, or an interactive chart dictionary as JSON text.
struct RunChartRecord {
    enum class Kind { Png, Interactive };
    Kind kind = Kind::Png;
    QByteArray png;       // Kind::Png
    QString specJson;     // Kind::Interactive: the chart dictionary (QJsonDocument::toJson)
};

struct RunErrorRecord {
    QString name, value, traceback;
};

// Which texts of a preview record (RunHistory::recentPreviews, RunPreview) are cut: a cut text
// holds a bounded excerpt with markers, the whole one is in the history (RunHistory::find).
struct RunPreviewCuts {
    bool stdoutText = false, stderrText = false, result = false, error = false, code = false, message = false;
    bool any() const { return stdoutText || stderrText || result || error || code || message; }
    bool operator==(const RunPreviewCuts&) const = default;
};

// A finished run as the notebook keeps it (plain data: no engine types, so that the engine can
// convert its ExecutionResult into one and this layer stays independent of it).
struct RunRecord {
    QString runId;
    QDateTime startedAt;                 // stored as UTC ms
    QString title;
    QString language;                    // "python", "javascript"
    QString provider;                    // "local", "vercel", "daytona", "none"
    QString status;                      // runStatusName()
    qint64 durationMs = 0;
    qint64 costMicros = 0;
    QString code;
    QString stdoutText, stderrText;      // already capped by the Executor
    std::optional<QString> result;
    std::optional<RunErrorRecord> error;
    QList<RunChartRecord> charts;        // in display order
    std::optional<int> exitCode;
    QString reason;                      // why the cost is 0
    QString message;                     // the composed human text
    QString documentId, revisionId;      // set for saved-revision runs
    // Set on a preview: its texts are bounded for display and these say which were cut.
    std::optional<RunPreviewCuts> preview;
};

} // namespace sandpad
