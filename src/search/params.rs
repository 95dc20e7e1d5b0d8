//! Every weight of the evaluation and every tunable of the search, by name.
//!
//! Scores are centipawn-like: 100 is one attacking soldier. Evaluation terms are
//! computed from the defenders' point of view and negated for the attackers.

/// Declares [`Weights`] and [`Term`] from one list: each weight of the evaluation
/// and the term it multiplies.
macro_rules! weights {
    ($($(#[$doc:meta])* $field:ident => $term:ident,)*) => {
        /// The evaluation weights of one preset family.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Weights {
            $($(#[$doc])* pub $field: i32,)*
        }

        /// A term of the evaluation: what one weight multiplies.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Term {
            $($term,)*
        }

        impl Term {
            /// Every term, in the order of [`Weights`]' fields.
            pub const ALL: &[Term] = &[$(Term::$term,)*];

            /// The name of the term's weight.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Term::$term => stringify!($field),)*
                }
            }
        }

        impl Weights {
            /// The weight of `term`.
            #[inline(always)]
            pub const fn get(&self, term: Term) -> i32 {
                match term {
                    $(Term::$term => self.$field,)*
                }
            }

            /// Sets the weight of `term`.
            pub fn set(&mut self, term: Term, value: i32) {
                match term {
                    $(Term::$term => self.$field = value,)*
                }
            }
        }
    };
}

weights! {
    /// One attacking soldier.
    attacker => Attacker,
    /// One defending soldier (the defenders have half as many).
    defender => Defender,
    /// Per square the king can reach in one move.
    king_mobility => KingMobility,
    /// Per square the king can reach in one move from which a line to an escape
    /// square is open (an escape in two moves).
    king_route => KingRoute,
    /// Per open line to an escape square while the attackers are to move (they
    /// must block it at once).
    king_open_line => KingOpenLine,
    /// Per attacker next to the king.
    king_adjacent_attacker => KingAdjacentAttacker,
    /// Per empty square next to the king that is hostile to him.
    king_adjacent_hostile => KingAdjacentHostile,
    /// Per attacker within two squares (Chebyshev) of the king.
    king_near_attacker => KingNearAttacker,
    /// Per defender soldier next to the king (a guard).
    king_guard => KingGuard,
    /// Per step between the king and the nearest escape square.
    king_distance => KingDistance,
    /// Per attacker on a square that guards an escape square: next to or diagonal
    /// to a corner (corner presets), or on the ring next to the edge (edge presets).
    escape_guard => EscapeGuard,
    /// An attackers' capture of the king threatened while the defenders are to
    /// move (they must answer it).
    king_in_danger => KingInDanger,
    /// Corner presets: per attacker on a diagonal that closes a corner (the
    /// squares two or three steps from it, such as a3 b2 c1 and a4 b3 c2 d1).
    corner_guard => CornerGuard,
    /// Corner presets: per corner closed by attackers on every square of one of
    /// those diagonals.
    corner_closed => CornerClosed,
    /// Corner presets: per open line from the king to an empty square next to a
    /// corner, from which he steps into the corner unstoppably.
    king_mouth_line => KingMouthLine,
    /// Corner presets: per square the king reaches in one move, counted once per
    /// open line from there to an empty square next to a corner.
    king_mouth_route => KingMouthRoute,
}

impl Weights {
    /// Whether any corner-play term counts (the evaluation skips them otherwise).
    pub const fn values_corner_play(&self) -> bool {
        self.corner_guard != 0
            || self.corner_closed != 0
            || self.king_mouth_line != 0
            || self.king_mouth_route != 0
    }
}

/// Corner-escape boards from this size on use [`CORNER_LARGE`].
pub const LARGE_BOARD: u8 = 9;

/// Brandubh and Brandubh (classic): the king escapes to a corner of a small board.
/// Tuned on self-play games (`branan tune-eval`, docs/lab-history.md): the terms
/// in no position of those games (the sharp ones, which the tuner leaves out, and
/// corner play) keep their hand-set values.
pub const CORNER: Weights = Weights {
    attacker: 100,
    defender: 115,
    king_mobility: -1,
    king_route: 21,
    king_open_line: 120,
    king_adjacent_attacker: 27,
    king_adjacent_hostile: 11,
    king_near_attacker: 42,
    king_guard: -28,
    king_distance: 12,
    escape_guard: -34,
    king_in_danger: 60,
    corner_guard: 0,
    corner_closed: 0,
    king_mouth_line: 0,
    king_mouth_route: 0,
};

/// Copenhagen, Fetlar and other corner-escape boards of 9x9 and more: material,
/// the king's freedom and surroundings, and corner play. A defending soldier,
/// the attackers near the king and the defenders beside him are set as the fits
/// of every family agree (a defender worth less, an attacker near the king more,
/// a guard beside him less than hand-set), at the values of these boards' own
/// fits (docs/lab-history.md); the rest are hand-set.
pub const CORNER_LARGE: Weights = Weights {
    attacker: 100,
    defender: 135,
    king_mobility: 3,
    king_route: 45,
    king_open_line: 120,
    king_adjacent_attacker: 30,
    king_adjacent_hostile: 20,
    king_near_attacker: 38,
    king_guard: -20,
    king_distance: 12,
    escape_guard: 18,
    king_in_danger: 60,
    corner_guard: 12,
    corner_closed: 60,
    king_mouth_line: 80,
    king_mouth_route: 30,
};

/// Tablut, Tablut (Linnaeus) and Tawlbwrdd: the king escapes to any edge square.
/// A defending soldier, the king's routes and the attackers near him are set
/// from self-play fits (`branan tune-eval`, docs/lab-history.md): the three terms on
/// which the fits of all three presets agreed; the rest are hand-set.
pub const EDGE: Weights = Weights {
    attacker: 100,
    defender: 120,
    king_mobility: 4,
    king_route: 15,
    king_open_line: 150,
    king_adjacent_attacker: 25,
    king_adjacent_hostile: 15,
    king_near_attacker: 35,
    king_guard: 6,
    king_distance: 20,
    escape_guard: 6,
    king_in_danger: 60,
    corner_guard: 0,
    corner_closed: 0,
    king_mouth_line: 0,
    king_mouth_route: 0,
};

/// A win: a forced win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores at or beyond this are wins or losses in a number of plies.
pub const MATE_BOUND: i32 = MATE - 10_000;
/// The deepest the search goes (plies from the root, quiescence included).
pub const MAX_PLY: usize = 128;
/// The deepest nominal depth of iterative deepening.
pub const MAX_DEPTH: u32 = 64;

/// Null-move pruning: from this depth on, with a reduction of
/// `NULL_MOVE_BASE + depth / NULL_MOVE_DIVISOR`.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
pub const NULL_MOVE_BASE: i32 = 2;
pub const NULL_MOVE_DIVISOR: i32 = 4;

/// Late-move reductions: quiet moves after the first `LMR_MIN_MOVES` from
/// `LMR_MIN_DEPTH` on are searched `LMR_BASE + ln(depth) ln(index) / LMR_DIVISOR`
/// plies shallower (one ply less at principal-variation nodes).
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVES: usize = 3;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;

/// Reverse futility pruning: a node that is not on the principal variation, at
/// most `RFP_MAX_DEPTH` plies from the horizon, whose static score beats beta by
/// `RFP_MARGIN` per ply of depth, is not searched.
pub const RFP_MAX_DEPTH: i32 = 3;
pub const RFP_MARGIN: i32 = 120;

/// Late-move pruning: at a node that is not on the principal variation, at most
/// `LMP_MAX_DEPTH` plies from the horizon, quiet moves after the first
/// `LMP_BASE + LMP_PER_DEPTH_SQUARED * depth * depth` are not searched.
pub const LMP_MAX_DEPTH: i32 = 3;
pub const LMP_BASE: usize = 4;
pub const LMP_PER_DEPTH_SQUARED: usize = 3;

/// Quiescence: how many plies of it may answer a threat to the king with every
/// move, and how many may add the king's moves that open a line to an escape.
pub const QS_EVASION_PLIES: u32 = 2;
pub const QS_KING_THREAT_PLIES: u32 = 4;

/// How many nodes pass between two looks at the clock and the stop flag.
pub const CHECK_EVERY_NODES: u64 = 1024;

/// Default transposition table size, in MiB.
pub const DEFAULT_TT_MB: usize = 16;

/// The forced-win solver at the root, before the search: the share of a time
/// limit it may spend (one part in this many), and its node budget (also the
/// most it spends in a search without a time limit, so that such a search stays
/// deterministic).
pub const ROOT_SOLVER_TIME_DIVISOR: u64 = 8;
pub const ROOT_SOLVER_NODES: u64 = 200_000;
/// On boards up to this size the search itself reaches most forced wins within
/// a time limit, and time given to the solver is time the search misses (an
/// eighth cost Brandubh and Tablut about 7 Elo at 200 ms a move); the solver's
/// share of a time limit there is one part in [`ROOT_SOLVER_TIME_DIVISOR_SMALL`].
pub const SMALL_SOLVER_BOARD: u8 = 9;
pub const ROOT_SOLVER_TIME_DIVISOR_SMALL: u64 = 32;
/// A win the solver proves in at most this many plies is answered without a
/// search; a longer one is searched on for a shorter win.
pub const SHORTEST_SEARCHED_WIN: i32 = 3;
/// The check of a win the search claims: at most this long after the search
/// (within the 50 ms an analysis may run over its time limit) and this many nodes.
pub const CHECK_MS: u64 = 40;
pub const CHECK_NODES: u64 = 2_000_000;
/// The solver's failure table: 2^this entries of 8 bytes.
pub const SOLVER_TABLE_BITS: u32 = 18;
/// What a line the search sees as won, but that no proof confirms, scores: above
/// any evaluation, below every proved result.
pub const UNPROVED_WIN_CP: i32 = 10_000;
