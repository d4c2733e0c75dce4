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
//! stays with the pods: calm ones keep only a fingerprint of their status.

use std::collections::HashMap;

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
}

/// The watched pods under one node assumption.
#[derive(Debug, Clone)]
pub struct Live {
    node: NodeAssumption,
    fingerprints: HashMap<String, u64>,
    listed: HashMap<String, Listed>,
}

impl Live {
    pub fn new(node: NodeAssumption) -> Self {
        Self {
            node,
            fingerprints: HashMap::new(),
            listed: HashMap::new(),
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
                let mut diagnosis = diagnose(&pod, &self.node, now);
                if diagnosis.looping() {
                    diagnosis.notes.splice(0..0, notes);
                    self.listed.insert(
                        key.clone(),
                        Listed {
                            key,
                            diagnosis,
                            at: now,
                        },
                    );
                    true
                } else {
                    self.listed.remove(&key).is_some()
                }
            }
        }
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
