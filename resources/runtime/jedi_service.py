# Sandpad's Python language service (core/completion, docs/local-sandbox.md "Language service").
# Runs inside a local sandbox of its own, never on the host: the buffer text is the user's, and
# Jedi reads files and imports compiled modules to answer. Started pre-started like a run's
# wrapper: it warms Jedi up, says "ready" on the job socket (SANDPAD_JOB_FD), then answers one
# JSON request per line with one JSON answer per line, in order. Nothing else is ever written to
# the socket; stdout and stderr go to /dev/null (the host discards them anyway). The answers
# themselves are jedi_answers.py's (placed beside this file), shared with a session's.
#
# Speed: a new jedi.Script infers everything again (its own inference state), so `df.` on pandas
# code cost half a second per keystroke. Here one inference state is kept across requests (what
# Jedi learnt about numpy and pandas stays, the warm-up's included); it is renewed after
# RENEW_AFTER requests (its caches grow with every buffer) and after a failed or late request
# (a half-done inference leaves placeholders in its caches). And while a name is being typed the
# completions of its context are reused: `df.gr` after `df.g` filters the list of `df.` instead
# of asking Jedi again.
import json
import os
import signal
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jedi_answers  # noqa: E402

MAX_REQUEST = 4 * 1024 * 1024   # the host sends at most 1 MiB of source; anything longer is refused
RENEW_AFTER = 300               # requests answered with one inference state
CONTEXTS = 16                   # completion contexts remembered (the buffers being typed in)


class Late(BaseException):
    """The request's own deadline passed: a BaseException so that Jedi's `except Exception` does
    not swallow it."""


def _on_alarm(signum, frame):
    raise Late()


class Service:
    def __init__(self, jedi, environment):
        self.jedi = jedi
        self.environment = environment
        self.project = jedi.get_default_project()
        self.state = None
        self.uses = 0
        self.contexts = jedi_answers.Contexts(CONTEXTS)

    def fresh(self, source):
        """A Script of its own, as every request had before (`"reuse": false`: the benchmark's baseline)."""
        return self.jedi.Script(source, environment=self.environment)

    def script(self, source):
        script = self.jedi.Script(source, environment=self.environment, project=self.project)
        if self.state is None or self.uses >= RENEW_AFTER or not hasattr(script, "_inference_state"):
            self.state = getattr(script, "_inference_state", None)
            self.uses = 0
        else:
            script._inference_state = self.state
        if self.state is not None:
            # Jedi's limits on how much one request infers count per state: each request anew.
            self.state.reset_recursion_limitations()
            self.state.inferred_element_counts = {}
        self.uses += 1
        return script

    def renew(self):
        self.state = None
        self.contexts.clear()

    def complete(self, request):
        """The completions of a name being typed from its context's, when known; None otherwise."""
        return self.contexts.complete(request, self.script)


def answer(service, request):
    rid = request.get("id")
    deadline = jedi_answers.deadline_ms(request)
    reuse = request.get("reuse", True) is not False
    signal.setitimer(signal.ITIMER_REAL, deadline / 1000.0)
    try:
        result = None
        if not reuse:
            result = jedi_answers.respond(request, service.fresh, Late)
        elif jedi_answers.valid_complete(request):
            result = service.complete(request)
        if result is None:
            result = jedi_answers.respond(request, service.script, Late)
    except Late:
        result = {"ok": False, "error": "late"}
    except Exception as e:
        result = {"ok": False, "error": jedi_answers.cut(type(e).__name__, jedi_answers.MAX_NAME)}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if reuse and not result.get("ok") and result.get("error") not in ("bad request", "position outside the text"):
        service.renew()  # a request cut short may have left Jedi's caches half-filled
    result["id"] = rid
    return result


def warm(service):
    # What snippets use most, inferred into the kept state: the first real request is then fast.
    for source in ("import numpy as np\nnp.", "import numpy as np\nnp.linspace(",
                   "import pandas as pd\ndf = pd.DataFrame()\ndf.", "import pandas as pd\ndf = pd.DataFrame()\ndf['a'].",
                   "import pandas as pd\npd.DataFrame().groupby('a').", "import matplotlib.pyplot as plt\nplt.",
                   "import os\nos.path.", "print("):
        try:
            script = service.script(source)
            line = source.count("\n") + 1
            column = len(source.split("\n")[-1])
            if source.endswith("("):
                script.get_signatures(line, column)
            else:
                script.complete(line, column)
        except Exception:
            service.renew()


def main():
    job_fd = int(os.environ.pop("SANDPAD_JOB_FD"))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    signal.signal(signal.SIGALRM, _on_alarm)
    import jedi
    jedi.settings.cache_directory = "/tmp/jedi-cache"
    service = Service(jedi, jedi.InterpreterEnvironment())  # in this process: no helper interpreter
    warm(service)
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
            reply = answer(service, request)
        channel.sendall(json.dumps(reply, ensure_ascii=True).encode() + b"\n")


if __name__ == "__main__":
    main()
