# Sandpad's Python notebook session (docs/runtime-protocol.md, "Sessions").
#
# A pre-started wrapper (`wrapper.py --warm`) that is sent the job `--session` compiles this file and
# calls serve(): from then on one interpreter runs execution after execution in one `__main__`
# namespace that persists. Each execution has the wrapper's semantics (result/results, every open
# figure, the chart dict, errors with the editor's line numbers, `!pip install`), plus Jupyter's
# Out[n]: a bare last expression's repr is the result unless this execution set result/results.
# The wrapper's own pieces are used through `W` (the wrapper module), never copied.

import builtins
import contextlib
import os
import signal
import sys
import types

W = None  # the wrapper module, set by serve()

_MISSING = object()
# Where an execution is: 0 between executions, 1 preparing it, 2 in the user's code.
_phase = 0
_interrupt_pending = False
_executions = 0  # started so far (an assist fetch's completions are kept for one namespace state)


def _on_sigint(signum, frame):
    # The host interrupts an execution with SIGINT: in the user's code it is KeyboardInterrupt;
    # while the execution is being prepared it waits for the code; between executions (a late one)
    # it means nothing.
    global _interrupt_pending
    if _phase == 2:
        raise KeyboardInterrupt
    if _phase == 1:
        _interrupt_pending = True


def _split_last_expression(source, title):
    """(body code, last expression code or None), both compiled with the editor's line numbers."""
    import ast
    tree = ast.parse(source, title, "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    body = compile(tree, title, "exec", dont_inherit=True)
    return body, (compile(last, title, "eval", dont_inherit=True) if last is not None else None)


def _bound_now(namespace, before):
    # A name counts as set by this execution when it was bound (or rebound to another object) in
    # it: a `chart` or `result` of an earlier cell is not shown again by every later one.
    return {name: namespace[name] for name in ("result", "results", "chart")
            if name in namespace and namespace[name] is not before.get(name, _MISSING)}


def _execute(namespace, manifest_path, channel):
    global _phase, _interrupt_pending, _executions
    _executions += 1
    _phase = 1
    with open(manifest_path, "rb") as f:
        manifest = W._json_loads(f.read().decode("utf-8"))
    code_path = manifest["code_path"]
    title = manifest.get("title") or os.path.basename(code_path)
    channel.emit("started", b"")
    files_before = W._files_before(manifest)
    with open(code_path, "rb") as f:
        source = f.read().decode("utf-8", errors="replace")
    lines = source.splitlines(True)
    linecache = sys.modules.get("linecache")
    if linecache is None:
        import linecache
    linecache.cache[title] = (len(source), None, lines, title)  # mtime None: never invalidated
    namespace["__loader__"] = W._SourceLoader(source)
    sys.argv = [title]
    before = {name: namespace.get(name, _MISSING) for name in ("result", "results", "chart")}
    if _RICH is not None:
        _RICH.begin()  # this execution's outputs, its stdout counted from here
    error = None
    shown = None
    packages = manifest.get("packages") or []
    if packages:
        target = manifest.get("pip_target") or W._PIP_TARGET
        if target in sys.path:  # a second install into the session: the path is there already
            sys.path.remove(target)
        error = W._COLD._pip_install(packages, manifest.get("pip_args") or [], target)
    if error is None:
        try:
            _phase = 2
            if _interrupt_pending:
                raise KeyboardInterrupt
            body, last = _split_last_expression(source, title)
            exec(body, namespace)
            if last is not None:
                value = eval(last, namespace)
                if value is not None:
                    namespace["_"] = value
                    shown = value
        except SystemExit as exc:
            if exc.code not in (None, 0):
                error = W._COLD._describe_error(exc, title, source)
        except BaseException as exc:  # KeyboardInterrupt included: the execution still reports
            error = W._COLD._describe_error(exc, title, source)
        finally:
            _phase = 0
            _interrupt_pending = False
            if sys.modules.get("__main__") is not _MODULE:
                sys.modules["__main__"] = _MODULE

    _phase = 0
    _interrupt_pending = False
    charts = W._COLD._save_figures(channel.emit) if W._has_figures() else []
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        try:
            pyplot.close("all")  # as Jupyter's inline backend: a figure is shown by the cell that drew it
        except Exception:
            pass
    bound = _bound_now(namespace, before)
    chart_error = None
    chart = bound.get("chart")
    if isinstance(chart, dict):
        text, chart_error = W._COLD._chart_json(chart)
        if text is not None:
            charts.append({"kind": "interactive", "spec": W._RawJSON(text)})
    result = W._result_text(bound)
    outputs = []
    if _RICH is not None:  # rich forms (a DataFrame, sympy...): of `result`, else of Out[n]
        if "result" in bound:
            _RICH.result_output(bound["result"])
        elif result is None and shown is not None and error is None and _RICH.result_output(shown):
            shown = None  # shown as a table, math, ...: not also as its repr
        outputs, shown_charts = _RICH.finish()
        charts += shown_charts
    if result is None and shown is not None and error is None:
        try:
            result = repr(shown)
        except Exception as exc:
            result = "<repr() failed: %s: %s>" % (type(exc).__name__, exc)
    W._emit_variables(channel, namespace)  # read by the session's host (SessionLease::collect)
    files = W._files_after(manifest, channel, namespace, files_before)
    W._flush_streams()
    W._emit_result(channel, error, result, charts, chart_error, files, outputs)


@contextlib.contextmanager
def _interruptible():
    # The host's SIGINT is KeyboardInterrupt in here (as in the user's code); one that came while
    # the fetch was being read (phase 1) is raised on entry: a completion giving way to a cell
    # is stopped at once, even before it began.
    global _phase, _interrupt_pending
    _phase = 2
    try:
        if _interrupt_pending:
            _interrupt_pending = False
            raise KeyboardInterrupt
        yield
    finally:
        _phase = 0


def _fetch(namespace, request_text, channel):
    """A job between executions: a window of a table variable (variables.table), or, for a request
    {"assist": {...}}, completions, calltips or help from the live namespace (session_complete.py),
    written as `fetch.json` on the result channel. The user's code it may reach (a subclass's
    __getitem__, an object column's __repr__) is interruptible like an execution: the host's
    deadline is SIGINT."""
    global _phase, _interrupt_pending
    _phase = 1
    try:
        request = W._json_loads(request_text)
        if not isinstance(request, dict):
            raise ValueError("the request is not a JSON object")
        name = "session_complete.py" if "assist" in request else "variables.py"
        module = W._support_module(name)
        if module is None:
            raise RuntimeError("%s is missing from this build" % name)
        if name == "session_complete.py":
            answer = module.answer(W, namespace, request["assist"], _interruptible, _executions)
        else:
            with _interruptible():
                answer = module.table(namespace, request)
    except KeyboardInterrupt:
        answer = {"error": "the fetch was stopped at its deadline (the value's own code took too long)"}
    except BaseException as exc:
        answer = {"error": "%s: %s" % (type(exc).__name__, str(exc)[:500])}
    _phase = 0
    _interrupt_pending = False
    W._flush_streams()
    try:
        data = W._dumps(answer).encode("utf-8")
    except Exception as exc:
        data = W._dumps({"error": "the answer could not be written: %s" % exc}).encode("utf-8")
    channel.emit("fetch.json", data)


def _apply_limits(fields):
    # Limits the host could not set itself (docs/local-sandbox.md): the soft CPU limit only moves
    # up to the hard one, so the session can raise it again for the next execution.
    if len(fields) != 4:
        return
    import resource
    resource.setrlimit(resource.RLIMIT_CPU, (int(fields[1]), int(fields[2])))
    if fields[3] != "-":
        resource.setrlimit(resource.RLIMIT_AS, (int(fields[3]), int(fields[3])))


def _answer(job_fd, line):
    while True:
        try:
            os.write(job_fd, line)
            return
        except KeyboardInterrupt:  # a late interrupt
            continue


_MODULE = None
_RICH = None  # rich_display.Display: display() and rich results


def serve(wrapper, job_fd):
    """Runs executions until the host closes the job socket. Each: the job (files, then a line
    `<manifest path>[\\t<cpu soft>\\t<cpu hard>\\t<as|->]`), its frames on the result channel, then
    `done <n>` on the job socket."""
    global W, _MODULE, _RICH
    W = wrapper
    result_fd = W._take_result_fd()
    work = os.path.dirname(os.path.abspath(W.__file__))  # /sandpad, or a remote session's work dir
    channel = W._Channel(result_fd, os.path.join(work, "out"))
    module = types.ModuleType("__main__")
    namespace = module.__dict__
    namespace["__builtins__"] = builtins
    namespace["__file__"] = os.path.join(work, "main.py")
    _MODULE = module
    sys.modules["__main__"] = module
    W._utf8_streams()
    _RICH = W._rich_display(channel.emit)
    # Completion's module, before any cell: what it keeps of the interpreter is the interpreter's
    # own, not a cell's replacement (session_complete.py, its guard).
    complete = W._support_module("session_complete.py")
    if complete is not None:
        try:
            complete.preload(W)
        except Exception:
            pass
    flusher = W._Flusher()
    flusher.start()
    signal.signal(signal.SIGINT, _on_sigint)
    os.write(job_fd, b"ready\n")
    count = 0
    while True:
        try:
            line = W._read_job(job_fd)
        except KeyboardInterrupt:  # a late interrupt, between executions
            continue
        fields = line.decode("utf-8").rstrip("\n").split("\t")
        if not fields[0].strip():
            break  # EOF: the host ended the session
        if fields[0] == "--fetch":  # not an execution: not counted, answered "fetched"
            # A trace or profile function a cell set would see every call of the fetch (and of a
            # completion, which must not run the user's code): set aside here, inline, put back after.
            trace, profile = sys.gettrace(), sys.getprofile()
            if profile is not None:
                sys.setprofile(None)
            if trace is not None:
                sys.settrace(None)
            try:
                _fetch(namespace, fields[1] if len(fields) > 1 else "", channel)
            except KeyboardInterrupt:
                pass
            if trace is not None:
                sys.settrace(trace)
            if profile is not None:
                sys.setprofile(profile)
            _answer(job_fd, b"fetched\n")
            continue
        count += 1
        try:
            _apply_limits(fields)
            _execute(namespace, fields[0].strip(), channel)
        except KeyboardInterrupt:
            pass  # after the user's code: its result has gone or the host notices its absence
        except BaseException as exc:  # the session's own failure: said on stderr, the host sees no result
            sys.stderr.write("Sandpad session failed: %s: %s\n" % (type(exc).__name__, exc))
        W._flush_streams()
        _answer(job_fd, b"done %d\n" % count)
    flusher.stop()
    os.close(job_fd)
