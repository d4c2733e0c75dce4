//! A port of client-go's `util/flowcontrol.Backoff`, the object the kubelet keys
//! per container. Time is integer milliseconds and the clock's "now" is passed
//! in, so the same code serves the simulation and the tests.

use super::rng::Rng;

/// Milliseconds since the pod was created.
pub type Ms = u64;

/// When an entry stops counting and the curve starts over.
/// client-go's default is `eventTime - lastUpdate > 2*max`; the kubelet
/// replaced it with a flat 600 s in 1.32 (`HasExpiredFunc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExpiryRule {
    TwiceMax,
    After(Ms),
}

impl ExpiryRule {
    pub fn threshold_ms(self, max: Ms) -> Ms {
        match self {
            ExpiryRule::TwiceMax => max.saturating_mul(2),
            ExpiryRule::After(ms) => ms,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub backoff: Ms,
    pub last_update: Ms,
}

/// client-go keeps a map; the explorer keys one container per object, so a
/// short list (found by equality) is the same map without the hashing.
#[derive(Debug, Clone)]
pub struct Backoff<K: PartialEq + Clone> {
    initial: Ms,
    max: Ms,
    /// client-go's `maxJitterFactor`; CrashLoopBackOff uses 0.
    max_jitter_factor: f64,
    expiry: ExpiryRule,
    entries: Vec<(K, Entry)>,
}

impl<K: PartialEq + Clone> Backoff<K> {
    pub fn new(initial: Ms, max: Ms, max_jitter_factor: f64, expiry: ExpiryRule) -> Self {
        Self {
            initial,
            max,
            max_jitter_factor: max_jitter_factor.max(0.0),
            expiry,
            entries: Vec::new(),
        }
    }

    pub fn has_expired(&self, event_time: Ms, last_update: Ms) -> bool {
        event_time.saturating_sub(last_update) > self.expiry_threshold_ms()
    }

    pub fn expiry_threshold_ms(&self) -> Ms {
        self.expiry.threshold_ms(self.max)
    }

    fn jitter(&self, delay: Ms, rng: &mut dyn Rng) -> Ms {
        if self.max_jitter_factor == 0.0 {
            return 0;
        }
        (rng.next_f64() * self.max_jitter_factor * delay as f64) as Ms
    }

    fn lookup(&self, id: &K) -> Option<&Entry> {
        self.entries.iter().find(|(k, _)| k == id).map(|(_, e)| e)
    }

    /// The backoff `Next(id, eventTime)` would store, without storing it.
    pub fn next_value(&self, id: &K, event_time: Ms, rng: &mut dyn Rng) -> Ms {
        match self.lookup(id) {
            Some(e) if !self.has_expired(event_time, e.last_update) => {
                let delay = e
                    .backoff
                    .saturating_mul(2)
                    .saturating_add(self.jitter(e.backoff, rng));
                delay.min(self.max)
            }
            // initEntryUnsafe: the initial value plus jitter, not capped.
            _ => self.initial.saturating_add(self.jitter(self.initial, rng)),
        }
    }

    /// `Next(id, eventTime)` with `Clock.Now() == now`.
    pub fn next(&mut self, id: &K, event_time: Ms, now: Ms, rng: &mut dyn Rng) {
        let backoff = self.next_value(id, event_time, rng);
        self.store(id, backoff, now);
    }

    /// The second half of `Next`: the entry as Next leaves it.
    pub fn store(&mut self, id: &K, backoff: Ms, now: Ms) {
        let entry = Entry {
            backoff,
            last_update: now,
        };
        match self.entries.iter_mut().find(|(k, _)| k == id) {
            Some((_, e)) => *e = entry,
            None => self.entries.push((id.clone(), entry)),
        }
    }

    /// `IsInBackOffSince(id, eventTime)` with `Clock.Now() == now`.
    pub fn is_in_back_off_since(&self, id: &K, event_time: Ms, now: Ms) -> bool {
        match self.lookup(id) {
            None => false,
            Some(e) if self.has_expired(event_time, e.last_update) => false,
            Some(e) => now.saturating_sub(event_time) < e.backoff,
        }
    }

    /// `Get(id)`: the current backoff, 0 without an entry.
    pub fn get(&self, id: &K) -> Ms {
        self.lookup(id).map_or(0, |e| e.backoff)
    }

    pub fn entry(&self, id: &K) -> Option<Entry> {
        self.lookup(id).copied()
    }

    /// `Reset(id)`.
    pub fn reset(&mut self, id: &K) {
        self.entries.retain(|(k, _)| k != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::SplitMix64;

    #[test]
    fn doubles_caps_and_expires_like_client_go() {
        let mut rng = SplitMix64::new(1);
        let mut b = Backoff::new(10_000, 300_000, 0.0, ExpiryRule::After(600_000));
        let id = "pod/ns/uid/c".to_string();
        assert!(!b.is_in_back_off_since(&id, 0, 0));
        b.next(&id, 0, 0, &mut rng);
        assert_eq!(b.get(&id), 10_000);
        assert!(b.is_in_back_off_since(&id, 0, 9_999));
        assert!(!b.is_in_back_off_since(&id, 0, 10_000), "strict <");
        for want in [20_000, 40_000, 80_000, 160_000, 300_000, 300_000] {
            b.next(&id, 1, 1, &mut rng);
            assert_eq!(b.get(&id), want);
        }
        // An event more than 600 s after the last update starts over.
        assert!(!b.has_expired(600_001, 1));
        assert!(b.has_expired(600_002, 1));
        assert!(!b.is_in_back_off_since(&id, 600_002, 600_002));
        b.next(&id, 600_002, 600_002, &mut rng);
        assert_eq!(b.get(&id), 10_000);
        b.reset(&id);
        assert_eq!(b.get(&id), 0);
    }

    #[test]
    fn default_expiry_is_twice_max() {
        let b: Backoff<u8> = Backoff::new(1_000, 60_000, 0.0, ExpiryRule::TwiceMax);
        assert!(!b.has_expired(120_000, 0));
        assert!(b.has_expired(120_001, 0));
    }

    #[test]
    fn jitter_only_adds_and_is_seeded() {
        let b: Backoff<u8> = Backoff::new(1_000, 60_000, 0.5, ExpiryRule::TwiceMax);
        let (mut r1, mut r2) = (SplitMix64::new(7), SplitMix64::new(7));
        for _ in 0..100 {
            let v = b.next_value(&0, 0, &mut r1);
            assert!((1_000..=1_500).contains(&v));
            assert_eq!(v, b.next_value(&0, 0, &mut r2));
        }
    }
}
