//! From a KubeletConfiguration (feature gates + `crashLoopBackOff`) to the
//! backoff curve a node uses, as the KEPs describe it or as the kubelet does it
//! (1.31 to 1.37).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::duration::{
    format_go_duration_ms, format_go_float, go_seconds, parse_go_duration, NANOS_PER_MS,
};

pub const REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY: &str = "ReduceDefaultCrashLoopBackOffDecay";
pub const KUBELET_CRASH_LOOP_BACK_OFF_MAX: &str = "KubeletCrashLoopBackOffMax";
/// KEP-5307: a container's own `restartPolicy` and `restartPolicyRules`.
pub const CONTAINER_RESTART_RULES: &str = "ContainerRestartRules";
/// KEP-5532: the `RestartAllContainers` rule action.
pub const RESTART_ALL_CONTAINERS: &str = "RestartAllContainersOnContainerExits";

/// Today's default curve (`MaxContainerBackOff` and the 10 s initial).
pub const DEFAULT_INITIAL_MS: Ms = 10_000;
pub const DEFAULT_MAX_MS: Ms = 300_000;
/// With ReduceDefaultCrashLoopBackOffDecay.
pub const REDUCED_INITIAL_MS: Ms = 1_000;
pub const REDUCED_MAX_MS: Ms = 60_000;
/// Validation bounds of `maxContainerRestartPeriod`.
pub const MIN_MAX_CONTAINER_RESTART_PERIOD_MS: Ms = 1_000;
pub const MAX_MAX_CONTAINER_RESTART_PERIOD_MS: Ms = 300_000;
/// The flat reset threshold since kubelet 1.32 (and in KEP-4603).
pub const FLAT_RESET_MS: Ms = 600_000;

/// Whose rules: the KEP text, or the shipped kubelet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Semantics {
    /// As KEP-4603/5593 describe it.
    Kep,
    /// As the shipped kubelet does it.
    #[default]
    Kubelet,
}

/// Which kubelet: decides the reset rule, which gates exist and their
/// defaults, and how the pod worker rechecks a container in backoff.
/// Adding a release is one row of `VERSIONS`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
pub enum KubeletVersion {
    #[serde(rename = "1.31")]
    V1_31,
    #[serde(rename = "1.32")]
    V1_32,
    #[serde(rename = "1.33")]
    V1_33,
    #[serde(rename = "1.34")]
    V1_34,
    #[serde(rename = "1.35")]
    V1_35,
    #[serde(rename = "1.36")]
    V1_36,
    #[default]
    #[serde(rename = "1.37")]
    V1_37,
}

/// A gate's stage in one release: `Some(default)` where the gate exists.
type Gates = [(&'static str, Option<bool>); 4];

/// One release: its name, and the defaults of the gates the explorer models
/// (kubernetes/kubernetes `pkg/features/kube_features.go`, versioned specs).
struct Release {
    name: &'static str,
    gates: Gates,
}

const fn gates(
    max: Option<bool>,
    reduce: Option<bool>,
    rules: Option<bool>,
    all: Option<bool>,
) -> Gates {
    [
        (KUBELET_CRASH_LOOP_BACK_OFF_MAX, max),
        (REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY, reduce),
        (CONTAINER_RESTART_RULES, rules),
        (RESTART_ALL_CONTAINERS, all),
    ]
}

const OFF: Option<bool> = Some(false);
const ON: Option<bool> = Some(true);

/// 1.31: neither CrashLoopBackOff gate, reset after 2 × max. 1.32: flat 600 s
/// reset, KubeletCrashLoopBackOffMax alpha. 1.33: ReduceDefault… alpha. 1.34:
/// ContainerRestartRules alpha. 1.35: KubeletCrashLoopBackOffMax and
/// ContainerRestartRules beta (on), RestartAllContainers alpha, requeue at
/// expiry (k/k#133066). 1.36: RestartAllContainers beta (on). 1.37: no change
/// to the curve (release notes), gates as in 1.36.
const VERSIONS: [Release; 7] = [
    Release {
        name: "1.31",
        gates: gates(None, None, None, None),
    },
    Release {
        name: "1.32",
        gates: gates(OFF, None, None, None),
    },
    Release {
        name: "1.33",
        gates: gates(OFF, OFF, None, None),
    },
    Release {
        name: "1.34",
        gates: gates(OFF, OFF, OFF, None),
    },
    Release {
        name: "1.35",
        gates: gates(ON, OFF, ON, OFF),
    },
    Release {
        name: "1.36",
        gates: gates(ON, OFF, ON, ON),
    },
    Release {
        name: "1.37",
        gates: gates(ON, OFF, ON, ON),
    },
];

impl KubeletVersion {
    pub const ALL: [KubeletVersion; 7] = [
        KubeletVersion::V1_31,
        KubeletVersion::V1_32,
        KubeletVersion::V1_33,
        KubeletVersion::V1_34,
        KubeletVersion::V1_35,
        KubeletVersion::V1_36,
        KubeletVersion::V1_37,
    ];

    fn release(self) -> &'static Release {
        // VERSIONS lists the variants in declaration order.
        &VERSIONS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.release().name
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == s)
    }

    /// The release a node reports (`status.nodeInfo.kubeletVersion`, the
    /// VERSION `kubectl get nodes` prints: `v1.33.5-eks-113cf36`,
    /// `v1.31.4+k3s1`, `v1.30.2-gke.1587003`), by its major and minor
    /// whatever the vendor added; a release name (`1.37`) reads as well.
    pub fn of_node(reported: &str) -> Result<Self, String> {
        let t = reported.trim();
        let not_one = || {
            format!(
                "kubelet {}: not a Kubernetes version (v1.33.5, as a node reports it, or 1.33)",
                super::field::quoted(t)
            )
        };
        let (major, rest) = t
            .strip_prefix('v')
            .unwrap_or(t)
            .split_once('.')
            .ok_or_else(not_one)?;
        let minor_end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (minor, after) = rest.split_at(minor_end);
        let whole = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
        if !whole(major)
            || !whole(minor)
            || !(after.is_empty() || after.starts_with(['.', '-', '+']))
        {
            return Err(not_one());
        }
        let name = format!("{major}.{minor}");
        Self::parse(&name).ok_or_else(|| {
            format!(
                "kubelet {t}: {name} is not a modelled release ({} to {})",
                Self::ALL[0].name(),
                Self::ALL[Self::ALL.len() - 1].name()
            )
        })
    }

    /// A gate's default, or `None` where this kubelet does not know the gate.
    pub fn gate_default(self, gate: &str) -> Option<bool> {
        self.release()
            .gates
            .iter()
            .find(|(g, _)| *g == gate)
            .and_then(|(_, d)| *d)
    }

    /// Before 1.32 the counter reset after 2 × max (client-go's default).
    pub fn resets_after_twice_max(self) -> bool {
        self < KubeletVersion::V1_32
    }

    /// From 1.35 the pod worker requeues at the backoff expiry (k/k#133066);
    /// before, it rechecked every 10-15 s.
    pub fn requeues_at_expiry(self) -> bool {
        self >= KubeletVersion::V1_35
    }

    /// From 1.36 a sync that started a container asks the PLEG to relist
    /// that pod at once (k/k#137362); before, only the 1 s relist saw it.
    pub fn relists_pod_after_sync(self) -> bool {
        self >= KubeletVersion::V1_36
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrashLoopBackOffConfig {
    /// A Go duration such as "4s"; unset means the kubelet's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_container_restart_period: Option<String>,
}

/// `featureGates`: gate names and their values, in name order, one entry a
/// name (the last wins when a map names a gate twice), as a `BTreeMap` would
/// hold them. A sorted list: a configuration names a handful of gates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeatureGates(Vec<(String, bool)>);

impl FeatureGates {
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(g, _)| g.as_str().cmp(name))
    }

    pub fn get(&self, name: &str) -> Option<bool> {
        self.find(name).ok().map(|i| self.0[i].1)
    }

    /// Sets a gate; its value before, if it was set.
    pub fn insert(&mut self, name: String, on: bool) -> Option<bool> {
        match self.find(&name) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, on)),
            Err(i) => {
                self.0.insert(i, (name, on));
                None
            }
        }
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&str, bool) -> bool) {
        self.0.retain(|(g, on)| keep(g, *on));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, bool)> {
        self.0.iter().map(|(g, on)| (g.as_str(), *on))
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.iter().map(|(g, _)| g)
    }
}

impl Serialize for FeatureGates {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for FeatureGates {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Gates;
        impl<'de> serde::de::Visitor<'de> for Gates {
            type Value = FeatureGates;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<FeatureGates, A::Error> {
                let mut gates = FeatureGates::default();
                while let Some((name, on)) = map.next_entry::<String, bool>()? {
                    gates.insert(name, on);
                }
                Ok(gates)
            }
        }
        deserializer.deserialize_map(Gates)
    }
}

/// The parts of a `KubeletConfiguration` that decide the restart curve.
/// Other KubeletConfiguration fields are accepted and ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KubeletConfig {
    #[serde(default, skip_serializing_if = "FeatureGates::is_empty")]
    pub feature_gates: FeatureGates,
    #[serde(default)]
    pub crash_loop_back_off: CrashLoopBackOffConfig,
    /// Unset: the scenario's model, or `kubelet` on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub semantics: Option<Semantics>,
    /// The kubelet modelled under `kubelet` semantics (unset: the scenario's,
    /// or the newest release); the KEPs describe 1.32+.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kubelet_version: Option<KubeletVersion>,
}

/// What a node's configuration resolves to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectiveBackoff {
    pub initial_ms: Ms,
    pub max_ms: Ms,
    pub reset_after_ms: Ms,
    /// Explicit waits before `maxMs` takes over (custom schedules only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule_ms: Vec<Ms>,
    /// How the values were reached, one line a step.
    #[serde(default)]
    pub notes: Vec<String>,
    /// What the kubelet would log as a warning, or settings with no effect.
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl EffectiveBackoff {
    /// Today's default: 10 s doubling to 300 s, reset after 600 s.
    pub fn todays_default() -> Self {
        Self {
            initial_ms: DEFAULT_INITIAL_MS,
            max_ms: DEFAULT_MAX_MS,
            reset_after_ms: FLAT_RESET_MS,
            schedule_ms: vec![],
            notes: vec!["today's default curve: initial 10s, max 5m0s".to_owned()],
            warnings: vec![],
        }
    }
}

/// Why a kubelet would not start with this configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigError {
    /// Each message as the kubelet prints it.
    pub messages: Vec<String>,
}

impl fmt::Display for ConfigError {
    /// As Kubernetes' aggregate error prints: one message alone, several in brackets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.messages.as_slice() {
            [one] => write!(f, "failed to validate kubelet configuration, error: {one}"),
            many => write!(
                f,
                "failed to validate kubelet configuration, error: [{}]",
                many.join(", ")
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl KubeletConfig {
    pub fn semantics(&self) -> Semantics {
        self.semantics.unwrap_or_default()
    }

    pub fn kubelet_version(&self) -> KubeletVersion {
        self.kubelet_version.unwrap_or_default()
    }

    /// A gate's value, or its default: in the KEPs both gates are alpha and
    /// off; a kubelet's defaults depend on its version.
    pub fn gate(&self, name: &str) -> bool {
        self.feature_gates
            .get(name)
            .unwrap_or(match self.semantics() {
                Semantics::Kep => false,
                Semantics::Kubelet => self.kubelet_version().gate_default(name).unwrap_or(false),
            })
    }
}

/// The curve a node with this configuration uses, or the kubelet's refusal.
pub fn resolve(config: &KubeletConfig) -> Result<EffectiveBackoff, ConfigError> {
    let semantics = config.semantics();
    let reduce = config.gate(REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY);
    let max_gate = config.gate(KUBELET_CRASH_LOOP_BACK_OFF_MAX);
    let mut notes = vec![];
    let version = config.kubelet_version();
    let mut warnings = vec![];
    let mut errors = vec![];
    for gate in config.feature_gates.keys() {
        let ours = gate == REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY
            || gate == KUBELET_CRASH_LOOP_BACK_OFF_MAX;
        // A curve gate spelled in another case (KEP-4603's kep.yaml writes
        // "CrashLoopBackoff") is a gate the kubelet does not know.
        let misspelled = !ours
            && [
                REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
                KUBELET_CRASH_LOOP_BACK_OFF_MAX,
            ]
            .iter()
            .any(|g| g.eq_ignore_ascii_case(gate));
        if (ours && version.gate_default(gate).is_none() || misspelled)
            && semantics == Semantics::Kubelet
        {
            // component-base refuses gates it does not know, and the kubelet with it.
            errors.push(format!("unrecognized feature gate: {gate}"));
        } else if !ours {
            warnings.push(format!(
                "feature gate {gate} does not change the restart curve; the explorer ignores it"
            ));
        }
    }
    let field_unknown = semantics == Semantics::Kubelet && version < KubeletVersion::V1_32;
    let period = config
        .crash_loop_back_off
        .max_container_restart_period
        .as_deref();
    if field_unknown && period.is_some() {
        warnings.push(format!(
            "kubelet {} does not know crashLoopBackOff: the field is dropped when the config is decoded",
            version.name()
        ));
    }

    let period_ms = match period.filter(|_| !field_unknown) {
        None => None,
        Some(text) => match parse_go_duration(text) {
            Err(e) => {
                errors.push(e.0);
                None
            }
            Ok(ns) => {
                if !max_gate {
                    match semantics {
                        Semantics::Kubelet => errors.push(format!(
                            "invalid configuration: FeatureGate {KUBELET_CRASH_LOOP_BACK_OFF_MAX} not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set"
                        )),
                        Semantics::Kep => warnings.push(format!(
                            "{KUBELET_CRASH_LOOP_BACK_OFF_MAX} is off: the kubelet logs a warning and does not honor crashLoopBackOff.maxContainerRestartPeriod (KEP-4603, KEP-5593)"
                        )),
                    }
                }
                // The kubelet compares `Duration.Milliseconds()`, which
                // truncates: "300.0009s" is 300000 ms and passes
                // (pkg/kubelet/apis/config/validation/validation.go).
                let whole_ms = ns / NANOS_PER_MS;
                let range = MIN_MAX_CONTAINER_RESTART_PERIOD_MS as i64
                    ..=MAX_MAX_CONTAINER_RESTART_PERIOD_MS as i64;
                if !range.contains(&whole_ms) {
                    errors.push(format!(
                        "invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: {} seconds) must be set between 1s and 300s",
                        format_go_float(go_seconds(ns))
                    ));
                    None
                } else {
                    // The kubelet keeps nanoseconds; the explorer's clock is milliseconds.
                    if ns % NANOS_PER_MS != 0 {
                        warnings.push(format!(
                            "maxContainerRestartPeriod {text} is rounded down to whole milliseconds"
                        ));
                    }
                    Some(whole_ms as Ms)
                }
            }
        },
    };
    if !errors.is_empty() {
        return Err(ConfigError { messages: errors });
    }

    let (mut initial, mut max) = if reduce {
        notes.push(format!(
            "{REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY} on: initial 1s, max 1m0s"
        ));
        (REDUCED_INITIAL_MS, REDUCED_MAX_MS)
    } else {
        notes.push("default curve: initial 10s, max 5m0s".to_owned());
        (DEFAULT_INITIAL_MS, DEFAULT_MAX_MS)
    };
    if max_gate {
        match (period_ms, semantics) {
            (Some(p), _) => {
                max = p;
                notes.push(format!(
                    "maxContainerRestartPeriod {} sets the max",
                    format_go_duration_ms(p)
                ));
            }
            // The shipped kubelet reads an unset field as its 300 s default,
            // even over ReduceDefaultCrashLoopBackOffDecay's 60 s.
            (None, Semantics::Kubelet) => {
                if max != DEFAULT_MAX_MS {
                    notes.push(format!(
                        "{KUBELET_CRASH_LOOP_BACK_OFF_MAX} on with maxContainerRestartPeriod unset: the kubelet uses its 5m0s default, not 1m0s"
                    ));
                }
                max = DEFAULT_MAX_MS;
            }
            (None, Semantics::Kep) => {}
        }
    }
    if max < initial {
        notes.push(format!(
            "max {} is below initial {}: initial lowered to the max",
            format_go_duration_ms(max),
            format_go_duration_ms(initial)
        ));
        initial = max;
    }
    let reset_after_ms = if semantics == Semantics::Kubelet && version.resets_after_twice_max() {
        notes.push(format!(
            "kubelet {}: reset after 2 × max = {}",
            version.name(),
            format_go_duration_ms(max * 2)
        ));
        max * 2
    } else {
        FLAT_RESET_MS
    };
    Ok(EffectiveBackoff {
        initial_ms: initial,
        max_ms: max,
        reset_after_ms,
        schedule_ms: vec![],
        notes,
        warnings,
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Read and written as the `BTreeMap<String, bool>` it replaced: in name
    /// order, the last of a repeated name, serde's words for a wrong value.
    #[test]
    fn feature_gates_read_and_write_as_a_map() {
        let text = r#"{"Zeta": true, "Alpha": false, "Zeta": false, "Mid": true}"#;
        let gates: FeatureGates = serde_json::from_str(text).unwrap();
        let map: BTreeMap<String, bool> = serde_json::from_str(text).unwrap();
        let written = serde_json::to_string(&gates).unwrap();
        assert_eq!(written, r#"{"Alpha":false,"Mid":true,"Zeta":false}"#);
        assert_eq!(written, serde_json::to_string(&map).unwrap());
        assert_eq!(gates.keys().collect::<Vec<_>>(), ["Alpha", "Mid", "Zeta"]);
        for bad in [r#"{"A": 1}"#, "[]", r#"{"A": null}"#] {
            assert_eq!(
                serde_json::from_str::<FeatureGates>(bad)
                    .unwrap_err()
                    .to_string(),
                serde_json::from_str::<BTreeMap<String, bool>>(bad)
                    .unwrap_err()
                    .to_string(),
                "{bad}"
            );
        }
    }

    #[test]
    fn feature_gates_set_get_and_keep() {
        let mut gates = FeatureGates::default();
        assert!(gates.is_empty());
        assert_eq!(gates.insert("B".into(), true), None);
        assert_eq!(gates.insert("A".into(), true), None);
        assert_eq!(gates.insert("B".into(), false), Some(true));
        assert_eq!(
            (gates.get("A"), gates.get("B"), gates.get("C")),
            (Some(true), Some(false), None)
        );
        gates.retain(|name, on| name == "A" || on);
        assert_eq!(gates.iter().collect::<Vec<_>>(), [("A", true)]);
    }
}

#[cfg(test)]
mod node_version_tests {
    use super::KubeletVersion;

    #[test]
    fn a_nodes_reported_version_names_its_release() {
        for (reported, release) in [
            ("v1.33.5-eks-113cf36", KubeletVersion::V1_33),
            ("v1.31.4+k3s1", KubeletVersion::V1_31),
            (" v1.36.2 ", KubeletVersion::V1_36),
            ("v1.37.0-rc.1", KubeletVersion::V1_37),
            ("1.37", KubeletVersion::V1_37),
        ] {
            assert_eq!(KubeletVersion::of_node(reported), Ok(release), "{reported}");
        }
        assert_eq!(
            KubeletVersion::of_node("v1.30.2-gke.1587003"),
            Err(
                "kubelet v1.30.2-gke.1587003: 1.30 is not a modelled release (1.31 to 1.37)".into()
            )
        );
        for bad in ["v1.3x", "1.36rc", "v2", "", "v.33"] {
            let e = KubeletVersion::of_node(bad).unwrap_err();
            assert!(e.contains("not a Kubernetes version"), "{bad}: {e}");
        }
    }
}
