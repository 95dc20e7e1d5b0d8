//! Time: the protocol's time settings, each side's clock, and how long the engine
//! thinks about one move.

use std::time::Duration;

/// The time settings of a game: untimed, or Fischer (a main time, and an increment
/// added after each move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSettings {
    Untimed,
    Fischer { main_ms: u64, increment_ms: u64 },
}

/// One side's clock: the time left, and the increment it gains per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideClock {
    pub left_ms: u64,
    pub increment_ms: u64,
}

impl SideClock {
    /// The clock after a move that took `used`: the time spent, then the increment.
    pub fn after_move(self, used: Duration) -> SideClock {
        let used = u64::try_from(used.as_millis()).unwrap_or(u64::MAX);
        SideClock {
            left_ms: self.left_ms.saturating_sub(used) + self.increment_ms,
            ..self
        }
    }
}

/// How the engine spends its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time for a move when the game is untimed.
    pub untimed_ms: u64,
    /// Time kept back for the connection and the answer's way back.
    pub reserve_ms: u64,
    /// Never more than this for one move.
    pub max_ms: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            untimed_ms: 2_000,
            reserve_ms: 300,
            max_ms: 30_000,
        }
    }
}

/// The moves a game is assumed to still last, for sharing out the time left.
const MOVES_TO_GO: u64 = 30;

impl Budget {
    /// The thinking time for one move with `clock` (`None`: untimed): a
    /// thirtieth of the time left after the reserve, plus most of the increment,
    /// never more than half the time left, and at least one millisecond.
    pub fn think_ms(&self, clock: Option<SideClock>) -> u64 {
        let Some(clock) = clock else {
            return self.untimed_ms.clamp(1, self.max_ms.max(1));
        };
        let usable = clock.left_ms.saturating_sub(self.reserve_ms);
        let share = usable / MOVES_TO_GO + clock.increment_ms * 3 / 4;
        share.min(usable / 2).clamp(1, self.max_ms.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untimed_uses_the_fixed_time() {
        assert_eq!(Budget::default().think_ms(None), 2_000);
    }

    #[test]
    fn fischer_shares_the_time_and_the_increment() {
        let b = Budget::default();
        // 5 minutes + 3 s: (300_000 - 300) / 30 + 2_250.
        let c = SideClock {
            left_ms: 300_000,
            increment_ms: 3_000,
        };
        assert_eq!(b.think_ms(Some(c)), 9_990 + 2_250);
        // Never more than the longest think.
        let c = SideClock {
            left_ms: 3_600_000,
            increment_ms: 60_000,
        };
        assert_eq!(b.think_ms(Some(c)), 30_000);
        // Little time left: never more than half of it.
        let c = SideClock {
            left_ms: 1_300,
            increment_ms: 10_000,
        };
        assert_eq!(b.think_ms(Some(c)), 500);
        // Nothing left: still a move.
        let c = SideClock {
            left_ms: 0,
            increment_ms: 0,
        };
        assert_eq!(b.think_ms(Some(c)), 1);
    }

    #[test]
    fn a_move_costs_its_time_and_gains_the_increment() {
        let c = SideClock {
            left_ms: 1_000,
            increment_ms: 500,
        };
        assert_eq!(c.after_move(Duration::from_millis(300)).left_ms, 1_200);
        assert_eq!(c.after_move(Duration::from_secs(5)).left_ms, 500);
    }
}
