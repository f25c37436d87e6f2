//! The answers of the API: each resource's JSON is one `Serialize + ToSchema` type
//! (the fuzzer's `response_schema_conformance` check still compares every answer with
//! its schema).

use serde::Serialize;
use utoipa::ToSchema;

macro_rules! list {
    ($name:ident, $item:ty) => {
        /// A page of a list, newest first.
        #[derive(Debug, Clone, Serialize, ToSchema)]
        pub(crate) struct $name {
            /// `list`.
            pub(crate) object: String,
            /// The items.
            pub(crate) data: Vec<$item>,
            /// Whether more items follow.
            pub(crate) has_more: bool,
            /// The cursor of the next page; null exactly when `has_more` is false.
            pub(crate) next_cursor: Option<String>,
        }
    };
}

/// An error: `application/problem+json`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Problem {
    /// `{site_url}/developers/errors#<code>`.
    pub(crate) r#type: String,
    /// A short human title.
    pub(crate) title: String,
    /// The HTTP status.
    pub(crate) status: u16,
    /// What happened, for people.
    pub(crate) detail: String,
    /// The stable code to branch on.
    pub(crate) code: String,
    /// The field or parameter concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) param: Option<String>,
    /// The id of the request that answered.
    pub(crate) request_id: String,
    /// validation_failed: one item per refused field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) errors: Option<Vec<FieldError>>,
    /// insufficient_balance on a gift card: its balance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) balance: Option<Balance>,
    /// recent_visit: the card's last visit.
    #[schema(format = DateTime)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) last_visit_at: Option<String>,
    /// customer_exists: the existing customer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) customer_id: Option<String>,
}

/// One refused field.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct FieldError {
    /// The field.
    pub(crate) param: String,
    /// `required`, `invalid_type`, `invalid_value`, `too_long`, `out_of_range`,
    /// `invalid_json`, `unsupported_content_type`.
    pub(crate) code: String,
    /// For people.
    pub(crate) message: String,
}

/// A gift card's balance in a problem.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Balance {
    /// Two decimals.
    pub(crate) amount: String,
    /// Minor units.
    pub(crate) amount_minor: i64,
    /// ISO 4217.
    pub(crate) currency: String,
}

/// The key's own details.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Key {
    /// `key`.
    pub(crate) object: String,
    pub(crate) business: KeyBusiness,
    pub(crate) key: KeyId,
    /// `live` or `test`.
    pub(crate) mode: String,
    /// `enterprise`.
    pub(crate) plan: String,
    /// A human plan name.
    pub(crate) plan_name: String,
    pub(crate) rate_limits: RateLimits,
    /// The key's scopes.
    pub(crate) scopes: Vec<String>,
}

/// The key's business.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct KeyBusiness {
    pub(crate) id: String,
    pub(crate) name: String,
}

/// The key itself.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct KeyId {
    pub(crate) id: String,
    /// The visible start of the key.
    pub(crate) prefix: String,
}

/// The key's rate limits.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct RateLimits {
    pub(crate) requests_per_business: i64,
    pub(crate) requests_per_key: i64,
    pub(crate) window_seconds: i64,
    pub(crate) writes_per_key: i64,
}

/// A loyalty card design.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Pass {
    /// `pass`.
    pub(crate) object: String,
    pub(crate) id: String,
    pub(crate) name: String,
    /// `active` or `archived`.
    pub(crate) status: String,
    /// `visits` or `points`.
    pub(crate) loyalty_type: String,
    pub(crate) goal: i64,
    pub(crate) reward_title: String,
    pub(crate) locale: String,
    pub(crate) logo_url: Option<String>,
    pub(crate) cover_image_url: Option<String>,
    pub(crate) colors: Colors,
    /// Always empty here.
    #[schema(value_type = Vec<Object>)]
    pub(crate) tier_rewards: Vec<()>,
    pub(crate) wallets: Wallets,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
    #[schema(format = DateTime)]
    pub(crate) updated_at: String,
}

/// A pass's colours.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Colors {
    pub(crate) accent: String,
    pub(crate) background: String,
    pub(crate) foreground: String,
    pub(crate) label: String,
}

/// The wallets a pass is offered in.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Wallets {
    pub(crate) apple: bool,
    pub(crate) google: bool,
}

/// A customer's card on a pass.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Card {
    /// `card`.
    pub(crate) object: String,
    pub(crate) id: String,
    pub(crate) pass_id: String,
    /// `apple` or `google`.
    pub(crate) wallet: String,
    /// `active`, `deleted` or `replaced`.
    pub(crate) status: String,
    pub(crate) visits: i64,
    pub(crate) points: i64,
    pub(crate) rewards_available: i64,
    pub(crate) rewards_redeemed: i64,
    #[schema(format = DateTime)]
    pub(crate) last_visit_at: Option<String>,
    /// True for a sandbox card.
    pub(crate) test: bool,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
}

/// One person on one pass.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Customer {
    /// `customer`.
    pub(crate) object: String,
    pub(crate) id: String,
    pub(crate) pass_id: String,
    pub(crate) name: Option<String>,
    pub(crate) email: Option<String>,
    pub(crate) phone: Option<String>,
    pub(crate) cards: Vec<Card>,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
    #[schema(format = DateTime)]
    pub(crate) updated_at: String,
}

/// A counter event (visit or points).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Scan {
    /// `scan`.
    pub(crate) object: String,
    pub(crate) id: String,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
    /// `visit` or `points`.
    pub(crate) kind: String,
    pub(crate) pass_id: String,
    pub(crate) customer_id: String,
    pub(crate) customer_deleted: bool,
    pub(crate) location_id: Option<String>,
    /// Two decimals.
    pub(crate) amount: String,
    pub(crate) points: i64,
}

/// The answer of a scan.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct ScanResult {
    /// `scan_result`.
    pub(crate) object: String,
    /// The scan's id.
    pub(crate) id: String,
    /// `visit`, `points` or `redeem`.
    pub(crate) kind: String,
    pub(crate) card_id: String,
    pub(crate) customer_id: String,
    pub(crate) visits_added: i64,
    pub(crate) points_added: i64,
    pub(crate) points_deducted: i64,
    pub(crate) reward_earned: bool,
    pub(crate) card: Card,
}

/// A counter or branch.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Location {
    /// `location`.
    pub(crate) object: String,
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) active: bool,
    pub(crate) address: Option<String>,
    pub(crate) city: Option<String>,
    /// Two letters.
    pub(crate) country: Option<String>,
    pub(crate) latitude: Option<f64>,
    pub(crate) longitude: Option<f64>,
    pub(crate) pass_id: Option<String>,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
}

/// A referral between two customers.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Referral {
    /// `referral`.
    pub(crate) object: String,
    pub(crate) id: String,
    pub(crate) pass_id: String,
    /// `completed` or `pending`.
    pub(crate) status: String,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
    #[schema(format = DateTime)]
    pub(crate) completed_at: Option<String>,
    pub(crate) referrer_customer_id: String,
    pub(crate) referred_customer_id: String,
    pub(crate) referrer_bonus: i64,
    pub(crate) referred_bonus: i64,
    pub(crate) referrer_deleted: bool,
    pub(crate) referred_deleted: bool,
}

/// A gift card.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct GiftCard {
    /// `gift_card`.
    pub(crate) object: String,
    pub(crate) id: String,
    /// `issued`, `active`, `depleted` or `cancelled`.
    pub(crate) status: String,
    pub(crate) template_id: String,
    pub(crate) pass_id: Option<String>,
    pub(crate) currency: String,
    /// Two decimals.
    pub(crate) initial_amount: String,
    /// Two decimals.
    pub(crate) balance: String,
    /// Null when the recipient customer was deleted.
    pub(crate) recipient: Option<Recipient>,
    pub(crate) customer_id: Option<String>,
    pub(crate) customer_deleted: bool,
    pub(crate) test: bool,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
    #[schema(format = DateTime)]
    pub(crate) claimed_at: Option<String>,
    #[schema(format = DateTime)]
    pub(crate) depleted_at: Option<String>,
    /// On retrieve: the newest ledger entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) transactions: Option<Vec<GiftCardTransaction>>,
    /// On retrieve: whether older entries exist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) transactions_has_more: Option<bool>,
    /// On issue: whether the recipient was emailed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) email: Option<EmailOutcome>,
}

/// A gift card's recipient.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Recipient {
    pub(crate) name: Option<String>,
    pub(crate) email: Option<String>,
}

/// Whether an email went.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct EmailOutcome {
    pub(crate) sent: bool,
    /// Null, or `not_configured`, `sandbox`, `blocked_environment`,
    /// `invalid_address`, `rate_limited`, `provider_refused`, `failed`.
    pub(crate) reason: Option<String>,
}

/// A ledger entry.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct GiftCardTransaction {
    /// `gift_card_transaction`.
    pub(crate) object: String,
    pub(crate) id: String,
    /// `issue` or `spend`.
    pub(crate) r#type: String,
    pub(crate) amount: String,
    pub(crate) amount_minor: i64,
    pub(crate) balance_after: String,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
    pub(crate) location_id: Option<String>,
    pub(crate) reference: Option<String>,
}

/// A payment taken from a gift card.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct GiftCardPayment {
    /// `gift_card_payment`.
    pub(crate) object: String,
    pub(crate) id: String,
    pub(crate) gift_card_id: String,
    pub(crate) amount: String,
    pub(crate) amount_minor: i64,
    pub(crate) currency: String,
    pub(crate) balance_after: String,
    pub(crate) reference: Option<String>,
    pub(crate) location_id: Option<String>,
    pub(crate) test: bool,
    pub(crate) gift_card: GiftCard,
}

/// A webhook endpoint (read only; no secret).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct WebhookEndpoint {
    /// `webhook_endpoint`.
    pub(crate) object: String,
    pub(crate) id: String,
    /// Without its query string.
    pub(crate) url: String,
    /// `active` or `paused`.
    pub(crate) status: String,
    pub(crate) events: Vec<String>,
    /// `v2`.
    pub(crate) format: String,
    pub(crate) test_events: bool,
    #[schema(format = DateTime)]
    pub(crate) created_at: String,
    pub(crate) consecutive_failures: i64,
    #[schema(format = DateTime)]
    pub(crate) failing_since: Option<String>,
    #[schema(format = DateTime)]
    pub(crate) last_success_at: Option<String>,
    #[schema(format = DateTime)]
    pub(crate) paused_at: Option<String>,
    pub(crate) paused_reason: Option<String>,
    pub(crate) last_delivery: Option<LastDelivery>,
}

/// An endpoint's last attempt.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct LastDelivery {
    #[schema(format = DateTime)]
    pub(crate) at: String,
    /// Null when no answer came.
    pub(crate) http_status: Option<i64>,
    /// `succeeded` or `failed`.
    pub(crate) status: String,
}

/// Figures for whole days in the business's time zone.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Stats {
    /// `stats`.
    pub(crate) object: String,
    #[schema(format = Date)]
    pub(crate) from: String,
    #[schema(format = Date)]
    pub(crate) to: String,
    pub(crate) time_zone: String,
    pub(crate) scans: i64,
    pub(crate) visits: i64,
    pub(crate) active_customers: i64,
    pub(crate) returning_customers: i64,
    pub(crate) new_customers: i64,
    pub(crate) rewards_earned: i64,
    pub(crate) rewards_redeemed: i64,
    pub(crate) gift_cards_issued: i64,
}

/// The answer of a preview: nothing was sent.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct BroadcastPreview {
    /// `broadcast_preview`.
    pub(crate) object: String,
    pub(crate) confirmation_token: String,
    #[schema(format = DateTime)]
    pub(crate) expires_at: String,
    pub(crate) message: PreviewMessage,
    pub(crate) quota: Quota,
    pub(crate) recipients: PreviewRecipients,
    #[schema(format = DateTime)]
    pub(crate) scheduled_at: Option<String>,
}

/// The previewed text.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct PreviewMessage {
    pub(crate) title: String,
    pub(crate) body: String,
    pub(crate) translated: bool,
}

/// The month's messages.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Quota {
    pub(crate) remaining: i64,
    pub(crate) total: i64,
}

/// Who would receive it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct PreviewRecipients {
    pub(crate) audience: String,
    pub(crate) cards: i64,
    pub(crate) people: i64,
}

/// A message after confirm or cancel.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Broadcast {
    /// `broadcast`.
    pub(crate) object: String,
    pub(crate) id: String,
    /// `sending`, `scheduled`, `sent` or `cancelled`.
    pub(crate) status: String,
    /// On confirm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) recipient_count: Option<i64>,
    /// On confirm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) sent_count: Option<i64>,
    #[schema(format = DateTime)]
    pub(crate) scheduled_at: Option<String>,
    /// On cancel.
    #[schema(format = DateTime)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cancelled_at: Option<String>,
}

/// A page of any list, as answered (the `list!` types document each).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct List<T> {
    pub(crate) object: &'static str,
    pub(crate) data: Vec<T>,
    pub(crate) has_more: bool,
    pub(crate) next_cursor: Option<String>,
}

list!(PassList, Pass);
list!(CustomerList, Customer);
list!(ScanList, Scan);
list!(LocationList, Location);
list!(ReferralList, Referral);
list!(GiftCardList, GiftCard);
list!(WebhookEndpointList, WebhookEndpoint);

/// An empty JSON object.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub(crate) struct Empty {}
