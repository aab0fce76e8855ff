// ArtifactCollector against hand-made wrapper lists (no sandbox): names that could point outside
// the folder are refused, the declared sizes are counted against ResultLimits before anything is
// read, content of the wrong size is dropped, and every refusal is a notice naming its reason.
#include "core/engine/ArtifactCollector.h"
#include "core/runtime/ResultLimits.h"
#include "core/sandbox/Sandbox.h"

#include <QCryptographicHash>
#include <QJsonObject>
#include <QTest>

using namespace sandpad;

namespace {

// Answers readFile from a map and counts the reads.
class MapSandbox : public Sandbox {
public:
    QMap<QString, QByteArray> files;
    int reads = 0;
    QString id() const override { return QStringLiteral("map"); }
    QString workDir() const override { return QStringLiteral("/w"); }
    QString interpreter(Language) const override { return {}; }
    QStringList pipArguments() const override { return {}; }
    void writeFiles(const QList<SandboxFile>&) override {}
    CommandOutcome run(const SandboxCommand&, const OutputCallback&, RunControl&) override { return {}; }
    std::optional<QByteArray> readFile(const QString& path) override
    {
        ++reads;
        if (!files.contains(path))
            return std::nullopt;
        return files.value(path);
    }
    CleanupReport destroy() override { return {true, {}}; }
};

QJsonObject entry(const QString& name, const QString& file, qint64 size)
{
    return QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("file"), file}, {QStringLiteral("size"), double(size)}};
}

} // namespace

class TestArtifactCollector : public QObject {
    Q_OBJECT

private slots:
    void safeNames()
    {
        for (const char* good : {"a.txt", "out/plot.png", "é t.csv", ".hidden", "a/b/c/d"})
            QVERIFY2(ArtifactCollector::isSafeName(QString::fromUtf8(good)), good);
        for (const char* bad : {"", "/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/.", "a\\b", "a\nb", "a\x1b[2Jb"})
            QVERIFY2(!ArtifactCollector::isSafeName(QString::fromUtf8(bad)), bad);
        QVERIFY(!ArtifactCollector::isSafeName(QString(2000, u'a')));
        QVERIFY(!ArtifactCollector::isSafeName(QStringLiteral("a\u202Eb"))); // a bidi override
    }

    // Issue 26: the wrapper's escapes (a byte that is not UTF-8, a control character, a
    // backslash) are names; a lone surrogate (an unescaped name that was not UTF-8) is not, nor
    // is a backslash that is no escape. Emoji (surrogate pairs) are fine.
    void escapedNames()
    {
        for (const char* good : {"caf\\xe9.txt", "ctl\\x01\\x1b[31m", "a\\\\b", "\\xe2\\x80\\xaeevil", "caf\xef\xbf\xbd",
                                 "\xf0\x9f\x98\x80.png"})
            QVERIFY2(ArtifactCollector::isSafeName(QString::fromUtf8(good)), good);
        for (const char* bad : {"a\\q", "a\\x1", "a\\xE9", "a\\", "a\\\\\\"})
            QVERIFY2(!ArtifactCollector::isSafeName(QString::fromUtf8(bad)), bad);
        QVERIFY(!ArtifactCollector::isSafeName(QStringLiteral("caf") + QChar(0xdce9) + QStringLiteral(".txt")));
        QVERIFY(!ArtifactCollector::isSafeName(QString(QChar(0xd83d)) + QStringLiteral("x")));
    }

    // Issue 26: a link or FIFO whose name holds control characters (unescaped: a forged result)
    // is still named in the notice, escaped; before, it was left out without a word.
    void unsafeOmittedNamesAreStillNoticed()
    {
        MapSandbox box;
        const QJsonArray omitted{QJsonObject{{"name", "link\x1b]0;owned\x07"}, {"size", 0}, {"reason", "a symbolic link"}},
                                 QJsonObject{{"name", "fifo\n"}, {"size", 0}, {"reason", "not a regular file"}},
                                 QJsonObject{{"name", QStringLiteral("big") + QChar(0xdcff)}, {"size", 1e12}, {"reason", "bytes"}}};
        QStringList notices;
        ArtifactCollector::collect({}, omitted, QStringLiteral("/w/out"), box, &notices);
        const QString all = notices.join(u'\n');
        QVERIFY2(all.contains(QStringLiteral("link\\u{001b}]0;owned\\u{0007} is a symbolic link")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("fifo\\u{000a} is not a regular file")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("big\\u{dcff} (")), qPrintable(all));
        for (const QChar c : all)
            QVERIFY2(c == u'\n' || (c.category() != QChar::Other_Control && !c.isSurrogate()), qPrintable(all));
    }

    void keptHashedTypedAndRefused()
    {
        MapSandbox box;
        box.files[QStringLiteral("/w/out/artifact-1")] = "a,b\n";
        box.files[QStringLiteral("/w/out/artifact-2")] = "short";
        const QJsonArray listed{entry(QStringLiteral("t.csv"), QStringLiteral("artifact-1"), 4),
                                entry(QStringLiteral("../escape"), QStringLiteral("artifact-1"), 4),
                                entry(QStringLiteral("ok"), QStringLiteral("../../etc/passwd"), 4),
                                entry(QStringLiteral("wrong-size"), QStringLiteral("artifact-2"), 50),
                                entry(QStringLiteral("huge.bin"), QStringLiteral("artifact-3"), ResultLimits::artifactBytesPerRun)};
        const QJsonArray omitted{QJsonObject{{"name", "link"}, {"size", 0}, {"reason", "a symbolic link"}},
                                 QJsonObject{{"name", ""}, {"size", 10}, {"reason", "more"}},
                                 QJsonObject{{"name", ""}, {"size", 0}, {"reason", "entries"}}};
        QStringList notices;
        const QList<RunArtifact> kept = ArtifactCollector::collect(listed, omitted, QStringLiteral("/w/out"), box, &notices);
        QCOMPARE(kept.size(), 1);
        QCOMPARE(kept[0].name, QStringLiteral("t.csv"));
        QCOMPARE(kept[0].size, 4);
        QCOMPARE(kept[0].mimeType, QStringLiteral("text/csv"));
        QCOMPARE(kept[0].sha256, QString::fromLatin1(QCryptographicHash::hash("a,b\n", QCryptographicHash::Sha256).toHex()));
        QCOMPARE(kept[0].sha256.size(), 64);
        // Only the two valid, affordable entries were read: huge.bin was refused by its declared size.
        QCOMPARE(box.reads, 2);
        const QString all = notices.join(u'\n');
        QVERIFY2(all.contains(QStringLiteral("huge.bin (32 MiB): the run's files are limited to 32 MiB per run")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("wrong-size: its content did not arrive")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("invalid name")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("link is a symbolic link")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("more than 10,000 files and folders")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("10 more files were not returned")), qPrintable(all));
    }
};

QTEST_GUILESS_MAIN(TestArtifactCollector)
#include "test_artifact_collector.moc"
