// Sandpad: the run's files for JavaScript (docs/runtime-protocol.md, "Working directory, input
// files, stdin, artifacts"); the same protocol as run_files.py. CommonJS and synchronous, so the
// wrapper can require() it from its "exit" listener. Shipped beside wrapper.mjs by
// RuntimeProgram::supportFiles on the cold and the pre-started path.
"use strict";

const fs = require("node:fs");

const SKIP_DIRS = new Set(["node_modules", "__pycache__"]);
const MAX_DEPTH = 16;
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

function key(st) {
    return `${st.ino}:${st.size}:${st.mtimeNs}`;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const CONTROL_OR_FORMAT = /^[\p{Cc}\p{Cf}]$/u;

// The name as the host gets it (as run_files.py's shown_name): printable UTF-8 as is, a backslash
// doubled, a control or format character and a byte that is not UTF-8 as \xHH per byte.
function shownName(bytes) {
    const hex = (from, to) => Array.from(bytes.subarray(from, to), (b) => "\\x" + b.toString(16).padStart(2, "0")).join("");
    let out = "";
    for (let i = 0; i < bytes.length;) {
        const lead = bytes[i];
        const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        let ch = null;
        try {
            ch = UTF8.decode(bytes.subarray(i, i + length)); // refuses overlong forms and surrogates
        } catch { /* not UTF-8 */ }
        if (ch === null || [...ch].length !== 1) {
            out += hex(i, i + 1);
            i += 1;
            continue;
        }
        out += ch === "\\" ? "\\\\" : CONTROL_OR_FORMAT.test(ch) ? hex(i, i + length) : ch;
        i += length;
    }
    return out;
}

// visit(name, fullPath, lstat) for every entry under dir, sorted, at most budget.left entries.
// Names are read as bytes (a name that is not UTF-8 is still found, and shown escaped); `name`
// is the shown one, `fullPath` a Buffer.
function walk(dir, prefix, depth, visit, budget) {
    let names;
    try {
        names = fs.readdirSync(dir, { encoding: "buffer" }).sort(Buffer.compare);
    } catch {
        return;
    }
    for (const entry of names) {
        if (budget.left <= 0)
            return;
        budget.left--;
        const full = Buffer.concat([Buffer.isBuffer(dir) ? dir : Buffer.from(dir), Buffer.from("/"), entry]);
        let st;
        try {
            st = fs.lstatSync(full, { bigint: true });
        } catch {
            continue;
        }
        const shown = shownName(entry);
        if (st.isDirectory()) {
            if (!SKIP_DIRS.has(entry.toString("latin1")) && depth < MAX_DEPTH)
                walk(full, prefix + shown + "/", depth + 1, visit, budget);
        } else {
            visit(prefix + shown, full, st);
        }
    }
}

// Makes the manifest's "cwd" the cwd and process.stdin the run's input (fd 0 stays /dev/null
// locally: reading process.stdin without input gives EOF). Returns the snapshot of what is there.
function prepare(manifest) {
    const cwd = manifest.cwd;
    if (cwd) {
        fs.mkdirSync(cwd, { recursive: true });
        process.chdir(cwd);
        for (const name of manifest.input_files || []) {
            try {
                if (fs.lstatSync(name).isFile())
                    fs.chmodSync(name, 0o444); // plain names (checked by the host)
            } catch { /* not there */ }
        }
    }
    let stream = null; // made on first use, as node does
    const stdin = () => stream ?? (stream = fs.createReadStream(manifest.stdin_path || "/dev/null"));
    Object.defineProperty(process, "stdin", { configurable: true, enumerable: true, get: stdin });
    return cwd ? snapshot(cwd) : new Map();
}

function snapshot(cwd) {
    const seen = new Map();
    walk(cwd, "", 0, (name, full, st) => {
        if (st.isFile())
            seen.set(name, key(st));
    }, { left: 100000 });
    return seen;
}

// A regular file's bytes, never through a link: {data} or {size} past limit, or null.
function readRegular(full, st, limit) {
    let fd;
    try {
        fd = fs.openSync(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch {
        return null;
    }
    try {
        const now = fs.fstatSync(fd, { bigint: true });
        if (!now.isFile() || now.ino !== st.ino || now.dev !== st.dev)
            return null; // replaced since it was listed
        if (Number(now.size) > limit)
            return { size: Number(now.size) };
        const chunks = [];
        let total = 0;
        for (;;) {
            const want = Math.min(1 << 20, limit + 1 - total);
            if (want <= 0)
                break;
            const buf = Buffer.allocUnsafe(want);
            const n = fs.readSync(fd, buf, 0, want, null);
            if (n <= 0)
                break;
            chunks.push(buf.subarray(0, n));
            total += n;
        }
        if (total > limit)
            return { size: total };
        return { data: Buffer.concat(chunks), size: total };
    } finally {
        fs.closeSync(fd);
    }
}

// Sends the run's new or changed files as frames artifact-N; returns the lists for result.json.
function collect(cwd, emit, manifest, before) {
    const limits = manifest.artifact_limits || {};
    const maxBytes = Number(limits.bytes ?? 32 * 1024 * 1024);
    const maxFiles = Number(limits.files ?? 500);
    const budget = { left: Number(limits.entries ?? 10000) };
    const artifacts = [];
    const omitted = [];
    if (!cwd)
        return { artifacts, artifacts_omitted: omitted };
    let used = 0;
    walk(cwd, "", 0, (name, full, st) => {
        if (!st.isFile()) {
            omitted.push({ name, size: 0, reason: st.isSymbolicLink() ? "a symbolic link" : "not a regular file" });
            return;
        }
        if (before && before.get(name) === key(st))
            return; // an input file, unchanged
        if (artifacts.length >= maxFiles) {
            omitted.push({ name, size: Number(st.size), reason: "files" });
            return;
        }
        const got = readRegular(full, st, maxBytes - used);
        if (!got) {
            omitted.push({ name, size: 0, reason: "not a regular file" });
            return;
        }
        if (!got.data) {
            omitted.push({ name, size: got.size, reason: "bytes" });
            return;
        }
        const file = `artifact-${artifacts.length + 1}`;
        emit(file, got.data);
        used += got.size;
        artifacts.push({ name, file, size: got.size });
    }, budget);
    // At most 1,000 named; the rest counted; then whether the walk stopped early.
    const named = omitted.slice(0, 1000);
    if (omitted.length > 1000)
        named.push({ name: "", size: omitted.length - 1000, reason: "more" });
    if (budget.left <= 0)
        named.push({ name: "", size: 0, reason: "entries" });
    return { artifacts, artifacts_omitted: named };
}

module.exports = { prepare, collect, snapshot, shownName };
