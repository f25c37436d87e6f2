//! The manager's figures: `GET /v1/stats` for a period of the business's days, beside
//! the period of the same length just before it, with the change in per cent.

use jiff::civil::Date;
use loyalty_api::{Stats, StatsParams};

use super::*;
use crate::input::InputError;

/// The longest period the service gives figures for, in days (both ends included).
pub const MAX_FIGURE_DAYS: u32 = 366;

for_the_ui! {
/// Which days the figures cover, in the business's time zone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FiguresPeriod {
    /// Today.
    Today,
    /// The last 7 days, today included.
    Last7Days,
    /// The last 30 days, today included.
    Last30Days,
    /// From the first of this month to today.
    ThisMonth,
    /// Chosen days (`2026-11-23`), both included, at most 366.
    Between {
        /// The first day.
        from: String,
        /// The last day.
        to: String,
    },
}
}

for_the_ui! {
/// One figure the service gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FigureName {
    /// Scans recorded.
    Scans,
    /// Visits recorded.
    Visits,
    /// Customers with a scan in the period.
    ActiveCustomers,
    /// Customers who came back.
    ReturningCustomers,
    /// Customers who joined.
    NewCustomers,
    /// Rewards earned.
    RewardsEarned,
    /// Rewards redeemed.
    RewardsRedeemed,
    /// Gift cards issued.
    GiftCardsIssued,
}
}

for_the_ui! {
/// A figure, its value in the period before, and the change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// Which figure.
    pub name: FigureName,
    /// In the period.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub value: i64,
    /// In the period of the same length just before.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub previous: i64,
    /// The change in per cent, rounded to one decimal; None when the period before
    /// had none (no base to compare with).
    pub change_percent: Option<f64>,
}
}

for_the_ui! {
/// The figures of a period beside those of the period before it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// The period's first day (`2026-11-23`).
    pub from: String,
    /// Its last day.
    pub to: String,
    /// The period before: its first day.
    pub previous_from: String,
    /// Its last day.
    pub previous_to: String,
    /// The business's time zone, whose days these are.
    pub time_zone: String,
    /// Every figure the service gives, in the API's order.
    pub figures: Vec<Figure>,
}
}

impl Counter {
    /// The figures of `period` beside those of the period of the same length before it.
    /// A manager's screen: asked with the manager here.
    pub async fn figures(&self, period: &FiguresPeriod) -> Result<Figures, Error> {
        self.staff()?;
        self.permit(Action::Figures)?;
        let client = self.core.client().ok_or(Error::NotConnected)?;
        let (from, to) = match period {
            FiguresPeriod::Between { from, to } => input::period(from, to, MAX_FIGURE_DAYS)?,
            relative => {
                // The service's last 30 days end on the business's today.
                let today = client.stats(StatsParams::default()).await?.data.to;
                relative_days(relative, today).ok_or(InputError::PeriodTooLong {
                    max_days: MAX_FIGURE_DAYS,
                })?
            }
        };
        let (previous_from, previous_to) = before(from, to).ok_or(InputError::NotADate {
            given: from.to_string(),
        })?;
        let ask = |from: Date, to: Date| {
            client.stats(StatsParams {
                from: Some(from),
                to: Some(to),
            })
        };
        let (now, then) = tokio::join!(ask(from, to), ask(previous_from, previous_to));
        let (now, then) = (now?.data, then?.data);
        Ok(Figures {
            from: now.from.to_string(),
            to: now.to.to_string(),
            previous_from: then.from.to_string(),
            previous_to: then.to.to_string(),
            time_zone: now.time_zone.clone(),
            figures: compare(&now, &then),
        })
    }
}

/// The days of a period named relative to `today`.
fn relative_days(period: &FiguresPeriod, today: Date) -> Option<(Date, Date)> {
    let back = |days: i64| today.checked_sub(jiff::Span::new().days(days)).ok();
    let from = match period {
        FiguresPeriod::Today => today,
        FiguresPeriod::Last7Days => back(6)?,
        FiguresPeriod::Last30Days => back(29)?,
        FiguresPeriod::ThisMonth => today.first_of_month(),
        FiguresPeriod::Between { .. } => return None,
    };
    Some((from, today))
}

/// The period of the same length just before `from`..=`to`.
fn before(from: Date, to: Date) -> Option<(Date, Date)> {
    let days = i64::from(from.until((jiff::Unit::Day, to)).ok()?.get_days());
    let previous_to = from.yesterday().ok()?;
    let previous_from = previous_to.checked_sub(jiff::Span::new().days(days)).ok()?;
    Some((previous_from, previous_to))
}

fn compare(now: &Stats, then: &Stats) -> Vec<Figure> {
    let pick = |s: &Stats| {
        [
            (FigureName::Scans, s.scans),
            (FigureName::Visits, s.visits),
            (FigureName::ActiveCustomers, s.active_customers),
            (FigureName::ReturningCustomers, s.returning_customers),
            (FigureName::NewCustomers, s.new_customers),
            (FigureName::RewardsEarned, s.rewards_earned),
            (FigureName::RewardsRedeemed, s.rewards_redeemed),
            (FigureName::GiftCardsIssued, s.gift_cards_issued),
        ]
    };
    pick(now)
        .into_iter()
        .zip(pick(then))
        .map(|((name, value), (_, previous))| Figure {
            name,
            value,
            previous,
            change_percent: change(value, previous),
        })
        .collect()
}

/// The change from `previous` to `value` in per cent, to one decimal.
fn change(value: i64, previous: i64) -> Option<f64> {
    (previous != 0).then(|| {
        let percent = (value - previous) as f64 * 100.0 / previous as f64;
        (percent * 10.0).round() / 10.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn each_period_ends_today_and_the_one_before_has_the_same_length() {
        let today = date(2026, 11, 23);
        let days = |p| relative_days(&p, today).unwrap();
        assert_eq!(days(FiguresPeriod::Today), (today, today));
        assert_eq!(days(FiguresPeriod::Last7Days), (date(2026, 11, 17), today));
        assert_eq!(days(FiguresPeriod::Last30Days), (date(2026, 10, 25), today));
        assert_eq!(days(FiguresPeriod::ThisMonth), (date(2026, 11, 1), today));
        assert_eq!(
            before(date(2026, 11, 1), today),
            Some((date(2026, 10, 9), date(2026, 10, 31)))
        );
        assert_eq!(
            before(today, today),
            Some((date(2026, 11, 22), date(2026, 11, 22)))
        );
        // 29 days of March 2024 after February's 29 days.
        assert_eq!(
            before(date(2024, 3, 1), date(2024, 3, 29)),
            Some((date(2024, 2, 1), date(2024, 2, 29)))
        );
    }

    #[test]
    fn the_change_is_in_per_cent_and_none_without_a_base() {
        assert_eq!(change(15, 10), Some(50.0));
        assert_eq!(change(10, 15), Some(-33.3));
        assert_eq!(change(7, 0), None);
        assert_eq!(change(0, 4), Some(-100.0));
    }
}
