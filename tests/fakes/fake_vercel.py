#!/usr/bin/python3
"""A fake Vercel Sandbox API (v2: named sandboxes with sessions), held to @vercel/sandbox 3.5.0.

The shapes are the ones the SDK validates (dist/api-client/validators.js) and the routes the ones it
calls (dist/api-client/api-client.js); tests/conformance/sdk/vercel-lifecycle.mjs drives the SDK
against this fake. Unknown body keys are refused with 400 like the service.

Usage: fake_vercel.py [--port N] [--token T] [--team TEAM] [--project PRJ] [--oidc-token JWT]
Prints the port on the first stdout line. Commands run for real in a local bubblewrap sandbox:
/vercel/sandbox and /tmp of each fake session are host temp folders; the network is the host's
only when the sandbox was created with networkPolicy allow-all (the service's default).
Control (no auth): GET /__fake/requests (each entry also has "body_keys", "query_keys" and the
"headers" that matter), POST /__fake/reset, GET /__fake/sandboxes (sessions, plus any named
sandbox or snapshot still kept, which counts as not cleaned), POST /__fake/expire (every running session's timeout passes now), POST /__fake/faults
  {"faults":[{"method","path"(regex),"status","retry_after","count"}],
   "options":{"cut_logs":{"count":1,"after_ms":300},   # cut the next NDJSON stream
              "stop_never_confirms":true,              # delete/stop answered, never completed
              "create_delay":1.5,                      # sessions stay `pending` that long
              "create_status":"aborted",               # new sessions end so instead of `running`
              "create_accepted_then_fail":{"count":1,"status":500},  # created, answered 5xx
              "list_page_size":2,                      # the largest page the list answers
              "stop_delay":0.05,
              "no_python3":true,                       # new sandboxes' image has no python3
              "command_delay":{"match":"regex","seconds":2,"count":1}}}  # a command slow to start
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

RUNTIMES = {"node22", "node24", "node26", "python3.13"}
# What SDK 3.5.0 may send to create (api-client.js createSandbox).
CREATE_KEYS = {"projectId", "ports", "source", "timeout", "resources", "runtime", "image", "name",
               "persistent", "networkPolicy", "networkId", "env", "tags", "snapshotExpiration",
               "keepLastSnapshots", "mounts", "region", "failoverRegions"}
CMD_KEYS = {"command", "args", "cwd", "env", "sudo", "wait", "logs", "timeout"}
LIST_QUERY = {"teamId", "project", "limit", "sortBy", "sortOrder", "namePrefix", "cursor", "tags"}
NDJSON = "application/x-ndjson"
STOPPED = ("stopped", "failed", "aborted")


def now_ms():
    return int(time.time() * 1000)


class VercelState(FakeState):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.sandboxes = {}  # name -> {"sandbox": dict, "session": current session id}
        self.sessions = {}   # session id -> {"session": dict, "name": str, "commands": {cid: (dict, Proc)}}
        self.snapshots = {}  # snapshot id -> {"snapshot": dict, "name": sandbox name}


class Handler(BaseHandler):
    def error_body(self, status, code, message):
        return {"error": {"code": code, "message": message}}

    def describe(self, sid):
        s = self.state.sessions.get(sid)
        return s["session"]["status"] if s else ""

    def control(self, path):
        if path == "/__fake/expire":
            # Every running session's timeout passes now (as it would by the clock).
            self.read_body()
            with self.state.lock:
                sids = [sid for sid, s in self.state.sessions.items() if s["session"]["status"] == "running"]
            for sid in sids:
                self.expire(sid)
            return self.send(200, {"expired": sids})
        # Named sandboxes and snapshots still kept are "not cleaned" too (FakeServer::allCleaned
        # wants every entry destroyed): nothing may be left behind after a run.
        if path != "/__fake/sandboxes":
            return super().control(path)
        st = self.state
        with st.lock:
            out = {sid: {"alive": box.alive(), "root_exists": os.path.isdir(box.root),
                         "destroyed": box.destroyed, "state": self.describe(sid)}
                   for sid, box in st.boxes.items()}
            for name, sb in st.sandboxes.items():
                if sb.get("delete_accepted"):
                    continue  # its VM is gone; only the service's confirmation never comes
                out["sandbox:" + name] = {"alive": False, "root_exists": False, "destroyed": False,
                                          "state": sb["sandbox"]["status"]}
            for snap_id in st.snapshots:
                out["snapshot:" + snap_id] = {"alive": False, "root_exists": False, "destroyed": False,
                                              "state": "created"}
        self.send(200, out)

    # --- auth and request checks ---
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

    def need_json(self, allowed_keys, required=True):
        raw = self.read_body()
        if not raw and not required:
            return {}
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self.fail(400, "bad_request", "Invalid request: content-type must be application/json")
            return None
        body = self.json_body()
        if not isinstance(body, dict):
            self.fail(400, "bad_request", "Invalid request: body must be a JSON object")
            return None
        extra = set(body) - allowed_keys
        if extra:
            self.fail(400, "bad_request", "Invalid request: should NOT have additional property `%s`"
                      % sorted(extra)[0])
            return None
        return body

    def project_ok(self, project):
        if project != self.state.args.project:
            self.fail(404, "project_not_found", "Project not found")
            return False
        return True

    def log_shape(self, query):
        """What the conformance test compares: body keys, query keys, the headers that matter."""
        raw = self.read_body()
        keys, obj = [], None
        if raw and self.headers.get("Content-Type", "").startswith("application/json"):
            try:
                obj = json.loads(raw)
                if isinstance(obj, dict):
                    keys = sorted(obj)
            except ValueError:
                pass
        with self.state.lock:
            self._entry["body_keys"] = keys
            if isinstance(obj, dict) and "args" not in obj:  # not the (long) command lines
                self._entry["body"] = obj
            self._entry["query_keys"] = sorted(query)
            self._entry["headers"] = {
                "authorization": self.headers.get("Authorization", "").split(" ")[0],
                "content-type": self.headers.get("Content-Type", "") if raw else "",
                "x-cwd": self.headers.get("x-cwd", ""),
            }

    def session_for(self, sid, need_running=True):
        """The session record; answers the error (404/410/422) itself and returns None otherwise.
        A pending session is waited for, as the service does (the SDK never polls after create)."""
        s = self.state.sessions.get(sid)
        if s is None:
            self.fail(404, "not_found", "Session not found")
            return None
        if not need_running:
            return s
        deadline = time.monotonic() + 60
        while s["session"]["status"] == "pending" and time.monotonic() < deadline:
            time.sleep(0.02)
        status = s["session"]["status"]
        if status in STOPPED:
            self.fail(410, "sandbox_stopped", "Sandbox has stopped")
            return None
        if status == "stopping":
            self.fail(422, "sandbox_stopping", "Sandbox is stopping")
            return None
        if status == "snapshotting":
            self.fail(422, "sandbox_snapshotting", "Sandbox is snapshotting")
            return None
        if status != "running":
            self.fail(422, "sandbox_not_running", "Sandbox is %s" % status)
            return None
        return s

    # --- routes ---
    def route(self, method, path, query):
        if not self.authorized(query):
            return
        self.log_shape(query)
        q = {k: v[-1] for k, v in query.items()}
        m = re.fullmatch(r"/v2/sandboxes/sessions/([^/]+)(?:/(.*))?", path)
        routes = []
        if m:
            sid, rest = m.group(1), m.group(2)
            if rest is None:
                routes = [("GET", lambda: self.get_session(sid))]
            elif rest == "stop":
                routes = [("POST", lambda: self.stop(sid))]
            elif rest == "cmd":
                routes = [("POST", lambda: self.cmd(sid))]
            elif rest == "extend-timeout":
                routes = [("POST", lambda: self.extend_timeout(sid))]
            elif rest in ("fs/write", "fs/read", "fs/mkdir"):
                routes = [("POST", lambda: getattr(self, rest.replace("/", "_"))(sid))]
            else:
                mm = re.fullmatch(r"cmd/([^/]+)(/logs|/kill)?", rest)
                if mm and not mm.group(2):
                    routes = [("GET", lambda: self.cmd_get(sid, mm.group(1), q))]
                elif mm and mm.group(2) == "/logs":
                    routes = [("GET", lambda: self.logs(sid, mm.group(1)))]
                elif mm:
                    routes = [("POST", lambda: self.kill(sid, mm.group(1)))]
        else:
            m = re.fullmatch(r"/v2/sandboxes(?:/([^/]+))?", path)
            if m and m.group(1) is None:
                routes = [("POST", self.create), ("GET", lambda: self.list(query))]
            elif m:
                name = m.group(1)
                routes = [("GET", lambda: self.get(name, q)), ("DELETE", lambda: self.delete(name, q))]
        if not routes:
            return self.fail(404, "not_found", "The requested path was not found")
        for meth, fn in routes:
            if meth == method:
                return fn()
        self.fail(405, "method_not_allowed", "Method %s not allowed" % method)

    # --- sandboxes ---
    def create(self):
        body = self.need_json(CREATE_KEYS)
        if body is None:
            return
        if not self.project_ok(body.get("projectId")):
            return
        if body.get("runtime") not in RUNTIMES:
            return self.fail(400, "bad_request", "Invalid request: `runtime` must be one of %s"
                             % ", ".join(sorted(RUNTIMES)))
        resources = body.get("resources") or {}
        if not isinstance(resources, dict) or set(resources) - {"vcpus"}:
            return self.fail(400, "bad_request", "Invalid request: `resources` takes only `vcpus`")
        vcpus = resources.get("vcpus", 2)
        if not isinstance(vcpus, int) or not (vcpus == 1 or (vcpus > 0 and vcpus % 2 == 0 and vcpus <= 8)):
            return self.fail(400, "bad_request", "Invalid request: `resources.vcpus` must be 1 or even, up to 8")
        timeout = body.get("timeout", 300000)
        if not isinstance(timeout, int) or timeout <= 0 or timeout > 86400000:
            return self.fail(400, "bad_request", "Invalid request: `timeout` must be a positive integer (ms)")
        ports = body.get("ports", [])
        if not isinstance(ports, list) or len(ports) > 4:
            return self.fail(400, "bad_request", "Invalid request: `ports` takes at most 4 ports")
        persistent = body.get("persistent", True)
        if not isinstance(persistent, bool):
            return self.fail(400, "bad_request", "Invalid request: `persistent` must be a boolean")
        tags = body.get("tags", {})
        if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
            return self.fail(400, "bad_request", "Invalid request: `tags` must map strings to strings")
        policy = body.get("networkPolicy", {"mode": "allow-all"})
        if not isinstance(policy, dict) or policy.get("mode", "custom") not in ("allow-all", "deny-all", "custom"):
            return self.fail(400, "bad_request", "Invalid request: `networkPolicy.mode` must be allow-all or deny-all")
        # Any custom policy (allow-lists) is enforced here as no network at all: stricter, never looser.
        if "mode" not in policy:
            policy = {"mode": "custom", "allowedDomains": policy.get("allow") if isinstance(policy.get("allow"), list) else []}
        name = body.get("name") or "sbx-" + uuid.uuid4().hex[:16]
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
            return self.fail(400, "bad_request", "Invalid request: `name` is not a valid sandbox name")
        with self.state.lock:
            if name in self.state.sandboxes:
                return self.fail(409, "sandbox_already_exists", "A sandbox named %s already exists" % name)
            t = now_ms()
            sandbox = {"name": name, "persistent": persistent, "region": "iad1", "vcpus": vcpus,
                       "memory": 2048 * vcpus, "runtime": body["runtime"], "timeout": timeout,
                       "networkPolicy": policy, "createdAt": t, "updatedAt": t, "currentSessionId": "",
                       "status": "pending", "cwd": "/vercel/sandbox", "tags": tags}
            self.state.sandboxes[name] = {"sandbox": sandbox}
            session = self.new_session(name)
        failing = self.state.take_option("create_accepted_then_fail")
        if failing:
            return self.fail(int(failing.get("status", 500)), "internal_server_error", "injected fault after create")
        self.send(200, {"sandbox": sandbox, "session": session, "routes": []})

    def new_session(self, name):
        """Starts a session (VM) of sandbox `name`; holds the lock."""
        sb = self.state.sandboxes[name]["sandbox"]
        sid = "sbx_" + uuid.uuid4().hex[:24]
        delay = float(self.state.options.get("create_delay", 0) or 0)
        ends_as = self.state.options.get("create_status", "running")
        t = now_ms()
        session = {"id": sid, "memory": sb["memory"], "vcpus": sb["vcpus"], "region": "iad1",
                   "runtime": sb["runtime"], "timeout": sb["timeout"], "status": "pending",
                   "requestedAt": t, "createdAt": t, "updatedAt": t, "cwd": "/vercel/sandbox",
                   "networkPolicy": sb["networkPolicy"]}
        box = self.state.new_box(FakeBox({"/vercel/sandbox": "work", "/tmp": "tmp"}, "/vercel/sandbox",
                                         network=sb["networkPolicy"].get("mode") == "allow-all"))
        self.state.sessions[sid] = {"session": session, "name": name, "commands": {}}
        self.state.boxes[sid] = box
        sb.update(currentSessionId=sid, status="pending", updatedAt=t)

        def settle():
            with self.state.lock:
                if session["status"] != "pending":
                    return
                if ends_as != "running":
                    # The VM never came up (aborted, failed, ...): nothing runs, nothing is billed.
                    session.update(status=ends_as, updatedAt=now_ms())
                    if ends_as == "aborted":
                        session["abortedAt"] = now_ms()
                    box.destroy()
                else:
                    session.update(status="running", startedAt=now_ms(), updatedAt=now_ms())
                    threading.Thread(target=self.watch_timeout, args=(sid,), daemon=True).start()
                sb.update(status=session["status"], updatedAt=now_ms())
        if delay > 0:
            threading.Timer(delay, settle).start()
        else:
            settle()
        return dict(session)

    def watch_timeout(self, sid):
        """The service stops a session when its timeout (from its start, extensions included) passes."""
        while True:
            with self.state.lock:
                s = self.state.sessions.get(sid)
                if s is None or s["session"]["status"] != "running":
                    return
                left = s["session"]["startedAt"] + s["session"]["timeout"] - now_ms()
            if left <= 0:
                return self.expire(sid)
            time.sleep(min(left / 1000, 1.0))

    def expire(self, sid):
        """The session's timeout passed: its VM stops (everything in it ends), as the service does.
        The non-persistent sandbox stays listed, stopped, until it is deleted."""
        with self.state.lock:
            s = self.state.sessions.get(sid)
            if s is None or s["session"]["status"] != "running":
                return
            s["session"].update(status="stopping", requestedStopAt=now_ms(), updatedAt=now_ms())
            box = self.state.boxes[sid]
        box.destroy()
        with self.state.lock:
            s["session"].update(status="stopped", stoppedAt=now_ms(), updatedAt=now_ms())
            sb = self.state.sandboxes.get(s["name"])
            if sb and sb["sandbox"].get("currentSessionId") == sid:
                sb["sandbox"].update(status="stopped", updatedAt=now_ms())

    def list(self, query):
        extra = set(query) - LIST_QUERY
        if extra:
            return self.fail(400, "bad_request", "Invalid request: unknown query parameter `%s`" % sorted(extra)[0])
        q = {k: v[-1] for k, v in query.items()}
        if not self.project_ok(q.get("project")):
            return
        try:
            limit = int(q.get("limit", "50"))
        except ValueError:
            limit = 0
        if not 1 <= limit <= 100:
            return self.fail(400, "bad_request", "Invalid request: `limit` must be 1 to 100")
        limit = min(limit, int(self.state.options.get("list_page_size", 100)))
        with self.state.lock:
            items = sorted(self.state.sandboxes.values(), key=lambda s: (s["sandbox"]["createdAt"], s["sandbox"]["name"]))
            items = [dict(s["sandbox"]) for s in items]
        for tag in query.get("tags", []):
            key, sep, value = tag.partition(":")
            if not sep:
                return self.fail(400, "bad_request", "Invalid request: `tags` must be key:value")
            items = [s for s in items if s.get("tags", {}).get(key) == value]
        if "namePrefix" in q:
            items = [s for s in items if s["name"].startswith(q["namePrefix"])]
        cursor = q.get("cursor")
        start = 0
        if cursor is not None:
            if not re.fullmatch(r"c[0-9]+", cursor):
                return self.fail(400, "bad_request", "Invalid request: bad `cursor`")
            start = int(cursor[1:])
        page = items[start:start + limit]
        nxt = "c%d" % (start + limit) if start + limit < len(items) else None
        self.send(200, {"sandboxes": page, "pagination": {"count": len(page), "next": nxt}})

    def named(self, name, q, allowed):
        """The record of sandbox `name` (call with the lock held); answers the error itself."""
        extra = set(q) - allowed - {"teamId", "projectId"}
        if extra:
            self.fail(400, "bad_request", "Invalid request: unknown query parameter `%s`" % sorted(extra)[0])
            return None
        if not self.project_ok(q.get("projectId")):
            return None
        rec = self.state.sandboxes.get(name)
        if rec is None:
            self.fail(404, "not_found", "Sandbox not found")
        return rec

    def get(self, name, q):
        with self.state.lock:
            rec = self.named(name, q, {"resume"})
            if rec is None:
                return
            sandbox = rec["sandbox"]
            session = self.state.sessions[sandbox["currentSessionId"]]["session"]
            resumed = False
            if q.get("resume") == "true" and session["status"] in STOPPED and sandbox["status"] != "stopping":
                session = self.new_session(name)
                resumed = True
            self.send(200, {"sandbox": dict(sandbox), "session": dict(session), "routes": [], "resumed": resumed})

    def delete(self, name, q):
        with self.state.lock:
            rec = self.named(name, q, {"deleteOrphanSnapshots"})
            if rec is None:
                return
            sandbox = rec["sandbox"]
            sid = sandbox["currentSessionId"]
            session = self.state.sessions[sid]["session"]
            box = self.state.boxes[sid]
            never = bool(self.state.options.get("stop_never_confirms"))
            if session["status"] not in STOPPED:
                session.update(status="stopping", requestedStopAt=now_ms(), updatedAt=now_ms())
        box.destroy()  # the VM really goes away, even when the API never says so
        with self.state.lock:
            if never:
                rec["delete_accepted"] = True
                sandbox.update(status="stopping", updatedAt=now_ms())
                return self.send(200, {"sandbox": dict(sandbox)})
            if session["status"] == "stopping":
                session.update(status="stopped", stoppedAt=now_ms(), updatedAt=now_ms())
            sandbox.update(status="stopped", updatedAt=now_ms())
            del self.state.sandboxes[name]
            if q.get("deleteOrphanSnapshots") == "true":
                for snap_id in [k for k, v in self.state.snapshots.items() if v["name"] == name]:
                    del self.state.snapshots[snap_id]
            self.send(200, {"sandbox": dict(sandbox)})

    # --- sessions ---
    def get_session(self, sid):
        s = self.session_for(sid, need_running=False)
        if s:
            self.send(200, {"session": dict(s["session"]), "routes": []})

    def stop(self, sid):
        s = self.session_for(sid, need_running=False)
        if s is None:
            return
        session = s["session"]
        with self.state.lock:
            sandbox = self.state.sandboxes.get(s["name"], {}).get("sandbox")
        if session["status"] in STOPPED:
            return self.send(200, {"session": dict(session)})
        persistent = bool(sandbox and sandbox["persistent"])
        session.update(status="snapshotting" if persistent else "stopping", requestedStopAt=now_ms(),
                       updatedAt=now_ms())
        if sandbox:
            sandbox.update(status=session["status"], updatedAt=now_ms())
        never = bool(self.state.options.get("stop_never_confirms"))
        delay = float(self.state.options.get("stop_delay", 0.05))
        box = self.state.boxes[sid]

        def finish():
            box.destroy()
            time.sleep(delay)
            if never:
                return
            with self.state.lock:
                if persistent and sandbox:
                    # A persistent sandbox keeps its state as a snapshot (what `persistent: false` avoids).
                    snap_id = "snap_" + uuid.uuid4().hex[:20]
                    t = now_ms()
                    self.state.snapshots[snap_id] = {"name": s["name"], "snapshot": {
                        "id": snap_id, "sourceSessionId": sid, "region": "iad1", "status": "created",
                        "sizeBytes": 0, "createdAt": t, "updatedAt": t}}
                    sandbox["currentSnapshotId"] = snap_id
                session.update(status="stopped", stoppedAt=now_ms(), updatedAt=now_ms())
                if sandbox:
                    sandbox.update(status="stopped", updatedAt=now_ms())
        threading.Thread(target=finish, daemon=True).start()
        out = {"session": dict(session)}
        if sandbox:
            out["sandbox"] = dict(sandbox)
        self.send(200, out)

    def cmd(self, sid):
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
        for flag in ("sudo", "wait", "logs"):
            if not isinstance(body.get(flag, False), bool):
                return self.fail(400, "bad_request", "Invalid request: `%s` must be a boolean" % flag)
        timeout = body.get("timeout")
        if timeout is not None and (not isinstance(timeout, int) or timeout <= 0):
            return self.fail(400, "bad_request", "Invalid request: `timeout` must be a positive integer (ms)")
        s = self.session_for(sid)
        if s is None:
            return
        cwd = body.get("cwd") or "/vercel/sandbox"
        box = self.state.boxes[sid]
        if box.host_path(cwd) is None or not os.path.isdir(box.host_path(cwd)):
            return self.fail(400, "bad_request", "Invalid request: cwd %s does not exist" % cwd)
        argv = [body["command"]] + args
        delay = self.state.command_delay(" ".join(argv))
        if delay:  # started (and answered) at once; the program itself only after the delay
            argv = ["/bin/sh", "-c", 'sleep "$0"; exec "$@"', str(delay)] + argv
        proc = box.start(argv, cwd, env)
        if timeout:
            threading.Timer(timeout / 1000, proc.kill).start()
        cid = "cmd_" + uuid.uuid4().hex[:24]
        command = {"id": cid, "name": body["command"], "args": args, "cwd": cwd, "sessionId": sid,
                   "exitCode": None, "startedAt": proc.started_at}
        s["commands"][cid] = (command, proc)
        if not body.get("wait"):
            return self.send(200, {"command": dict(command)})
        # wait: one NDJSON stream: the command, its output (with logs: true), the finished command.
        self.start_chunked(200, NDJSON)
        self.chunk(json.dumps({"command": dict(command)}).encode() + b"\n")
        if not self.stream_logs(proc, bool(body.get("logs"))):
            return
        self.chunk(json.dumps({"command": self.finished(command, proc)}).encode() + b"\n")
        self.end_chunked()

    def finished(self, command, proc):
        proc.wait()
        command["exitCode"] = proc.exit_code
        command["durationMs"] = max(0, int(time.time() * 1000) - proc.started_at)
        return dict(command)

    def stream_logs(self, proc, with_output):
        """Writes the output lines as they come until the process ends; False when cut."""
        # A cut is taken (counted) only by a stream that has sent output and still runs `after_ms`
        # after it started: a silent or quick command before (the base-package check) leaves it for
        # the one it is meant for.
        started = time.monotonic()
        index = 0
        while True:
            chunks, done = proc.chunks_from(index, 0.05)
            index += len(chunks)
            if with_output:
                self.chunk(b"".join(json.dumps({"stream": st, "data": t}).encode() + b"\n" for st, t in chunks))
            if done:
                return True
            cut = self.state.options.get("cut_logs")
            if cut and index > 0 and time.monotonic() - started >= cut.get("after_ms", 300) / 1000 \
                    and self.state.take_option("cut_logs"):
                self.cut_connection()
                return False

    def find_cmd(self, sid, cid):
        s = self.state.sessions.get(sid)
        if s is None:
            self.fail(404, "not_found", "Session not found")
            return None
        if cid not in s["commands"]:
            self.fail(404, "command_not_found", "Command not found")
            return None
        return s["commands"][cid]

    def cmd_get(self, sid, cid, q):
        found = self.find_cmd(sid, cid)
        if not found:
            return
        command, proc = found
        wait = q.get("wait", "false")
        if wait not in ("true", "false"):
            return self.fail(400, "bad_request", "Invalid request: `wait` must be true or false")
        if wait == "true":
            return self.send(200, {"command": self.finished(command, proc)})
        if proc.done:
            command["exitCode"] = proc.exit_code
        self.send(200, {"command": dict(command)})

    def logs(self, sid, cid):
        found = self.find_cmd(sid, cid)
        if not found:
            return
        _, proc = found
        self.start_chunked(200, NDJSON)
        if self.stream_logs(proc, True):
            self.end_chunked()

    def kill(self, sid, cid):
        found = self.find_cmd(sid, cid)
        if not found:
            return
        body = self.need_json({"signal"})
        if body is None:
            return
        sig = body.get("signal", 15)
        if not isinstance(sig, int) or not 1 <= sig <= 64:
            return self.fail(400, "bad_request", "Invalid request: `signal` must be a signal number")
        command, proc = found
        proc.kill(sig)
        self.send(200, {"command": dict(command)})

    def extend_timeout(self, sid):
        """The SDK's Session.extendTimeout(duration): the running session's timeout grows by it."""
        body = self.need_json({"duration"})
        if body is None:
            return
        duration = body.get("duration")
        if not isinstance(duration, int) or isinstance(duration, bool) or duration <= 0:
            return self.fail(400, "bad_request", "Invalid request: `duration` must be a positive integer (ms)")
        s = self.session_for(sid)
        if s is None:
            return
        with self.state.lock:
            s["session"]["timeout"] += duration
            s["session"]["updatedAt"] = now_ms()
            session = dict(s["session"])
        self.send(200, {"session": session})

    def fs_write(self, sid):
        if self.headers.get("Content-Type", "") != "application/gzip":
            return self.fail(400, "bad_request", "Invalid request: content-type must be application/gzip")
        cwd = self.headers.get("x-cwd")
        if cwd is None:
            return self.fail(400, "bad_request", "Invalid request: missing x-cwd header")
        if self.session_for(sid) is None:
            return
        box = self.state.boxes[sid]
        try:
            with tarfile.open(fileobj=io.BytesIO(self.read_body()), mode="r:gz") as tar:
                for m in tar.getmembers():
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
        body = self.need_json({"path", "cwd"})
        if body is None:
            return
        if not isinstance(body.get("path"), str):
            return self.fail(400, "bad_request", "Invalid request: `path` is required")
        if self.session_for(sid) is None:
            return
        box = self.state.boxes[sid]
        host = box.host_path(os.path.join(body.get("cwd") or "/vercel/sandbox", body["path"]))
        if host is None or not os.path.isfile(host):
            return self.fail(404, "file_not_found", "File not found")
        with open(host, "rb") as f:
            self.send(200, f.read(), ctype="application/octet-stream")

    def fs_mkdir(self, sid):
        body = self.need_json({"path", "cwd"})
        if body is None:
            return
        if self.session_for(sid) is None:
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
