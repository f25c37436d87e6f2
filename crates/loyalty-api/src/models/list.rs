//! A page of a list, and the parameters every list takes.

use serde::{Deserialize, Serialize};

use crate::ids::Cursor;

/// One page of a list, newest first.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct List<T> {
    /// The page's items.
    pub data: Vec<T>,
    /// Whether more items follow this page.
    pub has_more: bool,
    /// The cursor of the next page, to pass back untouched; None on the last page.
    #[serde(default)]
    pub next_cursor: Option<Cursor>,
}

/// The query of a list: page size and cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ListParams {
    /// Items per page, 1 to 100 (the service's default when None).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<Cursor>,
    /// The list's own filters (`pass_id`, `customer_id`, `kind`, `status`, `email`),
    /// by name; a cursor belongs to the filters it was given with.
    #[serde(flatten)]
    pub filters: std::collections::BTreeMap<String, String>,
}

impl ListParams {
    /// The first page with the service's default size.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the page size (1 to 100; the service refuses others with invalid_parameter).
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Adds a filter of the list (`status=active`).
    pub fn filter(mut self, name: &str, value: &str) -> Self {
        self.filters.insert(name.to_owned(), value.to_owned());
        self
    }

    /// Continues after a page, with its `next_cursor`.
    pub fn cursor(mut self, cursor: Cursor) -> Self {
        self.cursor = Some(cursor);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_page_reads_its_cursor_and_ignores_unknown_fields() {
        let page: List<u32> = serde_json::from_str(
            r#"{"object":"list","data":[1,2],"has_more":true,"next_cursor":"abc==","url":"/v1/x"}"#,
        )
        .unwrap();
        assert_eq!(page.data, [1, 2]);
        assert_eq!(page.next_cursor.unwrap().as_str(), "abc==");
        let last: List<u32> = serde_json::from_str(
            r#"{"object":"list","data":[],"has_more":false,"next_cursor":null}"#,
        )
        .unwrap();
        assert!(last.next_cursor.is_none());
    }
}
