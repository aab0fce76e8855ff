# Sandpad's Python runtime wrapper: `python3 wrapper.py manifest.json`.
#
# Runs the user's program (manifest "code_path") as `__main__` and reports status, result, error and
# charts through the result channel described in docs/runtime-protocol.md: frames on the file
# descriptor named by SANDPAD_RESULT_FD, or files in the manifest's "out_dir". Nothing of the
# protocol is ever written to stdout or stderr, so what the program prints cannot change its outcome.
#
# Startup cost matters (a pre-started sandbox runs `print(1)` in a few ms), so this file only imports
# modules the interpreter has already loaded at startup (`json` alone would cost ~8 ms because of
# `re`); everything else is imported lazily when it is needed.

import _thread
import builtins
import io
import os
import sys
import time
import types

try:
    import _json
except ImportError:  # pragma: no cover - every CPython has it
    _json = None

_PIP_TARGET = "/tmp/sandpad-pip"
_FLUSH_INTERVAL = 0.016  # one frame at 60 Hz


# ---------------------------------------------------------------------------------------------
# JSON without importing json: the C scanner/encoder helpers that json itself uses.

class _ScanContext:
    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float
    memo = None


def _json_loads(text):
    if _json is not None:
        try:
            ctx = _ScanContext()
            ctx.memo = {}
            stripped = text.strip()
            value, end = _json.make_scanner(ctx)(stripped, 0)
            if end == len(stripped):
                return value
        except Exception:
            pass
    import json
    return json.loads(text)


if _json is not None:
    _quote = _json.encode_basestring_ascii
else:  # pragma: no cover
    def _quote(s):
        import json
        return json.dumps(s)


class _RawJSON:
    """Already-serialized JSON text, embedded as is."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


def _dumps(o):
    # Only for the wrapper's own small, plain result document.
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, str):
        return _quote(o)
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return float.__repr__(o) if o == o and o not in (float("inf"), float("-inf")) else "null"
    if isinstance(o, _RawJSON):
        return o.text
    if isinstance(o, dict):
        return "{" + ", ".join(_quote(str(k)) + ": " + _dumps(v) for k, v in o.items()) + "}"
    if isinstance(o, (list, tuple)):
        return "[" + ", ".join(_dumps(v) for v in o) + "]"
    return _quote(str(o))


class _SourceLoader:
    """Lets linecache (tracebacks, warnings, inspect) find the user's source by the title."""

    def __init__(self, source):
        self._source = source

    def get_source(self, name):
        return self._source


# ---------------------------------------------------------------------------------------------
# Output streaming: stdout stays block buffered; a thread flushes it every 16 ms (a frame) so
# output shows up live without a system call per print. (stderr is line buffered.) A per-write
# hook could flush sparse output sooner, but costs every print ~10 % in a flood; a flush with
# nothing pending costs no system call, and the thread's wake-ups cost nothing measurable.

class _Flusher:
    def __init__(self):
        self.lock = _thread.allocate_lock()
        self.stopped = False

    def start(self):
        _thread.start_new_thread(self._run, ())

    def _run(self):
        sleep = time.sleep
        while True:
            sleep(_FLUSH_INTERVAL)
            with self.lock:
                if self.stopped:
                    return
                _flush_streams()

    def stop(self):
        with self.lock:
            self.stopped = True


def _flush_streams():
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:
            pass


def _utf8_streams():
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        try:
            if (stream.encoding or "").lower().replace("-", "") != "utf8":
                stream.reconfigure(encoding="utf-8", errors="backslashreplace")
        except Exception:
            pass


# ---------------------------------------------------------------------------------------------
# Patching modules when the user's code imports them, so the wrapper never imports them itself:
# matplotlib.pyplot (plt.show() / fig.show() keep the figure instead of warning or blocking) and
# linecache (tracebacks and warnings show the user's source lines under the title).

def _noop_show(*args, **kwargs):
    return None


def _patch_pyplot(module):
    module.show = _noop_show
    figure_module = sys.modules.get("matplotlib.figure")
    if figure_module is not None:
        figure_module.Figure.show = _noop_show
    extract = _COLD._chart_extract()
    if extract is not None:
        extract.install(module)  # box plots keep their statistics for chart extraction


def _patch_plotly(module):
    # fig.show() keeps the figure (no browser): it becomes a chart after the run.
    def show(self, *args, **kwargs):
        _PLOTLY_SHOWN.append(self)
    module.BaseFigure.show = show


_PLOTLY_SHOWN = []


class _ImportHook:
    """A meta-path finder that runs a patch right after a named module is first imported."""

    def __init__(self):
        self.patches = {}

    def find_spec(self, name, path=None, target=None):
        patch = self.patches.pop(name, None)
        if patch is None:
            return None
        if not self.patches:
            try:
                sys.meta_path.remove(self)
            except ValueError:
                pass
        return _COLD._patched_spec(name, patch)


# ---------------------------------------------------------------------------------------------
# The cold path: compiled only when a run needs it (an error, a chart, a figure, a pip install).
# Compiling it with the rest would more than double the wrapper's compile time (~1.4 ms -> ~3.7 ms
# on an idle core, more under load), which is most of the wrapper's own cost; a string literal
# costs almost nothing to compile.

_COLD_SOURCE = r'''
# ---------------------------------------------------------------------------------------------
# The `chart` dictionary: numpy / pandas / datetime values become plain JSON values.

def _chart_default(o):
    # Called by json.dumps for values it cannot serialize itself.
    mod = type(o).__module__ or ""
    if o.__class__.__name__ in ("NaTType", "NAType"):
        return None  # pandas' missing values (NaT would otherwise give the string "NaT")
    if mod.startswith("numpy"):
        if getattr(getattr(o, "dtype", None), "kind", "") == "M":
            # datetime64: tolist() would give integer nanoseconds; ISO strings instead.
            iso = o.astype("datetime64[ms]").astype(str)
            if getattr(iso, "ndim", 0):
                return [None if v == "NaT" else v for v in iso.tolist()]
            return None if str(iso) == "NaT" else str(iso)
        if hasattr(o, "tolist"):
            return o.tolist()  # arrays and scalars alike
    if hasattr(o, "isoformat") and callable(o.isoformat):
        return o.isoformat()  # datetime, date, time, pandas.Timestamp
    if mod.startswith("pandas"):
        if hasattr(o, "tolist"):
            return o.tolist()  # Series, Index
    if mod == "decimal":
        return float(o)
    if isinstance(o, (set, frozenset, range)):
        return list(o)
    raise TypeError("value of type %s is not JSON serializable" % type(o).__name__)


def _chart_clean(o, path, depth=0):
    # The slow path, only when the fast one met NaN/Infinity or failed: names the bad field.
    if depth > 64:
        raise ValueError("%s: nested too deeply" % path)
    if o is None or isinstance(o, (bool, int, str)):
        return o
    if isinstance(o, float):
        return o if o == o and o not in (float("inf"), float("-inf")) else None
    if isinstance(o, dict):
        return {str(k): _chart_clean(v, "%s.%s" % (path, k), depth + 1) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_chart_clean(v, "%s[%d]" % (path, i), depth + 1) for i, v in enumerate(o)]
    try:
        converted = _chart_default(o)
    except TypeError as exc:
        raise TypeError("%s: %s" % (path, exc)) from None
    if converted is o:
        raise TypeError("%s: value of type %s is not JSON serializable" % (path, type(o).__name__))
    return _chart_clean(converted, path, depth + 1)


# Binary columns (docs/runtime-protocol.md, "Binary columns"): the numbers of a line or scatter
# series leave as packed little-endian float64/int64 arrays in one `chart-columns` file for the
# run, named by {"offset", "length", "dtype"} references, instead of JSON number lists. For a
# million points that is 16 MB of bytes and no per-number text either side.

_COLUMN_MIN_POINTS = 64  # shorter series stay JSON lists: as cheap, and readable in result.json


def _column_ref(data, dtype, n):
    # data: a C-contiguous little-endian buffer of n 8-byte values that nothing else changes (an
    # array made here, or a copy): it is kept, not copied, until the run's result is sent.
    return {"offset": _CHART_COLUMNS.append(data), "length": n, "dtype": dtype}


def _array_column(values, datetime_x, is_y):
    """A reference for a 1-D sequence of numbers, or None when it is not one (then JSON)."""
    from array import array
    mod = type(values).__module__ or ""
    if mod.startswith(("numpy", "pandas")) and hasattr(values, "__array__"):
        import numpy as np
        a = np.asarray(values)
        if a.ndim != 1:
            return None
        kind = a.dtype.kind
        if kind == "M":
            if not datetime_x:
                return None  # dates without x_scale "datetime": JSON (ISO text), as before
            a = a.astype("datetime64[ms]").astype("<i8")  # NaT is the int64 minimum: refused
            return _column_ref(np.array(a, dtype="<i8", order="C"), "int64", len(a))
        # np.array copies: the user's array may change before the result is sent (display()).
        if kind in "iub" and not (kind == "u" and len(a) and a.max() > 2**63 - 1):
            return _column_ref(np.array(a, dtype="<i8", order="C"), "int64", len(a))
        if kind not in "fiu":
            return None
        a = np.array(a, dtype="<f8", order="C")
        if is_y:
            np.copyto(a, np.nan, where=np.isinf(a))  # inf is a gap, as the JSON path makes it null
        return _column_ref(a, "float64", len(a))
    if isinstance(values, array):  # a copy: the user's array may change before the result is sent
        if values.typecode in "fd":
            a = array("d", values)
        else:
            try:
                a = array("q", values)
            except OverflowError:
                a = array("d", values)
    elif isinstance(values, (list, tuple)):
        try:
            a = array("d", values)
        except TypeError:  # None (a gap) among the numbers, or not numbers at all
            if any(v is not None and not isinstance(v, (int, float)) for v in values):
                return None
            a = array("d", [float("nan") if v is None else v for v in values])
        except OverflowError:
            return None
    else:
        return None
    if a.typecode == "d" and is_y:
        np = sys.modules.get("numpy")  # loaded in a pre-started sandbox: 1 ms instead of 20 a million
        if np is not None:
            view = np.frombuffer(a, dtype="d")
            np.copyto(view, np.nan, where=np.isinf(view))  # inf is a gap, as in JSON
        else:
            inf = float("inf")
            if inf in a or -inf in a:
                a = array("d", [float("nan") if v in (inf, -inf) else v for v in a])
    if sys.byteorder != "little":
        a.byteswap()
    return _column_ref(a, "float64" if a.typecode == "d" else "int64", len(a))


def _pack_series(element, datetime_x):
    """The element with its x and y as column references, or itself when they are not numbers."""
    points = element.get("points")
    x, y = element.get("x"), element.get("y")
    if points is not None and x is None and y is None:
        mod = type(points).__module__ or ""
        if mod.startswith(("numpy", "pandas")) and hasattr(points, "__array__"):
            import numpy as np
            a = np.asarray(points)
            if a.ndim != 2 or a.shape[1] != 2 or len(a) < _COLUMN_MIN_POINTS:
                return element
            x, y = a[:, 0], a[:, 1]
        elif isinstance(points, (list, tuple)) and len(points) >= _COLUMN_MIN_POINTS:
            # Two lists of references, then one array each (_array_column): a third of the time
            # of flattening the pairs through an iterator and slicing them apart. Unpacking
            # checks on the way that each point is a pair (else the host names the point).
            try:
                x = [a for a, _ in points]
                y = [b for _, b in points]
            except (TypeError, ValueError):
                return element
        else:
            return element
    elif x is None or y is None or points is not None:
        return element  # the host names what is wrong
    elif len(x) != len(y):
        raise ValueError("x has %d values and y has %d: they must be as many" % (len(x), len(y)))
    mark = len(_CHART_COLUMNS)
    xs = _array_column(x, datetime_x, False)
    ys = _array_column(y, datetime_x, True) if xs is not None else None
    if xs is None or ys is None:
        _CHART_COLUMNS.truncate(mark)
        if points is not None:
            return element
        packed = dict(element)  # x/y that are not numbers (categories, dates as text): points
        del packed["x"], packed["y"]
        packed["points"] = [[a, b] for a, b in zip(x, y)]
        return packed
    packed = dict(element)
    packed.pop("points", None)
    packed["x"], packed["y"] = xs, ys
    return packed


def _pack_columns(chart, depth=0):
    elements = chart.get("elements")
    kind = chart.get("type")
    if not isinstance(elements, (list, tuple)):
        return chart
    if kind in ("composite_chart", "superchart") and depth == 0:
        packed = [_pack_columns(e, 1) if isinstance(e, dict) else e for e in elements]
    elif kind in ("line", "scatter"):
        datetime_x = chart.get("x_scale") == "datetime"
        packed = [_pack_series(e, datetime_x) if isinstance(e, dict) else e for e in elements]
    else:
        return chart
    chart = dict(chart)
    chart["elements"] = packed
    return chart


def _chart_json(chart):
    """Returns (json_text, None) or (None, error message)."""
    import json
    if isinstance(chart, dict):
        mark = len(_CHART_COLUMNS)
        try:
            chart = _pack_columns(chart)
        except ValueError as exc:
            _CHART_COLUMNS.truncate(mark)
            return None, "Could not serialize the chart: %s" % exc
        except Exception:  # never lose a chart over its packing: JSON lists then
            _CHART_COLUMNS.truncate(mark)
    try:
        return json.dumps(chart, default=_chart_default, allow_nan=False, ensure_ascii=False), None
    except (ValueError, TypeError, RecursionError, OverflowError):
        pass
    try:
        cleaned = _chart_clean(chart, "chart")
        return json.dumps(cleaned, allow_nan=False, ensure_ascii=False), None
    except Exception as exc:  # the message names the field
        return None, "Could not serialize the chart: %s" % exc


# ---------------------------------------------------------------------------------------------
# Errors: only the user's frames, named after the title, with the editor's line numbers.

def _describe_error(exc, title, source):
    import linecache
    import traceback

    lines = source.splitlines(True)
    linecache.cache[title] = (len(source), None, lines, title)  # mtime None: never invalidated
    name = type(exc).__name__
    try:
        value = str(exc)
    except Exception:
        value = "<exception str() failed>"
    try:
        te = traceback.TracebackException(type(exc), exc, exc.__traceback__, compact=True)
        seen = set()
        stack = [te]
        while stack:
            t = stack.pop()
            if id(t) in seen:
                continue
            seen.add(id(t))
            t.stack = traceback.StackSummary.from_list([f for f in t.stack if f.filename == title])
            for chained in (t.__cause__, t.__context__):
                if chained is not None:
                    stack.append(chained)
        text = "".join(te.format())
    except Exception as fmt_exc:  # never lose the error itself
        text = "%s: %s\n(traceback unavailable: %s)\n" % (name, value, fmt_exc)
    return {"name": name, "value": value, "traceback": text}


def _patched_spec(name, patch):
    import importlib.util
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
        return spec
    original = spec.loader.exec_module

    def exec_module(module):
        original(module)
        patch(module)

    spec.loader.exec_module = exec_module
    return spec


# Figures are saved at 100 dpi with bbox "tight" (DESIGN). zlib level 1: ~1/3 faster to encode
# than the default 6 for ~25 % more bytes on a typical chart.
_PNG_OPTIONS = {"compress_level": 1}


def _png_bytes(figure):
    png = _tight_png_by_cropping(figure)
    if png is not None:
        return png
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight", pil_kwargs=dict(_PNG_OPTIONS))
    return buffer.getvalue()


def _tight_png_by_cropping(figure):
    """The common case in one draw instead of savefig's two.

    savefig(bbox_inches="tight") draws the figure once to measure it and again at the measured
    size. Drawing it once at its own size and cropping the pixels to the same padded box gives
    the same picture (to within a pixel's offset) ~1/3 sooner. Anything unusual returns None and
    goes through savefig: another canvas or dpi, savefig colours or transparency set, or content
    outside the figure (e.g. a legend placed outside), which tight saving grows the image for.
    """
    import math
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    rc = matplotlib.rcParams
    canvas = figure.canvas
    if (type(canvas) is not FigureCanvasAgg or figure.dpi != 100 or rc["savefig.transparent"]
            or str(rc["savefig.facecolor"]) != "auto" or str(rc["savefig.edgecolor"]) != "auto"
            or not isinstance(rc["savefig.pad_inches"], (int, float))):
        return None
    canvas.draw()
    box = _tight_box(figure, canvas.get_renderer())
    if box is None:
        return None
    box = box.padded(rc["savefig.pad_inches"])
    width, height = canvas.get_width_height()
    left, right = math.floor(box.x0 * 100), math.ceil(box.x1 * 100)
    top, bottom = math.floor(height - box.y1 * 100), math.ceil(height - box.y0 * 100)  # rows from the top
    if left < 0 or top < 0 or right > width or bottom > height or right <= left or bottom <= top:
        return None
    from PIL import Image, PngImagePlugin
    image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    info = PngImagePlugin.PngInfo()  # what savefig writes
    info.add_text("Software", "Matplotlib version%s, https://matplotlib.org/" % matplotlib.__version__)
    buffer = io.BytesIO()
    image.crop((left, top, right, bottom)).save(buffer, format="png", dpi=(100, 100), pnginfo=info,
                                                **_PNG_OPTIONS)
    return buffer.getvalue()


def _tight_box(figure, renderer):
    """figure.get_tightbbox(renderer), the same box in about half the time.

    Right after a draw nothing moves any more, but get_tightbbox asks every axis to recompute its
    ticks about a dozen times (for its own box, its siblings' label positions, the title's). Each
    axis computes them once here; the patch lives only for this call.
    """
    from matplotlib.axis import Axis
    original = Axis._update_ticks
    memo = {}

    def update_ticks(axis):
        key = id(axis)
        if key not in memo:
            memo[key] = (axis, original(axis))
        return memo[key][1]

    Axis._update_ticks = update_ticks
    try:
        return figure.get_tightbbox(renderer)
    finally:
        Axis._update_ticks = original


def _chart_extract():
    """chart_extract.py, shipped beside this file (docs/runtime-protocol.md), or None."""
    return _support_module("chart_extract.py")


def _extracted_spec(figure):
    # After the PNG: the figure is drawn, so its tick labels are what the picture shows.
    extract = _chart_extract()
    if extract is None:
        return None
    chart = extract.figure_chart(figure)
    if chart is None:
        return None
    text, error = _chart_json(chart)
    return _RawJSON(text) if text is not None else None


def _save_figures(emit_png):
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return []
    charts = []
    try:
        numbers = list(pyplot.get_fignums())
    except Exception:
        return []
    for number in numbers:
        try:
            figure = pyplot.figure(number)
            png = _png_bytes(figure)
        except Exception as exc:
            sys.stderr.write("Sandpad: could not save figure %s: %s: %s\n"
                             % (number, type(exc).__name__, exc))
            continue
        file_name = "chart-%d.png" % (len(charts) + 1)
        emit_png(file_name, png)
        entry = {"kind": "png", "file": file_name}
        try:
            spec = _extracted_spec(figure)
        except Exception:
            spec = None  # never lose the picture over its chart
        if spec is not None:
            entry["spec"] = spec
        charts.append(entry)
    return charts


def _plotly_charts(namespace, shown):
    """Interactive charts of the plotly figures shown or left in variables, and notes."""
    extract = _chart_extract()
    if extract is None:
        return [], []
    figures, seen = [], set()
    for value in list(shown) + list(namespace.values()):
        if id(value) not in seen and extract.is_plotly_figure(value):
            seen.add(id(value))
            figures.append(value)
    charts, notes = [], []
    for figure in figures:
        try:
            chart, note = extract.plotly_chart(figure)
        except Exception as exc:
            chart, note = None, "This plotly figure is not shown: %s: %s" % (type(exc).__name__, exc)
        if chart is not None:
            text, error = _chart_json(chart)
            if text is not None:
                charts.append({"kind": "interactive", "spec": _RawJSON(text)})
            else:
                notes.append(error)
        elif note:
            notes.append(note)
    return charts, notes


def _pip_install(packages, pip_args, target):
    import subprocess
    command = [sys.executable, "-m", "pip", "install", "--target", target,
               "--disable-pip-version-check", "--no-input", "-q"] + list(pip_args) + list(packages)
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, errors="replace")
        code, message = done.returncode, (done.stderr.strip() or done.stdout.strip())
    except OSError as exc:
        code, message = -1, str(exc)
    if code != 0:
        message = message or ("pip exited with status %d" % code)
        return {"name": "PipInstallError", "value": "Failed to install packages: " + message,
                "traceback": ""}
    sys.path.insert(0, target)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = target + (os.pathsep + old if old else "")
    import importlib
    importlib.invalidate_caches()
    return None


'''

class _ColdPath:
    """`_COLD._describe_error(...)`: compiles the cold source on first use."""
    loaded = False

    def __getattr__(self, name):
        if not _ColdPath.loaded:
            exec(compile(_COLD_SOURCE, __file__ + " (cold path)", "exec", dont_inherit=True), globals())
            _ColdPath.loaded = True
        return globals()[name]


_COLD = _ColdPath()
# This run's (or session execution's) chart columns, filled by the cold path's _chart_json and
# sent by _emit_result as the `chart-columns` file.
class _ColumnParts:
    """The packed columns as the buffers they were made in, sent as one file without joining them
    (for a million points that saves three 16 MB copies and their page faults)."""

    def __init__(self):
        self.parts = []
        self.size = 0

    def __len__(self):
        return self.size

    def append(self, data):
        """Keeps a C-contiguous buffer; returns its offset in the file."""
        view = memoryview(data).cast("B")
        offset = self.size
        self.parts.append(view)
        self.size += view.nbytes
        return offset

    def truncate(self, size):
        while self.size > size:
            self.size -= self.parts.pop().nbytes

    def take(self):
        parts = self.parts
        self.parts, self.size = [], 0
        return parts


_CHART_COLUMNS = _ColumnParts()


# ---------------------------------------------------------------------------------------------
# Support modules shipped beside this file (RuntimeProgram::supportFiles), each compiled once per
# process on first use (a warm start does it before the job), under a private module name.

_SUPPORT = {}


def _support_module(filename):
    """The module of `filename` beside this file, or None when it cannot be loaded."""
    if filename not in _SUPPORT:
        module = None
        try:
            path = os.path.join(os.path.dirname(os.path.abspath(__file__)), filename)
            code = _compiled_beside(path)
            if code is None:
                with open(path, "rb") as f:
                    code = compile(f.read(), path, "exec", dont_inherit=True)
            module = types.ModuleType("_sandpad_" + filename.rsplit(".", 1)[0])
            module.__file__ = path
            exec(code, module.__dict__)
        except Exception:
            module = None
        _SUPPORT[filename] = module
    return _SUPPORT[filename]


def _compiled_beside(path):
    """The code of `path` from the bytecode the host compiled beside it (path + "c"), or None.

    The local provider places it (its WrapperBytecode) for cold and pre-started sandboxes alike;
    other providers do not, and the source is compiled here.
    """
    try:
        with open(path + "c", "rb") as f:
            data = f.read()
    except OSError:
        return None
    try:
        import marshal
        magic = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
        if len(data) <= 16 or data[:4] != magic:
            return None
        code = marshal.loads(memoryview(data)[16:])
    except Exception:
        return None
    return code if isinstance(code, types.CodeType) and code.co_filename == path else None


# The run's files (run_files.py): scratch cwd, stdin, artifacts. Without it the cwd stays the
# work dir and no artifacts come back.

def _run_files():
    return _support_module("run_files.py")


def _files_before(manifest):
    files = _run_files()
    return files.prepare(manifest) if files is not None else {}


def _files_after(manifest, channel, namespace, before):
    """The run's artifacts for result.json: {"artifacts": [...], "artifacts_omitted": [...]}."""
    files = _run_files()
    if files is None:
        return {}
    files.flush_open_files(namespace, manifest.get("cwd"))
    artifacts, omitted = files.collect(manifest.get("cwd"), channel.emit, manifest, before)
    return {"artifacts": artifacts, "artifacts_omitted": omitted}


# Rich outputs: display() and the rich forms of `result` (rich_display.py; docs/runtime-protocol.md
# "Rich outputs"). Without it a run has no display() and text only.

_WRAPPER_MODULE = sys.modules[__name__]  # this file; a session's __main__ is the user's later


def _rich_display_module():
    return _support_module("rich_display.py")


def _rich_display(emit):
    """A started rich_display.Display for this process (stdout counted, display() installed)."""
    module = _rich_display_module()
    if module is None:
        return None
    try:
        rich = module.Display(_WRAPPER_MODULE, emit)
        rich.install()
        return rich
    except Exception as exc:
        sys.stderr.write("Sandpad: display() is not available: %s: %s\n" % (type(exc).__name__, exc))
        return None


# ---------------------------------------------------------------------------------------------
# The result channel.

class _Channel:
    def __init__(self, fd, out_dir):
        self.fd = fd
        self.out_dir = out_dir

    def emit(self, name, data):
        """data: bytes, or a list of byte buffers sent as one file (the chart columns)."""
        parts = data if isinstance(data, list) else [data]
        if self.fd is not None:
            size = sum(memoryview(part).nbytes for part in parts)
            header = ('{"name": %s, "size": %d}\n' % (_quote(name), size)).encode("ascii")
            if len(parts) == 1 and size < 1 << 16:
                parts = [header + parts[0]]  # one write for the small frames
            else:
                parts.insert(0, header)
            for part in parts:
                view = memoryview(part)
                while view:
                    written = os.write(self.fd, view)
                    view = view[written:]
        else:
            os.makedirs(self.out_dir, exist_ok=True)
            path = os.path.join(self.out_dir, name)
            with open(path + ".part", "wb") as f:
                for part in parts:
                    f.write(part)
            os.replace(path + ".part", path)


_CHANNEL = None  # the run's result channel, once main() has it (the "done" frame at exit)


def _take_result_fd():
    text = os.environ.pop("SANDPAD_RESULT_FD", None)
    if not text:
        return None
    fd = int(text)
    os.set_inheritable(fd, False)  # FD_CLOEXEC: child processes never get the channel
    return fd


# ---------------------------------------------------------------------------------------------

def _run_user_code(source, title, code_path):
    """Runs the program as a fresh `__main__`; returns (namespace, error or None)."""
    module = types.ModuleType("__main__")
    namespace = module.__dict__
    namespace["__file__"] = code_path
    namespace["__builtins__"] = builtins
    namespace["__loader__"] = _SourceLoader(source)
    wrapper_module = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    sys.argv = [title]
    error = None
    try:
        code = compile(source, title, "exec", dont_inherit=True)
        exec(code, namespace)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            error = _COLD._describe_error(exc, title, source)
    except BaseException as exc:  # KeyboardInterrupt included: the run still reports
        error = _COLD._describe_error(exc, title, source)
    finally:
        if sys.modules.get("__main__") is not module:
            sys.modules["__main__"] = module
        del wrapper_module
    return namespace, error


def _has_figures():
    # Checked without the cold path: a warm start has pyplot loaded for every run.
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return False
    try:
        return bool(pyplot.get_fignums())
    except Exception:
        return True  # let _save_figures report it


# ---------------------------------------------------------------------------------------------
# Warm start (`wrapper.py --warm`, used by the local provider's pool of pre-started sandboxes):
# import the base packages, tell the host we are ready on the job socket (SANDPAD_JOB_FD), then
# block until the host sends one line, the manifest path, and run it like a cold start. The
# packages are only in sys.modules; the user's fresh `__main__` namespace binds none of them.

_WARM_MODULES = ("numpy", "pandas", "matplotlib", "matplotlib.pyplot", "sympy")
_WARM_STARTED = False


def _warm_draw():
    # A first figure pays for loading the font, the glyph and text-layout code paths and the PNG
    # encoder (~30 ms). Pay it before the job, on a figure pyplot never sees: no figure number,
    # no rcParams change, nothing the user's run can observe.
    try:
        from matplotlib.figure import Figure
        figure = Figure(figsize=(6.4, 4.8))
        axes = figure.subplots()
        axes.plot([0.0, 1.0, 2.0], [0.0, 1.0, 0.5], label="warm")
        axes.set_title("Warm")
        axes.set_xlabel("x")
        axes.set_ylabel("y")
        axes.legend()
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        FigureCanvasAgg(figure)
        _COLD._png_bytes(figure)
        # The cached fonts hold their files open: a cold run has no such descriptor.
        sys.modules["matplotlib.font_manager"]._get_font.cache_clear()
    except Exception:
        pass  # the user's run reports any real problem


def _warm_start():
    text = os.environ.pop("SANDPAD_JOB_FD", None)
    if not text:
        raise RuntimeError("--warm needs SANDPAD_JOB_FD")
    job_fd = int(text)
    os.set_inheritable(job_fd, False)
    os.environ.setdefault("MPLBACKEND", "Agg")
    import select
    woken = False
    for name in _WARM_MODULES:
        # A run taken before the warm-up ended (runs in a burst) wakes us: it imports what it
        # needs itself rather than wait for the rest.
        if select.select([job_fd], [], [], 0)[0]:
            woken = True
            break
        try:
            __import__(name)
        except BaseException:  # a missing package fails the same way at the user's import
            pass
    # Woken during the last import: the warm-up figure and the full collection can wait too.
    woken = woken or bool(select.select([job_fd], [], [], 0)[0])
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        _patch_pyplot(pyplot)
        if not woken:
            _warm_draw()
    # Loaded now (placed with the wrapper), not in the user's run.
    _run_files()
    _rich_display_module()
    _support_module("variables.py")  # the variable listing
    if pyplot is not None and not woken:
        _support_module("chart_extract.py")
    # The imported packages live as long as the sandbox: move their objects out of the collector's
    # reach, so a full collection during the user's run does not walk them (~70 ms here).
    import gc
    if not woken:  # a woken one's run is waiting: its import garbage stays (one job, then gone)
        gc.collect()
    gc.freeze()
    _flush_streams()  # the host discards everything written before "ready"
    os.write(job_fd, b"ready\n")
    job = _read_job(job_fd)
    fields = job.decode("utf-8").split("\t")
    manifest = fields[0].strip()
    if manifest == "--session":
        _serve_session(job_fd)
        return None
    os.close(job_fd)
    if not manifest:
        return None  # the host gave up on this sandbox
    if len(fields) == 4:  # limits the host could not set itself (see docs/local-sandbox.md)
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (int(fields[1]), int(fields[2])))
        if fields[3] != "-":
            resource.setrlimit(resource.RLIMIT_AS, (int(fields[3]), int(fields[3])))
    return [sys.argv[0], manifest]


def _serve_session(job_fd):
    # The job `--session`: this pre-started sandbox becomes a notebook session, which runs
    # execution after execution in one `__main__` (resources/runtime/session.py, sent with the job).
    # Beside this wrapper: /sandpad locally, the provider's work dir in a remote session.
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "session.py")
    with open(path, "rb") as f:
        source = f.read()
    session = types.ModuleType("sandpad_session")
    exec(compile(source, path, "exec", dont_inherit=True), session.__dict__)
    session.serve(sys.modules[__name__], job_fd)


def _read_job(job_fd):
    """The job: files to place (a JSON header line, then the bytes), then the job line."""
    buffer = bytearray()

    def fill():
        chunk = os.read(job_fd, 65536)
        if not chunk:
            raise EOFError
        buffer.extend(chunk)

    while True:
        try:
            while b"\n" not in buffer:
                fill()
        except EOFError:
            return bytes(buffer)
        end = buffer.index(b"\n")
        line = bytes(buffer[:end])
        del buffer[:end + 1]
        if line == b"wake":
            continue  # sent before "ready" when a run took this sandbox early
        if not line.startswith(b"{"):
            return line
        header = _json_loads(line.decode("utf-8"))
        size = int(header["size"])
        while len(buffer) < size:
            fill()
        _place_file(header["name"], int(header.get("mode", 0o644)), bytes(buffer[:size]))
        del buffer[:size]


def _place_file(path, mode, data):
    # Only into the work dir, never through a link (nothing of the user has run yet, but still).
    if not isinstance(path, str) or not path.startswith("/sandpad/") or "/.." in path or "\0" in path:
        raise RuntimeError("the host sent a file outside /sandpad: %r" % (path,))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        os.unlink(path)  # a session's next job: an input file is read-only (mode 0444)
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, mode & 0o777)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _result_text(namespace):
    for name in ("result", "results"):
        if name in namespace:
            value = namespace[name]
            if isinstance(value, str):
                return value
            try:
                return str(value)
            except Exception as exc:
                return "<str(%s) failed: %s: %s>" % (name, type(exc).__name__, exc)
    return None


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: wrapper.py manifest.json\n")
        return 2
    result_fd = _take_result_fd()
    with open(argv[1], "rb") as f:
        manifest = _json_loads(f.read().decode("utf-8"))
    code_path = manifest["code_path"]
    title = manifest.get("title") or os.path.basename(code_path)
    out_dir = manifest.get("out_dir") or os.path.join(os.path.dirname(os.path.abspath(argv[1])), "out")
    channel = _Channel(result_fd, out_dir)
    global _CHANNEL
    _CHANNEL = channel
    # Before anything of the user runs (pip included): from here on, however the run ends, it is
    # the program's own end (docs/runtime-protocol.md).
    channel.emit("started", b"")
    files_before = _files_before(manifest)

    os.environ.setdefault("MPLBACKEND", "Agg")
    hook = _ImportHook()
    if "matplotlib.pyplot" not in sys.modules:  # a warm start has patched it already
        hook.patches["matplotlib.pyplot"] = _patch_pyplot
    if "plotly.basedatatypes" not in sys.modules:
        hook.patches["plotly.basedatatypes"] = _patch_plotly
    else:
        _patch_plotly(sys.modules["plotly.basedatatypes"])
    sys.meta_path.insert(0, hook)
    _utf8_streams()
    rich = _rich_display(channel.emit)
    flusher = _Flusher()
    flusher.start()

    with open(code_path, "rb") as f:
        source = f.read().decode("utf-8", errors="replace")
    source_entry = (len(source), None, source.splitlines(True), title)  # mtime None: kept
    if "linecache" in sys.modules:
        sys.modules["linecache"].cache[title] = source_entry
    else:
        hook.patches["linecache"] = lambda module: module.cache.__setitem__(title, source_entry)

    namespace = {}
    error = None
    packages = manifest.get("packages") or []
    if packages:
        error = _COLD._pip_install(packages, manifest.get("pip_args") or [],
                             manifest.get("pip_target") or _PIP_TARGET)
    if error is None:
        namespace, error = _run_user_code(source, title, code_path)

    charts = _COLD._save_figures(channel.emit) if _has_figures() else []
    if "plotly.basedatatypes" in sys.modules:
        more, notes = _COLD._plotly_charts(namespace, _PLOTLY_SHOWN)
        charts += more
        for note in notes:
            sys.stderr.write("Sandpad: %s\n" % note)
    chart_error = None
    chart = namespace.get("chart")
    if isinstance(chart, dict):
        text, chart_error = _COLD._chart_json(chart)
        if text is not None:
            charts.append({"kind": "interactive", "spec": _RawJSON(text)})
    result = _result_text(namespace)
    outputs = []
    if rich is not None:  # a DataFrame, sympy, image... `result` is shown rich too
        if "result" in namespace:
            rich.result_output(namespace["result"])
        outputs, shown_charts = rich.finish()
        charts += shown_charts
    files = _files_after(manifest, channel, namespace, files_before)
    listed = _emit_variables(channel, namespace)

    flusher.stop()
    _flush_streams()
    _emit_result(channel, error, result, charts, chart_error, files, outputs, listed)
    return 0


def _emit_variables(channel, namespace):
    """variables.json: the namespace's user variables at the end (variables.py), for the variable
    explorer. True when written."""
    module = _support_module("variables.py")
    if module is None:
        return False
    try:
        channel.emit("variables.json", _dumps(module.listing(namespace)).encode("utf-8"))
        return True
    except Exception as exc:
        sys.stderr.write("Sandpad: could not list the variables: %s: %s\n" % (type(exc).__name__, exc))
        return False


def _emit_result(channel, error, result, charts, chart_error, files=None, outputs=(), variables=False):
    """result.json (docs/runtime-protocol.md): a run's, or a session execution's."""
    columns = None
    if _CHART_COLUMNS:  # the charts' binary columns, one file before the document naming it
        columns = {"file": "chart-columns", "size": len(_CHART_COLUMNS)}
        channel.emit("chart-columns", _CHART_COLUMNS.take())
    document = {
        "status": "error" if error is not None else "success",
        "result": result,
        "error": error,
        "charts": charts,
        "chart_error": chart_error,
    }
    if variables:
        document["variables"] = True  # variables.json was written (a fresh run's snapshot)
    if files:
        document.update(files)
    if outputs:
        document["outputs"] = outputs
    if columns:
        document["chart_columns"] = columns
    channel.emit("result.json", _dumps(document).encode("utf-8"))


if __name__ == "__main__":
    try:
        if sys.argv[1:] == ["--warm"]:
            _WARM_STARTED = True
            _argv = _warm_start()
            _status = main(_argv) if _argv is not None else 0
        else:
            _status = main(sys.argv)
    except BaseException as _exc:  # a wrapper failure, never the user's error
        sys.stderr.write("Sandpad runtime wrapper failed: %s: %s\n" % (type(_exc).__name__, _exc))
        _status = 70
    _flush_streams()
    _local = _CHANNEL is not None and _CHANNEL.fd is not None
    if _WARM_STARTED or _local:
        # Tearing down numpy/pandas/matplotlib/sympy costs ~300-500 ms and nobody can observe it
        # (the sandbox is destroyed): do what a normal exit does that can be seen, say "done"
        # (the host shows the result without waiting for the kernel's teardown), then leave.
        try:
            _threading = sys.modules.get("threading")
            if _threading is not None:
                _threading._shutdown()  # wait for the user's non-daemon threads, as at exit
            import atexit
            atexit._run_exitfuncs()
            _flush_streams()  # the interpreter flushes stdout/stderr before clearing modules
            # The user's objects go as at teardown (e.g. an unclosed file flushes its buffer).
            _user = sys.modules.get("__main__")
            if _user is not None and _user.__dict__ is not globals():
                _user.__dict__.clear()
            del _user
        except BaseException as _exc:
            sys.stderr.write("Sandpad runtime wrapper failed: %s: %s\n" % (type(_exc).__name__, _exc))
        _flush_streams()
        if _local:
            try:
                _CHANNEL.emit("done", str(_status).encode("ascii"))
            except BaseException:
                pass
        os._exit(_status)
    sys.exit(_status)
