#pragma once

#include "core/language/Language.h"
#include "core/run/RunOrigin.h"
#include "core/session/SessionVariables.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace sandpad {

class EditorPage;
class Executor;
class NotebookSession;
class Run;

// A notebook session per editor tab (issue 13): the default for a new tab, which can switch to
// "fresh sandbox per run". The tab's session goes when the tab does (or the app quits), and with
// it every process of its sandbox. Stored revisions always run fresh (RunCoordinator). GUI thread.
class TabSessions : public QObject {
    Q_OBJECT
public:
    explicit TabSessions(Executor* executor, QObject* parent = nullptr);
    ~TabSessions() override;

    // Whether the page's runs go to its session: its mode is "session" and the provider has them.
    bool usesSession(EditorPage* page) const;
    bool isFresh(EditorPage* page) const { return m_fresh.value(page, false); }
    void setFresh(EditorPage* page, bool fresh); // switching to fresh ends the tab's session
    // What the tab shows: "session (3 executions)", "fresh sandbox per run", or that the provider
    // runs every cell fresh.
    QString modeText(EditorPage* page) const;

    // Starts an execution in the page's session (created on first use).
    Run* execute(EditorPage* page, Language language, const QString& code, const QString& title, const RunOrigin& origin);
    // The first press interrupts (state kept), a second one restarts; false when the page has no
    // session run going (the caller stops the run as usual).
    bool interrupt(EditorPage* page);
    void restart(EditorPage* page);
    NotebookSession* session(EditorPage* page) const { return m_sessions.value(page); }
    // A fresh run of the page: its variables at the end become the page's snapshot.
    void followFreshRun(EditorPage* page, Run* run);
    QList<SessionVariable> snapshot(EditorPage* page) const { return m_snapshots.value(page); }
    // Applies to every session, now and later (the Settings' idle limit).
    void setIdleSeconds(int seconds);
    int idleSeconds() const { return m_idleSeconds; }
    // Every session, now and later, warms its Jedi after Python executions (an editor completes
    // from it: NotebookSession::setAssistWarmUp).
    void setAssistWarmUp(bool on);

signals:
    void modeChanged(sandpad::EditorPage* page);
    void sessionEnded(sandpad::EditorPage* page, const QString& why);

private:
    NotebookSession* sessionFor(EditorPage* page);
    void drop(QObject* page);

    Executor* m_executor;
    QHash<EditorPage*, NotebookSession*> m_sessions;
    QHash<EditorPage*, bool> m_fresh;
    QHash<EditorPage*, QList<SessionVariable>> m_snapshots;
    int m_idleSeconds;
    bool m_assistWarmUp = false;
};

} // namespace sandpad
