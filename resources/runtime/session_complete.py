# Completion, calltips and help from a Python notebook session's live namespace
# (docs/runtime-protocol.md, "Sessions": the assist fetch). Placed beside the wrapper like
# variables.py and loaded by session.py for a fetch whose request is {"assist": {...}} (the request
# and answer of jedi_answers.py). jedi.Interpreter sees the session's `__main__` namespace, so names
# and objects made by earlier cells complete with what they are now.
#
# It must not run the user's code: Jedi's Interpreter of this version reads properties and other
# descriptors of live objects unless told not to (done here), and it calls dir(), iter() and
# plain getattr() on what it completes, which would run a class's own __dir__, __iter__,
# __getattr__ or __getattribute__. Objects whose class (or a base, or metaclass) has one of those
# written by the user - code outside the installed libraries: a cell, a file of the work dir - are
# left out of the namespace Jedi sees: they complete from the buffer's text instead. A library's
# own (pandas' __getattr__ and __dir__ that offer a DataFrame's columns) is used.
# Jedi's parse caches stay in memory (nothing is written to the session's disk). Importing Jedi
# and what it runs are interruptible: the host's deadline is SIGINT, inside `interruptible()`.

import contextlib
import io
import re
import sys
import tokenize
import types
import warnings

# Special methods Jedi may reach on an object through dir(), iter(), getattr() or [].
_REACHED = ("__getattr__", "__getattribute__", "__dir__", "__iter__", "__getitem__", "__class__",
            "__len__", "__bool__", "__instancecheck__", "__subclasscheck__",
            "__mro_entries__")

_jedi = None      # the module once imported here
_answers = None   # jedi_answers.py
_Interpreter = None


def _load(wrapper):
    global _jedi, _answers, _Interpreter
    if _jedi is None:
        _answers = wrapper._support_module("jedi_answers.py")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                import jedi
                import parso.cache
        except Exception:  # not installed (or broken): asked again next time
            return None
        else:
            def _no_pickles(*args, **kwargs):
                raise PermissionError("the session keeps Jedi's caches in memory")
            parso.cache._save_to_file_system = _no_pickles

            class Interpreter(jedi.Interpreter):
                _allow_descriptor_getattr_default = False  # no property or descriptor is read

            _jedi, _Interpreter = jedi, Interpreter
    return _jedi if _answers is not None else None


_C_CALLABLES = (types.BuiltinFunctionType, types.WrapperDescriptorType, types.MethodDescriptorType,
                types.MethodWrapperType, types.ClassMethodDescriptorType, types.GetSetDescriptorType,
                types.MemberDescriptorType)


def _library_roots(wrapper):
    """Where the installed libraries' code lives (the system's Python, site-packages, what `!pip
    install` put in the session): code elsewhere - a cell, a file of the work dir - is the user's."""
    import site
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, getattr(wrapper, "_PIP_TARGET", None)}
    try:
        roots.update(site.getsitepackages())
    except Exception:
        pass
    return tuple(root.rstrip("/") + "/" for root in roots if isinstance(root, str) and root.startswith("/"))


def _users(method, roots):
    """Whether a special method found in a class's __dict__ is the user's code."""
    if isinstance(method, (staticmethod, classmethod)):
        method = method.__func__
    if isinstance(method, property):
        return any(_users(f, roots) for f in (method.fget, method.fset, method.fdel) if f is not None)
    if isinstance(method, _C_CALLABLES) or method is None:
        return False
    code = method.__code__ if isinstance(method, types.FunctionType) else None
    return code is None or not code.co_filename.startswith(roots)


def _runs_user_code(value, roots):
    """Whether Jedi's look at `value` could call a special method written by the user. Read with
    type() and the classes' own __dict__ only (no attribute access on the value)."""
    kinds = [type(value)]
    if isinstance(value, type):
        kinds.append(value)  # a class: its metaclass (type(value)) and its own methods
    for kind in kinds:
        try:
            mro = type.__dict__["__mro__"].__get__(kind)
            for cls in mro:
                own = type.__dict__["__dict__"].__get__(cls)
                if any(name in own and _users(own[name], roots) for name in _REACHED):
                    return True
        except Exception:
            return True
    return False


def _visible(wrapper, namespace):
    roots = _library_roots(wrapper)
    names = {}
    for name, value in list(namespace.items()):
        if isinstance(value, types.ModuleType):
            own = type.__dict__["__dict__"].__get__(types.ModuleType)["__dict__"].__get__(value)
            if not any(_users(own.get(special), roots) for special in ("__getattr__", "__dir__")):
                names[name] = value  # a module of the user's with its own __getattr__ or __dir__: not seen
        elif isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
            names[name] = value
        elif not _runs_user_code(value, roots):
            names[name] = value
    return names


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
    if isinstance(value, types.ModuleType):
        own = type.__dict__["__dict__"].__get__(types.ModuleType)["__dict__"].__get__(value)
        return ("module", str(own.get("__name__")))
    kind = type(value)
    return (type.__dict__["__module__"].__get__(kind), type.__dict__["__qualname__"].__get__(kind))


def warm(names):
    """Completes `name.` once for each kind of value of `names` not seen before, newest first:
    Jedi parses what that needs (the builtins' stubs, pandas' frame.py: seconds the first time)
    into parso's memory cache, so the user's own requests, new Interpreters, answer in
    milliseconds. Interruptible between and within completions; what was done stays done."""
    done = 0
    if ("builtins", "") not in _warmed:
        _Interpreter("", [names]).complete(1, 0)
        _warmed.add(("builtins", ""))
    for name, value in reversed(list(names.items())):
        if done >= WARM_NAMES:
            break
        if name.startswith("_") or not name.isidentifier() or isinstance(value, (types.FunctionType, type)):
            continue
        try:
            key = _warm_key(value)
        except Exception:
            continue
        if key in _warmed:
            continue
        try:
            _Interpreter(name + ".", [names]).complete(1, len(name) + 1)
        except Exception:  # Jedi's own failure on an odd value: not tried again
            pass
        _warmed.add(key)
        done += 1
    return {"ok": True, "warmed": done}


def answer(wrapper, namespace, request, interruptible, generation=None):
    """The answer of jedi_answers.respond for `request`, over `namespace` (the session's).
    `generation` changes with every execution: the completions kept while a name is typed
    (jedi_answers.Contexts) are for the namespace as it was."""
    global _contexts, _generation
    if not isinstance(request, dict):
        return {"ok": False, "error": "bad request"}
    if generation != _generation and _contexts is not None:
        _contexts.clear()
    _generation = generation
    with _quiet():
        # The first request imports Jedi, not interruptibly (a tenth of a second, once): an import
        # cut short leaves a package without its submodules' attributes (`parso.cache`).
        if _load(wrapper) is None:
            return {"ok": False, "error": "unavailable: Jedi cannot be imported in the session"}
        before = set(sys.modules)
        try:
            with interruptible():
                names = _visible(wrapper, namespace)
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
                        return {"ok": False, "error": _answers.cut(type(e).__name__, _answers.MAX_NAME)}
                    if kept is not None:
                        return kept
                return _answers.respond(request, make, ())  # the interrupt is caught below
        except KeyboardInterrupt:
            _forget_imports(before)
            return {"ok": False, "error": "late"}


def _forget_imports(before):
    """After an interrupted answer: the modules Jedi began importing meanwhile (a compiled module
    it loads to inspect) are dropped, whole, so that the next import starts clean instead of
    finding a half-made package."""
    for name in set(sys.modules) - before:
        sys.modules.pop(name, None)
