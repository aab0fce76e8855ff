#pragma once

#include <QByteArray>
#include <QString>

namespace sandpad::test {

// Runs tests/ipynb/validate_notebook.py (nbformat.validate) on the notebook's bytes; empty when
// it is valid, else what nbformat said.
QString nbformatProblems(const QByteArray& notebookJson);
// A file's bytes (empty when it cannot be read).
QByteArray fileBytes(const QString& path);

} // namespace sandpad::test
