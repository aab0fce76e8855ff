#pragma once

#include "ui/outputs/InertTextBrowser.h"

#include <QUrl>
#include <QWidget>
#include <functional>

class QLabel;
class QPlainTextEdit;
class QToolButton;

namespace sandpad {

// An HTML output (text/html, HTML(...), _repr_html_) in the notebook: the safe subset SafeHtml
// reduces it to (structure, text formatting, lists, tables, code, headings; links shown), or,
// when it cannot be reduced safely (too large, nested too deep, malformed), its source text with
// a note saying why. "Show source" switches to the source and back. A link is opened only when
// the user clicks it, by the desktop (QDesktopServices), and only an http(s) or mailto one.
class HtmlOutputView : public QWidget {
    Q_OBJECT
public:
    explicit HtmlOutputView(const QString& html, QWidget* parent = nullptr);

    bool rendered() const { return m_rendered; }  // false: refused, the source is shown
    bool showsSource() const;
    QString note() const;                         // why it is not rendered, or what was removed
    QString renderedHtml() const { return m_safe; }
    InertTextBrowser* browser() const { return m_browser; }
    QPlainTextEdit* sourceView() const { return m_source; }
    QToolButton* sourceButton() const { return m_sourceButton; }

    // What opens a clicked link (default QDesktopServices::openUrl); tests put their own.
    using LinkOpener = std::function<void(const QUrl&)>;
    static void setLinkOpener(LinkOpener opener);
    static constexpr qsizetype kMaxSourceChars = 200'000; // the source shown, at most

public slots:
    void setShowSource(bool source);
    void openLink(const QUrl& url); // the click: checked again, then the opener

signals:
    void linkOpened(const QUrl& url);

private:
    QString m_safe;
    bool m_rendered = false;
    QLabel* m_note = nullptr;
    QToolButton* m_sourceButton = nullptr;
    InertTextBrowser* m_browser = nullptr;
    QPlainTextEdit* m_source = nullptr;
};

} // namespace sandpad
