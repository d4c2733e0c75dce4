//! The cluster view's keys: each node class (`cn=name~nodes~pods~run~spread`,
//! repeated) and the groups a class runs in their place (`cgr=class~group`,
//! a group as the node view's `g=` writes it), the kubelet (`cmax`, `cdecay`, `cqps=qps,burst`), the API
//! servers (`capi=replicas,inflight,mutating,secondsPerRequest`), the other
//! nodes (`cother`), the horizon (`ch`), the compared curves (`ccmp`) and what is wanted of a
//! setting (`cwant=crashes,within,noLimiter,busyPercent`, empty for none).
//! Read as `decode` reads: a bad value keeps the default and says so.

use super::{format_go_duration_ms, group_field, parse_ms, presets, Notice, Reader};
use crate::engine::apf::REPLICAS_RANGE;
use crate::engine::cluster::{Constraints, MAX_CLASSES, MAX_NODES, MAX_OTHER_NODES, MAX_SPREAD_MS};
use crate::engine::cluster_view::{
    ClassInputs, ClusterInputs, MAX_CLASS_NAME, MAX_RESTART_PERIOD_RANGE_MS, MAX_RUN_MS,
};
use crate::engine::scenario::{BURST_RANGE, HORIZON_RANGE_MS, MAX_GROUPS, PODS_RANGE, QPS_RANGE};
use crate::inputs::ClusterLink;

/// The keys, in the order they are written.
pub(super) const KEYS: [&str; 10] = [
    "cn", "cgr", "cmax", "cdecay", "cqps", "capi", "cother", "ch", "ccmp", "cwant",
];

/// At most this busy, in per cent of the system level's seats.
const BUSY_RANGE: std::ops::RangeInclusive<f64> = 1.0..=1_000.0;
const CRASHES_RANGE: std::ops::RangeInclusive<u32> = 1..=20;
const INFLIGHT_RANGE: std::ops::RangeInclusive<u32> = 0..=100_000;
/// How long a request holds a seat: 1 ms to a minute.
const SEAT_RANGE_MS: std::ops::RangeInclusive<u64> = 1..=60_000;

/// The cluster view's inputs from a link's cluster keys, and what in them
/// was not used.
pub fn cluster_inputs(link: &ClusterLink) -> (ClusterInputs, Vec<Notice>) {
    let mut r = Reader::new(super::json_pin_elsewhere);
    let mut c = ClusterInputs::default();
    let mut classes = vec![];
    let mut groups: Vec<(usize, crate::engine::Group)> = vec![];
    for (key, v) in &link.0 {
        let v = v.as_str();
        match *key {
            "cn" => {
                if classes.len() == MAX_CLASSES {
                    r.notice(key, v, format!("at most {MAX_CLASSES} node classes"));
                } else if let Some(class) = read_class(&mut r, v) {
                    classes.push(class);
                }
            }
            "cgr" => {
                let read = v
                    .split_once('~')
                    .and_then(|(i, g)| Some((i.parse::<usize>().ok()?, g)));
                match read {
                    Some((i, g)) if i < MAX_CLASSES => {
                        if let Some(g) = r.group(g) {
                            groups.push((i, g));
                        }
                    }
                    _ => r.notice(key, v, "write class~group, e.g. 0~10.30s.f.A.0s.web"),
                }
            }
            "cmax" => c.max_ms = r.ms(key, v, &MAX_RESTART_PERIOD_RANGE_MS),
            "cdecay" => c.reduce_default_decay = v == "1",
            "cqps" => {
                let Some((qps, burst)) = v.split_once(',') else {
                    r.notice(key, v, "write kubeAPIQPS,kubeAPIBurst, e.g. 50,100");
                    continue;
                };
                if let (Some(q), Some(b)) = (
                    r.num("cqps kubeAPIQPS", qps, &QPS_RANGE),
                    r.num("cqps kubeAPIBurst", burst, &BURST_RANGE),
                ) {
                    (c.kube_api_qps, c.kube_api_burst) = (q, b);
                }
            }
            "capi" => read_api(&mut r, v, &mut c),
            "cother" => {
                if let Some(n) = r.num(key, v, &(0..=MAX_OTHER_NODES)) {
                    c.other_nodes = n;
                }
            }
            "ch" => {
                if let Some(h) = r.ms(key, v, &HORIZON_RANGE_MS) {
                    c.horizon_ms = h;
                }
            }
            "ccmp" => {
                let curves = presets();
                c.compared.clear();
                for id in v.split(',').filter(|id| !id.is_empty()) {
                    match curves.iter().find(|p| p.id == id) {
                        Some(p) if !c.compared.contains(&p.id) => c.compared.push(p.id),
                        Some(_) => {}
                        None => r.notice(key, id, "not one of the KEP's curves"),
                    }
                }
            }
            _ => read_want(&mut r, v, &mut c),
        }
    }
    if !classes.is_empty() {
        c.classes = classes;
    }
    for (i, g) in groups {
        match c.classes.get_mut(i) {
            Some(class) if class.groups.len() < MAX_GROUPS => class.groups.push(g),
            Some(_) => r.notice(
                "cgr",
                &i.to_string(),
                format!("at most {MAX_GROUPS} groups"),
            ),
            None => r.notice("cgr", &i.to_string(), "no such node class"),
        }
    }
    (c, r.notices)
}

fn read_class(r: &mut Reader, v: &str) -> Option<ClassInputs> {
    let parts: Vec<&str> = v.rsplitn(5, '~').collect();
    let [spread, run, pods, nodes, name] = parts.as_slice() else {
        r.notice(
            "cn",
            v,
            "write name~nodes~pods~run~spread, e.g. pool-a~5000~1~0s~0s",
        );
        return None;
    };
    if name.chars().count() > MAX_CLASS_NAME {
        r.notice(
            "cn",
            v,
            format!("a name of at most {MAX_CLASS_NAME} characters"),
        );
        return None;
    }
    Some(ClassInputs {
        name: (*name).to_owned(),
        nodes: r.num("cn nodes", nodes, &(1..=MAX_NODES))?,
        pods: r.num("cn pods", pods, &PODS_RANGE)?,
        run_ms: r.ms("cn run", run, &(0..=MAX_RUN_MS))?,
        spread_ms: r.ms("cn spread", spread, &(0..=MAX_SPREAD_MS))?,
        groups: vec![],
    })
}

fn read_api(r: &mut Reader, v: &str, c: &mut ClusterInputs) {
    let parts: Vec<&str> = v.split(',').collect();
    let [replicas, inflight, mutating, seat] = parts.as_slice() else {
        r.notice(
            "capi",
            v,
            "write replicas,maxRequestsInflight,maxMutatingRequestsInflight,secondsPerRequest, e.g. 3,400,200,20ms",
        );
        return;
    };
    let read = (
        r.num("capi replicas", replicas, &REPLICAS_RANGE),
        r.num("capi maxRequestsInflight", inflight, &INFLIGHT_RANGE),
        r.num(
            "capi maxMutatingRequestsInflight",
            mutating,
            &INFLIGHT_RANGE,
        ),
        r.ms("capi secondsPerRequest", seat, &SEAT_RANGE_MS),
    );
    if let (Some(replicas), Some(inflight), Some(mutating), Some(seat)) = read {
        let api = crate::engine::apf::ApiServer {
            replicas,
            max_requests_inflight: inflight,
            max_mutating_requests_inflight: mutating,
            seconds_per_request: seat as f64 / 1_000.0,
            levels: None,
        };
        match api.validate() {
            Ok(()) => c.api_server = api,
            Err(e) => r.notice("capi", v, e),
        }
    }
}

fn read_want(r: &mut Reader, v: &str, c: &mut ClusterInputs) {
    let parts: Vec<&str> = v.split(',').collect();
    let [crashes, within, no_limiter, busy] = parts.as_slice() else {
        r.notice(
            "cwant",
            v,
            "write crashes,within,noLimiter,busyPercent, e.g. 5,1m0s,1,80 (empty: no bound)",
        );
        return;
    };
    let Some(crashes) = r.num("cwant crashes", crashes, &CRASHES_RANGE) else {
        return;
    };
    let within = match *within {
        "" => None,
        w => match parse_ms(w) {
            Ok(ms) => Some(ms),
            Err(e) => return r.notice("cwant", v, e),
        },
    };
    let busy = match *busy {
        "" => None,
        b => match b.parse::<f64>() {
            Ok(p) if BUSY_RANGE.contains(&p) => Some(p),
            _ => return r.notice("cwant", v, "the busy share is a per cent from 1 to 1000"),
        },
    };
    c.want.crashes = crashes;
    c.want.restart_within_ms = within;
    c.want.no_limiter_binds = *no_limiter == "1";
    c.want.max_system_busy_percent = busy;
}

/// A cluster view's inputs as link keys: defaults left out.
pub fn cluster_link(c: &ClusterInputs) -> ClusterLink {
    let d = ClusterInputs::default();
    let go = format_go_duration_ms;
    let mut out: Vec<(&'static str, String)> = vec![];
    if c.classes != d.classes {
        for class in &c.classes {
            let (name, nodes, pods) = (&class.name, class.nodes, class.pods);
            let (run, spread) = (go(class.run_ms), go(class.spread_ms));
            out.push(("cn", format!("{name}~{nodes}~{pods}~{run}~{spread}")));
        }
    }
    for (i, class) in c.classes.iter().enumerate() {
        for g in &class.groups {
            out.push(("cgr", format!("{i}~{}", group_field(g))));
        }
    }
    if let Some(max) = c.max_ms {
        out.push(("cmax", go(max)));
    }
    if c.reduce_default_decay {
        out.push(("cdecay", "1".into()));
    }
    if (c.kube_api_qps, c.kube_api_burst) != (d.kube_api_qps, d.kube_api_burst) {
        out.push(("cqps", format!("{},{}", c.kube_api_qps, c.kube_api_burst)));
    }
    let a = &c.api_server;
    if *a != d.api_server {
        let seat = go((a.seconds_per_request * 1_000.0).round() as u64);
        let (replicas, inflight, mutating) = (
            a.replicas,
            a.max_requests_inflight,
            a.max_mutating_requests_inflight,
        );
        out.push(("capi", format!("{replicas},{inflight},{mutating},{seat}")));
    }
    if c.other_nodes != d.other_nodes {
        out.push(("cother", c.other_nodes.to_string()));
    }
    if c.horizon_ms != d.horizon_ms {
        out.push(("ch", go(c.horizon_ms)));
    }
    if c.compared != d.compared {
        out.push(("ccmp", c.compared.join(",")));
    }
    // The gate is the kubelet's (`cdecay`); the goals are the rest.
    let w = &c.want;
    if (Constraints {
        reduce_default_decay: d.want.reduce_default_decay,
        ..w.clone()
    }) != d.want
    {
        let within = w.restart_within_ms.map(go).unwrap_or_default();
        let busy = w
            .max_system_busy_percent
            .map(|p| crate::engine::duration::rounded(p, 1))
            .unwrap_or_default();
        let no_limiter = u8::from(w.no_limiter_binds);
        out.push((
            "cwant",
            format!("{},{within},{no_limiter},{busy}", w.crashes),
        ));
    }
    ClusterLink(out)
}

#[cfg(test)]
mod tests {
    /// The cluster keys are read before the table's: none may take a key of
    /// the node view's.
    #[test]
    fn the_cluster_keys_are_the_clusters_own() {
        for key in super::KEYS {
            assert!(super::super::params().all(|p| p.key != key), "{key}");
        }
    }
}
