//! A shift's confirmed writes checked against the service's own records
//! ([`crate::shifts::check`]): each gift card's ledger for its payments, the cards
//! issued, the list of loyalty scans, each customer enrolled. Read with the till's
//! client off the counter's path, paced to half the key's requests per window, and
//! stopped at the first answer that is no answer: what was not checked is checked the
//! next time (at the close, on opening the Z, and every few minutes for the last Zs).

use std::collections::{HashMap, HashSet};

use loyalty_api::{
    Client, CustomerId, ErrorCode, GiftCard, GiftCardWithTransactions, ListParams, Scan,
};

use super::*;
use crate::kept::{self, CardKey};
use crate::shifts::check::{self, Check};

/// How many of the last Zs the checker looks at again.
const RECHECKED_ZS: u32 = 5;

/// Waits between requests so that the check takes at most half of what the key may ask
/// in a window: the other half is the counter's.
#[derive(Default)]
struct Pace {
    /// Requests answered so far, and the time spent waiting for the window.
    requests: u32,
    waited: Duration,
}

impl Pace {
    async fn after<T>(&mut self, answer: &loyalty_api::Response<T>) {
        self.requests += 1;
        let Some(limit) = &answer.rate_limit else {
            return;
        };
        let Some(state) = limit.states.iter().min_by_key(|s| s.remaining) else {
            return;
        };
        let quota = limit
            .policies
            .iter()
            .find(|p| p.name == state.policy)
            .map_or(0, |p| p.quota);
        if state.remaining <= quota / 2 {
            self.waited += state.reset;
            tokio::time::sleep(state.reset).await;
        }
    }
}

/// Why a check stopped before its end: the service did not answer, or answered what a
/// check cannot go on from.
type Stop = loyalty_api::Error;

fn not_found(error: &Stop) -> bool {
    error.code() == Some(&ErrorCode::NotFound)
}

/// Checks the confirmed writes of shift `shift` that are not checked yet, against the
/// service's records; answers how many were checked now. Not connected, or the service
/// out of reach: none, and the rest waits for the next time.
pub(super) async fn check_shift(core: &Core, shift: i64) -> Result<usize, Error> {
    let Some(client) = core.client() else {
        return Ok(0);
    };
    let (items, stored, key) = {
        let db = core.reader();
        let checked = check::of_shift(&db, shift)?;
        let items: Vec<OutboxItem> = store::in_shift(&db, shift)?
            .into_iter()
            .filter(|i| i.state == ItemState::Done && !checked.contains_key(&i.id.0))
            .collect();
        let mut stored = HashMap::new();
        for item in &items {
            let (order_key, service_at): (Option<String>, Option<String>) = db.query_row(
                "SELECT order_key, attempt_service_at FROM outbox WHERE id = ?1",
                [item.id.0],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            // The service's time of the attempt it answered (the till's clock corrected
            // by what the service's Date said), else the till's own time of the answer.
            let answered = service_at
                .and_then(|at| at.parse().ok())
                .or(item.arrived_service_at)
                .or(item.closed_at)
                .unwrap_or(item.created_at);
            stored.insert(
                item.id.0,
                Stored {
                    order_key,
                    answered,
                },
            );
        }
        (items, stored, CardKey::of(&db)?)
    };
    if items.is_empty() {
        return Ok(0);
    }
    let mut checker = Checker {
        client,
        pace: Pace::default(),
        key,
        listed_cards: None,
        ledgers: HashMap::new(),
        scans: None,
        used: HashSet::new(),
    };
    let mut checked = 0;
    for item in &items {
        let found = match checker.check(item, &stored).await {
            Ok(Some(found)) => found,
            Ok(None) => continue,
            Err(error) => {
                tracing::info!(%error, checked, "the shift's check stopped; the rest waits");
                break;
            }
        };
        check::record(&core.db(), item.id.0, &found, core.now())?;
        checked += 1;
    }
    tracing::info!(
        shift,
        checked,
        requests = checker.pace.requests,
        waited_s = checker.pace.waited.as_secs_f64(),
        "a shift's writes checked against the service"
    );
    Ok(checked)
}

/// Every few minutes: what the last Zs left unchecked (closed while the service was out
/// of reach, or settled after the close) is checked.
pub(super) async fn run_checker(core: Arc<Core>) {
    const EVERY: Duration = Duration::from_secs(120);
    loop {
        tokio::time::sleep(EVERY).await;
        match check_last_zs(&core).await {
            Ok(0) => {}
            Ok(checked) => tracing::info!(checked, "writes of closed shifts checked"),
            Err(error) => tracing::warn!(%error, "the last Zs could not be checked"),
        }
    }
}

/// Checks what the last Zs left unchecked.
async fn check_last_zs(core: &Core) -> Result<usize, Error> {
    let shifts: Vec<i64> = {
        let db = core.reader();
        let mut statement = db.prepare_cached(
            "SELECT id FROM shifts WHERE z_number IS NOT NULL ORDER BY z_number DESC LIMIT ?1",
        )?;
        statement
            .query_map([RECHECKED_ZS], |r| r.get(0))?
            .collect::<Result<_, _>>()?
    };
    let mut checked = 0;
    for shift in shifts {
        checked += check_shift(core, shift).await?;
    }
    Ok(checked)
}

/// What the check reads of a write beyond its item.
struct Stored {
    /// Its order key: a payment's card by its HMAC once its id is no longer whole.
    order_key: Option<String>,
    /// When the service answered it, by the service's clock as well as the till knows.
    answered: Timestamp,
}

/// The service's records read for one check, each once.
struct Checker {
    client: Client,
    pace: Pace,
    key: CardKey,
    /// Every gift card of the business, read once when a card's id is no longer kept
    /// whole (its HMAC or its last four find it).
    listed_cards: Option<Vec<GiftCard>>,
    ledgers: HashMap<String, Option<GiftCardWithTransactions>>,
    scans: Option<Vec<Scan>>,
    /// The service's records matched already: each matches one write.
    used: HashSet<String>,
}

impl Checker {
    /// What the service's records say of `item` (None: a write no figure counts).
    async fn check(
        &mut self,
        item: &OutboxItem,
        stored: &HashMap<i64, Stored>,
    ) -> Result<Option<Check>, Stop> {
        let answer = item.answer.as_ref();
        Ok(Some(match (&item.write, answer) {
            (
                Write::Payment {
                    gift_card_id,
                    amount_minor,
                    currency,
                    reference,
                },
                Some(Answer::GiftCardPayment(paid)),
            ) => {
                let id = match kept::is_shown(gift_card_id.as_str()) {
                    false => Some(gift_card_id.as_str().to_owned()),
                    true => {
                        let hash = stored
                            .get(&item.id.0)
                            .and_then(|s| s.order_key.as_deref())
                            .and_then(|k| k.strip_prefix("gift_card#"))
                            .unwrap_or_default()
                            .to_owned();
                        let key = self.key.clone();
                        self.card_where(move |card| key.hash(card.id.as_str()) == hash)
                            .await?
                    }
                };
                let ledger = match id {
                    Some(id) => self.ledger(&id).await?,
                    None => None,
                };
                match ledger {
                    Some(ledger) => check::payment(
                        paid.id.as_str(),
                        payment::to_decimal(*amount_minor, currency),
                        reference.as_deref(),
                        &ledger.transactions,
                        ledger.transactions_has_more,
                        &mut self.used,
                    ),
                    None => Check::Missing,
                }
            }
            (
                Write::IssueGiftCard {
                    amount, currency, ..
                },
                Some(Answer::GiftCard(issued)),
            ) => {
                let id = issued.gift_card.id.as_str().to_owned();
                let card = if kept::is_shown(&id) {
                    let end = crate::receipts::last_four(&id);
                    let (amount, code) = (*amount, currency.as_str().to_owned());
                    let found = self
                        .card_where(|card| {
                            card.id.as_str().ends_with(&end)
                                && card.initial_amount == amount
                                && card.currency.as_str() == code
                        })
                        .await?;
                    match found {
                        Some(found) => self.ledger(&found).await?.map(|l| l.gift_card),
                        None => None,
                    }
                } else {
                    self.ledger(&id).await?.map(|l| l.gift_card)
                };
                check::issued(*amount, currency.as_str(), card.as_ref())
            }
            (Write::Scan { action, amount, .. }, Some(Answer::ScanResult(result))) => {
                if *action == ScanAction::Redeem {
                    Check::NoRecordToCheck
                } else {
                    let answered = stored.get(&item.id.0).map(|s| s.answered);
                    let answered = answered.unwrap_or(item.created_at);
                    let earliest = stored.values().map(|s| s.answered).min();
                    let earliest = earliest.unwrap_or(answered);
                    let listed = self.scans_since(earliest - check::SCAN_WINDOW).await?;
                    check::scan(
                        *action,
                        amount.unwrap_or_default(),
                        result.customer_id.as_str(),
                        answered,
                        &listed,
                        &mut self.used,
                    )
                }
            }
            (Write::Enrol { .. }, Some(Answer::Customer(customer))) => {
                self.customer(&customer.id).await?
            }
            _ => return Ok(None),
        }))
    }

    /// The card `id` with its ledger (None: the service has no such card).
    async fn ledger(&mut self, id: &str) -> Result<Option<GiftCardWithTransactions>, Stop> {
        if let Some(known) = self.ledgers.get(id) {
            return Ok(known.clone());
        }
        let read = match self
            .client
            .gift_cards()
            .get(&loyalty_api::GiftCardId::new(id))
            .await
        {
            Ok(answer) => {
                self.pace.after(&answer).await;
                Some(answer.data)
            }
            Err(error) if not_found(&error) => None,
            Err(error) => return Err(error),
        };
        self.ledgers.insert(id.to_owned(), read.clone());
        Ok(read)
    }

    /// The id of the first of the business's gift cards `wanted` picks, its list read
    /// once.
    async fn card_where(
        &mut self,
        wanted: impl Fn(&GiftCard) -> bool,
    ) -> Result<Option<String>, Stop> {
        if self.listed_cards.is_none() {
            let mut pages = self.client.gift_cards().pages(ListParams {
                limit: Some(100),
                ..ListParams::default()
            });
            let mut cards = Vec::new();
            while let Some(page) = pages.next_page().await? {
                self.pace.after(&page).await;
                cards.extend(page.data.data);
            }
            self.listed_cards = Some(cards);
        }
        Ok(self
            .listed_cards
            .iter()
            .flatten()
            .find(|card| !self.used.contains(card.id.as_str()) && wanted(card))
            .map(|card| card.id.as_str().to_owned()))
    }

    /// The business's loyalty scans since `since` (newest first), read once.
    async fn scans_since(&mut self, since: Timestamp) -> Result<Vec<Scan>, Stop> {
        if let Some(scans) = &self.scans {
            return Ok(scans.clone());
        }
        let mut pages = self.client.scans().pages(ListParams {
            limit: Some(100),
            ..ListParams::default()
        });
        let mut scans = Vec::new();
        while let Some(page) = pages.next_page().await? {
            self.pace.after(&page).await;
            let older = page.data.data.iter().any(|s| s.created_at < since);
            scans.extend(page.data.data.into_iter().filter(|s| s.created_at >= since));
            if older {
                break;
            }
        }
        self.scans = Some(scans.clone());
        Ok(scans)
    }

    /// A customer enrolled: matched while the service holds them.
    async fn customer(&mut self, id: &CustomerId) -> Result<Check, Stop> {
        match self.client.customers().get(id).await {
            Ok(answer) => {
                self.pace.after(&answer).await;
                Ok(Check::Matched)
            }
            Err(error) if not_found(&error) => Ok(Check::Missing),
            Err(error) => Err(error),
        }
    }
}
