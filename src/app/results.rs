//! What the state holds for components to read: the live result, each
//! compared one, and the figures as they stood, each worked out on its
//! first read and compared by identity.

use std::rc::Rc;

use super::cache::RunCache;
use super::later::Later;
use crate::engine::explore::exploration;
use crate::engine::{Exploration, PodRuns, Scenario, Timeline};

/// What the app shows for a compared scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparedResult {
    pub label: String,
    pub result: Result<Deferred, String>,
}

/// A compared scenario's node timeline, worked out when first read: a
/// slider move that changes the node (pods, spreads, API limits) makes every
/// compared curve's node anew, and only the load chart and the compared
/// table read them, which wait for the controls to rest while out of sight.
/// In the browser's worst pods move these were three of the move's five node
/// timelines.
#[derive(Clone)]
pub struct Deferred(Rc<Later<NodeFrom, Rc<Timeline>>>);

/// What a node timeline is worked out from: its scenario, the very runs, and
/// the cache of node timelines.
type NodeFrom = (Scenario, Rc<PodRuns>, RunCache);

impl Deferred {
    pub(super) fn new(scenario: Scenario, runs: Rc<PodRuns>, cache: &RunCache) -> Self {
        Self(Rc::new(Later::new(
            (scenario, runs, cache.clone()),
            |(s, runs, cache)| cache.timeline(s, runs),
        )))
    }

    /// The timeline, made (or found in the cache) on the first read.
    pub fn get(&self) -> &Timeline {
        self.0.get()
    }

    /// Whether it has been worked out yet.
    pub fn made(&self) -> bool {
        self.0.made()
    }
}

impl PartialEq for Deferred {
    /// The same scenario from the very same runs: the same timeline.
    fn eq(&self, other: &Self) -> bool {
        let ((a, a_runs, _), (b, b_runs, _)) = (self.0.inputs(), other.0.inputs());
        Rc::ptr_eq(a_runs, b_runs) && a == b
    }
}

impl std::fmt::Debug for Deferred {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The live scenario against today's default, shared so that components
/// compare by pointer, not by every restart time. Worked out on its first
/// read: a pods move with the headline, the node's table and the load chart
/// out of sight (all wait for the controls to rest) reads nothing of it, and
/// its two node timelines were most of the browser's worst pods move.
#[derive(Debug, Clone)]
pub struct Shown(Rc<Later<ShownFrom, Exploration>>);

/// What the shown result is worked out from: the live scenario and its runs,
/// today's default and its runs, and the cache of node timelines.
pub(super) type ShownFrom = (Rc<Scenario>, Rc<PodRuns>, Scenario, Rc<PodRuns>, RunCache);

impl PartialEq for Shown {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Shown {
    type Target = Exploration;

    fn deref(&self) -> &Exploration {
        &self.0
    }
}

impl Shown {
    /// The live scenario against today's default, from their runs.
    pub(super) fn new(from: ShownFrom) -> Self {
        Self(Rc::new(Later::new(
            from,
            |(s, live, d, reference, cache)| {
                exploration(s, cache.timeline(s, live), cache.timeline(d, reference))
            },
        )))
    }

    /// Identifies this result, for components that redraw only when it
    /// changes (without working it out).
    pub fn ptr(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// Whether it has been worked out yet.
    pub fn made(&self) -> bool {
        self.0.made()
    }
}

/// The results as they stood: what tables of figures show, kept by those
/// that wait to catch up (`hooks::use_caught_up`), since a `Handle` always
/// reads the newest state.
#[derive(Clone)]
pub struct Figures {
    pub shown: Shown,
    pub compared: Rc<[ComparedResult]>,
}

impl Figures {
    /// Told apart by identity: a change of either is a new value.
    pub fn key(&self) -> (usize, usize) {
        (self.shown.ptr(), self.compared.as_ptr() as usize)
    }
}
