//! The offline policy as the manager's form edits it: the caps of one currency at a
//! time, typed as text. Read from the policy ([`OfflinePolicyForm::of`]) and applied
//! back to it ([`OfflinePolicyForm::apply_to`]), each cap read by the core's one rule
//! for amounts.

use loyalty_api::Currency;
use serde::{Deserialize, Serialize};

use super::{CurrencyCaps, OfflinePaymentPolicy, parse_amount, to_decimal};
use crate::error::{Error, NotAllowed};

for_the_ui! {
/// What the manager allows while the service cannot be reached, as the form shows it:
/// the caps of `currency` to edit, and every currency's caps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfflinePolicyForm {
    /// Payments may be queued while offline.
    pub allowed: bool,
    /// The currency whose caps the form edits (ISO 4217 code).
    pub currency: String,
    /// The most one offline payment may take (major units), if capped.
    pub per_payment_cap: Option<String>,
    /// The most all payments at risk together may take, if capped.
    pub total_cap: Option<String>,
    /// The balance must have been read within this many minutes, if limited.
    pub balance_max_age_minutes: Option<u32>,
    /// The caps of every currency that has some (shown; not read back).
    #[serde(default)]
    pub caps: Vec<CurrencyCapsForm>,
}
}

for_the_ui! {
/// One currency's offline caps, as the form lists them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurrencyCapsForm {
    /// The currency (ISO 4217 code).
    pub currency: String,
    /// The most one offline payment may take, if capped.
    pub per_payment_cap: Option<String>,
    /// The most all payments at risk together may take, if capped.
    pub total_cap: Option<String>,
}
}

impl OfflinePolicyForm {
    /// `policy` as the form shows it, editing `currency`'s caps.
    pub fn of(policy: &OfflinePaymentPolicy, currency: &Currency) -> Self {
        let own = policy.caps_of(currency);
        Self {
            allowed: policy.allowed,
            currency: currency.as_str().to_owned(),
            per_payment_cap: own.and_then(|c| c.per_payment).map(|d| d.to_string()),
            total_cap: own.and_then(|c| c.total).map(|d| d.to_string()),
            balance_max_age_minutes: policy.balance_max_age_minutes,
            caps: policy
                .caps
                .iter()
                .map(|c| CurrencyCapsForm {
                    currency: c.currency.as_str().to_owned(),
                    per_payment_cap: c.per_payment.map(|d| d.to_string()),
                    total_cap: c.total.map(|d| d.to_string()),
                })
                .collect(),
        }
    }

    /// `policy` with this form's changes: `allowed`, the age limit, and the caps of
    /// `currency` (other currencies' caps stay); with the currency edited. A currency
    /// that is not a currency code, or a cap that is not a positive amount of it, is
    /// refused, and nothing changes.
    pub fn apply_to(
        &self,
        mut policy: OfflinePaymentPolicy,
    ) -> Result<(OfflinePaymentPolicy, Currency), Error> {
        let currency =
            Currency::new(self.currency.trim()).map_err(|_| NotAllowed::NotACurrency {
                given: self.currency.chars().take(8).collect(),
            })?;
        let cap = |text: &Option<String>| match text.as_deref().map(str::trim) {
            None | Some("") => Ok(None),
            Some(typed) => {
                Ok::<_, Error>(Some(to_decimal(parse_amount(typed, &currency)?, &currency)))
            }
        };
        let (per_payment, total) = (cap(&self.per_payment_cap)?, cap(&self.total_cap)?);
        policy.allowed = self.allowed;
        policy.balance_max_age_minutes = self.balance_max_age_minutes;
        policy.set_caps(CurrencyCaps {
            currency: currency.clone(),
            per_payment,
            total,
        });
        Ok((policy, currency))
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;

    fn form(currency: &str, per_payment: Option<&str>, total: Option<&str>) -> OfflinePolicyForm {
        OfflinePolicyForm {
            allowed: true,
            currency: currency.into(),
            per_payment_cap: per_payment.map(Into::into),
            total_cap: total.map(Into::into),
            balance_max_age_minutes: Some(30),
            caps: Vec::new(),
        }
    }

    fn eur() -> Currency {
        Currency::new("EUR").unwrap()
    }

    #[test]
    fn a_form_sets_one_currencys_caps_and_keeps_the_others() {
        let mut policy = OfflinePaymentPolicy::default();
        policy.set_caps(CurrencyCaps {
            currency: Currency::new("JPY").unwrap(),
            per_payment: Some(Decimal::from(2000)),
            total: None,
        });
        let (policy, currency) = form(" EUR ", Some("20,50"), Some(""))
            .apply_to(policy)
            .unwrap();
        assert_eq!(currency, eur());
        assert!(policy.allowed);
        assert_eq!(policy.balance_max_age_minutes, Some(30));
        assert_eq!(
            policy.caps_of(&eur()).unwrap().per_payment,
            Some(Decimal::new(2050, 2))
        );
        assert_eq!(policy.caps_of(&eur()).unwrap().total, None);
        assert!(policy.caps_of(&Currency::new("JPY").unwrap()).is_some());
        let shown = OfflinePolicyForm::of(&policy, &eur());
        assert_eq!(shown.per_payment_cap.as_deref(), Some("20.50"));
        assert_eq!(shown.caps.len(), 2);
    }

    #[test]
    fn a_bad_currency_or_cap_is_refused() {
        let policy = OfflinePaymentPolicy::default();
        for (bad, says) in [
            (form("euro", Some("10"), None), "not a currency code"),
            (form("EUR", Some("-5"), None), "cannot be negative"),
            (form("EUR", None, Some("1.234")), "decimals"),
            (form("JPY", Some("10.5"), None), "decimals"),
        ] {
            let refused = bad.apply_to(policy.clone()).unwrap_err();
            assert!(refused.to_string().contains(says), "{bad:?}: {refused}");
        }
    }
}
