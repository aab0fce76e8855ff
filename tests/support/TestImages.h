#pragma once

#include <QByteArray>

class QImage;

namespace sandpad {

// Images a run might leave (an artifact, an output, a chart), made by a test.
// `image` encoded as PNG.
QByteArray pngBytes(const QImage& image);
// A PNG of `width` x `height` red pixels.
QByteArray redPng(int width, int height);

} // namespace sandpad
