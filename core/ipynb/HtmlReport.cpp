#include "core/ipynb/HtmlReport.h"

#include "core/ipynb/IpynbReader.h"
#include "core/ipynb/MarkdownHtml.h"
#include "core/ipynb/SafeTableHtml.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSaveFile>

namespace sandpad {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("HtmlReport", text); }

// Read leniently: an output that is not as nbformat says shows as nothing rather than failing the report.
QString multiline(const QJsonValue& value) { return IpynbReader::multiline(value).value_or(QString()); }

// Jupyter's tracebacks carry terminal colours.
QString withoutAnsi(QString text)
{
    static const QRegularExpression ansi(QStringLiteral("\x1b\\[[0-9;?]*[A-Za-z]"));
    return text.remove(ansi);
}

QString pre(const QString& cssClass, const QString& text)
{
    return QStringLiteral("<pre class=\"%1\">%2</pre>\n").arg(cssClass, withoutAnsi(text).toHtmlEscaped());
}

// A PNG as read from a notebook: decoded and encoded again, so that only base64 reaches the page.
QString pngImage(const QString& base64)
{
    const QByteArray png = QByteArray::fromBase64(base64.toLatin1());
    if (png.isEmpty())
        return {};
    return QStringLiteral("<img alt=\"%1\" src=\"data:image/png;base64,%2\">\n")
        .arg(tr("figure"), QString::fromLatin1(png.toBase64()));
}

QString outputHtml(const QJsonObject& output)
{
    const QString type = output.value(QStringLiteral("output_type")).toString();
    if (type == QLatin1String("stream")) {
        const bool err = output.value(QStringLiteral("name")).toString() == QLatin1String("stderr");
        return pre(err ? QStringLiteral("stream stderr") : QStringLiteral("stream"), multiline(output.value(QStringLiteral("text"))));
    }
    if (type == QLatin1String("error")) {
        QString text = output.value(QStringLiteral("ename")).toString() + QStringLiteral(": ")
                       + output.value(QStringLiteral("evalue")).toString();
        const QJsonArray traceback = output.value(QStringLiteral("traceback")).toArray();
        QStringList lines;
        for (const QJsonValue& line : traceback)
            lines << line.toString();
        if (!lines.isEmpty())
            text = lines.join(QLatin1Char('\n')) + (lines.join(QString()).contains(output.value(QStringLiteral("ename")).toString())
                                                        ? QString()
                                                        : QStringLiteral("\n") + text);
        return pre(QStringLiteral("error"), text);
    }
    if (type == QLatin1String("execute_result") || type == QLatin1String("display_data")) {
        const QJsonObject data = output.value(QStringLiteral("data")).toObject();
        if (data.contains(QStringLiteral("image/png"))) {
            const QString img = pngImage(multiline(data.value(QStringLiteral("image/png"))));
            if (!img.isEmpty())
                return QStringLiteral("<div class=\"figure\">") + img + QStringLiteral("</div>\n");
        }
        if (data.contains(QStringLiteral("image/svg+xml"))) {
            // As an image, where an SVG runs no script and loads nothing.
            const QByteArray svg = multiline(data.value(QStringLiteral("image/svg+xml"))).toUtf8();
            return QStringLiteral("<div class=\"figure\"><img alt=\"%1\" src=\"data:image/svg+xml;base64,%2\"></div>\n")
                .arg(tr("figure"), QString::fromLatin1(svg.toBase64()));
        }
        if (data.contains(QStringLiteral("text/html")))
            if (const auto table = SafeTableHtml::sanitize(multiline(data.value(QStringLiteral("text/html")))))
                return QStringLiteral("<div class=\"table\">") + *table + QStringLiteral("</div>\n");
        if (data.contains(QStringLiteral("text/markdown")))
            return QStringLiteral("<div class=\"markdown\">") + MarkdownHtml::toHtml(multiline(data.value(QStringLiteral("text/markdown"))))
                   + QStringLiteral("</div>\n");
        if (data.contains(QStringLiteral("text/plain")))
            return pre(type == QLatin1String("execute_result") ? QStringLiteral("result") : QStringLiteral("display"),
                       multiline(data.value(QStringLiteral("text/plain"))));
        return pre(QStringLiteral("note"), tr("[an output of a kind this report does not show: %1]")
                                               .arg(data.keys().join(QStringLiteral(", "))));
    }
    return {};
}

const char* kStyle = R"(
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d2430; background: #fff; line-height: 1.45; }
header { border-bottom: 1px solid #d5dbe3; margin-bottom: 1.5rem; }
header p { color: #5c6a7a; margin-top: 0; }
.cell { margin: 1rem 0; }
.prompt { font: 0.8rem monospace; color: #5c6a7a; }
pre { white-space: pre-wrap; word-wrap: break-word; margin: 0.25rem 0; padding: 0.5rem 0.75rem; border-radius: 4px; font-size: 0.9rem; }
pre.code { background: #f4f6f9; border: 1px solid #d5dbe3; }
pre.stream, pre.result, pre.display { background: #fff; border-left: 3px solid #9aa8ba; }
pre.stderr { background: #fff6e5; border-left-color: #c98a00; }
pre.error { background: #fdecec; border-left: 3px solid #c62828; }
pre.raw, pre.note { color: #5c6a7a; border: 1px dashed #d5dbe3; }
.figure img { max-width: 100%; height: auto; }
.table { overflow-x: auto; }
.table table { border-collapse: collapse; font-size: 0.85rem; margin: 0.25rem 0; }
.table th, .table td { border: 1px solid #d5dbe3; padding: 0.2rem 0.5rem; text-align: right; }
.table th { background: #f4f6f9; }
.markdown code, pre code { font-family: monospace; }
.markdown code { background: #f4f6f9; padding: 0 0.2em; border-radius: 3px; }
blockquote { border-left: 3px solid #d5dbe3; margin-left: 0; padding-left: 1rem; color: #3a4656; }
)";

} // namespace

QString HtmlReport::render(const Notebook& notebook, const QString& title)
{
    QString body;
    for (const NotebookCell& cell : notebook.cells) {
        if (cell.type == NotebookCell::Type::Markdown) {
            body += QStringLiteral("<section class=\"cell markdown\">\n") + MarkdownHtml::toHtml(cell.source)
                    + QStringLiteral("</section>\n");
            continue;
        }
        if (cell.type == NotebookCell::Type::Raw) {
            body += QStringLiteral("<section class=\"cell\">\n") + pre(QStringLiteral("raw"), cell.source)
                    + QStringLiteral("</section>\n");
            continue;
        }
        body += QStringLiteral("<section class=\"cell code\">\n");
        body += QStringLiteral("<div class=\"prompt\">%1</div>\n")
                    .arg(cell.executionCount ? tr("In [%1]:").arg(*cell.executionCount) : tr("In [ ]:"));
        body += pre(QStringLiteral("code"), cell.source);
        for (const QJsonValue& output : cell.outputs)
            body += outputHtml(output.toObject());
        body += QStringLiteral("</section>\n");
    }
    const QString language = notebook.language == Language::JavaScript ? tr("JavaScript") : tr("Python");
    return QStringLiteral("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
                          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n"
                          "<title>%1</title>\n<style>%2</style>\n</head>\n<body>\n"
                          "<header><h1>%1</h1><p>%3</p></header>\n%4</body>\n</html>\n")
        .arg(title.toHtmlEscaped(), QString::fromLatin1(kStyle),
             tr("%1 · exported from Sandpad on %2").arg(language, QDateTime::currentDateTimeUtc().toString(Qt::ISODate)).toHtmlEscaped(),
             body);
}

bool HtmlReport::writeFile(const Notebook& notebook, const QString& title, const QString& path, QString* error)
{
    QSaveFile file(path);
    const QByteArray bytes = render(notebook, title).toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace sandpad
