#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace sandpad {

// One of a session's user variables after an execution (the variable explorer's row), as the
// session runtime describes it in `variables.json` (docs/runtime-protocol.md, "Sessions").
struct SessionVariable {
    QString name;
    QString type;    // "int", "numpy.ndarray", "pandas.DataFrame"
    QString size;    // "3", "1000 × 4"; empty when it has none
    qint64 memory = -1; // bytes (nbytes / memory_usage / getsizeof); -1 unknown
    QString value;   // a short text, never the whole value
    bool table = false; // opens in the table view (NotebookSession::fetchTable)
};

struct SessionVariables {
    static constexpr qint64 kMaxBytes = 1 << 20; // what variables.json may be
    static constexpr int kMaxRows = 500;
    // The rows of variables.json; empty (and *error set) when it is malformed or over a limit.
    static QList<SessionVariable> parse(const QByteArray& json, QString* error = nullptr);
};

} // namespace sandpad
