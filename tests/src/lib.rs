//! End-to-end harness: the built app in its real window, driven through WebDriver.
//!
//! Each test calls [`App::launch`], which starts `tauri-driver` (and through it
//! WebKitWebDriver and the app) with a fresh home folder, so tests never share data.
//! [`App::finish`] ends the session; on failure it first saves a screenshot and the page
//! source under `target/e2e-artifacts/<test>/`.
//!
//! The tests expect to run under a display (Xvfb) inside a D-Bus session; `make e2e`
//! arranges both. Environment:
//! - `LOYALTY_COUNTER_APP`: the app binary (default `target/debug/loyalty-counter`);
//! - `E2E_SHOTS_DIR`: when set, [`App::shot`] saves a screenshot of each screen there.
//!
//! # Layers
//!
//! Each module uses only its own layer or lower ones (`crates/layers` checks it in
//! `make lint`). Bottom to top:
//!
//! 0. `till_files`: what the tests' tills left on the disk, checked after the suite
//!    (it reads them with the harness's keys, [`till_keys`]).

pub mod till_files;

use std::future::Future;
use std::net::TcpStream;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use thirtyfour::prelude::*;

/// The owner's PIN on the tests' tills (the manager's PIN the tests type).
pub const OWNER_PIN: &str = "2468";

/// The cashier on the tests' tills, who signs in at each start.
pub const CASHIER: &str = "Sam";

/// Her place on the roster (the owner is the first).
pub const CASHIER_ID: i64 = 2;

/// Her PIN.
pub const CASHIER_PIN: &str = "1357";

/// The page's side of [`App::cashier_signs_in_if_locked`]: waits for the first screen
/// (40 s at most); at the lock screen, presses the person's name, the PIN's keys and
/// OK, as a finger would, and waits for the lock screen to go.
const SIGN_IN_AT_START: &str = r#"
const [id, pin, done] = arguments;
const deadline = Date.now() + 40000;
const first = ['lock-screen', 'scan', 'kiosk', 'api-key', 'trouble-title', 'business-name'];
const byId = (name) => document.getElementById(name);
const until = (check, then) => {
  const tick = () => {
    const found = check();
    if (found) return then(found);
    if (Date.now() > deadline) return done('nothing came in 40 s');
    setTimeout(tick, 20);
  };
  tick();
};
until(() => first.find(byId), (found) => {
  if (found !== 'lock-screen') return done('open');
  if (byId('lock-first-pin') || byId('pin-pad')) return done('first start');
  until(() => byId(`lock-person-${id}`), (person) => {
    person.click();
    until(() => byId('pin-pad')?.dataset.stage, () => {
      for (const digit of pin) byId(`pin-key-${digit}`).click();
      setTimeout(() => {
        byId('pin-ok').click();
        until(() => !byId('lock-screen'), () => done('signed in'));
      }, 0);
    });
  });
});
"#;

/// The fixed ports of tauri-driver: end-to-end tests therefore run one at a time.
const DRIVER_PORT: u16 = 4444;
const NATIVE_PORT: u16 = 4445;

/// The workspace root, where `target/` lives.
pub fn workspace_root() -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    tests.parent().unwrap_or(tests).to_path_buf()
}

/// A running app under WebDriver, with its own home folder.
#[derive(Debug)]
pub struct App {
    /// The WebDriver session on the app's window.
    pub driver: WebDriver,
    name: String,
    application: PathBuf,
    home: PathBuf,
    driver_process: Child,
}

impl App {
    /// Starts the app for the test `name` and waits for its window's page to load.
    pub async fn launch(name: &str) -> Result<Self> {
        Self::launch_with(name, &[]).await
    }

    /// Starts the app with command-line arguments (such as `--demo`), its tills'
    /// rosters made ([`App::fresh_home`]), and signs the cashier in at the lock screen.
    pub async fn launch_with(name: &str, args: &[&str]) -> Result<Self> {
        Self::fresh_home(name)?;
        Self::relaunch(name, args).await
    }

    /// Starts the app in an empty home folder: no till, no one on a roster.
    pub async fn launch_bare(name: &str, args: &[&str]) -> Result<Self> {
        Self::empty_home(name)?;
        Self::relaunch_locked(name, args).await
    }

    /// A home folder for the test `name` (what [`App::launch`] starts in), to prepare
    /// before [`App::relaunch`]; answers its path. Its till and its demo's till have the
    /// tests' roster: the owner ([`OWNER_PIN`]) and a cashier, [`CASHIER`]; and a shift
    /// open, the owner's.
    pub fn fresh_home(name: &str) -> Result<PathBuf> {
        let home = Self::empty_home(name)?;
        Self::fresh_home_in(&home)?;
        Ok(home)
    }

    /// [`App::fresh_home`] in the home folder `home` (the app's data folder made in it).
    pub fn fresh_home_in(home: &Path) -> Result<()> {
        let data = data_dir_in(home);
        // As the app makes its folders: its user's alone.
        for folder in [data.clone(), data.join("demo")] {
            counter_core::private::dir(&folder)?;
        }
        for till in [data.join("till"), data.join("demo/till")] {
            counter_core::private::dir(&till)?;
            let db = open_till_db(&till)?;
            let now = jiff::Timestamp::now();
            counter_core::pin::set(&db, OWNER_PIN, now)?;
            counter_core::people::add(
                &db,
                CASHIER,
                counter_core::roles::Role::Cashier,
                CASHIER_PIN,
                now,
            )?;
            // The day's shift is open, as in a shop at work: no offer of one at sign-in.
            counter_core::shifts::open(&db, counter_core::ids::PersonId(1), now)?;
        }
        Ok(())
    }

    /// An empty home folder for the test `name`.
    pub fn empty_home(name: &str) -> Result<PathBuf> {
        let home = home_of(name);
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home)?;
        Ok(home)
    }

    /// Starts the app again in the home folder of the test `name` as an earlier launch
    /// left it (end that one with [`App::finish`] first): a restart of the till. At the
    /// lock screen, the cashier signs in, as a shop's day begins.
    pub async fn relaunch(name: &str, args: &[&str]) -> Result<Self> {
        let app = Self::relaunch_locked(name, args).await?;
        app.signed_in_at_start().await
    }

    /// [`App::launch_with`] of the app binary `application` (a copy of it, as a package
    /// installs it, for a test to replace under it).
    pub async fn launch_from(name: &str, application: &Path, args: &[&str]) -> Result<Self> {
        let app = Self::relaunch_locked_from(name, application.to_path_buf(), args).await?;
        app.signed_in_at_start().await
    }

    async fn signed_in_at_start(self) -> Result<Self> {
        let app = self;
        match app.cashier_signs_in_if_locked().await {
            Ok(()) => Ok(app),
            Err(error) => {
                let error = error.context("the cashier could not sign in at the start");
                Err(app.finish(Err(error)).await.unwrap_err())
            }
        }
    }

    /// Waits for the window's first screen; at the lock screen, [`CASHIER`] taps her
    /// name and types her PIN, and the lock screen goes. Done in the page, in one
    /// script: each launch of every test passes here.
    pub async fn cashier_signs_in_if_locked(&self) -> Result<()> {
        self.driver
            .set_script_timeout(Duration::from_secs(60))
            .await?;
        let said: String = self
            .driver
            .execute_async(
                SIGN_IN_AT_START,
                vec![
                    serde_json::json!(CASHIER_ID),
                    serde_json::json!(CASHIER_PIN),
                ],
            )
            .await?
            .convert()?;
        match said.as_str() {
            "open" | "signed in" => Ok(()),
            // A till whose data was wiped (the demo reset): its owner's PIN first.
            "first start" => self.owner_chooses_the_first_pin().await,
            other => bail!("at the start: {other}"),
        }
    }

    /// At the lock screen, the person `id` taps their name and types `pin`; waits for
    /// the lock screen to go.
    pub async fn sign_in(&self, id: i64, pin: &str) -> Result<()> {
        self.press(&format!("lock-person-{id}")).await?;
        self.type_pin(pin).await?;
        self.unlocked().await
    }

    /// Presses the button `id` once it shows, as the page's own click does (whatever
    /// the zoom the last run left: WebDriver's pointer misses at 200 %).
    async fn press(&self, id: &str) -> Result<()> {
        self.within(id).await?;
        self.driver
            .execute(
                "document.getElementById(arguments[0]).click()",
                vec![serde_json::json!(id)],
            )
            .await?;
        Ok(())
    }

    /// On a till with no one on its roster, the owner chooses [`OWNER_PIN`] (typed
    /// twice) and is signed in.
    pub async fn owner_chooses_the_first_pin(&self) -> Result<()> {
        // The pad opens by itself; once cancelled, the screen's button opens it again.
        if self.driver.find(By::Id("pin-pad")).await.is_err() {
            self.press("lock-first-pin").await?;
        }
        for _ in 0..2 {
            self.type_pin(OWNER_PIN).await?;
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        self.unlocked().await
    }

    /// The element `id`, once it shows (within 10 s).
    async fn within(&self, id: &str) -> Result<WebElement> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.driver.find(By::Id(id)).await {
                Ok(found) => return Ok(found),
                Err(error) if Instant::now() > deadline => {
                    return Err(anyhow::Error::from(error).context(format!("#{id} never showed")));
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// Types `pin` on the pad that shows, and presses OK.
    async fn type_pin(&self, pin: &str) -> Result<()> {
        self.within("pin-pad").await?;
        for digit in pin.chars() {
            self.press(&format!("pin-key-{digit}")).await?;
        }
        self.press("pin-ok").await?;
        Ok(())
    }

    async fn unlocked(&self) -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.driver.find(By::Id("lock-screen")).await.is_ok() {
            ensure!(Instant::now() < deadline, "still locked after signing in");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(())
    }

    /// [`App::relaunch`], left at whatever screen the app opens on (the lock screen).
    pub async fn relaunch_locked(name: &str, args: &[&str]) -> Result<Self> {
        Self::relaunch_locked_from(name, Self::built(), args).await
    }

    /// The app binary the tests start: `LOYALTY_COUNTER_APP`, else the debug build.
    pub fn built() -> PathBuf {
        std::env::var_os("LOYALTY_COUNTER_APP")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace_root().join("target/debug/loyalty-counter"))
    }

    async fn relaunch_locked_from(name: &str, application: PathBuf, args: &[&str]) -> Result<Self> {
        let application = application.canonicalize().with_context(|| {
            format!(
                "the app binary {} is missing: run `make app` first",
                application.display()
            )
        })?;

        let home = home_of(name);
        std::fs::create_dir_all(&home)?;

        let mut driver_command = Command::new("tauri-driver");
        driver_command.args([
            "--port",
            &DRIVER_PORT.to_string(),
            "--native-port",
            &NATIVE_PORT.to_string(),
        ]);
        // Its own process group, so that ending it also ends the WebKitWebDriver it starts
        // (which would otherwise keep the native port and serve the next test).
        driver_command.process_group(0);
        wait_for_port_free(NATIVE_PORT, Duration::from_secs(10))?;
        let driver_process = with_app_environment(&mut driver_command, &home)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .context("tauri-driver did not start: is it installed (`make test` installs it)?")?;
        let mut app = DriverGuard(Some(driver_process));
        wait_for_port(DRIVER_PORT, Duration::from_secs(20))?;

        let mut capabilities = Capabilities::new();
        capabilities.set("browserName", "wry")?;
        capabilities.set(
            "tauri:options",
            serde_json::json!({ "application": application.display().to_string(), "args": args }),
        )?;
        // A cold first session fails once in a while: one retry.
        let driver = match WebDriver::new(driver_url(), capabilities.clone()).await {
            Ok(driver) => driver,
            Err(first) => {
                eprintln!("first WebDriver session failed ({first}); retrying once");
                tokio::time::sleep(Duration::from_secs(2)).await;
                WebDriver::new(driver_url(), capabilities)
                    .await
                    .context("no WebDriver session")?
            }
        };
        Ok(Self {
            driver,
            name: name.to_owned(),
            application,
            home,
            driver_process: app.0.take().context("driver process")?,
        })
    }

    /// Starts a second copy of the app, as a person double-clicking it again would, and
    /// waits for it to end (it should hand over to the running copy and exit).
    pub fn launch_second_copy(&self, timeout: Duration) -> Result<std::process::ExitStatus> {
        let mut command = Command::new(&self.application);
        let mut child = with_app_environment(&mut command, &self.home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Some(status) = child.try_wait()? {
                return Ok(status);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = child.kill();
        let _ = child.wait();
        bail!("the second copy was still running after {timeout:?}")
    }

    /// The test's home folder: everything the app writes (data, logs, settings) is in it.
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// The app's data folder (`$XDG_DATA_HOME/<identifier>`).
    pub fn data_dir(&self) -> PathBuf {
        data_dir_in(&self.home)
    }

    /// Runs `steps` on the app; saves artifacts if they fail; ends the session.
    pub async fn run<F, Fut>(name: &str, steps: F) -> Result<()>
    where
        F: FnOnce(WebDriver) -> Fut,
        Fut: Future<Output = Result<()>>,
    {
        Self::run_with(name, &[], steps).await
    }

    /// [`App::run`] with command-line arguments.
    pub async fn run_with<F, Fut>(name: &str, args: &[&str], steps: F) -> Result<()>
    where
        F: FnOnce(WebDriver) -> Fut,
        Fut: Future<Output = Result<()>>,
    {
        let app = Self::launch_with(name, args).await?;
        let outcome = steps(app.driver.clone()).await;
        app.finish(outcome).await
    }

    /// Kills the app and its WebDriver at once (SIGKILL to their process group), as a
    /// power cut or `kill -9` would: nothing of the app runs after it.
    pub fn kill(mut self) {
        let group = format!("-{}", self.driver_process.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.driver_process.wait();
        // Its session died with it: nothing to end (ending it would wait on no one).
        let _ = self.driver.leak();
    }

    /// Ends the session; on failure saves a screenshot and the page source first.
    pub async fn finish(mut self, outcome: Result<()>) -> Result<()> {
        if outcome.is_err() {
            let dir = workspace_root()
                .join("target/e2e-artifacts")
                .join(&self.name);
            std::fs::create_dir_all(&dir)?;
            let _ = capture_screen(&dir.join("screenshot.png"));
            if let Ok(source) = self.driver.source().await {
                let _ = std::fs::write(dir.join("page.html"), source);
            }
            eprintln!("e2e artifacts saved in {}", dir.display());
        }
        let _ = self.driver.clone().quit().await;
        end_process_group(&mut self.driver_process);
        outcome
    }
}

/// The home folder of the test `name`.
fn home_of(name: &str) -> PathBuf {
    workspace_root().join("target/e2e-home").join(name)
}

/// The app's data folder in the home folder `home`.
pub fn data_dir_in(home: &Path) -> PathBuf {
    home.join("data/app.loyaltycounter.desktop")
}

/// Where the app keeps the keys of the till in the folder `till`: the demo's till its
/// own, in its folder (or sealed there); a shop's till the keychain's, else sealed.
pub fn till_keys(till: &Path) -> counter_core::secrets::KeyStore {
    use counter_core::secrets::{KeyStore, SecretsConfig};
    let config = if till.ends_with("demo/till") {
        SecretsConfig::FileOnly
    } else {
        SecretsConfig::default()
    };
    KeyStore::new(config, till)
}

/// The database of the till in the folder `till`, opened with its key as the app does.
pub fn open_till_db(till: &Path) -> Result<rusqlite::Connection> {
    Ok(counter_core::db::open_till(
        &till_keys(till),
        &till.join("till.db"),
    )?)
}

/// Saves a screenshot of the current screen as `<E2E_SHOTS_DIR>/<screen>.png`, when
/// screenshots are asked for (`make e2e-shots`).
pub async fn shot(driver: &WebDriver, screen: &str) -> Result<()> {
    shot_of(driver, screen, "^Loyalty Counter$").await
}

/// [`shot`] of the window whose title matches `title` (a regular expression).
pub async fn shot_of(driver: &WebDriver, screen: &str, title: &str) -> Result<()> {
    if let Some(dir) = std::env::var_os("E2E_SHOTS_DIR") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir)?;
        // Lets the page finish painting what the test just waited for.
        tokio::time::sleep(Duration::from_millis(300)).await;
        capture_window(&dir.join(format!("{screen}.png")), title)?;
    }
    let _ = driver;
    Ok(())
}

/// Saves what the X display shows of the app's window (the real pixels) as a PNG, with
/// ImageMagick; the whole screen when the window cannot be found.
pub fn capture_screen(path: &Path) -> Result<()> {
    capture_window(path, "^Loyalty Counter$")
}

/// [`capture_screen`] of the window whose title matches `title`.
pub fn capture_window(path: &Path, title: &str) -> Result<()> {
    let window = Command::new("xdotool")
        .args(["search", "--onlyvisible", "--name", title])
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|ids| ids.lines().next().map(str::to_owned))
        .unwrap_or_else(|| "root".to_owned());
    // Another of the app's windows may cover it (the counter covers the customer's).
    if window != "root" {
        let _ = Command::new("xdotool")
            .args(["windowraise", &window])
            .status();
        std::thread::sleep(Duration::from_millis(200));
    }
    let status = Command::new("import")
        .args(["-window", &window])
        .arg(path)
        .status()
        .context("ImageMagick's `import` is missing (`make test` installs it)")?;
    ensure!(status.success(), "`import` failed with {status}");
    Ok(())
}

/// Waits until the element found by `by` has a non-empty text and returns that text.
pub async fn text_of(driver: &WebDriver, by: By, timeout: Duration) -> Result<String> {
    let deadline = Instant::now() + timeout;
    let mut last_error = None;
    while Instant::now() < deadline {
        match driver.find(by.clone()).await {
            Ok(element) => match element.text().await {
                Ok(text) if !text.trim().is_empty() => return Ok(text),
                Ok(_) => {}
                Err(e) => last_error = Some(e),
            },
            Err(e) => last_error = Some(e),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bail!("{by:?} had no text after {timeout:?} (last error: {last_error:?})")
}

/// The environment the app runs in: its own home and data folders, and WebKit settings
/// that suit Xvfb.
pub fn with_app_environment<'c>(command: &'c mut Command, home: &Path) -> &'c mut Command {
    command
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("NO_AT_BRIDGE", "1")
        // Without GL under Xvfb, composited pages snapshot blank and WebDriver
        // screenshots hang: draw without compositing and capture the X screen instead.
        .env("WEBKIT_DISABLE_COMPOSITING_MODE", "1")
}

fn driver_url() -> String {
    format!("http://127.0.0.1:{DRIVER_PORT}")
}

/// Ends a process started as the leader of its own group, and everything in the group:
/// TERM, then KILL whatever is left after five seconds.
pub fn end_process_group(leader: &mut Child) {
    let group = format!("-{}", leader.id());
    let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = leader.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
    let _ = leader.wait();
}

fn wait_for_port_free(port: u16, timeout: Duration) -> Result<()> {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_err() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!("port {port} is still taken after {timeout:?}: is another WebDriver running?")
}

fn wait_for_port(port: u16, timeout: Duration) -> Result<()> {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!("tauri-driver did not listen on port {port} within {timeout:?}")
}

/// Kills tauri-driver if launching fails half-way.
struct DriverGuard(Option<Child>);

impl Drop for DriverGuard {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            end_process_group(&mut child);
        }
    }
}
