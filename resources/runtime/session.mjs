// Sandpad's JavaScript notebook session (docs/runtime-protocol.md, "Sessions").
//
// A pre-started wrapper (`node wrapper.mjs --warm`) that is sent the job `--session` imports this
// module and calls serve(): from then on one node process runs execution after execution in one
// context. Each execution is evaluated through the in-process inspector in V8's REPL mode (what a
// DevTools console does): top-level let/const/class/functions persist and may be declared again
// by a rerun cell, and top-level await works. Static imports become dynamic ones on the same line
// (line numbers kept). Like a fresh run's script (js_program.mjs) a cell is sloppy and has
// `require`, `module`, `exports`, `__filename` and `__dirname` (globals here, as in node's REPL;
// top-level `this` is globalThis, as there). A cell with a top-level `return` cannot be REPL code:
// it runs as the body of an async function, like a fresh run's script, so it sees the session's
// bindings but its own declarations stay in the cell; the returned value is its Out[n]. The
// wrapper's own pieces come in as `W`, never copied.

import fs from "node:fs";
import inspector from "node:inspector";
import net from "node:net";
import path from "node:path";
import util from "node:util";
import vm from "node:vm";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

// The work dir this file was placed in: /sandpad locally, the provider's in a remote session.
const WORK = path.dirname(fileURLToPath(import.meta.url));

const STASH = "__sandpadStash_" + process.pid;
const IMPORT = "__sandpadImport";
const MISSING = Symbol("missing");
const SYNC = "__sandpadSync_" + process.pid;

// Starts an evaluation whose synchronous part (the in-process inspector runs it inside the post)
// can be stopped by SIGINT: vm's breakOnSigint terminates the running JavaScript there, a busy
// loop included, and the REPL context keeps what ran before (node's REPL does the same for its
// own cells). Null when SIGINT came during that part; what is awaited after it is interrupted by
// the session's SIGINT handler as before.
function interruptibly(start) {
    globalThis[SYNC] = start;
    try {
        // Named after this file: its frame is left out of the user's stacks like this file's own.
        return vm.runInThisContext(`globalThis[${JSON.stringify(SYNC)}]()`, { breakOnSigint: true, filename: "session.mjs" });
    } catch (e) {
        if (e && e.code === "ERR_SCRIPT_EXECUTION_INTERRUPTED")
            return null;
        throw e;
    } finally {
        delete globalThis[SYNC];
    }
}

// `import x from "m"` and friends, one line each, become `const ... = await import("m")`; every
// `import(` then goes through the session's own import, which resolves against /sandpad.
function rewriteImports(source) {
    const names = (list) => list.split(",").map((s) => s.trim()).filter(Boolean)
        .map((s) => s.replace(/^(\S+)\s+as\s+(\S+)$/, "$1: $2")).join(", ");
    const spec = `(['"][^'"\\n]+['"])`;
    const rules = [
        [new RegExp(`^(\\s*)import\\s+\\*\\s+as\\s+([\\w$]+)\\s+from\\s+${spec}`), (m, i, ns, s) => `${i}const ${ns} = await import(${s})`],
        [new RegExp(`^(\\s*)import\\s+([\\w$]+)\\s*,\\s*\\{([^}]*)\\}\\s*from\\s+${spec}`),
            (m, i, d, list, s) => `${i}const {default: ${d}, ${names(list)}} = await import(${s})`],
        [new RegExp(`^(\\s*)import\\s*\\{([^}]*)\\}\\s*from\\s+${spec}`), (m, i, list, s) => `${i}const {${names(list)}} = await import(${s})`],
        [new RegExp(`^(\\s*)import\\s+([\\w$]+)\\s+from\\s+${spec}`), (m, i, d, s) => `${i}const {default: ${d}} = await import(${s})`],
        [new RegExp(`^(\\s*)import\\s+${spec}`), (m, i, s) => `${i}await import(${s})`],
    ];
    return source.split("\n").map((line) => {
        for (const [pattern, replace] of rules)
            if (pattern.test(line))
                return line.replace(pattern, replace);
        return line;
    }).join("\n").replace(/(^|[^\w$.])import\s*\(/g, `$1${IMPORT}(`);
}

function sessionImport(specifier) {
    const text = String(specifier);
    if (text.startsWith("./") || text.startsWith("../") || text.startsWith("/"))
        return import(pathToFileURL(path.resolve(WORK, text)).href);
    return import(text);
}

// "number", "string", "null", "function", or the constructor's name ("Array", "Map", "Point").
function jsTypeName(value) {
    if (value === null)
        return "null";
    if (typeof value === "function")
        return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? "class" : "function";
    if (typeof value !== "object")
        return typeof value;
    const proto = Object.getPrototypeOf(value);
    const ctor = proto && Object.prototype.hasOwnProperty.call(proto, "constructor") ? proto.constructor : null;
    return typeof ctor === "function" && typeof ctor.name === "string" && ctor.name ? ctor.name.slice(0, 100) : "Object";
}

export async function serve(jobFd, W) {
    const emit = W.makeChannel(W.takeResultFd(), path.join(WORK, "out"));
    // display() as in a fresh run (before the variables' baseline: not a variable of the user's).
    const rich = W.installDisplay(emit);
    const session = new inspector.Session();
    session.connect();
    const post = (method, params) => new Promise((resolve) => {
        session.post(method, params, (error, answer) => resolve({ error, answer }));
    });
    // A value the inspector holds (objectId) into this realm, without copying it.
    const fetch = async (remote) => {
        if (!remote || remote.type === "undefined")
            return undefined;
        if (remote.objectId) {
            await post("Runtime.callFunctionOn", {
                objectId: remote.objectId,
                functionDeclaration: `function() { "use strict"; globalThis[${JSON.stringify(STASH)}] = this; }`,
            });
            const value = globalThis[STASH];
            delete globalThis[STASH];
            return value;
        }
        if ("unserializableValue" in remote) {
            const u = remote.unserializableValue;
            return u.endsWith("n") ? BigInt(u.slice(0, -1)) : Number(u);
        }
        return remote.value;
    };

    globalThis[IMPORT] = sessionImport;
    await W.program.quietDynamicImport(); // a `return` cell's import() (runAsFunction)
    const scope = W.program.scriptScope(WORK, "main.js");
    globalThis.require = scope.require;
    globalThis.module = scope.module;
    globalThis.exports = scope.exports;
    globalThis.__dirname = scope.dirname;
    let names = [];
    W.program.nameStacks(() => names, [import.meta.url, new URL("./wrapper.mjs", import.meta.url).href,
                                       new URL("./js_program.mjs", import.meta.url).href]);
    const socket = new net.Socket({ fd: jobFd, readable: true, writable: true });
    let current = null; // the execution going on: { interrupt }
    let preparing = false; // an interrupt that comes before the evaluation starts waits for it
    let pending = false;
    let previous = { result: MISSING, results: MISSING, chart: MISSING };

    process.on("SIGINT", () => {
        if (current)
            current.interrupt();
        else if (preparing)
            pending = true;
    });
    // Errors thrown later (timers, unawaited promises) belong to whichever execution is running;
    // between executions they are shown and the session goes on.
    const late = (e) => {
        if (current)
            current.fail(e);
        else
            process.stderr.write(`${e && e.stack ? e.stack : util.inspect(e)}\n`);
    };
    process.on("uncaughtException", late);
    process.on("unhandledRejection", late);

    const execute = async (manifestPath) => {
        preparing = true;
        const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
        const title = manifest.title || path.basename(manifest.code_path);
        emit("started", "");
        let runFiles = null, filesBefore = null; // the run's files (run_files.cjs): cwd, stdin, artifacts
        try {
            runFiles = createRequire(import.meta.url)(path.join(WORK, "run_files.cjs"));
            filesBefore = runFiles.prepare(manifest);
        } catch { runFiles = null; }
        const source = fs.readFileSync(manifest.code_path, "utf8");
        const restoreOut = W.batch(process.stdout);
        const restoreErr = W.batch(process.stderr);
        rich.begin(); // this execution's outputs, its stdout counted from here
        let error = null;
        let interrupted = null;
        const stopped = new Promise((resolve) => {
            current = {
                interrupt: () => resolve("interrupted"),
                fail: (e) => resolve({ late: e }),
            };
            if (pending)
                resolve("interrupted");
        });
        preparing = false;
        pending = false;
        const describe = (e) => {
            const d = W.describeError(e, sourceUrl, pathToFileURL(manifest.code_path).href, title);
            d.traceback = d.traceback.split("\n").filter((line) => {
                const frame = line.trim();
                return !frame.startsWith("at ") || !(frame.includes("session.mjs") || frame.includes("(node:")
                    || frame.startsWith("at node:") || frame === "at new Promise (<anonymous>)");
            }).join("\n");
            return d;
        };
        let shown;
        const sourceUrl = title.replace(/\s/g, "_");
        names = sourceUrl === title ? [] : [[sourceUrl, title]];
        globalThis.__filename = path.join(WORK, title.replace(/[/\0]/g, "_"));
        const evaluation = interruptibly(() => post("Runtime.evaluate", {
            expression: `${rewriteImports(source)}\n//# sourceURL=${sourceUrl}`,
            replMode: true, awaitPromise: true, objectGroup: "execution",
        }));
        let outcome = evaluation === null ? "interrupted" : await Promise.race([evaluation, stopped]);
        let returned = false;
        if (outcome.answer && outcome.answer.exceptionDetails && (await isIllegalReturn(outcome.answer.exceptionDetails))) {
            // Parsed only, nothing ran: the cell is a function body instead (see the header).
            outcome = await Promise.race([runAsFunction(rewriteImports(source), title), stopped]);
            returned = true;
        }
        if (outcome === "interrupted") {
            error = { name: "KeyboardInterrupt", value: "the execution was interrupted (its state is kept)", traceback: "" };
        } else if (outcome.late !== undefined) {
            error = describe(outcome.late);
        } else if (returned) {
            if ("thrown" in outcome)
                error = outcome.thrown instanceof SyntaxError ? syntaxError(outcome.thrown, title) : describe(outcome.thrown);
            else
                shown = outcome.value;
        } else if (outcome.error) {
            error = { name: "Error", value: String(outcome.error.message || outcome.error), traceback: "" };
        } else if (outcome.answer.exceptionDetails) {
            const details = outcome.answer.exceptionDetails;
            const thrown = await fetch(details.exception);
            if (thrown instanceof SyntaxError && !String(thrown.stack).includes(`${sourceUrl}:`) && !String(thrown.stack).includes(`${title}:`)) {
                // A parse error carries its place only in the details.
                const line = details.lineNumber + 1;
                const text = source.split("\n")[details.lineNumber] ?? "";
                error = { name: "SyntaxError", value: thrown.message,
                          traceback: `${title}:${line}:${details.columnNumber + 1}\n${text}\n${" ".repeat(details.columnNumber)}^\n\nSyntaxError: ${thrown.message}` };
            } else {
                error = describe(thrown);
            }
        } else {
            shown = await fetch(outcome.answer.result);
        }
        current = null;
        // result/results/chart as this execution left them (also let/const bindings, which are
        // not properties of globalThis), each counted only when this execution (re)bound it.
        const bindings = await post("Runtime.evaluate", {
            expression: `({result: typeof result === "undefined" ? globalThis[${JSON.stringify(STASH + "m")}] : result,
                results: typeof results === "undefined" ? globalThis[${JSON.stringify(STASH + "m")}] : results,
                chart: typeof chart === "undefined" ? globalThis[${JSON.stringify(STASH + "m")}] : chart})`,
            replMode: true, objectGroup: "execution",
        });
        globalThis[STASH + "m"] = MISSING;
        const now = (!bindings.error && !bindings.answer.exceptionDetails && (await fetch(bindings.answer.result))) || previous;
        const before = previous;
        const bound = (name) => now[name] !== MISSING && now[name] !== before[name];
        previous = now;
        await post("Runtime.releaseObjectGroup", { objectGroup: "execution" });
        restoreOut();
        restoreErr();
        let result = null;
        if (bound("result"))
            result = W.resultText(now.result);
        else if (bound("results"))
            result = W.resultText(now.results);
        else if (shown !== undefined && !error)
            result = returned ? W.resultText(shown) : util.inspect(shown, { depth: 6, maxArrayLength: 1000 });
        const charts = [];
        let chartError = null;
        if (bound("chart") && now.chart && typeof now.chart === "object" && !Array.isArray(now.chart)) {
            const { spec, error: problem } = W.chartJson(now.chart);
            if (spec !== null)
                charts.push({ kind: "interactive", spec });
            chartError = problem;
        }
        try {
            emit("variables.json", JSON.stringify(await listVariables()));
        } catch (e) {
            process.stderr.write(`Sandpad: could not list the variables: ${e && e.message ? e.message : e}\n`);
        }
        emit("result.json", JSON.stringify({ status: error ? "error" : "success", result, error, charts, chart_error: chartError,
                                             ...(rich.outputs.length > 0 ? { outputs: rich.outputs } : {}),
                                             ...(runFiles ? runFiles.collect(manifest.cwd, emit, manifest, filesBefore) : {}) }));
    };
    globalThis[STASH + "m"] = MISSING;
    // The variable explorer's rows (docs/runtime-protocol.md, "Sessions"): the REPL context's
    // top-level let/const/class (its global lexical scope, from the inspector) and the var and
    // function declarations (properties of globalThis that were not there when the session
    // started). Names starting with "_", imported module namespaces and require()d modules are
    // left out. Each value is described without copying it (a length or size, a short inspect).
    const baseline = new Set(Object.getOwnPropertyNames(globalThis));
    const listVariables = async () => {
        const { error: failed, answer } = await post("Runtime.globalLexicalScopeNames", {});
        const lexical = new Set(failed || !answer ? [] : answer.names);
        const names = new Set(lexical);
        for (const name of Object.getOwnPropertyNames(globalThis))
            if (!baseline.has(name))
                names.add(name);
        const loaded = new Set(Object.values(globalThis.require ? globalThis.require.cache || {} : {}).map((m) => m && m.exports));
        const rows = [];
        for (const name of [...names].sort()) {
            if (rows.length >= 500)
                break;
            if (name.startsWith("_"))
                continue;
            let value;
            try {
                // A let/const is not a property of globalThis; an indirect eval of its name sees
                // the global lexical scope. Before its declaration ran it throws: not listed yet.
                value = lexical.has(name) && /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$\u200c\u200d]*$/u.test(name)
                    ? (0, eval)(name) : globalThis[name];
            } catch {
                continue;
            }
            if (util.types.isModuleNamespaceObject(value) || (value !== null && typeof value === "object" && loaded.has(value)))
                continue;
            const row = { name, type: jsTypeName(value) };
            try {
                if (typeof value === "string" || Array.isArray(value) || util.types.isTypedArray(value))
                    row.size = String(value.length);
                else if (value instanceof Map || value instanceof Set)
                    row.size = String(value.size);
                if (util.types.isTypedArray(value) || util.types.isArrayBuffer(value))
                    row.memory = value.byteLength;
                else if (typeof value === "string")
                    row.memory = value.length * 2;
                const text = util.inspect(value, { depth: 0, maxArrayLength: 10, maxStringLength: 100, breakLength: Infinity });
                row.value = text.length <= 120 ? text : text.slice(0, 119) + "\u2026";
            } catch (e) {
                row.value = `<${e && e.name ? e.name : "Error"}: ${e && e.message ? e.message : e}>`.slice(0, 120);
            }
            rows.push(row);
        }
        return rows;
    };
    const isIllegalReturn = async (details) => {
        if (!details.exception || details.exception.className !== "SyntaxError")
            return false;
        const thrown = await fetch(details.exception);
        return thrown instanceof SyntaxError && thrown.message === "Illegal return statement";
    };
    // { value } or { thrown }; the function is strict when the cell says so, as in a fresh run.
    const runAsFunction = async (code, title) => {
        try {
            const kind = W.program.snippetKind(code, title);
            if (kind.syntaxError)
                return { thrown: kind.syntaxError };
            return { value: await W.program.runScript(code, title, kind, "", { ...scope, filename: globalThis.__filename }) };
        } catch (e) {
            return { thrown: e };
        }
    };
    const syntaxError = (e, title) => ({
        name: "SyntaxError", value: e.message,
        traceback: W.program.syntaxTraceback(e.stack, title, title, e.message) || `SyntaxError: ${e.message}`,
    });

    // The job socket: files (a JSON header line, then the bytes), then the job line; one job at a time.
    let buffer = Buffer.alloc(0);
    let count = 0;
    let busy = false;
    const take = async () => {
        if (busy)
            return;
        busy = true;
        try {
            for (;;) {
                const end = buffer.indexOf(10);
                if (end < 0)
                    break;
                const line = buffer.toString("utf8", 0, end);
                if (line.startsWith("{")) {
                    const header = JSON.parse(line);
                    if (buffer.length < end + 1 + header.size)
                        break; // the rest of the file is still coming
                    W.placeFile(header.name, header.mode, buffer.subarray(end + 1, end + 1 + header.size));
                    buffer = buffer.subarray(end + 1 + header.size);
                    continue;
                }
                buffer = buffer.subarray(end + 1);
                const fields = line.split("\t");
                if (fields[0] === "--fetch") { // not an execution: not counted, answered "fetched"
                    emit("fetch.json", JSON.stringify({ error: "JavaScript values do not open as a table: only numpy arrays and pandas DataFrames and Series do" }));
                    socket.write("fetched\n");
                    continue;
                }
                ++count;
                try {
                    if (fields.length === 4)
                        spawnSync("/usr/bin/prlimit", ["--pid", String(process.pid), `--cpu=${fields[1]}:${fields[2]}`], { stdio: "ignore" });
                    await execute(fields[0].trim());
                } catch (e) {
                    process.stderr.write(`Sandpad session failed: ${e && e.stack ? e.stack : e}\n`);
                }
                socket.write(`done ${count}\n`);
            }
        } finally {
            busy = false;
        }
    };
    socket.on("data", (chunk) => {
        buffer = Buffer.concat([buffer, chunk]);
        take();
    });
    socket.write("ready\n");
    await new Promise((resolve) => socket.on("end", resolve));
    process.exit(0); // the host ended the session
}
