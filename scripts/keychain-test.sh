#!/usr/bin/env bash
# The keychain path shops use, tested for real: gnome-keyring's Secret Service, unlocked
# in a private D-Bus session with a throw-away keyring (never the user's own), then the
# ignored keychain test of counter-core against it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${KEYCHAIN_TEST_IN_SESSION:-}" != 1 ]; then
  KEYCHAIN_TEST_IN_SESSION=1 exec dbus-run-session -- "$0" "$@"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_DATA_HOME=$scratch/data XDG_RUNTIME_DIR=$scratch/run
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
printf 'keychain-test' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
# The workspace's feature set (as `make rust-test` builds it), so nothing is rebuilt.
cargo test --workspace --exclude loyalty-counter-e2e --features loyalty-counter/custom-protocol \
  --test core -- keychain --ignored "$@"
