#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace sandpad {

// What the table view asks a session for: a window of rows and columns of one table variable (a
// numpy array, a pandas DataFrame or Series), never the whole value (docs/runtime-protocol.md,
// "Sessions", table windows).
struct TableRequest {
    static constexpr int kMaxRows = 500;    // the session's own bounds (variables.py)
    static constexpr int kMaxColumns = 100;
    QString name;
    qint64 row = 0;
    int rows = 100;
    qint64 column = 0;
    int columns = 20;
    QByteArray toJson() const; // one line
};

// The session's answer: the cells as the value's own formatting shows them (pandas' display
// options, numpy's scalars), the labels of their rows and columns, and the whole value's shape.
// A window may have fewer rows than asked (the end of the value, or the session's size bound).
struct TableWindow {
    QString name;
    QString type;              // "pandas.DataFrame", "numpy.ndarray", "pandas.Series"
    qint64 totalRows = 0, totalColumns = 0;
    int dimensions = 2;        // 1: an array or Series (one column)
    qint64 row = 0, column = 0; // where the window starts
    QStringList columns;       // labels of the window's columns
    QStringList dtypes;        // one per window column
    QStringList index;         // labels of the window's rows
    QList<QStringList> cells;  // [row][column]
    QString error;             // set: nothing else is (a missing name, not a table, a deadline...)

    bool ok() const { return error.isEmpty(); }
    // The session's fetch.json, checked against the request (a window where it was asked, no more
    // than asked, every row as wide as the labels).
    static TableWindow parse(const QByteArray& json, const TableRequest& request);
    static TableWindow failed(const QString& why);
};

} // namespace sandpad
