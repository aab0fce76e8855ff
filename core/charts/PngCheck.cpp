#include "core/charts/PngCheck.h"

#include "core/runtime/ResultLimits.h"

#include <png.h>

#include <cstring>
#include <vector>

namespace sandpad {

namespace {

// Everything the libpng callbacks and the decoding step share. libpng reports errors with
// longjmp, which must not skip a C++ destructor: all state lives here, created before setjmp.
struct Decoding {
    const unsigned char* data = nullptr;
    size_t size = 0;
    size_t pos = 0;
    qint64 maxPixels = 0;
    std::vector<unsigned char> row;
    char error[200] = {};
    PngCheck::Result* result = nullptr;
};

void readBytes(png_structp png, png_bytep out, size_t n)
{
    auto* d = static_cast<Decoding*>(png_get_io_ptr(png));
    if (d->size - d->pos < n)
        png_error(png, "the file ends before the image does");
    std::memcpy(out, d->data + d->pos, n);
    d->pos += n;
}

[[noreturn]] void onError(png_structp png, png_const_charp message)
{
    auto* d = static_cast<Decoding*>(png_get_error_ptr(png));
    std::strncpy(d->error, message, sizeof d->error - 1);
    png_longjmp(png, 1);
}

void onWarning(png_structp, png_const_charp) {}

// Returns false with d->error set (libpng's message) or d->result->tooLarge set. Only trivially
// destructible locals here: a libpng error jumps back to the setjmp below.
bool decode(png_structp png, png_infop info, Decoding* d)
{
    if (setjmp(png_jmpbuf(png)))
        return false;
    // Broken is broken: CRC errors in any chunk and "benign" errors (extra image data) refuse it.
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    png_set_benign_errors(png, 0);
    png_set_chunk_malloc_max(png, png_alloc_size_t(ResultLimits::pngChunkBytes));
    png_set_chunk_cache_max(png, 1000);
    png_set_read_fn(png, d, readBytes);
    png_read_info(png, info);
    d->result->width = int(png_get_image_width(png, info));
    d->result->height = int(png_get_image_height(png, info));
    if (d->result->width > ResultLimits::pngMaxSide || d->result->height > ResultLimits::pngMaxSide
        || d->result->pixels() > d->maxPixels) {
        d->result->tooLarge = true;
        return false;
    }
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    d->row.resize(png_get_rowbytes(png, info));
    for (int pass = 0; pass < passes; ++pass)
        for (int y = 0; y < d->result->height; ++y)
            png_read_row(png, d->row.data(), nullptr);
    png_read_end(png, nullptr); // the chunks after the image, and their CRCs, up to IEND
    return true;
}

} // namespace

PngCheck::Result PngCheck::check(const QByteArray& png, qint64 maxPixels)
{
    Result result;
    static const QByteArray signature("\x89PNG\r\n\x1a\n", 8);
    if (!png.startsWith(signature)) {
        result.error = QStringLiteral("it does not start with the PNG signature");
        return result;
    }
    Decoding d;
    d.data = reinterpret_cast<const unsigned char*>(png.constData());
    d.size = size_t(png.size());
    d.maxPixels = maxPixels;
    d.result = &result;
    png_structp reader = png_create_read_struct(PNG_LIBPNG_VER_STRING, &d, onError, onWarning);
    png_infop info = reader ? png_create_info_struct(reader) : nullptr;
    if (!info) {
        png_destroy_read_struct(&reader, nullptr, nullptr);
        result.error = QStringLiteral("out of memory");
        return result;
    }
    result.ok = decode(reader, info, &d);
    png_destroy_read_struct(&reader, &info, nullptr);
    if (!result.ok && !result.tooLarge)
        result.error = QString::fromUtf8(d.error);
    return result;
}

} // namespace sandpad
