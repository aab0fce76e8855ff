#pragma once

#include <QDialog>

class QTextBrowser;
class QListWidget;

namespace sandpad {

// Help > Documentation: the project's documents (README, docs/*.md), bundled as resources so
// that they are there without a network or a checkout, shown as Markdown with working links
// between them; a link out of the bundle opens in the desktop's browser.
class DocumentationBrowser : public QDialog {
    Q_OBJECT
public:
    explicit DocumentationBrowser(QWidget* parent = nullptr);

    static QStringList pages(); // resource paths, README first
    void showPage(const QString& resourcePath);
    QTextBrowser* browser() const { return m_browser; }

private:
    QListWidget* m_list;
    QTextBrowser* m_browser;
};

} // namespace sandpad
