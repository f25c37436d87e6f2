//! The faults the driver injects, and the changes it undoes later.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::Context;
use rand::Rng;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::workload::{Step, Workload};

use super::*;

/// Every kind of fault the soak injects (the till's SIGKILLs are counted apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Fault {
    Status500,
    Status503,
    Status429,
    RateLimit,
    DropAfterCommit,
    HeldPastTimeout,
    Poison,
    KeyRevoked,
    ClockMoved,
    ServerKilled,
}

pub(super) const FAULTS: [Fault; 10] = [
    Fault::Status500,
    Fault::Status503,
    Fault::Status429,
    Fault::RateLimit,
    Fault::DropAfterCommit,
    Fault::HeldPastTimeout,
    Fault::Poison,
    Fault::KeyRevoked,
    Fault::ClockMoved,
    Fault::ServerKilled,
];

pub(super) const WRITE_PATHS: [&str; 3] = ["/v1/scans", "/v1/gift_cards", "/v1/customers"];

pub(super) fn high_limits() -> Value {
    json!({"rate_limits": {"requests_per_business": 1_000_000, "requests_per_key": 1_000_000,
                           "window_seconds": 60, "writes_per_key": 1_000_000}})
}

/// A change to undo later (the poison lifted, the limits raised again).
#[derive(Debug)]
pub(super) enum Undo {
    Poison {
        armed_at_items: i64,
        queued: i64,
        answered: i64,
        left_queued: i64,
    },
    RateLimit,
}

impl Run {
    pub(super) async fn arm(&self, body: Value) -> anyhow::Result<()> {
        self.control(reqwest::Method::POST, "/_sandbox/faults", body)
            .await
            .map(|_| ())
    }

    /// One accepted payment whose answer is lost (drop_after_commit), its retries then
    /// held back by `held` answers 503 with Retry-After 1: returns once the server has
    /// recorded it (or after 15 s), so what follows meets a write that may have arrived.
    pub(super) async fn drop_one_payment(
        &self,
        workload: &Workload,
        held: u64,
    ) -> anyhow::Result<(String, bool)> {
        let (id, path) = self.next_paid_gift_card(workload).await?;
        let spends = async |run: &Run| -> anyhow::Result<usize> {
            let answer = run
                .control(
                    reqwest::Method::GET,
                    &format!("/_sandbox/gift_cards/{id}/transactions"),
                    json!({}),
                )
                .await?;
            Ok(answer["data"].as_array().map_or(0, Vec::len))
        };
        let before = (self.drops_seen()?, spends(self).await?);
        self.arm(json!({"path": path, "count": 1, "drop_after_commit": true}))
            .await?;
        self.arm(json!({"path": path, "count": held, "status": 503,
                        "code": "service_unavailable"}))
            .await?;
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(15) {
            // A dropped answer (any path, by the log) and a new spend on this card: a
            // drop elsewhere, or a payment answered before the fault, is not enough.
            if self.drops_seen()? > before.0 && spends(self).await? > before.1 {
                return Ok((path, true));
            }
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        Ok((path, false))
    }

    /// How many answers the server has dropped after committing, by its own log.
    pub(super) fn drops_seen(&self) -> anyhow::Result<usize> {
        let log = std::fs::read_to_string(dir_of(&self.plan, "logs/server.stderr"))?;
        Ok(log.matches("dropping the connection after commit").count())
    }

    /// The gift card of a payment the till is about to make (not on the poison card,
    /// and with enough left that it is accepted), and its payments path.
    pub(super) async fn next_paid_gift_card(
        &self,
        workload: &Workload,
    ) -> anyhow::Result<(String, String)> {
        let from = usize::try_from(self.seen.step.load(Ordering::Relaxed)).unwrap_or(0) + 3;
        let upcoming = workload
            .steps
            .iter()
            .skip(from)
            .filter_map(|step| match step {
                Step::Pay { gift_card, cents } if *gift_card != workload.poison => {
                    Some((*gift_card, *cents))
                }
                _ => None,
            });
        let mut fallback = None;
        for (index, cents) in upcoming.take(20) {
            let id = &workload.gift_cards[index];
            let answer = self
                .control(
                    reqwest::Method::GET,
                    &format!("/_sandbox/gift_cards/{id}/transactions"),
                    json!({}),
                )
                .await?;
            let balance: f64 = answer["gift_card"]["balance"]
                .as_str()
                .and_then(|b| b.parse().ok())
                .unwrap_or(0.0);
            fallback.get_or_insert_with(|| id.clone());
            // Room for this payment and a few queued before it.
            if (balance * 100.0) as i64 >= cents + 3_000 {
                fallback = Some(id.clone());
                break;
            }
        }
        let id = fallback.unwrap_or_else(|| workload.gift_cards[1].clone());
        let path = format!("/v1/gift_cards/{id}/payments");
        Ok((id, path))
    }

    pub(super) async fn inject(&mut self, fault: Fault, workload: &Workload) -> anyhow::Result<()> {
        // One fault at a time: lifting the poison disarms every fault, and the real
        // rate limit would hold up the next fault's writes.
        self.undo_due(true).await?;
        let path = WRITE_PATHS[self.rng.random_range(0..WRITE_PATHS.len())];
        let items = self.seen.items.load(Ordering::Relaxed);
        let detail = match fault {
            Fault::Status500 => {
                self.arm(
                    json!({"path": path, "count": 3, "status": 500, "code": "internal_error"}),
                )
                .await?;
                format!("500 internal_error x3 on {path}")
            }
            Fault::Status503 => {
                self.arm(
                    json!({"path": path, "count": 3, "status": 503, "code": "service_unavailable"}),
                )
                .await?;
                format!("503 service_unavailable x3 on {path}")
            }
            Fault::Status429 => {
                self.arm(json!({"path": path, "count": 3, "status": 429, "code": "rate_limited"}))
                    .await?;
                format!("429 rate_limited (Retry-After) x3 on {path}")
            }
            Fault::RateLimit => {
                let limits = json!({"rate_limits": {"writes_per_key": 3, "window_seconds": 2}});
                self.control(
                    reqwest::Method::PATCH,
                    &format!("/_sandbox/businesses/{}", self.business_id),
                    limits,
                )
                .await?;
                self.later(Duration::from_secs(3), Undo::RateLimit);
                "the real rate limit at 3 writes per 2 s for 3 s".into()
            }
            Fault::DropAfterCommit => {
                self.arm(json!({"path": path, "count": 3, "drop_after_commit": true}))
                    .await?;
                format!("drop_after_commit x3 on {path}")
            }
            Fault::HeldPastTimeout => {
                self.arm(json!({"path": path, "count": 2, "delay_ms": 2500}))
                    .await?;
                format!("answers held 2.5 s (time-out 1 s) x2 on {path}")
            }
            Fault::Poison => {
                let gift_card = &workload.gift_cards[workload.poison];
                self.arm(
                    json!({"path": format!("/v1/gift_cards/{gift_card}/payments"),
                                "count": 1_000_000, "status": 500, "code": "internal_error"}),
                )
                .await?;
                self.later(
                    self.plan.poison_hold,
                    Undo::Poison {
                        armed_at_items: items,
                        queued: self.seen.queued.load(Ordering::Relaxed),
                        answered: self.seen.answered.load(Ordering::Relaxed),
                        left_queued: self.seen.left_queued.load(Ordering::Relaxed),
                    },
                );
                format!(
                    "poison: every payment on gift card {gift_card} answers 500 for {:?}",
                    self.plan.poison_hold
                )
            }
            Fault::KeyRevoked => {
                // Writes that reached the server under the old key and whose answer
                // was lost; their retries held back (503, Retry-After 1) until the
                // old key is revoked, so they can only be sent again under the new.
                let (payments, dropped) = self.drop_one_payment(workload, 4).await?;
                let key = self
                    .control(
                        reqwest::Method::POST,
                        "/_sandbox/keys",
                        json!({"business_id": self.business_id, "mode": "live"}),
                    )
                    .await?;
                let old = self.key_ids.last().cloned().unwrap_or_default();
                self.control(
                    reqwest::Method::POST,
                    &format!("/_sandbox/keys/{old}/revoke"),
                    json!({}),
                )
                .await?;
                self.keys
                    .push(key["key"].as_str().context("a key")?.to_owned());
                self.key_ids
                    .push(key["id"].as_str().context("a key id")?.to_owned());
                tokio::time::sleep(Duration::from_millis(800)).await;
                let line = format!("connect {} {}", self.root(), self.key());
                self.tell_till(line).await;
                format!(
                    "drop_after_commit x1 (met: {dropped}) and 503 x4 on {payments}, then key \
                     {old} revoked and key {} connected",
                    self.key_ids.last().map_or("", String::as_str)
                )
            }
            Fault::ClockMoved => {
                // Past the 23-hour rule, back behind the real time, then right again.
                self.clock_offset = match self.clock_moves % 3 {
                    0 => 25 * 3600,
                    1 => -2 * 3600,
                    _ => 0,
                };
                self.clock_moves += 1;
                let offset = self.clock_offset;
                let mut detail = String::new();
                if offset > 0 {
                    // Payments that may have arrived, still being retried when the
                    // clock jumps: the 23-hour rule meets them.
                    let (payments, dropped) = self.drop_one_payment(workload, 3).await?;
                    detail = format!(
                        "drop_after_commit x1 (met: {dropped}) and 503 x3 on {payments}, then "
                    );
                }
                self.tell_till(format!("clock {offset}")).await;
                format!("{detail}the till's clock moved to real time {offset:+} s")
            }
            Fault::ServerKilled => {
                self.kill_server().await?;
                tokio::time::sleep(Duration::from_millis(1500)).await;
                self.start_server().await?;
                "server SIGKILLed, restarted on its database after 1.5 s".into()
            }
        };
        *self.faults.entry(fault).or_default() += 1;
        self.say(format!("fault at item {items}: {detail}"));
        Ok(())
    }

    /// Undoes `undo` after `after`, in its own task.
    pub(super) fn later(&mut self, after: Duration, undo: Undo) {
        let (http, root, business, seen) = (
            self.http.clone(),
            self.root(),
            self.business_id.clone(),
            self.seen.clone(),
        );
        self.undo.push(tokio::spawn(async move {
            tokio::time::sleep(after).await;
            undo.apply(http, root, business, seen).await
        }));
    }

    /// Says what the finished undos did; with `all`, waits for every one.
    pub(super) async fn undo_due(&mut self, all: bool) -> anyhow::Result<()> {
        let (due, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.undo)
            .into_iter()
            .partition(|task| all || task.is_finished());
        self.undo = later;
        for task in due {
            let line = task.await??;
            if line.starts_with("STUCK") {
                self.stuck_behind_poison += 1;
            }
            if line.contains("poison") {
                self.findings.push(line.clone());
            }
            self.say(line);
        }
        Ok(())
    }
}

impl Undo {
    /// Undoes the change (in its own task, so that nothing the driver waits for
    /// delays it) and says what happened.
    pub(super) async fn apply(
        self,
        http: reqwest::Client,
        root: String,
        business_id: String,
        seen: Arc<Seen>,
    ) -> anyhow::Result<String> {
        Ok(match self {
            Undo::RateLimit => {
                control_at(
                    &http,
                    &root,
                    reqwest::Method::PATCH,
                    &format!("/_sandbox/businesses/{business_id}"),
                    high_limits(),
                )
                .await?;
                "rate limit raised again".into()
            }
            Undo::Poison {
                armed_at_items,
                queued,
                answered,
                left_queued,
            } => {
                // DELETE disarms every fault; the others are spent or nearly.
                control_at(
                    &http,
                    &root,
                    reqwest::Method::DELETE,
                    "/_sandbox/faults",
                    json!({}),
                )
                .await?;
                let items = seen.items.load(Ordering::Relaxed);
                let queued_now = seen.queued.load(Ordering::Relaxed);
                let answered = seen.answered.load(Ordering::Relaxed) - answered;
                let left_queued = seen.left_queued.load(Ordering::Relaxed) - left_queued;
                // (Nearly) every write of the cashier queued while one gift card's
                // payments fail: the poison held the whole queue up.
                let verdict = if left_queued >= 5 && answered * 10 < left_queued {
                    "STUCK BEHIND THE POISON: "
                } else {
                    ""
                };
                format!(
                    "{verdict}poison lifted: while it held, the till made items {armed_at_items}..{items} \
                     ({answered} answered at once, {left_queued} left queued) and its queue \
                     went from {queued} to {queued_now} open items"
                )
            }
        })
    }
}
