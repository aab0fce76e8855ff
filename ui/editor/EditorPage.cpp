#include "editor/EditorPage.h"

#include "editor/CodeEditor.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace sandpad {

EditorPage::EditorPage(const QString& untitledName, QWidget* parent)
    : QWidget(parent), m_editor(new CodeEditor(this)), m_language(new QComboBox(this)),
      m_path(new QLabel(this)), m_untitledName(untitledName)
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
    m_path->setText(path.isEmpty() ? tr("not saved") : QFileInfo(path).absoluteFilePath());
    if (!path.isEmpty())
        if (auto language = languageFromTitle(QFileInfo(path).fileName()))
            setLanguage(*language);
    emit titleChanged();
}

QString EditorPage::title() const
{
    return m_filePath.isEmpty() ? m_untitledName : QFileInfo(m_filePath).fileName();
}

bool EditorPage::isModified() const { return m_editor->isModified(); }

void EditorPage::setModified(bool modified) { m_editor->setModified(modified); }

} // namespace sandpad
