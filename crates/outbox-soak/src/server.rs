//! The server role: the project's own `loyalty-sandbox` on a database file, with the
//! control routes, so the driver can SIGKILL it and start it again on its data.

use std::io::Write as _;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use tokio::io::AsyncReadExt;

pub async fn run(db: PathBuf, listen: SocketAddr) -> anyhow::Result<()> {
    anyhow::ensure!(listen.ip().is_loopback(), "the soak stays on loopback");
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(tracing_subscriber::EnvFilter::new("info"))
        .init();
    let sandbox = loyalty_sandbox::Sandbox::open(loyalty_sandbox::Config {
        db: Some(db),
        control: true,
        demo: false,
    })
    .context("opening the sandbox")?;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("listening on {listen}"))?;
    let addr = listener.local_addr()?;
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{addr}")?;
        out.flush()?;
    }
    let worker = loyalty_sandbox::worker::spawn(sandbox.state().clone());
    // Stops when the driver closes our standard input (or dies).
    let stdin_closed = async {
        let mut stdin = tokio::io::stdin();
        let mut buf = [0u8; 64];
        while matches!(stdin.read(&mut buf).await, Ok(n) if n > 0) {}
    };
    loyalty_sandbox::serve_until(listener, sandbox.router(), stdin_closed)
        .await
        .context("serving")?;
    worker.abort();
    Ok(())
}
