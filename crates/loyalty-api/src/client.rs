//! The client: base URL, key, timeouts, and the one place answers are decoded.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{self, HeaderMap, HeaderValue};
use reqwest::{Method, RequestBuilder, Url};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, TransportError, TransportKind};
use crate::idempotency::IdempotencyKey;
use crate::key::{ApiKey, KeyMode};
use crate::problem::Problem;
use crate::response::{self, Response};

/// The User-Agent sent unless the builder sets another: `loyalty-counter/<version>`.
pub const DEFAULT_USER_AGENT: &str = concat!("loyalty-counter/", env!("CARGO_PKG_VERSION"));

/// A client of API v1 for one base URL and one key. Cheap to clone (shared inside).
///
/// Operations are grouped by resource: [`Client::customers`], [`Client::scans`],
/// [`Client::gift_cards`], [`Client::broadcasts`], ... plus [`Client::me`] and
/// [`Client::stats`].
#[derive(Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    base_url: Url,
    key: ApiKey,
    observer: Option<Arc<dyn Observer>>,
}

/// What a client's user learns from every exchange with the service, told by the
/// client itself after each request (so no call site can forget to).
pub trait Observer: Send + Sync {
    /// A success came back, with the service's clock and the key's rate limit when
    /// the answer carried them.
    fn answered(&self, date: Option<jiff::Timestamp>, rate_limit: Option<&crate::RateLimit>);
    /// A request failed: no usable answer, or a problem.
    fn failed(&self, error: &Error);
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.inner.base_url.as_str())
            .field("key", &self.inner.key)
            .finish()
    }
}

/// Why a client could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The base URL cannot be used.
    #[error("invalid base URL {url:?}: {reason}")]
    BaseUrl {
        /// The URL given (its first 100 characters: a huge paste is not echoed back).
        url: String,
        /// Why it was refused.
        reason: BaseUrlProblem,
    },
    /// The User-Agent is not a valid header value.
    #[error("invalid User-Agent")]
    UserAgent,
    /// The HTTP layer could not be set up.
    #[error("HTTP client: {0}")]
    Http(#[source] reqwest::Error),
}

/// Why a base URL is refused.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum BaseUrlProblem {
    /// Nothing given.
    #[error("no address")]
    Empty,
    /// Not a web address at all.
    #[error("not a web address")]
    NotWeb,
    /// A scheme other than https or http.
    #[error("not an https or http address")]
    Scheme,
    /// Plain http to another computer: the key would cross the network readable.
    #[error("plain http is only for this computer; use https")]
    PlainHttp,
    /// A user name or password in the address.
    #[error("an address with a user name or password")]
    Credentials,
    /// A query or fragment.
    #[error("a base URL has no query or fragment")]
    Query,
}

/// Checks a base URL the way [`ClientBuilder::build`] does: https, or http to this
/// computer only (the key travels in every request, so it never crosses the network
/// readable); no user name, password, query or fragment. The answer has no trailing
/// slash, ready for `/v1/...`.
pub fn check_base_url(text: &str) -> Result<Url, BaseUrlProblem> {
    let text = text.trim();
    if text.is_empty() {
        return Err(BaseUrlProblem::Empty);
    }
    let mut url = Url::parse(text).map_err(|_| BaseUrlProblem::NotWeb)?;
    if url.cannot_be_a_base() {
        return Err(BaseUrlProblem::NotWeb);
    }
    let this_computer = url.host_str().is_some_and(|host| {
        host.eq_ignore_ascii_case("localhost")
            || host
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    });
    match url.scheme() {
        "https" => {}
        "http" if this_computer => {}
        "http" => return Err(BaseUrlProblem::PlainHttp),
        _ => return Err(BaseUrlProblem::Scheme),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(BaseUrlProblem::Credentials);
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(BaseUrlProblem::Query);
    }
    // Paths are appended as segments, so the base must not end in an empty one.
    if let Ok(mut segments) = url.path_segments_mut() {
        segments.pop_if_empty();
    }
    Ok(url)
}

/// Builds a [`Client`]: base URL and key are required, the rest has defaults.
#[derive(Debug)]
pub struct ClientBuilder {
    base_url: String,
    key: ApiKey,
    timeout: Duration,
    connect_timeout: Duration,
    user_agent: String,
    observer: Option<Arc<dyn Observer>>,
}

impl std::fmt::Debug for dyn Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

impl ClientBuilder {
    /// Tells `observer` of every answer and failure.
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// The longest a whole request may take, answer body included (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The longest connecting may take (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Replaces the User-Agent (default [`DEFAULT_USER_AGENT`]).
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.user_agent = user_agent.into();
        self
    }

    /// Builds the client.
    pub fn build(self) -> Result<Client, BuildError> {
        let base_url = check_base_url(&self.base_url).map_err(|reason| BuildError::BaseUrl {
            url: self.base_url.chars().take(100).collect(),
            reason,
        })?;
        let user_agent =
            HeaderValue::from_str(&self.user_agent).map_err(|_| BuildError::UserAgent)?;
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        headers.insert(header::AUTHORIZATION, self.key.authorization());
        let http = reqwest::Client::builder()
            .user_agent(user_agent)
            .default_headers(headers)
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout)
            // A redirect could carry the Authorization header elsewhere; the API never redirects.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(BuildError::Http)?;
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                base_url,
                key: self.key,
                observer: self.observer,
            }),
        })
    }
}

impl Client {
    /// A builder for `base_url` (the live `https://host` or the sandbox
    /// `https://host/sandbox`; paths `/v1/...` are appended) and `key`.
    pub fn builder(base_url: impl Into<String>, key: ApiKey) -> ClientBuilder {
        ClientBuilder {
            base_url: base_url.into(),
            key,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(10),
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            observer: None,
        }
    }

    /// A client with the default timeouts and User-Agent.
    pub fn new(base_url: impl Into<String>, key: ApiKey) -> Result<Self, BuildError> {
        Self::builder(base_url, key).build()
    }

    /// The base URL requests go to.
    pub fn base_url(&self) -> &Url {
        &self.inner.base_url
    }

    /// The key's mode, from its prefix.
    pub fn key_mode(&self) -> Option<KeyMode> {
        self.inner.key.mode()
    }

    fn url(&self, segments: &[&str]) -> Url {
        let mut url = self.inner.base_url.clone();
        url.path_segments_mut()
            .expect("checked when built: the base URL can be a base")
            .extend(segments);
        url
    }

    pub(crate) async fn get<T, Q>(&self, segments: &[&str], query: &Q) -> Result<Response<T>, Error>
    where
        T: DeserializeOwned,
        Q: Serialize + ?Sized,
    {
        let request = self
            .inner
            .http
            .request(Method::GET, self.url(segments))
            .query(query);
        self.execute(request).await
    }

    pub(crate) async fn post<T, B>(
        &self,
        segments: &[&str],
        key: &IdempotencyKey,
        body: &B,
    ) -> Result<Response<T>, Error>
    where
        T: DeserializeOwned,
        B: Serialize + ?Sized,
    {
        let body = serde_json::to_vec(body).map_err(|e| {
            Error::from(TransportError::new(
                TransportKind::Other,
                format!("request body: {e}"),
            ))
        })?;
        let request = self
            .inner
            .http
            .request(Method::POST, self.url(segments))
            .header("idempotency-key", key.header_value())
            .header(header::CONTENT_TYPE, "application/json")
            .body(body);
        self.execute(request).await
    }

    /// Sends a request and turns its answer into a [`Response`] or an [`Error`]: the
    /// only place where statuses, content types and bodies are judged, and where the
    /// observer hears of each.
    async fn execute<T: DeserializeOwned>(
        &self,
        request: RequestBuilder,
    ) -> Result<Response<T>, Error> {
        let result = self.exchange(request).await;
        if let Some(observer) = &self.inner.observer {
            match &result {
                Ok(response) => observer.answered(response.date, response.rate_limit.as_ref()),
                Err(error) => observer.failed(error),
            }
        }
        result
    }

    async fn exchange<T: DeserializeOwned>(
        &self,
        request: RequestBuilder,
    ) -> Result<Response<T>, Error> {
        let started = Instant::now();
        let (method, path) = request
            .try_clone()
            .and_then(|r| r.build().ok())
            .map(|r| (r.method().clone(), r.url().path().to_owned()))
            .unwrap_or((Method::GET, String::new()));
        let answer = request
            .send()
            .await
            .map_err(|e| TransportError::from_reqwest(e, false))?;
        let status = answer.status().as_u16();
        let headers = answer.headers().clone();
        let request_id = response::request_id(&headers);
        let body = answer.bytes().await.map_err(|e| {
            TransportError::from_reqwest(e, true).with_answer(status, request_id.clone())
        })?;
        tracing::debug!(
            %method,
            path,
            status,
            request_id = request_id.as_deref().unwrap_or(""),
            replayed = response::replayed(&headers),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "loyalty api answer"
        );
        decode(status, &headers, &body)
    }
}

/// Judges an answer: a 2xx JSON body becomes `T`, a problem becomes
/// [`Error::Problem`], anything else a transport error naming what was wrong.
pub(crate) fn decode<T: DeserializeOwned>(
    status: u16,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Response<T>, Error> {
    let request_id = response::request_id(headers);
    let fail = |kind, detail: String| -> Error {
        TransportError::new(kind, detail)
            .with_answer(status, request_id.clone())
            .into()
    };
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let is_json = essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"));

    if !(200..300).contains(&status) {
        if let Some(problem) = Problem::from_answer(status, headers, body) {
            return Err(problem.into());
        }
        let kind = if is_json {
            TransportKind::UnexpectedShape
        } else {
            TransportKind::NotJson
        };
        return Err(fail(
            kind,
            format!("HTTP {status} without a problem body (content type {content_type:?})"),
        ));
    }
    if !is_json {
        return Err(fail(
            TransportKind::NotJson,
            format!("content type {content_type:?}, expected application/json"),
        ));
    }
    match serde_json::from_slice::<T>(body) {
        Ok(data) => Ok(Response::from_parts(data, status, headers)),
        Err(e) => {
            // A type error can come before a syntax error; only valid JSON is a wrong shape.
            let valid_json = serde_json::from_slice::<serde::de::IgnoredAny>(body).is_ok();
            let kind = if valid_json {
                TransportKind::UnexpectedShape
            } else {
                TransportKind::InvalidJson
            };
            Err(fail(kind, e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> ApiKey {
        ApiKey::new("lc_test_0123456789abcdefghijklmnopqrstuv").unwrap()
    }

    fn json_headers(content_type: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        headers
    }

    #[test]
    fn paths_are_appended_to_the_base_url_as_escaped_segments() {
        let client = Client::new("http://127.0.0.1:8787/sandbox/", key()).unwrap();
        assert_eq!(
            client.url(&["v1", "customers", "cus/../x"]).as_str(),
            "http://127.0.0.1:8787/sandbox/v1/customers/cus%2F..%2Fx"
        );
        let live = Client::new("https://api.example", key()).unwrap();
        assert_eq!(
            live.url(&["v1", "me"]).as_str(),
            "https://api.example/v1/me"
        );
    }

    #[test]
    fn a_base_url_that_is_not_http_is_refused() {
        for bad in ["ftp://x", "not a url", "mailto:a@b", "https://x/?q=1"] {
            assert!(Client::new(bad, key()).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_key_never_goes_over_plain_http_to_another_computer() {
        let check = |text: &str| check_base_url(text).map(|url| url.to_string());
        assert_eq!(
            check(" https://api.example.com/ "),
            Ok("https://api.example.com/".into())
        );
        assert_eq!(
            check("http://127.0.0.1:8787/sandbox/"),
            Ok("http://127.0.0.1:8787/sandbox".into())
        );
        for here in [
            "http://localhost:8787",
            "http://[::1]:8787",
            "http://127.1.2.3",
        ] {
            assert!(check(here).is_ok(), "{here}");
        }
        assert_eq!(
            check("http://api.example.com"),
            Err(BaseUrlProblem::PlainHttp)
        );
        assert_eq!(check("http://192.168.1.10"), Err(BaseUrlProblem::PlainHttp));
        assert!(matches!(
            Client::new("http://api.example.com", key()),
            Err(BuildError::BaseUrl {
                reason: BaseUrlProblem::PlainHttp,
                ..
            })
        ));
        assert_eq!(check("   "), Err(BaseUrlProblem::Empty));
        assert_eq!(check("api.example.com"), Err(BaseUrlProblem::NotWeb));
        assert_eq!(check("javascript:alert(1)"), Err(BaseUrlProblem::NotWeb));
        assert_eq!(check("ftp://api.example.com"), Err(BaseUrlProblem::Scheme));
        assert_eq!(
            check("https://u:p@api.example.com"),
            Err(BaseUrlProblem::Credentials)
        );
        assert_eq!(
            check("https://api.example.com/#x"),
            Err(BaseUrlProblem::Query)
        );
    }

    #[test]
    fn the_client_never_shows_its_key() {
        let shown = format!("{:?}", Client::new("http://localhost", key()).unwrap());
        assert!(!shown.contains("0123456789"), "{shown}");
    }

    #[test]
    fn clients_futures_and_errors_can_cross_threads() {
        fn send<T: Send>(_: &T) {}
        fn send_sync<T: Send + Sync + 'static>() {}
        send_sync::<Error>();
        send_sync::<Client>();
        let client = Client::new("http://localhost", key()).unwrap();
        let idempotency_key = IdempotencyKey::new("k").unwrap();
        let scan = crate::NewScan::visit(crate::CardId::new("card_1"));
        let write = client.scans().create(&idempotency_key, &scan);
        send(&write);
        let read = client.me();
        send(&read);
        let items = client.customers().pages(crate::ListParams::new()).items();
        send(&items);
    }

    #[test]
    fn the_default_user_agent_names_the_app_and_version() {
        assert!(DEFAULT_USER_AGENT.starts_with("loyalty-counter/0."));
    }

    #[test]
    fn an_answer_of_the_wrong_content_type_is_not_json() {
        let err = decode::<serde_json::Value>(200, &json_headers("text/html"), b"{}").unwrap_err();
        assert_eq!(err.transport_kind(), Some(TransportKind::NotJson));
    }

    #[test]
    fn garbage_and_wrong_shapes_are_told_apart() {
        let headers = json_headers("application/json; charset=utf-8");
        let err = decode::<Vec<u8>>(200, &headers, b"{nope").unwrap_err();
        assert_eq!(err.transport_kind(), Some(TransportKind::InvalidJson));
        let err = decode::<Vec<u8>>(200, &headers, br#"{"a":1}"#).unwrap_err();
        assert_eq!(err.transport_kind(), Some(TransportKind::UnexpectedShape));
        let ok = decode::<Vec<u8>>(200, &headers, b"[1,2]").unwrap();
        assert_eq!(ok.data, vec![1, 2]);
    }

    #[test]
    fn a_problem_answer_becomes_a_problem_error() {
        let err = decode::<()>(
            404,
            &json_headers("application/problem+json"),
            br#"{"code":"not_found","status":404}"#,
        )
        .unwrap_err();
        assert_eq!(err.problem().unwrap().status, 404);
        let err = decode::<()>(502, &json_headers("text/html"), b"<h1>bad</h1>").unwrap_err();
        assert_eq!(err.transport_kind(), Some(TransportKind::NotJson));
    }
}
