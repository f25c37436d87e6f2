//! Messages to card holders: preview, then confirm with the preview's token.

use super::*;

/// A message to card holders, as the manager writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BroadcastDraft {
    /// The pass whose card holders receive it.
    pub pass_id: PassId,
    /// Title.
    pub title: String,
    /// Body.
    pub body: String,
    /// Who receives it (`active`, ...).
    pub audience: String,
    /// When it goes out; now when None.
    pub scheduled_at: Option<Timestamp>,
    /// Targeting, passed through.
    pub targeting: Option<serde_json::Value>,
}

impl BroadcastDraft {
    fn to_api(&self) -> loyalty_api::BroadcastMessage {
        loyalty_api::BroadcastMessage {
            pass_id: self.pass_id.clone(),
            title: self.title.clone(),
            body: self.body.clone(),
            audience: loyalty_api::Audience::parse(&self.audience),
            scheduled_at: self.scheduled_at,
            targeting: self.targeting.clone(),
        }
    }
}

impl Counter {
    /// Previews a message to card holders (sends nothing, stores nothing): the
    /// manager reads the recipients and quota, then confirms.
    pub async fn preview_broadcast(
        &self,
        message: &BroadcastDraft,
    ) -> Result<BroadcastPreviewView, Error> {
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let key = self.core.ids.idempotency_key();
        let preview = client.broadcasts().preview(&key, &message.to_api()).await?;
        Ok(BroadcastPreviewView::from(&preview.data))
    }

    /// Confirms a previewed message through the outbox (sent once, whatever happens).
    pub async fn confirm_broadcast(
        &self,
        message: BroadcastDraft,
        confirmation_token: &str,
    ) -> Result<WriteOutcome, Error> {
        let write = Write::ConfirmBroadcast {
            pass_id: message.pass_id,
            title: message.title,
            body: message.body,
            audience: message.audience,
            scheduled_at: message.scheduled_at,
            targeting: message.targeting,
            confirmation_token: loyalty_api::ConfirmationToken::new(confirmation_token),
        };
        self.write_outcome(write).await
    }
}
