# Sandpad's view of a Python namespace (docs/runtime-protocol.md, "Sessions"): the variable
# listing for the variable explorer (a session after each execution, a fresh run at its end) and
# windows of a numpy array or a pandas DataFrame/Series for the table view, fetched on demand.
# Placed beside the wrapper (RuntimeProgram::supportFiles) and loaded by it under a private name.
#
# Nothing here copies a whole value: the listing reads shape and nbytes, a window slices the rows
# and columns asked for. What it calls on a user's object (len, __repr__, __getitem__ of a
# subclass) may be arbitrary code: it runs inside the sandbox, under the host's deadline, and every
# text is cut to a bound.

import sys
import types

LISTING_MAX = 500          # a namespace with more user variables lists the first ones (by name)
VALUE_MAX = 120            # characters of a short value
WINDOW_ROWS_MAX = 500      # what one table fetch may ask for
WINDOW_COLUMNS_MAX = 100
CELL_MAX = 200             # characters of a cell or a label
ANSWER_MAX = 1 << 20       # characters of one window's cells: fewer rows are returned past it


def type_name(value):
    kind = type(value)
    if kind.__module__ == "builtins":
        return kind.__name__
    return "%s.%s" % (kind.__module__.split(".")[0], kind.__name__)


def _short_repr(value):
    # Bounded however big the value is (a 10-million-item list costs as much as a short one).
    import reprlib
    short = reprlib.Repr()
    short.maxstring = short.maxother = 100
    short.maxlist = short.maxtuple = short.maxdict = short.maxset = 10
    return short.repr(value)


def _cut(text, limit):
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def listing(namespace):
    """The user's variables: [{"name", "type", "size", "memory", "value", "table"?}]. Modules,
    functions, classes and names starting with "_" are not listed. "table": it opens in the table
    view (a numpy array of 1 or 2 dimensions, a pandas DataFrame or Series)."""
    rows = []
    for name in sorted(namespace):
        if name.startswith("_") or len(rows) >= LISTING_MAX:
            continue
        value = namespace[name]
        if isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)):
            continue
        kind = type(value)
        row = {"name": name, "type": type_name(value)}
        try:
            shape = getattr(value, "shape", None)
            if isinstance(shape, tuple):
                row["size"] = " \u00d7 ".join(str(n) for n in shape)
            elif hasattr(value, "__len__"):
                row["size"] = str(len(value))
            nbytes = getattr(value, "nbytes", None)
            if isinstance(nbytes, int):
                row["memory"] = nbytes
            elif hasattr(value, "memory_usage") and callable(value.memory_usage):
                row["memory"] = int(value.memory_usage(index=True, deep=False).sum())
            else:
                row["memory"] = sys.getsizeof(value)
            text = _short_repr(value) if kind.__module__ == "builtins" else "%s %s" % (row["type"], row.get("size", ""))
            row["value"] = _cut(text, VALUE_MAX)
            if _table_kind(value) is not None:
                row["table"] = True
        except Exception as exc:
            row["value"] = _cut("<%s: %s>" % (type(exc).__name__, exc), VALUE_MAX)
        rows.append(row)
    return rows


def _table_kind(value):
    """"frame", "series", "array" or None. Checked by class, never by calling the value: the
    modules are only looked up when the program imported them."""
    pandas = sys.modules.get("pandas")
    if pandas is not None:
        if isinstance(value, pandas.DataFrame):
            return "frame"
        if isinstance(value, pandas.Series):
            return "series"
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, numpy.ndarray) and value.ndim in (1, 2):
        return "array"
    return None


def _pandas_texts(values):
    # pandas' own formatting of a column (its display options, NaN/NaT, escaped newlines), as a
    # DataFrame's repr shows it; the padding is the view's business.
    try:
        from pandas.io.formats.format import format_array
        return [text.strip() for text in format_array(values, None)]
    except Exception:
        return [str(v) for v in values]


def _labels(index):
    try:
        return [_cut(text, CELL_MAX) for text in _pandas_texts(index._values)]
    except Exception:
        return [_cut(str(v), CELL_MAX) for v in index]


def _int(request, key, default, low, high):
    value = request.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("%r must be a whole number" % key)
    return max(low, min(high, value))


def table(namespace, request):
    """A window of a table variable: {"name", "type", "shape": [rows, columns], "ndim", "row",
    "column", "columns": [labels], "dtypes": [...], "index": [labels], "cells": [[text]]}, or
    {"error": "..."}. `request`: {"name", "row", "rows", "column", "columns"}."""
    name = request.get("name")
    if not isinstance(name, str) or not name:
        return {"error": "the request names no variable"}
    if name not in namespace or name.startswith("__"):
        return {"error": "there is no variable named %s in the session" % _cut(repr(name), CELL_MAX)}
    value = namespace[name]
    kind = _table_kind(value)
    numpy = sys.modules.get("numpy")
    if kind is None and numpy is not None and isinstance(value, numpy.ndarray):
        return {"error": "%s is a numpy array of %d dimensions: only arrays of 1 or 2 dimensions open as a table"
                         % (name, value.ndim)}
    if kind is None:
        return {"error": "%s is a %s: only numpy arrays (1 or 2 dimensions) and pandas DataFrames and "
                         "Series open as a table" % (name, type_name(value))}
    try:
        row = _int(request, "row", 0, 0, sys.maxsize)
        rows = _int(request, "rows", 100, 0, WINDOW_ROWS_MAX)
        column = _int(request, "column", 0, 0, sys.maxsize)
        columns = _int(request, "columns", 20, 0, WINDOW_COLUMNS_MAX)
    except ValueError as exc:
        return {"error": str(exc)}
    answer = {"name": name, "type": type_name(value), "row": row, "column": column}
    if kind == "array":
        total_rows = int(value.shape[0])
        total_columns = 1 if value.ndim == 1 else int(value.shape[1])
        answer["ndim"] = value.ndim
        if value.ndim == 1:  # one column, 0
            window = value[row:row + rows].reshape(-1, 1)[:, column:column + columns]
        else:
            window = value[row:row + rows, column:column + columns]
        answer["columns"] = [str(c) for c in range(column, column + window.shape[1])]
        answer["dtypes"] = [str(value.dtype)] * window.shape[1]
        answer["index"] = [str(r) for r in range(row, row + window.shape[0])]
        texts = [[_cut(str(cell), CELL_MAX) for cell in line] for line in window]
    elif kind == "series":  # one column, 0, named after the Series
        total_rows, total_columns = int(value.shape[0]), 1
        answer["ndim"] = 1
        window = value.iloc[row:row + rows]
        shown = column == 0 and columns > 0
        answer["columns"] = [_cut("" if value.name is None else str(value.name), CELL_MAX)] if shown else []
        answer["dtypes"] = [str(value.dtype)] if shown else []
        answer["index"] = _labels(window.index)
        texts = [[_cut(text, CELL_MAX)] if shown else [] for text in _pandas_texts(window._values)]
    else:
        total_rows, total_columns = (int(n) for n in value.shape)
        answer["ndim"] = 2
        window = value.iloc[row:row + rows, column:column + columns]
        answer["columns"] = _labels(window.columns)
        answer["dtypes"] = [str(dtype) for dtype in window.dtypes]
        answer["index"] = _labels(window.index)
        by_column = [_pandas_texts(window.iloc[:, j]._values) for j in range(window.shape[1])]
        texts = [[_cut(by_column[j][i], CELL_MAX) for j in range(window.shape[1])] for i in range(window.shape[0])]
    cells = []
    size = 0
    for line in texts:
        size += sum(len(cell) + 4 for cell in line)
        if cells and size > ANSWER_MAX:
            break  # fewer rows than asked: the view asks again from where this stops
        cells.append(line)
    answer["index"] = answer["index"][:len(cells)]
    answer["shape"] = [total_rows, total_columns]
    answer["cells"] = cells
    return answer
