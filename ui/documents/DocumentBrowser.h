#pragma once

#include "core/documents/DocumentStore.h"
#include "core/language/Language.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <optional>

class QAction;
class QDialog;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTimer;
class QToolButton;

namespace sandpad {

class DiffView;
class DocumentListModel;
class Executor;
class UsageLedger;

// The saved-documents dock: documents (search by title and content, sortable), the selected
// document's revision timeline (newest first) and its run history. It never runs or edits code
// itself: it asks the main window through signals (openForEditing, openReadOnly,
// runRevisionRequested). Every action is a button, a context-menu entry and a key, and also a
// public method (the interactive variants only add a prompt).
class DocumentBrowser : public QWidget {
    Q_OBJECT
public:
    // store may be null (no workspace: everything disabled); ledger may be null (no run history).
    explicit DocumentBrowser(DocumentStore* store, UsageLedger* ledger, QWidget* parent = nullptr);
    ~DocumentBrowser() override;

    // Another workspace was opened: show its documents.
    void setServices(DocumentStore* store, UsageLedger* ledger);
    // Optional: refresh the run history when a run of the shown document finishes (the one
    // refresh a document run makes).
    void setExecutor(Executor* executor);

    QString currentDocumentId() const;
    QStringList selectedRevisionIds() const;            // in timeline order, newest first
    void selectRevisions(const QStringList& revisionIds);
    bool showingTrash() const;
    void setShowTrash(bool trash);
    void setSearchText(const QString& text);            // applied at once (the field debounces)

    // The actions. Each returns false (and emits errorOccurred) when it cannot be done.
    bool openHeadForEditing();                           // the current document's head
    bool openSelectedRevision();                         // read-only
    DiffView* diffSelectedRevisions();                   // two selected, or one + head
    bool restoreSelectedRevision();                      // appends a copy as the new head
    bool runSelectedRevision();                          // the selected revision, or the head
    bool renameDocument(const QString& documentId, const QString& title);
    bool deleteDocument(const QString& documentId);      // soft delete, to the trash
    bool restoreFromTrash(const QString& documentId);
    std::optional<QString> importFile(const QString& path);     // the new document's id
    bool exportRevision(const QString& revisionId, const QString& path);

    // For tests and the main window.
    QSortFilterProxyModel* documentView() const { return m_proxy; }
    DocumentListModel* documentModel() const { return m_model; }
    QTableWidget* revisionTable() const { return m_revisionTable; }
    QTableWidget* runTable() const { return m_runTable; }
    QString statusText() const;

    // A rename to another language's extension asks: make the document that language, keep its
    // language (the extension put back), or cancel. Tests answer it directly.
    enum class LanguageChoice { Change, Keep, Cancel };
    using LanguagePrompt = std::function<LanguageChoice(Language from, Language to)>;
    void setLanguagePrompt(LanguagePrompt prompt) { m_languagePrompt = std::move(prompt); }
    // The title a rename from oldTitle to newTitle ends at (oldTitle: cancelled).
    QString titleForRename(const QString& oldTitle, const QString& newTitle);

public slots:
    void refresh();
    void selectDocument(const QString& documentId);
    // Interactive variants: ask for a title, a file or a confirmation first.
    void renameCurrentInteractive();
    void importInteractive();
    void exportInteractive();

signals:
    void openForEditing(const QString& documentId, const QString& title, const QString& content,
                        const QString& headRevisionId);
    void openReadOnly(const QString& title, const QString& content, const QString& revisionId);
    void runRevisionRequested(const QString& documentId, const QString& revisionId);
    void diffOpened(sandpad::DiffView* view);
    void documentsChanged();                 // something here renamed, deleted, restored, imported
    void errorOccurred(const QString& message);
    void runsReloaded();                     // the run history table was read again

private:
    void buildUi();
    void reloadDocuments();
    void loadDetails();
    void reloadRevisions();
    void reloadRuns();
    void updateActions();
    bool fail(const QString& message);
    void info(const QString& message);
    std::optional<Revision> loadRevision(const QString& revisionId) const; // with content
    QString revisionLabel(const QString& revisionId) const;   // "#3 (1a2b3c4d)"

    QPointer<Executor> m_executor;
    DocumentStore* m_store;
    UsageLedger* m_ledger;
    QString m_documentId;                 // the document whose details are shown
    QList<Revision> m_revisions;          // its revisions, newest first
    bool m_updating = false;

    DocumentListModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_search;
    QTimer* m_searchTimer;
    QToolButton* m_trashButton;
    QTableView* m_documentTable;
    QTableWidget* m_revisionTable;
    QTableWidget* m_runTable;
    QLabel* m_status;
    QLabel* m_revisionsLabel;
    QPushButton* m_deleteButton;

    LanguagePrompt m_languagePrompt;
    QAction* m_openAction;
    QAction* m_viewAction;
    QAction* m_diffAction;
    QAction* m_restoreRevisionAction;
    QAction* m_runAction;
    QAction* m_renameAction;
    QAction* m_deleteAction;
    QAction* m_untrashAction;
    QAction* m_importAction;
    QAction* m_exportAction;
};

} // namespace sandpad
