#!/usr/bin/env python3
"""Runs the comparison corpus (tests/corpus/snippets/{py,js}) through `sandpad-run --json` (local
provider) and through plain `python3 file` / `node file` in a temporary folder, and tallies per
snippet: the same status (success or error, and the same error name), the same stdout (exactly, or
after normalizing paths), the same number of figures (Sandpad's PNG charts against the figures
plain matplotlib has open at the end, counted by a small harness under Agg) and the wall-time
ratio. Prints a table, writes a JSON report, and lists every mismatch with a one-line reason.

A snippet may say in its first comment lines:
  corpus: smoke               part of the small subset CTest runs (--smoke)
  corpus: differs: <reason>   a known, expected difference (not counted as a Sandpad bug)

Standard library only. See tests/corpus/README.md.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SNIPPETS = HERE / "snippets"
LANGUAGES = {"py": "python", "js": "javascript"}

# Runs a snippet as `python3 file` would (run_path as __main__, argv [file]) and writes how many
# matplotlib figures are open at the end, however it ends (also by SystemExit or an exception;
# not in atexit, where pyplot has already closed them all).
FIGURE_HARNESS = r"""
import runpy, sys
out = sys.argv.pop()
sys.argv = sys.argv[1:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
finally:
    plt = sys.modules.get("matplotlib.pyplot")
    with open(out, "w") as f:
        f.write(str(len(plt.get_fignums())) if plt else "0")
"""


def directives(path):
    found = {"smoke": False, "differs": None}
    for line in path.read_text(encoding="utf-8").splitlines()[:5]:
        m = re.match(r"\s*(?:#|//)\s*corpus:\s*(.*)$", line)
        if not m:
            continue
        text = m.group(1).strip()
        if text == "smoke":
            found["smoke"] = True
        elif text.startswith("differs:"):
            found["differs"] = text[len("differs:"):].strip()
    return found


def default_python():
    # The sandbox runs Debian's python3 (with matplotlib, pandas, sympy); compare with the same.
    return "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"


def timed(argv, cwd, env=None, timeout=120, stdin=subprocess.DEVNULL):
    start = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdin=stdin, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return None, out, err, time.monotonic() - start


# The exception a plain run ended with, from what python3 / node print on stderr.
def python_error_name(rc, stderr):
    names = [m.group(1) for m in re.finditer(r"^([A-Za-z_][\w.]*)(?::.*)?$", stderr, re.M)]
    names = [n for n in names if n not in ("Traceback",)]
    if names:
        return names[-1].rsplit(".", 1)[-1]
    return "SystemExit"


def node_error_name(rc, stderr):
    for line in stderr.splitlines():
        m = re.match(r"^(?:Uncaught )?([A-Z][\w$]*)(?::\s|$)", line)
        if m and m.group(1) != "Node":
            return m.group(1)
    if "--trace-uncaught" in stderr:
        return "Error"  # a thrown value that is not an Error (Sandpad names it Error)
    return "ExitError"


def run_plain(snippet, lang, tools, timeout):
    work = Path(tempfile.mkdtemp(prefix="corpus-plain-"))
    try:
        shutil.copy(snippet, work / snippet.name)
        env = dict(os.environ, MPLBACKEND="Agg", MPLCONFIGDIR=str(work / ".mpl"))
        argv = [tools.python if lang == "py" else tools.node, snippet.name]
        rc, out, err, secs = timed(argv, work, env, timeout)
        figures = 0
        source = snippet.read_text(encoding="utf-8")
        if lang == "py" and ("matplotlib" in source or ".plot" in source):
            count = work / ".figures"
            harness = Path(tempfile.mkdtemp(prefix="corpus-figures-"))
            try:
                shutil.copy(snippet, harness / snippet.name)
                timed([tools.python, "-c", FIGURE_HARNESS, snippet.name, str(count)], harness, env, timeout)
            finally:
                shutil.rmtree(harness, ignore_errors=True)
            figures = int(count.read_text()) if count.exists() else 0
        if rc is None:
            status, name = "error", "Timeout"
        elif rc == 0:
            status, name = "success", None
        else:
            status = "error"
            name = python_error_name(rc, err) if lang == "py" else node_error_name(rc, err)
        return {"status": status, "error": name, "exit_code": rc, "stdout": out, "stderr": err,
                "seconds": secs, "figures": figures, "dir": str(work)}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_sandpad(snippet, lang, tools, timeout):
    work = Path(tempfile.mkdtemp(prefix="corpus-sandpad-"))
    try:
        shutil.copy(snippet, work / snippet.name)
        argv = [tools.sandpad_run, "--json", "--provider", "local", "--language", LANGUAGES[lang],
                "--data-dir", str(work / ".data"), "--charts-dir", str(work / ".charts"),
                "--timeout", str(timeout), snippet.name]
        rc, out, err, secs = timed(argv, work, None, timeout + 60)
        try:
            doc = json.loads(out)
        except ValueError:
            return {"status": "error", "error": "NoJson", "stdout": "", "stderr": err, "seconds": secs,
                    "figures": 0, "raw": out[:500], "exit_code": rc}
        error = doc.get("error") or {}
        status = "success" if doc.get("status") == "success" else "error"
        name = None
        if status == "error":
            name = error.get("name") or doc.get("status")
        charts = doc.get("charts") or []
        return {"status": status, "sandpad_status": doc.get("status"), "error": name,
                "error_value": error.get("value"), "stdout": doc.get("stdout") or "",
                "stderr": doc.get("stderr") or "", "seconds": secs, "exit_code": rc,
                "figures": sum(1 for c in charts if c.get("format") == "png"),
                "interactive": sum(1 for c in charts if c.get("format") != "png"),
                "result": doc.get("result")}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def normalize(text, plain_dir):
    # Paths: the plain run's temp folder and Sandpad's work dir name the same file; stacks name
    # the file (node: its path, Sandpad: the title). Frames in node's own modules are dropped
    # (below the user's code node shows its loader; Sandpad leaves that out).
    for d in (plain_dir, "/sandpad"):
        text = text.replace("file://" + d + "/", "").replace(d + "/", "").replace(d, "<cwd>")
    lines = [line.rstrip() for line in text.splitlines()]
    lines = [line for line in lines if not re.match(r"\s+at (.*\()?node:[\w/]+:\d+:\d+\)?$", line)]
    text = "\n".join(lines)
    return re.sub(r"0x[0-9a-f]{6,}", "0x…", text)


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<end>"
        y = lb[i] if i < len(lb) else "<end>"
        if x != y:
            return f"line {i + 1}: plain {x[:70]!r} vs sandpad {y[:70]!r}"
    return "whitespace only"


def compare(snippet, lang, tools, timeout):
    try:
        return compare_runs(snippet, lang, tools, timeout)
    except Exception as e:  # one snippet's trouble must not lose the others' results
        empty = {"status": "error", "error": None, "stdout": "", "stderr": "", "seconds": 0.0, "figures": 0}
        return {"name": f"{lang}/{snippet.name}", "language": lang, "smoke": False,
                "expected_difference": None, "same_status": False, "stdout": "differs",
                "same_figures": False, "ratio": None, "reasons": [f"compare.py failed: {e!r}"],
                "plain": empty, "sandpad": empty}


def compare_runs(snippet, lang, tools, timeout):
    plain = run_plain(snippet, lang, tools, timeout)
    sandpad = run_sandpad(snippet, lang, tools, timeout)
    found = directives(snippet)
    reasons = []
    same_status = plain["status"] == sandpad["status"] and plain["error"] == sandpad["error"]
    if not same_status:
        describe = lambda r: r["status"] + (f" ({r['error']})" if r["error"] else "")
        reasons.append(f"status: plain {describe(plain)}, sandpad {describe(sandpad)}"
                       + (f": {str(sandpad.get('error_value') or '')[:80]}" if sandpad["error"] else ""))
    if plain["stdout"] == sandpad["stdout"]:
        stdout = "exact"
    elif normalize(plain["stdout"], plain["dir"]) == normalize(sandpad["stdout"], plain["dir"]):
        stdout = "normalized"
    else:
        stdout = "differs"
        reasons.append("stdout " + first_difference(normalize(plain["stdout"], plain["dir"]),
                                                    normalize(sandpad["stdout"], plain["dir"])))
    same_figures = plain["figures"] == sandpad["figures"]
    if not same_figures:
        reasons.append(f"figures: plain {plain['figures']}, sandpad {sandpad['figures']}")
    ratio = sandpad["seconds"] / plain["seconds"] if plain["seconds"] > 0 else None
    for r in (plain, sandpad):
        r["stdout"] = r["stdout"][:2000]
        r["stderr"] = r["stderr"][:2000]
    return {"name": f"{lang}/{snippet.name}", "language": lang, "smoke": found["smoke"],
            "expected_difference": found["differs"], "same_status": same_status, "stdout": stdout,
            "same_figures": same_figures, "ratio": ratio, "reasons": reasons,
            "plain": plain, "sandpad": sandpad}


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    k = (len(values) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def tally(rows):
    n = len(rows)
    ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
    return {
        "snippets": n,
        "same_status": sum(r["same_status"] for r in rows),
        "stdout_exact": sum(r["stdout"] == "exact" for r in rows),
        "stdout_normalized": sum(r["stdout"] in ("exact", "normalized") for r in rows),
        "same_figures": sum(r["same_figures"] for r in rows),
        "all_same": sum(not r["reasons"] for r in rows),
        "mismatches_expected": sum(bool(r["reasons"]) and bool(r["expected_difference"]) for r in rows),
        "mismatches_unexpected": sum(bool(r["reasons"]) and not r["expected_difference"] for r in rows),
        "ratio_median": statistics.median(ratios) if ratios else None,
        "ratio_p90": percentile(ratios, 0.9),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sandpad-run", required=True, help="the built sandpad-run binary")
    parser.add_argument("--python", default=default_python())
    parser.add_argument("--node", default=shutil.which("node") or "node")
    parser.add_argument("--smoke", action="store_true", help="only the snippets marked `corpus: smoke`")
    parser.add_argument("--jobs", type=int, default=1, help="snippets at once (timings are fairest with 1)")
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--report", default="corpus-report.json", help="where the JSON report goes")
    parser.add_argument("--strict", action="store_true", help="exit 1 on a mismatch not marked `differs`")
    parser.add_argument("filters", nargs="*", help="only snippets whose path contains one of these")
    tools = parser.parse_args()
    # Each snippet runs in a temporary folder of its own: a relative path would not be found there.
    tools.sandpad_run = os.path.abspath(tools.sandpad_run)

    snippets = []
    for lang in LANGUAGES:
        for path in sorted((SNIPPETS / lang).glob(f"*.{lang}")):
            name = f"{lang}/{path.name}"
            if tools.filters and not any(f in name for f in tools.filters):
                continue
            if tools.smoke and not directives(path)["smoke"]:
                continue
            snippets.append((path, lang))
    if not snippets:
        print("no snippets selected", file=sys.stderr)
        return 2

    rows = []
    with concurrent.futures.ThreadPoolExecutor(max(1, tools.jobs)) as pool:
        futures = [pool.submit(compare, path, lang, tools, tools.timeout) for path, lang in snippets]
        for future in futures:
            row = future.result()
            rows.append(row)
            mark = "ok" if not row["reasons"] else ("expected" if row["expected_difference"] else "MISMATCH")
            print(f"{mark:>8}  {row['name']}  ({row['plain']['seconds']:.2f} s / {row['sandpad']['seconds']:.2f} s)", flush=True)

    groups = {"all": rows}
    for lang in LANGUAGES:
        groups[lang] = [r for r in rows if r["language"] == lang]
    tallies = {k: tally(v) for k, v in groups.items() if v}
    print()
    header = f"{'':6} {'snippets':>8} {'status':>7} {'stdout=':>7} {'~stdout':>7} {'figures':>7} {'all':>5} {'ratio med':>9} {'p90':>6}"
    print(header)
    for k, t in tallies.items():
        fmt = lambda v: f"{v:.2f}" if v is not None else "-"
        print(f"{k:6} {t['snippets']:>8} {t['same_status']:>7} {t['stdout_exact']:>7} {t['stdout_normalized']:>7} "
              f"{t['same_figures']:>7} {t['all_same']:>5} {fmt(t['ratio_median']):>9} {fmt(t['ratio_p90']):>6}")
    print("(status: same status and error name; stdout=: identical; ~stdout: identical after normalizing "
          "paths; ratio: sandpad-run wall time / plain)")
    mismatches = [r for r in rows if r["reasons"]]
    if mismatches:
        print("\nMismatches:")
        for r in mismatches:
            why = "; ".join(r["reasons"])
            note = f" [expected: {r['expected_difference']}]" if r["expected_difference"] else ""
            print(f"  {r['name']}: {why}{note}")
    Path(tools.report).write_text(json.dumps({"tally": tallies, "snippets": rows}, indent=1, ensure_ascii=False))
    print(f"\nreport: {tools.report}")
    unexpected = [r for r in mismatches if not r["expected_difference"]]
    return 1 if tools.strict and unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
