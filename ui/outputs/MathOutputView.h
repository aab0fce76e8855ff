#pragma once

#include "core/run/RunOutput.h"

#include <QWidget>

class QLabel;

namespace sandpad {

// Math: the formula as rendered in the sandbox (mathtext, black on transparent; drawn light on
// a dark palette), and its text form beside it, selectable; the LaTeX in the tooltip. Without a
// picture (mathtext could not draw it) the LaTeX is shown as text too.
class MathOutputView : public QWidget {
    Q_OBJECT
public:
    explicit MathOutputView(const RunOutput& math, QWidget* parent = nullptr);

    QLabel* pictureLabel() const { return m_picture; }
    QLabel* textLabel() const { return m_text; }
    bool hasPicture() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void updatePicture();
    RunOutput m_math;
    QLabel* m_picture;
    QLabel* m_text;
};

} // namespace sandpad
