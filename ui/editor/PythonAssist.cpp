#include "ui/editor/PythonAssist.h"

#include "core/completion/CompletionService.h"
#include "core/completion/JediProtocol.h"
#include "core/session/NotebookSession.h"
#include "ui/editor/CodeEditor.h"

#include <QFontMetrics>
#include <QScrollBar>
#include <QTimer>
#include <Qsci/qsciscintilla.h>
#include <optional>

namespace sandpad {

namespace {

QFont styleFont(CodeEditor* editor, int style)
{
    QByteArray family(256, '\0');
    editor->SendScintilla(QsciScintillaBase::SCI_STYLEGETFONT, static_cast<unsigned long>(style), family.data());
    QFont font(QString::fromUtf8(family.constData()));
    const long size = editor->SendScintilla(QsciScintillaBase::SCI_STYLEGETSIZEFRACTIONAL, static_cast<unsigned long>(style));
    if (size > 0)
        font.setPointSizeF(double(size) / 100.0); // SC_FONT_SIZE_MULTIPLIER
    font.setBold(editor->SendScintilla(QsciScintillaBase::SCI_STYLEGETBOLD, static_cast<unsigned long>(style)) != 0);
    return font;
}

} // namespace

PythonAssist::PythonAssist(CompletionService* service, QObject* parent) : QObject(parent), m_service(service)
{
    connect(m_service, &CompletionService::answered, this, &PythonAssist::onAnswer);
}

void PythonAssist::attach(CodeEditor* editor, SessionLookup session)
{
    QPointer<CodeEditor> guard(editor);
    if (session)
        m_sessions.insert(editor, std::move(session));
    connect(editor, &QObject::destroyed, this, [this, editor] { m_sessions.remove(editor); });
    editor->setServiceHook([this, guard](AssistKind kind, quint64 ticket) {
        return guard && ask(guard, kind, ticket);
    });
    // Pre-warmed while the user reads the tab (a moment later: the window's start comes first).
    if (editor->language() == Language::Python)
        QTimer::singleShot(1000, m_service, [service = m_service] { service->start(); });
}

AssistRequest PythonAssist::requestAt(CodeEditor* editor, AssistKind kind, int column) const
{
    int line = 0, index = 0;
    editor->getCursorPosition(&line, &index);
    if (column >= 0)
        index = column;
    AssistRequest request;
    request.kind = kind;
    request.source = editor->text();
    request.line = line + 1;
    request.column = index;
    return request;
}

bool PythonAssist::ask(CodeEditor* editor, AssistKind kind, quint64 ticket, const QString& word, int column)
{
    if (editor->language() != Language::Python)
        return false;
    const SessionLookup lookup = m_sessions.value(editor);
    NotebookSession* session = lookup ? lookup() : nullptr;
    const bool serviceReady = m_service->isReady();
    if (!serviceReady)
        m_service->start();
    if (!serviceReady && !session)
        return false; // the words answer now
    const AssistRequest request = requestAt(editor, kind, column);
    // The newest question of a kind wins: an older one is not answered any more.
    for (auto it = m_queries.begin(); it != m_queries.end();)
        it = it->kind == kind ? m_queries.erase(it) : std::next(it);
    const quint64 query = m_nextQuery++;
    Query q{editor, kind, ticket, word, serviceReady, session != nullptr, {}, {}};
    q.service.error = q.session.error = QStringLiteral("not asked");
    m_queries.insert(query, q);
    if (serviceReady)
        m_byService.insert(m_service->request(request), query);
    if (session) {
        QPointer<PythonAssist> self(this);
        session->askIdle(JediProtocol::sessionRequest(request, m_sessionDeadlineMs), m_sessionDeadlineMs,
                         [self, query](const QByteArray& answer, const QString& error) {
                             if (self)
                                 self->onSessionAnswer(query, answer, error);
                         });
        // The session is interrupted at its deadline; a question it queued behind the previous
        // keystroke's, or a session that went, does not hold the service's answer up longer.
        QTimer::singleShot(m_sessionDeadlineMs + kSessionGraceMs, this, [this, query] {
            onSessionAnswer(query, {}, QStringLiteral("no answer"));
        });
    }
    return true;
}

void PythonAssist::requestHelp(CodeEditor* editor)
{
    if (!editor)
        return;
    QString word = editor->wordAtCursor();
    int column = -1;
    if (word.isEmpty()) {
        // Just inside a call's parenthesis (`json.dumps(|`, as Spyder's Ctrl+I): the called name.
        int line = 0, index = 0;
        editor->getCursorPosition(&line, &index);
        const QString before = editor->text(line).left(index);
        qsizetype at = before.size();
        while (at > 0 && before.at(at - 1).isSpace())
            --at;
        if (at > 0 && before.at(at - 1) == QLatin1Char('(')) {
            qsizetype start = --at;
            while (start > 0 && (before.at(start - 1).isLetterOrNumber() || before.at(start - 1) == QLatin1Char('_')))
                --start;
            if (start < at) {
                word = before.mid(start, at - start);
                column = int(at);
            }
        }
    }
    if (editor->language() != Language::Python) {
        emit helpReady(word, {}, tr("Help comes from Python's language service: this tab is JavaScript."));
        return;
    }
    if (!ask(editor, AssistKind::Help, 0, word, column))
        emit helpReady(word, {}, tr("The Python language service is starting; try again in a moment."));
}

void PythonAssist::highlightOf(const SignatureHint& hint, int* from, int* to)
{
    *from = *to = 0;
    if (hint.index < 0 || hint.index >= hint.params.size())
        return;
    // The parameters appear in order after the opening parenthesis.
    qsizetype at = hint.text.indexOf(QLatin1Char('('));
    if (at < 0)
        return;
    for (int i = 0; i <= hint.index; ++i) {
        const qsizetype found = hint.text.indexOf(hint.params[i], at + 1);
        if (found < 0)
            return;
        if (i == hint.index) {
            *from = int(found);
            *to = int(found + hint.params[i].size());
            return;
        }
        at = found + hint.params[i].size() - 1;
    }
}

QString PythonAssist::wrapCallTip(const QString& text, const QFont& font, int maxWidth, int* from, int* to)
{
    const QFontMetrics metrics(font);
    QString out = text;
    // Where a line may end: after the opening parenthesis (a newline inserted), at a space after
    // a comma or before "->" (the space becomes the newline).
    struct Break {
        qsizetype at;
        bool insert;
    };
    QList<Break> breaks;
    const qsizetype open = out.indexOf(QLatin1Char('('));
    for (qsizetype i = 1; i < out.size(); ++i) {
        if (i == open + 1 && out.at(i) != QLatin1Char(')'))
            breaks << Break{i, true};
        if (out.at(i) == QLatin1Char(' ')
            && (out.at(i - 1) == QLatin1Char(',') || QStringView(out).mid(i + 1).startsWith(u"->")))
            breaks << Break{i, false};
    }
    breaks << Break{out.size(), false};
    qsizetype shift = 0;     // newlines inserted so far
    qsizetype lineStart = 0;
    std::optional<Break> fits; // the last break before which the line still fitted (shifted)
    for (Break b : std::as_const(breaks)) {
        b.at += shift;
        const qsizetype newline = out.lastIndexOf(QLatin1Char('\n'), b.at - 1);
        if (newline >= lineStart) { // the text's own line break
            lineStart = newline + 1;
            fits.reset();
        }
        if (fits && fits->at > lineStart && metrics.horizontalAdvance(out.mid(lineStart, b.at - lineStart)) > maxWidth) {
            if (fits->insert) {
                out.insert(fits->at, QLatin1Char('\n'));
                ++shift;
                ++b.at;
                if (from && *from >= fits->at)
                    ++*from;
                if (to && *to > fits->at)
                    ++*to;
            } else {
                out[fits->at] = QLatin1Char('\n');
            }
            lineStart = fits->at + 1;
        }
        fits = b;
    }
    return out;
}

void PythonAssist::onAnswer(const AssistAnswer& answer)
{
    const auto it = m_byService.find(answer.id);
    if (it == m_byService.end())
        return;
    const quint64 query = *it;
    // Requests overtaken on the service's side are never answered: forget what is older.
    // (The service answers the oldest waiting request first: every older one is settled.)
    for (auto old = m_byService.begin(); old != m_byService.end();)
        old = old.key() <= answer.id ? m_byService.erase(old) : std::next(old);
    const auto q = m_queries.find(query);
    if (q == m_queries.end() || !q->waitService)
        return;
    q->service = answer;
    q->waitService = false;
    if (!q->waitSession)
        finish(query);
}

void PythonAssist::onSessionAnswer(quint64 query, const QByteArray& answer, const QString& error)
{
    const auto q = m_queries.find(query);
    if (q == m_queries.end() || !q->waitSession)
        return;
    if (error.isEmpty()) {
        q->session = JediProtocol::parseAnswer(answer, q->kind);
    } else {
        q->session = AssistAnswer{};
        q->session.kind = q->kind;
        q->session.error = error;
    }
    q->waitSession = false;
    if (!q->waitService)
        finish(query);
}

void PythonAssist::finish(quint64 query)
{
    const Query q = m_queries.take(query);
    const AssistAnswer answer = JediProtocol::merged(q.session, q.service);
    switch (q.kind) {
    case AssistKind::Complete: {
        if (!q.editor)
            return;
        QStringList names;
        for (const CompletionItem& item : answer.completions)
            names << item.name;
        q.editor->answerCompletions(q.ticket, names); // empty (or failed): the words
        break;
    }
    case AssistKind::Signatures:
        if (q.editor)
            showSignature(q.editor, q.ticket, answer);
        break;
    case AssistKind::Help:
        emit helpReady(q.word, answer.help,
                       answer.ok ? (answer.help.isEmpty() ? tr("No help found for \u201c%1\u201d.").arg(q.word) : QString())
                                 : tr("No help: %1.").arg(answer.error));
        break;
    }
}

void PythonAssist::showSignature(CodeEditor* editor, quint64 ticket, const AssistAnswer& answer)
{
    if (answer.signatures.isEmpty()) {
        editor->answerSignature(ticket, {});
        return;
    }
    const SignatureHint& hint = answer.signatures.first();
    int from = 0, to = 0;
    highlightOf(hint, &from, &to);
    // Within the editor: from the cursor (the tip starts at the call's parenthesis, at or left of
    // it) to the viewport's right edge, in the font Scintilla draws calltips with (STYLE_DEFAULT
    // or STYLE_CALLTIP: the wider counts), less the tip's own border and padding.
    const int position = int(editor->SendScintilla(QsciScintillaBase::SCI_GETCURRENTPOS));
    const int x = int(editor->SendScintilla(QsciScintillaBase::SCI_POINTXFROMPOSITION, 0ul, static_cast<long>(position)));
    const int viewport = editor->viewport()->width();
    const int available = qMax(viewport / 3, viewport - qMax(0, x)) - 24;
    QFont font = styleFont(editor, QsciScintillaBase::STYLE_DEFAULT);
    const QFont calltip = styleFont(editor, QsciScintillaBase::STYLE_CALLTIP);
    if (QFontMetrics(calltip).averageCharWidth() > QFontMetrics(font).averageCharWidth())
        font = calltip;
    QString text = wrapCallTip(hint.text, font, available, &from, &to);
    if (answer.signatures.size() > 1)
        text += tr("\n(+%n other signature(s))", nullptr, int(answer.signatures.size() - 1));
    editor->answerSignature(ticket, text, from, to);
}

} // namespace sandpad
