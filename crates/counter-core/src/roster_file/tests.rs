use super::*;
use crate::clock::{Clock, ManualClock};
use crate::ids::PersonId;
use crate::people::{self, PersonChange};
use crate::pin;

struct Till {
    dir: tempfile::TempDir,
    conn: Connection,
}

/// A till with its owner (PIN 2468) and, on the first, a cashier.
fn till() -> Till {
    let dir = tempfile::tempdir().unwrap();
    let conn = crate::db::open_for_tests(&dir.path().join("till.db"));
    pin::set(&conn, "2468", now()).unwrap();
    Till { dir, conn }
}

fn now() -> Timestamp {
    "2026-11-28T09:00:00Z".parse().unwrap()
}

fn later(minutes: i64) -> Timestamp {
    now() + jiff::SignedDuration::from_mins(minutes)
}

/// The roster as a person reads it: name, role, disabled.
fn roster(conn: &Connection) -> Vec<(String, Role, bool)> {
    people::all(conn)
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.role, p.disabled))
        .collect()
}

fn refused(result: Result<RosterImported, RosterFileFailure>) -> RosterFileError {
    match result {
        Err(RosterFileFailure::Refused(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_roster_signed_on_one_till_is_imported_on_another_once_its_key_is_trusted() {
    let first = till();
    let anna = people::add(&first.conn, "Anna Berg", Role::Cashier, "1357", now()).unwrap();
    people::add(&first.conn, "Ben", Role::Manager, "8642", now()).unwrap();
    let badge = people::make_badge(&first.conn, anna).unwrap();
    let key = owner_key(first.dir.path()).unwrap();
    let (file, exported) = export(&first.conn, &key, now()).unwrap();
    assert_eq!(exported.people, 3);
    let text = String::from_utf8(file.clone()).unwrap();
    for pin in ["1357", "8642", "2468"] {
        assert!(!text.contains(pin), "a PIN in the file");
    }
    assert!(!text.contains(&badge[6..]), "a badge's code in the file");

    let second = till();
    let before = roster(&second.conn);
    // The first time, its owner must agree to this key: nothing changes until then.
    let RosterFileError::NotTrusted {
        fingerprint,
        till,
        people,
    } = refused(import(&second.conn, &file, None, now()))
    else {
        panic!("not asked to trust")
    };
    assert_eq!(fingerprint, exported.fingerprint);
    assert_eq!((till.as_str(), people), ("Counter 1", 3));
    assert!(matches!(
        refused(import(&second.conn, &file, Some("0000"), now())),
        RosterFileError::NotTrusted { .. }
    ));
    assert_eq!(roster(&second.conn), before);

    let imported = import(&second.conn, &file, Some(&fingerprint), now()).unwrap();
    assert_eq!(imported.added, ["Anna Berg", "Ben"]);
    assert_eq!(
        imported.updated,
        ["Owner"],
        "the other till's owner is this one's"
    );
    assert_eq!(
        roster(&second.conn),
        [
            ("Owner".to_owned(), Role::Owner, false),
            ("Anna Berg".to_owned(), Role::Cashier, false),
            ("Ben".to_owned(), Role::Manager, false),
        ]
    );
    // Anna signs in on the second till with her own PIN and her own badge.
    let clock = ManualClock::new(now());
    let anna_here = people::by_badge(&second.conn, &badge).unwrap().unwrap();
    assert_eq!(anna_here.name, "Anna Berg");
    pin::check(
        &second.conn,
        anna_here.id,
        "1357",
        clock.now(),
        &clock.uptime(),
    )
    .unwrap();
    // The same file again brings nothing back.
    assert_eq!(
        refused(import(&second.conn, &file, None, later(1))),
        RosterFileError::NotNewer
    );
}

#[test]
fn a_newer_roster_disables_whoever_the_owner_removed_and_an_older_one_is_refused() {
    let first = till();
    let anna = people::add(&first.conn, "Anna", Role::Cashier, "1357", now()).unwrap();
    people::add(&first.conn, "Ben", Role::Cashier, "8642", now()).unwrap();
    let key = owner_key(first.dir.path()).unwrap();
    let (old, exported) = export(&first.conn, &key, now()).unwrap();
    let second = till();
    import(&second.conn, &old, Some(&exported.fingerprint), now()).unwrap();

    people::change(
        &first.conn,
        anna,
        &PersonChange::Disabled { disabled: true },
    )
    .unwrap();
    people::change(
        &first.conn,
        PersonId(3),
        &PersonChange::Rename {
            name: "Benjamin".into(),
        },
    )
    .unwrap();
    // Signed with the clock turned back: still newer than the first.
    let (new, _) = export(&first.conn, &key, later(-60)).unwrap();
    let imported = import(&second.conn, &new, None, later(2)).unwrap();
    assert_eq!(imported.revoked, ["Anna"]);
    assert_eq!(
        roster(&second.conn),
        [
            ("Owner".to_owned(), Role::Owner, false),
            ("Anna".to_owned(), Role::Cashier, true),
            ("Benjamin".to_owned(), Role::Cashier, false),
        ]
    );
    // The older file cannot bring Anna back.
    assert_eq!(
        refused(import(&second.conn, &old, None, later(3))),
        RosterFileError::NotNewer
    );
    assert!(people::all(&second.conn).unwrap()[1].disabled);
}

#[test]
fn a_file_changed_by_one_byte_or_signed_by_another_key_changes_nothing() {
    let first = till();
    people::add(&first.conn, "Anna", Role::Cashier, "1357", now()).unwrap();
    let key = owner_key(first.dir.path()).unwrap();
    let (file, exported) = export(&first.conn, &key, now()).unwrap();
    let second = till();
    import(&second.conn, &file, Some(&exported.fingerprint), now()).unwrap();
    people::add(&first.conn, "Mallory", Role::Owner, "9999", now()).unwrap();
    let (newer, _) = export(&first.conn, &key, later(1)).unwrap();
    let before = roster(&second.conn);

    // Every single byte of the roster's signed part, changed: refused.
    let text = String::from_utf8(newer.clone()).unwrap();
    let at = text.find("Mallory").unwrap();
    for (i, changed) in [(at, b'N'), (at + 3, b'x')] {
        let mut altered = newer.clone();
        altered[i] = changed;
        assert_eq!(
            refused(import(&second.conn, &altered, None, later(2))),
            RosterFileError::Altered
        );
    }
    // Signed again by another till's key, with the same roster: refused.
    let other = till();
    let other_key = owner_key(other.dir.path()).unwrap();
    let (foreign, _) = export(&first.conn, &other_key, later(3)).unwrap();
    assert!(matches!(
        refused(import(&second.conn, &foreign, None, later(4))),
        RosterFileError::OtherKey { trusted, .. } if trusted == exported.fingerprint
    ));
    // Not a roster at all, or cut short.
    for junk in [&b"{}"[..], b"not json", &newer[..newer.len() / 2]] {
        assert_eq!(
            refused(import(&second.conn, junk, None, later(5))),
            RosterFileError::Unreadable
        );
    }
    assert_eq!(roster(&second.conn), before, "nothing changed");
    // The genuine file still imports.
    import(&second.conn, &newer, None, later(6)).unwrap();
    assert_eq!(roster(&second.conn).len(), 3);
}

#[test]
fn the_owner_key_is_kept_readable_by_the_till_user_alone_and_stays_the_same() {
    let first = till();
    let key = owner_key(first.dir.path()).unwrap();
    assert_eq!(
        owner_key(first.dir.path()).unwrap().verifying_key(),
        key.verifying_key()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(first.dir.path().join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

/// A file signed by `key` with `people` (what a genuine export never carries: the
/// safety net below it).
fn signed_by(key: &SigningKey, sequence: i64, people: Vec<Line>) -> Vec<u8> {
    let signed = serde_json::to_string(&Signed {
        format: FORMAT.to_owned(),
        till: "Counter 1".into(),
        made_at: now(),
        sequence,
        people,
    })
    .unwrap();
    serde_json::to_vec(&Envelope {
        format: FORMAT.to_owned(),
        signature: BASE64.encode(key.sign(signed.as_bytes()).to_bytes()),
        key: BASE64.encode(key.verifying_key().as_bytes()),
        signed,
    })
    .unwrap()
}

#[test]
fn an_import_that_would_leave_no_owner_is_refused_whole() {
    let first = till();
    people::add(&first.conn, "Anna", Role::Cashier, "1357", now()).unwrap();
    let key = owner_key(first.dir.path()).unwrap();
    let (file, exported) = export(&first.conn, &key, now()).unwrap();
    let second = till();
    import(&second.conn, &file, Some(&exported.fingerprint), now()).unwrap();
    let before = roster(&second.conn);
    // A roster without anyone: the second till's only owner, the first's, would go.
    let empty = signed_by(&key, i64::MAX, Vec::new());
    assert!(matches!(
        import(&second.conn, &empty, None, later(1)),
        Err(RosterFileFailure::Roster(people::RosterFailure::Refused(
            RosterError::LastOwner
        )))
    ));
    assert_eq!(roster(&second.conn), before, "nothing changed");
    // A roster where a new person has the name of someone it brought before: refused
    // whole too.
    let owner: (String, String) = second
        .conn
        .query_row("SELECT uid, hash FROM people WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    let line = |uid: &str, name: &str, role, hash: &str| Line {
        uid: uid.into(),
        name: name.into(),
        role,
        hash: hash.into(),
        badge: None,
        disabled: false,
    };
    let taken = signed_by(
        &key,
        i64::MAX,
        vec![
            line(&owner.0, "Owner", Role::Owner, &owner.1),
            line(
                "ffffffffffffffffffffffffffffffff",
                "ANNA",
                Role::Manager,
                &pin::hash("2222"),
            ),
        ],
    );
    assert!(matches!(
        import(&second.conn, &taken, None, later(2)),
        Err(RosterFileFailure::Roster(people::RosterFailure::Refused(
            RosterError::NameTaken { .. }
        )))
    ));
    assert_eq!(roster(&second.conn), before, "nothing changed");
}
