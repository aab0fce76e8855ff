#!/usr/bin/python3
"""A fake Daytona API + toolbox following ../../../shared/docs/providers.md strictly.

Usage: fake_daytona.py [--port N] [--api-key K] [--org ORG]
Prints the port on the first stdout line. API base: http://127.0.0.1:PORT/api; toolbox proxy:
http://127.0.0.1:PORT/toolbox (also the deprecated /api/toolbox/<id>/toolbox/...). Commands run for
real in a local bubblewrap sandbox whose /tmp and /home/daytona are host temp folders.
Control (no auth): GET /__fake/requests, POST /__fake/reset, POST /__fake/faults
  {"faults":[{"method","path"(regex),"status","retry_after","count"}],
   "options":{"stop_never_confirms":true, "create_delay":1.5, "delete_delay":0.05}},
GET /__fake/sandboxes.
"""
import argparse
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
                "networkBlockAll": bool, "user": str, "target": str, "autoArchiveInterval": int}


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
        m = re.fullmatch(r"/api/toolbox/([^/]+)/toolbox(/.*)", path) or re.fullmatch(r"/toolbox/([^/]+)(/.*)", path)
        if m:
            return self.toolbox(method, m.group(1), m.group(2), query)
        m = re.fullmatch(r"/api/sandbox(?:/([^/]+)(?:/(stop|start))?)?", path)
        if not m:
            self.read_body()
            return self.fail(404, "Not Found", "Cannot %s %s" % (method, path))
        sid, action = m.group(1), m.group(2)
        table = {}
        if sid is None:
            table = {"POST": self.create, "GET": lambda: self.list(query)}
        elif action is None:
            table = {"GET": lambda: self.get(sid), "DELETE": lambda: self.delete(sid)}
        elif action == "stop":
            table = {"POST": lambda: self.stop(sid)}
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
        delay = float(self.state.options.get("create_delay", 0) or 0)
        sandbox = {"id": sid, "name": body.get("name", sid), "organizationId": self.state.args.org or "org",
                   "state": "creating" if delay > 0 else "started", "errorReason": None,
                   "labels": body.get("labels", {}), "env": body.get("env", {}), "public": False,
                   "cpu": body.get("cpu", 1), "memory": body.get("memory", 1), "disk": body.get("disk", 3),
                   "autoStopInterval": body.get("autoStopInterval", 15),
                   "autoDeleteInterval": body.get("autoDeleteInterval", -1),
                   "createdAt": iso_now(), "updatedAt": iso_now(),
                   "toolboxProxyUrl": "http://127.0.0.1:%d/toolbox" % self.server.server_address[1]}
        box = FakeBox({"/tmp": "tmp", "/home/daytona": "home"}, "/home/daytona")
        with self.state.lock:
            self.state.sandboxes[sid] = {"sandbox": sandbox, "sessions": {}}
            self.state.boxes[sid] = box
        if delay > 0:
            def ready():
                time.sleep(delay / 2)
                sandbox["state"] = "starting"
                time.sleep(delay / 2)
                if sandbox["state"] == "starting":
                    sandbox.update(state="started", updatedAt=iso_now())
            threading.Thread(target=ready, daemon=True).start()
        self.send(200, sandbox)

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
        items = [sb["sandbox"] for sb in self.state.sandboxes.values()][: int(limit)]
        self.send(200, {"items": items, "nextCursor": None})

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
        box = self.state.boxes[sid]
        routes = [
            ("POST", r"/process/execute", lambda m: self.execute(box)),
            ("GET", r"/files/download", lambda m: self.download(box, query)),
            ("POST", r"/files/upload", lambda m: self.upload(box, query)),
            ("POST", r"/process/session", lambda m: self.session_create(sb)),
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
        self.fail(404 if not path_matched else 405, "Not Found", "Cannot %s %s" % (method, sub))

    def execute(self, box):
        body = self.need_json()
        if body is None:
            return
        if not isinstance(body.get("command"), str):
            return self.fail(400, "Bad Request", "command is required")
        timeout = body.get("timeout", 360)
        proc = box.start(["/bin/sh", "-c", body["command"]], body.get("cwd"), body.get("envs") or {})
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

    def upload(self, box, query):
        path = query.get("path", [None])[0]
        ctype = self.headers.get("Content-Type", "")
        raw = self.read_body()
        if not path:
            return self.fail(400, "Bad Request", "path is required")
        if not ctype.startswith("multipart/form-data"):
            return self.fail(400, "Bad Request", "request Content-Type isn't multipart/form-data")
        msg = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + raw)
        content = None
        for part in msg.iter_parts() if msg.is_multipart() else []:
            if part.get_param("name", header="content-disposition") == "file":
                content = part.get_payload(decode=True) or b""
        if content is None:
            return self.fail(400, "Bad Request", "http: no such file (field `file`)")
        host = box.host_path(path)
        if host is None:
            return self.fail(400, "Bad Request", "cannot write %s" % path)
        os.makedirs(os.path.dirname(host), exist_ok=True)
        with open(host, "wb") as f:
            f.write(content)
        self.send(200, b"", ctype="text/plain")

    def session_create(self, sb):
        body = self.need_json()
        if body is None:
            return
        sid = body.get("sessionId")
        if not isinstance(sid, str) or not sid:
            return self.fail(400, "Bad Request", "sessionId is required")
        if sid in sb["sessions"]:
            return self.fail(409, "Conflict", "session already exists")
        sb["sessions"][sid] = {}
        self.send(201, b"", ctype="text/plain")

    def session_exec(self, sb, box, sid):
        body = self.need_json()
        if body is None:
            return
        if sid not in sb["sessions"]:
            return self.fail(404, "Not Found", "session not found")
        if not isinstance(body.get("command"), str) or not isinstance(body.get("runAsync", False), bool):
            return self.fail(400, "Bad Request", "command is required; runAsync must be a boolean")
        shell = "/bin/bash" if os.path.exists("/usr/bin/bash") else "/bin/sh"
        proc = box.start([shell, "-c", body["command"]], "/home/daytona", {})
        cid = str(uuid.uuid4())
        sb["sessions"][sid][cid] = ({"id": cid, "command": body["command"]}, proc)
        if body.get("runAsync"):
            return self.send(202, {"cmdId": cid})
        proc.wait()
        out = "".join(t for _, t in proc.chunks)
        self.send(200, {"cmdId": cid, "output": out, "exitCode": proc.exit_code})

    def find_command(self, sb, sid, cid):
        self.read_body()
        cmds = sb["sessions"].get(sid)
        if cmds is None:
            self.fail(404, "Not Found", "session not found")
            return None
        if cid not in cmds:
            self.fail(404, "Not Found", "command not found")
            return None
        return cmds[cid]

    def command_get(self, sb, sid, cid):
        found = self.find_command(sb, sid, cid)
        if found:
            cmd, proc = found
            out = dict(cmd)
            if proc.done:
                out["exitCode"] = proc.exit_code
            self.send(200, out)

    def command_logs(self, sb, sid, cid):
        found = self.find_command(sb, sid, cid)
        if not found:
            return
        _, proc = found
        with proc.cond:
            chunks = list(proc.chunks)
        out = "".join(t for s, t in chunks if s == "stdout")
        err = "".join(t for s, t in chunks if s == "stderr")
        version = self.headers.get("X-Daytona-SDK-Version", "")
        try:
            new_format = tuple(int(x) for x in version.split(".")[:3]) >= (0, 167, 0)
        except ValueError:
            new_format = False
        if not new_format:  # older clients get the combined text
            return self.send(200, "".join(t for _, t in chunks).encode(), ctype="text/plain")
        self.send(200, {"output": "".join(t for _, t in chunks), "stdout": out, "stderr": err})

    def session_delete(self, sb, sid):
        self.read_body()
        cmds = sb["sessions"].pop(sid, None)
        if cmds is None:
            return self.fail(404, "Not Found", "session not found")
        for _, proc in cmds.values():
            proc.kill()
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
