#pragma once

#include <QByteArray>
#include <QLabel>

namespace sandpad {

// An image output (a PNG the run checked, RunOutput::Type::Image), at its own size, scaled down
// to at most kMaxWidth wide.
class ImageOutputView : public QLabel {
    Q_OBJECT
public:
    static constexpr int kMaxWidth = 900;
    explicit ImageOutputView(const QByteArray& png, const QString& description, QWidget* parent = nullptr);
    bool drawn() const { return m_drawn; }

private:
    bool m_drawn = false;
};

} // namespace sandpad
