#pragma once

#include "core/documents/DocumentStore.h"

#include <QAbstractTableModel>

namespace sandpad {

// The documents of a workspace as a table: title, language, revision count, last change.
// SortRole gives raw values (numbers, times) for a QSortFilterProxyModel.
class DocumentListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TitleColumn, LanguageColumn, RevisionsColumn, UpdatedColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1, SortRole, DeletedRole };

    explicit DocumentListModel(QObject* parent = nullptr);

    void setDocuments(const QList<Document>& documents);
    const QList<Document>& documents() const { return m_documents; }
    int rowOf(const QString& documentId) const;   // -1 when not listed
    const Document* documentAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<Document> m_documents;
};

} // namespace sandpad
