#include "FakeSandboxProvider.h"

#include <QMutexLocker>
#include <stdexcept>

namespace sandpad {

FakeSandboxProvider::FakeSandboxProvider(FakeSandboxScript script, QString name)
    : m_name(std::move(name)), m_script(std::move(script))
{
}

ValidationReport FakeSandboxProvider::validate()
{
    ValidationReport report;
    report.provider = m_name;
    report.items << ValidationItem{QStringLiteral("fake"), ValidationItem::Level::Ok, QStringLiteral("in memory")};
    return report;
}

std::unique_ptr<Sandbox> FakeSandboxProvider::create(const SandboxOptions& options, RunControl&)
{
    ++m_createCalls;
    FakeSandboxScript script;
    int index = 0;
    {
        QMutexLocker lock(&m_mutex);
        script = m_queued.isEmpty() ? m_script : m_queued.takeFirst();
        FakeSandbox::Record record;
        record.options = options;
        m_records << record;
        index = int(m_records.size()) - 1;
    }
    if (script.createError)
        throw *script.createError;
    if (!script.createThrowsStd.isEmpty())
        throw std::runtime_error(script.createThrowsStd.toStdString());
    return std::make_unique<FakeSandbox>(std::move(script), options, index, *this);
}

void FakeSandboxProvider::setScript(const FakeSandboxScript& script)
{
    QMutexLocker lock(&m_mutex);
    m_script = script;
}

void FakeSandboxProvider::queueScript(const FakeSandboxScript& script)
{
    QMutexLocker lock(&m_mutex);
    m_queued << script;
}

QList<FakeSandbox::Record> FakeSandboxProvider::records() const
{
    QMutexLocker lock(&m_mutex);
    return m_records;
}

FakeSandbox::Record FakeSandboxProvider::lastRecord() const
{
    QMutexLocker lock(&m_mutex);
    return m_records.isEmpty() ? FakeSandbox::Record{} : m_records.last();
}

void FakeSandboxProvider::updateRecord(int index, const std::function<void(FakeSandbox::Record&)>& change)
{
    QMutexLocker lock(&m_mutex);
    if (index >= 0 && index < m_records.size())
        change(m_records[index]);
}

} // namespace sandpad
