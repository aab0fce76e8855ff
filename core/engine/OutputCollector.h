#pragma once

#include "core/run/RunOutput.h"

#include <QList>

namespace sandpad {

class Sandbox;
struct RuntimeProgram;
struct WrapperOutputRef;

// Part of step 6 (ResultCollector): turns result.json's `outputs` into RunOutputs, reading the
// files that carry their large parts (a table's cells, PNGs) back from the sandbox. Every check
// of ResultLimits happens before the step it protects (a table's declared size before its file
// is read, its shape before it is parsed, a PNG's header before it is decoded). An output that
// fails one is replaced by a text notice saying why, in its place: the rest of the run is kept.
class OutputCollector {
public:
    // pngBytes/pngPixels: what the run's charts used of the per-run PNG limits already.
    static QList<RunOutput> collect(const RuntimeProgram& program, Sandbox& sandbox,
                                    const QList<WrapperOutputRef>& refs, qint64 pngBytes, qint64 pngPixels);
};

} // namespace sandpad
