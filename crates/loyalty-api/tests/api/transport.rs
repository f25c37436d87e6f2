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
