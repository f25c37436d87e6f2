//! Passes: the loyalty card designs of a business, per place.

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::list::{ListQuery, Page, PageRequest};
use super::{Place, Scope};
use crate::error::ApiResult;

/// What a new pass is made of.
#[derive(Debug, Clone)]
pub struct NewPass {
    /// Display name.
    pub name: String,
    /// `visits` or `points`.
    pub loyalty_type: String,
    /// Visits or points needed for a reward.
    pub goal: i64,
    /// What the reward is.
    pub reward_title: String,
    /// Language code.
    pub locale: String,
    /// `active` or `archived`.
    pub status: String,
}

impl NewPass {
    /// The default pass of a new business: ten visits for a reward.
    pub fn default_visits() -> Self {
        NewPass {
            name: "Loyalty Card".into(),
            loyalty_type: "visits".into(),
            goal: 10,
            reward_title: "Free coffee".into(),
            locale: "en".into(),
            status: "active".into(),
        }
    }
}

/// A stored pass.
#[derive(Debug, Clone)]
pub struct Pass {
    /// Id (`pass_...`).
    pub id: String,
    /// Design and rules.
    pub spec: NewPass,
    pub(crate) created_at: i64,
    pub(crate) updated_at: i64,
}

impl Pass {
    /// Whether the pass counts points (else visits).
    pub fn is_points(&self) -> bool {
        self.spec.loyalty_type == "points"
    }
}

const SELECT: &str = "SELECT p.id, p.name, p.status, p.loyalty_type, p.goal, p.reward_title, \
    p.locale, p.created_at, p.updated_at FROM passes p";

fn from_row(r: &Row<'_>) -> rusqlite::Result<Pass> {
    Ok(Pass {
        id: r.get(0)?,
        spec: NewPass {
            name: r.get(1)?,
            status: r.get(2)?,
            loyalty_type: r.get(3)?,
            goal: r.get(4)?,
            reward_title: r.get(5)?,
            locale: r.get(6)?,
        },
        created_at: r.get(7)?,
        updated_at: r.get(8)?,
    })
}

/// Adds a pass to a business's place.
pub fn insert(
    conn: &Connection,
    id: &str,
    business_id: &str,
    place: Place,
    spec: &NewPass,
    now_ms: i64,
) -> ApiResult<Pass> {
    conn.execute(
        "INSERT INTO passes (id, business_id, place, name, status, loyalty_type, goal, reward_title, \
         locale, accent, background, foreground, label, wallet_apple, wallet_google, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, '#8B5E3C', '#FFF8F0', '#2B1B10', '#8B5E3C', 1, 1, ?10, ?10)",
        params![
            id,
            business_id,
            place.as_str(),
            spec.name,
            spec.status,
            spec.loyalty_type,
            spec.goal,
            spec.reward_title,
            spec.locale,
            now_ms
        ],
    )?;
    Ok(Pass {
        id: id.to_owned(),
        spec: spec.clone(),
        created_at: now_ms,
        updated_at: now_ms,
    })
}

/// A pass of the scope, or None (unknown, or another business's or place's).
pub fn get(conn: &Connection, scope: &Scope, id: &str) -> ApiResult<Option<Pass>> {
    Ok(conn
        .prepare_cached(&format!(
            "{SELECT} WHERE p.id = ?1 AND p.business_id = ?2 AND p.place = ?3"
        ))?
        .query_row(
            params![id, scope.business_id, scope.place.as_str()],
            from_row,
        )
        .optional()?)
}

/// The pass gift cards take their look from: the oldest active pass of the place.
pub fn main_pass(conn: &Connection, scope: &Scope) -> ApiResult<Option<Pass>> {
    Ok(conn
        .prepare_cached(&format!(
            "{SELECT} WHERE p.business_id = ?1 AND p.place = ?2 AND p.status = 'active' \
             ORDER BY p.created_at, p.id LIMIT 1"
        ))?
        .query_row(params![scope.business_id, scope.place.as_str()], from_row)
        .optional()?)
}

/// Filters of `GET /v1/passes`.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// `active` or `archived`.
    pub status: Option<String>,
}

/// A page of the scope's passes.
pub fn list(
    conn: &Connection,
    scope: &Scope,
    filters: &Filters,
    page: &PageRequest,
) -> ApiResult<Page<Pass>> {
    let mut q = ListQuery::new(
        &format!("{SELECT} WHERE p.business_id = ? AND p.place = ?"),
        "p",
        vec![
            scope.business_id.clone().into(),
            scope.place.as_str().to_owned().into(),
        ],
    );
    if let Some(status) = &filters.status {
        q.filter("p.status = ?", status.clone());
    }
    q.run(conn, page, from_row)
}
