// ChartSpec's accessors and its JSON; parse() and its validation are in ChartSpecParse.cpp.
#include "core/charts/ChartSpec.h"

#include "core/charts/ChartColumns.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <algorithm>
#include <charconv>
#include <cmath>

namespace sandpad {

namespace {

QJsonValue numberOrNull(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

QJsonArray errorsJson(const ChartErrors& e)
{
    QJsonArray out;
    for (size_t i = 0; i < e.minus.size(); ++i) {
        if (std::isnan(e.minus[i]) && std::isnan(e.plus[i]))
            out.append(QJsonValue());
        else
            out.append(QJsonArray{numberOrNull(e.minus[i]), numberOrNull(e.plus[i])});
    }
    return out;
}

// The axis fields that differ from the defaults.
void insertAxis(QJsonObject& o, const QString& p, const ChartAxis& a)
{
    if (a.scale == ChartScale::Log)
        o.insert(p + QStringLiteral("_scale"), QStringLiteral("log"));
    if (a.scale == ChartScale::Symlog) {
        o.insert(p + QStringLiteral("_scale"), QStringLiteral("symlog"));
        o.insert(p + QStringLiteral("_linthresh"), a.linthresh);
    }
    if (a.limits)
        o.insert(p + QStringLiteral("_lim"), QJsonArray{a.limits->first, a.limits->second});
    if (!a.ticks.empty()) {
        QJsonArray ticks;
        for (double t : a.ticks)
            ticks.append(t);
        o.insert(p + QStringLiteral("_ticks"), ticks);
    }
    if (!a.tickLabels.isEmpty())
        o.insert(p + QStringLiteral("_tick_labels"), QJsonArray::fromStringList(a.tickLabels));
    if (!a.unit.isEmpty())
        o.insert(p + QStringLiteral("_unit"), a.unit);
}

// A value as QJsonDocument writes QJsonValue(v): null when not finite, a whole number as an
// integer, else the shortest text that reads back the same.
void appendNumber(QByteArray& out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";
    } else if (v == std::floor(v) && std::abs(v) <= 9007199254740992.0) { // 2^53: exact in both
        char text[24];
        const auto end = std::to_chars(text, text + sizeof text, qint64(v)).ptr;
        out.append(text, end - text);
    } else if (v == std::floor(v)) { // rare: as Qt decides (an integer or not, by version)
        const QByteArray text = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
        out.append(text.constData() + 1, text.size() - 2);
    } else {
        out += QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
    }
}

// `"text"` as QJsonDocument writes a string.
QByteArray quoted(const QString& text)
{
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}

} // namespace

// The series whose points toJsonText() writes itself, in the order their markers were inserted.
struct ChartSpec::TextPlaceholders {
    QString nonce; // random: no text of the chart holds it (checked by counting)
    std::vector<std::pair<const ChartSpec*, const ChartSeries*>> series;

    QString marker(qsizetype index) const { return nonce + QString::number(index); }
};

QString ChartSpec::typeName() const
{
    switch (m_type) {
    case ChartType::Line: return QStringLiteral("line");
    case ChartType::Scatter: return QStringLiteral("scatter");
    case ChartType::Bar: return QStringLiteral("bar");
    case ChartType::Pie: return QStringLiteral("pie");
    case ChartType::BoxAndWhisker: return QStringLiteral("box_and_whisker");
    case ChartType::Composite: return QStringLiteral("composite_chart");
    }
    return QString();
}

bool ChartSpec::hasRightAxis() const
{
    for (const ChartSeries& s : m_series)
        if (s.rightAxis)
            return true;
    return false;
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
    case ChartType::Composite:
        for (const ChartSpec& c : m_children)
            if (!c.isEmpty())
                return false;
        return true;
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
        for (const QJsonValue& e : elements) {
            const QJsonObject o = e.toObject();
            // Binary columns count as their declared length (x and y have the same: parse checks).
            const QJsonValue x = o.value(QStringLiteral("x"));
            const double declared = x.isObject() ? x.toObject().value(QStringLiteral("length")).toDouble() : 0;
            n += declared > 0 ? qsizetype(std::min(declared, double(maxValues) + 1)) : 0;
            n += o.value(QStringLiteral("points")).toArray().size() + o.value(QStringLiteral("error_x")).toArray().size()
                 + o.value(QStringLiteral("error_y")).toArray().size();
        }
        return n;
    }
    if (type == u"composite_chart" || type == u"superchart") {
        qsizetype n = 0;
        for (const QJsonValue& e : elements)
            n += valueCount(e.toObject()); // one level: a composite in a composite is refused
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

qsizetype ChartSpec::elementCount(const QJsonObject& chart)
{
    const QString type = chart.value(QStringLiteral("type")).toString();
    const QJsonArray elements = chart.value(QStringLiteral("elements")).toArray();
    if (type != u"composite_chart" && type != u"superchart")
        return elements.size();
    qsizetype n = 0;
    for (const QJsonValue& e : elements)
        n += 1 + e.toObject().value(QStringLiteral("elements")).toArray().size();
    return n;
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

QByteArray ChartSpec::toJsonText() const
{
    TextPlaceholders placeholders;
    const quint64 random[2] = {QRandomGenerator::global()->generate64(), QRandomGenerator::global()->generate64()};
    placeholders.nonce = QStringLiteral("sandpad-points-%1%2-").arg(random[0], 16, 16, QChar(u'0')).arg(random[1], 16, 16, QChar(u'0'));
    const QByteArray head = QJsonDocument(toJson(QList<QJsonArray>(), nullptr, &placeholders)).toJson(QJsonDocument::Compact);
    const QByteArray nonce = '"' + placeholders.nonce.toLatin1();
    if (head.count(nonce) != qsizetype(placeholders.series.size())) // cannot happen; then the tree
        return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
    qsizetype points = 0;
    for (const auto& [chart, series] : placeholders.series)
        points += qsizetype(series->xs.size());
    QByteArray out;
    out.reserve(head.size() + points * 44);
    qsizetype from = 0;
    for (qsizetype k = 0; k < qsizetype(placeholders.series.size()); ++k) {
        const QByteArray marker = '"' + placeholders.marker(k).toLatin1() + '"';
        const qsizetype at = head.indexOf(marker, from);
        if (at < 0) // not in order: cannot happen either
            return QJsonDocument(toJson()).toJson(QJsonDocument::Compact);
        out.append(head.constData() + from, at - from);
        const auto& [chart, series] = placeholders.series[size_t(k)];
        QList<QByteArray> categories; // each x category's text, once
        for (const QString& category : chart->m_xCategories)
            categories << quoted(category);
        out += '[';
        for (size_t i = 0; i < series->xs.size(); ++i) {
            out += i ? ",[" : "[";
            if (chart->categoryX())
                out += categories.at(qsizetype(series->xs[i]));
            else
                appendNumber(out, series->xs[i]);
            out += ',';
            appendNumber(out, series->ys[i]);
            out += ']';
        }
        out += ']';
        from = at + marker.size();
    }
    out.append(head.constData() + from, head.size() - from);
    return out;
}

QJsonObject ChartSpec::toPacked(ChartColumns& columns) const
{
    return toJson(QList<QJsonArray>(), &columns);
}

QJsonObject ChartSpec::toJson(const QList<QJsonArray>& sharedPoints, ChartColumns* columns,
                              TextPlaceholders* placeholders) const
{
    QJsonObject o;
    o.insert(QStringLiteral("type"), typeName());
    o.insert(QStringLiteral("title"), m_title);
    if (!m_xLabel.isEmpty())
        o.insert(QStringLiteral("x_label"), m_xLabel);
    if (!m_yLabel.isEmpty())
        o.insert(QStringLiteral("y_label"), m_yLabel);
    if (m_type != ChartType::Composite) {
        insertAxis(o, QStringLiteral("x"), m_xAxis);
        insertAxis(o, QStringLiteral("y"), m_yAxis);
        if (hasRightAxis()) {
            insertAxis(o, QStringLiteral("y2"), m_y2Axis);
            if (!m_y2Label.isEmpty())
                o.insert(QStringLiteral("y2_label"), m_y2Label);
        }
    }
    QJsonArray elements;
    switch (m_type) {
    case ChartType::Line:
    case ChartType::Scatter:
        if (m_datetimeX)
            o.insert(QStringLiteral("x_scale"), QStringLiteral("datetime"));
        else if (!o.contains(QStringLiteral("x_scale")))
            o.insert(QStringLiteral("x_scale"), QJsonValue());
        for (qsizetype k = 0; k < m_series.size(); ++k) {
            const ChartSeries& s = m_series[k];
            QJsonObject element{{QStringLiteral("label"), s.label}};
            if (columns && !categoryX()) {
                element.insert(QStringLiteral("x"), columns->add(s.xs));
                element.insert(QStringLiteral("y"), columns->add(s.ys));
            } else if (placeholders) {
                element.insert(QStringLiteral("points"), placeholders->marker(qsizetype(placeholders->series.size())));
                placeholders->series.emplace_back(this, &s);
            } else if (k < sharedPoints.size() && !sharedPoints[k].isEmpty()) {
                element.insert(QStringLiteral("points"), sharedPoints[k]);
            } else {
                QJsonArray points;
                for (size_t i = 0; i < s.xs.size(); ++i) {
                    const QJsonValue x = categoryX() ? QJsonValue(m_xCategories.at(qsizetype(s.xs[i])))
                                                     : QJsonValue(s.xs[i]);
                    points.append(QJsonArray{x, numberOrNull(s.ys[i])});
                }
                element.insert(QStringLiteral("points"), points);
            }
            if (!s.color.isEmpty())
                element.insert(QStringLiteral("color"), s.color);
            static const char* const modes[] = {nullptr, "lines", "markers", "lines+markers"};
            if (s.mode != ChartSeries::Mode::Default)
                element.insert(QStringLiteral("mode"), QString::fromLatin1(modes[int(s.mode)]));
            if (s.rightAxis)
                element.insert(QStringLiteral("y_axis"), QStringLiteral("right"));
            if (!s.errorX.isEmpty())
                element.insert(QStringLiteral("error_x"), errorsJson(s.errorX));
            if (!s.errorY.isEmpty())
                element.insert(QStringLiteral("error_y"), errorsJson(s.errorY));
            elements.append(element);
        }
        break;
    case ChartType::Bar:
        if (m_bars.horizontal)
            o.insert(QStringLiteral("orientation"), QStringLiteral("horizontal"));
        if (m_bars.grouped)
            o.insert(QStringLiteral("bar_mode"), QStringLiteral("grouped"));
        for (qsizetype g = 0; g < m_bars.groups.size(); ++g)
            for (qsizetype c = 0; c < m_bars.categories.size(); ++c) {
                const double v = m_bars.values[size_t(g)][size_t(c)];
                if (std::isnan(v))
                    continue;
                QJsonObject bar{{QStringLiteral("label"), m_bars.categories[c]},
                                {QStringLiteral("group"), m_bars.groups[g]},
                                {QStringLiteral("value"), v}};
                if (!m_bars.colors.value(g).isEmpty())
                    bar.insert(QStringLiteral("color"), m_bars.colors.value(g));
                if (!m_bars.errors.empty()) {
                    const ChartErrors& e = m_bars.errors[size_t(g)];
                    if (!std::isnan(e.minus[size_t(c)]) || !std::isnan(e.plus[size_t(c)]))
                        bar.insert(QStringLiteral("error"), QJsonArray{numberOrNull(e.minus[size_t(c)]), numberOrNull(e.plus[size_t(c)])});
                }
                elements.append(bar);
            }
        break;
    case ChartType::Pie:
        for (const ChartSlice& s : m_slices) {
            QJsonObject slice{{QStringLiteral("label"), s.label}, {QStringLiteral("angle"), s.value},
                              {QStringLiteral("radius"), s.radius}};
            if (!s.color.isEmpty())
                slice.insert(QStringLiteral("color"), s.color);
            elements.append(slice);
        }
        break;
    case ChartType::BoxAndWhisker:
        for (const ChartBox& b : m_boxes) {
            QJsonArray outliers;
            for (double v : b.outliers)
                outliers.append(v);
            QJsonObject box{{QStringLiteral("label"), b.label},
                            {QStringLiteral("min"), b.min},
                            {QStringLiteral("first_quartile"), b.firstQuartile},
                            {QStringLiteral("median"), b.median},
                            {QStringLiteral("third_quartile"), b.thirdQuartile},
                            {QStringLiteral("max"), b.max},
                            {QStringLiteral("outliers"), outliers}};
            if (!b.color.isEmpty())
                box.insert(QStringLiteral("color"), b.color);
            elements.append(box);
        }
        break;
    case ChartType::Composite:
        o.insert(QStringLiteral("rows"), m_rows);
        o.insert(QStringLiteral("columns"), m_columns);
        for (qsizetype i = 0; i < m_children.size(); ++i) {
            QJsonObject child = m_children[i].toJson(QList<QJsonArray>(), columns, placeholders);
            const ChartCell& c = m_cells[i];
            child.insert(QStringLiteral("layout"), QJsonObject{{QStringLiteral("row"), c.row},
                                                               {QStringLiteral("column"), c.column},
                                                               {QStringLiteral("row_span"), c.rowSpan},
                                                               {QStringLiteral("column_span"), c.columnSpan}});
            elements.append(child);
        }
        break;
    }
    o.insert(QStringLiteral("elements"), elements);
    return o;
}

} // namespace sandpad
