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
//! they follow. Where the watch also reports the nodes (`kubelets`), each
//! pod is diagnosed on its own node's kubelet, and again when that changes.

use std::collections::HashMap;

use super::kubelets::{Kubelet, Kubelets, NodeConfig};
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
    /// A node's kubelet version, as the node reports it.
    Node {
        name: String,
        kubelet_version: String,
    },
    /// The node is gone.
    NodeGone { name: String },
    /// What the node's `/configz`, asked while it reported
    /// `kubelet_version`, gave.
    NodeConfig {
        name: String,
        kubelet_version: String,
        read: Result<NodeConfig, String>,
    },
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
    /// What it was read from, kept to diagnose it again when its node's
    /// kubelet changes, and the reader's notes.
    pod: Box<PodObservation>,
    notes: Vec<String>,
}

/// The watched pods under one node assumption.
#[derive(Debug, Clone)]
pub struct Live {
    node: NodeAssumption,
    kubelets: Kubelets,
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
            kubelets: Kubelets::default(),
            fingerprints: HashMap::new(),
            listed: HashMap::new(),
            seen: HashMap::new(),
        }
    }

    /// The configuration a diagnosis assumes where the pod's node is not
    /// known.
    pub fn node(&self) -> &NodeAssumption {
        &self.node
    }

    /// The nodes the watch has reported.
    pub fn kubelets(&self) -> &Kubelets {
        &self.kubelets
    }

    /// The kubelet of a pod's node, where the watch has reported it.
    pub fn kubelet_of(&self, pod: &Listed) -> Option<&Kubelet> {
        self.kubelets.get(pod.diagnosis_node()?)
    }

    /// The curve a pod was diagnosed on.
    pub fn assumption_of(&self, pod: &Listed) -> &NodeAssumption {
        self.assumption(pod.diagnosis_node())
    }

    /// The curve a pod on `node` is diagnosed on.
    fn assumption(&self, node: Option<&str>) -> &NodeAssumption {
        node.and_then(|n| self.kubelets.get(n)?.assumption.as_ref())
            .unwrap_or(&self.node)
    }

    /// Which node facts a pod's answer used: its node's, else the watch's
    /// own assumption.
    pub fn facts(&self, pod: &Listed) -> String {
        match self.kubelet_of(pod) {
            Some(k) => k.facts(&self.node),
            None => self.node.label.clone(),
        }
    }

    /// Applies one change at `now`; whether the crash loops listed, or the
    /// nodes, changed.
    pub fn apply(&mut self, change: Change, now: Epoch) -> bool {
        match change {
            Change::Node {
                name,
                kubelet_version,
            } => {
                let put = self.kubelets.put(&name, &kubelet_version);
                put && self.rediagnose(&name, now)
            }
            Change::NodeGone { name } => {
                let gone = self.kubelets.remove(&name);
                gone && self.rediagnose(&name, now)
            }
            // A configuration that changes no curve still changes what the
            // answers say they used.
            Change::NodeConfig {
                name,
                kubelet_version,
                read,
            } => {
                let taken = self.kubelets.configured(&name, &kubelet_version, read);
                taken && self.rediagnose(&name, now)
            }
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
                match self.diagnosed(key.clone(), pod, notes, now) {
                    Some(listed) => {
                        self.listed.insert(key, listed);
                        true
                    }
                    None => self.listed.remove(&key).is_some(),
                }
            }
        }
    }

    /// The pod as diagnosed on its node's curve at `now`, if it loops.
    fn diagnosed(
        &self,
        key: String,
        pod: Box<PodObservation>,
        notes: Vec<String>,
        now: Epoch,
    ) -> Option<Listed> {
        let node = self.assumption(pod.node.as_deref());
        let mut diagnosis = diagnose(&pod, node, now);
        if !diagnosis.looping() {
            return None;
        }
        diagnosis.notes.splice(0..0, notes.iter().cloned());
        let curves = self.curves(&key, &diagnosis, node);
        Some(Listed {
            key,
            diagnosis,
            at: now,
            curves,
            pod,
            notes,
        })
    }

    /// Diagnoses again the looping pods on `node`, whose kubelet changed.
    /// True: what is shown of the nodes changed too.
    fn rediagnose(&mut self, node: &str, now: Epoch) -> bool {
        let keys: Vec<String> = self
            .listed
            .values()
            .filter(|l| l.diagnosis_node() == Some(node))
            .map(|l| l.key.clone())
            .collect();
        for key in &keys {
            if let Some(l) = self.listed.remove(key) {
                if let Some(again) = self.diagnosed(key.clone(), l.pod, l.notes, now) {
                    self.listed.insert(key.clone(), again);
                }
            }
        }
        true
    }

    /// Each looping container's runs seen against its node's curve.
    fn curves(
        &self,
        key: &str,
        diagnosis: &PodDiagnosis,
        node: &NodeAssumption,
    ) -> Vec<(String, Judgement)> {
        let seen = self.seen.get(key);
        diagnosis
            .containers
            .iter()
            .filter(|c| c.looping())
            .filter_map(|c| {
                let runs = seen?.get(&c.name)?;
                Some((c.name.clone(), judge(&runs.backoffs(), node)))
            })
            .collect()
    }

    /// A fresh list's set (after the watch was lost), keeping the runs this
    /// one saw of the pods still in it, and the nodes where the fresh list
    /// has none (a list of pods says nothing of them): a relist forgets
    /// neither restarts nor kubelets. Its pods diagnosed again at `now`.
    pub fn relisted(&self, mut fresh: Live, now: Epoch) -> Live {
        for (key, runs) in &self.seen {
            if !fresh.fingerprints.contains_key(key) {
                continue;
            }
            let kept = fresh.seen.entry(key.clone()).or_default();
            for (name, r) in runs {
                kept.entry(name.clone()).or_default().merge(r);
            }
        }
        if fresh.kubelets.is_empty() {
            fresh.kubelets = self.kubelets.clone();
        }
        let listed = std::mem::take(&mut fresh.listed);
        for (key, l) in listed {
            if let Some(again) = fresh.diagnosed(key.clone(), l.pod, l.notes, now) {
                fresh.listed.insert(key, again);
            }
        }
        fresh
    }

    /// Each node with its crash loops and what their restarts say of its
    /// curve: nodes that disagree first, then by looping pods, then by name.
    pub fn nodes(&self) -> Vec<NodeVerdict<'_>> {
        let mut by_node: HashMap<&str, Vec<&Listed>> = HashMap::new();
        for l in self.listed.values() {
            if let Some(n) = l.diagnosis_node() {
                by_node.entry(n).or_default().push(l);
            }
        }
        let mut out: Vec<NodeVerdict> = self
            .kubelets
            .all()
            .into_iter()
            .map(|k| {
                let pods = by_node.remove(k.name.as_str()).unwrap_or_default();
                let judged: Vec<&Judgement> = pods
                    .iter()
                    .flat_map(|p| p.curves.iter().map(|(_, j)| j))
                    .collect();
                // The telling one: a disagreement, else the agreement seen
                // longest, else the one nearest a verdict.
                let telling = judged
                    .iter()
                    .copied()
                    .filter(|j| j.agrees == Some(false))
                    .max_by_key(|j| j.observed_ms.len())
                    .or_else(|| {
                        judged
                            .iter()
                            .copied()
                            .filter(|j| j.agrees.is_some())
                            .max_by_key(|j| j.observed_ms.len())
                    })
                    .or_else(|| judged.iter().copied().max_by_key(|j| j.observed_ms.len()));
                NodeVerdict {
                    kubelet: k,
                    looping_pods: pods.len(),
                    judgement: telling,
                }
            })
            .collect();
        out.sort_by_key(|v| {
            (
                v.judgement.map(|j| j.agrees) != Some(Some(false)),
                std::cmp::Reverse(v.looping_pods),
                v.kubelet.name.clone(),
            )
        });
        out
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

impl Listed {
    /// The node the pod runs on (`spec.nodeName`).
    pub fn diagnosis_node(&self) -> Option<&str> {
        self.pod.node.as_deref()
    }
}

/// A node, its crash loops, and the telling verdict of their curves.
#[derive(Debug, Clone, Copy)]
pub struct NodeVerdict<'a> {
    pub kubelet: &'a Kubelet,
    pub looping_pods: usize,
    /// A container's disagreement where one disagrees, else an agreement,
    /// else one not yet judged; `None` where no container has restarted
    /// while watched.
    pub judgement: Option<&'a Judgement>,
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
        put_on(None, count, last, since)
    }

    fn put_on(node: Option<&str>, count: u64, last: (Epoch, Epoch), since: Epoch) -> Change {
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
                node: node.map(str::to_owned),
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
        let relisted = before.relisted(fresh, 40 * S);
        let (name, j) = &relisted.pods()[0].curves[0];
        assert_eq!(name, "app");
        assert_eq!(j.observed_ms, [10_000, 20_000]);
        assert_eq!(j.agrees, Some(true), "{}", j.note);
        // A pod gone from the fresh list leaves its runs behind.
        let empty = Live::new(relisted.node().clone());
        assert!(relisted.relisted(empty, 40 * S).seen.is_empty());
    }

    /// Runs of 3 s on a 10 s / 30 s curve: restart 2 after 10 s (run 1
    /// 3–6, run 2 from 16), restart 3 after 20 s (16–19, from 39), restart 4
    /// after 30 s, the cap (39–42, from 72), where 1.37's shipped curve
    /// would wait 40 s. On the defaults, while node-b's /configz is unread,
    /// the restarts disagree and fit a 30 s maximum; once its /configz says
    /// 30 s, the pod is diagnosed again on it and they agree.
    #[test]
    fn a_pod_is_diagnosed_on_its_own_nodes_kubelet() {
        let fallback = NodeAssumption::new(KubeletVersion::V1_37, None, "").unwrap();
        let mut live = Live::new(fallback);
        let node = Some("node-b");
        let node_b = || Change::Node {
            name: "node-b".into(),
            kubelet_version: "v1.37.1".into(),
        };
        assert!(live.apply(node_b(), S));
        assert!(!live.apply(node_b(), S));
        live.apply(put_on(node, 2, (3, 6), 16), 20 * S);
        live.apply(put_on(node, 3, (16, 19), 39), 40 * S);
        live.apply(put_on(node, 4, (39, 42), 72), 73 * S);
        let j = &live.pods()[0].curves[0].1;
        assert_eq!(j.observed_ms, [10_000, 20_000, 30_000]);
        assert_eq!(j.expected_ms, [10_000, 20_000, 40_000]);
        assert_eq!(j.agrees, Some(false));
        assert!(
            j.note
                .ends_with("they fit a 30 s maximum (crashLoopBackOff.maxContainerRestartPeriod)"),
            "{}",
            j.note
        );
        let config = crate::engine::config::KubeletConfig {
            crash_loop_back_off: crate::engine::config::CrashLoopBackOffConfig {
                max_container_restart_period: Some("30s".into()),
            },
            ..crate::engine::config::KubeletConfig::default()
        };
        assert!(live.apply(
            Change::NodeConfig {
                name: "node-b".into(),
                kubelet_version: "v1.37.1".into(),
                read: Ok(config.into())
            },
            80 * S
        ));
        let p = live.pods()[0];
        let j = &p.curves[0].1;
        assert_eq!(j.expected_ms, [10_000, 20_000, 30_000]);
        assert_eq!(j.agrees, Some(true), "{}", j.note);
        // Diagnosed again at 80 s: restart 4 began at 72 s.
        assert_eq!(p.at, 80 * S);
        assert_eq!(
            live.facts(p),
            "node-b: kubelet v1.37.1 from its /configz (10 s / 30 s)"
        );
        let nodes = live.nodes();
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].looping_pods, 1);
        assert_eq!(nodes[0].judgement.unwrap().agrees, Some(true));
        // The node gone: the pod falls back to the watch's assumption.
        assert!(live.apply(
            Change::NodeGone {
                name: "node-b".into()
            },
            90 * S
        ));
        assert_eq!(live.pods()[0].curves[0].1.agrees, Some(false));
        assert!(live.nodes().is_empty());
    }
}
