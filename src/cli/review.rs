//! `branan review`: a game judged move by move, as an annotated game score or as
//! the NDJSON lines of `POST /v1/review`; the game a move list under `--variant`
//! or `--rules`, or a game record (OpenTafl's `.otg`, hnefatafl.org's PGN).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use clap::Args;

use crate::analysis::pool::SearchPool;
use crate::analysis::{GameLimits, ReviewPlan, ReviewSettings, Settings, execute, game_record};
use crate::json::analyze::ScoreDto;
use crate::json::game::SideDto;
use crate::json::problem::Problem;
use crate::json::review::{EvalDto, PlyDto, ReviewRequest, SummaryDto};
use crate::json::rule_object::RulesInput;
use crate::record::{Format, GameResult, Record};
use crate::review::PlyReview;
use crate::rules::{AnyVariant, Side};
use crate::search::Score;

/// What the review's search thread sends back.
enum Judged {
    Ply(PlyDto),
    Done(Box<Result<SummaryDto, String>>),
}

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// Preset id (not with a game record, which names its rules).
    #[arg(long, conflicts_with = "rules")]
    pub variant: Option<String>,
    /// A rule set instead of a preset: an OpenTafl rules string, or a rule object
    /// in JSON (as `GET /v1/variants/{id}` answers it).
    #[arg(long)]
    pub rules: Option<String>,
    /// The position the game started from (default: the preset's start).
    #[arg(long)]
    pub position: Option<String>,
    /// Search time per position, in milliseconds (default 200 without `--depth`).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Deepest iteration per position (deterministic without `--time-ms`).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Write the NDJSON lines of `POST /v1/review` (one per ply, then the summary).
    #[arg(long, conflicts_with = "annotate")]
    pub json: bool,
    /// Write the game as a game record in this format (`otg`: OpenTafl's, `pgn`:
    /// hnefatafl.org's) with the review's judgement of each move as its comment,
    /// instead of the annotated score. A record read keeps its tags and comments.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub annotate: Option<Format>,
    /// The file of moves (default: stdin), separated by spaces or newlines; or a
    /// game record, OpenTafl's (`.otg`) or hnefatafl.org's PGN, which gives the
    /// rules, the start and the moves.
    pub file: Option<PathBuf>,
}

fn parse_format(name: &str) -> Result<Format, String> {
    Format::from_name(name).ok_or_else(|| format!("{name:?} is not a record format: otg or pgn"))
}

/// The review's word on a move, as a record's comment: its class, its evaluation,
/// and the best move when it was not played.
fn judgement(p: &PlyDto, variant: AnyVariant) -> String {
    let draw = draw_worth(variant, p.side);
    let mut text = format!("{} {}", p.class, eval_text(&p.played, draw));
    if p.best_move != p.mv {
        text.push_str(&format!(
            "; best {} {}",
            p.best_move,
            eval_text(&p.best, draw)
        ));
    }
    text
}

/// The reviewed game as a record, each move commented with its judgement.
fn annotated(
    req: &ReviewRequest,
    plies: &[PlyDto],
    variant: AnyVariant,
    format: Format,
) -> Result<String, String> {
    let limits = GameLimits {
        max_moves: usize::MAX,
    };
    let (built, record) = req
        .game()
        .build_with_record(&limits)
        .map_err(|e| e.to_string())?;
    let mut record = match record {
        Some(r) => r,
        None => game_record::of_game(&built, Vec::new()).map_err(|e| e.to_string())?,
    };
    for (m, p) in record.moves.iter_mut().zip(plies) {
        let word = judgement(p, variant);
        m.comment = Some(match m.comment.take() {
            Some(c) if !c.trim().is_empty() => format!("{} ({word})", c.trim()),
            _ => word,
        });
    }
    game_record::write(&record, format).map_err(|e| e.to_string())
}

/// What a draw is worth to `side` in `variant`'s scores: the zero of the
/// scores the review writes.
fn draw_worth(variant: AnyVariant, side: SideDto) -> i32 {
    let side = match side {
        SideDto::Attackers => Side::Attackers,
        SideDto::Defenders => Side::Defenders,
    };
    match Score::draw(variant, side) {
        Score::Cp(cp) => cp,
        Score::Win(_) => 0,
    }
}

/// `+0.35` (a score in soldiers, measured from what a draw is worth to the side
/// whose score it is, `draw`: its sign is the side the win chance favours),
/// `#2` (the side wins with its second move from here: `{"win": 3}`), `#-1`
/// (the other side wins with its next move: `{"win": -2}`). Forced results are
/// counted in the winner's moves, as the page says them; the API counts plies.
fn eval_text(e: &EvalDto, draw: i32) -> String {
    match e.score {
        ScoreDto::Cp(cp) => format!("{:+.2}", f64::from(cp - draw) / 100.0),
        ScoreDto::Win(n) => format!("#{}", n.signum() * ((n.abs() + 1) / 2)),
    }
}

/// One line of the annotated game.
fn ply_line(p: &PlyDto, variant: AnyVariant) -> String {
    let draw = draw_worth(variant, p.side);
    let mark = match p.class.as_str() {
        "inaccuracy" => "?!",
        "mistake" => "?",
        "blunder" | "missed_win" => "??",
        _ => "",
    };
    let side = serde_json::to_value(p.side)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut line = format!(
        "{:>3}. {:<9} {:<12}{:<3} {:>7} {:>4.0}%  {}",
        p.ply,
        side,
        p.mv,
        mark,
        eval_text(&p.played, draw),
        p.played.win_chance * 100.0,
        p.class
    );
    if p.best_move != p.mv {
        line.push_str(&format!(
            " (best {} {})",
            p.best_move,
            eval_text(&p.best, draw)
        ));
    }
    line
}

/// The first line of a review in words: the rules, where the game starts, how
/// many plies are judged and with what search.
fn header(plan: &ReviewPlan) -> String {
    let v = plan.variant;
    let rules = if v.is_preset() {
        format!("{} ({})", v.name(), v.id())
    } else {
        format!("rules {}", v.rules_id())
    };
    let from = if plan.start == v.start_position() {
        "from the start".to_owned()
    } else {
        format!("from {}", plan.start)
    };
    let search = match (plan.limits.depth, plan.limits.time_ms, plan.limits.nodes) {
        (Some(d), Some(t), _) => format!(", each position searched to depth {d} (at most {t} ms)"),
        (Some(d), None, _) => format!(", each position searched to depth {d}"),
        (None, _, Some(n)) => format!(", each position searched for {n} nodes"),
        (None, Some(t), None) => format!(", each position searched for {t} ms"),
        (None, None, None) => String::new(),
    };
    format!(
        "review of {rules}, {} plies {from}{search}",
        plan.moves.len()
    )
}

/// The result a game record states, in words (none when the text is not a
/// record or states none).
fn stated_result(text: &str) -> Option<String> {
    Format::detect(text)?;
    let record = Record::read(text).ok()?;
    Some(match record.result? {
        GameResult::Won(Side::Attackers) => "the attackers won".to_owned(),
        GameResult::Won(Side::Defenders) => "the defenders won".to_owned(),
        GameResult::Draw => "a draw".to_owned(),
    })
}

/// The review asked for: a game record's rules, start and moves, or the moves of
/// the text under `--variant` or `--rules`.
fn request(args: &ReviewArgs, text: &str) -> Result<ReviewRequest, String> {
    if Format::detect(text).is_some() {
        if args.variant.is_some() || args.rules.is_some() || args.position.is_some() {
            return Err(
                "a game record names its own rules and start: give no --variant, --rules or --position"
                    .to_owned(),
            );
        }
        return Ok(ReviewRequest {
            variant: None,
            rules: None,
            record: Some(text.to_owned()),
            position: None,
            moves: None,
            time_ms: args.time_ms,
            depth: args.depth,
            level: None,
        });
    }
    if args.variant.is_none() && args.rules.is_none() {
        return Err(
            "give --variant or --rules, or a game record (OpenTafl's or hnefatafl.org's PGN)"
                .to_owned(),
        );
    }
    let rules = args
        .rules
        .as_deref()
        .map(RulesInput::from_query)
        .transpose()
        .map_err(|e| Problem::from(&e).detail)?;
    Ok(ReviewRequest {
        variant: args.variant.clone(),
        rules,
        record: None,
        position: args.position.clone(),
        moves: Some(text.split_whitespace().map(str::to_owned).collect()),
        time_ms: args.time_ms,
        depth: args.depth,
        level: None,
    })
}

pub fn run(args: &ReviewArgs) -> ExitCode {
    let mut text = String::new();
    let read = match &args.file {
        Some(path) => std::fs::read_to_string(path).map(|t| text = t),
        None => std::io::stdin().read_to_string(&mut text).map(|_| ()),
    };
    if let Err(e) = read {
        match &args.file {
            Some(path) => eprintln!("branan review: cannot read {}: {e}", path.display()),
            None => eprintln!("branan review: cannot read standard input: {e}"),
        }
        return ExitCode::FAILURE;
    }
    let req = match request(args, &text) {
        Ok(req) => req,
        Err(message) => {
            eprintln!("branan review: {message}");
            return ExitCode::from(2);
        }
    };
    // The server's limits per analysis, without its budget for a whole review: the
    // command's user pays for the time asked.
    let settings = ReviewSettings {
        max_plies: usize::MAX,
        budget_ms: u64::MAX,
        ..ReviewSettings::DEFAULT.clamped()
    };
    let analysis = Settings {
        max_moves: usize::MAX,
        ..Settings::DEFAULT.clamped()
    };
    let plan = match req.plan(&analysis, &settings) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("branan review: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let json = args.json;
    let variant = plan.variant;
    let annotate = args.annotate;
    if !json && annotate.is_none() {
        let _ = writeln!(out, "{}", header(&plan));
        if let Some(stated) = stated_result(&text) {
            let _ = writeln!(out, "the record's result: {stated}");
        }
    }
    let mut plies = Vec::new();
    let mut on_ply = |p: PlyDto| {
        if annotate.is_some() {
            plies.push(p);
            return;
        }
        let p = &p;
        let line = if json {
            serde_json::to_string(p).unwrap_or_default()
        } else {
            ply_line(p, variant)
        };
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    // The review runs on the analysis's search pool (one thread); its plies come
    // back here as they are judged.
    let pool = SearchPool::new(1, 1);
    let (tx, rx) = mpsc::channel();
    let submitted = pool.submit(Box::new(move |searcher| {
        let plies = tx.clone();
        let send_ply = |p: &PlyReview| {
            let _ = plies.send(Judged::Ply(PlyDto::of(p)));
        };
        let summary = execute(&plan, searcher, None, &AtomicBool::new(false), send_ply);
        let summary = summary.map(|s| SummaryDto::of(&s));
        let _ = tx.send(Judged::Done(Box::new(summary.map_err(|e| e.to_string()))));
    }));
    if let Err(e) = submitted {
        eprintln!("branan review: {e}");
        return ExitCode::FAILURE;
    }
    let mut summary = Err("the search thread stopped".to_owned());
    for judged in rx {
        match judged {
            Judged::Ply(p) => on_ply(p),
            Judged::Done(s) => {
                summary = *s;
                break;
            }
        }
    }
    let summary = match summary {
        Ok(s) => s,
        Err(e) => {
            eprintln!("branan review: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    if let Some(format) = annotate {
        match annotated(&req, &plies, variant, format) {
            Ok(text) => {
                let _ = write!(out, "{text}");
            }
            Err(e) => {
                eprintln!("branan review: the annotated record: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else if json {
        let _ = writeln!(out, "{}", serde_json::json!({ "summary": summary }));
    } else {
        for (name, s) in [
            ("attackers", &summary.attackers),
            ("defenders", &summary.defenders),
        ] {
            let c = &s.counts;
            let accuracy = s.accuracy.map_or("-".to_owned(), |a| format!("{a:.1}"));
            let _ = writeln!(
                out,
                "{name:<9} accuracy {accuracy:>5}  best {} good {} inaccuracy {} mistake {} blunder {} missed_win {} forced {}",
                c.best, c.good, c.inaccuracy, c.mistake, c.blunder, c.missed_win, c.forced
            );
        }
        let status = match (&summary.status.winner, summary.status.over) {
            (_, false) => "not over".to_owned(),
            (Some(w), true) => format!(
                "{} won",
                serde_json::to_value(w)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            ),
            (None, true) => "drawn".to_owned(),
        };
        let _ = writeln!(
            out,
            "final position {} ({status}), {} to move: {} {:.0}%",
            summary.position,
            serde_json::to_value(summary.to_move)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
            eval_text(&summary.eval, draw_worth(variant, summary.to_move)),
            summary.eval.win_chance * 100.0
        );
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_results_are_said_in_the_winners_moves() {
        let text = |score| {
            eval_text(
                &EvalDto {
                    score,
                    win_chance: 0.5,
                },
                0,
            )
        };
        assert_eq!(text(ScoreDto::Win(1)), "#1");
        assert_eq!(text(ScoreDto::Win(3)), "#2");
        assert_eq!(text(ScoreDto::Win(5)), "#3");
        assert_eq!(text(ScoreDto::Win(-2)), "#-1");
        assert_eq!(text(ScoreDto::Win(-4)), "#-2");
        assert_eq!(text(ScoreDto::Cp(-35)), "-0.35");
    }

    /// A score is written from what a draw is worth, so that its sign is the side
    /// the win chance beside it favours.
    #[test]
    fn scores_are_written_from_an_even_game() {
        let v = AnyVariant::by_id("copenhagen").unwrap();
        let even = crate::search::even_score(v);
        assert!(even > 0);
        let e = |cp| EvalDto {
            score: ScoreDto::Cp(cp),
            win_chance: 0.5,
        };
        assert_eq!(draw_worth(v, SideDto::Attackers), even);
        assert_eq!(draw_worth(v, SideDto::Defenders), -even);
        // The defenders at -4.40 in the engine's own units are well ahead.
        let d = draw_worth(v, SideDto::Defenders);
        assert_eq!(
            eval_text(&e(-440), d),
            format!("{:+.2}", f64::from(even - 440) / 100.0)
        );
        assert_eq!(eval_text(&e(-even), d), "+0.00");
    }
}
