#!/usr/bin/env bash
# The keychain path shops use, tested for real: gnome-keyring's Secret Service, unlocked
# in a private D-Bus session with a throw-away keyring (never the user's own), then the
# ignored keychain test of counter-core against it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${KEYCHAIN_TEST_IN_SESSION:-}" != 1 ]; then
  # counter-core's test binary as `make build` built it (same workspace and features,
  # so cargo only names it), run directly inside the session below.
  tests=$(cargo test --workspace --features loyalty-counter/custom-protocol \
    --no-run 2>&1 | sed -n 's|.*tests/core/main.rs (\(.*\))$|\1|p')
  [ -x "$tests" ] || { echo "keychain-test: counter-core's test binary was not found" >&2; exit 1; }
  KEYCHAIN_TEST_IN_SESSION=1 KEYCHAIN_TEST_BINARY=$tests exec dbus-run-session -- "$0" "$@"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_DATA_HOME=$scratch/data XDG_RUNTIME_DIR=$scratch/run
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
printf 'keychain-test' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
"$KEYCHAIN_TEST_BINARY" keychain --ignored "$@"
