//! The real binary: its command line, first output lines, durability and stop.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::json;

use crate::helpers::{Api, idem};

struct Bin {
    child: Child,
    root: String,
    lines: Vec<String>,
}

fn start(args: &[&str], extra_lines: usize) -> Bin {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loyalty-sandbox"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn loyalty-sandbox");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..=extra_lines {
        let mut line = String::new();
        reader.read_line(&mut line).expect("read a line");
        lines.push(line.trim_end().to_owned());
    }
    let root = lines[0]
        .strip_prefix("listening on ")
        .expect("first line")
        .to_owned();
    Bin { child, root, lines }
}

fn api(bin: &Bin, place: &str, key: &str) -> Api {
    let base = if place == "sandbox" {
        format!("{}/sandbox", bin.root)
    } else {
        bin.root.clone()
    };
    Api {
        base,
        key: key.to_owned(),
        http: reqwest::Client::new(),
    }
}

impl Drop for Bin {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn the_first_line_is_the_address_and_demo_prints_a_test_and_a_live_key() {
    let bin = start(&["--listen", "127.0.0.1:0", "--demo"], 2);
    let root = &bin.root;
    assert!(root.starts_with("http://127.0.0.1:"), "{root}");
    assert_ne!(root, "http://127.0.0.1:0", "the real port");
    let test = bin.lines[1]
        .strip_prefix("test key: ")
        .expect("second line");
    let live = bin.lines[2].strip_prefix("live key: ").expect("third line");
    assert!(test.starts_with("lc_test_") && live.starts_with("lc_live_"));
    let me = api(&bin, "sandbox", test).get("/v1/me").await;
    let me = me.assert_ok();
    assert_eq!(me["business"]["name"], "Demo Coffee");
    assert_eq!(me["plan"], "enterprise");
    assert_eq!(me["scopes"].as_array().unwrap().len(), 6);
    let live_me = api(&bin, "live", live).get("/v1/me").await;
    assert_eq!(live_me.assert_ok()["mode"], "live");
    assert_eq!(
        api(&bin, "sandbox", test).all("/v1/customers").await.len(),
        25
    );
    // Without --control, the control routes are not there.
    let r = reqwest::Client::new()
        .post(format!("{root}/_sandbox/clock"))
        .json(&json!({"advance_seconds": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 404);
}

#[tokio::test]
async fn an_answered_write_survives_kill_9_and_a_restart_on_the_same_db() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sandbox.db");
    let db = db.to_str().unwrap();
    let mut bin = start(&["--listen", "127.0.0.1:0", "--db", db, "--demo"], 2);
    let test_key = bin.lines[1].strip_prefix("test key: ").unwrap().to_owned();
    let sandbox = api(&bin, "sandbox", &test_key);
    let business = sandbox.get("/v1/me").await.assert_ok()["business"]["id"].clone();
    let pass = sandbox.get("/v1/passes").await.assert_ok()["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (customer, card) = sandbox.enrol(&pass, "durable@example.com").await;
    let key = idem();
    let scan = sandbox
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    scan.assert_ok();
    // kill -9 right after the answer.
    bin.child.kill().unwrap();
    bin.child.wait().unwrap();
    let bin2 = start(&["--listen", "127.0.0.1:0", "--db", db, "--demo"], 2);
    let again = api(&bin2, "sandbox", &test_key);
    let me = again.get("/v1/me").await;
    assert_eq!(
        me.assert_ok()["business"]["id"],
        business,
        "--demo reuses Demo Coffee"
    );
    let c = again.get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(c.assert_ok()["cards"][0]["visits"], 1);
    assert_eq!(
        again
            .all(&format!("/v1/scans?customer_id={customer}"))
            .await
            .len(),
        1
    );
    let replay = again
        .post_with("/v1/scans", json!({"card_id": card, "kind": "visit"}), &key)
        .await;
    assert_eq!(
        replay.header("idempotent-replayed"),
        Some("true"),
        "the stored answer survived too"
    );
    assert_eq!(replay.body, scan.body);
    // The new keys work too.
    let new_key = bin2.lines[1].strip_prefix("test key: ").unwrap();
    assert_ne!(new_key, test_key);
    api(&bin2, "sandbox", new_key)
        .get("/v1/me")
        .await
        .assert_ok();
}

#[tokio::test]
async fn sigterm_stops_the_server_cleanly() {
    let mut bin = start(&["--listen", "127.0.0.1:0"], 0);
    let status = Command::new("kill")
        .args(["-TERM", &bin.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = bin.child.wait().unwrap();
    assert!(exit.success(), "clean exit: {exit:?}");
}
