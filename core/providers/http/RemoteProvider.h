#pragma once

#include "core/providers/http/HttpClient.h"
#include "core/sandbox/SandboxProvider.h"

namespace sandpad {

// What the Vercel and Daytona providers share: validation's items (credentials, an API probe
// with them, runtime, base packages) and create()'s refusal of credentials that cannot work.
class RemoteProvider : public SandboxProvider {
public:
    ValidationReport validate() final;
    std::unique_ptr<Sandbox> create(const SandboxOptions& options, RunControl& control) final;
    bool allocatesRemotely() const final { return true; }
    // Remote notebook sessions (RemoteSessionSandbox): one sandbox kept alive per session, the
    // interpreter detached in it, each execution a relay command.
    bool supportsSessions() const final { return true; }
    std::unique_ptr<SessionSandbox> createSession(const SandboxOptions& options, RunControl& control) final;

    // Orphan reconciliation (issue 12): every remote sandbox this app creates carries the label
    // kAppLabel = kAppLabelValue and kRunLabel = SandboxOptions::runId.
    static constexpr const char* kAppLabel = "sandpad-app";
    static constexpr const char* kAppLabelValue = "sandpad";
    static constexpr const char* kRunLabel = "sandpad-run";
    struct Listing {
        QString id;    // what removeAppSandbox() takes
        QString runId; // its kRunLabel value; empty when absent
        QString state; // the service's word
    };
    // The sandboxes carrying kAppLabel that the service lists (following its pages).
    // Throws ProviderError.
    virtual QList<Listing> listAppSandboxes();
    // Removes one of them and confirms it gone (never throws).
    virtual CleanupReport removeAppSandbox(const QString& id);

protected:
    // Usable-looking credentials, and the request that proves the service accepts them.
    struct CredentialCheck {
        QString detail;               // the credentials item, e.g. "token for team t, project p"
        QString noun;                 // "credentials" / "API key", in the API item
        QString apiUrl;
        QStringList secrets;          // redacted from messages
        HttpRequest probe;            // authorised; sent once, within min(requestTimeoutMs, 15 s)
        int requestTimeoutMs = 60000;
        int alsoAccepted = -1;        // a non-2xx status that proves them too (404 of a made-up id)
        bool wantsJsonObject = false; // a 2xx must be a JSON object, else it is not this API
    };
    // `basePackages`: checked in each Python sandbox (the validation lists them).
    RemoteProvider(QString service, QStringList basePackages);

    // The service's side.
    virtual QString configProblem() const = 0;       // why it cannot work; empty when usable
    virtual CredentialCheck credentialCheck() const = 0; // asked only when usable
    virtual ValidationItem runtimeItem() const = 0;
    // A started sandbox (the configuration is usable).
    virtual std::unique_ptr<Sandbox> start(const SandboxOptions& options, RunControl& control) = 0;

private:
    ValidationItem probe(const CredentialCheck& check) const;

    QString m_service; // "Vercel": the prefix of messages
    QStringList m_basePackages;
};

} // namespace sandpad
