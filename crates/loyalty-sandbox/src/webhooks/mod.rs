//! Webhook delivery: signing (Standard Webhooks) and posting one attempt.
//!
//! Each attempt posts the event object `{id, type, created_at, livemode, data}` as
//! JSON with the headers `webhook-id` (the event's id, the same on every retry),
//! `webhook-timestamp` (seconds since the epoch by the server's clock, new on each
//! attempt) and `webhook-signature` (`v1,` and the base64 of HMAC-SHA256 over
//! `id.timestamp.body`, keyed with the base64-decoded part of the endpoint's
//! `whsec_` secret). An attempt succeeds on a 2xx answer within
//! [`ATTEMPT_TIMEOUT`]; redirects are not followed (a 3xx is a failure). Retries,
//! health and pausing are in [`crate::store::deliveries`]; the loop that runs them
//! is [`crate::worker`].

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::clock::format_ms;
use crate::store::deliveries::{Attempt, Due};
use crate::wire;

/// How long one attempt may take, connection included.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(5);

/// The HTTP client of the deliveries: short time-out, no redirects.
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(ATTEMPT_TIMEOUT)
        .connect_timeout(ATTEMPT_TIMEOUT)
        .redirect(reqwest::redirect::Policy::none())
        .user_agent(concat!(
            "loyalty-sandbox-webhooks/",
            env!("CARGO_PKG_VERSION")
        ))
        .build()
        .unwrap_or_default()
}

/// The `webhook-signature` value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
/// None when the secret is not `whsec_` followed by base64.
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix("whsec_")?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

/// The body a delivery posts: the event `{id, type, created_at, livemode, data}`.
pub fn body(d: &Due) -> serde_json::Result<String> {
    serde_json::to_string(&wire::WebhookEvent {
        id: &d.event_id,
        r#type: &d.event_type,
        created_at: format_ms(d.event_created_at),
        livemode: d.livemode,
        data: serde_json::from_str(&d.data)?,
    })
}

/// Posts one attempt of a delivery at `now_s` (server clock, seconds).
pub async fn post(client: &reqwest::Client, d: &Due, now_s: i64) -> Attempt {
    let body = match body(d) {
        Ok(body) => body,
        Err(err) => {
            tracing::error!(event = %d.event_id, %err, "the event's stored data is not JSON");
            return Attempt { http_status: None };
        }
    };
    let Some(sig) = signature(&d.secret, &d.event_id, now_s, &body) else {
        tracing::warn!(endpoint = %d.endpoint_id, "webhook secret is not whsec_ base64");
        return Attempt { http_status: None };
    };
    let sent = client
        .post(&d.url)
        .header("content-type", "application/json")
        .header("webhook-id", &d.event_id)
        .header("webhook-timestamp", now_s.to_string())
        .header("webhook-signature", sig)
        .body(body)
        .send()
        .await;
    match sent {
        Ok(resp) => Attempt {
            http_status: Some(resp.status().as_u16()),
        },
        Err(err) => {
            tracing::info!(endpoint = %d.endpoint_id, %err, "webhook attempt got no answer");
            Attempt { http_status: None }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_follows_the_standard_webhooks_example() {
        // The example of the Standard Webhooks specification.
        let sig = signature(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            r#"{"test": 2432232314}"#,
        );
        assert_eq!(
            sig.as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
        assert_eq!(signature("nope", "a", 1, "b"), None);
    }
}
