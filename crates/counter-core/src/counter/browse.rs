//! The manager's lists: customers, scans, locations, referrals, gift cards and webhook
//! endpoints, a page at a time with the filters each list takes, read from the service.

use loyalty_api::{Cursor, ListParams};

use super::*;
use crate::kinds::{DeliveryStatus, EndpointStatus, GiftCardStatus, ReferralStatus, ScanKind};

/// Rows per page.
const PAGE: u32 = 50;

for_the_ui! {
/// A list and its filters. Empty filters are left out; a filter a list does not take
/// is refused before anything is asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "list", rename_all = "snake_case")]
pub enum BrowseQuery {
    /// Customers (deleted ones are never listed).
    Customers {
        /// Only this pass's.
        pass_id: Option<String>,
        /// Only this email's.
        email: Option<String>,
    },
    /// Scans, newest first (a deleted customer's stay, by id).
    Scans {
        /// Only this customer's.
        customer_id: Option<String>,
        /// Only visits or only points.
        kind: Option<ScanKind>,
    },
    /// Locations, inactive ones included.
    Locations,
    /// Referrals.
    Referrals,
    /// Gift cards, test cards included.
    GiftCards {
        /// Only in this state.
        status: Option<GiftCardStatus>,
    },
    /// Webhook endpoints with their health.
    WebhookEndpoints,
}
}

for_the_ui! {
/// A page of a list and the cursor of the next ("Load more"), None after the last.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BrowsePage {
    /// The rows.
    pub rows: Vec<BrowseRow>,
    /// To pass back for the next page.
    pub next_cursor: Option<String>,
}
}

for_the_ui! {
/// One row of a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "row", rename_all = "snake_case")]
pub enum BrowseRow {
    /// A customer.
    Customer {
        /// Id.
        id: String,
        /// Name.
        name: Option<String>,
        /// Email.
        email: Option<String>,
        /// Phone.
        phone: Option<String>,
        /// Their pass.
        pass_id: String,
        /// Their cards' ids.
        cards: Vec<String>,
        /// Joined (RFC 3339).
        created_at: Option<String>,
    },
    /// A scan.
    Scan {
        /// Id.
        id: String,
        /// When (RFC 3339).
        created_at: String,
        /// Visit or points.
        kind: ScanKind,
        /// Whose.
        customer_id: String,
        /// The customer was deleted since (shown by id only).
        customer_deleted: bool,
        /// Where.
        location_id: Option<String>,
        /// Points (0 for a visit).
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        points: i64,
    },
    /// A location.
    Location {
        /// Id.
        id: String,
        /// Name.
        name: String,
        /// Open for scans.
        active: bool,
        /// City.
        city: Option<String>,
        /// Country (two letters).
        country: Option<String>,
    },
    /// A referral.
    Referral {
        /// Id.
        id: String,
        /// Completed or pending.
        status: ReferralStatus,
        /// Made (RFC 3339).
        created_at: String,
        /// Completed (RFC 3339).
        completed_at: Option<String>,
        /// Who referred.
        referrer_customer_id: Option<String>,
        /// Deleted since.
        referrer_deleted: bool,
        /// Who was referred.
        referred_customer_id: Option<String>,
        /// Deleted since.
        referred_deleted: bool,
        /// The referrer's bonus.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        referrer_bonus: i64,
        /// The referred person's bonus.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        referred_bonus: i64,
    },
    /// A gift card.
    GiftCard {
        /// Id.
        id: String,
        /// State.
        status: GiftCardStatus,
        /// Currency.
        currency: String,
        /// Issued with.
        initial_amount: String,
        /// Left.
        balance: String,
        /// Recipient (None when the customer was deleted).
        recipient_name: Option<String>,
        /// A test card.
        test: bool,
    },
    /// A webhook endpoint and its health.
    WebhookEndpoint {
        /// Id.
        id: String,
        /// Address, without its query.
        url: String,
        /// Receiving or not.
        status: EndpointStatus,
        /// Events it takes.
        events: Vec<String>,
        /// Failures in a row.
        consecutive_failures: u32,
        /// Failing since (RFC 3339).
        failing_since: Option<String>,
        /// Last success (RFC 3339).
        last_success_at: Option<String>,
        /// Paused at (RFC 3339).
        paused_at: Option<String>,
        /// Why paused.
        paused_reason: Option<String>,
        /// The last delivery: when (RFC 3339).
        last_delivery_at: Option<String>,
        /// Its HTTP status.
        last_delivery_http_status: Option<u16>,
        /// How it went.
        last_delivery_status: Option<DeliveryStatus>,
    },
}
}

fn text(at: Timestamp) -> String {
    at.to_string()
}

fn filter(params: ListParams, name: &str, value: &Option<String>) -> Result<ListParams, Error> {
    match value.as_deref().map(str::trim) {
        None | Some("") => Ok(params),
        Some(given) => {
            let given = input::text(TextField::Search, given, 200, true)?.unwrap_or_default();
            Ok(params.filter(name, &given))
        }
    }
}

impl Counter {
    /// A page of a list (a manager's screen): the first, or the one after `cursor`.
    pub async fn browse(
        &self,
        query: &BrowseQuery,
        cursor: Option<&str>,
    ) -> Result<BrowsePage, Error> {
        self.staff()?;
        self.permit(Action::Browse)?;
        let mut params = ListParams::new().limit(PAGE);
        if let Some(cursor) = cursor {
            let cursor = input::text(TextField::Search, cursor, 2000, true)?.unwrap_or_default();
            params = params.cursor(Cursor::new(cursor));
        }
        let client = self.core.client().ok_or(Error::NotConnected)?;
        macro_rules! page {
            ($list:expr, $row:expr) => {{
                let page = $list.await?.data;
                BrowsePage {
                    rows: page.data.iter().map($row).collect(),
                    next_cursor: page.next_cursor.map(|c| c.as_str().to_owned()),
                }
            }};
        }
        Ok(match query {
            BrowseQuery::Customers { pass_id, email } => {
                let params = filter(filter(params, "pass_id", pass_id)?, "email", email)?;
                page!(
                    client.customers().list(&params),
                    |c: &loyalty_api::Customer| {
                        BrowseRow::Customer {
                            id: c.id.as_str().to_owned(),
                            name: c.name.clone(),
                            email: c.email.clone(),
                            phone: c.phone.clone(),
                            pass_id: c.pass_id.as_str().to_owned(),
                            cards: c.cards.iter().map(|k| k.id.as_str().to_owned()).collect(),
                            created_at: c.created_at.map(text),
                        }
                    }
                )
            }
            BrowseQuery::Scans { customer_id, kind } => {
                let mut params = filter(params, "customer_id", customer_id)?;
                if let Some(kind) = kind {
                    let kind = kind.known().ok_or(NotAllowed::UnknownFilter)?;
                    params = params.filter("kind", kind.as_str());
                }
                page!(client.scans().list(&params), |s: &loyalty_api::Scan| {
                    BrowseRow::Scan {
                        id: s.id.as_str().to_owned(),
                        created_at: text(s.created_at),
                        kind: s.kind,
                        customer_id: s.customer_id.as_str().to_owned(),
                        customer_deleted: s.customer_deleted,
                        location_id: s.location_id.as_ref().map(|l| l.as_str().to_owned()),
                        points: s.points,
                    }
                })
            }
            BrowseQuery::Locations => {
                page!(
                    client.locations().list(&params),
                    |l: &loyalty_api::Location| {
                        BrowseRow::Location {
                            id: l.id.as_str().to_owned(),
                            name: l.name.clone(),
                            active: l.active,
                            city: l.city.clone(),
                            country: l.country.clone(),
                        }
                    }
                )
            }
            BrowseQuery::Referrals => {
                page!(
                    client.referrals().list(&params),
                    |r: &loyalty_api::Referral| {
                        BrowseRow::Referral {
                            id: r.id.as_str().to_owned(),
                            status: r.status,
                            created_at: text(r.created_at),
                            completed_at: r.completed_at.map(text),
                            referrer_customer_id: r
                                .referrer_customer_id
                                .as_ref()
                                .map(|c| c.as_str().to_owned()),
                            referrer_deleted: r.referrer_deleted,
                            referred_customer_id: r
                                .referred_customer_id
                                .as_ref()
                                .map(|c| c.as_str().to_owned()),
                            referred_deleted: r.referred_deleted,
                            referrer_bonus: r.referrer_bonus,
                            referred_bonus: r.referred_bonus,
                        }
                    }
                )
            }
            BrowseQuery::GiftCards { status } => {
                if let Some(status) = status {
                    let status = status.known().ok_or(NotAllowed::UnknownFilter)?;
                    params = params.filter("status", status.as_str());
                }
                page!(
                    client.gift_cards().list(&params),
                    |g: &loyalty_api::GiftCard| {
                        BrowseRow::GiftCard {
                            id: g.id.as_str().to_owned(),
                            status: g.status,
                            currency: g.currency.to_string(),
                            initial_amount: g.initial_amount.to_string(),
                            balance: g.balance.to_string(),
                            recipient_name: g.recipient.as_ref().map(|r| r.name.clone()),
                            test: g.test,
                        }
                    }
                )
            }
            BrowseQuery::WebhookEndpoints => {
                page!(
                    client.webhook_endpoints().list(&params),
                    |w: &loyalty_api::WebhookEndpoint| BrowseRow::WebhookEndpoint {
                        id: w.id.as_str().to_owned(),
                        url: w.url.clone(),
                        status: w.status,
                        events: w.events.iter().map(|e| e.as_str().to_owned()).collect(),
                        consecutive_failures: w.consecutive_failures,
                        failing_since: w.failing_since.map(text),
                        last_success_at: w.last_success_at.map(text),
                        paused_at: w.paused_at.map(text),
                        paused_reason: w.paused_reason.clone(),
                        last_delivery_at: w.last_delivery.as_ref().map(|d| text(d.at)),
                        last_delivery_http_status: w
                            .last_delivery
                            .as_ref()
                            .and_then(|d| d.http_status),
                        last_delivery_status: w.last_delivery.as_ref().map(|d| d.status),
                    }
                )
            }
        })
    }
}
