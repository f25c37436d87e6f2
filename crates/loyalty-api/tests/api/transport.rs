//! What the real server never does, played by tiny raw TCP servers: each failure must
//! come back as a clear transport error, never a panic.

use std::time::Duration;

use loyalty_api::{ApiKey, Client, Error, TransportKind, is_retryable};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const SECRET: &str = "lc_test_SECRETSECRETSECRETSECRETSECRET12";

/// What the raw server does after reading a request.
#[derive(Clone, Copy)]
enum Then {
    /// Writes these bytes and closes.
    Answer(&'static [u8]),
    /// Writes these bytes as soon as anything arrives (a TLS hello has no blank line).
    AnswerAtOnce(&'static [u8]),
    /// Writes nothing and holds the connection open.
    Hang,
}

/// Serves every connection on a loopback port the same way; returns `http://ADDR`.
async fn raw_server(then: Then) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(handle(socket, then));
        }
    });
    format!("http://{addr}")
}

async fn handle(mut socket: TcpStream, then: Then) {
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    if let Then::AnswerAtOnce(bytes) = then {
        let _ = socket.read(&mut buf).await;
        let _ = socket.write_all(bytes).await;
        let _ = socket.shutdown().await;
        return;
    }
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match socket.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    match then {
        Then::Answer(bytes) => {
            let _ = socket.write_all(bytes).await;
            let _ = socket.shutdown().await;
        }
        Then::AnswerAtOnce(_) => {}
        Then::Hang => {
            tokio::time::sleep(Duration::from_secs(60)).await;
            drop(socket);
        }
    }
}

fn client(base_url: &str) -> Client {
    Client::builder(base_url, ApiKey::new(SECRET).unwrap())
        .timeout(Duration::from_millis(500))
        .connect_timeout(Duration::from_millis(500))
        .build()
        .unwrap()
}

async fn fail(then: Then) -> Error {
    let base = raw_server(then).await;
    let err = client(&base).me().await.unwrap_err();
    let shown = format!("{err} {err:?}");
    assert!(!shown.contains("SECRETSECRET"), "the key leaked: {shown}");
    err
}

#[tokio::test]
async fn a_refused_connection_is_a_connect_failure() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let err = client(&format!("http://{addr}")).me().await.unwrap_err();
    assert_eq!(err.transport_kind(), Some(TransportKind::Connect), "{err}");
    assert!(!err.transport_kind().unwrap().request_may_have_arrived());
    assert!(is_retryable(&err));
}

#[tokio::test]
async fn a_hanging_server_is_a_timeout() {
    let err = fail(Then::Hang).await;
    assert_eq!(err.transport_kind(), Some(TransportKind::Timeout), "{err}");
    assert!(is_retryable(&err));
}

#[tokio::test]
async fn a_server_that_stalls_in_the_body_is_a_timeout() {
    // Headers, then nothing: the whole-request timeout covers the body too.
    let base = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buf = [0u8; 4096];
                    let _ = socket.read(&mut buf).await;
                    let _ = socket
                        .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"a\"")
                        .await;
                    tokio::time::sleep(Duration::from_secs(60)).await;
                });
            }
        });
        format!("http://{addr}")
    };
    let err = client(&base).me().await.unwrap_err();
    assert_eq!(err.transport_kind(), Some(TransportKind::Timeout), "{err}");
}

#[tokio::test]
async fn a_connection_closed_without_an_answer_is_reported_as_such() {
    let err = fail(Then::Answer(b"")).await;
    assert_eq!(
        err.transport_kind(),
        Some(TransportKind::ConnectionClosed),
        "{err}"
    );
    assert!(err.transport_kind().unwrap().request_may_have_arrived());
    assert!(is_retryable(&err));
}

#[tokio::test]
async fn a_body_shorter_than_its_content_length_is_cut_short() {
    let err = fail(Then::Answer(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\nRequest-Id: req_cut\r\n\r\n{\"object\":\"key\"",
    ))
    .await;
    assert_eq!(
        err.transport_kind(),
        Some(TransportKind::BodyCutShort),
        "{err}"
    );
    assert_eq!(err.request_id(), Some("req_cut"));
    let Error::Transport(transport) = &err else {
        unreachable!()
    };
    assert_eq!(transport.status, Some(200));
}

#[tokio::test]
async fn a_chunked_body_that_stops_midway_is_cut_short() {
    let err = fail(Then::Answer(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{\"object\":",
    ))
    .await;
    assert_eq!(
        err.transport_kind(),
        Some(TransportKind::BodyCutShort),
        "{err}"
    );
}

#[tokio::test]
async fn a_garbage_body_is_invalid_json() {
    let err = fail(Then::Answer(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\nnot json!",
    ))
    .await;
    assert_eq!(
        err.transport_kind(),
        Some(TransportKind::InvalidJson),
        "{err}"
    );
    assert!(!is_retryable(&err));
}

#[tokio::test]
async fn json_of_the_wrong_shape_is_an_unexpected_shape() {
    let err = fail(Then::Answer(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"hello\":1}",
    ))
    .await;
    assert_eq!(
        err.transport_kind(),
        Some(TransportKind::UnexpectedShape),
        "{err}"
    );
}

#[tokio::test]
async fn an_answer_of_another_content_type_is_not_json() {
    let err = fail(Then::Answer(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 13\r\n\r\n<html></html>",
    ))
    .await;
    assert_eq!(err.transport_kind(), Some(TransportKind::NotJson), "{err}");
}

#[tokio::test]
async fn a_proxy_error_page_is_not_json_but_retryable() {
    let err = fail(Then::Answer(
        b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 15\r\n\r\n<h1>oops!!</h1>",
    ))
    .await;
    assert_eq!(err.transport_kind(), Some(TransportKind::NotJson), "{err}");
    assert!(is_retryable(&err));
}

#[tokio::test]
async fn an_answer_that_is_not_http_is_a_protocol_error() {
    let err = fail(Then::Answer(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")).await;
    assert_eq!(err.transport_kind(), Some(TransportKind::Protocol), "{err}");
}

#[tokio::test]
async fn https_to_a_plain_http_server_is_a_tls_failure() {
    let base = raw_server(Then::AnswerAtOnce(
        b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
    ))
    .await;
    let err = client(&base.replace("http://", "https://"))
        .me()
        .await
        .unwrap_err();
    assert_eq!(err.transport_kind(), Some(TransportKind::Tls), "{err}");
    assert!(!is_retryable(&err));
}

/// Accepts one connection, hands back the whole request (head and body), and
/// answers a problem.
async fn capture_server() -> (String, tokio::sync::oneshot::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel();
    tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = socket.read(&mut buf).await.unwrap();
            request.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&request).to_string();
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text[..end]
                    .lines()
                    .find_map(|l| {
                        let (name, value) = l.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                if request.len() >= end + 4 + length {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        let body = br#"{"code":"card_not_active","status":409}"#;
        let head = format!(
            "HTTP/1.1 409 Conflict\r\nContent-Type: application/problem+json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let _ = socket.write_all(head.as_bytes()).await;
        let _ = socket.write_all(body).await;
        let _ = tx.send(String::from_utf8_lossy(&request).to_string());
    });
    (format!("http://{addr}"), rx)
}

#[tokio::test]
async fn a_write_carries_the_key_the_idempotency_key_json_and_the_user_agent() {
    let (base, captured) = capture_server().await;
    let client = Client::builder(format!("{base}/sandbox"), ApiKey::new(SECRET).unwrap())
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let key = loyalty_api::IdempotencyKey::new("till-1/scan-42").unwrap();
    let err = client
        .scans()
        .create(
            &key,
            &loyalty_api::NewScan::visit(loyalty_api::CardId::new("card_9")),
        )
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some(&loyalty_api::ErrorCode::CardNotActive));

    let request = captured.await.unwrap();
    let (head, body) = request.split_once("\r\n\r\n").unwrap();
    let head = head.to_ascii_lowercase();
    assert!(
        head.starts_with("post /sandbox/v1/scans http/1.1"),
        "{head}"
    );
    assert!(head.contains(&format!(
        "authorization: bearer {}",
        SECRET.to_ascii_lowercase()
    )));
    assert!(head.contains("idempotency-key: till-1/scan-42"));
    assert!(head.contains("content-type: application/json"));
    assert!(head.contains(&format!(
        "user-agent: loyalty-counter/{}",
        env!("CARGO_PKG_VERSION")
    )));
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"card_id": "card_9", "kind": "visit", "confirm_repeat": false})
    );
}

#[tokio::test]
async fn the_user_agent_can_be_replaced() {
    let (base, captured) = capture_server().await;
    let client = Client::builder(base, ApiKey::new(SECRET).unwrap())
        .user_agent("kiosk/7")
        .build()
        .unwrap();
    let _ = client.me().await;
    let request = captured.await.unwrap().to_ascii_lowercase();
    assert!(request.contains("user-agent: kiosk/7"), "{request}");
    assert!(request.starts_with("get /v1/me http/1.1"));
}

#[tokio::test]
async fn a_list_that_claims_more_pages_without_a_cursor_ends_with_an_error() {
    let base = raw_server(Then::Answer(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 62\r\n\r\n{\"object\":\"list\",\"data\":[],\"has_more\":true,\"next_cursor\":null}",
    ))
    .await;
    let mut pages = client(&base)
        .locations()
        .pages(loyalty_api::ListParams::new());
    let err = pages.next_page().await.unwrap_err();
    assert_eq!(
        err.transport_kind(),
        Some(TransportKind::UnexpectedShape),
        "{err}"
    );
    assert!(
        pages.next_page().await.unwrap().is_none(),
        "it does not loop"
    );
}
