#pragma once

#include "core/runtime/WrapperOutputs.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace sandpad {

// What the runtime wrapper reports in result.json (docs/runtime-protocol.md).
struct WrapperError {
    QString name;       // "ZeroDivisionError", "SyntaxError", "PipInstallError", ...
    QString value;      // the message
    QString traceback;  // the user's frames only, named after the title
};

struct WrapperChartRef {
    enum class Kind { Png, Interactive };
    Kind kind = Kind::Png;
    QString file;       // Kind::Png: a plain file name in the wrapper's out_dir, e.g. "chart-1.png"
    QJsonObject spec;   // Kind::Interactive: the `chart` dictionary as the wrapper sent it;
                        // Kind::Png: the chart extracted from the figure, or empty
};

struct WrapperResult {
    bool success = false;                 // "status": "success"
    std::optional<QString> result;        // str(result) / util.inspect(result)
    std::optional<WrapperError> error;    // set exactly when !success
    QList<WrapperChartRef> charts;
    std::optional<QString> chartError;    // a `chart` value the wrapper could not serialize
    // The run's files as the wrapper listed them (checked by core/engine/ArtifactCollector):
    // [{"name", "file", "size"}] and [{"name", "size", "reason"}].
    QJsonArray artifacts, artifactsOmitted;
    QList<WrapperOutputRef> outputs;      // display() and rich results, in order (WrapperOutputs)
    bool variables = false;               // "variables": true - variables.json was written (a fresh run)
    // `chart_columns`: {"file": "chart-columns", "size": N}, the charts' binary columns, as sent
    // (checked by the ResultCollector: a bad one spoils the charts that use it, not the run).
    QJsonValue chartColumns;

    // Validates and parses result.json. A malformed document is an infrastructure problem, so
    // this never throws: it returns nullopt and says what is wrong in *problem.
    static std::optional<WrapperResult> parse(const QByteArray& json, QString* problem = nullptr);
};

} // namespace sandpad
