//! A few values kept by what they were made from, the most recently used
//! last; past its capacity the least recently used goes. The caches of the
//! reducer and the cluster view (node timelines, node series, class sums).

#[derive(Debug, Clone)]
pub struct Kept<K, V> {
    entries: Vec<(K, V)>,
    capacity: usize,
}

impl<K, V: Clone> Kept<K, V> {
    pub fn new(capacity: usize) -> Self {
        Kept {
            entries: vec![],
            capacity,
        }
    }

    /// The value whose key `is` finds, or the one `make` makes with its
    /// key; kept either way as the most recently used.
    pub fn get_or(&mut self, is: impl Fn(&K) -> bool, make: impl FnOnce() -> (K, V)) -> V {
        let entry = match self.entries.iter().position(|(k, _)| is(k)) {
            Some(i) => self.entries.remove(i),
            None => make(),
        };
        let value = entry.1.clone();
        self.entries.push(entry);
        if self.entries.len() > self.capacity {
            self.entries.remove(0);
        }
        value
    }

    /// What is kept, the most recently used last.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &(K, V)> {
        self.entries.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut kept = Kept::new(2);
        let made = std::cell::Cell::new(0);
        let get = |kept: &mut Kept<u32, u32>, key: u32| {
            kept.get_or(
                |k| *k == key,
                || {
                    made.set(made.get() + 1);
                    (key, key * 10)
                },
            )
        };
        assert_eq!(get(&mut kept, 1), 10);
        assert_eq!(get(&mut kept, 2), 20);
        // 1 used again: 2 is now the least recently used, and goes for 3.
        assert_eq!(get(&mut kept, 1), 10);
        assert_eq!(get(&mut kept, 3), 30);
        assert_eq!(made.get(), 3);
        let keys: Vec<u32> = kept.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, vec![1, 3]);
        assert_eq!(get(&mut kept, 2), 20);
        assert_eq!(made.get(), 4);
    }
}
