//! `branan match`: the self-play lab (engine A against engine B, the SPRT), and
//! `branan openings`: makes an opening book.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::rules::AnyVariant;
use crate::selfplay::engine::{Engine, PerMove};
use crate::selfplay::stats::{DEFAULT_MIN_PAIRS, Sprt, Verdict};
use crate::selfplay::{self, MatchSpec, book};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Engine A: `self` (this engine, full strength), `level=N` (1..=10), `threads=N`
    /// (full strength, each search on N threads), `random`, or the path of a branan
    /// binary (asked through `analyze`).
    #[arg(long, default_value = "self")]
    pub a: String,
    /// Engine B, as `--a`.
    #[arg(long)]
    pub b: String,
    /// Preset ids, comma-separated, or `all` (pairs cycle through them).
    #[arg(long, default_value = "brandubh")]
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

fn spec(args: &MatchArgs) -> Result<MatchSpec, String> {
    let per_move = match (args.time_ms, args.nodes) {
        (_, Some(0)) | (Some(0), _) => return Err("the budget per move must be at least 1".into()),
        (_, Some(n)) => PerMove::Nodes(n),
        (Some(t), None) => PerMove::TimeMs(t),
        (None, None) => PerMove::TimeMs(100),
    };
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
        a: Engine::parse(&args.a)?,
        b: Engine::parse(&args.b)?,
        variants: variants(&args.variant)?,
        per_move,
        jitter: args.jitter,
        extra_plies: args.extra_plies.min(20),
        max_games: args.games.max(2),
        concurrency: args.concurrency.max(1),
        sprt,
        seed: args.seed,
    })
}

pub fn run_match(args: &MatchArgs) -> ExitCode {
    let spec = match spec(args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("branan match: {e}");
            return ExitCode::from(2);
        }
    };
    let file = match File::create(&args.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("branan match: cannot create {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let mut games = BufWriter::new(file);
    let per = match spec.per_move {
        PerMove::TimeMs(t) => format!("{t} ms/move"),
        PerMove::Nodes(n) if spec.jitter > 0.0 => {
            format!("{n} nodes/move +- {:.0}% a pair", spec.jitter * 100.0)
        }
        PerMove::Nodes(n) => format!("{n} nodes/move"),
    };
    eprintln!(
        "branan match: A = {}, B = {}, {per}, {} game(s) at once, games to {}",
        spec.a.describe(),
        spec.b.describe(),
        spec.concurrency,
        args.out.display()
    );
    let report = match selfplay::run(&spec, &mut games, &mut std::io::stderr()) {
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
