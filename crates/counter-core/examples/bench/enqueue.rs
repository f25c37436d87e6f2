//! Section 1 of `make bench`: a durable enqueue against a bare insert-and-commit, with
//! a full queue against an empty one, encrypted against in clear.

use std::time::Instant;

use counter_core::Counter;
use loyalty_api::{CardId, ScanAction};
use rust_decimal::Decimal;

use crate::{PER_ROUND, QUEUED, ROUNDS, Result, config, in_clear, median, open_till};

/// The four places an enqueue is timed: a bare table, a till with an empty queue, a
/// till with `QUEUED` writes waiting (none connected, so nothing is sent), and a till
/// with an empty queue kept in clear.
pub struct Enqueues {
    bare: rusqlite::Connection,
    empty: Counter,
    full: Counter,
    clear: Counter,
    next: usize,
}

/// Which till an enqueue is timed on.
#[derive(Clone, Copy)]
enum Till {
    Empty,
    Full,
    Clear,
}

pub struct EnqueueFigures {
    pub bare_ms: f64,
    pub enqueue_ms: f64,
    pub ratio: f64,
    pub empty_ms: f64,
    pub full_ms: f64,
    pub full_ratio: f64,
    pub clear_ms: f64,
    pub encrypted_ratio: f64,
}

impl Enqueues {
    pub async fn open(dir: &std::path::Path) -> Result<Self> {
        let bare = counter_core::db::open(
            &dir.join("bare.db"),
            &counter_core::secrets::DatabaseKey::for_tests(),
        )?;
        bare.execute_batch("CREATE TABLE bare (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")?;
        let mut enqueues = Self {
            bare,
            empty: open_till(&dir.join("till-empty"), config()).await?,
            full: open_till(&dir.join("till-full"), config()).await?,
            clear: open_till(&dir.join("till-clear"), in_clear()).await?,
            next: 0,
        };
        for _ in 0..QUEUED {
            let n = enqueues.card();
            enqueues
                .full
                .record_scan(n, ScanAction::Points, Some(Decimal::ONE))
                .await?;
        }
        Ok(enqueues)
    }

    fn card(&mut self) -> CardId {
        self.next += 1;
        CardId::new(format!("card_{:010}", self.next))
    }

    fn time_bare(&mut self) -> Result<f64> {
        let started = Instant::now();
        for _ in 0..PER_ROUND {
            self.next += 1;
            self.bare.execute(
                "INSERT INTO bare (body) VALUES (?1)",
                [format!(
                    r#"{{"card_id":"card_{}","kind":"points","amount":1}}"#,
                    self.next
                )],
            )?;
        }
        Ok(started.elapsed().as_secs_f64() * 1e3 / PER_ROUND as f64)
    }

    async fn time_till(&mut self, till: Till) -> Result<f64> {
        let cards: Vec<CardId> = (0..PER_ROUND).map(|_| self.card()).collect();
        let counter = match till {
            Till::Empty => &self.empty,
            Till::Full => &self.full,
            Till::Clear => &self.clear,
        };
        let started = Instant::now();
        for card in cards {
            counter
                .record_scan(card, ScanAction::Points, Some(Decimal::ONE))
                .await?;
        }
        Ok(started.elapsed().as_secs_f64() * 1e3 / PER_ROUND as f64)
    }

    /// Rounds alternate which side goes first, so a slow moment of the disk falls on
    /// both sides alike; the ratio is taken per round, then the median.
    pub async fn measure(&mut self, run: usize) -> Result<EnqueueFigures> {
        let (mut bare, mut empty, mut full, mut clear) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut ratios, mut full_ratios, mut encrypted_ratios) =
            (Vec::new(), Vec::new(), Vec::new());
        for round in 0..ROUNDS {
            let (b, e, f, c) = if (round + run).is_multiple_of(2) {
                let b = self.time_bare()?;
                let e = self.time_till(Till::Empty).await?;
                let f = self.time_till(Till::Full).await?;
                let c = self.time_till(Till::Clear).await?;
                (b, e, f, c)
            } else {
                let c = self.time_till(Till::Clear).await?;
                let f = self.time_till(Till::Full).await?;
                let e = self.time_till(Till::Empty).await?;
                let b = self.time_bare()?;
                (b, e, f, c)
            };
            ratios.push(e / b);
            full_ratios.push(f / e);
            encrypted_ratios.push(e / c);
            bare.push(b);
            empty.push(e);
            full.push(f);
            clear.push(c);
        }
        Ok(EnqueueFigures {
            bare_ms: median(bare),
            enqueue_ms: median(empty.clone()),
            ratio: median(ratios),
            empty_ms: median(empty),
            full_ms: median(full),
            full_ratio: median(full_ratios),
            clear_ms: median(clear),
            encrypted_ratio: median(encrypted_ratios),
        })
    }

    pub async fn close(self) {
        self.empty.close().await;
        self.full.close().await;
        self.clear.close().await;
    }
}
