# Sandpad: interactive charts extracted from matplotlib figures and plotly figures.
#
# Shipped beside wrapper.py and loaded by it (never imported by name, so a user's own module of
# this name is not shadowed) only when a run left figures. `figure_chart(figure)` returns a chart
# dictionary in the schema of docs/runtime-protocol.md ("Interactive charts"), or None when the
# figure holds anything that chart could not show faithfully: every artist of every axes must be
# accounted for by a kind we draw (lines, scatter, bars, pie, boxes, error bars, plain titles and
# texts), else the figure stays a PNG only. A wrong interactive chart is worse than none.
#
# `install(pyplot)` wraps Axes.bxp once so that box plots keep their statistics (their lines alone
# do not say which is a whisker and which a cap).

import math

# Extraction is for figures a person looks at; a figure over this many values stays a PNG (its
# JSON would cost more than the picture, and it must not push the run over its chart limits).
MAX_VALUES = 200000
# More texts than this (annotations, bar labels) and the picture says more than the chart could.
MAX_TEXTS = 4


class NotFaithful(Exception):
    """The figure holds something the interactive chart would get wrong."""


def install(pyplot):
    from matplotlib.axes import Axes
    if getattr(Axes.bxp, "_sandpad", False):
        return
    original = Axes.bxp

    def bxp(self, bxpstats, *args, **kwargs):
        artists = original(self, bxpstats, *args, **kwargs)
        try:
            positions = kwargs.get("positions", args[0] if args else None)
            vert = kwargs.get("vert", args[2] if len(args) > 2 else True)
            record = getattr(self, "_sandpad_boxes", None)
            if record is None:
                record = self._sandpad_boxes = []
            record.append({"stats": list(bxpstats), "positions": positions, "vert": vert,
                           "artists": artists})
        except Exception:
            pass
        return artists

    bxp._sandpad = True
    Axes.bxp = bxp


# ---------------------------------------------------------------------------------------------
# Values

def _num(v):
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _nums(values):
    # NaN/inf/masked -> None (a gap), everything else a plain float.
    import numpy as np
    arr = np.ma.filled(np.ma.asarray(values, dtype=float), np.nan).ravel()
    out = arr.tolist()
    if not np.isfinite(arr).all():
        out = [v if math.isfinite(v) else None for v in out]
    return out


def _tidy(v):
    # 0.1 drawn as 1.1 - 1.0 is 0.10000000000000009: the digits the snippet wrote.
    v = _num(v)
    return None if v is None else float("%.12g" % v)


def _hex(color):
    from matplotlib.colors import to_hex
    try:
        return to_hex(color, keep_alpha=False)
    except Exception:
        return None


def _label(artist):
    label = artist.get_label()
    if not isinstance(label, str) or label.startswith("_"):
        return None
    return label


# ---------------------------------------------------------------------------------------------
# Axes

def _is_datetime(axis):
    import matplotlib.dates as mdates
    converter = getattr(axis, "converter", None)
    if converter is not None and "date" in type(converter).__name__.lower():
        return True
    return isinstance(axis.get_major_formatter(),
                      (mdates.DateFormatter, mdates.AutoDateFormatter, mdates.ConciseDateFormatter))


def _categories(axis):
    units = getattr(axis, "units", None)
    mapping = getattr(units, "_mapping", None)
    if mapping is None or not mapping:
        return None
    names = [None] * len(mapping)
    for name, index in mapping.items():
        if not isinstance(index, int) or index < 0 or index >= len(names):
            return None
        names[index] = str(name)
    return names


def _date_ms(values):
    import matplotlib.dates as mdates
    import numpy as np
    epoch = np.datetime64(mdates.get_epoch(), "ms").astype("int64")
    return [None if v is None else round(v * 86400000.0 + epoch, 3) for v in _nums(values)]


def _scale(axis_obj, which):
    scale = axis_obj.get_xscale() if which == "x" else axis_obj.get_yscale()
    if scale not in ("linear", "log", "symlog"):
        raise NotFaithful("scale " + str(scale))
    return scale


def _ticks(ax, which, kind):
    axis = ax.xaxis if which == "x" else ax.yaxis
    lo, hi = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    ticks, labels = [], []
    for tick, text in zip(axis.get_majorticklocs(), axis.get_majorticklabels()):
        t = _num(tick)
        if t is None or t < lo - 1e-9 * abs(hi - lo) or t > hi + 1e-9 * abs(hi - lo):
            continue
        label = text.get_text().replace("\u2212", "-")
        if label.startswith("$"):
            label = "%g" % t  # mathtext (log axes' 10^n): the number itself
        ticks.append(t)
        labels.append(label)
    if kind == "datetime":
        ticks = _date_ms(ticks)
    return ticks, labels


def _axis_info(ax, which):
    """The kind of an axis: ("categorical", names) | ("datetime", None) | (scale, None)."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    for part in (getattr(axis, "converter", None), axis.get_major_formatter()):
        # pandas' time series axes count periods (days, months...) of the index's frequency, not
        # matplotlib's date numbers: no way to be sure what a value means.
        if part is not None and (type(part).__module__ or "").startswith("pandas") and \
                ("Period" in type(part).__name__ or "TimeSeries" in type(part).__name__):
            raise NotFaithful("pandas period axis")
    names = _categories(axis)
    if names is not None:
        return "categorical", names
    if _is_datetime(axis):
        return "datetime", None
    return _scale(ax, which), None


def _lim(ax, which, kind):
    lo, hi = ax.get_xlim() if which == "x" else ax.get_ylim()
    if hi < lo:
        raise NotFaithful("inverted axis")  # the viewer draws axes ascending
    if kind == "datetime":
        return _date_ms([lo, hi])
    return [_num(lo), _num(hi)]


def _common(ax, chart, x_kind, y_kind, title_fallback=None):
    title = ax.get_title() or ax.get_title("left") or ax.get_title("right") or title_fallback or ""
    chart["title"] = title
    chart["x_label"] = ax.get_xlabel() or None
    chart["y_label"] = ax.get_ylabel() or None
    for which, kind in (("x", x_kind), ("y", y_kind)):
        chart[which + "_scale"] = kind
        ticks, labels = _ticks(ax, which, kind)
        chart[which + "_ticks"] = ticks
        chart[which + "_tick_labels"] = labels
        chart[which + "_unit"] = None
        if kind != "categorical":
            chart[which + "_lim"] = _lim(ax, which, kind)
        if kind == "symlog":
            scale = (ax.xaxis if which == "x" else ax.yaxis)._scale
            chart[which + "_linthresh"] = _num(getattr(scale, "linthresh", 1.0))


# ---------------------------------------------------------------------------------------------
# What an axes holds

_TEXTS_OK = ("Text",)


def _check_children(ax, accounted):
    """Every child of the axes must be one we drew or its furniture."""
    import matplotlib.axis
    import matplotlib.legend
    import matplotlib.spines
    import matplotlib.text
    from matplotlib.offsetbox import AnchoredOffsetbox
    texts = 0
    for child in ax.get_children():
        if child is ax.patch or id(child) in accounted:
            continue
        if isinstance(child, (matplotlib.axis.Axis, matplotlib.spines.Spine, matplotlib.legend.Legend)):
            continue
        if type(child) is matplotlib.text.Text:
            if child in (ax.title, ax._left_title, ax._right_title):
                continue
            if child.get_text() and child.get_visible():
                texts += 1
            continue
        if isinstance(child, AnchoredOffsetbox):
            raise NotFaithful("offset box")
        if not child.get_visible():
            continue
        raise NotFaithful(type(child).__name__)
    if texts > MAX_TEXTS:
        raise NotFaithful("annotations")


def _line_mode(line):
    has_line = line.get_linestyle() not in ("None", "none", "", " ") and line.get_linewidth() > 0
    has_marker = line.get_marker() not in (None, "None", "none", "", " ")
    if has_line and line.get_drawstyle() not in (None, "default"):
        raise NotFaithful("step line")
    if has_line and has_marker:
        return "lines+markers"
    if has_line:
        return "lines"
    if has_marker:
        return "markers"
    return None


def _x_values(values, kind, names):
    if kind == "datetime":
        return _date_ms(values)
    xs = _nums(values)
    if kind == "categorical":
        out = []
        for x in xs:
            i = None if x is None else int(round(x))
            if i is None or i != x or i < 0 or i >= len(names):
                raise NotFaithful("category index")
            out.append(names[i])
        return out
    return xs


def _points(xs, ys):
    return [[x, y] for x, y in zip(xs, ys)]


class _Budget:
    def __init__(self):
        self.values = 0

    def spend(self, n):
        self.values += n
        if self.values > MAX_VALUES:
            raise NotFaithful("too many values")


def _errorbar_extents(collection, centers, vertical):
    """Per point [minus, plus] from an errorbar LineCollection whose segments match the points."""
    segments = collection.get_segments()
    if len(segments) != len(centers):
        raise NotFaithful("error bars")
    out = []
    for seg, center in zip(segments, centers):
        if center is None or len(seg) != 2:
            out.append(None)
            continue
        a = seg[0][1] if vertical else seg[0][0]
        b = seg[1][1] if vertical else seg[1][0]
        lo, hi = min(a, b), max(a, b)
        out.append([_tidy(center - lo), _tidy(hi - center)])
    return out


def _xy_axes(ax, budget, accounted, y_axis=None):
    """Line and scatter series of one axes: a list of elements, and whether any has lines."""
    import matplotlib.collections as mcoll
    from matplotlib.container import ErrorbarContainer
    x_kind, x_names = _axis_info(ax, "x")
    y_kind, _ = _axis_info(ax, "y")
    if y_kind in ("categorical", "datetime"):
        raise NotFaithful("y axis kind")
    errors = {}  # id(line) -> {"error_y": ..., "error_x": ...}
    for container in ax.containers:
        if not isinstance(container, ErrorbarContainer):
            continue
        data_line, caplines, barlinecols = container.lines
        if data_line is None:
            raise NotFaithful("error bars without a line")
        for cap in caplines:
            accounted.add(id(cap))
        ys = _nums(data_line.get_ydata(orig=False))
        xs = _nums(data_line.get_xdata(orig=False))
        found = {}
        cols = list(barlinecols)
        if container.has_xerr and cols:
            found["error_x"] = _errorbar_extents(cols.pop(0), xs, False)
        if container.has_yerr and cols:
            found["error_y"] = _errorbar_extents(cols.pop(0), ys, True)
        for col in barlinecols:
            accounted.add(id(col))
        errors[id(data_line)] = found
    elements = []
    any_line = False
    for line in ax.lines:
        if id(line) in accounted:
            continue
        if line.get_transform() != ax.transData:
            raise NotFaithful("line not in data coordinates")
        mode = _line_mode(line)
        accounted.add(id(line))
        if mode is None or not line.get_visible():
            continue
        ys = _nums(line.get_ydata(orig=False))
        budget.spend(len(ys))
        xs = _x_values(line.get_xdata(orig=False), x_kind, x_names)
        if len(xs) != len(ys):
            raise NotFaithful("x and y lengths")
        element = {"label": _label(line), "points": _points(xs, ys), "color": _hex(line.get_color()),
                   "mode": mode}
        element.update(errors.get(id(line), {}))
        if y_axis:
            element["y_axis"] = y_axis
        any_line = any_line or mode != "markers"
        elements.append(element)
    for collection in ax.collections:
        if id(collection) in accounted:
            continue
        if type(collection) is not mcoll.PathCollection:
            raise NotFaithful(type(collection).__name__)
        if collection.get_offset_transform() != ax.transData:
            raise NotFaithful("scatter not in data coordinates")
        # One colour and one size: a colour map or bubble sizes cannot be shown as one series.
        faces = collection.get_facecolors()
        if collection.get_array() is not None or len({tuple(c) for c in faces}) > 1:
            raise NotFaithful("scatter colours")
        if len(set(float(s) for s in collection.get_sizes())) > 1:
            raise NotFaithful("scatter sizes")
        offsets = collection.get_offsets()
        budget.spend(len(offsets))
        xs = _x_values(offsets[:, 0] if len(offsets) else [], x_kind, x_names)
        ys = _nums(offsets[:, 1] if len(offsets) else [])
        color = faces[0] if len(faces) else (collection.get_edgecolors()[0]
                                              if len(collection.get_edgecolors()) else None)
        element = {"label": _label(collection), "points": _points(xs, ys),
                   "color": _hex(color) if color is not None else None, "mode": "markers"}
        if y_axis:
            element["y_axis"] = y_axis
        elements.append(element)
        accounted.add(id(collection))
    return elements, any_line, x_kind, y_kind


def _bar_category(center, kind, names, ticks):
    if kind == "categorical":
        i = int(round(center))
        if abs(i - center) > 0.5 or i < 0 or i >= len(names):
            raise NotFaithful("bar category")
        return names[i], float(i)
    if ticks:
        # Grouped bars: each bar belongs to the labelled tick nearest its centre.
        position, label = min(ticks, key=lambda t: abs(t[0] - center))
        return label, position
    return ("%.4g" % center), center


def _bar_axes(ax, budget, accounted, title_fallback):
    from matplotlib.container import BarContainer, ErrorbarContainer
    bar_containers = [c for c in ax.containers if isinstance(c, BarContainer)]
    orientations = {getattr(c, "orientation", None) or "vertical" for c in bar_containers}
    if len(orientations) != 1:
        raise NotFaithful("mixed bar orientations")
    horizontal = orientations.pop() == "horizontal"
    cat_axis = "y" if horizontal else "x"
    val_axis = "x" if horizontal else "y"
    cat_kind, cat_names = _axis_info(ax, cat_axis)
    val_kind, _ = _axis_info(ax, val_axis)
    if val_kind in ("categorical", "datetime") or cat_kind in ("log", "symlog"):
        raise NotFaithful("bar axes")
    axis = ax.yaxis if horizontal else ax.xaxis
    ticks = []
    if cat_kind != "categorical":
        for loc, text in zip(axis.get_majorticklocs(), axis.get_majorticklabels()):
            if text.get_text():
                ticks.append((float(loc), text.get_text().replace("\u2212", "-")))
    # Ticks only name bars when they were set for them (FixedFormatter/FixedLocator), not the
    # default numeric ticks of bars placed at plain numbers.
    from matplotlib.ticker import FixedFormatter, FixedLocator
    if not isinstance(axis.get_major_formatter(), FixedFormatter) and not isinstance(axis.get_major_locator(), FixedLocator):
        ticks = []
    elif cat_kind == "datetime":
        ticks = []
    # A line along the value axis' zero (pandas' bar plots draw one) is the bars' own baseline.
    for line in ax.lines:
        along = line.get_ydata(orig=False) if not horizontal else line.get_xdata(orig=False)
        try:
            at_zero = len(along) > 0 and all(float(v) == 0 for v in along)
        except (TypeError, ValueError):
            at_zero = False
        if at_zero and line.get_transform() != ax.transData:
            accounted.add(id(line))
    elements = []
    seen = set()
    offsets = set()
    stacked = False
    tops = {}  # category position -> list of bar ends (for stacking)
    for n, container in enumerate(bar_containers):
        group = _label(container) or ""
        if not group and len(bar_containers) > 1:
            group = "Series %d" % (n + 1)
        errors = None
        if container.errorbar is not None:
            err = container.errorbar
            errors = err
            for cap in err.lines[1]:
                accounted.add(id(cap))
            for col in err.lines[2]:
                accounted.add(id(col))
            if err.lines[0] is not None:
                accounted.add(id(err.lines[0]))
            for other in ax.containers:
                if other is err:
                    accounted.add(id(other))
        centers_for_errors = []
        budget.spend(len(container.patches))
        for rect in container.patches:
            accounted.add(id(rect))
            if horizontal:
                center, base, size, thick = rect.get_y() + rect.get_height() / 2, rect.get_x(), rect.get_width(), rect.get_height()
            else:
                center, base, size, thick = rect.get_x() + rect.get_width() / 2, rect.get_y(), rect.get_height(), rect.get_width()
            if cat_kind == "datetime":
                import matplotlib.dates as mdates
                label = mdates.num2date(center).strftime("%Y-%m-%d %H:%M:%S").replace(" 00:00:00", "")
                position = center
            else:
                label, position = _bar_category(center, cat_kind, cat_names, ticks)
            offsets.add(round(center - position, 9))
            if (label, group) in seen:
                raise NotFaithful("two bars of one group in one category")
            seen.add((label, group))
            ends = tops.setdefault(label, [])
            if base != 0:
                if not any(abs(e - base) <= 1e-9 * max(1.0, abs(base)) for e in ends):
                    raise NotFaithful("bar base")
                stacked = True
            ends.append(base + size)
            value = _num(size)
            element = {"label": label, "group": group, "value": value,
                       "color": _hex(rect.get_facecolor())}
            elements.append(element)
            centers_for_errors.append((element, base + size))
        if errors is not None:
            cols = list(errors.lines[2])
            if len(cols) != 1:
                raise NotFaithful("bar error bars")
            extents = _errorbar_extents(cols[0], [c for _, c in centers_for_errors], not horizontal)
            for (element, _), extent in zip(centers_for_errors, extents):
                element["error"] = extent
    if stacked and len(offsets) > 1:
        raise NotFaithful("stacked and grouped")
    mode = "stacked" if stacked or len(bar_containers) == 1 else "grouped"
    if not stacked and len(bar_containers) > 1 and len(offsets) == 1:
        raise NotFaithful("overlapping bars")  # drawn over each other: neither stacked nor grouped
    chart = {"type": "bar", "orientation": "horizontal" if horizontal else "vertical", "bar_mode": mode}
    x_kind = val_kind if horizontal else ("categorical")
    y_kind = "categorical" if horizontal else val_kind
    _common(ax, chart, x_kind, y_kind, title_fallback)
    if horizontal:
        chart.pop("y_lim", None)
    else:
        chart.pop("x_lim", None)
    chart["elements"] = elements
    return chart


def _pie_axes(ax, budget, accounted, title_fallback):
    import matplotlib.patches as mpatches
    wedges = [p for p in ax.patches if isinstance(p, mpatches.Wedge)]
    budget.spend(len(wedges))
    elements = []
    for w in wedges:
        accounted.add(id(w))
        if w.width is not None:
            raise NotFaithful("donut")  # a ring
        elements.append({"label": _label(w) or "", "angle": round(w.theta2 - w.theta1, 4),
                         "radius": _num(w.r), "color": _hex(w.get_facecolor())})
    # Pie labels and percentages are texts of the axes: they are what the slices show.
    for t in ax.texts:
        accounted.add(id(t))
    chart = {"type": "pie", "title": ax.get_title() or title_fallback or "", "elements": elements}
    return chart


def _box_axes(ax, budget, accounted, title_fallback):
    records = getattr(ax, "_sandpad_boxes", [])
    elements = []
    positions = []
    for record in records:
        if not record["vert"]:
            raise NotFaithful("horizontal box plot")
        if record["artists"].get("means"):
            raise NotFaithful("box plot means")  # the chart has no mark for them
        for artists in record["artists"].values():
            for a in artists:
                accounted.add(id(a))
        stats = record["stats"]
        where = record["positions"] if record["positions"] is not None else range(1, len(stats) + 1)
        for s, pos in zip(stats, where):
            fliers = _nums(s.get("fliers", []))
            budget.spend(5 + len(fliers))
            elements.append({"label": str(s.get("label", "")) if s.get("label") is not None else "",
                             "min": _num(s["whislo"]), "first_quartile": _num(s["q1"]),
                             "median": _num(s["med"]), "third_quartile": _num(s["q3"]),
                             "max": _num(s["whishi"]), "outliers": [f for f in fliers if f is not None]})
            positions.append(float(pos))
    # Labels: those given, else the tick labels at the boxes' positions.
    ticks = dict(zip([float(t) for t in ax.xaxis.get_majorticklocs()],
                     [t.get_text() for t in ax.xaxis.get_majorticklabels()]))
    for element, pos in zip(elements, positions):
        if not element["label"]:
            element["label"] = ticks.get(pos, "%g" % pos)
    chart = {"type": "box_and_whisker", "title": ax.get_title() or title_fallback or "",
             "x_label": ax.get_xlabel() or None, "y_label": ax.get_ylabel() or None,
             "y_scale": _scale(ax, "y"), "elements": elements}
    return chart


def _axes_chart(ax, budget, title_fallback=None, twin=None):
    """The chart of one axes (and its twin, if any), or NotFaithful."""
    import matplotlib.patches as mpatches
    from matplotlib.container import BarContainer
    if ax.name != "rectilinear":
        raise NotFaithful("projection " + ax.name)
    if ax.images or ax.tables or getattr(ax, "artists", []):
        raise NotFaithful("images or tables")
    accounted = set()
    if getattr(ax, "_sandpad_boxes", None):
        chart = _box_axes(ax, budget, accounted, title_fallback)
        kind = "box"
    elif any(isinstance(p, mpatches.Wedge) for p in ax.patches):
        chart = _pie_axes(ax, budget, accounted, title_fallback)
        kind = "pie"
    elif any(isinstance(c, BarContainer) for c in ax.containers):
        chart = _bar_axes(ax, budget, accounted, title_fallback)
        kind = "bar"
    else:
        elements, any_line, x_kind, y_kind = _xy_axes(ax, budget, accounted)
        chart = {"type": "line" if any_line else "scatter"}
        _common(ax, chart, x_kind, y_kind, title_fallback)
        if twin is not None:
            twin_accounted = set()
            more, twin_line, tx_kind, ty_kind = _xy_axes(twin, budget, twin_accounted, "right")
            if tx_kind != x_kind:
                raise NotFaithful("twin axes of different kinds")
            _check_children(twin, twin_accounted)
            elements += more
            any_line = any_line or twin_line
            chart["type"] = "line" if any_line else "scatter"
            chart["y2_label"] = twin.get_ylabel() or None
            chart["y2_scale"] = ty_kind
            chart["y2_lim"] = _lim(twin, "y", ty_kind)
            if ty_kind == "symlog":
                chart["y2_linthresh"] = _num(getattr(twin.yaxis._scale, "linthresh", 1.0))
        if not elements:
            raise NotFaithful("nothing drawn")
        chart["elements"] = elements
        kind = "xy"
    _check_children(ax, accounted)
    if twin is not None and kind != "xy":
        raise NotFaithful("twin axes with bars, pie or boxes")
    if not chart["elements"]:
        raise NotFaithful("nothing drawn")
    return chart


def _twin_of(ax, others):
    """The axes drawn over `ax` sharing its x axis (ax.twinx()), if any."""
    for other in others:
        if other is ax:
            continue
        if (ax.get_shared_x_axes().joined(ax, other)
                and tuple(other.get_position().bounds) == tuple(ax.get_position().bounds)):
            return other
    return None


def _visible_axes(figure):
    out = []
    for ax in figure.axes:
        if not ax.get_visible():
            continue
        if not ax.axison and not ax.has_data() and not ax.texts:
            continue  # an empty cell of a grid, turned off
        out.append(ax)
    return out


def _figure_title(figure):
    suptitle = getattr(figure, "_suptitle", None)
    return suptitle.get_text() if suptitle is not None else None


def figure_chart(figure):
    """The interactive chart of a matplotlib figure, or None (stays a PNG only)."""
    try:
        return _figure_chart(figure)
    except Exception:  # NotFaithful, or an artist we do not know behaving unexpectedly
        return None


def why_not(figure):
    """Why a figure stays PNG only (tests, debugging); None when it would be extracted."""
    try:
        _figure_chart(figure)
    except Exception as exc:
        return "%s: %s" % (type(exc).__name__, exc)
    return None


def _figure_chart(figure):
    if getattr(figure, "subfigs", None):
        raise NotFaithful("subfigures")
    if figure.images or figure.patches or figure.lines or getattr(figure, "artists", []):
        raise NotFaithful("figure-level artists")
    own = {id(getattr(figure, name, None)) for name in ("_suptitle", "_supxlabel", "_supylabel")}
    if any(t.get_text() and id(t) not in own for t in figure.texts):
        raise NotFaithful("figure texts")
    axes = _visible_axes(figure)
    if not axes:
        raise NotFaithful("no axes")
    budget = _Budget()
    suptitle = _figure_title(figure)
    twins = set()
    pairs = []
    for ax in axes:
        if id(ax) in twins:
            continue
        twin = _twin_of(ax, axes)
        if twin is not None:
            twins.add(id(twin))
        pairs.append((ax, twin))
    if len(pairs) == 1:
        ax, twin = pairs[0]
        return _axes_chart(ax, budget, suptitle, twin)
    # Several axes: one composite chart, each laid out in its grid cell.
    elements = []
    rows = columns = None
    for ax, twin in pairs:
        spec = ax.get_subplotspec() if hasattr(ax, "get_subplotspec") else None
        if spec is None:
            raise NotFaithful("axes outside a grid")
        grid = spec.get_gridspec()
        if rows is None:
            rows, columns = grid.nrows, grid.ncols
        elif (rows, columns) != (grid.nrows, grid.ncols):
            raise NotFaithful("nested grids")
        chart = _axes_chart(ax, budget, None, twin)
        r, c = spec.rowspan, spec.colspan
        chart["layout"] = {"row": r.start, "column": c.start, "row_span": r.stop - r.start,
                           "column_span": c.stop - c.start}
        elements.append(chart)
    return {"type": "composite_chart", "title": suptitle or "", "rows": rows, "columns": columns,
            "elements": elements}


# ---------------------------------------------------------------------------------------------
# plotly: a figure's traces as a chart, without a browser or kaleido.

class PlotlyUnsupported(Exception):
    pass


def is_plotly_figure(value):
    cls = type(value)
    return cls.__name__ == "Figure" and (cls.__module__ or "").startswith("plotly.")


def _plotly_text(value):
    if value is None:
        return None
    text = getattr(value, "text", value)
    return text if isinstance(text, str) else None


def plotly_chart(figure):
    """(chart, None) or (None, a note saying why not)."""
    try:
        return _plotly_chart(figure), None
    except PlotlyUnsupported as exc:
        return None, "This plotly figure is not shown: %s" % exc


def _plotly_axis(layout, which):
    axis = layout[which + "axis"]
    kind = axis.type if axis.type not in (None, "-") else None
    title = _plotly_text(axis.title)
    return kind, title


def _plotly_values(values):
    import numpy as np
    if values is None:
        return None
    arr = np.asarray(values)
    if arr.dtype.kind in "iufb":
        return _nums(arr.astype(float))
    if arr.dtype.kind == "M":
        return [None if v == "NaT" else v for v in arr.astype("datetime64[ms]").astype(str).tolist()]
    out = []
    for v in arr.tolist():
        if hasattr(v, "isoformat"):
            out.append(v.isoformat())
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(_num(v))
        else:
            out.append(None if v is None else str(v))
    return out


def _plotly_color(trace):
    marker = getattr(trace, "marker", None)
    color = getattr(marker, "color", None) if marker is not None else None
    if isinstance(color, str):
        return color if color.startswith("#") else _hex(color) if _hex_ok(color) else None
    return None


def _hex_ok(color):
    try:
        from matplotlib.colors import to_hex
        to_hex(color)
        return True
    except Exception:
        return False


def _plotly_chart(figure):
    layout = figure.layout
    traces = list(figure.data)
    if not traces:
        raise PlotlyUnsupported("it has no traces")
    kinds = {t.type for t in traces}
    unsupported = kinds - {"scatter", "scattergl", "bar", "pie", "box"}
    if unsupported:
        raise PlotlyUnsupported("trace type %s is not supported (scatter, bar, pie and box are)"
                                % ", ".join(sorted(unsupported)))
    if len(kinds - {"scattergl"} | ({"scatter"} if "scattergl" in kinds else set())) > 1:
        raise PlotlyUnsupported("it mixes trace types %s" % ", ".join(sorted(kinds)))
    kind = traces[0].type
    title = _plotly_text(layout.title) or ""
    x_type, x_title = _plotly_axis(layout, "x")
    y_type, y_title = _plotly_axis(layout, "y")
    budget = _Budget()
    if kind in ("scatter", "scattergl"):
        elements = []
        any_line = False
        datetime_x = x_type == "date"
        for n, t in enumerate(traces):
            ys = _plotly_values(t.y)
            xs = _plotly_values(t.x) if t.x is not None else list(range(len(ys or [])))
            if ys is None:
                raise PlotlyUnsupported("a scatter trace has no y values")
            if any(isinstance(v, str) for v in ys if v is not None):
                raise PlotlyUnsupported("y values must be numbers")
            budget.spend(len(ys))
            mode = t.mode or ("lines" if len(ys) > 20 else "lines+markers")
            if "lines" in mode:
                any_line = True
            if xs and all(isinstance(v, str) for v in xs if v is not None) and x_type != "category":
                import re
                if all(re.match(r"^\d{4}-\d\d-\d\d", v) for v in xs if v is not None):
                    datetime_x = True
            elements.append({"label": t.name or "Series %d" % (n + 1), "points": _points(xs, ys),
                             "color": _plotly_color(t), "mode": mode.replace("text", "").strip("+") or "markers"})
        chart = {"type": "line" if any_line else "scatter", "title": title, "x_label": x_title,
                 "y_label": y_title, "x_scale": "datetime" if datetime_x else ("log" if x_type == "log" else None),
                 "y_scale": "log" if y_type == "log" else "linear", "elements": elements}
        if chart["x_scale"] is None:
            chart.pop("x_scale")
        return chart
    if kind == "bar":
        horizontal = traces[0].orientation == "h"
        elements = []
        for n, t in enumerate(traces):
            cats = _plotly_values(t.y if horizontal else t.x)
            vals = _plotly_values(t.x if horizontal else t.y)
            if vals is None:
                raise PlotlyUnsupported("a bar trace has no values")
            if cats is None:
                cats = list(range(len(vals)))
            budget.spend(len(vals))
            group = t.name or ("Series %d" % (n + 1) if len(traces) > 1 else "")
            for c, v in zip(cats, vals):
                elements.append({"label": "%g" % c if isinstance(c, float) else str(c), "group": group,
                                 "value": v, "color": _plotly_color(t)})
        mode = "stacked" if layout.barmode in ("stack", "relative") else "grouped"
        chart = {"type": "bar", "title": title, "x_label": x_title, "y_label": y_title,
                 "orientation": "horizontal" if horizontal else "vertical", "bar_mode": mode,
                 "elements": elements}
        return chart
    if kind == "pie":
        if len(traces) != 1:
            raise PlotlyUnsupported("it has several pie traces")
        t = traces[0]
        values = _plotly_values(t["values"]) if t["values"] is not None else None
        labels = _plotly_values(t.labels) or []
        if values is None:
            values = [1.0] * len(labels)
        budget.spend(len(values))
        total = sum(v for v in values if v) or 1.0
        return {"type": "pie", "title": title,
                "elements": [{"label": str(l), "angle": 360.0 * (v or 0) / total, "radius": 1.0}
                             for l, v in zip(labels, values)]}
    # box: the statistics plotly would compute (linear quartiles, 1.5 IQR whiskers).
    import numpy as np
    elements = []
    for n, t in enumerate(traces):
        if t.q1 is not None or t.median is not None:
            raise PlotlyUnsupported("box traces with precomputed statistics are not supported")
        ys = _plotly_values(t.y if t.y is not None else t.x)
        if ys is None:
            raise PlotlyUnsupported("a box trace has no values")
        data = np.array([v for v in ys if v is not None], dtype=float)
        if not len(data):
            continue
        budget.spend(len(data) + 5)
        groups = [(t.name or "Box %d" % (n + 1), data)]
        for label, d in groups:
            q1, med, q3 = np.percentile(d, [25, 50, 75])
            iqr = q3 - q1
            inside = d[(d >= q1 - 1.5 * iqr) & (d <= q3 + 1.5 * iqr)]
            lo, hi = float(inside.min()), float(inside.max())
            elements.append({"label": label, "min": lo, "first_quartile": float(q1), "median": float(med),
                             "third_quartile": float(q3), "max": hi,
                             "outliers": [float(v) for v in d if v < lo or v > hi]})
    return {"type": "box_and_whisker", "title": title, "x_label": x_title, "y_label": y_title,
            "elements": elements}
