//! A cluster's pods as a watch reports them: the newest state of each pod
//! (by UID), each diagnosed once when its status changes, and the crash
//! loops among them in the order `pods` lists them. Countdowns are worked
//! out from the stored diagnoses at any later moment, without diagnosing
//! again.
//!
//! A pod the watch reports deleted, or being deleted (`deletionTimestamp`
//! set), leaves the set: a pod marked for deletion begins its teardown in
//! the kubelet's pod worker, and from then on every update is a kill; none
//! of its containers starts again (pod_workers.go, `UpdatePod`). Memory
//! stays with the pods: calm ones keep only a fingerprint of their status,
//! restarted containers their last runs (`observed`), to judge the curve
//! they follow.

use std::collections::HashMap;

use super::observed::{judge, Judgement, SeenRuns};
use super::pod::{diagnose, rank, Epoch, NodeAssumption, PodDiagnosis, PodObservation};

/// One change the watch reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The pod's newest state: `key` is its UID (else namespace/name),
    /// `fingerprint` a digest of what its status says, so that an update
    /// that changes nothing is not diagnosed again.
    Put {
        key: String,
        fingerprint: u64,
        pod: Box<PodObservation>,
        /// What the reader assumed, kept with the pod's diagnosis.
        notes: Vec<String>,
    },
    /// The pod is gone, or will start no container again.
    Remove { key: String },
}

/// A crash-looping pod, diagnosed at `at` (its last change).
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    /// Its UID, else namespace/name.
    pub key: String,
    pub diagnosis: PodDiagnosis,
    pub at: Epoch,
    /// Each looping container's back-offs seen so far against the node's
    /// curve, by container name.
    pub curves: Vec<(String, Judgement)>,
}

/// The watched pods under one node assumption.
#[derive(Debug, Clone)]
pub struct Live {
    node: NodeAssumption,
    fingerprints: HashMap<String, u64>,
    listed: HashMap<String, Listed>,
    /// The runs seen of each container that has restarted, by pod key and
    /// container name.
    seen: HashMap<String, HashMap<String, SeenRuns>>,
}

impl Live {
    pub fn new(node: NodeAssumption) -> Self {
        Self {
            node,
            fingerprints: HashMap::new(),
            listed: HashMap::new(),
            seen: HashMap::new(),
        }
    }

    /// The configuration every diagnosis assumes.
    pub fn node(&self) -> &NodeAssumption {
        &self.node
    }

    /// Applies one change at `now`; whether the crash loops listed changed.
    pub fn apply(&mut self, change: Change, now: Epoch) -> bool {
        match change {
            Change::Remove { key } => {
                self.fingerprints.remove(&key);
                self.seen.remove(&key);
                self.listed.remove(&key).is_some()
            }
            Change::Put {
                key,
                fingerprint,
                pod,
                notes,
            } => {
                if self.fingerprints.get(&key) == Some(&fingerprint) {
                    return false;
                }
                self.fingerprints.insert(key.clone(), fingerprint);
                let restarted = pod.containers.iter().filter(|c| c.restart_count > Some(0));
                for c in restarted {
                    let runs = self.seen.entry(key.clone()).or_default();
                    runs.entry(c.name.clone()).or_default().observe(c);
                }
                let mut diagnosis = diagnose(&pod, &self.node, now);
                if diagnosis.looping() {
                    diagnosis.notes.splice(0..0, notes);
                    let curves = self.curves(&key, &diagnosis);
                    self.listed.insert(
                        key.clone(),
                        Listed {
                            key,
                            diagnosis,
                            at: now,
                            curves,
                        },
                    );
                    true
                } else {
                    self.listed.remove(&key).is_some()
                }
            }
        }
    }

    /// Each looping container's runs seen against the node's curve.
    fn curves(&self, key: &str, diagnosis: &PodDiagnosis) -> Vec<(String, Judgement)> {
        let seen = self.seen.get(key);
        diagnosis
            .containers
            .iter()
            .filter(|c| c.looping())
            .filter_map(|c| {
                let runs = seen?.get(&c.name)?;
                Some((c.name.clone(), judge(&runs.backoffs(), &self.node)))
            })
            .collect()
    }

    /// A fresh list's set (after the watch was lost), keeping the runs this
    /// one saw of the pods still in it: a relist does not forget restarts.
    pub fn relisted(&self, mut fresh: Live) -> Live {
        for (key, runs) in &self.seen {
            if !fresh.fingerprints.contains_key(key) {
                continue;
            }
            let kept = fresh.seen.entry(key.clone()).or_default();
            for (name, r) in runs {
                kept.entry(name.clone()).or_default().merge(r);
            }
        }
        let judged: Vec<(String, Vec<(String, Judgement)>)> = fresh
            .listed
            .iter()
            .map(|(key, l)| (key.clone(), fresh.curves(key, &l.diagnosis)))
            .collect();
        for (key, curves) in judged {
            if let Some(l) = fresh.listed.get_mut(&key) {
                l.curves = curves;
            }
        }
        fresh
    }

    /// How many pods the watch has reported and not removed.
    pub fn watched(&self) -> usize {
        self.fingerprints.len()
    }

    /// How many of them loop (`pods().len()`, without ranking them).
    pub fn looping(&self) -> usize {
        self.listed.len()
    }

    /// The crash-looping pods, soonest restart first (then those in
    /// trouble, then the most restarted, then by namespace and name).
    pub fn pods(&self) -> Vec<&Listed> {
        let mut pods: Vec<&Listed> = self.listed.values().collect();
        pods.sort_by_cached_key(|p| {
            let d = &p.diagnosis;
            (rank(d), d.namespace.clone(), d.pod.clone())
        });
        pods
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::KubeletVersion;
    use crate::engine::pod::{ObservedContainer, ObservedState, Terminated};

    const S: Epoch = 1_000;

    /// web's app at `count` restarts: its last run `last` (seconds), running
    /// since `since`.
    fn put(count: u64, last: (Epoch, Epoch), since: Epoch) -> Change {
        let app = ObservedContainer {
            name: "app".into(),
            restart_count: Some(count),
            last_terminated: Some(Terminated {
                exit_code: Some(1),
                reason: "Error".into(),
                started_at: Some(last.0 * S),
                finished_at: Some(last.1 * S),
            }),
            state: ObservedState::Running {
                started_at: Some(since * S),
            },
            ..ObservedContainer::default()
        };
        Change::Put {
            key: "u1".into(),
            fingerprint: count,
            pod: Box::new(PodObservation {
                name: "web".into(),
                namespace: "n".into(),
                containers: vec![app],
                ..PodObservation::default()
            }),
            notes: vec![],
        }
    }

    /// Runs of 3 s on 1.37's shipped curve: restart 2 after 10 s (run 1
    /// 3–6, run 2 from 16), restart 3 after 20 s (run 2 16–19, run 3 from
    /// 39). Each watch alone sees one wait; the relisted set sees both.
    #[test]
    fn a_relist_keeps_the_runs_seen_before_it() {
        let node = NodeAssumption::new(KubeletVersion::V1_37, None, "").unwrap();
        let mut before = Live::new(node.clone());
        before.apply(put(2, (3, 6), 16), 20 * S);
        let mut fresh = Live::new(node);
        fresh.apply(put(3, (16, 19), 39), 40 * S);
        assert_eq!(fresh.pods()[0].curves[0].1.agrees, None);
        let relisted = before.relisted(fresh);
        let (name, j) = &relisted.pods()[0].curves[0];
        assert_eq!(name, "app");
        assert_eq!(j.observed_ms, [10_000, 20_000]);
        assert_eq!(j.agrees, Some(true), "{}", j.note);
        // A pod gone from the fresh list leaves its runs behind.
        let empty = Live::new(relisted.node().clone());
        assert!(relisted.relisted(empty).seen.is_empty());
    }
}
