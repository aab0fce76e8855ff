#include "core/ipynb/PercentFormat.h"

#include <QRegularExpression>
#include <QStringList>

namespace sandpad {

namespace {

QString commentPrefix(Language language)
{
    return language == Language::JavaScript ? QStringLiteral("//") : QStringLiteral("#");
}

// Markdown and raw cells are comments in the tab, so that running the tab skips them.
QString commented(const QString& source, Language language)
{
    const QString prefix = commentPrefix(language);
    QStringList lines = source.split(QLatin1Char('\n'));
    for (QString& line : lines)
        line = line.isEmpty() ? prefix : prefix + QLatin1Char(' ') + line;
    return lines.join(QLatin1Char('\n'));
}

QString uncommented(const QStringList& lines, Language language)
{
    const QString prefix = commentPrefix(language);
    QStringList out;
    for (const QString& line : lines) {
        if (line.startsWith(prefix + QLatin1Char(' ')))
            out << line.mid(prefix.size() + 1);
        else if (line.startsWith(prefix))
            out << line.mid(prefix.size());
        else
            out << line; // typed without the comment: kept as it is
    }
    return out.join(QLatin1Char('\n'));
}

NotebookCell::Type headerType(const QString& line, Language language)
{
    // Jupytext's header: `# %% [optional title] [markdown] key=value...`.
    const QString rest = line.trimmed().mid(PercentFormat::marker(language).size());
    static const QRegularExpression markdown(QStringLiteral("(^|\\s)\\[(markdown|md)\\](\\s|$)"));
    static const QRegularExpression raw(QStringLiteral("(^|\\s)\\[raw\\](\\s|$)"));
    if (markdown.match(rest).hasMatch())
        return NotebookCell::Type::Markdown;
    if (raw.match(rest).hasMatch())
        return NotebookCell::Type::Raw;
    return NotebookCell::Type::Code;
}

} // namespace

QString PercentFormat::marker(Language language)
{
    return language == Language::JavaScript ? QStringLiteral("// %%") : QStringLiteral("# %%");
}

// The same test as the editor's (CodeEditor::isCellSeparator), so that a cell run there is a cell here.
bool PercentFormat::isSeparator(const QString& line, Language language)
{
    return line.trimmed().startsWith(marker(language));
}

QString PercentFormat::toText(const QList<NotebookCell>& cells, Language language)
{
    QStringList blocks;
    for (const NotebookCell& cell : cells) {
        QString header = marker(language);
        QString body = cell.source;
        if (cell.type == NotebookCell::Type::Markdown) {
            header += QStringLiteral(" [markdown]");
            body = commented(body, language);
        } else if (cell.type == NotebookCell::Type::Raw) {
            header += QStringLiteral(" [raw]");
            body = commented(body, language);
        }
        blocks << header + QLatin1Char('\n') + body;
    }
    if (blocks.isEmpty())
        return {};
    return blocks.join(QStringLiteral("\n\n")) + QLatin1Char('\n');
}

QList<NotebookCell> PercentFormat::fromText(const QString& rawText, Language language)
{
    QString text = rawText;
    text.remove(QLatin1Char('\r'));
    QStringList lines = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        lines.removeLast(); // the last line's newline ends it; it starts no line of its own

    struct Block {
        std::optional<NotebookCell::Type> type; // nullopt: the text before the first separator
        QStringList lines;
        int firstLine = 1;                      // 1-based, the line after the separator
    };
    QList<Block> blocks{Block{}};
    for (int i = 0; i < lines.size(); ++i) {
        if (isSeparator(lines.at(i), language))
            blocks.append(Block{headerType(lines.at(i), language), {}, i + 2});
        else
            blocks.last().lines << lines.at(i);
    }

    QList<NotebookCell> cells;
    for (int i = 0; i < blocks.size(); ++i) {
        Block& block = blocks[i];
        const bool last = i == blocks.size() - 1;
        // The blank line that separates this cell from the next one is not the cell's.
        if (!last && !block.lines.isEmpty() && block.lines.last().isEmpty())
            block.lines.removeLast();
        if (!block.type) {
            if (block.lines.join(QString()).trimmed().isEmpty())
                continue; // nothing before the first separator
            block.type = NotebookCell::Type::Code;
        }
        NotebookCell cell;
        cell.type = *block.type;
        cell.line = block.firstLine;
        cell.source = cell.type == NotebookCell::Type::Code ? block.lines.join(QLatin1Char('\n'))
                                                            : uncommented(block.lines, language);
        cells.append(std::move(cell));
    }
    return cells;
}

} // namespace sandpad
