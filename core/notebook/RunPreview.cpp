#include "core/notebook/RunPreview.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sandpad {

namespace {

// Markers name their own counts, so these limits are about what a reader can use in a notebook
// entry (it scrolls after 18 lines) and what 50 reloaded entries may cost, not about the data.
constexpr qsizetype kLine = 1000; // as OutputView::kMaxLineChars (why: there)

QString bounded(RunPreview::Part part, const QString& text, bool* cut)
{
    const TextPreview p = RunPreview::of(part, text, RunPreview::Use::Stored);
    *cut = *cut || p.isCut();
    return p.text();
}

QJsonValue optionalString(const std::optional<QString>& s)
{
    return s ? QJsonValue(*s) : QJsonValue(QJsonValue::Null);
}

} // namespace

TextPreview::Keep RunPreview::keep(Part part)
{
    switch (part) {
    case Part::Stdout:
    case Part::Stderr:
    case Part::Traceback:
        return TextPreview::Keep::Tail;
    default:
        return TextPreview::Keep::Head;
    }
}

TextPreview::Limits RunPreview::limits(Part part, Use use)
{
    // A stored preview is what a start lays out for each of the 50 runs it reloads: lines of
    // 400 characters cost it about what a short run's do (bench_console, bench_app_start).
    const bool stored = use == Use::Stored;
    switch (part) {
    case Part::Stdout:
    case Part::Stderr:
    case Part::Result:
        return stored ? TextPreview::Limits{100, 400, 8 * 1024} : TextPreview::Limits{500, kLine, 32 * 1024};
    case Part::ErrorName:
        return {1, 200, 200};
    // The error is rich text in a label, laid out whole at every width: kept small.
    case Part::ErrorValue:
        return {10, 500, 1000};
    case Part::Traceback:
        return {40, 300, 3000};
    case Part::Code:
        return stored ? TextPreview::Limits{500, kLine, 16 * 1024} : TextPreview::Limits{2000, kLine, 64 * 1024};
    case Part::Message:
    case Part::Reason:
        return {10, 500, 1000}; // shown in the error label, as the error value
    }
    return {};
}

ExecutionResult RunPreview::make(const ExecutionResult& whole, RunPreviewCuts* out)
{
    ExecutionResult r = whole;
    RunPreviewCuts cuts;
    r.stdoutText = bounded(Part::Stdout, whole.stdoutText, &cuts.stdoutText);
    r.stderrText = bounded(Part::Stderr, whole.stderrText, &cuts.stderrText);
    if (whole.result)
        r.result = bounded(Part::Result, *whole.result, &cuts.result);
    if (whole.error) {
        r.error->name = bounded(Part::ErrorName, whole.error->name, &cuts.error);
        r.error->value = bounded(Part::ErrorValue, whole.error->value, &cuts.error);
        r.error->traceback = bounded(Part::Traceback, whole.error->traceback, &cuts.error);
    }
    r.code = bounded(Part::Code, whole.code, &cuts.code);
    r.message = bounded(Part::Message, whole.message, &cuts.message);
    bool reasonCut = false; // a reason is the app's own words: bounded, not offered whole
    r.reason = bounded(Part::Reason, whole.reason, &reasonCut);
    *out = cuts;
    return r;
}

QString RunPreview::toJson(const ExecutionResult& p, const RunPreviewCuts& cuts)
{
    QJsonObject o;
    o.insert(QStringLiteral("code"), p.code);
    o.insert(QStringLiteral("stdout"), p.stdoutText);
    o.insert(QStringLiteral("stderr"), p.stderrText);
    o.insert(QStringLiteral("result"), optionalString(p.result));
    if (p.error)
        o.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("name"), p.error->name},
                                                     {QStringLiteral("value"), p.error->value},
                                                     {QStringLiteral("traceback"), p.error->traceback}});
    else
        o.insert(QStringLiteral("error"), QJsonValue::Null);
    o.insert(QStringLiteral("exit_code"), p.exitCode ? QJsonValue(*p.exitCode) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("reason"), p.reason);
    o.insert(QStringLiteral("message"), p.message);
    o.insert(QStringLiteral("document_id"), p.documentId);
    o.insert(QStringLiteral("revision_id"), p.revisionId);
    QJsonArray cut;
    const std::pair<bool, const char*> parts[] = {{cuts.stdoutText, "stdout"}, {cuts.stderrText, "stderr"},
                                                  {cuts.result, "result"},     {cuts.error, "error"},
                                                  {cuts.code, "code"},         {cuts.message, "message"}};
    for (const auto& [isCut, name] : parts)
        if (isCut)
            cut.append(QString::fromLatin1(name));
    o.insert(QStringLiteral("cut"), cut);
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

bool RunPreview::fromJson(const QString& json, ExecutionResult* r, RunPreviewCuts* out)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return false;
    const QJsonObject o = doc.object();
    r->code = o.value(QLatin1String("code")).toString();
    r->stdoutText = o.value(QLatin1String("stdout")).toString();
    r->stderrText = o.value(QLatin1String("stderr")).toString();
    const QJsonValue result = o.value(QLatin1String("result"));
    r->result = result.isString() ? std::optional<QString>(result.toString()) : std::nullopt;
    const QJsonValue err = o.value(QLatin1String("error"));
    if (err.isObject()) {
        const QJsonObject e = err.toObject();
        r->error = RunError{e.value(QLatin1String("name")).toString(), e.value(QLatin1String("value")).toString(),
                                  e.value(QLatin1String("traceback")).toString()};
    } else {
        r->error.reset();
    }
    const QJsonValue exit = o.value(QLatin1String("exit_code"));
    r->exitCode = exit.isDouble() ? std::optional<int>(exit.toInt()) : std::nullopt;
    r->reason = o.value(QLatin1String("reason")).toString();
    r->message = o.value(QLatin1String("message")).toString();
    r->documentId = o.value(QLatin1String("document_id")).toString();
    r->revisionId = o.value(QLatin1String("revision_id")).toString();
    RunPreviewCuts cuts;
    for (const QJsonValue& v : o.value(QLatin1String("cut")).toArray()) {
        const QString name = v.toString();
        cuts.stdoutText = cuts.stdoutText || name == u"stdout";
        cuts.stderrText = cuts.stderrText || name == u"stderr";
        cuts.result = cuts.result || name == u"result";
        cuts.error = cuts.error || name == u"error";
        cuts.code = cuts.code || name == u"code";
        cuts.message = cuts.message || name == u"message";
    }
    *out = cuts;
    return true;
}

} // namespace sandpad
