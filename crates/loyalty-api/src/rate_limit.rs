//! The RateLimit and RateLimit-Policy headers, in the structured-field form of the
//! IETF httpapi ratelimit-headers draft:
//!
//! ```text
//! RateLimit-Policy: "key";q=600;w=60, "writes";q=120;w=60
//! RateLimit: "key";r=599;t=60
//! ```
//!
//! Both are parsed with `sfv` (RFC 9651). A header that is not a valid structured
//! list is ignored: the limit is advice, never a reason to fail an answer.

use std::time::Duration;

use reqwest::header::HeaderMap;
use sfv::{BareItem, ListEntry, Parameters, Parser};

/// What remains of one policy's window (an item of `RateLimit`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimitState {
    /// The policy's name (`key`, `writes`).
    pub policy: String,
    /// Requests left in the window (`r`).
    pub remaining: u64,
    /// Time until the window resets (`t`).
    pub reset: Duration,
}

/// One policy (an item of `RateLimit-Policy`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimitPolicy {
    /// The policy's name (`key`, `writes`).
    pub name: String,
    /// Requests allowed per window (`q`).
    pub quota: u64,
    /// The window's length (`w`), when given.
    pub window: Option<Duration>,
}

/// The rate-limit state an answer reported.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RateLimit {
    /// What remains, per policy (`RateLimit`); empty when the header was absent or malformed.
    pub states: Vec<RateLimitState>,
    /// The policies (`RateLimit-Policy`); empty when the header was absent or malformed.
    pub policies: Vec<RateLimitPolicy>,
}

impl RateLimit {
    /// Reads both headers; None when neither gave anything usable.
    pub fn from_headers(headers: &HeaderMap) -> Option<Self> {
        let text = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let states = text("ratelimit")
            .and_then(|t| parse_states(&t))
            .unwrap_or_default();
        let policies = text("ratelimit-policy")
            .and_then(|t| parse_policies(&t))
            .unwrap_or_default();
        if states.is_empty() && policies.is_empty() {
            None
        } else {
            Some(Self { states, policies })
        }
    }

    /// The state of the policy named `name`.
    pub fn state(&self, name: &str) -> Option<&RateLimitState> {
        self.states.iter().find(|s| s.policy == name)
    }

    /// The policy named `name`.
    pub fn policy(&self, name: &str) -> Option<&RateLimitPolicy> {
        self.policies.iter().find(|p| p.name == name)
    }

    /// The fewest requests left across the reported policies: the one that binds.
    pub fn remaining(&self) -> Option<u64> {
        self.states.iter().map(|s| s.remaining).min()
    }
}

/// Parses a `RateLimit` value; None when it is not a valid structured list or an item
/// lacks `r`.
pub fn parse_states(value: &str) -> Option<Vec<RateLimitState>> {
    items(value)?
        .into_iter()
        .map(|(name, params)| {
            Some(RateLimitState {
                policy: name,
                remaining: non_negative(&params, "r")?,
                reset: Duration::from_secs(non_negative(&params, "t").unwrap_or(0)),
            })
        })
        .collect()
}

/// Parses a `RateLimit-Policy` value; None when it is not a valid structured list or
/// an item lacks `q`.
pub fn parse_policies(value: &str) -> Option<Vec<RateLimitPolicy>> {
    items(value)?
        .into_iter()
        .map(|(name, params)| {
            Some(RateLimitPolicy {
                name,
                quota: non_negative(&params, "q")?,
                window: non_negative(&params, "w").map(Duration::from_secs),
            })
        })
        .collect()
}

/// The items of a structured list with their names (a string or a token) and parameters.
fn items(value: &str) -> Option<Vec<(String, Parameters)>> {
    let list: sfv::List = Parser::new(value).parse().ok()?;
    list.into_iter()
        .map(|entry| match entry {
            ListEntry::Item(item) => {
                let name = match &item.bare_item {
                    BareItem::String(s) => s.as_str().to_owned(),
                    BareItem::Token(t) => t.as_str().to_owned(),
                    _ => return None,
                };
                Some((name, item.params))
            }
            ListEntry::InnerList(_) => None,
        })
        .collect()
}

fn non_negative(params: &Parameters, name: &str) -> Option<u64> {
    let value = params.get(name)?.as_integer()?;
    u64::try_from(i64::from(value)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn both_headers_of_the_sandbox_contract_are_read() {
        let limit = RateLimit::from_headers(&headers(&[
            ("ratelimit", r#""key";r=599;t=60"#),
            (
                "ratelimit-policy",
                r#""key";q=600;w=60, "writes";q=120;w=60"#,
            ),
        ]))
        .unwrap();
        assert_eq!(
            limit.state("key"),
            Some(&RateLimitState {
                policy: "key".into(),
                remaining: 599,
                reset: Duration::from_secs(60)
            })
        );
        assert_eq!(limit.policy("writes").unwrap().quota, 120);
        assert_eq!(
            limit.policy("key").unwrap().window,
            Some(Duration::from_secs(60))
        );
        assert_eq!(limit.remaining(), Some(599));
    }

    #[test]
    fn several_states_report_the_smallest_remaining() {
        let states =
            parse_states(r#""key";r=10;t=5, "writes";r=2;t=30, "business";r=900"#).unwrap();
        assert_eq!(states.len(), 3);
        let limit = RateLimit {
            states,
            policies: vec![],
        };
        assert_eq!(limit.remaining(), Some(2));
        assert_eq!(limit.state("business").unwrap().reset, Duration::ZERO);
    }

    #[test]
    fn tokens_and_unknown_parameters_are_accepted() {
        let policies = parse_policies("default;q=100;w=10;pk=:Y2Fw:").unwrap();
        assert_eq!(policies[0].name, "default");
        assert_eq!(policies[0].quota, 100);
    }

    #[test]
    fn malformed_headers_are_ignored() {
        assert_eq!(parse_states("r=5, t="), None);
        assert_eq!(parse_states(r#""key";r=-1"#), None);
        assert_eq!(parse_states(r#""key";t=5"#), None);
        assert_eq!(parse_policies(r#"("a" "b");q=1"#), None);
        assert_eq!(parse_policies(r#""key";q="many""#), None);
        assert_eq!(
            RateLimit::from_headers(&headers(&[("ratelimit", "limit=100, remaining=50")])),
            None
        );
        // A good policy header survives a malformed state header.
        let limit = RateLimit::from_headers(&headers(&[
            ("ratelimit", "{{nonsense"),
            ("ratelimit-policy", r#""key";q=600;w=60"#),
        ]))
        .unwrap();
        assert!(limit.states.is_empty());
        assert_eq!(limit.policies.len(), 1);
    }
}
