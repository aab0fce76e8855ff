// Completion from a session does not run the user's code, whatever the objects claim (issue 26,
// item 5): each row is an attack of tests/completion/session_complete_guard.py, run with the
// system's python3 (where the session's Jedi comes from) against resources/runtime/
// session_complete.py, outside any sandbox. A row passes when none of the cell's code ran while
// completion answered, and its control shows the trick does run when the value is read (the test
// can fail). All but sys_modules_fake ran the cell's code before the guard. The last row checks
// that completion still answers: a DataFrame's columns, signatures, help, a dataclass.
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace {

const QString kPython = QStringLiteral("/usr/bin/python3");

QJsonObject runCase(const QString& name, QString* error)
{
    QProcess python;
    python.setProcessChannelMode(QProcess::SeparateChannels);
    python.start(kPython, {QStringLiteral(SANDPAD_SOURCE_DIR "/tests/completion/session_complete_guard.py"),
                           QStringLiteral(SANDPAD_SOURCE_DIR "/resources/runtime"), name});
    if (!python.waitForFinished(240000)) {
        python.kill();
        python.waitForFinished();
        *error = QStringLiteral("timed out");
        return {};
    }
    const QByteArray out = python.readAllStandardOutput().trimmed();
    const QJsonObject result = QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1)).object();
    if (result.isEmpty())
        *error = QString::fromUtf8(python.readAllStandardError().right(2000));
    return result;
}

QStringList strings(const QJsonValue& value)
{
    QStringList list;
    for (const QJsonValue& v : value.toArray())
        list << v.toString();
    return list;
}

QStringList names(const QJsonObject& answer)
{
    QStringList list;
    for (const QJsonValue& v : answer.value(QStringLiteral("completions")).toArray())
        list << v.toObject().value(QStringLiteral("name")).toString();
    return list;
}

QString firstSignature(const QJsonObject& answer)
{
    return answer.value(QStringLiteral("signatures")).toArray().at(0).toObject().value(QStringLiteral("text")).toString();
}

} // namespace

class TestSessionCompleteGuard : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QProcess probe;
        probe.start(kPython, {QStringLiteral("-c"), QStringLiteral("import jedi, pandas")});
        if (!probe.waitForFinished(60000) || probe.exitCode() != 0)
            QSKIP("needs /usr/bin/python3 with python3-jedi and pandas");
    }

    void userCodeIsNotRun_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("hasControl");
        // Read from the instance's class through its metaclass.
        QTest::newRow("metaclass __getattribute__") << "metaclass_getattribute" << true;
        QTest::newRow("__class__ property (isinstance)") << "class_property" << true;
        QTest::newRow("co_filename claiming dist-packages") << "co_filename_claim" << true;
        QTest::newRow("a list's element") << "list_element" << true;
        QTest::newRow("a dict's value") << "dict_value" << true;
        QTest::newRow("a module object's attribute") << "module_attribute" << true;
        QTest::newRow("__dict__ property (dir)") << "dict_property" << true;
        QTest::newRow("__doc__ property (help)") << "doc_property" << true;
        QTest::newRow("a default's __repr__ (calltip)") << "default_repr" << true;
        QTest::newRow("__signature__ property") << "signature_property" << true;
        QTest::newRow("__wrapped__ followed by inspect") << "wrapped" << true;
        QTest::newRow("__module__ = 'builtins' (repr)") << "builtins_claim" << true;
        QTest::newRow("classmethod(property)") << "classmethod_property" << true;
        QTest::newRow("a metaclass's property") << "metaclass_property" << true;
        QTest::newRow("a dict key's __eq__ on lookup") << "dict_key_eq" << true;
        QTest::newRow("a dict subclass's keys()") << "dict_subclass_keys" << true;
        QTest::newRow("a package in the pip target") << "pip_package" << true;
        QTest::newRow("the user's trace and profile functions") << "trace_function" << false;
        QTest::newRow("a gc callback") << "gc_callback" << true;
        QTest::newRow("a signal handler") << "signal_handler" << false;
        QTest::newRow("a module object in sys.modules, imported") << "sys_modules_fake" << true;
        QTest::newRow("a pickle in parso's disk cache") << "parso_pickle" << false;
    }

    void userCodeIsNotRun()
    {
        QFETCH(QString, name);
        QFETCH(bool, hasControl);
        QString error;
        const QJsonObject result = runCase(name, &error);
        QVERIFY2(!result.isEmpty(), qPrintable(error));
        QVERIFY2(!result.contains(QStringLiteral("error")), qPrintable(result.value(QStringLiteral("error")).toString()));
        QCOMPARE(strings(result.value(QStringLiteral("ran"))), QStringList{});
        if (hasControl)
            QCOMPARE(strings(result.value(QStringLiteral("control"))), QStringList{name});
    }

    void completionStillAnswers()
    {
        QString error;
        const QJsonObject result = runCase(QStringLiteral("quality"), &error);
        QVERIFY2(!result.isEmpty(), qPrintable(error));
        QCOMPARE(strings(result.value(QStringLiteral("ran"))), QStringList{}); // the property is named, not read
        QCOMPARE(strings(result.value(QStringLiteral("control"))), QStringList{QStringLiteral("quality")});
        const QJsonObject answers = result.value(QStringLiteral("answers")).toObject();
        auto answer = [&answers](const char* key) { return answers.value(QLatin1String(key)).toObject(); };
        QVERIFY2(names(answer("complete df.al")).contains(QStringLiteral("alpha")), qPrintable(names(answer("complete df.al")).join(u' ')));
        QVERIFY(names(answer("complete df.")).contains(QStringLiteral("beta_total")));
        QVERIFY(names(answer("complete df.")).contains(QStringLiteral("groupby")));
        QCOMPARE(names(answer("complete threshold_v")), QStringList{QStringLiteral("threshold_value")});
        QCOMPARE(firstSignature(answer("signatures scale(")), QStringLiteral("scale(values, factor=2.5, *, clip=None)"));
        QVERIFY(answer("help scale").value(QStringLiteral("help")).toArray().at(0).toObject().value(QStringLiteral("doc")).toString()
                    .contains(QStringLiteral("Scales the values")));
        QVERIFY(names(answer("complete w.")).contains(QStringLiteral("prop")));
        QVERIFY(names(answer("complete w.")).contains(QStringLiteral("method")));
        QCOMPARE(firstSignature(answer("signatures w.method(")), QStringLiteral("method(a, b=1)"));
        QVERIFY(names(answer("complete p.")).contains(QStringLiteral("x")));
        QCOMPARE(firstSignature(answer("signatures Point(")), QStringLiteral("Point(x: int, y: int=0)"));
        QCOMPARE(names(answer("complete np.ara")), QStringList{QStringLiteral("arange")});
        QCOMPARE(names(answer("complete os.path.jo")), QStringList{QStringLiteral("join")});
        QVERIFY(firstSignature(answer("signatures pd.DataFrame(")).startsWith(QStringLiteral("DataFrame(data=None")));
        QVERIFY(answer("warm").value(QStringLiteral("ok")).toBool());
    }
};

QTEST_MAIN(TestSessionCompleteGuard)
#include "test_session_complete_guard.moc"
