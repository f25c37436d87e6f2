//! The background worker: sends scheduled messages whose time has come, fans events
//! out to webhook endpoints and makes the attempts that are due.
//!
//! One [`tick`] does all of it at the server's clock's "now". It runs every
//! [`TICK`] in the background (started by [`crate::Sandbox::serve`], or
//! [`spawn`] when serving yourself), and once more inside `POST /_sandbox/clock`
//! before it answers, so moving the clock makes everything that became due happen
//! deterministically. Ticks never overlap (a lock in [`crate::state::Worker`]), so an attempt is
//! never made twice.

use std::time::Duration;

use tokio::task::JoinSet;

use crate::actions::broadcasts;
use crate::error::ApiResult;
use crate::state::AppState;
use crate::store::{self, deliveries};
use crate::webhooks;

/// Time between background ticks.
pub const TICK: Duration = Duration::from_millis(200);

/// Attempts made in one tick at most (the rest wait for the next one).
const BATCH: usize = 100;

/// Does everything due at the server's clock's now.
pub async fn tick(state: &AppState) -> ApiResult<()> {
    let worker = state.worker();
    let _one_at_a_time = worker.lock.lock().await;
    let clock = state.clock().clone();
    let now = clock.now_ms();
    // Most ticks find nothing to do: a read says so without taking the write lock,
    // and the write transaction is opened only when it has something to write.
    let writes_due = state
        .db()
        .read(move |c| Ok(store::broadcasts::any_due(c, now)? || deliveries::fan_out_pending(c)?))
        .await?;
    if writes_due {
        state
            .db()
            .write(move |tx| {
                broadcasts::release_due(tx, now)?;
                deliveries::fan_out(tx, now)?;
                Ok(())
            })
            .await?;
    }
    let due = state
        .db()
        .read(move |c| deliveries::due(c, now, BATCH))
        .await?;
    if due.is_empty() {
        return Ok(());
    }
    let mut attempts = JoinSet::new();
    for d in due {
        let http = worker.http.clone();
        let now_s = clock.now_ms().div_euclid(1000);
        attempts.spawn(async move {
            let attempt = webhooks::post(&http, &d, now_s).await;
            (d, attempt)
        });
    }
    while let Some(done) = attempts.join_next().await {
        let Ok((d, attempt)) = done else { continue };
        let at = clock.now_ms();
        state
            .db()
            .write(move |tx| deliveries::record_attempt(tx, &d, attempt, at))
            .await?;
    }
    Ok(())
}

/// Runs [`tick`] every [`TICK`] until the task is aborted.
pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(TICK);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            if let Err(err) = tick(&state).await {
                tracing::error!(%err, "worker tick failed");
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Db;

    #[tokio::test]
    async fn an_idle_tick_does_not_wait_for_the_write_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sandbox.db");
        let state = AppState::new(Db::open(Some(&path)).unwrap(), false);
        let other = rusqlite::Connection::open(&path).unwrap();
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        // With nothing due, a tick only reads: it neither waits for another writer nor
        // takes the write lock itself (it used to open an empty write transaction on
        // every tick, here waiting out the busy timeout and failing).
        let started = std::time::Instant::now();
        tick(&state).await.unwrap();
        assert!(started.elapsed() < Duration::from_secs(1));
        other.execute_batch("ROLLBACK").unwrap();
    }
}
