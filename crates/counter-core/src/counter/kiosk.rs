//! The kiosk: a tablet where customers check themselves in. It only records visits,
//! never confirms a repeat one, and is turned on and off by a manager.

use super::*;
use crate::kinds::LoyaltyType;
use crate::scanner::Scanned;
use crate::views::ScanResultView;

/// How long a customer who checked in waits at most for their name and progress to be
/// read, on a till that did not know them.
const CHECK_IN_READS_TIMEOUT: Duration = Duration::from_millis(1500);

for_the_ui! {
/// What a customer's own check-in came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CheckIn {
    /// The visit counts.
    Counted {
        /// The customer's name, when the till knows it.
        name: Option<String>,
        /// Where the card stands now (None when its pass is not known yet).
        progress: Option<Progress>,
    },
    /// Saved while the service cannot be reached: it counts once it answers.
    Saved {
        /// The customer's name, when the till knows it.
        name: Option<String>,
    },
    /// Checked in a moment ago already: nothing recorded (a repeat visit is only ever
    /// confirmed by a cashier).
    AlreadyCheckedIn {
        /// When (RFC 3339), as the service said.
        at: Option<String>,
    },
    /// Not a loyalty card the till could read.
    NotACard,
    /// A card none of this shop's customers has (enrolled elsewhere, or at another
    /// business): nothing was stored.
    NotOurs,
    /// The card was deleted or replaced (the service said): staff can help.
    NoLongerActive,
    /// This card cannot check in (the service refused it, for the reason given): staff
    /// can help.
    Refused {
        /// Why, as the service said.
        refusal: crate::views::RefusalView,
    },
}
}

/// How `--kiosk` went at start ([`Counter::start_as_kiosk`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KioskStart {
    /// The till is a kiosk.
    Started,
    /// No manager PIN is set yet: a manager chooses one, then the till becomes a kiosk.
    NeedsPin,
    /// Another copy owns the till: this one only reads it, and says so.
    HeldElsewhere,
}

impl Counter {
    /// How far `card` is from its reward, when its pass is known at this till.
    pub(crate) fn progress(&self, card: &crate::views::CardView) -> Option<Progress> {
        self.known_pass(&card.pass_id).map(|pass| Progress {
            count: match pass.loyalty_type {
                LoyaltyType::Points => card.points,
                _ => card.visits,
            },
            goal: pass.goal,
            counts: pass.loyalty_type,
            reward_title: pass.reward_title,
            rewards_available: card.rewards_available,
        })
    }

    /// Whether the till runs as a kiosk: in the copy that owns it (another copy only
    /// reads it, and says so), while a manager PIN can let staff leave it (a kiosk kept
    /// without one, by an earlier version, opens as a counter).
    pub fn kiosk(&self) -> Result<bool, Error> {
        Ok(self.owner().is_ok() && self.settings()?.kiosk && self.pin_is_set()?)
    }

    /// Turns the kiosk on or off: a manager's, both ways (leaving needs the PIN). A
    /// kiosk that turns on forgets the manager: the next one gives the PIN again.
    pub fn set_kiosk(&self, on: bool) -> Result<(), Error> {
        self.owner()?;
        self.permit(Action::SetKiosk)?;
        self.change_settings(|saved| saved.kiosk = on)?;
        self.kiosk_on.store(on, Ordering::SeqCst);
        // The kiosk is no person; leaving it, the till waits for one to sign in.
        self.lock_till();
        Ok(())
    }

    /// Makes this till a kiosk at start (`--kiosk`: whoever starts the app so set it
    /// up); leaving it later needs the PIN. Not while no PIN is set: whoever stood at
    /// the kiosk could choose one and leave.
    pub fn start_as_kiosk(&self) -> Result<KioskStart, Error> {
        if self.owner().is_err() {
            return Ok(KioskStart::HeldElsewhere);
        }
        if !self.pin_is_set()? {
            return Ok(KioskStart::NeedsPin);
        }
        self.change_settings(|saved| saved.kiosk = true)?;
        self.kiosk_on.store(true, Ordering::SeqCst);
        self.lock_till();
        Ok(KioskStart::Started)
    }

    pub(super) fn pin_is_set(&self) -> Result<bool, Error> {
        Ok(crate::people::anyone(&self.core.reader())?)
    }

    /// A customer checks in with their own card: one visit through the outbox, never a
    /// repeat visit. A check-in the service finds too recent (at once, or when it was
    /// sent later) is closed as already checked in, never a cashier's question; a card
    /// whose check-in still waits is answered "already checked in" and stores nothing.
    pub async fn check_in(&self, input: &str) -> Result<CheckIn, Error> {
        self.owner()?;
        let card = match self.identify_code(input).await? {
            Scanned::Card { id } => id,
            _ => return Ok(CheckIn::NotACard),
        };
        if self.nobody_here_has(&card).await? {
            return Ok(CheckIn::NotOurs);
        }
        let name = || {
            self.cached_card(&card)
                .ok()
                .flatten()
                .and_then(|known| known.customer)
                .and_then(|customer| customer.name)
        };
        let write = Write::Scan {
            card_id: card.clone(),
            action: ScanAction::Visit,
            amount: None,
            confirm_repeat: false,
        };
        let key = self.core.ids.idempotency_key();
        let Some(id) = self.core.enqueue_check_in_claimed(&write, &key)? else {
            return Ok(CheckIn::AlreadyCheckedIn { at: None });
        };
        let (item, report) = self.attend(id).await?;
        Ok(match scans::scan_outcome(&item, report)? {
            ScanOutcome::Done { answer: result, .. } => {
                self.learn_who_checked_in(&card, &result).await;
                CheckIn::Counted {
                    name: name(),
                    progress: self.progress(&result.card),
                }
            }
            ScanOutcome::Queued { .. } | ScanOutcome::NeedsDecision { .. } => {
                CheckIn::Saved { name: name() }
            }
            ScanOutcome::Known { known, .. } => CheckIn::AlreadyCheckedIn {
                at: known.last_visit_at.map(|t| t.to_string()),
            },
            ScanOutcome::Refused { refusal, .. }
                if refusal.code == loyalty_api::ErrorCode::CardNotActive =>
            {
                CheckIn::NoLongerActive
            }
            ScanOutcome::Refused { refusal, .. } => CheckIn::Refused {
                refusal: refusal.into(),
            },
        })
    }

    /// What a customer reads once their visit counts, their name and their card's
    /// pass, read now when this till does not know them (a new kiosk knows neither),
    /// both at once. Best effort and brief: the visit counts either way.
    async fn learn_who_checked_in(&self, card: &CardId, result: &ScanResultView) {
        let Some(client) = self.core.client() else {
            return;
        };
        let customer = async {
            let known = self
                .cached_card(card)
                .ok()
                .flatten()
                .is_some_and(|known| known.customer.is_some());
            if !known && let Err(error) = self.read_customer(&client, &result.customer_id).await {
                tracing::info!(%error, "the customer checking in was not read");
            }
        };
        let reads = async { tokio::join!(customer, self.learn_pass(&result.card.pass_id)) };
        if tokio::time::timeout(CHECK_IN_READS_TIMEOUT, reads)
            .await
            .is_err()
        {
            tracing::info!("the customer checking in and their pass were not read in time");
        }
    }
}
