// Notebooks in and out (core/ipynb) on a large notebook: 1,000 cells (a third markdown), 100
// PNG figures of 50 KB in the outputs (5 MB of base64): read, to the tab's text and back, written,
// and the HTML report. Prints a Markdown table (median of 5).
#include "BenchStats.h"

#include "core/ipynb/HtmlReport.h"
#include "core/ipynb/IpynbReader.h"
#include "core/ipynb/IpynbWriter.h"
#include "core/ipynb/PercentFormat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <cstdio>

using namespace sandpad;

int main()
{
    QByteArray png(50 * 1024, '\0');
    for (char& c : png)
        c = char(QRandomGenerator::global()->bounded(256));
    const QString png64 = QString::fromLatin1(png.toBase64());
    QJsonArray cells;
    for (int i = 0; i < 1000; ++i) {
        if (i % 3 == 0) {
            cells.append(QJsonObject{{"cell_type", "markdown"}, {"metadata", QJsonObject{}},
                                     {"source", QStringLiteral("## Step %1\n\nSome *text* about it.").arg(i)}});
            continue;
        }
        QJsonArray outputs{QJsonObject{{"output_type", "stream"}, {"name", "stdout"}, {"text", QStringLiteral("value %1\n").arg(i)}}};
        if (i % 10 == 1)
            outputs.append(QJsonObject{{"output_type", "display_data"}, {"metadata", QJsonObject{}},
                                       {"data", QJsonObject{{"image/png", png64}, {"text/plain", "<Figure>"}}}});
        cells.append(QJsonObject{{"cell_type", "code"}, {"metadata", QJsonObject{}}, {"outputs", outputs},
                                 {"execution_count", i},
                                 {"source", QStringLiteral("x%1 = %1 * 2\nfor k in range(3):\n    print(k, x%1)").arg(i)}});
    }
    const QByteArray file = QJsonDocument(QJsonObject{{"cells", cells}, {"metadata", QJsonObject{}}, {"nbformat", 4},
                                                      {"nbformat_minor", 5}}).toJson();
    QString error, text;
    Notebook nb;
    std::vector<double> read, toText, fromText, write, html;
    for (int run = 0; run < 5; ++run) {
        read.push_back(bench::timeMs([&] { nb = *IpynbReader::read(file, &error); }));
        toText.push_back(bench::timeMs([&] { text = PercentFormat::toText(nb.cells, nb.language); }));
        fromText.push_back(bench::timeMs([&] { PercentFormat::fromText(text, nb.language); }));
        write.push_back(bench::timeMs([&] { IpynbWriter::write(nb); }));
        html.push_back(bench::timeMs([&] { HtmlReport::render(nb, QStringLiteral("bench")); }));
    }
    std::printf("Notebook: %d cells, %.1f MB on disk, tab text %lld characters\n\n", int(cells.size()),
                double(file.size()) / 1e6, qint64(text.size()));
    std::printf("| step | median ms | p95 ms |\n|---|---|---|\n");
    const std::pair<const char*, std::vector<double>*> rows[] = {
        {"read (IpynbReader)", &read}, {"cells to tab text", &toText}, {"tab text to cells", &fromText},
        {"write (IpynbWriter)", &write}, {"HTML report", &html}};
    for (const auto& [name, v] : rows) {
        const bench::Stats s = bench::stats(*v);
        std::printf("| %s | %.1f | %.1f |\n", name, s.median, s.p95);
    }
    return 0;
}
