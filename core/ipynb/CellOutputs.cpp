#include "core/ipynb/CellOutputs.h"

#include "core/ipynb/IpynbWriter.h"

#include <QCoreApplication>
#include <algorithm>

namespace sandpad {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("CellOutputs", text); }

QJsonValue countOf(const ExecutionResult& result)
{
    return result.executionCount ? QJsonValue(*result.executionCount) : QJsonValue();
}

QString chartTitle(const RunChart& chart)
{
    return chart.title();
}

QJsonObject displayData(const QJsonObject& data)
{
    return {{QStringLiteral("output_type"), QStringLiteral("display_data")},
            {QStringLiteral("data"), data},
            {QStringLiteral("metadata"), QJsonObject{}}};
}

// A table as Jupyter's DataFrame HTML looks: a plain <table>, every text escaped.
QString tableHtml(const RunOutput& table)
{
    QString html = QStringLiteral("<table>\n<thead>\n<tr><th>%1</th>").arg(table.indexName.toHtmlEscaped());
    for (const QString& column : table.columns)
        html += QStringLiteral("<th>%1</th>").arg(column.toHtmlEscaped());
    html += QStringLiteral("</tr>\n</thead>\n<tbody>\n");
    for (qsizetype r = 0; r < table.rows.size(); ++r) {
        html += QStringLiteral("<tr><th>%1</th>").arg(table.index.value(r).toHtmlEscaped());
        for (const QString& cell : table.rows[r])
            html += QStringLiteral("<td>%1</td>").arg(cell.toHtmlEscaped());
        html += QStringLiteral("</tr>\n");
    }
    return html + QStringLiteral("</tbody>\n</table>\n");
}

// A rich output (display(), a DataFrame result) as the display_data Jupyter would have made.
QJsonObject richOutput(const RunOutput& o)
{
    using T = RunOutput::Type;
    QJsonObject data{{QStringLiteral("text/plain"), IpynbWriter::lines(o.type == T::Text ? o.text : o.textForm())}};
    switch (o.type) {
    case T::Text:
        return CellOutputs::stream(QStringLiteral("stdout"), o.text);
    case T::Table:
        data.insert(QStringLiteral("text/html"), IpynbWriter::lines(tableHtml(o)));
        break;
    case T::Math:
        data.insert(QStringLiteral("text/latex"), IpynbWriter::lines(QStringLiteral("$") + o.text + QStringLiteral("$")));
        if (!o.png.isEmpty())
            data.insert(QStringLiteral("image/png"), QString::fromLatin1(o.png.toBase64()));
        break;
    case T::Image:
        data.insert(QStringLiteral("image/png"), QString::fromLatin1(o.png.toBase64()));
        break;
    case T::Svg:
        data.insert(QStringLiteral("image/svg+xml"), IpynbWriter::lines(o.text));
        break;
    case T::Markdown:
        data.insert(QStringLiteral("text/markdown"), IpynbWriter::lines(o.text));
        break;
    case T::Html:
        data.insert(QStringLiteral("text/html"), IpynbWriter::lines(o.text)); // as the run gave it
        break;
    }
    return displayData(data);
}

} // namespace

QJsonObject CellOutputs::stream(const QString& name, const QString& text)
{
    return {{QStringLiteral("output_type"), QStringLiteral("stream")},
            {QStringLiteral("name"), name},
            {QStringLiteral("text"), IpynbWriter::lines(text)}};
}

QJsonObject CellOutputs::displayPng(const QByteArray& png, const QString& textNote)
{
    return {{QStringLiteral("output_type"), QStringLiteral("display_data")},
            {QStringLiteral("data"),
             QJsonObject{{QStringLiteral("image/png"), QString::fromLatin1(png.toBase64())},
                         {QStringLiteral("text/plain"), IpynbWriter::lines(textNote)}}},
            {QStringLiteral("metadata"), QJsonObject{}}};
}

QJsonArray CellOutputs::fromResult(const ExecutionResult& result)
{
    QJsonArray outputs;
    // stdout in pieces, with each rich output where the program displayed it.
    qsizetype printed = 0;
    for (const RunOutput& rich : result.outputs) {
        const qsizetype at = std::max(printed, rich.textPosition(result.stdoutText));
        if (at > printed)
            outputs.append(stream(QStringLiteral("stdout"), result.stdoutText.mid(printed, at - printed)));
        printed = at;
        outputs.append(richOutput(rich));
    }
    if (printed < result.stdoutText.size())
        outputs.append(stream(QStringLiteral("stdout"), result.stdoutText.mid(printed)));
    if (!result.stderrText.isEmpty())
        outputs.append(stream(QStringLiteral("stderr"), result.stderrText));
    for (const RunChart& chart : result.charts) {
        const QString title = chartTitle(chart);
        if (!chart.png.isEmpty()) {
            outputs.append(displayPng(chart.png, title.isEmpty() ? tr("<Figure>") : tr("<Figure: %1>").arg(title)));
        } else {
            // An interactive chart without a PNG: Jupyter has nothing to draw it with.
            const QString note = title.isEmpty() ? tr("[an interactive chart: open it in Sandpad]")
                                                 : tr("[interactive chart \"%1\": open it in Sandpad]").arg(title);
            outputs.append(QJsonObject{{QStringLiteral("output_type"), QStringLiteral("display_data")},
                                       {QStringLiteral("data"), QJsonObject{{QStringLiteral("text/plain"), IpynbWriter::lines(note)}}},
                                       {QStringLiteral("metadata"), QJsonObject{}}});
        }
    }
    if (result.result)
        outputs.append(QJsonObject{{QStringLiteral("output_type"), QStringLiteral("execute_result")},
                                   {QStringLiteral("data"), QJsonObject{{QStringLiteral("text/plain"), IpynbWriter::lines(*result.result)}}},
                                   {QStringLiteral("metadata"), QJsonObject{}},
                                   {QStringLiteral("execution_count"), countOf(result)}});
    if (result.error) {
        QJsonArray traceback;
        for (const QString& line : result.error->traceback.split(QLatin1Char('\n')))
            if (!line.isEmpty())
                traceback.append(line); // Jupyter's traceback: one entry per line, no newlines
        outputs.append(QJsonObject{{QStringLiteral("output_type"), QStringLiteral("error")},
                                   {QStringLiteral("ename"), result.error->name},
                                   {QStringLiteral("evalue"), result.error->value},
                                   {QStringLiteral("traceback"), traceback}});
    } else if (result.status == RunStatus::Timeout || result.status == RunStatus::Cancelled
               || result.status == RunStatus::InfrastructureError) {
        const QString why = result.status == RunStatus::Timeout     ? tr("the run timed out")
                            : result.status == RunStatus::Cancelled ? tr("the run was stopped")
                                                                    : tr("the sandbox failed");
        outputs.append(stream(QStringLiteral("stderr"), tr("[Sandpad: %1]\n").arg(why)));
    }
    return outputs;
}

} // namespace sandpad
