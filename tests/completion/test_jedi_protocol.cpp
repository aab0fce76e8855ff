// JediProtocol: the request line (the service's and a session's), the bounds on what a (possibly
// hostile) service answers, and the merge of a session's answer with the service's.
#include "core/completion/JediProtocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace sandpad;

class TestJediProtocol : public QObject {
    Q_OBJECT
private slots:
    void requestIsOneLineWithCodePointColumns()
    {
        AssistRequest request;
        request.source = QStringLiteral("s = '\U0001F600'\nimport os\nos.pa");
        request.line = 1;
        request.column = 8; // after the emoji and its closing quote: 2 UTF-16 units for 1 code point
        const QByteArray line = JediProtocol::requestLine(7, request, 500);
        QCOMPARE(line.count('\n'), 1);
        QVERIFY(line.endsWith('\n'));
        const QJsonObject object = QJsonDocument::fromJson(line).object();
        QCOMPARE(object.value("id").toInt(), 7);
        QCOMPARE(object.value("op").toString(), QStringLiteral("complete"));
        QCOMPARE(object.value("column").toInt(), 7);
        QCOMPARE(object.value("source").toString(), request.source);
        QCOMPARE(object.value("deadline_ms").toInt(), 500);
    }

    void sessionRequestAndBaseline()
    {
        AssistRequest request;
        request.kind = AssistKind::Signatures;
        request.source = QStringLiteral("x = 1\nscale(");
        request.line = 2;
        request.column = 6;
        // The session's: the same request under "assist", one line without its newline (a fetch).
        const QByteArray fetch = JediProtocol::sessionRequest(request, 800);
        QVERIFY(!fetch.contains('\n'));
        const QJsonObject assist = QJsonDocument::fromJson(fetch).object().value("assist").toObject();
        QCOMPARE(assist.value("op").toString(), QStringLiteral("signatures"));
        QCOMPARE(assist.value("source").toString(), request.source);
        QCOMPARE(assist.value("column").toInt(), 6);
        QCOMPARE(assist.value("deadline_ms").toInt(), 800);
        QVERIFY(!assist.contains("id"));
        QVERIFY(!QJsonDocument::fromJson(JediProtocol::requestLine(1, request, 500)).object().contains("reuse"));
        QCOMPARE(QJsonDocument::fromJson(JediProtocol::requestLine(1, request, 500, false)).object().value("reuse"), QJsonValue(false));
    }

    void sessionNamesComeFirst()
    {
        AssistAnswer session;
        session.ok = true;
        session.completions = {{"alpha", {}}, {"align", {}}};
        AssistAnswer service;
        service.ok = true;
        service.id = 9;
        service.completions = {{"abs", {}}, {"align", {}}, {"all", {}}};
        service.signatures = {SignatureHint{"f", "f(a)", {"a"}, 0}};
        AssistAnswer merged = JediProtocol::merged(session, service);
        QStringList names;
        for (const CompletionItem& c : merged.completions)
            names << c.name;
        QCOMPARE(names, (QStringList{"alpha", "align", "abs", "all"}));
        QCOMPARE(merged.signatures.size(), 1); // the session had none: the service's
        // A failed one gives way to the other.
        session.ok = false;
        session.error = QStringLiteral("busy");
        QCOMPARE(JediProtocol::merged(session, service).completions.size(), 3);
        session.ok = true;
        service.ok = false;
        QCOMPARE(JediProtocol::merged(session, service).completions.size(), 2);
    }

    void answersAreBounded()
    {
        QJsonArray items;
        for (int i = 0; i < 10000; ++i)
            items.append(QJsonObject{{"name", QStringLiteral("n%1").arg(i)}, {"type", "function"}});
        items.append(QJsonObject{{"name", "two words"}, {"type", "x"}});
        QJsonArray help;
        for (int i = 0; i < 50; ++i)
            help.append(QJsonObject{{"name", "f"}, {"doc", QString(100000, QLatin1Char('d'))}});
        QJsonArray params;
        for (int i = 0; i < 1000; ++i)
            params.append(QStringLiteral("p%1").arg(i));
        QJsonArray sigs;
        for (int i = 0; i < 20; ++i)
            sigs.append(QJsonObject{{"name", QString(5000, QLatin1Char('n'))}, {"text", "f(p0)"}, {"params", params}, {"index", 5000}});
        const QJsonObject object{{"id", 3}, {"ok", true}, {"completions", items}, {"help", help}, {"signatures", sigs}};
        const AssistAnswer answer = JediProtocol::parseAnswer(QJsonDocument(object).toJson(QJsonDocument::Compact),
                                                              AssistKind::Complete);
        QVERIFY(answer.ok);
        QCOMPARE(answer.id, quint64(3));
        QCOMPARE(answer.completions.size(), JediProtocol::kMaxItems);
        QCOMPARE(answer.help.size(), JediProtocol::kMaxHelp);
        QVERIFY(answer.help.first().doc.size() <= JediProtocol::kMaxDoc + 1);
        QCOMPARE(answer.signatures.size(), JediProtocol::kMaxSignatures);
        QVERIFY(answer.signatures.first().name.size() <= JediProtocol::kMaxName + 1);
        QCOMPARE(answer.signatures.first().params.size(), 64);
        QCOMPARE(answer.signatures.first().index, -1); // out of range: no current parameter
    }

    void namesWithSpacesAreDropped()
    {
        const QByteArray line = R"({"id":1,"ok":true,"completions":[{"name":"a b"},{"name":"ok"},{"name":""},{"name":"x\ny"}]})";
        const AssistAnswer answer = JediProtocol::parseAnswer(line, AssistKind::Complete);
        QCOMPARE(answer.completions.size(), 1);
        QCOMPARE(answer.completions.first().name, QStringLiteral("ok"));
    }

    void brokenAnswersAreErrors()
    {
        for (const QByteArray& line : {QByteArray("not json"), QByteArray("[1,2]"), QByteArray("{\"id\":2}"),
                                       QByteArray("{\"id\":2,\"ok\":false,\"error\":\"late\"}")}) {
            const AssistAnswer answer = JediProtocol::parseAnswer(line, AssistKind::Help);
            QVERIFY(!answer.ok);
            QVERIFY(!answer.error.isEmpty());
        }
        QCOMPARE(JediProtocol::parseAnswer("{\"id\":2,\"ok\":false,\"error\":\"late\"}", AssistKind::Help).error,
                 QStringLiteral("late"));
        QCOMPARE(JediProtocol::answerId("{\"id\":-4}"), quint64(0));
    }
};

QTEST_GUILESS_MAIN(TestJediProtocol)
#include "test_jedi_protocol.moc"
