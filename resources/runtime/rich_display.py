# Sandpad's rich outputs (docs/runtime-protocol.md, "Rich outputs"): `display()` and the
# IPython-like helpers, and what a DataFrame, a sympy expression, a figure or an object with
# `_repr_*_` methods becomes. Shipped beside wrapper.py (core/runtime/RuntimeProgram::supportFiles,
# and the local pool's pre-start) and loaded by it under a private name for every Python run.
#
# Each output is an entry of result.json's "outputs" list, in order, with the number of stdout
# bytes the program had written before it; large parts (a table's cells, PNGs) go as files of
# their own on the result channel. Nothing here imports pandas, sympy or matplotlib: an object is
# recognised through the modules the program itself loaded.

import builtins
import io
import os
import sys

# What the host accepts (core/runtime/ResultLimits.h); sent within them, so nothing is refused.
OUTPUTS_PER_RUN = 100
TABLE_ROWS = 100000
TABLE_COLUMNS = 10000
TABLE_CELLS_PER_RUN = 1000000
TEXT_CHARS = 4000000
CELL_CHARS = 1000  # a longer cell is cut (a table is not for reading essays)

_CHART_TYPES = {"line", "scatter", "bar", "pie", "box_and_whisker", "composite_chart", "superchart"}


class _CountingStdout(io.RawIOBase):
    """fd 1 under sys.stdout, counting the bytes written, so an output knows its place in stdout.
    The buffer above it stays as large as before: one Python call per flush, not per print."""

    def __init__(self, fd):
        super().__init__()
        self.fd = fd
        self.count = 0

    def writable(self):
        return True

    def write(self, data):
        written = os.write(self.fd, data)
        self.count += written
        return written

    def fileno(self):
        return self.fd

    def isatty(self):
        return os.isatty(self.fd)

    def close(self):
        pass  # fd 1 stays open, as with the interpreter's own stream


# ---------------------------------------------------------------------------------------------

def _instance(value, module, name):
    # isinstance against a class of a module the program loaded, without importing it.
    owner = sys.modules.get(module)
    cls = getattr(owner, name, None) if owner is not None else None
    return cls is not None and isinstance(value, cls)


def _plain(value):
    try:
        text = repr(value)
    except Exception as exc:
        text = "<repr() failed: %s: %s>" % (type(exc).__name__, exc)
    return text if len(text) <= TEXT_CHARS else text[:TEXT_CHARS - 1] + "\u2026"


class Display:
    """One run's (or one session execution's) outputs."""

    def __init__(self, wrapper, emit):
        self.W = wrapper
        self.emit = emit
        self.counter = None
        self.begin()

    # -- life cycle -----------------------------------------------------------------------------
    def install(self):
        """Puts the counting layer under sys.stdout and `display` and the helpers in builtins."""
        stream = sys.stdout
        try:
            stream.flush()
            self.counter = _CountingStdout(stream.fileno())
            buffer = io.BufferedWriter(self.counter, getattr(stream.buffer, "buffer_size", 8192) or 8192)
            sys.stdout = io.TextIOWrapper(buffer, encoding="utf-8", errors="backslashreplace",
                                          line_buffering=stream.line_buffering)
        except Exception:
            self.counter = None  # outputs then all sit at the start of stdout's text
        builtins.display = self.display
        # `from sandpad import display, Markdown, ...` works with or without IPython.
        import types
        module = types.ModuleType("sandpad")
        module.display = self.display

        def helper(name):  # Markdown, SVG, ...: made on first use
            if name in _HELPER_NAMES:
                return _cold()[name]
            raise AttributeError("module 'sandpad' has no attribute %r" % (name,))
        module.__getattr__ = helper
        module.__all__ = ["display"] + list(_HELPER_NAMES)
        sys.modules["sandpad"] = module

    def begin(self):
        self.entries = []
        self.charts = []
        self.files = 0
        self.cells_left = TABLE_CELLS_PER_RUN
        self.base = self.counter.count if self.counter is not None else 0

    def offset(self):
        try:
            sys.stdout.flush()
        except Exception:
            pass
        return (self.counter.count - self.base) if self.counter is not None else 0

    def finish(self):
        """The entries for result.json and the charts display() was given."""
        entries, charts = self.entries, self.charts
        self.begin()
        return entries, charts

    # -- display() ------------------------------------------------------------------------------
    def display(self, *objs, **kwargs):
        """display(*objs): shows each object in the notebook, in order with the printed text."""
        for obj in objs:
            self.add(obj)

    def add(self, obj, plain_fallback=True):
        """Adds obj as an output; False when it has no rich form and plain_fallback is off."""
        at = self.offset()
        if len(self.entries) >= OUTPUTS_PER_RUN:
            if len(self.entries) == OUTPUTS_PER_RUN:
                self.entries.append({"type": "text", "stdout_offset": at,
                                     "text": "Sandpad: more outputs are not shown (at most %d a run)." % OUTPUTS_PER_RUN})
            return True
        try:
            _cold()
            entry = self._convert(obj, plain_fallback)
        except Exception as exc:
            entry = {"type": "text", "text": "%s\n(Sandpad could not show it: %s: %s)" % (_plain(obj), type(exc).__name__, exc)}
        if entry is None:
            return False
        if entry is True:  # a chart: among the run's charts
            return True
        entry["stdout_offset"] = at
        self.entries.append(entry)
        return True

    def _file(self, data, ext):
        self.files += 1
        name = "output-%d.%s" % (self.files, ext)
        self.emit(name, data)
        return name

    # -- a run's `result`, a session's last expression ------------------------------------------
    def result_output(self, value):
        """Shows `value` as a rich output when it has a rich form (a DataFrame, sympy, an image,
        `_repr_*_`); True when it did."""
        if value is None or isinstance(value, (str, bytes, int, float, bool, list, tuple, dict, set)):
            return False
        if _instance(value, "matplotlib.figure", "Figure"):
            return False  # an open figure is one of the run's charts already
        return self.add(value, plain_fallback=False)


# ---------------------------------------------------------------------------------------------
# The conversions and the helpers: compiled on first use (a display() call, a rich `result`, an
# import of `sandpad`'s helpers), so a run that uses none pays only for the lines above.

_COLD_LOADED = []
_HELPER_NAMES = ("Markdown", "SVG", "Math", "Latex", "HTML", "Image")


def _cold():
    if not _COLD_LOADED:
        exec(compile(_COLD_SOURCE, __file__ + " (conversions)", "exec", dont_inherit=True), globals())
        _COLD_LOADED.append(True)
    return globals()


_COLD_SOURCE = r'''
# ---------------------------------------------------------------------------------------------
# IPython.display-like helpers, available without IPython. Each has the `_repr_*_` method that
# IPython's own class of that name has, so both kinds go through the same path.

class _Data:
    def __init__(self, data=None, url=None, filename=None, metadata=None, **kwargs):
        if data is None and filename is not None:
            with open(filename, "rb" if self._binary else "r") as f:
                data = f.read()
        if data is None and url is not None:
            raise ValueError("%s(url=...) is not supported: the sandbox loads nothing from the network"
                             % type(self).__name__)
        self.data = data

    _binary = False

    def __repr__(self):
        return "<%s object>" % type(self).__name__


class Markdown(_Data):
    def _repr_markdown_(self):
        return self.data


class SVG(_Data):
    _binary = False

    def _repr_svg_(self):
        data = self.data
        return data.decode("utf-8", "replace") if isinstance(data, bytes) else data


class Math(_Data):
    def _repr_latex_(self):
        text = str(self.data).strip()
        return text if text.startswith("$") else "$%s$" % text


class Latex(_Data):
    def _repr_latex_(self):
        return self.data


class HTML(_Data):
    def _repr_html_(self):
        return self.data


class Image(_Data):
    _binary = True

    def __init__(self, data=None, url=None, filename=None, format=None, **kwargs):
        if isinstance(data, str) and filename is None and not data.startswith("\x89PNG"):
            filename, data = data, None  # Image("plot.png"), as IPython takes it
        super().__init__(data, url, filename)

    def _repr_png_(self):
        return self.data


HELPERS = {"Markdown": Markdown, "SVG": SVG, "Math": Math, "Latex": Latex, "HTML": HTML, "Image": Image}



def _cell(value):
    if isinstance(value, str):
        text = value
    elif isinstance(value, float) and value != value:
        text = "NaN"
    elif isinstance(value, tuple):
        text = ", ".join(_cell(v) for v in value)
    else:
        try:
            text = str(value)
        except Exception as exc:
            text = "<%s>" % type(exc).__name__
    return text if len(text) <= CELL_CHARS else text[:CELL_CHARS - 1] + "\u2026"



def _convert(self, obj, plain_fallback):
    if _instance(obj, "pandas", "DataFrame"):
        return self._table(obj)
    if _instance(obj, "pandas", "Series"):
        return self._table(obj.to_frame(obj.name if obj.name is not None else ""))
    if _instance(obj, "sympy", "Basic") or _instance(obj, "sympy", "MatrixBase"):
        latex = sys.modules["sympy"].latex(obj)
        return self._math(latex, str(obj))
    if _instance(obj, "matplotlib.figure", "Figure"):
        return self._figure(obj)
    if _instance(obj, "PIL.Image", "Image"):
        out = io.BytesIO()
        obj.save(out, format="PNG")
        return {"type": "image", "file": self._file(out.getvalue(), "png"), "text": _plain(obj)}
    if isinstance(obj, dict) and obj.get("type") in _CHART_TYPES and "elements" in obj:
        text, error = self.W._COLD._chart_json(obj)
        if text is None:
            return {"type": "text", "text": "Sandpad: this chart cannot be shown: %s" % error}
        self.charts.append({"kind": "interactive", "spec": self.W._RawJSON(text)})
        return True
    entry = self._repr_methods(obj)
    if entry is not None or not plain_fallback:
        return entry
    return {"type": "text", "text": _plain(obj)}

def _repr_methods(self, obj):
    if isinstance(obj, type):
        return None  # a class has the methods, unbound
    for name in ("_repr_markdown_", "_repr_svg_", "_repr_png_", "_repr_latex_", "_repr_html_"):
        method = getattr(obj, name, None)
        if method is None or not callable(method):
            continue
        data = method()
        if isinstance(data, tuple):  # (data, metadata), as IPython allows
            data = data[0]
        if data is None:
            continue
        if name == "_repr_markdown_":
            return {"type": "markdown", "text": str(data)[:TEXT_CHARS]}
        if name == "_repr_svg_":
            text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
            return {"type": "svg", "text": text[:TEXT_CHARS]}
        if name == "_repr_png_":
            if isinstance(data, str):
                import base64
                data = base64.b64decode(data)
            return {"type": "image", "file": self._file(bytes(data), "png"), "text": _plain(obj)}
        if name == "_repr_latex_":
            text = str(data).strip()
            plain = _plain(obj)
            return self._math(text, text if plain.startswith("<") else plain)
        # HTML: the app shows a safe subset of it (core/ipynb/SafeHtml), or its source.
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
        return {"type": "html", "text": text[:TEXT_CHARS]}
    return None

# -- the kinds ------------------------------------------------------------------------------
def _table(self, frame):
    total = len(frame)
    columns = min(len(frame.columns), TABLE_COLUMNS)
    rows = min(total, TABLE_ROWS, self.cells_left // max(1, columns))
    if columns and rows == 0 and total:
        return {"type": "text", "text": "%s\n(Sandpad: this table is not shown as a table: the run's tables "
                                        "have used their %d cells)" % (_plain(frame), TABLE_CELLS_PER_RUN)}
    head = frame.iloc[:rows, :columns]
    index = head.index
    names = [n for n in getattr(index, "names", [index.name]) if n is not None]
    # Float columns as pandas prints them (its precision, one format per column), not repr's 17 digits.
    precision = 6
    try:
        precision = int(sys.modules["pandas"].get_option("display.precision"))
    except Exception:
        pass
    formatted = []
    for j in range(columns):
        cells = None
        try:
            if head.dtypes.iloc[j].kind == "f":
                cells = _float_cells(head.iloc[:, j].tolist(), precision)
        except Exception:
            cells = None
        formatted.append(cells)
    table = {
        "columns": [_cell(c) for c in head.columns],
        "dtypes": [str(t) for t in head.dtypes],
        "index_name": ", ".join(str(n) for n in names),
        "index": [_cell(i) for i in index],
        "rows": [[_cell(v) if formatted[j] is None else formatted[j][i] for j, v in enumerate(row)]
                 for i, row in enumerate(head.itertuples(index=False, name=None))],
        "total_rows": total,
    }
    self.cells_left -= rows * columns
    data = _table_json(self.W._quote, table).encode("utf-8")
    return {"type": "table", "file": self._file(data, "json"), "rows": rows, "columns": columns,
            "total_rows": total, "text": _plain(frame)}

def _float_cells(values, precision):
    # pandas' way for a float column: fixed with `precision` decimals, or scientific when a value
    # is too large or too small for that; then the zeros every value ends with go (one decimal
    # stays): [0.5, 2.25] -> 0.50, 2.25; [1.0, 2.0] -> 1.0, 2.0.
    import math
    finite = [v for v in values if math.isfinite(v)]
    small = 10.0 ** -precision
    sci = any(abs(v) >= 1e16 or (v != 0 and abs(v) < small) for v in finite)
    fmt = "%%.%d%s" % (precision, "e" if sci else "f")
    texts = [fmt % v if math.isfinite(v) else ("NaN" if v != v else ("inf" if v > 0 else "-inf")) for v in values]
    if not sci and finite and precision > 1:
        trim = precision - 1
        for text, v in zip(texts, values):
            if math.isfinite(v):
                trim = min(trim, len(text) - len(text.rstrip("0")))
                if not trim:
                    break
        if trim:
            texts = [t[:-trim] if math.isfinite(v) else t for t, v in zip(texts, values)]
    return texts

def _math(self, latex, plain):
    body = latex.strip()
    for opening, closing in (("$$", "$$"), ("$", "$"), ("\\[", "\\]"), ("\\(", "\\)")):
        if body.startswith(opening) and body.endswith(closing) and len(body) >= len(opening) + len(closing):
            body = body[len(opening):len(body) - len(closing)].strip()
            break
    entry = {"type": "math", "latex": body[:TEXT_CHARS], "text": plain[:TEXT_CHARS]}
    png = _mathtext_png(body)
    if png is not None:
        entry["file"] = self._file(png, "png")
    return entry

def _figure(self, figure):
    png = self.W._COLD._png_bytes(figure)
    # Shown here, so not again as one of the run's charts at its end.
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        try:
            if figure.number in pyplot.get_fignums():
                pyplot.close(figure)
        except Exception:
            pass
    return {"type": "image", "file": self._file(png, "png"), "text": _plain(figure)}


def _table_json(quote, table):
    # Cells are strings: quoted and joined directly (the wrapper's _dumps recurses per value).
    def strings(items):
        return "[" + ", ".join(map(quote, items)) + "]"
    return ('{"columns": %s, "dtypes": %s, "index_name": %s, "index": %s, "total_rows": %d, "rows": [%s]}'
            % (strings(table["columns"]), strings(table["dtypes"]), quote(table["index_name"]),
               strings(table["index"]), table["total_rows"], ", ".join(map(strings, table["rows"]))))


def _mathtext_png(latex):
    """The formula drawn with matplotlib's mathtext (no TeX needed), or None when matplotlib is
    missing or mathtext cannot draw it (it knows a subset of LaTeX: no matrix environments)."""
    if not latex:
        return None
    try:
        from matplotlib.figure import Figure
        from matplotlib.backends.backend_agg import FigureCanvasAgg
    except Exception:
        return None
    try:
        figure = Figure(figsize=(0.01, 0.01))
        FigureCanvasAgg(figure)
        # mathtext knows no \limits / \displaystyle (sympy writes them): drawn without them.
        for word in ("\\limits", "\\nolimits", "\\displaystyle"):
            latex = latex.replace(word, "")
        figure.text(0, 0, "$%s$" % latex.replace("\n", " "), fontsize=16, color="black")
        out = io.BytesIO()
        figure.savefig(out, dpi=120, format="png", bbox_inches="tight", pad_inches=0.05, transparent=True)
        return out.getvalue()
    except Exception:
        return None


for _name in ("_convert", "_repr_methods", "_table", "_math", "_figure"):
    setattr(Display, _name, globals()[_name])
'''
