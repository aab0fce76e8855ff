#include "ui/help/HelpPane.h"

#include <QFontDatabase>
#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace sandpad {

HelpPane::HelpPane(QWidget* parent) : QWidget(parent), m_title(new QLabel), m_text(new QTextBrowser)
{
    setObjectName(QStringLiteral("helpPane"));
    setAccessibleName(tr("Help"));
    m_title->setObjectName(QStringLiteral("helpTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_text->setObjectName(QStringLiteral("helpText"));
    m_text->setAccessibleName(tr("Help text"));
    m_text->setOpenLinks(false);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_title);
    layout->addWidget(m_text, 1);
    showHelp({}, {}, tr("Press F1 or Ctrl+I on a name in a Python tab for its signature and documentation."));
}

void HelpPane::showHelp(const QString& word, const QList<HelpEntry>& entries, const QString& message)
{
    m_word = word;
    m_entries = entries;
    m_message = message;
    render();
}

QString HelpPane::title() const { return m_title->text(); }
QString HelpPane::plainText() const { return m_text->toPlainText(); }

void HelpPane::render()
{
    if (m_entries.isEmpty()) {
        m_title->setText(m_word.isEmpty() ? tr("Help") : m_word);
        m_text->setPlainText(m_message);
        return;
    }
    const HelpEntry& first = m_entries.constFirst();
    m_title->setText(first.fullName.isEmpty() ? first.name : QStringLiteral("%1  (%2)").arg(first.fullName, first.type));
    // Plain text only (the docstring is the sandbox's text: never HTML), one entry after another.
    QStringList parts;
    for (const HelpEntry& entry : std::as_const(m_entries)) {
        QString part;
        if (&entry != &m_entries.constFirst())
            part += (entry.fullName.isEmpty() ? entry.name : entry.fullName) + QStringLiteral("  (") + entry.type + QStringLiteral(")\n\n");
        part += entry.doc.isEmpty() ? tr("(no documentation)") : entry.doc;
        parts << part;
    }
    m_text->setPlainText(parts.join(QStringLiteral("\n\n\u2500\u2500\u2500\u2500\n\n")));
}

} // namespace sandpad
