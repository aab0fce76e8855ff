#pragma once

#include "core/providers/http/HttpClient.h"
#include "core/sandbox/Sandbox.h"

#include <QJsonObject>
#include <optional>

namespace sandpad {

// What the Vercel and Daytona sandboxes share (providers.md): create and poll until ready, the
// base packages and their note, run()'s checks, readFile()'s answers, destroy() once with its
// confirmation. A service supplies its requests, how to read its answers, and its words for the
// messages. Used for one run from one worker thread.
class RemoteSandbox : public Sandbox {
public:
    QString id() const override { return m_id; }
    QString workDir() const override { return m_service.workDir; }
    QString interpreter(Language language) const override;
    QStringList pipArguments() const override { return {}; }

    CommandOutcome run(const SandboxCommand& command, const OutputCallback& onOutput,
                       RunControl& control) final;
    std::optional<QByteArray> readFile(const QString& path) final;
    // Uses the service's requests: each service's destructor calls it (ours would run too late).
    CleanupReport destroy() final;

    int requestCount() const { return m_http.requestCount(); }
    // Base packages that could not be installed (shown once on stderr at the first run).
    QString packageNote() const { return m_packageNote; }

    // Remote notebook sessions (RemoteSessionSandbox): what each service does for them.
    // Starts `command` detached: it goes on after this returns, until the sandbox ends (Vercel: a
    // `cmd` without wait; Daytona: runAsync in a session of its own). Throws ProviderError.
    virtual void startDetached(const SandboxCommand& command) = 0;
    // Keeps the service from stopping the sandbox by itself for at least `ms` from now, as the
    // SDK does (Vercel: extend-timeout; Daytona: the auto-stop interval and last-activity).
    // Throws ProviderError (SandboxStopped when the sandbox has already stopped).
    virtual void keepAlive(qint64 ms) = 0;
    // Starts a short `command` detached, on the calling thread with an HTTP client of its own:
    // interrupt() sends its relay so, from any thread. False when it could not be sent.
    virtual bool startFromAnyThread(const SandboxCommand& command) const = 0;
    // Whether the service still runs the sandbox (a GET); false once it stopped or removed it.
    // When the service cannot be asked, true (the caller's own error stands).
    bool stillRunning();

protected:
    // Where the services differ in the shared steps, besides their requests.
    struct Service {
        QString name;               // "Vercel": the HttpClient's name, the prefix of messages
        QString workDir;
        QString stateWord;          // "status" / "state", in messages
        QString readyState;         // "running" / "started"
        QStringList failedStates;   // states the sandbox will not become ready from
        QString packagesWhere;      // "Vercel runtime": where base packages were missing
        QString removing;           // "stopping" / "deleting", in messages
        QString removal;            // "stop" / "deletion", in messages
        int removedStatus = 404;    // the removal's answer for a sandbox already gone
        QStringList goneStates;     // states that confirm the removal
        QStringList basePackages;   // checked in each Python sandbox
        int requestTimeoutMs = 60000;
        int readyTimeoutMs = 60000;
        int confirmTimeoutMs = 30000;
    };
    RemoteSandbox(Service service, const QStringList& secrets);

    // Sends `create`, polls until the sandbox is ready, calls onReady() and, for Python,
    // installs missing base packages. Throws ProviderError; a sandbox created before the
    // failure is removed first.
    void startSandbox(const HttpRequest& create, Language language, int deadlineSeconds,
                      RunControl& control);
    // The same from a create answer the service already gave (a service that sends its create
    // itself, e.g. to look for an accepted create before retrying one); the control is set.
    void startFrom(const QJsonObject& created, Language language, int deadlineSeconds);

    // The service's side.
    virtual QString idOf(const QJsonObject& created) const = 0;
    virtual QString stateOf(const QJsonObject& description) const = 0;
    // Why a sandbox in a failed state failed, when the service says so.
    virtual QString failureReason(const QJsonObject&) const { return {}; }
    virtual HttpRequest describeRequest() const = 0;       // GET of sandbox m_id
    virtual HttpRequest removeRequest() const = 0;         // its stop or delete
    virtual HttpRequest readRequest(const QString& path) const = 0;
    // The file in readRequest()'s 2xx answer (default: the body); nullopt when the answer says
    // there is no such file. Throws ProviderError when it cannot be read.
    virtual std::optional<QByteArray> fileIn(const HttpResponse& answer, const QString& path) const;
    // Once ready, before the base packages (e.g. where Daytona's toolbox is).
    virtual void onReady(const QJsonObject&) {}
    // Runs `python3 -c script` (checks the base packages, installs the missing ones); the
    // failure's output, or nullopt when it succeeded.
    virtual std::optional<QString> runPackageScript(const QString& script, int deadlineSeconds) = 0;
    // run() once the command is known not to be empty, the control set and the note shown.
    virtual CommandOutcome runCommand(const SandboxCommand& command, const OutputCallback& onOutput,
                                      const QDeadlineTimer& deadline) = 0;

    // Helpers for the service's side.
    QJsonObject parseObject(const QByteArray& body, const QString& what) const;
    // A run interrupted by cancellation or its deadline (`end`), with the detail for each.
    static CommandOutcome interrupted(HttpResponse::End end, const QString& cancelledDetail,
                                      const QString& timedOutDetail);
    // `request`, ending no later than `deadline`.
    static HttpRequest bounded(HttpRequest request, const QDeadlineTimer& deadline);
    // Cleanup inside a run (kill a command, delete a session): at most 10 s, not cancellable,
    // errors ignored (destroy() removes the whole sandbox anyway).
    void sendCleanup(HttpRequest request);

    mutable HttpClient m_http;
    QString m_id;
    QStringList m_secrets; // for the HTTP clients of startFromAnyThread()

private:
    QJsonObject waitUntilReady(QJsonObject description);

    Service m_service;
    QString m_packageNote;
    bool m_noteShown = false;
    std::optional<CleanupReport> m_cleanup;
};

} // namespace sandpad
