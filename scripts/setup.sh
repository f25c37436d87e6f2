#!/usr/bin/env bash
# Installs what is missing, and only that: Debian packages, the UI's npm packages from the
# lock file, and (for tests) tauri-driver. Safe to run again; fast when all is there.
#
#   scripts/setup.sh build   what `make demo` needs
#   scripts/setup.sh test    that, plus what the tests need
#   scripts/setup.sh bundle  that, plus Debian's checkers for the package and the apt
#                            repository's tools (reprepro, gnupg, unattended-upgrades)
set -euo pipefail
cd "$(dirname "$0")/.."

need=${1:-build}

build_packages=(libwebkit2gtk-4.1-dev build-essential file pkg-config libxdo-dev libssl-dev libdbus-1-dev
  cmake libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-good
  libayatana-appindicator3-dev librsvg2-dev)
bundle_packages=(lintian appstream desktop-file-utils man-db dpkg-dev gnupg reprepro curl unattended-upgrades
  fonts-dejavu-core gstreamer1.0-plugins-base)
test_packages=(xvfb xauth webkit2gtk-driver dbus dbus-x11 imagemagick xdotool x11-xkb-utils openbox wmctrl python3-venv gnome-keyring
  cage xwayland)

say() { printf 'setup: %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else say "needs root to run: $*"; exit 1
  fi
}

install_debian_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  say "installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

check_toolchains() {
  command -v cargo >/dev/null || { say "Rust is missing: install it with rustup (https://rustup.rs)"; exit 1; }
  if ! command -v node >/dev/null; then
    install_debian_packages nodejs npm
  fi
  # Vite 8 needs Node 20.19 or later.
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
    { say "Node.js $(node --version) is too old: the UI build needs 20.19 or later"; exit 1; }
}

install_ui_packages() {
  # npm ci wipes node_modules, so run it only when the lock file changed since last time.
  local stamp=ui/node_modules/.installed-from-lock
  if [ ! -f "$stamp" ] || ! cmp -s ui/package-lock.json "$stamp"; then
    say "installing the UI's npm packages (npm ci)"
    (cd ui && npm ci --no-audit --no-fund --loglevel=error)
    cp ui/package-lock.json "$stamp"
  fi
}

install_tauri_driver() {
  command -v tauri-driver >/dev/null && return
  say "installing tauri-driver from crates.io"
  # Built as any crate from crates.io: not through the project's lints (the Makefile
  # has clippy-driver build the workspace's own crates, warnings denied).
  env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS cargo install tauri-driver --locked --quiet
}

# What runs in the background is stopped if the rest fails.
jobs_started=()
trap 'for job in "${jobs_started[@]}"; do kill "$job" 2>/dev/null || true; done' EXIT
start_driver() {
  install_tauri_driver &
  driver=$!
  jobs_started+=("$driver")
}

check_toolchains
packages=("${build_packages[@]}")
if [ "$need" = test ] || [ "$need" = bundle ]; then
  packages+=("${test_packages[@]}")
  # tauri-driver needs only a C toolchain to link: where one is there already, it
  # compiles while apt and npm download and unpack.
  if command -v cc >/dev/null; then start_driver; fi
fi
if [ "$need" = bundle ]; then
  packages+=("${bundle_packages[@]}")
fi
# One apt-get run for all that is missing (one update of the lists, one install).
install_debian_packages "${packages[@]}"
if [ "$need" = test ] || [ "$need" = bundle ] && [ -z "${driver:-}" ]; then
  start_driver
fi
if [ "$need" = test ]; then
  # The API fuzz's schemathesis (PyPI) installs while npm does (it needs python3-venv).
  crates/loyalty-sandbox/fuzz/run.sh --install &
  fuzzer=$!
  jobs_started+=("$fuzzer")
fi
install_ui_packages
if [ -n "${driver:-}" ]; then
  wait "$driver" || { say "tauri-driver did not install"; exit 1; }
fi
if [ -n "${fuzzer:-}" ]; then
  wait "$fuzzer" || { say "schemathesis did not install"; exit 1; }
fi
jobs_started=()
