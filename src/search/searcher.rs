//! The searcher's API: a reusable engine ([`Searcher`]) that answers an
//! [`Analysis`].

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::deepen::deepen;
use super::level::{self, LevelRequest};
use super::move_picker::Heuristics;
use super::negamax::Frames;
use super::params::{DEFAULT_TT_MB, SHORTEST_SEARCHED_WIN};
use super::prove::{self, Checked};
use super::smp::{self, HelperTables};
use super::tt::Tt;
use super::{Analysis, Iteration, Limits, Score};
use crate::rules::{AnyGameRef, Game, Move, Word, with_word};

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
    frames: Frames,
    /// The tables of the helper threads, made when a search first needs them.
    helpers: Vec<HelperTables>,
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
            frames: Frames::default(),
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
        request.run(
            level::BoardClass::of_variant(game.variant()),
            |limits, lines| self.analyze_with(game, limits, lines, stop, listener),
        )
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

    /// The analysis of the game's position, over `only` of its moves when given,
    /// with the tables as they are: the solver's try at the root, then the
    /// iterative deepening on this thread alone, or with helper threads when the
    /// limits ask for more than one; every forced result it claims is checked
    /// ([`prove`]).
    fn search<W: Word>(
        &mut self,
        game: &Game<W>,
        limits: &Limits,
        multipv: usize,
        stop: &AtomicBool,
        mut listener: Option<&mut dyn FnMut(&Iteration<'_>)>,
        only: Option<&[Move]>,
    ) -> Analysis {
        let Searcher {
            tt,
            heur,
            frames,
            helpers,
            ..
        } = self;
        heur.fit::<W>();
        let frames = frames.of::<W>();
        let tt: &Tt = tt;
        let over = game.outcome().is_some();
        let root = (only.is_none() && !over).then(|| prove::solve_root(game, limits, stop));
        let solved = root
            .as_ref()
            .and_then(|r| r.won.as_ref())
            .and_then(prove::solved_line);
        let root_nodes = root.as_ref().map_or(0, |r| r.nodes);
        if let (Some(line), Some(root)) = (&solved, &root)
            && multipv <= 1
            && matches!(line.score, Score::Win(n) if n <= SHORTEST_SEARCHED_WIN)
        {
            // A win this short needs no search: the solver has tried every move
            // for a win in one. A longer one is searched on, for a shorter win
            // by quiet moves, which the solver does not look for.
            let lines = vec![line.clone()];
            let depth = root.won.as_ref().map_or(0, |w| w.plies);
            if let Some(listener) = listener.as_mut() {
                listener(&Iteration {
                    depth,
                    lines: &lines,
                    nodes: root_nodes,
                    elapsed: root.elapsed,
                });
            }
            return Analysis {
                best_move: Some(line.mv),
                score: line.score,
                pv: line.pv.clone(),
                depth,
                nodes: root_nodes,
                elapsed: root.elapsed,
                lines,
                outcome: None,
            };
        }
        // The search has what the solver left of the time, and of a node limit
        // what the solver and the checks leave.
        let mut check_left = prove::check_nodes(limits);
        let mut limits = *limits;
        if let (Some(r), Some(ms)) = (&root, limits.time_ms) {
            limits.time_ms = Some(ms.saturating_sub(r.elapsed.as_millis() as u64).max(1));
        }
        if let Some(n) = limits.nodes {
            limits.nodes = Some(n.saturating_sub(root_nodes + check_left).max(1));
        }
        let mut check_spent = 0;
        // Every iteration's forced results are checked as they come, in the
        // search's time (half of what is left), so that a listener hears only
        // proved ones and the check at the end has little left to do.
        let mut checked = Checked::new();
        let mut analysis = {
            let mut listener = listener;
            let started = std::time::Instant::now();
            let mut checked_lines = |it: &Iteration<'_>| {
                if !it.lines.iter().any(|l| matches!(l.score, Score::Win(_))) {
                    if let Some(listener) = listener.as_mut() {
                        listener(&Iteration {
                            nodes: it.nodes + root_nodes + check_spent,
                            ..*it
                        });
                    }
                    return;
                }
                let deadline = limits.time_ms.map(|ms| {
                    let end = started + Duration::from_millis(ms);
                    let now = std::time::Instant::now();
                    now + end.saturating_duration_since(now) / 2
                });
                let mut lines = it.lines.to_vec();
                check_spent += prove::check_lines(
                    game,
                    tt,
                    &mut lines,
                    deadline,
                    stop,
                    &mut checked,
                    &mut check_left,
                );
                if let Some(listener) = listener.as_mut() {
                    listener(&Iteration {
                        lines: &lines,
                        nodes: it.nodes + root_nodes + check_spent,
                        ..*it
                    });
                }
            };
            let listener: Option<&mut dyn FnMut(&Iteration<'_>)> = Some(&mut checked_lines);
            let wanted = limits.threads.max(1);
            // A finished game or a forced move needs no search of its own.
            if wanted == 1 || over || game.position().legal_moves().len() <= 1 {
                deepen(
                    tt, heur, frames, game, &limits, multipv, stop, listener, only, None,
                )
            } else {
                smp::search_with_helpers(
                    tt, heur, frames, helpers, game, &limits, multipv, stop, listener, only, wanted,
                )
            }
        };
        analysis.nodes += root_nodes + check_spent;
        analysis.elapsed += root.as_ref().map_or(Duration::ZERO, |r| r.elapsed);
        let deadline = prove::final_deadline(&limits);
        analysis.nodes += prove::check_lines(
            game,
            tt,
            &mut analysis.lines,
            deadline,
            stop,
            &mut checked,
            &mut check_left,
        );
        if let Some(line) = solved {
            prove::merge_solved(&mut analysis.lines, line, multipv);
        }
        if let Some(best) = analysis.lines.first() {
            analysis.best_move = Some(best.mv);
            analysis.score = best.score;
            analysis.pv = best.pv.clone();
        }
        analysis
    }
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
