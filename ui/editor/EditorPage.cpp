#include "ui/editor/EditorPage.h"

#include "ui/editor/AttachmentStrip.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/LanguageBox.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QUuid>
#include <QVBoxLayout>

namespace sandpad {

EditorPage::EditorPage(const QString& untitledName, QWidget* parent)
    : QWidget(parent), m_editor(new CodeEditor(this)), m_language(new LanguageBox(this)),
      m_path(new QLabel(this)), m_attachments(new AttachmentStrip(this)), m_source(UntitledSource{untitledName}),
      m_tabId(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    m_language->addItem(tr("Python"), languageName(Language::Python));
    m_language->addItem(tr("JavaScript"), languageName(Language::JavaScript));
    m_language->setAccessibleName(tr("Language of this tab"));
    m_language->setToolTip(tr("Language of this tab"));
    m_path->setAccessibleName(tr("File"));
    m_path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_path->setForegroundRole(QPalette::PlaceholderText);

    auto* header = new QHBoxLayout;
    header->setContentsMargins(6, 2, 6, 2);
    auto* label = new QLabel(tr("&Language:"), this);
    label->setBuddy(m_language);
    header->addWidget(label);
    header->addWidget(m_language);
    header->addSpacing(12);
    header->addWidget(m_path, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_attachments);
    layout->addWidget(m_editor, 1);
    m_attachments->watchDrops(m_editor->viewport()); // dropped files are attached, not pasted
    m_attachments->watchDrops(this);
    setAcceptDrops(true);

    connect(m_language, &QComboBox::currentIndexChanged, this, [this] {
        m_editor->setLanguage(language());
        emit languageChanged(language());
    });
    connect(m_editor, &QsciScintilla::modificationChanged, this, &EditorPage::titleChanged);
    connect(m_editor, &QsciScintilla::modificationChanged, this, [this](bool modified) {
        if (!modified && !m_note.isEmpty())
            setNote({}); // saved: what the note said is past
    });
    setFocusProxy(m_editor);
    updateLocation();
}

Language EditorPage::language() const
{
    return languageFromName(m_language->currentData().toString()).value_or(Language::Python);
}

void EditorPage::setLanguage(Language language)
{
    m_language->setCurrentIndex(m_language->findData(languageName(language)));
    m_editor->setLanguage(language);
}

namespace {

// The title a document or revision source carries (empty for the others).
QString* storedTitle(EditorSource& source)
{
    if (auto* d = std::get_if<DocumentSource>(&source))
        return &d->title;
    if (auto* r = std::get_if<RevisionSource>(&source))
        return &r->title;
    return nullptr;
}

} // namespace

void EditorPage::setSource(EditorSource source)
{
    if (QString* t = storedTitle(source); t && t->isEmpty())
        *t = title(); // no title given: the tab keeps its name
    m_source = std::move(source);
    m_note.clear();
    const bool readOnly = isReadOnlyRevision();
    m_editor->setReadOnly(readOnly);
    m_language->setEnabled(!readOnly);
    if (!std::holds_alternative<UntitledSource>(m_source))
        if (auto language = languageFromTitle(title()))
            setLanguage(*language);
    updateLocation();
    emit titleChanged();
}

QString EditorPage::title() const
{
    if (const auto* u = std::get_if<UntitledSource>(&m_source))
        return u->name;
    if (const auto* f = std::get_if<FileSource>(&m_source))
        return QFileInfo(f->path).fileName();
    if (const auto* d = std::get_if<DocumentSource>(&m_source))
        return d->title;
    return std::get<RevisionSource>(m_source).title;
}

QString EditorPage::filePath() const
{
    const auto* f = std::get_if<FileSource>(&m_source);
    return f ? f->path : QString();
}

QString EditorPage::documentId() const
{
    if (const auto* d = std::get_if<DocumentSource>(&m_source))
        return d->documentId;
    if (const auto* r = std::get_if<RevisionSource>(&m_source))
        return r->documentId;
    return {};
}

QString EditorPage::baseRevisionId() const
{
    if (const auto* d = std::get_if<DocumentSource>(&m_source))
        return d->headRevisionId;
    if (const auto* r = std::get_if<RevisionSource>(&m_source))
        return r->revisionId;
    return {};
}

bool EditorPage::isBlank() const
{
    // The length, not text(): that would copy a 50 MB file to learn it is not empty.
    return std::holds_alternative<UntitledSource>(m_source) && !isModified() && m_editor->length() == 0
           && m_attachments->tabInput().isEmpty(); // files or an Input box make it a tab of its own
}

QString EditorPage::locationText() const { return m_path->text(); }

void EditorPage::updateLocation()
{
    const QString shortRev = baseRevisionId().left(8);
    if (isReadOnlyRevision()) {
        m_path->setText(tr("revision %1 (read-only)").arg(shortRev));
        m_path->setAccessibleName(tr("Revision"));
    } else if (isDocument()) {
        m_path->setText(shortRev.isEmpty() ? tr("document") : tr("document · based on revision %1").arg(shortRev));
        m_path->setAccessibleName(tr("Document"));
    } else {
        const QString path = filePath();
        m_path->setText(path.isEmpty() ? tr("not saved") : QFileInfo(path).absoluteFilePath());
        m_path->setAccessibleName(tr("File"));
    }
    if (!m_note.isEmpty())
        m_path->setText(tr("%1 — ⚠ %2").arg(m_path->text(), m_note));
}

void EditorPage::setNote(const QString& note)
{
    m_note = note;
    updateLocation();
}

bool EditorPage::isModified() const { return m_editor->isModified(); }

void EditorPage::setModified(bool modified) { m_editor->setModified(modified); }

} // namespace sandpad
