// How wrapper.mjs (and session.mjs) run a JavaScript snippet the way `node file.js` would
// (docs/runtime-protocol.md, "JavaScript: how a snippet runs"). Placed beside the wrapper by
// RuntimeProgram::supportFiles, on the cold and the pre-started path alike.
//
// - A snippet without `import`/`export` statements is a sloppy CommonJS script: the body of an
//   async function (exports, require, module, __filename, __dirname) called with `this` =
//   module.exports, so top-level `await` and `return value` work too. V8's own parser decides
//   (module syntax in a string, comment or template literal is not module syntax), never a regex.
// - One with them is an ES module (the wrapper imports a temporary copy).
// - Stacks name the snippet's title; the wrapper's frames are left out.

import Module, { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

// The messages V8 gives a script for syntax only a module may have.
const kModuleSyntax = [
    "Cannot use import statement outside a module",
    "Unexpected token 'export'",
    "Cannot use 'import.meta' outside a module",
];
const kIllegalStrict = "Illegal 'use strict' directive in function with non-simple parameter list";
const kParameters = "exports, require, module, __filename, __dirname";
// Node >= 20.12 (older ones, as a remote image may have, run scripts without import()).
const kDefaultLoader = vm.constants ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {};

// The function header is a line of its own above the user's code (lineOffset -1), so every line
// and column V8 reports is the editor's, line 1 included.
function header(async, parameters, body) {
    return `(${async ? "async " : ""}function (${parameters}) {${body}\n`;
}

// A `#!` line is allowed only at the very start of a source, which the header takes: it becomes
// a comment of the same length.
function body(source) {
    return (source.startsWith("#!") ? "//" + source.slice(2) : source) + "\n})";
}

function tryCompile(text, title) {
    try {
        return { script: new vm.Script(text, { filename: title, lineOffset: -1, ...kDefaultLoader }) };
    } catch (e) {
        if (e instanceof SyntaxError)
            return { error: e };
        throw e;
    }
}

// A script's dynamic import() goes through Node's own loader (USE_MAIN_CONTEXT_DEFAULT_LOADER),
// which warns once per process that the constant is experimental. That is not the user's
// warning: let it be given once here, unseen (process.emitWarning is put back at once).
export async function quietDynamicImport() {
    if (!vm.constants)
        return;
    const original = process.emitWarning;
    process.emitWarning = function (warning, ...rest) {
        if (!String((warning && warning.message) || warning).includes("USE_MAIN_CONTEXT_DEFAULT_LOADER"))
            return original.call(this, warning, ...rest);
    };
    try {
        await new vm.Script("import('node:path')", kDefaultLoader).runInThisContext();
    } finally {
        process.emitWarning = original;
    }
}

// { kind: "module" }, or { kind: "script", async, strict }, or { kind: "script", syntaxError }.
// A non-simple parameter list makes V8 refuse a "use strict" directive, which is how a strict
// snippet is told apart (the capture statement the wrapper puts first would hide its directive).
// A snippet that is only valid outside an async function (`var await`) runs in a plain one.
export function snippetKind(source, title) {
    let first = null;
    for (const async of [true, false]) {
        let { error } = tryCompile(header(async, "__sandpadProbe = 0", "") + body(source), title);
        let strict = false;
        if (error && error.message === kIllegalStrict) {
            strict = true;
            error = tryCompile(header(async, kParameters, "") + body(source), title).error;
        }
        if (!error)
            return { kind: "script", async, strict };
        if (kModuleSyntax.includes(error.message))
            return { kind: "module" };
        first = first || error;
    }
    return { kind: "script", syntaxError: first };
}

// Runs the snippet as a script in `scope` (scriptScope) and gives what it returned; `prologue`
// runs first in its scope (after "use strict" if the snippet has it), on the header line.
export function runScript(source, title, kind, prologue, scope) {
    const text = header(kind.async, kParameters, (kind.strict ? '"use strict";' : "") + prologue) + body(source);
    const { script, error } = tryCompile(text, title);
    if (error)
        throw error;
    const run = script.runInThisContext();
    // From a tick, not from the promise job the caller may be in: `node file.js` runs the script
    // outside any, so its process.nextTick callbacks come before its promise reactions.
    return new Promise((resolve, reject) => process.nextTick(() => {
        try {
            resolve(run.call(scope.exports, scope.exports, scope.require, scope.module, scope.filename, scope.dirname));
        } catch (e) {
            reject(e);
        }
    }));
}

// What `node file.js` gives a script: module, exports, require (require.main === module),
// __filename and __dirname, named after the title in the work dir.
export function scriptScope(dir, title) {
    const filename = path.join(dir, title.replace(/[/\0]/g, "_") || "main.js");
    const module = new Module(".", null); // the main module's id, as node gives it
    module.filename = filename;
    module.paths = Module._nodeModulePaths(dir);
    const require = createRequire(filename);
    require.main = module;
    return { module, exports: module.exports, require, filename, dirname: dir };
}

// A SyntaxError's traceback as `title:line:column`, the line and a caret, then the message: from
// the "file:line / source / ^^^" text that Node puts in front of a compile error's stack (or that
// `node --check` prints) with `file` replaced by the title.
export function syntaxTraceback(arrowText, file, title, message) {
    const lines = String(arrowText).split("\n");
    const at = lines.findIndex((line) => line.startsWith(`${file}:`) && /^\d+$/.test(line.slice(file.length + 1)));
    if (at < 0)
        return null;
    const line = lines[at].slice(file.length + 1);
    const code = lines[at + 1] ?? "";
    const caret = lines[at + 2] ?? "";
    const column = caret.indexOf("^") + 1;
    return `${title}:${line}${column > 0 ? `:${column}` : ""}\n${code}\n${caret}\n\nSyntaxError: ${message}`;
}

// Every stack formatted from now on (uncaught errors, `err.stack`, console.trace()) names the
// title instead of each `from` of `names` ([from, to] pairs, or a function giving them: the
// temporary module's path and URL) where a file name stands (before ":line"), and leaves out
// `hidden` files (the wrapper's) and the loader's frames below the user's code. A snippet may set
// its own Error.prepareStackTrace; then it is theirs.
export function nameStacks(names, hidden) {
    // An evaluated script (a session's cell) has no file name, only its sourceURL.
    const fileOf = (frame) => frame.getScriptNameOrSourceURL() || frame.getFileName() || "";
    const plumbing = (frame) => {
        const file = fileOf(frame);
        return hidden.includes(file) || file.startsWith("node:internal/modules/esm/")
            || file.startsWith("node:internal/modules/run_main") || file === "node:internal/vm"
            || file === "node:vm" || (frame.isPromiseAll() && !file);
    };
    const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    Error.prepareStackTrace = (error, frames) => {
        let text;
        try {
            text = Error.prototype.toString.call(error);
        } catch {
            text = "Error";
        }
        const pairs = (typeof names === "function" ? names() : names)
            .map(([from, to]) => [new RegExp(`(^|[ (])${escape(from)}(?=:\\d)`, "g"), `$1${to.replace(/\$/g, "$$$$")}`]);
        // Below the first of the wrapper's frames that called the user's code, nothing is the
        // user's; node's own frames right above it (the inspector's post, a Promise) are its too.
        const isHidden = (frame) => hidden.includes(fileOf(frame));
        let end = frames.findIndex((frame, i) => i > 0 && isHidden(frame) && !isHidden(frames[i - 1]));
        if (end < 0)
            end = frames.length;
        else
            while (end > 1 && !isHidden(frames[end - 1]) && /^node:|^$/.test(fileOf(frames[end - 1])))
                --end;
        for (const frame of frames.slice(0, end)) {
            if (plumbing(frame))
                continue;
            let shown = frame.toString();
            for (const [from, to] of pairs)
                shown = shown.replace(from, to);
            text += `\n    at ${shown}`;
        }
        return text;
    };
}
