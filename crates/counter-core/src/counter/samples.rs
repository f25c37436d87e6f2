//! Cards to tap when there is nothing to scan: a few of the business's loyalty cards
//! (a reward ready, nearly there, just started) and gift cards (one to pay with, one not
//! yet opened, one nearly used up). The shell offers them only in the built-in demo.

use loyalty_api::ListParams;

use super::*;
use crate::kinds::{GiftCardStatus, LoyaltyType};

for_the_ui! {
/// Why a loyalty card is a good one to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleCardKind {
    /// A reward is ready to redeem.
    RewardReady,
    /// The closest to its reward without one.
    NearlyThere,
    /// The fewest visits or points.
    JustStarted,
}
}

for_the_ui! {
/// Why a gift card is a good one to try.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SampleGiftKind {
    /// Opened, with money on it.
    Active,
    /// Not yet opened by its recipient: it cannot pay.
    NotClaimed,
    /// Less than a tenth of it is left.
    NearlyEmpty,
}
}

for_the_ui! {
/// A loyalty card to tap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleCard {
    /// The card, as a scanner would read it.
    pub card_id: String,
    /// Whose.
    pub name: Option<String>,
    /// What its pass counts.
    pub counts: LoyaltyType,
    /// Why this one.
    pub kind: SampleCardKind,
}
}

for_the_ui! {
/// A gift card to tap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleGiftCard {
    /// The card, as a scanner would read it.
    pub id: String,
    /// Its recipient.
    pub recipient_name: Option<String>,
    /// What is left.
    pub balance: String,
    /// Its currency.
    pub currency: String,
    /// Why this one.
    pub kind: SampleGiftKind,
}
}

for_the_ui! {
/// Cards to tap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Samples {
    /// Loyalty cards.
    pub cards: Vec<SampleCard>,
    /// Gift cards.
    pub gift_cards: Vec<SampleGiftCard>,
}
}

impl Counter {
    /// A few of the business's cards to tap, read from the service now.
    pub async fn samples(&self) -> Result<Samples, Error> {
        self.staff()?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let page = ListParams::new().limit(100);
        let (customers, gift_cards) = tokio::join!(
            client.customers().list(&page),
            client.gift_cards().list(&page)
        );
        let (customers, gift_cards) = (customers?.data.data, gift_cards?.data.data);

        // Each active card with its owner's name and its distance to the reward.
        let mut cards = Vec::new();
        for customer in &customers {
            for card in customer.cards.iter().filter(|c| c.is_active()) {
                let pass = match self.known_pass(&card.pass_id) {
                    Some(pass) => pass,
                    None => self.pass(&card.pass_id).await?,
                };
                let count = match pass.loyalty_type {
                    LoyaltyType::Points => card.points,
                    _ => card.visits,
                };
                let left = pass.goal - count;
                cards.push((customer, card, pass, left));
            }
        }
        let mut samples = Vec::new();
        let mut take =
            |found: Option<&(&loyalty_api::Customer, &loyalty_api::Card, PassView, i64)>, kind| {
                if let Some((customer, card, pass, _)) = found
                    && !samples
                        .iter()
                        .any(|s: &SampleCard| s.card_id == card.id.as_str())
                {
                    samples.push(SampleCard {
                        card_id: card.id.as_str().to_owned(),
                        name: customer.name.clone(),
                        counts: pass.loyalty_type,
                        kind,
                    });
                }
            };
        take(
            cards
                .iter()
                .find(|(_, card, _, _)| card.rewards_available > 0),
            SampleCardKind::RewardReady,
        );
        take(
            cards
                .iter()
                .filter(|(_, card, _, left)| card.rewards_available == 0 && *left > 0)
                .min_by_key(|(_, _, _, left)| *left),
            SampleCardKind::NearlyThere,
        );
        take(
            cards.iter().max_by_key(|(_, _, _, left)| *left),
            SampleCardKind::JustStarted,
        );

        let gift = |card: &loyalty_api::GiftCard, kind| SampleGiftCard {
            id: card.id.as_str().to_owned(),
            recipient_name: card.recipient.as_ref().map(|r| r.name.clone()),
            balance: card.balance.to_string(),
            currency: card.currency.to_string(),
            kind,
        };
        let active =
            |g: &&loyalty_api::GiftCard| g.status == GiftCardStatus::Active && !g.balance.is_zero();
        let nearly_empty = |g: &&loyalty_api::GiftCard| {
            active(g) && g.balance * Decimal::from(10) < g.initial_amount
        };
        let gift_cards = [
            gift_cards
                .iter()
                .find(|g| active(g) && !nearly_empty(g))
                .map(|g| gift(g, SampleGiftKind::Active)),
            gift_cards
                .iter()
                .find(|g| g.status == GiftCardStatus::Issued)
                .map(|g| gift(g, SampleGiftKind::NotClaimed)),
            gift_cards
                .iter()
                .find(nearly_empty)
                .map(|g| gift(g, SampleGiftKind::NearlyEmpty)),
        ]
        .into_iter()
        .flatten()
        .collect();
        Ok(Samples {
            cards: samples,
            gift_cards,
        })
    }
}
