#!/usr/bin/env bash
# Releases: the .deb a shop installs, and the signed apt repository its tills update
# from (made by reprepro, signed with the project's OpenPGP key: InRelease and
# Release.gpg).
#
#   scripts/release.sh key                   the signing key's fingerprint (made first
#                                            when it is the local test key)
#   scripts/release.sh deb [VERSION]         the .deb of VERSION (default: Cargo's), a
#                                            release build: target/release/bundle/deb/
#   scripts/release.sh publish REPO DEB...   the packages into the repository at REPO:
#                                            REPO/public is what a web server serves
#
# The key: LOYALTY_COUNTER_RELEASE_KEY names the project's key (its fingerprint) in
# RELEASE_GNUPGHOME (default GNUPGHOME, else ~/.gnupg); it is kept off this repository.
# Without it, a local test key is made once in target/release-key/ and used (said on
# every run: tills that install such a package trust that key alone).
#
# REPO_URL (default https://apt.loyaltycounter.app) is where REPO/public is served:
# the package's apt source names it. `make release` runs `deb` then `publish`.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'release: %s\n' "$*" >&2; }

test_key_home=$PWD/target/release-key/gnupg
if [ -n "${LOYALTY_COUNTER_RELEASE_KEY:-}" ]; then
  export GNUPGHOME=${RELEASE_GNUPGHOME:-${GNUPGHOME:-$HOME/.gnupg}}
else
  export GNUPGHOME=${RELEASE_GNUPGHOME:-$test_key_home}
fi

# The signing key's fingerprint; the test key is made the first time.
signing_key() {
  if [ -n "${LOYALTY_COUNTER_RELEASE_KEY:-}" ]; then
    gpg --batch --list-secret-keys "$LOYALTY_COUNTER_RELEASE_KEY" >/dev/null 2>&1 ||
      { say "no secret key $LOYALTY_COUNTER_RELEASE_KEY in $GNUPGHOME"; exit 1; }
    printf '%s\n' "$LOYALTY_COUNTER_RELEASE_KEY"
    return
  fi
  if ! grep -q '^sec' <<<"$(gpg --batch --list-secret-keys --with-colons 2>/dev/null)"; then
    mkdir -p "$GNUPGHOME"
    chmod 700 "$GNUPGHOME"
    gpg --batch --quiet --passphrase '' --quick-gen-key \
      "Loyalty Counter test release key (not for shops) <release-test@loyaltycounter.invalid>" \
      ed25519 sign never 2>/dev/null
    say "made a test signing key in $GNUPGHOME: set LOYALTY_COUNTER_RELEASE_KEY to release with the project's"
  elif [ "$GNUPGHOME" = "$test_key_home" ]; then
    say "signed with the local test key ($GNUPGHOME): set LOYALTY_COUNTER_RELEASE_KEY to release with the project's"
  fi
  gpg --batch --list-secret-keys --with-colons | awk -F: '$1 == "fpr" { print $10; exit }'
}

# The public key, as apt reads a Signed-By keyring (binary, one key).
export_keyring() {
  local key=$1 out=$2
  mkdir -p "$(dirname "$out")"
  gpg --batch --export "$key" >"$out"
  [ -s "$out" ] || { say "the key $key could not be exported"; exit 1; }
}

deb() {
  local version=${1:-$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)}
  local key keyring=$PWD/target/release-key/loyalty-counter.gpg
  key=$(signing_key)
  export_keyring "$key" "$keyring"
  # The version is the package's and the app's own (`--version`, the log), one build.
  LOYALTY_COUNTER_VERSION=$version \
    TAURI_APP_PATH=$PWD/src-tauri TAURI_FRONTEND_PATH=$PWD/ui ui/node_modules/.bin/tauri build \
    --ci --bundles deb --config "{\"version\": \"$version\", \"build\": {\"beforeBuildCommand\": null}}"
  LOYALTY_COUNTER_VERSION=$version KEYRING=$keyring scripts/deb.sh
}

publish() {
  local repo
  repo=$(realpath -m "$1")
  shift
  [ $# -gt 0 ] || { say "publish: name the .deb files"; exit 2; }
  local key url=${REPO_URL:-https://apt.loyaltycounter.app}
  key=$(signing_key)
  mkdir -p "$repo/conf" "$repo/public"
  sed "s/@KEY@/$key/" packaging/apt/distributions.in >"$repo/conf/distributions"
  for package in "$@"; do
    reprepro --silent -b "$repo" --outdir "$repo/public" includedeb stable "$package"
  done
  # Signed again whatever changed (a package already there is not added twice, and a
  # repository signed before with another key is signed with this one).
  reprepro --silent -b "$repo" --outdir "$repo/public" export stable
  # What the README's install steps fetch first: the key and the source, beside the
  # repository they name.
  export_keyring "$key" "$repo/public/loyalty-counter.gpg"
  sed "s|@REPO_URL@|$url|" packaging/apt/loyalty-counter.sources.in >"$repo/public/loyalty-counter.sources"
  [ -s "$repo/public/dists/stable/InRelease" ] && [ -s "$repo/public/dists/stable/Release.gpg" ] ||
    { say "reprepro signed nothing: no InRelease or Release.gpg"; exit 1; }
  gpg --batch --verify "$repo/public/dists/stable/InRelease" 2>/dev/null ||
    { say "InRelease does not verify with $key"; exit 1; }
  say "published $* in $repo/public (serve it at $url), signed by $key"
}

case "${1:-}" in
  key) signing_key ;;
  deb) shift; deb "$@" ;;
  publish) shift; publish "$@" ;;
  *) say "usage: $0 key | deb [VERSION] | publish REPO DEB..."; exit 2 ;;
esac
