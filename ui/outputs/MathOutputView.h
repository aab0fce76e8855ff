#pragma once

#include "core/run/RunOutput.h"

#include <QImage>
#include <QWidget>

class QLabel;

namespace sandpad {

// Math: the formula as rendered in the sandbox (mathtext, black on transparent; drawn light on
// a dark palette), and its text form beside it, selectable; the LaTeX in the tooltip. Without a
// picture (mathtext could not draw it) the LaTeX is shown as text too. A formula wider than the
// view is drawn smaller to fit (it was cut off at the notebook's edge).
class MathOutputView : public QWidget {
    Q_OBJECT
public:
    explicit MathOutputView(const RunOutput& math, QWidget* parent = nullptr);

    QLabel* pictureLabel() const { return m_picture; }
    QLabel* textLabel() const { return m_text; }
    bool hasPicture() const;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updatePicture();
    void fitPicture(); // m_image, scaled down to the room beside the text when it is wider
    RunOutput m_math;
    QImage m_image;
    int m_shownWidth = -1; // the width m_picture shows it at
    QLabel* m_picture;
    QLabel* m_text;
};

} // namespace sandpad
