#include "ui/editor/PythonAssist.h"

#include "core/completion/CompletionService.h"
#include "ui/editor/CodeEditor.h"

#include <QTimer>

namespace sandpad {

PythonAssist::PythonAssist(CompletionService* service, QObject* parent) : QObject(parent), m_service(service)
{
    connect(m_service, &CompletionService::answered, this, &PythonAssist::onAnswer);
}

void PythonAssist::attach(CodeEditor* editor)
{
    QPointer<CodeEditor> guard(editor);
    editor->setServiceHook([this, guard](AssistKind kind, quint64 ticket) {
        return guard && ask(guard, kind, ticket);
    });
    // Pre-warmed while the user reads the tab (a moment later: the window's start comes first).
    if (editor->language() == Language::Python)
        QTimer::singleShot(1000, m_service, [service = m_service] { service->start(); });
}

AssistRequest PythonAssist::requestAt(CodeEditor* editor, AssistKind kind) const
{
    int line = 0, index = 0;
    editor->getCursorPosition(&line, &index);
    AssistRequest request;
    request.kind = kind;
    request.source = editor->text();
    request.line = line + 1;
    request.column = index;
    return request;
}

bool PythonAssist::ask(CodeEditor* editor, AssistKind kind, quint64 ticket)
{
    if (editor->language() != Language::Python)
        return false;
    if (!m_service->isReady()) {
        m_service->start();
        return false; // the words answer now
    }
    const quint64 id = m_service->request(requestAt(editor, kind));
    m_asked.insert(id, Asked{editor, kind, ticket, {}});
    return true;
}

void PythonAssist::requestHelp(CodeEditor* editor)
{
    if (!editor)
        return;
    const QString word = editor->wordAtCursor();
    if (editor->language() != Language::Python) {
        emit helpReady(word, {}, tr("Help comes from Python's language service: this tab is JavaScript."));
        return;
    }
    if (!m_service->isReady()) {
        m_service->start();
        emit helpReady(word, {}, tr("The Python language service is starting; try again in a moment."));
        return;
    }
    const quint64 id = m_service->request(requestAt(editor, AssistKind::Help));
    m_asked.insert(id, Asked{editor, AssistKind::Help, 0, word});
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

void PythonAssist::onAnswer(const AssistAnswer& answer)
{
    const auto it = m_asked.find(answer.id);
    if (it == m_asked.end())
        return;
    const Asked asked = *it;
    m_asked.erase(it);
    // Requests overtaken on the service's side are never answered: forget what is older.
    for (auto old = m_asked.begin(); old != m_asked.end();)
        old = old.key() < answer.id && old->kind == asked.kind ? m_asked.erase(old) : std::next(old);
    switch (answer.kind) {
    case AssistKind::Complete: {
        if (!asked.editor)
            return;
        QStringList names;
        for (const CompletionItem& item : answer.completions)
            names << item.name;
        asked.editor->answerCompletions(asked.ticket, names); // empty (or failed): the words
        break;
    }
    case AssistKind::Signatures: {
        if (!asked.editor)
            return;
        if (answer.signatures.isEmpty()) {
            asked.editor->answerSignature(asked.ticket, {});
            return;
        }
        const SignatureHint& hint = answer.signatures.first();
        int from = 0, to = 0;
        highlightOf(hint, &from, &to);
        QString text = hint.text;
        if (answer.signatures.size() > 1)
            text += tr("\n(+%n other signature(s))", nullptr, int(answer.signatures.size() - 1));
        asked.editor->answerSignature(asked.ticket, text, from, to);
        break;
    }
    case AssistKind::Help:
        emit helpReady(asked.word, answer.help,
                       answer.ok ? (answer.help.isEmpty() ? tr("No help found for \u201c%1\u201d.").arg(asked.word) : QString())
                                 : tr("No help: %1.").arg(answer.error));
        break;
    }
}

} // namespace sandpad
