//! Locations: a business's counters and branches (inactive ones included).

use rusqlite::{Connection, Row, params};

use super::Scope;
use super::list::{ListQuery, Page, PageRequest};
use crate::error::ApiResult;

/// A location. Team-member links, join codes and review links are never stored here.
#[derive(Debug, Clone)]
pub struct Location {
    /// Id (`loc_...`).
    pub id: String,
    /// Pass shown there.
    pub pass_id: Option<String>,
    /// Name.
    pub name: String,
    /// Whether it is in use.
    pub active: bool,
    /// Street address.
    pub address: String,
    /// City.
    pub city: String,
    /// Two-letter country code.
    pub country: String,
    /// Latitude.
    pub latitude: f64,
    /// Longitude.
    pub longitude: f64,
    /// Creation time.
    pub created_at: i64,
}

/// Stores a location.
pub fn insert(conn: &Connection, scope: &Scope, l: &Location) -> ApiResult<()> {
    conn.execute(
        "INSERT INTO locations (id, business_id, place, pass_id, name, active, address, city, country, \
         latitude, longitude, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            l.id,
            scope.business_id,
            scope.place.as_str(),
            l.pass_id,
            l.name,
            l.active,
            l.address,
            l.city,
            l.country,
            l.latitude,
            l.longitude,
            l.created_at
        ],
    )?;
    Ok(())
}

fn from_row(r: &Row<'_>) -> rusqlite::Result<Location> {
    Ok(Location {
        id: r.get(0)?,
        pass_id: r.get(1)?,
        name: r.get(2)?,
        active: r.get(3)?,
        address: r.get(4)?,
        city: r.get(5)?,
        country: r.get(6)?,
        latitude: r.get(7)?,
        longitude: r.get(8)?,
        created_at: r.get(9)?,
    })
}

/// A page of the scope's locations.
pub fn list(conn: &Connection, scope: &Scope, page: &PageRequest) -> ApiResult<Page<Location>> {
    ListQuery::new(
        "SELECT l.id, l.pass_id, l.name, l.active, l.address, l.city, l.country, l.latitude, l.longitude, \
         l.created_at FROM locations l WHERE l.business_id = ? AND l.place = ?",
        "l",
        vec![scope.business_id.clone().into(), scope.place.as_str().to_owned().into()],
    )
    .run(conn, page, from_row)
}

/// Whether a location id belongs to the scope.
pub fn exists(conn: &Connection, scope: &Scope, id: &str) -> ApiResult<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*) FROM locations WHERE id = ?1 AND business_id = ?2 AND place = ?3",
        )?
        .query_row(params![id, scope.business_id, scope.place.as_str()], |r| {
            r.get::<_, i64>(0)
        })?
        > 0)
}
