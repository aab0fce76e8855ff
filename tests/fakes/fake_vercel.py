#!/usr/bin/python3
"""A fake Vercel Sandbox REST v1 server following ../../../shared/docs/providers.md strictly.

Usage: fake_vercel.py [--port N] [--token T] [--team TEAM] [--project PRJ] [--oidc-token JWT]
Prints the port on the first stdout line. Commands run for real in a local bubblewrap sandbox:
/vercel/sandbox and /tmp of each fake sandbox are host temp folders.
Control (no auth): GET /__fake/requests, POST /__fake/reset, POST /__fake/faults
  {"faults":[{"method","path"(regex),"status","retry_after","count"}],
   "options":{"cut_logs":{"count":1,"after_ms":300}, "stop_never_confirms":true,
              "create_delay":1.5, "stop_delay":0.05}},
GET /__fake/sandboxes.
"""
import argparse
import io
import json
import os
import re
import sys
import tarfile
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakebox import BaseHandler, FakeBox, FakeState, serve  # noqa: E402

RUNTIMES = {"node22", "python3.13"}
CREATE_KEYS = {"projectId", "runtime", "resources", "timeout", "ports", "source"}
CMD_KEYS = {"command", "args", "cwd", "env", "sudo"}


def now_ms():
    return int(time.time() * 1000)


class VercelState(FakeState):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.sandboxes = {}  # id -> {"sandbox": dict, "commands": {cmdId: (dict, Proc)}}


class Handler(BaseHandler):
    def error_body(self, status, code, message):
        return {"error": {"code": code, "message": message}}

    def describe(self, sid):
        sb = self.state.sandboxes.get(sid)
        return sb["sandbox"]["status"] if sb else ""

    # --- auth ---
    def authorized(self, query):
        a = self.state.args
        auth = self.headers.get("Authorization", "")
        valid = {t for t in (a.token, a.oidc_token) if t}
        if not auth.startswith("Bearer ") or auth[len("Bearer "):] not in valid:
            self.read_body()
            self.send(403, {"error": {"code": "forbidden", "message": "Not authorized", "invalidToken": True}})
            return False
        team = query.get("teamId", [None])[0]
        if team != a.team:
            self.read_body()
            self.fail(403, "forbidden", "You don't have permission to access the team '%s'" % (team or ""))
            return False
        return True

    def need_json(self, allowed_keys=None):
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self.read_body()
            self.fail(400, "bad_request", "Invalid request: content-type must be application/json")
            return None
        body = self.json_body()
        if not isinstance(body, dict):
            self.fail(400, "bad_request", "Invalid request: body must be a JSON object")
            return None
        if allowed_keys is not None:
            extra = set(body) - allowed_keys
            if extra:
                self.fail(400, "bad_request", "Invalid request: should NOT have additional property `%s`"
                          % sorted(extra)[0])
                return None
        return body

    def live(self, sid):
        """The sandbox record when it exists and can take commands; else answers the error."""
        sb = self.state.sandboxes.get(sid)
        if sb is None:
            self.read_body()
            self.fail(404, "not_found", "Sandbox not found")
            return None
        status = sb["sandbox"]["status"]
        if status in ("stopped", "failed"):
            self.read_body()
            self.fail(410, "sandbox_stopped", "Sandbox has stopped")
            return None
        if status == "stopping":
            self.read_body()
            self.fail(422, "sandbox_stopping", "Sandbox is stopping")
            return None
        if status != "running":
            self.read_body()
            self.fail(422, "sandbox_not_running", "Sandbox is %s" % status)
            return None
        return sb

    # --- routes ---
    def route(self, method, path, query):
        if not self.authorized(query):
            return
        m = re.fullmatch(r"/v1/sandboxes(?:/([^/]+)(?:/(.*))?)?", path)
        if not m:
            self.read_body()
            return self.fail(404, "not_found", "The requested path was not found")
        sid, rest = m.group(1), m.group(2)
        routes = []
        if sid is None:
            routes = [("POST", self.create)]
        elif rest is None:
            routes = [("GET", lambda: self.get(sid))]
        elif rest == "stop":
            routes = [("POST", lambda: self.stop(sid))]
        elif rest == "cmd":
            routes = [("POST", lambda: self.cmd(sid))]
        elif rest in ("fs/write", "fs/read", "fs/mkdir"):
            routes = [("POST", lambda: getattr(self, rest.replace("/", "_"))(sid))]
        else:
            mm = re.fullmatch(r"cmd/([^/]+)(/logs)?", rest)
            mk = re.fullmatch(r"([^/]+)/kill", rest)
            if mm and not mm.group(2):
                routes = [("GET", lambda: self.cmd_get(sid, mm.group(1), query))]
            elif mm:
                routes = [("GET", lambda: self.logs(sid, mm.group(1)))]
            elif mk and mk.group(1) != "cmd":
                routes = [("POST", lambda: self.kill(sid, mk.group(1)))]
        if not routes:
            self.read_body()
            return self.fail(404, "not_found", "The requested path was not found")
        for meth, fn in routes:
            if meth == method:
                return fn()
        self.read_body()
        self.fail(405, "method_not_allowed", "Method %s not allowed" % method)

    def create(self):
        body = self.need_json(CREATE_KEYS)
        if body is None:
            return
        a = self.state.args
        if body.get("projectId") != a.project:
            return self.fail(404, "project_not_found", "Project not found")
        if body.get("runtime") not in RUNTIMES:
            return self.fail(400, "bad_request", "Invalid request: `runtime` must be one of node22, python3.13")
        vcpus = (body.get("resources") or {}).get("vcpus", 2)
        if not isinstance(vcpus, int) or not (vcpus == 1 or (vcpus > 0 and vcpus % 2 == 0 and vcpus <= 8)):
            return self.fail(400, "bad_request", "Invalid request: `resources.vcpus` must be 1 or even, up to 8")
        timeout = body.get("timeout", 300000)
        if not isinstance(timeout, int) or timeout <= 0 or timeout > 2700000:
            return self.fail(400, "bad_request", "Invalid request: `timeout` must be a positive integer (ms)")
        sid = "sbx_" + uuid.uuid4().hex[:24]
        delay = float(self.state.options.get("create_delay", 0) or 0)
        t = now_ms()
        sandbox = {"id": sid, "memory": 2048 * vcpus, "vcpus": vcpus, "region": "iad1",
                   "runtime": body["runtime"], "timeout": timeout,
                   "status": "pending" if delay > 0 else "running", "requestedAt": t,
                   "createdAt": t, "updatedAt": t, "cwd": "/vercel/sandbox"}
        if delay <= 0:
            sandbox["startedAt"] = t
        box = FakeBox({"/vercel/sandbox": "work", "/tmp": "tmp"}, "/vercel/sandbox")
        with self.state.lock:
            self.state.sandboxes[sid] = {"sandbox": sandbox, "commands": {}}
            self.state.boxes[sid] = box
        if delay > 0:
            def ready():
                time.sleep(delay)
                with self.state.lock:
                    if sandbox["status"] == "pending":
                        sandbox.update(status="running", startedAt=now_ms(), updatedAt=now_ms())
            threading.Thread(target=ready, daemon=True).start()
        self.send(200, {"sandbox": sandbox, "routes": []})

    def get(self, sid):
        self.read_body()
        sb = self.state.sandboxes.get(sid)
        if sb is None:
            return self.fail(404, "not_found", "Sandbox not found")
        self.send(200, {"sandbox": sb["sandbox"], "routes": []})

    def stop(self, sid):
        self.read_body()
        sb = self.state.sandboxes.get(sid)
        if sb is None:
            return self.fail(404, "not_found", "Sandbox not found")
        sandbox = sb["sandbox"]
        if sandbox["status"] in ("stopped", "failed"):
            return self.send(200, {"sandbox": sandbox})
        sandbox.update(status="stopping", updatedAt=now_ms())
        never = bool(self.state.options.get("stop_never_confirms"))
        delay = float(self.state.options.get("stop_delay", 0.05))
        box = self.state.boxes[sid]

        def finish():
            box.destroy()  # the VM really goes away even when the API never says so
            time.sleep(delay)
            if not never:
                with self.state.lock:
                    sandbox.update(status="stopped", stoppedAt=now_ms(), updatedAt=now_ms())
        threading.Thread(target=finish, daemon=True).start()
        self.send(200, {"sandbox": sandbox})

    def cmd(self, sid):
        sb = self.live(sid)
        if sb is None:
            return
        body = self.need_json(CMD_KEYS)
        if body is None:
            return
        args, env = body.get("args", []), body.get("env", {})
        if not isinstance(body.get("command"), str) or not body["command"]:
            return self.fail(400, "bad_request", "Invalid request: `command` is required")
        if not isinstance(args, list) or not all(isinstance(x, str) for x in args):
            return self.fail(400, "bad_request", "Invalid request: `args` must be an array of strings")
        if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
            return self.fail(400, "bad_request", "Invalid request: `env` must map strings to strings")
        if not isinstance(body.get("sudo", False), bool):
            return self.fail(400, "bad_request", "Invalid request: `sudo` must be a boolean")
        cwd = body.get("cwd") or "/vercel/sandbox"
        box = self.state.boxes[sid]
        if box.host_path(cwd) is None or not os.path.isdir(box.host_path(cwd)):
            return self.fail(400, "bad_request", "Invalid request: cwd %s does not exist" % cwd)
        proc = box.start([body["command"]] + args, cwd, env)
        cid = "cmd_" + uuid.uuid4().hex[:24]
        command = {"id": cid, "name": body["command"], "args": args, "cwd": cwd, "sandboxId": sid,
                   "exitCode": None, "startedAt": proc.started_at}
        sb["commands"][cid] = (command, proc)
        self.send(200, {"command": command})

    def find_cmd(self, sid, cid):
        sb = self.state.sandboxes.get(sid)
        if sb is None:
            self.fail(404, "not_found", "Sandbox not found")
            return None
        if cid not in sb["commands"]:
            self.fail(404, "command_not_found", "Command not found")
            return None
        return sb["commands"][cid]

    def cmd_get(self, sid, cid, query):
        self.read_body()
        found = self.find_cmd(sid, cid)
        if not found:
            return
        command, proc = found
        wait = query.get("wait", ["false"])[0]
        if wait not in ("true", "false"):
            return self.fail(400, "bad_request", "Invalid request: `wait` must be true or false")
        if wait == "true":
            proc.wait()
        if proc.done:
            command["exitCode"] = proc.exit_code
        self.send(200, {"command": command})

    def logs(self, sid, cid):
        self.read_body()
        found = self.find_cmd(sid, cid)
        if not found:
            return
        _, proc = found
        cut = self.state.take_option("cut_logs")
        cut_at = time.monotonic() + cut.get("after_ms", 300) / 1000 if cut else None
        self.start_chunked(200, "application/x-ndjson")
        index = 0
        while True:
            chunks, done = proc.chunks_from(index, 0.05)
            index += len(chunks)
            data = b"".join(json.dumps({"stream": s, "data": t}).encode() + b"\n" for s, t in chunks)
            self.chunk(data)
            if cut_at is not None and time.monotonic() >= cut_at:
                return self.cut_connection()
            if done:
                break
        self.end_chunked()

    def kill(self, sid, cid):
        found = self.find_cmd(sid, cid)
        if not found:
            self.read_body()
            return
        body = self.need_json({"signal"})
        if body is None:
            return
        sig = body.get("signal", 15)
        if not isinstance(sig, int) or not 1 <= sig <= 64:
            return self.fail(400, "bad_request", "Invalid request: `signal` must be a signal number")
        command, proc = found
        proc.kill(sig)
        self.send(200, {"command": command})

    def fs_write(self, sid):
        sb = self.live(sid)
        if sb is None:
            return
        if self.headers.get("Content-Type", "") != "application/gzip":
            self.read_body()
            return self.fail(400, "bad_request", "Invalid request: content-type must be application/gzip")
        cwd = self.headers.get("x-cwd")
        if cwd is None:
            self.read_body()
            return self.fail(400, "bad_request", "Invalid request: missing x-cwd header")
        box = self.state.boxes[sid]
        try:
            with tarfile.open(fileobj=io.BytesIO(self.read_body()), mode="r:gz") as tar:
                members = tar.getmembers()
                for m in members:
                    target = box.host_path(os.path.join(cwd, m.name))
                    if target is None or not m.isfile():
                        return self.fail(400, "bad_request", "Invalid request: cannot write %s" % m.name)
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    with open(target, "wb") as f:
                        f.write(tar.extractfile(m).read())
                    os.chmod(target, m.mode & 0o7777)
        except (tarfile.TarError, OSError, EOFError) as e:
            return self.fail(400, "bad_request", "Invalid request: body is not a tar.gz stream (%s)" % e)
        self.send(200, {})

    def fs_read(self, sid):
        sb = self.live(sid)
        if sb is None:
            return
        body = self.need_json({"path", "cwd"})
        if body is None:
            return
        if not isinstance(body.get("path"), str):
            return self.fail(400, "bad_request", "Invalid request: `path` is required")
        box = self.state.boxes[sid]
        host = box.host_path(os.path.join(body.get("cwd") or "/vercel/sandbox", body["path"]))
        if host is None or not os.path.isfile(host):
            return self.fail(404, "file_not_found", "File not found")
        with open(host, "rb") as f:
            self.send(200, f.read(), ctype="application/octet-stream")

    def fs_mkdir(self, sid):
        sb = self.live(sid)
        if sb is None:
            return
        body = self.need_json({"path", "cwd"})
        if body is None:
            return
        host = self.state.boxes[sid].host_path(os.path.join(body.get("cwd") or "/vercel/sandbox",
                                                            body.get("path", "")))
        if host is None:
            return self.fail(400, "bad_request", "Invalid request: cannot create that folder")
        os.makedirs(host, exist_ok=True)
        self.send(200, {})


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--token", default="vercel_test_token_123")
    p.add_argument("--team", default="team_fake")
    p.add_argument("--project", default="prj_fake")
    p.add_argument("--oidc-token", default="")
    args = p.parse_args()
    serve(Handler, VercelState(args), args.port)


if __name__ == "__main__":
    main()
