#include "core/ipynb/IpynbWriter.h"

#include "core/ipynb/IpynbReader.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QUuid>

namespace sandpad {

namespace {

// nbformat 4.5: 1 to 64 letters, digits, '-' or '_', unique in the notebook.
bool validId(const QString& id)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_-]{1,64}$"));
    return pattern.match(id).hasMatch();
}

QString newId() { return QUuid::createUuid().toString(QUuid::WithoutBraces).left(8); }

} // namespace

QJsonArray IpynbWriter::lines(const QString& text)
{
    QJsonArray out;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype nl = text.indexOf(QLatin1Char('\n'), start);
        const qsizetype end = nl < 0 ? text.size() : nl + 1;
        out.append(text.mid(start, end - start));
        start = end;
    }
    return out;
}

QJsonObject IpynbWriter::metadataFor(const QJsonObject& metadata, Language language)
{
    QJsonObject out = metadata;
    const QJsonObject kernelspec = metadata.value(QStringLiteral("kernelspec")).toObject();
    const QJsonObject info = metadata.value(QStringLiteral("language_info")).toObject();
    const QString named = kernelspec.value(QStringLiteral("language")).toString(info.value(QStringLiteral("name")).toString());
    if (named.isEmpty() || IpynbReader::kernelLanguage(named) != language) {
        if (language == Language::JavaScript) {
            out[QStringLiteral("kernelspec")] = QJsonObject{{QStringLiteral("display_name"), QStringLiteral("JavaScript (Node.js)")},
                                                           {QStringLiteral("language"), QStringLiteral("javascript")},
                                                           {QStringLiteral("name"), QStringLiteral("javascript")}};
            out[QStringLiteral("language_info")] = QJsonObject{{QStringLiteral("name"), QStringLiteral("javascript")},
                                                              {QStringLiteral("file_extension"), QStringLiteral(".js")}};
        } else {
            out[QStringLiteral("kernelspec")] = QJsonObject{{QStringLiteral("display_name"), QStringLiteral("Python 3")},
                                                           {QStringLiteral("language"), QStringLiteral("python")},
                                                           {QStringLiteral("name"), QStringLiteral("python3")}};
            out[QStringLiteral("language_info")] = QJsonObject{{QStringLiteral("name"), QStringLiteral("python")},
                                                              {QStringLiteral("file_extension"), QStringLiteral(".py")}};
        }
    }
    return out;
}

QByteArray IpynbWriter::write(const Notebook& notebook)
{
    QJsonArray cells;
    QSet<QString> ids;
    for (const NotebookCell& cell : notebook.cells) {
        QString id = cell.id;
        while (!validId(id) || ids.contains(id))
            id = newId();
        ids.insert(id);
        QJsonObject o{{QStringLiteral("cell_type"), notebookCellTypeName(cell.type)},
                      {QStringLiteral("id"), id},
                      {QStringLiteral("metadata"), cell.metadata},
                      {QStringLiteral("source"), lines(cell.source)}};
        if (cell.type == NotebookCell::Type::Code) {
            o[QStringLiteral("outputs")] = cell.outputs;
            o[QStringLiteral("execution_count")] = cell.executionCount ? QJsonValue(*cell.executionCount) : QJsonValue();
        } else if (!cell.attachments.isEmpty()) {
            o[QStringLiteral("attachments")] = cell.attachments;
        }
        cells.append(o);
    }
    const QJsonObject top{{QStringLiteral("cells"), cells},
                          {QStringLiteral("metadata"), metadataFor(notebook.metadata, notebook.language)},
                          {QStringLiteral("nbformat"), 4},
                          {QStringLiteral("nbformat_minor"), 5}};
    return QJsonDocument(top).toJson(QJsonDocument::Indented);
}

bool IpynbWriter::writeFile(const Notebook& notebook, const QString& path, QString* error)
{
    QSaveFile file(path);
    const QByteArray bytes = write(notebook);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QCoreApplication::translate("IpynbWriter", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace sandpad
