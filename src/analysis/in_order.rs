//! Answers that arrive in any order, handed out in the order of their requests: a
//! batch's items and a batch of lines are answered as they were asked, whatever
//! thread finishes first.

use std::collections::BTreeMap;

/// Items numbered from 0, put in as they arrive and taken in number order.
#[derive(Debug)]
pub struct InOrder<T> {
    next: usize,
    waiting: BTreeMap<usize, T>,
}

impl<T> Default for InOrder<T> {
    fn default() -> Self {
        InOrder {
            next: 0,
            waiting: BTreeMap::new(),
        }
    }
}

impl<T> InOrder<T> {
    /// Item `index` has arrived.
    pub fn put(&mut self, index: usize, item: T) {
        self.waiting.insert(index, item);
    }

    /// The next item in order, once it has arrived.
    pub fn take(&mut self) -> Option<T> {
        let item = self.waiting.remove(&self.next)?;
        self.next += 1;
        Some(item)
    }

    /// How many items have been taken.
    pub fn taken(&self) -> usize {
        self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_come_out_in_order_as_soon_as_they_can() {
        let mut order = InOrder::default();
        order.put(2, "c");
        assert_eq!(order.take(), None);
        order.put(0, "a");
        assert_eq!(order.take(), Some("a"));
        assert_eq!(order.take(), None);
        order.put(1, "b");
        assert_eq!(
            (order.take(), order.take(), order.take()),
            (Some("b"), Some("c"), None)
        );
        assert_eq!(order.taken(), 3);
    }
}
