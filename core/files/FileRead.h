#pragma once

#include <QByteArray>
#include <QString>

#include <atomic>

namespace sandpad {

// Progress and Cancel of a read running on another thread (the GUI polls `done`, sets `cancel`).
struct FileReadControl {
    std::atomic<qint64> done{0};  // bytes read so far
    std::atomic<qint64> total{0}; // the file's size, known once it is opened
    std::atomic<bool> cancel{false};
};

// Reading a file the user chose: File > Open, a tab restored at start, an attachment, the CLI's
// FILE. The file may come from someone else (docs/threat-model.md, "Opening files"): a link to
// /dev/zero, a FIFO, a folder, a file of gigabytes. So: links are followed (a link to a regular
// file is a file), but only a regular file is read - checked with stat before opening and with
// fstat on the opened descriptor, which is opened with O_NONBLOCK so that a FIFO swapped in
// meanwhile cannot block; its size must be within `limit` before a byte is read, and reading
// stops past `limit` (a file that grows). Reads in chunks, reporting to `control` and stopping
// when it is cancelled. Safe on any thread.
class FileRead {
public:
    struct Result {
        QByteArray bytes;
        QString error; // a sentence naming the file and what to do; empty when read
        bool cancelled = false;
        bool ok() const { return error.isEmpty() && !cancelled; }
    };

    static Result read(const QString& path, qint64 limit, FileReadControl* control = nullptr);

    // "12.5 MiB": the sizes in the messages.
    static QString sizeText(qint64 bytes);

    static constexpr qint64 kChunkBytes = 1 << 20;
};

} // namespace sandpad
