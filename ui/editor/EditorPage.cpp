#include "editor/EditorPage.h"

#include "editor/CodeEditor.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QUuid>
#include <QVBoxLayout>

namespace sandpad {

EditorPage::EditorPage(const QString& untitledName, QWidget* parent)
    : QWidget(parent), m_editor(new CodeEditor(this)), m_language(new QComboBox(this)),
      m_path(new QLabel(this)), m_untitledName(untitledName),
      m_tabId(QUuid::createUuid().toString(QUuid::WithoutBraces))
{
    m_language->addItem(tr("Python"), languageName(Language::Python));
    m_language->addItem(tr("JavaScript"), languageName(Language::JavaScript));
    m_language->setAccessibleName(tr("Language"));
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
    layout->addWidget(m_editor, 1);

    connect(m_language, &QComboBox::currentIndexChanged, this, [this] {
        m_editor->setLanguage(language());
    });
    connect(m_editor, &QsciScintilla::modificationChanged, this, &EditorPage::titleChanged);
    setFocusProxy(m_editor);
    setFilePath({});
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

void EditorPage::setFilePath(const QString& path)
{
    m_filePath = path;
    if (!path.isEmpty())
        m_documentId.clear(); // a file tab is no longer bound to a document
    updateLocation();
    if (!path.isEmpty())
        if (auto language = languageFromTitle(QFileInfo(path).fileName()))
            setLanguage(*language);
    emit titleChanged();
}

void EditorPage::setDocument(const QString& documentId, const QString& title, const QString& baseRevisionId)
{
    m_documentId = documentId;
    m_baseRevisionId = baseRevisionId;
    m_filePath.clear();
    if (!title.isEmpty()) {
        m_untitledName = title;
        if (auto language = languageFromTitle(title))
            setLanguage(*language);
    }
    updateLocation();
    emit titleChanged();
}

void EditorPage::setReadOnlyRevision(const QString& documentId, const QString& title, const QString& revisionId)
{
    setDocument(documentId, title, revisionId);
    m_readOnly = true;
    m_editor->setReadOnly(true);
    m_language->setEnabled(false);
    updateLocation();
}

QString EditorPage::locationText() const { return m_path->text(); }

void EditorPage::updateLocation()
{
    const QString shortRev = m_baseRevisionId.left(8);
    if (m_readOnly)
        m_path->setText(tr("revision %1 (read-only)").arg(shortRev));
    else if (!m_documentId.isEmpty())
        m_path->setText(shortRev.isEmpty() ? tr("document") : tr("document · based on revision %1").arg(shortRev));
    else
        m_path->setText(m_filePath.isEmpty() ? tr("not saved") : QFileInfo(m_filePath).absoluteFilePath());
    m_path->setAccessibleName(m_readOnly ? tr("Revision") : m_documentId.isEmpty() ? tr("File") : tr("Document"));
}

QString EditorPage::title() const
{
    return m_filePath.isEmpty() ? m_untitledName : QFileInfo(m_filePath).fileName();
}

bool EditorPage::isModified() const { return m_editor->isModified(); }

void EditorPage::setModified(bool modified) { m_editor->setModified(modified); }

} // namespace sandpad
