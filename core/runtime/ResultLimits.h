#pragma once

#include <QString>

namespace sandpad {

// What one run may send back (docs/runtime-protocol.md, "Limits"). The snippet runs in the
// wrapper's process and can write any bytes to the result channel, so these bound what the app
// spends on a result: every check happens before the expensive step it protects.
struct ResultLimits {
    // Files the run left in its working directory (artifacts), all together; the wrapper sends
    // none past these and the host checks again (ArtifactCollector). Entries: files and folders
    // looked at, so 100,000 tiny files cost a bounded walk.
    static constexpr qint64 artifactBytesPerRun = 32LL << 20;
    static constexpr int artifactsPerRun = 500;
    static constexpr int artifactEntriesPerRun = 10'000;

    // All frames of one run on the local result channel (result.json, the PNGs and the
    // artifacts together).
    static constexpr qint64 channelBytes = (64LL << 20) + artifactBytesPerRun;

    // result.json alone. It carries interactive charts as JSON text, so it must hold a
    // 1,000,000-point line chart (33 MB with full-precision doubles, ~45 MB with datetime x).
    static constexpr qint64 documentBytes = 48LL << 20;
    // Checked by a byte scan before result.json is parsed: a parsed JSON list or object costs
    // ~150 bytes of memory, so 3 bytes of "[]," could otherwise cost 50 times their size.
    static constexpr int documentDepth = 32;                   // a chart needs 8
    static constexpr qint64 chartValuesPerRun = 1'000'000;     // points, bars, slices, box values
    // The charts' binary columns (chart-columns): an x and a y of 8 bytes for each value.
    static constexpr qint64 chartColumnBytes = 2 * 8 * chartValuesPerRun;
    // Elements of all charts: bars, slices, boxes and series. Each is an object, which costs ~300
    // bytes parsed (a point, a list of two numbers, ~150), and no one reads 100,000 bars.
    static constexpr qint64 chartElementsPerRun = 100'000;
    static constexpr qint64 documentObjects = chartElementsPerRun + 1'000;
    static constexpr qint64 documentContainers = chartValuesPerRun + 50'000; // one per point
    static constexpr qint64 documentValues = 3 * chartValuesPerRun + 50'000; // a point is 3 values

    // Each text of result.json: `result`, error name, value and traceback, chart_error.
    static constexpr qsizetype textChars = 4'000'000;
    // Chart title, axis labels, series labels and categories.
    static constexpr qsizetype chartTextChars = 1'000;
    // PNGs and interactive charts together.
    static constexpr int chartsPerRun = 100;

    // PNG charts: bytes as sent, and pixels as declared in the header (what decoding costs).
    static constexpr qint64 pngBytesPerRun = 64LL << 20;
    static constexpr int pngMaxSide = 16'384;
    static constexpr qint64 pngPixels = 1LL << 25;             // 33,554,432: e.g. 8192 x 4096
    static constexpr qint64 pngPixelsPerRun = 1LL << 26;       // 67,108,864
    static constexpr qint64 pngChunkBytes = 1LL << 20;         // an ancillary chunk, decompressed

    // Rich outputs (display(), a DataFrame `result`; RunOutput). One over a limit is replaced by
    // a notice; the rest of the result is kept.
    static constexpr int outputsPerRun = 100;
    static constexpr qsizetype outputTextChars = textChars;    // each Markdown, SVG, LaTeX, text
    // Table cells as sent (rows x columns, all tables of a run): ~60 bytes each once parsed.
    // The wrapper sends at most tableRows rows of a frame (and fewer when it is wide) and says
    // how many it had.
    static constexpr qint64 tableCellsPerRun = 1'000'000;
    static constexpr qint64 tableRows = 100'000;
    static constexpr qint64 tableColumns = 10'000;
    static constexpr qint64 tableFileBytes = 48LL << 20;       // one table's JSON file
    // PNGs of outputs (images, rendered math) count towards pngBytesPerRun and pngPixelsPerRun
    // together with the charts'.

    // For messages that name a limit and the actual size: "48 MiB", "60.3 MiB", "1,000,000".
    static QString bytesText(qint64 bytes);
    static QString countText(qint64 count);
};

} // namespace sandpad
