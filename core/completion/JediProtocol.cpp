#include "core/completion/JediProtocol.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace sandpad {

namespace {

QString opName(AssistKind kind)
{
    switch (kind) {
    case AssistKind::Complete: return QStringLiteral("complete");
    case AssistKind::Signatures: return QStringLiteral("signatures");
    case AssistKind::Help: return QStringLiteral("help");
    }
    return {};
}

QString cut(const QJsonValue& value, int limit)
{
    const QString text = value.toString();
    return text.size() <= limit ? text : text.left(limit) + QChar(0x2026);
}

// Jedi counts columns in code points; QString in UTF-16 units.
int codePointColumn(const QString& source, int line, int column)
{
    qsizetype start = 0;
    for (int l = 1; l < line && start >= 0; ++l) {
        start = source.indexOf(QLatin1Char('\n'), start);
        if (start >= 0)
            ++start;
    }
    if (start < 0)
        return column;
    const QStringView prefix = QStringView(source).mid(start, qMax(0, column));
    int points = 0;
    for (qsizetype i = 0; i < prefix.size(); ++i)
        if (!prefix.at(i).isLowSurrogate())
            ++points;
    return points;
}

QJsonObject requestObject(const AssistRequest& request, int deadlineMs)
{
    return QJsonObject{{QStringLiteral("op"), opName(request.kind)},
                       {QStringLiteral("source"), request.source},
                       {QStringLiteral("line"), request.line},
                       {QStringLiteral("column"), codePointColumn(request.source, request.line, request.column)},
                       {QStringLiteral("deadline_ms"), deadlineMs}};
}

} // namespace

QByteArray JediProtocol::requestLine(quint64 id, const AssistRequest& request, int deadlineMs, bool reuse)
{
    QJsonObject object = requestObject(request, deadlineMs);
    object.insert(QStringLiteral("id"), double(id));
    if (!reuse)
        object.insert(QStringLiteral("reuse"), false);
    // Compact JSON escapes newlines inside strings: the request is one line.
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray JediProtocol::sessionRequest(const AssistRequest& request, int deadlineMs)
{
    const QJsonObject object{{QStringLiteral("assist"), requestObject(request, deadlineMs)}};
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

AssistAnswer JediProtocol::merged(const AssistAnswer& session, const AssistAnswer& service)
{
    if (!session.ok)
        return service;
    if (!service.ok)
        return session;
    AssistAnswer answer = session;
    QSet<QString> seen;
    for (const CompletionItem& item : std::as_const(session.completions))
        seen.insert(item.name);
    for (const CompletionItem& item : service.completions)
        if (answer.completions.size() < kMaxItems && !seen.contains(item.name))
            answer.completions.append(item);
    if (answer.signatures.isEmpty())
        answer.signatures = service.signatures;
    if (answer.help.isEmpty())
        answer.help = service.help;
    return answer;
}

quint64 JediProtocol::answerId(const QByteArray& line)
{
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    const double id = doc.object().value(QStringLiteral("id")).toDouble(0);
    return id > 0 ? quint64(id) : 0;
}

AssistAnswer JediProtocol::parseAnswer(const QByteArray& line, AssistKind kind)
{
    AssistAnswer answer;
    answer.kind = kind;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        answer.error = QStringLiteral("bad answer");
        return answer;
    }
    const QJsonObject object = doc.object();
    answer.id = answerId(line);
    answer.ok = object.value(QStringLiteral("ok")).toBool(false);
    if (!answer.ok) {
        answer.error = cut(object.value(QStringLiteral("error")), kMaxName);
        if (answer.error.isEmpty())
            answer.error = QStringLiteral("bad answer");
        return answer;
    }
    const QJsonArray completions = object.value(QStringLiteral("completions")).toArray();
    for (const QJsonValue& value : completions) {
        if (answer.completions.size() >= kMaxItems)
            break;
        const QJsonObject item = value.toObject();
        CompletionItem c{cut(item.value(QStringLiteral("name")), kMaxName), cut(item.value(QStringLiteral("type")), 40)};
        // A name goes into Scintilla's list, whose items are separated by spaces: one word only.
        if (!c.name.isEmpty() && !c.name.contains(QLatin1Char(' ')) && !c.name.contains(QLatin1Char('\n')))
            answer.completions.append(c);
    }
    const QJsonArray signatures = object.value(QStringLiteral("signatures")).toArray();
    for (const QJsonValue& value : signatures) {
        if (answer.signatures.size() >= kMaxSignatures)
            break;
        const QJsonObject item = value.toObject();
        SignatureHint s;
        s.name = cut(item.value(QStringLiteral("name")), kMaxName);
        s.text = cut(item.value(QStringLiteral("text")), kMaxDoc);
        for (const QJsonValue& p : item.value(QStringLiteral("params")).toArray())
            if (s.params.size() < 64)
                s.params << cut(p, kMaxName);
        s.index = item.value(QStringLiteral("index")).toInt(-1);
        if (s.index >= s.params.size())
            s.index = -1;
        if (!s.text.isEmpty())
            answer.signatures.append(s);
    }
    const QJsonArray help = object.value(QStringLiteral("help")).toArray();
    for (const QJsonValue& value : help) {
        if (answer.help.size() >= kMaxHelp)
            break;
        const QJsonObject item = value.toObject();
        answer.help.append(HelpEntry{cut(item.value(QStringLiteral("name")), kMaxName),
                                     cut(item.value(QStringLiteral("full_name")), kMaxName),
                                     cut(item.value(QStringLiteral("type")), 40),
                                     cut(item.value(QStringLiteral("doc")), kMaxDoc)});
    }
    return answer;
}

} // namespace sandpad
