# The Jupyter side of bench_session_assist: a warm IPython kernel (python3-ipykernel from Debian)
# asked complete_request as JupyterLab asks it (the cell's text and the cursor at its end), after
# the same cell as the session's. Prints one JSON line {"first": ms, "keys": [ms...], "first_names":
# [...]} or {"skip": "why"}. Usage: bench_session_assist_jupyter.py CELL_FILE TYPED
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_session_jupyter import run, start_new_kernel  # noqa: E402 (it says when Jupyter is missing)


def complete(kc, code):
    start = time.perf_counter()
    reply = kc.complete(code, len(code), reply=True, timeout=120)
    return (time.perf_counter() - start) * 1000, reply["content"].get("matches", [])


def main():
    cell = open(sys.argv[1]).read()
    typed = sys.argv[2]
    try:
        km, kc = start_new_kernel(kernel_name="python3")
    except Exception as exc:
        print(json.dumps({"skip": "no IPython kernel: %s" % exc}))
        return
    try:
        run(kc, cell)
        first, names = complete(kc, "df.")
        keys = [complete(kc, typed[:i])[0] for i in range(1, len(typed) + 1)]
        print(json.dumps({"first": first, "keys": keys, "first_names": names[:400]}))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
