# Loyalty Counter. `make demo` and `make test` do all the set-up themselves.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
export PATH := $(HOME)/.cargo/bin:$(PATH)

# One feature set for the tests' builds, so the app, its tests and clippy share compiled
# crates. `custom-protocol` embeds ui/dist in the app instead of loading the Vite dev
# server.
FEATURES := --features loyalty-counter/custom-protocol
# Clippy's lints come with the tests' build: clippy-driver compiles the workspace's own
# crates in place of rustc (as `cargo clippy` runs it, but building instead of only
# checking), warnings denied. A `cargo clippy` apart checked all ~330 dependencies a
# second time: 5.7 of a cold `make test`'s minutes. Every target that builds or runs the
# tests' build sets the same two variables, so they share it; the app a shop runs (`make
# app`, `make bundle`) and the release builds measured (`make bench`, `make measure`) are
# compiled by rustc alone.
LINTED := test build lint rust-test e2e e2e-shots fuzz keychain-test api-fuzz bundle-test
$(LINTED): export RUSTC_WORKSPACE_WRAPPER := clippy-driver
$(LINTED): export CLIPPY_ARGS := -D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
APP := target/debug/loyalty-counter
UI_DIST := ui/dist/index.html
UI_SOURCES := $(shell find ui/src ui/public -type f 2>/dev/null) ui/index.html ui/vite.config.ts ui/package-lock.json
# The end-to-end tests need a display and a D-Bus session; Xvfb provides the display.
HEADLESS := xvfb-run -a -s '-screen 0 1280x800x24' dbus-run-session --

.PHONY: demo test setup setup-test setup-bundle ui app build lint rust-test ui-test bindings-fresh api-fuzz keychain-test kiosk-session-test fuzz e2e e2e-shots bench soak soak-short bundle bundle-test release measure

## demo: install what is missing, build, and open the app on the built-in demo business.
demo: setup app
	$(APP) --demo

## test: install what is missing, then every check and test, end-to-end included.
# The end-to-end suite leaves most of the machine idle (it waits on its window): the
# checks that need neither cargo nor the suite's ports and files run beside it, one at a
# time (`-j2`), each one's output printed whole when it ends.
# The Rust tests run beside the end-to-end tests, which mostly wait on WebKit.
test: setup-test build lint keychain-test kiosk-session-test
	$(MAKE) --no-print-directory -j2 --output-sync=target -o setup -o setup-test -o build \
	  e2e bindings-fresh ui-test api-fuzz soak-short

setup:
	@scripts/setup.sh build

setup-test:
	@scripts/setup.sh test

setup-bundle:
	@scripts/setup.sh bundle

$(UI_DIST): $(UI_SOURCES)
	npm --prefix ui run build --silent

ui: setup $(UI_DIST)

## app: only the app (what `make demo` opens).
app: ui
	cargo build -p loyalty-counter $(FEATURES)

# Everything the tests run: the app, the soak, every test binary and example (but the
# end-to-end tests', `test = false`, which `make e2e` builds in seconds), in one feature
# resolution, so the test runs below (which ask for the same workspace and features) find
# every crate built and compile nothing again. First, the app without its built-in demo
# (no local server linked) is built, lints included: the same resolution but for the
# app's own crate, which the second run builds again with the demo (so the app the tests
# start has it).
build: setup $(UI_DIST)
	@clippy-driver -V >/dev/null 2>&1 || { echo "clippy is missing: rustup component add clippy"; exit 1; }
	cargo build --workspace --all-targets --no-default-features $(FEATURES)
	cargo build --workspace --all-targets $(FEATURES)

lint: build
	# Every crate reads from the bottom up: no module uses one above it, no circle
	# (the layers each crate's root declares; crates/layers).
	cargo test -q -p layers
	cargo fmt --all --check
	# Clippy, warnings denied: `make build` gave the lints of every crate, with and
	# without the demo; the end-to-end tests (`test = false`: `--all-targets` leaves
	# them out) are built here, by name.
	cargo test --no-run --workspace --test e2e $(FEATURES)
	npm --prefix ui run check --silent

rust-test: build
	cargo test --workspace $(FEATURES)

ui-test:
	npm --prefix ui test --silent

# The outbox soak (crates/outbox-soak): writes through counter-core against the server
# under every kind of fault, the till SIGKILLed and restarted, then a reconciliation
# from the server's records and a search of the run's files for the API keys. It stops
# by itself; its last line is `writes=N faults=N kills=N lost=N doubled=N misattributed=N`
# (three people take turns at the till: each write must name the one whose turn it was).
# `soak-short` (300 writes, every fault kind, 6 kills, ~20 s) is part of `make test`;
# `soak` is the full run (5,000 writes, 61 kills, ~2.5 min). Both use the debug build:
# a release build costs ~3 min more and the run, paced like a cashier, is barely faster
# (132 s against 149 s). Data, logs and captured output: target/outbox-soak/.
# Built by `make build` with the workspace's one feature set, so nothing is compiled twice.
soak-short: build
	target/debug/outbox-soak short

## soak: the full outbox soak, and 10,000 runs of shifts under faults (not part of `make test`).
soak: build
	target/debug/outbox-soak full
	SHIFT_RUNS=10000 cargo test -q -p counter-core --test core shift_runs -- --nocapture

# The TypeScript types of the IPC (ts-rs) and the man page (clap_mangen) are generated
# from Rust by the Rust tests; committed copies that differ mean someone changed one side.
GENERATED := ui/src/lib/ipc/bindings packaging/loyalty-counter.1
bindings-fresh: rust-test
	git diff --exit-code -- $(GENERATED) || \
	  { echo "$(GENERATED): stale, commit the regenerated files"; exit 1; }

# The local server against its own OpenAPI document (schemathesis, in a venv under
# target/): a short run in `make test`, a longer one in `make fuzz`.
api-fuzz: build
	SANDBOX_BUILT=1 crates/loyalty-sandbox/fuzz/run.sh 20

# `make fuzz`: the local server's fuzz, longer; then every command of the app through
# its real window, 50 times the calls of `make test` (FUZZ_SEED=n replays a run).
fuzz: build
	crates/loyalty-sandbox/fuzz/run.sh 300
	FUZZ_ROUNDS=50 $(HEADLESS) cargo test --workspace $(FEATURES) --test e2e -- --test-threads=1 --nocapture fuzz::

# The keychain path shops use: gnome-keyring's Secret Service in a private D-Bus session;
# the key lands there, in no file, and a restart finds it.
keychain-test: build
	scripts/keychain-test.sh

# The kiosk login session the .deb ships, run for real, twice: cage (headless, then drawing
# into Xvfb for screenshots) runs its restart loop, which runs the app's demo; the window
# alone fills the screen, the app killed is back within 5 s, and ending the loop ends the
# session (~25 s).
kiosk-session-test: build
	scripts/kiosk-session-test.sh

## e2e: only the end-to-end tests, on the built app under Xvfb (one at a time: fixed ports).
# Asked as `--workspace --test e2e` (not `-p`): the workspace's feature set, so the
# binary `make build` made is the one that runs. Then what the tests' tills left on the
# disk: no API key outside its key file; no file or folder another user may read, no
# whole gift-card id or email address in any file, each till's database encrypted and
# opening with the key the app keeps (`till-files`, tests/src/till_files.rs).
e2e: build
	rm -rf target/e2e-home target/axe-review.txt target/axe-screens.txt
	$(HEADLESS) cargo test --workspace $(FEATURES) --test e2e -- --test-threads=1
	scripts/no-key-outside-key-files.sh target/e2e-home
	target/debug/till-files target/e2e-home
	@echo "axe-core: $$(grep -vc '^planted' target/axe-screens.txt) screen states audited ($$(grep -v '^planted' target/axe-screens.txt | sort -u | wc -l) distinct), no violation; what it could not decide, for a person:"
	@sort -u target/axe-review.txt 2>/dev/null || echo "(nothing)"

## e2e-shots: a screenshot of every screen, in target/e2e-shots/.
e2e-shots: build
	rm -rf target/e2e-shots
	E2E_SHOTS_DIR=$(CURDIR)/target/e2e-shots $(HEADLESS) cargo test --workspace $(FEATURES) --test e2e -- --test-threads=1
	@ls target/e2e-shots

## bench: throughput and latency figures (release builds; not part of `make test`); last,
## the camera's frame → card on screen, in the real window (the debug build of the shell,
## whose camera crates are optimised in every build).
bench: setup-test build
	cargo run --release -p loyalty-sandbox --example load
	cargo run --release -p counter-core --example bench
	cargo run --release -p counter-camera --example decoding
	$(HEADLESS) target/debug/examples/measure camera

# The Tauri CLI from the UI's npm packages, told where each app is (two tauri.conf.json
# live in this tree). Make has built the UI already: no `beforeBuildCommand`.
TAURI := TAURI_APP_PATH=$(CURDIR)/src-tauri TAURI_FRONTEND_PATH=$(CURDIR)/ui ui/node_modules/.bin/tauri
BARE_TAURI := TAURI_APP_PATH=$(CURDIR)/tests/bare-window TAURI_FRONTEND_PATH=$(CURDIR)/tests/bare-window ui/node_modules/.bin/tauri

## bundle: the .deb a shop installs (a release build, ~10 min cold), checked as a package.
# Signed for the project's repository: with LOYALTY_COUNTER_RELEASE_KEY unset, a local test
# key (scripts/release.sh says which).
bundle: setup-bundle $(UI_DIST)
	scripts/release.sh deb
	scripts/package-check.sh

## release: the .deb published into the signed apt repository the tills update from
## (reprepro; REPO, default target/apt-repo: serve REPO/public at REPO_URL).
REPO ?= target/apt-repo
release: bundle
	scripts/release.sh publish $(REPO) target/release/bundle/deb/loyalty-counter_$$(sed -n 's/^version = "\(.*\)"$$/\1/p' Cargo.toml | head -n1)_$$(dpkg --print-architecture).deb

## bundle-test: as root, the package end to end: two versions built from this tree and
## published to a signed repository on a loopback port, the first installed with apt,
## the running app upgraded by unattended-upgrade and restarting into it by itself, its
## queue sent once; a repository signed by another key, and a downgrade, refused.
# The sandbox and the till's helper (`upgrade-till`) come from the tests' build.
bundle-test: setup-bundle build
	scripts/bundle-test.sh

## measure: start-up, memory, sizes and latencies of the release build, beside a bare
## Tauri 2 window from the same profile (tests/bare-window); not part of `make test`.
measure: bundle build
	$(BARE_TAURI) build --ci --bundles deb
	LOYALTY_COUNTER_APP=$(CURDIR)/target/release/loyalty-counter \
	  BARE_WINDOW_APP=$(CURDIR)/target/release/bare-window \
	  $(HEADLESS) target/debug/examples/measure
