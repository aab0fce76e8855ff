#!/usr/bin/env bash
# Installs the vendors' official SDKs (pinned by tests/conformance/sdk/package-lock.json) that the
# conformance tests drive against tests/fakes. Skipped when the installed tree matches the lock.
set -euo pipefail
cd "$(dirname "$0")/../tests/conformance/sdk"
stamp=node_modules/.package-lock.json
if [ -f "$stamp" ] && cmp -s <(sed -n '/"packages"/,$p' package-lock.json | grep -c '"version"') \
                              <(sed -n '/"packages"/,$p' "$stamp" | grep -c '"version"') \
   && [ "$stamp" -nt package-lock.json ]; then
  echo "install-sdks: SDKs present"
  exit 0
fi
echo "install-sdks: npm ci (tests/conformance/sdk)"
npm ci --no-audit --no-fund --loglevel=error
