// ChartSpec, continued: parse() and the validation behind it (ChartSpecParser). The rest of
// ChartSpec (accessors, toJson) is in ChartSpec.cpp.
#include "core/charts/ChartSpec.h"

#include "core/charts/ChartColumns.h"
#include "core/runtime/ResultLimits.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSysInfo>
#include <QtEndian>
#include <cmath>
#include <cstring>
#include <limits>

namespace sandpad {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// An axis has at most this many ticks and tick labels; a composite at most this many rows/columns.
constexpr qsizetype kMaxTicks = 1000;
constexpr int kMaxGrid = 20;

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
    const ChartColumns* columns = nullptr; // the run's binary columns, if any

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

    // "#rrggbb" (or "#rrggbbaa"), or empty when missing or null.
    static QString color(const QJsonObject& o, const QString& where)
    {
        const QJsonValue v = o.value(QStringLiteral("color"));
        if (v.isUndefined() || v.isNull())
            return {};
        static const QRegularExpression hex(QStringLiteral("^#[0-9A-Fa-f]{6}([0-9A-Fa-f]{2})?$"));
        if (!v.isString() || !hex.match(v.toString()).hasMatch())
            fail(where + QStringLiteral(".color"), QStringLiteral("must be a colour like \"#1f77b4\", got ") + describe(v));
        return v.toString().left(7);
    }

    static ChartScale scale(const QJsonObject& o, const QString& key, const QString& where)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined() || v.isNull() || v.toString() == u"linear")
            return ChartScale::Linear;
        if (v.toString() == u"log")
            return ChartScale::Log;
        if (v.toString() == u"symlog")
            return ChartScale::Symlog;
        fail(where + u'.' + key, QStringLiteral("must be \"linear\", \"log\" or \"symlog\", got ") + describe(v));
    }

    // `<p>_linthresh`, `<p>_lim`, `<p>_ticks`, `<p>_tick_labels`, `<p>_unit` (the scale is read by the caller).
    void parseAxis(const QJsonObject& chart, const QString& p, ChartAxis& axis, bool datetime)
    {
        const QString where = QStringLiteral("chart");
        const QJsonValue linthresh = chart.value(p + QStringLiteral("_linthresh"));
        if (!linthresh.isUndefined() && !linthresh.isNull()) {
            axis.linthresh = number(linthresh, where + u'.' + p + QStringLiteral("_linthresh"), QStringLiteral("the threshold"), false);
            if (!(axis.linthresh > 0))
                fail(where + u'.' + p + QStringLiteral("_linthresh"), QStringLiteral("must be positive, got ") + describe(linthresh));
        }
        const QJsonValue lim = chart.value(p + QStringLiteral("_lim"));
        if (!lim.isUndefined() && !lim.isNull()) {
            const QString at = where + u'.' + p + QStringLiteral("_lim");
            const QJsonArray pair = lim.toArray();
            if (!lim.isArray() || pair.size() != 2)
                fail(at, QStringLiteral("must be a pair [low, high], got ") + describe(lim));
            const double lo = number(pair[0], at + QStringLiteral("[0]"), QStringLiteral("low"), false);
            const double hi = number(pair[1], at + QStringLiteral("[1]"), QStringLiteral("high"), false);
            if (!(lo < hi))
                fail(at, QStringLiteral("needs low < high"));
            axis.limits = std::make_pair(lo, hi);
        }
        const QJsonValue ticks = chart.value(p + QStringLiteral("_ticks"));
        if (!ticks.isUndefined() && !ticks.isNull()) {
            const QString at = where + u'.' + p + QStringLiteral("_ticks");
            if (!ticks.isArray())
                fail(at, QStringLiteral("must be a list, got ") + describe(ticks));
            const QJsonArray list = ticks.toArray();
            if (list.size() > kMaxTicks)
                fail(at, QStringLiteral("has %1 ticks; the limit is %2").arg(ResultLimits::countText(list.size())).arg(kMaxTicks));
            for (qsizetype i = 0; i < list.size(); ++i) {
                const QJsonValue t = list[i];
                if (t.isDouble()) {
                    axis.ticks.push_back(t.toDouble());
                } else if (t.isString() && datetime && t.toString().size() <= 64 && parseIsoDateTime(t.toString())) {
                    axis.ticks.push_back(*parseIsoDateTime(t.toString()));
                } else if (t.isString()) {
                    axis.ticks.clear(); // category names (E2B): the labels say it all
                    break;
                } else {
                    fail(QStringLiteral("%1[%2]").arg(at).arg(i), QStringLiteral("a tick must be a number, got ") + describe(t));
                }
            }
        }
        const QJsonValue labels = chart.value(p + QStringLiteral("_tick_labels"));
        if (!labels.isUndefined() && !labels.isNull()) {
            const QString at = where + u'.' + p + QStringLiteral("_tick_labels");
            if (!labels.isArray())
                fail(at, QStringLiteral("must be a list, got ") + describe(labels));
            const QJsonArray list = labels.toArray();
            if (list.size() > kMaxTicks)
                fail(at, QStringLiteral("has %1 labels; the limit is %2").arg(ResultLimits::countText(list.size())).arg(kMaxTicks));
            for (qsizetype i = 0; i < list.size(); ++i) {
                if (!list[i].isString())
                    fail(QStringLiteral("%1[%2]").arg(at).arg(i), QStringLiteral("must be a string, got ") + describe(list[i]));
                checkText(list[i].toString(), QStringLiteral("%1[%2]").arg(at).arg(i));
                axis.tickLabels.append(list[i].toString());
            }
        }
        axis.unit = optionalString(chart, p + QStringLiteral("_unit"), where);
    }

    // One error bar: null (none), a number (the same below and above) or [below, above].
    static void errorValue(const QJsonValue& v, const QString& where, double& minus, double& plus)
    {
        if (v.isNull() || v.isUndefined()) {
            minus = plus = kNaN;
            return;
        }
        if (v.isArray()) {
            const QJsonArray pair = v.toArray();
            if (pair.size() != 2)
                fail(where, QStringLiteral("must be a number or a pair [below, above], got an array of %1 values").arg(pair.size()));
            minus = number(pair[0], where + QStringLiteral("[0]"), QStringLiteral("an error"), true);
            plus = number(pair[1], where + QStringLiteral("[1]"), QStringLiteral("an error"), true);
        } else {
            minus = plus = number(v, where, QStringLiteral("an error"), false);
        }
        if (minus < 0 || plus < 0)
            fail(where, QStringLiteral("an error bar must not be negative"));
    }

    void parseErrors(const QJsonObject& e, const QString& key, const QString& where, size_t points, ChartErrors& out)
    {
        const QJsonValue v = e.value(key);
        if (v.isUndefined() || v.isNull())
            return;
        if (!v.isArray())
            fail(where + u'.' + key, QStringLiteral("must be a list, got ") + describe(v));
        const QJsonArray list = v.toArray();
        if (size_t(list.size()) != points)
            fail(where + u'.' + key, QStringLiteral("has %1 values for %2 points").arg(list.size()).arg(points));
        count(list.size(), where + u'.' + key);
        out.minus.resize(points);
        out.plus.resize(points);
        for (qsizetype j = 0; j < list.size(); ++j)
            errorValue(list[j], QStringLiteral("%1.%2[%3]").arg(where, key).arg(j), out.minus[size_t(j)], out.plus[size_t(j)]);
    }

    // A binary column reference, `{"offset": bytes, "length": values, "dtype": "float64"|"int64"}`
    // into the run's columns file: checked before a byte of it is looked at (the length against
    // the chart's values, offset and length as doubles first, so that 1e300 or 2^63 cannot wrap).
    struct ColumnRef {
        qint64 offset = 0;
        qsizetype length = 0;
        ChartColumns::Type type = ChartColumns::Type::Float64;
    };

    static ColumnRef columnRef(const QJsonObject& e, const QString& key, const QString& where)
    {
        const QString at = where + u'.' + key;
        const QJsonValue v = e.value(key);
        if (v.isUndefined())
            fail(where, QStringLiteral("missing \"%1\" (a column, with \"%2\")").arg(key, key == u"x" ? QStringLiteral("y") : QStringLiteral("x")));
        if (!v.isObject())
            fail(at, QStringLiteral("must be a column {\"offset\", \"length\", \"dtype\"}, got ") + describe(v));
        const QJsonObject o = v.toObject();
        ColumnRef ref;
        const QJsonValue dtype = o.value(QStringLiteral("dtype"));
        if (dtype.toString() == u"float64")
            ref.type = ChartColumns::Type::Float64;
        else if (dtype.toString() == u"int64")
            ref.type = ChartColumns::Type::Int64;
        else
            fail(at + QStringLiteral(".dtype"), QStringLiteral("must be \"float64\" or \"int64\", got ") + describe(dtype));
        const QJsonValue length = o.value(QStringLiteral("length"));
        const double n = length.toDouble(-1);
        if (!length.isDouble() || n != std::floor(n) || n < 0 || n > double(ChartSpec::maxValues))
            fail(at + QStringLiteral(".length"), QStringLiteral("must be a whole number from 0 to %1, got ")
                                                     .arg(ResultLimits::countText(ChartSpec::maxValues)) + describe(length));
        ref.length = qsizetype(n);
        const QJsonValue offset = o.value(QStringLiteral("offset"));
        const double off = offset.toDouble(-1);
        if (!offset.isDouble() || off != std::floor(off) || off < 0 || off > double(ResultLimits::chartColumnBytes)
            || std::fmod(off, 8) != 0)
            fail(at + QStringLiteral(".offset"), QStringLiteral("must be a whole multiple of 8 from 0 to %1, got ")
                                                     .arg(ResultLimits::countText(ResultLimits::chartColumnBytes)) + describe(offset));
        ref.offset = qint64(off);
        return ref;
    }

    // The column's bytes: inside the columns file, 8 bytes per value (both bounded above, so
    // offset + length * 8 cannot overflow).
    const char* columnBytes(const ColumnRef& ref, const QString& at) const
    {
        if (!columns)
            fail(at, QStringLiteral("the chart's columns were not sent (no chart-columns file)"));
        const qint64 end = ref.offset + qint64(ref.length) * 8;
        if (end > columns->bytes().size())
            fail(at, QStringLiteral("the column runs past the end of the columns: %1 %2 values from byte %3 end at byte %4; there are %5 bytes")
                         .arg(ResultLimits::countText(ref.length),
                              ref.type == ChartColumns::Type::Int64 ? QStringLiteral("int64") : QStringLiteral("float64"),
                              ResultLimits::countText(ref.offset), ResultLimits::countText(end),
                              ResultLimits::countText(columns->bytes().size())));
        return columns->bytes().constData() + ref.offset;
    }

    static double float64At(const char* p, qsizetype i)
    {
        double v;
        if constexpr (QSysInfo::ByteOrder == QSysInfo::LittleEndian) {
            std::memcpy(&v, p + i * 8, 8);
        } else {
            const quint64 bits = qFromLittleEndian<quint64>(p + i * 8);
            std::memcpy(&v, &bits, 8);
        }
        return v;
    }

    static qint64 int64At(const char* p, qsizetype i) { return qFromLittleEndian<qint64>(p + i * 8); }

    static QString numberText(double v)
    {
        return std::isnan(v) ? QStringLiteral("NaN") : QString::number(v, 'g', 17);
    }

    // x and y from binary columns, decoded and checked in one pass each: x finite (an int64
    // x must not be the missing value, NaT), y a number or NaN (a gap), never infinite.
    void parseColumns(const QJsonObject& e, qsizetype i, ChartSeries& series)
    {
        const QString where = elementAt(i);
        const ColumnRef x = columnRef(e, QStringLiteral("x"), where);
        const ColumnRef y = columnRef(e, QStringLiteral("y"), where);
        if (x.length != y.length)
            fail(where, QStringLiteral("x has %1 values and y has %2: they must be as many")
                            .arg(ResultLimits::countText(x.length), ResultLimits::countText(y.length)));
        count(x.length, where + QStringLiteral(".x"));
        const char* xb = columnBytes(x, where + QStringLiteral(".x"));
        const char* yb = columnBytes(y, where + QStringLiteral(".y"));
        const size_t n = size_t(x.length);
        series.xs.resize(n);
        series.ys.resize(n);
        if (x.type == ChartColumns::Type::Float64) {
            for (size_t j = 0; j < n; ++j) {
                const double v = float64At(xb, qsizetype(j));
                if (!std::isfinite(v))
                    fail(QStringLiteral("%1.x[%2]").arg(where).arg(j), QStringLiteral("x must be a finite number, got ") + numberText(v));
                series.xs[j] = v;
            }
        } else {
            for (size_t j = 0; j < n; ++j) {
                const qint64 v = int64At(xb, qsizetype(j));
                if (v == std::numeric_limits<qint64>::min())
                    fail(QStringLiteral("%1.x[%2]").arg(where).arg(j), QStringLiteral("x is missing (the int64 missing value, NaT)"));
                series.xs[j] = double(v);
            }
        }
        if (y.type == ChartColumns::Type::Float64) {
            for (size_t j = 0; j < n; ++j) {
                const double v = float64At(yb, qsizetype(j));
                if (std::isinf(v))
                    fail(QStringLiteral("%1.y[%2]").arg(where).arg(j), QStringLiteral("y must be a number or NaN (a gap), got ") + numberText(v));
                series.ys[j] = v;
            }
        } else {
            for (size_t j = 0; j < n; ++j)
                series.ys[j] = double(int64At(yb, qsizetype(j)));
        }
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
            const bool columnar = e.contains(QStringLiteral("x")) || e.contains(QStringLiteral("y"));
            if (columnar && e.contains(QStringLiteral("points")))
                fail(elementAt(i), QStringLiteral("has both \"points\" and \"x\"/\"y\" columns: give one of them"));
            if (columnar) {
                if (xKind == XKind::String)
                    fail(elementAt(i) + QStringLiteral(".x"), QStringLiteral("x must be strings like the x values before it, got a number column"));
                xKind = XKind::Number;
                parseColumns(e, i, series);
            }
            const QJsonArray points = columnar ? QJsonArray() : requireArray(e, QStringLiteral("points"), elementAt(i));
            count(points.size(), elementAt(i) + QStringLiteral(".points"));
            series.xs.reserve(size_t(points.size()));
            series.ys.reserve(size_t(points.size()));
            // Whether the list is already in normal form, so that toJson(source) can share it.
            bool normal = !columnar;
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
            series.color = color(e, elementAt(i));
            const QJsonValue mode = e.value(QStringLiteral("mode"));
            if (!mode.isUndefined() && !mode.isNull()) {
                const QString m = mode.toString();
                if (m == u"lines")
                    series.mode = ChartSeries::Mode::Lines;
                else if (m == u"markers")
                    series.mode = ChartSeries::Mode::Markers;
                else if (m == u"lines+markers")
                    series.mode = ChartSeries::Mode::LinesAndMarkers;
                else
                    fail(elementAt(i) + QStringLiteral(".mode"), QStringLiteral("must be \"lines\", \"markers\" or \"lines+markers\", got ") + describe(mode));
            }
            const QJsonValue axis = e.value(QStringLiteral("y_axis"));
            if (!axis.isUndefined() && !axis.isNull()) {
                if (axis.toString() != u"left" && axis.toString() != u"right")
                    fail(elementAt(i) + QStringLiteral(".y_axis"), QStringLiteral("must be \"left\" or \"right\", got ") + describe(axis));
                series.rightAxis = axis.toString() == u"right";
            }
            parseErrors(e, QStringLiteral("error_x"), elementAt(i), series.xs.size(), series.errorX);
            parseErrors(e, QStringLiteral("error_y"), elementAt(i), series.xs.size(), series.errorY);
            spec.m_series.append(std::move(series));
            spec.m_pointsNormal.push_back(normal);
        }
    }

    void parseBars(const QJsonArray& elements)
    {
        QHash<QString, int> categoryIndex, groupIndex;
        struct Bar { int category, group; double value, minus, plus; };
        std::vector<Bar> bars;
        bool hasErrors = false;
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
                spec.m_bars.colors.append(color(e, elementAt(i))); // a group's colour is its first bar's
            }
            double minus = kNaN, plus = kNaN;
            errorValue(e.value(QStringLiteral("error")), elementAt(i) + QStringLiteral(".error"), minus, plus);
            hasErrors = hasErrors || !std::isnan(minus) || !std::isnan(plus);
            bars.push_back({*c, *g, value, minus, plus});
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
        if (hasErrors)
            spec.m_bars.errors.assign(size_t(spec.m_bars.groups.size()),
                                      ChartErrors{std::vector<double>(nc, kNaN), std::vector<double>(nc, kNaN)});
        for (const Bar& b : bars) {
            if (hasErrors) {
                spec.m_bars.errors[size_t(b.group)].minus[size_t(b.category)] = b.minus;
                spec.m_bars.errors[size_t(b.group)].plus[size_t(b.category)] = b.plus;
            }
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
            const QJsonValue radius = e.value(QStringLiteral("radius"));
            if (!radius.isUndefined() && !radius.isNull()) {
                slice.radius = number(radius, where + QStringLiteral(".radius"), QStringLiteral("the radius"), false);
                if (!(slice.radius > 0))
                    fail(where + QStringLiteral(".radius"), QStringLiteral("must be positive, got ") + describe(radius));
            }
            slice.color = color(e, where);
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
            box.color = color(e, where);
            spec.m_boxes.append(std::move(box));
        }
    }

    // A composite's element: a chart of its own, parsed with this parser's count; its errors
    // name it from the top ("chart.elements[1].elements[0]...").
    void parseChildren(const QJsonObject& chart, const QJsonArray& elements)
    {
        const auto grid = [&](const char* key, int fallback) {
            const QJsonValue v = chart.value(QString::fromLatin1(key));
            if (v.isUndefined() || v.isNull())
                return fallback;
            const double d = v.toDouble(-1);
            if (!v.isDouble() || d != std::floor(d) || d < 1 || d > kMaxGrid)
                fail(QStringLiteral("chart.") + QString::fromLatin1(key),
                     QStringLiteral("must be a whole number from 1 to %1, got ").arg(kMaxGrid) + describe(v));
            return int(d);
        };
        const int n = int(elements.size());
        const int autoColumns = std::max(1, int(std::ceil(std::sqrt(double(n)))));
        spec.m_columns = grid("columns", autoColumns);
        spec.m_rows = grid("rows", std::max(1, (n + spec.m_columns - 1) / spec.m_columns));
        for (qsizetype i = 0; i < elements.size(); ++i) {
            const QString where = elementAt(i);
            if (!elements[i].isObject())
                fail(where, QStringLiteral("must be a chart object, got ") + describe(elements[i]));
            const QJsonObject child = elements[i].toObject();
            const QString childType = child.value(QStringLiteral("type")).toString();
            if (childType == u"composite_chart" || childType == u"superchart")
                fail(where + QStringLiteral(".type"), QStringLiteral("a composite chart cannot hold another"));
            ChartSpecParser sub;
            sub.values = values;
            sub.columns = columns;
            try {
                sub.parse(child);
            } catch (const ChartError& e) {
                QString message = e.message;
                if (message.startsWith(QStringLiteral("chart")))
                    message.replace(0, 5, where);
                throw ChartError{message};
            }
            values = sub.values;
            sub.spec.m_valueTotal = sub.values;
            ChartCell cell{int(i) / spec.m_columns, int(i) % spec.m_columns, 1, 1};
            const QJsonValue layout = child.value(QStringLiteral("layout"));
            if (!layout.isUndefined() && !layout.isNull()) {
                if (!layout.isObject())
                    fail(where + QStringLiteral(".layout"), QStringLiteral("must be an object, got ") + describe(layout));
                const QJsonObject l = layout.toObject();
                const auto field = [&](const char* key, int fallback) {
                    const QJsonValue v = l.value(QString::fromLatin1(key));
                    if (v.isUndefined() || v.isNull())
                        return fallback;
                    const double d = v.toDouble(-1);
                    if (!v.isDouble() || d != std::floor(d) || d < 0 || d > kMaxGrid)
                        fail(where + QStringLiteral(".layout.") + QString::fromLatin1(key),
                             QStringLiteral("must be a whole number from 0 to %1, got ").arg(kMaxGrid) + describe(v));
                    return int(d);
                };
                cell = ChartCell{field("row", cell.row), field("column", cell.column), field("row_span", 1), field("column_span", 1)};
            }
            if (cell.rowSpan < 1 || cell.columnSpan < 1 || cell.row + cell.rowSpan > spec.m_rows
                || cell.column + cell.columnSpan > spec.m_columns)
                fail(where + QStringLiteral(".layout"), QStringLiteral("does not fit the %1 x %2 grid").arg(spec.m_rows).arg(spec.m_columns));
            spec.m_children.append(std::move(sub.spec));
            spec.m_cells.append(cell);
        }
    }

    void parse(const QJsonObject& chart)
    {
        const QJsonValue typeValue = chart.value(QStringLiteral("type"));
        if (typeValue.isUndefined())
            fail(QStringLiteral("chart"), QStringLiteral("missing \"type\" (line, scatter, bar, pie, box_and_whisker or composite_chart)"));
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
        else if (type == u"composite_chart" || type == u"superchart") // Daytona's name, E2B's
            spec.m_type = ChartType::Composite;
        else
            fail(QStringLiteral("chart.type"), QStringLiteral("must be one of line, scatter, bar, pie, box_and_whisker, composite_chart, got ") + describe(typeValue));

        spec.m_title = optionalString(chart, QStringLiteral("title"), QStringLiteral("chart"));
        spec.m_xLabel = optionalString(chart, QStringLiteral("x_label"), QStringLiteral("chart"));
        spec.m_yLabel = optionalString(chart, QStringLiteral("y_label"), QStringLiteral("chart"));

        const bool pointChart = spec.m_type == ChartType::Line || spec.m_type == ChartType::Scatter;
        const bool horizontalBars = spec.m_type == ChartType::Bar
            && chart.value(QStringLiteral("orientation")).toString() == u"horizontal";
        const QJsonValue scaleValue = chart.value(QStringLiteral("x_scale"));
        if (!scaleValue.isUndefined() && !scaleValue.isNull()) {
            // "linear"/"categorical" are what E2B-style charts send for the default scale.
            const QString s = scaleValue.toString();
            if (!scaleValue.isString() || (s != u"datetime" && s != u"linear" && s != u"categorical" && s != u"log" && s != u"symlog"))
                fail(QStringLiteral("chart.x_scale"), QStringLiteral("must be \"linear\", \"log\", \"symlog\", \"datetime\", \"categorical\" or null, got ") + describe(scaleValue));
            if (s == u"datetime" && !pointChart)
                fail(QStringLiteral("chart.x_scale"), QStringLiteral("\"datetime\" is only for line and scatter charts"));
            if ((s == u"log" || s == u"symlog") && !pointChart && !horizontalBars)
                fail(QStringLiteral("chart.x_scale"), QStringLiteral("\"%1\" is only for line and scatter charts and horizontal bars").arg(s));
            spec.m_datetimeX = s == u"datetime";
            if (s == u"log" || s == u"symlog")
                spec.m_xAxis.scale = scale(chart, QStringLiteral("x_scale"), QStringLiteral("chart"));
        }
        if (spec.m_type != ChartType::Composite) {
            const QJsonValue y = chart.value(QStringLiteral("y_scale"));
            // Horizontal bars name their categories' axis y: "categorical" is its default.
            if (!(horizontalBars && y.toString() == u"categorical"))
                spec.m_yAxis.scale = scale(chart, QStringLiteral("y_scale"), QStringLiteral("chart"));
            if (horizontalBars && spec.m_yAxis.scale != ChartScale::Linear)
                fail(QStringLiteral("chart.y_scale"), QStringLiteral("the categories of horizontal bars have no scale"));
            spec.m_y2Axis.scale = scale(chart, QStringLiteral("y2_scale"), QStringLiteral("chart"));
            spec.m_y2Label = optionalString(chart, QStringLiteral("y2_label"), QStringLiteral("chart"));
            parseAxis(chart, QStringLiteral("x"), spec.m_xAxis, spec.m_datetimeX);
            parseAxis(chart, QStringLiteral("y"), spec.m_yAxis, false);
            parseAxis(chart, QStringLiteral("y2"), spec.m_y2Axis, false);
        }
        if (spec.m_type == ChartType::Bar) {
            const QJsonValue orientation = chart.value(QStringLiteral("orientation"));
            if (!orientation.isUndefined() && !orientation.isNull() && orientation.toString() != u"vertical" && !horizontalBars)
                fail(QStringLiteral("chart.orientation"), QStringLiteral("must be \"vertical\" or \"horizontal\", got ") + describe(orientation));
            spec.m_bars.horizontal = horizontalBars;
            const QJsonValue mode = chart.value(QStringLiteral("bar_mode"));
            if (!mode.isUndefined() && !mode.isNull() && mode.toString() != u"stacked" && mode.toString() != u"grouped")
                fail(QStringLiteral("chart.bar_mode"), QStringLiteral("must be \"stacked\" or \"grouped\", got ") + describe(mode));
            spec.m_bars.grouped = mode.toString() == u"grouped";
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
        case ChartType::Composite: parseChildren(chart, elements); break;
        }
        if (spec.hasRightAxis() && !pointChart)
            fail(QStringLiteral("chart.elements"), QStringLiteral("only line and scatter series can use the right y axis"));
    }
};

ChartParseResult ChartSpec::parse(const QJsonObject& chart, const ChartColumns* columns)
{
    ChartSpecParser parser;
    parser.columns = columns;
    try {
        parser.parse(chart);
    } catch (const ChartError& e) {
        return {std::nullopt, e.message};
    }
    parser.spec.m_valueTotal = parser.values;
    return {std::move(parser.spec), QString()};
}

} // namespace sandpad
