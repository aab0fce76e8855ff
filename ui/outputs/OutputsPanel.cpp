#include "ui/outputs/OutputsPanel.h"

#include "ui/outputs/ImageOutputView.h"
#include "ui/outputs/HtmlOutputView.h"
#include "ui/outputs/MarkdownOutputView.h"
#include "ui/outputs/MathOutputView.h"
#include "ui/outputs/SvgOutputView.h"
#include "ui/outputs/TableOutputView.h"

#include <QLabel>
#include <QVBoxLayout>

namespace sandpad {

OutputsPanel::OutputsPanel(QWidget* parent) : QWidget(parent), m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(4);
    setAccessibleName(tr("Rich outputs"));
}

void OutputsPanel::addPart(QWidget* widget, const QString& kind)
{
    m_layout->addWidget(widget);
    m_parts << widget;
    m_kinds << kind;
}

void OutputsPanel::addText(const QString& text, const QString& kind)
{
    QString shown = text;
    if (shown.endsWith(u'\n'))
        shown.chop(1);
    if (shown.isEmpty())
        return;
    auto* label = new QLabel(this);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    label->setWordWrap(true);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    label->setFont(mono);
    label->setText(shown);
    addPart(label, kind);
}

void OutputsPanel::setOutputs(const QList<RunOutput>& outputs, const QString& stdoutText)
{
    for (QWidget* part : std::as_const(m_parts))
        delete part;
    m_parts.clear();
    m_kinds.clear();
    qsizetype from = 0;
    for (const RunOutput& output : outputs) {
        if (!stdoutText.isEmpty()) {
            const qsizetype at = std::max(from, output.textPosition(stdoutText));
            addText(stdoutText.mid(from, at - from), QStringLiteral("stdout"));
            from = at;
        }
        const QString kind = RunOutput::typeName(output.type);
        switch (output.type) {
        case RunOutput::Type::Text:
            addText(output.text, kind);
            break;
        case RunOutput::Type::Table:
            addPart(new TableOutputView(output, this), kind);
            break;
        case RunOutput::Type::Math:
            addPart(new MathOutputView(output, this), kind);
            break;
        case RunOutput::Type::Image:
            addPart(new ImageOutputView(output.png, output.plain, this), kind);
            break;
        case RunOutput::Type::Svg:
            addPart(new SvgOutputView(output.text, this), kind);
            break;
        case RunOutput::Type::Markdown:
            addPart(new MarkdownOutputView(output.text, this), kind);
            break;
        case RunOutput::Type::Html:
            addPart(new HtmlOutputView(output.text, this), kind);
            break;
        }
    }
    if (!stdoutText.isEmpty())
        addText(stdoutText.mid(from), QStringLiteral("stdout"));
    setVisible(!outputs.isEmpty());
}

} // namespace sandpad
