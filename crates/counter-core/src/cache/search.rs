//! Search as you type: names and emails by the start of their words, phone numbers by
//! their digits.

use rusqlite::{Connection, params};

use super::{CustomerSummary, digits, summary};

/// What a person typed, as a query of each index.
#[derive(Debug)]
struct SearchQuery {
    /// FTS5's query of names and emails: every word as a prefix, all required.
    words: String,
    /// The digits typed, when the text could be (part of) a phone number: at least
    /// three digits, with nothing else but a phone's spaces and signs. A number in
    /// national form loses its trunk 0 (below).
    digits: Option<String>,
}

/// From this many digits on, a typed number that starts with 0 is read as a national
/// number whose 0 is the trunk prefix (`07700 900123` for `+44 7700 900123`), and
/// matched without it. Fewer digits are more likely a number's last ones (`0123`).
const NATIONAL_FROM: usize = 5;

impl SearchQuery {
    fn new(typed: &str) -> Option<SearchQuery> {
        let words: Vec<String> = typed
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| format!("\"{}\"*", w.to_lowercase()))
            .collect();
        if words.is_empty() {
            return None;
        }
        let mut typed_digits = digits(Some(typed));
        if typed_digits.len() >= NATIONAL_FROM && typed_digits.starts_with('0') {
            typed_digits.remove(0);
        }
        let only_phone_chars = typed
            .chars()
            .all(|c| c.is_ascii_digit() || " +-().".contains(c));
        Some(SearchQuery {
            words: words.join(" AND "),
            digits: (typed_digits.len() >= 3 && only_phone_chars).then_some(typed_digits),
        })
    }
}

/// How many of the last digits typed the phone index looks up; the rows it finds are
/// then checked for all the digits.
///
/// The index is of trigrams, and FTS5 finds a row holding several of them by walking
/// all their lists together: the trigrams every number shares (a country code, a
/// mobile prefix) are in every row, so looking up all of a long number walked most of
/// the index (12 ms at 1,000,000 customers). A phone's last digits tell numbers apart:
/// five of them (three trigrams) leave a few dozen rows to check at that size.
const DIGITS_LOOKED_UP: usize = 5;

/// Customers with a word of their name or email starting with each word typed, or
/// whose phone number holds the digits typed; the first `limit` in the order they
/// were stored.
pub(crate) fn search(
    conn: &Connection,
    typed: &str,
    limit: u32,
) -> rusqlite::Result<Vec<CustomerSummary>> {
    let Some(query) = SearchQuery::new(typed) else {
        return Ok(vec![]);
    };
    // No ORDER BY rank: ranking scores every match, which for the first letter or two
    // is most of the cache; without it FTS5 stops after `limit` matches. The prefix
    // indexes (1 to 3 characters) make those first keystrokes cheap.
    let mut found = customers_found(
        conn,
        "SELECT c.rowid, c.id FROM customer_search s JOIN customers c ON c.rowid = s.rowid
         WHERE customer_search MATCH ?1 LIMIT ?2",
        params![query.words, limit],
    )?;
    if let Some(typed_digits) = &query.digits {
        let looked_up = &typed_digits[typed_digits.len().saturating_sub(DIGITS_LOOKED_UP)..];
        let by_phone = customers_found(
            conn,
            "SELECT c.rowid, c.id FROM customer_digits d JOIN customers c ON c.rowid = d.rowid
             WHERE d.digits LIKE ?1 AND instr(d.digits, ?2) LIMIT ?3",
            params![format!("%{looked_up}%"), typed_digits, limit],
        )?;
        // Each list is its index's first `limit` in stored order: the first `limit` of
        // both together are among them.
        found.extend(by_phone);
        found.sort_unstable();
        found.dedup();
        found.truncate(limit as usize);
    }
    let mut customers = Vec::with_capacity(found.len());
    for (_, id) in found {
        if let Some(customer) = summary(conn, &id)? {
            customers.push(customer);
        }
    }
    Ok(customers)
}

/// The row and id of each customer a query of an index finds.
fn customers_found(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> rusqlite::Result<Vec<(i64, String)>> {
    conn.prepare_cached(sql)?
        .query_map(params, |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::tests::{cache_with, customer};

    /// The names of the customers found for `typed`, in the order found.
    fn names(conn: &Connection, typed: &str) -> Vec<String> {
        search(conn, typed, 10)
            .unwrap()
            .into_iter()
            .map(|c| c.name.unwrap())
            .collect()
    }

    #[test]
    fn search_matches_the_start_of_any_word_of_name_or_email() {
        let (_dir, conn) = cache_with(&[
            customer("1", "Ana López", "ana.lopez@example.com", None),
            customer("2", "Bruno Díaz", "bruno@example.com", None),
        ]);
        let names = |typed: &str| names(&conn, typed);
        assert_eq!(names("an"), ["Ana López"]);
        assert_eq!(names("lop"), ["Ana López"], "accents are ignored");
        assert_eq!(names("ana lo"), ["Ana López"]);
        assert_eq!(names("bruno@ex"), ["Bruno Díaz"]);
        assert!(names("zed").is_empty());
        assert!(names("  ").is_empty());
        assert!(
            names("\"*").is_empty(),
            "FTS syntax typed by a person is harmless"
        );
    }

    #[test]
    fn search_finds_a_phone_number_typed_without_its_spaces() {
        let (_dir, conn) = cache_with(&[customer("1", "Ana", "a@x.es", Some("+34 612 345 678"))]);
        assert_eq!(search(&conn, "612345", 5).unwrap().len(), 1);
        assert_eq!(search(&conn, "612 34", 5).unwrap().len(), 1);
    }

    #[test]
    fn a_phone_number_is_found_by_any_run_of_its_digits_and_only_by_all_of_them() {
        let (_dir, conn) = cache_with(&[
            customer("1", "Ana", "a@x.es", Some("+44 7700 900123")),
            customer("2", "Bea", "b@x.es", Some("+44 (7711) 900-123")),
            customer("3", "Cruz", "c@x.es", None),
        ]);
        let names = |typed: &str| names(&conn, typed);
        assert_eq!(names("+44 7700 900123"), ["Ana"]);
        assert_eq!(names("7700 900123"), ["Ana"], "without the country code");
        assert_eq!(names("7711900123"), ["Bea"], "without its signs");
        assert_eq!(
            names("1900123"),
            ["Bea"],
            "the last five digits are Ana's too"
        );
        assert_eq!(names("900123"), ["Ana", "Bea"]);
        assert_eq!(names("0123"), ["Ana", "Bea"], "the last four digits");
        assert_eq!(names("447"), ["Ana", "Bea"]);
        assert!(names("7700 8").is_empty());
    }

    #[test]
    fn a_number_in_national_form_is_found_without_its_trunk_0() {
        let (_dir, conn) = cache_with(&[
            customer("1", "Ana", "a@x.es", Some("+44 7700 900123")),
            customer("2", "Bea", "b@x.es", Some("+44 7711 904567")),
        ]);
        let names = |typed: &str| names(&conn, typed);
        assert_eq!(names("07700 900123"), ["Ana"]);
        assert_eq!(names("07700"), ["Ana"]);
        assert_eq!(names("(0) 7711 90"), ["Bea"]);
        assert!(names("07700 8").is_empty());
        assert_eq!(names("0123"), ["Ana"], "four digits: a number's last ones");
        assert!(
            names("0904").is_empty(),
            "four digits keep their 0: not Bea's 904"
        );
    }
}
