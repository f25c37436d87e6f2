//! Keyset pagination shared by every list: newest first, ties by id descending.

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, Row, params_from_iter};

use crate::cursor::Position;
use crate::error::ApiResult;

/// Which page to read.
#[derive(Debug, Clone)]
pub struct PageRequest {
    /// Page size, 1 to 100.
    pub limit: usize,
    /// Read items strictly after this position (from a cursor).
    pub after: Option<Position>,
}

/// One page of items.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The items, newest first.
    pub items: Vec<T>,
    /// Whether more items follow.
    pub has_more: bool,
    /// Position of the last item, for the next cursor.
    pub last: Option<Position>,
}

/// A list query: a base SELECT with `WHERE` conditions, filters added one by one.
///
/// The SELECT must produce columns named `created_at` and `id`, from `alias`.
#[derive(Debug)]
pub struct ListQuery {
    sql: String,
    alias: &'static str,
    params: Vec<SqlValue>,
}

impl ListQuery {
    /// Starts from `select` (which ends in a WHERE clause) and its parameters.
    pub fn new(select: &str, alias: &'static str, params: Vec<SqlValue>) -> Self {
        ListQuery {
            sql: select.to_owned(),
            alias,
            params,
        }
    }

    /// Adds `AND condition` with one parameter.
    pub fn filter(&mut self, condition: &str, value: impl Into<SqlValue>) -> &mut Self {
        self.sql.push_str(" AND ");
        self.sql.push_str(condition);
        self.params.push(value.into());
        self
    }

    /// Reads the page.
    pub fn run<T>(
        mut self,
        conn: &Connection,
        page: &PageRequest,
        mut map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
    ) -> ApiResult<Page<T>> {
        let a = self.alias;
        if let Some(after) = &page.after {
            self.sql.push_str(&format!(
                " AND ({a}.created_at < ? OR ({a}.created_at = ? AND {a}.id < ?))"
            ));
            self.params.push(after.created_ms.into());
            self.params.push(after.created_ms.into());
            self.params.push(after.id.clone().into());
        }
        self.sql.push_str(&format!(
            " ORDER BY {a}.created_at DESC, {a}.id DESC LIMIT {}",
            page.limit + 1
        ));
        let mut stmt = conn.prepare_cached(&self.sql)?;
        let mut rows = stmt.query(params_from_iter(self.params.iter()))?;
        let mut items = Vec::new();
        let mut positions = Vec::new();
        while let Some(row) = rows.next()? {
            positions.push(Position {
                created_ms: row.get("created_at")?,
                id: row.get("id")?,
            });
            items.push(map(row)?);
        }
        let has_more = items.len() > page.limit;
        items.truncate(page.limit);
        positions.truncate(page.limit);
        Ok(Page {
            items,
            has_more,
            last: positions.pop(),
        })
    }
}
