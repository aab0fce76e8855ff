# The answers of Sandpad's Python language service (docs/runtime-protocol.md, "Language service"),
# shared by its two places: jedi_service.py (Jedi in a sandbox of its own, over the buffer's text)
# and session_complete.py (jedi.Interpreter inside a notebook session, over its live namespace).
# One request is {"op": "complete"|"signatures"|"help", "source", "line", "column", "deadline_ms"};
# the answer {"ok": true, "completions"|"signatures"|"help": [...]} or {"ok": false, "error"}.
# Every text is cut to a bound: the host parses the answer defensively as well (JediProtocol).

MAX_ITEMS = 200                 # completions per answer
MAX_NAME = 200                  # characters of a name, a type or one parameter
MAX_DOC = 16000                 # characters of a docstring or signature text
MAX_HELP = 5                    # definitions in a help answer


def cut(text, limit):
    text = text if isinstance(text, str) else str(text)
    return text if len(text) <= limit else text[:limit] + "\u2026"


def completions(script, line, column):
    out = []
    # Names only: Jedi infers a completion's `type` lazily, and for a module like numpy the first
    # 200 of them cost seconds; the editor's list shows names.
    for c in script.complete(line, column):
        out.append({"name": cut(c.name, MAX_NAME)})
        if len(out) >= MAX_ITEMS:
            break
    return {"completions": out}


def signatures(script, line, column):
    out = []
    for s in script.get_signatures(line, column)[:3]:
        params = [cut(p.to_string(), MAX_NAME) for p in s.params[:64]]
        out.append({"name": cut(s.name, MAX_NAME), "text": cut(s.to_string(), MAX_DOC),
                    "params": params, "index": s.index if s.index is not None else -1})
    return {"signatures": out}


def help_entries(script, line, column):
    entries = []
    names = script.help(line, column) or script.infer(line, column)
    for n in names[:MAX_HELP * 2]:
        try:
            doc, raw = n.docstring(), n.docstring(raw=True)
        except Exception:
            doc, raw = "", ""
        entries.append((not raw, {"name": cut(n.name or "", MAX_NAME), "full_name": cut(n.full_name or "", MAX_NAME),
                                  "type": cut(n.type or "", 40), "doc": cut(doc, MAX_DOC)}))
    # Documented definitions first: `os.path.join` is posixpath's and ntpath's (the stub's union),
    # in no fixed order, and only one of them has a docstring.
    entries.sort(key=lambda e: e[0])
    return {"help": [e[1] for e in entries[:MAX_HELP]]}


class Contexts:
    """The completions of the context of a name being typed - the buffer without that name, at
    its start - kept for the next keystrokes: `df.gr` after `df.g` filters the list of `df.`
    instead of asking Jedi again, as Jedi filters (case-insensitive prefix, in its order)."""

    NAMES = 20000  # names kept per context

    def __init__(self, size):
        self.size = size
        self.known = {}  # (source without the name being typed, line, its column) -> names

    def clear(self):
        self.known.clear()

    def complete(self, request, make_script):
        """The answer to a valid "complete" request; None for a number being typed."""
        source, line, column = request["source"], request["line"], request["column"]
        lines = source.split("\n")
        text = lines[line - 1]
        start = column
        while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        typed = text[start:column]
        if typed[:1].isdigit():
            return None  # a number, not a name
        lines[line - 1] = text[:start] + text[column:]
        key = ("\n".join(lines), line, start)
        names = self.known.get(key)
        if names is None:
            names = [c.name for c in make_script(key[0]).complete(line, start)][:self.NAMES]
            if len(self.known) >= self.size:
                self.known.pop(next(iter(self.known)))
            self.known[key] = names
        low = typed.lower()
        out = [{"name": cut(n, MAX_NAME)} for n in names if n.lower().startswith(low)]
        return {"ok": True, "completions": out[:MAX_ITEMS]}


def valid_position(request):
    """Whether `request` has a text and a position inside it."""
    source, line, column = request.get("source"), request.get("line"), request.get("column")
    if not isinstance(source, str) or not isinstance(line, int) or not isinstance(column, int):
        return False
    lines = source.split("\n")
    return 1 <= line <= len(lines) and 0 <= column <= len(lines[line - 1])


def valid_complete(request):
    """Whether `request` is a "complete" request whose position is inside its text."""
    return request.get("op") == "complete" and valid_position(request)


OPS = {"complete": completions, "signatures": signatures, "help": help_entries}


def deadline_ms(request, default=1000):
    deadline = request.get("deadline_ms", default)
    return min(max(int(deadline) if isinstance(deadline, (int, float)) else default, 10), 10000)


def respond(request, make_script, interrupted):
    """The answer to `request` (without its id). make_script(source) gives the Jedi Script (or
    Interpreter) to ask; an exception of the classes `interrupted` means the deadline passed."""
    op = OPS.get(request.get("op"))
    source = request.get("source")
    line, column = request.get("line"), request.get("column")
    if op is None or not isinstance(source, str) or not isinstance(line, int) or not isinstance(column, int):
        return {"ok": False, "error": "bad request"}
    lines = source.split("\n")
    if not 1 <= line <= len(lines) or not 0 <= column <= len(lines[line - 1]):
        return {"ok": False, "error": "position outside the text"}
    try:
        result = op(make_script(source), line, column)
    except interrupted:
        return {"ok": False, "error": "late"}
    except Exception as e:  # Jedi's own failure on odd code: an empty answer, the service stays
        return {"ok": False, "error": cut(type(e).__name__, MAX_NAME)}
    result["ok"] = True
    return result
