#include "ui/documents/DocumentListModel.h"

#include <QLocale>

namespace sandpad {

DocumentListModel::DocumentListModel(QObject* parent) : QAbstractTableModel(parent) {}

void DocumentListModel::setDocuments(const QList<Document>& documents)
{
    beginResetModel();
    m_documents = documents;
    endResetModel();
}

int DocumentListModel::rowOf(const QString& documentId) const
{
    for (int i = 0; i < m_documents.size(); ++i)
        if (m_documents[i].id == documentId)
            return i;
    return -1;
}

const Document* DocumentListModel::documentAt(int row) const
{
    return row >= 0 && row < m_documents.size() ? &m_documents[row] : nullptr;
}

int DocumentListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_documents.size());
}

int DocumentListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

static QString languageLabel(const QString& language)
{
    if (language == QLatin1String("python"))
        return QStringLiteral("Python");
    if (language == QLatin1String("javascript"))
        return QStringLiteral("JavaScript");
    return DocumentListModel::tr("unsupported");
}

QVariant DocumentListModel::data(const QModelIndex& index, int role) const
{
    const Document* d = index.isValid() ? documentAt(index.row()) : nullptr;
    if (!d)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TitleColumn: return d->title;
        case LanguageColumn: return languageLabel(d->language);
        case RevisionsColumn: return d->revisionCount;
        // Compact and sortable; the full ISO time is the tooltip.
        case UpdatedColumn: return d->updatedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == UpdatedColumn)
            return d->updatedAt.toLocalTime().toString(Qt::ISODate);
        if (index.column() == TitleColumn)
            return d->deleted ? tr("%1 (in the trash)").arg(d->title) : d->title;
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == RevisionsColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case IdRole:
        return d->id;
    case DeletedRole:
        return d->deleted;
    case SortRole:
        switch (index.column()) {
        case TitleColumn: return d->title.toLower();
        case LanguageColumn: return d->language;
        case RevisionsColumn: return d->revisionCount;
        case UpdatedColumn: return d->updatedAt;
        default: return {};
        }
    default:
        return {};
    }
}

QVariant DocumentListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn: return tr("Title");
    case LanguageColumn: return tr("Language");
    case RevisionsColumn: return tr("Revisions");
    case UpdatedColumn: return tr("Last change");
    default: return {};
    }
}

} // namespace sandpad
