#!/usr/bin/env bash
# The .deb a shop installs, checked as installed: Debian's own checkers (lintian, with no
# error and no warning; appstreamcli on the AppStream metadata; desktop-file-validate),
# then unpacked in a scratch root (`dpkg -x`): its control fields, desktop entry, kiosk
# login session, man pages, documents and icons checked, and the installed binary
# started under Xvfb until its window shows the Connect screen. (The kiosk session is
# run for real by scripts/kiosk-session-test.sh.)
#
# Also the project's apt repository as the package sets it up: its deb822 source with
# Signed-By its own keyring (a conffile), the keyring (the project's key, nothing else),
# and the drop-in for unattended-upgrades; never a file in /etc/apt/trusted.gpg.d.
#
#   scripts/package-check.sh [DEB]     (default: the one `make bundle` built)
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
deb=${1:-"target/release/bundle/deb/loyalty-counter_${version}_$(dpkg --print-architecture).deb"}
id=app.loyaltycounter.desktop
[ -f "$deb" ] || { echo "no $deb: run \`make bundle\` first" >&2; exit 1; }
out=target/package-check
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
# Depends as dpkg-shlibdeps computes it from the binary, the C library included, and
# OpenSSL's (libcrypto), which SQLCipher encrypts the till's database with.
for library in libc6 libgtk-3-0 libwebkit2gtk-4.1-0 libssl3; do
  case "$(field Depends)" in
    *"$library "*|*"$library,"*|*"$library") ok "depends on $library" ;;
    *) fail "Depends lacks $library: $(field Depends)" ;;
  esac
done
[[ "$(field Maintainer)" =~ ^[^\<]+\ \<[^@\ ]+@[^@\ ]+\>$ ]] && ok "maintainer $(field Maintainer)" ||
  fail "Maintainer is not a name and an address: $(field Maintainer)"
[ -n "$(field Section)" ] && ok "section $(field Section)" || fail "no Section"
long=$(dpkg-deb -f "$deb" Description | tail -n +2)
[ -n "$long" ] && [ "$long" != " (none)" ] && ok "a long description ($(wc -w <<<"$long") words)" ||
  fail "no long description: $long"
case "$(field Depends)" in
  *fonts-dejavu-core*) ok "depends on fonts-dejavu-core (the font the page names)" ;;
  *) fail "Depends lacks fonts-dejavu-core: $(field Depends)" ;;
esac
# The kiosk session's compositor, and Xwayland, without which cage 0.1.4 does not start.
for package in cage xwayland; do
  case ", $(field Depends)," in
    *", $package,"*|*", $package "*) ok "depends on $package (the kiosk session)" ;;
    *) fail "Depends lacks $package: $(field Depends)" ;;
  esac
done
# The camera's GStreamer elements (videoconvert, appsrc; v4l2src, jpegenc): the
# libraries dpkg-shlibdeps finds do not bring them.
for package in gstreamer1.0-plugins-base gstreamer1.0-plugins-good; do
  case ", $(field Depends)," in
    *", $package,"*|*", $package "*) ok "depends on $package (the camera)" ;;
    *) fail "Depends lacks $package: $(field Depends)" ;;
  esac
done

dpkg -x "$deb" "$root"

binary=$root/usr/bin/loyalty-counter
[ -x "$binary" ] && ok "usr/bin/loyalty-counter is executable" || fail "no executable usr/bin/loyalty-counter"

entries=$(find "$root/usr/share/applications" -name '*.desktop' -printf '%f ' 2>/dev/null)
desktop=$root/usr/share/applications/$id.desktop
if [ -f "$desktop" ]; then
  [ "$entries" = "$id.desktop " ] && ok "one desktop entry, named by the app's id: $entries" ||
    fail "desktop entries: $entries"
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
  fail "no usr/share/applications/$id.desktop (there: $entries)"
fi

# The kiosk login session: what the login screen offers, and the script it runs.
session_entry=$root/usr/share/wayland-sessions/loyalty-counter-kiosk.desktop
session=usr/bin/loyalty-counter-kiosk-session
if [ -f "$session_entry" ]; then
  desktop-file-validate "$session_entry" && ok "kiosk session entry: desktop-file-validate" ||
    fail "kiosk session entry: desktop-file-validate"
  session_key() { sed -n "s/^$1=//p" "$session_entry" | head -n1; }
  [ "$(session_key Name)" = "Loyalty Counter kiosk" ] && ok "kiosk session entry: Name=Loyalty Counter kiosk" ||
    fail "kiosk session entry: Name=$(session_key Name)"
  [ "$(session_key Exec)" = "/$session" ] && ok "kiosk session entry: Exec=/$session" ||
    fail "kiosk session entry: Exec=$(session_key Exec), not /$session"
else
  fail "no usr/share/wayland-sessions/loyalty-counter-kiosk.desktop"
fi
# As the archive holds it (dpkg -x keeps modes, but the listing is what dpkg installs).
mode=$(dpkg-deb -c "$deb" | awk -v path="./$session" '$6 == path { print $1, $2 }')
[ "$mode" = "-rwxr-xr-x root/root" ] && ok "$session is installed executable ($mode)" ||
  fail "$session is installed as: ${mode:-nothing}"
sh -n "$root/$session" && ok "$session: sh -n" || fail "$session: sh -n"

# AppStream: what software centres list; its launchable is the desktop entry.
metainfo=$root/usr/share/metainfo/$id.metainfo.xml
if [ -f "$metainfo" ]; then
  appstreamcli validate --no-net --pedantic "$metainfo" >"$out/appstream.txt" 2>&1 &&
    ok "appstreamcli validate: $(tail -n1 "$out/appstream.txt")" ||
    { fail "appstreamcli validate:"; cat "$out/appstream.txt" >&2; }
  grep -q "<launchable type=\"desktop-id\">$id.desktop</launchable>" "$metainfo" &&
    ok "AppStream launchable: $id.desktop" || fail "AppStream launchable is not $id.desktop"
else
  fail "no usr/share/metainfo/$id.metainfo.xml"
fi

# The project's repository: where the till's updates come from, trusted by its key alone.
sources=$root/etc/apt/sources.list.d/loyalty-counter.sources
if [ -f "$sources" ]; then
  source_key() { sed -n "s/^$1: *//p" "$sources" | head -n1; }
  [ "$(source_key Types)" = deb ] && [ -n "$(source_key URIs)" ] && [ "$(source_key Suites)" = stable ] &&
    ok "apt source in deb822 form: $(source_key URIs) stable $(source_key Components)" ||
    fail "the apt source is not deb822 (Types, URIs, Suites): $(cat "$sources")"
  [ "$(source_key Signed-By)" = /usr/share/keyrings/loyalty-counter.gpg ] &&
    ok "apt source Signed-By /usr/share/keyrings/loyalty-counter.gpg" ||
    fail "the apt source is Signed-By '$(source_key Signed-By)'"
else
  fail "no etc/apt/sources.list.d/loyalty-counter.sources"
fi
keyring=$root/usr/share/keyrings/loyalty-counter.gpg
keys=$(gpg --batch --show-keys --with-colons "$keyring" 2>/dev/null | grep -c '^pub' || true)
[ "$keys" = 1 ] && ok "the keyring holds one public key ($(gpg --batch --show-keys --with-colons "$keyring" | awk -F: '$1 == "fpr" { print $10; exit }'))" ||
  fail "usr/share/keyrings/loyalty-counter.gpg holds $keys public keys"
[ ! -e "$root/etc/apt/trusted.gpg.d" ] && [ ! -e "$root/etc/apt/trusted.gpg" ] &&
  ok "nothing in the global trusted keyring" || fail "the package installs into apt's global trusted keyring"
grep -q 'Unattended-Upgrade::Origins-Pattern' "$root/etc/apt/apt.conf.d/51loyalty-counter-unattended-upgrades" 2>/dev/null &&
  ok "unattended-upgrades drop-in: $(grep -o '"origin=[^"]*"' "$root/etc/apt/apt.conf.d/51loyalty-counter-unattended-upgrades")" ||
  fail "no unattended-upgrades drop-in in etc/apt/apt.conf.d"
conffiles=$(dpkg-deb -I "$deb" conffiles 2>/dev/null | sort | tr '\n' ' ')
[ "$conffiles" = "/etc/apt/apt.conf.d/51loyalty-counter-unattended-upgrades /etc/apt/sources.list.d/loyalty-counter.sources " ] &&
  ok "conffiles: $conffiles" || fail "conffiles: $conffiles"

# The man pages, the copyright and the changelog, where Debian looks for them.
man=$root/usr/share/man/man1/loyalty-counter.1.gz
if [ -f "$man" ]; then
  page=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$man" 2>"$out/man-warnings.txt" | col -b)
  [ ! -s "$out/man-warnings.txt" ] && ok "man page renders without warnings" ||
    { fail "man page warnings:"; cat "$out/man-warnings.txt" >&2; }
  for option in --demo --kiosk --kiosk-idle --help --version; do
    grep -q -- "$option" <<<"$page" || fail "the man page does not document $option"
  done
  ok "the man page documents every option"
else
  fail "no usr/share/man/man1/loyalty-counter.1.gz"
fi
man=$root/usr/share/man/man1/loyalty-counter-kiosk-session.1.gz
if [ -f "$man" ]; then
  page=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$man" 2>"$out/man-warnings.txt" | col -b)
  [ ! -s "$out/man-warnings.txt" ] && ok "the kiosk session's man page renders without warnings" ||
    { fail "the kiosk session's man page warnings:"; cat "$out/man-warnings.txt" >&2; }
  for word in /etc/default/loyalty-counter-kiosk LOYALTY_COUNTER_KIOSK_ARGS LOYALTY_COUNTER_BIN; do
    grep -q -- "$word" <<<"$page" || fail "the kiosk session's man page does not document $word"
  done
else
  fail "no usr/share/man/man1/loyalty-counter-kiosk-session.1.gz"
fi
doc=$root/usr/share/doc/loyalty-counter
grep -q '^License: Expat' "$doc/copyright" 2>/dev/null && ok "copyright (Expat)" || fail "no copyright file"
zcat "$doc/changelog.gz" 2>/dev/null | head -n1 | grep -q "^loyalty-counter ($version)" &&
  ok "changelog for $version" || fail "no changelog for $version"

# Debian's own checker: no error and no warning. Its infos (lintian -I) are in the README.
if lintian --fail-on error,warning --tag-display-limit 0 "$deb" >"$out/lintian.txt" 2>&1; then
  ok "lintian: no error, no warning"
else
  fail "lintian:"
  grep -v 'root privileges' "$out/lintian.txt" >&2
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
