//! Each node's kubelet as a watch of the cluster reports it: its version
//! (`status.nodeInfo.kubeletVersion`, vendor suffixes and all) and, where
//! its `/configz` could be read, the configuration it runs; from these the
//! curve a pod on that node is diagnosed on. A node whose configuration
//! could not be read takes its version's shipped defaults and says why; a
//! version the explorer does not model takes the watch's own assumption.

use std::collections::{HashMap, HashSet, VecDeque};

use super::config::{KubeletConfig, KubeletVersion};
use super::pod::NodeAssumption;

/// Where a node's curve comes from, as an answer says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigFrom {
    /// Its `/configz` is to be read; its version's shipped defaults meanwhile.
    Pending,
    /// Its kubelet's `/configz`: what it runs.
    Configz,
    /// Its version's shipped defaults, and why its configuration is not known.
    VersionDefaults(String),
    /// Neither: its version is not one the explorer models (why), so the
    /// watch's own assumption stands.
    Assumed(String),
}

impl ConfigFrom {
    /// The JSON's `configFrom`.
    pub fn name(&self) -> &'static str {
        match self {
            ConfigFrom::Configz => "configz",
            ConfigFrom::Pending | ConfigFrom::VersionDefaults(_) => "version defaults",
            ConfigFrom::Assumed(_) => "assumed",
        }
    }

    /// Why the node's configuration is not its /configz, where it is not.
    pub fn why(&self) -> Option<&str> {
        match self {
            ConfigFrom::Pending => Some("its /configz not read yet"),
            ConfigFrom::Configz => None,
            ConfigFrom::VersionDefaults(w) | ConfigFrom::Assumed(w) => Some(w),
        }
    }
}

/// What a node's /configz is read with: `nodes/proxy` `get`, which a
/// read-only role does not hold.
pub const CONFIGZ_RULE: &str =
    "a ClusterRole rule allowing get on nodes/proxy (apiGroups: [\"\"], resources: [\"nodes/proxy\"], verbs: [\"get\"])";

/// The kubelet's API clients' limits where its configuration sets them
/// (`kubeAPIQPS`, `kubeAPIBurst`, `eventRecordQPS`, `eventBurst`); unset,
/// the version's defaults.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ClientLimits {
    pub kube_api_qps: Option<u32>,
    pub kube_api_burst: Option<u32>,
    pub event_record_qps: Option<u32>,
    pub event_burst: Option<u32>,
}

/// What a node's `/configz` says: its curve's fields and its clients' limits.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NodeConfig {
    pub config: KubeletConfig,
    pub limits: ClientLimits,
}

impl From<KubeletConfig> for NodeConfig {
    fn from(config: KubeletConfig) -> Self {
        NodeConfig {
            config,
            limits: ClientLimits::default(),
        }
    }
}

/// One node's kubelet.
#[derive(Debug, Clone, PartialEq)]
pub struct Kubelet {
    pub name: String,
    /// As the node reports it: `v1.37.1`, `v1.33.5-eks-1a2b3c`.
    pub reported: String,
    pub config_from: ConfigFrom,
    /// The curve its pods are diagnosed on; `None` where its version is not
    /// modelled.
    pub assumption: Option<NodeAssumption>,
    /// Its clients' limits, from its /configz where read.
    pub limits: ClientLimits,
}

impl Kubelet {
    fn of(name: String, reported: String) -> Self {
        match KubeletVersion::of_node(&reported) {
            Ok(version) => Kubelet {
                assumption: NodeAssumption::new(version, None, "").ok(),
                name,
                reported,
                config_from: ConfigFrom::Pending,
                limits: ClientLimits::default(),
            },
            Err(why) => Kubelet {
                name,
                reported,
                config_from: ConfigFrom::Assumed(why),
                assumption: None,
                limits: ClientLimits::default(),
            },
        }
    }

    /// Whether its `/configz` is wanted: its version is modelled and it has
    /// not been read at this version.
    pub fn wants_configz(&self) -> bool {
        self.config_from == ConfigFrom::Pending
    }

    /// Which node facts an answer used: `node-b: kubelet v1.37.1 from its
    /// /configz (10 s / 30 s)`.
    pub fn facts(&self, fallback: &NodeAssumption) -> String {
        match (&self.assumption, &self.config_from) {
            (Some(a), ConfigFrom::Configz) => format!(
                "{}: kubelet {} from its /configz ({})",
                self.name,
                self.reported,
                curve_of(a)
            ),
            (Some(a), from) => format!(
                "{}: kubelet {}'s shipped defaults ({}; {})",
                self.name,
                self.reported,
                curve_of(a),
                from.why().unwrap_or_default()
            ),
            (None, from) => format!(
                "{}: {}; diagnosed on {}",
                self.name,
                from.why().unwrap_or_default(),
                fallback.label
            ),
        }
    }
}

/// `10 s / 30 s`: the part of a label in brackets.
fn curve_of(a: &NodeAssumption) -> &str {
    a.label
        .rsplit_once('(')
        .map_or(a.label.as_str(), |(_, c)| c.trim_end_matches(')'))
}

/// The nodes a watch has reported, by name.
#[derive(Debug, Clone, Default)]
pub struct Kubelets {
    by_name: HashMap<String, Kubelet>,
}

impl Kubelets {
    /// A node's newest report; whether its curve may have changed (a new
    /// node, or its kubelet's version changed: its /configz is read again).
    pub fn put(&mut self, name: &str, reported: &str) -> bool {
        if self
            .by_name
            .get(name)
            .is_some_and(|k| k.reported == reported)
        {
            return false;
        }
        self.by_name.insert(
            name.to_owned(),
            Kubelet::of(name.to_owned(), reported.to_owned()),
        );
        true
    }

    /// The node is gone; whether it was known.
    pub fn remove(&mut self, name: &str) -> bool {
        self.by_name.remove(name).is_some()
    }

    /// What the node's `/configz`, asked while it reported `reported`,
    /// gave: a configuration, or why there is none. An answer for a
    /// version the node no longer runs, or for a node gone, is dropped.
    /// Whether it was taken.
    pub fn configured(
        &mut self,
        name: &str,
        reported: &str,
        read: Result<NodeConfig, String>,
    ) -> bool {
        let Some(k) = self.by_name.get_mut(name) else {
            return false;
        };
        if k.reported != reported || k.config_from != ConfigFrom::Pending {
            return false;
        }
        let Ok(version) = KubeletVersion::of_node(reported) else {
            return false;
        };
        let defaults = |why: String| ConfigFrom::VersionDefaults(why);
        let read = read.map(|c| {
            let a = NodeAssumption::new(version, Some(&c.config), "from its /configz");
            (a, c.limits)
        });
        match read {
            Ok((Ok(a), limits)) => {
                k.assumption = Some(a);
                k.config_from = ConfigFrom::Configz;
                k.limits = limits;
            }
            Ok((Err(e), _)) => {
                k.config_from =
                    defaults(format!("its /configz is one the kubelet would refuse: {e}"));
            }
            Err(why) => k.config_from = defaults(why),
        }
        true
    }

    pub fn get(&self, name: &str) -> Option<&Kubelet> {
        self.by_name.get(name)
    }

    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Every node, by name.
    pub fn all(&self) -> Vec<&Kubelet> {
        let mut all: Vec<&Kubelet> = self.by_name.values().collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }
}

/// `/configz` reads at once: a thousand nodes are not a thousand requests in
/// one go to the API server's node proxy.
pub const CONFIGZ_IN_FLIGHT: usize = 4;

/// Which nodes' `/configz` to read next: each (node, kubelet version) once,
/// `CONFIGZ_IN_FLIGHT` at a time. The caller reads and says when one came.
#[derive(Debug, Default)]
pub struct ConfigzQueue {
    asked: HashSet<(String, String)>,
    waiting: VecDeque<(String, String)>,
    in_flight: usize,
}

impl ConfigzQueue {
    /// Queues the nodes that want their /configz read and were not asked at
    /// their version; then the reads to start now, as (node, version).
    pub fn ask(&mut self, kubelets: &Kubelets) -> Vec<(String, String)> {
        for k in kubelets.all() {
            let key = (k.name.clone(), k.reported.clone());
            if k.wants_configz() && self.asked.insert(key.clone()) {
                self.waiting.push_back(key);
            }
        }
        let mut start = vec![];
        while self.in_flight < CONFIGZ_IN_FLIGHT {
            let Some(next) = self.waiting.pop_front() else {
                break;
            };
            self.in_flight += 1;
            start.push(next);
        }
        start
    }

    /// One read came back (answered or failed).
    pub fn came(&mut self) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::config::{CrashLoopBackOffConfig, Semantics};

    fn max_30s() -> KubeletConfig {
        KubeletConfig {
            crash_loop_back_off: CrashLoopBackOffConfig {
                max_container_restart_period: Some("30s".into()),
            },
            ..KubeletConfig::default()
        }
    }

    /// 1.37 ships 10 s doubling to 5 min; its /configz's 30 s maximum
    /// makes it 10 s / 30 s. An answer asked at another version is dropped,
    /// and a version change asks again.
    #[test]
    fn a_nodes_curve_is_its_configz_else_its_versions_defaults() {
        let fallback = NodeAssumption::new(KubeletVersion::V1_37, None, "").unwrap();
        let mut k = Kubelets::default();
        assert!(k.put("node-b", "v1.37.1"));
        assert!(!k.put("node-b", "v1.37.1"));
        let b = k.get("node-b").unwrap();
        assert!(b.wants_configz());
        assert_eq!(
            b.facts(&fallback),
            "node-b: kubelet v1.37.1's shipped defaults (10 s / 5 min; its /configz not read yet)"
        );
        assert!(!k.configured("node-b", "v1.36.0", Ok(max_30s().into())));
        assert!(k.configured("node-b", "v1.37.1", Ok(max_30s().into())));
        let b = k.get("node-b").unwrap();
        assert_eq!(b.assumption.as_ref().unwrap().backoff.max_ms, 30_000);
        assert_eq!(
            b.facts(&fallback),
            "node-b: kubelet v1.37.1 from its /configz (10 s / 30 s)"
        );
        assert!(!b.wants_configz());
        assert!(k.put("node-b", "v1.37.2-eks-1a2b3c"));
        assert!(k.get("node-b").unwrap().wants_configz());
    }

    #[test]
    fn a_refused_or_unread_configz_leaves_the_defaults_and_says_why() {
        let mut k = Kubelets::default();
        k.put("node-a", "v1.33.5");
        k.put("node-z", "v1.36.2");
        let forbidden = "Error from server (Forbidden): nodes \"node-a\" is forbidden";
        assert!(k.configured("node-a", "v1.33.5", Err(forbidden.into())));
        assert!(!k.configured("node-a", "v1.33.5", Err(forbidden.into())));
        let a = k.get("node-a").unwrap();
        assert_eq!(a.config_from, ConfigFrom::VersionDefaults(forbidden.into()));
        assert_eq!(a.config_from.name(), "version defaults");
        assert_eq!(a.assumption.as_ref().unwrap().backoff.initial_ms, 10_000);
        let zero = KubeletConfig {
            crash_loop_back_off: CrashLoopBackOffConfig {
                max_container_restart_period: Some("0s".into()),
            },
            semantics: Some(Semantics::Kubelet),
            ..KubeletConfig::default()
        };
        k.configured("node-z", "v1.36.2", Ok(zero.into()));
        let why = k
            .get("node-z")
            .unwrap()
            .config_from
            .why()
            .unwrap()
            .to_owned();
        assert!(why.starts_with("its /configz is one the kubelet would refuse: failed to validate kubelet configuration"), "{why}");
    }

    #[test]
    fn an_unmodelled_version_takes_the_watchs_assumption() {
        let fallback = NodeAssumption::new(KubeletVersion::V1_37, None, "").unwrap();
        let mut k = Kubelets::default();
        k.put("old", "v1.30.2-gke.1587003");
        let old = k.get("old").unwrap();
        assert!(!old.wants_configz());
        assert_eq!(old.config_from.name(), "assumed");
        assert_eq!(
            old.facts(&fallback),
            "old: kubelet v1.30.2-gke.1587003: 1.30 is not a modelled release (1.31 to 1.37); diagnosed on kubelet 1.37's shipped defaults (10 s / 5 min)"
        );
        assert!(k.remove("old"));
        assert!(k.is_empty());
    }

    /// Six nodes: four reads, then one more as each comes back; a node asked
    /// at its version is not asked again, and is once its version changes.
    #[test]
    fn configz_is_read_once_a_version_four_at_a_time() {
        let mut k = Kubelets::default();
        for i in 0..6 {
            k.put(&format!("n-{i}"), "v1.37.1");
        }
        let mut q = ConfigzQueue::default();
        let first = q.ask(&k);
        assert_eq!(first.len(), CONFIGZ_IN_FLIGHT);
        assert!(q.ask(&k).is_empty());
        q.came();
        assert_eq!(q.ask(&k), [("n-4".to_owned(), "v1.37.1".to_owned())]);
        q.came();
        q.came();
        assert_eq!(q.ask(&k), [("n-5".to_owned(), "v1.37.1".to_owned())]);
        q.came();
        q.came();
        q.came();
        assert!(q.ask(&k).is_empty());
        k.put("n-0", "v1.37.2");
        assert_eq!(q.ask(&k), [("n-0".to_owned(), "v1.37.2".to_owned())]);
    }
}
