#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

namespace sandpad {

// Decodes a PNG chart that a run returned, to refuse what would hurt the app when it shows it:
// a broken file (bad signature, chunk CRC, truncated or extra image data), a header whose
// dimensions are over the limits (ResultLimits; the pixels are what decoding costs, whatever the
// file's size: a "decompression bomb" declares many), an oversized compressed text or ICC chunk.
// libpng reads it one row at a time into one row buffer, so checking costs no more memory than
// a row, and nothing is kept.
class PngCheck {
public:
    struct Result {
        bool ok = false;
        int width = 0, height = 0;      // from the header, once it was read
        bool tooLarge = false;          // a side over ResultLimits::pngMaxSide, or over maxPixels
        QString error;                  // what is wrong, when !ok
        qint64 pixels() const { return qint64(width) * height; }
    };
    // maxPixels: what this image may have (the per-image limit, or what is left of the run's).
    static Result check(const QByteArray& png, qint64 maxPixels);
};

} // namespace sandpad
