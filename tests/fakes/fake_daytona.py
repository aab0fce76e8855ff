#!/usr/bin/python3
"""A fake Daytona API + toolbox following ../../../shared/docs/providers.md strictly.

Usage: fake_daytona.py [--port N] [--api-key K] [--org ORG]
Prints the port on the first stdout line. API base: http://127.0.0.1:PORT/api; toolbox proxy:
http://127.0.0.1:PORT/toolbox (the deprecated /api/toolbox/<id>/toolbox/... is gone, as is
/files/upload: both answer like an unknown route). Commands run for real in a local bubblewrap
sandbox whose /tmp and /home/daytona are host temp folders.

A session is ONE long-lived shell, as in the daemon (apps/daemon/pkg/session): each exec writes
cmd.sh and feeds `{ . cmd.sh; } < input.pipe > stdout 2> stderr` to that shell, which writes the
exit code after the command returns. So `cd`/variables persist, a command that `exec`s replaces
the shell (no exit code ever, later execs answer 500), and input.pipe is a FIFO held open for the
command's life (a program reading stdin blocks).

Control (no auth): GET /__fake/requests, POST /__fake/reset, POST /__fake/faults
  {"faults":[{"method","path"(regex),"status","retry_after","count"}],
   "options":{"stop_never_confirms":true, "create_delay":1.5, "delete_delay":0.05,
              "create_accepted_then_500":{"count":1},   # the sandbox is made, the answer is 500
              "stuck_state":"pending_build",           # a new sandbox stays in this state
              "fail_state":{"state":"build_failed","reason":"..."},  # pending_build, then this
              "no_toolbox_proxy_url":true,             # the DTO lacks toolboxProxyUrl
              "cut_logs":{"count":1},                  # a logs answer cut mid-body
              "minute_seconds":60,                     # how long an auto-stop minute is
              "no_python3":true,                       # new sandboxes' image has no python3
              "command_delay":{"match":"regex","seconds":2,"count":1}}}  # a command slow to start
GET /__fake/sandboxes, POST /__fake/expire (every started sandbox stops now, as auto-stop does).
A started sandbox with no activity (API or toolbox request about it, or POST last-activity) for its
autoStopInterval minutes is stopped, as the service does (its processes end).
"""
import argparse
import json
import datetime
import email.parser
import email.policy
import os
import re
import subprocess
import sys
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakebox import BaseHandler, FakeBox, FakeState, serve  # noqa: E402

CREATE_TYPES = {"name": str, "snapshot": str, "env": dict, "labels": dict, "public": bool, "cpu": int,
                "memory": int, "disk": int, "autoStopInterval": int, "autoDeleteInterval": int,
                "networkBlockAll": bool, "user": str, "target": str, "autoArchiveInterval": int,
                "gpu": int, "autoPauseInterval": int, "networkAllowList": str, "volumes": list,
                "buildInfo": dict, "ttlMinutes": int}
SESSIONS = "/home/daytona/.daytona/sessions"  # inside the box


def iso_now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")


class DaytonaState(FakeState):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.sandboxes = {}  # id -> {"sandbox": dict, "sessions": {sid: {cid: (cmd dict, Proc)}}}


class Handler(BaseHandler):
    def error_body(self, status, code, message):
        names = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
                 405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict",
                 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable"}
        body = {"statusCode": status, "error": names.get(status, "Error"), "message": message,
                "path": self.path, "timestamp": iso_now()}
        if code in ("REQUEST_TIMEOUT",):
            body["code"] = code
        return body

    def retry_after_headers(self, seconds):
        return {"Retry-After-sandbox-create": str(seconds), "X-RateLimit-Remaining-sandbox-create": "0"}

    def describe(self, sid):
        sb = self.state.sandboxes.get(sid)
        return sb["sandbox"]["state"] if sb else "gone"

    def control(self, path):
        if path == "/__fake/expire":
            self.read_body()
            with self.state.lock:
                ids = [sid for sid, sb in self.state.sandboxes.items() if sb["sandbox"]["state"] == "started"]
            for sid in ids:
                self.auto_stop(sid)
            return self.send(200, {"expired": ids})
        return super().control(path)

    def auto_stop(self, sid):
        with self.state.lock:
            sb = self.state.sandboxes.get(sid)
            if sb is None or sb["sandbox"]["state"] != "started":
                return
            sb["sandbox"].update(state="stopped", updatedAt=iso_now())
            box = self.state.boxes[sid]
        for p in box.procs:
            p.kill()

    def touch(self, sid):
        sb = self.state.sandboxes.get(sid)
        if sb is not None:
            sb["activity"] = time.monotonic()

    def watch_auto_stop(self):
        """One thread for the fake: stops started sandboxes idle past their autoStopInterval."""
        with self.state.lock:
            if getattr(self.state, "watching", False):
                return
            self.state.watching = True

        def loop():
            while True:
                time.sleep(0.2)
                minute = float(self.state.options.get("minute_seconds", 60) or 60)
                with self.state.lock:
                    idle = [sid for sid, sb in self.state.sandboxes.items()
                            if sb["sandbox"]["state"] == "started" and sb["sandbox"].get("autoStopInterval", 0) > 0
                            and time.monotonic() - sb.get("activity", time.monotonic())
                            > sb["sandbox"]["autoStopInterval"] * minute]
                for sid in idle:
                    self.auto_stop(sid)
        threading.Thread(target=loop, daemon=True).start()

    def info(self, sid):
        sb = self.state.sandboxes.get(sid)
        if not sb:
            return {}
        return {k: sb["sandbox"].get(k) for k in ("labels", "memory", "cpu", "networkBlockAll")}

    def authorized(self):
        a = self.state.args
        if self.headers.get("Authorization", "") != "Bearer " + a.api_key:
            self.read_body()
            self.fail(401, "Unauthorized", "Invalid credentials")
            return False
        org = self.headers.get("X-Daytona-Organization-ID")
        if org is not None and a.org and org != a.org:
            self.read_body()
            self.fail(403, "Forbidden", "Organization not found or not accessible")
            return False
        return True

    def need_json(self):
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self.read_body()
            self.fail(400, "Bad Request", "Content-Type must be application/json")
            return None
        body = self.json_body()
        if not isinstance(body, dict):
            self.fail(400, "Bad Request", "Body must be a JSON object")
            return None
        return body

    def route(self, method, path, query):
        if not self.authorized():
            return
        m = re.fullmatch(r"/toolbox/([^/]+)(/.*)", path)
        if m:
            return self.toolbox(method, m.group(1), m.group(2), query)
        m = re.fullmatch(r"/api/sandbox(?:/([^/]+)(?:/(stop|start|toolbox-proxy-url|last-activity|autostop/(\d+)))?)?", path)
        if not m:
            self.read_body()
            return self.fail(404, "Not Found", "Cannot %s %s" % (method, path))
        sid, action = m.group(1), m.group(2)
        if sid is not None:
            with self.state.lock:
                self.touch(sid)  # an event about the sandbox: activity, for auto-stop
        table = {}
        if sid is None:
            table = {"POST": self.create, "GET": lambda: self.list(query)}
        elif action is None:
            table = {"GET": lambda: self.get(sid), "DELETE": lambda: self.delete(sid)}
        elif action == "stop":
            table = {"POST": lambda: self.stop(sid)}
        elif action == "toolbox-proxy-url":
            table = {"GET": lambda: self.proxy_url(sid)}
        elif action == "last-activity":  # the SDK's refreshActivity
            table = {"POST": lambda: self.last_activity(sid)}
        elif action.startswith("autostop/"):  # the SDK's setAutostopInterval
            table = {"POST": lambda: self.set_autostop(sid, int(m.group(3)))}
        fn = table.get(method)
        if fn is None:
            self.read_body()
            return self.fail(404, "Not Found", "Cannot %s %s" % (method, path))
        fn()

    # --- API ---
    def create(self):
        body = self.need_json()
        if body is None:
            return
        errors = []
        for k, v in body.items():
            t = CREATE_TYPES.get(k)
            if t is None:
                errors.append("property %s should not exist" % k)
            elif not isinstance(v, t) or (t is int and isinstance(v, bool)):
                errors.append("%s must be a %s" % (k, t.__name__))
        for field in ("labels", "env"):
            if isinstance(body.get(field), dict) and not all(isinstance(x, str) for x in body[field].values()):
                errors.append("%s values must be strings" % field)
        lang = (body.get("labels") or {}).get("code-toolbox-language")
        if lang not in (None, "python", "javascript", "typescript"):
            errors.append("code-toolbox-language must be python, javascript or typescript")
        if errors:
            return self.fail(400, "Bad Request", errors)
        sid = str(uuid.uuid4())
        opts = self.state.options
        delay = float(opts.get("create_delay", 0) or 0)
        stuck = opts.get("stuck_state")
        failing = opts.get("fail_state")
        first = stuck or ("pending_build" if failing else ("creating" if delay > 0 else "started"))
        sandbox = {"id": sid, "name": body.get("name", sid), "organizationId": self.state.args.org or "org",
                   "state": first, "errorReason": None,
                   "labels": body.get("labels", {}), "env": body.get("env", {}), "public": False,
                   "cpu": body.get("cpu", 1), "memory": body.get("memory", 1), "disk": body.get("disk", 3),
                   "autoStopInterval": body.get("autoStopInterval", 15),
                   "autoDeleteInterval": body.get("autoDeleteInterval", -1),
                   "createdAt": iso_now(), "updatedAt": iso_now(),
                   "toolboxProxyUrl": self.proxy()}
        if opts.get("no_toolbox_proxy_url"):
            del sandbox["toolboxProxyUrl"]
        box = self.state.new_box(FakeBox({"/tmp": "tmp", "/home/daytona": "home"}, "/home/daytona"))
        sandbox["networkBlockAll"] = body.get("networkBlockAll", False)
        with self.state.lock:
            self.state.sandboxes[sid] = {"sandbox": sandbox, "sessions": {}, "activity": time.monotonic()}
            self.state.boxes[sid] = box
        self.watch_auto_stop()
        if delay > 0:
            def ready():
                time.sleep(delay / 2)
                sandbox["state"] = "starting"
                time.sleep(delay / 2)
                if sandbox["state"] == "starting":
                    sandbox.update(state="started", updatedAt=iso_now())
            threading.Thread(target=ready, daemon=True).start()
        elif failing and not stuck:
            def fail():
                time.sleep(0.3)
                sandbox.update(state=failing.get("state", "build_failed"), errorReason=failing.get("reason"),
                               updatedAt=iso_now())
            threading.Thread(target=fail, daemon=True).start()
        if self.state.take_option("create_accepted_then_500"):
            return self.fail(500, "Internal Server Error", "upstream timeout (the sandbox was created)")
        self.send(200, sandbox)

    def last_activity(self, sid):
        sb = self.find(sid)
        if sb:
            self.send(201, b"", ctype="text/plain")

    def set_autostop(self, sid, minutes):
        sb = self.find(sid)
        if sb:
            sb["sandbox"]["autoStopInterval"] = minutes
            self.send(200, b"", ctype="text/plain")

    def proxy(self):
        return "http://127.0.0.1:%d/toolbox" % self.server.server_address[1]

    def proxy_url(self, sid):
        if self.find(sid):
            self.send(200, {"url": self.proxy()})

    def find(self, sid):
        self.read_body()
        sb = self.state.sandboxes.get(sid)
        if sb is None:
            self.fail(404, "Not Found", "Sandbox with ID or name %s not found" % sid)
        return sb

    def list(self, query):
        self.read_body()
        limit = query.get("limit", ["100"])[0]
        if not limit.isdigit() or not 1 <= int(limit) <= 200:
            return self.fail(400, "Bad Request", ["limit must not be less than 1"])
        labels = {}
        if "labels" in query:
            try:
                labels = json.loads(query["labels"][0])
            except ValueError:
                labels = None
            if not isinstance(labels, dict):
                return self.fail(400, "Bad Request", ["labels must be a JSON object"])
        cursor = query.get("cursor", ["0"])[0] or "0"
        if not cursor.isdigit():
            return self.fail(400, "Bad Request", ["invalid cursor"])
        with self.state.lock:
            items = [sb["sandbox"] for sb in self.state.sandboxes.values()
                     if all(sb["sandbox"]["labels"].get(k) == v for k, v in labels.items())]
        start, n = int(cursor), int(limit)
        page = items[start:start + n]
        more = start + n < len(items)
        self.send(200, {"items": page, "total": len(items), "nextCursor": str(start + n) if more else None})

    def get(self, sid):
        sb = self.find(sid)
        if sb:
            self.send(200, sb["sandbox"])

    def stop(self, sid):
        sb = self.find(sid)
        if sb:
            sb["sandbox"].update(state="stopped", updatedAt=iso_now())
            for p in self.state.boxes[sid].procs:
                p.kill()
            self.send(200, sb["sandbox"])

    def delete(self, sid):
        sb = self.find(sid)
        if not sb:
            return
        sandbox = sb["sandbox"]
        sandbox.update(state="destroying", updatedAt=iso_now())
        never = bool(self.state.options.get("stop_never_confirms"))
        delay = float(self.state.options.get("delete_delay", 0.05))
        box = self.state.boxes[sid]

        def finish():
            box.destroy()
            if never:
                return
            time.sleep(delay)
            sandbox.update(state="destroyed", updatedAt=iso_now())
            time.sleep(delay)
            with self.state.lock:
                self.state.sandboxes.pop(sid, None)
        threading.Thread(target=finish, daemon=True).start()
        self.send(200, sandbox)

    # --- toolbox ---
    def toolbox(self, method, sid, sub, query):
        sb = self.state.sandboxes.get(sid)
        if sb is None:
            self.read_body()
            return self.fail(404, "Not Found", "Sandbox with ID or name %s not found" % sid)
        if sb["sandbox"]["state"] != "started":
            self.read_body()
            return self.fail(400, "Bad Request", "Sandbox is not started (state %s)" % sb["sandbox"]["state"])
        with self.state.lock:
            self.touch(sid)
        box = self.state.boxes[sid]
        routes = [
            ("POST", r"/process/execute", lambda m: self.execute(box)),
            ("GET", r"/files/download", lambda m: self.download(box, query)),
            ("POST", r"/files/bulk-upload", lambda m: self.bulk_upload(box)),
            ("POST", r"/files/bulk-download", lambda m: self.bulk_download(box)),
            ("POST", r"/process/session", lambda m: self.session_create(sb, box)),
            ("POST", r"/process/session/([^/]+)/exec", lambda m: self.session_exec(sb, box, m.group(1))),
            ("GET", r"/process/session/([^/]+)/command/([^/]+)", lambda m: self.command_get(sb, m.group(1), m.group(2))),
            ("GET", r"/process/session/([^/]+)/command/([^/]+)/logs",
             lambda m: self.command_logs(sb, m.group(1), m.group(2))),
            ("DELETE", r"/process/session/([^/]+)", lambda m: self.session_delete(sb, m.group(1))),
        ]
        path_matched = False
        for meth, pattern, fn in routes:
            m = re.fullmatch(pattern, sub)
            if m:
                path_matched = True
                if meth == method:
                    return fn(m)
        self.read_body()
        if not path_matched:  # gin's answer for an unknown route
            return self.send(404, b"404 page not found", ctype="text/plain")
        self.fail(405, "Method Not Allowed", "Cannot %s %s" % (method, sub))

    def execute(self, box):
        body = self.need_json()
        if body is None:
            return
        if not isinstance(body.get("command"), str):
            return self.fail(400, "Bad Request", "command is required")
        timeout = body.get("timeout", 360)
        delay = self.state.command_delay(body["command"])
        proc = box.start(["/bin/sh", "-c", ("sleep %s; " % delay if delay else "") + body["command"]], body.get("cwd"),
                         body.get("envs") or {})
        if not proc.wait(timeout):
            proc.kill()
            return self.fail(408, "REQUEST_TIMEOUT", "command execution timeout")
        self.send(200, {"exitCode": proc.exit_code, "result": "".join(t for _, t in proc.chunks)})

    def download(self, box, query):
        self.read_body()
        path = query.get("path", [None])[0]
        if not path:
            return self.fail(400, "Bad Request", "path is required")
        host = box.host_path(path)
        if host is None or not os.path.isfile(host):
            return self.fail(404, "Not Found", "file not found: %s" % path)
        with open(host, "rb") as f:
            self.send(200, f.read(), ctype="application/octet-stream")

    def multipart(self):
        ctype = self.headers.get("Content-Type", "")
        raw = self.read_body()
        if not ctype.startswith("multipart/form-data"):
            return None
        msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + raw)
        if not msg.is_multipart():
            return None
        return [(p.get_param("name", header="content-disposition"), p.get_filename(),
                 p.get_payload(decode=True) or b"") for p in msg.iter_parts()]

    def bulk_upload(self, box):
        """The SDK's uploadFiles: files[i].path (text), then files[i].file (the content)."""
        parts = self.multipart()
        if parts is None:
            return self.fail(400, "Bad Request", "request Content-Type isn't multipart/form-data")
        paths, contents = {}, {}
        for name, _filename, data in parts:
            m = re.fullmatch(r"files\[(\d+)\]\.(path|file)", name or "")
            if not m:
                return self.fail(400, "Bad Request", "unexpected form field %s" % name)
            (paths if m.group(2) == "path" else contents)[int(m.group(1))] = data
        if not paths or set(paths) != set(contents):
            return self.fail(400, "Bad Request", "every files[i] needs a path and a file")
        written, errors = [], []
        for i in sorted(paths):
            path = paths[i].decode("utf-8", "replace")
            host = box.host_path(path)
            if host is None:
                errors.append({"path": path, "error": "cannot write %s" % path})
                continue
            os.makedirs(os.path.dirname(host), exist_ok=True)
            with open(host, "wb") as f:
                f.write(contents[i])
            written.append({"path": path, "bytes": len(contents[i])})
        if errors:
            return self.send(400, {"errors": errors, "files": written})
        self.send(200, {"files": written})

    def bulk_download(self, box):
        """The SDK's downloadFiles: a multipart answer, a `file` part (filename = the path) per
        file found, an `error` part (JSON) per file not."""
        body = self.need_json()
        if body is None:
            return
        paths = body.get("paths")
        if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
            return self.fail(400, "Bad Request", "paths must be a non-empty list of strings")
        boundary = uuid.uuid4().hex
        out = b""
        for path in paths:
            host = box.host_path(path)
            if host is not None and os.path.isfile(host):
                with open(host, "rb") as f:
                    data = f.read()
                head = ('Content-Disposition: form-data; name="file"; filename="%s"\r\n'
                        "Content-Type: application/octet-stream\r\n" % path)
            else:
                data = json.dumps({"message": "file not found: %s" % path, "statusCode": 404,
                                   "code": "FILE_NOT_FOUND"}).encode()
                head = ('Content-Disposition: form-data; name="error"; filename="%s"\r\n'
                        "Content-Type: application/json\r\n" % path)
            out += b"--" + boundary.encode() + b"\r\n" + head.encode() + b"\r\n" + data + b"\r\n"
        out += b"--" + boundary.encode() + b"--\r\n"
        self.send(200, out, ctype="multipart/form-data; boundary=" + boundary)

    def session_create(self, sb, box):
        body = self.need_json()
        if body is None:
            return
        sid = body.get("sessionId")
        if not isinstance(sid, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", sid or ""):
            return self.fail(400, "Bad Request", "sessionId is required")
        if sid in sb["sessions"]:
            return self.fail(409, "Conflict", "session already exists")
        # The session's one shell: reads the lines the execs write to its stdin.
        shell = box.start(["/bin/bash", "--noprofile", "--norc", "-s"], "/home/daytona", {}, stdin=subprocess.PIPE)
        sb["sessions"][sid] = {"shell": shell, "commands": {}, "lock": threading.Lock()}
        self.send(201, b"", ctype="text/plain")

    def session_exec(self, sb, box, sid):
        body = self.need_json()
        if body is None:
            return
        session = sb["sessions"].get(sid)
        if session is None:
            return self.fail(404, "Not Found", "session not found")
        if not isinstance(body.get("command"), str) or not isinstance(body.get("runAsync", False), bool):
            return self.fail(400, "Bad Request", "command is required; runAsync must be a boolean")
        cid = str(uuid.uuid4())
        inside = "%s/%s/%s" % (SESSIONS, sid, cid)
        host = box.host_path(inside)
        os.makedirs(host, exist_ok=True)
        delay = self.state.command_delay(body["command"])
        with open(os.path.join(host, "cmd.sh"), "w") as f:  # started at once, the program after any delay
            f.write(("sleep %s\n" % delay if delay else "") + body["command"] + "\n")
        for name in ("stdout", "stderr"):
            open(os.path.join(host, name), "wb").close()
        fifo = os.path.join(host, "input.pipe")
        os.mkfifo(fifo, 0o666)
        # Held open (read-write: never blocks) for the command's life, as the daemon does.
        writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        line = ("{ . %(d)s/cmd.sh; } < %(d)s/input.pipe > %(d)s/stdout 2> %(d)s/stderr; "
                "echo $? > %(d)s/exit_code.tmp; mv %(d)s/exit_code.tmp %(d)s/exit_code\n" % {"d": inside})
        with session["lock"]:
            try:
                session["shell"].popen.stdin.write(line.encode())
                session["shell"].popen.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                os.close(writer)
                return self.fail(500, "Internal Server Error", "failed to write command to the session: broken pipe")
            if session["shell"].popen.poll() is not None:
                os.close(writer)
                return self.fail(500, "Internal Server Error", "session shell has exited")
        cmd = {"id": cid, "command": body["command"], "host": host, "writer": writer}
        session["commands"][cid] = cmd
        if body.get("runAsync"):
            return self.send(202, {"cmdId": cid})
        while self.exit_code(cmd) is None and session["shell"].popen.poll() is None:
            time.sleep(0.02)
        out, err = self.outputs(cmd)
        self.send(200, {"cmdId": cid, "output": out + err, "stdout": out, "stderr": err,
                        "exitCode": self.exit_code(cmd)})

    @staticmethod
    def exit_code(cmd):
        try:
            with open(os.path.join(cmd["host"], "exit_code")) as f:
                code = int(f.read().strip())
        except (OSError, ValueError):
            return None
        if cmd.get("writer") is not None:
            os.close(cmd["writer"])
            cmd["writer"] = None
        return code

    @staticmethod
    def outputs(cmd):
        texts = []
        for name in ("stdout", "stderr"):
            try:
                with open(os.path.join(cmd["host"], name), "rb") as f:
                    texts.append(f.read().decode("utf-8", "replace"))
            except OSError:
                texts.append("")
        return texts[0], texts[1]

    def find_command(self, sb, sid, cid):
        self.read_body()
        session = sb["sessions"].get(sid)
        if session is None:
            self.fail(404, "Not Found", "session not found")
            return None
        if cid not in session["commands"]:
            self.fail(404, "Not Found", "command not found")
            return None
        return session["commands"][cid]

    def command_get(self, sb, sid, cid):
        cmd = self.find_command(sb, sid, cid)
        if cmd:
            out = {"id": cmd["id"], "command": cmd["command"]}
            code = self.exit_code(cmd)
            if code is not None:
                out["exitCode"] = code
            self.send(200, out)

    def command_logs(self, sb, sid, cid):
        cmd = self.find_command(sb, sid, cid)
        if not cmd:
            return
        out, err = self.outputs(cmd)
        version = self.headers.get("X-Daytona-SDK-Version", "")
        try:
            new_format = tuple(int(x) for x in version.split(".")[:3]) >= (0, 167, 0)
        except ValueError:
            new_format = False
        if not new_format:  # older clients get the combined text
            return self.send(200, (out + err).encode(), ctype="text/plain")
        if self.state.take_option("cut_logs"):
            body = json.dumps({"output": out + err, "stdout": out, "stderr": err}).encode()
            self._note_status(200)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body) + 100))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self._status = 200
            return self.cut_connection()
        self.send(200, {"output": out + err, "stdout": out, "stderr": err})

    def session_delete(self, sb, sid):
        self.read_body()
        session = sb["sessions"].pop(sid, None)
        if session is None:
            return self.fail(404, "Not Found", "session not found")
        session["shell"].kill()
        for cmd in session["commands"].values():
            if cmd.get("writer") is not None:
                os.close(cmd["writer"])
                cmd["writer"] = None
        self.send(204, b"", ctype="text/plain")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--api-key", default="dtn_test_key_0123456789")
    p.add_argument("--org", default="org_fake")
    args = p.parse_args()
    serve(Handler, DaytonaState(args), args.port)


if __name__ == "__main__":
    main()
