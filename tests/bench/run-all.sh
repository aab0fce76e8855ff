#!/usr/bin/env bash
# Runs every benchmark and writes tests/bench/RESULTS.md (commit it with the machine it ran on).
set -euo pipefail
build=${1:-build/dev}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/RESULTS.md"
{
  echo "# Benchmark results"
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr), $(. /etc/os-release; echo "$PRETTY_NAME"); user $(id -un); $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  for b in "$build"/tests/bench/bench_*; do
    [ -f "$b" ] && [ -x "$b" ] || continue
    echo "## $(basename "$b")"
    echo
    QT_QPA_PLATFORM=offscreen "$b"
    echo
  done
} | tee "$out"
