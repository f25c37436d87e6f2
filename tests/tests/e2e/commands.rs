//! Every command the UI may call, sent hostile input through the real IPC of the real
//! window: wrong types, nothing where something is needed, empty, huge and control-
//! character text, negative and overflowing numbers. Each is refused with an error, and
//! nothing changes: the queue stays empty and the server holds no new scan, customer or
//! payment. A property test: many cases drawn from a seed that a failure prints.
//! (`connect` is left out: connecting leaves the demo by design; its input is checked
//! in counter-core's property test, `crates/counter-core/tests/core/inputs.rs`.)

use std::time::Duration;

use crate::support::in_demo;
use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

/// Calls every case through `invoke` in the page and answers, per case, whether the
/// command accepted it and what it said.
const INVOKE_ALL: &str = r#"
const [cases, done] = [arguments[0], arguments[arguments.length - 1]];
const invoke = window.__TAURI_INTERNALS__.invoke;
(async () => {
  const out = [];
  for (const [command, args] of cases) {
    try {
      out.push({ ok: true, answer: JSON.stringify(await invoke(command, args)).slice(0, 200) });
    } catch (e) {
      out.push({ ok: false, error: typeof e === 'string' ? e : JSON.stringify(e) });
    }
  }
  done(out);
})();
"#;

/// A small, seedable generator (no dependency for a handful of draws).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[(self.next() % from.len() as u64) as usize]
    }
}

/// A value of another type than `original`'s (null only where something is needed).
fn wrong_type(draw: &mut Draw, original: &Value) -> Value {
    let kind = |v: &Value| std::mem::discriminant(v);
    let candidates: Vec<Value> = WRONG
        .iter()
        .map(|text| serde_json::from_str::<Value>(text).expect("valid JSON"))
        .filter(|v| kind(v) != kind(original))
        .collect();
    draw.pick(&candidates).clone()
}

/// Values of every JSON type, for `wrong_type`.
const WRONG: &[&str] = &[
    "null",
    "true",
    "12",
    "-1",
    "1e300",
    "18446744073709551615",
    "[]",
    "{}",
    r#"{"$": "x"}"#,
    r#"["card_0000000000"]"#,
    r#""7""#,
];

/// Text no field takes: empty, huge, control characters, not an id.
fn bad_text(draw: &mut Draw) -> Value {
    let huge = "x".repeat(200_000 + (draw.next() % 1000) as usize);
    draw.pick(&[
        json!(""),
        json!("   "),
        json!("\u{0}"),
        json!("card_\n12345678"),
        json!("gc_\u{1b}[31m12345678"),
        json!(huge),
        json!("../../v1/me"),
        json!("'; DROP TABLE outbox; --"),
    ])
    .clone()
}

/// Numbers an id or points cannot be.
fn bad_number(draw: &mut Draw) -> Value {
    draw.pick(&[
        json!(0),
        json!(-1),
        json!(2147483648_i64),
        json!(-2147483649_i64),
        json!(9007199254740993_i64),
        json!(1.5),
        json!("7"),
    ])
    .clone()
}

/// The commands that take input, each with a well-formed set of arguments to spoil one
/// at a time, and which arguments are text (else numbers or flags).
fn commands() -> Vec<(&'static str, Value)> {
    vec![
        ("read_card", json!({"cardId": "card_0000000000"})),
        (
            "first_screen_shown",
            json!({"screen": "counter", "pageMillis": 300}),
        ),
        (
            "record_scan",
            json!({"cardId": "card_0000000000", "action": "visit", "points": null}),
        ),
        ("confirm_repeat_visit", json!({"item": 1})),
        ("discard_item", json!({"item": 1, "note": ""})),
        ("retry_item", json!({"item": 1})),
        ("probably_issued", json!({"item": 1})),
        ("gift_card", json!({"id": "gc_0000000000"})),
        (
            "take_payment",
            json!({"id": "gc_0000000000", "amount": "5", "reference": null}),
        ),
        ("pass", json!({"id": "pass_0000000000"})),
        (
            "enrol",
            json!({"passId": "pass_0000000000", "name": "Ana", "email": "ana@example.com",
                          "wallet": "apple", "sendWelcome": false}),
        ),
        (
            "save_offline_payments",
            json!({"policy": {"allowed": false, "currency": "EUR",
            "per_payment_cap": null, "total_cap": null, "balance_max_age_minutes": null,
            "caps": []}}),
        ),
        ("queue", json!({"openOnly": false})),
        ("read_scan", json!({"input": "card_0000000000"})),
        ("search_customers", json!({"typed": "ana"})),
        // No PIN is set in the demo: whatever is spoiled, nothing may set one.
        ("set_pin", json!({"pin": "2468", "opens": "one_action"})),
        ("check_pin", json!({"pin": "2468", "opens": "one_action"})),
        ("change_pin", json!({"old": "2468", "new": "1357"})),
        // No manager is here: whatever is spoiled, nothing is issued, read or written.
        (
            "issue_gift_card",
            json!({"amount": "20", "currency": "EUR", "locale": "en",
                   "recipientName": "Ana", "recipientEmail": "ana@example.com"}),
        ),
        (
            "history",
            json!({"from": "2026-11-23", "to": "2026-11-23", "state": null}),
        ),
        (
            "export_history",
            json!({"from": "2026-11-23", "to": "2026-11-23", "state": null,
                   "path": "/tmp/loyalty-counter-hostile.csv"}),
        ),
        ("figures", json!({"period": {"kind": "last30_days"}})),
    ]
}

/// One spoiled argument of one command. Some spoils are not refusals by design: any
/// text is something to read for `read_scan` (it answers "not a card") and `read_card`
/// (scanner text: stray control characters are dropped, as a scanner's Enter is), short
/// text is something to search for; reads change nothing either way. Any whole number
/// is a time for `first_screen_shown` to note in the log (once a run).
fn spoil(draw: &mut Draw, command: &str, args: &Value) -> Value {
    let mut args = args.clone();
    let map = args.as_object_mut().expect("arguments are an object");
    let names: Vec<String> = map.keys().cloned().collect();
    let name = draw.pick(&names).clone();
    let text_only_wrong_types = matches!(command, "read_scan" | "search_customers" | "queue");
    let original = map[&name].clone();
    let value = match (draw.next() % 3, original.clone()) {
        (_, _) if text_only_wrong_types => {
            if command == "search_customers" && draw.next().is_multiple_of(2) {
                json!("x".repeat(201))
            } else {
                wrong_type(draw, &original)
            }
        }
        (0, _) => wrong_type(draw, &original),
        // Any short line of text is a name: only empty, huge or control characters spoil it.
        (_, Value::String(_)) if name == "name" => draw
            .pick(&[
                json!(""),
                json!("   "),
                json!("Ana\u{0}"),
                json!("x".repeat(201)),
            ])
            .clone(),
        (_, Value::String(_)) => bad_text(draw),
        (_, Value::Number(_)) => bad_number(draw),
        (_, Value::Null) => bad_text(draw),
        (_, Value::Object(_)) => json!({"allowed": "yes"}),
        _ => wrong_type(draw, &original),
    };
    // An absent argument is as wrong as a wrong one (where one is needed).
    if value.is_null() && !original.is_null() && draw.next().is_multiple_of(2) {
        map.remove(&name);
    } else {
        map.insert(name, value);
    }
    args
}

#[tokio::test]
async fn every_command_refuses_hostile_input_and_changes_nothing() -> Result<()> {
    in_demo("commands-hostile", |driver, server| async move {
        let seed: u64 = std::env::var("COMMANDS_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0x9e37_79b9_7f4a_7c15 ^ u64::from(std::process::id()));
        println!("COMMANDS_SEED={seed}");
        let mut draw = Draw(seed | 1);
        // The newest scan (lists are newest first): a new one would take its place.
        let newest_scan = server.get("/v1/scans?limit=1").await?["data"][0]["id"].clone();
        let customers_before = server.get("/v1/customers?limit=100").await?["data"]
            .as_array()
            .context("customers")?
            .len();

        let mut cases = Vec::new();
        for _ in 0..12 {
            for (command, args) in commands() {
                cases.push(json!([command, spoil(&mut draw, command, &args)]));
            }
        }
        let answers: Vec<Value> = driver
            .execute_async(INVOKE_ALL, vec![json!(cases)])
            .await?
            .convert()?;
        ensure!(answers.len() == cases.len(), "{} answers", answers.len());
        for (case, answer) in cases.iter().zip(&answers) {
            let shown = case.to_string().chars().take(160).collect::<String>();
            ensure!(
                answer["ok"] == json!(false)
                    || matches!(
                        (case[0].as_str(), &case[1]["pageMillis"]),
                        (Some("read_scan" | "read_card"), _)
                            | (Some("first_screen_shown"), Value::Number(_))
                    ),
                "accepted (seed {seed}): {shown} -> {answer}"
            );
            if answer["ok"] == json!(false) {
                let error = answer["error"].as_str().unwrap_or_default();
                ensure!(!error.is_empty(), "no error (seed {seed}): {shown}");
                // Tauri's own refusal of a wrong type quotes a string given for a
                // number whole ("invalid args `item` ... invalid type: string ..."); the
                // app's own refusals never do. (Typed arguments with their own
                // deserializers belong with the typed IPC seam, issue 12.)
                ensure!(
                    error.len() < 2000 || error.starts_with("invalid args `"),
                    "an error echoes a huge input (seed {seed}): {shown}"
                );
            }
        }

        // Nothing changed: no write queued, nothing new on the server.
        let queue: Vec<Value> = driver
            .execute_async(INVOKE_ALL, vec![json!([["queue", {"openOnly": false}]])])
            .await?
            .convert()?;
        ensure!(queue[0]["answer"] == json!("[]"), "the queue: {}", queue[0]);
        tokio::time::sleep(Duration::from_millis(500)).await;
        let newest_after = server.get("/v1/scans?limit=1").await?["data"][0]["id"].clone();
        let customers_after = server.get("/v1/customers?limit=100").await?["data"]
            .as_array()
            .context("customers")?
            .len();
        ensure!(
            newest_after == newest_scan,
            "a scan was recorded: {newest_after}"
        );
        ensure!(
            customers_after == customers_before,
            "customers {customers_before} -> {customers_after}"
        );
        // No PIN came to be set.
        let pin: Vec<Value> = driver
            .execute_async(INVOKE_ALL, vec![json!([["pin_status", {}]])])
            .await?
            .convert()?;
        ensure!(
            pin[0]["answer"]
                .as_str()
                .is_some_and(|a| a.contains("\"set\":false")),
            "the PIN: {}",
            pin[0]
        );
        // The app still works: the counter is there, connected to the demo.
        ensure!(
            driver.find(By::Id("scan")).await.is_ok(),
            "the counter is gone"
        );
        Ok(())
    })
    .await
}
