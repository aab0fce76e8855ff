#!/usr/bin/env bash
# Validates the desktop file and the AppStream metainfo, then builds the .deb with CPack (when
# sandpad and sandpad-run are built) and checks its control data and contents with dpkg-deb.
# Usage: check_packaging.sh SOURCE_DIR BINARY_DIR. Exit 77 = skipped (CTest SKIP_RETURN_CODE).
set -euo pipefail
src=$1
bin=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

desktop="$src/packaging/sandpad.desktop"
metainfo="$src/packaging/io.github.sandpad.Sandpad.metainfo.xml"
icon="$src/packaging/icons/sandpad.svg"

if command -v desktop-file-validate >/dev/null; then
  out=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $out"
  [ -z "$out" ] || echo "desktop-file-validate: $out"
  echo "ok: desktop file"
else
  echo "skip: desktop-file-validate not installed"
fi
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net "$metainfo" || fail "appstreamcli validate"
  echo "ok: metainfo"
else
  echo "skip: appstreamcli not installed"
fi
grep -q '<svg' "$icon" || fail "icon is not an SVG"
if command -v xmllint >/dev/null; then xmllint --noout "$icon" || fail "icon is not well-formed XML"; fi
grep -q "GNU GENERAL PUBLIC LICENSE" "$src/LICENSE" || fail "LICENSE is not the GPL text"

if [ ! -x "$bin/app/sandpad/sandpad" ] || [ ! -x "$bin/app/sandpad-run/sandpad-run" ]; then
  echo "SKIP: sandpad/sandpad-run not built in $bin, the .deb check needs them"
  exit 77
fi
command -v cpack >/dev/null && command -v dpkg-deb >/dev/null || { echo "SKIP: cpack/dpkg-deb missing"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
( cd "$bin" && cpack -G DEB -B "$work" --config "$bin/CPackConfig.cmake" >"$work/cpack.log" 2>&1 ) \
  || { cat "$work/cpack.log"; fail "cpack"; }
deb=$(ls "$work"/sandpad_*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || { cat "$work/cpack.log"; fail "no sandpad_*.deb produced"; }
echo "built: $(basename "$deb")"

info=$(dpkg-deb -I "$deb")
echo "$info" | grep -q '^ Package: sandpad$' || fail "package name is not sandpad"
depends=$(echo "$info" | sed -n 's/^ Depends: //p')
for dep in bubblewrap python3 python3-matplotlib python3-pandas python3-numpy python3-sympy "nodejs | node" libqt6widgets6; do
  case ", $depends," in *"$dep"*) ;; *) fail "Depends lacks $dep: $depends";; esac
done
recommends=$(echo "$info" | sed -n 's/^ Recommends: //p')
case ", $recommends," in *python3-jedi*) ;; *) fail "Recommends lacks python3-jedi (the editor's language service): $recommends";; esac
echo "$info" | grep -q '^ Maintainer: ' || fail "no maintainer"
echo "$info" | grep -q '^ Description: ' || fail "no description"
echo "ok: control ($depends)"

contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/sandpad ./usr/bin/sandpad-run ./usr/share/applications/sandpad.desktop \
         ./usr/share/icons/hicolor/scalable/apps/sandpad.svg \
         ./usr/share/metainfo/io.github.sandpad.Sandpad.metainfo.xml ./usr/share/doc/sandpad/copyright; do
  echo "$contents" | awk '{print $NF}' | grep -qx "$f" || fail "package lacks $f"
done
echo "ok: contents"

# The files inside the package are the valid ones.
dpkg-deb -x "$deb" "$work/root"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$work/root/usr/share/applications/sandpad.desktop" || fail "packaged desktop file"
fi
# The packaged CLI runs and validates the local sandbox (what `dpkg -i` then `sandpad-run --validate`
# would show, without changing this machine's installed packages).
"$work/root/usr/bin/sandpad-run" --help >/dev/null || fail "packaged sandpad-run --help"
report=$(SANDPAD_PROVIDER=local XDG_CONFIG_HOME="$work/config" "$work/root/usr/bin/sandpad-run" --validate --data-dir "$work/data" 2>&1) \
  || { echo "$report"; fail "packaged sandpad-run --validate"; }
echo "$report" | grep -q "bubblewrap" || { echo "$report"; fail "validation report does not mention bubblewrap"; }
echo "ok: packaged sandpad-run --validate"
if command -v lintian >/dev/null; then
  # CPack writes no Debian changelog and keeps symbols; those are packaging-policy notes for a
  # distribution upload, not defects of the package.
  lintian --fail-on error --suppress-tags no-changelog,unstripped-binary-or-object,debian-changelog-file-missing,no-copyright-file,extended-description-is-empty,no-manual-page,binary-without-manpage,package-installs-into-obsolete-dir "$deb" \
    || fail "lintian"
  echo "ok: lintian"
fi
echo "PASS"
