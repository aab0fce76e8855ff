#pragma once

#include "core/completion/AssistTypes.h"

#include <QWidget>

class QLabel;
class QTextBrowser;

namespace sandpad {

// The help pane (F1 / Ctrl+I, like Spyder's): the signature and docstring of the name under the
// cursor, as the Python language service gives them. Plain text with no colours of its own: the
// palette's, so it follows a theme change at once.
class HelpPane : public QWidget {
    Q_OBJECT
public:
    explicit HelpPane(QWidget* parent = nullptr);

    // entries empty: `message` says why (starting, nothing found, a JavaScript tab).
    void showHelp(const QString& word, const QList<HelpEntry>& entries, const QString& message = {});
    QString title() const;
    QString plainText() const;

private:
    void render();

    QLabel* m_title;
    QTextBrowser* m_text;
    QString m_word;
    QList<HelpEntry> m_entries;
    QString m_message;
};

} // namespace sandpad
