//! `branan train-net`: trains the learned evaluation of one board on games written
//! by `match`, and writes its net file. Each position after the opening (those
//! too sharp for a static score left out: the king with an open line, or
//! threatened) is trained towards the game's result blended with the chance the
//! engine that played its move gave it. Every tenth game is held out and scored
//! each epoch, beside the hand-written evaluation's score on it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::review::fit::chance;
use crate::rules::{AnyVariant, Side};
use crate::search::hand_even_score;
use crate::search::net::CP_PER_LOGIT;
use crate::search::net_train::{NetSample, TrainOptions, defenders_chance, position_inputs, train};
use crate::search::tune::AnyEvaluator;

#[derive(Args, Debug)]
pub struct TrainNetArgs {
    /// Games files of `branan match` (JSON lines); the board of the first game is
    /// trained, games of other boards are passed over.
    #[arg(required_unless_present = "net_games")]
    pub games: Vec<PathBuf>,
    /// Games files played by engines with a learned net for this board: their
    /// scores are read around an even score of 0.
    #[arg(long)]
    pub net_games: Vec<PathBuf>,
    /// Where the net file is written.
    #[arg(long)]
    pub out: PathBuf,
    /// The share of the game's result in each target (the rest is the chance
    /// the engine's score gave): 1 trains on results alone.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// What an even game scored for the attackers in the engine that played the
    /// games, to read its scores as chances (the hand-written evaluation's even
    /// score of the preset when left out).
    #[arg(long, allow_hyphen_values = true)]
    pub score_offset: Option<f64>,
    /// Train a correction of the hand-written evaluation (the net's output is
    /// added to that evaluation's chance) instead of a whole evaluation.
    #[arg(long)]
    pub residual: bool,
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    #[arg(long, default_value_t = 1024)]
    pub batch: usize,
    #[arg(long, default_value_t = 0.002)]
    pub learning_rate: f32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// A score as the games file writes it (`cp 120`, `win -5`), as the mover's chance.
fn mover_chance(text: &str, mover: Side, k: f64, offset: f64) -> Option<f64> {
    let (kind, n) = text.split_once(' ')?;
    let n: f64 = n.parse().ok()?;
    match kind {
        "win" if n > 0.0 => Some(1.0),
        "win" => Some(0.0),
        "cp" => Some(chance(n, mover, k, offset)),
        _ => None,
    }
}

struct Reader {
    lambda: f64,
    residual: bool,
    offset: Option<f64>,
    size: Option<u8>,
    games: usize,
    train: Vec<NetSample>,
    valid: Vec<NetSample>,
    /// The hand-written evaluation's chance and the target, per held-out sample.
    hand: Vec<(f64, f64)>,
    evaluators: BTreeMap<&'static str, AnyEvaluator>,
}

impl Reader {
    /// Takes one game record; `None` when the line is not a game.
    fn take(&mut self, record: &serde_json::Value) -> Option<()> {
        let variant = AnyVariant::by_id(record["variant"].as_str()?)?;
        let size = *self.size.get_or_insert(variant.size());
        if variant.size() != size
            || record["reason"] == "engine_error"
            || record.get("repeats").is_some()
        {
            return Some(());
        }
        let result = match record["winner"].as_str() {
            Some("defenders") => 1.0,
            Some("attackers") => 0.0,
            _ => 0.5,
        };
        let k = variant.tuning().map_or(1264.0, |t| t.win_chance_scale);
        // The hand-written evaluation's even score: its scores are read as
        // chances around it, and a residual net corrects it.
        let hand_offset = f64::from(hand_even_score(variant));
        let offset = self.offset.unwrap_or(hand_offset);
        let opening = record["opening"].as_array().map_or(0, Vec::len);
        let scores = record["scores"].as_array();
        let eval = self
            .evaluators
            .entry(variant.id())
            .or_insert_with(|| AnyEvaluator::new(variant));
        let held_out = self.games % 10 == 9;
        self.games += 1;
        let mut game = variant.start_position().game();
        for (i, m) in record["moves"].as_array()?.iter().enumerate() {
            let pos = game.position();
            if i >= opening
                && let Some(hand) = eval.defenders_score(&pos)
            {
                let mover = pos.side_to_move();
                let searched = scores
                    .and_then(|s| s.get(i - opening))
                    .and_then(|s| s.as_str())
                    .and_then(|s| mover_chance(s, mover, k, offset))
                    .map(|p| defenders_chance(mover, p));
                let target = match searched {
                    Some(p) => self.lambda * result + (1.0 - self.lambda) * p,
                    None => result,
                };
                let sample = NetSample {
                    inputs: position_inputs(&pos),
                    attackers_to_move: mover == Side::Attackers,
                    target: target as f32,
                    base: if self.residual {
                        ((f64::from(hand) + hand_offset) / f64::from(CP_PER_LOGIT)) as f32
                    } else {
                        0.0
                    },
                };
                if held_out {
                    let p = chance(f64::from(hand), Side::Defenders, k, offset);
                    self.hand.push((p, target));
                    self.valid.push(sample);
                } else {
                    self.train.push(sample);
                }
            }
            game.play(variant.parse_move(m.as_str()?).ok()?.mv).ok()?;
        }
        Some(())
    }
}

pub fn run(args: &TrainNetArgs) -> ExitCode {
    if !(0.0..=1.0).contains(&args.lambda) || args.epochs == 0 || args.batch == 0 {
        eprintln!("branan train-net: --lambda is 0 to 1, --epochs and --batch at least 1");
        return ExitCode::from(2);
    }
    let mut r = Reader {
        lambda: args.lambda,
        residual: args.residual,
        offset: args.score_offset,
        size: None,
        games: 0,
        train: Vec::new(),
        valid: Vec::new(),
        hand: Vec::new(),
        evaluators: BTreeMap::new(),
    };
    let read = super::read_games("train-net", "a game", &args.games, |g| r.take(g).is_some());
    if let Err(code) = read {
        return code;
    }
    r.offset = Some(0.0);
    let read = super::read_games("train-net", "a game", &args.net_games, |g| {
        r.take(g).is_some()
    });
    if let Err(code) = read {
        return code;
    }
    let Some(size) = r.size.filter(|_| !r.train.is_empty()) else {
        eprintln!("branan train-net: no position to train on in the files given");
        return ExitCode::FAILURE;
    };
    let hand_loss =
        r.hand.iter().map(|(p, t)| (p - t) * (p - t)).sum::<f64>() / r.hand.len().max(1) as f64;
    println!(
        "{size}x{size}: {} games, {} positions to train on, {} held out; the hand-written evaluation's loss on them {hand_loss:.5}",
        r.games,
        r.train.len(),
        r.valid.len()
    );
    let o = TrainOptions {
        size,
        residual: args.residual,
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        seed: args.seed,
    };
    let net = train(&r.train, &r.valid, &o, |line| println!("{line}"));
    if let Err(e) = std::fs::write(&args.out, net.to_file()) {
        eprintln!("branan train-net: cannot write {}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    println!("written to {}", args.out.display());
    ExitCode::SUCCESS
}
