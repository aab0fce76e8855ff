# Sandpad's remote notebook session: the session host and its relay (docs/runtime-protocol.md,
# "Remote sessions"). Placed in the work dir W of a Vercel or Daytona sandbox and run with the
# sandbox's python3, for both languages.
#
#   session_host.py serve W python|javascript INTERPRETER   the host: a detached remote command
#   session_host.py wait W SECONDS                          until the host is ready (or says why not)
#   session_host.py exec W MANIFEST ID [interrupt]          one execution (the relay)
#   session_host.py interrupt W ID                          interrupts execution ID
#   session_host.py fetch W SECONDS HEX                     a table window between executions
#
# The host starts the interpreter exactly as the local provider's pre-started sandbox does (the
# wrapper with --warm, then the job `--session`: session.py / session.mjs do the executions) and
# listens on the unix socket W/.session/host.sock. Each execution is an ordinary remote command,
# the relay, which hands the host its own stdout and stderr (SCM_RIGHTS) with the manifest: the
# interpreter's output goes straight into the relay's streams, which the provider streams as for
# any command. The result channel's frames become files in W/out (read back like a fresh run's).
# After each execution the host kills every process the execution started (it is their child
# subreaper: orphans come back to it), confirms them gone and answers; the relay exits with the
# execution's status: 0 done, 10 done but a process could not be confirmed gone, 11 the
# interpreter ended, 12 no session host, 13 a protocol error. Details in W/.session/exec.json.
#
# ID names an execution (the client's, unique per session): an interrupt for an execution whose
# relay has not reached the host yet is kept and delivered when it does (as one for an execution
# whose code has not started is held until it starts). A fetch (HEX: the request's JSON in hex)
# is the interpreter's `--fetch` job: its answer (the frame fetch.json) goes to the relay's
# stdout; SIGINT at SECONDS, the interpreter killed (the session over) FETCH_GRACE later.

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

EXIT_DONE, EXIT_STRAYS, EXIT_DEAD, EXIT_NO_HOST, EXIT_PROTOCOL = 0, 10, 11, 12, 13
STRAY_TIMEOUT = 10.0
FETCH_GRACE = 3.0           # after a fetch's interrupt, before the interpreter is killed
MAX_FETCH_BYTES = 4 << 20   # what one fetch answer may be
HELD_INTERRUPTS = 16        # interrupts kept for executions not here yet


def _paths(work):
    state = os.path.join(work, ".session")
    return state, os.path.join(state, "host.sock"), os.path.join(state, "exec.json")


def _write_json(path, obj):
    with open(path + ".part", "w") as f:
        json.dump(obj, f)
    os.replace(path + ".part", path)


# ---------------------------------------------------------------------------------------------
# The host.

class _Frames:
    """The result channel (a JSON header line {"name", "size"}, then the bytes) into files."""

    def __init__(self, out_dir, kept=None):
        self.out_dir = out_dir
        self.kept = kept  # a dict: frames kept in memory instead (a fetch's)
        self.buffer = bytearray()
        self.started = False
        self.error = None

    def feed(self, data):
        self.buffer += data
        while True:
            end = self.buffer.find(b"\n")
            if end < 0:
                return
            try:
                header = json.loads(bytes(self.buffer[:end]).decode("utf-8"))
                name, size = header["name"], int(header["size"])
            except (ValueError, KeyError, TypeError):
                self.error = "a malformed frame header"
                self.buffer.clear()
                return
            if len(self.buffer) < end + 1 + size:
                return
            data_part = bytes(self.buffer[end + 1:end + 1 + size])
            del self.buffer[:end + 1 + size]
            self._place(name, data_part)

    def _place(self, name, data):
        parts = name.split("/") if isinstance(name, str) else []
        if not parts or any(p in ("", ".", "..") or "\0" in p for p in parts):
            self.error = "a frame named %r" % (name,)
            return
        if name == "started":
            self.started = True
        if self.kept is not None:
            if len(data) > MAX_FETCH_BYTES:
                self.error = "a frame %r of %d bytes (over %d)" % (name, len(data), MAX_FETCH_BYTES)
            else:
                self.kept[name] = data
            return
        if os.path.islink(self.out_dir):  # replaced by a link during the execution
            _clear(self.out_dir)
        path = os.path.join(self.out_dir, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".part", "wb") as f:
            f.write(data)
        os.replace(path + ".part", path)


def _clear(folder):
    # The user's code may have replaced the folder by a link: never clear (or fill) what it points at.
    if os.path.islink(folder) or not os.path.isdir(folder):
        if os.path.lexists(folder):
            os.unlink(folder)
        os.makedirs(folder)
        return
    for root, dirs, files in os.walk(folder, topdown=False):
        for f in files:
            os.unlink(os.path.join(root, f))
        for d in dirs:
            path = os.path.join(root, d)
            if os.path.islink(path):
                os.unlink(path)
            else:
                os.rmdir(path)


def _processes():
    """{pid: (ppid, state)} of every process this host can see."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if len(fields) >= 2:
            table[int(entry)] = (int(fields[1]), fields[0])
    return table


def _descendants(root):
    table = _processes()
    children = {}
    for pid, (ppid, state) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = {}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found[child] = table[child][1]
                todo.append(child)
    return found


def _kill_strays(interpreter_pid):
    """Kills every descendant of this host but the interpreter; (count, confirmed, detail)."""
    me = os.getpid()
    killed = set()
    deadline = time.monotonic() + STRAY_TIMEOUT
    while True:
        live = {pid: st for pid, st in _descendants(me).items() if pid != interpreter_pid and st not in ("Z", "X")}
        for pid in list(_descendants(me)):  # reap our own (reparented) zombies
            if pid != interpreter_pid:
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
        if not live:
            return len(killed), True, ""
        if time.monotonic() > deadline:
            return len(killed), False, "%d process(es) still running after SIGKILL: %s" % (
                len(live), ", ".join(str(p) for p in sorted(live)[:10]))
        for pid in live:
            killed.add(pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.01)


def _subreaper():
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER: orphans come back here
    except Exception:
        return False


class Host:
    def __init__(self, work, language, interpreter):
        self.work = work
        self.state_dir, self.sock_path, self.exec_path = _paths(work)
        self.out_dir = os.path.join(work, "out")
        self.language = language
        self.interpreter = interpreter
        self.failed = None      # why the session could not start
        self.ready = False
        self.current = None     # the execution going on: {"conn", "fds", "interrupt", "id"} (a fetch: "fetch")
        self.held = []          # ids of executions interrupted before their relay came
        self.count = 0
        self.job_buffer = b""
        self.err_tail = b""

    def start_interpreter(self):
        python = self.language == "python"
        wrapper = os.path.join(self.work, "wrapper.py" if python else "wrapper.mjs")
        self.job, child_job = socket.socketpair()
        result_r, result_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        env = dict(os.environ)
        env["SANDPAD_JOB_FD"] = str(child_job.fileno())
        env["SANDPAD_RESULT_FD"] = str(result_w)
        if python:
            env["MPLBACKEND"] = "Agg"
        self.proc = subprocess.Popen([self.interpreter, wrapper, "--warm"], cwd=self.work, env=env,
                                     stdin=subprocess.DEVNULL, stdout=out_w, stderr=err_w,
                                     pass_fds=(child_job.fileno(), result_w), close_fds=True)
        child_job.close()
        for fd in (result_w, out_w, err_w):
            os.close(fd)
        self.result_r, self.out_r, self.err_r = result_r, out_r, err_r
        for fd in (result_r, out_r, err_r):
            os.set_blocking(fd, False)
        self.frames = _Frames(self.out_dir)

    def serve(self):
        os.makedirs(self.state_dir, mode=0o700, exist_ok=True)
        os.makedirs(self.out_dir, exist_ok=True)
        try:
            os.unlink(self.sock_path)
        except FileNotFoundError:
            pass
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.sock_path)
        os.chmod(self.sock_path, 0o600)
        self.listener.listen(16)
        if not _subreaper():
            sys.stderr.write("sandpad session host: no child subreaper; orphaned processes are not tracked\n")
        self.start_interpreter()
        started = time.monotonic()
        while True:
            fds = [self.listener, self.job, self.result_r, self.out_r, self.err_r]
            if self.current is not None:
                fds.append(self.current["conn"])
            wait = 0.5
            if self.current is not None and self.current.get("fetch"):
                wait = max(0.0, min(wait, self.current["next"] - time.monotonic()))
            readable = select.select(fds, [], [], wait)[0]
            if self.out_r in readable:
                self.pump(self.out_r, 0)
            if self.err_r in readable:
                self.pump(self.err_r, 1)
            if self.result_r in readable:
                self.read_frames()
            if self.job in readable:
                if not self.read_job():
                    return self.end()
            if self.listener in readable:
                self.accept()
            if self.current is not None and self.current["conn"] in readable:
                try:
                    if not self.current["conn"].recv(1, socket.MSG_DONTWAIT):
                        self.current["conn_gone"] = True  # the relay was killed: its output goes nowhere
                        self.current["fds"] = self.close_fds(self.current["fds"])
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    self.current["conn_gone"] = True
            if self.current is not None and self.current.get("fetch"):
                self.watch_fetch()
            if not self.ready and self.failed is None and time.monotonic() - started > 180:
                self.failed = "the interpreter did not become ready in 180 s"
                self.proc.kill()
            if self.proc.poll() is not None and not self.job_readable():
                return self.end()

    def job_readable(self):
        return bool(select.select([self.job], [], [], 0)[0])

    phase = 0  # 0: waiting for the warm wrapper's "ready", 1: for the session's

    def read_job(self):
        try:
            data = self.job.recv(4096)
        except OSError:
            data = b""
        if not data:
            return False
        self.job_buffer += data
        while b"\n" in self.job_buffer:
            line, self.job_buffer = self.job_buffer.split(b"\n", 1)
            if not self.ready:
                if line != b"ready":
                    self.failed = "the interpreter said %r" % line[:200]
                    continue
                if self.phase == 0:
                    self.phase = 1
                    self.job.sendall(b"--session\n")
                else:
                    self.ready = True
                continue
            if line.startswith(b"done ") and self.current is not None and not self.current.get("fetch"):
                self.finish(int(line[5:] or b"0"))
            elif line == b"fetched" and self.current is not None and self.current.get("fetch"):
                self.finish_fetch()
        return True

    def pump(self, fd, which):
        try:
            data = os.read(fd, 65536)
        except (BlockingIOError, InterruptedError):
            return
        if not data:
            return
        if which == 1:
            self.err_tail = (self.err_tail + data)[-2000:]
        self.forward(data, which, tail=False)

    def drain(self):
        for fd, which in ((self.out_r, 0), (self.err_r, 1)):
            while True:
                try:
                    data = os.read(fd, 65536)
                except (BlockingIOError, InterruptedError):
                    break
                if not data:
                    break
                self.forward(data, which)
        self.read_frames(all_of_it=True)

    def forward(self, data, which, tail=True):
        if which == 1 and tail:
            self.err_tail = (self.err_tail + data)[-2000:]
        if self.current is None or not self.current["fds"]:
            return  # between executions (or before the first): nobody to show it to
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.current["fds"][which], view):]
            except BlockingIOError:
                select.select([], [self.current["fds"][which]], [], 1)
            except OSError:  # the relay is gone
                self.current["fds"] = self.close_fds(self.current["fds"])
                return

    def read_frames(self, all_of_it=False):
        while True:
            try:
                data = os.read(self.result_r, 1 << 20)
            except (BlockingIOError, InterruptedError):
                return
            if not data:
                return
            if self.current is not None:
                was_started = self.frames.started
                self.frames.feed(data)
                if self.frames.started and not was_started and self.current.get("interrupt"):
                    self.interrupt()  # held until the execution's code is about to start
            if not all_of_it:
                return

    @staticmethod
    def close_fds(fds):
        for fd in fds or ():
            try:
                os.close(fd)
            except OSError:
                pass
        return []

    def accept(self):
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        conn.settimeout(5)
        try:
            msg, fds, _, _ = socket.recv_fds(conn, 65536, 2)
            request = json.loads(msg.decode("utf-8").strip() or "{}")
        except (OSError, ValueError):
            conn.close()
            return
        op = request.get("op")
        if op == "ping":
            self.close_fds(fds)
            answer = {"failed": self.failed} if self.failed else {"ready": self.ready}
            if self.failed and self.err_tail:
                answer["stderr"] = self.err_tail.decode("utf-8", "replace")
            self.reply(conn, answer)
        elif op == "interrupt":
            self.close_fds(fds)
            wanted = request.get("id")
            running = self.current is not None and not self.current.get("fetch") and \
                (wanted is None or self.current.get("id") == wanted)
            if running:
                if self.frames.started:
                    self.interrupt()
                else:
                    self.current["interrupt"] = True
            elif isinstance(wanted, str) and wanted:
                # Its relay has not come yet (or has been and gone: then nothing comes for it).
                self.held = (self.held + [wanted])[-HELD_INTERRUPTS:]
            self.reply(conn, {"running": running, "held": not running and bool(wanted)})
        elif op in ("exec", "fetch") and self.failed:
            self.close_fds(fds)
            self.reply(conn, {"dead": self.failed})
        elif op == "fetch":
            self.close_fds(fds)
            text = request.get("request")
            seconds = request.get("seconds")
            if not self.ready or self.current is not None or not isinstance(text, str) or "\n" in text \
                    or "\t" in text or not isinstance(seconds, (int, float)) or seconds <= 0:
                why = "the session is busy" if self.current is not None else (
                    "the session is not ready" if not self.ready else "a malformed fetch request")
                self.reply(conn, {"error": why})
                return
            conn.setblocking(True)
            kept = {}
            self.frames = _Frames(self.out_dir, kept)
            self.current = {"conn": conn, "fds": [], "fetch": True, "kept": kept, "seconds": seconds,
                            "next": time.monotonic() + seconds, "interrupted": False}
            self.job.sendall(b"--fetch\t" + text.encode("utf-8") + b"\n")
        elif op == "exec":
            if not self.ready or self.current is not None or len(fds) != 2 or not isinstance(request.get("manifest"), str) \
                    or "\n" in request["manifest"] or "\t" in request["manifest"]:
                self.close_fds(fds)
                why = "the session is busy" if self.current is not None else (
                    "the session is not ready" if not self.ready else "a malformed execution request")
                self.reply(conn, {"error": why})
                return
            _clear(self.out_dir)
            self.frames = _Frames(self.out_dir)
            conn.setblocking(True)
            ident = request.get("id") if isinstance(request.get("id"), str) else None
            held = ident is not None and ident in self.held
            if held:
                self.held.remove(ident)
            self.current = {"conn": conn, "fds": list(fds), "interrupt": bool(request.get("interrupt")) or held,
                            "id": ident}
            self.count += 1
            self.job.sendall(request["manifest"].encode("utf-8") + b"\n")
        else:
            self.close_fds(fds)
            self.reply(conn, {"error": "unknown request"})

    def interrupt(self):
        self.current["interrupt"] = False
        try:
            os.kill(self.proc.pid, signal.SIGINT)
        except ProcessLookupError:
            pass

    def reply(self, conn, answer):
        try:
            conn.sendall(json.dumps(answer).encode("utf-8") + b"\n")
        except OSError:
            pass
        conn.close()

    def finish(self, n):
        self.drain()
        strays, confirmed, detail = _kill_strays(self.proc.pid)
        self.drain()  # what the killed processes had written
        answer = {"done": n, "started": self.frames.started, "strays": strays, "confirmed": confirmed,
                  "detail": detail}
        if self.frames.error:
            answer["frame_error"] = self.frames.error
        _write_json(self.exec_path, answer)
        current, self.current = self.current, None
        self.close_fds(current["fds"])
        self.reply(current["conn"], answer)

    def watch_fetch(self):
        """A fetch's deadline: SIGINT (the value's own code is interrupted), then the kill."""
        current = self.current
        if time.monotonic() < current["next"]:
            return
        if not current["interrupted"]:
            current["interrupted"] = True
            current["next"] += FETCH_GRACE
            try:
                os.kill(self.proc.pid, signal.SIGINT)
            except ProcessLookupError:
                pass
        elif self.failed is None:
            current["next"] += 3600  # end() answers the relay once the interpreter is gone
            self.failed = "the value did not answer its fetch within %g s, even when interrupted" % (
                current["seconds"] + FETCH_GRACE)
            self.proc.kill()

    def finish_fetch(self):
        self.drain()  # what the value's code printed goes nowhere
        current, self.current = self.current, None
        answer = current["kept"].get("fetch.json")
        if self.frames.error or answer is None:
            self.reply(current["conn"], {"error": "the interpreter's answer was malformed (%s)" % (
                self.frames.error or "no fetch.json")})
            return
        self.reply(current["conn"], {"fetched": answer.decode("utf-8", "replace")})

    def end(self):
        """The interpreter ended (or could not start): the session is over."""
        code = self.proc.wait()
        self.drain()
        why = self.failed or ("the interpreter ended (%s)" % (
            "signal %d" % -code if code < 0 else "exit code %d" % code))
        self.failed = why
        strays, confirmed, detail = _kill_strays(-1)
        answer = {"dead": why, "strays": strays, "confirmed": confirmed, "detail": detail}
        _write_json(self.exec_path, answer)
        if self.current is not None:
            self.close_fds(self.current["fds"])
            self.reply(self.current["conn"], answer)
            self.current = None
        # Whoever asks from now on (the readiness wait) hears why, for a little while.
        stop = time.monotonic() + 5
        while time.monotonic() < stop:
            if select.select([self.listener], [], [], 0.2)[0]:
                self.accept()
        self.listener.close()
        os.unlink(self.sock_path)
        return 1


# ---------------------------------------------------------------------------------------------
# The relay and its siblings (each an ordinary remote command).

def _connect(sock_path, seconds):
    deadline = time.monotonic() + seconds
    while True:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.connect(sock_path)
            return conn
        except (FileNotFoundError, ConnectionRefusedError):
            conn.close()
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)


def _ask(conn, request, fds=()):
    socket.send_fds(conn, [json.dumps(request).encode("utf-8") + b"\n"], list(fds))
    data = b""
    while not data.endswith(b"\n"):
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return json.loads(data.decode("utf-8")) if data.strip() else None


def _host(work):
    """A connection to the session host, or None (said on stderr)."""
    conn = _connect(_paths(work)[1], 0)
    if conn is None:
        sys.stderr.write("sandpad: the session's interpreter is not running in this sandbox\n")
    return conn


def relay_exec(work, manifest, ident, interrupt):
    exec_path = _paths(work)[2]
    conn = _host(work)
    if conn is None:
        return EXIT_NO_HOST
    try:
        answer = _ask(conn, {"op": "exec", "manifest": manifest, "id": ident, "interrupt": interrupt}, (1, 2))
    except (OSError, ValueError):
        answer = None
    if not isinstance(answer, dict):
        _write_json(exec_path, {"dead": "the session host stopped answering"})
        return EXIT_DEAD
    if "error" in answer:
        sys.stderr.write("sandpad: %s\n" % answer["error"])
        return EXIT_PROTOCOL
    if "dead" in answer:
        return EXIT_DEAD
    return EXIT_DONE if answer.get("confirmed") else EXIT_STRAYS


def relay_wait(work, seconds):
    _, sock_path, _ = _paths(work)
    deadline = time.monotonic() + seconds
    while True:
        conn = _connect(sock_path, max(0.0, deadline - time.monotonic()))
        if conn is None:
            sys.stderr.write("the session host did not start in %d s\n" % seconds)
            return EXIT_NO_HOST
        try:
            answer = _ask(conn, {"op": "ping"})
        except (OSError, ValueError):
            answer = None
        conn.close()
        if isinstance(answer, dict) and answer.get("ready"):
            return EXIT_DONE
        if isinstance(answer, dict) and answer.get("failed"):
            sys.stderr.write("%s\n%s" % (answer["failed"], answer.get("stderr", "")))
            return EXIT_DEAD
        if time.monotonic() >= deadline:
            sys.stderr.write("the session's interpreter was not ready after %d s\n" % seconds)
            return EXIT_NO_HOST
        time.sleep(0.05)


def relay_interrupt(work, ident):
    _, sock_path, _ = _paths(work)
    conn = _connect(sock_path, 0)
    if conn is None:
        return EXIT_NO_HOST
    try:
        _ask(conn, {"op": "interrupt", "id": ident})
    except (OSError, ValueError):
        return EXIT_PROTOCOL
    return EXIT_DONE


def relay_fetch(work, seconds, hex_request):
    conn = _host(work)
    if conn is None:
        return EXIT_NO_HOST
    try:
        request = bytes.fromhex(hex_request).decode("utf-8")
        answer = _ask(conn, {"op": "fetch", "request": request, "seconds": float(seconds)})
    except (OSError, ValueError):
        answer = None
    if not isinstance(answer, dict):
        sys.stderr.write("the session host stopped answering\n")
        return EXIT_DEAD
    if isinstance(answer.get("fetched"), str):
        sys.stdout.write(answer["fetched"])
        sys.stdout.flush()
        return EXIT_DONE
    if "dead" in answer:
        sys.stderr.write("%s\n" % answer["dead"])
        return EXIT_DEAD
    sys.stderr.write("%s\n" % answer.get("error", "an answer without a fetch"))
    return EXIT_PROTOCOL


def main(argv):
    if len(argv) >= 5 and argv[1] == "serve":
        return Host(argv[2], argv[3], argv[4]).serve()
    if len(argv) == 4 and argv[1] == "wait":
        return relay_wait(argv[2], int(argv[3]))
    if len(argv) in (5, 6) and argv[1] == "exec":
        return relay_exec(argv[2], argv[3], argv[4], len(argv) == 6 and argv[5] == "interrupt")
    if len(argv) == 4 and argv[1] == "interrupt":
        return relay_interrupt(argv[2], argv[3])
    if len(argv) == 5 and argv[1] == "fetch":
        return relay_fetch(argv[2], argv[3], argv[4])
    sys.stderr.write("usage: session_host.py serve|wait|exec|interrupt|fetch W ...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
