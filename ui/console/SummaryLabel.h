#pragma once

#include <QLabel>
#include <QList>
#include <QStringList>

namespace sandpad {

// A one-line summary of rich-text items ("[3] a.py", "python", "local", "success", ...) shown
// with " · " between them, that wraps between items in a narrow column: each line holds as many
// whole items as fit, and a separator is only ever between two items of the same line (never a
// lone "·" at a line's end or start). An item wider than the whole label has a line of its own
// and wraps at its spaces.
class SummaryLabel : public QLabel {
    Q_OBJECT
public:
    explicit SummaryLabel(QWidget* parent = nullptr);

    void setItems(const QStringList& items); // rich text each; empty ones are left out
    QStringList items() const { return m_items; }
    QString plainText() const;               // the items joined by " · ", without markup

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;        // every item on one line
    QSize minimumSizeHint() const override; // the widest word of any item, one line high

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QString composed(int contentsWidth) const; // the items in lines that fit contentsWidth
    int extraWidth() const;                    // margins around the contents
    void measure() const;
    void recompose();

    QStringList m_items;
    mutable QList<qreal> m_widths; // ideal width of each item, measured once per font
    mutable qreal m_separatorWidth = 0;
};

} // namespace sandpad
