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
        for (Language language : kLanguages)
            m_target[language] = m_size;
        for (auto& [language, queue] : m_idle) {
            while (int(queue.size()) > m_size) {
                m_graveyard.push_back(std::move(queue.back()));
                queue.pop_back();
            }
        }
        if (m_size == 0) {
            ++m_generation; // sandboxes being launched are dropped when they are
            dropIdleLocked();
        }
    }
    m_changed.notify_all();
}

int SandboxPool::size() const
{
    std::lock_guard lock(m_mutex);
    return m_size;
}

void SandboxPool::setBurstMax(int perLanguage)
{
    std::lock_guard lock(m_mutex);
    m_burstMax = qMax(0, perLanguage);
}

int SandboxPool::target(Language language) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_target.find(language);
    return it == m_target.end() ? m_size : it->second;
}

void SandboxPool::setShrinkAfter(std::chrono::milliseconds idle)
{
    {
        std::lock_guard lock(m_mutex);
        m_shrinkAfter = idle;
    }
    m_changed.notify_all();
}

void SandboxPool::warmLanguage(Language language)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_inUse[language])
            return;
        m_inUse[language] = true;
    }
    m_changed.notify_all();
}

void SandboxPool::start()
{
    {
        std::lock_guard lock(m_mutex);
        m_started = true;
        m_inUse[Language::Python] = true;
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
    for (auto& [language, queue] : m_starting) {
        for (auto& starting : queue)
            m_graveyard.push_back(std::move(starting.sandbox));
        queue.clear();
    }
}

SandboxPool::Counts SandboxPool::counts(Language language) const
{
    std::lock_guard lock(m_mutex);
    Counts c;
    if (const auto it = m_idle.find(language); it != m_idle.end())
        c.ready = int(it->second.size());
    if (const auto it = m_starting.find(language); it != m_starting.end())
        c.warming += int(it->second.size());
    if (const auto it = m_launching.find(language); it != m_launching.end())
        c.warming += it->second;
    return c;
}

bool SandboxPool::fullLocked() const
{
    for (Language language : kLanguages) {
        const auto use = m_inUse.find(language);
        if (use == m_inUse.end() || !use->second)
            continue;
        const auto idle = m_idle.find(language);
        const auto target = m_target.find(language);
        const int want = target == m_target.end() ? m_size : target->second;
        if ((idle == m_idle.end() ? 0 : int(idle->second.size())) < want)
            return false;
    }
    return true;
}

bool SandboxPool::waitUntilFull(int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return fullLocked(); });
}

std::unique_ptr<LocalSandbox> SandboxPool::take(const SandboxOptions& options, RunControl& /*control*/)
{
    std::unique_ptr<LocalSandbox> sandbox;
    {
        std::unique_lock lock(m_mutex);
        if (m_size <= 0 || !m_started || options.coldOnly || m_stopping)
            return nullptr;
        m_inUse[options.language] = true;
        if (!sameKind(options, m_options)) {
            // The settings changed: this run goes cold, the pool follows the new settings.
            m_options = options;
            ++m_generation;
            dropIdleLocked();
            lock.unlock();
            m_changed.notify_all();
            return nullptr;
        }
        const auto now = std::chrono::steady_clock::now();
        auto& last = m_lastTake[options.language];
        auto& target = m_target.try_emplace(options.language, m_size).first->second;
        auto& queue = m_idle[options.language];
        while (!queue.empty() && !queue.front()->isWarmAlive()) {
            m_graveyard.push_back(std::move(queue.front()));
            queue.pop_front();
        }
        // A burst: takes faster than the pool refills. Keep more ready for the next ones.
        if (queue.empty() && target < std::max(m_size, m_burstMax))
            ++target;
        last = now;
        if (!queue.empty()) {
            sandbox = std::move(queue.front());
            queue.pop_front();
        } else {
            // One still importing was started earlier than a cold start would be: it stops at
            // its next import and takes the job (LocalSandbox::runWarm wakes it).
            auto& starting = m_starting[options.language];
            while (!starting.empty()) {
                Starting next = std::move(starting.front());
                starting.pop_front();
                if (next.sandbox->isWarmAlive() && next.sandbox->pollReady(0) != LocalSandbox::Warmth::Failed) {
                    sandbox = std::move(next.sandbox);
                    break;
                }
                m_graveyard.push_back(std::move(next.sandbox));
            }
        }
    }
    m_changed.notify_all(); // launch the next one now
    if (sandbox)
        sandbox->setDeadlineSeconds(options.deadlineSeconds);
    return sandbox;
}

bool SandboxPool::pollStartingLocked(std::map<Language, int>& failures)
{
    bool some = false;
    const auto now = std::chrono::steady_clock::now();
    for (auto& [language, queue] : m_starting) {
        for (auto it = queue.begin(); it != queue.end();) {
            const LocalSandbox::Warmth warmth = it->sandbox->pollReady(0);
            const bool late = now - it->since > std::chrono::milliseconds(kReadyTimeoutMs);
            if (warmth == LocalSandbox::Warmth::Ready) {
                m_idle[language].push_back(std::move(it->sandbox));
                failures[language] = 0;
                it = queue.erase(it);
                m_changed.notify_all();
            } else if (warmth == LocalSandbox::Warmth::Failed || late) {
                qWarning("sandpad: a pre-started %s sandbox did not start: %s", qPrintable(languageName(language)),
                         late ? "no answer in time" : "its wrapper ended");
                ++failures[language]; // e.g. node missing: stop after 3 tries until the settings change
                m_graveyard.push_back(std::move(it->sandbox));
                it = queue.erase(it);
            } else {
                some = true;
                ++it;
            }
        }
    }
    return some;
}

void SandboxPool::shrinkLocked(std::chrono::steady_clock::time_point now)
{
    for (Language language : kLanguages) {
        auto& target = m_target.try_emplace(language, m_size).first->second;
        const auto last = m_lastTake[language];
        if (target <= m_size || now - last < m_shrinkAfter)
            continue;
        target = m_size;
        auto& queue = m_idle[language];
        while (int(queue.size()) > target) {
            m_graveyard.push_back(std::move(queue.back()));
            queue.pop_back();
        }
    }
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
        const bool starting = pollStartingLocked(failures);
        const auto now = std::chrono::steady_clock::now();
        shrinkLocked(now);
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
        if (m_started && m_size > 0 && !shortOfMemory && m_graveyard.empty()) {
            for (Language language : kLanguages) {
                if (!m_inUse[language] || failures[language] >= 3)
                    continue;
                const int have = int(m_idle[language].size() + m_starting[language].size()) + m_launching[language];
                if (have >= m_target.try_emplace(language, m_size).first->second)
                    continue;
                // One import at a time per language: two would share the cores with the runs.
                if (!m_starting[language].empty())
                    continue;
                need = language;
                break;
            }
        }
        if (!need) {
            // Starting ones are polled often (their "ready" moves them to the idle queue); the
            // 2 s wait is also the periodic memory and shrink check.
            m_changed.wait_for(lock, starting ? 10ms : std::min<std::chrono::steady_clock::duration>(2s, m_shrinkAfter));
            continue;
        }
        ++m_launching[*need];
        const quint64 generation = m_generation;
        const SandboxOptions options = m_options;
        lock.unlock();
        std::unique_ptr<LocalSandbox> sandbox;
        try {
            SandboxOptions forLanguage = options;
            forLanguage.language = *need;
            sandbox = m_factory(*need, forLanguage);
        } catch (const std::exception& e) {
            qWarning("sandpad: could not pre-start a sandbox: %s", e.what());
            sandbox.reset();
        }
        lock.lock();
        --m_launching[*need];
        if (!sandbox) {
            ++failures[*need];
            m_changed.wait_for(lock, 1s);
        } else if (generation == m_generation && !m_stopping) {
            m_starting[*need].push_back(Starting{std::move(sandbox), std::chrono::steady_clock::now()});
        } else {
            m_graveyard.push_back(std::move(sandbox));
        }
        m_changed.notify_all();
    }
}

} // namespace sandpad
