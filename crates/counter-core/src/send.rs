//! Sending: one attempt of one item, and the worker that drains the queue.
//!
//! Only one request of the outbox is in flight at a time (`Core::send_lock`): the
//! worker and a cashier's immediate send take turns, so no write is ever sent twice
//! at once and the order of a card's writes holds.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use jiff::Timestamp;
use loyalty_api::{Client, Decision, Error as ApiError, ErrorCode, Money, is_retryable};

use crate::cache;
use crate::events::Connectivity;
use crate::outbox::{DecisionReason, ItemId, ItemState, OutboxItem, Refusal, Write, store};
use crate::print_jobs;
use crate::shared::{Core, GateReason, Sender};
use crate::views::{
    Answer, BroadcastView, CustomerView, GiftCardView, IssuedGiftCardView, PaymentView,
    ScanResultView,
};

/// Who is waiting for the answer.
#[derive(Debug, Clone)]
pub(crate) enum Mode {
    /// A cashier, now, while the flag holds: a `recent_visit` is their question to
    /// answer at once. The flag drops when they stop waiting (the write then shows as
    /// queued), and a late answer is handled as the worker's.
    Interactive(Arc<AtomicBool>),
    /// The worker, later: a `recent_visit` needs a person's decision.
    Background,
}

impl Mode {
    fn cashier_waiting(&self) -> bool {
        match self {
            Mode::Interactive(waiting) => waiting.load(Ordering::SeqCst),
            Mode::Background => false,
        }
    }
}

/// What an attempt learnt beyond the item's new state.
#[derive(Debug, Default)]
pub(crate) struct Report {
    pub last_visit_at: Option<Timestamp>,
    pub balance: Option<Money>,
}

struct Accepted {
    answer: Answer,
    replayed: bool,
    request_id: Option<String>,
}

async fn attempt(client: &Client, item: &OutboxItem) -> Result<Accepted, ApiError> {
    let key = loyalty_api::IdempotencyKey::new(item.idempotency_key.clone())
        .expect("keys are validated when made");
    macro_rules! done {
        ($response:expr, $answer:expr) => {{
            let response = $response;
            Accepted {
                answer: $answer(&response.data),
                replayed: response.replayed,
                request_id: response.request_id.clone(),
            }
        }};
    }
    let accepted = match &item.write {
        Write::Scan { .. } => {
            let scan = item.write.new_scan().expect("a scan");
            done!(client.scans().create(&key, &scan).await?, |r| {
                Answer::ScanResult(ScanResultView::from(r))
            })
        }
        Write::Payment { .. } => {
            let (id, payment) = item.write.new_payment().expect("a payment");
            done!(client.gift_cards().pay(&id, &key, &payment).await?, |p| {
                Answer::GiftCardPayment(PaymentView::from(p))
            })
        }
        Write::Enrol { .. } => {
            let customer = item.write.new_customer().expect("an enrolment");
            done!(client.customers().create(&key, &customer).await?, |c| {
                Answer::Customer(CustomerView::from(c))
            })
        }
        Write::IssueGiftCard { .. } => {
            let card = item.write.new_gift_card().expect("an issue");
            done!(
                client.gift_cards().issue(&key, &card).await?,
                |g: &loyalty_api::IssuedGiftCard| Answer::GiftCard(IssuedGiftCardView {
                    gift_card: GiftCardView::from(&g.gift_card),
                    email_sent: g.email.sent,
                    email_reason: g.email.reason,
                })
            )
        }
        Write::ConfirmBroadcast { .. } => {
            let (message, token) = item.write.broadcast().expect("a confirm");
            done!(
                client.broadcasts().confirm(&key, &message, &token).await?,
                |b| Answer::Broadcast(BroadcastView::from(b))
            )
        }
        Write::CancelBroadcast { broadcast_id } => {
            done!(client.broadcasts().cancel(broadcast_id, &key).await?, |b| {
                Answer::Broadcast(BroadcastView::from(b))
            })
        }
    };
    Ok(accepted)
}

/// Whether a failed attempt's request may have reached the service.
fn may_have_arrived(err: &ApiError) -> bool {
    match err {
        ApiError::Transport(t) => t.kind.request_may_have_arrived(),
        // Refused before any work: the limit, or the limiter being away.
        ApiError::Problem(p) => !matches!(
            p.code,
            ErrorCode::RateLimited | ErrorCode::RateLimiterUnavailable
        ),
        // A kind of failure this version does not know: assume the worst.
        _ => true,
    }
}

/// What a retryable failure says of the whole service rather than of this one write:
/// its rate limit (429), a 503 that names a `Retry-After`, or no connection at all.
/// Anything else (a 500, a time-out, a 409 in progress) is this item's own trouble,
/// and the writes of other cards go on while it backs off.
fn holds_the_whole_service(err: &ApiError) -> Option<GateReason> {
    match err {
        ApiError::Transport(t) if t.status.is_none() && !t.kind.request_may_have_arrived() => {
            Some(GateReason::Backoff)
        }
        ApiError::Problem(p)
            if p.status == 429
                || p.code == ErrorCode::RateLimiterUnavailable
                || (p.status == 503 && p.retry_after.is_some()) =>
        {
            Some(GateReason::Service)
        }
        _ => None,
    }
}

fn refusal_of(err: &ApiError) -> Option<Refusal> {
    err.problem().map(|p| Refusal {
        code: p.code.clone(),
        detail: p.detail.clone(),
        request_id: p.request_id.clone(),
    })
}

/// The service's time now, read with GET /v1/me. None when it does not answer: then
/// the item waits (its own backoff, or the service-wide wait the answer asked for).
async fn fresh_service_time(core: &Core, sender: &Sender, item: &OutboxItem) -> Option<Timestamp> {
    match sender.client.me().await {
        Ok(_) => core.service_now(),
        Err(err) => {
            wait_after(core, &err, item);
            None
        }
    }
}

/// After a retryable failure of `item`'s attempt (or of the read before it): the
/// policy's wait, never below the first backoff (a `Retry-After: 0`, or a date past,
/// must not make a tight loop), held by the whole service or by this item alone.
fn wait_after(core: &Core, err: &ApiError, item: &OutboxItem) -> Duration {
    let wait = match core.config.retry.decide(err, item.attempts + 1, core.now()) {
        Decision::RetryAfter(wait) => wait,
        Decision::GiveUp => core.config.retry.max_delay,
    }
    .max(core.config.retry.initial_delay);
    match holds_the_whole_service(err) {
        Some(reason) => core.set_gate(wait, reason),
        None => core.back_off(item.id, wait),
    }
    wait
}

/// Sends one item once, under `sender`'s key. The caller holds `core.send_lock`.
///
/// Before anything leaves, an item that may already have reached the service is
/// checked: under another API key it is never sent (that key's service memory is
/// not this key's); older than `forget_after` on the service's clock it is not sent
/// blindly (the service may have forgotten its key). A person decides either, unless
/// they already did.
pub(crate) async fn send_item(
    core: &Core,
    sender: &Sender,
    id: ItemId,
    mode: Mode,
) -> rusqlite::Result<Report> {
    let mut report = Report::default();
    if store::get(&core.db(), id)?.is_some_and(|i| i.state == ItemState::Sending) {
        // The caller holds the send lock, so no attempt of it is under way: one was
        // cut short (an error storing its outcome). It may have arrived.
        store::interrupted_attempt_may_have_arrived(&core.db(), id)?;
    }
    let Some(item) = store::get(&core.db(), id)? else {
        return Ok(report);
    };
    if !item.state.is_open() {
        return Ok(report);
    }
    if item.owner.is_none() || item.owner != sender.owner {
        // Another business's write (or one whose business is not known yet): it waits
        // for a key of its own business, unchanged.
        return Ok(report);
    }
    let now = core.now();
    if let Some(first) = item.may_have_arrived_at
        && !item.resend_approved
    {
        // Under the sender's lock, so a key connected meanwhile (which releases the
        // items held for it) cannot slip between this check and the hold.
        if core.hold_for_its_key(&item, first)? {
            core.publish_item(id);
            return Ok(report);
        }
        // Its age is told on the service's clock, read afresh: a reading carried
        // forward on the till's monotonic clock misses a night the till slept through.
        let Some(service_now) = fresh_service_time(core, sender, &item).await else {
            return Ok(report);
        };
        let age = match item.arrived_service_at {
            Some(at) => service_now.duration_since(at),
            // Stored by a version that did not record the service's time.
            None => now.duration_since(first),
        };
        if age > core.config.forget_after {
            let reason = DecisionReason::KeyMayBeForgotten {
                first_attempt_at: first,
                hours: core.config.forget_after.as_hours(),
            };
            store::mark_needs_decision(&core.db(), id, &reason, None)?;
            core.publish_item(id);
            return Ok(report);
        }
    }
    if item.write.body() != item.body {
        // The stored body is the contract: never send something else under its key.
        store::mark_needs_decision(&core.db(), id, &DecisionReason::BodyChanged, None)?;
        core.publish_item(id);
        return Ok(report);
    }
    // Every attempt records the service's time, so the 23-hour rule never falls back
    // to the till's clock for it.
    let service_at = match core.service_now() {
        Some(at) => at,
        None => match fresh_service_time(core, sender, &item).await {
            Some(at) => at,
            None => return Ok(report),
        },
    };
    if !store::mark_sending(&core.db(), id, now, &sender.key, Some(service_at))? {
        // A person closed it meanwhile: nothing leaves.
        return Ok(report);
    }
    core.publish_item(id);

    match attempt(&sender.client, &item).await {
        Ok(accepted) => {
            let done_at = core.now();
            let receipt = {
                let mut db = core.db();
                // The receipt the answer prints is stored with it, once.
                let closing = db.transaction()?;
                let receipt = if store::mark_done(
                    &closing,
                    id,
                    &accepted.answer,
                    accepted.replayed,
                    accepted.request_id.as_deref(),
                    done_at,
                )? {
                    print_jobs::record_answer(&closing, &item, &accepted.answer, done_at)?
                } else {
                    None
                };
                closing.commit()?;
                if let Err(err) = crate::db::cache_write(&mut db, |tx| {
                    cache::store_answer(tx, &accepted.answer, done_at)
                }) {
                    tracing::warn!(%err, "could not cache an answer");
                }
                receipt
            };
            if receipt.is_some() {
                core.printer.wake.notify_one();
            }
            tracing::debug!(%id, replayed = accepted.replayed, "write done");
        }
        Err(err) if is_retryable(&err) => {
            store::attempt_failed(&core.db(), id, may_have_arrived(&err), &err.to_string())?;
            let wait = wait_after(core, &err, &item);
            tracing::debug!(%id, ?wait, error = %err, "write will be retried");
        }
        Err(err) => {
            let refusal = refusal_of(&err);
            let problem = err.problem();
            match (problem, refusal) {
                (Some(problem), Some(refusal)) if problem.code == ErrorCode::RecentVisit => {
                    report.last_visit_at = problem.last_visit_at;
                    // A customer's own check-in is closed as already checked in: a
                    // repeat visit is never theirs to confirm, nor a cashier's later.
                    if mode.cashier_waiting() || item.kiosk {
                        store::mark_refused(&core.db(), id, &refusal, core.now())?;
                    } else {
                        let reason = DecisionReason::RecentVisit {
                            last_visit_at: problem.last_visit_at,
                        };
                        store::mark_needs_decision(&core.db(), id, &reason, Some(&refusal))?;
                    }
                }
                (Some(problem), Some(refusal))
                    if problem.code == ErrorCode::IdempotencyKeyReused =>
                {
                    store::mark_needs_decision(
                        &core.db(),
                        id,
                        &DecisionReason::IdempotencyKeyReused,
                        Some(&refusal),
                    )?;
                }
                (Some(problem), _) if problem.code.refuses_the_key() => {
                    // Nothing was done: the write waits for a key that works (the
                    // worker holds the queue while the key is refused).
                    store::attempt_failed(&core.db(), id, false, &err.to_string())?;
                }
                (Some(problem), _)
                    if matches!(
                        problem.code,
                        ErrorCode::InsufficientScope | ErrorCode::Forbidden
                    ) =>
                {
                    // This key may not do it; nothing was done. The write waits for a
                    // key that may, trying again now and then, never closed by it.
                    store::attempt_failed(&core.db(), id, false, &err.to_string())?;
                    core.back_off(id, core.config.max_service_wait);
                }
                (Some(problem), Some(refusal)) => {
                    report.balance = problem.balance.clone();
                    store::mark_refused(&core.db(), id, &refusal, core.now())?;
                }
                _ if !may_have_arrived(&err) => {
                    // Nothing was sent (TLS failed): keep it, and try again later.
                    store::attempt_failed(&core.db(), id, false, &err.to_string())?;
                    core.set_gate(core.config.retry.max_delay, GateReason::Backoff);
                }
                _ => {
                    let reason = DecisionReason::AnswerUnreadable {
                        error: err.to_string(),
                    };
                    store::attempt_failed(&core.db(), id, true, &err.to_string())?;
                    store::mark_needs_decision(&core.db(), id, &reason, None)?;
                }
            }
        }
    }
    core.publish_item(id);
    Ok(report)
}

/// The worker: sends queued items, oldest first, whenever the service is reachable
/// and no service-wide wait is in force. An item waiting out its own backoff is passed
/// over (with the later items of its card), so one failing write never holds the
/// others. Runs until the counter is closed.
pub(crate) async fn run_worker(core: Arc<Core>) {
    {
        let db = core.db();
        if let Err(err) = store::interrupted_attempts_may_have_arrived(&db) {
            tracing::error!(%err, "outbox: reading interrupted attempts");
        }
    }
    loop {
        if let Some(gate) = core.gate() {
            tokio::select! {
                _ = tokio::time::sleep_until(gate.until) => {}
                _ = core.wake.notified() => {}
            }
            continue;
        }
        if core.sender().is_none() {
            core.wake.notified().await;
            continue;
        }
        if core.connectivity() == Connectivity::KeyRefused {
            // Woken by a new key, or by the prober finding the key works again.
            wait_a_little(&core, Duration::from_secs(5)).await;
            continue;
        }
        let Some(owner) = core.sender().and_then(|sender| sender.owner) else {
            // The key's business is not known yet: nothing is its to send.
            wait_a_little(&core, Duration::from_secs(5)).await;
            continue;
        };
        let not_ready = core.not_ready();
        let next = store::next_sendable(&core.db(), owner, |id| !not_ready.contains(&id));
        let item = match next {
            Ok(Some(item)) => item,
            Ok(None) => {
                // Nothing ready: sleep until an item's own backoff ends, or news.
                let until = core
                    .next_backoff_end()
                    .unwrap_or_else(|| core.clock.instant() + Duration::from_secs(5));
                tokio::select! {
                    _ = tokio::time::sleep_until(until) => {}
                    _ = core.wake.notified() => {}
                }
                continue;
            }
            Err(err) => {
                tracing::error!(%err, "outbox: reading the queue");
                wait_a_little(&core, Duration::from_secs(1)).await;
                continue;
            }
        };
        let _sending = core.send_lock.lock().await;
        if core.gate().is_some() || core.is_claimed(item.id) || core.is_backing_off(item.id) {
            continue;
        }
        // Read again under the send lock: the key may have changed while it waited.
        let Some(sender) = core.sender() else {
            continue;
        };
        if let Err(err) = send_item(&core, &sender, item.id, Mode::Background).await {
            tracing::error!(%err, "outbox: storing an outcome");
            drop(_sending);
            wait_a_little(&core, Duration::from_secs(1)).await;
        }
    }
}

async fn wait_a_little(core: &Core, at_most: Duration) {
    tokio::select! {
        _ = tokio::time::sleep(at_most) => {}
        _ = core.wake.notified() => {}
    }
}
