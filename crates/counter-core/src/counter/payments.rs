//! Gift cards: read them, take payments (online or under the offline policy), issue them.

use super::*;

/// A gift-card balance, for the "take exactly what is left" choice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Balance {
    /// The amount.
    #[serde(with = "loyalty_api::decimal_string")]
    pub amount: Decimal,
    /// In minor units.
    pub amount_minor: MinorUnits,
    /// The currency.
    pub currency: Currency,
}

/// A payment refused as more than the card holds: nothing was taken. The counter
/// offers to take exactly `balance`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InsufficientBalance {
    /// What the card holds, when the service said.
    pub balance: Option<Balance>,
}

/// What became of a payment ([`Counter::take_payment`]).
pub type PaymentOutcome = Outcome<PaymentView, InsufficientBalance>;

for_the_ui! {
/// A gift card to issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GiftCardIssue {
    /// The amount, as typed.
    pub amount: String,
    /// The currency.
    pub currency: String,
    /// The email's language.
    pub locale: String,
    /// The recipient's name.
    pub recipient_name: String,
    /// The recipient's email.
    pub recipient_email: String,
}
}

/// The languages the app speaks, offered for a gift card's email after the passes'.
const APP_LANGUAGES: [&str; 2] = ["en", "fr"];

for_the_ui! {
/// What the form that issues a gift card offers first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssueChoices {
    /// Currencies, the business's usual one first.
    pub currencies: Vec<String>,
    /// Languages for the recipient's email (language codes), the passes' first.
    pub locales: Vec<String>,
}
}

/// A gift card as the counter opens it, with whether and up to what it can be paid with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftCardRead {
    /// The card, and when its balance was read.
    pub card: CachedGiftCard,
    /// Its recent ledger, newest first (empty when read from the cache).
    pub ledger: Vec<LedgerEntryView>,
    /// Read from the service just now; else from the till's cache.
    pub fresh: bool,
    /// What a payment may take now.
    pub offer: PaymentOffer,
}

/// Minor units of payments that are or may become money taken, in one currency.
#[derive(Debug, Default)]
struct AtRisk {
    /// From the card in hand.
    this_card: i64,
    /// From every card.
    all: i64,
}

/// The most pages of gift cards [`Counter::probably_issued`] reads.
pub const PROBABLY_ISSUED_PAGES: usize = 10;

for_the_ui! {
/// A gift card the service issued, as a manager checks it before sending an issue
/// again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssuedCard {
    /// Its id's last four characters: the whole id is the card's money, shown only
    /// when the voucher is handed over.
    pub card_end: String,
    /// The amount issued (major units, as the service wrote it).
    pub amount: String,
    /// Its currency.
    pub currency: String,
    /// The recipient's name.
    pub recipient_name: Option<String>,
    /// When it was issued (RFC 3339, the service's clock).
    pub created_at: String,
}
}

impl Counter {
    /// Opens a gift card: read from the service now, or from the till's cache when the
    /// service cannot be reached (then the offline policy decides what may be paid).
    pub async fn open_gift_card(&self, id: &GiftCardId) -> Result<GiftCardRead, Error> {
        self.staff()?;
        let (card, ledger, fresh) = match self.read_gift_card(id).await {
            Ok((card, ledger)) => (card, ledger, true),
            Err(Error::Api(error)) if error.problem().is_none() => match self.gift_card(id)? {
                Some(card) => (card, Vec::new(), false),
                None => return Err(Error::Api(error)),
            },
            Err(error) => return Err(error),
        };
        Ok(GiftCardRead {
            offer: self.payment_offer(&card, fresh)?,
            card,
            ledger,
            fresh,
        })
    }

    /// What a payment from `card` may take now: its balance less the payments from it
    /// still at risk, and, when it was read from the cache, within the offline policy.
    pub fn payment_offer(&self, card: &CachedGiftCard, fresh: bool) -> Result<PaymentOffer, Error> {
        let gift = &card.gift_card;
        let currency = &gift.currency;
        let decimal = |minor: i64| payment::to_decimal(MinorUnits(minor), currency);
        let at_risk = self.at_risk(&gift.id, currency)?;
        let offline = if fresh {
            Ok(None)
        } else {
            let policy = settings::load(&self.core.db())?.offline_payments;
            policy.limit(
                currency,
                decimal(at_risk.all),
                card.read_at,
                self.core.now(),
            )
        };
        Ok(PaymentOffer::for_gift_card(
            self.may(),
            gift,
            decimal(at_risk.this_card),
            offline,
        ))
    }

    /// Takes a payment from a gift card; `amount` as typed, in the card's currency.
    pub async fn take_payment(
        &self,
        gift_card: GiftCardId,
        amount: &str,
        reference: Option<String>,
    ) -> Result<PaymentOutcome, Error> {
        self.staff()?;
        let core = &self.core;
        input::gift_card(&gift_card)?;
        // A blank reference is no reference.
        let reference = reference.filter(|r| !r.trim().is_empty());
        // A fresh balance when the service answers; the cached one otherwise.
        let mut online = false;
        if let Some(client) = core.client()
            && core.connectivity().may_call_service()
        {
            // Read within the cashier's wait; past it the till goes on as if offline
            // (the cached balance and the manager's policy decide).
            let read = tokio::time::timeout(
                core.config.interactive_wait,
                client.gift_cards().get(&gift_card),
            )
            .await;
            match read {
                Err(_) => tracing::info!("the gift card's balance was not read in time"),
                Ok(Ok(read)) => {
                    cache::put_gift_card(
                        &core.db(),
                        &GiftCardView::from(&read.gift_card),
                        core.now(),
                    )?;
                    online = true;
                }
                Ok(Err(err)) if err.problem().is_some() => {
                    return Err(err.into());
                }
                // No answer: the client has told the till; the cache decides below.
                Ok(Err(_)) => {}
            }
        }
        let cached: CachedGiftCard =
            cache::gift_card(&core.db(), &gift_card)?.ok_or(Error::GiftCardUnknown)?;
        let currency = cached.gift_card.currency.clone();
        let minor = payment::parse_amount(amount, &currency)?;
        let reference = payment::reference(reference.as_deref())?;
        let typed = payment::to_decimal(minor, &currency);
        // Every payment that is or may become money taken from this card counts: queued,
        // being sent, or waiting for a person (it may have arrived).
        let at_risk = self.at_risk(&gift_card, &currency)?;
        let available = payment::to_minor(cached.gift_card.balance, &currency)
            .map(|b| b.get() - at_risk.this_card)
            .unwrap_or(0);
        if minor.get() > available {
            return Err(AmountError::OverBalance {
                amount: typed.to_string(),
                available: payment::to_decimal(MinorUnits(available.max(0)), &currency).to_string(),
                currency: currency.to_string(),
            }
            .into());
        }
        if !online {
            let policy = settings::load(&core.db())?.offline_payments;
            policy.check(
                typed,
                &currency,
                payment::to_decimal(MinorUnits(at_risk.all), &currency),
                cached.read_at,
                core.now(),
            )?;
        }
        // Numbered last, once nothing above refused it.
        let ticket = crate::people::next_ticket(&core.db())?;
        let write = Write::Payment {
            gift_card_id: gift_card,
            amount_minor: minor,
            currency,
            reference: Some(payment::with_ticket(&ticket, reference)),
        };
        let (item, report) = self.submit(write, None).await?;
        // The payment is this person's, whatever comes next; then the till locks, when
        // the owner chose so.
        self.after_gift_card_payment()?;
        let outcome = Outcome::of(
            &item,
            |answer| match answer {
                Answer::GiftCardPayment(payment) => Some(payment),
                _ => None,
            },
            |refusal| {
                (refusal.code == loyalty_api::ErrorCode::InsufficientBalance).then(|| {
                    InsufficientBalance {
                        balance: report.balance.map(|b| Balance {
                            amount: b.amount,
                            amount_minor: b.amount_minor,
                            currency: b.currency,
                        }),
                    }
                })
            },
        )?;
        if let Outcome::Done { answer, .. } = &outcome {
            self.show_balance_to_customer(answer);
        }
        Ok(outcome)
    }

    /// Minor units of payments at risk (queued, sending, needing a decision) in
    /// `currency`: from `gift_card`, and from every card (one read of the queue).
    fn at_risk(&self, gift_card: &GiftCardId, currency: &Currency) -> Result<AtRisk, Error> {
        let mut at_risk = AtRisk::default();
        for item in store::payments_at_risk(&self.core.db())? {
            if let Write::Payment {
                gift_card_id,
                amount_minor,
                currency: c,
                ..
            } = &item.write
                && c == currency
            {
                at_risk.all += amount_minor.get();
                if gift_card_id == gift_card {
                    at_risk.this_card += amount_minor.get();
                }
            }
        }
        Ok(at_risk)
    }

    /// Reads a gift card from the service into the cache (its balance read now).
    pub async fn refresh_gift_card(&self, id: &GiftCardId) -> Result<CachedGiftCard, Error> {
        self.staff()?;
        Ok(self.read_gift_card(id).await?.0)
    }

    /// [`Counter::refresh_gift_card`], with the card's recent ledger (newest first) as
    /// the service shows it.
    pub async fn read_gift_card(
        &self,
        id: &GiftCardId,
    ) -> Result<(CachedGiftCard, Vec<LedgerEntryView>), Error> {
        self.staff()?;
        input::gift_card(id)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let read = client.gift_cards().get(id).await?;
        let view = GiftCardView::from(&read.gift_card);
        cache::put_gift_card(&self.core.db(), &view, self.core.now())?;
        let payers = store::payers_by_reference(&self.core.reader(), id)?;
        let ledger = read
            .transactions
            .iter()
            .map(|t| LedgerEntryView {
                made_by: t.reference.as_ref().and_then(|r| payers.get(r)).cloned(),
                ..LedgerEntryView::from(t)
            })
            .collect();
        Ok((
            CachedGiftCard {
                gift_card: view,
                read_at: self.core.now(),
            },
            ledger,
        ))
    }

    /// The currency whose offline caps a manager most likely sets: the one most of the
    /// gift cards read at this till are in, else the first with caps, else EUR.
    pub fn usual_currency(&self) -> Result<Currency, Error> {
        Ok(self.known_currencies()?.swap_remove(0))
    }

    /// The currencies this till has seen, the usual one first: those of the gift cards
    /// it read (most frequent first), then those of the offline caps; EUR when none.
    fn known_currencies(&self) -> Result<Vec<Currency>, Error> {
        let db = self.core.db();
        let read = cache::currencies(&db)?;
        let capped = settings::load(&db)
            .map(|s| {
                s.offline_payments
                    .caps
                    .into_iter()
                    .map(|c| c.currency.to_string())
            })
            .into_iter()
            .flatten();
        let mut known: Vec<Currency> = Vec::new();
        for code in read.into_iter().chain(capped) {
            if let Ok(currency) = Currency::new(&code)
                && !known.contains(&currency)
            {
                known.push(currency);
            }
        }
        if known.is_empty() {
            known.push(Currency::new("EUR").expect("EUR is a currency"));
        }
        Ok(known)
    }

    /// What the form that issues a gift card offers: the currencies this till knows
    /// (the usual one first) and the languages of the email (the passes' first, then
    /// those the app speaks).
    pub async fn issue_choices(&self) -> Result<IssueChoices, Error> {
        self.staff()?;
        let passes = self.passes().await.unwrap_or_default();
        let mut locales: Vec<String> = Vec::new();
        for locale in passes
            .iter()
            .map(|p| p.locale.clone())
            .chain(APP_LANGUAGES.iter().map(|l| (*l).to_owned()))
        {
            if !locale.is_empty() && !locales.contains(&locale) {
                locales.push(locale);
            }
        }
        Ok(IssueChoices {
            currencies: self
                .known_currencies()?
                .into_iter()
                .map(|c| c.to_string())
                .collect(),
            locales,
        })
    }

    /// A cached gift card.
    pub fn gift_card(&self, id: &GiftCardId) -> Result<Option<CachedGiftCard>, Error> {
        Ok(cache::gift_card(&self.core.db(), id)?)
    }

    /// The gift cards the service issued to `item`'s recipient, for its amount and
    /// currency, since shortly before its first attempt that may have arrived: what a
    /// manager weighs before sending a gift-card issue again ("this is probably it").
    /// Empty for any other write. Read from the service now, newest first, at most
    /// [`PROBABLY_ISSUED_PAGES`] pages.
    pub async fn probably_issued(&self, item: ItemId) -> Result<Vec<IssuedCard>, Error> {
        self.staff()?;
        let found = outcome_state(&self.core, item)?;
        let Write::IssueGiftCard {
            amount,
            currency,
            recipient_email,
            ..
        } = &found.write
        else {
            return Ok(Vec::new());
        };
        let first = found
            .arrived_service_at
            .or(found.may_have_arrived_at)
            .unwrap_or(found.created_at);
        // The till's clock and the service's may differ a little.
        let since = first - jiff::SignedDuration::from_mins(10);
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let mut params = loyalty_api::ListParams::new().limit(100);
        let mut cards = Vec::new();
        for _ in 0..PROBABLY_ISSUED_PAGES {
            let page = client.gift_cards().list(&params).await?.data;
            let older = page.data.iter().any(|card| card.created_at < since);
            cards.extend(
                page.data
                    .iter()
                    .filter(|card| {
                        card.created_at >= since
                            && card.initial_amount == *amount
                            && card.currency == *currency
                            && card
                                .recipient
                                .as_ref()
                                .is_some_and(|r| r.email.eq_ignore_ascii_case(recipient_email))
                    })
                    .map(|card| IssuedCard {
                        card_end: crate::receipts::last_four(card.id.as_str()),
                        amount: card.initial_amount.to_string(),
                        currency: card.currency.to_string(),
                        recipient_name: card.recipient.as_ref().map(|r| r.name.clone()),
                        created_at: card.created_at.to_string(),
                    }),
            );
            match page.next_cursor {
                Some(cursor) if !older => params = params.cursor(cursor),
                _ => break,
            }
        }
        Ok(cards)
    }

    /// Issues a gift card, checked whole before anything is stored: a manager's
    /// decision (it promises money).
    pub async fn issue_gift_card(
        &self,
        issue: GiftCardIssue,
    ) -> Result<Outcome<IssuedGiftCardView>, Error> {
        self.staff()?;
        let currency = Currency::new(&issue.currency).map_err(|_| NotAllowed::NotACurrency {
            given: issue.currency.chars().take(8).collect(),
        })?;
        let minor = payment::parse_amount(&issue.amount, &currency)?;
        let write = Write::IssueGiftCard {
            amount: payment::to_decimal(minor, &currency),
            currency,
            locale: input::locale(&issue.locale)?,
            recipient_name: input::text(TextField::Name, &issue.recipient_name, 200, true)?
                .unwrap_or_default(),
            recipient_email: input::email(&issue.recipient_email)?,
        };
        self.permit(Action::IssueGiftCard)?;
        self.write_outcome(write, |answer| match answer {
            Answer::GiftCard(issued) => Some(issued),
            _ => None,
        })
        .await
    }
}
