# Attacks on completion from a notebook session (resources/runtime/session_complete.py), run by
# test_session_complete_guard with the system's python3, outside any sandbox:
#
#   python3 session_complete_guard.py RUNTIME_DIR CASE
#
# Runs the CASE's cell in a fresh `__main__` namespace as a session would, asks session_complete
# its questions (completions, calltips, help, and a warm-up) and prints one JSON line:
# {"ran": [tags of the cell's code that ran while completion answered], "control": [tags that
# ran when the test itself did what the trick waits for - proof the trick works],
# "answers": {question: answer}}. Each cell's code calls track(tag), which counts only while
# session_complete answers (or while the control runs).
import contextlib
import gc
import json
import os
import sys
import tempfile
import types

RUNTIME = sys.argv[1]
CASE = sys.argv[2]
PIP_TARGET = tempfile.mkdtemp(prefix="sandpad-pip-test-")
# Jedi's and parso's disk caches in a folder of this run (the parso_pickle case writes there).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="sandpad-cache-test-")


class W:
    """The wrapper's part session_complete uses."""
    _PIP_TARGET = PIP_TARGET
    _support = {}

    @staticmethod
    def _support_module(name):
        if name not in W._support:
            module = types.ModuleType("_sandpad_" + name[:-3])
            module.__file__ = os.path.join(RUNTIME, name)
            with open(module.__file__, "rb") as f:
                exec(compile(f.read(), module.__file__, "exec"), module.__dict__)
            W._support[name] = module
        return W._support[name]


# As session.py: loaded before any cell.
complete = W._support_module("session_complete.py")
if hasattr(complete, "preload"):
    complete.preload(W)


@contextlib.contextmanager
def interruptible():
    yield


TRACKING = [None]
RAN, CONTROL = [], []


def track(tag):
    if TRACKING[0] is not None:
        TRACKING[0].append(tag)
        if os.environ.get("GUARD_DEBUG"):
            frame, where = sys._getframe(1), []
            while frame is not None and len(where) < 12:
                where.append("%s:%s" % (os.path.basename(frame.f_code.co_filename), frame.f_code.co_name))
                frame = frame.f_back
            sys.stderr.write("track %s: %s\n" % (tag, " < ".join(where)))


CELLS = {}
ASKS = {}
CONTROLS = {}

# A metaclass's __getattribute__ runs when Jedi reads the instance's class (getattr_static reads
# each class's __dict__ through the metaclass).
CELLS["metaclass_getattribute"] = '''
class Meta(type):
    def __getattribute__(cls, name):
        track("metaclass_getattribute")
        return type.__getattribute__(cls, name)
class WithMeta(metaclass=Meta):
    x = 1
meta_inst = WithMeta()
'''
ASKS["metaclass_getattribute"] = ["meta_inst.", "meta_inst.x."]
CONTROLS["metaclass_getattribute"] = "WithMeta.x"

# A __class__ property: isinstance() reads it when the real type does not match.
CELLS["class_property"] = '''
class ClassProp:
    @property
    def __class__(self):
        track("class_property")
        return int
class_prop = ClassProp()
'''
ASKS["class_property"] = ["class_prop.", "class_prop"]
CONTROLS["class_property"] = "isinstance(class_prop, str)"

# Special methods compiled with a made-up co_filename under the system's dist-packages: the
# session trusted code by where it said it came from.
CELLS["co_filename_claim"] = '''
claimed = {}
exec(compile("def __dir__(self):\\n    track('co_filename_claim')\\n    return ['ghost']\\n"
             "def __getattr__(self, name):\\n    track('co_filename_claim')\\n    raise AttributeError(name)\\n",
             "/usr/lib/python3/dist-packages/jedi/api/__init__.py", "exec"), globals(), claimed)
FakeLibrary = type("FakeLibrary", (), {"__dir__": claimed["__dir__"], "__getattr__": claimed["__getattr__"],
                                       "__module__": "pandas.core.frame"})
fake_lib = FakeLibrary()
'''
ASKS["co_filename_claim"] = ["fake_lib.", "fake_lib.ghost.", "fake_lib.gh"]
CONTROLS["co_filename_claim"] = "dir(fake_lib)"

SNEAKY = '''
class Sneaky:
    def __dir__(self):
        track(TAG)
        return ["ghost"]
    def __getattr__(self, name):
        track(TAG)
        raise AttributeError(name)
'''

# Values inside values the filter let through: a list's element, a dict's value, a module's
# attribute (Jedi reads them and dir()s them).
CELLS["list_element"] = "TAG = 'list_element'\n" + SNEAKY + "items = [Sneaky()]\n"
ASKS["list_element"] = ["items[0].", "items[0].gh"]
CONTROLS["list_element"] = "dir(items[0])"
CELLS["dict_value"] = "TAG = 'dict_value'\n" + SNEAKY + "table = {'k': Sneaky()}\n"
ASKS["dict_value"] = ["table['k'].", "table['k'].gh"]
CONTROLS["dict_value"] = "dir(table['k'])"
CELLS["module_attribute"] = "TAG = 'module_attribute'\n" + SNEAKY + \
    "import types\nfake_mod = types.ModuleType('fake_mod')\nfake_mod.inner = Sneaky()\n"
ASKS["module_attribute"] = ["fake_mod.inner.", "fake_mod.inner.gh"]
CONTROLS["module_attribute"] = "dir(fake_mod.inner)"

# A __dict__ property: object.__dir__ reads obj.__dict__ through it.
CELLS["dict_property"] = '''
class DictProp:
    @property
    def __dict__(self):
        track("dict_property")
        return {}
dict_prop = DictProp()
'''
ASKS["dict_property"] = ["dict_prop.", "dict_prop.a"]
CONTROLS["dict_property"] = "dir(dict_prop)"

# A __doc__ property: help reads the docstring with inspect.getdoc.
CELLS["doc_property"] = '''
class DocProp:
    @property
    def __doc__(self):
        track("doc_property")
        return "documented"
doc_prop = DocProp()
'''
ASKS["doc_property"] = ["doc_prop", "doc_prop."]
CONTROLS["doc_property"] = "doc_prop.__doc__"

# A signature's default value: its repr() is the calltip's text.
CELLS["default_repr"] = '''
class Setting:
    def __repr__(self):
        track("default_repr")
        return "Setting()"
def with_default(a, b=Setting()):
    return a
'''
ASKS["default_repr"] = ["with_default(", "with_default"]
CONTROLS["default_repr"] = "repr(with_default.__defaults__[0])"

# inspect.signature reads __signature__ (a property here) and follows __wrapped__.
CELLS["signature_property"] = '''
class SigProp:
    @property
    def __signature__(self):
        track("signature_property")
        return None
    def __call__(self, a):
        return a
sig_prop = SigProp()
'''
ASKS["signature_property"] = ["sig_prop(", "sig_prop"]
CONTROLS["signature_property"] = "sig_prop.__signature__"
CELLS["wrapped"] = '''
class Unwrapped:
    def __getattr__(self, name):
        track("wrapped")
        raise AttributeError(name)
def wrapped(a):
    return a
wrapped.__wrapped__ = Unwrapped()
'''
ASKS["wrapped"] = ["wrapped(", "wrapped"]
CONTROLS["wrapped"] = "__import__('inspect').signature(wrapped)"

# A class that says its module is builtins: Jedi runs repr() of such values.
CELLS["builtins_claim"] = '''
class BuiltinClaim:
    __module__ = "builtins"
    def __repr__(self):
        track("builtins_claim")
        return "x"
builtin_claim = BuiltinClaim()
'''
ASKS["builtins_claim"] = ["builtin_claim", "builtin_claim."]
CONTROLS["builtins_claim"] = "repr(builtin_claim)"

# classmethod(property(f)): Jedi reads classmethods, and this one runs the property.
CELLS["classmethod_property"] = '''
class ClsMethProp:
    x = classmethod(property(lambda cls: track("classmethod_property")))
cmp_value = ClsMethProp()
'''
ASKS["classmethod_property"] = ["cmp_value.x.", "cmp_value.x"]
CONTROLS["classmethod_property"] = "ClsMethProp.x"

# A property on the metaclass, read from the class.
CELLS["metaclass_property"] = '''
class MetaProp(type):
    @property
    def attr(cls):
        track("metaclass_property")
        return 1
class HasMetaProp(metaclass=MetaProp):
    pass
'''
ASKS["metaclass_property"] = ["HasMetaProp.attr.", "HasMetaProp.at"]
CONTROLS["metaclass_property"] = "HasMetaProp.attr"

# A dict key whose hash equals the looked-up key's: the lookup compares them with its __eq__.
CELLS["dict_key_eq"] = '''
class Colliding:
    def __hash__(self):
        return hash("k")
    def __eq__(self, other):
        track("dict_key_eq")
        return False
coll = {Colliding(): 1, "z": 2}
'''
ASKS["dict_key_eq"] = ["coll['k'].", "coll['z']."]
CONTROLS["dict_key_eq"] = "coll.get('k')"

# A dict subclass's keys(), listed for a key's completion.
CELLS["dict_subclass_keys"] = '''
class Keys(dict):
    def keys(self):
        track("dict_subclass_keys")
        return []
mysub = Keys(a=1)
'''
ASKS["dict_subclass_keys"] = ["mysub['", "mysub[\"a"]
CONTROLS["dict_subclass_keys"] = "mysub.keys()"

# A package `!pip install`ed into the session (its target is writable: the user's code).
CELLS["pip_package"] = '''
import os, sys
with open(os.path.join(PIP_TARGET, "pipped.py"), "w") as f:
    f.write("def track(tag):\\n    pass\\n"
            "class Frame:\\n"
            "    def __dir__(self):\\n        track('pip_package')\\n        return ['col']\\n"
            "    def __getattr__(self, name):\\n        track('pip_package')\\n        raise AttributeError(name)\\n")
sys.path.insert(0, PIP_TARGET)
import pipped
pipped.track = track
frame = pipped.Frame()
'''
ASKS["pip_package"] = ["frame.", "frame.co"]
CONTROLS["pip_package"] = "dir(frame)"

# Hooks the interpreter calls by itself while any code runs: a trace function, a collector
# callback, a signal handler (called in Jedi's frames). (Not an audit hook: CPython calls one for
# every audited operation, untraced, and it cannot be removed - docs/threat-model.md.)
CELLS["trace_function"] = '''
import sys
def user_trace(frame, event, arg):
    track("trace_function")
    return None
sys.settrace(user_trace)
sys.setprofile(lambda frame, event, arg: track("trace_function"))
'''
ASKS["trace_function"] = ["import os\nos.path.jo", "sys.pa"]
CONTROLS["trace_function"] = None  # tracing is off once the questions are done
CELLS["gc_callback"] = '''
import gc
gc.callbacks.append(lambda phase, info: track("gc_callback"))
'''
ASKS["gc_callback"] = ["import json\njson.", "import collections\ncollections."]
CONTROLS["gc_callback"] = "__import__('gc').collect()"
CELLS["signal_handler"] = '''
import signal, sys
def in_jedi():
    f = sys._getframe(2)
    while f is not None:
        if "/jedi/" in f.f_code.co_filename or "/parso/" in f.f_code.co_filename:
            return True
        f = f.f_back
    return False
def on_alarm(signum, frame):
    if in_jedi():
        track("signal_handler")
signal.signal(signal.SIGALRM, on_alarm)
signal.setitimer(signal.ITIMER_REAL, 0.002, 0.002)
'''
ASKS["signal_handler"] = ["import json\njson.", "import collections\ncollections.", "import os\nos.path."]
CONTROLS["signal_handler"] = None  # timing: no control (the handler is a plain function)

# A pickle left where parso looks for its parse cache: loading it calls what it names - a C
# function here (os.mkdir), which no trace function sees.
CELLS["parso_pickle"] = '''
import hashlib, json, os, pickle, sys
import jedi, jedi.settings, parso, parso.cache
MARKER = os.path.join(PIP_TARGET, "pickle_ran")
class Planted:
    def __reduce__(self):
        return (os.mkdir, (MARKER,))
hashed = parso.load_grammar(version="%d.%d" % sys.version_info[:2])._hashed
folder = os.path.join(jedi.settings.cache_directory, parso.cache._VERSION_TAG)
os.makedirs(folder, exist_ok=True)
stubs = os.path.join(os.path.dirname(jedi.__file__), "third_party", "typeshed", "stdlib")
for path in (json.__file__, os.path.join(stubs, "json", "__init__.pyi"), os.path.join(stubs, "builtins.pyi")):
    name = "%s-%s.pkl" % (hashed, hashlib.sha256(path.encode("utf-8")).hexdigest())
    with open(os.path.join(folder, name), "wb") as f:
        pickle.dump(Planted(), f)
'''
ASKS["parso_pickle"] = ["json.", "json.du", "json.dumps("]
CONTROLS["parso_pickle"] = None
POSTCHECKS = {"parso_pickle": "os.path.isdir(MARKER)"}

# The cell's module object in sys.modules, imported by the buffer: its __getattr__ and __dir__.
CELLS["sys_modules_fake"] = '''
import sys, types
fakemod = types.ModuleType("fakemod")
def _fake_dir():
    track("sys_modules_fake")
    return ["ghost"]
def _fake_getattr(name):
    track("sys_modules_fake")
    raise AttributeError(name)
fakemod.__dir__ = _fake_dir
fakemod.__getattr__ = _fake_getattr
sys.modules["fakemod"] = fakemod
del fakemod
'''
ASKS["sys_modules_fake"] = ["import fakemod\nfakemod.", "import fakemod\nfakemod.gh"]
CONTROLS["sys_modules_fake"] = "dir(__import__('fakemod'))"

# What completion is for (it must keep working): a DataFrame's columns, a function's signature
# and help, a class's property named but not read, a dataclass, numpy, a module's members.
CELLS["quality"] = '''
import os
import numpy as np
import pandas as pd
from dataclasses import dataclass
df = pd.DataFrame({'alpha': [1, 2], 'beta_total': [3.5, 4.5]})
def scale(values, factor=2.5, *, clip=None):
    """Scales the values by factor."""
    return values
threshold_value = 42
class Widget:
    @property
    def prop(self):
        track("quality")
        return "text"
    def method(self, a, b=1):
        return a
@dataclass
class Point:
    x: int
    y: int = 0
w = Widget()
p = Point(1)
'''
ASKS["quality"] = ["df.al", "df.", "threshold_v", "scale(", "scale", "w.", "w.prop.", "w.method(", "p.", "Point(",
                   "np.ara", "os.path.jo", "pd.DataFrame("]
CONTROLS["quality"] = "w.prop"


def main():
    if CASE not in CELLS:
        print(json.dumps({"error": "no case %s" % CASE}))
        return 2
    module = types.ModuleType("__main__")
    namespace = module.__dict__
    namespace["__builtins__"] = __builtins__
    namespace["track"] = track
    namespace["PIP_TARGET"] = PIP_TARGET
    namespace["__file__"] = os.path.abspath(__file__)
    exec(compile(CELLS[CASE], "cell", "exec"), namespace)
    answers = {}
    requests = [(op + " " + source, {"op": op, "source": source, "line": source.count("\n") + 1,
                                     "column": len(source.split("\n")[-1]), "deadline_ms": 20000})
                for source in ASKS[CASE] for op in ("complete", "signatures", "help")]
    requests.append(("warm", {"op": "warm", "deadline_ms": 20000}))
    answer = complete.answer
    for key, request in requests:
        # As session.py's serve loop asks: the user's trace and profile functions set aside inline
        # (a call would be theirs to see), then put back; what this loop itself allocates is
        # collected first (a collection's callbacks are the cell's, not completion's).
        trace, profile = sys.gettrace(), sys.getprofile()
        if profile is not None:
            sys.setprofile(None)
        if trace is not None:
            sys.settrace(None)
        gc.collect()
        TRACKING[0] = RAN
        got = answer(W, namespace, request, interruptible, 1)
        TRACKING[0] = None
        if trace is not None:
            sys.settrace(trace)
        if profile is not None:
            sys.setprofile(profile)
        answers[key] = got
    sys.settrace(None)
    sys.setprofile(None)
    if CASE in POSTCHECKS and eval(POSTCHECKS[CASE], namespace):
        RAN.append(CASE)  # what the cell's trick did shows after the answers
    if CONTROLS[CASE] is not None:
        TRACKING[0] = CONTROL
        try:
            eval(CONTROLS[CASE], namespace)
        except Exception:
            pass
        TRACKING[0] = None
    print(json.dumps({"ran": sorted(set(RAN)), "control": sorted(set(CONTROL)), "answers": answers}, default=str))
    return 0


sys.exit(main())
