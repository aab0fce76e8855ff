#include "ui/editor/CodeEditor.h"

#include "ui/editor/WordCompleter.h"

#include <Qsci/qscilexerjavascript.h>
#include <Qsci/qscilexerpython.h>
#include <Qsci/qscistyle.h>
#include <QApplication>
#include <climits>
#include <cstring>
#include <QEvent>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QApplication>
#include <QListWidget>
#include <QPalette>
#include <QThread>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace sandpad {

// Scintilla's ILoader, as SCI_CREATELOADER returns it ("Loading in the background" in Scintilla's
// documentation): an object with three virtual methods in this order. AddData appends text and may
// run on any thread (the document is not shown yet), returning SC_STATUS_OK (0) or a failure;
// ConvertToDocument ends the loading and returns the document, holding one reference, which the
// caller drops (SCI_RELEASEDOCUMENT) once SCI_SETDOCPOINTER took its own; Release drops an unused
// loader. Debian's QScintilla headers do not declare it. SCI_METHOD, its calling convention, is
// empty off Windows; Sci_Position is ptrdiff_t. Not in an anonymous namespace: there the compiler
// may take it that no class derives from it and call the pure methods.
class SciLoader {
public:
    virtual int Release() = 0;
    virtual int AddData(const char* data, std::ptrdiff_t length) = 0;
    virtual void* ConvertToDocument() = 0;

protected:
    ~SciLoader() = default; // never deleted through this: Release
};

namespace {

// The text into the loader in UTF-8, a slice at a time (never a second whole copy); false when
// cancelled or when Scintilla failed (out of memory).
bool fillLoader(SciLoader* loader, const QString& text, const std::atomic<bool>& cancel, std::atomic<qsizetype>& done)
{
    constexpr qsizetype kSlice = qsizetype(1) << 20;
    for (qsizetype at = 0; at < text.size();) {
        if (cancel)
            return false;
        qsizetype to = std::min(text.size(), at + kSlice);
        if (to < text.size() && text.at(to - 1).isHighSurrogate())
            ++to; // a surrogate pair stays in one slice
        const QByteArray utf8 = QStringView(text).sliced(at, to - at).toUtf8();
        if (loader->AddData(utf8.constData(), utf8.size()) != 0)
            return false;
        at = to;
        done = at;
    }
    return true;
}

constexpr int kErrorMarker = 1;      // margin symbol on the failing line
constexpr int kErrorLineMarker = 2;  // tinted background of the failing line
constexpr int kCellHeaderMarker = 3; // tinted band on a `# %%` line
constexpr int kCellRuleMarker = 4;   // rule drawn under the line before a separator
constexpr int kErrorAnnotationStyle = 200;

bool isNameChar(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('$'); }

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

// Colours of one theme, indexed by meaning so that both lexers share them.
struct EditorColours {
    QColor text, paper, comment, string, number, keyword, definition, op, decorator, caretLine,
        margin, marginText, errorLine, cellBand, cellRule;
};

EditorColours themeFor(const QPalette& palette)
{
    EditorColours t;
    t.text = palette.color(QPalette::Text);
    t.paper = palette.color(QPalette::Base);
    if (isDark(palette)) {
        t.comment = QColor("#7f8c98");
        t.string = QColor("#a5d6a7");
        t.number = QColor("#f7c77a");
        t.keyword = QColor("#82aaff");
        t.definition = QColor("#ffcb6b");
        t.op = QColor("#c3cee3");
        t.decorator = QColor("#c792ea");
        t.caretLine = t.paper.lighter(135);
        t.errorLine = QColor(110, 30, 30);
        t.cellBand = t.paper.lighter(150);
        t.cellRule = QColor("#5c6a7a");
    } else {
        t.comment = QColor("#6a737d");
        t.string = QColor("#22863a");
        t.number = QColor("#b35900");
        t.keyword = QColor("#0033b3");
        t.definition = QColor("#795e26");
        t.op = QColor("#333333");
        t.decorator = QColor("#8b3fa8");
        t.caretLine = QColor("#f3f6fb");
        t.errorLine = QColor("#fde2e1");
        t.cellBand = QColor("#eaf0f8");
        t.cellRule = QColor("#9aa8ba");
    }
    t.margin = palette.color(QPalette::Window);
    t.marginText = palette.color(QPalette::PlaceholderText);
    return t;
}

} // namespace

CodeEditor::CodeEditor(QWidget* parent) : QsciScintilla(parent)
{
    setAccessibleName(tr("Code editor"));
    setUtf8(true);
    setEolMode(EolUnix);
    setIndentationsUseTabs(false);
    setTabWidth(4);
    setIndentationWidth(4);
    setAutoIndent(true);
    setBackspaceUnindents(true);
    setIndentationGuides(true);
    setBraceMatching(SloppyBraceMatch);
    setCaretLineVisible(true);
    setFolding(BoxedTreeFoldStyle, 2);
    setMarginType(0, NumberMargin);
    setMarginLineNumbers(0, true);
    setMarginType(1, SymbolMargin);
    setMarginWidth(1, 14);
    setMarginSensitivity(1, false);
    setScrollWidth(1);
    setScrollWidthTracking(true);
    setAnnotationDisplay(AnnotationBoxed);

    markerDefine(QsciScintilla::RightArrow, kErrorMarker);
    markerDefine(QsciScintilla::Background, kErrorLineMarker);
    markerDefine(QsciScintilla::Background, kCellHeaderMarker);
    markerDefine(QsciScintilla::Underline, kCellRuleMarker);
    // Only the arrow shows in the symbol margin; the other markers tint or underline the text.
    setMarginMarkerMask(1, 1 << kErrorMarker);
    setMarginMarkerMask(0, 0);
    setMarginMarkerMask(2, 0);

    m_separatorTimer.setSingleShot(true);
    m_separatorTimer.setInterval(120);
    connect(&m_separatorTimer, &QTimer::timeout, this, &CodeEditor::updateCellSeparators);
    connect(this, &QsciScintilla::textChanged, this, [this] {
        m_separatorTimer.start();
        if (m_errorLine > 0)
            clearErrorMarks(); // the mark belongs to the text that ran
    });
    connect(this, &QsciScintilla::linesChanged, this, &CodeEditor::updateMarginWidth);
    connect(this, &QsciScintilla::SCN_CHARADDED, this, &CodeEditor::onCharAdded);

    setLanguage(Language::Python);
    updateMarginWidth();
}

// A load in progress (startLoad): the loader, the thread filling it, and the text (shared, not
// copied) for the fallback to setText.
struct CodeEditor::Load {
    SciLoader* loader = nullptr;
    QString text;
    std::unique_ptr<QThread> thread;
    std::atomic<bool> cancel{false}, ready{false}, filled{false};
    std::atomic<qsizetype> done{0};
    ~Load()
    {
        cancel = true;
        if (thread)
            thread->wait();
        if (loader)
            loader->Release();
    }
};

CodeEditor::~CodeEditor() = default;

void CodeEditor::setLanguage(Language language)
{
    if (m_lexer && language == m_language)
        return; // a new lexer restyles the whole document (0.9 s for 50 MB) for nothing
    QsciLexer* old = m_lexer;
    m_language = language;
    if (language == Language::Python) {
        auto* lexer = new QsciLexerPython(this);
        lexer->setIndentationWarning(QsciLexerPython::Inconsistent);
        lexer->setFoldComments(true);
        m_lexer = lexer;
    } else {
        auto* lexer = new QsciLexerJavaScript(this);
        lexer->setFoldComments(true);
        lexer->setFoldCompact(false);
        m_lexer = lexer;
    }
    setLexer(m_lexer);
    delete old;
    applyColours();
    updateCellSeparators();
}

void CodeEditor::applyColours()
{
    if (m_applyingColours || !m_lexer)
        return;
    m_applyingColours = true;
    const EditorColours t = themeFor(palette());
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSizeF(std::max(10.0, font.pointSizeF()));
    m_lexer->setDefaultFont(font);
    m_lexer->setFont(font, -1);
    m_lexer->setDefaultPaper(t.paper);
    m_lexer->setPaper(t.paper, -1);
    m_lexer->setDefaultColor(t.text);
    m_lexer->setColor(t.text, -1);

    auto set = [this](const QColor& c, std::initializer_list<int> styles) {
        for (int s : styles)
            m_lexer->setColor(c, s);
    };
    if (m_language == Language::Python) {
        using L = QsciLexerPython;
        set(t.comment, {L::Comment, L::CommentBlock});
        set(t.string, {L::DoubleQuotedString, L::SingleQuotedString, L::TripleSingleQuotedString,
                       L::TripleDoubleQuotedString, L::DoubleQuotedFString, L::SingleQuotedFString,
                       L::TripleSingleQuotedFString, L::TripleDoubleQuotedFString, L::UnclosedString});
        set(t.number, {L::Number});
        set(t.keyword, {L::Keyword, L::HighlightedIdentifier});
        set(t.definition, {L::ClassName, L::FunctionMethodName});
        set(t.op, {L::Operator});
        set(t.decorator, {L::Decorator});
        QFont bold = font;
        bold.setBold(true);
        m_lexer->setFont(bold, L::Keyword);
        m_lexer->setFont(bold, L::ClassName);
        m_lexer->setFont(bold, L::FunctionMethodName);
    } else {
        using L = QsciLexerJavaScript;
        set(t.comment, {L::Comment, L::CommentLine, L::CommentDoc, L::CommentLineDoc});
        set(t.string, {L::DoubleQuotedString, L::SingleQuotedString, L::UnclosedString, L::Regex,
                       L::RawString});
        set(t.number, {L::Number});
        set(t.keyword, {L::Keyword, L::KeywordSet2});
        set(t.op, {L::Operator});
        QFont bold = font;
        bold.setBold(true);
        m_lexer->setFont(bold, L::Keyword);
    }

    setCaretLineBackgroundColor(t.caretLine);
    setCaretForegroundColor(t.text);
    setMarginsBackgroundColor(t.margin);
    setMarginsForegroundColor(t.marginText);
    setMarginsFont(font);
    setFoldMarginColors(t.margin, t.margin);
    setMatchedBraceBackgroundColor(isDark(palette()) ? QColor("#3d5a80") : QColor("#cde3ff"));
    setMatchedBraceForegroundColor(t.text);
    setUnmatchedBraceForegroundColor(QColor("#d32f2f"));
    setIndentationGuidesBackgroundColor(t.margin);
    setIndentationGuidesForegroundColor(t.cellRule);
    setSelectionBackgroundColor(palette().color(QPalette::Highlight));
    setSelectionForegroundColor(palette().color(QPalette::HighlightedText));
    setMarkerBackgroundColor(QColor("#d32f2f"), kErrorMarker);
    setMarkerForegroundColor(QColor("#d32f2f"), kErrorMarker);
    setMarkerBackgroundColor(t.errorLine, kErrorLineMarker);
    setMarkerBackgroundColor(t.cellBand, kCellHeaderMarker);
    setMarkerBackgroundColor(t.cellRule, kCellRuleMarker);

    // The error annotation's style: sits after the lexer's styles.
    SendScintilla(SCI_STYLESETFORE, kErrorAnnotationStyle,
                  isDark(palette()) ? QColor("#ffb4ab") : QColor("#8c1d18"));
    SendScintilla(SCI_STYLESETBACK, kErrorAnnotationStyle, t.errorLine);
    m_applyingColours = false;
}

void CodeEditor::changeEvent(QEvent* event)
{
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyColours();
}

bool CodeEditor::event(QEvent* event)
{
    // Leave the run shortcuts (Ctrl/Shift+Enter, Ctrl+.) to the window's actions instead of
    // letting QScintilla take them as text input.
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const auto mods = key->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier | Qt::AltModifier);
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        // Also the window's Ctrl+Tab (next tab) and Ctrl+/ (comment), which Scintilla would
        // take as word-part moves.
        const bool ctrlTab = (key->key() == Qt::Key_Tab || key->key() == Qt::Key_Backtab)
                             && (mods & Qt::ControlModifier);
        if ((enter && (mods == Qt::ControlModifier || mods == Qt::ShiftModifier))
            || (key->key() == Qt::Key_Period && mods == Qt::ControlModifier) || ctrlTab
            || (key->key() == Qt::Key_Slash && mods == Qt::ControlModifier)
            // and the help pane's F1 / Ctrl+I (Ctrl+I is a Tab character to Scintilla).
            || (key->key() == Qt::Key_I && mods == Qt::ControlModifier) || (key->key() == Qt::Key_F1 && !mods)) {
            event->ignore();
            return true;
        }
    }
    return QsciScintilla::event(event);
}

void CodeEditor::keyPressEvent(QKeyEvent* event)
{
    const auto mods = event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
    if (m_tabLeaves && mods == Qt::NoModifier
        && (event->key() == Qt::Key_Tab || event->key() == Qt::Key_Backtab)) {
        m_tabLeaves = false;
        const bool forward = event->key() == Qt::Key_Tab && !(event->modifiers() & Qt::ShiftModifier);
        // QScintilla keeps Tab for itself; QWidget's own focus chain moves on.
        QWidget::focusNextPrevChild(forward);
        return;
    }
    if (event->key() == Qt::Key_Space && mods == Qt::ControlModifier) {
        showCompletions(true); // also the window's Complete action, when there is a window
        return;
    }
    if (event->key() == Qt::Key_Escape && mods == Qt::NoModifier && !isListActive() && !isCallTipActive()) {
        m_tabLeaves = true;
        QsciScintilla::keyPressEvent(event);
        return;
    }
    if (event->key() != Qt::Key_Shift)
        m_tabLeaves = false;
    QsciScintilla::keyPressEvent(event);
}

void CodeEditor::focusOutEvent(QFocusEvent* event)
{
    m_tabLeaves = false;
    QsciScintilla::focusOutEvent(event);
}

void CodeEditor::toggleComment()
{
    if (isReadOnly())
        return;
    const QString marker = m_language == Language::Python ? QStringLiteral("#") : QStringLiteral("//");
    int fromLine = 0, fromIndex = 0, toLine = 0, toIndex = 0;
    const bool hadSelection = hasSelectedText();
    if (hadSelection) {
        getSelection(&fromLine, &fromIndex, &toLine, &toIndex);
        if (toIndex == 0 && toLine > fromLine)
            --toLine; // a selection ending at a line's start does not take that line
    } else {
        getCursorPosition(&fromLine, &fromIndex);
        toLine = fromLine;
    }
    auto lineText = [this](int line) {
        QString t = text(line);
        while (t.endsWith(QLatin1Char('\n')) || t.endsWith(QLatin1Char('\r')))
            t.chop(1);
        return t;
    };
    bool allCommented = true, anyText = false;
    int column = INT_MAX; // the comment marks go in one column: the least indented line's
    for (int line = fromLine; line <= toLine; ++line) {
        const QString t = lineText(line);
        if (t.trimmed().isEmpty())
            continue;
        anyText = true;
        column = std::min(column, int(indentation(line)));
        if (!t.trimmed().startsWith(marker))
            allCommented = false;
    }
    if (!anyText)
        return;
    beginUndoAction();
    for (int line = fromLine; line <= toLine; ++line) {
        const QString t = lineText(line);
        if (t.trimmed().isEmpty())
            continue;
        if (allCommented) {
            const int at = int(t.indexOf(marker));
            int length = int(marker.size());
            if (at + length < t.size() && t.at(at + length) == QLatin1Char(' '))
                ++length;
            setSelection(line, at, line, at + length);
            removeSelectedText();
        } else {
            // Columns are characters here: indentation is spaces (tabs are not used).
            insertAt(marker + QLatin1Char(' '), line, column);
        }
    }
    endUndoAction();
    // The whole lines stay selected, so that Ctrl+/ again undoes it.
    if (hadSelection)
        setSelection(fromLine, 0, toLine, int(lineText(toLine).size()));
    else
        setCursorPosition(fromLine, std::max(0, fromIndex + (allCommented ? -int(marker.size()) - 1 : int(marker.size()) + 1)));
}

void CodeEditor::updateMarginWidth()
{
    const int digits = QString::number(std::max(lines(), 100)).size();
    setMarginWidth(0, QString(digits + 1, QLatin1Char('9')));
}

bool CodeEditor::isCellSeparator(const QString& lineText) const
{
    const QString trimmed = lineText.trimmed();
    const QLatin1String marker = m_language == Language::Python ? QLatin1String("# %%")
                                                                 : QLatin1String("// %%");
    return trimmed.startsWith(marker);
}

void CodeEditor::updateCellSeparators()
{
    markerDeleteAll(kCellHeaderMarker);
    markerDeleteAll(kCellRuleMarker);
    markCellSeparators();
}

void CodeEditor::markCellSeparators()
{
    m_separators.clear();
    // Only a line holding "%%" can be a separator: those are found in the editor's own buffer
    // (no copy), so a 50 MB file costs milliseconds after each edit, not a text() per line.
    const auto* doc = static_cast<const char*>(SendScintillaPtrResult(SCI_GETCHARACTERPOINTER));
    const qsizetype length = qsizetype(SendScintilla(SCI_GETLENGTH));
    if (!doc)
        return;
    const char* at = doc;
    const char* const end = doc + length;
    int checked = -1;
    while (at < end) {
        const void* hit = ::memmem(at, size_t(end - at), "%%", 2);
        if (!hit)
            break;
        const auto* h = static_cast<const char*>(hit);
        const int line = int(SendScintilla(SCI_LINEFROMPOSITION, ulong(h - doc)));
        at = h + 2;
        if (line == checked)
            continue;
        checked = line;
        if (!isCellSeparator(text(line)))
            continue;
        m_separators.append(line);
        markerAdd(line, kCellHeaderMarker);
        if (line > 0)
            markerAdd(line - 1, kCellRuleMarker);
    }
}

void CodeEditor::startLoad(const QString& text)
{
    cancelLoad();
    m_load = std::make_unique<Load>();
    Load* load = m_load.get();
    load->text = text;
    // No size given: preallocating 50 MB here would itself stall the GUI thread (page faults); the
    // document grows as it is filled.
    load->loader = reinterpret_cast<SciLoader*>(static_cast<quintptr>(SendScintilla(SCI_CREATELOADER, 0ul, 0l)));
    if (!load->loader) {
        load->ready = true; // finishLoad falls back to setText
        return;
    }
    load->thread.reset(QThread::create([load] {
        load->filled = fillLoader(load->loader, load->text, load->cancel, load->done);
        load->ready = true;
    }));
    load->thread->start();
}

bool CodeEditor::loadReady() const
{
    return !m_load || m_load->ready;
}

qsizetype CodeEditor::loadProgress() const
{
    return m_load ? m_load->done.load() : 0;
}

void CodeEditor::cancelLoad()
{
    m_load.reset();
}

void CodeEditor::loadText(const QString& text)
{
    cancelLoad();
    m_load = std::make_unique<Load>();
    m_load->text = text;
    m_load->loader = reinterpret_cast<SciLoader*>(static_cast<quintptr>(SendScintilla(SCI_CREATELOADER, 0ul, 0l)));
    if (m_load->loader)
        m_load->filled = fillLoader(m_load->loader, text, m_load->cancel, m_load->done);
    m_load->ready = true;
    finishLoad();
}

void CodeEditor::finishLoad()
{
    if (!m_load)
        return;
    std::unique_ptr<Load> load = std::move(m_load);
    if (load->thread)
        load->thread->wait();
    void* document = nullptr;
    if (load->filled && load->loader) {
        document = load->loader->ConvertToDocument();
        load->loader = nullptr; // consumed: the document holds its reference
    }
    if (document) {
        installDocument(document);
    } else {
        // No loader (or it failed): the old way, slower but the same result.
        SendScintilla(SCI_SETUNDOCOLLECTION, 0ul);
        setText(load->text);
        SendScintilla(SCI_SETUNDOCOLLECTION, 1ul);
        SendScintilla(SCI_EMPTYUNDOBUFFER);
        SendScintilla(SCI_SETSAVEPOINT);
        updateCellSeparators();
    }
}

void CodeEditor::installDocument(void* document)
{
    // What Scintilla keeps in the document rather than the view: read from the current one.
    const bool readOnly = isReadOnly(), wasModified = isModified();
    const unsigned long eol = SendScintilla(SCI_GETEOLMODE), tabWidth = SendScintilla(SCI_GETTABWIDTH),
                        indent = SendScintilla(SCI_GETINDENT), useTabs = SendScintilla(SCI_GETUSETABS),
                        tabIndents = SendScintilla(SCI_GETTABINDENTS),
                        backspaceUnindents = SendScintilla(SCI_GETBACKSPACEUNINDENTS),
                        codePage = SendScintilla(SCI_GETCODEPAGE);
    auto text = [this](unsigned int message, const char* name) {
        QByteArray buffer(int(name ? SendScintilla(message, name, nullptr) : SendScintilla(message, 0ul, static_cast<void*>(nullptr))), '\0');
        if (!buffer.isEmpty()) {
            if (name)
                SendScintilla(message, name, buffer.data());
            else
                SendScintilla(message, 0ul, static_cast<void*>(buffer.data()));
        }
        return buffer;
    };
    const QByteArray wordChars = text(SCI_GETWORDCHARS, nullptr);
    // The lexer's properties (QScintilla's setFolding and the lexer's own settings put them there).
    QList<QByteArray> names = text(SCI_PROPERTYNAMES, nullptr).split('\n');
    names << "fold" << "fold.comment" << "fold.compact";
    QList<std::pair<QByteArray, QByteArray>> properties;
    for (const QByteArray& name : names)
        if (!name.isEmpty())
            properties.append({name, text(SCI_GETPROPERTY, name.constData())});

    SendScintilla(SCI_SETDOCPOINTER, 0ul, document);   // the view's reference
    SendScintilla(SCI_RELEASEDOCUMENT, 0ul, document); // the loader's, handed over by ConvertToDocument
    // QScintilla's own QsciDocument still names the old (now freed) document: harmless as long as
    // no one calls document()/setDocument() on a CodeEditor, which shares no documents.

    if (codePage != static_cast<unsigned long>(SendScintilla(SCI_GETCODEPAGE)))
        SendScintilla(SCI_SETCODEPAGE, codePage);
    SendScintilla(SCI_SETEOLMODE, eol);
    SendScintilla(SCI_SETTABWIDTH, tabWidth);
    SendScintilla(SCI_SETINDENT, indent);
    SendScintilla(SCI_SETUSETABS, useTabs);
    SendScintilla(SCI_SETTABINDENTS, tabIndents);
    SendScintilla(SCI_SETBACKSPACEUNINDENTS, backspaceUnindents);
    if (!wordChars.isEmpty())
        SendScintilla(SCI_SETWORDCHARS, 0ul, wordChars.constData());
    // The lexer is the document's too. Not setLexer(m_lexer) again: that restyles the whole
    // document (0.9 s for 50 MB); styles, being the view's, are still set.
    if (m_lexer) {
        if (const char* name = m_lexer->lexer())
            SendScintilla(SCI_SETLEXERLANGUAGE, 0ul, name);
        else
            SendScintilla(SCI_SETLEXER, static_cast<unsigned long>(m_lexer->lexerId()));
        for (int set = 1; set <= 9; ++set)
            if (const char* words = m_lexer->keywords(set))
                SendScintilla(SCI_SETKEYWORDS, static_cast<unsigned long>(set - 1), words);
        m_lexer->refreshProperties();
    }
    for (const auto& [name, value] : properties)
        SendScintilla(SCI_SETPROPERTY, name.constData(), value.constData());
    // The loader's document collects no undo: from here on it does, the text itself not undoable.
    SendScintilla(SCI_SETUNDOCOLLECTION, 1ul);
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    SendScintilla(SCI_SETSAVEPOINT);
    setReadOnly(readOnly);

    // What an insert would have told (Scintilla notifies nothing on a swap). The new document has
    // no markers or annotations: deleting them would walk its 1.2 M lines for nothing (0.1 s).
    m_errorLine = 0;
    markCellSeparators();
    updateMarginWidth();
    emit linesChanged();
    emit textChanged();
    m_separatorTimer.stop(); // just scanned
    if (wasModified)
        emit modificationChanged(false);
}

CodeEditor::Cell CodeEditor::currentCell() const
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    int start = 0;          // 0-based first line of the cell body
    int end = lines() - 1;  // 0-based last line
    for (int i = 0; i < lines(); ++i) {
        if (!isCellSeparator(text(i)))
            continue;
        if (i <= line)
            start = i + 1;
        else {
            end = i - 1;
            break;
        }
    }
    if (start > end)        // cursor on a separator with an empty cell after it
        end = start;
    QStringList parts;
    for (int i = start; i <= end && i < lines(); ++i) {
        QString l = text(i);
        if (l.endsWith(QLatin1Char('\n')))
            l.chop(1);
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
        parts << l;
    }
    return Cell{parts.join(QLatin1Char('\n')), start + 1, end + 1};
}

int CodeEditor::nextCellLine() const
{
    const Cell cell = currentCell();
    // The line after the cell's end is a separator; the next cell's body starts after it.
    const int next = cell.endLine + 1; // 0-based index of the line after the separator
    return next < lines() ? next + 1 : -1;
}

QString CodeEditor::selectedOrAll() const
{
    return hasSelectedText() ? selectedText() : text();
}

void CodeEditor::markErrorLine(int line, const QString& message)
{
    clearErrorMarks();
    if (line < 1 || line > lines())
        return;
    m_errorLine = line;
    markerAdd(line - 1, kErrorMarker);
    markerAdd(line - 1, kErrorLineMarker);
    if (!message.isEmpty())
        annotate(line - 1, message, kErrorAnnotationStyle);
}

void CodeEditor::clearErrorMarks()
{
    m_errorLine = 0;
    markerDeleteAll(kErrorMarker);
    markerDeleteAll(kErrorLineMarker);
    clearAnnotations();
}

void CodeEditor::goToLine(int line)
{
    if (line < 1)
        return;
    const int target = std::min(line, lines()) - 1;
    setCursorPosition(target, 0);
    ensureLineVisible(target);
    setFocus();
}

QStringList CodeEditor::wordCandidates(QString* prefixOut) const
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    const QString before = text(line).left(index);
    int start = int(before.size());
    while (start > 0 && isNameChar(before.at(start - 1)))
        --start;
    const QString prefix = before.mid(start);
    QString qualifier;
    if (start > 0 && before.at(start - 1) == QLatin1Char('.')) {
        int q = start - 1;
        while (q > 0 && isNameChar(before.at(q - 1)))
            --q;
        qualifier = before.mid(q, start - 1 - q);
    }
    if (prefixOut)
        *prefixOut = prefix;
    QStringList list = m_completionSource ? m_completionSource(this->text(), line, index) : QStringList();
    if (list.isEmpty())
        list = WordCompleter::candidates(wordSource(), m_language, prefix, qualifier);
    return list;
}

QString CodeEditor::wordSource() const
{
    // A huge document gives its words around the cursor only: the whole of a 50 MB file would be
    // converted on every keystroke that completes. Whole lines, so UTF-8 is cut at no character.
    constexpr long kWholeBytes = 4l << 20, kAround = 1l << 20;
    const long length = SendScintilla(SCI_GETLENGTH);
    if (length <= kWholeBytes)
        return text();
    const long position = SendScintilla(SCI_GETCURRENTPOS);
    const long from = SendScintilla(SCI_POSITIONFROMLINE, static_cast<unsigned long>(SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(std::max(0l, position - kAround)))));
    const long toLine = SendScintilla(SCI_LINEFROMPOSITION, static_cast<unsigned long>(std::min(length, position + kAround)));
    const long to = SendScintilla(SCI_GETLINEENDPOSITION, static_cast<unsigned long>(toLine));
    const auto* doc = static_cast<const char*>(SendScintillaPtrResult(SCI_GETCHARACTERPOINTER));
    return doc ? QString::fromUtf8(doc + from, to - from) : text();
}

bool CodeEditor::askService(AssistKind kind)
{
    if (!m_serviceHook)
        return false;
    const quint64 ticket = ++m_ticket;
    m_ticketPosition = int(SendScintilla(SCI_GETCURRENTPOS));
    return m_serviceHook(kind, ticket);
}

void CodeEditor::showCompletions(bool explicitRequest)
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    const QString before = text(line).left(index);
    int start = int(before.size());
    while (start > 0 && isNameChar(before.at(start - 1)))
        --start;
    const bool afterDot = start > 0 && before.at(start - 1) == QLatin1Char('.');
    const bool longEnough = before.size() - start >= 3;
    if (!explicitRequest && !afterDot && !longEnough)
        return;
    if (askService(AssistKind::Complete))
        return; // answerCompletions shows them
    // The words need a name before the dot ("np."), as they are the names seen after it.
    const bool qualified = afterDot && start > 1 && isNameChar(before.at(start - 2));
    if (!explicitRequest && !qualified && !longEnough)
        return;
    QString prefix;
    showCompletionList(wordCandidates(&prefix), prefix);
}

void CodeEditor::answerCompletions(quint64 ticket, const QStringList& names)
{
    if (ticket != m_ticket || int(SendScintilla(SCI_GETCURRENTPOS)) != m_ticketPosition)
        return; // overtaken: the user typed on or moved away
    QString prefix;
    const QStringList words = wordCandidates(&prefix);
    showCompletionList(names.isEmpty() ? words : names, prefix);
}

void CodeEditor::showCompletionList(const QStringList& list, const QString& prefix)
{
    m_lastCompletions = list;
    if (list.isEmpty())
        return;
    // Scintilla's own list: it narrows as typing goes on and replaces the typed prefix with the
    // choice (a user list would not know the prefix).
    SendScintilla(SCI_AUTOCSETIGNORECASE, true);
    SendScintilla(SCI_AUTOCSETORDER, 1 /* SC_ORDER_PERFORMSORT */);
    SendScintilla(SCI_AUTOCSETAUTOHIDE, true);
    const char separator = char(SendScintilla(SCI_AUTOCGETSEPARATOR));
    const QByteArray items = list.join(QLatin1Char(separator)).toUtf8();
    SendScintilla(SCI_AUTOCSHOW, static_cast<unsigned long>(prefix.toUtf8().size()), items.constData());
    // Scintilla's list is a tool-tip window, which Qt does not always give the theme's palette
    // (seen white in the dark theme): it gets the editor's.
    for (QListWidget* list : findChildren<QListWidget*>())
        if (list->palette() != palette())
            list->setPalette(palette());
}

void CodeEditor::answerSignature(quint64 ticket, const QString& tip, int highlightFrom, int highlightTo)
{
    if (ticket != m_ticket || int(SendScintilla(SCI_GETCURRENTPOS)) != m_ticketPosition)
        return;
    m_lastCallTip = tip;
    if (tip.isEmpty()) {
        SendScintilla(SCI_CALLTIPCANCEL);
        return;
    }
    // At the call's opening parenthesis: the innermost one still open before the cursor.
    const int position = m_ticketPosition;
    const int from = int(SendScintilla(SCI_POSITIONFROMLINE, SendScintilla(SCI_LINEFROMPOSITION, position)));
    int depth = 0, at = position;
    for (int p = position - 1; p >= from; --p) {
        const char c = char(SendScintilla(SCI_GETCHARAT, p));
        if (c == ')')
            ++depth;
        else if (c == '(' && depth-- == 0) {
            at = p;
            break;
        }
    }
    const QByteArray utf8 = tip.toUtf8();
    SendScintilla(SCI_CALLTIPSHOW, static_cast<unsigned long>(at), utf8.constData());
    if (highlightTo > highlightFrom) // Scintilla counts bytes
        SendScintilla(SCI_CALLTIPSETHLT, static_cast<unsigned long>(tip.left(highlightFrom).toUtf8().size()),
                      static_cast<long>(tip.left(highlightTo).toUtf8().size()));
}

QString CodeEditor::wordAtCursor() const
{
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    const QString t = text(line);
    int start = index, end = index;
    while (start > 0 && isNameChar(t.at(start - 1)))
        --start;
    while (end < t.size() && isNameChar(t.at(end)))
        ++end;
    return t.mid(start, end - start);
}

void CodeEditor::onCharAdded(int ch)
{
    // As you type: after a dot, or once a name has three letters (not in a comment line).
    if (!isListActive() && (ch == '.' || isNameChar(QChar(ch)))) {
        int line = 0, index = 0;
        getCursorPosition(&line, &index);
        const QString trimmed = text(line).trimmed();
        const bool comment = trimmed.startsWith(m_language == Language::Python ? QStringLiteral("#") : QStringLiteral("//"));
        if (!comment && !(ch == '.' && index >= 2 && text(line).at(index - 2).isDigit()))
            showCompletions(false);
    }
    // Calltips: the signature when a call opens or moves to its next argument; gone at its end.
    if (ch == '(' || ch == ',')
        askService(AssistKind::Signatures);
    else if (ch == ')' && isCallTipActive())
        SendScintilla(SCI_CALLTIPCANCEL);
    // QScintilla keeps the previous line's indentation; Python also indents after a colon.
    if (ch != '\n' || m_language != Language::Python)
        return;
    int line = 0, index = 0;
    getCursorPosition(&line, &index);
    if (line == 0)
        return;
    const QString previous = text(line - 1).trimmed();
    if (!previous.endsWith(QLatin1Char(':')) || previous.startsWith(QLatin1Char('#')))
        return;
    const int wanted = indentation(line - 1) + indentationWidth();
    if (indentation(line) >= wanted)
        return;
    setIndentation(line, wanted);
    setCursorPosition(line, wanted);
}

} // namespace sandpad
