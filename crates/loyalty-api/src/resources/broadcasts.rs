//! Messages to card holders: `/v1/broadcasts`.

use crate::client::Client;
use crate::error::Error;
use crate::idempotency::IdempotencyKey;
use crate::ids::BroadcastId;
use crate::models::broadcast::ConfirmBody;
use crate::models::{Broadcast, BroadcastMessage, BroadcastPreview, ConfirmationToken};
use crate::response::Response;

/// Messages to card holders: preview (sends nothing), confirm (sends), cancel.
#[derive(Debug, Clone, Copy)]
pub struct Broadcasts<'c> {
    client: &'c Client,
}

impl Client {
    /// Messages to card holders: preview, confirm, cancel.
    pub fn broadcasts(&self) -> Broadcasts<'_> {
        Broadcasts { client: self }
    }
}

impl Broadcasts<'_> {
    /// `POST /v1/broadcasts`: previews a message and returns its confirmation token,
    /// the recipients and the month's quota. Nothing is sent.
    pub async fn preview(
        self,
        key: &IdempotencyKey,
        message: &BroadcastMessage,
    ) -> Result<Response<BroadcastPreview>, Error> {
        self.client.post(&["v1", "broadcasts"], key, message).await
    }

    /// `POST /v1/broadcasts/confirm`: sends `message`, which must be exactly the
    /// previewed one, with the preview's token (single use, 10 minutes, this key only).
    pub async fn confirm(
        self,
        key: &IdempotencyKey,
        message: &BroadcastMessage,
        token: &ConfirmationToken,
    ) -> Result<Response<Broadcast>, Error> {
        let body = ConfirmBody {
            message,
            confirmation_token: token,
        };
        self.client
            .post(&["v1", "broadcasts", "confirm"], key, &body)
            .await
    }

    /// `POST /v1/broadcasts/{id}/cancel`: cancels a scheduled message (cancelling
    /// again gives the same answer); 409 broadcast_already_sent once it went out.
    pub async fn cancel(
        self,
        id: &BroadcastId,
        key: &IdempotencyKey,
    ) -> Result<Response<Broadcast>, Error> {
        self.client
            .post(
                &["v1", "broadcasts", id.as_str(), "cancel"],
                key,
                &serde_json::json!({}),
            )
            .await
    }
}
