// The rich output views (ui/outputs), offscreen: a paged table (a 1,000,000-row one opens
// without building a million rows), copy as TSV/CSV, math with its text form (readable on a dark
// palette), SVG drawn or refused, Markdown that loads nothing, and a notebook entry that shows
// text, table, text in the order they happened.
#include "core/run/ExecutionResult.h"
#include "core/run/Run.h"
#include "ui/console/OutputView.h"
#include "ui/console/RunEntry.h"
#include "ui/outputs/ImageOutputView.h"
#include "ui/outputs/MarkdownOutputView.h"
#include "ui/outputs/MathOutputView.h"
#include "ui/outputs/OutputsPanel.h"
#include "ui/outputs/SvgOutputView.h"
#include "ui/outputs/TableOutputModel.h"
#include "ui/outputs/TableOutputView.h"
#include "ui/theme/Theme.h"

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>
#include <QtTest>

using namespace sandpad;

namespace {

RunOutput table(qsizetype rows, int columns = 3)
{
    RunOutput t;
    t.type = RunOutput::Type::Table;
    for (int c = 0; c < columns; ++c) {
        t.columns << QStringLiteral("c%1").arg(c);
        t.dtypes << (c == 0 ? QStringLiteral("int64") : QStringLiteral("object"));
    }
    t.indexName = QStringLiteral("id");
    t.index.reserve(rows);
    t.rows.reserve(rows);
    const QStringList row{QStringLiteral("1"), QStringLiteral("a,b"), QStringLiteral("say \"hi\"")};
    for (qsizetype r = 0; r < rows; ++r) {
        t.index << QString::number(r);
        t.rows << row.mid(0, columns);
    }
    t.totalRows = rows;
    return t;
}

QByteArray blackOnTransparentPng()
{
    QImage image(6, 4, QImage::Format_ARGB32);
    image.fill(Qt::transparent);
    image.setPixelColor(1, 1, Qt::black);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

} // namespace

class TestOutputsUi : public QObject {
    Q_OBJECT

private slots:
    void millionRowsArePaged()
    {
        TableOutputView view(table(1'000'000));
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* model = view.model();
        // One page at first; the view fetches more as it scrolls to the end.
        QCOMPARE(model->rowCount(), TableOutputModel::kPageRows);
        QVERIFY(model->canFetchMore({}));
        view.tableView()->scrollToBottom();
        QCoreApplication::processEvents();
        QVERIFY(model->rowCount() > TableOutputModel::kPageRows);
        QVERIFY(model->rowCount() < 1'000'000);
        QCOMPARE(view.captionText(), QStringLiteral("1,000,000 rows × 3 columns · index: id"));
        QCOMPARE(model->headerData(0, Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("c0 (int64)"));
        QCOMPARE(model->headerData(5, Qt::Vertical).toString(), QStringLiteral("5"));
        QCOMPARE(model->data(model->index(0, 0), Qt::TextAlignmentRole).value<Qt::Alignment>() & Qt::AlignRight, Qt::AlignRight);
    }

    void captionSaysWhatWasCut()
    {
        RunOutput t = table(3);
        t.totalRows = 250000;
        TableOutputView view(t);
        QCOMPARE(view.captionText(), QStringLiteral("the first 3 of 250,000 rows × 3 columns · index: id"));
    }

    void copyAsTsvAndCsv()
    {
        TableOutputView view(table(2));
        QCOMPARE(view.copyText(false), QStringLiteral("id\tc0\tc1\tc2\n0\t1\ta,b\tsay \"hi\"\n1\t1\ta,b\tsay \"hi\"\n"));
        QCOMPARE(view.copyText(true), QStringLiteral("id,c0,c1,c2\n0,1,\"a,b\",\"say \"\"hi\"\"\"\n1,1,\"a,b\",\"say \"\"hi\"\"\"\n"));
        // A selection: only its cells (with the header and index).
        view.tableView()->selectionModel()->select(QItemSelection(view.model()->index(1, 0), view.model()->index(1, 1)),
                                                   QItemSelectionModel::Select);
        QCOMPARE(view.copyText(false), QStringLiteral("id\tc0\tc1\n1\t1\ta,b\n"));
        view.copy(true);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("id,c0,c1\n1,1,\"a,b\"\n"));
        // Rows not fetched yet are copied too.
        TableOutputView big(table(5000, 1));
        QCOMPARE(big.copyText(false).count(u'\n'), 5001);
    }

    void mathShowsPictureAndText()
    {
        RunOutput m;
        m.type = RunOutput::Type::Math;
        m.text = QStringLiteral("\\sqrt{x}");
        m.plain = QStringLiteral("sqrt(x)");
        m.png = blackOnTransparentPng();
        MathOutputView view(m);
        QVERIFY(view.hasPicture());
        QCOMPARE(view.textLabel()->text(), QStringLiteral("sqrt(x)"));
        QVERIFY(view.textLabel()->textInteractionFlags() & Qt::TextSelectableByMouse);
        QVERIFY(view.toolTip().contains(QStringLiteral("\\sqrt{x}")));
        // On a dark palette the black glyphs are drawn light.
        view.setPalette(Theme::darkPalette());
        QCoreApplication::processEvents();
        const QImage shown = view.pictureLabel()->pixmap().toImage();
        QVERIFY(QColor(shown.pixel(1, 1)).lightness() > 200);
        // Without a picture: the text form and the LaTeX.
        m.png.clear();
        MathOutputView plain(m);
        QVERIFY(!plain.hasPicture());
        QCOMPARE(plain.textLabel()->text(), QStringLiteral("sqrt(x)\n\\sqrt{x}"));
    }

    // A formula wider than the notebook is drawn smaller to fit, beside its text form, instead
    // of being cut at the view's edge; a narrow one keeps its size.
    void wideMathFitsTheView()
    {
        QImage wide(1200, 60, QImage::Format_ARGB32);
        wide.fill(Qt::transparent);
        for (int x = 0; x < wide.width(); ++x)
            wide.setPixel(x, 30, qRgba(0, 0, 0, 255));
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(wide.save(&buffer, "PNG"));
        RunOutput m;
        m.type = RunOutput::Type::Math;
        m.text = QStringLiteral("x + y");
        m.plain = QStringLiteral("x + y");
        m.png = png;
        QWidget column;
        auto* layout = new QVBoxLayout(&column);
        auto* view = new MathOutputView(m, &column);
        layout->addWidget(view);
        column.resize(420, 200);
        column.show();
        QVERIFY(QTest::qWaitForWindowExposed(&column));
        QVERIFY2(view->width() <= 420, qPrintable(QString::number(view->width())));
        const QRect picture = view->pictureLabel()->geometry();
        QVERIFY2(view->pictureLabel()->pixmap().width() <= picture.width() && picture.right() < view->width(),
                 qPrintable(QStringLiteral("%1 in %2").arg(view->pictureLabel()->pixmap().width()).arg(picture.width())));
        QVERIFY(view->pictureLabel()->pixmap().width() > 150); // the most of the room
        QVERIFY(view->textLabel()->geometry().right() <= view->width());
        QVERIFY(view->textLabel()->isVisible());
        // Wide again: the whole formula, at its own size.
        column.resize(1600, 200);
        QCoreApplication::processEvents();
        QTRY_COMPARE(view->pictureLabel()->pixmap().width(), 1200);
    }

    void svgDrawnOrRefused()
    {
        SvgOutputView good(QStringLiteral("<svg xmlns='http://www.w3.org/2000/svg' width='40' height='20'><rect width='40' height='20' fill='red'/></svg>"));
        QVERIFY(good.drawn());
        QCOMPARE(good.pixmap().deviceIndependentSize().toSize(), QSize(40, 20));
        SvgOutputView outside(QStringLiteral("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink'>"
                                             "<image xlink:href='file:///etc/passwd' width='10' height='10'/></svg>"));
        QVERIFY(!outside.drawn());
        QVERIFY(outside.text().contains(QStringLiteral("refers to an outside file or address")));
        SvgOutputView broken(QStringLiteral("<svg"));
        QVERIFY(!broken.drawn());
        QVERIFY(broken.text().contains(QStringLiteral("not a valid SVG")));
    }

    void markdownLoadsNothing()
    {
        MarkdownOutputView view(QStringLiteral("# Title\n\nSome *text* ![img](http://example.com/x.png) ![local](/etc/hosts)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"));
        view.resize(400, 100);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(view.toPlainText().contains(QStringLiteral("Title")));
        QVERIFY(!view.openLinks());
        QVERIFY(!view.openExternalLinks());
        // Whatever the document asks for (the two images) gets nothing.
        QVERIFY(view.loadResource(QTextDocument::ImageResource, QUrl(QStringLiteral("http://example.com/x.png"))).isNull());
        QVERIFY(view.resourceRequests() >= 1);
        QCOMPARE(view.verticalScrollBarPolicy(), Qt::ScrollBarAlwaysOff);
    }

    void panelInterleavesTextAndOutputs()
    {
        RunOutput md;
        md.type = RunOutput::Type::Markdown;
        md.text = QStringLiteral("**m**");
        md.stdoutBytes = 10; // after "before é\n"
        RunOutput t = table(2);
        t.stdoutBytes = 17; // after "middle\n"
        OutputsPanel panel;
        panel.setOutputs({md, t}, QStringLiteral("before é\nmiddle\nafter\n"));
        QCOMPARE(panel.partKinds(), (QStringList{"stdout", "markdown", "stdout", "table", "stdout"}));
        QCOMPARE(qobject_cast<QLabel*>(panel.parts()[0])->text(), QStringLiteral("before é"));
        QCOMPARE(qobject_cast<QLabel*>(panel.parts()[2])->text(), QStringLiteral("middle"));
        QCOMPARE(qobject_cast<QLabel*>(panel.parts()[4])->text(), QStringLiteral("after"));
        panel.setOutputs({md, t});
        QCOMPARE(panel.partKinds(), (QStringList{"markdown", "table"}));
    }

    // An entry with a table, Markdown and math fits a narrow notebook (the Documents and
    // Variables docks open): nothing in it asks for more than the view's width.
    void entryWithOutputsFitsANarrowNotebook()
    {
        ExecutionResult r;
        r.runId = QStringLiteral("narrow");
        r.status = RunStatus::Success;
        r.title = QStringLiteral("dataframe_math.py");
        RunOutput md;
        md.type = RunOutput::Type::Markdown;
        md.text = QStringLiteral("## Monthly sales\nA table keeps its index, column names and dtypes; **Copy as TSV/CSV** copies the selection.");
        RunOutput t = table(6);
        t.indexName = QStringLiteral("month");
        RunOutput m;
        m.type = RunOutput::Type::Math;
        m.text = QStringLiteral("f'(x) = -x e^{-x^2/2} \\cos(x) - e^{-x^2/2} \\sin(x)");
        m.plain = QStringLiteral("Eq(f'(x), -x*exp(-x**2/2)*cos(x) - exp(-x**2/2)*sin(x))");
        m.png = blackOnTransparentPng();
        r.outputs = {md, t, m};
        RunEntry entry(1, new Run(r));
        QVERIFY2(entry.minimumSizeHint().width() <= 330, qPrintable(QString::number(entry.minimumSizeHint().width())));
        entry.resize(330, 600);
        entry.show();
        QVERIFY(QTest::qWaitForWindowExposed(&entry));
        for (QWidget* part : entry.outputsPanel()->parts())
            QVERIFY2(part->geometry().right() < entry.outputsPanel()->width(), part->metaObject()->className());
    }

    void entryShowsOutputsInOrder()
    {
        ExecutionResult r;
        r.runId = QStringLiteral("r1");
        r.status = RunStatus::Success;
        r.title = QStringLiteral("t");
        r.stdoutText = QStringLiteral("one\ntwo\n");
        RunOutput t = table(2);
        t.stdoutBytes = 4;
        RunOutput image;
        image.type = RunOutput::Type::Image;
        image.png = blackOnTransparentPng();
        image.stdoutBytes = 8;
        r.outputs = {t, image};
        RunEntry entry(1, new Run(r)); // the entry owns a finished run
        entry.show();
        QVERIFY(QTest::qWaitForWindowExposed(&entry));
        QVERIFY(entry.outputsPanel()->isVisible());
        QCOMPARE(entry.outputsPanel()->partKinds(), (QStringList{"stdout", "table", "stdout", "image"}));
        QVERIFY(!entry.outputView()->isVisible()); // the text is shown between the outputs
        QVERIFY(qobject_cast<ImageOutputView*>(entry.outputsPanel()->parts()[3])->drawn());

        // With stderr, the output keeps its own order and the outputs follow it.
        r.stderrText = QStringLiteral("warning\n");
        RunEntry second(2, new Run(r));
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second));
        QVERIFY(second.outputView()->isVisible());
        QCOMPARE(second.outputsPanel()->partKinds(), (QStringList{"table", "image"}));

        // A run without outputs shows no panel.
        r.outputs.clear();
        RunEntry third(3, new Run(r));
        third.show();
        QVERIFY(QTest::qWaitForWindowExposed(&third));
        QVERIFY(!third.outputsPanel()->isVisible());
    }
};

QTEST_MAIN(TestOutputsUi)
#include "test_outputs_ui.moc"
