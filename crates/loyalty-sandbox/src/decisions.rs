//! # Decisions: every choice the spec leaves open, and the answer taken
//!
//! `api-v1.md` marks some points "not shown"; `sandbox-control.md` fixes some and
//! leaves others to the implementation. This page lists each choice this server
//! made, so a client, a test or part 2 can rely on it. (Part 2 — messages, stats,
//! webhook delivery, OpenAPI — adds its own section.)
//!
//! ## Wire conventions
//!
//! - **Problem `type`**: `https://loyalty-counter.example/developers/errors#<code>`
//!   ([`crate::error::SITE_URL`]). `param` is omitted when no field is concerned.
//! - **Success status**: every answer that succeeds is `200 OK`, writes included
//!   (one status to branch on; the body's `object` says what it is).
//! - **Ids**: `<prefix>_` and 24 random base62 characters (`biz_`, `key_`, `pass_`,
//!   `cus_`, `card_`, `scan_`, `gc_`, `gctx_` for ledger entries and payments, `loc_`,
//!   `ref_`, `we_`, `evt_`, `eff_`, `req_` for request ids). A business created with
//!   `"plain_ids": true` (an extension of `POST /_sandbox/businesses`, default false)
//!   gives its cards and gift cards the 24 characters alone, no prefix: the API says
//!   ids are strings, and a client must not depend on this server's prefixes.
//! - **Keys**: `lc_live_` / `lc_test_` and 32 base62 characters; `prefix` is the first
//!   12 characters. Stored as SHA-256 only, compared in constant time.
//! - **Timestamps**: UTC, milliseconds, `Z`. **Money**: decimal strings with exactly
//!   two decimals, as the contract fixes (JPY 500 is `"500.00"`; `amount_minor` stays
//!   in the currency's real ISO 4217 minor unit, so that card's `amount_minor` is
//!   500). A currency whose minor unit has more than two decimals (BHD, KWD, OMR, ...)
//!   cannot be shown in two decimals without rounding, so `POST /v1/gift_cards`
//!   refuses it: 422 validation_failed, `param` `currency`, item code
//!   `invalid_value`. Currencies without a minor unit in ISO 4217 (XAU, XDR, ...) are
//!   refused the same way.
//! - **Numbers** in bodies are read exactly from their JSON text
//!   ([`crate::http::number`]), never through `f64`: `10.000000000000000001` EUR is
//!   refused (more decimals than the currency's), not issued as `"10.00"`. Any JSON
//!   spelling of a value is that value (`1e2`, `100.0` and `100` are 100), whole-number
//!   fields included (`amount_minor`, points, counts: a number whose exact value is
//!   whole, as JSON Schema's `integer`; `100.0000000000000000001` is not). A value
//!   beyond a decimal's reach answers 422 validation_failed: `out_of_range` at 2^96 or
//!   more, `invalid_value` (`invalid_type` for a whole-number field) past 28
//!   decimals; a whole number beyond `i64` is `out_of_range`. A number beyond a
//!   double's range anywhere in a body (`1e400`) refuses the body as a whole (422,
//!   `invalid_json`), since the body is also parsed as plain JSON. serde_json's
//!   `arbitrary_precision` was not used: features unify across the workspace, and it
//!   would change number handling in every crate that embeds this server.
//! - **Unknown fields** of a body and **unknown query parameters** are ignored
//!   (v1 only ever adds). A repeated query parameter answers invalid_parameter.
//! - **Bodies** larger than 64 KiB answer 422 validation_failed (`body`, `too_long`).
//! - **Codes inside `errors` items**: `required`, `invalid_type`, `invalid_value`,
//!   `too_long`, `out_of_range`, `invalid_json`, `unsupported_content_type`.
//! - **Extra members**: `customer_exists` also carries `customer_id` (the same id the
//!   detail names); `scan_result` also carries `id` (the scan's id).
//!
//! ## Routing, authentication, limits
//!
//! - Unknown routes answer 404 not_found and wrong methods 405 method_not_allowed
//!   (both problems, before authentication). `OPTIONS` is a wrong method: no CORS
//!   header is ever sent.
//! - Authentication order: credentials, key state, place, plan, scope, then the rate
//!   limit (see [`crate::http::auth`]). A header that is not `Bearer <token>` is
//!   authentication_required; `lco_...` tokens and JWT-shaped tokens are
//!   not_supported_yet; anything else unknown is invalid_api_key.
//! - `forbidden` is never sent in part 1 (no per-business refusal exists beyond the
//!   others); `test_key_not_supported` is never sent (as the spec says);
//!   `rate_limiter_unavailable` is never sent (limits are in memory) and
//!   `service_unavailable` only through `/_sandbox/faults`.
//! - **Rate limits** ([`crate::ratelimit`]): defaults `requests_per_key` 6000,
//!   `requests_per_business` 12000, `writes_per_key` 1200, `window_seconds` 60, fixed
//!   windows on the server's clock. The business counter spans all its keys in both
//!   places. Refused requests are not counted. `RateLimit` always reports the key's
//!   window. Requests with no authenticated key (401, unknown routes, control routes)
//!   report the default policy with the whole quota left (`r` = `q`).
//! - Failed authentications are limited per client address: after 100 in a minute,
//!   429 rate_limited until the minute ends.
//!
//! ## Idempotency ([`crate::http::write`])
//!
//! - A malformed `Idempotency-Key` (empty, over 255, or not visible ASCII) answers
//!   422 validation_failed with `param` `Idempotency-Key` (missing is 400
//!   idempotency_key_required).
//! - Same request = same API key, same path (without `/sandbox`) and the same body
//!   as canonical JSON: key order does not matter, and numbers are compared by their
//!   exact value (`10`, `10.00` and `1e1` are the same request; `10` and
//!   `10.000000000000000001`, which `f64` made equal, are not). A body refused as not
//!   JSON (a wrong `Content-Type` included) never matches a JSON one: the same bytes
//!   sent as `text/plain` under a stored key answer idempotency_key_reused, where they
//!   were replayed.
//! - `409 idempotency_in_progress` carries `Retry-After: 1`.
//! - A replay answers the stored status and body with `Idempotent-Replayed: true`;
//!   its `Request-Id` header is the new request's, the body keeps the first one's.
//! - The stored answer is found before the body is validated: a stored key reused
//!   with a malformed body answers idempotency_key_reused.
//!
//! ## Lists ([`crate::http::list`])
//!
//! - Default `limit` 20, at most 100; `limit` is decimal digits only (`+5`, `5.0`,
//!   `-1` and an empty value answer invalid_parameter). Order: `created_at` descending, then id
//!   descending; ids sort by creation ([`crate::ids`]), so items made in the same
//!   millisecond still come newest first.
//! - Filters: passes `status`; customers `email` (exact, case-insensitive) and
//!   `pass_id`; scans `customer_id` and `kind` (`visit`, `points`); gift cards
//!   `status`. Locations, referrals and webhook endpoints have none.
//! - A changed `limit` keeps a cursor valid (it is not a filter); anything else
//!   changed answers invalid_cursor. Cursors survive restarts (their key is in the db).
//!
//! ## Resources
//!
//! - **pass**: `tier_rewards` is always `[]` (no tiers here); `logo_url` and
//!   `cover_image_url` are null; colours are fixed.
//! - **card**: `status` is `active`, `deleted` (its customer was deleted, or the
//!   control route) or `replaced` (control route); nothing brings a card back to
//!   active. `wallet` is `apple` or `google`.
//! - **scan** records: `kind` is `visit` or `points` (a points deduction is a
//!   `points` scan with negative `points`). `amount` is the request's amount with two
//!   decimals (`"0.00"` for a visit); `points` is the change really applied.
//!   Redemptions are stored (for the undo) but never listed.
//! - **customer**: `phone` is null for customers enrolled through the API (the API has
//!   no phone field); demo customers have one.
//! - **referral**: places are separate, so live lists never meet a test card, and
//!   the sandbox lists its own referrals (all between demo, i.e. test, cards) just as
//!   the contract has the sandbox list its own scans; the demo holds three.
//! - **webhook endpoints** belong to the business, not a place: both places list
//!   all of them (`test_events` is shown too).
//! - **gift card**: `template_id` is `tmpl_` plus the pass id's tail; the card is
//!   linked (`customer_id`) to the customer of the pass with the recipient's email,
//!   if any. Its ledger starts with an `issue` entry; payments are `spend` entries.
//!   A payment's id is its ledger entry's id. The spec's "move into cancelled" is the
//!   control route (from issued or active; a depleted card stays depleted).
//!
//! ## Writes
//!
//! Body rules are listed in [`crate::http::writes`]. Rules of scans are in
//! [`crate::rules::scan`] (what reaching the goal does: a reward is earned and the
//! count starts again from 0; points never go past the goal), of payments in
//! [`crate::rules::payment`] (check order: status, currency, balance).
//! Enrolment checks the pass, then the email (`customer_exists`), then the allowance
//! (`customer_limit_reached`: the business's `customer_limit` live, 500 in the
//! sandbox). Extension: `location_id` is accepted on scans and payments and must
//! be a location of the place (404 not_found, `param` location_id).
//!
//! ## Effects and events
//!
//! Every effect has `kind`, `at`, `place`, `sent` and `reason` (`null` when sent,
//! `"sandbox"` in the sandbox, where nothing is sent). Emails add `to`, `template`
//! (`welcome`, `gift_card_issued`, `gift_card_receipt`), `locale`; wallet updates add
//! `card_id` or `gift_card_id`; team notices add `message`, `customer_id`.
//! Events are rows of the `events` table written in the write's transaction:
//! `customer.created` (`data.object` = the customer), `scan.recorded` (`data.object`
//! = the scan_result; redemptions included), `gift_card.spent` (`data.object` = the
//! payment), `scan.voided` (the 2026-11 payload; see [`crate::actions::undo`]).
//! `livemode` is false in the sandbox. Delivery is part 2's worker.
//!
//! ## Control routes
//!
//! - **Content type.** Every control request but GET and HEAD must say
//!   `Content-Type: application/json` (or `application/*+json`), even with an empty
//!   or `{}` body (revoke, claim, cancel); a DELETE without any `Content-Type` passes
//!   (the contract gives it no body). Otherwise: 400 invalid_request, `param`
//!   `Content-Type`, item code `unsupported_content_type`, and nothing is done. Why:
//!   a web page can have a browser POST cross-origin without a preflight only as
//!   `text/plain`, form-urlencoded, multipart or with no type, and the till's
//!   embedded demo server runs with its control routes on loopback. 400 rather than
//!   415: the contract answers 400 for a bad body, and a client of the contract
//!   branches on that (the API's own writes answer 422 validation_failed with the
//!   same item, as before).
//! - A control body over 1 MiB answers 400 invalid_request (`param` `body`), as any
//!   bad body does. Every error answer of the server, whatever layer made it, is
//!   problem+json ([`crate::http`]'s outer middleware replaces a bare one).
//! - Defaults of `POST /_sandbox/businesses`: name `Business`, plan `enterprise`.
//!   `plan` is one of `free`, `pro`, `enterprise` (the contract's plan names; any
//!   other answers 400), in `PATCH` too. `rate_limits` values are integers from 1 to
//!   1000000000, `window_seconds` from 1 to 86400 (one day).
//!   The sandbox's demo pass copies the live pass's rules (type, goal, reward), or is
//!   the default ten-visit pass when the business has none; its demo scans follow it.
//! - `POST /_sandbox/keys`: `scopes` defaults to all six. `POST /_sandbox/clock`:
//!   `advance_seconds` must be 0 or more (the clock only moves forward), and an
//!   advance that would pass the year 9999 answers 400 with the clock unchanged.
//!   Every answer's `Date` header is the server clock too (so a client that checks its
//!   own clock against the service's sees the moved clock, as it would a real skew).
//! - `/_sandbox/undo`: 409 `undo_window_passed` after five seconds, 409
//!   `nothing_to_undo` when there is no scan or spend left to undo.
//! - `/_sandbox/seed`: customers enrolled over the past 90 days and scans after their
//!   enrolment, 15 minutes apart per card, applied by the rules; scans that would fall
//!   after now are dropped, so `scans` in the answer may be a little lower than asked.
//!   With `customers` 0 the scans go to the place's existing active cards. A sandbox
//!   never goes past 500 customers (400); a live seed ignores the plan's
//!   `customer_limit` (it is a tool for load work). Same seed, same data (ids aside).
//! - `/_sandbox/faults`: `path` is a route prefix matched by whole segments
//!   (`/v1/scan` does not meet `/v1/scans`). A path under `/v1` matches in both places
//!   (`/v1/scans` also meets `/sandbox/v1/scans`: a client's tests arm the API path
//!   whatever base URL they point at); a path under `/sandbox/v1` only the sandbox.
//!   Faults apply to `/v1` and `/sandbox/v1` routes only. `status` must be 400–599; a 429 or 503 fault carries Retry-After: 1.
//!   Extensions: `delay_ms`, `DELETE /_sandbox/faults`, `GET /_sandbox/events`,
//!   `GET /_sandbox/gift_cards/{id}/transactions` (see [`crate::http::control`]).
//! - Claiming an active card answers it unchanged; claiming a cancelled or depleted
//!   card answers 409 gift_card_cancelled / gift_card_depleted.
//!
//! ## Storage and durability
//!
//! One SQLite connection behind a mutex, used from `spawn_blocking`: the single
//! writer that makes payments on one card strictly sequential. Every write is one
//! `BEGIN IMMEDIATE` transaction holding the change, its effects, its events and its
//! stored idempotent answer. A file database uses WAL with `synchronous=FULL`, so a
//! write is on disk before it is answered (it survives `kill -9`). Without `--db`
//! the database is in memory. The schema version is `PRAGMA user_version` (now 2:
//! version 2 adds messages, their tokens and webhook deliveries).
//!
//! # Part 2
//!
//! ## Messages (broadcasts) ([`crate::actions::broadcasts`], [`crate::http::broadcasts`])
//!
//! - **Request fields**: `pass_id`, `title` (≤ 100), `body` (≤ 1000), `audience`
//!   (required), `scheduled_at` (timestamp with a zone, or null = at once) and
//!   `targeting` (object or null), the same in the preview and the confirm, which adds
//!   `confirmation_token`. A preview's `scheduled_at` must be in the future and at
//!   most 365 days ahead (422 validation_failed, `out_of_range`).
//! - **Audience values**: `active` (people holding an active card on the pass) and
//!   `all` (every customer of the pass; one without an active card gets the message
//!   by email). Deleted customers are never reached.
//! - **Targeting**: `visited_within_days` (1–366, a visit or points scan within that
//!   many days of the send) and `has_reward` (boolean, a reward ready or not); other
//!   members are refused (422, `invalid_value`) rather than ignored, since an ignored
//!   condition would reach more people than meant. With a targeting, only cards are
//!   reached (no email fallback).
//! - **Recipients**: `cards` = active cards reached, `people` = distinct people
//!   reached (card holders plus email-only people). `recipient_count` = deliveries
//!   (one per card, one per email-only person); `message.translated` is always false
//!   (no translation here).
//! - **Token**: `bct_` + 32 base62, stored as SHA-256; life 10 minutes by the server
//!   clock (still good at exactly 10:00.000, expired after). Checks in this order:
//!   unknown → 400 confirmation_token_invalid (a token from another server is
//!   unknown), other business or place → 403 confirmation_business_mismatch, other
//!   key → 403 confirmation_principal_mismatch, used → 409, expired → 410, message
//!   differs → 422 confirmation_payload_changed (fingerprint: SHA-256 of the canonical
//!   message; `scheduled_at` compared as an instant, an empty `targeting` equals none),
//!   then 404 for a pass gone, 403 broadcast_not_in_plan / broadcast_quota_reached,
//!   and 409 confirmation_audience_changed when `cards` or `people` grew. A refusal
//!   leaves the token as it was; a smaller audience is sent.
//! - **Status strings**: `sending` (the confirm's answer for a message sent at once,
//!   `sent_count` 0), `scheduled`, `sent` (stored once delivered; delivery is simulated
//!   inside the sending transaction, so a message sent at once is stored `sent` when
//!   the confirm commits), `cancelled`. A cancel of `sending`/`sent` answers 409
//!   broadcast_already_sent; a cancel of `cancelled` answers the stored cancel again.
//!   Cancel ids of another business or place are 404.
//! - **Delivery effects**: one `broadcast_delivery` per recipient (`broadcast_id`,
//!   `channel` `wallet` with `card_id`, `customer_id`, `wallet`; or `email` with
//!   `customer_id`, `to`), then an `owner_notice` and an owner `email` (template
//!   `broadcast_sent`, `to` `"owner"`: the owner's address is not modelled), both
//!   carrying `key_id`, `key_prefix` and a message naming the key. In the sandbox
//!   they are `sent: false, reason: "sandbox"`. A scheduled message is delivered (and
//!   the owner told) when it goes out, to the audience of that moment.
//! - **Quota** (per place: the sandbox has its own month): `total` =
//!   `monthly_messages`; one message uses one whatever its recipients. Months are
//!   calendar months in the business's time zone. A message counts in the month it
//!   goes out (`scheduled_at`, or the confirm's time); cancelled ones do not count.
//!   `remaining` in a preview is before this message. `monthly_messages` 0 is
//!   broadcast_not_in_plan (plans without API access never get this far: 403
//!   plan_required). Both are checked at the preview and again at the confirm.
//! - **Scheduled messages go out** in the background worker ([`crate::worker`], every
//!   200 ms) once the server clock passes `scheduled_at`, and inside
//!   `POST /_sandbox/clock` before it answers, so moving the clock sends them
//!   deterministically. A confirm whose `scheduled_at` passed meanwhile sends at once.
//! - **Revoking a key** (`/_sandbox/keys/{id}/revoke`) cancels its scheduled messages
//!   in the same transaction (`cancelled_at` = the revocation time).
//!
//! ## Stats ([`crate::rules::stats_period`], [`crate::store::stats`])
//!
//! Period: `from`/`to` as `YYYY-MM-DD`, both included, whole days in the business's
//! zone (a day runs from its first instant to the next day's, DST aware). Neither →
//! today and the 29 days before; only `to` → it and the 29 before; only `from` → up
//! to today. `from` after `to` or more than 366 days → 400 invalid_parameter `from`;
//! a malformed or impossible date → invalid_parameter naming it. Figures, over that
//! span and the request's place, from stored rows:
//!
//! - `scans`: visits and points scans not undone (what `GET /v1/scans` lists);
//!   `visits`: those of kind `visit`;
//! - `active_customers`: distinct customers of those scans (deleted ones included:
//!   their scans stay); `returning_customers`: those of them with such a scan before
//!   the period;
//! - `new_customers`: customers created in the period (deleted ones included);
//! - `rewards_earned`: those scans that earned a reward; `rewards_redeemed`:
//!   redemptions not undone; `gift_cards_issued`: gift cards created in the period,
//!   whatever their status now.
//!
//! ## Webhook deliveries ([`crate::webhooks`], [`crate::store::deliveries`])
//!
//! - **Envelope and headers**: body `{id, type, created_at, livemode, data}` (`data`
//!   as recorded: `{object: ...}` for customer.created, scan.recorded and
//!   gift_card.spent; the 2026-11 fields for scan.voided); `webhook-id` = the event
//!   id (the same on retries), `webhook-timestamp` = seconds by the server clock at
//!   the attempt, `webhook-signature` = `v1,` + base64 HMAC-SHA256 of
//!   `id.timestamp.body` with the decoded `whsec_` secret; `content-type:
//!   application/json`.
//! - **Who receives**: every endpoint of the business with status `active`,
//!   subscribed to the type, registered before the event; live events to all of
//!   them, sandbox events (`livemode: false`) only where `test_events` is true.
//!   `format` is stored and shown; only `v2` exists, so it changes nothing.
//! - **Attempts**: 2xx within 5 s is success; anything else, a 3xx (redirects are
//!   not followed) or no answer is a failure. Retries after 5 s, 30 s, 2 min,
//!   10 min, 1 h and 6 h by the server clock (7 attempts), then the delivery is
//!   given up. Each attempt is a `webhook_delivery` effect (`event`, `event_id`,
//!   `endpoint_id`, `livemode`, `http_status` or null, `status`, `attempt`;
//!   `sent: true` in both places).
//! - **Health**: `last_delivery.status` is `succeeded` or `failed`;
//!   `consecutive_failures` counts failed attempts since the last success;
//!   `failing_since` is the first of them; a success resets both. After **10**
//!   consecutive failed attempts the endpoint's `status` becomes `paused`
//!   (`paused_at`, `paused_reason` `consecutive_failures`) and it receives nothing
//!   more (new events are not queued for it; attempts already under way finish).
//!   Nothing unpauses it here (the dashboard would).
//!
//! ## OpenAPI document and fuzzing ([`crate::openapi`])
//!
//! - Served at `{root}/v1/openapi.json` (`servers: [{url: "/"}]`) and
//!   `{root}/sandbox/v1/openapi.json` (`servers: [{url: "/sandbox"}]`), OpenAPI 3.1,
//!   no authentication (it is itself an operation of the document, with
//!   `security: [{}]`). Paths are written `/v1/...` under the server URL.
//! - Every error answer is documented as `application/problem+json` with the
//!   `Problem` schema; each response's description names the codes it carries.
//!   `code` stays a free string in the schema (codes are only ever added, and
//!   `/_sandbox/faults` may inject any).
//! - Every POST documents a required `Idempotency-Key` header (1–255 visible ASCII).
//! - `crates/loyalty-sandbox/fuzz/run.sh [EXAMPLES]` runs schemathesis 4.32.5 (venv in
//!   `target/schemathesis-venv`) against the sandbox document of a fresh `--demo
//!   --control` server, with the demo business's rate limits lifted first (the run
//!   exercises the routes, not the limiter) and a fresh Idempotency-Key per call.
