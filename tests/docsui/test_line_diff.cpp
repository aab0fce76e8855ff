#include "core/diff/InlineDiff.h"
#include "core/diff/LineDiff.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTest>
#include <vector>

using namespace sandpad;

namespace {

// The blocks must walk both texts in order, cover every line, and Equal lines must match.
bool consistent(const LineDiffResult& r, QString* why)
{
    int x = 0, y = 0, added = 0, removed = 0;
    for (const DiffBlock& b : r.blocks) {
        if (b.oldStart != x || b.newStart != y || b.count <= 0) {
            *why = QStringLiteral("block at %1/%2 but walk at %3/%4").arg(b.oldStart).arg(b.newStart).arg(x).arg(y);
            return false;
        }
        for (int i = 0; i < b.count; ++i) {
            if (b.op == DiffOp::Equal) {
                if (r.oldLines.value(x) != r.newLines.value(y) || x >= r.oldLines.size() || y >= r.newLines.size()) {
                    *why = QStringLiteral("equal lines differ at %1/%2").arg(x).arg(y);
                    return false;
                }
                ++x;
                ++y;
            } else if (b.op == DiffOp::Removed) {
                ++x;
                ++removed;
            } else {
                ++y;
                ++added;
            }
        }
    }
    if (x != r.oldLines.size() || y != r.newLines.size() || added != r.added || removed != r.removed) {
        *why = QStringLiteral("walk ended at %1/%2").arg(x).arg(y);
        return false;
    }
    return true;
}

int lcs(const QStringList& a, const QStringList& b)
{
    std::vector<std::vector<int>> t(a.size() + 1, std::vector<int>(b.size() + 1, 0));
    for (qsizetype i = 1; i <= a.size(); ++i)
        for (qsizetype j = 1; j <= b.size(); ++j)
            t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    return t[a.size()][b.size()];
}

QString bigText(int lines, int salt = 0)
{
    QString text;
    text.reserve(lines * 52);
    for (int i = 0; i < lines; ++i)
        text += QStringLiteral("value_%1 = compute(%2, salt=%3)  # padding padding\n").arg(i).arg(i * 7).arg(salt);
    return text;
}

} // namespace

class TestLineDiff : public QObject {
    Q_OBJECT
private slots:
    // Within-line changes of a replaced line: whole words, both sides; unlike lines get none.
    void inlineChangesAreWholeWords()
    {
        const QString before = QStringLiteral("total = price * count  # euros");
        const QString after = QStringLiteral("total = price * quantity  # euros");
        const auto c = InlineDiff::compute(before, after);
        QVERIFY(c);
        QCOMPARE(c->removed, (QList<InlineSpan>{{16, 5}}));   // "count"
        QCOMPARE(c->added, (QList<InlineSpan>{{16, 8}}));     // "quantity"
        QCOMPARE(before.mid(16, 5), QStringLiteral("count"));

        // An insertion only: nothing removed.
        const auto inserted = InlineDiff::compute(QStringLiteral("print(a)"), QStringLiteral("print(a, b)"));
        QVERIFY(inserted);
        QVERIFY(inserted->removed.isEmpty());
        QCOMPARE(inserted->added, (QList<InlineSpan>{{7, 3}})); // ", b"

        // Not alike, equal, or too long: no marks (the line's tint says it).
        QVERIFY(!InlineDiff::compute(QStringLiteral("import numpy as np"), QStringLiteral("for row in table:")));
        QVERIFY(!InlineDiff::compute(QStringLiteral("same"), QStringLiteral("same")));
        QVERIFY(!InlineDiff::compute(QStringLiteral("x = ") + QString(InlineDiff::kMaxLineChars, u'a'),
                                     QStringLiteral("y = ") + QString(InlineDiff::kMaxLineChars, u'a')));
        // Punctuation in common does not make lines alike.
        QVERIFY(!InlineDiff::compute(QStringLiteral("a(b, c)"), QStringLiteral("x(y, z)")));

        // Pairs: a removed run followed by an added run, line for line.
        const LineDiffResult r = LineDiff::compute(QStringLiteral("a\nb = 1\nc = 2\nd\n"), QStringLiteral("a\nb = 10\nc = 20\nextra\nd\n"));
        const QHash<int, int> pairs = InlineDiff::pairedLines(r);
        QCOMPARE(pairs.value(1, -1), 1);
        QCOMPARE(pairs.value(2, -1), 2);
        QCOMPARE(pairs.size(), 2);
    }

    void splitLines()
    {
        QCOMPARE(LineDiff::splitLines(QString()), QStringList());
        QCOMPARE(LineDiff::splitLines(QStringLiteral("a\n")), QStringList{QStringLiteral("a")});
        QCOMPARE(LineDiff::splitLines(QStringLiteral("a\nb")), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(LineDiff::splitLines(QStringLiteral("\n\n")), (QStringList{QString(), QString()}));
    }

    void identicalAndEmpty()
    {
        const auto same = LineDiff::compute(QStringLiteral("a\nb\n"), QStringLiteral("a\nb\n"));
        QVERIFY(same.identical());
        QCOMPARE(same.blocks.size(), 1);
        QCOMPARE(same.unifiedText(), QStringLiteral("--- a\n+++ b\n"));

        const auto added = LineDiff::compute(QString(), QStringLiteral("x\ny\n"));
        QCOMPARE(added.added, 2);
        QCOMPARE(added.removed, 0);
        QCOMPARE(added.unifiedText(), QStringLiteral("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n"));

        const auto removed = LineDiff::compute(QStringLiteral("x\n"), QString());
        QCOMPARE(removed.removed, 1);
        QCOMPARE(removed.added, 0);
    }

    void changedLineAndHunks()
    {
        const QString a = QStringLiteral("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n");
        QString b = a;
        b.replace(QStringLiteral("\n3\n"), QStringLiteral("\nthree\n"));
        b.replace(QStringLiteral("\n14\n"), QStringLiteral("\n14\n14.5\n"));
        const auto r = LineDiff::compute(a, b);
        QCOMPARE(r.removed, 1);
        QCOMPARE(r.added, 2);
        const QString patch = r.unifiedText(QStringLiteral("old"), QStringLiteral("new"), 2);
        QCOMPARE(patch, QStringLiteral("--- old\n+++ new\n"
                                       "@@ -1,5 +1,5 @@\n 1\n 2\n-3\n+three\n 4\n 5\n"
                                       "@@ -13,3 +13,4 @@\n 13\n 14\n+14.5\n 15\n"));
        // With a wider context the two hunks merge into one.
        QCOMPARE(r.unifiedText(QStringLiteral("old"), QStringLiteral("new"), 6).count(QStringLiteral("@@ -")), 1);
        // Whole file.
        QVERIFY(r.unifiedText(QStringLiteral("a"), QStringLiteral("b"), -1).contains(QStringLiteral("@@ -1,15 +1,16 @@")));
    }

    void randomInputsAreMinimalAndConsistent()
    {
        QRandomGenerator rng(1234);
        for (int round = 0; round < 300; ++round) {
            QStringList a, b;
            const int n = rng.bounded(0, 30), m = rng.bounded(0, 30);
            for (int i = 0; i < n; ++i)
                a << QString(QChar(u'a' + rng.bounded(4)));
            for (int i = 0; i < m; ++i)
                b << QString(QChar(u'a' + rng.bounded(4)));
            const auto r = LineDiff::compute(a, b, LineDiff::Options{});
            QString why;
            QVERIFY2(consistent(r, &why), qPrintable(why));
            QVERIFY(!r.coarse);
            const int l = lcs(a, b);
            QCOMPARE(r.added + r.removed, static_cast<int>(a.size() + b.size()) - 2 * l);
        }
    }

    void budgetFallsBackToCoarseBlock()
    {
        QStringList a, b;
        for (int i = 0; i < 200; ++i) {
            a << QStringLiteral("same head");
        }
        for (int i = 0; i < 100; ++i) {
            a << QStringLiteral("old %1").arg(i);
            b << QStringLiteral("new %1").arg(i);
        }
        b.prepend(QStringLiteral("same head"));
        LineDiff::Options tight;
        tight.maxEditDistance = 10;
        const auto r = LineDiff::compute(a, b, tight);
        QVERIFY(r.coarse);
        QString why;
        QVERIFY2(consistent(r, &why), qPrintable(why));
        QCOMPARE(r.blocks.first().op, DiffOp::Equal);   // the common prefix is still exact
    }

    void fiveMegabytesDoNotFreeze()
    {
        const QString a = bigText(100000);            // ~5 MB
        QVERIFY(a.size() > 5'000'000);
        QStringList lines = LineDiff::splitLines(a);
        lines[10] = QStringLiteral("changed near the top");
        lines.insert(50000, QStringLiteral("inserted in the middle"));
        lines.removeAt(90000);
        const QString b = lines.join(QLatin1Char('\n')) + QLatin1Char('\n');

        QElapsedTimer t;
        t.start();
        const auto r = LineDiff::compute(a, b);
        qInfo("5 MB, 3 scattered edits: %lld ms", static_cast<long long>(t.elapsed()));
        QVERIFY(!r.coarse);
        QCOMPARE(r.added, 2);
        QCOMPARE(r.removed, 2);

        // Everything different: the budget stops Myers and the answer is a coarse block.
        const QString c = bigText(100000, 1);
        t.restart();
        const auto worst = LineDiff::compute(a, c);
        qInfo("5 MB, every line different: %lld ms (coarse: %d)", static_cast<long long>(t.elapsed()), worst.coarse);
        QCOMPARE(worst.removed, 100000);
        QCOMPARE(worst.added, 100000);
        QString why;
        QVERIFY2(consistent(worst, &why), qPrintable(why));

        // Many scattered edits (every 50th line): beyond Myers' budget, so the unique-line anchors
        // split the work and the answer is still line-exact.
        QStringList many = LineDiff::splitLines(a);
        for (int i = 0; i < many.size(); i += 50)
            many[i] += QStringLiteral(" # edited");
        t.restart();
        const auto scattered = LineDiff::compute(a, many.join(QLatin1Char('\n')));
        qInfo("5 MB, 2000 scattered edits: %lld ms (coarse: %d)", static_cast<long long>(t.elapsed()), scattered.coarse);
        QVERIFY2(consistent(scattered, &why), qPrintable(why));
        QVERIFY(!scattered.coarse);
        QCOMPARE(scattered.added, 2000);
        QCOMPARE(scattered.removed, 2000);
    }

    void anchorsRescueAnExhaustedBudget()
    {
        QStringList a, b;
        for (int i = 0; i < 60; ++i) {
            a << QStringLiteral("keep %1").arg(i) << QStringLiteral("old %1").arg(i);
            b << QStringLiteral("keep %1").arg(i) << QStringLiteral("new %1").arg(i);
        }
        LineDiff::Options tight;
        tight.maxEditDistance = 10;
        const auto r = LineDiff::compute(a, b, tight);
        QString why;
        QVERIFY2(consistent(r, &why), qPrintable(why));
        QVERIFY(!r.coarse);
        QCOMPARE(r.added, 60);
        QCOMPARE(r.removed, 60);
    }
};

QTEST_GUILESS_MAIN(TestLineDiff)
#include "test_line_diff.moc"
