//! The `loyalty-sandbox` binary: command line, logging, and a clean stop.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use loyalty_sandbox::{Config, Sandbox};
use tracing_subscriber::{layer::SubscriberExt as _, util::SubscriberInitExt as _};

/// The local server of the Loyalty Card and Gift Card Business API.
#[derive(Debug, Parser)]
#[command(name = "loyalty-sandbox", version, about)]
struct Args {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8787")]
    listen: SocketAddr,
    /// SQLite file; without it the data lives in memory.
    #[arg(long)]
    db: Option<PathBuf>,
    /// Create the business "Demo Coffee" and print a test key and a live key.
    #[arg(long)]
    demo: bool,
    /// Turn on the /_sandbox control routes.
    #[arg(long)]
    control: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    // RUST_LOG's "target=level" lists (the default: info).
    let levels: tracing_subscriber::filter::Targets = std::env::var("RUST_LOG")
        .ok()
        .and_then(|set| set.parse().ok())
        .unwrap_or_else(|| "info".parse().expect("a level parses"));
    tracing_subscriber::registry()
        .with(levels)
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .init();

    let sandbox = Sandbox::open(Config {
        db: args.db.clone(),
        control: args.control,
        demo: args.demo,
    })
    .context("opening the sandbox")?;
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    let addr = listener.local_addr().context("reading the bound address")?;
    let stop = stop_signal()?;

    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{addr}")?;
        if let Some(keys) = sandbox.demo_keys() {
            writeln!(out, "test key: {}", keys.test_key)?;
            writeln!(out, "live key: {}", keys.live_key)?;
        }
        out.flush()?;
    }
    tracing::info!(%addr, db = ?args.db, control = args.control, "serving");

    let worker = loyalty_sandbox::worker::spawn(sandbox.state().clone());
    loyalty_sandbox::serve_until(listener, sandbox.router(), stop)
        .await
        .context("serving")?;
    worker.abort();
    tracing::info!("stopped");
    Ok(())
}

/// Installs the Ctrl-C and SIGTERM handlers now (before the first line is printed,
/// so a signal sent as soon as the address is known still stops the server cleanly)
/// and returns a future that completes on either.
fn stop_signal() -> anyhow::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).context("installing the SIGTERM handler")?;
        let mut int = signal(SignalKind::interrupt()).context("installing the Ctrl-C handler")?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {},
                _ = int.recv() => {},
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
