#pragma once

#include <QByteArrayView>
#include <QtGlobal>

namespace sandpad {

// How much a JSON text would cost to parse, found by one pass over its bytes without building
// anything: the number of lists and objects, of values (keys not counted) and the deepest
// nesting. Not a validator: the real parser still rejects malformed text afterwards; this only
// lets a caller refuse a document whose parsed form would be far larger than its text.
struct JsonShape {
    qint64 containers = 0;  // lists and objects
    qint64 objects = 0;     // objects alone
    qint64 values = 0;      // containers, strings (not keys), numbers, true, false, null
    int depth = 0;          // the deepest nesting seen (stops counting once over maxDepth)

    // Scans `json`; stops early once the depth or a count is over its limit (the counts are then
    // lower bounds, enough to say which limit was crossed).
    struct Limits {
        int depth;
        qint64 containers, objects, values;
    };
    static JsonShape scan(QByteArrayView json, const Limits& limits);
    bool within(const Limits& limits) const
    {
        return depth <= limits.depth && containers <= limits.containers && objects <= limits.objects
               && values <= limits.values;
    }
};

} // namespace sandpad
