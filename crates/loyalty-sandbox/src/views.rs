//! Store rows as the API shows them: the one place a row becomes its wire shape, above
//! the store (rows and SQL only) and below the actions and routes that answer with it.

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::clock::format_ms;
use crate::error::ApiResult;
use crate::store::business::{Business, RateLimits, plan_name};
use crate::store::customers::{Card, Customer};
use crate::store::effects::{EffectRow, EventRow};
use crate::store::gift_cards::{GiftCard, Transaction};
use crate::store::locations::Location;
use crate::store::passes::Pass;
use crate::store::referrals::Referral;
use crate::store::scans::ScanRecord;
use crate::store::webhooks::{Endpoint, strip_query};
use crate::wire;

impl From<RateLimits> for wire::RateLimits {
    fn from(limits: RateLimits) -> Self {
        let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        wire::RateLimits {
            requests_per_business: n(limits.requests_per_business),
            requests_per_key: n(limits.requests_per_key),
            window_seconds: n(limits.window_seconds),
            writes_per_key: n(limits.writes_per_key),
        }
    }
}

/// A business as the control routes answer it, with its first pass in each place.
pub(crate) fn business(
    business: &Business,
    pass_id: Option<String>,
    sandbox_pass_id: Option<String>,
) -> wire::control::Business {
    wire::control::Business {
        object: "business",
        id: business.id.clone(),
        name: business.name.clone(),
        plan: business.plan.clone(),
        plan_name: plan_name(&business.plan),
        time_zone: business.time_zone.clone(),
        customer_limit: business.customer_limit,
        monthly_messages: business.monthly_messages,
        rate_limits: business.limits.into(),
        pass_id,
        sandbox_pass_id,
    }
}

impl From<&Card> for wire::Card {
    fn from(card: &Card) -> Self {
        wire::Card {
            object: "card".into(),
            id: card.id.clone(),
            pass_id: card.pass_id.clone(),
            wallet: card.wallet.clone(),
            status: card.status.clone(),
            visits: card.counters.visits,
            points: card.counters.points,
            rewards_available: card.counters.rewards_available,
            rewards_redeemed: card.counters.rewards_redeemed,
            last_visit_at: card.counters.last_visit_at.map(format_ms),
            test: card.place.is_test(),
            created_at: format_ms(card.created_at),
        }
    }
}

impl From<&Customer> for wire::Customer {
    fn from(customer: &Customer) -> Self {
        wire::Customer {
            object: "customer".into(),
            id: customer.id.clone(),
            pass_id: customer.pass_id.clone(),
            name: customer.name.clone(),
            email: customer.email.clone(),
            phone: customer.phone.clone(),
            cards: customer.cards.iter().map(wire::Card::from).collect(),
            created_at: format_ms(customer.created_at),
            updated_at: format_ms(customer.updated_at),
        }
    }
}

/// A gift card as the API shows it, with its ledger (and whether more of it follows)
/// when given.
pub(crate) fn gift_card(
    card: &GiftCard,
    transactions: Option<(&[Transaction], bool)>,
) -> wire::GiftCard {
    let recipient = (!card.customer_deleted).then(|| wire::Recipient {
        name: card.recipient_name.clone(),
        email: card.recipient_email.clone(),
    });
    let ledger = transactions.map(|(txs, _)| {
        txs.iter()
            .map(|t| wire::GiftCardTransaction {
                object: "gift_card_transaction".into(),
                id: t.id.clone(),
                r#type: t.kind.clone(),
                amount: card.money(t.amount_minor),
                amount_minor: t.amount_minor,
                balance_after: card.money(t.balance_after_minor),
                created_at: format_ms(t.created_at),
                location_id: t.location_id.clone(),
                reference: t.reference.clone(),
            })
            .collect()
    });
    wire::GiftCard {
        object: "gift_card".into(),
        id: card.id.clone(),
        status: card.status.clone(),
        template_id: card.template_id.clone(),
        pass_id: card.pass_id.clone(),
        currency: card.currency.clone(),
        initial_amount: card.money(card.initial_minor),
        balance: card.money(card.balance_minor),
        recipient,
        customer_id: card.customer_id.clone(),
        customer_deleted: card.customer_deleted,
        test: card.place.is_test(),
        created_at: format_ms(card.created_at),
        claimed_at: card.claimed_at.map(format_ms),
        depleted_at: card.depleted_at.map(format_ms),
        transactions: ledger,
        transactions_has_more: transactions.map(|(_, more)| more),
        email: None,
    }
}

/// Without its ledger, as lists show it.
impl From<&GiftCard> for wire::GiftCard {
    fn from(card: &GiftCard) -> Self {
        gift_card(card, None)
    }
}

impl From<&Location> for wire::Location {
    fn from(location: &Location) -> Self {
        wire::Location {
            object: "location".into(),
            id: location.id.clone(),
            name: location.name.clone(),
            active: location.active,
            address: Some(location.address.clone()),
            city: Some(location.city.clone()),
            country: Some(location.country.clone()),
            latitude: Some(location.latitude),
            longitude: Some(location.longitude),
            pass_id: location.pass_id.clone(),
            created_at: format_ms(location.created_at),
        }
    }
}

impl From<&Pass> for wire::Pass {
    fn from(pass: &Pass) -> Self {
        wire::Pass {
            object: "pass".into(),
            id: pass.id.clone(),
            name: pass.spec.name.clone(),
            status: pass.spec.status.clone(),
            loyalty_type: pass.spec.loyalty_type.clone(),
            goal: pass.spec.goal,
            reward_title: pass.spec.reward_title.clone(),
            locale: pass.spec.locale.clone(),
            logo_url: None,
            cover_image_url: None,
            colors: wire::Colors {
                accent: "#8B5E3C".into(),
                background: "#FFF8F0".into(),
                foreground: "#2B1B10".into(),
                label: "#8B5E3C".into(),
            },
            tier_rewards: Vec::new(),
            wallets: wire::Wallets {
                apple: true,
                google: true,
            },
            created_at: format_ms(pass.created_at),
            updated_at: format_ms(pass.updated_at),
        }
    }
}

impl From<&Referral> for wire::Referral {
    fn from(referral: &Referral) -> Self {
        wire::Referral {
            object: "referral".into(),
            id: referral.id.clone(),
            pass_id: referral.pass_id.clone(),
            status: referral.status.clone(),
            created_at: format_ms(referral.created_at),
            completed_at: referral.completed_at.map(format_ms),
            referrer_customer_id: referral.referrer_customer_id.clone(),
            referred_customer_id: referral.referred_customer_id.clone(),
            referrer_bonus: referral.referrer_bonus,
            referred_bonus: referral.referred_bonus,
            referrer_deleted: referral.referrer_deleted,
            referred_deleted: referral.referred_deleted,
        }
    }
}

impl From<&ScanRecord> for wire::Scan {
    fn from(scan: &ScanRecord) -> Self {
        wire::Scan {
            object: "scan".into(),
            id: scan.id.clone(),
            created_at: format_ms(scan.created_at),
            kind: scan.kind.clone(),
            pass_id: scan.pass_id.clone(),
            customer_id: scan.customer_id.clone(),
            customer_deleted: scan.customer_deleted,
            location_id: scan.location_id.clone(),
            amount: scan.amount.clone(),
            points: scan.points,
        }
    }
}

/// No secret, and the url without its query.
impl From<&Endpoint> for wire::WebhookEndpoint {
    fn from(endpoint: &Endpoint) -> Self {
        wire::WebhookEndpoint {
            object: "webhook_endpoint".into(),
            id: endpoint.id.clone(),
            url: strip_query(&endpoint.url).to_owned(),
            status: endpoint.status.clone(),
            events: endpoint.events.clone(),
            format: endpoint.format.clone(),
            test_events: endpoint.test_events,
            created_at: format_ms(endpoint.created_at),
            consecutive_failures: endpoint.consecutive_failures,
            failing_since: endpoint.failing_since.map(format_ms),
            last_success_at: endpoint.last_success_at.map(format_ms),
            paused_at: endpoint.paused_at.map(format_ms),
            paused_reason: endpoint.paused_reason.clone(),
            last_delivery: endpoint.last_delivery.as_ref().map(|(at, status, http)| {
                wire::LastDelivery {
                    at: format_ms(*at),
                    http_status: *http,
                    status: status.clone(),
                }
            }),
        }
    }
}

/// An effect with the details of its kind beside its own members, which a detail of
/// the same name never overrides.
pub(crate) fn effect(row: EffectRow) -> ApiResult<wire::control::Effect> {
    let mut details: Map<String, Value> = serde_json::from_str(&row.details)?;
    for own in ["object", "id", "kind", "at", "place"] {
        details.remove(own);
    }
    Ok(wire::control::Effect {
        object: "effect",
        id: row.id,
        kind: row.kind,
        at: format_ms(row.at),
        place: row.place,
        details,
    })
}

/// An event as recorded, its data as stored.
pub(crate) fn event(row: EventRow) -> ApiResult<wire::control::Event> {
    Ok(wire::control::Event {
        id: row.id,
        r#type: row.event_type,
        livemode: row.livemode,
        data: RawValue::from_string(row.data)?,
        created_at: format_ms(row.created_at),
    })
}
