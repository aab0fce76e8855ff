#include "core/ipynb/IpynbReader.h"

#include "core/files/FileRead.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

namespace sandpad {

QString notebookCellTypeName(NotebookCell::Type type)
{
    switch (type) {
    case NotebookCell::Type::Code: return QStringLiteral("code");
    case NotebookCell::Type::Markdown: return QStringLiteral("markdown");
    case NotebookCell::Type::Raw: return QStringLiteral("raw");
    }
    return QStringLiteral("code");
}

namespace {

QString tr(const char* text) { return QCoreApplication::translate("IpynbReader", text); }

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

std::optional<QString> IpynbReader::multiline(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    if (!value.isArray())
        return std::nullopt;
    QString text;
    for (const QJsonValue& part : value.toArray()) {
        if (!part.isString())
            return std::nullopt;
        text += part.toString();
    }
    return text;
}

namespace {

// The 1-based line of a byte offset, for a JSON error a user can find.
int lineAt(const QByteArray& bytes, int offset)
{
    return int(bytes.left(offset).count('\n')) + 1;
}

bool readCell(const QJsonValue& value, int number, NotebookCell* cell, QString* error)
{
    if (!value.isObject())
        return fail(error, tr("Cell %1 is not a JSON object.").arg(number));
    const QJsonObject o = value.toObject();
    const QString type = o.value(QStringLiteral("cell_type")).toString();
    if (type == QLatin1String("code"))
        cell->type = NotebookCell::Type::Code;
    else if (type == QLatin1String("markdown"))
        cell->type = NotebookCell::Type::Markdown;
    else if (type == QLatin1String("raw"))
        cell->type = NotebookCell::Type::Raw;
    else if (!o.contains(QStringLiteral("cell_type")))
        return fail(error, tr("Cell %1 has no cell_type.").arg(number));
    else
        return fail(error, tr("Cell %1 has an unknown type \"%2\" (a notebook's cells are code, markdown or raw).")
                               .arg(number)
                               .arg(type.isEmpty() ? QString::fromUtf8(QJsonDocument(QJsonArray{o.value(QStringLiteral("cell_type"))}).toJson(QJsonDocument::Compact)) : type));
    if (!o.contains(QStringLiteral("source")))
        return fail(error, tr("Cell %1 (%2) has no source.").arg(number).arg(type));
    const auto source = IpynbReader::multiline(o.value(QStringLiteral("source")));
    if (!source)
        return fail(error, tr("Cell %1's source is neither text nor a list of text.").arg(number));
    cell->source = *source;
    cell->id = o.value(QStringLiteral("id")).toString();
    cell->metadata = o.value(QStringLiteral("metadata")).toObject();
    cell->attachments = o.value(QStringLiteral("attachments")).toObject();
    if (cell->type == NotebookCell::Type::Code) {
        const QJsonValue outputs = o.value(QStringLiteral("outputs"));
        if (!outputs.isUndefined() && !outputs.isNull() && !outputs.isArray())
            return fail(error, tr("Cell %1's outputs are not a list.").arg(number));
        cell->outputs = outputs.toArray();
        const QJsonValue count = o.value(QStringLiteral("execution_count"));
        if (count.isDouble())
            cell->executionCount = count.toInt();
    }
    return true;
}

} // namespace

std::optional<Language> IpynbReader::kernelLanguage(const QString& rawName)
{
    const QString name = rawName.trimmed().toLower();
    if (name == QLatin1String("python") || name == QLatin1String("python3") || name == QLatin1String("python2")
        || name == QLatin1String("ipython") || name == QLatin1String("ipython3"))
        return Language::Python;
    if (name == QLatin1String("javascript") || name == QLatin1String("js") || name == QLatin1String("node")
        || name == QLatin1String("nodejs"))
        return Language::JavaScript;
    return std::nullopt;
}

std::optional<Notebook> IpynbReader::read(const QByteArray& bytes, QString* error)
{
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError) {
        fail(error, tr("This is not a notebook: the file is not valid JSON (%1 at line %2).")
                        .arg(parse.errorString())
                        .arg(lineAt(bytes, parse.offset)));
        return std::nullopt;
    }
    if (!doc.isObject()) {
        fail(error, tr("This is not a notebook: the file is JSON but not an object."));
        return std::nullopt;
    }
    const QJsonObject top = doc.object();
    const QJsonValue format = top.value(QStringLiteral("nbformat"));
    if (!format.isDouble()) {
        fail(error, tr("This is not a Jupyter notebook: it has no nbformat version."));
        return std::nullopt;
    }
    if (format.toInt() != 4) {
        fail(error, format.toInt() < 4
                        ? tr("This notebook is in nbformat %1, an old format Sandpad does not read. Open it in "
                             "Jupyter and save it again (that converts it to nbformat 4).").arg(format.toInt())
                        : tr("This notebook is in nbformat %1; Sandpad reads nbformat 4.").arg(format.toInt()));
        return std::nullopt;
    }
    const QJsonValue cells = top.value(QStringLiteral("cells"));
    if (!cells.isArray()) {
        fail(error, tr("This notebook has no list of cells."));
        return std::nullopt;
    }

    Notebook notebook;
    notebook.metadata = top.value(QStringLiteral("metadata")).toObject();
    notebook.nbformatMinor = top.value(QStringLiteral("nbformat_minor")).toInt(0);
    // The kernel's language, as Jupyter names it; a notebook that names none is Jupyter's default.
    const QJsonObject kernelspec = notebook.metadata.value(QStringLiteral("kernelspec")).toObject();
    const QJsonObject languageInfo = notebook.metadata.value(QStringLiteral("language_info")).toObject();
    QString named = kernelspec.value(QStringLiteral("language")).toString();
    if (named.isEmpty())
        named = languageInfo.value(QStringLiteral("name")).toString();
    if (named.isEmpty())
        named = kernelspec.value(QStringLiteral("name")).toString();
    if (!named.isEmpty()) {
        const auto language = kernelLanguage(named);
        if (!language) {
            const QString display = kernelspec.value(QStringLiteral("display_name")).toString();
            fail(error, tr("This notebook's kernel is %1: Sandpad runs Python and JavaScript notebooks only.")
                            .arg(display.isEmpty() || display == named ? named : tr("%1 (%2)").arg(display, named)));
            return std::nullopt;
        }
        notebook.language = *language;
    }

    const QJsonArray list = cells.toArray();
    for (int i = 0; i < list.size(); ++i) {
        NotebookCell cell;
        if (!readCell(list.at(i), i + 1, &cell, error))
            return std::nullopt;
        notebook.cells.append(std::move(cell));
    }
    return notebook;
}

std::optional<Notebook> IpynbReader::readFile(const QString& path, QString* error, FileReadControl* control)
{
    FileRead::Result file = FileRead::read(path, kMaxFileBytes, control);
    if (file.cancelled) {
        if (error)
            error->clear();
        return std::nullopt;
    }
    if (!file.ok()) {
        fail(error, file.error + u'.');
        return std::nullopt;
    }
    const QByteArray bytes = std::exchange(file.bytes, {}); // not held twice while parsing
    return read(bytes, error);
}

} // namespace sandpad
