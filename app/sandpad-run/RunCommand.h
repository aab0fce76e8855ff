#pragma once

#include <QStringList>

namespace sandpad {

class Workspace;

// The behaviour of `sandpad-run` (DESIGN.md), kept in core so tests can drive it in-process and
// the executable stays a few lines. Exit status: 0 success, 1 the user's code failed, 2 usage
// error, 3 infrastructure error, 124 timeout.
class RunCommand {
public:
    enum ExitCode { Ok = 0, UserError = 1, UsageError = 2, InfrastructureError = 3, Timeout = 124 };
    int exec(const QStringList& arguments);

private:
    int usageError(const QString& message);
    bool m_json = false;
};

} // namespace sandpad
