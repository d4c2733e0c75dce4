//! The cluster view: its inputs (`ClusterInputs`, which links read and
//! write) and everything it shows of them, worked out in one call (`show`).

use super::apf::ApiServer;
use super::backoff::Ms;
use super::cluster::{
    evaluate_by, judge, kubelet_config, sweep, ClassSums, ClusterResult, Constraints, NodeClass,
    Recommendation, Sweep, MAX_CLASSES,
};
use super::cluster::{Cluster, MAX_OTHER_NODES};
use super::presets::presets;
use super::scenario::{
    Group, Scenario, ScenarioSpec, DEFAULT_HORIZON_MS, DEFAULT_KUBE_API_BURST,
    DEFAULT_KUBE_API_QPS, HORIZON_RANGE_MS, PODS_RANGE,
};
/// A class's name: a label, as long as a Kubernetes name.
pub const MAX_CLASS_NAME: usize = 63;
/// `maxContainerRestartPeriod`'s range, as the kubelet validates it.
pub const MAX_RESTART_PERIOD_RANGE_MS: std::ops::RangeInclusive<Ms> = 1_000..=300_000;
/// How long a crash-looping container runs before it exits again: up to an hour.
pub const MAX_RUN_MS: Ms = 3_600_000;

/// Nodes that run the same crash-looping pods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInputs {
    pub name: String,
    pub nodes: u32,
    /// Crash-looping pods on each node; they crash together.
    pub pods: u32,
    /// How long each container runs before it exits again.
    pub run_ms: Ms,
    /// Over how long the crashes start across the class's nodes; 0: at once.
    pub spread_ms: Ms,
    /// A workload as the node view has it (groups of pods, each with its
    /// crash interval, exit, restart policy and rules), in place of `pods`
    /// and `run_ms`; empty: those.
    pub groups: Vec<Group>,
}

impl From<NodeClass> for ClassInputs {
    /// A preset's or a pasted cluster's class: its pods crash at once.
    fn from(c: NodeClass) -> Self {
        ClassInputs {
            pods: c.scenario.spec().pods.unwrap_or(1),
            name: c.name,
            nodes: c.nodes,
            run_ms: c.scenario.spec().run_ms.unwrap_or(0),
            spread_ms: c.spread_ms,
            groups: c.scenario.spec().groups.clone(),
        }
    }
}

/// What a user sets in the cluster view: the single source of truth.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterInputs {
    pub classes: Vec<ClassInputs>,
    /// `maxContainerRestartPeriod` on every node; `None`: unset, the
    /// kubelet's own 5 min.
    pub max_ms: Option<Ms>,
    /// `ReduceDefaultCrashLoopBackOffDecay` on every node (1 s initial).
    pub reduce_default_decay: bool,
    /// Every kubelet's client rate limiter.
    pub kube_api_qps: u32,
    pub kube_api_burst: u32,
    pub api_server: ApiServer,
    /// Nodes that run no crash-looping pod (their leases still count).
    pub other_nodes: u32,
    /// How long after the rollout the cluster is followed.
    pub horizon_ms: Ms,
    /// KEP-4603's curves drawn beside the live one, by id (`presets`).
    pub compared: Vec<&'static str>,
    /// What the user wants of a setting.
    pub want: Constraints,
}

impl Default for ClusterInputs {
    /// A bad DaemonSet rollout (one crashing pod on each of 5,000 nodes) on
    /// today's kubelet, against KEP-4603's new default curve.
    fn default() -> Self {
        ClusterInputs {
            classes: vec![ClassInputs {
                name: "every node".into(),
                nodes: 5_000,
                pods: 1,
                run_ms: 0,
                spread_ms: 0,
                groups: vec![],
            }],
            max_ms: None,
            reduce_default_decay: false,
            kube_api_qps: DEFAULT_KUBE_API_QPS,
            kube_api_burst: DEFAULT_KUBE_API_BURST,
            api_server: ApiServer::default(),
            other_nodes: 0,
            horizon_ms: DEFAULT_HORIZON_MS,
            compared: vec!["new-default"],
            want: Constraints {
                crashes: 5,
                restart_within_ms: Some(60_000),
                no_limiter_binds: true,
                max_system_busy_percent: Some(80.0),
                reduce_default_decay: false,
            },
        }
    }
}

/// Everything the view shows, from one set of inputs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterShown {
    pub live: ClusterResult,
    pub todays_default: ClusterResult,
    /// Each compared curve's label and result, in the inputs' order.
    pub compared: Vec<(&'static str, ClusterResult)>,
}

impl ClusterInputs {
    /// The first input out of range that `Cluster::validate` does not
    /// check (it checks the node counts, spreads, classes and API servers
    /// when the cluster is built), in the words of the field it names.
    pub fn validate(&self) -> Result<(), String> {
        for (i, c) in self.classes.iter().enumerate() {
            if !PODS_RANGE.contains(&c.pods) {
                return Err(format!(
                    "nodeClasses[{i}].pods: {} is not {} to {} (the kubelet's maxPods is 110 by default)",
                    c.pods,
                    PODS_RANGE.start(),
                    PODS_RANGE.end()
                ));
            }
            if c.run_ms > MAX_RUN_MS {
                return Err(format!("nodeClasses[{i}].runMs: at most an hour"));
            }
            if c.name.chars().count() > MAX_CLASS_NAME {
                return Err(format!(
                    "nodeClasses[{i}].name: at most {MAX_CLASS_NAME} characters"
                ));
            }
        }
        if let Some(max) = self.max_ms {
            if !MAX_RESTART_PERIOD_RANGE_MS.contains(&max) {
                return Err(
                    "crashLoopBackOff.maxContainerRestartPeriod: must be between 1s and 300s"
                        .into(),
                );
            }
        }
        if !HORIZON_RANGE_MS.contains(&self.horizon_ms) {
            return Err("horizonMs: 1 min to 24 h".into());
        }
        Ok(())
    }

    /// The cluster these inputs describe: each class's node runs its pods
    /// on the kubelet set here.
    pub fn cluster(&self) -> Result<Cluster, String> {
        self.validate()?;
        let config = kubelet_config(self.max_ms, self.reduce_default_decay);
        let node_classes = self
            .classes
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let own = c.groups.is_empty();
                let spec = ScenarioSpec {
                    config: Some(config.clone()),
                    pods: own.then_some(c.pods),
                    run_ms: own.then_some(c.run_ms),
                    groups: c.groups.clone(),
                    kube_api_qps: self.kube_api_qps,
                    kube_api_burst: self.kube_api_burst,
                    horizon_ms: self.horizon_ms,
                    ..ScenarioSpec::default()
                };
                Scenario::try_from(spec)
                    .map(|scenario| NodeClass {
                        name: c.name.clone(),
                        nodes: c.nodes,
                        scenario,
                        spread_ms: c.spread_ms,
                    })
                    .map_err(|e| format!("nodeClasses[{i}]: {e}"))
            })
            .collect::<Result<_, _>>()?;
        let cluster = Cluster {
            node_classes,
            api_server: self.api_server.clone(),
            other_nodes: self.other_nodes,
        };
        cluster.validate()?;
        Ok(cluster)
    }
}

/// The live cluster, today's default and each compared curve.
pub fn show(inputs: &ClusterInputs) -> Result<ClusterShown, String> {
    show_by(
        &inputs.cluster()?,
        &inputs.compared,
        |s| std::rc::Rc::new(super::cluster::node_series(s)),
        &mut ClassSums::default(),
    )
}

/// `show` of a cluster already built (`ClusterInputs::cluster`) and the
/// curves compared, each class's node from `series` and its sum from `sums`
/// (`cluster::evaluate_by`).
pub fn show_by(
    cluster: &Cluster,
    compared: &[&'static str],
    mut series: impl FnMut(&Scenario) -> std::rc::Rc<super::cluster::NodeSeries>,
    sums: &mut ClassSums,
) -> Result<ClusterShown, String> {
    let curves = presets();
    let compared = compared
        .iter()
        .filter_map(|id| curves.iter().find(|p| p.id == *id))
        .map(|curve| {
            Ok((
                curve.label,
                evaluate_by(&cluster.on_curve(curve)?, &mut series, sums),
            ))
        })
        .collect::<Result<_, String>>()?;
    Ok(ClusterShown {
        todays_default: evaluate_by(&cluster.on_todays_default(), &mut series, sums),
        compared,
        live: evaluate_by(cluster, &mut series, sums),
    })
}

/// Every value of `maxContainerRestartPeriod` weighed on these nodes, with
/// the view's `ReduceDefaultCrashLoopBackOffDecay` choice.
pub fn sweep_of(inputs: &ClusterInputs) -> Result<Sweep, String> {
    Ok(sweep(&inputs.cluster()?, inputs.reduce_default_decay))
}

/// Each class's (pods, crash interval, groups), in order; kubeAPIQPS,
/// kubeAPIBurst; the gate; the horizon.
pub type NodesKey = (Vec<(u32, Ms, Vec<Group>)>, u32, u32, bool, Ms);

/// What the sweep's nodes (`cluster::sweep_nodes`) depend on. Two inputs
/// alike in this run the same nodes at every value: node counts, spreads
/// and the API servers only re-sum them (`cluster::sweep_with`).
pub fn sweep_nodes_key(inputs: &ClusterInputs) -> NodesKey {
    (
        inputs
            .classes
            .iter()
            .map(|c| (c.pods, c.run_ms, c.groups.clone()))
            .collect(),
        inputs.kube_api_qps,
        inputs.kube_api_burst,
        inputs.reduce_default_decay,
        inputs.horizon_ms,
    )
}

/// What the sweep depends on: the inputs less the live value, the compared
/// curves and the goals, which it does not read.
pub fn sweep_key(inputs: &ClusterInputs) -> ClusterInputs {
    ClusterInputs {
        max_ms: None,
        compared: vec![],
        want: ClusterInputs::default().want,
        ..inputs.clone()
    }
}

/// A sweep of a few milliseconds, worked out on the move; a dearer one
/// waits for the controls to rest. Its cost grows with the classes and the
/// horizon: up to three classes over 30 minutes run their nodes at every
/// value in that time, and with the nodes already run (`nodes_cached`: only
/// node counts, spreads or the API servers moved) eight times as many are
/// re-summed in it (the bench's rows).
pub fn sweep_is_quick(inputs: &ClusterInputs, nodes_cached: bool) -> bool {
    let budget = if nodes_cached { 24 } else { 3 };
    inputs.classes.len() as u64 * inputs.horizon_ms <= budget * DEFAULT_HORIZON_MS
}

/// The goals judged over a sweep of these inputs.
pub fn recommendation(inputs: &ClusterInputs) -> Result<Recommendation, String> {
    Ok(judge(&sweep_of(inputs)?, &inputs.want))
}

/// Node classes from a pasted cluster (`cluster::classes_from_pods`), as the
/// view's classes: at most `MAX_CLASSES`, those with the most crash-looping
/// pods kept, and a note of what was left out.
pub fn classes_from_paste(pods: &[super::pod::PodReading]) -> (Vec<ClassInputs>, u32, Vec<String>) {
    let (classes, others, mut notes) =
        super::cluster::classes_from_pods(pods, &ScenarioSpec::default());
    let mut classes: Vec<ClassInputs> = classes.into_iter().map(ClassInputs::from).collect();
    if classes.len() > MAX_CLASSES {
        classes.sort_by_key(|c| std::cmp::Reverse(u64::from(c.nodes) * u64::from(c.pods)));
        let left: u32 = classes[MAX_CLASSES..].iter().map(|c| c.nodes).sum();
        classes.truncate(MAX_CLASSES);
        classes.sort_by_key(|c| c.pods);
        notes.push(format!(
            "{left} nodes of rarer counts left out: at most {MAX_CLASSES} classes, those with the most crash-looping pods kept"
        ));
    }
    (classes, others.min(MAX_OTHER_NODES), notes)
}
