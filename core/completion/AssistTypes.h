#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace sandpad {

// What the editor asks a language service about the text around the cursor.
enum class AssistKind { Complete, Signatures, Help };

struct AssistRequest {
    AssistKind kind = AssistKind::Complete;
    QString source;  // the whole buffer
    int line = 1;    // 1-based
    int column = 0;  // 0-based, in QString (UTF-16) units of that line
    int deadlineMs = 0; // 0: the service's own (CompletionService::Options::deadlineMs)

    // With the cursor at the end of the text.
    static AssistRequest atEnd(AssistKind kind, const QString& source)
    {
        AssistRequest request;
        request.kind = kind;
        request.source = source;
        const QStringList lines = source.split(QLatin1Char('\n'));
        request.line = int(lines.size());
        request.column = int(lines.last().size());
        return request;
    }
};

struct CompletionItem {
    QString name;
    QString type;    // Jedi's: "function", "module", "statement", "class", "keyword", "path", ...
};

// One signature of the call around the cursor: "join(a, *paths)" with the parameter the cursor is in.
struct SignatureHint {
    QString name;
    QString text;
    QStringList params;
    int index = -1;  // the current parameter, -1 when none
};

struct HelpEntry {
    QString name;
    QString fullName; // "os.path.join"
    QString type;
    QString doc;      // the signature(s) and the docstring, as Jedi gives them
};

struct AssistAnswer {
    quint64 id = 0;
    AssistKind kind = AssistKind::Complete;
    bool ok = false;
    // Why not ok: "late" (past the deadline), "not ready", "too large", "unavailable: ...", Jedi's
    // own exception name, "bad answer".
    QString error;
    QList<CompletionItem> completions;
    QList<SignatureHint> signatures;
    QList<HelpEntry> help;
    qint64 elapsedMs = 0; // from request() to the answer, on the service's side

    QStringList names() const
    {
        QStringList out;
        for (const CompletionItem& item : completions)
            out << item.name;
        return out;
    }
};

} // namespace sandpad

Q_DECLARE_METATYPE(sandpad::AssistAnswer)
