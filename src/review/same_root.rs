//! The search of one position of a game, with the move played there scored in the
//! same search: the best move's score and the played move's come from the same root,
//! at the same depth, with the same transposition table, so that their difference is
//! what the move gave away rather than the disagreement of two searches of two
//! positions (which differ by tens of centipawns when no move was bad).
//!
//! The position is analysed as usual; then, when the move played is not the best
//! line, the root is searched again over that move alone, to the depth of the best
//! line, keeping the tables of the first search ([`Searcher::analyze_moves`]).

use std::sync::atomic::AtomicBool;

use crate::rules::{AnyGame, AnyGameRef, Move};
use crate::search::level::BoardClass;
use crate::search::{Analysis, Iteration, LevelRequest, Limits, Score, Searcher};

/// The move played and the best move, scored in the same search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compared {
    /// The move played.
    pub played: Move,
    /// Its score, from the point of view of the side that played it.
    pub score: Score,
    /// The best move's score at the same depth of the same search.
    pub best: Score,
    /// The depth both scores were searched to.
    pub depth: u32,
}

/// One position's search for a review.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    /// The position's analysis (its first line is the best move's).
    pub analysis: Analysis,
    /// The move played in the position, scored in the same search; `None` when no
    /// move was played there (the last position), when it is the best line's move
    /// (its score is the best's), or when its own search completed no depth.
    pub compared: Option<Compared>,
}

impl Searched {
    /// A search without a move to compare (the position after the last move, or
    /// an analysis made for another purpose).
    pub fn alone(analysis: Analysis) -> Searched {
        Searched {
            analysis,
            compared: None,
        }
    }
}

/// Analyses the game's position with `limits` and `multipv` lines, then scores
/// `played` (the move made there, legal) in the same search. The played move's
/// search has the same limits, bounded by the depth of the best line (unless the
/// best line is a forced win): it costs at most the time of the first search
/// again, and usually a small part of it, since the table already holds most of
/// that move's tree.
pub fn search<'a>(
    searcher: &mut Searcher,
    game: impl Into<AnyGameRef<'a>>,
    played: Option<Move>,
    limits: &Limits,
    multipv: usize,
    stop: &AtomicBool,
) -> Searched {
    let game = game.into();
    // The best line of each completed iteration (index: depth - 1), to compare
    // with when the played move's search ends at a shallower depth.
    let mut best_by_depth: Vec<(Move, Score)> = Vec::new();
    let mut record = |it: &Iteration<'_>| {
        if let Some(l) = it.lines.first() {
            best_by_depth.truncate(it.depth.saturating_sub(1) as usize);
            best_by_depth.push((l.mv, l.score));
        }
    };
    let analysis = searcher.analyze_with(game, limits, multipv, stop, Some(&mut record));
    let compared =
        played.and_then(|mv| compare(searcher, game, mv, &analysis, &best_by_depth, limits, stop));
    Searched { analysis, compared }
}

/// Scores `mv` in the search that made `analysis` (see [`search`]).
fn compare(
    searcher: &mut Searcher,
    game: AnyGameRef<'_>,
    mv: Move,
    analysis: &Analysis,
    best_by_depth: &[(Move, Score)],
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Compared> {
    if analysis.outcome.is_some() {
        return None;
    }
    let best = analysis.lines.first()?;
    if best.mv == mv {
        return None;
    }
    // Another of the analysis's lines: already searched at the best line's depth.
    if let Some(line) = analysis.lines.iter().find(|l| l.mv == mv) {
        return Some(Compared {
            played: mv,
            score: line.score,
            best: best.score,
            depth: analysis.depth,
        });
    }
    // The best line is of the deepest completed iteration, or of the next one,
    // cut short at the deadline after its first move(s) were searched; a proved
    // win (which the solver may have found before any iteration) holds at any
    // depth.
    let deepest = analysis.depth as usize;
    let proved_win = matches!(best.score, Score::Win(n) if n > 0);
    let best_depth = if proved_win
        || (deepest > 0 && best_by_depth.get(deepest - 1) == Some(&(best.mv, best.score)))
    {
        analysis.depth
    } else {
        analysis.depth + 1
    };
    // A forced win ends the first search early, at the depth that proves it; a
    // slower win by the played move may need more: that move is searched with the
    // whole limits then (a slower win is no missed win).
    let own = match best.score {
        Score::Win(n) if n > 0 => *limits,
        _ => Limits {
            depth: Some(best_depth),
            ..*limits
        },
    };
    let alone = searcher.analyze_moves(game, &own, &[mv], stop);
    let line = alone.lines.first().filter(|l| l.mv == mv)?;
    if alone.depth == 0 {
        return None;
    }
    let decided = matches!(line.score, Score::Win(_));
    if alone.depth >= best_depth || decided {
        // To the best line's depth, or a forced result (which a deeper search
        // would find too).
        return Some(Compared {
            played: mv,
            score: line.score,
            best: best.score,
            depth: best_depth,
        });
    }
    // Stopped by the limits before the best line's depth: compare with the best
    // line of the first search at the depth the played move reached.
    let &(_, at_depth) = best_by_depth.get(alone.depth as usize - 1)?;
    Some(Compared {
        played: mv,
        score: line.score,
        best: at_depth,
        depth: alone.depth,
    })
}

/// [`search`] at a strength level (see [`LevelRequest::run`]): the level's own
/// limits and lines, its choice of best move, `request.multipv` lines kept.
pub fn search_at_level(
    searcher: &mut Searcher,
    game: &AnyGame,
    played: Option<Move>,
    request: &LevelRequest,
    stop: &AtomicBool,
) -> Searched {
    let mut compared = None;
    let analysis = request.run(BoardClass::of_variant(game.variant()), |limits, lines| {
        let searched = search(searcher, game, played, limits, lines, stop);
        compared = searched.compared;
        searched.analysis
    });
    Searched { analysis, compared }
}
