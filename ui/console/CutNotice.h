#pragma once

#include <QWidget>

class QLabel;

namespace sandpad {

// The line under a part of a run that is cut for display: what was cut, and buttons for the
// whole text. Plain widgets, not a rich-text label: a reloaded notebook shows dozens of these,
// and each rich-text label lays out a document whenever its size is asked for.
class CutNotice : public QWidget {
    Q_OBJECT
public:
    explicit CutNotice(const QString& accessibleName, QWidget* parent = nullptr);

    void setText(const QString& text);
    QString text() const;

signals:
    void copyRequested();
    void saveRequested();

private:
    QLabel* m_label;
};

} // namespace sandpad
