// Benchmark: what "network allowed" through UserNetwork (slirp4netns) costs, against the sandbox's
// own empty network namespace and against the host's (bwrap --share-net, the behaviour before).
// Prints Markdown tables. Usage: bench_user_network [runs]   (default 30; the transfer runs/5)
#include "BenchStats.h"

#include "../local/HeldSandbox.h"
#include "core/providers/local/UserNetwork.h"

#include <QCoreApplication>
#include <arpa/inet.h>
#include <atomic>
#include <cstdio>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <vector>

using namespace sandpad;
using sandpad::test::HeldSandbox;
using sandpad::test::hostAddress;

namespace {

enum class Net { None, User, Host };

HeldSandbox::Options options(Net net)
{
    HeldSandbox::Options o;
    o.shareNet = net == Net::Host;
    return o;
}

// One sandbox running `argv`: start to exit, ms. With Net::User the network is started while
// bwrap holds the program (as LocalSandbox will), and its start-to-ready time goes to *readyMs.
double runOnce(Net net, const QStringList& argv, double* readyMs = nullptr, QByteArray* out = nullptr,
               double* stopMs = nullptr)
{
    return bench::timeMs([&] {
        HeldSandbox sandbox(argv, options(net));
        UserNetwork network;
        if (net == Net::User) {
            network.start(sandbox.childPid());
            if (readyMs)
                *readyMs = double(network.readyMs());
        }
        sandbox.release();
        sandbox.wait();
        if (out)
            *out = sandbox.out();
        const double stop = bench::timeMs([&] { network.stop(); });
        if (stopMs)
            *stopMs = stop;
    });
}

// Serves `bytes` to every connection on address:port until stopped.
class Source {
public:
    Source(const QByteArray& address, qint64 bytes) : m_bytes(bytes)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        ::inet_pton(AF_INET, address.constData(), &a.sin_addr);
        socklen_t len = sizeof a;
        if (::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(m_fd, 4) == 0 &&
            ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] { serve(); });
    }
    ~Source()
    {
        m_stop = true;
        ::shutdown(m_fd, SHUT_RDWR);
        m_thread.join();
        ::close(m_fd);
    }
    int port() const { return m_port; }

private:
    void serve()
    {
        const std::vector<char> chunk(1 << 20, 'x');
        while (!m_stop) {
            const int c = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (c < 0)
                return;
            for (qint64 sent = 0; sent < m_bytes;) {
                const ssize_t n = ::send(c, chunk.data(), size_t(qMin<qint64>(qint64(chunk.size()), m_bytes - sent)), MSG_NOSIGNAL);
                if (n <= 0)
                    break;
                sent += n;
            }
            ::close(c);
        }
    }
    int m_fd = -1;
    int m_port = 0;
    qint64 m_bytes;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    const int runs = argc > 1 ? qMax(1, QByteArray(argv[1]).toInt()) : 30;
    const UserNetwork::Availability a = UserNetwork::availability();
    if (!a.available) {
        std::printf("user-mode network not available: %s\n", qPrintable(a.detail));
        return 0;
    }
    std::printf("%s, %d runs, as uid %d\n\n", qPrintable(a.detail), runs, int(::geteuid()));

    const QStringList truth{QStringLiteral("/bin/true")};
    std::vector<double> none, user, host, ready, stops;
    runOnce(Net::User, truth); // warm the caches (slirp4netns --version, the binaries)
    for (int i = 0; i < runs; ++i) {
        none.push_back(runOnce(Net::None, truth));
        double r = 0, st = 0;
        user.push_back(runOnce(Net::User, truth, &r, nullptr, &st));
        ready.push_back(r);
        stops.push_back(st);
        host.push_back(runOnce(Net::Host, truth));
    }
    std::vector<double> probe;
    for (int i = 0; i < qMax(5, runs / 3); ++i)
        probe.push_back(bench::timeMs([] { UserNetwork::probe(); }));

    auto row = [](const char* what, const bench::Stats& s, const bench::Stats& base) {
        std::printf("| %s | %.1f | %.1f | %+.1f |\n", what, s.median, s.p95, s.median - base.median);
    };
    const bench::Stats sNone = bench::stats(none);
    std::printf("| sandbox running `true`, start to exit | median ms | p95 ms | vs own empty namespace |\n|---|---|---|---|\n");
    row("own empty network namespace (network off)", sNone, sNone);
    row("own namespace + UserNetwork (network allowed, new)", bench::stats(user), sNone);
    row("host's network namespace (--share-net, before)", bench::stats(host), sNone);
    const bench::Stats sReady = bench::stats(ready), sProbe = bench::stats(probe);
    std::printf("| UserNetwork::start() to ready, alone | %.1f | %.1f | |\n", sReady.median, sReady.p95);
    const bench::Stats sStop = bench::stats(stops);
    std::printf("| UserNetwork::stop() after the sandbox ended (reaps slirp4netns) | %.1f | %.1f | |\n", sStop.median, sStop.p95);
    std::printf("| UserNetwork::probe() (validation) | %.1f | %.1f | |\n\n", sProbe.median, sProbe.p95);

    // Throughput: the sandbox reads 64 MiB from a server on this host's own non-loopback address.
    const QByteArray address = hostAddress();
    if (address.isEmpty()) {
        std::printf("(no non-loopback IPv4 address: transfer not measured)\n");
        return 0;
    }
    constexpr qint64 kBytes = 64LL << 20;
    Source source(address, kBytes);
    const QString script = QStringLiteral(
        "import socket, time\n"
        "s = socket.create_connection(('%1', %2), timeout=30)\n"
        "t = time.perf_counter(); n = 0\n"
        "while True:\n"
        "    b = s.recv(1 << 20)\n"
        "    if not b: break\n"
        "    n += len(b)\n"
        "print(n, (time.perf_counter() - t) * 1000)\n").arg(QString::fromLatin1(address)).arg(source.port());
    const QStringList fetch{QStringLiteral("/usr/bin/python3"), QStringLiteral("-c"), script};
    std::printf("| 64 MiB from %s into the sandbox | median MB/s | worst MB/s |\n|---|---|---|\n", address.constData());
    for (const Net net : {Net::User, Net::Host}) {
        std::vector<double> rates;
        for (int i = 0; i < qMax(3, runs / 5); ++i) {
            QByteArray out;
            runOnce(net, fetch, nullptr, &out);
            const QList<QByteArray> f = out.trimmed().split(' ');
            if (f.size() == 2 && f[0].toLongLong() == kBytes && f[1].toDouble() > 0)
                rates.push_back(double(kBytes) / 1e6 / (f[1].toDouble() / 1000));
        }
        const bench::Stats s = bench::stats(rates);
        std::printf("| %s | %.0f | %.0f |\n", net == Net::User ? "UserNetwork (slirp4netns, MTU 65520)" : "--share-net (before)",
                    s.median, rates.empty() ? 0.0 : *std::min_element(rates.begin(), rates.end()));
    }
    return 0;
}
