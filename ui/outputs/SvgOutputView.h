#pragma once

#include <QLabel>

namespace sandpad {

// An SVG output, drawn with QtSvg at its own size (at most kMaxWidth × kMaxHeight, scaled
// down keeping its shape). An SVG that names an outside resource (an <image> or a link to a file
// or URL) is not drawn: its source is shown, so showing it never reads a file or the network.
class SvgOutputView : public QLabel {
    Q_OBJECT
public:
    static constexpr int kMaxWidth = 900, kMaxHeight = 700;
    explicit SvgOutputView(const QString& svg, QWidget* parent = nullptr);
    bool drawn() const { return m_drawn; }
    QString problem() const { return m_problem; }

private:
    bool m_drawn = false;
    QString m_problem;
};

} // namespace sandpad
