//! Unusual activity: a card scanned at this till today more often than a manager's
//! threshold is flagged when the counter opens it and listed for the manager. Nothing
//! is blocked: it is for a person to look at.

use jiff::tz::TimeZone;

use super::*;
use crate::settings::UNUSUAL_SCANS;

/// The most a manager may set the threshold to.
pub const MAX_UNUSUAL_SCANS: u32 = 1000;

for_the_ui! {
/// A card with more loyalty scans at this till today than the threshold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnusualCard {
    /// The card.
    pub card_id: CardId,
    /// Its customer's name, when the till knows it.
    pub customer_name: Option<String>,
    /// Loyalty scans of it at this till today (refused ones left out).
    pub scans: u32,
}
}

for_the_ui! {
/// What the manager sees of unusual activity today.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnusualActivity {
    /// More scans in a day than this is unusual.
    pub threshold: u32,
    /// The cards above it today, the most scanned first.
    pub cards: Vec<UnusualCard>,
}
}

impl Counter {
    /// More scans of one card in a day than this is unusual.
    fn unusual_threshold(settings: &Settings) -> u32 {
        settings.unusual_scans.unwrap_or(UNUSUAL_SCANS)
    }

    /// When today began at this till.
    pub(super) fn start_of_today(&self) -> Timestamp {
        let now = self.core.now();
        now.to_zoned(TimeZone::system())
            .start_of_day()
            .map_or(now, |start| start.timestamp())
    }

    /// Scans of `card` at this till today, when more than the threshold (`settings`:
    /// the till's, read by the caller).
    pub(crate) fn unusual_scans(
        &self,
        card: &CardId,
        settings: &Settings,
    ) -> Result<Option<u32>, Error> {
        let order_key = format!("card:{card}");
        let threshold = Self::unusual_threshold(settings);
        let scans = store::scans_of_since(&self.core.reader(), &order_key, self.start_of_today())?;
        Ok((scans > threshold).then_some(scans))
    }

    /// The cards with unusual activity today (a manager's).
    pub fn unusual_activity(&self) -> Result<UnusualActivity, Error> {
        self.staff()?;
        self.permit(Action::UnusualActivity)?;
        let (since, threshold) = (
            self.start_of_today(),
            Self::unusual_threshold(&self.settings()?),
        );
        let found = store::scans_since(&self.core.db(), since, threshold)?;
        let mut cards = Vec::with_capacity(found.len());
        for (order_key, scans) in found {
            let Some(id) = order_key.strip_prefix("card:") else {
                continue;
            };
            let card_id = CardId::new(id);
            let customer_name = self
                .cached_card(&card_id)?
                .and_then(|known| known.customer)
                .and_then(|customer| customer.name);
            cards.push(UnusualCard {
                card_id,
                customer_name,
                scans,
            });
        }
        Ok(UnusualActivity { threshold, cards })
    }

    /// Sets the threshold (a manager's): from 1 to [`MAX_UNUSUAL_SCANS`].
    pub fn set_unusual_threshold(&self, threshold: u32) -> Result<(), Error> {
        self.staff()?;
        if !(1..=MAX_UNUSUAL_SCANS).contains(&threshold) {
            return Err(NotAllowed::ThresholdOutOfRange {
                max: MAX_UNUSUAL_SCANS,
            }
            .into());
        }
        self.permit(Action::SetUnusualThreshold)?;
        self.change_settings(|saved| saved.unusual_scans = Some(threshold))
    }
}
