#!/usr/bin/env bash
# Installs the Debian 12 packages Sandpad needs to build, test and run.
# Idempotent: only missing packages are installed. Runs as root or through sudo.
set -euo pipefail

packages=(
  # build
  cmake ninja-build ccache g++ pkg-config git
  mold  # the linker (CMakeLists.txt): a test executable links in a fraction of ld's time
  # Qt 6 and libraries
  qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite libqt6svg6 qt6-svg-dev
  libqscintilla2-qt6-dev libqcustomplot-dev nlohmann-json3-dev qtkeychain-qt6-dev
  libseccomp-dev libgl-dev libpng-dev
  # the local sandbox and its runtimes
  bubblewrap util-linux
  slirp4netns  # "network allowed": user-mode networking without the host's loopback
  python3 python3-pip python3-matplotlib python3-pandas python3-numpy python3-sympy
  python3-plotly  # plotly figures become native charts (no browser, no kaleido)
  python3-jedi  # the editor's Python completion, calltips and help (core/completion, in a sandbox)
  python3-nbformat  # tests: every exported .ipynb is checked by nbformat.validate (tests/ipynb)
  python3-ipython  # tests: IPython.display objects shown through display() (tests/outputs)
  fonts-dejavu-core
  # headless GUI tests and screenshots
  xvfb xauth imagemagick xdotool
  # packaging checks
  appstream desktop-file-utils dpkg-dev file lintian
)
# Node.js: any `node` >= 18 already on the machine is fine (e.g. NodeSource); else Debian's.
if ! command -v node >/dev/null 2>&1; then packages+=(nodejs); fi
# npm installs the pinned vendor SDKs the conformance tests drive (packaging/install-sdks.sh).
if ! command -v npm >/dev/null 2>&1; then packages+=(npm); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
