"""Schemathesis hooks for fuzz/run.sh: a fresh Idempotency-Key on every call.

Every write of the API needs an Idempotency-Key, and a key reused with another
body answers 422 idempotency_key_reused; a fresh UUID per call lets every
generated request reach the write it exercises.
"""

import uuid

import schemathesis


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.headers is None:
        case.headers = {}
    case.headers["Idempotency-Key"] = str(uuid.uuid4())
