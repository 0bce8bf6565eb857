//! The command line: `play` (the default) opens the table; `roll`, `replay`, `odds`,
//! `session`, `fairness`, `bench` and `history` work without a window.

mod bench;
mod demo;
mod fairness;
mod history;
mod odds;
mod online;
mod package_files;
mod replay;
mod roll;
mod session;
mod settle;

#[cfg(feature = "window")]
use std::path::PathBuf;
use std::process::ExitCode;

#[cfg(feature = "window")]
use bevy::prelude::*;
use clap::{Parser, Subcommand};

#[cfg(feature = "window")]
use crate::AppPlugin;
use crate::rules::RulesetId;
#[cfg(feature = "window")]
use crate::window::PlayOptions;

/// dicetable: physically simulated dice on a virtual table, five action systems and system
/// files of your own, exact odds.
#[derive(Parser, Debug)]
#[command(name = "dicetable", version, about, long_about = None)]
pub struct Cli {
    /// What to do (default: play).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the table window.
    #[cfg(feature = "window")]
    Play(PlayArgs),
    /// Throw dice physically, headless, and print the faces.
    Roll(roll::RollArgs),
    /// Throw a roll record or replay code again and check every face and final pose.
    Replay(replay::ReplayArgs),
    /// Exact odds of a notation, or of a ruleset's action.
    Odds(odds::OddsArgs),
    /// Throw one kind of die many times and test it for fairness.
    Fairness(fairness::FairnessArgs),
    /// Measure the exact-odds engine and the headless physics.
    Bench(bench::BenchArgs),
    /// Play a script of moves at a scene's table, headless, and print each step.
    Session(session::SessionArgs),
    /// The guided demo of a system: in the window, or checked headless (--check).
    Demo(demo::DemoArgs),
    /// Run a table server: rooms that groups join over the network.
    Serve(Box<online::ServeArgs>),
    /// Check a room's log offline: every seed, face, outcome and table state.
    Verify(online::VerifyArgs),
    /// Load a table server on this machine with rooms of headless clients, and measure it.
    Loadtest(online::LoadtestArgs),
    /// The lasting history: sessions, their rolls, exports (--json, --csv), luck (--luck).
    History(history::HistoryArgs),
    /// Write the manual pages and shell completions (for the packages).
    #[command(hide = true)]
    PackageFiles(package_files::PackageFilesArgs),
}

/// Where the table serves its overlay and API unless told otherwise.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:7470";

/// Window options shared by `play` and `demo`.
#[cfg(feature = "window")]
#[derive(clap::Args, Debug, Default)]
pub struct WindowArgs {
    /// Save a PNG of the window (with --exit-after-frames).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Exit after this many frames (after saving the screenshot, if any).
    #[arg(long)]
    pub exit_after_frames: Option<u32>,
    /// Window width.
    #[arg(long, default_value_t = 1280)]
    pub width: u32,
    /// Window height.
    #[arg(long, default_value_t = 800)]
    pub height: u32,
    /// No dice sounds (also implied by --exit-after-frames, for headless checks).
    #[arg(long)]
    pub mute: bool,
    /// Print the mean frame time with dice in the air and at rest when the app exits.
    #[arg(long)]
    pub frame_times: bool,
    /// Frame settled dice in close-up (the View menu's "Close-up").
    #[arg(long)]
    pub closeup: bool,
    /// Print where the overlays' controls are whenever they move (`ui <name> x y w h`), for
    /// driving the window with xdotool.
    #[arg(long)]
    pub print_ui: bool,
    /// Serve the overlay page (/overlay), the feed (/feed) and the roll API (/api/...) here.
    /// Port 0 picks a free port (printed).
    #[arg(long, default_value = DEFAULT_LISTEN, value_name = "ADDR")]
    pub listen: Option<std::net::SocketAddr>,
    /// No server.
    #[arg(long)]
    pub no_listen: bool,
    /// The token every request must carry (`Authorization: Bearer TOKEN` or `?token=TOKEN`);
    /// required when --listen is not a loopback address.
    #[arg(long)]
    pub token: Option<String>,
    /// Serve the overlay, the feed and the API over TLS (https, wss) with this certificate
    /// chain, PEM; read again when it changes.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's private key, PEM.
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// With --token, a name the overlay's server is reached by (repeat for several; its
    /// addresses and `localhost` always work): a request naming any other host is refused.
    #[arg(long = "host", value_name = "NAME", requires = "token")]
    pub hosts: Vec<String>,
    /// Who may frame the overlay (Content-Security-Policy `frame-ancestors`): `'self'`,
    /// `'none'`, or sites such as `https://example.org` that embed it. OBS shows it as a page,
    /// not a frame, and needs nothing here.
    #[arg(long, value_name = "SOURCES", default_value = crate::net::headers::FRAME_ANCESTORS, value_parser = online::frame_ancestors)]
    pub frame_ancestors: crate::net::headers::Policy,
    /// Stream mode: no panels, no table; the dice over a chroma-key colour and the outcome in
    /// a large banner.
    #[arg(long)]
    pub stream: bool,
    /// The chroma-key colour of stream mode: green, magenta, blue or #rrggbb.
    #[arg(long, default_value = "green", value_parser = crate::window::parse_chroma)]
    pub chroma: [u8; 3],
    /// The folder of the lasting history (history.sqlite); default: $DICETABLE_DATA_DIR, else
    /// the user's data directory (~/.local/share/dicetable).
    #[arg(long, value_name = "DIR")]
    pub history_dir: Option<PathBuf>,
    /// Keep this session's rolls in memory only.
    #[arg(long, conflicts_with = "history_dir")]
    pub no_history: bool,
    /// The window's own dice for this run: body colour, numeral colour, a material (plastic,
    /// translucent, metal, stone or wood), then, in any order, `pips` for pips on the d6 and a
    /// typeface for the numerals (sans, serif or mono): `#1e40aa,#ffffff,stone,pips,serif`.
    /// Without it, the dice chosen in the window last (kept in the data folder).
    #[arg(long, value_name = "BODY,INK[,MATERIAL[,pips][,TYPEFACE]]", value_parser = parse_dice)]
    pub dice: Option<crate::dice::style::DiceLook>,
}

/// A look as `--dice` (and `bench --atlases --look`) writes it:
/// `#rrggbb,#rrggbb[,material[,pips][,typeface]]`.
pub(crate) fn parse_dice(text: &str) -> Result<crate::dice::style::DiceLook, String> {
    use crate::dice::style::{DiceLook, Material, Rgb, Typeface};
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let colour =
        |t: &str| Rgb::parse(t).ok_or_else(|| format!("'{t}' is not a colour: write #rrggbb"));
    let [body, ink, rest @ ..] = parts.as_slice() else {
        return Err(format!(
            "'{text}': write BODY,INK[,MATERIAL[,pips][,TYPEFACE]] (#1e40aa,#ffffff,stone,pips,serif)"
        ));
    };
    let mut look = DiceLook {
        body: colour(body)?,
        ink: colour(ink)?,
        material: Material::Plastic,
        pips: false,
        typeface: Typeface::Sans,
    };
    if let Some((material, extras)) = rest.split_first() {
        look.material = Material::named(material).ok_or_else(|| {
            format!("'{material}' is no material: plastic, translucent, metal, stone or wood")
        })?;
        if extras.len() > 2 {
            return Err(format!(
                "'{text}': after the material, at most 'pips' and a typeface"
            ));
        }
        let mut face_given = false;
        for extra in extras {
            match (*extra, Typeface::named(extra)) {
                ("pips", _) if !look.pips => look.pips = true,
                (_, Some(face)) if !face_given => {
                    look.typeface = face;
                    face_given = true;
                }
                _ => {
                    return Err(format!(
                        "'{extra}': after the material come 'pips' and a typeface (sans, serif or mono), once each"
                    ));
                }
            }
        }
    }
    Ok(look)
}

#[cfg(feature = "window")]
impl WindowArgs {
    /// The app's options with these window settings (nothing thrown at start).
    pub fn options(self, demo: crate::window::DemoOptions) -> PlayOptions {
        PlayOptions {
            screenshot: self.screenshot,
            exit_after_frames: self.exit_after_frames,
            window_size: (self.width.max(320), self.height.max(240)),
            mute: self.mute || self.exit_after_frames.is_some(),
            frame_times: self.frame_times,
            closeup: self.closeup,
            print_ui: self.print_ui,
            listen: self.listen.filter(|_| !self.no_listen),
            token: self.token,
            tls: self
                .tls_cert
                .zip(self.tls_key)
                .map(|(cert, key)| crate::net::tls::TlsFiles { cert, key }),
            headers: self.frame_ancestors,
            hosts: self.hosts,
            stream: self.stream.then_some(self.chroma),
            demo,
            history_dir: match self.no_history {
                true => None,
                false => self.history_dir.or_else(crate::folders::data_dir),
            },
            dice: self.dice,
            ..PlayOptions::default()
        }
    }
}

#[cfg(feature = "window")]
/// Options of `play`.
#[derive(clap::Args, Debug, Default)]
pub struct PlayArgs {
    /// Dice to throw when the table opens (dice notation); Space throws them again.
    #[arg(long)]
    pub roll: Option<String>,
    /// Seed of that throw (default: random; printed with the result).
    #[arg(long)]
    pub seed: Option<u64>,
    /// A scene file to seat at the table (default: the first in scenes/).
    #[arg(long)]
    pub scene: Option<PathBuf>,
    /// Play the scene's default move when the table opens (the active character's first
    /// option, or initiative where the round needs it), seeded with --seed; `--throw 3` plays
    /// three moves in a row, ending a turn when its character cannot act.
    #[arg(long, num_args = 0..=1, default_missing_value = "1", default_value_t = 0)]
    pub throw: u32,
    /// Join a table server's room (ws://HOST:PORT/ROOM, or wss:// for one with TLS): the
    /// room's scene, tracker and throws.
    #[arg(long, value_name = "URL")]
    pub join: Option<String>,
    /// Over wss://, trust this certificate (PEM) beside the system's: a server's own,
    /// self-signed certificate, as its owner gave it.
    #[arg(long, requires = "join", value_name = "FILE")]
    pub trust_cert: Option<PathBuf>,
    /// Your name in the room.
    #[arg(long, requires = "join", default_value = "player")]
    pub name: String,
    /// The room's passcode (the game master's own with --role gamemaster).
    #[arg(long, requires = "join", default_value = "")]
    pub passcode: String,
    /// A character you play (repeat for several).
    #[arg(long = "seat", requires = "join", value_name = "CHARACTER")]
    pub seats: Vec<String>,
    /// gamemaster, player or spectator.
    #[arg(long, requires = "join", default_value = "player", value_parser = parse_role)]
    pub role: crate::online::log::Role,
    /// Window options.
    #[command(flatten)]
    pub window: WindowArgs,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        #[cfg(feature = "window")]
        None => play(PlayArgs {
            window: WindowArgs {
                width: 1280,
                height: 800,
                listen: DEFAULT_LISTEN.parse().ok(),
                ..WindowArgs::default()
            },
            ..PlayArgs::default()
        }),
        #[cfg(not(feature = "window"))]
        None => no_window(),
        #[cfg(feature = "window")]
        Some(Command::Play(args)) => play(args),
        Some(Command::Odds(args)) => odds::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Roll(args)) => roll::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Fairness(args)) => fairness::run(&args),
        Some(Command::Session(args)) => session::run(&args),
        Some(Command::Demo(args)) => demo::run(args),
        Some(Command::Serve(args)) => online::serve(&args),
        Some(Command::Verify(args)) => online::verify(&args),
        Some(Command::Loadtest(args)) => online::loadtest(&args),
        Some(Command::History(args)) => history::run(&args),
        Some(Command::PackageFiles(args)) => package_files::run(&args),
    }
}

#[cfg(feature = "window")]
fn parse_role(text: &str) -> Result<crate::online::log::Role, String> {
    use crate::online::log::Role;
    match text {
        "gamemaster" | "gm" => Ok(Role::Gamemaster),
        "player" => Ok(Role::Player),
        "spectator" => Ok(Role::Spectator),
        _ => Err(format!("'{text}': gamemaster, player or spectator")),
    }
}

#[cfg(feature = "window")]
fn play(args: PlayArgs) -> ExitCode {
    let join = args.join.map(|url| crate::window::JoinOptions {
        url,
        name: args.name,
        passcode: args.passcode,
        role: args.role,
        seats: args.seats,
        trust: args.trust_cert,
        // The window's own dice, once it has read them.
        dice: None,
    });
    if let Some(j) = &join
        && let Err(e) = crate::online::client::room_of(&j.url)
    {
        eprintln!("error: --join: {e}");
        return ExitCode::from(2);
    }
    open_window(PlayOptions {
        roll: args.roll,
        seed: args.seed,
        scene: args.scene,
        throw: args.throw,
        join,
        ..args.window.options(crate::window::DemoOptions::default())
    })
}

/// Opens the table window with these options until it is closed.
#[cfg(feature = "window")]
fn open_window(options: PlayOptions) -> ExitCode {
    if let Some(addr) = options.listen {
        let server = crate::stream::server::ServerOptions {
            addr,
            token: options.token.clone(),
            tls: options.tls.clone(),
            headers: options.headers.clone(),
            hosts: options.hosts.clone(),
        };
        if let Err(e) = server.check() {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    match App::new().add_plugins(AppPlugin { options }).run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// What a build without the window says where the window was asked for.
#[cfg(not(feature = "window"))]
fn no_window() -> ExitCode {
    eprintln!(
        "error: this dicetable was built without its window (cargo build --no-default-features): \
         it runs the headless commands (serve, verify, roll, odds, fairness, replay, session, \
         demo --check, history, bench, loadtest); see dicetable --help"
    );
    ExitCode::from(2)
}

/// Parses a ruleset id for clap.
fn parse_ruleset(s: &str) -> Result<RulesetId, crate::rules::UnknownRuleset> {
    s.parse()
}

#[cfg(test)]
mod tests {
    use super::parse_dice;
    use crate::dice::style::{Material, Typeface};

    /// `--dice`: colours, a material, then pips and a typeface in either order, once each;
    /// anything else is refused with what to write.
    #[test]
    fn a_look_on_the_command_line_is_read_or_refused_with_what_to_write() {
        let read =
            |text: &str| parse_dice(text).map(|l| (l.colours(), l.material, l.pips, l.typeface));
        assert_eq!(
            read("#1e40aa,#ffffff"),
            Ok((
                "#1e40aa with #ffffff numerals".into(),
                Material::Plastic,
                false,
                Typeface::Sans
            ))
        );
        let both = Ok((
            "#6b3e1f with #f0e0c0 mono numerals, pips on the d6".into(),
            Material::Wood,
            true,
            Typeface::Mono,
        ));
        assert_eq!(read("#6b3e1f,#f0e0c0,wood,pips,mono"), both);
        assert_eq!(read("#6b3e1f, #f0e0c0, wood, mono, pips"), both);
        assert_eq!(
            read("#1e40aa,#ffffff,stone,serif").map(|l| l.3),
            Ok(Typeface::Serif)
        );
        for (bad, says) in [
            ("#1e40aa", "write BODY,INK"),
            ("#1e40aa,#fff", "'#fff' is not a colour"),
            ("#1e40aa,#ffffff,jelly", "'jelly' is no material"),
            ("#1e40aa,#ffffff,wood,comic", "'comic': after the material"),
            (
                "#1e40aa,#ffffff,wood,pips,pips",
                "'pips': after the material",
            ),
            (
                "#1e40aa,#ffffff,wood,serif,mono",
                "'mono': after the material",
            ),
            (
                "#1e40aa,#ffffff,wood,sans,serif",
                "'serif': after the material",
            ),
            (
                "#1e40aa,#ffffff,wood,pips,serif,x",
                "at most 'pips' and a typeface",
            ),
        ] {
            let e = parse_dice(bad).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
