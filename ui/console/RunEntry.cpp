#include "console/RunEntry.h"

#include "console/ChartThumbnail.h"
#include "console/OutputView.h"

#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QToolButton>
#include <QVBoxLayout>

namespace sandpad {

namespace {

QPlainTextEdit* makeTextBlock(QWidget* parent, const QString& accessibleName)
{
    auto* edit = new QPlainTextEdit(parent);
    edit->setAccessibleName(accessibleName);
    edit->setReadOnly(true);
    edit->setUndoRedoEnabled(false);
    edit->setFrameShape(QFrame::NoFrame);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->hide();
    return edit;
}

void fitHeight(QPlainTextEdit* edit, int maxLines)
{
    const int lines = std::clamp(int(edit->document()->blockCount()), 1, maxLines);
    edit->setFixedHeight(lines * edit->fontMetrics().lineSpacing()
                         + 2 * int(edit->document()->documentMargin()) + 6);
}

QString statusLabel(const QString& status)
{
    if (status == QLatin1String("success")) return QStringLiteral("✔ success");
    if (status == QLatin1String("error")) return QStringLiteral("✖ error");
    if (status == QLatin1String("timeout")) return QStringLiteral("⏱ timeout");
    if (status == QLatin1String("cancelled")) return QStringLiteral("■ cancelled");
    if (status == QLatin1String("infrastructure_error")) return QStringLiteral("⚠ infrastructure error");
    return status;
}

} // namespace

RunEntry::RunEntry(int number, const QString& title, const QString& language,
                   const QString& provider, const QString& code, QWidget* parent)
    : QFrame(parent), m_number(number), m_header(new QLabel(this)),
      m_codeToggle(new QToolButton(this)), m_code(makeTextBlock(this, tr("Code that ran"))),
      m_output(new OutputView(this)), m_truncation(new QLabel(this)),
      m_result(makeTextBlock(this, tr("Result"))), m_error(new QLabel(this)),
      m_chartsRow(new QWidget(this)), m_chartsLayout(new QHBoxLayout(m_chartsRow))
{
    m_record.title = title;
    m_record.language = language;
    m_record.provider = provider;
    m_record.code = code;
    m_record.status = QStringLiteral("running");
    m_record.startedAt = QDateTime::currentDateTimeUtc();
    m_elapsedStart = QDateTime::currentMSecsSinceEpoch();

    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setAccessibleName(tr("Run %1").arg(number));

    m_header->setTextFormat(Qt::RichText);
    m_header->setAccessibleName(tr("Run summary"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_codeToggle->setText(tr("Code"));
    m_codeToggle->setCheckable(true);
    m_codeToggle->setAutoRaise(true);
    m_codeToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_codeToggle->setArrowType(Qt::RightArrow);
    m_codeToggle->setAccessibleName(tr("Show the code of run %1").arg(number));
    connect(m_codeToggle, &QToolButton::toggled, this, &RunEntry::setCodeVisible);
    m_code->setPlainText(code);

    m_truncation->setTextFormat(Qt::RichText);
    m_truncation->setAccessibleName(tr("Output truncated notice"));
    m_truncation->hide();
    connect(m_truncation, &QLabel::linkActivated, this, [this] { emit saveOutputRequested(this); });
    connect(m_output, &OutputView::truncatedChanged, this, [this](bool truncated) {
        m_truncation->setText(tr("<i>Output truncated in view: showing the last %1 lines. "
                                 "Full output: <a href=\"save\">Save…</a></i>")
                                  .arg(OutputView::kMaxViewLines));
        m_truncation->setVisible(truncated);
    });

    m_error->setTextFormat(Qt::RichText);
    m_error->setWordWrap(true);
    m_error->setAccessibleName(tr("Error"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse
                                     | Qt::LinksAccessibleByKeyboard);
    m_error->hide();
    connect(m_error, &QLabel::linkActivated, this, &RunEntry::activateLink);

    m_chartsLayout->setContentsMargins(0, 0, 0, 0);
    m_chartsLayout->addStretch(1);
    m_chartsRow->hide();

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_header, 1);
    top->addWidget(m_codeToggle);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_code);
    layout->addWidget(m_output);
    layout->addWidget(m_truncation);
    layout->addWidget(m_result);
    layout->addWidget(m_error);
    layout->addWidget(m_chartsRow);
    fitHeight(m_code, 14);
    updateHeader();
    updateStyle();
}

void RunEntry::appendOutput(OutputStream stream, const QString& text)
{
    m_output->append(stream, text);
}

void RunEntry::finish(const RunRecord& record)
{
    const int number = m_number;
    const QString code = m_record.code;
    m_record = record;
    if (m_record.code.isEmpty())
        m_record.code = code;
    m_number = number;
    m_running = false;
    if (m_output->isEmptyOutput()) {
        m_output->append(OutputStream::Stdout, record.stdoutText);
        m_output->append(OutputStream::Stderr, record.stderrText);
    }
    m_output->flush();
    m_code->setPlainText(m_record.code);
    fitHeight(m_code, 14);

    if (record.result && !record.result->isEmpty()) {
        m_result->setPlainText(*record.result);
        fitHeight(m_result, 12);
        m_result->show();
    }
    if (record.error) {
        m_error->setText(QStringLiteral("<b>%1</b>: %2%3")
                             .arg(record.error->name.toHtmlEscaped(),
                                  record.error->value.toHtmlEscaped(),
                                  tracebackHtml(record.error->traceback)));
        m_error->show();
    } else if (record.status != QLatin1String("success") && !record.message.isEmpty()
               && m_output->isEmptyOutput()) {
        m_error->setText(record.message.toHtmlEscaped());
        m_error->show();
    } else if (record.status == QLatin1String("timeout") || record.status == QLatin1String("cancelled")
               || record.status == QLatin1String("infrastructure_error")) {
        m_error->setText(QStringLiteral("<i>%1</i>").arg((record.reason.isEmpty() ? statusLabel(record.status)
                                                                                   : record.reason).toHtmlEscaped()));
        m_error->show();
    }
    showCharts();
    updateHeader();
    updateStyle();
}

QString RunEntry::tracebackHtml(const QString& traceback) const
{
    if (traceback.trimmed().isEmpty())
        return {};
    // Python: 'File "...", line 3, in <module>'; Node: 'at file:///.../main.mjs:3:5'.
    static const QRegularExpression linePattern(QStringLiteral("line (\\d+)|\\.[mc]?js:(\\d+):\\d+"));
    QString html = QStringLiteral("<pre style=\"margin:4px 0 0 0\">");
    for (const QString& line : traceback.split(QLatin1Char('\n'))) {
        const auto match = linePattern.match(line);
        const QString escaped = line.toHtmlEscaped();
        if (match.hasMatch()) {
            const QString number = match.captured(1).isEmpty() ? match.captured(2) : match.captured(1);
            html += QStringLiteral("<a href=\"line:%1\">%2</a>\n").arg(number, escaped);
        } else {
            html += escaped + QLatin1Char('\n');
        }
    }
    html += QStringLiteral("</pre>");
    return html;
}

void RunEntry::activateLink(const QString& link)
{
    if (link.startsWith(QLatin1String("line:"))) {
        bool ok = false;
        const int line = link.mid(5).toInt(&ok);
        if (ok)
            emit tracebackLineActivated(line);
    }
}

void RunEntry::showCharts()
{
    while (m_chartsLayout->count() > 1)
        delete m_chartsLayout->takeAt(0)->widget();
    for (int i = 0; i < m_record.charts.size(); ++i) {
        auto* thumb = new ChartThumbnail(m_record.charts[i], i, m_chartsRow);
        connect(thumb, &ChartThumbnail::clicked, this, [this, i] {
            emit selected(this);
            emit chartActivated(m_record.runId, i);
        });
        m_chartsLayout->insertWidget(i, thumb);
    }
    m_chartsRow->setVisible(!m_record.charts.isEmpty());
}

void RunEntry::updateHeader()
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    QString colour = palette().color(QPalette::Text).name();
    if (m_record.status == QLatin1String("success"))
        colour = dark ? QStringLiteral("#81c995") : QStringLiteral("#1e7e34");
    else if (m_record.status == QLatin1String("error") || m_record.status == QLatin1String("infrastructure_error"))
        colour = dark ? QStringLiteral("#f28b82") : QStringLiteral("#b3261e");
    else if (m_record.status == QLatin1String("timeout") || m_record.status == QLatin1String("cancelled"))
        colour = dark ? QStringLiteral("#fdd663") : QStringLiteral("#8a5a00");
    const QString status = m_running ? tr("running…") : statusLabel(m_record.status);
    QStringList parts;
    QString title = m_record.title;
    // A saved-revision run names its revision (runs loaded from the history store only the title).
    if (!m_record.revisionId.isEmpty() && !title.contains(m_record.revisionId.left(8)))
        title += tr(" · revision %1").arg(m_record.revisionId.left(8));
    parts << QStringLiteral("<b>[%1]</b> %2").arg(m_number).arg(title.toHtmlEscaped());
    parts << m_record.language.toHtmlEscaped() << m_record.provider.toHtmlEscaped();
    parts << QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>").arg(colour, status.toHtmlEscaped());
    if (!m_running) {
        parts << formatDuration(m_record.durationMs);
        parts << QStringLiteral("<b>%1</b>").arg(formatCost(m_record.costMicros));
    }
    if (m_record.startedAt.isValid())
        parts << m_record.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    m_header->setText(parts.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    setAccessibleDescription(headerText());
}

QString RunEntry::headerText() const
{
    QString plain = m_header->text();
    plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    plain.replace(QStringLiteral("&nbsp;"), QStringLiteral(" "));
    plain.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    plain.replace(QStringLiteral("&lt;"), QStringLiteral("<"));
    plain.replace(QStringLiteral("&gt;"), QStringLiteral(">"));
    return plain;
}

QString RunEntry::costText() const { return formatCost(m_record.costMicros); }
QString RunEntry::resultText() const { return m_record.result.value_or(QString()); }

QString RunEntry::errorText() const
{
    if (!m_record.error)
        return {};
    return m_record.error->name + QStringLiteral(": ") + m_record.error->value + QLatin1Char('\n')
           + m_record.error->traceback;
}

bool RunEntry::outputTruncated() const { return m_output->truncated(); }

QString RunEntry::fullOutput() const
{
    // Streamed text when it is complete; else what the run's result kept.
    if (m_output->fullTextComplete() && !m_output->fullText().isEmpty())
        return m_output->fullText();
    return m_record.stdoutText + m_record.stderrText;
}

void RunEntry::setSelected(bool selected)
{
    if (m_selected == selected)
        return;
    m_selected = selected;
    updateStyle();
}

void RunEntry::setCodeVisible(bool visible)
{
    m_codeToggle->setChecked(visible);
    m_codeToggle->setArrowType(visible ? Qt::DownArrow : Qt::RightArrow);
    m_code->setVisible(visible);
}

void RunEntry::updateStyle()
{
    QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    p.setColor(QPalette::Window, m_selected ? base.darker(base.lightness() < 128 ? 70 : 104) : base);
    setPalette(p);
    setLineWidth(m_selected ? 2 : 1);
}

void RunEntry::mousePressEvent(QMouseEvent* event)
{
    emit selected(this);
    QFrame::mousePressEvent(event);
}

void RunEntry::focusInEvent(QFocusEvent* event)
{
    emit selected(this);
    QFrame::focusInEvent(event);
}

void RunEntry::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::ApplicationPaletteChange)
        updateHeader();
}

QString RunEntry::formatCost(qint64 micros)
{
    return QStringLiteral("$%1").arg(double(micros) / 1e6, 0, 'f', 2);
}

QString RunEntry::formatDuration(qint64 ms)
{
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60000)
        return QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'f', 2);
    return QStringLiteral("%1 min %2 s").arg(ms / 60000).arg((ms % 60000) / 1000);
}

} // namespace sandpad
