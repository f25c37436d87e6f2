//! List query parameters, cursors and list answers.
//!
//! `limit` is 1 to 100, default 20. Filters are exact matches named per list; the
//! cursor is bound to the list, the business, the place and the filters in use
//! (their canonical text: sorted `name=value` pairs), so any other use answers
//! 400 invalid_cursor. A repeated parameter, a bad `limit` or a bad filter value
//! answers 400 invalid_parameter naming it. Unknown parameters are ignored.
//!
//! `ListRequest::respond` is the whole of a list route; a route names only its
//! list, filters and store query; each row becomes its wire shape through `From`.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{FromRequestParts, Query};
use axum::http::Uri;
use axum::http::request::Parts;
use rusqlite::Connection;

use super::auth::Caller;
use crate::cursor::{self, Binding};
use crate::error::{ApiError, ApiResult, Code};
use crate::state::AppState;
use crate::store::Scope;
use crate::store::list::{Page, PageRequest};
use crate::wire;

/// Default page size.
pub const DEFAULT_LIMIT: usize = 20;
/// Largest page size.
pub const MAX_LIMIT: usize = 100;

/// The 400 codes of every list.
pub(crate) const LIST_CODES: &str = "invalid_parameter (limit 1 to 100, a filter value, a repeated parameter; `param` names it), invalid_cursor";

/// `limit` and `cursor`, shared by every list (the document's parameters).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct PageParams {
    /// Page size, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<i64>,
    /// The previous answer's `next_cursor`, exactly as returned.
    cursor: Option<String>,
}

/// A filter a list accepts: its name and, when closed, its allowed values.
#[derive(Debug, Clone, Copy)]
pub struct FilterSpec {
    /// Parameter name.
    pub name: &'static str,
    /// Allowed values (empty: any non-empty text up to 254 characters).
    pub values: &'static [&'static str],
}

/// Parsed parameters of a list request.
#[derive(Debug, Clone)]
pub struct ListParams {
    list: &'static str,
    business: String,
    place: &'static str,
    filters: BTreeMap<String, String>,
    /// The page to read.
    pub page: PageRequest,
}

fn canonical(filters: &BTreeMap<String, String>) -> String {
    filters
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

impl ListParams {
    /// Parses `limit`, `cursor` and the list's filters from the query string.
    pub fn parse(
        state: &AppState,
        caller: &Caller,
        uri: &Uri,
        list: &'static str,
        specs: &[FilterSpec],
    ) -> ApiResult<ListParams> {
        let pairs: Vec<(String, String)> = match Query::<Vec<(String, String)>>::try_from_uri(uri) {
            Ok(Query(pairs)) => pairs,
            Err(_) => {
                return Err(ApiError::invalid_parameter(
                    "query",
                    "The query string is malformed.",
                ));
            }
        };
        let mut seen = BTreeMap::new();
        for (name, value) in pairs {
            if seen.insert(name.clone(), value).is_some() {
                return Err(ApiError::invalid_parameter(
                    &name,
                    format!("{name} is given more than once."),
                ));
            }
        }
        let limit = match seen.get("limit") {
            None => DEFAULT_LIMIT,
            // Digits only: `parse` alone would also take `+5`.
            Some(text) => match text.parse::<usize>() {
                Ok(n)
                    if text.bytes().all(|b| b.is_ascii_digit()) && (1..=MAX_LIMIT).contains(&n) =>
                {
                    n
                }
                _ => {
                    return Err(ApiError::invalid_parameter(
                        "limit",
                        format!("limit must be an integer from 1 to {MAX_LIMIT}."),
                    ));
                }
            },
        };
        let mut filters = BTreeMap::new();
        for spec in specs {
            if let Some(value) = seen.get(spec.name) {
                let ok = if spec.values.is_empty() {
                    !value.is_empty() && value.chars().count() <= 254
                } else {
                    spec.values.contains(&value.as_str())
                };
                if !ok {
                    let detail = if spec.values.is_empty() {
                        format!("{} must be a non-empty value.", spec.name)
                    } else {
                        format!("{} must be one of: {}.", spec.name, spec.values.join(", "))
                    };
                    return Err(ApiError::invalid_parameter(spec.name, detail));
                }
                filters.insert(spec.name.to_owned(), value.clone());
            }
        }
        let mut params = ListParams {
            list,
            business: caller.business.id.clone(),
            place: caller.place.as_str(),
            filters,
            page: PageRequest { limit, after: None },
        };
        if let Some(text) = seen.get("cursor") {
            let canonical = canonical(&params.filters);
            let binding = params.binding(&canonical);
            match cursor::decode(state.db().cursor_secret(), binding, text) {
                Some(position) => params.page.after = Some(position),
                None => {
                    return Err(ApiError::new(
                        Code::InvalidCursor,
                        "The cursor was not issued for this list, business and filters, or was altered.",
                    )
                    .param("cursor"));
                }
            }
        }
        Ok(params)
    }

    fn binding<'a>(&'a self, canonical: &'a str) -> Binding<'a> {
        Binding {
            list: self.list,
            business: &self.business,
            place: self.place,
            filters: canonical,
        }
    }

    /// The value of a filter in use.
    pub fn filter(&self, name: &str) -> Option<String> {
        self.filters.get(name).cloned()
    }

    /// The list object for a page.
    pub(crate) fn answer_page<T, W>(&self, state: &AppState, page: Page<T>) -> wire::List<W>
    where
        W: for<'a> From<&'a T>,
    {
        let next_cursor = match (&page.last, page.has_more) {
            (Some(last), true) => {
                let canonical = canonical(&self.filters);
                Some(cursor::encode(
                    state.db().cursor_secret(),
                    self.binding(&canonical),
                    last,
                ))
            }
            _ => None,
        };
        wire::List {
            object: "list",
            data: page.items.iter().map(W::from).collect(),
            has_more: next_cursor.is_some(),
            next_cursor,
        }
    }
}

/// What every list route starts from: the state, the authenticated caller (extracting
/// it runs the [`Caller`] checks) and the request's query.
#[derive(Debug)]
pub struct ListRequest {
    state: AppState,
    caller: Caller,
    uri: Uri,
}

impl FromRequestParts<AppState> for ListRequest {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let caller = Caller::from_request_parts(parts, state).await?;
        Ok(ListRequest {
            state: state.clone(),
            caller,
            uri: parts.uri.clone(),
        })
    }
}

impl ListRequest {
    /// Answers the list `list`: parses the query against its filter `specs`, reads one
    /// page in the caller's business and place, and answers each row as its wire shape.
    ///
    /// `read` is given the parsed parameters (to take the filters in use) and returns
    /// the store query that runs on the database.
    pub(crate) async fn respond<T, W, R>(
        self,
        list: &'static str,
        specs: &[FilterSpec],
        read: impl FnOnce(&ListParams) -> R,
    ) -> ApiResult<Json<wire::List<W>>>
    where
        T: Send + 'static,
        W: for<'a> From<&'a T>,
        R: FnOnce(&Connection, &Scope, &PageRequest) -> ApiResult<Page<T>> + Send + 'static,
    {
        let ListRequest { state, caller, uri } = self;
        let params = ListParams::parse(&state, &caller, &uri, list, specs)?;
        let read = read(&params);
        let (scope, page) = (caller.scope(), params.page.clone());
        let page = state.db().read(move |c| read(c, &scope, &page)).await?;
        Ok(Json(params.answer_page(&state, page)))
    }
}
