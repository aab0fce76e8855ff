#pragma once

#include <QTextBrowser>

namespace sandpad {

// A Markdown output, rendered by QTextDocument (GitHub dialect). Nothing it names is loaded:
// no image, file or URL (loadResource answers nothing), and a link is not followed, so the
// run's text cannot make the app read or send anything. As tall as its text, no scroll bar.
class MarkdownOutputView : public QTextBrowser {
    Q_OBJECT
public:
    explicit MarkdownOutputView(const QString& markdown, QWidget* parent = nullptr);
    QVariant loadResource(int type, const QUrl& name) override;
    int resourceRequests() const { return m_requests; }
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    int m_requests = 0;
};

} // namespace sandpad
