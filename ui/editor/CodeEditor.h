#pragma once

#include "core/completion/AssistTypes.h"
#include "core/language/Language.h"

#include <Qsci/qsciscintilla.h>
#include <QTimer>
#include <functional>
#include <memory>

class QsciLexer;

namespace sandpad {

// The code editor: a QScintilla view with Python/JavaScript highlighting, line numbers, folding,
// auto-indent, brace matching, `# %%` / `// %%` cell separators and error-line marks. Colours
// follow the application palette (light or dark).
class CodeEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit CodeEditor(QWidget* parent = nullptr);
    ~CodeEditor() override;

    void setLanguage(Language language);
    Language language() const { return m_language; }

    struct Cell {
        QString text;
        int startLine = 1; // 1-based, first line of the cell's code (the separator line excluded)
        int endLine = 1;   // 1-based, inclusive
    };
    // The cell around the cursor (the whole text when there are no separators).
    Cell currentCell() const;
    // 1-based line after the current cell's end (for "run cell and advance"); -1 at the last cell.
    int nextCellLine() const;
    // The selection, or the whole text when nothing is selected.
    QString selectedOrAll() const;
    // The 0-based lines holding a cell separator (for tests and drawing).
    QList<int> cellSeparatorLines() const { return m_separators; }
    bool isCellSeparator(const QString& lineText) const;

    // Marks a 1-based line as failing: a marker in the margin, a tinted line and an annotation.
    void markErrorLine(int line, const QString& message = {});
    void clearErrorMarks();
    int errorLine() const { return m_errorLine; } // 1-based, 0 when none
    // Moves the cursor to a 1-based line and makes it visible.
    void goToLine(int line);

    // Re-scans the text for cell separators now (normally done shortly after each edit).
    void updateCellSeparators();

    // A file's text, opened: not undoable, unmodified, the cells marked. It goes into a fresh
    // Scintilla document through Scintilla's loader (SCI_CREATELOADER), which is then swapped in
    // (SCI_SETDOCPOINTER): no modification notifications, so neither undo records nor QScintilla's
    // per-insert work (its accessibility event turns every inserted text into a QString, and a
    // copy of it is made for the bindings; that was most of setText's 1.1 s for 50 MB).
    // startLoad fills the document on a worker thread; loadReady() says when it is filled,
    // finishLoad() (GUI thread) swaps it in; a load still running is dropped by cancelLoad,
    // another startLoad or the destructor. loadText does it all at once on the calling thread.
    void loadText(const QString& text);
    void startLoad(const QString& text);
    bool loadReady() const;
    // How much of the text is in the loader, in UTF-16 code units (for progress).
    qsizetype loadProgress() const;
    void finishLoad();
    void cancelLoad();

    // Ctrl+/: comments the selected lines (or the cursor's line) out with the language's line
    // comment, or back in when every non-blank one is commented already.
    void toggleComment();
    // Tab indents, as an editor's Tab must; Escape then Tab (or Shift+Tab) moves the focus out
    // instead, like JupyterLab's command mode, so that the keyboard is never trapped here.
    bool tabLeavesEditor() const { return m_tabLeaves; }

    // Completion (Ctrl+Space, and as you type: after a dot, or three letters of a name). The
    // candidates come from the completion source when there is one (a language service, a live
    // session), else from WordCompleter. explicitRequest: also for a shorter prefix.
    void showCompletions(bool explicitRequest = true);
    // What offers the candidates for the text before the cursor; empty: the word completer.
    using CompletionSource = std::function<QStringList(const QString& text, int line, int column)>;
    void setCompletionSource(CompletionSource source) { m_completionSource = std::move(source); }
    QStringList lastCompletions() const { return m_lastCompletions; }

    // A language service that answers later (Jedi through ui/editor/PythonAssist). Asked for
    // completions (Ctrl+Space, after a dot, as you type) and calltips (after `(` and `,`); true:
    // it will answer through answerCompletions/answerSignature with the ticket, false: it cannot
    // now (completions then come from the source or the word completer at once). An answer for an
    // older ticket, or once the cursor moved, is dropped: the newest keystroke wins.
    using ServiceHook = std::function<bool(AssistKind kind, quint64 ticket)>;
    void setServiceHook(ServiceHook hook) { m_serviceHook = std::move(hook); }
    // names empty: the word completer's candidates instead (Jedi had nothing).
    void answerCompletions(quint64 ticket, const QStringList& names);
    // A calltip at the call's opening parenthesis; [highlightFrom, highlightTo) is the current
    // parameter in `text` (QString indices; empty range: none). Empty text: no calltip.
    void answerSignature(quint64 ticket, const QString& text, int highlightFrom = 0, int highlightTo = 0);
    QString lastCallTip() const { return m_lastCallTip; }
    // The word under (or just before) the cursor, for the help pane.
    QString wordAtCursor() const;

protected:
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void applyColours();
    void updateMarginWidth();
    void onCharAdded(int ch);
    // Installs the loaded document and gives it what lives in Scintilla's document, not its
    // view (lexer, properties, EOL mode, indentation, read-only, undo collection).
    void installDocument(void* document);
    // Marks the separators, the old marks already gone.
    void markCellSeparators();

    struct Load;
    std::unique_ptr<Load> m_load;

    Language m_language = Language::Python;
    QsciLexer* m_lexer = nullptr;
    QTimer m_separatorTimer;
    QList<int> m_separators;
    int m_errorLine = 0;
    bool m_applyingColours = false;
    bool m_tabLeaves = false; // Escape was pressed: the next Tab moves the focus on
    CompletionSource m_completionSource;
    QStringList m_lastCompletions;
    void showCompletionList(const QStringList& list, const QString& prefix);
    QStringList wordCandidates(QString* prefix) const;
    QString wordSource() const; // the text the word completer reads
    bool askService(AssistKind kind);
    ServiceHook m_serviceHook;
    quint64 m_ticket = 0;           // the newest request to the service
    int m_ticketPosition = -1;      // where the cursor was then
    QString m_lastCallTip;
};

} // namespace sandpad
