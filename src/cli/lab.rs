//! `branan match`: the self-play lab (engine A against engine B, the SPRT), and
//! `branan openings`: makes an opening book.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use crate::rules::AnyVariant;
use crate::selfplay::engine::Engine;
use crate::selfplay::per_move::PerMove;
use crate::selfplay::resume::{self, Finished};
use crate::selfplay::stats::{DEFAULT_MIN_PAIRS, Sprt, Verdict};
use crate::selfplay::{self, MatchSpec, book};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Engine A: `self` (this engine, full strength), `level=N` (1..=10), `threads=N`
    /// (full strength, each search on N threads), `random`, `uci:PATH [ARG ...]` (an
    /// engine speaking UCI, started with those arguments, one process a game), or the
    /// path of a branan binary (asked through `analyze`).
    #[arg(long, default_value = "self")]
    pub a: String,
    /// Engine B, as `--a`.
    #[arg(long)]
    pub b: String,
    /// An option for engine A when it speaks UCI, `NAME=VALUE` (sent as `setoption
    /// name NAME value VALUE`); may be repeated.
    #[arg(long = "a-option", value_name = "NAME=VALUE")]
    pub a_options: Vec<String>,
    /// An option for engine B when it speaks UCI, as `--a-option`.
    #[arg(long = "b-option", value_name = "NAME=VALUE")]
    pub b_options: Vec<String>,
    /// Engine A's time per move, in milliseconds, instead of `--time-ms`.
    #[arg(long, conflicts_with = "nodes")]
    pub a_time_ms: Option<u64>,
    /// Engine B's time per move, in milliseconds, instead of `--time-ms`.
    #[arg(long, conflicts_with = "nodes")]
    pub b_time_ms: Option<u64>,
    /// What an engine speaking UCI may take beyond its time per move before it
    /// counts as hung: it is stopped and loses the game.
    #[arg(long, default_value_t = selfplay::UCI_MARGIN.as_millis() as u64)]
    pub margin_ms: u64,
    /// A game this long (in plies, the opening's included) is a draw.
    #[arg(long, default_value_t = selfplay::MAX_PLIES)]
    pub max_plies: usize,
    /// Preset ids, comma-separated, or `all` (pairs cycle through them).
    #[arg(long, default_value_t = AnyVariant::default_preset().id().to_owned())]
    pub variant: String,
    /// Time per move, in milliseconds.
    #[arg(long, conflicts_with = "nodes")]
    pub time_ms: Option<u64>,
    /// Nodes per move (deterministic games for `self` and `level=N`).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// How far each pair's node budget may stray from `--nodes`, as a fraction
    /// (0.1: 90% to 110%, drawn from the seed, the same for both engines of the
    /// pair); 0 keeps it fixed.
    #[arg(long, default_value_t = 0.1)]
    pub jitter: f64,
    /// Random plies played after each book opening (the same for both games of a
    /// pair, drawn from the seed, kept when a short search finds them balanced).
    #[arg(long, default_value_t = 2)]
    pub extra_plies: usize,
    /// The most games (rounded up to pairs).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Where every game is written, one JSON object a line.
    #[arg(long, default_value = "games.jsonl")]
    pub out: PathBuf,
    /// Go on with the match whose games `--out` already holds (same engines,
    /// presets, seed and budgets): its games count and are not played again, and
    /// new games are added to the file. `--games` is the match's whole length.
    #[arg(long)]
    pub resume: bool,
    /// Run the SPRT with these bounds (Elo of H0 and H1) and stop when it decides.
    #[arg(long, allow_hyphen_values = true, requires = "elo1")]
    pub elo0: Option<f64>,
    #[arg(long, allow_hyphen_values = true, requires = "elo0")]
    pub elo1: Option<f64>,
    /// The SPRT's false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The SPRT's false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// The SPRT decides nothing before this many finished pairs.
    #[arg(long, default_value_t = DEFAULT_MIN_PAIRS)]
    pub min_pairs: u64,
    /// Seed of the levels' and random movers' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Args, Debug)]
pub struct OpeningsArgs {
    /// Preset id.
    #[arg(long)]
    pub variant: String,
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// Plies of each opening.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Node budget of the balance search.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Keep openings scored within this many centipawns of the start.
    #[arg(long, default_value_t = 120)]
    pub max_cp: i32,
}

fn variants(list: &str) -> Result<Vec<AnyVariant>, String> {
    if list == "all" {
        return Ok(AnyVariant::presets().to_vec());
    }
    list.split(',')
        .map(|id| AnyVariant::by_id(id.trim()).ok_or_else(|| format!("unknown preset `{id}`")))
        .collect()
}

/// An engine with its UCI options.
fn engine(text: &str, options: &[String], flag: &str) -> Result<Engine, String> {
    let mut engine = Engine::parse(text)?;
    if options.is_empty() {
        return Ok(engine);
    }
    let Engine::Uci(command) = &mut engine else {
        return Err(format!(
            "--{flag}: only an engine speaking UCI takes options"
        ));
    };
    for o in options {
        match o.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                command
                    .options
                    .push((name.trim().to_owned(), value.trim().to_owned()));
            }
            _ => return Err(format!("--{flag} `{o}`: not NAME=VALUE")),
        }
    }
    Ok(engine)
}

fn spec(args: &MatchArgs) -> Result<MatchSpec, String> {
    let per_move = match (args.time_ms, args.nodes) {
        (_, Some(0)) | (Some(0), _) => return Err("the budget per move must be at least 1".into()),
        (_, Some(n)) => PerMove::Nodes(n),
        (Some(t), None) => PerMove::TimeMs(t),
        (None, None) => PerMove::TimeMs(100),
    };
    let own_time = |t: Option<u64>, flag: &str| match t {
        Some(0) => Err(format!("--{flag} must be at least 1")),
        Some(t) => Ok(Some(PerMove::TimeMs(t))),
        None => Ok(None),
    };
    let per_move_a = own_time(args.a_time_ms, "a-time-ms")?.unwrap_or(per_move);
    let per_move_b = own_time(args.b_time_ms, "b-time-ms")?;
    if args.max_plies == 0 {
        return Err("--max-plies must be at least 1".into());
    }
    let sprt = match (args.elo0, args.elo1) {
        (Some(elo0), Some(elo1)) => {
            let ok = |p: f64| p > 0.0 && p < 0.5;
            if elo1 <= elo0 || !ok(args.alpha) || !ok(args.beta) {
                return Err("the SPRT needs elo0 < elo1 and alpha, beta in (0, 0.5)".into());
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha: args.alpha,
                beta: args.beta,
                min_pairs: args.min_pairs,
            })
        }
        _ => None,
    };
    if !(0.0..0.5).contains(&args.jitter) {
        return Err("--jitter must be in [0, 0.5)".into());
    }
    Ok(MatchSpec {
        a: engine(&args.a, &args.a_options, "a-option")?,
        b: engine(&args.b, &args.b_options, "b-option")?,
        variants: variants(&args.variant)?,
        per_move: per_move_a,
        per_move_b: per_move_b.or((per_move_a != per_move).then_some(per_move)),
        jitter: args.jitter,
        extra_plies: args.extra_plies.min(20),
        max_games: args.games.max(2),
        concurrency: args.concurrency.max(1),
        sprt,
        seed: args.seed,
        max_plies: args.max_plies,
        uci_margin: Duration::from_millis(args.margin_ms),
    })
}

/// The games file, ready to be written on, and the games it already holds when
/// the match is resumed (a last line cut short by the interruption is dropped).
fn open_games(path: &Path, resume: bool) -> Result<(File, Vec<Finished>), String> {
    if !resume || !path.exists() {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        return Ok((file, Vec::new()));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (games, kept) = resume::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let end = kept as u64;
    // A last game written whole but for its newline gets one.
    let newline = kept > 0 && !text[..kept].ends_with('\n');
    file.set_len(end)
        .and_then(|()| file.seek(SeekFrom::Start(end)).map(|_| ()))
        .and_then(|()| {
            if newline {
                file.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok((file, games))
}

pub fn run_match(args: &MatchArgs) -> ExitCode {
    let spec = match spec(args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("branan match: {e}");
            return ExitCode::from(2);
        }
    };
    let (file, resumed) = match open_games(&args.out, args.resume) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("branan match: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut games = BufWriter::new(file);
    let budget = |p: PerMove| match p {
        PerMove::TimeMs(t) => format!("{t} ms/move"),
        PerMove::Nodes(n) if spec.jitter > 0.0 => {
            format!("{n} nodes/move +- {:.0}% a pair", spec.jitter * 100.0)
        }
        PerMove::Nodes(n) => format!("{n} nodes/move"),
    };
    let per = match spec.per_move_b {
        Some(b) if b != spec.per_move => {
            format!("A {}, B {}", budget(spec.per_move), budget(b))
        }
        _ => budget(spec.per_move),
    };
    eprintln!(
        "branan match: A = {}, B = {}, {per}, {} game(s) at once, games to {}",
        spec.a.describe(),
        spec.b.describe(),
        spec.concurrency,
        args.out.display()
    );
    let report = match selfplay::run(&spec, &resumed, &mut games, &mut std::io::stderr()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("branan match: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    let t = &report.total;
    let _ = writeln!(
        out,
        "A = {}, B = {}, {per}",
        spec.a.describe(),
        spec.b.describe()
    );
    for (id, v) in &report.by_variant {
        let _ = writeln!(
            out,
            "{id:<16} games {:>4}  A +{} ={} -{}  score {:.1}%",
            v.games(),
            v.wins,
            v.draws,
            v.losses,
            v.score() * 100.0
        );
    }
    let _ = writeln!(
        out,
        "total            games {:>4}  A +{} ={} -{}  score {:.1}%  pairs [0, 0.5, 1, 1.5, 2] = {:?}",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.score() * 100.0,
        t.penta
    );
    let _ = writeln!(
        out,
        "distinct games: {} of {} ({} repeat an earlier game move for move)",
        report.distinct,
        t.games(),
        t.games().saturating_sub(report.distinct)
    );
    match t.elo() {
        Some((elo, err)) => {
            let _ = writeln!(out, "Elo (A - B): {elo:+.1} +- {err:.1} (95%, pentanomial)");
        }
        None => {
            let _ = writeln!(out, "Elo (A - B): no finished pair");
        }
    }
    if let (Some(s), Some(llr), Some(v)) = (spec.sprt, report.llr, report.verdict) {
        let said = match v {
            Verdict::H1 => "H1 accepted (A is stronger by elo1 or more)",
            Verdict::H0 => "H0 accepted (A is not stronger by elo1)",
            Verdict::Continue => "no decision yet",
        };
        let _ = writeln!(
            out,
            "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} in ({:.2}, {:.2}): {said}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.lower(),
            s.upper()
        );
    }
    if games.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

pub fn run_openings(args: &OpeningsArgs) -> ExitCode {
    let Some(v) = AnyVariant::by_id(&args.variant) else {
        eprintln!("branan openings: unknown preset `{}`", args.variant);
        return ExitCode::from(2);
    };
    let spec = book::BookSpec {
        count: args.count,
        plies: args.plies,
        seed: args.seed,
        nodes: args.nodes.max(1),
        max_cp: args.max_cp,
    };
    let made = book::make(v, &spec);
    print!(
        "# {} openings: {} random plies from the start, within {} cp of the start's \
         score at {} nodes (branan openings --variant {} --count {} --plies {} --seed {} \
         --nodes {} --max-cp {})\n{}",
        v.name(),
        spec.plies,
        spec.max_cp,
        spec.nodes,
        v.id(),
        spec.count,
        spec.plies,
        spec.seed,
        spec.nodes,
        spec.max_cp,
        book::to_text(&made)
    );
    if made.len() < spec.count {
        eprintln!(
            "branan openings: only {} of {} openings found",
            made.len(),
            spec.count
        );
    }
    ExitCode::SUCCESS
}
