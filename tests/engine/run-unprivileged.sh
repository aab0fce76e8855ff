#!/usr/bin/env bash
# Runs a test binary as an unprivileged user (uid 65534), the way a desktop user runs Sandpad.
# CI runs as root; the sandbox must hold for both. Skips (77) when already unprivileged, since the
# normal run of the test then covers it.
set -euo pipefail
binary=$1
if [ "$(id -u)" -ne 0 ]; then
  echo "already unprivileged: the plain test run covers this"; exit 77
fi
drop=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
if ! "${drop[@]}" test -x "$binary"; then
  echo "uid 65534 cannot reach $binary (the checkout is in a private folder): skipped"; exit 77
fi
home=$(mktemp -d /tmp/sandpad-nobody.XXXXXX)
trap 'rm -rf "$home"' EXIT
chown 65534:65534 "$home"
cd "$home"
exec "${drop[@]}" env HOME="$home" XDG_CACHE_HOME="$home/.cache" XDG_CONFIG_HOME="$home/.config" TMPDIR=/tmp "$binary"
