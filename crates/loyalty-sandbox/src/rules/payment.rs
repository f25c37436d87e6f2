//! What a payment does to a gift card.
//!
//! Checked in this order: the card's status (issued → gift_card_not_claimed,
//! cancelled → gift_card_cancelled, depleted → gift_card_depleted), then the
//! currency (422 currency_mismatch naming the card's currency; nothing is ever
//! converted), then the balance (409 insufficient_balance with the `balance`
//! member, `param` amount_minor). An amount equal to the balance depletes the card.

use crate::error::{ApiError, Code};
use crate::money;

/// A gift card's state as a payment sees it.
#[derive(Debug, Clone, Copy)]
pub struct Purse<'a> {
    /// `issued`, `active`, `depleted` or `cancelled`.
    pub status: &'a str,
    /// ISO 4217 code.
    pub currency: &'a str,
    /// Minor-unit exponent of the currency.
    pub exponent: u32,
    /// Balance in minor units.
    pub balance_minor: i64,
}

/// What an accepted payment leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaymentOutcome {
    /// Balance after, in minor units.
    pub balance_after: i64,
    /// Whether the card is now used up.
    pub depleted: bool,
}

/// Takes `amount_minor` of `currency` from the purse, or refuses.
pub fn take(
    purse: Purse<'_>,
    amount_minor: i64,
    currency: &str,
) -> Result<PaymentOutcome, ApiError> {
    match purse.status {
        "issued" => {
            return Err(ApiError::new(
                Code::GiftCardNotClaimed,
                "The recipient has not opened the gift card yet.",
            ));
        }
        "cancelled" => {
            return Err(ApiError::new(
                Code::GiftCardCancelled,
                "The gift card is cancelled.",
            ));
        }
        "depleted" => {
            return Err(ApiError::new(
                Code::GiftCardDepleted,
                "The gift card is used up; its balance is 0.",
            ));
        }
        _ => {}
    }
    if !currency.eq_ignore_ascii_case(purse.currency) {
        return Err(ApiError::new(
            Code::CurrencyMismatch,
            format!(
                "The gift card is in {}; amounts are never converted.",
                purse.currency
            ),
        )
        .param("currency"));
    }
    if amount_minor > purse.balance_minor {
        return Err(ApiError::new(
            Code::InsufficientBalance,
            format!(
                "The gift card holds {} {}.",
                money::format_minor(purse.balance_minor, purse.exponent),
                purse.currency
            ),
        )
        .param("amount_minor")
        .extra(|x| {
            x.balance = Some(crate::wire::Balance {
                amount: money::format_minor(purse.balance_minor, purse.exponent),
                amount_minor: purse.balance_minor,
                currency: purse.currency.to_owned(),
            })
        }));
    }
    let balance_after = purse.balance_minor - amount_minor;
    Ok(PaymentOutcome {
        balance_after,
        depleted: balance_after == 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn purse(status: &str, balance_minor: i64) -> Purse<'_> {
        Purse {
            status,
            currency: "EUR",
            exponent: 2,
            balance_minor,
        }
    }

    #[test]
    fn an_amount_equal_to_the_balance_depletes_the_card() {
        let out = take(purse("active", 500), 500, "EUR").unwrap();
        assert_eq!(
            out,
            PaymentOutcome {
                balance_after: 0,
                depleted: true
            }
        );
    }

    #[test]
    fn more_than_the_balance_is_refused_with_the_balance() {
        let err = take(purse("active", 500), 501, "EUR").unwrap_err();
        let p = err.problem();
        assert_eq!(p.code, "insufficient_balance");
        assert_eq!(p.param.as_deref(), Some("amount_minor"));
        let balance = p.extra.balance.as_ref().unwrap();
        assert_eq!(balance.amount, "5.00");
        assert_eq!(balance.amount_minor, 500);
    }

    #[test]
    fn each_state_refuses_with_its_own_code() {
        assert_eq!(
            take(purse("issued", 5), 1, "EUR").unwrap_err().code(),
            "gift_card_not_claimed"
        );
        assert_eq!(
            take(purse("cancelled", 5), 1, "EUR").unwrap_err().code(),
            "gift_card_cancelled"
        );
        assert_eq!(
            take(purse("depleted", 0), 1, "EUR").unwrap_err().code(),
            "gift_card_depleted"
        );
        assert_eq!(
            take(purse("active", 5), 1, "USD").unwrap_err().code(),
            "currency_mismatch"
        );
    }
}
