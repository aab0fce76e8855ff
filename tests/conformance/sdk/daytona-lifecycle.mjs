// Drives the pinned @daytonaio/sdk through the lifecycle Sandpad's Daytona client uses, against a
// server named by DAYTONA_API_URL (tests/fakes/fake_daytona.py): create, upload a file, run it in
// a session (runAsync, polled), read its logs, download a file, delete the session, delete the
// sandbox (waiting until destroyed) and confirm it is gone. Prints one JSON line; exits 1 on any
// failure (the message says where). Run with DAYTONA_USE_DEPRECATED_POLLING=true (no socket.io).
import { Daytona, DaytonaNotFoundError } from '@daytonaio/sdk';

const step = { name: 'start' };
async function main() {
  const daytona = new Daytona({
    apiKey: process.env.DAYTONA_API_KEY,
    apiUrl: process.env.DAYTONA_API_URL,
    useDeprecatedPolling: true,
  });
  const runId = process.env.SANDPAD_RUN_ID || 'sdk-lifecycle';
  step.name = 'create';
  // The same parameters Sandpad's client sends (DaytonaSandbox::start).
  const sandbox = await daytona.create({
    language: 'python',
    labels: { 'sandpad-app': 'sandpad', 'sandpad-run': runId },
    public: false,
    resources: { memory: 1 },
    autoStopInterval: 3,
    autoDeleteInterval: 0,
    networkBlockAll: true,
  });
  step.name = 'upload';
  await sandbox.fs.uploadFiles([
    { source: Buffer.from("import sys\nprint('hello from', sys.argv[1])\nprint('err', file=sys.stderr)\n"),
      destination: '/tmp/sandpad/main.py' },
  ]);
  step.name = 'session';
  const sessionId = 'sandpad-sdk';
  await sandbox.process.createSession(sessionId);
  const exec = await sandbox.process.executeSessionCommand(sessionId, {
    command: "(cd /tmp/sandpad && python3 main.py sdk) < /dev/null",
    runAsync: true,
  });
  step.name = 'poll';
  let command;
  for (let i = 0; i < 600; i++) {
    command = await sandbox.process.getSessionCommand(sessionId, exec.cmdId);
    if (command.exitCode !== undefined && command.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  step.name = 'logs';
  const logs = await sandbox.process.getSessionCommandLogs(sessionId, exec.cmdId);
  step.name = 'download';
  const file = await sandbox.fs.downloadFile('/tmp/sandpad/main.py');
  let missing = 'found';
  try {
    await sandbox.fs.downloadFile('/tmp/sandpad/none');
  } catch (e) {
    missing = e instanceof DaytonaNotFoundError ? 'not found' : `${e.constructor.name}: ${e.message}`;
  }
  step.name = 'keep alive'; // a notebook session's calls: auto-stop raised, activity refreshed
  await sandbox.setAutostopInterval(32);
  await sandbox.refreshActivity();
  step.name = 'delete session';
  await sandbox.process.deleteSession(sessionId);
  step.name = 'delete';
  await sandbox.delete(60, true);
  step.name = 'confirm';
  let gone = false;
  try {
    await daytona.get(sandbox.id);
  } catch (e) {
    gone = e instanceof DaytonaNotFoundError;
  }
  console.log(JSON.stringify({
    ok: true, id: sandbox.id, exitCode: command.exitCode, stdout: logs.stdout, stderr: logs.stderr,
    file: file.toString(), missing, gone,
  }));
}

main().catch((e) => {
  console.log(JSON.stringify({ ok: false, step: step.name, error: `${e.constructor.name}: ${e.message}` }));
  process.exit(1);
});
