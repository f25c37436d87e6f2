#!/usr/bin/env bash
# Finishes the .deb Tauri's bundler made into the package a Debian desktop expects, and
# leaves only that one in target/release/bundle/deb/ as loyalty-counter_VERSION_ARCH.deb:
#
# - the desktop entry named by the app's id (app.loyaltycounter.desktop.desktop), as
#   AppStream's `launchable` names it, with its AppStream metadata beside it;
# - the man pages (the app's, generated from the command-line parser, and the kiosk
#   session's), the copyright and the changelog in usr/share, compressed as Debian
#   policy asks (gzip -9n);
# - Depends computed from the binary's shared libraries by dpkg-shlibdeps (the C library
#   included), then the packages src-tauri/tauri.conf.json's `depends` names (the font
#   the page names; cage and Xwayland for the kiosk session), in place of Tauri's line;
# - the project's apt repository, where the till's updates come from: its source in
#   deb822 form (/etc/apt/sources.list.d/loyalty-counter.sources, a conffile, naming
#   REPO_URL) trusted by the project's key alone (Signed-By its own keyring,
#   /usr/share/keyrings/loyalty-counter.gpg: never apt-key, never the global keyring),
#   and a drop-in for unattended-upgrades, so that a till whose shop runs it keeps
#   itself current (/etc/apt/apt.conf.d/51loyalty-counter-unattended-upgrades);
# - files owned by root, modes 0644/0755 (the app and the kiosk session's script
#   executable), md5sums (of all but the conffiles) and Installed-Size recomputed.
#
# Tauri's bundler has no setting for these; what it has a setting for (maintainer,
# section, long description, the desktop entry's text, the kiosk session's files) is set
# in src-tauri.
#
#   KEYRING=FILE [REPO_URL=URL] [LOYALTY_COUNTER_VERSION=V] scripts/deb.sh
#
# after `tauri build --bundles deb` (scripts/release.sh runs both): KEYRING is the
# project's public key (binary, as `gpg --export` writes it), REPO_URL the repository
# (default https://apt.loyaltycounter.app), the version the one Tauri built.
set -euo pipefail
cd "$(dirname "$0")/.."

version=${LOYALTY_COUNTER_VERSION:-$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)}
repo_url=${REPO_URL:-https://apt.loyaltycounter.app}
keyring=${KEYRING:-}
[ -f "$keyring" ] || { echo "KEYRING names no file (the project's public key): ${keyring:-unset}" >&2; exit 1; }
arch=$(dpkg --print-architecture)
id=app.loyaltycounter.desktop
dir=target/release/bundle/deb
from="$dir/Loyalty Counter_${version}_${arch}.deb"
deb="$dir/loyalty-counter_${version}_${arch}.deb"
[ -f "$from" ] || { echo "no $from: run \`make bundle\`" >&2; exit 1; }

stage=$(mktemp -d "$PWD/target/deb-stage.XXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/root
dpkg-deb -R "$from" "$root"

mv "$root/usr/share/applications/Loyalty Counter.desktop" "$root/usr/share/applications/$id.desktop"
install -Dm644 "packaging/$id.metainfo.xml" "$root/usr/share/metainfo/$id.metainfo.xml"
install -Dm644 packaging/copyright "$root/usr/share/doc/loyalty-counter/copyright"
gzip -9n <packaging/changelog >"$root/usr/share/doc/loyalty-counter/changelog.gz"
install -d "$root/usr/share/man/man1"
for page in loyalty-counter loyalty-counter-kiosk-session; do
  gzip -9n <"packaging/$page.1" >"$root/usr/share/man/man1/$page.1.gz"
done

# The project's repository, its key, and unattended-upgrades' drop-in.
install -Dm644 "$keyring" "$root/usr/share/keyrings/loyalty-counter.gpg"
install -d "$root/etc/apt/sources.list.d" "$root/etc/apt/apt.conf.d"
sed "s|@REPO_URL@|$repo_url|" packaging/apt/loyalty-counter.sources.in \
  >"$root/etc/apt/sources.list.d/loyalty-counter.sources"
install -m644 packaging/apt/51loyalty-counter-unattended-upgrades "$root/etc/apt/apt.conf.d/"
install -Dm644 packaging/apt/lintian-overrides "$root/usr/share/lintian/overrides/loyalty-counter"
(cd "$root" && find etc -type f -printf '/%p\n' | sort) >"$root/DEBIAN/conffiles"

# dpkg-shlibdeps reads the package's name from a debian/control of its own.
mkdir -p "$stage/debian"
printf 'Source: loyalty-counter\n\nPackage: loyalty-counter\nArchitecture: any\n' >"$stage/debian/control"
binary=$root/usr/bin/loyalty-counter
shlibs=$(cd "$stage" && dpkg-shlibdeps -O -e"$binary" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "dpkg-shlibdeps found no library in $binary" >&2; exit 1; }
# The packages tauri.conf.json names, kept in that one list (Tauri's line adds its own
# unversioned libraries, which dpkg-shlibdeps names better).
needs=$(perl -MJSON::PP -0777 -ne 'print join(", ", @{decode_json($_)->{bundle}{linux}{deb}{depends}})' \
  src-tauri/tauri.conf.json)
[ -n "$needs" ] || { echo "src-tauri/tauri.conf.json names no depends" >&2; exit 1; }
depends="$shlibs, $needs"

control=$root/DEBIAN/control
installed_kib=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -i -e "s/^Depends: .*/Depends: $depends/" -e "s/^Installed-Size: .*/Installed-Size: $installed_kib/" "$control"
grep -q '^Depends: ' "$control" || { echo "no Depends line in Tauri's control file" >&2; exit 1; }

find "$root" -path "$root/DEBIAN" -prune -o -type d -exec chmod 0755 {} + -o -type f -exec chmod 0644 {} +
# The kiosk session's script came through tauri.conf.json's `files`, with the mode of the
# checkout, which the line above resets.
session=$root/usr/bin/loyalty-counter-kiosk-session
[ -f "$session" ] || { echo "no usr/bin/loyalty-counter-kiosk-session: tauri.conf.json's files?" >&2; exit 1; }
chmod 0755 "$binary" "$session"
(cd "$root" && find . \( -path ./DEBIAN -o -path ./etc \) -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums" "$root/DEBIAN/conffiles" "$control"

dpkg-deb --root-owner-group -Zgzip -z9 --build "$root" "$deb" >/dev/null
rm -f "$from"
echo "$deb"
