//! The PIN's tests: its digits, its hash, its lockout across restarts and clocks.

use super::*;
use crate::clock::{Clock, ManualClock};

fn till() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("till.db");
    crate::db::open_for_tests(&path);
    (dir, path)
}

fn clock() -> ManualClock {
    ManualClock::new("2026-11-23T09:00:00Z".parse().unwrap())
}

fn try_pin(conn: &Connection, pin: &str, clock: &ManualClock) -> Result<(), PinFailure> {
    check(conn, PersonId(1), pin, clock.now(), &clock.uptime())
}

fn locked(result: Result<(), PinFailure>) -> bool {
    matches!(result, Err(PinFailure::Refused(PinError::Locked { .. })))
}

/// Five wrong tries: the fifth locks.
fn five_wrong(conn: &Connection, clock: &ManualClock) {
    for _ in 1..MAX_TRIES {
        assert!(matches!(
            try_pin(conn, "0000", clock),
            Err(PinFailure::Refused(PinError::Wrong { .. }))
        ));
    }
    assert!(locked(try_pin(conn, "0000", clock)));
}

#[test]
fn a_pin_is_four_to_eight_digits_and_kept_only_as_an_argon2id_hash() {
    let (_dir, path) = till();
    let conn = crate::db::open_for_tests(&path);
    let clock = clock();
    for bad in ["", "123", "123456789", "12a4", " 1234", "１２３４"] {
        assert!(
            matches!(
                set(&conn, bad, clock.now()),
                Err(PinFailure::Refused(PinError::NotDigits { .. }))
            ),
            "{bad:?}"
        );
    }
    assert!(
        !status(&conn, PersonId(1), clock.now(), &clock.uptime())
            .unwrap()
            .set
    );
    set(&conn, "2468", clock.now()).unwrap();
    let stored: String = conn
        .query_row("SELECT hash FROM people", [], |r| r.get(0))
        .unwrap();
    assert!(
        stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$") && !stored.contains("2468"),
        "{stored}"
    );
    assert!(matches!(
        set(&conn, "1357", clock.now()),
        Err(PinFailure::Refused(PinError::AlreadySet))
    ));
    try_pin(&conn, "2468", &clock).unwrap();
}

#[test]
fn what_cannot_be_a_pin_is_refused_and_not_counted_as_a_try() {
    let (_dir, path) = till();
    let conn = crate::db::open_for_tests(&path);
    let clock = clock();
    set(&conn, "2468", clock.now()).unwrap();
    for _ in 0..MAX_TRIES * 2 {
        for bad in ["", "12", "123456789", "12a4", "1234\u{0}"] {
            assert!(matches!(
                try_pin(&conn, bad, &clock),
                Err(PinFailure::Refused(PinError::NotDigits { .. }))
            ));
        }
    }
    let status = status(&conn, PersonId(1), clock.now(), &clock.uptime()).unwrap();
    assert_eq!(status.tries_left, MAX_TRIES);
    try_pin(&conn, "2468", &clock).unwrap();
}

#[test]
fn a_hash_made_with_weaker_parameters_is_made_again_at_the_next_right_pin() {
    let (_dir, path) = till();
    let conn = crate::db::open_for_tests(&path);
    let clock = clock();
    // What `Argon2::default()` of an older crate, or a cheaper setting, made.
    let salt = SaltString::encode_b64(b"0123456789abcdef").unwrap();
    let weak = Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(4096, 1, 1, None).unwrap(),
    )
    .hash_password(b"2468", &salt)
    .unwrap()
    .to_string();
    conn.execute(
        "INSERT INTO people (id, name, role, hash, created_at) VALUES (1, 'Owner', 'owner', ?1, '2026-11-23T09:00:00Z')",
        [&weak],
    )
    .unwrap();
    assert!(try_pin(&conn, "1111", &clock).is_err());
    let after_wrong: String = conn
        .query_row("SELECT hash FROM people", [], |r| r.get(0))
        .unwrap();
    assert_eq!(after_wrong, weak, "a wrong PIN changes no hash");
    try_pin(&conn, "2468", &clock).unwrap();
    let stored: String = conn
        .query_row("SELECT hash FROM people", [], |r| r.get(0))
        .unwrap();
    assert!(
        stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
        "{stored}"
    );
    try_pin(&conn, "2468", &clock).unwrap();
}

#[test]
fn five_wrong_tries_lock_it_for_five_minutes_across_a_restart_and_a_clock_set_back() {
    let (_dir, path) = till();
    let conn = crate::db::open_for_tests(&path);
    let clock = clock();
    set(&conn, "2468", clock.now()).unwrap();
    five_wrong(&conn, &clock);
    // A restart: the lock is in the till's file.
    drop(conn);
    let conn = crate::db::open_for_tests(&path);
    clock.pass(Duration::from_secs(3 * 60));
    assert!(locked(try_pin(&conn, "2468", &clock)));
    assert_eq!(
        status(&conn, PersonId(1), clock.now(), &clock.uptime())
            .unwrap()
            .tries_left,
        0
    );
    // The clock set back an hour: still locked.
    clock.advance(SignedDuration::from_hours(-1));
    assert!(locked(try_pin(&conn, "2468", &clock)));
    // Five minutes after the lock began: the right PIN opens, the count restarts.
    clock.pass(Duration::from_secs(2 * 60 + 1));
    try_pin(&conn, "2468", &clock).unwrap();
    let status = status(&conn, PersonId(1), clock.now(), &clock.uptime()).unwrap();
    assert_eq!(status.tries_left, MAX_TRIES);
    assert_eq!(status.locked_until, None);
}

#[test]
fn a_clock_set_forward_does_not_end_a_lock() {
    let (_dir, path) = till();
    let conn = crate::db::open_for_tests(&path);
    let clock = clock();
    set(&conn, "2468", clock.now()).unwrap();
    five_wrong(&conn, &clock);
    clock.advance(SignedDuration::from_hours(48));
    assert!(locked(try_pin(&conn, "2468", &clock)));
    clock.pass(LOCK);
    try_pin(&conn, "2468", &clock).unwrap();
}

#[test]
fn each_further_lock_lasts_longer_up_to_a_day_and_a_reboot_serves_it_again() {
    let (_dir, path) = till();
    let conn = crate::db::open_for_tests(&path);
    let clock = clock();
    set(&conn, "2468", clock.now()).unwrap();
    let mut served = Vec::new();
    for n in 1..=10 {
        five_wrong(&conn, &clock);
        let length = lock_length(n);
        clock.pass(length - Duration::from_secs(1));
        assert!(locked(try_pin(&conn, "2468", &clock)), "lock {n}");
        clock.pass(Duration::from_secs(1));
        served.push(length);
    }
    assert_eq!(served[0], LOCK);
    assert_eq!(served[1], LOCK * 2);
    assert!(served.windows(2).all(|w| w[1] >= w[0]));
    assert_eq!(served[9], LONGEST_LOCK);
    // A reboot a quarter into a day's lock: what passed before the reboot and after
    // the last count is not known, so not counted; the time since the reboot is.
    five_wrong(&conn, &clock);
    clock.pass(Duration::from_secs(6 * 60 * 60));
    assert!(locked(try_pin(&conn, "2468", &clock)));
    clock.reboot();
    clock.pass(Duration::from_secs(17 * 60 * 60));
    assert!(
        locked(try_pin(&conn, "2468", &clock)),
        "18 h of a day's lock left"
    );
    clock.pass(Duration::from_secs(60 * 60 + 1));
    try_pin(&conn, "2468", &clock).unwrap();
    // Ten wrong tries a day at most: a 4-digit PIN is not guessed in a week.
    let tries_in_a_week: u32 = (1..)
        .scan(Duration::ZERO, |spent, n| {
            *spent += lock_length(n);
            (*spent <= Duration::from_secs(7 * 24 * 60 * 60)).then_some(MAX_TRIES)
        })
        .sum::<u32>()
        + MAX_TRIES;
    assert!(tries_in_a_week < 100, "{tries_in_a_week} tries in a week");
}

#[test]
fn changing_the_pin_needs_the_old_one() {
    let (_dir, path) = till();
    let conn = crate::db::open_for_tests(&path);
    let clock = clock();
    set(&conn, "2468", clock.now()).unwrap();
    assert!(matches!(
        change(
            &conn,
            PersonId(1),
            "1111",
            "13579",
            clock.now(),
            &clock.uptime()
        ),
        Err(PinFailure::Refused(PinError::Wrong { .. }))
    ));
    change(
        &conn,
        PersonId(1),
        "2468",
        "13579",
        clock.now(),
        &clock.uptime(),
    )
    .unwrap();
    assert!(try_pin(&conn, "2468", &clock).is_err());
    try_pin(&conn, "13579", &clock).unwrap();
}
