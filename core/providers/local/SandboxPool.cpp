#include "core/providers/local/SandboxPool.h"

#include "core/sandbox/RunControl.h"

#include <QFile>

#include <chrono>
#include <optional>

namespace sandpad {

using namespace std::chrono_literals;

namespace {
constexpr Language kLanguages[] = {Language::Python, Language::JavaScript};
constexpr int kReadyTimeoutMs = 120000;
} // namespace

SandboxPool::SandboxPool(Factory factory, MemoryProbe memory)
    : m_factory(std::move(factory)), m_memory(std::move(memory))
{
}

SandboxPool::~SandboxPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    if (m_thread)
        m_thread->wait();
    // destroy() kills each (its PID 1 through its pidfd) and confirms that nothing of it is left.
    std::vector<std::unique_ptr<LocalSandbox>> rest;
    {
        std::lock_guard lock(m_mutex);
        dropIdleLocked();
        rest = std::move(m_graveyard);
        m_graveyard.clear();
    }
    for (auto& sandbox : rest)
        sandbox->destroy();
}

qint64 SandboxPool::memAvailableBytes()
{
    QFile file(QStringLiteral("/proc/meminfo"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : file.readAll().split('\n'))
        if (line.startsWith("MemAvailable:"))
            return line.mid(13).trimmed().split(' ').value(0).toLongLong() * 1024;
    return -1;
}

bool SandboxPool::sameKind(const SandboxOptions& a, const SandboxOptions& b)
{
    // The deadline is set when a sandbox is handed out; the language picks the queue.
    return a.allowNetwork == b.allowNetwork && a.memoryLimitMb == b.memoryLimitMb &&
           a.pipWheelDir == b.pipWheelDir && a.pipIndexUrl == b.pipIndexUrl;
}

void SandboxPool::setSize(int perLanguage)
{
    {
        std::lock_guard lock(m_mutex);
        m_size = qMax(0, perLanguage);
        for (auto& [language, queue] : m_idle) {
            while (int(queue.size()) > m_size) {
                m_graveyard.push_back(std::move(queue.back()));
                queue.pop_back();
            }
        }
        if (m_size == 0)
            ++m_generation; // sandboxes still importing are dropped when they are ready
    }
    m_changed.notify_all();
}

int SandboxPool::size() const
{
    std::lock_guard lock(m_mutex);
    return m_size;
}

void SandboxPool::start()
{
    {
        std::lock_guard lock(m_mutex);
        m_started = true;
        if (!m_thread) {
            m_thread.reset(QThread::create([this] { loop(); }));
            m_thread->setObjectName(QStringLiteral("sandpad-pool"));
            m_thread->start();
        }
    }
    m_changed.notify_all();
}

bool SandboxPool::isStarted() const
{
    std::lock_guard lock(m_mutex);
    return m_started;
}

void SandboxPool::drain()
{
    {
        std::lock_guard lock(m_mutex);
        ++m_generation;
        dropIdleLocked();
    }
    m_changed.notify_all();
}

void SandboxPool::setOptions(const SandboxOptions& options)
{
    {
        std::lock_guard lock(m_mutex);
        if (sameKind(options, m_options))
            return;
        m_options = options;
        ++m_generation;
        dropIdleLocked();
    }
    m_changed.notify_all();
}

void SandboxPool::dropIdleLocked()
{
    for (auto& [language, queue] : m_idle) {
        for (auto& sandbox : queue)
            m_graveyard.push_back(std::move(sandbox));
        queue.clear();
    }
}

SandboxPool::Counts SandboxPool::counts(Language language) const
{
    std::lock_guard lock(m_mutex);
    Counts c;
    if (const auto it = m_idle.find(language); it != m_idle.end())
        c.ready = int(it->second.size());
    if (const auto it = m_warming.find(language); it != m_warming.end())
        c.warming = it->second;
    return c;
}

bool SandboxPool::waitUntilFull(int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] {
        for (Language language : kLanguages)
            if (int(m_idle[language].size()) < m_size)
                return false;
        return true;
    });
}

std::unique_ptr<LocalSandbox> SandboxPool::take(const SandboxOptions& options, RunControl& control)
{
    std::unique_ptr<LocalSandbox> sandbox;
    {
        std::unique_lock lock(m_mutex);
        if (m_size <= 0 || !m_started || options.coldOnly || m_stopping)
            return nullptr;
        if (!sameKind(options, m_options)) {
            // The settings changed: this run goes cold, the pool follows the new settings.
            m_options = options;
            ++m_generation;
            dropIdleLocked();
            lock.unlock();
            m_changed.notify_all();
            return nullptr;
        }
        auto& queue = m_idle[options.language];
        for (;;) {
            while (!queue.empty() && !queue.front()->isWarmAlive()) {
                m_graveyard.push_back(std::move(queue.front()));
                queue.pop_front();
            }
            // One still importing started earlier than a cold start would: wait for it. The
            // wait is sliced only to notice a cancel (RunControl has no waitable handle).
            if (!queue.empty() || m_warming[options.language] == 0 || control.isCancelled() || m_stopping)
                break;
            m_changed.wait_for(lock, 50ms);
        }
        if (!queue.empty()) {
            sandbox = std::move(queue.front());
            queue.pop_front();
            m_lastTake[options.language] = std::chrono::steady_clock::now();
        } else {
            m_lastTake[options.language] = {}; // runs come faster than the delay: refill now
        }
    }
    m_changed.notify_all(); // start the next one now
    if (sandbox)
        sandbox->setDeadlineSeconds(options.deadlineSeconds);
    return sandbox;
}

void SandboxPool::loop()
{
    std::map<Language, int> failures;
    quint64 failureGeneration = 0;
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        if (!m_graveyard.empty()) {
            auto dead = std::move(m_graveyard);
            m_graveyard.clear();
            lock.unlock();
            for (auto& sandbox : dead)
                sandbox->destroy();
            dead.clear();
            lock.lock();
            continue;
        }
        if (failureGeneration != m_generation) {
            failures.clear(); // settings changed: try again
            failureGeneration = m_generation;
        }
        const qint64 available = m_memory ? m_memory() : memAvailableBytes();
        const bool shortOfMemory = available >= 0 && available < kRefillBelowBytes;
        if (available >= 0 && available < kShrinkBelowBytes) {
            bool any = false;
            for (auto& [language, queue] : m_idle)
                any = any || !queue.empty();
            if (any) {
                dropIdleLocked();
                continue;
            }
        }
        std::optional<Language> need;
        auto wait = std::chrono::steady_clock::duration(2s); // also the periodic memory check
        if (m_started && m_size > 0 && !shortOfMemory) {
            const auto now = std::chrono::steady_clock::now();
            for (Language language : kLanguages) {
                if (failures[language] >= 3 || int(m_idle[language].size()) + m_warming[language] >= m_size)
                    continue;
                const auto due = m_lastTake[language] + std::chrono::milliseconds(kRefillDelayMs);
                if (now < due) {
                    wait = std::min(wait, due - now);
                    continue;
                }
                need = language;
                break;
            }
        }
        if (!need) {
            m_changed.wait_for(lock, wait);
            continue;
        }
        ++m_warming[*need];
        const quint64 generation = m_generation;
        const SandboxOptions options = m_options;
        lock.unlock();
        std::unique_ptr<LocalSandbox> sandbox;
        bool failed = false;
        try {
            SandboxOptions forLanguage = options;
            forLanguage.language = *need;
            sandbox = m_factory(*need, forLanguage);
            if (!sandbox || !sandbox->waitReady(kReadyTimeoutMs, &m_stopping)) {
                failed = !m_stopping;
                if (sandbox)
                    sandbox->destroy();
                sandbox.reset();
            }
        } catch (const std::exception& e) {
            qWarning("sandpad: could not pre-start a sandbox: %s", e.what());
            failed = true;
            sandbox.reset();
        }
        lock.lock();
        --m_warming[*need];
        if (sandbox && generation == m_generation && !m_stopping)
            m_idle[*need].push_back(std::move(sandbox));
        else if (sandbox)
            m_graveyard.push_back(std::move(sandbox));
        if (failed && generation == m_generation)
            ++failures[*need]; // e.g. node missing: stop after 3 tries until the settings change
        else if (!failed)
            failures[*need] = 0;
        m_changed.notify_all();
        if (failed)
            m_changed.wait_for(lock, 1s);
    }
}

} // namespace sandpad
