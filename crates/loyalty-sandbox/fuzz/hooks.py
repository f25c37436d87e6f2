"""Schemathesis hooks for fuzz/run.sh.

- A fresh Idempotency-Key on every call: every write needs one, and a key reused
  with another body answers 422 idempotency_key_reused.
- What no schema can say: most generated requests name a card, pass, customer, gift
  card or scheduled message of the demo business that exists (the rest keep their
  generated ids, so "not found" stays covered), a message's `scheduled_at` is
  tomorrow or null, and a confirmation carries a token just previewed for its
  message. So the fuzzer's valid requests reach the service's rules instead of
  bouncing off a 404, a date in the past or a token nobody issued.
"""

import datetime
import json
import os
import random
import urllib.error
import urllib.request
import uuid

import schemathesis

with open(os.environ["FUZZ_IDS"]) as ids_file:
    IDS = json.load(ids_file)

# Seeded: a run is repeatable with the same schemathesis seed.
CHOICE = random.Random(0x5EED)


def _often():
    return CHOICE.random() < 0.7


def _tomorrow():
    at = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
    return at.strftime("%Y-%m-%dT%H:%M:%SZ")


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.headers is None:
        case.headers = {}
    case.headers["Idempotency-Key"] = str(uuid.uuid4())

    path = case.operation.path
    params = case.path_parameters if case.path_parameters is not None else {}
    if "id" in params and _often():
        if path.startswith("/v1/gift_cards/"):
            params["id"] = IDS["gift_card"]
        elif path.startswith("/v1/customers/"):
            params["id"] = IDS["customer"]
        elif path.startswith("/v1/passes/"):
            params["id"] = IDS["pass"]
        elif path.startswith("/v1/broadcasts/"):
            params["id"] = IDS["broadcast"]

    body = case.body
    if not isinstance(body, dict):
        return
    if "card_id" in body and _often():
        body["card_id"] = IDS["card"]
    if "location_id" in body and _often():
        body["location_id"] = None
    # `amount` belongs to points scans; the generator adds it elsewhere as an extra
    # property (the schema allows unknown ones, which the server ignores, but not this).
    if path == "/v1/scans" and body.get("kind") in ("visit", "redeem"):
        body.pop("amount", None)
    # The generator does not honour a fractional multipleOf: cents, as documented.
    if path == "/v1/gift_cards" and isinstance(body.get("amount"), float) and body["amount"] >= 0.01:
        body["amount"] = round(body["amount"], 2)
    if "pass_id" in body and _often():
        body["pass_id"] = IDS["pass"]
    if path.endswith("/payments") and _often():
        body["currency"] = "EUR"
    if path.startswith("/v1/broadcasts") and body.get("scheduled_at") is not None:
        body["scheduled_at"] = _tomorrow() if CHOICE.random() < 0.5 else None
    if path == "/v1/broadcasts/confirm" and _often():
        token = _preview(body)
        if token is not None:
            body["confirmation_token"] = token


def _preview(body):
    """A confirmation token for the message in `body`, or None when it is refused."""
    message = {k: v for k, v in body.items() if k != "confirmation_token"}
    request = urllib.request.Request(
        f"{IDS['root']}/v1/broadcasts",
        method="POST",
        data=json.dumps(message).encode(),
        headers={
            "Authorization": f"Bearer {IDS['key']}",
            "Content-Type": "application/json",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return json.load(answer).get("confirmation_token")
    except (urllib.error.URLError, ValueError):
        return None
