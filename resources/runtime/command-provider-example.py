#!/usr/bin/python3
"""Sandpad command provider example: a local bubblewrap sandbox behind the JSON-lines protocol.

Sandpad starts this program once per sandbox and talks to it on stdin/stdout, one JSON object per
line (docs/providers.md, "Command providers"). Diagnostics go to stderr. Replace the FakeBox-like
parts below with `docker run`, `ssh host ...` or `kubectl exec` to plug in another runner.

Requests: {"id": n, "op": "validate"|"create"|"write_files"|"run"|"kill"|"read_file"|"destroy", ...}
Answers:  {"id": n, "ok": true, ...} or {"id": n, "ok": false, "error": {"kind", "message"}}
Events:   {"id": n, "event": "output", "stream": "stdout"|"stderr", "data": base64} (during run)
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

WORK = "/sandpad"          # the work folder as seen inside the sandbox
NOBODY = 65534
_out_lock = threading.Lock()


def send(obj):
    line = json.dumps(obj, separators=(",", ":")) + "\n"
    with _out_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def fail(rid, kind, message):
    send({"id": rid, "ok": False, "error": {"kind": kind, "message": message}})


def which(name):
    path = shutil.which(name, path="/usr/local/bin:/usr/bin:/bin")
    return os.path.realpath(path) if path else None


class Box:
    def __init__(self):
        self.host = None
        self.allow_network = False
        self.runs = {}  # request id -> Popen
        self.lock = threading.Lock()

    def create(self, req):
        self.host = tempfile.mkdtemp(prefix="sandpad-cmd-")
        self.allow_network = bool(req.get("allow_network"))
        if os.geteuid() == 0:
            os.chown(self.host, NOBODY, NOBODY)
        return {"id": os.path.basename(self.host), "work_dir": WORK,
                "interpreters": {"python": "/usr/bin/python3", "javascript": which("node") or "node"},
                "pip_args": []}

    def host_path(self, path):
        path = os.path.normpath(path)
        if path != WORK and not path.startswith(WORK + "/"):
            return None
        return os.path.join(self.host, os.path.relpath(path, WORK))

    def write_files(self, files):
        for f in files:
            target = self.host_path(f["path"])
            if target is None:
                raise ValueError("%s is outside %s" % (f["path"], WORK))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as out:
                out.write(base64.b64decode(f.get("data", "")))
            os.chmod(target, int(f.get("mode", 0o644)) & 0o777)
            if os.geteuid() == 0:  # the sandbox runs as nobody
                for dirpath, dirs, names in os.walk(self.host):
                    for n in dirs + names:
                        os.lchown(os.path.join(dirpath, n), NOBODY, NOBODY)

    def command(self, argv, cwd, env):
        cmd = []
        if os.geteuid() == 0:  # never run user code as root, even inside bwrap
            cmd += ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all"]
        cmd += ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        if self.allow_network:
            cmd += ["--share-net", "--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf",
                    "--ro-bind-try", "/etc/ssl", "/etc/ssl"]
        cmd += ["--ro-bind", "/usr", "/usr"]
        for link in ("bin", "lib", "lib64", "sbin"):
            if os.path.islink("/" + link):
                cmd += ["--symlink", os.readlink("/" + link), "/" + link]
        for etc in ("/etc/ld.so.cache", "/etc/alternatives", "/etc/matplotlibrc", "/etc/fonts"):
            cmd += ["--ro-bind-try", etc, etc]
        cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--bind", self.host, WORK,
                "--remount-ro", "/", "--chdir", cwd or WORK, "--clearenv", "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin",
                "--setenv", "HOME", "/tmp", "--setenv", "MPLCONFIGDIR", "/tmp/.mpl", "--setenv", "LANG", "C.UTF-8"]
        for k, v in (env or {}).items():
            cmd += ["--setenv", k, v]
        return cmd + ["--"] + list(argv)

    def run(self, rid, req):
        popen = subprocess.Popen(self.command(req["argv"], req.get("cwd"), req.get("env")),
                                 stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 start_new_session=True)
        with self.lock:
            self.runs[rid] = popen
        timeout = max(1, int(req.get("timeout_ms", 300000))) / 1000.0

        def pump(pipe, stream):
            while True:
                data = os.read(pipe.fileno(), 65536)
                if not data:
                    break
                send({"id": rid, "event": "output", "stream": stream,
                      "data": base64.b64encode(data).decode("ascii")})
        pumps = [threading.Thread(target=pump, args=(popen.stdout, "stdout")),
                 threading.Thread(target=pump, args=(popen.stderr, "stderr"))]
        for p in pumps:
            p.start()
        timed_out = False
        try:
            popen.wait(timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            self.kill_popen(popen)
            popen.wait()
        for p in pumps:
            p.join()
        with self.lock:
            killed = self.runs.pop(rid, None) is None
        code = popen.returncode
        result = {"id": rid, "ok": True, "timed_out": timed_out}
        if timed_out or killed or code < 0:
            result["exit_code"] = None
            result["detail"] = ("timed out after %d ms" % (timeout * 1000) if timed_out else
                                "killed" if killed else "killed by signal %d" % -code)
        else:
            result["exit_code"] = code
        send(result)

    @staticmethod
    def kill_popen(popen):
        try:
            os.killpg(popen.pid, signal.SIGKILL)  # bwrap's PID namespace dies with its init
        except ProcessLookupError:
            pass

    def kill(self, target):
        with self.lock:
            popen = self.runs.pop(target, None)
        if popen:
            self.kill_popen(popen)

    def read_file(self, path):
        host = self.host_path(path)
        if host is None or not os.path.isfile(host):
            return {"exists": False}
        with open(host, "rb") as f:
            return {"exists": True, "data": base64.b64encode(f.read()).decode("ascii")}

    def destroy(self):
        with self.lock:
            runs = list(self.runs.values())
            self.runs.clear()
        for popen in runs:
            self.kill_popen(popen)
        for popen in runs:
            try:
                popen.wait(5)
            except subprocess.TimeoutExpired:
                pass
        alive = [p.pid for p in runs if p.poll() is None]
        if self.host:
            shutil.rmtree(self.host, ignore_errors=True)
        gone = not self.host or not os.path.exists(self.host)
        detail = "work folder removed, no process left" if gone and not alive else \
            "left behind: %s" % ("processes %s" % alive if alive else self.host)
        return {"confirmed": gone and not alive, "detail": detail}


def validate():
    items = []
    for name, path in (("bubblewrap", which("bwrap")), ("python3", "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else None),
                       ("node", which("node"))):
        items.append({"name": name, "level": "ok" if path else "error", "detail": path or "not found"})
    if os.geteuid() == 0:
        items.append({"name": "setpriv", "level": "ok" if which("setpriv") else "error",
                      "detail": "drops root before bwrap" if which("setpriv") else "not found (util-linux)"})
    return items


def main():
    box = Box()
    threads = []
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            rid, op = req["id"], req["op"]
        except (ValueError, KeyError, TypeError):
            fail(None, "protocol", "not a request: %s" % line[:100])
            continue
        try:
            if op == "validate":
                send({"id": rid, "ok": True, "items": validate()})
            elif op == "create":
                send({"id": rid, "ok": True, "sandbox": box.create(req)})
            elif op == "write_files":
                box.write_files(req.get("files", []))
                send({"id": rid, "ok": True})
            elif op == "run":
                t = threading.Thread(target=box.run, args=(rid, req))
                t.start()
                threads.append(t)
            elif op == "kill":
                box.kill(req.get("target"))
                send({"id": rid, "ok": True})
            elif op == "read_file":
                send(dict(box.read_file(req["path"]), id=rid, ok=True))
            elif op == "destroy":
                send(dict(box.destroy(), id=rid, ok=True))
            else:
                fail(rid, "protocol", "unknown op %s" % op)
        except Exception as e:  # every failure is an answer, never a dead pipe
            fail(rid, "io", "%s: %s" % (type(e).__name__, e))
    box.destroy()  # stdin closed: leave nothing behind
    for t in threads:
        t.join(10)


if __name__ == "__main__":
    main()
