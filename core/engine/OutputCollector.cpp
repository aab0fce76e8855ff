#include "core/engine/OutputCollector.h"

#include "core/charts/PngCheck.h"
#include "core/runtime/JsonShape.h"
#include "core/runtime/ResultLimits.h"
#include "core/runtime/RuntimeProgram.h"
#include "core/runtime/WrapperOutputs.h"
#include "core/sandbox/Sandbox.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace sandpad {

namespace {

using L = ResultLimits;

struct Totals {
    qint64 pngBytes = 0, pngPixels = 0, cells = 0;
};

// The PNG named by `file`, checked; an empty string on success, else why it is refused.
QString readPng(const RuntimeProgram& program, Sandbox& sandbox, const QString& file, Totals& totals, QByteArray* png)
{
    const auto bytes = sandbox.readFile(program.chartPath(file));
    if (!bytes)
        return QStringLiteral("its file %1 is missing").arg(file);
    if (totals.pngBytes + bytes->size() > L::pngBytesPerRun)
        return QStringLiteral("the run's PNGs would be more than %1; the limit is %1 per run").arg(L::bytesText(L::pngBytesPerRun));
    const PngCheck::Result check = PngCheck::check(*bytes, std::min(L::pngPixels, L::pngPixelsPerRun - totals.pngPixels));
    if (check.tooLarge)
        return QStringLiteral("the image is %1 x %2 pixels, over the limit (%3 pixels a side, %4 an image, %5 per run)")
            .arg(check.width)
            .arg(check.height)
            .arg(L::countText(L::pngMaxSide), L::countText(L::pngPixels), L::countText(L::pngPixelsPerRun));
    if (!check.ok)
        return QStringLiteral("%1 is not a valid PNG: %2").arg(file, check.error);
    totals.pngBytes += bytes->size();
    totals.pngPixels += check.pixels();
    *png = *bytes;
    return {};
}

QString readTable(const RuntimeProgram& program, Sandbox& sandbox, const WrapperOutputRef& ref, Totals& totals, RunOutput& out)
{
    // The declared size first: nothing is read for a table the run may not keep.
    if (ref.columns > L::tableColumns)
        return QStringLiteral("it has %1 columns; the limit is %2").arg(L::countText(ref.columns), L::countText(L::tableColumns));
    if (ref.rows > L::tableRows)
        return QStringLiteral("it sends %1 rows; the limit is %2").arg(L::countText(ref.rows), L::countText(L::tableRows));
    const qint64 cells = ref.rows * ref.columns;
    if (totals.cells + cells > L::tableCellsPerRun)
        return QStringLiteral("it has %1 cells and the run's tables may have %2 (%3 left)")
            .arg(L::countText(cells), L::countText(L::tableCellsPerRun), L::countText(L::tableCellsPerRun - totals.cells));
    const auto bytes = sandbox.readFile(program.chartPath(ref.file));
    if (!bytes)
        return QStringLiteral("its file %1 is missing").arg(ref.file);
    if (bytes->size() > L::tableFileBytes)
        return QStringLiteral("its file is %1; the limit is %2").arg(L::bytesText(bytes->size()), L::bytesText(L::tableFileBytes));
    // What the declared size allows, before parsing: rows, index, columns, dtypes and cells.
    const JsonShape::Limits shapeLimits{4, ref.rows + 10, 10, cells + 2 * ref.rows + 2 * ref.columns + 20};
    if (!JsonShape::scan(*bytes, shapeLimits).within(shapeLimits))
        return QStringLiteral("its file holds more than the %1 rows x %2 columns it declares").arg(ref.rows).arg(ref.columns);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(*bytes, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return QStringLiteral("its file is not a JSON object (%1)").arg(error.errorString());
    if (!out.tableFromJson(doc.object()))
        return QStringLiteral("its file is not a table: it needs \"columns\", \"dtypes\", \"index\" and \"rows\" as lists of "
                              "strings, each row as long as \"columns\"");
    if (out.rows.size() != ref.rows || out.columns.size() != ref.columns)
        return QStringLiteral("its file has %1 rows x %2 columns, not the %3 x %4 it declares")
            .arg(out.rows.size()).arg(out.columns.size()).arg(ref.rows).arg(ref.columns);
    out.totalRows = std::max(out.totalRows, ref.totalRows);
    totals.cells += cells;
    return {};
}

} // namespace

QList<RunOutput> OutputCollector::collect(const RuntimeProgram& program, Sandbox& sandbox,
                                          const QList<WrapperOutputRef>& refs, qint64 pngBytes, qint64 pngPixels)
{
    QList<RunOutput> outputs;
    Totals totals{pngBytes, pngPixels, 0};
    for (qsizetype i = 0; i < refs.size(); ++i) {
        const WrapperOutputRef& ref = refs[i];
        if (!ref.problem.isEmpty()) {
            outputs << RunOutput::notice(ref.problem, ref.stdoutOffset);
            continue;
        }
        RunOutput out;
        out.type = RunOutput::typeFromName(ref.type).value_or(RunOutput::Type::Text);
        out.stdoutBytes = ref.stdoutOffset;
        QString why;
        switch (out.type) {
        case RunOutput::Type::Text:
        case RunOutput::Type::Markdown:
        case RunOutput::Type::Html:
        case RunOutput::Type::Svg:
            out.text = ref.text;
            break;
        case RunOutput::Type::Math:
            out.text = ref.latex;
            out.plain = ref.text;
            // A picture that fails keeps the math as text: it is only a rendering.
            if (!ref.file.isEmpty() && !readPng(program, sandbox, ref.file, totals, &out.png).isEmpty())
                out.png.clear();
            break;
        case RunOutput::Type::Image:
            out.plain = ref.text;
            why = readPng(program, sandbox, ref.file, totals, &out.png);
            break;
        case RunOutput::Type::Table:
            out.plain = ref.text;
            why = readTable(program, sandbox, ref, totals, out);
            break;
        }
        if (!why.isEmpty()) {
            const QString what = out.type == RunOutput::Type::Table ? QStringLiteral("table") : QStringLiteral("image");
            QString notice = QStringLiteral("This %1 (output %2) is not shown: %3.").arg(what).arg(i + 1).arg(why);
            if (!ref.text.isEmpty())
                notice += u'\n' + ref.text.left(4000); // its text form, when the wrapper sent one
            outputs << RunOutput::notice(notice, ref.stdoutOffset);
            continue;
        }
        outputs << out;
    }
    return outputs;
}

} // namespace sandpad
