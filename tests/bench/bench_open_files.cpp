// Opening big files (issue 26): a 50 MB single-cell notebook and a 50 MB .py through File > Open
// (EditorDocuments, offscreen). Prints the whole time and the longest stall of the event loop (a
// 10 ms timer's worst gap), and for comparison the same work done on the GUI thread in one go, as
// before issue 26 (read, parse, text into the editor).
#include "BenchStats.h"

#include "core/ipynb/IpynbReader.h"
#include "core/ipynb/PercentFormat.h"
#include "ui/editor/CodeEditor.h"
#include "ui/editor/EditorDocuments.h"
#include "ui/editor/EditorPage.h"
#include "ui/editor/EditorTabs.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace sandpad;

namespace {

QString bigText(qint64 bytes)
{
    const QString line = QStringLiteral("x = [%1]  # a long line of a big cell\n").arg(QString(40, u'7'));
    QString text;
    text.reserve(bytes + line.size());
    while (text.size() < bytes)
        text += line;
    return text;
}

QByteArray notebookOf(const QString& text)
{
    QJsonArray lines;
    for (const QString& line : text.split(u'\n'))
        lines.append(line + u'\n');
    const QJsonObject cell{{"cell_type", "code"}, {"metadata", QJsonObject{}}, {"outputs", QJsonArray{}},
                           {"execution_count", QJsonValue()}, {"source", lines}};
    return QJsonDocument(QJsonObject{{"cells", QJsonArray{cell}}, {"metadata", QJsonObject{}}, {"nbformat", 4},
                                     {"nbformat_minor", 5}})
        .toJson(QJsonDocument::Compact);
}

struct Probe {
    QElapsedTimer clock;
    QTimer ticker;
    qint64 last = 0, worst = 0;
    int ticks = 0;
    Probe()
    {
        ticker.setInterval(10);
        QObject::connect(&ticker, &QTimer::timeout, &ticker, [this] {
            worst = std::max(worst, clock.elapsed() - last);
            last = clock.elapsed();
            ++ticks;
        });
        clock.start();
        ticker.start();
    }
    qint64 finish()
    {
        ticker.stop();
        worst = std::max(worst, clock.elapsed() - last); // the gap up to the end counts too
        return worst;
    }
};

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QTemporaryDir dir;
    const QString text = bigText(50'000'000);
    const QString py = dir.filePath(QStringLiteral("big.py")), nb = dir.filePath(QStringLiteral("big.ipynb"));
    {
        QFile f(py);
        if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0)
            return 1;
        QFile g(nb);
        if (!g.open(QIODevice::WriteOnly) || g.write(notebookOf(text)) < 0)
            return 1;
    }
    std::printf("Files: big.py %.1f MB, big.ipynb (one cell) %.1f MB; load average %s\n\n",
                double(QFileInfo(py).size()) / 1e6, double(QFileInfo(nb).size()) / 1e6, qPrintable(bench::loadAverage()));
    std::printf("| file | way | whole ms | longest event-loop stall ms | event-loop ticks |\n|---|---|---|---|---|\n");

    {
        // Where the GUI thread's time goes once the text is there.
        CodeEditor editor;
        const double set = bench::timeMs([&] { editor.setText(text); });
        const double separators = bench::timeMs([&] { editor.updateCellSeparators(); });
        std::printf("| 50 MB text | CodeEditor::setText alone | %.0f | %.0f | 0 |\n", set, set);
        std::printf("| 50 MB text | CodeEditor::updateCellSeparators alone | %.0f | %.0f | 0 |\n", separators, separators);
        // Through Scintilla's loader on this thread (File > Open fills it on a worker instead).
        CodeEditor loaded;
        const double load = bench::timeMs([&] { loaded.loadText(text); });
        std::printf("| 50 MB text | CodeEditor::loadText alone (loader filled here) | %.0f | %.0f | 0 |\n", load, load);
        // In pieces, as tried for issue 26: each insert costs more as the document grows.
        CodeEditor pieces;
        pieces.show();
        double worst = 0, first = 0;
        const double whole = bench::timeMs([&] {
            for (qsizetype at = 0; at < text.size();) {
                const double ms = bench::timeMs([&] {
                    const qsizetype newline = text.indexOf(u'\n', std::min(text.size() - 1, at + (1 << 20)));
                    const qsizetype to = newline < 0 ? text.size() : newline + 1;
                    pieces.append(text.mid(at, to - at));
                    at = to;
                    QCoreApplication::processEvents();
                });
                first = first == 0 ? ms : first;
                worst = std::max(worst, ms);
            }
        });
        std::printf("| 50 MB text | CodeEditor::append of 1 MB pieces (the first %.0f ms) | %.0f | %.0f | - |\n", first, whole, worst);
    }
    for (const QString& file : {nb, py}) {
        const bool isNotebook = file == nb;
        const char* name = isNotebook ? "50 MB .ipynb" : "50 MB .py";
        {
            // Before issue 26: all of it on the GUI thread.
            QWidget window;
            auto* tabs = new EditorTabs(&window);
            const double ms = bench::timeMs([&] {
                QFile f(file);
                if (!f.open(QIODevice::ReadOnly))
                    return;
                const QByteArray bytes = f.readAll();
                QString content;
                if (isNotebook) {
                    QString error;
                    const auto notebook = IpynbReader::read(bytes, &error);
                    content = notebook ? PercentFormat::toText(notebook->cells, notebook->language) : QString();
                } else {
                    content = QString::fromUtf8(bytes);
                }
                tabs->newTab(Language::Python, content);
            });
            std::printf("| %s | on the GUI thread (before) | %.0f | %.0f | 0 |\n", name, ms, ms);
        }
        {
            QWidget window;
            auto* tabs = new EditorTabs(&window);
            auto* docs = new EditorDocuments(tabs, nullptr, QString(), &window);
            Probe probe;
            QString error;
            EditorPage* page = docs->openFileQuietly(file, &error);
            const qint64 worst = probe.finish();
            std::printf("| %s | File > Open (now) | %lld | %lld | %d |\n", name, probe.clock.elapsed(), worst, probe.ticks);
            if (!page)
                std::printf("\nnot opened: %s\n", qPrintable(error));
        }
    }
    return 0;
}
