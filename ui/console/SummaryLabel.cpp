#include "ui/console/SummaryLabel.h"

#include <QEvent>
#include <QRegularExpression>
#include <QTextDocument>

#include <cmath>

namespace sandpad {

namespace {

// Between two items of one line; no breakable space in it, so the label never wraps there.
const QString kSeparator = QStringLiteral("&nbsp;&nbsp;·&nbsp;&nbsp;");

qreal idealWidth(const QString& html, const QFont& font)
{
    QTextDocument doc;
    doc.setDocumentMargin(0);
    doc.setDefaultFont(font);
    doc.setHtml(html);
    return doc.idealWidth();
}

} // namespace

SummaryLabel::SummaryLabel(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    QSizePolicy policy = sizePolicy();
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void SummaryLabel::setItems(const QStringList& given)
{
    QStringList items = given;
    items.removeAll(QString()); // an empty item would leave two separators side by side
    if (items == m_items)
        return;
    m_items = items;
    m_widths.clear();
    recompose();
}

QString SummaryLabel::plainText() const
{
    QString plain = m_items.join(QStringLiteral(" · "));
    plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    plain.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
    plain.replace(QStringLiteral("&lt;"), QStringLiteral("<"));
    plain.replace(QStringLiteral("&gt;"), QStringLiteral(">"));
    plain.replace(QStringLiteral("&quot;"), QStringLiteral("\""));
    plain.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    return plain;
}

void SummaryLabel::measure() const
{
    if (m_widths.size() == m_items.size())
        return;
    m_widths.clear();
    for (const QString& item : m_items)
        m_widths.append(idealWidth(item, font()));
    m_separatorWidth = idealWidth(kSeparator, font());
}

QString SummaryLabel::composed(int contentsWidth) const
{
    measure();
    // A little room for rounding, so that the document does not wrap a line that was measured to fit.
    const qreal room = contentsWidth - 2;
    QStringList lines;
    QString line;
    qreal used = 0;
    for (int i = 0; i < m_items.size(); ++i) {
        const qreal w = m_widths.value(i);
        if (!line.isEmpty() && used + m_separatorWidth + w <= room) {
            line += kSeparator + m_items[i];
            used += m_separatorWidth + w;
        } else {
            if (!line.isEmpty())
                lines << line;
            line = m_items[i];
            used = w;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(QStringLiteral("<br>"));
}

int SummaryLabel::extraWidth() const
{
    const QMargins m = contentsMargins();
    return m.left() + m.right() + 2 * margin();
}

QSize SummaryLabel::sizeHint() const
{
    measure();
    qreal w = 0;
    for (qreal item : std::as_const(m_widths))
        w += item;
    w += m_separatorWidth * qMax(0, int(m_widths.size()) - 1);
    const int width = int(std::ceil(w)) + 2 + extraWidth();
    return {width, heightForWidth(width)};
}

QSize SummaryLabel::minimumSizeHint() const
{
    QTextDocument doc;
    doc.setDocumentMargin(0);
    doc.setDefaultFont(font());
    doc.setHtml(composed(0)); // an item a line
    doc.setTextWidth(0);      // so the width is the widest word
    const int width = int(std::ceil(doc.size().width())) + 2 + extraWidth();
    // One line's height, as QLabel's own: the height for the width given is heightForWidth()'s
    // (a taller minimum made a notebook of many entries taller than its entries).
    return {width, sizeHint().height()};
}

int SummaryLabel::heightForWidth(int width) const
{
    const QMargins m = contentsMargins();
    const int contentsWidth = qMax(1, width - extraWidth());
    QTextDocument doc;
    doc.setDocumentMargin(0);
    doc.setDefaultFont(font());
    doc.setHtml(composed(contentsWidth));
    doc.setTextWidth(contentsWidth);
    return int(std::ceil(doc.size().height())) + m.top() + m.bottom() + 2 * margin();
}

void SummaryLabel::recompose()
{
    setText(composed(contentsRect().width() - 2 * margin()));
}

void SummaryLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    recompose();
}

void SummaryLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        m_widths.clear();
        recompose();
    }
}

} // namespace sandpad
