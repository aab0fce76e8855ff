#include "core/charts/ChartSpec.h"

#include "core/runtime/ResultLimits.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <cmath>
#include <limits>

namespace sandpad {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Thrown inside the parser only; ChartSpec::parse turns it into ChartParseResult::error.
struct ChartError {
    QString message;
};

[[noreturn]] void fail(const QString& where, const QString& what)
{
    throw ChartError{where + QStringLiteral(": ") + what};
}

// How a value is shown in an error: strings quoted, containers by kind, long text cut.
QString describe(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 17);
    case QJsonValue::String: {
        QString s = v.toString();
        if (s.size() > 40)
            s = s.left(40) + QStringLiteral("...");
        return u'"' + s + u'"';
    }
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

QJsonValue numberOrNull(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

// "2024-01-31", "2024-01-31T12:00:00", "2024-01-31 12:00:00.123456+02:00", "...Z".
// Without an offset the time is taken as UTC, so a chart looks the same on every machine.
std::optional<double> parseIsoDateTime(QString text)
{
    text = text.trimmed();
    if (text.size() > 10 && text[10] == u' ')
        text[10] = u'T';
    // Qt reads at most milliseconds: cut longer fractions (pandas writes microseconds).
    const qsizetype dot = text.indexOf(u'.', 19);
    if (dot == 19) {
        qsizetype end = dot + 1;
        while (end < text.size() && text[end].isDigit())
            ++end;
        if (end - dot - 1 > 3)
            text.remove(dot + 4, end - dot - 4);
    }
    QDateTime dt = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!dt.isValid()) {
        const QDate date = QDate::fromString(text, Qt::ISODate);
        if (!date.isValid())
            return std::nullopt;
        dt = QDateTime(date, QTime(0, 0), Qt::UTC);
    }
    if (dt.timeSpec() == Qt::LocalTime)
        dt = QDateTime(dt.date(), dt.time(), Qt::UTC);
    return double(dt.toMSecsSinceEpoch());
}

// Where an element is, for error messages: built only when there is an error to report, since
// formatting it for each of a million points took most of the parsing time.
QString elementAt(qsizetype i)
{
    return QStringLiteral("chart.elements[%1]").arg(i);
}

QString pointAt(qsizetype i, qsizetype j)
{
    return QStringLiteral("chart.elements[%1].points[%2]").arg(i).arg(j);
}

// A label or title: a string of bounded length (it is drawn, and a megabyte of title is no label).
void checkText(const QString& text, const QString& where)
{
    if (text.size() > ResultLimits::chartTextChars)
        fail(where, QStringLiteral("has %1 characters; the limit is %2")
                        .arg(ResultLimits::countText(text.size()), ResultLimits::countText(ResultLimits::chartTextChars)));
}

} // namespace

class ChartSpecParser {
public:
    ChartSpec spec;
    qsizetype values = 0;

    void count(qsizetype n, const QString& where)
    {
        values += n;
        if (values > ChartSpec::maxValues)
            fail(where, QStringLiteral("the chart has more than %1 values").arg(ResultLimits::countText(ChartSpec::maxValues)));
    }

    static QString optionalString(const QJsonObject& o, const QString& key, const QString& where,
                                  const QString& fallback = {})
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull())
            return fallback;
        if (!v.isString())
            fail(where + u'.' + key, QStringLiteral("must be a string, got ") + describe(v));
        const QString text = v.toString();
        checkText(text, where + u'.' + key);
        return text;
    }

    // A number, or a numeric string (Daytona sends bar values as strings). null -> NaN when allowed.
    static double number(const QJsonValue& v, const QString& where, const QString& what, bool allowNull)
    {
        if (v.isDouble())
            return v.toDouble();
        if (v.isNull() && allowNull)
            return kNaN;
        if (v.isString()) {
            bool ok = false;
            const double d = v.toString().trimmed().toDouble(&ok);
            if (ok && std::isfinite(d))
                return d;
        }
        fail(where, what + QStringLiteral(" must be a number, got ") + describe(v));
    }

    static QJsonArray requireArray(const QJsonObject& o, const QString& key, const QString& where)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            fail(where, QStringLiteral("missing \"%1\" (a list)").arg(key));
        if (!v.isArray())
            fail(where + u'.' + key, QStringLiteral("must be a list, got ") + describe(v));
        return v.toArray();
    }

    void parsePoints(const QJsonArray& elements)
    {
        enum class XKind { Unknown, Number, String } xKind = XKind::Unknown;
        QHash<QString, int> categoryIndex;
        for (qsizetype i = 0; i < elements.size(); ++i) {
            if (!elements[i].isObject())
                fail(elementAt(i), QStringLiteral("must be an object with \"label\" and \"points\", got ") + describe(elements[i]));
            const QJsonObject e = elements[i].toObject();
            ChartSeries series;
            series.label = optionalString(e, QStringLiteral("label"), elementAt(i), QStringLiteral("Series %1").arg(i + 1));
            const QJsonArray points = requireArray(e, QStringLiteral("points"), elementAt(i));
            count(points.size(), elementAt(i) + QStringLiteral(".points"));
            series.xs.reserve(size_t(points.size()));
            series.ys.reserve(size_t(points.size()));
            // Whether the list is already in normal form, so that toJson(source) can share it.
            bool normal = true;
            for (qsizetype j = 0; j < points.size(); ++j) {
                const QJsonValue p = points[j];
                const QJsonArray pair = p.toArray();
                if (!p.isArray() || pair.size() != 2)
                    fail(pointAt(i, j), QStringLiteral("must be a pair [x, y], got ") + describe(p)
                                            + (p.isArray() ? QStringLiteral(" of %1 values").arg(pair.size()) : QString()));
                const QJsonValue x = pair[0];
                double xv = 0;
                if (spec.m_datetimeX) {
                    if (x.isDouble()) {
                        xv = x.toDouble();
                    } else {
                        // No date is longer than 64 characters: do not hand megabytes to the date parser.
                        const auto ms = x.isString() && x.toString().size() <= 64 ? parseIsoDateTime(x.toString())
                                                                                  : std::nullopt;
                        if (!ms)
                            fail(pointAt(i, j), QStringLiteral("x must be an ISO-8601 date/time or epoch milliseconds, got ") + describe(x));
                        xv = *ms;
                        normal = false; // becomes epoch milliseconds
                    }
                } else if (x.isDouble()) {
                    if (xKind == XKind::String)
                        fail(pointAt(i, j), QStringLiteral("x must be a string like the x values before it, got ") + describe(x));
                    xKind = XKind::Number;
                    xv = x.toDouble();
                } else if (x.isString()) {
                    if (xKind == XKind::Number)
                        fail(pointAt(i, j), QStringLiteral("x must be a number like the x values before it, got ") + describe(x));
                    xKind = XKind::String;
                    const QString label = x.toString();
                    auto it = categoryIndex.constFind(label);
                    if (it == categoryIndex.constEnd()) {
                        checkText(label, pointAt(i, j));
                        it = categoryIndex.insert(label, int(spec.m_xCategories.size()));
                        spec.m_xCategories.append(label);
                    }
                    xv = *it;
                } else {
                    fail(pointAt(i, j), QStringLiteral("x must be a number or a string, got ") + describe(x));
                }
                const QJsonValue y = pair[1];
                if (y.isDouble())
                    series.ys.push_back(y.toDouble());
                else if (y.isNull())
                    series.ys.push_back(kNaN);
                else {
                    series.ys.push_back(number(y, pointAt(i, j), QStringLiteral("y"), true));
                    normal = false; // a numeric string becomes a number
                }
                series.xs.push_back(xv);
            }
            spec.m_series.append(std::move(series));
            spec.m_pointsNormal.push_back(normal);
        }
    }

    void parseBars(const QJsonArray& elements)
    {
        QHash<QString, int> categoryIndex, groupIndex;
        struct Bar { int category, group; double value; };
        std::vector<Bar> bars;
        count(elements.size(), QStringLiteral("chart.elements"));
        for (qsizetype i = 0; i < elements.size(); ++i) {
            if (!elements[i].isObject())
                fail(elementAt(i), QStringLiteral("must be an object with \"label\", \"group\" and \"value\", got ") + describe(elements[i]));
            const QJsonObject e = elements[i].toObject();
            const QJsonValue label = e.value(QStringLiteral("label"));
            if (!label.isString())
                fail(elementAt(i) + QStringLiteral(".label"), QStringLiteral("must be a string, got ") + describe(label));
            checkText(label.toString(), elementAt(i) + QStringLiteral(".label"));
            const QString group = optionalString(e, QStringLiteral("group"), elementAt(i));
            const QJsonValue v = e.value(QStringLiteral("value"));
            if (v.isUndefined())
                fail(elementAt(i), QStringLiteral("missing \"value\""));
            const double value = v.isDouble() ? v.toDouble()
                                              : number(v, elementAt(i) + QStringLiteral(".value"), QStringLiteral("the value"), true);
            auto c = categoryIndex.constFind(label.toString());
            if (c == categoryIndex.constEnd()) {
                c = categoryIndex.insert(label.toString(), int(spec.m_bars.categories.size()));
                spec.m_bars.categories.append(label.toString());
            }
            auto g = groupIndex.constFind(group);
            if (g == groupIndex.constEnd()) {
                g = groupIndex.insert(group, int(spec.m_bars.groups.size()));
                spec.m_bars.groups.append(group);
            }
            bars.push_back({*c, *g, value});
        }
        // The chart holds a value for every (group, label) pair: 50,000 bars that each have their
        // own label and group would be 2.5 billion of them.
        const qint64 cells = qint64(spec.m_bars.groups.size()) * qint64(spec.m_bars.categories.size());
        if (cells > ChartSpec::maxValues)
            fail(QStringLiteral("chart.elements"),
                 QStringLiteral("%1 groups times %2 labels is more than %3 bars")
                     .arg(ResultLimits::countText(spec.m_bars.groups.size()), ResultLimits::countText(spec.m_bars.categories.size()),
                          ResultLimits::countText(ChartSpec::maxValues)));
        const size_t nc = size_t(spec.m_bars.categories.size());
        spec.m_bars.values.assign(size_t(spec.m_bars.groups.size()), std::vector<double>(nc, kNaN));
        for (const Bar& b : bars) {
            double& cell = spec.m_bars.values[size_t(b.group)][size_t(b.category)];
            // The same (label, group) twice adds up, as stacking would show it.
            if (std::isnan(cell))
                cell = b.value;
            else if (!std::isnan(b.value))
                cell += b.value;
        }
    }

    void parseSlices(const QJsonArray& elements)
    {
        count(elements.size(), QStringLiteral("chart.elements"));
        for (qsizetype i = 0; i < elements.size(); ++i) {
            const QString where = elementAt(i);
            if (!elements[i].isObject())
                fail(where, QStringLiteral("must be an object with \"label\" and \"angle\", got ") + describe(elements[i]));
            const QJsonObject e = elements[i].toObject();
            ChartSlice slice;
            slice.label = optionalString(e, QStringLiteral("label"), where);
            const QString key = e.contains(QStringLiteral("angle")) ? QStringLiteral("angle") : QStringLiteral("value");
            if (!e.contains(key))
                fail(where, QStringLiteral("missing \"angle\" (or \"value\")"));
            slice.value = number(e.value(key), where + u'.' + key, QStringLiteral("the ") + key, false);
            if (slice.value < 0)
                fail(where + u'.' + key, QStringLiteral("must not be negative, got ") + describe(e.value(key)));
            spec.m_slices.append(slice);
        }
    }

    void parseBoxes(const QJsonArray& elements)
    {
        for (qsizetype i = 0; i < elements.size(); ++i) {
            const QString where = elementAt(i);
            if (!elements[i].isObject())
                fail(where, QStringLiteral("must be an object with \"label\", \"min\", \"first_quartile\", \"median\", \"third_quartile\" and \"max\", got ") + describe(elements[i]));
            const QJsonObject e = elements[i].toObject();
            ChartBox box;
            box.label = optionalString(e, QStringLiteral("label"), where);
            const auto field = [&](const char* key) {
                const QString k = QString::fromLatin1(key);
                if (!e.contains(k))
                    fail(where, QStringLiteral("missing \"%1\"").arg(k));
                return number(e.value(k), where + u'.' + k, k, false);
            };
            box.min = field("min");
            box.firstQuartile = field("first_quartile");
            box.median = field("median");
            box.thirdQuartile = field("third_quartile");
            box.max = field("max");
            if (!(box.min <= box.firstQuartile && box.firstQuartile <= box.median
                  && box.median <= box.thirdQuartile && box.thirdQuartile <= box.max))
                fail(where, QStringLiteral("needs min <= first_quartile <= median <= third_quartile <= max"));
            const QJsonValue outliers = e.value(QStringLiteral("outliers"));
            if (!outliers.isUndefined() && !outliers.isNull()) {
                if (!outliers.isArray())
                    fail(where + QStringLiteral(".outliers"), QStringLiteral("must be a list, got ") + describe(outliers));
                const QJsonArray list = outliers.toArray();
                count(list.size(), where + QStringLiteral(".outliers"));
                for (qsizetype j = 0; j < list.size(); ++j)
                    box.outliers.push_back(number(list[j], QStringLiteral("%1.outliers[%2]").arg(where).arg(j),
                                                  QStringLiteral("an outlier"), false));
            }
            count(5, where);
            spec.m_boxes.append(std::move(box));
        }
    }

    void parse(const QJsonObject& chart)
    {
        const QJsonValue typeValue = chart.value(QStringLiteral("type"));
        if (typeValue.isUndefined())
            fail(QStringLiteral("chart"), QStringLiteral("missing \"type\" (line, scatter, bar, pie or box_and_whisker)"));
        const QString type = typeValue.toString();
        if (!typeValue.isString())
            fail(QStringLiteral("chart.type"), QStringLiteral("must be a string, got ") + describe(typeValue));
        if (type == u"line")
            spec.m_type = ChartType::Line;
        else if (type == u"scatter")
            spec.m_type = ChartType::Scatter;
        else if (type == u"bar")
            spec.m_type = ChartType::Bar;
        else if (type == u"pie")
            spec.m_type = ChartType::Pie;
        else if (type == u"box_and_whisker")
            spec.m_type = ChartType::BoxAndWhisker;
        else if (type == u"composite_chart")
            fail(QStringLiteral("chart.type"), QStringLiteral("composite charts are not supported; return one chart"));
        else
            fail(QStringLiteral("chart.type"), QStringLiteral("must be one of line, scatter, bar, pie, box_and_whisker, got ") + describe(typeValue));

        spec.m_title = optionalString(chart, QStringLiteral("title"), QStringLiteral("chart"));
        spec.m_xLabel = optionalString(chart, QStringLiteral("x_label"), QStringLiteral("chart"));
        spec.m_yLabel = optionalString(chart, QStringLiteral("y_label"), QStringLiteral("chart"));

        const QJsonValue scale = chart.value(QStringLiteral("x_scale"));
        if (!scale.isUndefined() && !scale.isNull()) {
            // "linear"/"categorical" are what E2B-style charts send for the default scale.
            const QString s = scale.toString();
            if (!scale.isString() || (s != u"datetime" && s != u"linear" && s != u"categorical"))
                fail(QStringLiteral("chart.x_scale"), QStringLiteral("must be \"datetime\" or null, got ") + describe(scale));
            const bool pointChart = spec.m_type == ChartType::Line || spec.m_type == ChartType::Scatter;
            if (s == u"datetime" && !pointChart)
                fail(QStringLiteral("chart.x_scale"), QStringLiteral("\"datetime\" is only for line and scatter charts"));
            spec.m_datetimeX = s == u"datetime";
        }

        const QJsonArray elements = requireArray(chart, QStringLiteral("elements"), QStringLiteral("chart"));
        if (elements.size() > ChartSpec::maxElements)
            fail(QStringLiteral("chart.elements"), QStringLiteral("has %1 elements; the limit is %2")
                                                       .arg(ResultLimits::countText(elements.size()), ResultLimits::countText(ChartSpec::maxElements)));
        switch (spec.m_type) {
        case ChartType::Line:
        case ChartType::Scatter: parsePoints(elements); break;
        case ChartType::Bar: parseBars(elements); break;
        case ChartType::Pie: parseSlices(elements); break;
        case ChartType::BoxAndWhisker: parseBoxes(elements); break;
        }
    }
};

ChartParseResult ChartSpec::parse(const QJsonObject& chart)
{
    ChartSpecParser parser;
    try {
        parser.parse(chart);
    } catch (const ChartError& e) {
        return {std::nullopt, e.message};
    }
    return {std::move(parser.spec), QString()};
}

QString ChartSpec::typeName() const
{
    switch (m_type) {
    case ChartType::Line: return QStringLiteral("line");
    case ChartType::Scatter: return QStringLiteral("scatter");
    case ChartType::Bar: return QStringLiteral("bar");
    case ChartType::Pie: return QStringLiteral("pie");
    case ChartType::BoxAndWhisker: return QStringLiteral("box_and_whisker");
    }
    return QString();
}

bool ChartSpec::isEmpty() const
{
    switch (m_type) {
    case ChartType::Line:
    case ChartType::Scatter:
        for (const ChartSeries& s : m_series)
            if (!s.xs.empty())
                return false;
        return true;
    case ChartType::Bar: return m_bars.categories.isEmpty();
    case ChartType::Pie: return m_slices.isEmpty();
    case ChartType::BoxAndWhisker: return m_boxes.isEmpty();
    }
    return true;
}

qsizetype ChartSpec::valueCount(const QJsonObject& chart)
{
    // The same counting as ChartSpecParser::count(), over what is there (no validation).
    const QString type = chart.value(QStringLiteral("type")).toString();
    const QJsonArray elements = chart.value(QStringLiteral("elements")).toArray();
    if (type == u"line" || type == u"scatter") {
        qsizetype n = 0;
        for (const QJsonValue& e : elements)
            n += e.toObject().value(QStringLiteral("points")).toArray().size();
        return n;
    }
    if (type == u"box_and_whisker") {
        qsizetype n = 0;
        for (const QJsonValue& e : elements)
            n += 5 + e.toObject().value(QStringLiteral("outliers")).toArray().size();
        return n;
    }
    return elements.size();
}

QJsonObject ChartSpec::toJson() const
{
    return toJson(QList<QJsonArray>());
}

QJsonObject ChartSpec::toJson(QJsonObject&& parsedFrom) const
{
    QList<QJsonArray> shared;
    {
        const QJsonObject source = std::move(parsedFrom);
        const QJsonArray elements = source.value(QStringLiteral("elements")).toArray();
        // Only the dictionary this chart came from has one element per series, of the same sizes.
        if (elements.size() == m_series.size()) {
            shared.resize(m_series.size());
            for (qsizetype k = 0; k < m_series.size(); ++k) {
                const QJsonArray points = elements[k].toObject().value(QStringLiteral("points")).toArray();
                if (m_pointsNormal[size_t(k)] && size_t(points.size()) == m_series[k].xs.size())
                    shared[k] = points;
            }
        }
    } // the rest of the source is freed here
    return toJson(shared);
}

QJsonObject ChartSpec::toJson(const QList<QJsonArray>& sharedPoints) const
{
    QJsonObject o;
    o.insert(QStringLiteral("type"), typeName());
    o.insert(QStringLiteral("title"), m_title);
    if (!m_xLabel.isEmpty())
        o.insert(QStringLiteral("x_label"), m_xLabel);
    if (!m_yLabel.isEmpty())
        o.insert(QStringLiteral("y_label"), m_yLabel);
    QJsonArray elements;
    switch (m_type) {
    case ChartType::Line:
    case ChartType::Scatter:
        o.insert(QStringLiteral("x_scale"), m_datetimeX ? QJsonValue(QStringLiteral("datetime")) : QJsonValue());
        for (qsizetype k = 0; k < m_series.size(); ++k) {
            const ChartSeries& s = m_series[k];
            QJsonArray points;
            if (k < sharedPoints.size() && !sharedPoints[k].isEmpty()) {
                elements.append(QJsonObject{{QStringLiteral("label"), s.label}, {QStringLiteral("points"), sharedPoints[k]}});
                continue;
            }
            for (size_t i = 0; i < s.xs.size(); ++i) {
                const QJsonValue x = categoryX() ? QJsonValue(m_xCategories.at(qsizetype(s.xs[i])))
                                                 : QJsonValue(s.xs[i]);
                points.append(QJsonArray{x, numberOrNull(s.ys[i])});
            }
            elements.append(QJsonObject{{QStringLiteral("label"), s.label}, {QStringLiteral("points"), points}});
        }
        break;
    case ChartType::Bar:
        for (qsizetype g = 0; g < m_bars.groups.size(); ++g)
            for (qsizetype c = 0; c < m_bars.categories.size(); ++c) {
                const double v = m_bars.values[size_t(g)][size_t(c)];
                if (std::isnan(v))
                    continue;
                elements.append(QJsonObject{{QStringLiteral("label"), m_bars.categories[c]},
                                            {QStringLiteral("group"), m_bars.groups[g]},
                                            {QStringLiteral("value"), v}});
            }
        break;
    case ChartType::Pie:
        for (const ChartSlice& s : m_slices)
            elements.append(QJsonObject{{QStringLiteral("label"), s.label}, {QStringLiteral("angle"), s.value}});
        break;
    case ChartType::BoxAndWhisker:
        for (const ChartBox& b : m_boxes) {
            QJsonArray outliers;
            for (double v : b.outliers)
                outliers.append(v);
            elements.append(QJsonObject{{QStringLiteral("label"), b.label},
                                        {QStringLiteral("min"), b.min},
                                        {QStringLiteral("first_quartile"), b.firstQuartile},
                                        {QStringLiteral("median"), b.median},
                                        {QStringLiteral("third_quartile"), b.thirdQuartile},
                                        {QStringLiteral("max"), b.max},
                                        {QStringLiteral("outliers"), outliers}});
        }
        break;
    }
    o.insert(QStringLiteral("elements"), elements);
    return o;
}

} // namespace sandpad
