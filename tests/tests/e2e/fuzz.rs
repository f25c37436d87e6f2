//! Every command the app registers, sent malformed calls through the real IPC of the real
//! window, against the demo's real local server and the till's real SQLite file: no
//! panic, an answer within a second, and a refusal in the one shape of every refusal
//! (`{code, data, problem, message}`). Afterwards the server's records and the till's
//! queue, settings and PIN are byte for byte as before, and the app still answers; a
//! valid write then shows that the comparison can fail.
//!
//! The commands come from the capability (`src-tauri/capabilities/default.json`), which
//! a lib test holds equal to the commands the app registers: a command with no entry
//! in [`table`] fails this test. Seeded and repeatable: `FUZZ_SEED` replays a run,
//! `FUZZ_ROUNDS` multiplies the 40 calls per command (`make fuzz`: 50).
//!
//! Left out of the comparison: the till's copy of the service (customers, cards, gift
//! cards, passes, sync state), which the till's own sync refreshes on its schedule.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result, ensure};
use serde_json::{Value, json};
use thirtyfour::prelude::*;

use crate::support::{Server, in_demo};

/// Calls each case through the page's `invoke`, one after the other, timing each.
/// A case is `[command, arguments, special]`; `special` builds what WebDriver should not
/// carry: `{deep: n}` (an argument nested n deep), `{big: n}` (a text of n characters),
/// `{surrogate: true}` (half of a surrogate pair), `{raw: n}` (n bytes, not JSON).
const CALL_ALL: &str = r#"
const [cases, done] = [arguments[0], arguments[arguments.length - 1]];
const invoke = window.__TAURI_INTERNALS__.invoke;
const build = (args, special) => {
  if (!special) return args;
  if (special.raw !== undefined) return new Uint8Array(special.raw).fill(123);
  let value;
  if (special.deep !== undefined) {
    value = 1;
    for (let i = 0; i < special.deep; i++) value = i % 2 ? [value] : { a: value };
  } else if (special.big !== undefined) {
    value = 'x'.repeat(special.big);
  } else if (special.surrogate) {
    value = 'card_\ud800abc';
  }
  return { ...args, [special.at]: value };
};
(async () => {
  const out = [];
  for (const [command, args, special] of cases) {
    const start = performance.now();
    let answer;
    try {
      answer = { ok: true, answer: JSON.stringify(await invoke(command, build(args, special))).slice(0, 300) };
    } catch (e) {
      answer = { ok: false, error: e };
    }
    answer.ms = performance.now() - start;
    out.push(answer);
  }
  done(out);
})();
"#;

/// What an argument is, for the values that are wrong for it in every case.
#[derive(Clone, Copy)]
enum Kind {
    /// A loyalty card's id, for a write.
    Card,
    /// A loyalty card's id, to read: an id of no card of this business is answered
    /// "no such card" (an answer, not a refusal), so only ids of no shape are wrong.
    CardToRead,
    /// A gift card's id.
    Gift,
    /// A pass's id.
    Pass,
    /// Another id of the service (a location, a message, a page's cursor).
    OtherId,
    /// Text read as a scan or a search: any text is something to read ("not a card",
    /// nothing found), so only a value that is not text is wrong.
    Scan,
    /// An amount of money.
    Amount,
    /// A currency code.
    Currency,
    /// The manager's PIN.
    Pin,
    /// A person's name.
    Name,
    /// An email address.
    Email,
    /// A language of the service.
    Locale,
    /// A payment's reference or a note.
    Reference,
    /// A number (a write of the queue, a preview, milliseconds).
    Number,
    /// true or false.
    Flag,
    /// One of a closed set of words.
    Choice,
    /// A day, `YYYY-MM-DD`.
    Date,
    /// An object of fields.
    Object,
    /// An object of these fields, each of its kind: one field is spoiled at a time.
    Fields(&'static [(&'static str, Kind)]),
    /// A base URL.
    Url,
    /// An API key.
    Key,
    /// A file's path.
    Path,
    /// The keys a wedge scanner sent (`[{code, shift, gap_ms}]`).
    Keys,
}

/// The values that are wrong for `kind`, besides a value of another JSON type.
fn wrong_values(kind: Kind, other: &Other) -> Vec<Value> {
    let long = |n: usize| json!("x".repeat(n));
    match kind {
        Kind::Card => vec![
            json!(""),
            json!("card_"),
            json!("card_QQQQQQQQQQQQQQQQQQQQQQQQ"),
            json!(other.card),
            json!("gc_0000000000"),
            json!("card_\u{202e}0000000000"),
            json!("card_00000\u{0}00000"),
            json!("../../v1/me"),
            long(3000),
        ],
        Kind::CardToRead => vec![
            json!(""),
            json!("card_"),
            json!("gc_0000000000"),
            json!("../../v1/me"),
            long(3000),
        ],
        Kind::Gift => vec![
            json!(""),
            json!("gc_QQQQQQQQQQQQQQQQQQQQQQQQ"),
            json!("card_0000000000"),
            json!("gc_\u{202e}0000000000"),
            json!("gc_\u{1b}[31m00000000"),
            long(3000),
        ],
        Kind::Pass => vec![
            json!(""),
            json!("pass_QQQQQQQQQQQQQQQQQQQQQQQQ"),
            json!(other.pass),
            json!("pass_\u{0}"),
            long(3000),
        ],
        Kind::OtherId => vec![json!(""), json!("\u{0}"), json!("x_\u{202e}y"), long(3000)],
        Kind::Scan => vec![
            json!(7),
            json!(null),
            json!(["card_0000000000"]),
            json!({"input": "x"}),
        ],
        Kind::Amount => vec![
            json!(""),
            json!("-1"),
            json!("0"),
            json!("1e308"),
            json!("9223372036854775808"),
            json!("1.123456"),
            json!("abc"),
            json!("5\u{0}"),
            json!(-1),
            json!(1e308),
        ],
        Kind::Currency => vec![
            json!(""),
            json!("EURO"),
            json!("eu"),
            json!("€"),
            json!("E1R"),
        ],
        Kind::Pin => vec![
            json!(""),
            json!("12"),
            json!("123456789"),
            json!("abcd"),
            json!("12 34"),
            json!("\u{0661}\u{0662}\u{0663}\u{0664}"),
            json!("1234\u{0}"),
        ],
        Kind::Name => vec![json!(""), json!("   "), json!("Ana\u{0}"), long(5000)],
        Kind::Email => vec![
            json!(""),
            json!("ana"),
            json!("ana@"),
            json!("@example.com"),
            json!("a b@example.com"),
            json!("ana@example.com\u{0}"),
        ],
        Kind::Locale => vec![json!(""), json!("xx"), json!("english"), json!("\u{0}")],
        Kind::Reference => vec![json!("\u{0}"), long(5000)],
        Kind::Number => vec![
            json!(-1),
            json!(1.5),
            json!(1e308),
            json!(9_223_372_036_854_775_808_u64),
            json!("7"),
        ],
        Kind::Flag => vec![json!("true"), json!(1), json!("yes")],
        Kind::Choice => vec![
            json!(""),
            json!("VISIT"),
            json!("nothing_of_the_kind"),
            json!(" \u{0}"),
        ],
        Kind::Date => vec![
            json!(""),
            json!("2026-13-45"),
            json!("2026-02-30"),
            json!("26-11-2026"),
            json!("yesterday"),
        ],
        Kind::Fields(_) => wrong_values(Kind::Object, other),
        Kind::Object => vec![
            json!({}),
            json!({"kind": "bogus"}),
            json!({"allowed": "yes"}),
        ],
        Kind::Url => vec![
            json!(""),
            json!("ftp://example.com"),
            json!("not a url"),
            json!("http://"),
            json!("javascript:alert(1)"),
            json!("http://exa mple.com"),
        ],
        Kind::Key => vec![
            json!(""),
            json!("lc_test_\u{200b}0000000000000000"),
            json!("sk_live_0000"),
            json!("lc_test_\u{0}"),
        ],
        Kind::Path => vec![json!(""), json!("\u{0}"), json!("/proc/self/mem")],
        Kind::Keys => vec![
            json!([{}]),
            json!([{"code": 1, "shift": false, "gap_ms": 0}]),
            json!([{"code": "KeyA", "shift": "yes", "gap_ms": 0}]),
            json!([{"code": "KeyA", "shift": false, "gap_ms": -1}]),
            json!([{"code": "KeyA", "shift": false, "gap_ms": 1e12}]),
        ],
    }
}

/// One argument of a command: its name, what it is, a well-formed value, and whether
/// the command may go without it.
struct Argument {
    name: &'static str,
    kind: Kind,
    valid: Value,
    optional: bool,
}

fn arg(name: &'static str, kind: Kind, valid: Value) -> Argument {
    Argument {
        name,
        kind,
        valid,
        optional: false,
    }
}

fn optional(name: &'static str, kind: Kind, valid: Value) -> Argument {
    Argument {
        name,
        kind,
        valid,
        optional: true,
    }
}

/// Ids of another business of the same server.
struct Other {
    card: String,
    pass: String,
}

/// Every command, with its arguments. A command the app registers that is not here
/// fails the test: a new command cannot be left out.
fn table() -> BTreeMap<&'static str, Vec<Argument>> {
    use Kind::*;
    let period = json!({"kind": "last30_days"});
    let policy = json!({"allowed": false, "currency": "EUR", "per_payment_cap": null,
        "total_cap": null, "balance_max_age_minutes": null, "caps": []});
    let draft = json!({"pass_id": "pass_0000000000", "title": "Hello", "body": "Hi",
        "audience": "all", "visited_within_days": null, "has_reward": null, "scheduled_at": null});
    let query = json!({"kind": "customers"});
    // A scanner's burst: "card" on a US layout.
    let keys = json!(
        ["KeyC", "KeyA", "KeyR", "KeyD"]
            .map(|code| json!({"code": code, "shift": false, "gap_ms": 3}))
    );
    let printer = json!({"address": {"kind": "network", "host": "127.0.0.1", "port": 9100},
        "paper": "mm80"});
    BTreeMap::from([
        ("app_info", vec![]),
        ("first_screen_built", vec![]),
        (
            "first_screen_shown",
            vec![
                arg("screen", Choice, json!("counter")),
                arg("pageMillis", Number, json!(300)),
            ],
        ),
        (
            "check_base_url",
            vec![arg("text", Url, json!("https://api.example.com"))],
        ),
        (
            "check_amount",
            vec![
                arg("amount", Amount, json!("5")),
                arg("currency", Currency, json!("EUR")),
            ],
        ),
        (
            "connect",
            vec![
                arg("baseUrl", Url, json!("http://127.0.0.1:9/sandbox")),
                arg("apiKey", Key, json!("lc_test_0000000000000000")),
            ],
        ),
        ("zoom", vec![arg("change", Choice, json!("in"))]),
        ("connect_gate", vec![]),
        ("try_demo", vec![]),
        ("disconnect", vec![]),
        ("saved_base_url", vec![]),
        ("opening", vec![]),
        ("reset_damaged_settings", vec![]),
        ("reopen", vec![]),
        ("queue_status", vec![]),
        (
            "read_scan",
            vec![
                arg("input", Scan, json!("card_0000000000")),
                optional("keys", Keys, keys.clone()),
            ],
        ),
        (
            "read_card",
            vec![arg("cardId", CardToRead, json!("card_0000000000"))],
        ),
        (
            "record_scan",
            vec![
                arg("cardId", Card, json!("card_0000000000")),
                arg("action", Choice, json!("visit")),
                optional("points", Number, json!(null)),
            ],
        ),
        ("confirm_repeat_visit", vec![arg("item", Number, json!(1))]),
        ("queue", vec![arg("openOnly", Flag, json!(false))]),
        ("send_now", vec![]),
        (
            "discard_item",
            vec![
                arg("item", Number, json!(1)),
                arg("note", Reference, json!("")),
            ],
        ),
        ("retry_item", vec![arg("item", Number, json!(1))]),
        ("probably_issued", vec![arg("item", Number, json!(1))]),
        ("gift_card", vec![arg("id", Gift, json!("gc_0000000000"))]),
        (
            "take_payment",
            vec![
                arg("id", Gift, json!("gc_0000000000")),
                arg("amount", Amount, json!("5")),
                optional("reference", Reference, json!(null)),
            ],
        ),
        ("search_customers", vec![arg("typed", Scan, json!("ana"))]),
        ("sync_customers", vec![]),
        ("offline_payments", vec![]),
        ("save_offline_payments", vec![arg("policy", Object, policy)]),
        ("pass", vec![arg("id", Pass, json!("pass_0000000000"))]),
        ("passes", vec![]),
        (
            "enrol",
            vec![arg(
                "enrolment",
                Fields(&[
                    ("pass_id", Pass),
                    ("name", Name),
                    ("email", Email),
                    ("wallet", Choice),
                    ("send_welcome", Flag),
                ]),
                json!({"pass_id": "pass_0000000000", "name": "Ana", "email": "ana@example.com",
                       "wallet": "apple", "send_welcome": false}),
            )],
        ),
        ("pin_status", vec![optional("person", Number, json!(null))]),
        ("seat", vec![]),
        ("people", vec![]),
        (
            "sign_in",
            vec![arg(
                "credential",
                Object,
                json!({"with": "pin", "person": 1, "pin": "2468"}),
            )],
        ),
        ("lock_till", vec![]),
        ("still_here", vec![]),
        ("roster", vec![]),
        (
            "add_person",
            vec![
                arg("name", Name, json!("Ana")),
                arg("role", Choice, json!("cashier")),
                arg("pin", Pin, json!("1111")),
            ],
        ),
        (
            "change_person",
            vec![
                arg("person", Number, json!(2)),
                arg(
                    "change",
                    Object,
                    json!({"change": "disabled", "disabled": true}),
                ),
            ],
        ),
        (
            "reset_person_pin",
            vec![
                arg("person", Number, json!(2)),
                arg("pin", Pin, json!("1111")),
            ],
        ),
        ("make_badge", vec![arg("person", Number, json!(2))]),
        ("role_table", vec![]),
        (
            "set_rule",
            vec![
                arg("action", Choice, json!("issue_gift_card")),
                arg("role", Choice, json!("cashier")),
                arg("rule", Choice, json!("allowed")),
            ],
        ),
        (
            "set_lock_policy",
            vec![arg(
                "policy",
                Object,
                json!({"idle_minutes": 5, "after_gift_card_payment": false}),
            )],
        ),
        ("set_till_name", vec![arg("name", Name, json!("Counter 2"))]),
        (
            "export_roster",
            vec![arg("path", Path, json!("/tmp/loyalty-counter-fuzz.roster"))],
        ),
        (
            "import_roster",
            vec![
                arg("path", Path, json!("/tmp/loyalty-counter-fuzz.roster")),
                optional("trust", Reference, json!(null)),
            ],
        ),
        (
            "approve_with_badge",
            vec![
                arg("code", Scan, json!("staff_0000000000")),
                arg("opens", Choice, json!("one_action")),
            ],
        ),
        // A PIN is set in the tests' tills: a valid call is refused.
        (
            "set_pin",
            vec![
                arg("pin", Pin, json!("2468")),
                arg("opens", Choice, json!("one_action")),
            ],
        ),
        (
            "check_pin",
            vec![
                optional("person", Number, json!(null)),
                arg("pin", Pin, json!("2468")),
                arg("opens", Choice, json!("one_action")),
            ],
        ),
        ("manager_leaves", vec![]),
        (
            "change_pin",
            vec![
                arg("old", Pin, json!("2468")),
                arg("new", Pin, json!("1357")),
            ],
        ),
        ("issue_choices", vec![]),
        (
            "issue_gift_card",
            vec![arg(
                "issue",
                Fields(&[
                    ("amount", Amount),
                    ("currency", Currency),
                    ("locale", Locale),
                    ("recipient_name", Name),
                    ("recipient_email", Email),
                ]),
                json!({"amount": "20", "currency": "EUR", "locale": "en",
                       "recipient_name": "Ana", "recipient_email": "ana@example.com"}),
            )],
        ),
        ("figures", vec![arg("period", Object, period)]),
        (
            "browse",
            vec![
                arg("query", Object, query),
                optional("cursor", OtherId, json!(null)),
            ],
        ),
        ("demo_samples", vec![]),
        ("reset_demo", vec![]),
        ("till_places", vec![]),
        (
            "set_till_places",
            vec![
                optional("passId", Pass, json!(null)),
                optional("locationId", OtherId, json!(null)),
            ],
        ),
        ("preview_message", vec![arg("draft", Object, draft)]),
        ("send_message", vec![arg("preview", Number, json!(1))]),
        ("scheduled_messages", vec![]),
        (
            "cancel_message",
            vec![arg("id", OtherId, json!("bc_0000000000"))],
        ),
        ("set_kiosk", vec![arg("on", Flag, json!(true))]),
        (
            "check_in",
            vec![
                arg("input", Scan, json!("card_0000000000")),
                optional("keys", Keys, keys.clone()),
            ],
        ),
        (
            "history",
            vec![
                arg("from", Date, json!("2026-11-23")),
                arg("to", Date, json!("2026-11-23")),
                optional("state", Choice, json!(null)),
            ],
        ),
        (
            "export_history",
            vec![
                arg("from", Date, json!("2026-11-23")),
                arg("to", Date, json!("2026-11-23")),
                optional("state", Choice, json!(null)),
                arg("path", Path, json!("/tmp/loyalty-counter-fuzz.csv")),
                arg("wholeIds", Flag, json!(false)),
            ],
        ),
        ("printer", vec![]),
        ("set_printer", vec![optional("setup", Object, printer)]),
        ("printer_report", vec![]),
        ("print_test", vec![]),
        (
            "print_slip",
            vec![arg("card", Card, json!("card_0000000000"))],
        ),
        ("reprint", vec![arg("job", Number, json!(1))]),
        ("cancel_print", vec![arg("job", Number, json!(1))]),
        (
            "settle_print",
            vec![
                arg("job", Number, json!(1)),
                arg("printed", Flag, json!(true)),
            ],
        ),
        ("receipts", vec![]),
        ("receipt_of", vec![arg("item", Number, json!(1))]),
        ("receipt_preview", vec![arg("job", Number, json!(1))]),
        (
            "set_till_language",
            vec![arg("language", Choice, json!("en"))],
        ),
        ("unusual_activity", vec![]),
        (
            "set_unusual_threshold",
            vec![arg("threshold", Number, json!(5))],
        ),
        ("retention", vec![]),
        ("set_retention", vec![arg("days", Number, json!(90))]),
        ("shift_status", vec![]),
        ("open_shift", vec![]),
        ("x_report", vec![]),
        ("close_shift", vec![arg("shift", Number, json!(1))]),
        ("z_reports", vec![]),
        ("z_report", vec![arg("number", Number, json!(1))]),
        (
            "export_z",
            vec![
                arg("number", Number, json!(1)),
                arg("path", Path, json!("/tmp/loyalty-counter-fuzz-z.csv")),
            ],
        ),
        ("print_z", vec![arg("number", Number, json!(1))]),
        ("counter_idle", vec![]),
        // Every call of it here is malformed: a well-formed one waits for the page's next
        // event, and the page's own call takes its place at once (the mailbox's newest ask).
        ("page_events", vec![]),
        (
            "update_moment",
            vec![arg(
                "page",
                Object,
                json!({"customerOpen": false, "dialogOpen": false, "typing": false, "untouchedMs": 0}),
            )],
        ),
        ("monitors", vec![]),
        ("customer_display", vec![]),
        (
            "set_customer_display",
            vec![optional("display", Object, json!(null))],
        ),
        ("camera_open", vec![]),
        ("camera_close", vec![]),
        ("cameras", vec![]),
        (
            "set_camera",
            vec![optional("device", Path, json!("/dev/video0"))],
        ),
        ("scanner_layout", vec![]),
        (
            "set_scanner_layout",
            vec![arg("layout", Choice, json!("fr"))],
        ),
    ])
}

/// A case as a failure shows it: long texts cut.
fn short(value: &Value) -> String {
    fn cut(value: &Value) -> Value {
        match value {
            Value::String(s) if s.chars().count() > 40 => {
                json!(format!(
                    "{}…({} characters)",
                    s.chars().take(12).collect::<String>(),
                    s.chars().count()
                ))
            }
            Value::Array(items) => Value::Array(items.iter().map(cut).collect()),
            Value::Object(map) => {
                Value::Object(map.iter().map(|(k, v)| (k.clone(), cut(v))).collect())
            }
            other => other.clone(),
        }
    }
    cut(value).to_string()
}

/// A small, seedable generator (xorshift; no dependency for a few draws).
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, from: &'a [T]) -> &'a T {
        &from[self.below(from.len())]
    }
}

/// Values of every JSON type, for a value of the wrong type.
fn of_another_type(draw: &mut Draw, original: &Value) -> Value {
    let all = [
        json!(null),
        json!(true),
        json!(12),
        json!(-1),
        json!(1e300),
        json!(u64::MAX),
        json!([]),
        json!({}),
        json!({"$": "x"}),
        json!(["card_0000000000"]),
        json!("7"),
    ];
    let same = |v: &Value| std::mem::discriminant(v) == std::mem::discriminant(original);
    // null is a value of its own only where the argument cannot be absent.
    let others: Vec<&Value> = all.iter().filter(|v| !same(v)).collect();
    (*draw.pick(&others)).clone()
}

/// Names no command takes.
const UNKNOWN_NAMES: &[&str] = &[
    "__proto__",
    "constructor",
    "extra",
    "cardid",
    "\u{202e}di",
    "a\u{0}b",
    "x_y",
];

fn unknown_name(draw: &mut Draw) -> &'static str {
    UNKNOWN_NAMES[draw.below(UNKNOWN_NAMES.len())]
}

/// One malformed call of `command`: `[command, arguments, special]`.
fn malformed(draw: &mut Draw, command: &str, arguments: &[Argument], other: &Other) -> Value {
    let valid: serde_json::Map<String, Value> = arguments
        .iter()
        .map(|a| (a.name.to_owned(), a.valid.clone()))
        .collect();
    let with = |name: &str, value: Value| {
        let mut args = valid.clone();
        args.insert(name.to_owned(), value);
        Value::Object(args)
    };
    let some_name = |draw: &mut Draw| match arguments.is_empty() {
        true => (*draw.pick(UNKNOWN_NAMES)).to_owned(),
        false => draw.pick(arguments).name.to_owned(),
    };
    // The door's cases, for every command; then each argument's own.
    let kinds = if arguments.is_empty() { 4 } else { 9 };
    let (args, special) = match draw.below(kinds) {
        0 => match draw.below(6) {
            0 => (json!([1, 2]), Value::Null),
            1 => (json!("just text"), Value::Null),
            2 => (json!(7), Value::Null),
            3 => (json!(true), Value::Null),
            4 => (json!([valid]), Value::Null),
            _ => (json!({}), json!({"raw": 1 + draw.below(64)})),
        },
        1 => (with(unknown_name(draw), json!(1)), Value::Null),
        2 => {
            let deep = [10, 50, 129, 500, 3000][draw.below(5)];
            (
                Value::Object(valid.clone()),
                json!({"deep": deep, "at": some_name(draw)}),
            )
        }
        3 => {
            let big = [70_000, 300_000, 1_000_000][draw.below(3)];
            (
                Value::Object(valid.clone()),
                json!({"big": big, "at": some_name(draw)}),
            )
        }
        4 => {
            let required: Vec<&Argument> = arguments.iter().filter(|a| !a.optional).collect();
            match required.is_empty() {
                true => (with(unknown_name(draw), json!("x")), Value::Null),
                false => {
                    let gone = draw.pick(&required).name;
                    let mut args = valid.clone();
                    args.remove(gone);
                    (Value::Object(args), Value::Null)
                }
            }
        }
        5 => {
            let argument = draw.pick(arguments);
            let mut value = of_another_type(draw, &argument.valid);
            if value.is_null() && argument.optional {
                value = json!({"$": "x"});
            }
            (with(argument.name, value), Value::Null)
        }
        6 => {
            let strings: Vec<&Argument> =
                arguments.iter().filter(|a| a.valid.is_string()).collect();
            match strings.is_empty() {
                true => (with(unknown_name(draw), json!(null)), Value::Null),
                false => {
                    let at = draw.pick(&strings).name;
                    (
                        Value::Object(valid.clone()),
                        json!({"surrogate": true, "at": at}),
                    )
                }
            }
        }
        _ if draw.below(3) == 0 && arguments.iter().any(|a| !objects_in(&a.valid).is_empty()) => {
            // A nested shape: an object of the call with a field its type lacks, or
            // without one of its fields.
            let nested: Vec<&Argument> = arguments
                .iter()
                .filter(|a| !objects_in(&a.valid).is_empty())
                .collect();
            let argument = draw.pick(&nested);
            let mut value = argument.valid.clone();
            let path = draw.pick(&objects_in(&argument.valid)).clone();
            let object = path
                .iter()
                .fold(&mut value, |at, step| match step {
                    Step::Field(name) => &mut at[name.as_str()],
                    Step::Item(n) => &mut at[*n],
                })
                .as_object_mut()
                .expect("a path to an object");
            let names: Vec<String> = object.keys().cloned().collect();
            if names.is_empty() || draw.below(2) == 0 {
                object.insert(unknown_name(draw).to_owned(), json!(null));
            } else {
                object.remove(draw.pick(&names));
            }
            (with(argument.name, value), Value::Null)
        }
        _ => {
            let argument = draw.pick(arguments);
            let value = match argument.kind {
                Kind::Fields(fields) if draw.below(4) > 0 => {
                    let (field, kind) = draw.pick(fields);
                    let mut object = argument.valid.clone();
                    object[*field] = draw.pick(&wrong_values(*kind, other)).clone();
                    object
                }
                kind => draw.pick(&wrong_values(kind, other)).clone(),
            };
            (with(argument.name, value), Value::Null)
        }
    };
    json!([command, args, special])
}

/// A step into a JSON value.
#[derive(Clone)]
enum Step {
    Field(String),
    Item(usize),
}

/// The paths to every object within `value`, itself included.
fn objects_in(value: &Value) -> Vec<Vec<Step>> {
    let mut found = Vec::new();
    let mut within = |path: Vec<Step>, inner: &Value| {
        found.extend(objects_in(inner).into_iter().map(|rest| {
            let mut whole = path.clone();
            whole.extend(rest);
            whole
        }));
    };
    match value {
        Value::Object(fields) => {
            for (name, inner) in fields {
                within(vec![Step::Field(name.clone())], inner);
            }
            found.push(Vec::new());
        }
        Value::Array(items) => {
            for (n, inner) in items.iter().enumerate() {
                within(vec![Step::Item(n)], inner);
            }
        }
        _ => {}
    }
    found
}

/// Every command the page may call: the app's own permissions the capability grants.
fn registered() -> Result<BTreeSet<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../src-tauri/capabilities/default.json");
    let capability: Value = serde_json::from_slice(&std::fs::read(&path)?)?;
    Ok(capability["permissions"]
        .as_array()
        .context("permissions")?
        .iter()
        .filter_map(|p| p.as_str()?.strip_prefix("allow-"))
        .map(|name| name.replace('-', "_"))
        .collect())
}

/// The server's records: everything the business has, and everything the service sent.
async fn records(server: &Server) -> Result<Vec<Value>> {
    let mut all = Vec::new();
    for path in [
        "/v1/customers?limit=100",
        "/v1/scans?limit=100",
        "/v1/gift_cards?limit=100",
        "/v1/referrals?limit=100",
        "/v1/passes",
        "/v1/locations",
    ] {
        all.push(server.get(path).await.with_context(|| path.to_owned())?);
    }
    let effects = format!("/_sandbox/effects?business_id={}", server.business_id);
    all.push(server.get_control(&effects).await?);
    Ok(all)
}

/// The till's own state, row by row: the queue, its owners, the settings, the PIN.
fn till_state(till: &Path) -> Result<Vec<String>> {
    let db = counter_core::db::open_till_read_only(
        &loyalty_counter_e2e::till_keys(till),
        &till.join("till.db"),
    )?;
    let mut rows = Vec::new();
    for table in [
        "outbox",
        "owners",
        "settings",
        "people",
        "role_rules",
        "till",
        "outbox_counts",
    ] {
        let mut statement = db.prepare(&format!("SELECT * FROM {table} ORDER BY 1"))?;
        let columns = statement.column_count();
        let mut query = statement.query([])?;
        while let Some(row) = query.next()? {
            let cells: Vec<String> = (0..columns)
                .map(|i| row.get_ref(i).map(|v| format!("{v:?}")))
                .collect::<Result<_, _>>()?;
            rows.push(format!("{table}: {}", cells.join(" | ")));
        }
    }
    Ok(rows)
}

/// The one shape of a refusal, and its code (with the door's reason, when the door
/// refused).
fn refusal_code(error: &Value) -> Option<String> {
    let object = error.as_object()?;
    let keys: BTreeSet<&str> = object.keys().map(String::as_str).collect();
    if keys != BTreeSet::from(["code", "data", "problem", "message"])
        || !error["message"].is_string()
    {
        return None;
    }
    let code = error["code"].as_str()?;
    Some(match error["data"]["reason"]["kind"].as_str() {
        Some(kind) if code == "invalid_arguments" => format!("{code}/{kind}"),
        _ => code.to_owned(),
    })
}

#[tokio::test]
async fn every_command_fuzzed_answers_in_one_shape_and_changes_nothing() -> Result<()> {
    in_demo("fuzz", |driver, server| async move {
        let seed: u64 = std::env::var("FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0x5eed_0033);
        let rounds: usize = std::env::var("FUZZ_ROUNDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1);
        println!("FUZZ_SEED={seed} FUZZ_ROUNDS={rounds}");
        let table = table();
        let registered = registered()?;
        let left_out: Vec<_> = registered
            .iter()
            .filter(|c| !table.contains_key(c.as_str()))
            .collect();
        ensure!(
            left_out.is_empty(),
            "commands with no entry in the fuzz table: {left_out:?}"
        );
        let gone: Vec<_> = table.keys().filter(|c| !registered.contains(**c)).collect();
        ensure!(
            gone.is_empty(),
            "the fuzz table names commands the app lacks: {gone:?}"
        );

        let other = other_business(&server).await?;
        let till = loyalty_counter_e2e::data_dir_in(&server.home).join("demo/till");
        let records_before = records(&server).await?;
        let till_before = till_state(&till)?;

        door_examples(&driver).await?;

        let mut draw = Draw(seed | 1);
        let (mut calls, mut slowest) = (0_usize, (0.0_f64, String::new()));
        let mut codes: BTreeMap<String, usize> = BTreeMap::new();
        let mut wrong = Vec::new();
        for (command, arguments) in &table {
            let cases: Vec<Value> = (0..40 * rounds)
                .map(|_| malformed(&mut draw, command, arguments, &other))
                .collect();
            for chunk in cases.chunks(200) {
                let answers: Vec<Value> = driver
                    .execute_async(CALL_ALL, vec![json!(chunk)])
                    .await?
                    .convert()?;
                ensure!(answers.len() == chunk.len(), "{} answers", answers.len());
                for (case, answer) in chunk.iter().zip(&answers) {
                    calls += 1;
                    let shown = short(case);
                    let ms = answer["ms"].as_f64().unwrap_or(f64::MAX);
                    if ms > slowest.0 {
                        slowest = (ms, shown.clone());
                    }
                    match (answer["ok"].as_bool(), refusal_code(&answer["error"])) {
                        (Some(false), Some(code)) if ms < 1000.0 => {
                            *codes.entry(code).or_default() += 1;
                        }
                        _ => wrong.push(format!("{shown} -> {}", short(answer))),
                    }
                }
            }
        }
        println!(
            "{calls} calls of {} commands; slowest {:.1} ms: {}",
            table.len(),
            slowest.0,
            slowest.1
        );
        for (code, n) in &codes {
            println!("  {n:6}  {code}");
        }
        ensure!(
            wrong.is_empty(),
            "{} of {calls} calls not refused in the one shape within a second (seed {seed}):\n{}",
            wrong.len(),
            wrong
                .iter()
                .take(80)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );

        // Nothing changed, on the server or in the till.
        ensure!(
            records(&server).await? == records_before,
            "the server's records changed"
        );
        ensure!(
            till_state(&till)? == till_before,
            "the till's queue, settings or PIN changed"
        );
        // The app still answers, connected to the demo, on the counter.
        let info = crate::support::invoke(&driver, "app_info", json!({})).await?;
        ensure!(info["name"] == "Loyalty Counter", "app_info: {info}");
        ensure!(
            driver.find(By::Id("scan")).await.is_ok(),
            "the counter is gone"
        );

        // The control: a valid write changes both, so the comparisons above can fail.
        let (_, card) = server.customer(3).await?;
        crate::support::invoke(
            &driver,
            "record_scan",
            json!({"cardId": card, "action": "visit", "points": null}),
        )
        .await?;
        ensure!(
            till_state(&till)? != till_before,
            "a visit left the till as it was"
        );
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while records(&server).await? == records_before {
            ensure!(
                std::time::Instant::now() < deadline,
                "a visit never reached the server"
            );
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        Ok(())
    })
    .await
}

/// The refusals the issue found as bare strings, each now in the one shape with what
/// was wrong: a wrong type (named), a missing field, a payload nested 3,000 deep, 1 MB.
async fn door_examples(driver: &WebDriver) -> Result<()> {
    let cases = json!([
        ["first_screen_shown", {"screen": "counter", "pageMillis": "soon"}, null],
        ["enrol", {"enrolment": {"name": "Ana"}}, null],
        ["queue", {"openOnly": false}, {"deep": 3000, "at": "openOnly"}],
        ["read_scan", {"input": ""}, {"big": 1_000_000, "at": "input"}],
        ["queue_status", {"openOnly": false}, null],
        ["read_scan", {"input": "x", "keys": [{"code": "KeyA", "shift": false, "gap_ms": 0, "alt": true}]}, null],
        ["enrol", {"enrolment": {"name": "Ana", "email": "ana@example.com", "wallet": "apple", "send_welcome": false}}, null],
    ]);
    let answers: Vec<Value> = driver
        .execute_async(CALL_ALL, vec![cases])
        .await?
        .convert()?;
    let reason = |n: usize| answers[n]["error"]["data"]["reason"].clone();
    ensure!(
        answers
            .iter()
            .all(|a| a["error"]["code"] == "invalid_arguments"),
        "{answers:#?}"
    );
    ensure!(
        reason(0)["kind"] == "invalid" && reason(0)["argument"] == "pageMillis",
        "{}",
        reason(0)
    );
    ensure!(
        reason(1)["argument"] == "enrolment"
            && reason(1)["problem"]
                .as_str()
                .is_some_and(|p| p.contains("missing field")),
        "{}",
        reason(1)
    );
    ensure!(reason(2)["kind"] == "too_deep", "{}", reason(2));
    ensure!(reason(3)["kind"] == "too_large", "{}", reason(3));
    ensure!(
        reason(4) == json!({"kind": "unknown", "command": "queue_status", "argument": "openOnly"}),
        "{}",
        reason(4)
    );
    // A nested object is read as strictly as the call: a field its type lacks, or one
    // it leaves out, is refused (serde alone ignored the first, and read a missing
    // `pass_id` as none, as it read `set_customer_display({display: {a: null}})` as
    // "no monitor": that case is strict.rs's own test; a cashier's calls are here).
    for (n, field) in [(5, "unknown field `0.alt`"), (6, "missing field `pass_id`")] {
        ensure!(
            reason(n)["problem"]
                .as_str()
                .is_some_and(|p| p.contains(field)),
            "{}",
            reason(n)
        );
    }

    // A call without the key Tauri gave the page (a script that calls the scheme by
    // hand) is answered, refused, instead of left waiting.
    let forged: Value = driver
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
               fetch(window.__TAURI_INTERNALS__.convertFileSrc('app_info', 'ipc'), {
                 method: 'POST', body: '{}',
                 headers: { 'Content-Type': 'application/json', 'Tauri-Callback': '1',
                            'Tauri-Error': '2', 'Tauri-Invoke-Key': 'not the key' },
               }).then((r) => r.json()).then(done, (e) => done({ failed: String(e) }));"#,
            vec![],
        )
        .await?
        .json()
        .clone();
    ensure!(forged["code"] == "ipc_failed", "a forged call: {forged}");
    Ok(())
}

/// A card and a pass of another business of the same server.
async fn other_business(server: &Server) -> Result<Other> {
    let business = server
        .control(
            "/_sandbox/businesses",
            json!({"name": "Another Café", "plan": "enterprise"}),
        )
        .await?;
    let id = business["id"].as_str().context("id")?;
    server
        .control(
            "/_sandbox/seed",
            json!({"business_id": id, "place": "sandbox", "customers": 2, "scans": 0, "seed": 7}),
        )
        .await?;
    let key = server
        .control(
            "/_sandbox/keys",
            json!({"business_id": id, "mode": "test", "scopes": ["read"], "expires_at": null}),
        )
        .await?;
    let key = key["key"].as_str().context("key")?;
    let customers: Value = reqwest::Client::new()
        .get(format!("{}/v1/customers?limit=1", server.api))
        .bearer_auth(key)
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(Other {
        card: customers["data"][0]["cards"][0]["id"]
            .as_str()
            .context("card")?
            .to_owned(),
        pass: business["sandbox_pass_id"]
            .as_str()
            .context("pass")?
            .to_owned(),
    })
}
