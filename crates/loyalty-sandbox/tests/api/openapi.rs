//! The OpenAPI document: served without authentication in both places, and covering
//! every route of the router (read from the router's own source, so a route added
//! without its documentation fails here).

use serde_json::Value;

use crate::helpers::{Server, read};

/// (method, path) of every API route in `http::mod::v1`.
fn router_routes() -> Vec<(String, String)> {
    let source = include_str!("../../src/http/mod.rs");
    let start = source.find("fn v1<").expect("fn v1 in the router");
    let end = source[start..].find("\n}\n").expect("end of fn v1") + start;
    let body = &source[start..end];
    let mut routes = Vec::new();
    for chunk in body.split(".route(").skip(1) {
        let chunk = chunk.split(".layer(").next().unwrap();
        let path = chunk.split('"').nth(1).expect("a route path");
        for method in ["get", "post", "patch", "delete", "put"] {
            if chunk.contains(&format!("{method}(")) {
                routes.push((method.to_owned(), format!("/v1{path}")));
            }
        }
    }
    assert!(routes.len() >= 20, "{routes:?}");
    routes
}

async fn document(s: &Server, base: &str) -> Value {
    let a = read(
        s.http
            .get(format!("{}{base}/v1/openapi.json", s.root))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(a.header("content-type"), Some("application/json"));
    a.assert_ok().clone()
}

#[tokio::test]
async fn every_route_of_the_router_is_documented_in_both_places() {
    let s = Server::start().await;
    for (base, server) in [("", "/"), ("/sandbox", "/sandbox")] {
        let doc = document(&s, base).await;
        assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
        assert_eq!(doc["servers"][0]["url"], server);
        for (method, path) in router_routes() {
            assert!(
                doc["paths"][&path][&method].is_object(),
                "{method} {path} is missing from the document"
            );
        }
        let documented: usize = doc["paths"]
            .as_object()
            .unwrap()
            .values()
            .map(|item| item.as_object().unwrap().len())
            .sum();
        assert_eq!(
            documented,
            router_routes().len(),
            "no operation without a route"
        );
    }
    s.stop().await;
}

#[tokio::test]
async fn writes_need_an_idempotency_key_and_every_operation_documents_its_problems() {
    let s = Server::start().await;
    let doc = document(&s, "").await;
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"],
        serde_json::json!({"type": "http", "scheme": "bearer", "description": doc["components"]["securitySchemes"]["bearer"]["description"]})
    );
    assert_eq!(doc["security"][0]["bearer"], serde_json::json!([]));
    let problem = "#/components/schemas/Problem";
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(responses.contains_key("200"), "{method} {path}");
            for (status, response) in responses {
                let headers = &response["headers"];
                for name in ["Request-Id", "RateLimit", "RateLimit-Policy"] {
                    assert!(headers[name].is_object(), "{method} {path} {status} {name}");
                }
            }
            assert!(responses["500"]["headers"]["Retry-After"].is_null());
            assert_eq!(
                responses["500"]["content"]["application/problem+json"]["schema"]["$ref"],
                problem
            );
            if path.ends_with("openapi.json") {
                continue;
            }
            for status in ["401", "403", "404", "429", "503"] {
                assert!(responses.contains_key(status), "{method} {path} {status}");
            }
            if method == "post" {
                let key = op["parameters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["name"] == "Idempotency-Key")
                    .unwrap_or_else(|| panic!("{path} has no Idempotency-Key"));
                assert_eq!(key["in"], "header");
                assert_eq!(key["required"], true);
                assert!(op["requestBody"].is_object(), "{path}");
                for status in ["400", "409", "422"] {
                    assert!(responses.contains_key(status), "{method} {path} {status}");
                }
            }
        }
    }
    // Codes named where they belong.
    let confirm = &doc["paths"]["/v1/broadcasts/confirm"]["post"]["responses"];
    assert!(
        confirm["410"]["description"]
            .as_str()
            .unwrap()
            .contains("confirmation_token_expired")
    );
    assert!(
        confirm["422"]["description"]
            .as_str()
            .unwrap()
            .contains("confirmation_payload_changed")
    );
    s.stop().await;
}
