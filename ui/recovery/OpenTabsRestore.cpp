#include "ui/recovery/OpenTabsRestore.h"

#include "core/documents/DocumentStore.h"
#include "core/language/Language.h"
#include "ui/editor/AttachmentStrip.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"
#include "ui/session/TabSessions.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPointer>

#include <algorithm>

namespace sandpad {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("sandpad::OpenTabsRestore", text); }

// A tab whose file, document or revision is gone: kept, empty, saying so.
EditorPage* placeholder(EditorTabs& tabs, const OpenTab& tab, const QString& note)
{
    const Language language = languageFromName(tab.language).value_or(languageFromTitle(tab.title).value_or(Language::Python));
    EditorPage* page = tabs.newTab(language, {}, tab.title);
    // Bound to what it was (so it is no blank tab that opening something replaces): Save writes
    // a vanished file where it was; a vanished document's tab says why it cannot be saved to it.
    if (tab.kind == OpenTab::Kind::File)
        page->setSource(FileSource{tab.path});
    else if (tab.kind == OpenTab::Kind::Document)
        page->setSource(DocumentSource{tab.documentId, tab.title, {}});
    else if (tab.kind == OpenTab::Kind::Revision)
        page->setSource(RevisionSource{tab.documentId, tab.title, tab.revisionId});
    page->setModified(false);
    page->setNote(note);
    return page;
}

EditorPage* openTab(const OpenTab& tab, EditorDocuments& documents, EditorTabs& tabs, const DocumentStore* store,
                 QStringList* notes)
{
    auto gone = [&](const QString& note) {
        notes->append(note);
        return placeholder(tabs, tab, note);
    };
    switch (tab.kind) {
    case OpenTab::Kind::Untitled: {
        const Language language = languageFromName(tab.language).value_or(Language::Python);
        return tabs.newTab(language, tab.text, tab.title); // unmodified, as it was left
    }
    case OpenTab::Kind::File: {
        if (!QFileInfo::exists(tab.path))
            return gone(tr("%1 was moved or deleted since the last session.").arg(QDir::toNativeSeparators(tab.path)));
        QString error;
        if (EditorPage* page = documents.openFileQuietly(tab.path, &error))
            return page;
        // Refused (too large, no longer a regular file) or cancelled in its progress dialog.
        return gone(error.isEmpty() ? tr("Opening %1 was cancelled.").arg(QDir::toNativeSeparators(tab.path)) : error);
    }
    case OpenTab::Kind::Document: {
        const auto doc = store ? store->document(tab.documentId) : std::nullopt;
        const auto head = doc && !doc->deleted ? store->revision(doc->headRevisionId) : std::nullopt;
        if (doc && doc->deleted)
            return gone(tr("The document %1 is in the trash (Documents: Trash to restore it).").arg(tab.title));
        if (!head)
            return gone(tr("The document %1 is no longer in this workspace.").arg(tab.title));
        return documents.openDocumentForEditing(doc->id, doc->title, head->content, doc->headRevisionId);
    }
    case OpenTab::Kind::Revision: {
        const auto doc = store ? store->document(tab.documentId) : std::nullopt;
        const auto rev = doc && !doc->deleted ? store->revision(tab.revisionId) : std::nullopt;
        if (!rev || rev->documentId != tab.documentId)
            return gone(tr("Revision %1 of %2 is no longer in this workspace.").arg(tab.revisionId.left(8), tab.title));
        return documents.openRevisionReadOnly(doc->id, doc->title, rev->content, rev->id);
    }
    }
    return nullptr;
}

} // namespace

OpenTabs OpenTabsRestore::capture(const EditorTabs& tabs, const TabSessions* sessions)
{
    OpenTabs open;
    for (int i = 0; i < tabs.count(); ++i) {
        EditorPage* page = tabs.page(i);
        if (!page || page->isBlank())
            continue;
        OpenTab tab;
        tab.title = page->title();
        tab.language = languageName(page->language());
        const EditorSource& source = page->source();
        if (const auto* file = std::get_if<FileSource>(&source)) {
            tab.kind = OpenTab::Kind::File;
            tab.path = QFileInfo(file->path).absoluteFilePath();
        } else if (const auto* doc = std::get_if<DocumentSource>(&source)) {
            tab.kind = OpenTab::Kind::Document;
            tab.documentId = doc->documentId;
        } else if (const auto* rev = std::get_if<RevisionSource>(&source)) {
            tab.kind = OpenTab::Kind::Revision;
            tab.documentId = rev->documentId;
            tab.revisionId = rev->revisionId;
        } else {
            if (page->isModified())
                continue; // asked about when quitting, and discarded
            tab.kind = OpenTab::Kind::Untitled;
            tab.text = page->editor()->text();
            if (tab.text.size() > OpenTabs::kMaxTextChars)
                continue; // not cut: a tab of half its text would be worse than none
        }
        page->editor()->getCursorPosition(&tab.line, &tab.column);
        tab.input = page->attachments()->tabInput();
        tab.freshRuns = sessions && sessions->isFresh(page);
        if (i == tabs.currentIndex())
            open.current = int(open.tabs.size());
        open.tabs.append(tab);
    }
    return open;
}

QList<EditorPage*> OpenTabsRestore::restore(const OpenTabs& open, EditorDocuments& documents, EditorTabs& tabs,
                                            TabSessions* sessions, const DocumentStore* store, QStringList* notes)
{
    QStringList ignored;
    if (!notes)
        notes = &ignored;
    QPointer<EditorPage> blank = tabs.currentPage() && tabs.currentPage()->isBlank() ? tabs.currentPage() : nullptr;
    const bool startedBlank = blank || !tabs.currentPage();
    const QPointer<EditorPage> front = startedBlank ? nullptr : tabs.currentPage();
    QList<EditorPage*> pages;
    QPointer<EditorPage> current;
    for (int i = 0; i < open.tabs.size(); ++i) {
        const OpenTab& tab = open.tabs[i];
        EditorPage* page = openTab(tab, documents, tabs, store, notes);
        if (!page || pages.contains(page))
            continue; // the same file twice: one tab
        if (i == open.current)
            current = page;
        if (tab.kind != OpenTab::Kind::Revision)
            if (const auto language = languageFromName(tab.language); language && *language != page->language())
                page->setLanguage(*language); // chosen by hand (a file without an extension)
        CodeEditor* editor = page->editor();
        const int line = std::min(tab.line, std::max(0, editor->lines() - 1));
        editor->setCursorPosition(line, std::min(tab.column, std::max(0, editor->lineLength(line))));
        editor->ensureLineVisible(line);
        if (sessions && tab.freshRuns)
            sessions->setFresh(page, true);
        if (!tab.input.isEmpty()) {
            const QStringList missing = page->attachments()->restore(tab.input);
            if (!missing.isEmpty())
                notes->append(tr("%1: the attached file(s) %2 are missing (moved or deleted); the tab shows them as "
                                 "missing until they are attached again or removed.")
                                  .arg(tab.title, missing.join(QStringLiteral(", "))));
        }
        pages.append(page);
    }
    // The blank start tab made room (opening a document may have closed it already).
    if (blank && !pages.isEmpty() && !pages.contains(blank.data()) && blank->isBlank())
        tabs.closePage(tabs.indexOf(blank));
    // The last session's current tab, unless something was opened at start (a file, an example
    // to run): that one stays in front.
    if (current && startedBlank)
        tabs.setCurrentWidget(current);
    else if (front)
        tabs.setCurrentWidget(front);
    return pages;
}

} // namespace sandpad
