// Sandpad's JavaScript runtime wrapper: `node wrapper.mjs manifest.json`.
//
// Runs the user's snippet (manifest "code_path") as `node file.js` would, plus top-level await and
// a top-level `return value` (js_program.mjs): without import/export statements as a sloppy
// CommonJS script, else as an ES module. It reports status, result, error and charts through the
// result channel of docs/runtime-protocol.md: frames on the file descriptor named by
// SANDPAD_RESULT_FD, or files in the manifest's "out_dir". Nothing of the protocol is ever written
// to stdout or stderr.
//
// Top-level `result` / `results` / `chart` bindings are local to the snippet, so a closure over
// them is put into its scope: a script gets it first (on the function's header line), a module
// (a temporary copy of the code) gets one line appended after the code, so line numbers do not
// move.

import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import util from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as program from "./js_program.mjs";

const wrapperPath = fileURLToPath(import.meta.url);
const CAPTURE = "__sandpadCapture_" + process.pid + "_" + Date.now().toString(36);
// The statement that makes globalThis[CAPTURE]() read the snippet's result/results/chart (each on
// its own: one still in its temporal dead zone does not hide the others).
const captureStatement = `globalThis[${JSON.stringify(CAPTURE)}] = () => { const c = {}; `
    + ["result", "results", "chart"].map((n) => `try { if (typeof ${n} !== "undefined") c.${n} = ${n}; } catch {}`).join(" ")
    + " return c; };";

// ---------------------------------------------------------------------------------------------
// The result channel. The fd is reopened through /proc so the copy we keep is close-on-exec
// (libuv opens everything with O_CLOEXEC) and the inherited descriptor is closed: child processes
// never get the channel.
function takeResultFd() {
    const text = process.env.SANDPAD_RESULT_FD;
    delete process.env.SANDPAD_RESULT_FD;
    if (!text)
        return null;
    const fd = Number.parseInt(text, 10);
    if (!Number.isInteger(fd) || fd < 0)
        throw new Error(`invalid SANDPAD_RESULT_FD: ${text}`);
    try {
        const reopened = fs.openSync(`/proc/self/fd/${fd}`, "a");
        fs.closeSync(fd);
        return reopened;
    } catch {
        return fd; // no /proc: keep the inherited descriptor
    }
}

function makeChannel(fd, outDir) {
    return (name, data) => {
        const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, "utf8");
        if (fd !== null) {
            const header = Buffer.from(JSON.stringify({ name, size: bytes.length }) + "\n", "utf8");
            const all = Buffer.concat([header, bytes]);
            let offset = 0;
            while (offset < all.length) {
                try {
                    offset += fs.writeSync(fd, all, offset, all.length - offset);
                } catch (e) {
                    if (e.code !== "EAGAIN")
                        throw e;
                }
            }
        } else {
            fs.mkdirSync(outDir, { recursive: true });
            const file = path.join(outDir, name);
            fs.writeFileSync(file + ".part", bytes);
            fs.renameSync(file + ".part", file);
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Output batching. A write goes out at once while output is sparse: the first kDirectWrites
// writes of every kBatchMs window. Past that (a loop of console.log calls) writes are collected
// and passed on at the end of the window (or at 64 KiB), so a flood does not cost a system call
// per line, and still shows up within a frame. Pipes, files and TTYs are synchronous on Linux,
// so nothing is lost on process.exit().
const kBatchMs = 16;
const kDirectWrites = 32;

function batch(stream) {
    const original = stream.write.bind(stream);
    let parts = [];
    let size = 0;
    let windowStart = 0;
    let direct = 0;
    let timer = null;
    const flush = () => {
        if (timer !== null) {
            clearTimeout(timer);
            timer = null;
        }
        if (size === 0)
            return;
        const chunk = Buffer.concat(parts, size);
        parts = [];
        size = 0;
        original(chunk);
    };
    const restore = () => {
        flush();
        stream.write = original;
    };
    stream.write = (chunk, encoding, callback) => {
        if (typeof encoding === "function") {
            callback = encoding;
            encoding = undefined;
        }
        const buffer = typeof chunk === "string" ? Buffer.from(chunk, encoding || "utf8")
                                                 : Buffer.from(chunk);
        const now = Date.now();
        if (now - windowStart >= kBatchMs) {
            windowStart = now;
            direct = 0;
            flush(); // what the last window collected goes first
        }
        if (size === 0 && direct < kDirectWrites) {
            ++direct;
            original(buffer);
        } else {
            parts.push(buffer);
            size += buffer.length;
            if (size >= 65536)
                flush();
            else if (timer === null)
                timer = setTimeout(flush, kBatchMs).unref();
        }
        if (callback)
            queueMicrotask(() => callback(null));
        return true;
    };
    return restore;
}

// ---------------------------------------------------------------------------------------------
function errorName(error) {
    if (error instanceof Error || (error && typeof error === "object" && typeof error.name === "string"))
        return String(error.name || "Error");
    return "Error";
}

function errorValue(error) {
    if (error instanceof Error)
        return String(error.message);
    if (error && typeof error === "object" && "message" in error)
        return String(error.message);
    return typeof error === "string" ? error : util.inspect(error);
}

// A parse error of the module itself carries no location in its stack (Node keeps the
// "file:line" arrow message internal), so ask `node --check` for it; only on that path.
function syntaxErrorReport(modulePath, title, message) {
    const check = spawnSync(process.execPath, ["--check", modulePath], { encoding: "utf8", timeout: 10000 });
    if (check.status === 0 || typeof check.stderr !== "string")
        return null;
    return program.syntaxTraceback(check.stderr, modulePath, title, message);
}

function describeError(error, modulePath, moduleUrl, title) {
    let stack = error instanceof Error && typeof error.stack === "string"
        ? error.stack : `Uncaught ${util.inspect(error)}`;
    // A script's parse errors are found before it runs (js_program.snippetKind): only a module's here.
    if (modulePath && error instanceof SyntaxError && !stack.includes(moduleUrl) && !stack.includes(modulePath))
        stack = syntaxErrorReport(modulePath, title, error.message) || stack;
    if (modulePath)
        stack = stack.split(moduleUrl).join(title).split(modulePath).join(title);
    const lines = stack.split("\n").filter((line) => {
        const frame = line.trim();
        if (!frame.startsWith("at "))
            return true;
        return !frame.includes(wrapperPath) && !frame.includes("node:internal/")
            && frame !== "at async Promise.all (index 0)";
    });
    return { name: errorName(error), value: errorValue(error), traceback: lines.join("\n") };
}

function resultText(value) {
    return typeof value === "string" ? value : util.inspect(value, { depth: 6, maxArrayLength: 1000 });
}

// JSON-clean the `chart` object: NaN/Infinity -> null, Dates -> ISO strings, typed arrays -> arrays.
function chartJson(chart) {
    const seen = new Set();
    const clean = (value, where) => {
        if (value === null || typeof value === "string" || typeof value === "boolean")
            return value;
        if (typeof value === "number")
            return Number.isFinite(value) ? value : null;
        if (typeof value === "bigint")
            return Number(value);
        if (value === undefined)
            return null;
        if (value instanceof Date)
            return Number.isNaN(value.getTime()) ? null : value.toISOString();
        if (ArrayBuffer.isView(value))
            return Array.from(value, (v) => clean(v, where));
        if (typeof value !== "object")
            throw new TypeError(`${where}: a ${typeof value} cannot be converted to JSON`);
        if (seen.has(value))
            throw new TypeError(`${where}: circular reference`);
        seen.add(value);
        let out;
        if (Array.isArray(value)) {
            out = value.map((v, i) => clean(v, `${where}[${i}]`));
        } else {
            out = {};
            for (const [k, v] of Object.entries(value)) {
                if (typeof v !== "function" && v !== undefined)
                    out[k] = clean(v, `${where}.${k}`);
            }
        }
        seen.delete(value);
        return out;
    };
    try {
        return { spec: clean(chart, "chart"), error: null };
    } catch (e) {
        return { spec: null, error: `Could not serialize the chart: ${e.message}` };
    }
}

// Binary columns (docs/runtime-protocol.md, "Binary columns"): the numbers of a line or scatter
// series of kColumnMinPoints or more leave as packed float64 arrays in the run's `chart-columns`
// file instead of JSON number lists (for a million points, ~0.6 s of cleaning and JSON.stringify
// here and about a second of parsing on the host): `points` of [number, number] pairs (a null or
// non-finite y is a gap, x must be finite); anything else stays JSON. Returns the chart with references in place of those series (the user's objects are not
// changed) and the columns' buffers.
const kColumnMinPoints = 64;

function packChartColumns(chart) {
    const parts = [];
    let size = 0;
    const add = (values) => {
        const ref = { offset: size, length: values.length, dtype: "float64" };
        parts.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
        size += values.byteLength;
        return ref;
    };
    const series = (element) => {
        if (!element || typeof element !== "object" || Array.isArray(element))
            return element;
        const { points, x, y } = element;
        let xs, ys;
        if (Array.isArray(points) && x === undefined && y === undefined && points.length >= kColumnMinPoints) {
            const n = points.length;
            xs = new Float64Array(n);
            ys = new Float64Array(n);
            for (let i = 0; i < n; i++) {
                const p = points[i];
                if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== "number" || !Number.isFinite(p[0]))
                    return element;
                const v = p[1];
                if (typeof v === "number")
                    ys[i] = Number.isFinite(v) ? v : NaN;
                else if (v === null)
                    ys[i] = NaN;
                else
                    return element;
                xs[i] = p[0];
            }
        } else {
            return element;
        }
        const packed = { ...element, x: add(xs), y: add(ys) };
        delete packed.points;
        return packed;
    };
    const pack = (c, depth) => {
        if (!c || typeof c !== "object" || Array.isArray(c) || !Array.isArray(c.elements))
            return c;
        if ((c.type === "composite_chart" || c.type === "superchart") && depth === 0)
            return { ...c, elements: c.elements.map((e) => pack(e, 1)) };
        if (c.type === "line" || c.type === "scatter")
            return { ...c, elements: c.elements.map(series) };
        return c;
    };
    if (os.endianness() !== "LE")
        return { chart, parts, size };
    return { chart: pack(chart, 0), parts, size };
}

// ---------------------------------------------------------------------------------------------
// Warm start (`node wrapper.mjs --warm`, the local provider's pre-started sandboxes): node and this
// module are loaded; tell the host we are ready on the job socket (SANDPAD_JOB_FD), block until it
// sends one line, the manifest path, then run it like a cold start.
function waitForJob() {
    const text = process.env.SANDPAD_JOB_FD;
    delete process.env.SANDPAD_JOB_FD;
    const fd = Number.parseInt(text || "", 10);
    if (!Number.isInteger(fd) || fd < 0)
        throw new Error("--warm needs SANDPAD_JOB_FD");
    const retry = (f) => {
        for (;;) {
            try {
                return f();
            } catch (e) {
                if (e.code !== "EAGAIN" && e.code !== "EINTR")
                    throw e;
            }
        }
    };
    retry(() => fs.writeSync(fd, "ready\n"));
    // The job: files to place (a JSON header line, then the bytes), then the job line.
    let buffer = Buffer.alloc(0);
    const chunk = Buffer.alloc(65536);
    const fill = () => {
        const n = retry(() => fs.readSync(fd, chunk, 0, chunk.length, null));
        if (n === 0)
            return false;
        buffer = Buffer.concat([buffer, chunk.subarray(0, n)]);
        return true;
    };
    let line = "";
    for (;;) {
        let end = buffer.indexOf(10);
        while (end < 0 && fill())
            end = buffer.indexOf(10);
        if (end < 0) {
            line = buffer.toString("utf8");
            break;
        }
        line = buffer.toString("utf8", 0, end);
        buffer = buffer.subarray(end + 1);
        if (line === "wake")
            continue; // sent before "ready" when a run took this sandbox early (nothing to stop here)
        if (!line.startsWith("{"))
            break;
        const header = JSON.parse(line);
        while (buffer.length < header.size && fill()) { /* more of the file */ }
        if (buffer.length < header.size)
            throw new Error("the job ended inside a file");
        placeFile(header.name, header.mode, buffer.subarray(0, header.size));
        buffer = buffer.subarray(header.size);
    }
    const fields = line.split("\t");
    if (fields[0].trim() === "--session")
        return { session: fd }; // this pre-started sandbox becomes a notebook session (session.mjs)
    fs.closeSync(fd);
    if (fields.length === 4 && fields[0]) {
        // Limits the host could not set itself (docs/local-sandbox.md): node has no setrlimit.
        const done = spawnSync("/usr/bin/prlimit", ["--pid", String(process.pid), `--cpu=${fields[1]}:${fields[2]}`],
                               { stdio: "ignore" });
        if (done.status !== 0)
            throw new Error("could not set the CPU limit");
    }
    return fields[0].trim();
}

// Only into the work dir, never through a link (nothing of the user has run yet, but still).
function placeFile(name, mode, data) {
    if (typeof name !== "string" || !name.startsWith("/sandpad/") || name.includes("/..") || name.includes("\0"))
        throw new Error(`the host sent a file outside /sandpad: ${JSON.stringify(name)}`);
    fs.mkdirSync(path.dirname(name), { recursive: true });
    const fd = fs.openSync(name, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC
                           | fs.constants.O_NOFOLLOW, (Number(mode) || 0o644) & 0o777);
    try {
        let offset = 0;
        while (offset < data.length)
            offset += fs.writeSync(fd, data, offset, data.length - offset);
    } finally {
        fs.closeSync(fd);
    }
}

// ---------------------------------------------------------------------------------------------
// Rich outputs (docs/runtime-protocol.md, "Rich outputs"): display(value) records an output in
// order with stdout (the bytes written before it). A string is text (SVG when it is an <svg>),
// {type: "markdown"|"svg"|"text"|"html", text} and {type: "math", latex, text} are those outputs, an
// array of plain objects is a table; anything else is its util.inspect() text.
// The returned object's begin() starts a run's (or a session execution's) outputs: it counts the
// stdout bytes from there, as the program writes them (so it goes above the stream's batching).
function installDisplay(emit) {
    const rich = { outputs: [] };
    let written = 0, files = 0, cellsLeft = 1000000;
    rich.begin = () => {
        rich.outputs = [];
        written = 0;
        files = 0;
        cellsLeft = 1000000;
        const write = process.stdout.write;
        process.stdout.write = function (chunk, encoding) {
            written += typeof chunk === "string" ? Buffer.byteLength(chunk, typeof encoding === "string" ? encoding : "utf8")
                                                 : (chunk && chunk.length) || 0;
            return write.apply(this, arguments);
        };
    };
    const isRecord = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    const cell = (v) => (typeof v === "string" ? v : util.inspect(v, { breakLength: Infinity })).slice(0, 1000);
    const entry = (v) => {
        if (typeof v === "string")
            return /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/.test(v) ? { type: "svg", text: v } : { type: "text", text: v };
        if (isRecord(v) && ["markdown", "svg", "text", "html"].includes(v.type) && typeof v.text === "string")
            return { type: v.type, text: v.text };
        if (isRecord(v) && v.type === "math" && typeof (v.latex ?? v.text) === "string")
            return { type: "math", latex: v.latex ?? v.text, text: String(v.text ?? v.latex) };
        if (Array.isArray(v) && v.length > 0 && v.every(isRecord)) {
            const columns = [...new Set(v.flatMap((row) => Object.keys(row)))].slice(0, 10000);
            const rows = v.slice(0, Math.min(100000, Math.floor(cellsLeft / Math.max(1, columns.length))));
            if (rows.length > 0) {
                cellsLeft -= rows.length * columns.length;
                const kinds = columns.map((c) => [...new Set(rows.filter((r) => c in r).map((r) => (r[c] === null ? "null" : typeof r[c])))]);
                const table = { columns, dtypes: kinds.map((k) => (k.length === 1 ? k[0] : "mixed")), index_name: "",
                                index: rows.map((_, i) => String(i)), total_rows: v.length,
                                rows: rows.map((r) => columns.map((c) => (c in r ? cell(r[c]) : ""))) };
                const file = `output-${++files}.json`;
                emit(file, JSON.stringify(table));
                return { type: "table", file, rows: rows.length, columns: columns.length, total_rows: v.length };
            }
        }
        return { type: "text", text: util.inspect(v) };
    };
    globalThis.display = (...values) => {
        for (const value of values) {
            if (rich.outputs.length < 100)
                rich.outputs.push({ ...entry(value), stdout_offset: written });
        }
    };
    return rich;
}

async function main() {
    if (process.argv.length === 3 && process.argv[2] === "--warm") {
        const manifestPath = waitForJob();
        if (typeof manifestPath === "object") {
            const session = await import(new URL("./session.mjs", import.meta.url).href); // beside the wrapper
            await session.serve(manifestPath.session, { takeResultFd, makeChannel, batch, describeError,
                                                        resultText, chartJson, placeFile, program, installDisplay });
            return;
        }
        if (!manifestPath)
            return; // the host gave up on this sandbox
        process.argv[2] = manifestPath;
    }
    if (process.argv.length !== 3) {
        process.stderr.write("usage: node wrapper.mjs manifest.json\n");
        process.exitCode = 2;
        return;
    }
    const resultFd = takeResultFd();
    const manifestPath = process.argv[2];
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    const codePath = manifest.code_path;
    const title = manifest.title || path.basename(codePath);
    const outDir = manifest.out_dir || path.join(path.dirname(path.resolve(manifestPath)), "out");
    const emit = makeChannel(resultFd, outDir);
    // Before anything of the user runs: from here on, however the run ends, it is the program's
    // own end (docs/runtime-protocol.md).
    emit("started", "");
    // The run's files (run_files.cjs beside this file): scratch cwd, stdin, artifacts.
    let runFiles = null, filesBefore = null;
    try {
        runFiles = createRequire(import.meta.url)(path.join(path.dirname(wrapperPath), "run_files.cjs"));
        filesBefore = runFiles.prepare(manifest);
    } catch { runFiles = null; }

    const source = fs.readFileSync(codePath, "utf8");
    const dir = path.dirname(path.resolve(codePath));
    const kind = program.snippetKind(source, title);
    let tempDir = null;
    let modulePath = null; // a module's temporary copy
    let moduleUrl = null;
    if (kind.kind === "module") {
        tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "sandpad-js-"));
        modulePath = path.join(tempDir, path.basename(codePath).replace(/\.[cm]?js$/, "") + ".mjs");
        moduleUrl = pathToFileURL(modulePath).href;
        fs.writeFileSync(modulePath, `${source}\n;${captureStatement}\n`);
    }
    program.nameStacks(modulePath ? [[moduleUrl, title], [modulePath, title]] : [],
                       [import.meta.url, wrapperPath, new URL("./js_program.mjs", import.meta.url).href]);

    const restoreOut = batch(process.stdout);
    const restoreErr = batch(process.stderr);
    const rich = installDisplay(emit);
    rich.begin();

    let error = null;
    let returned; // a script's top-level `return value`
    let finished = false;
    const finish = () => {
        if (finished)
            return;
        finished = true;
        restoreOut(); // later output (the user's own exit listeners) goes straight through
        restoreErr();
        let result = null;
        let charts = [];
        let chartError = null;
        const getter = globalThis[CAPTURE];
        let captured = {};
        if (typeof getter === "function") {
            try {
                captured = getter();
            } catch {
                captured = {};
            }
        }
        if (returned !== undefined)
            result = resultText(returned);
        else if ("result" in captured)
            result = resultText(captured.result);
        else if ("results" in captured)
            result = resultText(captured.results);
        const chart = captured.chart;
        let columns = null;
        if (chart && typeof chart === "object" && !Array.isArray(chart)) {
            let packed = { chart, parts: [], size: 0 };
            try {
                packed = packChartColumns(chart);
            } catch { /* a getter that throws, say: chartJson names it */ }
            const { spec, error: problem } = chartJson(packed.chart);
            if (spec !== null) {
                charts.push({ kind: "interactive", spec });
                if (packed.size > 0) { // one file before the document naming it
                    emit("chart-columns", Buffer.concat(packed.parts, packed.size));
                    columns = { file: "chart-columns", size: packed.size };
                }
            }
            chartError = problem;
        }
        const document = {
            status: error ? "error" : "success",
            result,
            error,
            charts,
            chart_error: chartError,
            ...(runFiles ? runFiles.collect(manifest.cwd, emit, manifest, filesBefore) : {}),
        };
        if (rich.outputs.length > 0)
            document.outputs = rich.outputs;
        if (columns)
            document.chart_columns = columns;
        emit("result.json", JSON.stringify(document));
        try {
            if (tempDir)
                fs.rmSync(tempDir, { recursive: true, force: true });
        } catch { /* best effort: /tmp is the sandbox's own */ }
    };

    const fail = (e) => {
        if (!error)
            error = describeError(e, modulePath, moduleUrl, title);
    };
    // Errors thrown later (timers, callbacks, unawaited promises) end the run as Node would.
    process.on("uncaughtException", (e) => {
        fail(e);
        process.exit();
    });
    process.on("unhandledRejection", (e) => {
        fail(e);
        process.exit();
    });
    process.on("exit", (code) => {
        if (code && !error)
            error = { name: "ExitError", value: `The program exited with status ${code}`, traceback: "" };
        try {
            finish();
        } catch (e) {
            fs.writeSync(2, `Sandpad runtime wrapper failed: ${e && e.stack}\n`);
            process.exitCode = 70;
            return;
        }
        process.exitCode = 0;
    });

    // __dirname is the working directory (its input files), as for `node file.js` run where it is.
    const scope = program.scriptScope(manifest.cwd || dir, title);
    if (kind.syntaxError) {
        const e = kind.syntaxError;
        error = { name: "SyntaxError", value: e.message,
                  traceback: program.syntaxTraceback(e.stack, title, title, e.message) || `SyntaxError: ${e.message}` };
        process.exit();
    }
    try {
        if (kind.kind === "module") {
            globalThis.require = scope.require;
            await import(moduleUrl);
        } else {
            if (source.includes("import"))
                await program.quietDynamicImport();
            returned = await program.runScript(source, title, kind, captureStatement, scope);
            scope.module.loaded = true;
        }
    } catch (e) {
        fail(e);
        process.exit();
    }
    // Evaluated: the process ends when the user's pending timers and I/O are done.
}

main().catch((e) => {
    process.stderr.write(`Sandpad runtime wrapper failed: ${e && e.stack ? e.stack : e}\n`);
    process.exitCode = 70;
});
