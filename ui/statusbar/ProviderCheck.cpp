#include "ui/statusbar/ProviderCheck.h"

#include <QCoreApplication>
#include <QPointer>

namespace sandpad {

ProviderCheck::ProviderCheck(RunStatusBar* status, QObject* parent) : QObject(parent), m_status(status)
{
}

ProviderCheck::~ProviderCheck()
{
    for (const auto& thread : m_threads)
        thread->wait();
}

void ProviderCheck::start(const QString& provider, std::function<ValidationReport()> validate)
{
    if (!validate) {
        m_status->setValidation(provider.isEmpty() || provider == QLatin1String("none")
                                    ? RunStatusBar::Validation::Invalid
                                    : RunStatusBar::Validation::Unknown,
                                tr("No provider selected"));
        return;
    }
    m_status->setValidation(RunStatusBar::Validation::Checking);
    QPointer<ProviderCheck> self(this);
    QThread* thread = QThread::create([self, validate = std::move(validate)] {
        const ValidationReport report = validate();
        // Back on the GUI thread; the check may be gone by then (the window closed).
        QMetaObject::invokeMethod(qApp, [self, report] {
            if (self)
                self->show(report);
        }, Qt::QueuedConnection);
    });
    thread->setObjectName(QStringLiteral("sandpad-validate"));
    m_threads.emplace_back(thread);
    thread->start();
}

bool ProviderCheck::isOptional(const ValidationItem& item)
{
    // yfinance is not in Debian: a snippet that wants it installs it (`!pip install yfinance`).
    // Its absence is worth a line in the tooltip, not a permanent amber status.
    return item.name == QLatin1String("package yfinance");
}

void ProviderCheck::show(const ValidationReport& report)
{
    bool warnings = false;
    for (const ValidationItem& item : report.items)
        warnings = warnings || (item.level == ValidationItem::Level::Warning && !isOptional(item));
    m_status->setValidation(!report.usable() ? RunStatusBar::Validation::Invalid
                            : warnings       ? RunStatusBar::Validation::Warning
                                             : RunStatusBar::Validation::Valid,
                            report.toText());
    emit checked(report);
}

} // namespace sandpad
