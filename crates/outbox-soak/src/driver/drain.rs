//! The final drain, and what is open when a run fails.

use std::sync::Arc;
use std::time::Duration;

use anyhow::bail;
use counter_core::{Counter, UuidIds};
use tokio::time::Instant;

use crate::reconcile;
use crate::till::{self, OffsetClock};

use super::*;

/// After a failure or the deadline: which items of the till are still open, and why.
pub(super) async fn open_items(run: &mut Run) {
    if let Some(mut till) = run.till.take() {
        let _ = till.child.kill().await;
    }
    let opened = Counter::open(
        &dir_of(&run.plan, "till"),
        till::config(),
        Arc::new(OffsetClock::new(0)),
        Arc::new(UuidIds),
    )
    .await;
    match opened.map(|counter| (counter.queue(true, u32::MAX), counter)) {
        Ok((Ok(mut open), counter)) => {
            // Oldest first: the oldest is what holds the others up.
            open.sort_by_key(|i| i.id);
            run.say(format!(
                "{} items are still open, oldest first:",
                open.len()
            ));
            for item in open.iter().take(40) {
                run.say(format!("  {}", reconcile::describe(item)));
            }
            counter.close().await;
        }
        Ok((Err(err), counter)) => {
            run.say(format!("the till's queue could not be read: {err}"));
            counter.close().await;
        }
        Err(err) => run.say(format!("the till could not be opened: {err}")),
    }
}

pub(super) async fn connect(run: &mut Run, counter: &Counter) -> anyhow::Result<()> {
    for _ in 0..40 {
        crate::reconcile::as_manager(counter)?;
        match counter.connect(&run.root(), run.key()).await {
            Ok(_) => return Ok(()),
            Err(_) => tokio::time::sleep(Duration::from_millis(250)).await,
        }
    }
    bail!("the final till could not connect")
}

/// Waits for the queue to empty; when it stops moving, says which items are stuck
/// and why.
pub(super) async fn drain(run: &mut Run, counter: &Counter) -> anyhow::Result<bool> {
    let started = Instant::now();
    let mut last = u32::MAX;
    let mut moved = Instant::now();
    let mut told = false;
    loop {
        let counts = counter.counts()?;
        if counts.queued == 0 {
            return Ok(true);
        }
        if counts.queued < last {
            (last, moved) = (counts.queued, Instant::now());
        }
        if !told && moved.elapsed() > run.plan.stall {
            told = true;
            let mut stuck = counter.queue(true, u32::MAX)?;
            stuck.sort_by_key(|i| i.id);
            run.say(format!(
                "STUCK: {} open items have not moved for {:?} (connectivity {:?}, clock skew {:?}):",
                counts.queued,
                run.plan.stall,
                counter.connectivity(),
                counter.clock_skew()
            ));
            for item in stuck.iter().filter(|i| i.state.is_open()).take(40) {
                run.say(format!("  {}", reconcile::describe(item)));
            }
        }
        if started.elapsed() > run.plan.drain_deadline {
            return Ok(false);
        }
        counter.send_now();
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
