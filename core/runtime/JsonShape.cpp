#include "core/runtime/JsonShape.h"

#include <array>
#include <cstring>

namespace sandpad {

namespace {

enum Class : unsigned char { Other, Space, Open, Close, Quote, Separator };

// One table lookup per byte: the scan runs at memory speed, not at parsing speed.
constexpr std::array<unsigned char, 256> kClasses = [] {
    std::array<unsigned char, 256> t{};
    t[' '] = t['\n'] = t['\r'] = t['\t'] = Space;
    t['['] = t['{'] = Open;
    t[']'] = t['}'] = Close;
    t['"'] = Quote;
    t[','] = t[':'] = Separator;
    return t;
}();

unsigned char classOf(char c)
{
    return kClasses[static_cast<unsigned char>(c)];
}

} // namespace

JsonShape JsonShape::scan(QByteArrayView json, const Limits& limits)
{
    JsonShape shape;
    const char* p = json.data();
    const char* const end = p + json.size();
    int depth = 0;
    while (p < end) {
        switch (classOf(*p)) {
        case Open:
            if (*p == '{')
                ++shape.objects;
            ++shape.containers;
            ++shape.values;
            if (++depth > shape.depth)
                shape.depth = depth;
            ++p;
            break;
        case Close:
            --depth;
            ++p;
            break;
        case Quote: {
            // To the closing quote: the next one not escaped by an odd number of backslashes.
            ++p;
            for (;;) {
                const char* q = static_cast<const char*>(std::memchr(p, '"', size_t(end - p)));
                if (!q) {
                    p = end;
                    break;
                }
                const char* b = q;
                while (b > p && b[-1] == '\\')
                    --b;
                p = q + 1;
                if ((q - b) % 2 == 0)
                    break;
            }
            const char* n = p;
            while (n < end && classOf(*n) == Space)
                ++n;
            if (n == end || *n != ':')
                ++shape.values; // a value, not a key
            break;
        }
        case Space:
        case Separator:
            ++p;
            break;
        default:
            // A number, true, false or null (or garbage the parser will reject).
            ++shape.values;
            while (p < end && classOf(*p) == Other)
                ++p;
            break;
        }
        if (!shape.within(limits))
            break;
    }
    return shape;
}

} // namespace sandpad
