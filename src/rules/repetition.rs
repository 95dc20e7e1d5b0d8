//! The repetition window: the positions of a game that its current position can
//! repeat. The game, the analysis cache and the search all judge repetition
//! through it.

/// The keys of the positions since the last capture, the current one last: no
/// position before a capture can recur (a capture cannot be undone).
///
/// ```
/// use branan::rules::RepetitionWindow;
/// let w = RepetitionWindow::new(&[9, 7, 1, 7, 2, 7], 4);
/// assert_eq!(w.occurrences(), 3);
/// assert_eq!(w.earlier(), [7, 1, 7, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepetitionWindow<'a> {
    keys: &'a [u64],
}

impl<'a> RepetitionWindow<'a> {
    /// The window over `keys` (every position so far, the current one last) whose
    /// current position has `plies_since_capture` as its no-capture counter.
    #[inline]
    pub fn new(keys: &'a [u64], plies_since_capture: u16) -> RepetitionWindow<'a> {
        let span = (plies_since_capture as usize + 1).min(keys.len());
        RepetitionWindow {
            keys: &keys[keys.len() - span..],
        }
    }

    /// How many times the current position occurs (1 when it is new, 0 when there
    /// are no keys). Only every second position has the same side to move, and a
    /// position cannot recur within four plies (both sides would have to move a
    /// piece away and back, or one of them pass twice in a row), so a window of
    /// fewer than five keys is not read.
    #[inline]
    pub fn occurrences(&self) -> usize {
        let Some(&last) = self.keys.last() else {
            return 0;
        };
        if self.keys.len() < 5 {
            return 1;
        }
        self.keys
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == last)
            .count()
    }

    /// The keys of the window before the current position.
    pub fn earlier(&self) -> &'a [u64] {
        match self.keys.split_last() {
            Some((_, earlier)) => earlier,
            None => &[],
        }
    }
}

/// How many times the last key of `keys` occurs in its repetition window (see
/// [`RepetitionWindow::occurrences`]).
///
/// ```
/// assert_eq!(branan::rules::repetitions(&[7, 1, 7, 2, 7], 4), 3);
/// assert_eq!(branan::rules::repetitions(&[7, 1, 7, 2, 7], 1), 1);
/// ```
pub fn repetitions(keys: &[u64], plies_since_capture: u16) -> usize {
    RepetitionWindow::new(keys, plies_since_capture).occurrences()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_starts_at_the_last_capture() {
        let keys = [5, 7, 1, 7, 2, 7, 3, 7];
        assert_eq!(RepetitionWindow::new(&keys, 6).occurrences(), 4);
        assert_eq!(RepetitionWindow::new(&keys, 4).occurrences(), 3);
        assert_eq!(RepetitionWindow::new(&keys, 4).earlier(), [7, 2, 7, 3]);
        assert_eq!(RepetitionWindow::new(&keys, 100).earlier().len(), 7);
        assert_eq!(RepetitionWindow::new(&[], 3).occurrences(), 0);
        assert!(RepetitionWindow::new(&[], 3).earlier().is_empty());
    }
}
