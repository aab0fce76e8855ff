#pragma once

#include "core/run/RunOutput.h"

#include <QList>
#include <QWidget>

class QVBoxLayout;

namespace sandpad {

// A run's rich outputs (RunOutput) in the notebook entry, in order. Given the run's stdout, it
// shows the text the program printed between them too (each output after the bytes of stdout
// that preceded it), so text, table, text read as they happened; without it, the outputs alone.
class OutputsPanel : public QWidget {
    Q_OBJECT
public:
    explicit OutputsPanel(QWidget* parent = nullptr);

    // Replaces what is shown. stdoutText empty: the outputs only.
    void setOutputs(const QList<RunOutput>& outputs, const QString& stdoutText = {});
    // The widgets shown, top-down: a QLabel for a text part, else an output's view.
    QList<QWidget*> parts() const { return m_parts; }
    // Each part's kind, top-down: "stdout", then RunOutput::typeName ("table", "math", ...).
    QStringList partKinds() const { return m_kinds; }

private:
    void addText(const QString& text, const QString& kind);
    void addPart(QWidget* widget, const QString& kind);
    QVBoxLayout* m_layout;
    QList<QWidget*> m_parts;
    QStringList m_kinds;
};

} // namespace sandpad
