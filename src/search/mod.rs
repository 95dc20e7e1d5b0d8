//! The engine: the best move of a game from a time-, depth- or node-limited search.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use branan::rules::AnyVariant;
//! use branan::search::{Limits, Score, analyze};
//!
//! // Tablut: the king on b8 steps to the edge.
//! let v = AnyVariant::by_id("tablut").unwrap();
//! let game = v.parse_position("9/1K7/9/9/9/9/9/9/8t d 0").unwrap().game();
//! let a = analyze(&game, &Limits::depth(3), 1, &AtomicBool::new(false));
//! assert_eq!(a.score, Score::Win(1));
//! assert!(a.best_move.is_some());
//! ```
//!
//! Every analysis takes a game of any board ([`AnyGame`](crate::rules::AnyGame))
//! or of one word ([`Game`]); the search runs in the word of the game's board.
//!
//! Files: `search.rs` (negamax, quiescence), `tt.rs` (transposition table),
//! `move_picker.rs` (ordering), `eval.rs` + `params.rs` (evaluation and weights),
//! `corner_play.rs` (the evaluation's corner geometry),
//! `clock.rs` (limits), `level.rs` (strength levels),
//! `bench.rs` (the benchmark).

pub mod bench;
mod clock;
mod corner_play;
pub(crate) mod eval;
pub mod level;
mod move_picker;
pub mod params;
#[allow(clippy::module_inception)]
mod search;
mod tt;
pub(crate) mod tune;

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use crate::rules::{AnyGameRef, AnyVariant, Game, Move, Outcome, Side, Word, with_word};

pub use clock::Limits;
pub use eval::weights;
pub use level::LevelRequest;

use clock::Clock;
use move_picker::Heuristics;
use params::{DEFAULT_TT_MB, MATE, MATE_BOUND};
use search::{Frame, RootResult, Search};
use tt::Tt;

/// The most lines an analysis request may ask for (`multipv`).
pub const MAX_MULTIPV: usize = 5;

/// A score from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Score {
    /// Centipawn-like: 100 is one attacking soldier.
    Cp(i32),
    /// A forced result in this many plies: positive, the side to move wins;
    /// negative, it loses.
    Win(i32),
}

/// What an even game scores for the attackers in `variant`, in the evaluation's
/// units (see [`params::EVEN_SCORES`]): the score a draw is worth to them.
pub fn even_score(variant: AnyVariant) -> i32 {
    with_word!(variant, AnyVariant, v => eval::even_score(v))
}

/// The preset whose evaluation weights `variant` plays with (Brandubh's,
/// Copenhagen's or Tablut's family), for what is fitted per preset.
pub fn family_preset(variant: AnyVariant) -> &'static str {
    eval::Family::of(variant).preset()
}

impl Score {
    /// What a draw is worth to `side` in `variant`: what an even game is worth to
    /// it in the evaluation (the attackers' soldiers outnumber the defenders', so
    /// an even game scores above zero for them and below it for the defenders).
    pub fn draw(variant: AnyVariant, side: Side) -> Score {
        Score::Cp(eval::draw_for(even_score(variant), side))
    }

    pub(crate) fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Win(MATE - s)
        } else if s <= -MATE_BOUND {
            Score::Win(-(MATE + s))
        } else {
            Score::Cp(s)
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Win(n) => write!(f, "win {n}"),
        }
    }
}

/// One of the best lines (multipv).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    pub mv: Move,
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// The result of an analysis.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Analysis {
    /// `None` when the game is over.
    pub best_move: Option<Move>,
    /// The best line's score. On a finished game, `Cp(0)` (see `outcome`).
    pub score: Score,
    /// The best line, starting with `best_move`.
    pub pv: Vec<Move>,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The best lines, best first (as many as asked for and the position has
    /// moves); `lines[0]` is the best move's.
    pub lines: Vec<Line>,
    /// `Some` when the game is already over.
    pub outcome: Option<Outcome>,
}

/// One completed iteration of a search, as a listener of
/// [`Searcher::analyze_with`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct Iteration<'a> {
    /// The depth just completed.
    pub depth: u32,
    /// The best lines at this depth, best first; `lines[0]` is the best move's.
    pub lines: &'a [Line],
    /// Nodes visited since the search started.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// A reusable engine: its transposition table and ordering tables. Every analysis
/// starts from empty tables, so results do not depend on earlier searches.
///
/// A search on several threads ([`Limits::threads`]) is the usual lazy SMP: the
/// helper threads run their own iterative deepening of the same position, half
/// of them a ply ahead of the main thread, each with its own ordering tables and
/// all sharing the one transposition table, where what each finds speeds up the
/// others (a table as many times larger as there are threads, for the search on
/// them). The main thread's answer is kept unless a helper completed a deeper
/// iteration (with one line asked; a helper that completes the deepest iteration
/// allowed then ends the search), and the nodes of all are counted.
pub struct Searcher {
    tt: Tt,
    /// The table's size for one thread, in MiB: a search on k threads has a table
    /// k times larger (each thread brings its share), until the next search on one.
    tt_mb: usize,
    heur: Heuristics,
    frames: Vec<Frame>,
    /// The tables of the helper threads, made when a search first needs them.
    helpers: Vec<HelperTables>,
}

/// What a helper thread of a search owns: its ordering tables and move lists.
struct HelperTables {
    heur: Heuristics,
    frames: Vec<Frame>,
}

/// What the threads of one search share besides the table: the main thread
/// raises `done` when it has its answer, and tells the helpers the depth it is
/// searching; a helper raises `reached` when it has completed the deepest
/// iteration allowed (which ends the search when one line is asked: its answer
/// is as deep as the main thread's could be); the helpers count their nodes in
/// `nodes`.
struct Team {
    done: AtomicBool,
    reached: AtomicBool,
    depth: AtomicU32,
    nodes: AtomicU64,
}

/// What a helper thread found: its deepest completed iteration and its nodes.
struct Helped {
    depth: u32,
    best: Option<RootResult>,
    nodes: u64,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(DEFAULT_TT_MB)
    }
}

impl Searcher {
    /// An engine with a transposition table of about `tt_mb` MiB.
    pub fn new(tt_mb: usize) -> Searcher {
        Searcher {
            tt: Tt::new(tt_mb),
            tt_mb,
            heur: Heuristics::new(),
            frames: search::new_frames(),
            helpers: Vec::new(),
        }
    }

    /// Analyses the game's position, with repetition judged over the game's history.
    /// `multipv` lines at most, one for each legal move (requests are bounded by
    /// [`MAX_MULTIPV`]; a strength level may ask for every move); raising `stop` ends the search
    /// early with the best result so far.
    pub fn analyze<'a>(
        &mut self,
        game: impl Into<AnyGameRef<'a>>,
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
    ) -> Analysis {
        self.analyze_with(game, limits, multipv, stop, None)
    }

    /// [`Searcher::analyze`], calling `listener` after every completed iteration
    /// (between iterations: the search itself is the same with or without one).
    pub fn analyze_with<'a>(
        &mut self,
        game: impl Into<AnyGameRef<'a>>,
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
        listener: Option<&mut dyn FnMut(&Iteration<'_>)>,
    ) -> Analysis {
        // The threads of one search fill the table as many times faster: without
        // a larger one, a search of tens of millions of nodes on two threads
        // needed up to three times the nodes of one thread to reach a depth.
        let mb = self.tt_mb.saturating_mul(limits.threads.max(1));
        if !self.tt.is_of(mb) {
            self.tt = Tt::new(mb);
        }
        self.tt.new_search();
        self.heur.clear();
        with_word!(game.into(), AnyGameRef, g => self.search(g, limits, multipv, stop, listener, None))
    }

    /// The analysis a player at a strength level makes of the game (see
    /// [`level`]): the level's own limits and lines (within those asked for), its
    /// choice among the lines as the best move, and `request.multipv` lines kept
    /// (the engine's best first). `listener` hears each completed iteration, with
    /// every line the level searched.
    pub fn analyze_at_level<'a>(
        &mut self,
        game: impl Into<AnyGameRef<'a>>,
        request: &LevelRequest,
        stop: &AtomicBool,
        listener: Option<&mut dyn FnMut(&Iteration<'_>)>,
    ) -> Analysis {
        let game = game.into();
        request.run(level::Board::of_variant(game.variant()), |limits, lines| {
            self.analyze_with(game, limits, lines, stop, listener)
        })
    }

    /// Searches the game's position again over `moves` only (UCI's
    /// `searchmoves`; moves that are not legal there are left out, and with none
    /// legal every move is searched), keeping the tables of the analysis before:
    /// called right after [`Searcher::analyze_with`] of the same game, the scores
    /// of these moves come from the same search, and so compare with that
    /// analysis's lines at the same depth. Its result depends on that earlier
    /// analysis, as well as on its own limits.
    pub fn analyze_moves<'a>(
        &mut self,
        game: impl Into<AnyGameRef<'a>>,
        limits: &Limits,
        moves: &[Move],
        stop: &AtomicBool,
    ) -> Analysis {
        with_word!(game.into(), AnyGameRef, g => {
            self.search(g, limits, moves.len(), stop, None, Some(moves))
        })
    }

    /// The iterative deepening of the game's position, over `only` of its moves
    /// when given, with the tables as they are: on this thread alone, or with
    /// helper threads when the limits ask for more than one.
    fn search<W: Word>(
        &mut self,
        game: &Game<W>,
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
        listener: Option<&mut dyn FnMut(&Iteration<'_>)>,
        only: Option<&[Move]>,
    ) -> Analysis {
        let Searcher {
            tt,
            heur,
            frames,
            helpers,
            ..
        } = self;
        let tt: &Tt = tt;
        let wanted = limits.threads.max(1);
        // A finished game or a forced move needs no search of its own.
        if wanted == 1 || game.outcome().is_some() || game.position().legal_moves().len() <= 1 {
            return deepen(
                tt, heur, frames, game, limits, multipv, stop, listener, only, None,
            );
        }
        while helpers.len() < wanted - 1 {
            helpers.push(HelperTables {
                heur: Heuristics::new(),
                frames: search::new_frames(),
            });
        }
        let team = Team {
            done: AtomicBool::new(false),
            reached: AtomicBool::new(false),
            depth: AtomicU32::new(0),
            nodes: AtomicU64::new(0),
        };
        let left_out = left_out(game.position(), only);
        std::thread::scope(|scope| {
            let team = &team;
            let left_out = &left_out;
            let running: Vec<_> = helpers[..wanted - 1]
                .iter_mut()
                .enumerate()
                .filter_map(|(i, tables)| {
                    // A helper that cannot start leaves the others to search.
                    std::thread::Builder::new()
                        .name(format!("branan-helper-{}", i + 1))
                        .spawn_scoped(scope, move || {
                            help(tt, tables, game, limits, left_out, i + 1, team)
                        })
                        .ok()
                })
                .collect();
            let mut analysis = deepen(
                tt,
                heur,
                frames,
                game,
                limits,
                multipv,
                stop,
                listener,
                only,
                Some(team),
            );
            team.done.store(true, Ordering::Relaxed);
            let helped: Vec<Helped> = running.into_iter().filter_map(|h| h.join().ok()).collect();
            analysis.nodes += helped.iter().map(|h| h.nodes).sum::<u64>();
            // The deepest iteration a helper completed, when deeper than the main
            // thread's (with several lines, the main thread's lines are kept).
            let deepest = helped
                .into_iter()
                .filter(|h| h.depth > analysis.depth)
                .max_by_key(|h| h.depth);
            if multipv <= 1
                && let Some(Helped {
                    depth,
                    best: Some(best),
                    ..
                }) = deepest
                && let Some(line) = to_lines(std::slice::from_ref(&best)).pop()
            {
                analysis.best_move = Some(line.mv);
                analysis.score = line.score;
                analysis.pv = line.pv.clone();
                analysis.depth = depth;
                analysis.lines = vec![line];
            }
            analysis
        })
    }
}

/// The root moves `only` leaves out (none when it names no legal move).
fn left_out<W: Word>(pos: &crate::rules::Position<W>, only: Option<&[Move]>) -> Vec<Move> {
    let root_moves = pos.legal_moves();
    let mut left_out: Vec<Move> = match only {
        Some(only) => root_moves
            .iter()
            .copied()
            .filter(|m| !only.contains(m))
            .collect(),
        None => Vec::new(),
    };
    if left_out.len() == root_moves.len() {
        left_out.clear();
    }
    left_out
}

/// Whether every line's score is a result proved within `depth` plies.
fn decided(lines: &[RootResult], depth: u32) -> bool {
    lines
        .iter()
        .all(|l| l.score.abs() >= MATE_BOUND && (MATE - l.score.abs()) as u32 <= depth)
}

/// The iterative deepening of the main thread, which makes the analysis; with a
/// `team`, it tells the helpers the depth it searches and hears their nodes.
#[allow(clippy::too_many_arguments)]
fn deepen<W: Word>(
    tt: &Tt,
    heur: &mut Heuristics,
    frames: &mut [Frame],
    game: &Game<W>,
    limits: &Limits,
    multipv: usize,
    stop: &AtomicBool,
    mut listener: Option<&mut dyn FnMut(&Iteration<'_>)>,
    only: Option<&[Move]>,
    team: Option<&Team>,
) -> Analysis {
    let clock = match team {
        // With several lines, only the main thread makes them all.
        Some(team) if multipv <= 1 => Clock::new(limits, stop).also_stopped_by(&team.reached),
        _ => Clock::new(limits, stop),
    };
    let pos = *game.position();
    if let Some(outcome) = game.outcome() {
        return Analysis {
            best_move: None,
            score: Score::Cp(0),
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: clock.elapsed(),
            lines: Vec::new(),
            outcome: Some(outcome),
        };
    }
    let root_moves = pos.legal_moves();
    // The moves left out of the search, as if already searched for earlier lines.
    let left_out = left_out(&pos, only);
    let multipv = multipv.max(1).min(root_moves.len() - left_out.len());
    let mut search = Search::new(tt, heur, clock, pos.variant(), game.keys().to_vec(), frames);

    let mut completed: Vec<RootResult> = Vec::new();
    let mut depth_done = 0;
    // With one legal move the answer is decided: no need to spend the time.
    let max_depth = if root_moves.len() == 1 && limits.time_ms.is_some() {
        1
    } else {
        limits.max_depth()
    };
    for depth in 1..=max_depth {
        if depth > 1 && !search.clock.may_deepen() {
            break;
        }
        if let Some(team) = team {
            team.depth.store(depth, Ordering::Relaxed);
        }
        let mut lines: Vec<RootResult> = Vec::new();
        let mut excluded = left_out.clone();
        for i in 0..multipv {
            let prev = completed.get(i).and_then(|l| l.pv.first().copied());
            let result = search.root(&pos, depth as i32, &excluded, prev);
            if search.stopped {
                // An iteration cut short at the deadline still counts: the
                // previous best is searched first, so a result means that it
                // was searched fully to the new depth, and any other move in
                // the result proved better than it.
                if i == 0
                    && (multipv == 1 || completed.is_empty())
                    && let Some(r) = result
                {
                    completed = vec![r];
                }
                break;
            }
            let Some(r) = result else { break };
            if let Some(&m) = r.pv.first() {
                excluded.push(m);
            }
            lines.push(r);
        }
        if search.stopped {
            break;
        }
        // Sort (a later line can score above an earlier one only by a window
        // artefact; keep the order stable otherwise).
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        completed = lines;
        depth_done = depth;
        if let Some(listener) = listener.as_mut() {
            let helpers = team.map_or(0, |t| t.nodes.load(Ordering::Relaxed));
            listener(&Iteration {
                depth,
                lines: &to_lines(&completed),
                nodes: search.nodes + helpers,
                elapsed: search.clock.elapsed(),
            });
        }
        if decided(&completed, depth) {
            break;
        }
    }
    if completed.is_empty() {
        // Stopped before the first move was searched: any legal move.
        let first = root_moves.iter().copied().find(|m| !left_out.contains(m));
        completed.push(RootResult {
            score: search.eval.eval(&pos),
            pv: vec![first.unwrap_or(root_moves[0])],
        });
    }
    let lines = to_lines(&completed);
    let best = &lines[0];
    Analysis {
        best_move: Some(best.mv),
        score: best.score,
        pv: best.pv.clone(),
        depth: depth_done,
        nodes: search.nodes,
        elapsed: search.clock.elapsed(),
        lines,
        outcome: None,
    }
}

/// The iterative deepening of helper thread `index` (from 1): the best line of
/// each depth, odd helpers a ply ahead of the main thread, until the main thread
/// is done, the time runs out or the deepest iteration allowed is complete. The
/// node budget is the main thread's to keep.
#[allow(clippy::too_many_arguments)]
fn help<W: Word>(
    tt: &Tt,
    tables: &mut HelperTables,
    game: &Game<W>,
    limits: &Limits,
    left_out: &[Move],
    index: usize,
    team: &Team,
) -> Helped {
    tables.heur.clear();
    let pos = *game.position();
    let own = Limits {
        nodes: None,
        threads: 1,
        ..*limits
    };
    let mut search = Search::new(
        tt,
        &mut tables.heur,
        Clock::new(&own, &team.done),
        pos.variant(),
        game.keys().to_vec(),
        &mut tables.frames,
    );
    let ahead = (index % 2) as u32;
    let max_depth = limits.max_depth();
    let mut helped = Helped {
        depth: 0,
        best: None,
        nodes: 0,
    };
    while helped.depth < max_depth {
        // Never behind the main thread (what it has searched is in the table),
        // and at the last depth with it rather than idle.
        let depth = (helped.depth + 1)
            .max(team.depth.load(Ordering::Relaxed) + ahead)
            .min(max_depth);
        if !search.clock.may_deepen() {
            break;
        }
        let prev = helped.best.as_ref().and_then(|b| b.pv.first().copied());
        let result = search.root(&pos, depth as i32, left_out, prev);
        team.nodes
            .fetch_add(search.nodes - helped.nodes, Ordering::Relaxed);
        helped.nodes = search.nodes;
        if search.stopped {
            break;
        }
        let Some(r) = result else { break };
        helped.depth = depth;
        let done = decided(std::slice::from_ref(&r), depth);
        helped.best = Some(r);
        if done || depth == max_depth {
            team.reached.store(true, Ordering::Relaxed);
            break;
        }
    }
    helped
}

/// The public form of a search's root lines.
fn to_lines(results: &[RootResult]) -> Vec<Line> {
    results
        .iter()
        .filter_map(|r| {
            Some(Line {
                mv: *r.pv.first()?,
                score: Score::from_internal(r.score),
                pv: r.pv.clone(),
            })
        })
        .collect()
}

/// Analyses `game` with a fresh engine (see [`Searcher::analyze`]).
pub fn analyze<'a>(
    game: impl Into<AnyGameRef<'a>>,
    limits: &Limits,
    multipv: usize,
    stop: &AtomicBool,
) -> Analysis {
    Searcher::default().analyze(game, limits, multipv, stop)
}
