#!/usr/bin/env bash
# Fuzzes a running loyalty-sandbox against its own OpenAPI document with schemathesis.
#
#   crates/loyalty-sandbox/fuzz/run.sh [EXAMPLES]   (default 20 examples per operation)
#   crates/loyalty-sandbox/fuzz/run.sh --install    (only schemathesis's environment)
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
# `run.sh --install`: only the above (scripts/setup.sh, while the rest installs).
[ "$examples" = --install ] && exit 0

# The workspace's one build (as `make build` runs it): asking for this binary alone
# would resolve other features and compile half the dependencies again. `make` has built
# it already (SANDBOX_BUILT=1), and runs this beside the end-to-end suite, whose app a
# build that links its binaries again must not touch.
if [ -z "${SANDBOX_BUILT:-}" ]; then
    (cd "$root" && cargo build --quiet --workspace --all-targets --features loyalty-counter/custom-protocol)
fi

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

(cd "$work" && "$venv/bin/python" - "$root_url" "$key") <<'PY'
import datetime, json, sys, urllib.request
root, key = sys.argv[1], sys.argv[2]
me = urllib.request.Request(f"{root}/sandbox/v1/me", headers={"Authorization": f"Bearer {key}"})
business = json.load(urllib.request.urlopen(me))["business"]["id"]
limits = {"requests_per_business": 1000000000, "requests_per_key": 1000000000,
          "writes_per_key": 1000000000, "window_seconds": 60}
patch = urllib.request.Request(f"{root}/_sandbox/businesses/{business}", method="PATCH",
                               data=json.dumps({"rate_limits": limits}).encode(),
                               headers={"Content-Type": "application/json"})
urllib.request.urlopen(patch).read()

# Ids that exist, for the hooks to put in requests (no schema can say an id exists).
def api(method, path, body=None, idem=None):
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    if idem:
        headers["Idempotency-Key"] = idem
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"{root}/sandbox{path}", method=method, data=data, headers=headers)
    return json.load(urllib.request.urlopen(req))
customer = api("GET", "/v1/customers?limit=1")["data"][0]
gift = api("POST", "/v1/gift_cards", {"amount": 500, "currency": "EUR",
           "recipient": {"name": "Fuzz", "email": "fuzz@example.com"}}, idem="fuzz-gift-card")
claim = urllib.request.Request(f"{root}/_sandbox/gift_cards/{gift['id']}/claim", method="POST",
                               data=b"{}", headers={"Content-Type": "application/json"})
urllib.request.urlopen(claim).read()
message = {"pass_id": customer["pass_id"], "title": "Fuzz", "body": "A message to cancel.",
           "audience": "all", "scheduled_at": (datetime.datetime.now(datetime.timezone.utc)
                                              + datetime.timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")}
preview = api("POST", "/v1/broadcasts", message, idem="fuzz-preview")
scheduled = api("POST", "/v1/broadcasts/confirm",
                dict(message, confirmation_token=preview["confirmation_token"]), idem="fuzz-confirm")
with open("ids.json", "w") as out:
    json.dump({"root": f"{root}/sandbox", "key": key,
               "customer": customer["id"], "card": customer["cards"][0]["id"],
               "pass": customer["pass_id"], "gift_card": gift["id"],
               "broadcast": scheduled["id"]}, out)
PY

cd "$work"
FUZZ_IDS="$work/ids.json" SCHEMATHESIS_HOOKS=hooks PYTHONPATH="$here" "$venv/bin/schemathesis" run \
    "$root_url/sandbox/v1/openapi.json" \
    --url "$root_url/sandbox" \
    --header "Authorization: Bearer $key" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" \
    --workers 2 \
    --generation-database none \
    --no-color "${@:2}"
