//! The server and the till as child processes: started, killed with SIGKILL, told
//! what to do on standard input.

use std::fs::File;
use std::io::Write as _;
use std::process::Stdio;
use std::sync::atomic::Ordering;
use std::time::Duration;

use anyhow::{Context, bail};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};

use super::*;

/// The server child.
pub(super) struct ServerChild {
    child: Child,
    /// Kept open: the server stops when it closes.
    _stdin: ChildStdin,
}

/// The till child; its standard input carries the key and the clock.
pub(super) struct TillChild {
    pub(super) child: Child,
    stdin: ChildStdin,
}

impl Run {
    pub(super) async fn start_server(&mut self) -> anyhow::Result<()> {
        let stderr = append(&dir_of(&self.plan, "logs/server.stderr"))?;
        let listen = format!("127.0.0.1:{}", self.port);
        let mut last_err = None;
        for _ in 0..20 {
            let mut child = Command::new(&self.exe)
                .arg("server")
                .arg("--db")
                .arg(dir_of(&self.plan, "server/server.db"))
                .arg("--listen")
                .arg(&listen)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::from(stderr.try_clone()?))
                .kill_on_drop(true)
                .spawn()
                .context("starting the server")?;
            let stdout = child.stdout.take().context("server stdout")?;
            let stdin = child.stdin.take().context("server stdin")?;
            let mut lines = BufReader::new(stdout).lines();
            match tokio::time::timeout(Duration::from_secs(20), lines.next_line()).await {
                Ok(Ok(Some(line))) => {
                    let addr = line
                        .strip_prefix("listening on http://")
                        .context("the server's first line")?;
                    let port: u16 = addr.rsplit(':').next().unwrap_or("0").parse()?;
                    self.port = port;
                    self.server = Some(ServerChild {
                        child,
                        _stdin: stdin,
                    });
                    return Ok(());
                }
                other => {
                    // The port may not be free again yet.
                    last_err = Some(format!("{other:?}"));
                    let _ = child.kill().await;
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
            }
        }
        bail!("the server did not start: {last_err:?}")
    }

    pub(super) async fn kill_server(&mut self) -> anyhow::Result<()> {
        if let Some(mut server) = self.server.take() {
            server.child.kill().await?;
        }
        Ok(())
    }

    pub(super) async fn start_till(&mut self) -> anyhow::Result<()> {
        self.till_starts += 1;
        let n = self.till_starts;
        let stderr = File::create(dir_of(&self.plan, &format!("logs/till-{n}.stderr")))?;
        let mut child = Command::new(&self.exe)
            .arg("till")
            .arg("--dir")
            .arg(dir_of(&self.plan, "till"))
            .arg("--workload")
            .arg(dir_of(&self.plan, "workload.json"))
            .arg("--target")
            .arg(self.plan.target_writes.to_string())
            .arg(format!("--clock-offset={}", self.clock_offset))
            .arg(format!("--pace-ms={}", self.plan.pace_ms))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr))
            .kill_on_drop(true)
            .spawn()
            .context("starting the till")?;
        let stdout = child.stdout.take().context("till stdout")?;
        let mut stdin = child.stdin.take().context("till stdin")?;
        // The key goes through the pipe, never an argument, a file or a log.
        stdin
            .write_all(format!("connect {} {}\n", self.root(), self.key()).as_bytes())
            .await?;
        let mut out = File::create(dir_of(&self.plan, &format!("logs/till-{n}.stdout")))?;
        let seen = self.seen.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stdout).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let _ = writeln!(out, "{line}");
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("step") => {
                        if let (Some(step), Some("item"), Some(item), Some(outcome)) =
                            (words.next(), words.next(), words.next(), words.next())
                            && let (Ok(step), Ok(item)) = (step.parse(), item.parse())
                        {
                            seen.items.store(item, Ordering::Relaxed);
                            seen.step.store(step, Ordering::Relaxed);
                            match outcome {
                                "queued" => &seen.left_queued,
                                "recorded" | "paid" | "done" => &seen.answered,
                                _ => continue,
                            }
                            .fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    Some("status") => {
                        if let Some(q) = words
                            .next()
                            .and_then(|w| w.strip_prefix("queued="))
                            .and_then(|q| q.parse().ok())
                        {
                            seen.queued.store(q, Ordering::Relaxed);
                        }
                    }
                    Some("workload") => seen.done.store(true, Ordering::Relaxed),
                    _ => {}
                }
            }
        });
        self.till = Some(TillChild { child, stdin });
        Ok(())
    }

    pub(super) async fn kill_till(&mut self) -> anyhow::Result<()> {
        if let Some(mut till) = self.till.take() {
            till.child.kill().await?;
            self.kills += 1;
        }
        Ok(())
    }

    pub(super) async fn tell_till(&mut self, line: String) {
        if let Some(till) = &mut self.till {
            // A till being restarted gets the current key and clock when it starts.
            let _ = till.stdin.write_all(format!("{line}\n").as_bytes()).await;
        }
    }
}
