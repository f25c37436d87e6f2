//! Gift cards: `/v1/gift_cards`, and payments from them.

use crate::client::Client;
use crate::error::Error;
use crate::idempotency::IdempotencyKey;
use crate::ids::GiftCardId;
use crate::models::{
    GiftCard, GiftCardPayment, GiftCardWithTransactions, IssuedGiftCard, List, ListParams,
    NewGiftCard, NewPayment,
};
use crate::paginate::Pages;
use crate::response::Response;

const PATH: &[&str] = &["v1", "gift_cards"];

/// Gift cards: list, read with ledger, issue, take payments.
#[derive(Debug, Clone, Copy)]
pub struct GiftCards<'c> {
    client: &'c Client,
}

impl Client {
    /// Gift cards: list, read with ledger, issue, take payments.
    pub fn gift_cards(&self) -> GiftCards<'_> {
        GiftCards { client: self }
    }
}

impl GiftCards<'_> {
    /// `GET /v1/gift_cards`: one page, newest first.
    pub async fn list(self, params: &ListParams) -> Result<Response<List<GiftCard>>, Error> {
        self.client.get(PATH, params).await
    }

    /// Every page of `GET /v1/gift_cards` from `params` on; `.items()` streams the items.
    pub fn pages(self, params: ListParams) -> Pages<GiftCard> {
        Pages::new(self.client.clone(), PATH, params)
    }

    /// `GET /v1/gift_cards/{id}`: the card with its ledger, newest first.
    pub async fn get(self, id: &GiftCardId) -> Result<Response<GiftCardWithTransactions>, Error> {
        self.client
            .get(&["v1", "gift_cards", id.as_str()], &())
            .await
    }

    /// `POST /v1/gift_cards`: issues a card and emails the recipient; the answer says
    /// whether the email went. 409 pass_required when the business has no pass.
    pub async fn issue(
        self,
        key: &IdempotencyKey,
        gift_card: &NewGiftCard,
    ) -> Result<Response<IssuedGiftCard>, Error> {
        self.client.post(PATH, key, gift_card).await
    }

    /// `POST /v1/gift_cards/{id}/payments`: takes whole minor units off the card.
    /// Never more than the balance (409 insufficient_balance with the `balance`),
    /// never in another currency (422 currency_mismatch), never undone through the API.
    pub async fn pay(
        self,
        id: &GiftCardId,
        key: &IdempotencyKey,
        payment: &NewPayment,
    ) -> Result<Response<GiftCardPayment>, Error> {
        self.client
            .post(&["v1", "gift_cards", id.as_str(), "payments"], key, payment)
            .await
    }
}
