#!/bin/sh
# Starts the app under Xvfb, runs each bundled example and writes a screenshot per example and
# theme into docs/screenshots/ (NAME.png light, NAME-dark.png dark; THEMES="light" for one).
# Usage: tests/screenshots/take-screenshots.sh BUILD_DIR [EXAMPLE...]
set -eu
build_dir=${1:?usage: take-screenshots.sh BUILD_DIR [EXAMPLE...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
app="$build_dir/app/sandpad/sandpad"
[ -x "$app" ] || { echo "no $app: build the sandpad target first" >&2; exit 2; }
out="$source_dir/docs/screenshots"
mkdir -p "$out"
examples=${*:-"sine_wave line_dates scatter grouped_bar pandas_table sympy_session javascript_snippet"}
examples=$(echo "$examples" | tr ' ' '\n' | grep -vx -e documents -e completion || true) # the dock and completion: below
# One throwaway workspace so that the notebook shows the runs of this session only.
data_dir=$(mktemp -d)
trap 'rm -rf "$data_dir"' EXIT
themes=${THEMES:-"light dark"}
suffix() { [ "$1" = light ] && echo "" || echo "-$1"; }
for theme in $themes; do
    for example in $examples; do
        echo "screenshot: $example ($theme)"
        rm -f "$data_dir/open-tabs.json" # each picture shows its example's tab alone
        SANDPAD_DATA_DIR="$data_dir" QT_QPA_PLATFORM=xcb timeout 120 \
            xvfb-run -a -s "-screen 0 1400x860x24" \
            "$app" --theme "$theme" --run-example "$example" --screenshot "$out/$example$(suffix "$theme").png"
    done
done
ls -l "$out"

# The Documents dock: a workspace with a few saved snippets, revisions and a run of an old revision.
if [ -z "${*:-}" ] || echo " $* " | grep -q " documents "; then
    cli="$build_dir/app/sandpad-run/sandpad-run"
    [ -x "$cli" ] || { echo "no $cli: build the sandpad-run target for the documents screenshot" >&2; exit 2; }
    docs_dir=$(mktemp -d)
    src=$(mktemp -d)
    printf 'import math\nprint([round(math.sin(x / 4), 3) for x in range(8)])\n' > "$src/sines.py"
    printf 'const words = ["sand", "pad"];\nconsole.log(words.join(""));\n' > "$src/join.js"
    printf 'def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\nprint(fib(10))\n' > "$src/fib.py"
    SANDPAD_DATA_DIR="$docs_dir" "$cli" --save "$src/join.js" --title join.js >/dev/null
    SANDPAD_DATA_DIR="$docs_dir" "$cli" --save "$src/sines.py" --title sines.py >/dev/null
    fib=$(SANDPAD_DATA_DIR="$docs_dir" "$cli" --json --save "$src/fib.py" --title fibonacci.py \
          | sed -n 's/.*"document_id": *"\([^"]*\)".*/\1/p')
    printf 'from functools import cache\n\n@cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\nprint(fib(10))\n' > "$src/fib.py"
    SANDPAD_DATA_DIR="$docs_dir" "$cli" --save "$src/fib.py" --document "$fib" >/dev/null
    printf 'from functools import cache\n\n@cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\nprint([fib(n) for n in range(15)])\n' > "$src/fib.py"
    SANDPAD_DATA_DIR="$docs_dir" "$cli" --save "$src/fib.py" --document "$fib" >/dev/null
    SANDPAD_DATA_DIR="$docs_dir" "$cli" --provider local --document "$fib" >/dev/null || true
    for theme in $themes; do
        echo "screenshot: documents ($theme)"
        SANDPAD_DATA_DIR="$docs_dir" QT_QPA_PLATFORM=xcb timeout 120 \
            xvfb-run -a -s "-screen 0 1400x860x24" \
            "$app" --theme "$theme" --screenshot "$out/documents$(suffix "$theme").png"
    done
    rm -rf "$docs_dir" "$src"
fi

# Completion and help from a session (completion-shot.sh: needs openbox and xdotool).
if [ -z "${*:-}" ] || echo " $* " | grep -q " completion "; then
    if command -v openbox >/dev/null && command -v xdotool >/dev/null && command -v import >/dev/null; then
        for theme in $themes; do
            echo "screenshot: completion ($theme)"
            timeout 120 xvfb-run -a -s "-screen 0 1400x860x24" \
                sh "$here/completion-shot.sh" "$app" "$theme" "$out/session_completion$(suffix "$theme").png"
        done
    else
        echo "completion: skipped (apt-get install openbox xdotool imagemagick)" >&2
    fi
fi
