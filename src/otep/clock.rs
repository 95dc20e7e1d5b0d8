//! How long to think about one move, from the last `clock` OpenTafl sent.
//!
//! OpenTafl's clock runs from the `play` line until it reads the `move` line. A
//! side has main time, then overtime periods of a fixed length: a move made within
//! a period keeps it, a period that runs out is used up, and a side with neither
//! main time nor a period left loses on time. So a move is given a share of the
//! main time (the game is expected to last a good many more moves), plus most of
//! one overtime period when the side has one left (running into it costs nothing
//! if the move comes before it ends), and never more than the time that is really
//! left less a margin for the pipe and OpenTafl's own work.

use super::command::{ClockReport, SideClock};
use crate::rules::Side;

/// The share of the main time one move gets: the moves still expected.
const MOVES_TO_GO: u64 = 30;
/// Time kept back from what is left, for the pipe and OpenTafl's own work.
const MARGIN_MS: u64 = 250;
/// The least a search is given.
const MIN_MS: u64 = 10;

/// Milliseconds to think about a move for `side` under `report`.
pub fn budget(report: &ClockReport, side: Side) -> u64 {
    let mine: SideClock = report.of(side);
    let period_ms = report.overtime_secs.saturating_mul(1000);
    let have_period = period_ms > 0 && mine.overtimes > 0;
    // What can be spent on this move without losing anything: the main time and,
    // past it, one overtime period; or, in overtime, the rest of this period.
    let (share, spendable) = if mine.in_overtime {
        (mine.millis / 2, mine.millis)
    } else {
        let period = if have_period { period_ms } else { 0 };
        (
            mine.millis / MOVES_TO_GO + period / 2,
            mine.millis.saturating_add(period),
        )
    };
    // The margin grows with the time at stake, and is at most half of it.
    let margin = (MARGIN_MS + spendable / 20).min(spendable / 2);
    share.min(spendable - margin).max(MIN_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(a: SideClock, overtime_secs: u64) -> ClockReport {
        ClockReport {
            attackers: a,
            defenders: SideClock {
                millis: 1,
                in_overtime: false,
                overtimes: 0,
            },
            overtime_secs,
        }
    }

    fn main_time(millis: u64, overtimes: u32) -> SideClock {
        SideClock {
            millis,
            in_overtime: false,
            overtimes,
        }
    }

    #[test]
    fn a_share_of_main_time() {
        // Five minutes, no overtime: ten seconds a move.
        assert_eq!(
            budget(&report(main_time(300_000, 0), 0), Side::Attackers),
            10_000
        );
        // With 30-second periods left, most of one period on top.
        assert_eq!(
            budget(&report(main_time(300_000, 3), 30), Side::Attackers),
            25_000
        );
    }

    #[test]
    fn never_more_than_is_left() {
        for millis in [0, 5, 100, 400, 1_000, 3_000] {
            let b = budget(&report(main_time(millis, 0), 0), Side::Attackers);
            assert!(b <= millis.max(MIN_MS), "{millis}: {b}");
        }
        // In the last seconds of an overtime period: well inside it.
        let ot = SideClock {
            millis: 2_000,
            in_overtime: true,
            overtimes: 1,
        };
        let b = budget(&report(ot, 10), Side::Attackers);
        assert!((500..=1_000).contains(&b), "{b}");
    }

    #[test]
    fn reads_the_side_it_plays() {
        let r = ClockReport {
            attackers: main_time(0, 0),
            defenders: main_time(60_000, 0),
            overtime_secs: 0,
        };
        assert_eq!(budget(&r, Side::Defenders), 2_000);
        assert_eq!(budget(&r, Side::Attackers), MIN_MS);
    }
}
