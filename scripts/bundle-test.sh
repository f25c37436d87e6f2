#!/usr/bin/env bash
# The .deb a shop installs, checked as installed: unpacked in a scratch root
# (`dpkg -x`), its control fields, desktop entry and icons checked, and the installed
# binary started under Xvfb until its window shows the Connect screen.
#
#   scripts/bundle-test.sh [DEB]     (default: the one `make bundle` built)
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
deb=${1:-"target/release/bundle/deb/Loyalty Counter_${version}_$(dpkg --print-architecture).deb"}
[ -f "$deb" ] || { echo "no $deb: run \`make bundle\` first" >&2; exit 1; }
out=target/bundle-test
rm -rf "$out"
mkdir -p "$out"
root=$out/root
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# The package: name, version from Cargo, what it needs from the system.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = loyalty-counter ] && ok "package loyalty-counter" || fail "package is $(field Package)"
[ "$(field Version)" = "$version" ] && ok "version $version" || fail "version $(field Version), Cargo says $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] && ok "architecture $(field Architecture)" ||
  fail "architecture $(field Architecture)"
case "$(field Depends)" in
  *libwebkit2gtk-4.1-0*) ok "depends on libwebkit2gtk-4.1-0" ;;
  *) fail "Depends lacks libwebkit2gtk-4.1-0: $(field Depends)" ;;
esac
case "$(field Depends)" in
  *fonts-dejavu-core*) ok "depends on fonts-dejavu-core (the font the page names)" ;;
  *) fail "Depends lacks fonts-dejavu-core: $(field Depends)" ;;
esac

dpkg -x "$deb" "$root"

binary=$root/usr/bin/loyalty-counter
[ -x "$binary" ] && ok "usr/bin/loyalty-counter is executable" || fail "no executable usr/bin/loyalty-counter"

desktop=$root/usr/share/applications/"Loyalty Counter.desktop"
[ -f "$desktop" ] || desktop=$(ls "$root"/usr/share/applications/*.desktop 2>/dev/null | head -n1)
if [ -f "$desktop" ]; then
  entry() { sed -n "s/^$1=//p" "$desktop" | head -n1; }
  [ "$(entry Type)" = Application ] && ok "desktop entry: an application" || fail "desktop Type=$(entry Type)"
  [ "$(entry Name)" = "Loyalty Counter" ] && ok "desktop entry: Name=Loyalty Counter" || fail "desktop Name=$(entry Name)"
  [ "$(entry Exec)" = loyalty-counter ] && ok "desktop entry: Exec=loyalty-counter" || fail "desktop Exec=$(entry Exec)"
  [ "$(entry Icon)" = loyalty-counter ] && ok "desktop entry: Icon=loyalty-counter" || fail "desktop Icon=$(entry Icon)"
  case "$(entry Categories)" in
    *Office*|*Finance*|*Business*) ok "desktop entry: Categories=$(entry Categories)" ;;
    *) fail "desktop Categories=$(entry Categories)" ;;
  esac
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$desktop" && ok "desktop-file-validate" || fail "desktop-file-validate"
  fi
else
  fail "no desktop entry in usr/share/applications"
fi

# Each icon is the size its folder says.
icons=0
while IFS= read -r icon; do
  icons=$((icons + 1))
  folder=$(basename "$(dirname "$(dirname "$icon")")")   # e.g. 128x128 or 256x256@2
  want=${folder%@*}
  scale=1
  [[ $folder == *@* ]] && scale=${folder#*@}
  w=${want%x*}
  want="$((w * scale))x$((w * scale))"
  got=$(identify -format '%wx%h' "$icon")
  [ "$got" = "$want" ] && ok "icon $folder is $got" || fail "icon $folder is $got, not $want"
done < <(find "$root/usr/share/icons/hicolor" -name 'loyalty-counter.png' | sort)
[ "$icons" -ge 2 ] || fail "only $icons icons in usr/share/icons/hicolor"

# The installed binary, started as a shop would on a new machine: its own home, a
# display (Xvfb), a D-Bus session. Ready when its window shows the Connect screen.
home=$(mktemp -d "$PWD/$out/home.XXXX")
log=$out/app.log
HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config XDG_CACHE_HOME=$home/cache \
  NO_AT_BRIDGE=1 WEBKIT_DISABLE_COMPOSITING_MODE=1 \
  xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session -- bash -c '
    "$1" 2>"$2" &
    app=$!
    for _ in $(seq 1 600); do
      grep -q "first screen on display" "$2" && break
      kill -0 "$app" 2>/dev/null || break
      sleep 0.1
    done
    sleep 0.5
    import -window root "$3" || true
    kill "$app" 2>/dev/null || true
    wait "$app" 2>/dev/null || true
  ' _ "$binary" "$log" "$out/connect.png"
if grep -q 'first screen on display.*screen=Connect' "$log"; then
  ok "the installed app opened on Connect ($(grep -o 'first screen on display.*' "$log" | grep -o ' millis=[0-9]*' | head -n1)); screenshot $out/connect.png"
else
  fail "the installed app did not show Connect; its log:"
  cat "$log" >&2
fi

[ "$failures" = 0 ] && echo "bundle: $deb ($(du -h "$deb" | cut -f1)) installs and runs" || exit 1
