#include "ui/editor/EditorTabs.h"

#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/OpenProgress.h"

#include <QFileInfo>
#include <QSaveFile>

#include <utility>

namespace sandpad {

EditorTabs::EditorTabs(QWidget* parent) : QTabWidget(parent)
{
    setAccessibleName(tr("Editor tabs"));
    setDocumentMode(true);
    setMovable(true);
    setTabsClosable(true);
    connect(this, &QTabWidget::currentChanged, this, [this] { emit currentEditorChanged(currentEditor()); });
}

EditorPage* EditorTabs::newTab(Language language, const QString& text, const QString& title)
{
    auto* page = new EditorPage(title.isEmpty() ? tr("Untitled %1").arg(++m_untitledCount) : title, this);
    page->setLanguage(language);
    page->editor()->setText(text);
    page->editor()->updateCellSeparators();
    page->setModified(false);
    connect(page, &EditorPage::titleChanged, this, [this, page] { refreshTitle(page); });
    const int index = addTab(page, page->title());
    refreshTitle(page);
    setCurrentIndex(index);
    page->editor()->setFocus();
    emit pageAdded(page);
    return page;
}

EditorPage* EditorTabs::openFile(const QString& path, QString* error)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (int i = 0; i < count(); ++i)
        if (page(i) && QFileInfo(page(i)->filePath()).absoluteFilePath() == absolute && !page(i)->filePath().isEmpty()) {
            setCurrentIndex(i);
            return page(i);
        }
    // Read and decoded on a worker thread (core/files/FileRead: a regular file within the limit),
    // so a big or hostile file neither freezes the window nor fills the memory; then put into
    // the editor piece by piece.
    const QString name = QFileInfo(path).fileName();
    const Language language = languageFromTitle(name).value_or(Language::Python);
    FileReadControl control;
    FileRead::Result read;
    QString text;
    EditorPage* page = nullptr;
    qsizetype at = 0;
    OpenProgress::run(
        window(), tr("Opening %1 (%2)…").arg(name, FileRead::sizeText(QFileInfo(path).size())), control,
        [&] {
            read = FileRead::read(path, kMaxFileBytes, &control);
            if (read.ok() && !control.cancel)
                text = QString::fromUtf8(std::exchange(read.bytes, {}));
        },
        [&] { return !read.ok() || loadStep(&page, language, text, name, &at, control); });
    if (read.cancelled || control.cancel) {
        if (page)
            closePage(indexOf(page));
        if (error)
            error->clear(); // the user's own choice: nothing to warn about
        return nullptr;
    }
    if (!read.ok() || !page) {
        if (error)
            *error = read.error + u'.';
        return nullptr;
    }
    page->setSource(FileSource{absolute});
    page->setModified(false);
    return page;
}

bool EditorTabs::loadStep(EditorPage** page, Language language, const QString& text, const QString& title,
                          qsizetype* at, FileReadControl& control)
{
    // First the empty tab and the text handed to its editor, which fills a document with it on a
    // worker thread (CodeEditor::startLoad); the next steps wait, the event loop running; the last
    // swaps the document in.
    if (!*page) {
        *page = newTab(language, {}, title);
        control.total = std::max<qsizetype>(text.size(), 1);
        control.done = 0;
        (*page)->editor()->startLoad(text);
        return false;
    }
    CodeEditor* editor = (*page)->editor();
    if (!editor->loadReady()) {
        control.done = editor->loadProgress();
        return false;
    }
    editor->finishLoad();
    *at = text.size();
    control.done = control.total.load();
    editor->setCursorPosition(0, 0);
    (*page)->setModified(false);
    return true;
}

bool EditorTabs::savePage(EditorPage* page, const QString& path, QString* error)
{
    if (!page)
        return false;
    const QString target = path.isEmpty() ? page->filePath() : path;
    QSaveFile file(target);
    if (target.isEmpty() || !file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Cannot save %1: %2").arg(target, file.errorString());
        return false;
    }
    file.write(page->editor()->text().toUtf8());
    if (!file.commit()) {
        if (error)
            *error = tr("Cannot save %1: %2").arg(target, file.errorString());
        return false;
    }
    // A stored revision stays what the tab shows: the file is a copy of it.
    if (!page->isReadOnlyRevision())
        page->setSource(FileSource{QFileInfo(target).absoluteFilePath()});
    page->setModified(false);
    return true;
}

void EditorTabs::closePage(int index)
{
    QWidget* w = widget(index);
    removeTab(index);
    delete w;
    if (count() == 0)
        newTab();
}

EditorPage* EditorTabs::currentPage() const { return qobject_cast<EditorPage*>(currentWidget()); }

CodeEditor* EditorTabs::currentEditor() const
{
    EditorPage* page = currentPage();
    return page ? page->editor() : nullptr;
}

EditorPage* EditorTabs::page(int index) const { return qobject_cast<EditorPage*>(widget(index)); }

void EditorTabs::refreshTitle(EditorPage* page)
{
    const int index = indexOf(page);
    if (index < 0)
        return;
    // A revision's tab names it, as its title alone would look like the document's own tab.
    const auto* revision = std::get_if<RevisionSource>(&page->source());
    const QString label = revision ? tr("%1 @ %2").arg(page->title(), revision->revisionId.left(8)) : page->title();
    setTabText(index, page->isModified() ? label + QStringLiteral(" •") : label);
    setTabToolTip(index, page->filePath().isEmpty() ? page->title() : page->filePath());
}

} // namespace sandpad
