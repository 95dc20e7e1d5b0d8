//! The forms of an analysis: the request, the answer (its score, lines, limits and
//! engine), a batch and its answers, and the data of a streamed iteration.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::analysis::{AnalysisError, Answer, Ask, Prepared, Settings, prepare};
use crate::rules::{AnyGame, Move};
use crate::search::{self, Iteration, Score};

use super::game::{PiecesDto, SideDto, StatusDto, game_fields, pieces};
use super::problem::Problem;
use super::request::game_body;
use super::rule_object::RulesSchema;

game_body! {
    /// An analysis request.
    #[derive(Clone, Debug, Deserialize, ToSchema)]
    #[serde(deny_unknown_fields)]
    #[schema(example = json!({"variant": "brandubh", "depth": 4}))]
    pub struct AnalyzeRequest {
        /// The starting position (default: the preset's start).
        #[serde(default)]
        pub position: Option<String>,
        /// Moves played from `position` before the analysis; repetition counts them.
        #[serde(default)]
        pub moves: Option<Vec<String>>,
        /// Time budget in milliseconds (default 1,000 when neither `depth` nor `nodes`
        /// is given; clamped to the server's maximum, 10,000 by default, which also
        /// bounds depth- and node-limited searches).
        #[serde(default)]
        pub time_ms: Option<u64>,
        /// Deepest iteration, in plies (clamped to the server's maximum). With `depth`
        /// or `nodes` and no `time_ms`, the answer is deterministic (and cacheable).
        #[serde(default)]
        pub depth: Option<u32>,
        /// Node budget (clamped to the server's maximum).
        #[serde(default)]
        pub nodes: Option<u64>,
        /// How many best lines to return in `lines`, 1 to 5 (default 1).
        #[serde(default)]
        pub multipv: Option<usize>,
        /// Playing strength, 1 (beginner) to 10 (full strength, the default). Below 10
        /// the search is bounded by a depth or a number of nodes (the same strength at
        /// any time per move) and the move is chosen among the best lines at random,
        /// weighted by score; a forced win is always played and a move that loses by
        /// force never chosen while another does not.
        #[serde(default)]
        #[schema(minimum = 1, maximum = 10)]
        pub level: Option<i64>,
        /// Seed of a level's choice (0 to 2^53 - 1, default 0): the same request with
        /// the same seed gives the same move whenever the level's own depth or node
        /// bound stops the search before the time does.
        #[serde(default)]
        #[schema(minimum = 0, maximum = 9007199254740991_i64)]
        pub seed: Option<i64>,
        /// Search threads for this analysis, 1 (the default) to the server's maximum
        /// (by default its number of search threads). The threads search together
        /// and share what they find, so the search goes deeper in the same time;
        /// each takes one of the server's search threads. On more than one thread
        /// the answer may vary from run to run, also with `depth` or `nodes` (the node
        /// budget then counts the main thread's nodes; `nodes` in the answer counts
        /// every thread's). In a batch each item is searched on one thread.
        #[serde(default)]
        #[schema(minimum = 1)]
        pub threads: Option<usize>,
    }
}

/// A score from the side to move's point of view: `{"cp": n}` (100 = one soldier)
/// or `{"win": n}` (the side to move wins in n plies; negative: it loses in |n|).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = Score)]
pub enum ScoreDto {
    Cp(i32),
    Win(i32),
}

impl From<Score> for ScoreDto {
    fn from(s: Score) -> ScoreDto {
        match s {
            Score::Cp(cp) => ScoreDto::Cp(cp),
            Score::Win(n) => ScoreDto::Win(n),
        }
    }
}

/// How a forced result (`{"win": n}`) is known: `solver`, found by the forced-win
/// solver; `search`, found by the search and checked by walking every defence.
/// Either way it is a proof under the full rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = Proof)]
pub enum ProofDto {
    Solver,
    Search,
}

impl From<search::Proof> for ProofDto {
    fn from(p: search::Proof) -> ProofDto {
        match p {
            search::Proof::Solver => ProofDto::Solver,
            search::Proof::Search => ProofDto::Search,
        }
    }
}

/// One of the best lines.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(as = Line)]
pub struct LineDto {
    #[serde(rename = "move")]
    pub mv: String,
    pub score: ScoreDto,
    /// How `score` is known when it is a forced result (absent for an estimate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofDto>,
    /// `score` as the side to move's expected result, 0 to 1 (see the analysis's
    /// `win_chance`).
    #[schema(minimum = 0, maximum = 1, example = 0.52)]
    pub win_chance: f64,
    pub pv: Vec<String>,
}

impl LineDto {
    /// One of the engine's lines in `game`, with its moves written out.
    pub fn of(l: &search::Line, game: &AnyGame) -> LineDto {
        LineDto {
            mv: l.mv.to_string(),
            score: l.score.into(),
            proof: l.proof.map(Into::into),
            win_chance: win_chance(game, l.score),
            pv: l.pv.iter().map(ToString::to_string).collect(),
        }
    }
}

/// The side to move's expected result in `game` for its `score`, from the preset's
/// fitted curve (the result itself on a finished game), rounded to three decimals:
/// it is an estimate, and short numbers read better.
pub fn win_chance(game: &AnyGame, score: Score) -> f64 {
    let chance = crate::review::win_chance_to_move(game, score);
    (chance * 1000.0).round() / 1000.0
}

/// The engine that made an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Engine, example = json!({"name": "branan", "version": "0.1.0"}))]
pub struct EngineDto {
    pub name: &'static str,
    pub version: &'static str,
}

/// This build's engine.
pub const ENGINE: EngineDto = EngineDto {
    name: env!("CARGO_PKG_NAME"),
    version: env!("CARGO_PKG_VERSION"),
};

/// The limits a search ran with, after clamping to the server's maximums.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = AppliedLimits)]
pub struct LimitsDto {
    /// Time budget in milliseconds (it also bounds depth- and node-limited
    /// searches: the server's maximum then).
    pub time_ms: Option<u64>,
    /// Deepest iteration allowed (`null`: none but the time).
    #[schema(required = true)]
    pub depth: Option<u32>,
    /// Node budget (`null`: none).
    #[schema(required = true)]
    pub nodes: Option<u64>,
}

impl From<search::Limits> for LimitsDto {
    fn from(l: search::Limits) -> LimitsDto {
        LimitsDto {
            time_ms: l.time_ms,
            depth: l.depth,
            nodes: l.nodes,
        }
    }
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct AnalyzeResponse {
    pub variant: String,
    /// The canonical id of the rules played (see `GET /v1/variants`).
    pub rules_id: String,
    /// The position analysed (after the listed moves).
    pub position: String,
    /// The board's side length.
    pub size: u8,
    /// The analysed position's pieces by square.
    pub pieces: PiecesDto,
    pub to_move: SideDto,
    pub status: StatusDto,
    /// The best move; `null` when the game is over.
    pub best_move: Option<String>,
    /// The best line's score (`{"cp": 0}` on a finished game).
    pub score: ScoreDto,
    /// How `score` is known when it is a forced result: `solver` or `search`
    /// (absent for an estimate). A `{"win": n}` score is always proved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofDto>,
    /// The side to move's expected result, 0 to 1: the chance that it wins, read
    /// from `score` by a curve fitted on self-play games for each preset, the same
    /// as `POST /v1/review` uses (1 for a forced win, 0 for a forced loss; on a
    /// finished game the result, 0.5 for a draw). The other side's is 1 minus it;
    /// an evaluation bar can draw it as it is.
    #[schema(minimum = 0, maximum = 1, example = 0.52)]
    pub win_chance: f64,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<String>,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    /// Time the search took, in milliseconds.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Whether the answer came from the evaluation cache.
    pub cached: bool,
    /// The limits the search ran with, after clamping to the server's maximums
    /// (for a cached answer to a time-limited request: those of the search that
    /// made it).
    pub limits: LimitsDto,
    /// The engine that made the analysis.
    pub engine: EngineDto,
    /// The best lines, best first (with `multipv` above 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineDto>>,
    /// Batch items only: the item's `id` as the client sent it (any JSON value,
    /// echoed unchanged); absent when the item had none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Value)]
    pub id: Option<serde_json::Value>,
}

/// A batch of analysis requests.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object with `items`, a list of analysis requests"
)]
#[schema(example = json!({"items": [{"id": "a", "variant": "brandubh", "depth": 3}, {"id": 2, "variant": "tablut", "depth": 2}]}))]
pub struct BatchRequest {
    /// Analysis requests (objects with the fields of `POST /v1/analyze`'s
    /// `AnalyzeRequest`, and an optional `id`, any JSON value, echoed in the item's
    /// answer), at most the server's batch limit (256 by default). Each is checked on
    /// its own: an item that does not fit (not an object, an unknown field, a wrong
    /// type) gets its own 400 problem in `results` and the others are answered, so
    /// the schema accepts any JSON value here.
    #[schema(value_type = Vec<Value>)]
    pub items: Vec<serde_json::Value>,
}

/// One answer of a batch: an analysis, or the problem of that item.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
pub enum BatchItem {
    Ok(AnalyzeResponse),
    Problem(Problem),
}

/// The answers of a batch, in the order of the items.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct BatchResponse {
    pub results: Vec<BatchItem>,
}

/// A problem of batch item `index`: its `field` becomes the path from the batch
/// (`items[2].moves[3]`), its `index` the item's, and the detail says which item.
pub fn item_problem(index: usize, mut p: Problem) -> Problem {
    let at = format!("items[{index}]");
    p.field = Some(match (p.field.take(), p.index) {
        (Some(f), Some(i)) => format!("{at}.{f}[{i}]"),
        (Some(f), None) if f == "body" => at.clone(),
        (Some(f), None) => format!("{at}.{f}"),
        (None, _) => at.clone(),
    });
    p.index = Some(index);
    p.detail = format!("{at}: {}", p.detail);
    p
}

impl AnalyzeRequest {
    /// The limits and strength asked.
    pub fn ask(&self) -> Ask {
        Ask {
            time_ms: self.time_ms,
            depth: self.depth,
            nodes: self.nodes,
            multipv: self.multipv,
            level: self.level,
            seed: self.seed,
            threads: self.threads,
        }
    }

    /// Checks the request: the game (as `/v1/moves` does), then the limits.
    pub fn prepare(&self, settings: &Settings) -> Result<Prepared, AnalysisError> {
        prepare(&self.game(), &self.ask(), settings)
    }
}

impl AnalyzeResponse {
    /// The answer of an analysis (the limits are those of the search that made it).
    pub fn of(answer: &Answer) -> AnalyzeResponse {
        let p = &answer.prepared;
        let a = &answer.stored.analysis;
        let (position, to_move, status) = game_fields(&p.built.game);
        let ms = a.elapsed.as_millis() as u64;
        let nps = (a.nodes as f64 / a.elapsed.as_secs_f64().max(1e-6)) as u64;
        let names = |pv: &[crate::rules::Move]| pv.iter().map(ToString::to_string).collect();
        AnalyzeResponse {
            variant: p.built.variant.id().to_owned(),
            rules_id: p.built.variant.rules_id().to_owned(),
            position,
            size: p.built.variant.size(),
            pieces: pieces(&p.built.game),
            to_move,
            status,
            best_move: a.best_move.map(|m| m.to_string()),
            score: a.score.into(),
            proof: a.lines.first().and_then(|l| l.proof).map(Into::into),
            win_chance: win_chance(&p.built.game, a.score),
            pv: names(&a.pv),
            depth: a.depth,
            nodes: a.nodes,
            time_ms: ms,
            nps,
            cached: answer.cached,
            limits: answer.stored.limits.into(),
            engine: ENGINE,
            lines: (p.multipv > 1).then(|| {
                a.lines
                    .iter()
                    .map(|l| LineDto::of(l, &p.built.game))
                    .collect()
            }),
            id: None,
        }
    }
}

/// The data of an `info` event: one completed iteration.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(example = json!({"depth": 3, "score": {"cp": 160}, "win_chance": 0.123, "pv": ["d2-f2", "d3-e3", "d6-f6"], "nodes": 960, "nps": 1920000, "time_ms": 0}))]
pub struct InfoEvent {
    /// The depth just completed.
    pub depth: u32,
    /// The best line's score, from the side to move's point of view.
    pub score: ScoreDto,
    /// How `score` is known when it is a forced result (absent for an estimate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofDto>,
    /// `score` as the side to move's expected result, 0 to 1 (as the analysis's
    /// `win_chance`).
    #[schema(minimum = 0, maximum = 1)]
    pub win_chance: f64,
    /// The best line at this depth.
    pub pv: Vec<String>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started, in milliseconds.
    pub time_ms: u64,
    /// The best lines at this depth, best first (with `multipv` above 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineDto>>,
}

impl InfoEvent {
    pub fn of(it: &Iteration<'_>, multipv: usize, game: &AnyGame) -> InfoEvent {
        let names = |pv: &[Move]| pv.iter().map(ToString::to_string).collect::<Vec<_>>();
        let best = it.lines.first();
        let score = best.map_or(Score::Cp(0), |l| l.score);
        InfoEvent {
            depth: it.depth,
            score: score.into(),
            proof: best.and_then(|l| l.proof).map(Into::into),
            win_chance: win_chance(game, score),
            pv: best.map_or_else(Vec::new, |l| names(&l.pv)),
            nodes: it.nodes,
            nps: (it.nodes as f64 / it.elapsed.as_secs_f64().max(1e-6)) as u64,
            time_ms: it.elapsed.as_millis() as u64,
            // A level may search more lines than were asked for.
            lines: (multipv > 1).then(|| {
                it.lines
                    .iter()
                    .take(multipv)
                    .map(|l| LineDto::of(l, game))
                    .collect()
            }),
        }
    }
}
