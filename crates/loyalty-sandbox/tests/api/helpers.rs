//! A real server on 127.0.0.1:0 and a small HTTP client to talk to it.

use std::sync::atomic::{AtomicU64, Ordering};

use loyalty_sandbox::{Config, Running, Sandbox};
use reqwest::header::HeaderMap;
use serde_json::{Value, json};

/// A server serving in this process, with its control routes on.
pub struct Server {
    pub root: String,
    pub http: reqwest::Client,
    running: Option<Running>,
}

/// One HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Answer {
    /// The problem `code`, or "" for a non-problem.
    pub fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or("")
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts a problem with this status and code, and the problem's shape.
    #[track_caller]
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(
            (self.status, self.code()),
            (status, code),
            "body: {}",
            self.body
        );
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "problems are problem+json"
        );
        assert_eq!(self.body["status"], status);
        assert!(
            self.body["type"]
                .as_str()
                .unwrap()
                .ends_with(&format!("#{code}"))
        );
        assert!(self.body["title"].is_string());
        assert!(self.body["detail"].is_string());
        assert!(
            self.body["request_id"]
                .as_str()
                .unwrap()
                .starts_with("req_")
        );
    }

    #[track_caller]
    pub fn assert_ok(&self) -> &Value {
        assert_eq!(self.status, 200, "body: {}", self.body);
        &self.body
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh Idempotency-Key.
pub fn idem() -> String {
    format!(
        "test-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    )
}

pub async fn read(resp: reqwest::Response) -> Answer {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = resp.text().await.expect("body");
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    Answer {
        status,
        headers,
        body,
    }
}

impl Server {
    /// An in-memory server with control routes.
    pub async fn start() -> Server {
        Server::start_with(Config {
            control: true,
            ..Config::default()
        })
        .await
    }

    pub async fn start_with(config: Config) -> Server {
        let sandbox = Sandbox::open(config).expect("open");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let running = sandbox.serve(listener).await.expect("serve");
        Server {
            root: running.base_url(),
            http: reqwest::Client::new(),
            running: Some(running),
        }
    }

    pub async fn stop(mut self) {
        if let Some(r) = self.running.take() {
            r.shutdown().await.expect("shutdown");
        }
    }

    /// A control route call.
    pub async fn control(&self, method: &str, path: &str, body: Option<Value>) -> Answer {
        let url = format!("{}/_sandbox{path}", self.root);
        let req = match method {
            "GET" => self.http.get(url),
            "PATCH" => self.http.patch(url),
            "DELETE" => self.http.delete(url),
            _ => self.http.post(url),
        };
        let req = match body {
            Some(b) => req.json(&b),
            None => req,
        };
        read(req.send().await.expect("send")).await
    }

    /// A control route call with a body of its own text and content type (none
    /// when `content_type` is None), as a web page's form or `fetch` could send it.
    pub async fn control_raw(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: &str,
    ) -> Answer {
        let url = format!("{}/_sandbox{path}", self.root);
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
        let mut req = self.http.request(method, url).body(body.to_owned());
        if let Some(ct) = content_type {
            req = req.header("Content-Type", ct);
        }
        read(req.send().await.expect("send")).await
    }

    /// A control call expected to succeed.
    pub async fn ok(&self, method: &str, path: &str, body: Value) -> Value {
        let answer = self.control(method, path, Some(body)).await;
        answer.assert_ok().clone()
    }

    /// A business (enterprise unless `extra` says otherwise) with keys for both places.
    pub async fn shop(&self, extra: Value) -> Shop {
        let mut body = json!({"name": "Test Shop"});
        if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
            for (k, v) in e {
                b.insert(k.clone(), v.clone());
            }
        }
        let biz = self.ok("POST", "/businesses", body).await;
        let id = biz["id"].as_str().unwrap().to_owned();
        let live = self.key(&id, "live", None).await;
        let test = self.key(&id, "test", None).await;
        Shop {
            id,
            pass_id: biz["pass_id"].as_str().map(str::to_owned),
            sandbox_pass_id: biz["sandbox_pass_id"].as_str().unwrap().to_owned(),
            live: Api {
                base: self.root.clone(),
                key: live,
                http: self.http.clone(),
            },
            test: Api {
                base: format!("{}/sandbox", self.root),
                key: test,
                http: self.http.clone(),
            },
        }
    }

    /// A new key's text.
    pub async fn key(&self, business_id: &str, mode: &str, scopes: Option<Value>) -> String {
        let mut body = json!({"business_id": business_id, "mode": mode});
        if let Some(s) = scopes {
            body["scopes"] = s;
        }
        self.ok("POST", "/keys", body).await["key"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    pub fn api(&self, place: &str, key: &str) -> Api {
        let base = if place == "sandbox" {
            format!("{}/sandbox", self.root)
        } else {
            self.root.clone()
        };
        Api {
            base,
            key: key.to_owned(),
            http: self.http.clone(),
        }
    }

    pub async fn effects(&self, business_id: &str) -> Vec<Value> {
        let a = self
            .control("GET", &format!("/effects?business_id={business_id}"), None)
            .await;
        a.assert_ok()["data"].as_array().unwrap().clone()
    }

    pub async fn events(&self, business_id: &str) -> Vec<Value> {
        let a = self
            .control("GET", &format!("/events?business_id={business_id}"), None)
            .await;
        a.assert_ok()["data"].as_array().unwrap().clone()
    }

    pub async fn advance(&self, seconds: i64) {
        self.ok("POST", "/clock", json!({"advance_seconds": seconds}))
            .await;
    }
}

/// A business with a live and a test key.
pub struct Shop {
    pub id: String,
    pub pass_id: Option<String>,
    pub sandbox_pass_id: String,
    pub live: Api,
    pub test: Api,
}

/// A client for one place with one key.
#[derive(Clone)]
pub struct Api {
    pub base: String,
    pub key: String,
    pub http: reqwest::Client,
}

impl Api {
    pub async fn get(&self, path: &str) -> Answer {
        let resp = self
            .http
            .get(format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .send()
            .await
            .expect("send");
        read(resp).await
    }

    /// A POST with a fresh Idempotency-Key.
    pub async fn post(&self, path: &str, body: Value) -> Answer {
        self.post_with(path, body, &idem()).await
    }

    pub async fn post_with(&self, path: &str, body: Value, key: &str) -> Answer {
        let resp = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .header("Idempotency-Key", key)
            .json(&body)
            .send()
            .await
            .expect("send");
        read(resp).await
    }

    /// A JSON POST whose body is this exact text (numbers that `json!` would round).
    pub async fn post_text(&self, path: &str, body: &str, key: &str) -> Answer {
        let resp = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .header("Idempotency-Key", key)
            .header("Content-Type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .expect("send");
        read(resp).await
    }

    /// Enrols a customer and answers (customer id, card id).
    pub async fn enrol(&self, pass_id: &str, email: &str) -> (String, String) {
        let a = self
            .post(
                "/v1/customers",
                json!({"pass_id": pass_id, "name": "Ada Test", "email": email}),
            )
            .await;
        let body = a.assert_ok();
        (
            body["id"].as_str().unwrap().to_owned(),
            body["cards"][0]["id"].as_str().unwrap().to_owned(),
        )
    }

    /// Every item of a list, following cursors.
    pub async fn all(&self, path: &str) -> Vec<Value> {
        let mut out = Vec::new();
        let sep = if path.contains('?') { '&' } else { '?' };
        let mut url = format!("{path}{sep}limit=100");
        loop {
            let a = self.get(&url).await;
            let body = a.assert_ok().clone();
            out.extend(body["data"].as_array().unwrap().iter().cloned());
            match body["next_cursor"].as_str() {
                Some(c) => url = format!("{path}{sep}limit=100&cursor={c}"),
                None => break,
            }
        }
        out
    }
}
