//! Walking a list page by page, passing each `next_cursor` back untouched.

use std::collections::VecDeque;
use std::marker::PhantomData;

use futures_util::Stream;
use serde::de::DeserializeOwned;

use crate::client::Client;
use crate::error::{Error, TransportError, TransportKind};
use crate::ids::Cursor;
use crate::models::{List, ListParams};
use crate::response::Response;

enum State {
    First,
    After(Cursor),
    Done,
}

/// The pages of one list. Built by a resource's `pages` method; the page size and
/// filters stay as given, only the cursor changes.
pub struct Pages<T> {
    client: Client,
    path: &'static [&'static str],
    params: ListParams,
    state: State,
    item: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for Pages<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages")
            .field("path", &self.path.join("/"))
            .field("params", &self.params)
            .field("done", &matches!(self.state, State::Done))
            .finish()
    }
}

impl<T: DeserializeOwned> Pages<T> {
    pub(crate) fn new(client: Client, path: &'static [&'static str], params: ListParams) -> Self {
        Self {
            client,
            path,
            params,
            state: State::First,
            item: PhantomData,
        }
    }

    /// The next page, or None after the last. After a failed request the same page
    /// is asked for again on the next call, so a caller may retry; a page that claims
    /// more items but gives no cursor is an error that ends the walk.
    pub async fn next_page(&mut self) -> Result<Option<Response<List<T>>>, Error> {
        let params = match &self.state {
            State::Done => return Ok(None),
            State::First => self.params.clone(),
            State::After(cursor) => ListParams {
                cursor: Some(cursor.clone()),
                ..self.params.clone()
            },
        };
        let page: Response<List<T>> = self.client.get(self.path, &params).await?;
        self.state = match (&page.data.has_more, &page.data.next_cursor) {
            (true, Some(cursor)) => State::After(cursor.clone()),
            (false, _) => State::Done,
            (true, None) => {
                self.state = State::Done;
                return Err(TransportError::new(
                    TransportKind::UnexpectedShape,
                    "a list page has more items but no next_cursor",
                )
                .with_answer(page.http_status, page.request_id.clone())
                .into());
            }
        };
        Ok(Some(page))
    }

    /// Every item of every page, in order. The stream ends after the first error.
    pub fn items(self) -> impl Stream<Item = Result<T, Error>> + Send + 'static
    where
        T: Send + 'static,
    {
        futures_util::stream::unfold(
            (self, VecDeque::<T>::new(), false),
            |(mut pages, mut buffer, mut failed)| async move {
                loop {
                    if let Some(item) = buffer.pop_front() {
                        return Some((Ok(item), (pages, buffer, failed)));
                    }
                    if failed {
                        return None;
                    }
                    match pages.next_page().await {
                        Ok(Some(page)) => buffer.extend(page.data.data),
                        Ok(None) => return None,
                        Err(err) => {
                            failed = true;
                            return Some((Err(err), (pages, buffer, failed)));
                        }
                    }
                }
            },
        )
    }
}
