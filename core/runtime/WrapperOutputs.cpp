#include "core/runtime/WrapperOutputs.h"

#include "core/runtime/ResultLimits.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

namespace sandpad {

namespace {

// Reads one entry; returns what is wrong with it, or an empty string.
QString readEntry(const QJsonObject& o, WrapperOutputRef& ref)
{
    using L = ResultLimits;
    const QJsonValue offset = o.value(QStringLiteral("stdout_offset"));
    if (offset.isDouble() && offset.toDouble() >= 0)
        ref.stdoutOffset = offset.toInteger();
    else if (!offset.isUndefined() && !offset.isNull())
        return QStringLiteral("\"stdout_offset\" must be a number of bytes");
    const QJsonValue type = o.value(QStringLiteral("type"));
    if (!type.isString())
        return QStringLiteral("\"type\" must be a string");
    ref.type = type.toString();
    static const QStringList known{QStringLiteral("text"), QStringLiteral("table"), QStringLiteral("math"),
                                   QStringLiteral("image"), QStringLiteral("svg"), QStringLiteral("markdown"),
                                   QStringLiteral("html")};
    if (!known.contains(ref.type))
        return QStringLiteral("unknown type \"%1\"").arg(ref.type.left(40));

    const auto string = [&o](const char* key, QString* out, bool required) -> QString {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull()) {
            if (required)
                return QStringLiteral("\"%1\" is missing").arg(QLatin1String(key));
            return {};
        }
        if (!v.isString())
            return QStringLiteral("\"%1\" must be a string").arg(QLatin1String(key));
        *out = v.toString();
        if (out->size() > L::outputTextChars)
            return QStringLiteral("its %1 has %2 characters; the limit is %3")
                .arg(QLatin1String(key), L::countText(out->size()), L::countText(L::outputTextChars));
        return {};
    };
    const bool needsText = ref.type == u"text" || ref.type == u"markdown" || ref.type == u"html"
                           || ref.type == u"svg";
    if (QString p = string("text", &ref.text, needsText); !p.isEmpty())
        return p;
    if (ref.type == u"math")
        if (QString p = string("latex", &ref.latex, true); !p.isEmpty())
            return p;
    const bool needsFile = ref.type == u"table" || ref.type == u"image";
    if (needsFile || ref.type == u"math") {
        if (QString p = string("file", &ref.file, needsFile); !p.isEmpty())
            return p;
        if (!ref.file.isEmpty() && !WrapperOutputs::safeFileName(ref.file))
            return QStringLiteral("it needs a plain \"file\" name");
    }
    if (ref.type == u"table") {
        for (const auto& [key, field] : {std::pair{"rows", &ref.rows}, std::pair{"columns", &ref.columns},
                                         std::pair{"total_rows", &ref.totalRows}}) {
            const QJsonValue v = o.value(QLatin1String(key));
            if (!v.isDouble() || v.toDouble() < 0 || v.toDouble() != double(v.toInteger()))
                return QStringLiteral("\"%1\" must be a count").arg(QLatin1String(key));
            *field = v.toInteger();
        }
    }
    return {};
}

} // namespace

bool WrapperOutputs::safeFileName(const QString& name)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,100}$"));
    return safe.match(name).hasMatch() && !name.contains(QStringLiteral(".."));
}

bool WrapperOutputs::parse(const QJsonValue& outputs, QList<WrapperOutputRef>* out, QString* problem)
{
    using L = ResultLimits;
    out->clear();
    if (outputs.isUndefined() || outputs.isNull())
        return true;
    if (!outputs.isArray()) {
        if (problem)
            *problem = QStringLiteral("\"outputs\" must be a list");
        return false;
    }
    const QJsonArray list = outputs.toArray();
    for (qsizetype i = 0; i < list.size() && i < L::outputsPerRun; ++i) {
        WrapperOutputRef ref;
        const QString why = list[i].isObject() ? readEntry(list[i].toObject(), ref) : QStringLiteral("it is not an object");
        if (!why.isEmpty()) {
            const qint64 offset = ref.stdoutOffset;
            ref = WrapperOutputRef();
            ref.type = QStringLiteral("text");
            ref.stdoutOffset = offset;
            ref.problem = QStringLiteral("Output %1 is not shown: %2.").arg(i + 1).arg(why);
        }
        out->append(ref);
    }
    if (list.size() > L::outputsPerRun) {
        WrapperOutputRef notice;
        notice.type = QStringLiteral("text");
        notice.stdoutOffset = out->isEmpty() ? 0 : out->last().stdoutOffset;
        notice.problem = QStringLiteral("%1 more outputs are not shown: a run shows at most %2.")
                             .arg(L::countText(list.size() - L::outputsPerRun))
                             .arg(L::outputsPerRun);
        out->append(notice);
    }
    return true;
}

} // namespace sandpad
