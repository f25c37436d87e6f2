#!/usr/bin/env bash
# `make bundle-test`: the package as a shop's till lives with it, end to end, as root.
#
#  1. Two versions of the package built from this tree (the second one patch version
#     higher), for a repository served on a loopback port, signed with a key made for
#     the run; the first checked as a package (scripts/package-check.sh).
#  2. The first published (scripts/release.sh publish: reprepro, InRelease and
#     Release.gpg) and installed as the README says: the key and the source fetched
#     from the repository, `apt-get update`, `apt-get install loyalty-counter`.
#  3. The installed app started as a kiosk (Xvfb, its own home) on a till connected to
#     a local sandbox, with visits queued while the service is down (`upgrade-till`).
#  4. The second published signed by another key: apt refuses the repository, and
#     nothing is upgraded.
#  5. The second published signed by the project's key: `unattended-upgrade` (as a shop
#     has it) installs it; the running app restarts into it by itself once idle, as the
#     same process, still a kiosk (the delay is printed); the service back, each queued
#     visit reaches it once, and the shift open at the start is still open.
#  6. The first offered again (a downgrade): apt keeps the second.
#  7. The package purged: its source, its keyring and its drop-in go with it.
#
# apt sees only this repository (lists and caches of its own under target/bundle-test,
# through APT_CONFIG): nothing else on the machine is upgraded. Everything it started
# is stopped, and the package purged, however it ends.
#
#   scripts/bundle-test.sh        (`make bundle-test`, after `make build`;
#                                  BUNDLE_TEST_REUSE=1: the last run's packages again)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "bundle-test: run it as root: it installs the package with apt" >&2; exit 1; }

out=$PWD/target/bundle-test
repo_port=${BUNDLE_TEST_REPO_PORT:-8791}
sandbox_port=${BUNDLE_TEST_SANDBOX_PORT:-8792}
url=http://127.0.0.1:$repo_port
root=http://127.0.0.1:$sandbox_port
arch=$(dpkg --print-architecture)
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
IFS=. read -r major minor patch <<<"$version"
next=$major.$minor.$((patch + 1))
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
step() { printf '\n== %s\n' "$*"; }
die() { echo "FAIL: $*" >&2; exit 1; }

# This machine's own loyalty-counter is never touched: only one this test installed.
if dpkg-query -W -f='${Status}' loyalty-counter 2>/dev/null | grep -q installed &&
  [ ! -f "$out/installed-here" ]; then
  die "loyalty-counter is installed on this machine (not by this test): bundle-test would remove it"
fi

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true; done
  [ -f "$out/app.pid" ] && kill -KILL "$(cat "$out/app.pid")" 2>/dev/null || true
  pkill -f "^target/debug/loyalty-sandbox --listen 127.0.0.1:$sandbox_port" 2>/dev/null || true
  if [ -f "$out/installed-here" ]; then
    if dpkg-query -W -f='${Status}' loyalty-counter 2>/dev/null | grep -q installed; then
      env -u APT_CONFIG DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq loyalty-counter >/dev/null 2>&1 || true
    fi
    rm -f /etc/apt/sources.list.d/loyalty-counter.sources /usr/share/keyrings/loyalty-counter.gpg "$out/installed-here"
  fi
  for home in "$out/keys/project" "$out/keys/stranger"; do
    GNUPGHOME=$home gpgconf --kill gpg-agent 2>/dev/null || true
  done
}
trap cleanup EXIT
# A run that stopped half-way left the package installed: from the start. (With
# BUNDLE_TEST_REUSE=1, the packages and the key of the last run are used again: for
# working on this script.)
cleanup
if [ "${BUNDLE_TEST_REUSE:-}" = 1 ]; then
  find "$out" -mindepth 1 -maxdepth 1 ! -name '*.deb' ! -name keys -exec rm -rf {} +
else
  rm -rf "$out"
fi
mkdir -p "$out/keys/project" "$out/keys/stranger"
chmod 700 "$out/keys/project" "$out/keys/stranger"

step "1. two versions of the package, $version and $next, for $url"
export RELEASE_GNUPGHOME=$out/keys/project REPO_URL=$url
for v in "$version" "$next"; do
  if [ "${BUNDLE_TEST_REUSE:-}" = 1 ] && [ -f "$out/loyalty-counter_${v}_$arch.deb" ]; then
    ok "loyalty-counter_${v}_$arch.deb of the last run (BUNDLE_TEST_REUSE=1)"
    continue
  fi
  scripts/release.sh deb "$v" >"$out/build-$v.log" 2>&1 || { tail -n 30 "$out/build-$v.log" >&2; die "the package $v did not build"; }
  cp "target/release/bundle/deb/loyalty-counter_${v}_$arch.deb" "$out/"
  ok "built loyalty-counter_${v}_$arch.deb"
done
first=$out/loyalty-counter_${version}_$arch.deb
second=$out/loyalty-counter_${next}_$arch.deb
scripts/package-check.sh "$first" >"$out/package-check.log" 2>&1 &&
  ok "scripts/package-check.sh: $(tail -n1 "$out/package-check.log")" ||
  { cat "$out/package-check.log" >&2; fail "the package's checks"; }

step "2. published, and installed as the README says"
scripts/release.sh publish "$out/repo" "$first" 2>&1 | sed 's/^/  /'
python3 -m http.server "$repo_port" --bind 127.0.0.1 --directory "$out/repo/public" >"$out/repo-server.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -fs "$url/dists/stable/InRelease" >/dev/null && break; sleep 0.1; done

apt_dir=$out/apt
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/sources"
: >"$apt_dir/sources.list"
# The source the package installs is the one apt reads (through this link).
ln -s /etc/apt/sources.list.d/loyalty-counter.sources "$apt_dir/sources/loyalty-counter.sources"
cat >"$apt_dir/apt.conf" <<EOF
Dir::Etc::SourceList "$apt_dir/sources.list";
Dir::Etc::SourceParts "$apt_dir/sources";
Dir::State::Lists "$apt_dir/lists";
Dir::Cache::Archives "$apt_dir/archives";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
export APT_CONFIG=$apt_dir/apt.conf DEBIAN_FRONTEND=noninteractive
# The README's steps, word for word but for the address.
touch "$out/installed-here"
curl -fsSL "$url/loyalty-counter.gpg" -o /usr/share/keyrings/loyalty-counter.gpg
curl -fsSL "$url/loyalty-counter.sources" -o /etc/apt/sources.list.d/loyalty-counter.sources
apt-get update -q >"$out/apt-update-1.log" 2>&1 || { cat "$out/apt-update-1.log" >&2; die "apt-get update"; }
apt-get install -y -q loyalty-counter >"$out/apt-install.log" 2>&1 || { cat "$out/apt-install.log" >&2; die "apt-get install"; }
installed() { dpkg-query -W -f='${Version}' loyalty-counter 2>/dev/null; }
[ "$(installed)" = "$version" ] && ok "apt-get install: loyalty-counter $version" || fail "installed: $(installed)"
grep -qx /etc/apt/sources.list.d/loyalty-counter.sources <<<"$(dpkg-query -L loyalty-counter)" &&
  ok "the package owns its apt source (the README's copy, the same, taken over without a question)" ||
  fail "the package does not own /etc/apt/sources.list.d/loyalty-counter.sources"
grep -q 'Signed-By: /usr/share/keyrings/loyalty-counter.gpg' /etc/apt/sources.list.d/loyalty-counter.sources &&
  ok "its source is Signed-By /usr/share/keyrings/loyalty-counter.gpg" || fail "the source's Signed-By"
! ls /etc/apt/trusted.gpg.d/ 2>/dev/null | grep -qi loyalty && ok "nothing in /etc/apt/trusted.gpg.d" ||
  fail "a loyalty key in /etc/apt/trusted.gpg.d"
grep -q 'Unattended-Upgrade::Origins-Pattern:: "origin=Loyalty Counter' <<<"$(apt-config dump)" &&
  ok "unattended-upgrades takes the repository's origin (apt-config dump)" ||
  fail "no Origins-Pattern for Loyalty Counter in apt's configuration"
[ "$(/usr/bin/loyalty-counter --version)" = "loyalty-counter $version" ] &&
  ok "/usr/bin/loyalty-counter --version: $version" || fail "--version: $(/usr/bin/loyalty-counter --version)"

step "3. the installed app, a kiosk, with visits queued while the service is down"
home=$out/home
mkdir -p "$home"
in_home() {
  HOME=$home XDG_DATA_HOME=$home/data XDG_CONFIG_HOME=$home/config XDG_CACHE_HOME=$home/cache "$@"
}
start_sandbox() {
  target/debug/loyalty-sandbox --listen "127.0.0.1:$sandbox_port" --db "$out/sandbox.db" --control "$@" \
    >"$out/sandbox.out" 2>>"$out/sandbox.log" &
  sandbox=$!
  for _ in $(seq 100); do grep -q '^listening on' "$out/sandbox.out" 2>/dev/null && return; sleep 0.1; done
  die "the sandbox did not start"
}
start_sandbox --demo
for _ in $(seq 50); do grep -q '^test key: ' "$out/sandbox.out" && break; sleep 0.1; done
key=$(sed -n 's/^test key: //p' "$out/sandbox.out")
in_home dbus-run-session -- target/debug/upgrade-till prepare "$home" "$root" "$key" 3 || die "upgrade-till prepare"
kill -TERM "$sandbox"
wait "$sandbox" || true
in_home dbus-run-session -- target/debug/upgrade-till queue "$home" || die "upgrade-till queue"

log=$out/app.log
# Its own session (setsid): ended whole, Xvfb and the app, however the test ends.
env HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" \
  NO_AT_BRIDGE=1 WEBKIT_DISABLE_COMPOSITING_MODE=1 setsid xvfb-run -a -s '-screen 0 1280x800x24' \
  dbus-run-session -- bash -c 'echo $$ >"$1"; exec /usr/bin/loyalty-counter --kiosk 2>"$2"' _ "$out/app.pid" "$log" &
pids+=($!)
for _ in $(seq 600); do grep -q 'first screen on display' "$log" 2>/dev/null && break; sleep 0.1; done
app=$(cat "$out/app.pid")
grep -qE "Loyalty Counter started version=\"?$version\"?$" "$log" && grep -q 'first screen on display.*screen=Kiosk' "$log" &&
  ok "the installed app ($version, process $app) runs as a kiosk" ||
  { cat "$log" >&2; die "the installed app did not open its kiosk"; }

step "4. the second version, in the repository re-signed by another key: refused"
RELEASE_GNUPGHOME=$out/keys/stranger scripts/release.sh publish "$out/repo" "$second" >"$out/publish-stranger.log" 2>&1
if apt-get update -q >"$out/apt-update-stranger.log" 2>&1 && ! grep -qE 'NO_PUBKEY|not signed|signatures were invalid|could not be verified' "$out/apt-update-stranger.log"; then
  fail "apt-get update took the repository signed by another key"
else
  ok "apt-get update refuses it: $(grep -oE 'NO_PUBKEY [0-9A-F]+|signatures couldn.t be verified|is not signed' "$out/apt-update-stranger.log" | head -n1)"
fi
unattended-upgrade >"$out/unattended-stranger.log" 2>&1 || true
[ "$(installed)" = "$version" ] && ok "nothing upgraded: $version still installed" || fail "upgraded to $(installed) from a repository signed by another key"

step "5. the second version signed by the project's key: unattended-upgrade, and the app restarts itself"
scripts/release.sh publish "$out/repo" "$second" >"$out/publish-2.log" 2>&1
apt-get update -q >"$out/apt-update-2.log" 2>&1 || { cat "$out/apt-update-2.log" >&2; die "apt-get update"; }
# When dpkg puts the new binary in place (by rename: another inode), seen from here.
old_inode=$(stat -c %i /usr/bin/loyalty-counter)
(
  while [ "$(stat -c %i /usr/bin/loyalty-counter 2>/dev/null || echo "$old_inode")" = "$old_inode" ]; do sleep 0.05; done
  date +%s.%N >"$out/replaced-at"
) &
watcher=$!
unattended-upgrade -v >"$out/unattended.log" 2>&1 || { cat "$out/unattended.log" >&2; fail "unattended-upgrade"; }
[ "$(installed)" = "$next" ] && ok "unattended-upgrade installed $next" ||
  { cat "$out/unattended.log" >&2; die "unattended-upgrade left $(installed)"; }
for _ in $(seq 1200); do
  [ "$(grep -c 'first screen on display' "$log")" -ge 2 ] && break
  sleep 0.05
done
restarted=$(date +%s.%N)
wait "$watcher" 2>/dev/null || true
upgraded=$(cat "$out/replaced-at")
grep -q 'an update is installed' "$log" && grep -qE "restarting into the update version=\"?$next\"?$" "$log" &&
  grep -qE "Loyalty Counter started version=\"?$next\"?$" "$log" ||
  { cat "$log" >&2; die "the app did not restart into $next"; }
[ "$(grep 'first screen on display' "$log" | tail -n1 | grep -o 'screen=[A-Za-z]*')" = screen=Kiosk ] &&
  ok "back as a kiosk" || fail "not a kiosk after the restart: $(grep 'first screen on display' "$log" | tail -n1)"
[ "$(readlink "/proc/$app/exe")" = /usr/bin/loyalty-counter ] &&
  ok "the same process ($app) now runs the new /usr/bin/loyalty-counter, --kiosk: $(tr '\0' ' ' <"/proc/$app/cmdline")" ||
  fail "process $app runs $(readlink "/proc/$app/exe" 2>/dev/null || echo nothing)"
delay=$(awk -v a="$upgraded" -v b="$restarted" 'BEGIN { printf "%.1f", b - a }')
ok "restarted into $next, its kiosk on screen, $delay s after dpkg put the new binary in place"
start_sandbox
for _ in $(seq 300); do
  in_home target/debug/upgrade-till served "$home" "$root" "$key" >/dev/null 2>&1 && break
  sleep 0.2
done
in_home target/debug/upgrade-till served "$home" "$root" "$key" || fail "the queued visits did not reach the service"
kill -TERM "$app"
for _ in $(seq 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
kill -KILL "$app" 2>/dev/null || true
in_home dbus-run-session -- target/debug/upgrade-till check "$home" "$root" "$key" || fail "upgrade-till check"
kill -TERM "$sandbox"
wait "$sandbox" || true

step "6. the first version offered again: a downgrade, refused"
GNUPGHOME=$RELEASE_GNUPGHOME reprepro --silent -b "$out/repo" --outdir "$out/repo/public" remove stable loyalty-counter
scripts/release.sh publish "$out/repo" "$first" >"$out/publish-3.log" 2>&1
apt-get update -q >"$out/apt-update-3.log" 2>&1 || { cat "$out/apt-update-3.log" >&2; die "apt-get update"; }
policy=$(apt-cache policy loyalty-counter)
grep -qE "^ +$version 500" <<<"$policy" && ok "the repository offers $version alone" ||
  fail "the repository does not offer $version: $policy"
unattended-upgrade >"$out/unattended-3.log" 2>&1 || true
apt-get install -y -q loyalty-counter >"$out/apt-install-3.log" 2>&1 || true
[ "$(installed)" = "$next" ] && ok "apt keeps $next with only $version offered" || fail "downgraded to $(installed)"

step "7. purged: its source, keyring and drop-in go"
apt-get purge -y -q loyalty-counter >"$out/apt-purge.log" 2>&1 || { cat "$out/apt-purge.log" >&2; fail "apt-get purge"; }
for file in /etc/apt/sources.list.d/loyalty-counter.sources /usr/share/keyrings/loyalty-counter.gpg \
  /etc/apt/apt.conf.d/51loyalty-counter-unattended-upgrades /usr/bin/loyalty-counter; do
  [ ! -e "$file" ] || fail "$file is left after the purge"
done
ok "nothing of the package left"

echo
[ "$failures" = 0 ] && echo "bundle-test: $version installed from the signed repository, upgraded to $next by unattended-upgrade, the running kiosk restarted into it in $delay s, its queue sent once" ||
  { echo "bundle-test: $failures failures" >&2; exit 1; }
