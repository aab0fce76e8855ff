# Sandpad's Python language service (core/completion, docs/local-sandbox.md "Language service").
# Runs inside a local sandbox of its own, never on the host: the buffer text is the user's, and
# Jedi reads files and imports compiled modules to answer. Started pre-started like a run's
# wrapper: it warms Jedi up, says "ready" on the job socket (SANDPAD_JOB_FD), then answers one
# JSON request per line with one JSON answer per line, in order. Nothing else is ever written to
# the socket; stdout and stderr go to /dev/null (the host discards them anyway).
import json
import os
import signal
import socket
import sys

MAX_REQUEST = 4 * 1024 * 1024   # the host sends at most 1 MiB of source; anything longer is refused
MAX_ITEMS = 200                 # completions per answer
MAX_NAME = 200                  # characters of a name, a type or one parameter
MAX_DOC = 16000                 # characters of a docstring or signature text
MAX_HELP = 5                    # definitions in a help answer


class Late(BaseException):
    """The request's own deadline passed: a BaseException so that Jedi's `except Exception` does
    not swallow it."""


def _on_alarm(signum, frame):
    raise Late()


def _cut(text, limit):
    text = text if isinstance(text, str) else str(text)
    return text if len(text) <= limit else text[:limit] + "\u2026"


def _completions(script, line, column):
    out = []
    # Names only: Jedi infers a completion's `type` lazily, and for a module like numpy the first
    # 200 of them cost seconds; the editor's list shows names.
    for c in script.complete(line, column):
        out.append({"name": _cut(c.name, MAX_NAME)})
        if len(out) >= MAX_ITEMS:
            break
    return {"completions": out}


def _signatures(script, line, column):
    out = []
    for s in script.get_signatures(line, column)[:3]:
        params = [_cut(p.to_string(), MAX_NAME) for p in s.params[:64]]
        out.append({"name": _cut(s.name, MAX_NAME), "text": _cut(s.to_string(), MAX_DOC),
                    "params": params, "index": s.index if s.index is not None else -1})
    return {"signatures": out}


def _help(script, line, column):
    entries = []
    names = script.help(line, column) or script.infer(line, column)
    for n in names[:MAX_HELP * 2]:
        try:
            doc, raw = n.docstring(), n.docstring(raw=True)
        except Exception:
            doc, raw = "", ""
        entries.append((not raw, {"name": _cut(n.name or "", MAX_NAME), "full_name": _cut(n.full_name or "", MAX_NAME),
                                  "type": _cut(n.type or "", 40), "doc": _cut(doc, MAX_DOC)}))
    # Documented definitions first: `os.path.join` is posixpath's and ntpath's (the stub's union),
    # in no fixed order, and only one of them has a docstring.
    entries.sort(key=lambda e: e[0])
    return {"help": [e[1] for e in entries[:MAX_HELP]]}


OPS = {"complete": _completions, "signatures": _signatures, "help": _help}


def answer(jedi, environment, request):
    rid = request.get("id")
    op = OPS.get(request.get("op"))
    source = request.get("source")
    line, column = request.get("line"), request.get("column")
    if op is None or not isinstance(source, str) or not isinstance(line, int) or not isinstance(column, int):
        return {"id": rid, "ok": False, "error": "bad request"}
    deadline = request.get("deadline_ms", 1000)
    deadline = min(max(int(deadline) if isinstance(deadline, (int, float)) else 1000, 10), 10000)
    signal.setitimer(signal.ITIMER_REAL, deadline / 1000.0)
    try:
        script = jedi.Script(source, environment=environment)
        lines = source.split("\n")
        if not 1 <= line <= len(lines) or not 0 <= column <= len(lines[line - 1]):
            return {"id": rid, "ok": False, "error": "position outside the text"}
        result = op(script, line, column)
    except Late:
        return {"id": rid, "ok": False, "error": "late"}
    except Exception as e:  # Jedi's own failure on odd code: an empty answer, the service stays
        return {"id": rid, "ok": False, "error": _cut(type(e).__name__, MAX_NAME)}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    result["id"] = rid
    result["ok"] = True
    return result


def warm(jedi, environment):
    # Jedi's caches for what snippets use most: the first real request is then fast.
    for source in ("import numpy as np\nnp.", "import pandas as pd\npd.DataFrame().",
                   "import matplotlib.pyplot as plt\nplt.", "import os\nos.path.", "print("):
        try:
            script = jedi.Script(source, environment=environment)
            line = source.count("\n") + 1
            script.complete(line, len(source.split("\n")[-1]))
        except Exception:
            pass


def main():
    job_fd = int(os.environ.pop("SANDPAD_JOB_FD"))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    signal.signal(signal.SIGALRM, _on_alarm)
    import jedi
    jedi.settings.cache_directory = "/tmp/jedi-cache"
    environment = jedi.InterpreterEnvironment()  # in this process: no helper interpreter
    warm(jedi, environment)
    channel = socket.socket(fileno=job_fd)
    channel.setblocking(True)
    channel.sendall(b"ready\n")
    reader = channel.makefile("rb")
    while True:
        raw = reader.readline(MAX_REQUEST + 1)
        if not raw:
            return  # the host closed the socket: the service ends
        if len(raw) > MAX_REQUEST or not raw.endswith(b"\n"):
            return  # the host never sends this: end rather than guess where the next line starts
        try:
            request = json.loads(raw)
            if not isinstance(request, dict):
                raise ValueError
        except ValueError:
            reply = {"id": None, "ok": False, "error": "bad request"}
        else:
            reply = answer(jedi, environment, request)
        channel.sendall(json.dumps(reply, ensure_ascii=True).encode() + b"\n")


if __name__ == "__main__":
    main()
