#pragma once

#include "core/completion/AssistTypes.h"

#include <QFont>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <functional>

namespace sandpad {

class CodeEditor;
class CompletionService;
class NotebookSession;

// Connects Python editors to the language service (core/completion): completions and calltips
// through CodeEditor's service hook, help for the name under the cursor for the help pane. When
// the tab has a notebook session that is local and idle, the same question also goes to the
// session's live namespace (NotebookSession::askIdle, jedi.Interpreter inside its sandbox) and
// its names come first; while a cell runs, or the session is remote or gone, the service answers
// alone. While neither can answer (the service starting, no session) the editor's word completion
// answers; JavaScript editors always get the word completion.
class PythonAssist : public QObject {
    Q_OBJECT
public:
    // The tab's session when its runs go to one (null otherwise).
    using SessionLookup = std::function<NotebookSession*()>;
    static constexpr int kSessionDeadlineMs = 1000; // a session's answer, then SIGINT (and the service alone)
    static constexpr int kSessionGraceMs = 500;      // then the service's answer is shown without it

    PythonAssist(CompletionService* service, QObject* parent = nullptr);

    void attach(CodeEditor* editor, SessionLookup session = {});
    // F1 / Ctrl+I: answered as helpReady (at once when there is nothing to ask).
    void requestHelp(CodeEditor* editor);
    CompletionService* service() const { return m_service; }
    void setSessionDeadlineMs(int ms) { m_sessionDeadlineMs = qMax(50, ms); }
    int sessionDeadlineMs() const { return m_sessionDeadlineMs; }

    // The calltip text and its current parameter's range in it ([from, to); from == to: none).
    static void highlightOf(const SignatureHint& hint, int* from, int* to);
    // The calltip broken into lines of at most maxWidth pixels in `font`: after the opening
    // parenthesis (a newline inserted), and at a space after a comma or before "->" (the space
    // becomes the newline). [*from, *to), the current parameter's range, moves with the text. A
    // parameter longer than the width stays whole on its line.
    static QString wrapCallTip(const QString& text, const QFont& font, int maxWidth, int* from = nullptr, int* to = nullptr);

signals:
    void helpReady(const QString& word, const QList<sandpad::HelpEntry>& entries, const QString& message);

private:
    struct Query {
        QPointer<CodeEditor> editor;
        AssistKind kind = AssistKind::Complete;
        quint64 ticket = 0;
        QString word;
        bool waitService = false;
        bool waitSession = false;
        AssistAnswer service;
        AssistAnswer session;
    };
    // `column` (>= 0): asked there on the cursor's line instead of at the cursor.
    bool ask(CodeEditor* editor, AssistKind kind, quint64 ticket, const QString& word = {}, int column = -1);
    AssistRequest requestAt(CodeEditor* editor, AssistKind kind, int column = -1) const;
    void onAnswer(const AssistAnswer& answer);
    void onSessionAnswer(quint64 query, const QByteArray& answer, const QString& error);
    void finish(quint64 query);
    void showSignature(CodeEditor* editor, quint64 ticket, const AssistAnswer& answer);

    CompletionService* m_service;
    QHash<CodeEditor*, SessionLookup> m_sessions;
    QHash<quint64, Query> m_queries;   // the newest question of each kind, by its own number
    QHash<quint64, quint64> m_byService; // service request id -> query
    quint64 m_nextQuery = 1;
    int m_sessionDeadlineMs = kSessionDeadlineMs;
};

} // namespace sandpad
