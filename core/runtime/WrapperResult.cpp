#include "core/runtime/WrapperResult.h"

#include "core/runtime/JsonShape.h"
#include "core/runtime/ResultLimits.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

namespace sandpad {

namespace {

std::optional<WrapperResult> invalid(QString* problem, const QString& what)
{
    if (problem)
        *problem = QStringLiteral("Invalid result.json from the runtime wrapper: ") + what;
    return std::nullopt;
}

std::optional<WrapperResult> tooLarge(QString* problem, const QString& what)
{
    if (problem)
        *problem = QStringLiteral("The result is too large: ") + what;
    return std::nullopt;
}

// A string or null/absent; anything else is a protocol violation.
bool optionalString(const QJsonObject& o, const QString& key, std::optional<QString>* out)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull()) {
        out->reset();
        return true;
    }
    if (!v.isString())
        return false;
    *out = v.toString();
    return true;
}

// The longest text of result.json outside the charts, or nothing when every text is within the limit.
std::optional<std::pair<QString, qsizetype>> overlongText(const WrapperResult& r)
{
    const auto check = [](const QString& what, const QString& text) -> std::optional<std::pair<QString, qsizetype>> {
        if (text.size() > ResultLimits::textChars)
            return std::pair{what, text.size()};
        return std::nullopt;
    };
    if (r.result)
        if (auto over = check(QStringLiteral("the result text"), *r.result))
            return over;
    if (r.error) {
        for (const auto& [what, text] : {std::pair{QStringLiteral("the error name"), &r.error->name},
                                         std::pair{QStringLiteral("the error message"), &r.error->value},
                                         std::pair{QStringLiteral("the traceback"), &r.error->traceback}})
            if (auto over = check(what, *text))
                return over;
    }
    if (r.chartError)
        return check(QStringLiteral("chart_error"), *r.chartError);
    return std::nullopt;
}

} // namespace

std::optional<WrapperResult> WrapperResult::parse(const QByteArray& json, QString* problem)
{
    using L = ResultLimits;
    if (json.size() > L::documentBytes)
        return tooLarge(problem, QStringLiteral("result.json is %1; the limit is %2")
                                     .arg(L::bytesText(json.size()), L::bytesText(L::documentBytes)));
    const JsonShape shape = JsonShape::scan(json, {L::documentDepth, L::documentContainers, L::documentObjects, L::documentValues});
    if (shape.depth > L::documentDepth)
        return invalid(problem, QStringLiteral("it is nested more than %1 levels deep").arg(L::documentDepth));
    if (shape.objects > L::documentObjects)
        return tooLarge(problem, QStringLiteral("result.json has more than %1 objects; charts may have %2 elements "
                                                "(bars, slices, boxes, series) per run, each an object")
                                     .arg(L::countText(L::documentObjects), L::countText(L::chartElementsPerRun)));
    if (shape.containers > L::documentContainers)
        return tooLarge(problem, QStringLiteral("result.json has more than %1 lists and objects; charts may have %2 points "
                                                    "per run, each a list")
                                     .arg(L::countText(L::documentContainers), L::countText(L::chartValuesPerRun)));
    if (shape.values > L::documentValues)
        return tooLarge(problem, QStringLiteral("result.json has more than %1 values")
                                     .arg(L::countText(L::documentValues)));

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return invalid(problem, QStringLiteral("%1 at offset %2").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return invalid(problem, QStringLiteral("not a JSON object"));
    const QJsonObject o = doc.object();

    WrapperResult r;
    const QJsonValue status = o.value(QStringLiteral("status"));
    if (status == QJsonValue(QStringLiteral("success")))
        r.success = true;
    else if (status == QJsonValue(QStringLiteral("error")))
        r.success = false;
    else if (status.isUndefined())
        return invalid(problem, QStringLiteral("\"status\" is missing"));
    else
        return invalid(problem, QStringLiteral("\"status\" must be \"success\" or \"error\""));

    if (!optionalString(o, QStringLiteral("result"), &r.result))
        return invalid(problem, QStringLiteral("\"result\" must be a string or null"));

    const QJsonValue error = o.value(QStringLiteral("error"));
    if (error.isObject()) {
        const QJsonObject e = error.toObject();
        const QJsonValue name = e.value(QStringLiteral("name"));
        const QJsonValue value = e.value(QStringLiteral("value"));
        const QJsonValue traceback = e.value(QStringLiteral("traceback"));
        if (!name.isString() || name.toString().isEmpty())
            return invalid(problem, QStringLiteral("\"error.name\" must be a non-empty string"));
        if (!value.isString())
            return invalid(problem, QStringLiteral("\"error.value\" must be a string"));
        if (!traceback.isUndefined() && !traceback.isNull() && !traceback.isString())
            return invalid(problem, QStringLiteral("\"error.traceback\" must be a string"));
        r.error = WrapperError{name.toString(), value.toString(), traceback.toString()};
    } else if (!error.isUndefined() && !error.isNull()) {
        return invalid(problem, QStringLiteral("\"error\" must be an object or null"));
    }
    if (!r.success && !r.error)
        return invalid(problem, QStringLiteral("status is \"error\" but \"error\" is missing"));
    if (r.success && r.error)
        return invalid(problem, QStringLiteral("status is \"success\" but an error is given"));

    const QJsonValue charts = o.value(QStringLiteral("charts"));
    if (!charts.isUndefined() && !charts.isNull() && !charts.isArray())
        return invalid(problem, QStringLiteral("\"charts\" must be a list"));
    // Chart files are plain names inside out_dir: never a path that could point elsewhere.
    static const QRegularExpression safeName(QStringLiteral("^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,100}$"));
    const QJsonArray list = charts.toArray();
    if (list.size() > L::chartsPerRun)
        return tooLarge(problem, QStringLiteral("%1 charts; the limit is %2 per run")
                                     .arg(L::countText(list.size())).arg(L::chartsPerRun));
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString where = QStringLiteral("\"charts[%1]\"").arg(i);
        if (!list[i].isObject())
            return invalid(problem, where + QStringLiteral(" must be an object"));
        const QJsonObject c = list[i].toObject();
        const QString kind = c.value(QStringLiteral("kind")).toString();
        WrapperChartRef ref;
        if (kind == u"png") {
            ref.kind = WrapperChartRef::Kind::Png;
            ref.file = c.value(QStringLiteral("file")).toString();
            if (!safeName.match(ref.file).hasMatch() || ref.file.contains(QStringLiteral("..")))
                return invalid(problem, where + QStringLiteral(" needs a plain \"file\" name"));
            const QJsonValue extracted = c.value(QStringLiteral("spec"));
            if (!extracted.isUndefined() && !extracted.isNull() && !extracted.isObject())
                return invalid(problem, where + QStringLiteral(" has a \"spec\" that is not an object"));
            ref.spec = extracted.toObject();
        } else if (kind == u"interactive") {
            ref.kind = WrapperChartRef::Kind::Interactive;
            const QJsonValue spec = c.value(QStringLiteral("spec"));
            if (!spec.isObject())
                return invalid(problem, where + QStringLiteral(" needs a \"spec\" object"));
            ref.spec = spec.toObject();
        } else {
            return invalid(problem, where + QStringLiteral(" has an unknown \"kind\""));
        }
        r.charts.append(ref);
    }

    for (const auto& [key, list] : {std::pair{QStringLiteral("artifacts"), &r.artifacts},
                                     std::pair{QStringLiteral("artifacts_omitted"), &r.artifactsOmitted}}) {
        const QJsonValue value = o.value(key);
        if (!value.isUndefined() && !value.isNull() && !value.isArray())
            return invalid(problem, QStringLiteral("\"%1\" must be a list").arg(key));
        *list = value.toArray();
    }
    QString outputsProblem;
    if (!WrapperOutputs::parse(o.value(QStringLiteral("outputs")), &r.outputs, &outputsProblem))
        return invalid(problem, outputsProblem);

    r.variables = o.value(QStringLiteral("variables")).toBool(false);
    r.chartColumns = o.value(QStringLiteral("chart_columns"));
    if (!optionalString(o, QStringLiteral("chart_error"), &r.chartError))
        return invalid(problem, QStringLiteral("\"chart_error\" must be a string or null"));
    if (const auto over = overlongText(r))
        return tooLarge(problem, QStringLiteral("%1 has %2 characters; the limit is %3")
                                     .arg(over->first, L::countText(over->second), L::countText(L::textChars)));
    return r;
}

} // namespace sandpad
