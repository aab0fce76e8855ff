#include "core/ipynb/CellOutputs.h"

#include "core/ipynb/IpynbWriter.h"

#include <QCoreApplication>

namespace sandpad {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("CellOutputs", text); }

QJsonValue countOf(const ExecutionResult& result)
{
    return result.executionCount ? QJsonValue(*result.executionCount) : QJsonValue();
}

QString chartTitle(const RunChart& chart)
{
    return chart.spec.value(QStringLiteral("title")).toString();
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
    if (!result.stdoutText.isEmpty())
        outputs.append(stream(QStringLiteral("stdout"), result.stdoutText));
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
