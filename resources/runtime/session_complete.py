# Completion, calltips and help from a Python notebook session's live namespace
# (docs/runtime-protocol.md, "Sessions": the assist fetch). Placed beside the wrapper like
# variables.py, loaded by session.py when the session starts (before any cell: the functions it
# keeps are the interpreter's own, not ones a cell replaced) and asked for a fetch whose request is
# {"assist": {...}} (the request and answer of jedi_answers.py). jedi.Interpreter sees the
# session's `__main__` namespace, so names and objects made by earlier cells complete with what
# they are now.
#
# It must not run the user's code (docs/threat-model.md, "Completion in a session"). Jedi reads
# live objects in many ways (dir(), getattr(), isinstance() - which reads a `__class__` property -,
# repr() of a signature's defaults, inspect.signature's `__signature__` and `__wrapped__`, a dict's
# keys compared on lookup, getdoc's `__doc__`), and an object can claim anything about itself: its
# `__module__`, its `__class__`, a method's co_filename. So nothing here asks an object what it is:
#
# - The guard: the whole answer (our filter, Jedi, the warm-up) runs under a trace function that
#   sees every Python frame before its first instruction. A frame runs only when its code is
#   verified: the code object is equal, instruction for instruction, to code compiled from the
#   file of the module whose namespace (f_globals, which the frame cannot choose) it runs in, and
#   that module's file lies in the installed Python's read-only directories (the system's
#   stdlib and dist-packages, not the pip target nor the work dir), or the frame is this
#   runtime's own. Anything else - a cell's function, a work dir module, a `!pip install`ed
#   package, code compiled with a made-up co_filename, a `<string>` - stops the answer with
#   _UserCode before it runs ({"ok": false}: the editor shows the service's names). The trace
#   also bounds the answer's CPU time. While it runs, the user's trace and profile functions, the
#   collector (its callbacks and finalizers) and the user's signal handlers are set aside.
# - The filter: values whose class, a base or the metaclass has a special method Jedi reaches
#   (__getattr__, __dir__, a __class__ or __dict__ property...) that is not verified library code
#   are left out of the namespace Jedi sees beforehand (they complete from the buffer's text), so
#   that a user's class costs its own names, not the whole answer. Decided with type() and the
#   classes' own __dict__ (read through type's descriptors), never an attribute of the value.
#
# What this cannot stop: a cell that rewrites the interpreter itself (this module's globals, a
# library's module or functions, sys.modules, builtins, memory through ctypes) can make anything
# run here; the interpreter is the cell's. Nor an audit hook a cell added (PEP 578): CPython calls
# it, untraced, for every audited operation of any code, completion's included (reading a frame's
# f_code, opening a library file), and it cannot be removed. Such code is then bounded like any
# completion (the guard's CPU budget, the host's deadline, the sandbox's limits). Jedi's parse caches stay in
# memory (nothing is written to the session's disk).

import contextlib
import gc
import io
import marshal
import os
import re
import signal
import sys
import time
import tokenize
import types
import warnings

# Kept when this module is loaded (at the session's start): a cell may later replace the names.
_type = ().__class__.__class__
_dict = {}.__class__
_str = "".__class__
_int = (0).__class__
_tuple = ().__class__
_CodeType = types.CodeType
_FunctionType = types.FunctionType
_ModuleType = types.ModuleType
_mro_of = _type.__dict__["__mro__"].__get__
_dict_of = _type.__dict__["__dict__"].__get__
_module_dict = _ModuleType.__dict__["__dict__"].__get__
_func_code = _FunctionType.__dict__["__code__"].__get__
_func_globals = _FunctionType.__dict__["__globals__"].__get__
_dict_get = _dict.get
_ident = object.__hash__  # identity as a number: id() raises an audit event, this does not
_func_attributes = _FunctionType.__dict__["__dict__"].__get__
_dict_values = _dict.values
_dict_items = _dict.items
_SYS_MODULES = sys.modules
_settrace, _gettrace, _setprofile, _getprofile = sys.settrace, sys.gettrace, sys.setprofile, sys.getprofile
_thread_time = time.thread_time
_realpath, _stat, _isfile = os.path.realpath, os.stat, os.path.isfile
_loads = marshal.loads
_gc_enable, _gc_disable, _gc_isenabled = gc.enable, gc.disable, gc.isenabled
_getsignal, _signal = signal.getsignal, signal.signal
_SIGNALS = tuple(s for s in signal.valid_signals() if s not in (signal.SIGINT, signal.SIGKILL, signal.SIGSTOP))
try:
    import _imp
    _is_frozen, _frozen_object = _imp.is_frozen, _imp.get_frozen_object
except Exception:  # pragma: no cover - CPython has it
    _is_frozen = _frozen_object = None
try:
    _MAGIC = sys.modules["_frozen_importlib_external"].MAGIC_NUMBER
    _cache_from_source = sys.modules["_frozen_importlib_external"].cache_from_source
except Exception:  # pragma: no cover
    _MAGIC = _cache_from_source = None


class _UserCode(BaseException):
    """A frame whose code is not verified began while answering: the answer is dropped. A
    BaseException: Jedi's `except Exception` does not swallow it."""


def _library_roots(wrapper):
    """The installed Python's directories (stdlib, the system's dist-packages), which the sandbox
    binds read-only. What `!pip install` put in the session (its target, writable) and the work
    dir are not among them: their code is the user's."""
    import site
    import sysconfig
    candidates = set()
    for prefix in {sys.base_prefix, sys.prefix}:
        try:
            paths = sysconfig.get_paths(vars={"base": prefix, "platbase": prefix})
            candidates.update(paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib"))
        except Exception:
            pass
    try:
        candidates.update(site.getsitepackages())
    except Exception:
        pass
    excluded = [getattr(wrapper, "_PIP_TARGET", None), os.getcwd()]
    try:
        excluded.append(site.getusersitepackages())
    except Exception:
        pass
    excluded = tuple(_realpath(e).rstrip("/") + "/" for e in excluded if isinstance(e, str) and e.startswith("/"))
    prefixes = tuple(_realpath(p).rstrip("/") + "/" for p in {sys.base_prefix, sys.prefix})
    roots = set()
    for c in candidates:
        if not isinstance(c, str) or not c.startswith("/"):
            continue
        real = _realpath(c).rstrip("/") + "/"
        if real.startswith(prefixes) and not real.startswith(excluded) and not any(e.startswith(real) for e in excluded):
            roots.add(real)
    return tuple(sorted(roots))


class _Guard:
    """The trace function's state (module-level, one answer at a time)."""
    roots = ()
    own = {}            # identity of globals -> globals: this runtime's modules (session.py, the wrapper, these)
    verdicts = {}       # _ident(code) -> (code, globals, verified)
    modules = {}        # id(module globals) -> (globals, sources): modules of the roots, and frozen ones
    modules_seen = -1   # len(sys.modules) when `modules` was made
    files = {}          # source key -> {(first line, qualname): [code objects]}
    real = {}           # a module's __file__ -> its real path under a root, or None
    tripped = None      # what stopped the answer
    cpu_end = 0.0       # this thread's CPU time at which the answer is stopped
    held = []           # signals that came during the answer, raised again after it
    handlers = []       # the user's handlers set aside meanwhile
    calls = 0


def _own(*spaces):
    for space in spaces:
        if _type(space) is _dict:
            _Guard.own[_ident(space)] = space


def _scan_modules():
    """The modules whose code may run: id of their namespace -> where their code comes from. Read
    with C-level dict iteration and the module type's own __dict__ descriptor (no attribute of a
    module object)."""
    _Guard.modules_seen = len(_SYS_MODULES)
    for key, module in list(_dict_items(_SYS_MODULES)):
        if _type(module) is not _ModuleType or _type(key) is not _str:
            continue
        space = _module_dict(module)
        if _ident(space) in _Guard.modules:
            continue
        sources = []
        if _is_frozen is not None and _is_frozen(key):
            sources.append(("frozen", key))
        path = _dict_get(space, "__file__")
        if _type(path) is _str and path.endswith(".py"):
            real = _Guard.real.get(path, False)
            if real is False:
                real = _realpath(path)
                real = real if real.startswith(_Guard.roots) and _isfile(real) else None
                _Guard.real[path] = real
            if real is not None:
                sources.append(("file", real))
        if sources:
            _Guard.modules[_ident(space)] = (space, tuple(sources))


def _index(code, into):
    into.setdefault((code.co_firstlineno, code.co_qualname), []).append(code)
    for const in code.co_consts:
        if _type(const) is _CodeType:
            _index(const, into)


def _codes(source):
    """{(first line, qualname): [code]} of a module's file as the import system compiled it: its
    bytecode cache when that matches the source (as the import system checks it), else the source
    compiled here. Files of the read-only roots only."""
    known = _Guard.files.get(source)
    if known is not None:
        return known
    known = {}
    top = None
    try:
        if source[0] == "frozen":
            top = _frozen_object(source[1])
        else:
            path = source[1]
            st = _stat(path)
            try:
                with open(_cache_from_source(path), "rb") as f:
                    data = f.read()
                flags = int.from_bytes(data[4:8], "little")
                if data[:4] == _MAGIC and flags == 0 \
                        and int.from_bytes(data[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF \
                        and int.from_bytes(data[12:16], "little") == st.st_size & 0xFFFFFFFF:
                    top = _loads(memoryview(data)[16:])
            except (OSError, ValueError, EOFError, TypeError):
                top = None
            if _type(top) is not _CodeType:
                with open(path, "rb") as f:
                    top = compile(f.read(), path, "exec", dont_inherit=True)
    except Exception:
        top = None
    if _type(top) is _CodeType:
        _index(top, known)
    _Guard.files[source] = known
    return known


_PLAIN = frozenset((_str, bytes, _int, float, complex, bool, type(None), type(...)))


def _same_const(a, b):
    if a is b:
        return True
    kind = _type(a)
    if kind is not _type(b):
        return False
    if kind is _CodeType:
        return _same_code(a, b)
    if kind is _tuple or kind is frozenset:
        if len(a) != len(b):
            return False
        if kind is frozenset:  # of plain values only (a constant `in {...}`)
            return all(_type(x) in _PLAIN for x in a) and all(_type(x) in _PLAIN for x in b) and a == b
        return all(_same_const(x, y) for x, y in zip(a, b))
    if kind is float or kind is complex:
        return repr(a) == repr(b)  # -0.0 and nan as the compiler keeps them
    return kind in _PLAIN and a == b


def _same_code(a, b):
    """Whether two code objects are the same code, compared field by field on exact types only (a
    code object's constants may be any object, whose __eq__ must not run)."""
    return (a.co_code == b.co_code and a.co_names == b.co_names and a.co_varnames == b.co_varnames
            and a.co_freevars == b.co_freevars and a.co_cellvars == b.co_cellvars
            and a.co_argcount == b.co_argcount and a.co_posonlyargcount == b.co_posonlyargcount
            and a.co_kwonlyargcount == b.co_kwonlyargcount and a.co_flags == b.co_flags
            and a.co_name == b.co_name and a.co_qualname == b.co_qualname
            and a.co_exceptiontable == b.co_exceptiontable
            and len(a.co_consts) == len(b.co_consts)
            and all(_same_const(x, y) for x, y in zip(a.co_consts, b.co_consts)))


def _tuple_template(space):
    """collections.namedtuple's generated __new__ runs in {"_tuple_new": tuple.__new__,
    "__builtins__": {}, "__name__": ...}: without builtins it can reach only tuple.__new__."""
    if _type(space) is not _dict or len(space) > 3:
        return False
    for key, value in list(_dict_items(space)):
        if _type(key) is not _str:
            return False
        if key == "_tuple_new":
            if value is not _tuple.__new__:
                return False
        elif key == "__builtins__":
            if _type(value) is not _dict or value:
                return False
        elif key != "__name__" or _type(value) is not _str:
            return False
    return True


def _judge(code, space):
    """Whether `code` running in the namespace `space` is verified (see the top of this file)."""
    ok = False
    if _dict_get(_Guard.own, _ident(space)) is space:
        ok = True
    elif _type(space) is _dict:
        module = _Guard.modules.get(_ident(space))
        if (module is None or module[0] is not space) and len(_SYS_MODULES) != _Guard.modules_seen:
            _scan_modules()
            module = _Guard.modules.get(_ident(space))
        if module is not None and module[0] is space:
            first, qualname = code.co_firstlineno, code.co_qualname
            if _type(first) is _int and _type(qualname) is _str:
                ok = any(_same_code(candidate, code)
                         for source in module[1] for candidate in _codes(source).get((first, qualname), ()))
        if not ok:
            ok = _tuple_template(space)
    _Guard.verdicts[_ident(code)] = (code, space, ok)
    return ok


def _verified(code, space):
    """_judge for this module's own checks (the filter): with the trace set aside meanwhile (the
    files it reads, the paths it resolves, are not the answer's frames to judge)."""
    hit = _Guard.verdicts.get(_ident(code))
    if hit is not None and hit[0] is code and hit[1] is space:
        return hit[2]
    tracing = _gettrace()
    if tracing is not None:
        _settrace(None)
    try:
        return _judge(code, space)
    finally:
        if tracing is not None:
            _settrace(tracing)


def _stop(code):
    _Guard.tripped = "%s in %s" % (code.co_qualname if _type(code.co_qualname) is _str else "?",
                                   code.co_filename if _type(code.co_filename) is _str else "?")
    raise _UserCode(_Guard.tripped)


def _trace(frame, event, arg):
    if event == "call":
        code = frame.f_code
        space = frame.f_globals
        hit = _Guard.verdicts.get(_ident(code))
        if hit is None or hit[0] is not code or hit[1] is not space:
            ok = _judge(code, space)
        else:
            ok = hit[2]
        if not ok:
            _setprofile(_after_trip)
            _stop(code)
        _Guard.calls += 1
        if not _Guard.calls & 255 and _thread_time() > _Guard.cpu_end:
            raise KeyboardInterrupt  # the answer's CPU budget: "late", as at the host's deadline
    return None


def _after_trip(frame, event, arg):
    # Once tripped the trace function is gone (CPython unsets one that raises): should a library
    # catch _UserCode and go on, the next frame that is not verified is stopped here as well.
    if event == "call":
        code, space = frame.f_code, frame.f_globals
        hit = _Guard.verdicts.get(_ident(code))
        if hit is None or hit[0] is not code or hit[1] is not space:
            ok = _judge(code, space)
        else:
            ok = hit[2]
        if not ok:
            _stop(code)


def _held_signal(signum, frame):
    _Guard.held.append(signum)


def _arm(budget_ms):
    """The guard on, with `budget_ms` of this thread's CPU time (checked in the sandbox, whatever
    happens to the host's SIGINT at its wall-clock deadline). The user's Python signal handlers
    wait for the answer's end (signals that came are raised again then)."""
    _Guard.tripped = None
    _Guard.calls = 0
    _Guard.held = []
    _Guard.handlers = []
    _Guard.cpu_end = _thread_time() + budget_ms / 1000.0
    _settrace(_trace)
    for signum in _SIGNALS:
        try:
            handler = _getsignal(signum)
            if callable(handler) and handler is not _held_signal:
                _signal(signum, _held_signal)
                _Guard.handlers.append((signum, handler))
        except (ValueError, OSError):  # not the main thread, or not a signal Python handles
            pass


def _disarm():
    if _gettrace() is not None:
        _settrace(None)
    if _getprofile() is not None:
        _setprofile(None)  # _after_trip's, if it tripped
    for signum, handler in _Guard.handlers:
        _signal(signum, handler)
    _Guard.handlers = []


# Special methods (and data descriptors) Jedi may reach on a value: dir(), getattr(), iter(),
# bool(), isinstance() (which reads __class__), getdoc() (__doc__), inspect.signature()
# (__signature__, __wrapped__, __call__), a dict subclass's keys().
_REACHED = ("__getattr__", "__getattribute__", "__dir__", "__iter__", "__getitem__", "__class__",
            "__dict__", "__doc__", "__len__", "__bool__", "__instancecheck__", "__subclasscheck__",
            "__mro_entries__", "__signature__", "__wrapped__", "__call__", "__module__", "__name__",
            "__qualname__", "__file__", "__annotations__", "keys")

_C_CALLABLES = frozenset((types.BuiltinFunctionType, types.WrapperDescriptorType, types.MethodDescriptorType,
                          types.MethodWrapperType, types.ClassMethodDescriptorType, types.GetSetDescriptorType,
                          types.MemberDescriptorType))
_DATA = frozenset((_str, type(None), _dict, _tuple))  # __doc__, __module__, __annotations__ as data


def _users(entry):
    """Whether an entry of a class's own __dict__ (a special method, a descriptor) could run code
    that is not verified. Decided on its exact type and its code object, never on its claims."""
    kind = _type(entry)
    if kind in _C_CALLABLES or kind in _DATA:
        return False
    if kind is staticmethod or kind is classmethod:
        return _users(kind.__dict__["__func__"].__get__(entry))
    if kind is property:
        return any(_users(f) for f in (property.fget.__get__(entry), property.fset.__get__(entry),
                                        property.fdel.__get__(entry)) if f is not None)
    if kind is _FunctionType:
        return not _verified(_func_code(entry), _func_globals(entry))
    return True  # any other object: its own type's __get__ or __call__ may be anyone's


def _runs_user_code(value):
    """Whether Jedi's look at `value` could reach a special method that is not verified: in the
    value's class and its bases, and in their metaclass's (a class's attributes are read through
    it); for a class, in its own."""
    kind = _type(value)
    kinds = [kind, _type(kind)]
    if any(c is _type for c in _mro_of(kind)):  # a class: its own methods too
        kinds.append(value)
    for k in kinds:
        try:
            for cls in _mro_of(k):
                own = _dict_of(cls)  # a mappingproxy of the class's real dict
                for name in _REACHED:
                    entry = own.get(name, _MISSING)
                    if entry is not _MISSING and _users(entry):
                        return True
        except Exception:
            return True
    return False


_MISSING = object()


def _visible(namespace):
    names = {}
    for name, value in list(_dict_items(namespace)):
        if _type(name) is not _str:
            continue
        kind = _type(value)
        if kind is _ModuleType:
            own = _module_dict(value)
            if not any(_users(_dict_get(own, special)) for special in ("__getattr__", "__dir__")
                       if _dict_get(own, special) is not None):
                names[name] = value  # a module of the user's with its own __getattr__ or __dir__: not seen
        elif kind is _FunctionType or kind in _C_CALLABLES:
            names[name] = value
        elif not _runs_user_code(value):
            names[name] = value
    return names


_jedi = None      # the module once imported here
_answers = None   # jedi_answers.py
_Interpreter = None


def preload(wrapper):
    """At the session's start: this runtime's part (jedi_answers.py), loaded before any cell."""
    global _answers
    if not _Guard.roots:
        _Guard.roots = _library_roots(wrapper)
    if _answers is None:
        _answers = wrapper._support_module("jedi_answers.py")
        if _type(_answers) is _ModuleType:
            _own(_module_dict(_answers))


def _load(wrapper):
    global _jedi, _Interpreter
    if _jedi is None:
        try:
            import jedi
            import parso.cache
        except Exception:  # not installed (or broken): asked again next time
            return None
        else:
            def _no_pickles(*args, **kwargs):
                raise PermissionError("the session keeps Jedi's caches in memory")
            parso.cache._save_to_file_system = _no_pickles
            # Nor read from disk: a cell could leave a pickle there, whose loading calls what it
            # names (C functions too, which no trace sees); parso also turns the collector back on.
            parso.cache._load_from_file_system = lambda *args, **kwargs: None
            # Parsing reads text only (the buffer, library files as Jedi read them): it reaches no
            # live object, and it is most of the guard's cost (millions of calls, 3-5 times
            # slower traced): it runs untraced.
            import parso.grammar
            parse = parso.grammar.Grammar.parse

            def untraced_parse(self, *args, **kwargs):
                tracing = _gettrace()
                if tracing is not None:
                    _settrace(None)
                try:
                    return parse(self, *args, **kwargs)
                finally:
                    if tracing is not None:
                        _settrace(tracing)
            parso.grammar.Grammar.parse = untraced_parse

            class Interpreter(jedi.Interpreter):
                _allow_descriptor_getattr_default = False  # no property or descriptor is read

            _jedi, _Interpreter = jedi, Interpreter
    return _jedi if _answers is not None else None


_SCOPE = re.compile(r"\s*(async\s+def|def|class)\b")


def _live_part(request):
    """The request narrowed to the statement at the cursor, when that statement is the module's
    (not inside a def or class): Jedi prefers a name's definition in the text to the namespace's
    value, and the buffer holds the cells that made the namespace - `df = pd.DataFrame(...)` above
    `df.` would give pandas' static DataFrame, without its columns. Alone, the statement's names
    are the live ones (the service's answer, merged after, still knows the buffer's). Inside a
    def or class the names may be locals: the whole text is kept."""
    source, line, column = request["source"], request["line"], request["column"]
    lines = source.split("\n")
    start = 1  # the cursor's logical line begins after the last NEWLINE before its line
    try:
        for token in tokenize.generate_tokens(io.StringIO("\n".join(lines[:line - 1]) + "\n").readline):
            if token.type == tokenize.NEWLINE:
                start = token.end[0] + 1
    except (tokenize.TokenError, SyntaxError):
        pass  # the statement is still open at the cursor's line (a bracket): `start` is its first line
    first = lines[start - 1]
    indent = first[:len(first) - len(first.lstrip())]
    if indent:
        width = len(indent.expandtabs())
        for text in reversed(lines[:start - 1]):
            body = text.lstrip()
            if not body or body.startswith("#"):
                continue
            own = len(text[:len(text) - len(body)].expandtabs())
            if own < width:
                if _SCOPE.match(text):
                    return request  # a def's or class's body: its names may be locals
                width = own
                if own == 0:
                    break
    part = [text[len(indent):] if text.startswith(indent) else text for text in lines[start - 1:line]]
    narrowed = dict(request)
    narrowed["source"] = "\n".join(part)
    narrowed["line"] = line - start + 1
    narrowed["column"] = column - len(indent) if lines[line - 1].startswith(indent) else column
    return narrowed


@contextlib.contextmanager
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


_contexts = None     # jedi_answers.Contexts, for the namespace as `_generation` left it
_generation = None
_warmed = set()      # what warm() has completed once: a type's (module, name), a module's name
WARM_NAMES = 32      # completions per warm-up, newest names first


def _warm_key(value):
    """What a value's completion parses, read without attribute access on it (or on its class,
    whose metaclass may be the user's)."""
    kind = _type(value)
    if kind is _ModuleType:
        name = _dict_get(_module_dict(value), "__name__")
        return ("module", name if _type(name) is _str else "")
    return (_type.__dict__["__module__"].__get__(kind), _type.__dict__["__qualname__"].__get__(kind))


def warm(names):
    """Completes `name.` once for each kind of value of `names` not seen before, newest first:
    Jedi parses what that needs (the builtins' stubs, pandas' frame.py: seconds the first time)
    into parso's memory cache, so the user's own requests, new Interpreters, answer in
    milliseconds. Interruptible between and within completions; what was done stays done. A
    value whose completion reaches the user's code is not tried again (its kind counts as done)."""
    done = 0
    if ("builtins", "") not in _warmed:
        _Interpreter("", [names]).complete(1, 0)
        _warmed.add(("builtins", ""))
    for name, value in reversed(list(names.items())):
        if done >= WARM_NAMES:
            break
        kind = _type(value)
        if name.startswith("_") or not name.isidentifier() or kind is _FunctionType \
                or any(c is _type for c in _mro_of(kind)):
            continue
        try:
            key = _warm_key(value)
            if _type(key[0]) is not _str or _type(key[1]) is not _str:
                continue
        except Exception:
            continue
        if key in _warmed:
            continue
        _warmed.add(key)
        done += 1
        try:
            _Interpreter(name + ".", [names]).complete(1, len(name) + 1)
        except Exception:  # Jedi's own failure on an odd value: not tried again
            pass
    return {"ok": True, "warmed": done}


WARM_BUDGET_MS = 10000  # a warm-up's CPU time at most, when the host does not say


def _budget_ms(request):
    default = WARM_BUDGET_MS if request.get("op") == "warm" else 1000
    budget = request.get("deadline_ms", default)
    if _type(budget) is not _int and _type(budget) is not float:
        budget = default
    return min(max(int(budget), 10), 20000)


def answer(wrapper, namespace, request, interruptible, generation=None):
    """The answer of jedi_answers.respond for `request`, over `namespace` (the session's).
    `generation` changes with every execution: the completions kept while a name is typed
    (jedi_answers.Contexts) are for the namespace as it was."""
    # First of all, before anything can call back into the user's code: the collector (a cell's
    # gc.callbacks, finalizers of its garbage) and the user's trace and profile functions are set
    # aside until the answer's end (session.py sets the latter aside before calling: the start
    # of this very frame would be theirs to see).
    collecting = _gc_isenabled()
    _gc_disable()
    trace, profile = _gettrace(), _getprofile()
    if profile is not None:
        _setprofile(None)
    if trace is not None:
        _settrace(None)
    try:
        return _answer(wrapper, namespace, request, interruptible, generation)
    finally:
        _disarm()
        held, _Guard.held = _Guard.held, []
        if trace is not None:
            _settrace(trace)
        if profile is not None:
            _setprofile(profile)
        for signum in held:
            signal.raise_signal(signum)
        if collecting:
            _gc_enable()  # last: the next collection (of Jedi's garbage too) is the caller's


def _caller_globals(interruptible):
    """session.py's namespace, from its `_interruptible` (a contextmanager: the function it wraps
    is its __wrapped__), read through the function type's own descriptors."""
    if _type(interruptible) is not _FunctionType:
        return None
    inner = _dict_get(_func_attributes(interruptible), "__wrapped__", interruptible)
    return _func_globals(inner) if _type(inner) is _FunctionType else None


def _answer(wrapper, namespace, request, interruptible, generation):
    global _contexts, _generation
    if _type(request) is not _dict:
        return {"ok": False, "error": "bad request"}
    if generation != _generation and _contexts is not None:
        _contexts.clear()
    _generation = generation
    # This runtime's own code runs unverified: this module, session.py (the caller, whose SIGINT
    # handler may run), the wrapper and jedi_answers.
    _own(globals(), _caller_globals(interruptible))
    if _type(wrapper) is _ModuleType:
        _own(_module_dict(wrapper))
    preload(wrapper)  # done at the session's start: here for a caller that did not
    before = None
    try:
        _arm(_budget_ms(request))
        with _quiet():
            before = set(_SYS_MODULES)
            # The first request imports Jedi, not interruptibly (a tenth of a second, once): an
            # import cut short leaves a package without its submodules' attributes (`parso.cache`).
            if _load(wrapper) is None:
                return {"ok": False, "error": "unavailable: Jedi cannot be imported in the session"}
            before = set(_SYS_MODULES)
            with interruptible():
                names = _visible(namespace)
                if request.get("op") == "warm":
                    return warm(names)
                make = lambda source: _Interpreter(source, [names])  # noqa: E731
                if _answers.valid_position(request):
                    request = _live_part(request)
                if _contexts is None:
                    _contexts = _answers.Contexts(8)
                if _answers.valid_complete(request):
                    try:
                        kept = _contexts.complete(request, make)
                    except Exception as e:  # Jedi's own failure on odd code
                        return {"ok": False, "error": _answers.cut(_type(e).__name__, _answers.MAX_NAME)}
                    if kept is not None:
                        return kept
                return _answers.respond(request, make, ())  # the interrupt is caught below
    except _UserCode:
        _disarm()
        _forget_imports(before)
        if _contexts is not None:
            _contexts.clear()  # what a stopped answer left half-made
        return {"ok": False, "error": "stopped: the value's own code (%s)" % _cut(_Guard.tripped)}
    except KeyboardInterrupt:
        _disarm()
        _forget_imports(before)
        return {"ok": False, "error": "late"}
    finally:
        _settrace(None)


def _cut(text):
    return text[:200] if _type(text) is _str else "?"


def _forget_imports(before):
    """After an interrupted answer: the modules Jedi began importing meanwhile (a compiled module
    it loads to inspect) are dropped, whole, so that the next import starts clean instead of
    finding a half-made package."""
    if before is None:
        return
    for name in set(_SYS_MODULES) - before:
        _SYS_MODULES.pop(name, None)
