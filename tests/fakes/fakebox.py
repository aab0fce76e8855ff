"""Shared parts of the fake Vercel and Daytona servers (Python standard library only).

FakeBox: one fake sandbox = one host temp folder whose subfolders are bound into a bubblewrap
sandbox; commands run there for real and their output is captured live.
FakeState / BaseHandler: request log, fault injection and the /__fake/* control endpoints.
"""
import codecs
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

PYTHON = "/usr/bin/python3"


class Proc:
    """A command running in a FakeBox; output chunks kept in order for replay."""

    def __init__(self, popen):
        self.popen = popen
        self.chunks = []          # (stream, text)
        self.cond = threading.Condition()
        self.done = False
        self.exit_code = None
        self.killed_signal = None
        self.started_at = int(time.time() * 1000)
        readers = [threading.Thread(target=self._read, args=(popen.stdout, "stdout"), daemon=True),
                   threading.Thread(target=self._read, args=(popen.stderr, "stderr"), daemon=True)]
        for r in readers:
            r.start()
        threading.Thread(target=self._wait, args=(readers,), daemon=True).start()

    def _read(self, pipe, stream):
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            data = os.read(pipe.fileno(), 65536)
            if not data:
                break
            text = decoder.decode(data)
            if text:
                with self.cond:
                    self.chunks.append((stream, text))
                    self.cond.notify_all()
        pipe.close()

    def _wait(self, readers):
        code = self.popen.wait()
        for r in readers:
            r.join(5)
        with self.cond:
            self.exit_code = code if code >= 0 else 128 - code
            self.done = True
            self.cond.notify_all()

    def kill(self, sig=signal.SIGKILL):
        if self.popen.poll() is None:
            self.killed_signal = sig
            try:
                os.killpg(self.popen.pid, sig)
            except ProcessLookupError:
                pass

    def wait(self, timeout=None):
        with self.cond:
            return self.cond.wait_for(lambda: self.done, timeout)

    def chunks_from(self, index, timeout):
        """Chunks after index; waits up to timeout for new ones. Returns (chunks, done)."""
        with self.cond:
            self.cond.wait_for(lambda: len(self.chunks) > index or self.done, timeout)
            # Readers finish before `done` is set, so once done every chunk is already here.
            return self.chunks[index:], self.done


class _Spawner:
    """Starts every process from one long-lived thread: bwrap's --die-with-parent is tied to the
    thread that forked (PR_SET_PDEATHSIG), and request threads end with their request."""

    def __init__(self):
        import queue
        self.jobs = queue.Queue()
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self):
        while True:
            args, kwargs, box = self.jobs.get()
            try:
                box["result"] = subprocess.Popen(*args, **kwargs)
            except Exception as e:  # handed back to the caller
                box["result"] = e
            box["event"].set()

    def popen(self, *args, **kwargs):
        box = {"event": threading.Event()}
        self.jobs.put((args, kwargs, box))
        box["event"].wait()
        if isinstance(box["result"], Exception):
            raise box["result"]
        return box["result"]


_spawner = None
_spawner_lock = threading.Lock()


def spawn(*args, **kwargs):
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = _Spawner()
    return _spawner.popen(*args, **kwargs)


class FakeBox:
    """mounts: sandbox path -> name of a host subfolder (e.g. {"/vercel/sandbox": "work"})."""

    def __init__(self, mounts, default_cwd, network=False):
        self.network = network  # True: the host's network (a sandbox created with network access)
        self.root = tempfile.mkdtemp(prefix="sandpad-fake-")
        self.mounts = {}
        for inside, sub in mounts.items():
            host = os.path.join(self.root, sub)
            os.makedirs(host, exist_ok=True)
            os.chmod(host, 0o777)
            self.mounts[inside] = host
        self.default_cwd = default_cwd
        self.procs = []
        self.destroyed = False
        self.hidden = []  # programs the image lacks (option no_python3): not executable inside

    def host_path(self, path):
        path = os.path.normpath(path)
        for inside, host in self.mounts.items():
            if path == inside or path.startswith(inside + "/"):
                rel = os.path.relpath(path, inside)
                full = os.path.normpath(os.path.join(host, rel))
                if full == host or full.startswith(host + "/"):
                    return full
        return None

    def start(self, argv, cwd=None, env=None, stdin=None):
        """stdin: None (/dev/null) or subprocess.PIPE (the Proc's popen.stdin is then the writer)."""
        cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session"]
        if self.network:
            cmd += ["--share-net"]
        if os.geteuid() == 0:
            cmd += ["--cap-drop", "ALL"]
        cmd += ["--ro-bind", "/usr", "/usr"]
        for link in ("bin", "lib", "lib64", "sbin"):
            if os.path.islink("/" + link):
                cmd += ["--symlink", os.readlink("/" + link), "/" + link]
        for etc in ("/etc/ld.so.cache", "/etc/alternatives", "/etc/matplotlibrc", "/etc/fonts"):
            cmd += ["--ro-bind-try", etc, etc]
        cmd += ["--proc", "/proc", "--dev", "/dev"]
        for inside, host in self.mounts.items():
            cmd += ["--bind", host, inside]
        for program in self.hidden:  # `command -v` no longer finds it; running it fails
            cmd += ["--ro-bind", "/dev/null", program]
        cmd += ["--chdir", cwd or self.default_cwd, "--clearenv",
                "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin",
                "--setenv", "HOME", "/tmp", "--setenv", "MPLCONFIGDIR", "/tmp/.mpl",
                "--setenv", "LANG", "C.UTF-8"]
        for k, v in (env or {}).items():
            cmd += ["--setenv", k, v]
        cmd += ["--"] + list(argv)
        popen = spawn(cmd, stdin=subprocess.DEVNULL if stdin is None else stdin, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=True)
        proc = Proc(popen)
        self.procs.append(proc)
        return proc

    def alive(self):
        return any(p.popen.poll() is None for p in self.procs)

    def destroy(self):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait(5)
        shutil.rmtree(self.root, ignore_errors=True)
        self.destroyed = True


class FakeState:
    def __init__(self):
        self.lock = threading.RLock()
        self.requests = []
        self.faults = []       # one-shot HTTP faults: {method, path, status, retry_after, count}
        self.options = {}      # named behaviours: cut_logs, stop_never_confirms, create_delay, ...
        self.boxes = {}        # sandbox id -> FakeBox

    def take_fault(self, method, path):
        with self.lock:
            for f in self.faults:
                if f.get("count", 1) <= 0:
                    continue
                if f.get("method", method) != method or not re.search(f.get("path", ".*"), path):
                    continue
                f["count"] = f.get("count", 1) - 1
                return dict(f)
        return None

    def new_box(self, box):
        """A sandbox's FakeBox as the options say (no_python3: an image without python3)."""
        if self.options.get("no_python3"):
            box.hidden = [os.path.realpath("/usr/bin/python3"), "/usr/bin/python3"]
        return box

    def command_delay(self, line):
        """Seconds a command waits before it starts (option command_delay: {"match": regex,
        "seconds": s, "count": n}, e.g. a relay that is slow to reach its host); 0 for most."""
        with self.lock:
            opt = self.options.get("command_delay")
            if not isinstance(opt, dict) or not re.search(opt.get("match", "$^"), line):
                return 0
            if opt.get("count", 1) <= 0:
                return 0
            opt["count"] = opt.get("count", 1) - 1
            return float(opt.get("seconds", 1))

    def take_option(self, name):
        """A counted option: returns its value once per count (value dicts carry 'count')."""
        with self.lock:
            opt = self.options.get(name)
            if not opt:
                return None
            if isinstance(opt, dict) and "count" in opt:
                if opt["count"] <= 0:
                    return None
                opt["count"] -= 1
            return opt


class BaseHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None  # set by serve()

    def log_message(self, fmt, *args):  # quiet
        pass

    # --- service-specific ---
    def error_body(self, status, code, message):
        raise NotImplementedError

    def route(self, method, path, query):
        raise NotImplementedError

    # --- helpers ---
    def read_body(self):
        if getattr(self, "_body", None) is not None:
            return self._body
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
        else:
            data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._body = data
        return data

    def json_body(self):
        try:
            obj = json.loads(self.read_body() or b"null")
        except ValueError:
            return None
        return obj

    def send(self, status, body=b"", ctype="application/json", headers=None):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        self._note_status(status)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self._status = status

    def fail(self, status, code, message, headers=None):
        self.send(status, self.error_body(status, code, message), headers=headers)

    def _note_status(self, status):
        entry = getattr(self, "_entry", None)
        if entry is not None:
            with self.state.lock:
                entry["status"] = status

    def start_chunked(self, status, ctype):
        self._note_status(status)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self._status = status

    def chunk(self, data):
        if data:
            try:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client went (a killed run's stream)

    def end_chunked(self):
        try:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def cut_connection(self):
        """Drops the connection mid-stream (no terminating chunk)."""
        import socket
        self.wfile.flush()
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.close_connection = True

    # --- dispatch ---
    def _dispatch(self):
        self._entry = None
        self._body = None
        self._status = 0
        started = time.monotonic()
        parts = urlsplit(self.path)
        path, query = parts.path, parse_qs(parts.query)
        if path.startswith("/__fake/"):
            self.control(path)
            return
        # Logged on arrival, and its status set before the answer is written: a client that has
        # its answer finds the request in the log (logged after the answer, a test's next look at
        # the log could miss it).
        self._entry = {"method": self.command, "path": path, "query": parts.query, "status": 0, "ms": 0,
                       "t": time.time(), "headers": self.logged_headers()}
        with self.state.lock:
            self.state.requests.append(self._entry)
        try:
            fault = self.state.take_fault(self.command, path)
            if fault:
                self.read_body()
                headers = {}
                if fault.get("retry_after") is not None:
                    headers.update(self.retry_after_headers(fault["retry_after"]))
                status = fault.get("status", 500)
                codes = {429: "too_many_requests", 500: "internal_server_error", 503: "service_unavailable",
                         402: "payment_required"}
                self.fail(status, codes.get(status, "error"), fault.get("message", "injected fault"), headers)
            else:
                self.route(self.command, path, query)
        finally:
            with self.state.lock:
                self._entry["status"] = self._status
                self._entry["ms"] = round((time.monotonic() - started) * 1000, 3)
                fields = self.body_fields()
                if fields is not None:
                    self._entry["body_fields"] = fields

    def logged_headers(self):
        """The request's headers, names lower-cased, secrets replaced by their length (for the
        conformance tests, which compare the headers that matter)."""
        out = {}
        for k, v in self.headers.items():
            k = k.lower()
            out[k] = ("<%d chars>" % len(v)) if k in ("authorization", "cookie") else v
        return out

    def body_fields(self):
        """Top-level keys of a JSON object body, or the part names of a multipart one; None when
        the body was not read or is neither."""
        body = getattr(self, "_body", None)
        if not body:
            return None
        ctype = self.headers.get("Content-Type", "")
        if ctype.startswith("multipart/form-data"):
            import email.parser
            import email.policy
            msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + body)
            if not msg.is_multipart():
                return None
            return [p.get_param("name", header="content-disposition") for p in msg.iter_parts()]
        try:
            obj = json.loads(body)
        except ValueError:
            return None
        return sorted(obj.keys()) if isinstance(obj, dict) else None

    def retry_after_headers(self, seconds):
        return {"Retry-After": str(seconds)}

    def control(self, path):
        st = self.state
        if path == "/__fake/requests":
            with st.lock:
                self.send(200, st.requests)
        elif path == "/__fake/reset":
            self.read_body()
            with st.lock:
                st.requests.clear()
                st.faults.clear()
                st.options.clear()
            self.send(200, {})
        elif path == "/__fake/faults":
            body = self.json_body() or {}
            with st.lock:
                st.faults.extend(body.get("faults", []))
                st.options.update(body.get("options", {}))
            self.send(200, {})
        elif path == "/__fake/sandboxes":
            with st.lock:
                out = {sid: {"alive": box.alive(), "root_exists": os.path.isdir(box.root),
                             "destroyed": box.destroyed, "state": self.describe(sid), "info": self.info(sid)}
                       for sid, box in st.boxes.items()}
            self.send(200, out)
        else:
            self.send(404, {"error": "unknown control path"})

    def describe(self, sid):
        return ""

    def info(self, sid):
        """What a service's fake tells tests about a sandbox besides its state (e.g. resources)."""
        return {}

    def do_GET(self):
        self._dispatch()

    def do_POST(self):
        self._dispatch()

    def do_DELETE(self):
        self._dispatch()

    def do_PUT(self):
        self._dispatch()

    def do_PATCH(self):
        self._dispatch()


def serve(handler_cls, state, port=0):
    handler_cls.state = state
    server = ThreadingHTTPServer(("127.0.0.1", port), handler_cls)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)

    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)

    # A test that crashes never stops us: leave when the parent goes away.
    parent = os.getppid()

    def orphan_watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=orphan_watch, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        with state.lock:
            for box in state.boxes.values():
                if not box.destroyed:
                    for p in box.procs:
                        p.kill()
                    shutil.rmtree(box.root, ignore_errors=True)
    sys.exit(0)
