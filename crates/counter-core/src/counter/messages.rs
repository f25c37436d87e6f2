//! Messages to card holders: preview, then confirm with the preview's token.

use super::*;
use crate::input::InputError;

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
        self.staff()?;
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
    ) -> Result<Outcome<BroadcastView>, Error> {
        self.staff()?;
        let write = Write::ConfirmBroadcast {
            pass_id: message.pass_id,
            title: message.title,
            body: message.body,
            audience: message.audience,
            scheduled_at: message.scheduled_at,
            targeting: message.targeting,
            confirmation_token: loyalty_api::ConfirmationToken::new(confirmation_token),
        };
        self.write_outcome(write, broadcast).await
    }
}

for_the_ui! {
/// Who receives a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageAudience {
    /// Holders of active cards.
    Active,
    /// Every card holder.
    All,
}
}

for_the_ui! {
/// A message to card holders as the manager writes it on the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageDraft {
    /// The pass whose card holders receive it.
    pub pass_id: String,
    /// Title.
    pub title: String,
    /// Body (line breaks allowed).
    pub body: String,
    /// Who receives it.
    pub audience: MessageAudience,
    /// Only cards with a visit or points in the last this many days.
    pub visited_within_days: Option<u32>,
    /// Only cards with (true) or without (false) a reward ready.
    pub has_reward: Option<bool>,
    /// When it goes out (RFC 3339); now when None.
    pub scheduled_at: Option<String>,
}
}

for_the_ui! {
/// What a preview said: who would receive the message and the month's quota. The
/// token stays in the core; the screen holds the preview's number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessagePreview {
    /// The preview's number in this run, to send it.
    pub preview: u32,
    /// Seconds left to send it, by the service's clock when it answered.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub expires_in_seconds: i64,
    /// Cards that would receive it.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub cards: i64,
    /// People that would receive it.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub people: i64,
    /// Messages sent this month.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub quota_used: i64,
    /// Messages left this month.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub quota_left: i64,
    /// Whether the service translates it for card holders of other languages.
    pub translated: bool,
    /// When it would go out (RFC 3339); now when None.
    pub scheduled_at: Option<String>,
}
}

for_the_ui! {
/// A message this till scheduled for later, as the till last heard of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledMessage {
    /// Its id (the one a cancel takes).
    pub id: String,
    /// Its title.
    pub title: String,
    /// When it goes out (RFC 3339).
    pub scheduled_at: Option<String>,
    /// Where it stands.
    pub state: ScheduledState,
}
}

for_the_ui! {
/// Where a scheduled message stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScheduledState {
    /// It goes out at its time.
    Scheduled,
    /// A cancel waits in the queue.
    Cancelling,
    /// Cancelled: nobody receives it.
    Cancelled {
        /// When (RFC 3339), as the service answered.
        at: Option<String>,
    },
    /// The service refused the cancel (it already went out: `broadcast_already_sent`).
    CancelRefused {
        /// The problem's code.
        code: String,
    },
}
}

/// The longest title and body a message may have here.
const TITLE_MAX: usize = 200;
const BODY_MAX: usize = 2000;
/// The most days "visited within" may count back.
const VISITED_MAX_DAYS: u32 = 3650;

/// Messages previewed in this run, awaiting a send.
#[derive(Default)]
pub(crate) struct Previews {
    next: u32,
    pending: HashMap<u32, (BroadcastDraft, String)>,
}

impl std::fmt::Debug for Previews {
    // Tokens stay out of logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Previews({} pending)", self.pending.len())
    }
}

impl MessageDraft {
    /// The draft checked whole, as the service's message.
    fn checked(&self) -> Result<BroadcastDraft, Error> {
        let pass_id = PassId::new(self.pass_id.trim());
        input::pass(&pass_id)?;
        let title =
            input::text(TextField::Title, &self.title, TITLE_MAX, true)?.unwrap_or_default();
        let body = input::multiline(TextField::Body, &self.body, BODY_MAX)?;
        let scheduled_at = match self.scheduled_at.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(
                text.parse::<Timestamp>()
                    .map_err(|_| InputError::NotADate {
                        given: input::shown(text),
                    })?,
            ),
        };
        if self
            .visited_within_days
            .is_some_and(|d| d == 0 || d > VISITED_MAX_DAYS)
        {
            return Err(InputError::PeriodTooLong {
                max_days: VISITED_MAX_DAYS,
            }
            .into());
        }
        let mut targeting = serde_json::Map::new();
        if let Some(days) = self.visited_within_days {
            targeting.insert("visited_within_days".into(), days.into());
        }
        if let Some(ready) = self.has_reward {
            targeting.insert("has_reward".into(), ready.into());
        }
        Ok(BroadcastDraft {
            pass_id,
            title,
            body,
            audience: match self.audience {
                MessageAudience::Active => "active".into(),
                MessageAudience::All => "all".into(),
            },
            scheduled_at,
            targeting: (!targeting.is_empty()).then_some(serde_json::Value::Object(targeting)),
        })
    }
}

impl Counter {
    /// Previews a message written on the screen (checked whole first; a manager's):
    /// who would receive it and the quota. The token is kept here for [`Counter::send_message`].
    pub async fn preview_message(&self, draft: &MessageDraft) -> Result<MessagePreview, Error> {
        self.staff()?;
        let message = draft.checked()?;
        self.permit(Action::PreviewMessage)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let key = self.core.ids.idempotency_key();
        let answer = client.broadcasts().preview(&key, &message.to_api()).await?;
        let p = &answer.data;
        let service_now = answer.date.unwrap_or_else(|| self.core.now());
        let mut previews = self.previews.lock().unwrap_or_else(|e| e.into_inner());
        previews.next += 1;
        let number = previews.next;
        previews
            .pending
            .insert(number, (message, p.confirmation_token.as_str().to_owned()));
        Ok(MessagePreview {
            preview: number,
            expires_in_seconds: (p.expires_at - service_now).get_seconds().max(0),
            cards: p.recipients.cards,
            people: p.recipients.people,
            quota_used: (p.quota.total - p.quota.remaining).max(0),
            quota_left: p.quota.remaining,
            translated: p.message.translated,
            scheduled_at: p.scheduled_at.map(|t| t.to_string()),
        })
    }

    /// Sends the message of preview `preview`, exactly as previewed, through the outbox
    /// (a manager's). A preview is sent once: a second send finds it gone.
    pub async fn send_message(&self, preview: u32) -> Result<Outcome<BroadcastView>, Error> {
        self.staff()?;
        self.permit(Action::SendMessage)?;
        let (message, token) = self
            .previews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pending
            .remove(&preview)
            .ok_or(NotAllowed::PreviewGone)?;
        self.confirm_broadcast(message, &token).await
    }

    /// Cancels a message this till scheduled, through the outbox (a manager's).
    pub async fn cancel_message(&self, id: &str) -> Result<Outcome<BroadcastView>, Error> {
        self.staff()?;
        self.permit(Action::CancelMessage)?;
        let known = self.scheduled_messages()?.into_iter().any(|m| m.id == id);
        if !known {
            return Err(NotAllowed::NotScheduledHere.into());
        }
        let write = Write::CancelBroadcast {
            broadcast_id: loyalty_api::BroadcastId::new(id),
        };
        self.write_outcome(write, broadcast).await
    }

    /// The messages this till scheduled for later (the API lists none): read from its
    /// own record of the confirms the service answered, with their cancels.
    pub fn scheduled_messages(&self) -> Result<Vec<ScheduledMessage>, Error> {
        self.staff()?;
        let items = store::list(&self.core.db(), false, u32::MAX)?;
        let mut scheduled: Vec<ScheduledMessage> = items
            .iter()
            .filter_map(|item| match (&item.write, &item.answer) {
                (Write::ConfirmBroadcast { title, .. }, Some(Answer::Broadcast(message)))
                    if message.status == "scheduled" =>
                {
                    Some(ScheduledMessage {
                        id: message.id.as_str().to_owned(),
                        title: title.clone(),
                        scheduled_at: message.scheduled_at.map(|t| t.to_string()),
                        state: ScheduledState::Scheduled,
                    })
                }
                _ => None,
            })
            .collect();
        // The list is newest first: the latest cancel of a message decides.
        for message in &mut scheduled {
            let cancel = items.iter().find(|item| {
                matches!(&item.write, Write::CancelBroadcast { broadcast_id }
                    if broadcast_id.as_str() == message.id)
                    && item.resolution.is_none()
            });
            message.state = match cancel {
                None => ScheduledState::Scheduled,
                Some(item) => match (&item.answer, &item.refusal) {
                    (Some(Answer::Broadcast(cancelled)), _) => ScheduledState::Cancelled {
                        at: cancelled.cancelled_at.map(|t| t.to_string()),
                    },
                    (None, Some(refusal)) => ScheduledState::CancelRefused {
                        code: refusal.code.as_str().to_owned(),
                    },
                    _ => ScheduledState::Cancelling,
                },
            };
        }
        Ok(scheduled)
    }
}

/// A message's answer, as a confirm or a cancel stores it.
fn broadcast(answer: Answer) -> Option<BroadcastView> {
    match answer {
        Answer::Broadcast(message) => Some(message),
        _ => None,
    }
}
