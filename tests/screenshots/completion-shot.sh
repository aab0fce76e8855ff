#!/bin/sh
# One screenshot of the editor's intelligence in a session tab: a pandas cell run in the session,
# the Help pane (F1) on a DataFrame method and the completion list of the live DataFrame's columns
# (asked of the session). Needs a window manager for the popup and the keys: openbox and xdotool
# (Debian), under xvfb-run. Usage: completion-shot.sh APP THEME OUT.png  (take-screenshots.sh runs it)
set -eu
app=$1 theme=$2 out=$3
data_dir=$(mktemp -d)
trap 'rm -rf "$data_dir"' EXIT
openbox >/dev/null 2>&1 &
wm=$!
sleep 1
SANDPAD_DATA_DIR="$data_dir" SANDPAD_PROVIDER=local "$app" --theme "$theme" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 60); do
    wid=$(xdotool search --onlyvisible --name Sandpad 2>/dev/null | head -1 || true)
    [ -n "$wid" ] && break
    sleep 0.5
done
sleep 2
xdotool windowactivate --sync "$wid" >/dev/null 2>&1 || true
xdotool windowfocus --sync "$wid" >/dev/null 2>&1 || true
xdotool type --delay 10 'import pandas as pd'
xdotool key Return
xdotool type --delay 10 'sales = pd.DataFrame({"region": ["north", "south", "east"], "revenue": [120.5, 98.0, 143.2], "units": [12, 9, 15]})'
xdotool key Return
xdotool type --delay 10 'sales.plot.bar(x="region", y="revenue")'
xdotool key shift+Return
sleep 10 # the session starts, runs the cell and warms its Jedi
xdotool key ctrl+End Return
xdotool type --delay 40 'sales.groupby'
xdotool key Escape F1
sleep 2
xdotool key Return
xdotool type --delay 40 'sales.re'
sleep 0.5
xdotool key ctrl+space
sleep 1.5
import -window root "$out"
kill "$pid" "$wm" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
