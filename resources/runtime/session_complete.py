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
import sys
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


@contextlib.contextmanager
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


_contexts = None     # jedi_answers.Contexts, for the namespace as `_generation` left it
_generation = None


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
        try:
            with interruptible():
                # The first answer imports Jedi here: interrupted, it is imported on by the next.
                if _load(wrapper) is None:
                    return {"ok": False, "error": "unavailable: Jedi cannot be imported in the session"}
                names = _visible(wrapper, namespace)
                make = lambda source: _Interpreter(source, [names])  # noqa: E731
                if _contexts is None:
                    _contexts = _answers.Contexts(8)
                if _answers.valid_complete(request):
                    try:
                        kept = _contexts.complete(request, make)
                    except Exception as e:  # Jedi's own failure on odd code
                        return {"ok": False, "error": _answers.cut(type(e).__name__, _answers.MAX_NAME)}
                    if kept is not None:
                        return kept
                return _answers.respond(request, make, KeyboardInterrupt)
        except KeyboardInterrupt:
            return {"ok": False, "error": "late"}
