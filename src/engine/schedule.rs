//! A backoff that follows an explicit list of waits, then the max: the KEP's
//! "front loaded decay with interval" (1 s doubling, then a 569 s catch-up on
//! the 6th retry). It answers the same questions as client-go's Backoff, so
//! one simulation loop drives both.

use super::backoff::{Backoff, ExpiryRule, Ms};
use super::rng::Rng;

/// What the simulation asks of a backoff, for one container.
pub trait RestartBackoff {
    /// The wait `Next(eventTime)` would set.
    fn next_value(&self, event_time: Ms, rng: &mut dyn Rng) -> Ms;
    /// Record what `Next(eventTime)` decided (`value`) at `now`.
    fn store(&mut self, value: Ms, event_time: Ms, now: Ms);
    /// `IsInBackOffSince(eventTime)` at `now`.
    fn is_in_back_off_since(&self, event_time: Ms, now: Ms) -> bool;
    /// The current wait.
    fn get(&self) -> Ms;
    /// When the entry was last updated (`lastUpdate`), if there is one.
    fn last_update(&self) -> Option<Ms>;
    /// After this long without an update the entry has expired (and the
    /// kubelet's housekeeping drops it).
    fn expiry_ms(&self) -> Ms;
    /// `DeleteEntry`: what the housekeeping GC does to an expired entry.
    fn forget(&mut self);
    /// The entry's wait, when what comes next depends only on that wait and
    /// the time since the last update (not on how many waits came before):
    /// then two restarts alike in these are alike forever after.
    fn settled_wait(&self) -> Option<Ms>;
}

impl RestartBackoff for Backoff<()> {
    fn next_value(&self, event_time: Ms, rng: &mut dyn Rng) -> Ms {
        Backoff::next_value(self, &(), event_time, rng)
    }
    fn store(&mut self, value: Ms, _event_time: Ms, now: Ms) {
        Backoff::store(self, &(), value, now)
    }
    fn is_in_back_off_since(&self, event_time: Ms, now: Ms) -> bool {
        Backoff::is_in_back_off_since(self, &(), event_time, now)
    }
    fn get(&self) -> Ms {
        Backoff::get(self, &())
    }
    fn last_update(&self) -> Option<Ms> {
        self.entry(&()).map(|e| e.last_update)
    }
    fn expiry_ms(&self) -> Ms {
        self.expiry_threshold_ms()
    }
    fn forget(&mut self) {
        self.reset(&())
    }
    // client-go's entry is its backoff and lastUpdate, nothing else.
    fn settled_wait(&self) -> Option<Ms> {
        self.entry(&()).map(|e| e.backoff)
    }
}

#[derive(Debug, Clone)]
pub struct ScheduleBackoff {
    waits: Vec<Ms>,
    max: Ms,
    expiry: ExpiryRule,
    /// (index into the waits, wait, last update)
    entry: Option<(usize, Ms, Ms)>,
}

impl ScheduleBackoff {
    pub fn new(waits: Vec<Ms>, max: Ms, expiry: ExpiryRule) -> Self {
        Self {
            waits,
            max,
            expiry,
            entry: None,
        }
    }

    fn live_entry(&self, event_time: Ms) -> Option<(usize, Ms, Ms)> {
        self.entry.filter(|&(_, _, last)| {
            event_time.saturating_sub(last) <= self.expiry.threshold_ms(self.max)
        })
    }

    fn wait(&self, index: usize) -> Ms {
        self.waits.get(index).copied().unwrap_or(self.max)
    }

    fn next_index(&self, event_time: Ms) -> usize {
        self.live_entry(event_time).map_or(0, |(i, _, _)| i + 1)
    }
}

impl RestartBackoff for ScheduleBackoff {
    fn next_value(&self, event_time: Ms, _rng: &mut dyn Rng) -> Ms {
        self.wait(self.next_index(event_time))
    }

    fn store(&mut self, value: Ms, event_time: Ms, now: Ms) {
        self.entry = Some((self.next_index(event_time), value, now));
    }

    fn is_in_back_off_since(&self, event_time: Ms, now: Ms) -> bool {
        self.live_entry(event_time)
            .is_some_and(|(_, wait, _)| now.saturating_sub(event_time) < wait)
    }

    fn get(&self) -> Ms {
        self.entry.map_or(0, |(_, w, _)| w)
    }

    fn last_update(&self) -> Option<Ms> {
        self.entry.map(|(_, _, last)| last)
    }

    fn expiry_ms(&self) -> Ms {
        self.expiry.threshold_ms(self.max)
    }

    fn forget(&mut self) {
        self.entry = None;
    }
    // Past the list, every wait is the max; before, the index matters.
    fn settled_wait(&self) -> Option<Ms> {
        self.entry
            .filter(|&(index, _, _)| index >= self.waits.len())
            .map(|(_, wait, _)| wait)
    }
}
