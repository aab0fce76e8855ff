#include "ui/console/RunEntry.h"

#include "core/accounting/Money.h"
#include "core/run/Run.h"
#include "core/run/TracebackLines.h"
#include "ui/console/ArtifactList.h"
#include "ui/console/ChartThumbnail.h"
#include "ui/outputs/OutputsPanel.h"
#include "ui/console/CutNotice.h"
#include "ui/console/ElapsedTime.h"
#include "ui/console/OutputView.h"
#include "ui/console/SummaryLabel.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QEvent>
#include <QFontDatabase>
#include <QHash>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTimer>
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

// Lines of the document, up to maxLines (all of them when it wraps a cut line: it is long).
void fitHeight(QPlainTextEdit* edit, int maxLines, bool tall = false)
{
    const int lines = tall ? maxLines : std::clamp(int(edit->document()->blockCount()), 1, maxLines);
    edit->setFixedHeight(lines * edit->fontMetrics().lineSpacing()
                         + 2 * int(edit->document()->documentMargin()) + 6);
}

// A label wraps only between words: a zero-width space every 80 characters of a longer word
// lets it wrap there instead of growing past the view (the whole text is copied from the run).
QString breakable(const QString& text)
{
    constexpr int kRun = 80;
    QString out;
    int run = 0;
    for (const QChar c : text) {
        run = c.isSpace() ? 0 : run + 1;
        if (run > kRun && !c.isLowSurrogate()) {
            out += QChar(0x200b);
            run = 1;
        }
        out += c;
    }
    return out;
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

RunEntry::RunEntry(int number, Run* run, std::optional<RunPreviewCuts> preview, QWidget* parent)
    : QFrame(parent), m_number(number), m_run(run), m_preview(preview), m_code(run->origin().code),
      m_running(!run->isFinished()), m_header(new SummaryLabel(this)),
      m_codeToggle(new QToolButton(this)), m_codeBlock(makeTextBlock(this, tr("Code that ran"))),
      m_output(new OutputView(this)), m_truncation(new CutNotice(tr("Output truncated notice"), this)),
      m_result(makeTextBlock(this, tr("Result"))), m_resultNotice(new CutNotice(tr("Result cut notice"), this)),
      m_error(new QLabel(this)),
      m_chartsRow(new QWidget(this)), m_chartsLayout(new QHBoxLayout(m_chartsRow)), m_artifacts(new ArtifactList(this)),
      m_outputs(new OutputsPanel(this))
{
    m_elapsedStart = QDateTime::currentMSecsSinceEpoch();

    setFocusPolicy(Qt::StrongFocus);
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setAccessibleName(tr("Run %1").arg(number));

    m_header->setAccessibleName(tr("Run summary"));
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wraps in a narrow notebook (Variables dock open) rather than cut the cost and time off:
    // between its items, each line with the whole items that fit.
    m_codeToggle->setText(tr("Code"));
    m_codeToggle->setCheckable(true);
    m_codeToggle->setAutoRaise(true);
    m_codeToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_codeToggle->setArrowType(Qt::RightArrow);
    m_codeToggle->setAccessibleName(tr("Show the code of run %1").arg(number));
    connect(m_codeToggle, &QToolButton::toggled, this, &RunEntry::setCodeVisible);
    bool codeCut = false;
    m_codeBlock->setPlainText(shown(RunPreview::Part::Code, m_code, &codeCut));

    connect(m_truncation, &CutNotice::copyRequested, this, [this] { activateLink(QStringLiteral("copy:output")); });
    connect(m_truncation, &CutNotice::saveRequested, this, [this] { activateLink(QStringLiteral("save:output")); });
    connect(m_output, &OutputView::truncatedChanged, this, &RunEntry::updateOutputNotice);
    connect(m_resultNotice, &CutNotice::copyRequested, this, [this] { activateLink(QStringLiteral("copy:result")); });
    connect(m_resultNotice, &CutNotice::saveRequested, this, [this] { activateLink(QStringLiteral("save:result")); });

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
    m_outputs->hide();

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_header, 1);
    top->addWidget(m_codeToggle);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(4);
    layout->addLayout(top);
    layout->addWidget(m_codeBlock);
    layout->addWidget(m_output);
    layout->addWidget(m_truncation);
    layout->addWidget(m_outputs);
    layout->addWidget(m_result);
    layout->addWidget(m_resultNotice);
    layout->addWidget(m_error);
    layout->addWidget(m_chartsRow);
    layout->addWidget(m_artifacts);
    connect(m_artifacts, &ArtifactList::fileError, this, &RunEntry::copyFailed);
    // A file too big for the history's preview is read back from the stored run when opened.
    m_artifacts->setContentSource([this](const QString& name) -> std::optional<QByteArray> {
        const std::optional<ExecutionResult> whole = m_wholeSource && m_run ? m_wholeSource(m_run->id()) : std::nullopt;
        if (whole)
            for (const RunArtifact& a : whole->artifacts)
                if (a.name == name)
                    return a.content;
        return std::nullopt;
    });
    fitHeight(m_codeBlock, 14);
    updateHeader();
    updateStyle();
    if (!m_running) {
        run->setParent(this);
        showFinished();
        return;
    }
    if (!run->parent())
        run->setParent(this); // nobody else holds it (a test's run)
    connect(run, &Run::output, this, &RunEntry::appendOutput);
    // "Did it run?": the header's clock ticks while the run is in flight.
    m_tick = new QTimer(this);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &RunEntry::updateHeader);
    m_tick->start();
    // Shown when the result is validated (its cost pending), again when the run is recorded.
    connect(run, &Run::validated, this, [this] {
        m_running = false;
        m_tick->stop();
        showFinished();
    });
    connect(run, &Run::finished, this, [this] {
        m_running = false;
        m_tick->stop();
        m_run->setParent(this); // the Executor lets go of a finished run
        showFinished();
    });
}

QString RunEntry::runId() const
{
    return m_run ? m_run->id() : QString();
}

const ExecutionResult& RunEntry::result() const
{
    static const ExecutionResult none;
    return m_run ? m_run->result() : none;
}

QString RunEntry::title() const
{
    if (!m_run)
        return {};
    return m_run->origin().title.isEmpty() ? m_run->result().title : m_run->origin().title;
}

QString RunEntry::statusText() const
{
    return m_running ? QStringLiteral("running") : runStatusName(result().status);
}

void RunEntry::appendOutput(OutputStream stream, const QString& text)
{
    m_output->append(stream, text);
}

void RunEntry::showFinished()
{
    const ExecutionResult& r = result();
    if (!r.code.isEmpty())
        m_code = r.code;
    if (m_output->isEmptyOutput()) { // the run keeps these texts: the view only shows them
        m_output->appendShownOnly(OutputStream::Stdout, r.stdoutText);
        m_output->appendShownOnly(OutputStream::Stderr, r.stderrText);
    }
    m_output->finishOutput();
    updateOutputNotice();
    bool codeCut = false;
    m_codeBlock->setPlainText(shown(RunPreview::Part::Code, m_code, &codeCut));
    fitHeight(m_codeBlock, 14);
    showResult();
    showError();
    showCharts();
    m_artifacts->setArtifacts(r.artifacts, r.runId);
    // Rich outputs, in order with the text: the printed text goes between them when it is all
    // there (nothing on stderr to keep in its own order, nothing cut), else they follow it.
    m_outputs->hide();
    const bool interleave = !r.outputs.isEmpty() && r.stderrText.isEmpty() && !r.stdoutTruncated && !isCut(Part::Output);
    m_outputs->setOutputs(r.outputs, interleave ? r.stdoutText : QString());
    if (interleave)
        m_output->hide();
    updateHeader();
    updateStyle();
}

QString RunEntry::shown(RunPreview::Part part, const QString& text, bool* cut) const
{
    if (m_preview) // already bounded by the history (bounding it again would re-cut)
        return text;
    const TextPreview preview = RunPreview::of(part, text);
    *cut = *cut || preview.isCut();
    return preview.text();
}

void RunEntry::showResult()
{
    m_resultCut = m_preview && m_preview->result;
    const ExecutionResult& r = this->result();
    const std::optional<QString>& whole = r.result;
    // A DataFrame (or any value with a rich form) `result` is shown as that output, the run's
    // last: its text form beside it would show it twice (issue 14).
    const bool shownRich = whole && !r.outputs.isEmpty() && r.outputs.constLast().type != RunOutput::Type::Text
                           && r.outputs.constLast().plain.trimmed() == whole->trimmed();
    const QString result = whole && !shownRich ? shown(RunPreview::Part::Result, *whole, &m_resultCut) : QString();
    // A result keeps its lines (tables): but a cut line wraps, so that its marker is seen.
    const bool wrap = TextPreview::hasCutLine(result);
    m_result->setLineWrapMode(wrap ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
    m_result->setPlainText(result);
    fitHeight(m_result, 12, wrap);
    m_result->setVisible(!result.isEmpty());
    if (m_resultCut)
        m_resultNotice->setText(tr("Result cut for display%1. The whole result:").arg(whatIsCut(result)));
    m_resultNotice->setVisible(m_resultCut && !result.isEmpty());
}

void RunEntry::showError()
{
    const ExecutionResult& r = result();
    const QString status = runStatusName(r.status);
    m_errorCut = m_preview && m_preview->error;
    if (r.error) {
        const QString name = shown(RunPreview::Part::ErrorName, r.error->name, &m_errorCut);
        const QString value = shown(RunPreview::Part::ErrorValue, r.error->value, &m_errorCut);
        const QString traceback = shown(RunPreview::Part::Traceback, r.error->traceback, &m_errorCut);
        QString html = QStringLiteral("<b>%1</b>: %2%3").arg(breakable(name).toHtmlEscaped(), breakable(value).toHtmlEscaped(),
                                                           tracebackHtml(traceback));
        if (r.error->name == QLatin1String("PipInstallError"))
            html += tr("<p><i>Installing packages needs the sandbox's network (Edit &gt; Settings &gt; "
                       "Execution: “Allow network access from the sandbox”) or a pip wheel folder set there.</i></p>");
        if (m_errorCut)
            html += tr("<i>Error cut for display%1.</i> %2")
                        .arg(whatIsCut(name + value + traceback), wholeLinks(Part::Error));
        m_error->setText(html);
        m_error->show();
    } else if (r.status != RunStatus::Success && !r.message.isEmpty()
               && m_output->isEmptyOutput()) {
        bool cut = false;
        m_error->setText(shown(RunPreview::Part::Message, r.message, &cut).toHtmlEscaped());
        m_error->show();
    } else if (r.status == RunStatus::Timeout || r.status == RunStatus::Cancelled
               || r.status == RunStatus::InfrastructureError) {
        bool cut = false;
        const QString reason = shown(RunPreview::Part::Reason, r.reason, &cut);
        m_error->setText(QStringLiteral("<i>%1</i>").arg((reason.isEmpty() ? statusLabel(status) : reason).toHtmlEscaped()));
        m_error->show();
    }
}

QString RunEntry::whatIsCut(const QString& shownText)
{
    QStringList what;
    if (TextPreview::hasCutLine(shownText))
        what << tr("long lines cut");
    if (TextPreview::hasLinesLeftOut(shownText))
        what << tr("lines left out");
    return what.isEmpty() ? QString() : QStringLiteral(": ") + what.join(QStringLiteral(", "));
}

QString RunEntry::wholeLinks(Part part)
{
    const QString name = part == Part::Output ? QStringLiteral("output")
                         : part == Part::Result ? QStringLiteral("result")
                                                : QStringLiteral("error");
    return tr("<i>The whole %1:</i> <a href=\"copy:%1\">Copy</a> · <a href=\"save:%1\">Save…</a>").arg(name);
}

void RunEntry::updateOutputNotice()
{
    QStringList what;
    if (m_output->linesDropped())
        what << tr("showing the last %1 lines").arg(TextPreview::formatCount(m_output->document()->blockCount()));
    if (m_output->linesCut() > 0)
        what << (m_output->linesCut() == 1 ? tr("1 long line cut")
                                           : tr("%1 long lines cut").arg(TextPreview::formatCount(m_output->linesCut())));
    if (what.isEmpty() && m_preview && (m_preview->stdoutText || m_preview->stderrText)) {
        // A reloaded run: its preview says what was left out.
        const QString shownText = result().stdoutText + result().stderrText;
        if (TextPreview::hasLinesLeftOut(shownText))
            what << tr("earlier lines not shown");
        if (TextPreview::hasCutLine(shownText))
            what << tr("long lines cut");
        if (what.isEmpty())
            what << tr("a part is shown");
    }
    if (what.isEmpty()) {
        m_truncation->hide();
        return;
    }
    m_truncation->setText(tr("Output cut for display: %1. The whole output:").arg(what.join(QStringLiteral("; "))));
    m_truncation->show();
}

QString RunEntry::tracebackHtml(const QString& traceback) const
{
    if (traceback.trimmed().isEmpty())
        return {};
    const ExecutionResult& r = result();
    const Language language = m_run && !m_run->hasResult() ? m_run->origin().language : r.language;
    const QString title = !r.title.isEmpty() ? r.title : m_run ? m_run->origin().title : QString();
    QHash<int, TracebackLines::Link> links;
    for (const TracebackLines::Link& link : TracebackLines::links(traceback, language, title))
        links.insert(link.textLine, link);
    // pre-wrap, not <pre>: a long line wraps instead of widening the entry past the view.
    QString html = QStringLiteral("<div style=\"margin:4px 0 0 0; white-space:pre-wrap; font-family:monospace\">");
    const int offset = m_run && m_run->origin().firstLine > 1 ? m_run->origin().firstLine - 1 : 0;
    const QStringList lines = traceback.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (const auto it = links.constFind(i); it != links.cend()) {
            // A cell or a selection ran from an editor line further down: the text says the
            // editor's line, as the gutter mark does (the link keeps the run's own line).
            QString shownLine = line;
            if (offset > 0)
                shownLine.replace(it->numberStart, it->numberLength, QString::number(it->codeLine + offset));
            html += QStringLiteral("<a href=\"line:%1\">%2</a>\n").arg(it->codeLine).arg(breakable(shownLine).toHtmlEscaped());
        } else {
            html += breakable(line).toHtmlEscaped() + QLatin1Char('\n');
        }
    }
    html += QStringLiteral("</div>");
    return html;
}

void RunEntry::activateLink(const QString& link)
{
    if (link.startsWith(QLatin1String("line:"))) {
        bool ok = false;
        const int line = link.mid(5).toInt(&ok);
        if (ok)
            emit tracebackLineActivated(line);
        return;
    }
    const QString name = link.section(QLatin1Char(':'), 1);
    const Part part = name == u"result" ? Part::Result : name == u"error" ? Part::Error : Part::Output;
    if (link == u"save" || link == u"save:output") {
        emit saveOutputRequested(this);
    } else if (link.startsWith(QLatin1String("save:"))) {
        emit saveTextRequested(this, part);
    } else if (link.startsWith(QLatin1String("copy:"))) {
        QString error;
        if (!copyWholeText(part, &error))
            emit copyFailed(error);
    }
}

void RunEntry::showCharts()
{
    while (m_chartsLayout->count() > 1)
        delete m_chartsLayout->takeAt(0)->widget();
    const QList<RunChart>& charts = result().charts;
    for (int i = 0; i < charts.size(); ++i) {
        auto* thumb = new ChartThumbnail(charts[i], i, m_chartsRow);
        connect(thumb, &ChartThumbnail::clicked, this, [this, i] {
            emit selected(this);
            emit chartActivated(runId(), i);
        });
        m_chartsLayout->insertWidget(i, thumb);
    }
    m_chartsRow->setVisible(!charts.isEmpty());
}

void RunEntry::updateHeader()
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    QString colour = palette().color(QPalette::Text).name();
    const ExecutionResult& r = result();
    if (!m_running && r.status == RunStatus::Success)
        colour = dark ? QStringLiteral("#81c995") : QStringLiteral("#1e7e34");
    else if (!m_running && (r.status == RunStatus::Error || r.status == RunStatus::InfrastructureError))
        colour = dark ? QStringLiteral("#f28b82") : QStringLiteral("#b3261e");
    else if (!m_running && (r.status == RunStatus::Timeout || r.status == RunStatus::Cancelled))
        colour = dark ? QStringLiteral("#fdd663") : QStringLiteral("#8a5a00");
    const QString status = m_running ? tr("running… %1").arg(formatElapsed(elapsedMs()))
                                     : statusLabel(runStatusName(r.status));
    QStringList parts;
    QString title = this->title();
    // A saved-revision run names its revision (runs loaded from the history store only the title).
    const QString revisionId = m_running && m_run ? m_run->origin().revisionId : r.revisionId;
    if (!revisionId.isEmpty() && !title.contains(revisionId.left(8)))
        title += tr(" · revision %1").arg(revisionId.left(8));
    const QString language = m_running && m_run ? languageName(m_run->origin().language) : languageName(r.language);
    const QString provider = m_run ? m_run->provider() : QString();
    parts << QStringLiteral("<b>[%1]</b> %2").arg(m_number).arg(title.toHtmlEscaped());
    parts << language.toHtmlEscaped() << provider.toHtmlEscaped();
    parts << QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>").arg(colour, status.toHtmlEscaped());
    if (!m_running) {
        parts << formatDuration(r.durationMs);
        parts << (r.costPending ? tr("cost pending") : QStringLiteral("<b>%1</b>").arg(formatCost(r.costMicros)));
    }
    if (m_run && m_run->startedAt().isValid())
        parts << m_run->startedAt().toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    m_header->setItems(parts);
    setAccessibleDescription(headerText());
}

QString RunEntry::headerText() const { return m_header->plainText(); }

qint64 RunEntry::elapsedMs() const
{
    return m_running ? QDateTime::currentMSecsSinceEpoch() - m_elapsedStart : result().durationMs;
}

QString RunEntry::costText() const { return formatCost(result().costMicros); }
QString RunEntry::resultText() const { return result().result.value_or(QString()); }

namespace {

QString errorTextOf(const ExecutionResult& r)
{
    if (!r.error)
        return {};
    return r.error->name + QStringLiteral(": ") + r.error->value + QLatin1Char('\n') + r.error->traceback;
}

} // namespace

QString RunEntry::errorText() const { return errorTextOf(result()); }
QString RunEntry::shownResultText() const { return m_result->toPlainText(); }
QString RunEntry::shownErrorText() const { return m_error->text(); }

bool RunEntry::outputTruncated() const { return m_output->truncated(); }

bool RunEntry::isCut(Part part) const
{
    switch (part) {
    case Part::Output:
        return m_output->truncated() || (m_preview && (m_preview->stdoutText || m_preview->stderrText));
    case Part::Result:
        return m_resultCut;
    case Part::Error:
        return m_errorCut;
    }
    return false;
}

QString RunEntry::fullOutput() const
{
    QString text;
    return wholeText(Part::Output, &text) ? text : QString();
}

bool RunEntry::wholeText(Part part, QString* text, QString* error) const
{
    const RunPreviewCuts cuts = m_preview.value_or(RunPreviewCuts{});
    const bool inHistory = part == Part::Output ? cuts.stdoutText || cuts.stderrText
                           : part == Part::Result ? cuts.result
                                                  : cuts.error;
    if (!inHistory) {
        if (part == Part::Output) {
            // Streamed text when it is complete; else what the run's result kept.
            *text = m_output->fullTextComplete() && !m_output->fullText().isEmpty()
                        ? m_output->fullText()
                        : result().stdoutText + result().stderrText;
        } else {
            *text = part == Part::Result ? resultText() : errorText();
        }
        return true;
    }
    // Read back, used and let go: the entry keeps holding only its preview.
    const std::optional<ExecutionResult> whole = m_wholeSource ? m_wholeSource(runId()) : std::nullopt;
    if (!whole) {
        if (error)
            *error = tr("the whole text of run %1 is not in the history any more").arg(m_number);
        return false;
    }
    *text = part == Part::Output ? whole->stdoutText + whole->stderrText
            : part == Part::Result ? whole->result.value_or(QString())
                                   : errorTextOf(*whole);
    return true;
}

bool RunEntry::copyWholeText(Part part, QString* error)
{
    QString text;
    if (!wholeText(part, &text, error))
        return false;
    QApplication::clipboard()->setText(text);
    return true;
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
    m_codeBlock->setVisible(visible);
}

void RunEntry::updateStyle()
{
    if (m_styling)
        return;
    m_styling = true; // setPalette sends a PaletteChange back here
    QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    p.setColor(QPalette::Window, m_selected ? base.darker(base.lightness() < 128 ? 70 : 104) : base);
    setPalette(p);
    setLineWidth(m_selected ? 2 : 1);
    m_styling = false;
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
    // A theme change: the card's background is derived from the palette's base (set on the
    // entry, so it does not follow by itself), the status colours from its lightness.
    if ((event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::PaletteChange)
        && !m_styling) {
        updateStyle();
        updateHeader();
        // A rich-text label takes its links' colour from the palette when its text is parsed:
        // the traceback's line links kept the old theme's blue (unreadable on the dark card).
        if (const QString error = m_error->text(); !error.isEmpty()) {
            m_error->clear();
            m_error->setText(error);
        }
    }
}

QString RunEntry::formatCost(qint64 micros)
{
    return formatMoney(micros);
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
