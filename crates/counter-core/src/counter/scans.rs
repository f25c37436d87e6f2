//! A card at the counter: read it, record a visit, points or a redemption.

use super::*;
use crate::scanner::{self, NotACard, Scanned};
use crate::views::CardView;

/// A visit refused as less than 15 minutes after the card's last: the cashier chooses
/// whether to record another ([`Counter::confirm_repeat_visit`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepeatVisit {
    /// When the last visit was, when the service said.
    pub last_visit_at: Option<Timestamp>,
}

/// What became of a scan ([`Counter::record_scan`], [`Counter::confirm_repeat_visit`]).
pub type ScanOutcome = Outcome<ScanResultView, RepeatVisit>;

/// What the counter shows with a card: its pass, when the till has read it, and what
/// may be done with the card now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardOffer {
    /// What the card counts towards.
    pub pass: Option<PassView>,
    /// The actions offered.
    pub actions: CardActions,
    /// A loyalty slip can be printed (a printer is set up here).
    pub print_slip: bool,
    /// Loyalty scans of it at this till today, when more than the manager's threshold
    /// (unusual activity: flagged, nothing blocked).
    pub unusual_scans: Option<u32>,
}

/// What a scan at the counter found ([`Counter::read_scan`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScanFound {
    /// A loyalty card.
    Card {
        /// Its id.
        id: CardId,
        /// The card as the till knows it, when it has read it, and what the counter
        /// shows with it (read once: the customer's screen is shown it once).
        known: Option<Box<(CardLookup, CardOffer)>>,
        /// What may be done with it now.
        actions: CardActions,
    },
    /// A gift card.
    GiftCard {
        /// Its id.
        id: GiftCardId,
    },
    /// Neither.
    NotACard {
        /// Why.
        reason: NotACard,
    },
}

/// What a fresh read of a card found ([`Counter::read_card`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FreshCard {
    /// The card as the service has it now (or with this till's queued writes pending).
    Found(Box<CardLookup>),
    /// The service has no such card: never enrolled here, or its customer was deleted.
    NoSuchCard,
    /// Not read: unreachable, key refused, a wait in force, or no first sync yet.
    NotChecked,
}

impl Counter {
    /// Records a scan: `Visit` (amount None), `Points` (amount = points, negative to
    /// deduct) or `Redeem`.
    pub async fn record_scan(
        &self,
        card: CardId,
        action: ScanAction,
        amount: Option<Decimal>,
    ) -> Result<ScanOutcome, Error> {
        self.staff()?;
        input::card(&card)?;
        input::points(&action, amount)?;
        // A code without a prefix this till knows is a card once it was found as one
        // (`identify`): no write is stored for a code nobody looked up.
        if matches!(scanner::read(card.as_str()), Scanned::Unknown { .. })
            && self.lookup_card(&card)?.is_none()
        {
            return Err(input::InputError::NotACard {
                given: input::shown(card.as_str()),
            }
            .into());
        }
        if self.nobody_here_has(&card).await? {
            return Err(NotAllowed::NotACardOfThisBusiness.into());
        }
        self.scan(card, action, amount, false, None).await
    }

    async fn scan(
        &self,
        card: CardId,
        action: ScanAction,
        amount: Option<Decimal>,
        confirm_repeat: bool,
        replaces: Option<ItemId>,
    ) -> Result<ScanOutcome, Error> {
        let write = Write::Scan {
            card_id: card.clone(),
            action,
            amount,
            confirm_repeat,
        };
        let (item, report) = self.submit(write, replaces).await?;
        scan_outcome(&item, report)
    }

    /// The cashier confirms a repeat visit: a new write with `confirm_repeat: true`
    /// and a new key (the first key's answer is already stored by the service). The
    /// replacement is stored and the first item closed (naming it) in one transaction,
    /// so a second confirmation (a double click, two screens, a restart in between)
    /// stores nothing and answers with the replacement as it stands: one extra visit.
    pub async fn confirm_repeat_visit(&self, item: ItemId) -> Result<ScanOutcome, Error> {
        self.staff()?;
        let core = &self.core;
        let first = outcome_state(core, item)?;
        let Write::Scan { card_id, .. } = &first.write else {
            return Err(not_a_recent_visit());
        };
        let write = Write::Scan {
            card_id: card_id.clone(),
            action: ScanAction::Visit,
            amount: None,
            confirm_repeat: true,
        };
        let author = self.author()?;
        let key = core.ids.idempotency_key();
        let confirmation = core.confirm_repeat_claimed(item, &write, &key, author)?;
        core.publish_item(item);
        let (replacement, report) = match confirmation {
            RepeatConfirmation::Stored(replacement) => self.attend(replacement).await?,
            RepeatConfirmation::AlreadyConfirmed(replacement) => {
                (outcome_state(core, replacement)?, Report::default())
            }
            RepeatConfirmation::NotARecentVisit => return Err(not_a_recent_visit()),
        };
        scan_outcome(&replacement, report)
    }

    /// What the counter offers with `card` (`queued` writes for it not yet in its
    /// figures), by the key connected now and the card's pass when it is known.
    ///
    /// The counter shows the card: so does the customer's screen.
    pub fn card_offer(&self, card: &CardView, queued: u32) -> CardOffer {
        let pass = self.known_pass(&card.pass_id);
        // Read once for all three below (each read parses the settings' row).
        let settings = self.settings().unwrap_or_else(|err| {
            tracing::warn!(%err, "the settings could not be read");
            Settings::default()
        });
        self.show_card_to_customer(card, pass.as_ref(), &settings);
        CardOffer {
            actions: CardActions::for_card(self.may(), card, pass.as_ref(), queued),
            pass,
            print_slip: settings.printer.is_some(),
            unusual_scans: self
                .unusual_scans(&card.id, &settings)
                .unwrap_or_else(|err| {
                    tracing::warn!(%err, "the card's scans today could not be counted");
                    None
                }),
        }
    }

    /// Reads what the scanner or the keyboard gave. A code without a prefix this till
    /// knows is looked up as a loyalty card (the cache, then the customers enrolled
    /// since the last sync), then as a gift card (the cache, then one read); when it
    /// is neither, the answer says so, or says that the service could not be asked.
    pub async fn identify(&self, input: &str) -> Result<Scanned, Error> {
        self.staff()?;
        self.identify_code(input).await
    }

    /// What the counter does with what the scanner or the keyboard gave
    /// ([`Counter::identify`]): a loyalty card, as the till knows it and with what may be
    /// done with it now (a card it has not read yet offers what the key may do; the
    /// service says the rest when the write comes), a gift card, or why it is neither.
    pub async fn read_scan(&self, input: &str) -> Result<ScanFound, Error> {
        Ok(match self.identify(input).await? {
            Scanned::Card { id } => {
                let known = self.cached_card(&id)?.map(|known| {
                    let offer = self.card_offer(&known.card, known.queued_writes);
                    Box::new((known, offer))
                });
                let actions = match &known {
                    Some(known) => known.1.actions,
                    None => CardActions::for_unknown_card(self.may()),
                };
                ScanFound::Card { id, known, actions }
            }
            Scanned::GiftCard { id } => ScanFound::GiftCard { id },
            // `identify` has looked it up: it was neither kind of card.
            Scanned::Unknown { .. } => ScanFound::NotACard {
                reason: NotACard::NotKnown,
            },
            Scanned::NotACard { reason } => ScanFound::NotACard { reason },
            // A person's badge signs them in at the lock screen; it is no card.
            Scanned::Badge { .. } => ScanFound::NotACard {
                reason: NotACard::StaffBadge,
            },
        })
    }

    /// What a scan typed: `typed` as it is (a person, the kiosk's keys, the camera,
    /// a scanner on a keyboard of its own layout), or, when that names no card and a
    /// scanner sent `keys` that, read through its layout, name one, what they name.
    /// See [`crate::keys`].
    pub fn scanned_text(&self, typed: String, keys: &[crate::keys::KeyPress]) -> String {
        let names_a_card = |text: &str| {
            matches!(
                scanner::read(text),
                Scanned::Card { .. } | Scanned::GiftCard { .. }
            )
        };
        if keys.is_empty() || names_a_card(&typed) {
            return typed;
        }
        let layout = self
            .settings()
            .map(|settings| settings.scanner_layout)
            .unwrap_or_default();
        match crate::keys::scanned(layout, keys) {
            Some(from_keys) if names_a_card(&from_keys) => from_keys,
            _ => typed,
        }
    }

    /// The keyboard layout the wedge scanner was set up for (staff only).
    pub fn scanner_layout(&self) -> Result<crate::keys::KeyboardLayout, Error> {
        self.staff()?;
        Ok(self.settings()?.scanner_layout)
    }

    /// Sets the keyboard layout the wedge scanner was set up for (a manager's).
    pub fn set_scanner_layout(&self, layout: crate::keys::KeyboardLayout) -> Result<(), Error> {
        self.staff()?;
        self.permit(Action::SetScannerLayout)?;
        self.change_settings(|saved| saved.scanner_layout = layout)
    }

    /// [`Counter::identify`], for the kiosk's check-in too.
    pub(super) async fn identify_code(&self, input: &str) -> Result<Scanned, Error> {
        let code = match scanner::read(input) {
            Scanned::Unknown { code } => code,
            read => return Ok(read),
        };
        let card = CardId::new(code.clone());
        let gift = GiftCardId::new(code);
        if self.cached_card(&card)?.is_some() {
            return Ok(Scanned::Card { id: card });
        }
        if cache::gift_card(&self.core.db(), &gift)?.is_some() {
            return Ok(Scanned::GiftCard { id: gift });
        }
        let not_known = |reason| Ok(Scanned::NotACard { reason });
        let Some(client) = self.core.client() else {
            return not_known(NotACard::NotKnownOffline);
        };
        if !self.core.connectivity().may_call_service() || self.core.gate().is_some() {
            return not_known(NotACard::NotKnownOffline);
        }
        // A card enrolled since the last sync.
        match sync::newer(&self.core, &client).await {
            Ok(Some(_)) if self.cached_card(&card)?.is_some() => {
                return Ok(Scanned::Card { id: card });
            }
            Ok(_) => {}
            Err(Error::Api(error)) if error.problem().is_none() => {
                return not_known(NotACard::NotKnownOffline);
            }
            Err(error) => return Err(error),
        }
        match client.gift_cards().get(&gift).await {
            Ok(read) => {
                let view = GiftCardView::from(&read.gift_card);
                cache::put_gift_card(&self.core.db(), &view, self.core.now())?;
                Ok(Scanned::GiftCard { id: gift })
            }
            Err(error) => match error.code() {
                Some(loyalty_api::ErrorCode::NotFound) => not_known(NotACard::NotKnown),
                Some(_) => Err(error.into()),
                None => not_known(NotACard::NotKnownOffline),
            },
        }
    }

    /// A card by its id, from the cache, with whether writes for it are queued.
    pub fn lookup_card(&self, card: &CardId) -> Result<Option<CardLookup>, Error> {
        self.staff()?;
        self.cached_card(card)
    }

    /// Whether no customer of this business has `card`, as far as the till can tell
    /// now: not in its copy, nor among the customers enrolled since its last walk,
    /// read now. False when it cannot tell (offline, no walk finished yet, the service
    /// not answering): a card enrolled elsewhere today may be real, and the service
    /// decides when the write goes.
    pub(super) async fn nobody_here_has(&self, card: &CardId) -> Result<bool, Error> {
        if self.cached_card(card)?.is_some() || !self.may_ask_now() {
            return Ok(false);
        }
        let Some(client) = self.core.client() else {
            return Ok(false);
        };
        match sync::newer(&self.core, &client).await {
            Ok(Some(_)) => Ok(self.cached_card(card)?.is_none()),
            Ok(None) | Err(_) => Ok(false),
        }
    }

    /// [`Counter::lookup_card`], for the kiosk's check-in too.
    pub(super) fn cached_card(&self, card: &CardId) -> Result<Option<CardLookup>, Error> {
        Ok(cache::lookup_card(&self.core.reader(), card)?)
    }

    /// A card read from the service now, into the cache.
    ///
    /// A cached card's customer is read again; a deleted customer is forgotten with
    /// their cards. For a card the cache does not know, the customers enrolled since
    /// the last sync are fetched. Nothing is read while the service is unreachable, the
    /// key refused or a wait in force, nor before a first sync has finished. Writes
    /// still queued for the card keep the cached figures, as in [`Counter::lookup_card`].
    pub async fn read_card(&self, card: &CardId) -> Result<FreshCard, Error> {
        self.staff()?;
        input::card(card)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        if !self.core.connectivity().may_call_service() || self.core.gate().is_some() {
            return Ok(FreshCard::NotChecked);
        }
        let Some(customer) = self
            .lookup_card(card)?
            .and_then(|known| known.customer.map(|c| c.id))
        else {
            if sync::newer(&self.core, &client).await?.is_none() {
                return Ok(FreshCard::NotChecked);
            }
            return self.found(card).await;
        };
        self.read_customer(&client, &customer).await?;
        self.found(card).await
    }

    /// Reads a customer (with their cards) from the service into the cache, or forgets
    /// them when the service no longer has them.
    pub(super) async fn read_customer(
        &self,
        client: &Client,
        customer: &CustomerId,
    ) -> Result<(), Error> {
        // Stamped with the time it was asked, so that an answer this till stored while
        // the read was on its way is not overwritten with older figures.
        let asked = self.core.now();
        let read = match client.customers().get(customer).await {
            Ok(read) => Some(CustomerView::from(&read.data)),
            Err(err) if err.code() == Some(&loyalty_api::ErrorCode::NotFound) => None,
            Err(err) => return Err(err.into()),
        };
        crate::db::cache_write(&mut self.core.db(), |tx| match read {
            Some(read) => cache::put_customer(tx, &read, asked),
            None => cache::forget_customer(tx, customer),
        })?;
        Ok(())
    }

    /// The card as read, once its pass is known (read now if this run has not).
    async fn found(&self, card: &CardId) -> Result<FreshCard, Error> {
        Ok(match self.lookup_card(card)? {
            Some(lookup) => {
                self.learn_pass(&lookup.card.pass_id).await;
                FreshCard::Found(Box::new(lookup))
            }
            None => FreshCard::NoSuchCard,
        })
    }
}

/// What became of the scan `item`; `report` holds the last visit a `recent_visit`
/// refusal named.
pub(super) fn scan_outcome(item: &OutboxItem, report: Report) -> Result<ScanOutcome, Error> {
    Outcome::of(
        item,
        |answer| match answer {
            Answer::ScanResult(result) => Some(result),
            _ => None,
        },
        |refusal| {
            (refusal.code == loyalty_api::ErrorCode::RecentVisit).then_some(RepeatVisit {
                last_visit_at: report.last_visit_at,
            })
        },
    )
}
