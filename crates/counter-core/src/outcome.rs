//! What became of a write: one shape for every write the till makes, built by one
//! function from the write's outbox item.

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::outbox::{DecisionReason, ItemId, ItemState, OutboxItem, Refusal};
use crate::views::Answer;

/// What became of a write, as the person who made it is told: the service's answer
/// (`T`); a refusal the write expects, which the till answers for itself (`K`: the
/// repeat visit's question, the balance a payment may take instead, the customer
/// already enrolled); stored and queued; refused; or waiting for a person's decision.
/// The screens receive it as it is, with `T` and `K` as they show them
/// ([`Outcome::map`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome<T, K = Never> {
    /// The service did it: its answer.
    Done {
        /// The outbox item.
        item: ItemId,
        /// The answer.
        answer: T,
    },
    /// The service refused it in a way this write expects: what the till offers.
    Known {
        /// The outbox item (closed as refused).
        item: ItemId,
        /// What the refusal means here.
        known: K,
    },
    /// Stored; it goes when the service answers.
    Queued {
        /// The outbox item.
        item: ItemId,
    },
    /// The service refused it.
    Refused {
        /// The outbox item.
        item: ItemId,
        /// Why.
        #[cfg_attr(feature = "ts", ts(as = "crate::views::RefusalView"))]
        refusal: Refusal,
    },
    /// A person must decide (the queue says why and offers the choices).
    NeedsDecision {
        /// The outbox item.
        item: ItemId,
        /// Why.
        reason: DecisionReason,
    },
}

for_the_ui! {
/// No refusal this write expects: an `Outcome<T>` is never `Known` (`never` in
/// TypeScript, so a screen has no such case to handle).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Never {}
}

impl<T, K> Outcome<T, K> {
    /// What became of `item`, as it stands: its stored answer read by `answer` (None for
    /// an answer of another kind), a refusal this write expects recognised by
    /// `expected`. A done item whose answer is not this write's, or an item that needs
    /// a decision without its reason, is [`Error::Stored`], never a panic.
    pub(crate) fn of(
        item: &OutboxItem,
        answer: impl FnOnce(Answer) -> Option<T>,
        expected: impl FnOnce(&Refusal) -> Option<K>,
    ) -> Result<Self, Error> {
        let id = item.id;
        let stored = |what: &'static str| Error::Stored { item: id, what };
        Ok(match item.state {
            ItemState::Done => Outcome::Done {
                item: id,
                answer: item
                    .answer
                    .clone()
                    .and_then(answer)
                    .ok_or_else(|| stored("answer"))?,
            },
            ItemState::Refused => {
                // A write a person closed (discarded, or replaced) has no refusal of the
                // service's: asked about again (a stale screen), it is withdrawn.
                let refusal = item
                    .refusal
                    .clone()
                    .ok_or(Error::NotAllowed(crate::NotAllowed::Withdrawn))?;
                match expected(&refusal) {
                    Some(known) => Outcome::Known { item: id, known },
                    None => Outcome::Refused { item: id, refusal },
                }
            }
            ItemState::NeedsDecision => Outcome::NeedsDecision {
                item: id,
                reason: item.reason.clone().ok_or_else(|| stored("reason"))?,
            },
            ItemState::Queued | ItemState::Sending => Outcome::Queued { item: id },
        })
    }

    /// The outbox item.
    pub fn item(&self) -> ItemId {
        match self {
            Outcome::Done { item, .. }
            | Outcome::Known { item, .. }
            | Outcome::Queued { item }
            | Outcome::Refused { item, .. }
            | Outcome::NeedsDecision { item, .. } => *item,
        }
    }

    /// The same outcome with its answer and its expected refusal turned by `answer` and
    /// `known` (for a screen's view of them).
    pub fn map<U, L>(
        self,
        answer: impl FnOnce(T) -> U,
        known: impl FnOnce(K) -> L,
    ) -> Outcome<U, L> {
        match self {
            Outcome::Done { item, answer: a } => Outcome::Done {
                item,
                answer: answer(a),
            },
            Outcome::Known { item, known: k } => Outcome::Known {
                item,
                known: known(k),
            },
            Outcome::Queued { item } => Outcome::Queued { item },
            Outcome::Refused { item, refusal } => Outcome::Refused { item, refusal },
            Outcome::NeedsDecision { item, reason } => Outcome::NeedsDecision { item, reason },
        }
    }
}

impl<T, K> Outcome<T, K> {
    /// The same outcome, its expected refusal settled by `settle`, which may read the
    /// service and may find that the write was refused after all.
    pub(crate) async fn settle_known<L, Settled>(
        self,
        settle: impl FnOnce(ItemId, K) -> Settled,
    ) -> Result<Outcome<T, L>, Error>
    where
        Settled: Future<Output = Result<Outcome<T, L>, Error>>,
    {
        Ok(match self {
            Outcome::Known { item, known } => return settle(item, known).await,
            Outcome::Done { item, answer } => Outcome::Done { item, answer },
            Outcome::Queued { item } => Outcome::Queued { item },
            Outcome::Refused { item, refusal } => Outcome::Refused { item, refusal },
            Outcome::NeedsDecision { item, reason } => Outcome::NeedsDecision { item, reason },
        })
    }
}

impl<T> Outcome<T> {
    /// An outcome no refusal is expected of, as one that expects `K` (never built).
    pub fn expecting<K>(self) -> Outcome<T, K> {
        self.map(|answer| answer, |never| match never {})
    }
}
