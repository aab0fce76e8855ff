#pragma once

#include "core/completion/AssistTypes.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace sandpad {

class CodeEditor;
class CompletionService;

// Connects Python editors to the language service (core/completion): completions and calltips
// through CodeEditor's service hook, help for the name under the cursor for the help pane. While
// the service is not ready (starting, restarting, unavailable) the editor's word completion
// answers; JavaScript editors always get the word completion.
class PythonAssist : public QObject {
    Q_OBJECT
public:
    PythonAssist(CompletionService* service, QObject* parent = nullptr);

    void attach(CodeEditor* editor);
    // F1 / Ctrl+I: answered as helpReady (at once when there is nothing to ask).
    void requestHelp(CodeEditor* editor);
    CompletionService* service() const { return m_service; }

    // The calltip text and its current parameter's range in it ([from, to); from == to: none).
    static void highlightOf(const SignatureHint& hint, int* from, int* to);

signals:
    void helpReady(const QString& word, const QList<sandpad::HelpEntry>& entries, const QString& message);

private:
    bool ask(CodeEditor* editor, AssistKind kind, quint64 ticket);
    AssistRequest requestAt(CodeEditor* editor, AssistKind kind) const;
    void onAnswer(const AssistAnswer& answer);

    struct Asked {
        QPointer<CodeEditor> editor;
        AssistKind kind = AssistKind::Complete;
        quint64 ticket = 0;
        QString word;
    };
    CompletionService* m_service;
    QHash<quint64, Asked> m_asked; // service request id -> who asked
};

} // namespace sandpad
