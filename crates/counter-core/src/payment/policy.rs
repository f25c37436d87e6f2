//! The manager's policy for gift-card payments taken while the service cannot be
//! reached: whether they are taken at all, the caps of each currency, and how fresh
//! the card's balance must be; and why a payment is refused, as data.

use jiff::{SignedDuration, Timestamp};
use loyalty_api::Currency;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::PolicyRefusal;

/// What the manager allows while the service cannot be reached. Off by default: an
/// offline payment is money taken on trust.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct OfflinePaymentPolicy {
    /// Whether payments may be queued at all while offline.
    pub allowed: bool,
    /// The caps of each currency. A currency without caps of its own has none: a cap
    /// in one currency says nothing of another (20 EUR is not 20 JPY).
    #[serde(default)]
    pub caps: Vec<CurrencyCaps>,
    /// The card's balance must have been read from the service within this many
    /// minutes.
    pub balance_max_age_minutes: Option<u32>,
}

impl OfflinePaymentPolicy {
    /// The caps of `currency`, if it has its own.
    pub fn caps_of(&self, currency: &Currency) -> Option<&CurrencyCaps> {
        self.caps.iter().find(|c| &c.currency == currency)
    }

    /// Sets the caps of one currency, leaving the others as they were; a currency
    /// with neither cap is removed.
    pub fn set_caps(&mut self, caps: CurrencyCaps) {
        self.caps.retain(|c| c.currency != caps.currency);
        if caps.per_payment.is_some() || caps.total.is_some() {
            self.caps.push(caps);
            self.caps
                .sort_by(|a, b| a.currency.as_str().cmp(b.currency.as_str()));
        }
    }
}

/// The offline caps of one currency, in its major units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrencyCaps {
    /// The currency.
    pub currency: Currency,
    /// The most one offline payment may take.
    #[serde(default, with = "crate::optional_decimal")]
    pub per_payment: Option<Decimal>,
    /// The most all payments at risk together may take (queued, being sent, or
    /// waiting for a decision).
    #[serde(default, with = "crate::optional_decimal")]
    pub total: Option<Decimal>,
}

impl OfflinePaymentPolicy {
    /// The most one offline payment in `currency` may take now (None: no cap), given
    /// what is already at risk and when the card's balance was read; a refusal when it
    /// may take nothing.
    pub fn limit(
        &self,
        currency: &Currency,
        already_queued: Decimal,
        balance_read_at: Timestamp,
        now: Timestamp,
    ) -> Result<Option<Decimal>, PolicyRefusal> {
        if !self.allowed {
            return Err(PolicyRefusal::NotAllowed);
        }
        if let Some(max_minutes) = self.balance_max_age_minutes {
            let age = now.duration_since(balance_read_at);
            if age > SignedDuration::from_mins(i64::from(max_minutes)) {
                return Err(PolicyRefusal::BalanceTooOld {
                    max_minutes,
                    age_minutes: age.as_mins(),
                });
            }
        }
        let caps = self.caps_of(currency);
        let per_payment = caps.and_then(|c| c.per_payment);
        let total = caps.and_then(|c| c.total);
        if let Some(cap) = total
            && already_queued >= cap
        {
            return Err(PolicyRefusal::OverTotalCap {
                cap,
                queued: already_queued,
                currency: currency.clone(),
            });
        }
        let left = total.map(|cap| cap - already_queued);
        Ok(match (per_payment, left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }

    /// Checks one offline payment of `amount` (major units), given what is already
    /// queued in the same currency and when the balance was read.
    pub fn check(
        &self,
        amount: Decimal,
        currency: &Currency,
        already_queued: Decimal,
        balance_read_at: Timestamp,
        now: Timestamp,
    ) -> Result<(), PolicyRefusal> {
        self.limit(currency, already_queued, balance_read_at, now)?;
        let caps = self.caps_of(currency);
        if let Some(cap) = caps.and_then(|c| c.per_payment)
            && amount > cap
        {
            return Err(PolicyRefusal::OverPaymentCap {
                cap,
                currency: currency.clone(),
            });
        }
        if let Some(cap) = caps.and_then(|c| c.total)
            && already_queued + amount > cap
        {
            return Err(PolicyRefusal::OverTotalCap {
                cap,
                queued: already_queued,
                currency: currency.clone(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eur() -> Currency {
        Currency::new("EUR").unwrap()
    }

    #[test]
    fn offline_payments_are_refused_unless_the_manager_allows_them() {
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let off = OfflinePaymentPolicy::default();
        assert!(
            off.check(Decimal::ONE, &eur(), Decimal::ZERO, now, now)
                .is_err()
        );
    }

    #[test]
    fn an_offline_payment_outside_the_caps_or_with_an_old_balance_is_refused() {
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let policy = OfflinePaymentPolicy {
            allowed: true,
            caps: vec![CurrencyCaps {
                currency: eur(),
                per_payment: Some(Decimal::from(20)),
                total: Some(Decimal::from(50)),
            }],
            balance_max_age_minutes: Some(30),
        };
        let ok = |amount: i64, queued: i64, age_min: i64| {
            policy.check(
                Decimal::from(amount),
                &eur(),
                Decimal::from(queued),
                now - SignedDuration::from_mins(age_min),
                now,
            )
        };
        assert!(ok(20, 30, 29).is_ok());
        assert_eq!(
            ok(21, 0, 0),
            Err(PolicyRefusal::OverPaymentCap {
                cap: Decimal::from(20),
                currency: eur()
            })
        );
        assert_eq!(
            ok(20, 31, 0),
            Err(PolicyRefusal::OverTotalCap {
                cap: Decimal::from(50),
                queued: Decimal::from(31),
                currency: eur()
            })
        );
        assert_eq!(
            ok(5, 0, 31),
            Err(PolicyRefusal::BalanceTooOld {
                max_minutes: 30,
                age_minutes: 31
            })
        );
    }

    #[test]
    fn the_offline_limit_is_the_lower_of_the_caps_and_nothing_once_the_total_is_reached() {
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let policy = |per_payment: Option<i64>, total: Option<i64>| OfflinePaymentPolicy {
            allowed: true,
            caps: vec![CurrencyCaps {
                currency: eur(),
                per_payment: per_payment.map(Decimal::from),
                total: total.map(Decimal::from),
            }],
            balance_max_age_minutes: None,
        };
        let limit =
            |p: OfflinePaymentPolicy, queued: i64| p.limit(&eur(), Decimal::from(queued), now, now);
        assert_eq!(
            limit(policy(Some(20), Some(50)), 40),
            Ok(Some(Decimal::from(10)))
        );
        assert_eq!(
            limit(policy(Some(20), Some(50)), 0),
            Ok(Some(Decimal::from(20)))
        );
        assert_eq!(limit(policy(None, None), 0), Ok(None));
        assert!(matches!(
            limit(policy(Some(20), Some(50)), 50),
            Err(PolicyRefusal::OverTotalCap { .. })
        ));
        assert_eq!(
            OfflinePaymentPolicy::default().limit(&eur(), Decimal::ZERO, now, now),
            Err(PolicyRefusal::NotAllowed)
        );
    }

    #[test]
    fn caps_are_per_currency_so_an_ordinary_amount_without_decimals_passes() {
        let now: Timestamp = "2026-11-22T09:15:00Z".parse().unwrap();
        let jpy = Currency::new("JPY").unwrap();
        let krw = Currency::new("KRW").unwrap();
        let policy = OfflinePaymentPolicy {
            allowed: true,
            caps: vec![
                CurrencyCaps {
                    currency: eur(),
                    per_payment: Some(Decimal::from(20)),
                    total: Some(Decimal::from(50)),
                },
                CurrencyCaps {
                    currency: jpy.clone(),
                    per_payment: Some(Decimal::from(5_000)),
                    total: None,
                },
            ],
            balance_max_age_minutes: None,
        };
        let check = |amount: i64, currency: &Currency, queued: i64| {
            policy.check(
                Decimal::from(amount),
                currency,
                Decimal::from(queued),
                now,
                now,
            )
        };
        assert!(check(3_000, &jpy, 40).is_ok(), "EUR's caps are not JPY's");
        assert!(check(5_001, &jpy, 0).is_err());
        assert!(check(150_000, &krw, 0).is_ok(), "no caps set for KRW");
        assert!(check(21, &eur(), 0).is_err());
    }
}
