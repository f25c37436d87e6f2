//! The wire types of the API as OpenAPI schemas: what the routes' JSON looks like.
//!
//! The routes build their JSON with `serde_json::json!`, so these types describe it
//! rather than produce it; the fuzzer's `response_schema_conformance` check (every
//! answer of every operation against these schemas) is what keeps both in step.
#![allow(dead_code)]

use utoipa::ToSchema;

macro_rules! list {
    ($name:ident, $item:ty) => {
        /// A page of a list, newest first.
        #[derive(ToSchema)]
        pub(crate) struct $name {
            /// `list`.
            object: String,
            /// The items.
            data: Vec<$item>,
            /// Whether more items follow.
            has_more: bool,
            /// The cursor of the next page; null exactly when `has_more` is false.
            next_cursor: Option<String>,
        }
    };
}

/// An error: `application/problem+json`.
#[derive(ToSchema)]
pub(crate) struct Problem {
    /// `{site_url}/developers/errors#<code>`.
    r#type: String,
    /// A short human title.
    title: String,
    /// The HTTP status.
    status: i64,
    /// What happened, for people.
    detail: String,
    /// The stable code to branch on.
    code: String,
    /// The field or parameter concerned.
    param: Option<String>,
    /// The id of the request that answered.
    request_id: String,
    /// validation_failed: one item per refused field.
    errors: Option<Vec<FieldError>>,
    /// insufficient_balance on a gift card: its balance.
    balance: Option<Balance>,
    /// recent_visit: the card's last visit.
    #[schema(format = DateTime)]
    last_visit_at: Option<String>,
    /// customer_exists: the existing customer.
    customer_id: Option<String>,
}

/// One refused field.
#[derive(ToSchema)]
pub(crate) struct FieldError {
    /// The field.
    param: String,
    /// `required`, `invalid_type`, `invalid_value`, `too_long`, `out_of_range`,
    /// `invalid_json`, `unsupported_content_type`.
    code: String,
    /// For people.
    message: String,
}

/// A gift card's balance in a problem.
#[derive(ToSchema)]
pub(crate) struct Balance {
    /// Two decimals.
    amount: String,
    /// Minor units.
    amount_minor: i64,
    /// ISO 4217.
    currency: String,
}

/// The key's own details.
#[derive(ToSchema)]
pub(crate) struct Key {
    /// `key`.
    object: String,
    business: KeyBusiness,
    key: KeyId,
    /// `live` or `test`.
    mode: String,
    /// `enterprise`.
    plan: String,
    /// A human plan name.
    plan_name: String,
    rate_limits: RateLimits,
    /// The key's scopes.
    scopes: Vec<String>,
}

/// The key's business.
#[derive(ToSchema)]
pub(crate) struct KeyBusiness {
    id: String,
    name: String,
}

/// The key itself.
#[derive(ToSchema)]
pub(crate) struct KeyId {
    id: String,
    /// The visible start of the key.
    prefix: String,
}

/// The key's rate limits.
#[derive(ToSchema)]
pub(crate) struct RateLimits {
    requests_per_business: i64,
    requests_per_key: i64,
    window_seconds: i64,
    writes_per_key: i64,
}

/// A loyalty card design.
#[derive(ToSchema)]
pub(crate) struct Pass {
    /// `pass`.
    object: String,
    id: String,
    name: String,
    /// `active` or `archived`.
    status: String,
    /// `visits` or `points`.
    loyalty_type: String,
    goal: i64,
    reward_title: String,
    locale: String,
    logo_url: Option<String>,
    cover_image_url: Option<String>,
    colors: Colors,
    /// Always empty here.
    #[schema(value_type = Vec<Object>)]
    tier_rewards: Vec<()>,
    wallets: Wallets,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(format = DateTime)]
    updated_at: String,
}

/// A pass's colours.
#[derive(ToSchema)]
pub(crate) struct Colors {
    accent: String,
    background: String,
    foreground: String,
    label: String,
}

/// The wallets a pass is offered in.
#[derive(ToSchema)]
pub(crate) struct Wallets {
    apple: bool,
    google: bool,
}

/// A customer's card on a pass.
#[derive(ToSchema)]
pub(crate) struct Card {
    /// `card`.
    object: String,
    id: String,
    pass_id: String,
    /// `apple` or `google`.
    wallet: String,
    /// `active`, `deleted` or `replaced`.
    status: String,
    visits: i64,
    points: i64,
    rewards_available: i64,
    rewards_redeemed: i64,
    #[schema(format = DateTime)]
    last_visit_at: Option<String>,
    /// True for a sandbox card.
    test: bool,
    #[schema(format = DateTime)]
    created_at: String,
}

/// One person on one pass.
#[derive(ToSchema)]
pub(crate) struct Customer {
    /// `customer`.
    object: String,
    id: String,
    pass_id: String,
    name: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    cards: Vec<Card>,
    #[schema(format = DateTime)]
    created_at: Option<String>,
    #[schema(format = DateTime)]
    updated_at: Option<String>,
}

/// A counter event (visit or points).
#[derive(ToSchema)]
pub(crate) struct Scan {
    /// `scan`.
    object: String,
    id: String,
    #[schema(format = DateTime)]
    created_at: String,
    /// `visit` or `points`.
    kind: String,
    pass_id: String,
    customer_id: String,
    customer_deleted: bool,
    location_id: Option<String>,
    /// Two decimals.
    amount: String,
    points: i64,
}

/// The answer of a scan.
#[derive(ToSchema)]
pub(crate) struct ScanResult {
    /// `scan_result`.
    object: String,
    /// The scan's id.
    id: String,
    /// `visit`, `points` or `redeem`.
    kind: String,
    card_id: String,
    customer_id: String,
    visits_added: i64,
    points_added: i64,
    points_deducted: i64,
    reward_earned: bool,
    card: Card,
}

/// A counter or branch.
#[derive(ToSchema)]
pub(crate) struct Location {
    /// `location`.
    object: String,
    id: String,
    name: String,
    active: bool,
    address: Option<String>,
    city: Option<String>,
    /// Two letters.
    country: Option<String>,
    latitude: Option<f64>,
    longitude: Option<f64>,
    pass_id: Option<String>,
    #[schema(format = DateTime)]
    created_at: String,
}

/// A referral between two customers.
#[derive(ToSchema)]
pub(crate) struct Referral {
    /// `referral`.
    object: String,
    id: String,
    pass_id: String,
    /// `completed` or `pending`.
    status: String,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(format = DateTime)]
    completed_at: Option<String>,
    referrer_customer_id: String,
    referred_customer_id: String,
    referrer_bonus: i64,
    referred_bonus: i64,
    referrer_deleted: bool,
    referred_deleted: bool,
}

/// A gift card.
#[derive(ToSchema)]
pub(crate) struct GiftCard {
    /// `gift_card`.
    object: String,
    id: String,
    /// `issued`, `active`, `depleted` or `cancelled`.
    status: String,
    template_id: String,
    pass_id: Option<String>,
    currency: String,
    /// Two decimals.
    initial_amount: String,
    /// Two decimals.
    balance: String,
    /// Null when the recipient customer was deleted.
    recipient: Option<Recipient>,
    customer_id: Option<String>,
    customer_deleted: bool,
    test: bool,
    #[schema(format = DateTime)]
    created_at: String,
    #[schema(format = DateTime)]
    claimed_at: Option<String>,
    #[schema(format = DateTime)]
    depleted_at: Option<String>,
    /// On retrieve: the newest ledger entries.
    transactions: Option<Vec<GiftCardTransaction>>,
    /// On retrieve: whether older entries exist.
    transactions_has_more: Option<bool>,
    /// On issue: whether the recipient was emailed.
    email: Option<EmailOutcome>,
}

/// A gift card's recipient.
#[derive(ToSchema)]
pub(crate) struct Recipient {
    name: Option<String>,
    email: Option<String>,
}

/// Whether an email went.
#[derive(ToSchema)]
pub(crate) struct EmailOutcome {
    sent: bool,
    /// Null, or `not_configured`, `sandbox`, `blocked_environment`,
    /// `invalid_address`, `rate_limited`, `provider_refused`, `failed`.
    reason: Option<String>,
}

/// A ledger entry.
#[derive(ToSchema)]
pub(crate) struct GiftCardTransaction {
    /// `gift_card_transaction`.
    object: String,
    id: String,
    /// `issue` or `spend`.
    r#type: String,
    amount: String,
    amount_minor: i64,
    balance_after: String,
    #[schema(format = DateTime)]
    created_at: String,
    location_id: Option<String>,
    reference: Option<String>,
}

/// A payment taken from a gift card.
#[derive(ToSchema)]
pub(crate) struct GiftCardPayment {
    /// `gift_card_payment`.
    object: String,
    id: String,
    gift_card_id: String,
    amount: String,
    amount_minor: i64,
    currency: String,
    balance_after: String,
    reference: Option<String>,
    location_id: Option<String>,
    test: bool,
    gift_card: GiftCard,
}

/// A webhook endpoint (read only; no secret).
#[derive(ToSchema)]
pub(crate) struct WebhookEndpoint {
    /// `webhook_endpoint`.
    object: String,
    id: String,
    /// Without its query string.
    url: String,
    /// `active` or `paused`.
    status: String,
    events: Vec<String>,
    /// `v2`.
    format: String,
    test_events: bool,
    #[schema(format = DateTime)]
    created_at: String,
    consecutive_failures: i64,
    #[schema(format = DateTime)]
    failing_since: Option<String>,
    #[schema(format = DateTime)]
    last_success_at: Option<String>,
    #[schema(format = DateTime)]
    paused_at: Option<String>,
    paused_reason: Option<String>,
    last_delivery: Option<LastDelivery>,
}

/// An endpoint's last attempt.
#[derive(ToSchema)]
pub(crate) struct LastDelivery {
    #[schema(format = DateTime)]
    at: String,
    /// Null when no answer came.
    http_status: Option<i64>,
    /// `succeeded` or `failed`.
    status: String,
}

/// Figures for whole days in the business's time zone.
#[derive(ToSchema)]
pub(crate) struct Stats {
    /// `stats`.
    object: String,
    #[schema(format = Date)]
    from: String,
    #[schema(format = Date)]
    to: String,
    time_zone: String,
    scans: i64,
    visits: i64,
    active_customers: i64,
    returning_customers: i64,
    new_customers: i64,
    rewards_earned: i64,
    rewards_redeemed: i64,
    gift_cards_issued: i64,
}

/// The answer of a preview: nothing was sent.
#[derive(ToSchema)]
pub(crate) struct BroadcastPreview {
    /// `broadcast_preview`.
    object: String,
    confirmation_token: String,
    #[schema(format = DateTime)]
    expires_at: String,
    message: PreviewMessage,
    quota: Quota,
    recipients: PreviewRecipients,
    #[schema(format = DateTime)]
    scheduled_at: Option<String>,
}

/// The previewed text.
#[derive(ToSchema)]
pub(crate) struct PreviewMessage {
    title: String,
    body: String,
    translated: bool,
}

/// The month's messages.
#[derive(ToSchema)]
pub(crate) struct Quota {
    remaining: i64,
    total: i64,
}

/// Who would receive it.
#[derive(ToSchema)]
pub(crate) struct PreviewRecipients {
    audience: String,
    cards: i64,
    people: i64,
}

/// A message after confirm or cancel.
#[derive(ToSchema)]
pub(crate) struct Broadcast {
    /// `broadcast`.
    object: String,
    id: String,
    /// `sending`, `scheduled`, `sent` or `cancelled`.
    status: String,
    /// On confirm.
    recipient_count: Option<i64>,
    /// On confirm.
    sent_count: Option<i64>,
    #[schema(format = DateTime)]
    scheduled_at: Option<String>,
    /// On cancel.
    #[schema(format = DateTime)]
    cancelled_at: Option<String>,
}

list!(PassList, Pass);
list!(CustomerList, Customer);
list!(ScanList, Scan);
list!(LocationList, Location);
list!(ReferralList, Referral);
list!(GiftCardList, GiftCard);
list!(WebhookEndpointList, WebhookEndpoint);

/// POST /v1/customers.
#[derive(ToSchema)]
pub(crate) struct NewCustomer {
    #[schema(max_length = 64)]
    pass_id: String,
    #[schema(max_length = 200)]
    name: Option<String>,
    /// An email address.
    #[schema(max_length = 254, format = Email)]
    email: String,
    /// `apple` (default) or `google`.
    #[schema(pattern = "^(apple|google)$")]
    wallet: Option<String>,
    send_welcome: Option<bool>,
}

/// POST /v1/scans.
#[derive(ToSchema)]
pub(crate) struct NewScan {
    #[schema(max_length = 64)]
    card_id: String,
    /// `visit`, `points` or `redeem`.
    #[schema(pattern = "^(visit|points|redeem)$")]
    kind: String,
    /// Points kind only: a non-zero whole number (negative deducts).
    #[schema(minimum = -1000000, maximum = 1000000)]
    amount: Option<i64>,
    confirm_repeat: Option<bool>,
    /// Extension: a location of the place.
    location_id: Option<String>,
}

/// POST /v1/gift_cards.
#[derive(ToSchema)]
pub(crate) struct NewGiftCard {
    /// Major units, > 0, at most 1000000, exact in the currency's minor unit.
    #[schema(exclusive_minimum = 0, maximum = 1000000)]
    amount: f64,
    /// ISO 4217, at most two decimals in its minor unit.
    #[schema(pattern = "^[A-Za-z]{3}$")]
    currency: String,
    /// A language tag such as `fr` or `pt-BR`; `en` by default.
    #[schema(pattern = "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$", max_length = 35)]
    locale: Option<String>,
    recipient: NewRecipient,
}

/// A gift card's recipient.
#[derive(ToSchema)]
pub(crate) struct NewRecipient {
    #[schema(max_length = 200)]
    name: String,
    #[schema(max_length = 254, format = Email)]
    email: String,
}

/// POST /v1/gift_cards/{id}/payments.
#[derive(ToSchema)]
pub(crate) struct NewPayment {
    /// Whole minor units, > 0.
    #[schema(minimum = 1)]
    amount_minor: i64,
    /// The card's currency.
    #[schema(pattern = "^[A-Za-z]{3}$")]
    currency: String,
    /// The business's own ticket number: one line, no control characters.
    #[schema(max_length = 200, pattern = "^[^\\x00-\\x1F\\x7F-\\x9F]*$")]
    reference: Option<String>,
    /// Extension: a location of the place.
    location_id: Option<String>,
}

/// A message, as previewed (POST /v1/broadcasts).
#[derive(ToSchema)]
pub(crate) struct BroadcastMessage {
    #[schema(max_length = 64)]
    pass_id: String,
    #[schema(max_length = 100)]
    title: String,
    #[schema(max_length = 1000)]
    body: String,
    /// `active` or `all`.
    #[schema(pattern = "^(active|all)$")]
    audience: String,
    /// When it goes out (future, at most 365 days ahead); null = at once.
    #[schema(format = DateTime)]
    scheduled_at: Option<String>,
    targeting: Option<Targeting>,
}

/// Conditions on the cards reached.
#[derive(ToSchema, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Targeting {
    /// Only cards with a scan in that many days.
    #[schema(minimum = 1, maximum = 366)]
    visited_within_days: Option<i64>,
    /// Only cards with (true) or without (false) a reward ready.
    has_reward: Option<bool>,
}

/// POST /v1/broadcasts/confirm: the previewed message and its token.
#[derive(ToSchema)]
pub(crate) struct BroadcastConfirm {
    #[schema(max_length = 64)]
    pass_id: String,
    #[schema(max_length = 100)]
    title: String,
    #[schema(max_length = 1000)]
    body: String,
    #[schema(pattern = "^(active|all)$")]
    audience: String,
    #[schema(format = DateTime)]
    scheduled_at: Option<String>,
    targeting: Option<Targeting>,
    /// The preview's token.
    confirmation_token: String,
}

/// An empty JSON object.
#[derive(ToSchema)]
pub(crate) struct Empty {}
