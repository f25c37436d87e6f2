//! Serializable copies of the API's answers, for the outbox's stored answers, the
//! cache and the UI. The client's models only deserialize; these also serialize. Also where
//! a card stands ([`Progress`]), as the customer reads it.

use jiff::Timestamp;
use loyalty_api::{
    CardId, Currency, CustomerId, GiftCardId, MinorUnits, PassId, PaymentId, decimal_string,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::kinds::{
    CardStatus, EmailReason, GiftCardStatus, LoyaltyType, ScanAction, TransactionType,
};

/// A loyalty card as the service last returned it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    /// The card's id.
    pub id: CardId,
    /// Its pass.
    pub pass_id: PassId,
    /// Whether it accepts scans.
    pub status: CardStatus,
    /// Visits counted towards the goal.
    pub visits: i64,
    /// Points held.
    pub points: i64,
    /// Rewards ready to redeem.
    pub rewards_available: i64,
    /// Rewards redeemed so far.
    pub rewards_redeemed: i64,
    /// The last visit, if any.
    pub last_visit_at: Option<Timestamp>,
    /// A sandbox card.
    pub test: bool,
}

impl From<&loyalty_api::Card> for CardView {
    fn from(card: &loyalty_api::Card) -> Self {
        Self {
            id: card.id.clone(),
            pass_id: card.pass_id.clone(),
            status: card.status,
            visits: card.visits,
            points: card.points,
            rewards_available: card.rewards_available,
            rewards_redeemed: card.rewards_redeemed,
            last_visit_at: card.last_visit_at,
            test: card.test,
        }
    }
}

/// A customer with their cards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomerView {
    /// The customer's id.
    pub id: CustomerId,
    /// Their pass.
    pub pass_id: PassId,
    /// Name, email and phone as the service has them.
    pub name: Option<String>,
    /// Email.
    pub email: Option<String>,
    /// Phone.
    pub phone: Option<String>,
    /// Their cards.
    pub cards: Vec<CardView>,
    /// When they enrolled.
    pub created_at: Option<Timestamp>,
}

impl From<&loyalty_api::Customer> for CustomerView {
    fn from(c: &loyalty_api::Customer) -> Self {
        Self {
            id: c.id.clone(),
            pass_id: c.pass_id.clone(),
            name: c.name.clone(),
            email: c.email.clone(),
            phone: c.phone.clone(),
            cards: c.cards.iter().map(CardView::from).collect(),
            created_at: c.created_at,
        }
    }
}

/// The answer to a scan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanResultView {
    /// What it was.
    pub kind: ScanAction,
    /// The customer.
    pub customer_id: CustomerId,
    /// Visits added by this scan.
    pub visits_added: i64,
    /// Points added.
    pub points_added: i64,
    /// Points deducted.
    pub points_deducted: i64,
    /// Whether the scan earned a reward.
    pub reward_earned: bool,
    /// The card after the scan.
    pub card: CardView,
}

impl From<&loyalty_api::ScanResult> for ScanResultView {
    fn from(r: &loyalty_api::ScanResult) -> Self {
        Self {
            kind: r.kind,
            customer_id: r.customer_id.clone(),
            visits_added: r.visits_added,
            points_added: r.points_added,
            points_deducted: r.points_deducted,
            reward_earned: r.reward_earned,
            card: CardView::from(&r.card),
        }
    }
}

/// A gift card as the service last returned it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GiftCardView {
    /// Its id.
    pub id: GiftCardId,
    /// Whether it can be spent.
    pub status: GiftCardStatus,
    /// The card's currency.
    pub currency: Currency,
    /// The amount it was issued with.
    #[serde(with = "decimal_string")]
    pub initial_amount: Decimal,
    /// What is left.
    #[serde(with = "decimal_string")]
    pub balance: Decimal,
    /// The recipient's name.
    pub recipient_name: Option<String>,
    /// A sandbox card.
    pub test: bool,
}

impl GiftCardView {
    /// Whether payments can be taken (the service decides; this is the cached view).
    pub fn is_active(&self) -> bool {
        self.status == GiftCardStatus::Active
    }
}

impl From<&loyalty_api::GiftCard> for GiftCardView {
    fn from(g: &loyalty_api::GiftCard) -> Self {
        Self {
            id: g.id.clone(),
            status: g.status,
            currency: g.currency.clone(),
            initial_amount: g.initial_amount,
            balance: g.balance,
            recipient_name: g.recipient.as_ref().map(|r| r.name.clone()),
            test: g.test,
        }
    }
}

/// An entry of a gift card's ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerEntryView {
    /// Money taken, or the card's issue.
    pub kind: TransactionType,
    /// The amount.
    #[serde(with = "decimal_string")]
    pub amount: Decimal,
    /// The balance after it.
    #[serde(with = "decimal_string")]
    pub balance_after: Decimal,
    /// When.
    pub created_at: Timestamp,
    /// The business's own reference (a ticket number).
    pub reference: Option<String>,
    /// Who took it, when this till did.
    pub made_by: Option<String>,
}

impl From<&loyalty_api::GiftCardTransaction> for LedgerEntryView {
    fn from(t: &loyalty_api::GiftCardTransaction) -> Self {
        Self {
            kind: t.kind,
            amount: t.amount,
            balance_after: t.balance_after,
            created_at: t.created_at,
            reference: t.reference.clone(),
            made_by: None,
        }
    }
}

for_the_ui! {
/// A pass: what a card counts towards.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassView {
    /// Its id.
    pub id: PassId,
    /// Its name.
    pub name: String,
    /// What it counts.
    pub loyalty_type: LoyaltyType,
    /// Visits or points needed for a reward.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub goal: i64,
    /// The reward.
    pub reward_title: String,
    /// Its language (empty in copies kept before it was recorded).
    #[serde(default)]
    pub locale: String,
}
}

impl From<&loyalty_api::Pass> for PassView {
    fn from(p: &loyalty_api::Pass) -> Self {
        Self {
            id: p.id.clone(),
            name: p.name.clone(),
            loyalty_type: p.loyalty_type,
            goal: p.goal,
            reward_title: p.reward_title.clone(),
            locale: p.locale.clone(),
        }
    }
}

/// The answer to a gift-card payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentView {
    /// The payment's id.
    pub id: PaymentId,
    /// The amount taken.
    #[serde(with = "decimal_string")]
    pub amount: Decimal,
    /// The same in minor units.
    pub amount_minor: MinorUnits,
    /// The balance after it.
    #[serde(with = "decimal_string")]
    pub balance_after: Decimal,
    /// The gift card after the payment.
    pub gift_card: GiftCardView,
}

impl From<&loyalty_api::GiftCardPayment> for PaymentView {
    fn from(p: &loyalty_api::GiftCardPayment) -> Self {
        Self {
            id: p.id.clone(),
            amount: p.amount,
            amount_minor: p.amount_minor,
            balance_after: p.balance_after,
            gift_card: GiftCardView::from(&p.gift_card),
        }
    }
}

/// What the service answered to a write, as stored with a `done` outbox item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "object", rename_all = "snake_case")]
pub enum Answer {
    /// A scan's result.
    ScanResult(ScanResultView),
    /// A payment.
    GiftCardPayment(PaymentView),
    /// An enrolled customer.
    Customer(CustomerView),
    /// A confirmed or cancelled message.
    Broadcast(BroadcastView),
    /// An issued gift card (with whether the email went).
    GiftCard(IssuedGiftCardView),
}

/// A message as the service answered a confirm or a cancel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BroadcastView {
    /// Its id (the one a cancel takes).
    pub id: loyalty_api::BroadcastId,
    /// sending, scheduled, ...
    pub status: String,
    /// Recipients.
    pub recipient_count: Option<i64>,
    /// When it goes out.
    pub scheduled_at: Option<Timestamp>,
    /// When it was cancelled (answers kept before this was recorded have none).
    #[serde(default)]
    pub cancelled_at: Option<Timestamp>,
}

impl From<&loyalty_api::Broadcast> for BroadcastView {
    fn from(b: &loyalty_api::Broadcast) -> Self {
        Self {
            id: b.id.clone(),
            status: b.status.as_str().to_owned(),
            recipient_count: b.recipient_count,
            scheduled_at: b.scheduled_at,
            cancelled_at: b.cancelled_at,
        }
    }
}

/// A gift card as the service answered its issue, with whether the email went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssuedGiftCardView {
    /// The card.
    pub gift_card: GiftCardView,
    /// Whether the recipient's email went.
    pub email_sent: bool,
    /// Why it did not (answers kept before this was recorded have none).
    #[serde(default)]
    pub email_reason: Option<EmailReason>,
}

/// A message's preview, as the manager sees it before confirming.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BroadcastPreviewView {
    /// The token to confirm with (single use, valid until `expires_at`).
    pub confirmation_token: String,
    /// When the token expires.
    pub expires_at: Timestamp,
    /// Cards that would receive it.
    pub cards: i64,
    /// People that would receive it.
    pub people: i64,
    /// Messages left this month.
    pub quota_remaining: i64,
    /// Messages per month.
    pub quota_total: i64,
}

impl From<&loyalty_api::BroadcastPreview> for BroadcastPreviewView {
    fn from(p: &loyalty_api::BroadcastPreview) -> Self {
        Self {
            confirmation_token: p.confirmation_token.as_str().to_owned(),
            expires_at: p.expires_at,
            cards: p.recipients.cards,
            people: p.recipients.people,
            quota_remaining: p.quota.remaining,
            quota_total: p.quota.total,
        }
    }
}

for_the_ui! {
/// The service's refusal as the screens receive it, with its HTTP status (known from
/// its code): a write's ([`crate::outbox::Refusal`]) or a call's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefusalView {
    /// The problem code, when this version knows it (`ProblemCode.ts` lists them);
    /// else `unknown`, explained by `status`.
    #[cfg_attr(feature = "ts", ts(type = "import('./ProblemCode').ProblemCode | 'unknown'"))]
    pub code: String,
    /// The code as the service sent it, for the details.
    pub given_code: String,
    /// The HTTP status of such a refusal, when known.
    pub status: Option<u16>,
    /// The service's explanation.
    pub detail: Option<String>,
    /// The Request-Id to quote.
    pub request_id: Option<String>,
}
}

impl RefusalView {
    pub(crate) fn new(
        code: &loyalty_api::ErrorCode,
        status: Option<u16>,
        detail: Option<String>,
        request_id: Option<String>,
    ) -> Self {
        Self {
            code: match code {
                loyalty_api::ErrorCode::Unknown(_) => "unknown".to_owned(),
                known => known.as_str().to_owned(),
            },
            given_code: code.as_str().to_owned(),
            status,
            detail,
            request_id,
        }
    }

    /// The service's problem, as a call's error carries it (with its real status).
    pub fn of_problem(problem: &loyalty_api::Problem) -> Self {
        Self::new(
            &problem.code,
            Some(problem.status),
            problem.detail.clone(),
            problem.request_id.clone(),
        )
    }
}

for_the_ui! {
/// How far a card is from its reward, for the customer to read in large type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Visits (or points) on the card now.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub count: i64,
    /// What earns the reward.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub goal: i64,
    /// Visits or points.
    pub counts: LoyaltyType,
    /// The reward.
    pub reward_title: String,
    /// Rewards ready to be given at the counter.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub rewards_available: i64,
}
}
