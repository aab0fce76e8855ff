#!/bin/sh
# Starts the app under Xvfb, runs each bundled example and writes a screenshot per example into
# docs/screenshots/. Usage: tests/screenshots/take-screenshots.sh BUILD_DIR [EXAMPLE...]
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
# One throwaway workspace so that the notebook shows the runs of this session only.
data_dir=$(mktemp -d)
trap 'rm -rf "$data_dir"' EXIT
for example in $examples; do
    echo "screenshot: $example"
    SANDPAD_DATA_DIR="$data_dir" QT_QPA_PLATFORM=xcb timeout 120 \
        xvfb-run -a -s "-screen 0 1400x860x24" \
        "$app" --run-example "$example" --screenshot "$out/$example.png"
done
ls -l "$out"
