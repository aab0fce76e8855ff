#include "ui/outputs/HtmlOutputView.h"

#include "core/ipynb/SafeHtml.h"

#include <QDesktopServices>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandpad {

namespace {

HtmlOutputView::LinkOpener& opener()
{
    static HtmlOutputView::LinkOpener open = [](const QUrl& url) { QDesktopServices::openUrl(url); };
    return open;
}

} // namespace

HtmlOutputView::HtmlOutputView(const QString& html, QWidget* parent) : QWidget(parent)
{
    setAccessibleName(tr("HTML output"));
    const SafeHtml::Reduced reduced = SafeHtml::reduce(html);
    m_rendered = reduced.html.has_value();
    m_safe = reduced.html.value_or(QString());

    m_note = new QLabel(this);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    m_note->setEnabled(false); // the palette's quiet text colour
    if (!m_rendered)
        m_note->setText(tr("This HTML is shown as its source: %1.").arg(reduced.why));
    else if (reduced.removed > 0)
        m_note->setText(tr("HTML output (%n part(s) not shown: scripts, styles, images, forms and the like are "
                           "never run or loaded).", nullptr, reduced.removed));
    else
        m_note->setText(tr("HTML output"));
    m_sourceButton = new QToolButton(this);
    m_sourceButton->setText(tr("Show source"));
    m_sourceButton->setCheckable(true);
    m_sourceButton->setAutoRaise(true);
    m_sourceButton->setAccessibleName(tr("Show the HTML source"));
    m_sourceButton->setEnabled(m_rendered); // refused: the source is all there is
    connect(m_sourceButton, &QToolButton::toggled, this, &HtmlOutputView::setShowSource);

    m_browser = new InertTextBrowser(this);
    m_browser->setAccessibleName(tr("HTML output, rendered"));
    if (m_rendered)
        m_browser->setHtml(m_safe);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &HtmlOutputView::openLink);
    connect(m_browser, qOverload<const QUrl&>(&QTextBrowser::highlighted), this, [this](const QUrl& url) {
        // Where a link leads, before anyone clicks it.
        m_browser->setToolTip(url.isEmpty() ? QString() : url.toString());
    });

    m_source = new QPlainTextEdit(this);
    m_source->setAccessibleName(tr("HTML source"));
    m_source->setReadOnly(true);
    m_source->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_source->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_source->setMaximumHeight(320);
    QString source = html.left(kMaxSourceChars);
    if (html.size() > kMaxSourceChars)
        source += tr("\n[… the first %1 of %2 characters are shown]")
                      .arg(QLocale().toString(kMaxSourceChars), QLocale().toString(html.size()));
    m_source->setPlainText(source);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_sourceButton); // first: a wide entry may run past the view's right edge
    top->addWidget(m_note, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_browser);
    layout->addWidget(m_source);
    setShowSource(!m_rendered);
}

bool HtmlOutputView::showsSource() const
{
    return !m_source->isHidden();
}

QString HtmlOutputView::note() const
{
    return m_note->text();
}

void HtmlOutputView::setShowSource(bool source)
{
    source = source || !m_rendered;
    m_source->setVisible(source);
    m_browser->setVisible(!source);
    const QSignalBlocker block(m_sourceButton);
    m_sourceButton->setChecked(source && m_rendered);
    m_sourceButton->setText(source && m_rendered ? tr("Show rendered") : tr("Show source"));
}

void HtmlOutputView::openLink(const QUrl& url)
{
    // Only the links SafeHtml kept can be in the view; checked again here all the same.
    const QString scheme = url.scheme().toLower();
    const bool web = (scheme == u"http" || scheme == u"https") && !url.host().isEmpty();
    if (!web && scheme != u"mailto")
        return;
    opener()(url);
    emit linkOpened(url);
}

void HtmlOutputView::setLinkOpener(LinkOpener open)
{
    opener() = open ? std::move(open) : LinkOpener([](const QUrl& url) { QDesktopServices::openUrl(url); });
}

} // namespace sandpad
