//! A search on several threads, the usual lazy SMP: helper threads run their own
//! iterative deepening of the same position, half of them a ply ahead of the main
//! thread, each with its own ordering tables and all sharing the one
//! transposition table. The main thread's answer is kept unless a helper completed
//! a deeper iteration (with one line asked; a helper that completes the deepest
//! iteration allowed then ends the search), and the nodes of all are counted.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use super::clock::Clock;
use super::deepen::{Team, decided, deepen, left_out, to_lines};
use super::move_picker::Heuristics;
use super::negamax::{Frame, Frames, RootResult, Search};
use super::tt::Tt;
use super::{Analysis, Iteration, Limits};
use crate::rules::{Game, Move, Word};

/// What a helper thread of a search owns: its ordering tables and move lists.
pub(super) struct HelperTables {
    heur: Heuristics,
    frames: Frames,
}

/// What a helper thread found: its deepest completed iteration and its nodes.
struct Helped {
    depth: u32,
    best: Option<RootResult>,
    nodes: u64,
}

/// The search of `game` on the main thread and `wanted - 1` helpers (their tables
/// made when first needed), with what the main thread's [`deepen`] takes.
#[allow(clippy::too_many_arguments)]
pub(super) fn search_with_helpers<W: Word>(
    tt: &Tt,
    heur: &mut Heuristics,
    frames: &mut [Frame<W>],
    helpers: &mut Vec<HelperTables>,
    game: &Game<W>,
    limits: &Limits,
    multipv: usize,
    stop: &AtomicBool,
    listener: Option<&mut dyn FnMut(&Iteration<'_>)>,
    only: Option<&[Move]>,
    wanted: usize,
) -> Analysis {
    while helpers.len() < wanted - 1 {
        helpers.push(HelperTables {
            heur: Heuristics::new(),
            frames: Frames::default(),
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
    tables.heur.fit::<W>();
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
        tables.frames.of::<W>(),
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
