#include "SessionCommand.h"

#include "core/engine/Executor.h"
#include "core/run/Run.h"
#include "core/session/NotebookSession.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSocketNotifier>

#include <cerrno>
#include <unistd.h>

namespace sandpad {

SessionCommand::SessionCommand(Executor& executor, Language defaultLanguage, int idleSeconds, PrintResult printResult,
                               PrintObject printObject)
    : m_executor(executor), m_defaultLanguage(defaultLanguage), m_printResult(std::move(printResult)),
      m_printObject(std::move(printObject)), m_session(std::make_unique<NotebookSession>(&executor))
{
    if (idleSeconds > 0)
        m_session->setIdleSeconds(idleSeconds);
}

SessionCommand::~SessionCommand() = default;

int SessionCommand::exec()
{
    QEventLoop loop;
    if (!m_session->sessionsSupported())
        m_printObject(QJsonObject{{QStringLiteral("notice"),
                                   QStringLiteral("the %1 provider has no sessions: it runs every cell fresh").arg(m_executor.providerName())}});
    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &loop, [&] {
        readInput();
        if (m_eof)
            input.setEnabled(false);
        next();
        if (m_eof && !m_busy && m_queue.isEmpty())
            loop.quit();
    });
    QObject::connect(m_session.get(), &NotebookSession::sessionEnded, &loop, [this](const QString& why) {
        m_printObject(QJsonObject{{QStringLiteral("session_ended"), why}});
    });
    auto check = [&] {
        next();
        if (m_eof && !m_busy && m_queue.isEmpty())
            loop.quit();
    };
    m_onIdle = check;
    QObject::connect(m_session.get(), &NotebookSession::tableFetched, &loop, [this](quint64, const TableWindow& w) {
        QJsonObject o{{QStringLiteral("fetch"), m_fetching}};
        if (!w.ok()) {
            o.insert(QStringLiteral("error"), w.error);
        } else {
            QJsonArray cells;
            for (const QStringList& line : w.cells)
                cells.append(QJsonArray::fromStringList(line));
            o.insert(QStringLiteral("type"), w.type);
            o.insert(QStringLiteral("shape"), QJsonArray{double(w.totalRows), double(w.totalColumns)});
            o.insert(QStringLiteral("row"), double(w.row));
            o.insert(QStringLiteral("column"), double(w.column));
            o.insert(QStringLiteral("columns"), QJsonArray::fromStringList(w.columns));
            o.insert(QStringLiteral("dtypes"), QJsonArray::fromStringList(w.dtypes));
            o.insert(QStringLiteral("index"), QJsonArray::fromStringList(w.index));
            o.insert(QStringLiteral("cells"), cells);
        }
        m_printObject(o);
        finished();
    });
    loop.exec();
    m_session.reset(); // the session ends (confirmed and recorded) before the command does
    QCoreApplication::processEvents();
    return 0;
}

void SessionCommand::readInput()
{
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0 || errno != EAGAIN)
                m_eof = true;
            break;
        }
        m_buffer.append(buf, n);
        if (n < qint64(sizeof buf))
            break; // one read per wake-up is enough: the notifier fires again
    }
    qsizetype end;
    while ((end = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(end);
        m_buffer.remove(0, end + 1);
        take(line);
    }
    if (m_eof && !m_buffer.trimmed().isEmpty()) {
        take(m_buffer);
        m_buffer.clear();
    }
}

void SessionCommand::take(const QByteArray& line)
{
    ++m_lineNumber;
    if (line.trimmed().isEmpty())
        return;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (!doc.isObject()) {
        m_printObject(QJsonObject{{QStringLiteral("error"),
                                   QStringLiteral("line %1 is not a JSON object: %2").arg(m_lineNumber)
                                       .arg(error.error == QJsonParseError::NoError ? QStringLiteral("not an object") : error.errorString())}});
        return;
    }
    const QJsonObject request = doc.object();
    if (request.value(QStringLiteral("interrupt")).toBool()) {
        const bool running = m_busy;
        m_session->interrupt();
        m_printObject(QJsonObject{{QStringLiteral("interrupt"), true}, {QStringLiteral("running"), running}});
        return;
    }
    if (!request.value(QStringLiteral("restart")).toBool() && !request.value(QStringLiteral("code")).isString() &&
        !request.value(QStringLiteral("variables")).toBool() && !request.value(QStringLiteral("fetch")).isString()) {
        m_printObject(QJsonObject{{QStringLiteral("error"),
                                   QStringLiteral("line %1: a request is {\"code\": ..., \"language\": ...}, {\"interrupt\": true}, "
                                                  "{\"restart\": true}, {\"variables\": true} or {\"fetch\": NAME, \"row\": ..., "
                                                  "\"rows\": ..., \"column\": ..., \"columns\": ...}").arg(m_lineNumber)}});
        return;
    }
    if (request.contains(QStringLiteral("language")) &&
        !languageFromName(request.value(QStringLiteral("language")).toString())) {
        m_printObject(QJsonObject{{QStringLiteral("error"),
                                   QStringLiteral("line %1: unknown language \"%2\" (python or javascript)")
                                       .arg(m_lineNumber).arg(request.value(QStringLiteral("language")).toString())}});
        return;
    }
    m_queue.append(request);
}

void SessionCommand::next()
{
    while (!m_busy && !m_queue.isEmpty()) {
        const QJsonObject request = m_queue.takeFirst();
        if (request.value(QStringLiteral("restart")).toBool()) {
            m_session->restart();
            m_printObject(QJsonObject{{QStringLiteral("restarted"), true}});
            continue;
        }
        if (request.value(QStringLiteral("variables")).toBool()) {
            QJsonArray rows;
            for (const SessionVariable& v : m_session->variables()) {
                QJsonObject row{{QStringLiteral("name"), v.name}, {QStringLiteral("type"), v.type},
                                {QStringLiteral("size"), v.size}, {QStringLiteral("value"), v.value}};
                if (v.memory >= 0)
                    row.insert(QStringLiteral("memory"), double(v.memory));
                if (v.table)
                    row.insert(QStringLiteral("table"), true);
                rows.append(row);
            }
            m_printObject(QJsonObject{{QStringLiteral("variables"), rows}});
            continue;
        }
        if (request.value(QStringLiteral("fetch")).isString()) {
            TableRequest fetch;
            fetch.name = request.value(QStringLiteral("fetch")).toString();
            fetch.row = qint64(qMax(0.0, request.value(QStringLiteral("row")).toDouble(0)));
            fetch.rows = request.value(QStringLiteral("rows")).toInt(100);
            fetch.column = qint64(qMax(0.0, request.value(QStringLiteral("column")).toDouble(0)));
            fetch.columns = request.value(QStringLiteral("columns")).toInt(20);
            m_busy = true;
            m_fetching = fetch.name;
            m_session->fetchTable(fetch);
            continue;
        }
        const Language language = request.contains(QStringLiteral("language"))
            ? *languageFromName(request.value(QStringLiteral("language")).toString()) : m_defaultLanguage;
        const QString title = request.value(QStringLiteral("title")).toString(QStringLiteral("<session>"));
        m_busy = true;
        Run* run = m_session->execute(language, request.value(QStringLiteral("code")).toString(), title);
        QObject::connect(run, &Run::finished, run, [this, run](const ExecutionResult& result) {
            m_printResult(result);
            run->deleteLater();
            finished();
        });
    }
}

void SessionCommand::finished()
{
    m_busy = false;
    if (m_onIdle)
        m_onIdle();
}

} // namespace sandpad
