#include "ui/session/TabSessions.h"

#include "core/engine/Executor.h"
#include "core/run/Run.h"
#include "core/sandbox/SandboxProvider.h"
#include "core/session/NotebookSession.h"
#include "ui/editor/AttachmentStrip.h"
#include "ui/editor/EditorPage.h"

namespace sandpad {

TabSessions::TabSessions(Executor* executor, QObject* parent)
    : QObject(parent), m_executor(executor), m_idleSeconds(NotebookSession::kDefaultIdleSeconds)
{
}

TabSessions::~TabSessions()
{
    qDeleteAll(m_sessions); // each ends its sandbox, confirmed and recorded
}

bool TabSessions::usesSession(EditorPage* page) const
{
    return page && !isFresh(page) && m_executor && m_executor->provider() && m_executor->provider()->supportsSessions();
}

void TabSessions::setFresh(EditorPage* page, bool fresh)
{
    if (!page || isFresh(page) == fresh)
        return;
    m_fresh[page] = fresh;
    if (fresh)
        delete m_sessions.take(page);
    emit modeChanged(page);
}

QString TabSessions::modeText(EditorPage* page) const
{
    if (isFresh(page))
        return tr("Fresh sandbox per run");
    if (!usesSession(page))
        return tr("This provider runs every cell fresh");
    const NotebookSession* session = m_sessions.value(page);
    const int count = session ? session->executionCount() : 0;
    return count == 0 ? tr("Session: not started") : tr("Session: %n execution(s)", nullptr, count);
}

NotebookSession* TabSessions::sessionFor(EditorPage* page)
{
    NotebookSession* session = m_sessions.value(page);
    if (!session) {
        session = new NotebookSession(m_executor);
        session->setIdleSeconds(m_idleSeconds);
        session->setAssistWarmUp(m_assistWarmUp);
        m_sessions.insert(page, session);
        connect(page, &QObject::destroyed, this, &TabSessions::drop);
        connect(session, &NotebookSession::sessionEnded, this, [this, page](const QString& why) {
            emit sessionEnded(page, why);
            emit modeChanged(page);
        });
    }
    return session;
}

void TabSessions::drop(QObject* page)
{
    auto* key = static_cast<EditorPage*>(page);
    delete m_sessions.take(key); // the tab closed: its session ends
    m_fresh.remove(key);
    m_snapshots.remove(key);
}

Run* TabSessions::execute(EditorPage* page, Language language, const QString& code, const QString& title,
                          const RunOrigin& origin)
{
    Run* run = sessionFor(page)->execute(language, code, title, origin, page->attachments()->runInput());
    connect(run, &Run::finished, this, [this, page = QPointer<EditorPage>(page)] {
        if (page)
            emit modeChanged(page);
    });
    return run;
}

void TabSessions::followFreshRun(EditorPage* page, Run* run)
{
    if (!page || !run)
        return;
    connect(page, &QObject::destroyed, this, &TabSessions::drop, Qt::UniqueConnection);
    connect(run, &Run::finished, this, [this, page = QPointer<EditorPage>(page)](const ExecutionResult& result) {
        if (!page)
            return;
        m_snapshots.insert(page, SessionVariables::parse(result.variables));
        emit modeChanged(page);
    });
}

void TabSessions::setAssistWarmUp(bool on)
{
    m_assistWarmUp = on;
    for (NotebookSession* session : std::as_const(m_sessions))
        session->setAssistWarmUp(on);
}

void TabSessions::setIdleSeconds(int seconds)
{
    m_idleSeconds = qMax(1, seconds);
    for (NotebookSession* session : std::as_const(m_sessions))
        session->setIdleSeconds(m_idleSeconds);
}

bool TabSessions::interrupt(EditorPage* page)
{
    NotebookSession* session = m_sessions.value(page);
    if (!session || !session->isRunning())
        return false;
    session->interrupt();
    return true;
}

void TabSessions::restart(EditorPage* page)
{
    if (NotebookSession* session = m_sessions.value(page))
        session->restart();
    emit modeChanged(page);
}

} // namespace sandpad
