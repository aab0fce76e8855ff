#include "core/charts/ChartColumns.h"

#include <QJsonArray>
#include <QSysInfo>
#include <QtEndian>
#include <cstring>

namespace sandpad {

QJsonObject ChartColumns::add(const std::vector<double>& values)
{
    const qsizetype offset = m_bytes.size();
    m_bytes.resize(offset + qsizetype(values.size() * sizeof(double)));
    char* out = m_bytes.data() + offset;
    if constexpr (QSysInfo::ByteOrder == QSysInfo::LittleEndian) {
        if (!values.empty())
            std::memcpy(out, values.data(), values.size() * sizeof(double));
    } else {
        for (size_t i = 0; i < values.size(); ++i) {
            quint64 bits;
            std::memcpy(&bits, &values[i], 8);
            qToLittleEndian(bits, out + i * 8);
        }
    }
    return QJsonObject{{QStringLiteral("offset"), double(offset)},
                       {QStringLiteral("length"), double(values.size())},
                       {QStringLiteral("dtype"), QStringLiteral("float64")}};
}

bool ChartColumns::isReferencedBy(const QJsonObject& chart)
{
    for (const QJsonValue& e : chart.value(QStringLiteral("elements")).toArray()) {
        const QJsonObject o = e.toObject();
        if (o.value(QStringLiteral("x")).isObject() || o.value(QStringLiteral("y")).isObject())
            return true;
        // A composite's charts (one level: a composite in a composite is refused).
        for (const QJsonValue& c : o.value(QStringLiteral("elements")).toArray()) {
            const QJsonObject child = c.toObject();
            if (child.value(QStringLiteral("x")).isObject() || child.value(QStringLiteral("y")).isObject())
                return true;
        }
    }
    return false;
}

} // namespace sandpad
