//! Making businesses, passes and keys (control routes, `--demo`, embedding).

use rusqlite::Connection;

use super::demo;
use crate::error::{ApiError, ApiResult};
use crate::ids;
use crate::keys::{self, Mode};
use crate::store::business::{self, Business, RateLimits};
use crate::store::passes::{self, NewPass};
use crate::store::{Place, Scope, keys as key_rows};

/// Name of the business `--demo` makes.
pub const DEMO_BUSINESS_NAME: &str = "Demo Coffee";

/// Seed of the demo data in every new business's sandbox.
pub const DEMO_SEED: u64 = 2026;

/// What a new business is made of.
#[derive(Debug, Clone)]
pub struct NewBusiness {
    /// Display name.
    pub name: String,
    /// `free`, `pro` or `enterprise`.
    pub plan: String,
    /// IANA time zone.
    pub time_zone: String,
    /// Live customer allowance.
    pub customer_limit: i64,
    /// Messages per month.
    pub monthly_messages: i64,
    /// The live pass, or None for a business without one.
    pub pass: Option<NewPass>,
    /// Whether it is the `--demo` business.
    pub is_demo: bool,
    /// Its cards and gift cards get ids without a type prefix.
    pub plain_ids: bool,
}

/// A business as made: its row and the ids of its live and sandbox passes.
#[derive(Debug, Clone)]
pub struct Created {
    /// The business.
    pub business: Business,
    /// Its live pass.
    pub pass_id: Option<String>,
    /// Its sandbox's demo pass.
    pub sandbox_pass_id: String,
}

/// Creates a business, its live pass, and its sandbox: the demo pass (same rules as
/// the live pass, or ten visits when there is none), 25 demo customers with active
/// cards, 200 demo scans over the past 60 days, two locations and a few referrals.
pub fn create_business(conn: &Connection, nb: &NewBusiness, now_ms: i64) -> ApiResult<Created> {
    let business = Business {
        id: ids::new_id("biz"),
        name: nb.name.clone(),
        plan: nb.plan.clone(),
        time_zone: nb.time_zone.clone(),
        customer_limit: nb.customer_limit,
        monthly_messages: nb.monthly_messages,
        limits: RateLimits::default(),
        is_demo: nb.is_demo,
        plain_ids: nb.plain_ids,
    };
    business::insert(conn, &business, now_ms)?;
    let pass_id = match &nb.pass {
        Some(spec) => Some(
            passes::insert(
                conn,
                &ids::new_id("pass"),
                &business.id,
                Place::Live,
                spec,
                now_ms,
            )?
            .id,
        ),
        None => None,
    };
    let mut demo_spec = nb.pass.clone().unwrap_or_else(NewPass::default_visits);
    demo_spec.status = "active".into();
    if nb.pass.is_none() || nb.is_demo {
        demo_spec.name = format!("{} Card", nb.name);
    }
    let sandbox = Scope {
        business_id: business.id.clone(),
        place: Place::Sandbox,
    };
    let demo_pass = passes::insert(
        conn,
        &ids::new_id("pass"),
        &business.id,
        Place::Sandbox,
        &demo_spec,
        now_ms - demo::DEMO_HISTORY_MS,
    )?;
    demo::fill_sandbox(conn, &sandbox, &demo_pass, DEMO_SEED, now_ms)?;
    Ok(Created {
        business,
        pass_id,
        sandbox_pass_id: demo_pass.id,
    })
}

/// A freshly minted key: its id, its secret text (shown once) and its prefix.
#[derive(Debug, Clone)]
pub struct MintedKey {
    /// Key id.
    pub id: String,
    /// The secret text.
    pub key: String,
    /// Its visible start.
    pub prefix: String,
}

/// Creates an API key for a business.
pub fn mint_key(
    conn: &Connection,
    business_id: &str,
    mode: Mode,
    scopes: &[String],
    expires_at: Option<i64>,
    now_ms: i64,
) -> ApiResult<MintedKey> {
    if business::get(conn, business_id)?.is_none() {
        return Err(ApiError::not_found("business", business_id).param("business_id"));
    }
    let id = ids::new_id("key");
    let key = keys::generate(mode);
    key_rows::insert(
        conn,
        &id,
        business_id,
        mode,
        &key,
        scopes,
        expires_at,
        now_ms,
    )?;
    Ok(MintedKey {
        prefix: keys::prefix(&key),
        id,
        key,
    })
}

/// The keys `--demo` prints.
#[derive(Debug, Clone)]
pub struct DemoKeys {
    /// The demo business's id.
    pub business_id: String,
    /// A test key with every scope (sandbox).
    pub test_key: String,
    /// A live key with every scope.
    pub live_key: String,
}

/// Finds or creates "Demo Coffee" (Enterprise plan, a visits pass, sample gift cards);
/// answers its id.
pub fn find_or_create_demo(conn: &Connection, now_ms: i64) -> ApiResult<String> {
    if let Some(found) = business::find_demo(conn)? {
        return Ok(found.id);
    }
    let created = create_business(
        conn,
        &NewBusiness {
            name: DEMO_BUSINESS_NAME.into(),
            plan: "enterprise".into(),
            time_zone: "UTC".into(),
            customer_limit: 10_000,
            monthly_messages: 100,
            pass: Some(NewPass {
                name: "Demo Coffee Card".into(),
                ..NewPass::default_visits()
            }),
            is_demo: true,
            plain_ids: false,
        },
        now_ms,
    )?;
    let sandbox = Scope {
        business_id: created.business.id.clone(),
        place: Place::Sandbox,
    };
    demo::add_gift_card_samples(conn, &sandbox, now_ms)?;
    Ok(created.business.id)
}

/// Finds or creates "Demo Coffee" ([`find_or_create_demo`]) and mints a fresh test key
/// and live key with every scope. Keys are stored hashed, so an existing demo business
/// is reused and new keys are minted each time.
pub fn ensure_demo(conn: &Connection, now_ms: i64) -> ApiResult<DemoKeys> {
    let business_id = find_or_create_demo(conn, now_ms)?;
    let all: Vec<String> = keys::ALL_SCOPES.iter().map(|s| s.to_string()).collect();
    let test_key = mint_key(conn, &business_id, Mode::Test, &all, None, now_ms)?.key;
    let live_key = mint_key(conn, &business_id, Mode::Live, &all, None, now_ms)?.key;
    Ok(DemoKeys {
        business_id,
        test_key,
        live_key,
    })
}
