#include "core/providers/local/MemoryWatchdog.h"

#include <algorithm>
#include <csignal>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sandpad::localsandbox {

MemoryWatchdog::MemoryWatchdog(SandboxMemory memory, qint64 limitBytes, std::function<void()> kill,
                               int intervalMs, int nearIntervalMs)
    : m_memory(std::move(memory)), m_limit(limitBytes), m_kill(std::move(kill)),
      m_intervalMs(std::max(1, intervalMs)), m_nearIntervalMs(std::max(1, nearIntervalMs))
{
    m_clock.start();
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] { tick(); });
}

QString MemoryWatchdog::exceededMessage(qint64 limitBytes)
{
    const qint64 mib = 1024 * 1024;
    const QString amount = limitBytes % mib == 0 ? QString::number(limitBytes / mib)
                                                 : QString::number(double(limitBytes) / double(mib), 'f', 1);
    return QStringLiteral("the run used more than %1 MiB and was stopped").arg(amount);
}

void MemoryWatchdog::start()
{
    tick();
}

void MemoryWatchdog::sampleNow()
{
    if (m_exceeded)
        return;
    // Exact (PSS) only when the cheap upper bound reaches the limit: it decides the kill.
    SandboxMemorySample sample = m_memory.sample(m_limit);
    ++m_samples;
    m_costUs += sample.costUs;
    if (!sample.valid()) { // the sandbox ended
        m_timer.stop();
        m_last = sample;
        return;
    }
    if (sample.totalBytes > m_peak.totalBytes)
        m_peak = sample;
    const qint64 now = m_clock.elapsed();
    if (m_lastAtMs >= 0 && m_last.valid())
        m_growthPerMs = (sample.totalBytes - m_last.totalBytes) / std::max<qint64>(1, now - m_lastAtMs);
    m_lastAtMs = now;
    m_last = std::move(sample);
    if (m_last.totalBytes > m_limit) {
        m_exceeded = true;
        m_timer.stop();
        m_kill();
    }
}

void MemoryWatchdog::tick()
{
    sampleNow();
    if (!m_exceeded && m_last.valid())
        m_timer.start(nextIntervalMs());
}

int MemoryWatchdog::nextIntervalMs() const
{
    qint64 ms = m_intervalMs;
    if (m_last.totalBytes * 100 >= m_limit * kNearPercent)
        ms = std::min<qint64>(ms, m_nearIntervalMs);
    if (m_growthPerMs > 0)
        ms = std::min(ms, std::max<qint64>(m_nearIntervalMs, (m_limit - m_last.totalBytes) / m_growthPerMs / 2));
    const qint64 floorMs = (m_last.costUs - m_last.confirmUs - m_last.pssUs) * kCpuShare / 1000;
    return int(std::max(ms, floorMs));
}

MemoryWatchdogThread::MemoryWatchdogThread(pid_t pid1, int pid1Fd, QStringList tmpfsMounts, qint64 limitBytes,
                                           std::function<void()> onExceeded)
    : m_pid1(pid1), m_pid1Fd(pid1Fd >= 0 ? ::fcntl(pid1Fd, F_DUPFD_CLOEXEC, 3) : -1), m_mounts(std::move(tmpfsMounts)),
      m_limit(limitBytes), m_onExceeded(std::move(onExceeded))
{
}

MemoryWatchdogThread::~MemoryWatchdogThread()
{
    stop();
    if (m_pid1Fd >= 0)
        ::close(m_pid1Fd);
}

void MemoryWatchdogThread::start()
{
    if (m_pid1 > 0 && m_pid1Fd >= 0 && !m_thread.isRunning())
        m_thread.start();
}

void MemoryWatchdogThread::stop()
{
    if (m_thread.isRunning()) {
        m_thread.quit();
        m_thread.wait();
    }
}

void MemoryWatchdogThread::Thread::run()
{
    MemoryWatchdogThread& o = *m_owner;
    MemoryWatchdog watchdog(SandboxMemory(o.m_pid1, o.m_mounts), o.m_limit, [&o] {
        o.m_exceeded = true; // before the kill: whoever sees the sandbox die knows why
        ::syscall(SYS_pidfd_send_signal, o.m_pid1Fd, SIGKILL, nullptr, 0);
        if (o.m_onExceeded)
            o.m_onExceeded();
    });
    // Counters for benchmarks, after each sample (the watchdog's own are this thread's).
    QTimer publish;
    QObject::connect(&publish, &QTimer::timeout, &publish, [&] {
        o.m_samples = watchdog.samples();
        o.m_costUs = watchdog.totalCostUs();
    });
    publish.start(1000);
    watchdog.start();
    exec();
    o.m_samples = watchdog.samples();
    o.m_costUs = watchdog.totalCostUs();
}

} // namespace sandpad::localsandbox
