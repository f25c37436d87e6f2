//! After the final drain: a person settles what needs a decision, then every item of
//! the outbox is compared with the server's own records.
//!
//! Every committed item is a write the cashier intended. An item the service
//! accepted (or that a person found on the server) must be there exactly once: a
//! record no such item explains is **doubled**, an accepted item with no record is
//! **lost**. Refusals must be exactly those a model of the rules predicts, card by
//! card and gift card by gift card, in item order (the order the outbox sends them).

use std::collections::{BTreeMap, HashMap};

use anyhow::Context;
use counter_core::{Counter, DecisionReason, ItemState, OutboxItem, Resolution, Write};
use jiff::{SignedDuration, Timestamp};
use loyalty_api::ScanAction;
use rust_decimal::Decimal;
use serde_json::Value;

use crate::workload::{POINTS_GOAL, Workload, gift_card_euros};

mod check;

pub use check::check;

/// A person's note when they find the write on the server and close the item.
const FOUND: &str = "soak: found on the server";
/// A person's note when a queued visit was too recent: not a new visit.
const RECENT: &str = "soak: recent visit, not a repeat";

/// Reads of the server's own records.
#[derive(Debug, Clone)]
pub struct ServerRecords {
    http: reqwest::Client,
    root: String,
    key: String,
}

#[derive(Debug, Clone)]
struct ScanRecord {
    kind: String,
    amount: String,
    created_at: Timestamp,
}

impl ServerRecords {
    pub fn new(http: reqwest::Client, root: String, key: String) -> Self {
        Self { http, root, key }
    }

    async fn get(&self, path: &str) -> anyhow::Result<Value> {
        let answer = self
            .http
            .get(format!("{}{path}", self.root))
            .bearer_auth(&self.key)
            .send()
            .await?;
        let status = answer.status();
        let value: Value = answer.json().await?;
        anyhow::ensure!(
            status.is_success(),
            "GET {path}: {status} {}",
            value["code"]
        );
        Ok(value)
    }

    /// A customer's scans, oldest first.
    async fn scans_of(&self, customer: &str) -> anyhow::Result<Vec<ScanRecord>> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut path = format!("/v1/scans?customer_id={customer}&limit=100");
            if let Some(c) = &cursor {
                path.push_str(&format!("&cursor={c}"));
            }
            let page = self.get(&path).await?;
            for s in page["data"].as_array().context("scans")? {
                out.push(ScanRecord {
                    kind: s["kind"].as_str().unwrap_or_default().to_owned(),
                    amount: s["amount"].as_str().unwrap_or_default().to_owned(),
                    created_at: s["created_at"].as_str().unwrap_or_default().parse()?,
                });
            }
            match page["next_cursor"].as_str() {
                Some(c) => cursor = Some(c.to_owned()),
                None => break,
            }
        }
        out.reverse();
        Ok(out)
    }

    async fn card_of(&self, customer: &str) -> anyhow::Result<Value> {
        Ok(self.get(&format!("/v1/customers/{customer}")).await?["cards"][0].clone())
    }

    async fn customers_with_email(&self, email: &str) -> anyhow::Result<usize> {
        let page = self.get(&format!("/v1/customers?email={email}")).await?;
        Ok(page["data"].as_array().map_or(0, Vec::len))
    }

    /// Every ledger entry of a gift card (the control route: the API shows 20), and the card.
    async fn ledger(&self, gift_card: &str) -> anyhow::Result<(Vec<Value>, Value)> {
        let answer = self
            .http
            .get(format!(
                "{}/_sandbox/gift_cards/{gift_card}/transactions",
                self.root
            ))
            .send()
            .await?;
        let value: Value = answer.json().await?;
        Ok((
            value["data"].as_array().cloned().unwrap_or_default(),
            value["gift_card"].clone(),
        ))
    }
}

/// What became of an item, for the comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Fate {
    /// On the server (answered, or found there by a person).
    Accepted,
    /// Refused by the service with this code (or a too-recent visit a person closed).
    Refused(String),
    /// Closed by a person before it reached the service.
    Withdrawn,
    /// Still queued, sending, or waiting for a person.
    Open,
}

fn fate(item: &OutboxItem) -> Fate {
    match item.state {
        ItemState::Done => Fate::Accepted,
        ItemState::Refused => match &item.resolution {
            None => Fate::Refused(
                item.refusal
                    .as_ref()
                    .map_or_else(String::new, |r| r.code.as_str().to_owned()),
            ),
            Some(Resolution::Discarded { note }) if note == FOUND => Fate::Accepted,
            Some(Resolution::Discarded { note }) if note == RECENT => {
                Fate::Refused("recent_visit".into())
            }
            Some(_) => Fate::Withdrawn,
        },
        ItemState::Queued | ItemState::Sending | ItemState::NeedsDecision => Fate::Open,
    }
}

/// One line about an item, for people reading the run.
/// The till keeps a closed payment's gift card by its last four (`****abcd`, minutes
/// after it closed): the judge knows the run's gift cards, and puts each whole id back
/// before it reads the server's ledgers (a last four that names no card of the run, or
/// two, is an error, never a guess).
pub fn with_whole_gift_cards(
    workload: &Workload,
    mut items: Vec<OutboxItem>,
) -> anyhow::Result<Vec<OutboxItem>> {
    for item in &mut items {
        if let Write::Payment { gift_card_id, .. } = &mut item.write
            && let Some(end) = gift_card_id.as_str().strip_prefix("****")
        {
            let whole: Vec<&String> = workload
                .gift_cards
                .iter()
                .filter(|card| card.ends_with(end))
                .collect();
            let [whole] = whole.as_slice() else {
                anyhow::bail!("{} gift cards of the run end in {end}", whole.len());
            };
            *gift_card_id = loyalty_api::GiftCardId::new(whole.as_str());
        }
    }
    Ok(items)
}

pub fn describe(item: &OutboxItem) -> String {
    let what = match &item.write {
        Write::Scan {
            card_id,
            action,
            amount,
            ..
        } => format!("scan {} {amount:?} on {card_id}", action.as_str()),
        Write::Payment {
            gift_card_id,
            amount_minor,
            reference,
            ..
        } => format!(
            "payment {} on {gift_card_id} ref {reference:?}",
            amount_minor.get()
        ),
        Write::Enrol { email, .. } => format!("enrol {email}"),
        other => format!("{:?}", other.kind()),
    };
    format!(
        "{} {what}: {} attempts={} may_have_arrived_at={:?} reason={} last_error={:?}",
        item.id,
        item.state.as_str(),
        item.attempts,
        item.may_have_arrived_at.map(|t| t.to_string()),
        item.reason
            .as_ref()
            .map_or_else(|| "-".to_owned(), |r| format!("{r:?}")),
        item.last_error
    )
}

fn scan_key(action: &ScanAction, amount: Option<Decimal>) -> (String, String) {
    match action {
        ScanAction::Points => (
            "points".into(),
            format!("{}.00", amount.unwrap_or_default()),
        ),
        other => (other.as_str().to_owned(), "0.00".into()),
    }
}

fn cents(text: &str) -> i64 {
    text.parse::<Decimal>()
        .map(|d| {
            (d * Decimal::from(100))
                .trunc()
                .try_into()
                .unwrap_or(i64::MIN)
        })
        .unwrap_or(i64::MIN)
}

/// How the person settled what needed a decision.
#[derive(Debug, Default)]
pub struct Settled {
    pub found: u64,
    pub retried: u64,
    pub recent_visit: u64,
}

fn customer_of(workload: &Workload, card: &str) -> Option<String> {
    workload
        .points_cards
        .iter()
        .chain(&workload.visit_cards)
        .find(|c| c.card_id == card)
        .map(|c| c.customer_id.clone())
}

/// Whether the item's write is on the server, checked the way a person would: the
/// payment's reference in the ledger, the email among the customers, or more of
/// this kind of scan on the card than the till has answers for.
async fn on_server(
    server: &ServerRecords,
    workload: &Workload,
    all: &[OutboxItem],
    item: &OutboxItem,
) -> anyhow::Result<bool> {
    Ok(match &item.write {
        Write::Payment {
            gift_card_id,
            reference,
            ..
        } => {
            let (ledger, _) = server.ledger(gift_card_id.as_str()).await?;
            ledger
                .iter()
                .any(|t| t["reference"].as_str() == reference.as_deref())
        }
        Write::Enrol { email, .. } => server.customers_with_email(email).await? > 0,
        Write::Scan {
            card_id,
            action,
            amount,
            ..
        } => {
            let customer =
                customer_of(workload, card_id.as_str()).context("a card of the workload")?;
            let same = |other: &&OutboxItem| {
                matches!(&other.write, Write::Scan { card_id: c, action: a, amount: m, .. }
                    if c == card_id && scan_key(a, *m) == scan_key(action, *amount))
                    && fate(other) == Fate::Accepted
            };
            let accepted = all.iter().filter(same).count();
            if *action == ScanAction::Redeem {
                let card = server.card_of(&customer).await?;
                card["rewards_redeemed"].as_i64().unwrap_or(0) as usize > accepted
            } else {
                let key = scan_key(action, *amount);
                let on_card = server
                    .scans_of(&customer)
                    .await?
                    .iter()
                    .filter(|s| (s.kind.clone(), s.amount.clone()) == key)
                    .count();
                on_card > accepted
            }
        }
        _ => false,
    })
}

/// The soak's till is worked by its owner, who signs in with their PIN (choosing it
/// the first time): every write names them, and money is withdrawn or sent again, and
/// a kept key replaced, by them.
pub fn as_manager(counter: &Counter) -> anyhow::Result<()> {
    const PIN: &str = "2468";
    if counter.pin_status(None)?.set {
        counter.sign_in(&counter_core::Credential::Pin {
            person: counter_core::ids::PersonId(1),
            pin: PIN.to_owned(),
        })?;
    } else {
        counter.set_pin(PIN, counter_core::PinFor::OneAction)?;
    }
    Ok(())
}

/// A person's decision on one item that needs one.
pub async fn settle(
    counter: &Counter,
    server: &ServerRecords,
    workload: &Workload,
    all: &[OutboxItem],
    item: &OutboxItem,
    settled: &mut Settled,
) -> anyhow::Result<String> {
    let described = describe(item);
    Ok(match &item.reason {
        Some(DecisionReason::RecentVisit { .. }) => {
            counter.discard(item.id, RECENT)?;
            settled.recent_visit += 1;
            format!("settled (too recent, discarded): {described}")
        }
        // Any other reason (including ones this soak does not know yet): the person
        // looks on the server first.
        Some(reason) => {
            // Answers settled earlier in this round count too.
            let all = counter
                .queue(false, u32::MAX)
                .unwrap_or_else(|_| all.to_vec());
            if on_server(server, workload, &all, item).await? {
                if item.write.kind().is_money() {
                    as_manager(counter)?;
                }
                counter.discard(item.id, FOUND)?;
                settled.found += 1;
                format!("settled (found on the server, closed): {described}")
            } else if reason.can_send_again() {
                if item.write.kind().is_money() {
                    as_manager(counter)?;
                }
                counter.retry_item(item.id)?;
                settled.retried += 1;
                format!("settled (not on the server, sent again): {described}")
            } else {
                format!("NOT settled (not on the server, cannot be sent again): {described}")
            }
        }
        None => format!("NOT settled (no reason given): {described}"),
    })
}

/// What the comparison found.
#[derive(Debug, Default)]
pub struct Report {
    pub lines: Vec<String>,
    pub lost: u64,
    pub doubled: u64,
    pub refusals_as_predicted: u64,
    pub unpredicted_refusals: u64,
    pub missed_refusals: u64,
    /// Cards whose figures on the server differ from what the rules give.
    pub state_mismatches: u64,
    pub stuck: u64,
    pub below_zero: u64,
    /// Writes that name another person than the one who made them (or nobody).
    pub misattributed: u64,
}

impl Report {
    fn note(&mut self, line: String) {
        if self.lines.len() < 60 {
            self.lines.push(line);
        }
    }

    /// Compares a prediction with what happened; false when they differ.
    fn compare(&mut self, item: &OutboxItem, predicted: &Fate, actual: &Fate) -> bool {
        match (predicted, actual) {
            (Fate::Accepted, Fate::Accepted) => true,
            (Fate::Refused(p), Fate::Refused(a)) if p == a => {
                self.refusals_as_predicted += 1;
                true
            }
            (Fate::Accepted, Fate::Refused(code)) => {
                self.unpredicted_refusals += 1;
                self.note(format!(
                    "REFUSAL NOT PREDICTED ({code}): {}",
                    describe(item)
                ));
                false
            }
            (Fate::Refused(code), Fate::Accepted) => {
                self.missed_refusals += 1;
                self.note(format!(
                    "ACCEPTED, the rules predict {code}: {}",
                    describe(item)
                ));
                false
            }
            (p, a) => {
                self.unpredicted_refusals += 1;
                self.note(format!(
                    "REFUSAL NOT AS PREDICTED ({p:?} predicted, {a:?}): {}",
                    describe(item)
                ));
                false
            }
        }
    }

    /// Server records against accepted items, by key: extra ones are doubled,
    /// missing ones lost.
    fn tally(
        &mut self,
        what: &str,
        server: &BTreeMap<String, i64>,
        expected: &BTreeMap<String, i64>,
    ) {
        let keys: std::collections::BTreeSet<&String> =
            server.keys().chain(expected.keys()).collect();
        for key in keys {
            let s = server.get(key).copied().unwrap_or(0);
            let e = expected.get(key).copied().unwrap_or(0);
            if s > e {
                self.doubled += (s - e) as u64;
            } else if e > s {
                self.lost += (e - s) as u64;
            }
            if s != e {
                self.note(format!(
                    "{} on {what}: {key} is on the server {s} times, accepted {e} times",
                    if s > e { "DOUBLED" } else { "LOST" }
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_twice_on_the_server_is_one_double_not_two() {
        // Regression: the keys of both sides were walked one after the other, so a
        // key present on both sides was counted twice.
        let mut report = Report::default();
        let server = BTreeMap::from([("ref-1".to_owned(), 2), ("ref-2".to_owned(), 1)]);
        let expected = BTreeMap::from([("ref-1".to_owned(), 1), ("ref-2".to_owned(), 1)]);
        report.tally("a gift card", &server, &expected);
        assert_eq!((report.doubled, report.lost), (1, 0));
    }

    #[test]
    fn an_accepted_write_missing_on_the_server_is_lost() {
        let mut report = Report::default();
        let expected = BTreeMap::from([("visit".to_owned(), 2)]);
        report.tally(
            "a card",
            &BTreeMap::from([("visit".to_owned(), 1)]),
            &expected,
        );
        assert_eq!((report.doubled, report.lost), (0, 1));
    }

    #[test]
    fn points_scans_are_matched_by_their_requested_amount() {
        assert_eq!(
            scan_key(&ScanAction::Points, Some(Decimal::from(-12))),
            ("points".to_owned(), "-12.00".to_owned())
        );
        assert_eq!(
            scan_key(&ScanAction::Visit, None),
            ("visit".to_owned(), "0.00".to_owned())
        );
    }
}
