#pragma once

#include <QTextBrowser>

namespace sandpad {

// A QTextBrowser for a run's rendered text (Markdown, reduced HTML) that loads nothing and
// follows nothing: loadResource answers nothing (no image, style sheet or file, local or remote)
// and links are only reported (anchorClicked), never opened by the view. As tall as its text, no
// vertical scroll bar; the palette's colours.
class InertTextBrowser : public QTextBrowser {
    Q_OBJECT
public:
    explicit InertTextBrowser(QWidget* parent = nullptr);
    QVariant loadResource(int type, const QUrl& name) override;
    int resourceRequests() const { return m_requests; }
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    int m_requests = 0;
};

} // namespace sandpad
