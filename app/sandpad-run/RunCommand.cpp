#include "RunCommand.h"

#include "core/accounting/CreditsAccount.h"
#include "core/accounting/Money.h"
#include "core/accounting/UsageLedger.h"
#include "core/charts/ChartSpec.h"
#include "core/documents/DocumentStore.h"
#include "core/engine/Executor.h"
#include "core/files/FileRead.h"
#include "core/providers/ProviderRegistry.h"
#include "core/run/ExecutionRequest.h"
#include "core/sandbox/Deadline.h"
#include "core/sandbox/SandboxProvider.h"
#include "core/settings/AppSettings.h"
#include "core/storage/Database.h"
#include "core/workspace/Workspace.h"
#include "RunInputFiles.h"
#include "SessionCommand.h"
#include "TerminalText.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <cstdio>
#include <optional>
#include <unistd.h>

namespace sandpad {

namespace {

// The code a run or --save reads (FILE or -): as much as a document import takes.
constexpr qint64 kMaxCodeBytes = 64ll << 20;

// stdout or stderr. On a terminal, text is written with its control characters escaped (a
// snippet's output must not drive the user's terminal); into a pipe or file, exactly.
struct OutputFile {
    FILE* file;
    bool terminal;
};

const OutputFile& standardOut()
{
    static const OutputFile f{stdout, ::isatty(STDOUT_FILENO) == 1};
    return f;
}

const OutputFile& standardErr()
{
    static const OutputFile f{stderr, ::isatty(STDERR_FILENO) == 1};
    return f;
}

void writeBytes(FILE* file, QByteArrayView bytes)
{
    std::fwrite(bytes.data(), 1, size_t(bytes.size()), file);
}

void writeText(const OutputFile& out, const QString& text)
{
    writeBytes(out.file, (out.terminal ? TerminalText::escaped(text) : text).toUtf8());
    std::fflush(out.file);
}

void writeOut(const QString& text)
{
    writeText(standardOut(), text);
}

void writeErr(const QString& text)
{
    writeText(standardErr(), text);
}

// JSON goes out exactly as it is, terminal or not: it is for programs (and escapes its controls).
void printJson(const QJsonValue& value)
{
    const QJsonDocument doc = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    writeBytes(stdout, doc.toJson(QJsonDocument::Compact));
    writeBytes(stdout, "\n");
    std::fflush(stdout);
}

// A chart's dictionary as compact JSON text, its point lists written straight from the series.
QByteArray specText(const RunChart& chart)
{
    return chart.spec ? chart.spec->toJsonText() : QJsonDocument(QJsonObject()).toJson(QJsonDocument::Compact);
}

// The same JSON as printJson(result.toJson()), written chart by chart: a run's charts (up to
// 64 MiB of PNGs, as base64, or a 1,000,000-point dictionary) are never all in one text at once.
void printRunJson(const ExecutionResult& result, const std::optional<QJsonArray>& artifacts = std::nullopt)
{
    ExecutionResult head = result; // shares its data; only the chart list is dropped
    head.charts.clear();
    QJsonObject headJson = head.toJson();
    if (artifacts) // with the paths sandpad-run wrote them to
        headJson.insert(QStringLiteral("artifacts"), *artifacts);
    const QByteArray text = QJsonDocument(headJson).toJson(QJsonDocument::Compact);
    // The top-level key: inside a string, a quote would be escaped (\"charts\").
    static const QByteArray empty = QByteArrayLiteral("\"charts\":[]");
    const qsizetype at = text.indexOf(empty);
    if (at < 0) { // not the layout this expects: the whole object at once, then
        QJsonObject all = result.toJson();
        if (artifacts)
            all.insert(QStringLiteral("artifacts"), *artifacts);
        printJson(all);
        return;
    }
    writeBytes(stdout, QByteArrayView(text).first(at + empty.size() - 1));
    for (qsizetype i = 0; i < result.charts.size(); ++i) {
        const RunChart& chart = result.charts[i];
        if (i > 0)
            writeBytes(stdout, ",");
        if (chart.kind == RunChart::Kind::Png) {
            writeBytes(stdout, "{\"base64\":\"");
            writeBytes(stdout, chart.png.toBase64());
            if (chart.spec) { // the chart extracted from the figure
                writeBytes(stdout, "\",\"chart\":");
                writeBytes(stdout, specText(chart));
                writeBytes(stdout, ",\"format\":\"png\"}");
            } else {
                writeBytes(stdout, "\",\"format\":\"png\"}");
            }
        } else {
            writeBytes(stdout, specText(chart));
        }
    }
    writeBytes(stdout, QByteArrayView(text).sliced(at + empty.size() - 1));
    writeBytes(stdout, "\n");
    std::fflush(stdout);
}

// The run's rich outputs after its live text (which a terminal already showed): each in its
// text form (a table as aligned columns, math as its text), pictures saved like charts.
void printOutputs(const ExecutionResult& result, const QDir& dir)
{
    int index = 0;
    for (const RunOutput& output : result.outputs) {
        ++index;
        writeOut(output.textForm());
        if (output.png.isEmpty())
            continue;
        const QString path = dir.filePath(QStringLiteral("sandpad-%1-output-%2.png").arg(result.runId.left(8)).arg(index));
        QFile out(path);
        if (out.open(QIODevice::WriteOnly) && out.write(output.png) == output.png.size())
            writeErr(QStringLiteral("output %1 (%2) saved to %3\n").arg(index).arg(RunOutput::typeName(output.type), path));
        else
            writeErr(QStringLiteral("output %1 could not be saved to %2: %3\n").arg(index).arg(path, out.errorString()));
    }
}

QString isoTime(const QDateTime& t)
{
    return t.toUTC().toString(Qt::ISODate);
}

// Pads each column of a plain-text table.
QString table(const QStringList& header, const QList<QStringList>& rows)
{
    QList<int> widths;
    for (const QString& h : header)
        widths << int(h.size());
    for (const auto& row : rows)
        for (int i = 0; i < row.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], int(row[i].size()));
    auto line = [&](const QStringList& cells) {
        QString out;
        for (int i = 0; i < cells.size(); ++i)
            out += cells[i].leftJustified(i + 1 < cells.size() ? widths[i] + 2 : 0);
        return out.trimmed() + u'\n';
    };
    QString text = line(header);
    for (const auto& row : rows)
        text += line(row);
    return text;
}

int exitCodeFor(RunStatus status)
{
    switch (status) {
    case RunStatus::Success: return RunCommand::Ok;
    case RunStatus::Error: return RunCommand::UserError;
    case RunStatus::Timeout: return RunCommand::Timeout;
    case RunStatus::Cancelled: return RunCommand::InfrastructureError;
    case RunStatus::InfrastructureError: return RunCommand::InfrastructureError;
    }
    return RunCommand::InfrastructureError;
}

} // namespace

int RunCommand::usageError(const QString& message)
{
    writeErr(QStringLiteral("sandpad-run: %1\nTry 'sandpad-run --help'.\n").arg(message));
    return UsageError;
}

int RunCommand::exec(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Run Python and JavaScript snippets in a secure sandbox (the Sandpad CLI).\n"
        "Exit status: 0 success, 1 the code failed, 2 usage error, 3 infrastructure error, 124 timeout."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The snippet to run, or - for standard input."));
    const QCommandLineOption providerOpt(QStringLiteral("provider"), ProviderRegistry::names().join(u'|'), QStringLiteral("NAME"));
    const QCommandLineOption languageOpt(QStringLiteral("language"), QStringLiteral("python|javascript (default: from FILE's extension, else python)"), QStringLiteral("LANG"));
    const QCommandLineOption timeoutOpt(QStringLiteral("timeout"), QStringLiteral("Deadline in seconds (at most %1).").arg(Deadline::kMaxSeconds), QStringLiteral("SECONDS"));
    const QCommandLineOption jsonOpt(QStringLiteral("json"), QStringLiteral("Print one JSON object (or array) on stdout."));
    const QCommandLineOption dataDirOpt(QStringLiteral("data-dir"), QStringLiteral("The workspace folder (default: $SANDPAD_DATA_DIR or the app data folder)."), QStringLiteral("DIR"));
    const QCommandLineOption validateOpt(QStringLiteral("validate"), QStringLiteral("Print the provider's validation report."));
    const QCommandLineOption usageOpt(QStringLiteral("usage"), QStringLiteral("Print the recorded usage and credits."));
    const QCommandLineOption documentOpt(QStringLiteral("document"), QStringLiteral("Run a saved document's revision."), QStringLiteral("ID"));
    const QCommandLineOption revisionOpt(QStringLiteral("revision"), QStringLiteral("The revision to run (default: the head)."), QStringLiteral("REV"));
    const QCommandLineOption listDocsOpt(QStringLiteral("list-documents"), QStringLiteral("List saved documents."));
    const QCommandLineOption listRevsOpt(QStringLiteral("list-revisions"), QStringLiteral("List a document's revisions."), QStringLiteral("ID"));
    const QCommandLineOption saveOpt(QStringLiteral("save"), QStringLiteral("Store FILE as a new document (or a new revision with --document)."), QStringLiteral("FILE"));
    const QCommandLineOption titleOpt(QStringLiteral("title"), QStringLiteral("The title of a document saved with --save."), QStringLiteral("T"));
    const QCommandLineOption chartsDirOpt(QStringLiteral("charts-dir"), QStringLiteral("Where PNG charts are written (default: the current folder)."), QStringLiteral("DIR"));
    const QCommandLineOption inputOpt(QStringLiteral("input"), QStringLiteral("A file placed read-only in the run's working directory (repeatable)."), QStringLiteral("FILE"));
    const QCommandLineOption stdinOpt(QStringLiteral("stdin"), QStringLiteral("The run's standard input: a file, or - for this program's own (default: none)."), QStringLiteral("FILE"));
    const QCommandLineOption artifactsDirOpt(QStringLiteral("artifacts-dir"), QStringLiteral("Where the files the run left are written (never over an existing file); with --json, files over 1 MiB are only written there."), QStringLiteral("DIR"));
    const QCommandLineOption sessionOpt(QStringLiteral("session"), QStringLiteral("A notebook session: one JSON request per line on stdin ({\"code\": ..., \"language\": ...}, {\"interrupt\": true}, {\"restart\": true}), one JSON result per line; state is kept until EOF."));
    const QCommandLineOption idleOpt(QStringLiteral("idle"), QStringLiteral("With --session: end the session's sandbox after this many idle seconds (default: the settings' idle limit, 30 min)."), QStringLiteral("SECONDS"));
    parser.addOptions({providerOpt, languageOpt, timeoutOpt, jsonOpt, dataDirOpt, validateOpt, usageOpt,
                       documentOpt, revisionOpt, listDocsOpt, listRevsOpt, saveOpt, titleOpt, chartsDirOpt,
                       inputOpt, stdinOpt, artifactsDirOpt, sessionOpt, idleOpt});
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        writeOut(parser.helpText());
        return Ok;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        writeOut(QStringLiteral("sandpad-run %1\n").arg(QStringLiteral(SANDPAD_VERSION)));
        return Ok;
    }
    m_json = parser.isSet(jsonOpt);

    // Flags override the settings for this run only (the Workspace never stores them).
    std::optional<QString> providerFlag;
    std::optional<int> timeoutFlag;
    if (parser.isSet(providerOpt)) {
        providerFlag = parser.value(providerOpt).trimmed().toLower();
        if (!ProviderRegistry::names().contains(*providerFlag))
            return usageError(QStringLiteral("unknown provider \"%1\" (%2)")
                                  .arg(*providerFlag, ProviderRegistry::names().join(QStringLiteral(", "))));
    }
    if (parser.isSet(timeoutOpt)) {
        bool ok = false;
        const int seconds = parser.value(timeoutOpt).toInt(&ok);
        if (!ok || seconds < 1 || seconds > Deadline::kMaxSeconds)
            return usageError(QStringLiteral("--timeout must be a whole number of seconds from 1 to %1").arg(Deadline::kMaxSeconds));
        timeoutFlag = seconds;
    }

    const QStringList positional = parser.positionalArguments();
    const bool wantsRun = !positional.isEmpty();
    const bool wantsDocumentRun = parser.isSet(documentOpt) && !parser.isSet(saveOpt);
    if (wantsRun && wantsDocumentRun)
        return usageError(QStringLiteral("give either source code (FILE or -) or --document, not both: a document runs its stored revision"));
    if (positional.size() > 1)
        return usageError(QStringLiteral("one FILE at a time"));
    if (parser.isSet(revisionOpt) && !parser.isSet(documentOpt))
        return usageError(QStringLiteral("--revision needs --document"));
    const bool wantsSession = parser.isSet(sessionOpt);
    if (wantsSession && (wantsRun || parser.isSet(documentOpt)))
        return usageError(QStringLiteral("--session reads its requests from stdin: no FILE or --document (saved documents always run fresh)"));
    int idleSeconds = 0;
    if (parser.isSet(idleOpt)) {
        bool ok = false;
        idleSeconds = parser.value(idleOpt).toInt(&ok);
        if (!wantsSession || !ok || idleSeconds < 1)
            return usageError(QStringLiteral("--idle needs --session and a whole number of seconds from 1"));
    }
    std::optional<Language> sessionLanguage;
    if (wantsSession && parser.isSet(languageOpt)) {
        sessionLanguage = languageFromName(parser.value(languageOpt));
        if (!sessionLanguage)
            return usageError(QStringLiteral("unknown language \"%1\" (python or javascript)").arg(parser.value(languageOpt)));
    }

    Workspace workspace(parser.value(dataDirOpt));
    if (!workspace.open()) {
        writeErr(QStringLiteral("sandpad-run: cannot open the workspace %1: %2\n").arg(workspace.dataDir(), workspace.error()));
        return InfrastructureError;
    }
    workspace.setOverrides([providerFlag, timeoutFlag](AppSettings& s) {
        if (providerFlag)
            s.provider = *providerFlag;
        if (timeoutFlag)
            s.deadlineSeconds = *timeoutFlag;
    });
    const bool providerOk = workspace.loadSettings();
    for (const QString& note : workspace.settingsNotes())
        writeErr(QStringLiteral("sandpad-run: %1\n").arg(note));
    const AppSettings& settings = workspace.effectiveSettings();

    // --- Provider validation.
    if (parser.isSet(validateOpt)) {
        auto provider = workspace.provider();
        if (!provider) {
            const QString msg = providerOk ? QStringLiteral("no provider is selected (provider none)") : workspace.error();
            if (m_json)
                printJson(QJsonObject{{QStringLiteral("provider"), settings.provider}, {QStringLiteral("usable"), false},
                                      {QStringLiteral("items"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("provider")},
                                                                                        {QStringLiteral("level"), QStringLiteral("error")},
                                                                                        {QStringLiteral("detail"), msg}}}}});
            else
                writeOut(QStringLiteral("Provider: %1\n  [FAIL] provider: %2\nNot usable.\n").arg(settings.provider, msg));
            return InfrastructureError;
        }
        ValidationReport report = provider->validate();
        if (const QString orphans = workspace.reconcileOrphans(); !orphans.isEmpty())
            report.items.append({QStringLiteral("orphans"), ValidationItem::Level::Warning, orphans});
        if (m_json) {
            QJsonArray items;
            for (const auto& item : report.items)
                items.append(QJsonObject{{QStringLiteral("name"), item.name},
                                         {QStringLiteral("level"), item.level == ValidationItem::Level::Ok ? QStringLiteral("ok")
                                                                   : item.level == ValidationItem::Level::Warning ? QStringLiteral("warning")
                                                                                                                 : QStringLiteral("error")},
                                         {QStringLiteral("detail"), item.detail}});
            printJson(QJsonObject{{QStringLiteral("provider"), report.provider}, {QStringLiteral("usable"), report.usable()},
                                  {QStringLiteral("items"), items}});
        } else {
            writeOut(report.toText());
        }
        return report.usable() ? Ok : InfrastructureError;
    }

    // --- Usage and credits.
    if (parser.isSet(usageOpt)) {
        UsageLedger& ledger = workspace.ledger();
        CreditsAccount& credits = workspace.credits();
        const auto entries = ledger.entries();
        if (m_json) {
            QJsonArray rows;
            for (const auto& e : entries)
                rows.append(QJsonObject{{QStringLiteral("run_id"), e.runId}, {QStringLiteral("time"), isoTime(e.time)},
                                        {QStringLiteral("provider"), e.provider}, {QStringLiteral("language"), e.language},
                                        {QStringLiteral("source"), e.source}, {QStringLiteral("document_id"), e.documentId},
                                        {QStringLiteral("revision_id"), e.revisionId}, {QStringLiteral("title"), e.title},
                                        {QStringLiteral("status"), e.status}, {QStringLiteral("cost_usd"), double(e.costMicros) / 1e6},
                                        {QStringLiteral("reason"), e.reason}});
            QJsonObject out{{QStringLiteral("runs"), rows}, {QStringLiteral("total_usd"), double(ledger.totalMicros()) / 1e6},
                            {QStringLiteral("credits_enabled"), credits.enabled()}};
            if (credits.enabled())
                out[QStringLiteral("credits_balance_usd")] = double(credits.balanceMicros()) / 1e6;
            printJson(out);
        } else {
            QList<QStringList> rows;
            for (const auto& e : entries)
                rows << QStringList{isoTime(e.time), e.source == u"document" ? QStringLiteral("%1@%2").arg(e.title, e.revisionId.left(8)) : e.title,
                                    e.provider, e.status, formatMoney(e.costMicros), e.reason};
            writeOut(table({QStringLiteral("TIME"), QStringLiteral("SOURCE"), QStringLiteral("PROVIDER"), QStringLiteral("STATUS"),
                            QStringLiteral("COST"), QStringLiteral("REASON")}, rows));
            writeOut(QStringLiteral("%1 runs, total %2 recorded").arg(entries.size()).arg(formatMoney(ledger.totalMicros())));
            writeOut(credits.enabled() ? QStringLiteral("; credits balance %1\n").arg(formatMoney(credits.balanceMicros()))
                                       : QStringLiteral("; credits off (nothing debited)\n"));
        }
        return Ok;
    }

    // --- Documents.
    DocumentStore& documents = workspace.documents();
    if (parser.isSet(listDocsOpt)) {
        const auto docs = documents.documents();
        if (m_json) {
            QJsonArray rows;
            for (const auto& d : docs)
                rows.append(QJsonObject{{QStringLiteral("id"), d.id}, {QStringLiteral("title"), d.title},
                                        {QStringLiteral("language"), d.language}, {QStringLiteral("head_revision_id"), d.headRevisionId},
                                        {QStringLiteral("revision_count"), d.revisionCount}, {QStringLiteral("updated_at"), isoTime(d.updatedAt)}});
            printJson(rows);
        } else {
            QList<QStringList> rows;
            for (const auto& d : docs)
                rows << QStringList{d.id, d.title, d.language.isEmpty() ? QStringLiteral("-") : d.language,
                                    QString::number(d.revisionCount), isoTime(d.updatedAt)};
            writeOut(table({QStringLiteral("ID"), QStringLiteral("TITLE"), QStringLiteral("LANGUAGE"), QStringLiteral("REVISIONS"),
                            QStringLiteral("UPDATED")}, rows));
        }
        return Ok;
    }
    if (parser.isSet(listRevsOpt)) {
        const QString id = parser.value(listRevsOpt);
        if (!documents.document(id)) {
            writeErr(QStringLiteral("sandpad-run: no document %1 in this workspace\n").arg(id));
            return UsageError;
        }
        const auto revs = documents.revisions(id);
        if (m_json) {
            QJsonArray rows;
            for (const auto& r : revs)
                rows.append(QJsonObject{{QStringLiteral("id"), r.id},
                                        {QStringLiteral("parent_id"), r.parentId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.parentId)},
                                        {QStringLiteral("sha256"), r.sha256}, {QStringLiteral("size"), r.size},
                                        {QStringLiteral("created_at"), isoTime(r.createdAt)}});
            printJson(rows);
        } else {
            QList<QStringList> rows;
            for (const auto& r : revs)
                rows << QStringList{r.id, r.parentId.isEmpty() ? QStringLiteral("-") : r.parentId, r.sha256.left(12),
                                    QString::number(r.size), isoTime(r.createdAt)};
            writeOut(table({QStringLiteral("ID"), QStringLiteral("PARENT"), QStringLiteral("SHA256"), QStringLiteral("SIZE"),
                            QStringLiteral("CREATED")}, rows));
        }
        return Ok;
    }
    if (parser.isSet(saveOpt)) {
        const QFile file(parser.value(saveOpt));
        const FileRead::Result read = FileRead::read(file.fileName(), kMaxCodeBytes);
        if (!read.ok())
            return usageError(read.error);
        const QString content = QString::fromUtf8(read.bytes);
        QString documentId, revisionId;
        if (parser.isSet(documentOpt)) {
            const auto revision = documents.save(parser.value(documentOpt), content);
            if (!revision) {
                writeErr(QStringLiteral("sandpad-run: could not save: %1\n").arg(documents.lastError()));
                return InfrastructureError;
            }
            documentId = revision->documentId;
            revisionId = revision->id;
        } else {
            const QString title = parser.isSet(titleOpt) ? parser.value(titleOpt) : QFileInfo(file.fileName()).fileName();
            if (!languageFromTitle(title))
                return usageError(QStringLiteral("the title \"%1\" has no supported extension (.py, .js, .mjs, .cjs, or none)").arg(title));
            const auto document = documents.create(title, content);
            if (!document) {
                writeErr(QStringLiteral("sandpad-run: could not save: %1\n").arg(documents.lastError()));
                return InfrastructureError;
            }
            documentId = document->id;
            revisionId = document->headRevisionId;
        }
        if (m_json)
            printJson(QJsonObject{{QStringLiteral("document_id"), documentId}, {QStringLiteral("revision_id"), revisionId}});
        else
            writeOut(QStringLiteral("document %1\nrevision %2\n").arg(documentId, revisionId));
        return Ok;
    }

    // --- A notebook session over stdin/stdout.
    if (wantsSession) {
        if (!providerOk)
            writeErr(QStringLiteral("sandpad-run: %1\n").arg(workspace.error()));
        // Without --idle: the settings' idle limit, as in the app.
        SessionCommand session(workspace.executor(), sessionLanguage.value_or(Language::Python),
                               idleSeconds > 0 ? idleSeconds : workspace.effectiveSettings().sessionIdleMinutes * 60,
                               [](const ExecutionResult& result) { printRunJson(result); },
                               [](const QJsonObject& object) { printJson(object); });
        return session.exec();
    }

    // --- A run.
    ExecutionRequest request;
    if (wantsDocumentRun) {
        request = ExecutionRequest::savedRevision(parser.value(documentOpt), parser.value(revisionOpt));
    } else if (wantsRun) {
        const QString path = positional.first();
        QByteArray code;
        QString title;
        if (path == u"-") {
            QFile in;
            if (!in.open(stdin, QIODevice::ReadOnly))
                return usageError(QStringLiteral("cannot read standard input"));
            // Bounded like a file: `cat /dev/zero | sandpad-run -` ends with a message.
            while (code.size() <= kMaxCodeBytes) {
                const QByteArray chunk = in.read(kMaxCodeBytes + 1 - code.size());
                if (chunk.isEmpty())
                    break;
                code += chunk;
            }
            if (code.size() > kMaxCodeBytes)
                return usageError(QStringLiteral("the code on standard input is over the limit of %1")
                                      .arg(FileRead::sizeText(kMaxCodeBytes)));
            title = QStringLiteral("<stdin>");
        } else {
            // A regular file within the limit: a FIFO or /dev/zero is refused, never waited on or read.
            FileRead::Result read = FileRead::read(path, kMaxCodeBytes);
            if (!read.ok())
                return usageError(read.error);
            code = std::move(read.bytes);
            title = QFileInfo(path).fileName();
        }
        std::optional<Language> language;
        if (parser.isSet(languageOpt)) {
            language = languageFromName(parser.value(languageOpt));
            if (!language)
                return usageError(QStringLiteral("unknown language \"%1\" (python or javascript)").arg(parser.value(languageOpt)));
        } else if (path == u"-") {
            language = Language::Python;
        } else {
            language = languageFromTitle(path);
            if (!language)
                return usageError(QStringLiteral("cannot tell the language of %1 from its extension; pass --language").arg(path));
        }
        request = ExecutionRequest::adHoc(*language, QString::fromUtf8(code), title);
    } else {
        return usageError(QStringLiteral("nothing to do: give a FILE (or - for standard input), --document, --validate or --usage"));
    }
    if (parser.isSet(stdinOpt) && parser.value(stdinOpt) == u"-" && positional.value(0) == u"-")
        return usageError(QStringLiteral("--stdin - and FILE - both want standard input: give the code or the input as a file"));
    if (const QString why = RunInputFiles::read(parser.values(inputOpt), parser.isSet(stdinOpt) ? std::optional(parser.value(stdinOpt)) : std::nullopt,
                                                request.input);
        !why.isEmpty())
        return usageError(why);
    std::optional<QDir> artifactsDir;
    if (parser.isSet(artifactsDirOpt)) {
        artifactsDir = QDir(parser.value(artifactsDirOpt));
        if (!artifactsDir->exists() && !artifactsDir->mkpath(QStringLiteral(".")))
            return usageError(QStringLiteral("cannot create the folder %1 (--artifacts-dir)").arg(parser.value(artifactsDirOpt)));
    }

    if (!providerOk && !m_json)
        writeErr(QStringLiteral("sandpad-run: %1\n").arg(workspace.error()));
    // Remote sandboxes that earlier runs of dead processes left are removed first (and said so).
    if (const QString orphans = workspace.reconcileOrphans(); !orphans.isEmpty())
        writeErr(QStringLiteral("sandpad-run: %1\n").arg(orphans));

    Executor::TextCallback live;
    TerminalText liveText[2]; // stdout, stderr: a chunk may end between CR and LF
    if (!m_json) {
        live = [&liveText](OutputStream stream, const QString& text) {
            const bool isOut = stream == OutputStream::Stdout;
            const OutputFile& out = isOut ? standardOut() : standardErr();
            writeBytes(out.file, (out.terminal ? liveText[isOut ? 0 : 1].escape(text) : text).toUtf8());
            std::fflush(out.file);
        };
    }
    ExecutionResult result = workspace.executor().run(request, live);
    if (!providerOk && result.reason.contains(QStringLiteral("no sandbox provider")))
        result.reason = QStringLiteral("refused: %1").arg(workspace.error()), result.message = result.composeMessage();

    // The run's files: into --artifacts-dir when given (text and --json), listed on stderr.
    QJsonArray artifactJson;
    for (const RunArtifact& artifact : std::as_const(result.artifacts)) {
        QJsonObject o = artifact.toJson();
        if (artifactsDir) {
            QString why;
            const QString path = RunInputFiles::writeArtifact(*artifactsDir, artifact, &why);
            if (!path.isEmpty())
                o.insert(QStringLiteral("path"), path);
            else
                o.insert(QStringLiteral("not_written"), why);
            if (!m_json)
                writeErr(path.isEmpty() ? QStringLiteral("file %1 could not be saved: %2\n").arg(artifact.name, why)
                                        : QStringLiteral("file %1 saved to %2\n").arg(artifact.name, path));
        } else if (!m_json) {
            writeErr(QStringLiteral("file %1 (%2 bytes, %3) not saved: pass --artifacts-dir DIR\n")
                         .arg(artifact.name).arg(artifact.size).arg(artifact.mimeType));
        }
        artifactJson.append(o);
    }
    if (m_json) {
        printRunJson(result, artifactJson);
        return exitCodeFor(result.status);
    }
    if (standardOut().terminal)
        writeText(standardOut(), liveText[0].finish());
    if (standardErr().terminal)
        writeText(standardErr(), liveText[1].finish());

    // A terminal user already saw the live output; now the result, the error, charts, the status.
    if (result.result)
        writeOut(*result.result + (result.result->endsWith(u'\n') ? QString() : QStringLiteral("\n")));
    if (result.error) {
        writeErr(result.error->traceback.isEmpty() ? QStringLiteral("%1: %2\n").arg(result.error->name, result.error->value)
                                                   : result.error->traceback + (result.error->traceback.endsWith(u'\n') ? QString() : QStringLiteral("\n")));
    }
    const QDir chartsDir(parser.isSet(chartsDirOpt) ? parser.value(chartsDirOpt) : QDir::currentPath());
    printOutputs(result, chartsDir);
    int index = 0;
    const auto save = [](const QString& what, const QString& path, const QByteArray& bytes) {
        QFile out(path);
        if (out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size())
            writeErr(QStringLiteral("%1 saved to %2\n").arg(what, path));
        else
            writeErr(QStringLiteral("%1 could not be saved to %2: %3\n").arg(what, path, out.errorString()));
    };
    for (const RunChart& chart : result.charts) {
        ++index;
        const QString base = chartsDir.filePath(QStringLiteral("sandpad-%1-chart-%2").arg(result.runId.left(8)).arg(index));
        const QString what = QStringLiteral("chart %1").arg(index);
        // Compact JSON: indented, a 1,000,000-point chart is 107 MB instead of 31 MB.
        if (chart.kind == RunChart::Kind::Interactive) {
            save(what, base + QStringLiteral(".json"), specText(chart) + '\n');
            continue;
        }
        save(what, base + QStringLiteral(".png"), chart.png);
        if (chart.spec) // the interactive chart extracted from the figure, beside its picture
            save(what + QStringLiteral(" (interactive, extracted from the figure)"), base + QStringLiteral(".json"), specText(chart) + '\n');
    }
    QString status = QStringLiteral("[%1] %2 on %3 in %4 ms, cost %5")
                         .arg(runStatusName(result.status), languageName(result.language), result.provider)
                         .arg(result.durationMs)
                         .arg(formatMoney(result.costMicros));
    if (!result.reason.isEmpty() && result.costMicros == 0)
        status += QStringLiteral(" (%1)").arg(result.reason);
    writeErr(status + u'\n');
    return exitCodeFor(result.status);
}

} // namespace sandpad
