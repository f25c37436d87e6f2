//! `outbox-soak`: proves that the till's outbox never doubles and never sticks.
//!
//! One binary, three roles, so the driver can SIGKILL the other two and start them
//! again on their own data:
//!
//! - `full` / `short` (the driver): starts the server and the till as children,
//!   injects every kind of fault while the till works through a seeded workload,
//!   kills the till at random moments, then drains, lets "a person" settle what
//!   needs a decision, and reconciles the till's outbox with the server's own
//!   records. The last line is `writes=N faults=N kills=N lost=N doubled=N`.
//! - `server`: `loyalty-sandbox` on a loopback port with a database file and the
//!   control routes; prints `listening on http://HOST:PORT`.
//! - `till`: one `counter_core::Counter` on a data directory, making the workload's
//!   writes through the public API; steered on standard input (`connect URL KEY`,
//!   `clock SECONDS`).
//!
//! Everything runs on 127.0.0.1; each role stops when its standard input closes, so
//! no child outlives the driver.
//!
//! # Layers
//!
//! Each module uses only its own layer or lower ones (`crates/layers` checks it in
//! `make lint`). Bottom to top:
//!
//! 0. `workload`, `secrets_scan`, `server`: the seeded writes, the search for keys in
//!    files, the server's role.
//! 1. `reconcile`: the till's records against the server's.
//! 2. `till`: the till's role.
//! 3. `driver`: the driver, which runs the other two and injects the faults.

mod driver;
mod reconcile;
mod secrets_scan;
mod server;
mod till;
mod workload;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "outbox-soak", about)]
struct Args {
    #[command(subcommand)]
    role: Role,
}

#[derive(Debug, Subcommand)]
enum Role {
    /// The full soak: at least 5,000 writes and 50 kills of the till.
    Full {
        /// Where the run's data goes (emptied first).
        #[arg(long, default_value = "target/outbox-soak/full")]
        dir: PathBuf,
        /// The workload's seed.
        #[arg(long, default_value_t = 11)]
        seed: u64,
        /// Stop after this many seconds whatever happens (default 30 minutes).
        #[arg(long)]
        deadline: Option<u64>,
    },
    /// The short soak of `make test`: a few hundred writes, every fault kind once.
    Short {
        /// Where the run's data goes (emptied first).
        #[arg(long, default_value = "target/outbox-soak/short")]
        dir: PathBuf,
        /// The workload's seed.
        #[arg(long, default_value_t = 7)]
        seed: u64,
        /// Stop after this many seconds whatever happens (default 100).
        #[arg(long)]
        deadline: Option<u64>,
    },
    /// The server role (started by the driver).
    Server {
        /// The SQLite file.
        #[arg(long)]
        db: PathBuf,
        /// Where to listen (a loopback address; port 0 picks one).
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: std::net::SocketAddr,
    },
    /// The till role (started by the driver).
    Till(till::TillArgs),
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    match args.role {
        Role::Full {
            dir,
            seed,
            deadline,
        } => {
            let plan = driver::Plan::full(dir, seed).with_deadline(deadline);
            let code = runtime.block_on(driver::run(plan))?;
            std::process::exit(code);
        }
        Role::Short {
            dir,
            seed,
            deadline,
        } => {
            let plan = driver::Plan::short(dir, seed).with_deadline(deadline);
            let code = runtime.block_on(driver::run(plan))?;
            std::process::exit(code);
        }
        Role::Server { db, listen } => runtime.block_on(server::run(db, listen)),
        Role::Till(args) => runtime.block_on(till::run(args)),
    }
}
