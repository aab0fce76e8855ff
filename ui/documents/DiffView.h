#pragma once

#include "core/diff/LineDiff.h"

#include <QWidget>

class QComboBox;
class QCheckBox;
class QLabel;
class QTableView;
class QDialog;

namespace sandpad {

class DiffModel;

// Shows the line diff of two texts (e.g. two revisions), unified or side by side, added lines
// green and removed lines red (tints derived from the palette, so dark themes work). Unchanged
// stretches are folded unless "Whole file" is on. Rows are virtualised: a 5 MB text is fine.
class DiffView : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Unified, SideBySide };

    explicit DiffView(QWidget* parent = nullptr);

    void setTexts(const QString& oldText, const QString& newText,
                  const QString& oldLabel = QString(), const QString& newLabel = QString());
    void setMode(Mode mode);
    Mode mode() const;
    void setContextLines(int lines);      // < 0: the whole file; default 3

    const LineDiffResult& result() const;
    QString unifiedText(int context = 3) const;  // the diff as patch text (e.g. for copying)
    QString summary() const;                     // "+2 −1 lines" etc., as shown in the header
    DiffModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

    // Moves the current row to the next / previous change. False when there is none.
    bool nextChange();
    bool previousChange();

    // A non-modal window holding a DiffView; deleted when closed.
    static QDialog* openDialog(const QString& oldText, const QString& newText,
                               const QString& oldLabel, const QString& newLabel,
                               const QString& windowTitle, QWidget* parent);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColumns();
    bool jumpToChange(int direction);

    DiffModel* m_model;
    QTableView* m_table;
    QLabel* m_header;
    QComboBox* m_modeBox;
    QCheckBox* m_wholeFile;
    QString m_oldLabel, m_newLabel;
};

} // namespace sandpad
