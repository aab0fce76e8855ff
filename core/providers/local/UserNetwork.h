#pragma once

#include "core/sandbox/ValidationReport.h"

#include <QByteArray>
#include <QString>
#include <memory>

namespace sandpad {

// "Network allowed" for a local sandbox without the host's loopback: user-mode networking
// (slirp4netns) for the sandbox's own, otherwise empty network namespace. The sandbox gets a
// tap0 at 10.0.2.100/24, gateway 10.0.2.2, DNS 10.0.2.3 (forwarded to the host's resolver); the
// host's 127.0.0.1 is not reachable (--disable-host-loopback) and abstract Unix sockets stay per
// namespace. See docs/local-sandbox.md ("Network allowed").
//
// The helper runs as the uid that owns the sandbox's user namespace (65534 when the app runs as
// root and drops to it before bwrap; the user's own uid otherwise), never as root, with an
// explicit minimal environment and only its own fds. It ends when the sandbox's PID 1 exits, when
// this object is destroyed or stopped, and when the app dies (exit-fd EOF and a parent-death
// signal of the watcher thread that started it). A watcher thread per instance reaps it.
class UserNetwork {
public:
    static constexpr int kReadyTimeoutMs = 5000;

    struct Availability {
        bool available = false;
        QString detail; // "user-mode (slirp4netns 1.2.0)" or the reason it cannot work here
    };
    // Static checks (the program and its version, /dev/net/tun); a success is cached per program.
    static Availability availability(const QString& program = {});
    // A real start against a throwaway user and network namespace: proves the whole path
    // (namespaces, /dev/net/tun, the uid change) and reports how long it took to be ready.
    static Availability probe(const QString& program = {});
    // The "network" item of LocalProvider::validate(); a Warning (not an Error) when unavailable:
    // only runs with the network allowed need it.
    static ValidationItem validationItem(const QString& program = {});

    // Files for the sandbox (bind them read-only, e.g. bwrap --ro-bind-data FD /etc/resolv.conf),
    // instead of the host's own: DNS through slirp's forwarder, and no host names or addresses.
    static QByteArray resolvConf();
    static QByteArray hosts(const QString& hostname = {}); // 127.0.1.1 <hostname> when given

    // `program`: the slirp4netns to run (empty: found in PATH, else /usr/bin/slirp4netns).
    explicit UserNetwork(const QString& program = {});
    ~UserNetwork(); // stop()
    UserNetwork(const UserNetwork&) = delete;
    UserNetwork& operator=(const UserNetwork&) = delete;

    // Starts user-mode networking for the network namespace of host process `sandboxPid` (the
    // sandbox's PID 1: bwrap's --info-fd child-pid, held by --block-fd until this returns) and
    // blocks until tap0 is configured. Throws ProviderError(Io) with the reason, and the helper's
    // own message, when the namespace is the host's or cannot be joined, the helper fails, the
    // sandbox ends meanwhile, or `timeoutMs` passes. Once per instance.
    void start(int sandboxPid, int timeoutMs = kReadyTimeoutMs);
    // Kills and reaps the helper (idempotent; the destructor calls it). Returns once it is gone.
    void stop();

    bool isRunning() const;       // ready and the helper still alive
    int helperPid() const;        // host pid of slirp4netns while it runs, else -1
    qint64 readyMs() const;       // start() to ready, in ms; -1 before
    QString detail() const;       // how it ended, or why it failed (with the helper's stderr)
    QString program() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace sandpad
