#pragma once

#include "core/language/Language.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <functional>
#include <memory>

namespace sandpad {

class Executor;
class NotebookSession;
struct ExecutionResult;

// `sandpad-run --session` (docs/runtime-protocol.md, "Sessions"): one JSON request per line on
// stdin - {"code": ..., "language": ...}, {"interrupt": true}, {"restart": true}, {"variables":
// true}, {"fetch": NAME, "row", "rows", "column", "columns"} - and one JSON line per request on
// stdout: a run's is the --json schema plus execution_count. Requests run in order (an interrupt
// acts at once on the execution going on); the session ends at EOF.
class SessionCommand {
public:
    using PrintResult = std::function<void(const ExecutionResult&)>;
    using PrintObject = std::function<void(const QJsonObject&)>;
    SessionCommand(Executor& executor, Language defaultLanguage, int idleSeconds, PrintResult printResult,
                   PrintObject printObject);
    ~SessionCommand();
    int exec(); // 0 at EOF, whatever the executions did

private:
    void readInput();
    void take(const QByteArray& line); // one request line: queued, or an interrupt acted on now
    void next();                       // starts the next queued request when none is going on
    void finished();                   // the request going on answered

    Executor& m_executor;
    Language m_defaultLanguage;
    PrintResult m_printResult;
    PrintObject m_printObject;
    std::unique_ptr<NotebookSession> m_session;
    QByteArray m_buffer;
    QList<QJsonObject> m_queue;
    bool m_busy = false;
    bool m_eof = false;
    int m_lineNumber = 0;
    QString m_fetching; // the name of the fetch going on
    std::function<void()> m_onIdle; // after a request finished: the next one, or the end
};

} // namespace sandpad
