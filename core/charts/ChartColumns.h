#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <vector>

namespace sandpad {

// The numeric columns of a run's charts as they leave the sandbox: one file, `chart-columns` (a
// frame on the local result channel, a file in out_dir remotely), of packed little-endian float64
// and int64 arrays, each named from the chart dictionary by a reference
// `{"offset": 0, "length": 1000000, "dtype": "float64"}` (docs/runtime-protocol.md, "Binary
// columns"). A million points cost 16 MB this way instead of a JSON tree of 170 MB, and ChartSpec
// checks and decodes them in one pass. The run history stores a chart the same way: its
// dictionary with references (ChartSpec::toPacked) and its columns beside it (bytes()).
class ChartColumns {
public:
    enum class Type { Float64, Int64 };

    ChartColumns() = default;
    explicit ChartColumns(QByteArray bytes) : m_bytes(std::move(bytes)) {}

    const QByteArray& bytes() const { return m_bytes; }
    bool isEmpty() const { return m_bytes.isEmpty(); }

    // Appends a float64 column and returns its reference.
    QJsonObject add(const std::vector<double>& values);

    // Whether a chart dictionary refers to columns (its composite's charts included): only then
    // is the run's columns file read back.
    static bool isReferencedBy(const QJsonObject& chart);

private:
    QByteArray m_bytes;
};

} // namespace sandpad
