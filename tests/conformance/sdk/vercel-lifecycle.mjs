// Drives the pinned @vercel/sandbox (3.5.0) against tests/fakes/fake_vercel.py through the lifecycle
// Sandpad's Vercel client uses: create (non-persistent, deny-all, tagged), write a file, run it with
// its output streamed, read a file (and a missing one), start a detached command and extend the
// timeout (a notebook session's calls), list by the app tag, delete, confirm gone.
// Usage: node vercel-lifecycle.mjs <fake base URL> <run id>
// Prints one JSON line: what the SDK saw. The SDK's only hook is its `fetch` parameter: ours sends
// https://vercel.com/api/... to the fake.
import { Sandbox } from "@vercel/sandbox";
import { Writable } from "node:stream";

const [base, runId] = process.argv.slice(2);
if (!base || !runId) {
  console.error("usage: node vercel-lifecycle.mjs <fake base URL> <run id>");
  process.exit(2);
}
const fetch = (url, opts) => {
  const { dispatcher, ...rest } = opts ?? {}; // the SDK's own undici Agent is not Node's
  return globalThis.fetch(String(url).replace("https://vercel.com/api", base), rest);
};
const credentials = { token: "vercel_test_token_123", teamId: "team_fake", projectId: "prj_fake", fetch };
const seen = { streamed: [], stdout: "", stderr: "" };
const sink = (name) => new Writable({
  write(chunk, _enc, done) {
    seen.streamed.push({ stream: name, data: String(chunk), at: Date.now() });
    done();
  },
});

try {
  const sandbox = await Sandbox.create({
    ...credentials,
    runtime: "python3.13",
    resources: { vcpus: 1 },
    timeout: 180000,
    persistent: false,
    networkPolicy: "deny-all",
    tags: { "sandpad-app": "sandpad", "sandpad-run": runId },
  });
  seen.name = sandbox.name;
  seen.status = sandbox.status;
  seen.persistent = sandbox.persistent;
  await sandbox.writeFiles([{ path: "/vercel/sandbox/sandpad/main.py",
    content: Buffer.from("import sys, time\nprint('out', flush=True)\ntime.sleep(0.3)\n" +
                         "print('err', file=sys.stderr, flush=True)\nopen('out.txt', 'w').write('hi there')\nsys.exit(3)\n") }]);
  const finished = await sandbox.runCommand({
    cmd: "python3", args: ["main.py"], cwd: "/vercel/sandbox/sandpad", env: {}, timeoutMs: 65000,
    stdout: sink("stdout"), stderr: sink("stderr"),
  });
  seen.finishedAt = Date.now();
  seen.exitCode = finished.exitCode;
  seen.stdout = await finished.stdout();
  seen.stderr = await finished.stderr();
  const file = await sandbox.readFileToBuffer({ path: "/vercel/sandbox/sandpad/out.txt" });
  seen.file = file === null ? null : file.toString();
  seen.missing = await sandbox.readFileToBuffer({ path: "/vercel/sandbox/sandpad/missing.txt" });
  // A notebook session's calls: a detached command (its host) and the timeout extended.
  const detached = await sandbox.runCommand({ cmd: "sleep", args: ["30"], cwd: "/vercel/sandbox", env: {}, detached: true });
  seen.detached = typeof detached === "object" && detached !== null;
  await sandbox.extendTimeout(600000);
  const listed = await Sandbox.list({ ...credentials, tags: { "sandpad-app": "sandpad" }, limit: 1 });
  seen.listed = (await listed.toArray()).map((s) => ({ name: s.name, tags: s.tags, status: s.status }));
  await sandbox.delete({ deleteOrphanSnapshots: true });
  try {
    await Sandbox.get({ ...credentials, name: sandbox.name, resume: false });
    seen.gone = false;
  } catch (e) {
    seen.gone = e?.response?.status === 404;
    seen.goneMessage = String(e?.message ?? e);
  }
  seen.ok = true;
} catch (e) {
  seen.ok = false;
  seen.error = String(e?.stack ?? e);
}
console.log(JSON.stringify(seen));
