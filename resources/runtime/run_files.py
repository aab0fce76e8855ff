# Sandpad: the run's files (docs/runtime-protocol.md, "Working directory, input files, stdin,
# artifacts"). Loaded by path from wrapper.py / session.py (shipped beside them by
# RuntimeProgram::supportFiles on the cold and the pre-started path).
#
# - prepare(manifest): makes the manifest's "cwd" (the scratch working directory) the cwd, points
#   fd 0 at the run's stdin file (or /dev/null) and makes input() say plainly that there is none;
#   returns a snapshot of the files already there (input files, an earlier session execution's).
# - collect(...): the regular files the run left in the cwd (new or changed since the snapshot),
#   sent as frames `artifact-N` within the manifest's limits, and their list for result.json.
#
# Everything is read through descriptors relative to the cwd's own descriptor, never following a
# link (O_NOFOLLOW, and fstat after open: only regular files), so nothing outside the folder is
# read whatever the snippet planted there. The host checks names and limits again.

import builtins
import os
import stat
import sys
import unicodedata

NO_INPUT = "this run has no input: give it in the Input box or with --stdin"
_SKIP_DIRS = ("__pycache__", "node_modules")
_MAX_DEPTH = 16


_INPUT = builtins.input


def _no_input(*args, **kwargs):
    raise EOFError(NO_INPUT)


def prepare(manifest):
    cwd = manifest.get("cwd")
    if cwd:
        os.makedirs(cwd, exist_ok=True)
        os.chdir(cwd)
        for name in manifest.get("input_files") or ():
            try:
                os.chmod(name, 0o444, follow_symlinks=False)  # plain names (checked by the host)
            except OSError:
                pass
    stdin_path = manifest.get("stdin_path")
    fd = os.open(stdin_path if stdin_path else os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    os.dup2(fd, 0)  # sys.stdin keeps fd 0: it now reads the run's input
    os.close(fd)
    # input() with no input at all says why (a session's next execution may have some).
    builtins.input = _INPUT if stdin_path else _no_input
    return snapshot(cwd) if cwd else {}


def _walk(dir_fd, prefix, depth, visit, budget):
    # visit(name, dir_fd, entry_name, stat) for each entry; budget[0] = entries left to look at.
    try:
        entries = list(os.scandir(dir_fd))
    except OSError:
        return
    entries.sort(key=lambda e: e.name)
    for entry in entries:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        name = prefix + entry.name
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode):
            if entry.name in _SKIP_DIRS or depth >= _MAX_DEPTH:
                continue
            try:
                sub = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
            except OSError:
                continue
            try:
                _walk(sub, name + "/", depth + 1, visit, budget)
            finally:
                os.close(sub)
        else:
            visit(name, dir_fd, entry.name, st)


def shown_name(name):
    """The name as the host gets it: printable UTF-8 as is; a backslash doubled; a control or
    format character and a byte that is not UTF-8 as \\xHH per byte. Lossless and distinct, valid
    JSON, and nothing in it can drive a terminal (docs/runtime-protocol.md, "Artifacts")."""
    out = []
    for ch in os.fsencode(name).decode("utf-8", "surrogateescape"):
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8
            out.append("\\x%02x" % (code - 0xDC00))
        elif ch == "\\":
            out.append("\\\\")
        elif unicodedata.category(ch) in ("Cc", "Cf"):
            out.append("".join("\\x%02x" % b for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def _key(st):
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def snapshot(cwd, limit=100000):
    """{relative name: key} of what is in the cwd now (regular files only)."""
    seen = {}
    try:
        fd = os.open(cwd, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return seen
    try:
        def visit(name, dir_fd, entry_name, st):
            if stat.S_ISREG(st.st_mode):
                seen[name] = _key(st)
        _walk(fd, "", 0, visit, [limit])
    finally:
        os.close(fd)
    return seen


def _read_regular(dir_fd, entry_name, limit):
    """(bytes, size) of a regular file, never through a link; (None, size) past `limit`; None else."""
    try:
        fd = os.open(entry_name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > limit:
            return None, st.st_size
        chunks = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while being read
            return None, total
        return b"".join(chunks), total
    finally:
        os.close(fd)


def collect(cwd, emit, manifest, before):
    """Sends the run's new or changed files; returns (artifacts, omitted) for result.json."""
    limits = manifest.get("artifact_limits") or {}
    max_bytes = int(limits.get("bytes", 32 << 20))
    max_files = int(limits.get("files", 500))
    max_entries = int(limits.get("entries", 10000))
    artifacts = []
    omitted = []
    if not cwd:
        return artifacts, omitted
    try:
        root = os.open(cwd, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return artifacts, omitted
    used = [0]
    budget = [max_entries]

    def visit(raw_name, dir_fd, entry_name, st):
        name = shown_name(raw_name)
        if not stat.S_ISREG(st.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
            omitted.append({"name": name, "size": 0, "reason": kind})
            return
        if before.get(raw_name) == _key(st):
            return  # an input file or an earlier execution's, unchanged
        if len(artifacts) >= max_files:
            omitted.append({"name": name, "size": st.st_size, "reason": "files"})
            return
        got = _read_regular(dir_fd, entry_name, max_bytes - used[0])
        if got is None:
            omitted.append({"name": name, "size": 0, "reason": "not a regular file"})
            return
        data, size = got
        if data is None:
            omitted.append({"name": name, "size": size, "reason": "bytes"})
            return
        file = "artifact-%d" % (len(artifacts) + 1)
        emit(file, data)
        used[0] += size
        artifacts.append({"name": name, "file": file, "size": size})

    try:
        _walk(root, "", 0, visit, budget)
    finally:
        os.close(root)
    # At most 1,000 named; the rest counted; then whether the walk stopped early.
    named = omitted[:1000]
    if len(omitted) > 1000:
        named.append({"name": "", "size": len(omitted) - 1000, "reason": "more"})
    if budget[0] <= 0:
        named.append({"name": "", "size": 0, "reason": "entries"})
    return artifacts, named


def flush_open_files(namespace, cwd):
    # A file the snippet opened in the cwd and never closed is flushed at exit by plain python3;
    # here the files are read before that, so flush the ones the program still holds there (only
    # those: a /dev/stdout it opened keeps its own timing).
    if not cwd:
        return
    for value in list(namespace.values()):
        name = getattr(value, "name", None)
        if not isinstance(name, str) or (os.path.isabs(name) and not name.startswith(cwd + "/")):
            continue
        flush = getattr(value, "flush", None)
        if flush is not None and hasattr(value, "writable") and hasattr(value, "fileno"):
            try:
                if not getattr(value, "closed", True) and value.writable():
                    flush()
            except Exception:
                pass
