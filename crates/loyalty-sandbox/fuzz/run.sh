#!/usr/bin/env bash
# Fuzzes a running loyalty-sandbox against its own OpenAPI document with schemathesis.
#
#   crates/loyalty-sandbox/fuzz/run.sh [EXAMPLES]   (default 20 examples per operation)
#
# Builds the binary, starts it on 127.0.0.1:0 with --demo --control, reads the URL and
# the test key from its first lines, lifts the demo business's rate limits (so the run
# tests the routes, not the limiter), and runs schemathesis (installed in a virtual
# environment under target/schemathesis-venv on first use) on every operation of the
# sandbox document with a fresh Idempotency-Key per call (fuzz/hooks.py) and the checks
# not_a_server_error, status_code_conformance, content_type_conformance and
# response_schema_conformance. Stops the server and exits non-zero on any failure.
set -euo pipefail

examples="${1:-20}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/schemathesis-venv"
schemathesis_version="4.32.5"

if [ ! -x "$venv/bin/schemathesis" ]; then
    echo "installing schemathesis $schemathesis_version into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "schemathesis==$schemathesis_version"
fi

(cd "$root" && cargo build --quiet -p loyalty-sandbox --bin loyalty-sandbox)

work="$(mktemp -d)"
"$target/debug/loyalty-sandbox" --listen 127.0.0.1:0 --demo --control \
    >"$work/stdout" 2>"$work/stderr" &
pid=$!
stop() {
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap stop EXIT

for _ in $(seq 1 200); do
    if grep -q '^test key: ' "$work/stdout"; then break; fi
    if ! kill -0 "$pid" 2>/dev/null; then cat "$work/stderr" >&2; exit 1; fi
    sleep 0.05
done
root_url="$(sed -n 's/^listening on //p' "$work/stdout")"
key="$(sed -n 's/^test key: //p' "$work/stdout")"
if [ -z "$root_url" ] || [ -z "$key" ]; then
    echo "the sandbox did not print its URL and test key" >&2
    exit 1
fi

"$venv/bin/python" - "$root_url" "$key" <<'PY'
import json, sys, urllib.request
root, key = sys.argv[1], sys.argv[2]
me = urllib.request.Request(f"{root}/sandbox/v1/me", headers={"Authorization": f"Bearer {key}"})
business = json.load(urllib.request.urlopen(me))["business"]["id"]
limits = {"requests_per_business": 1000000000, "requests_per_key": 1000000000,
          "writes_per_key": 1000000000, "window_seconds": 60}
patch = urllib.request.Request(f"{root}/_sandbox/businesses/{business}", method="PATCH",
                               data=json.dumps({"rate_limits": limits}).encode(),
                               headers={"Content-Type": "application/json"})
urllib.request.urlopen(patch).read()
PY

cd "$work"
SCHEMATHESIS_HOOKS=hooks PYTHONPATH="$here" "$venv/bin/schemathesis" run \
    "$root_url/sandbox/v1/openapi.json" \
    --url "$root_url/sandbox" \
    --header "Authorization: Bearer $key" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" \
    --workers 2 \
    --generation-database none \
    --no-color
