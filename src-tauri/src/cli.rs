//! The command line, parsed with clap before anything else starts: `--help` and
//! `--version` print and exit 0 without a window or a display, and an unknown option or
//! a bad value says what is wrong and exits 2, before any window.

use clap::Parser;

/// The app's version: its package's (`LOYALTY_COUNTER_VERSION` at build time, which
/// `make release` sets), else the crate's.
pub const VERSION: &str = env!("LOYALTY_COUNTER_VERSION");

/// The longest a kiosk may wait untouched before it goes home, in seconds.
const LONGEST_KIOSK_IDLE: i64 = 3600;

/// Loyalty Counter: the counter of a shop, café or salon that runs a loyalty-card and
/// gift-card programme.
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(
    name = "loyalty-counter",
    version = VERSION,
    about = "The counter of a shop's loyalty-card and gift-card programme",
    long_about = "Loyalty Counter: cashiers scan loyalty cards and take gift-card \
        payments, managers issue gift cards and send messages, and a tablet can run it as \
        a kiosk where customers check themselves in. Every write is kept on this computer \
        until the service has answered it.\n\n\
        Its data and logs are in ~/.local/share/app.loyaltycounter.desktop/; the API key \
        in the desktop's keychain."
)]
pub struct Cli {
    /// Open the built-in demo business: a local server of the API inside the app, with
    /// sample customers and gift cards. Nothing leaves this computer.
    #[arg(long)]
    pub demo: bool,

    /// Run as a kiosk: full screen, customers check themselves in, and staff leave it
    /// with the manager's PIN (asked first if none is set). It stays a kiosk through
    /// restarts until a manager turns it off.
    #[arg(long)]
    pub kiosk: bool,

    /// Seconds a kiosk waits untouched before it goes back to its home screen (1 to
    /// 3600).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = crate::kiosk::IDLE_SECONDS,
        value_parser = clap::value_parser!(u32).range(1..=LONGEST_KIOSK_IDLE)
    )]
    pub kiosk_idle: u32,

    /// Opens the customer's screen at start, on a monitor other than the counter's, or
    /// as a window beside it when there is one monitor (Settings turns it on for good).
    #[arg(long)]
    pub customer_display: bool,

    /// The camera to scan with: a device (/dev/video0), or a video file or a folder of
    /// images (PNG, JPEG) played in a loop as if it were a camera (for demos and
    /// tests). Without it: the camera chosen in Settings, else the first found.
    #[arg(long, value_name = "SOURCE", value_parser = camera_source)]
    pub camera: Option<counter_camera::Source>,

    /// Puts back the till's data as a snapshot taken before an upgrade held them, and
    /// exits (no window): WHEN is the snapshot's date and time as the app named it
    /// (2026-11-29T09-30-00Z), or its start (2026-11-29) when one alone was taken then.
    /// The data as they are now are kept as a snapshot too. The app must be closed; with
    /// --demo, the demo's till.
    #[arg(long, value_name = "WHEN")]
    pub restore_snapshot: Option<String>,

    /// Something to do without a window.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What the app does without a window.
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum Command {
    /// Checks the till's Z reports: recomputes their chain of hashes and every figure
    /// from the till's own records, says how many agree or names the first that no
    /// longer does, and exits 0 when all agree, 1 otherwise. Opens no window.
    Verify {
        /// The built-in demo's till rather than the shop's.
        #[arg(long)]
        demo: bool,
    },
}

fn camera_source(text: &str) -> Result<counter_camera::Source, String> {
    counter_camera::Source::parse(text).map_err(|err| err.to_string())
}

impl Cli {
    /// The command line, read: `--help`, `--version` and a bad option end the process
    /// here (exit 0, or 2 with what is wrong), and so does `--demo` in a build without
    /// the demo (the `demo` feature off).
    pub fn read() -> Self {
        let cli = Self::parse();
        if cli.demo && !cfg!(feature = "demo") {
            <Self as clap::CommandFactory>::command()
                .error(
                    clap::error::ErrorKind::ArgumentConflict,
                    "this build of the app has no built-in demo (--demo)",
                )
                .exit();
        }
        cli
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn the_parser_is_well_formed_and_reads_every_option() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from([
            "loyalty-counter",
            "--demo",
            "--kiosk",
            "--kiosk-idle=3",
            "--camera=Cargo.toml",
        ])
        .unwrap();
        assert_eq!(
            cli,
            Cli {
                demo: true,
                kiosk: true,
                kiosk_idle: 3,
                customer_display: false,
                camera: Some(counter_camera::Source::File("Cargo.toml".into())),
                restore_snapshot: None,
                command: None,
            }
        );
        let verify = Cli::try_parse_from(["loyalty-counter", "verify", "--demo"]).unwrap();
        assert_eq!(verify.command, Some(Command::Verify { demo: true }));
        let plain = Cli::try_parse_from(["loyalty-counter"]).unwrap();
        assert_eq!(plain.kiosk_idle, crate::kiosk::IDLE_SECONDS);
    }

    #[test]
    fn a_bad_value_or_an_unknown_option_is_an_error_that_says_what() {
        for (args, says) in [
            (&["--kiosk-idle=abc"][..], "invalid value 'abc'"),
            (&["--kiosk-idle=0"][..], "invalid value '0'"),
            (&["--kiosk-idle=3601"][..], "invalid value '3601'"),
            (&["--frobnicate"][..], "unexpected argument '--frobnicate'"),
            (&["--camera=/dev/sda"][..], "not a camera device"),
            (
                &["--camera=/nowhere/clip.webm"][..],
                "no such file, folder or device",
            ),
        ] {
            let error =
                Cli::try_parse_from(std::iter::once("loyalty-counter").chain(args.iter().copied()))
                    .unwrap_err();
            assert_eq!(error.exit_code(), 2, "{args:?}");
            assert!(error.to_string().contains(says), "{args:?}: {error}");
        }
    }
}

/// The man page the `.deb` ships (`packaging/loyalty-counter.1`), written from this parser
/// by the test below whenever the options change; `make test` fails when the committed
/// copy differs, as it does for the TypeScript bindings.
#[cfg(test)]
mod man_page {
    use std::path::Path;

    use clap::CommandFactory;
    use roff::{Roff, bold, roman};

    use super::Cli;

    fn render() -> Vec<u8> {
        let man = clap_mangen::Man::new(Cli::command()).manual("Loyalty Counter");
        let mut page = Vec::new();
        man.render_title(&mut page).unwrap();
        man.render_name_section(&mut page).unwrap();
        man.render_synopsis_section(&mut page).unwrap();
        man.render_description_section(&mut page).unwrap();
        man.render_options_section(&mut page).unwrap();
        man.render_subcommands_section(&mut page).unwrap();
        let mut more = Roff::new();
        more.control("SH", ["EXIT STATUS"])
            .text([
                bold("0"),
                roman(
                    " when the window was closed, after --help or --version, when verify \
                     found every Z report agreeing, or when a snapshot was put back.",
                ),
            ])
            .control("PP", [])
            .text([
                bold("1"),
                roman(
                    " from verify when a Z report no longer agrees with the till's records, \
                       or from --restore-snapshot when no snapshot was put back; either when \
                       the till's data cannot be read.",
                ),
            ])
            .control("PP", [])
            .text([
                bold("2"),
                roman(" for an unknown option or a bad value, before any window opens."),
            ])
            .control("SH", ["FILES"])
            .text([bold("~/.local/share/app.loyaltycounter.desktop/")])
            .control("RS", [])
            .text([roman(
                "The till's database (every write until the service has answered it), its \
                 settings and its daily logs. Removing the package leaves them.",
            )])
            .control("RE", [])
            .control("SH", ["SEE ALSO"])
            .text([roman("https://loyaltycounter.app")]);
        more.to_writer(&mut page).unwrap();
        man.render_version_section(&mut page).unwrap();
        page
    }

    #[test]
    fn the_committed_man_page_is_the_parsers() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../packaging/loyalty-counter.1");
        let page = render();
        if std::fs::read(&path).ok().as_deref() != Some(page.as_slice()) {
            std::fs::write(&path, &page).unwrap();
        }
    }
}
