# The Jupyter side of bench_session: a warm IPython kernel (python3-ipykernel from Debian) with
# the inline matplotlib backend; prints one JSON line {"print": [ms...], "sine": [ms...]} or
# {"skip": "why"}. Each time is from execute() to the kernel's idle status for that request
# (its output and display data received). Usage: bench_session_jupyter.py RUNS SINE_FILE
import json
import sys
import time

try:
    from jupyter_client.manager import start_new_kernel
except ImportError as exc:
    print(json.dumps({"skip": "jupyter_client is not installed (%s): apt-get install python3-ipykernel python3-jupyter-client" % exc}))
    sys.exit(0)


def run(kc, code):
    start = time.perf_counter()
    msg_id = kc.execute(code)
    while True:
        msg = kc.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status" \
                and msg["content"]["execution_state"] == "idle":
            return (time.perf_counter() - start) * 1000


def main():
    runs = int(sys.argv[1])
    sine = open(sys.argv[2]).read()
    try:
        km, kc = start_new_kernel(kernel_name="python3")
    except Exception as exc:
        print(json.dumps({"skip": "no IPython kernel: %s" % exc}))
        return
    try:
        run(kc, "%matplotlib inline\nimport numpy, matplotlib.pyplot")
        for _ in range(3):
            run(kc, sine)
            run(kc, "print(1)")
        prints = [run(kc, "print(1)") for _ in range(runs)]
        sines = [run(kc, sine) for _ in range(max(5, runs // 5))]
        print(json.dumps({"print": prints, "sine": sines}))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
