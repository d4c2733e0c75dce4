//! Every quantitative claim in KEP-4603 and KEP-5593, recomputed by the
//! engine under the assumptions the KEP states, with a verdict and the
//! scenario that shows it.

use serde::{Deserialize, Serialize};

use super::backoff::Ms;
use super::config::{
    resolve, CrashLoopBackOffConfig, EffectiveBackoff, KubeletConfig, KubeletVersion, Semantics,
    KUBELET_CRASH_LOOP_BACK_OFF_MAX, REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY,
};
use super::duration::format_go_duration_ms;
use super::job::{run_job, FailureScript, JobInputs, JobManifest, DEFAULT_HORIZON_MS};
use super::node::{simulate, Timeline};
use super::requests::RunningSeen;
use super::scenario::{Requeue, Scenario, ScenarioSpec};
use super::times::Times;
use super::windows::{restarts_in_windows, FIRST_MINUTES_MS, LOAD_WINDOW_MS};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    Matches,
    Differs,
    /// Right or wrong depending on how a window's edges are counted.
    Convention,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Claim {
    pub id: &'static str,
    pub kep: &'static str,
    pub section: &'static str,
    /// The KEP's words, short.
    pub quote: &'static str,
    /// What the recomputation assumes.
    pub assumptions: String,
    pub kep_value: String,
    pub recomputed: String,
    pub verdict: Verdict,
    pub why: String,
    /// Loads the claim into the charts.
    pub scenario: ScenarioSpec,
    /// For claims about Jobs: what "show me" loads into the Job view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job: Option<JobInputs>,
}

const TODAY: (Ms, Ms) = (10_000, 300_000);
/// The KEP's time windows: when today's first five restarts land.
pub const KEP_WINDOWS_MS: [Ms; 5] = [10_000, 30_000, 70_000, 150_000, 310_000];
const PODS: u32 = 110;

/// The KEP's idealised curve: every exit waits the backoff, restart on expiry.
fn kep_spec(curve: (Ms, Ms), run_ms: Ms, horizon_ms: Ms) -> ScenarioSpec {
    ScenarioSpec {
        initial_ms: Some(curve.0),
        max_ms: Some(curve.1),
        run_ms: Some(run_ms),
        pods: Some(PODS),
        horizon_ms,
        model: Semantics::Kep,
        requeue: Some(Requeue::Ideal),
        ..Default::default()
    }
}

fn timeline(spec: &ScenarioSpec) -> Timeline {
    match Scenario::try_from(spec.clone()) {
        Ok(s) => simulate(&s),
        // Every spec here is in range; an empty timeline would show as a mismatch.
        Err(_) => simulate(&Scenario::default()),
    }
}

fn kep(curve: (Ms, Ms), run_ms: Ms, horizon_ms: Ms) -> (ScenarioSpec, Timeline) {
    let spec = kep_spec(curve, run_ms, horizon_ms);
    let t = timeline(&spec);
    (spec, t)
}

/// The kubelet's decisions (first restart free), restarts on expiry.
fn kubelet(curve: (Ms, Ms), run_ms: Ms, horizon_ms: Ms) -> Timeline {
    timeline(&ScenarioSpec {
        model: Semantics::Kubelet,
        ..kep_spec(curve, run_ms, horizon_ms)
    })
}

/// Restarts in `(from, from + span]`.
fn restarts_between(t: &Timeline, from: Ms, span: Ms) -> u64 {
    t.restarts_by(from + span) - t.restarts_by(from)
}

/// The lowest and highest excess of `a` over `b` once both run at their cap.
fn steady_excess(a: &Timeline, b: &Timeline, from: Ms) -> (i64, i64) {
    let times = a
        .restarts_at_ms
        .iter()
        .chain(b.restarts_at_ms.iter())
        .filter(|&t| t >= from);
    let diff = |t: Ms| a.restarts_by(t) as i64 - b.restarts_by(t) as i64;
    let first = diff(from);
    times.fold((first, first), |(lo, hi), t| {
        (lo.min(diff(t)), hi.max(diff(t)))
    })
}

fn range(lo: i64, hi: i64) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

fn verdict(matches: bool) -> Verdict {
    if matches {
        Verdict::Matches
    } else {
        Verdict::Differs
    }
}

fn config(reduce: Option<bool>, max_gate: Option<bool>, period: Option<&str>) -> KubeletConfig {
    let mut c = KubeletConfig::default();
    if let Some(v) = reduce {
        c.feature_gates
            .insert(REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY.into(), v);
    }
    if let Some(v) = max_gate {
        c.feature_gates
            .insert(KUBELET_CRASH_LOOP_BACK_OFF_MAX.into(), v);
    }
    c.crash_loop_back_off.max_container_restart_period = period.map(str::to_owned);
    c
}

/// "1s / 5m0s": a resolved curve as the KEPs' tables write it.
fn curve_text(b: &EffectiveBackoff) -> String {
    format!(
        "{} / {}",
        format_go_duration_ms(b.initial_ms),
        format_go_duration_ms(b.max_ms)
    )
}

/// A conflict-table row, resolved under both semantics.
fn table_row(
    id: &'static str,
    kep: &'static str,
    quote: &'static str,
    c: KubeletConfig,
    kep_value: &str,
) -> Claim {
    let show = |semantics: Semantics| {
        let c = KubeletConfig {
            semantics: Some(semantics),
            ..c.clone()
        };
        resolve(&c).map_or_else(|_| "kubelet crashes".to_owned(), |b| curve_text(&b))
    };
    let (as_kep, as_kubelet) = (show(Semantics::Kep), show(Semantics::Kubelet));
    let matches = as_kep.starts_with(kep_value) && as_kubelet == as_kep;
    let why = if matches {
        "the KEP's rules and the kubelet give the row's values".to_owned()
    } else {
        "the KEP's own rule (initial = max only when max < initial) and the kubelet keep 10s"
            .to_owned()
    };
    Claim {
        id,
        kep,
        section: "Conflict resolution",
        quote,
        assumptions: "gates as in the row; initial / max".into(),
        kep_value: kep_value.into(),
        recomputed: format!(
            "KEP: {as_kep}; kubelet {}: {as_kubelet}",
            KubeletVersion::default().name()
        ),
        verdict: verdict(matches),
        why,
        scenario: ScenarioSpec {
            config: Some(c),
            model: Semantics::Kubelet,
            ..Default::default()
        },
        job: None,
    }
}

/// The claims, in the audit's order: each function recomputes what its
/// claims rest on, so a row's numbers come from one place.
const STUDIES: [fn() -> Vec<Claim>; 17] = [
    ten_second_crasher,
    nine_fifty_nine,
    windows_for_1s,
    excess_per_lifetime,
    excess_1s_30s,
    new_default,
    one_second_cap,
    client_rate_limit,
    requests_per_restart,
    reset_threshold,
    first_restart,
    kep_4603_table,
    kep_5593_table,
    || vec![gc_claim()],
    || vec![reduce_alone_claim()],
    || vec![gate_spelling_claim()],
    || vec![ignored_job_failures_claim()],
];

/// Every claim, recomputed now.
pub fn audit() -> Vec<Claim> {
    STUDIES.iter().flat_map(|study| study()).collect()
}

const MIN30: Ms = 1_800_000;
const HOUR: Ms = 3_600_000;

/// The busiest 10 s window's `/pods` requests.
fn peak_requests(t: &Timeline) -> u64 {
    t.node_requests_per_window
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
}

/// A container crashing every 10 s under today's curve: restarts in 30 min and in the first 5.
fn ten_second_crasher() -> Vec<Claim> {
    let mut claims = vec![];
    // A container crashing every 10 s under today's curve.
    let (spec, today_10s) = kep(TODAY, 10_000, MIN30);
    let kubelet_10s = kubelet(TODAY, 10_000, MIN30);
    let (n_kep, n_kubelet) = (
        today_10s.restarts_at_ms.len(),
        kubelet_10s.restarts_at_ms.len(),
    );
    claims.push(Claim {
        id: "ten-second-crasher-30-min",
        kep: "KEP-4603",
        section: "Front loaded decay curve, modified maximum backoff methodology",
        quote: "for a fast exiting container crashing every 10 seconds, in the first 30 minutes the container will restart about 10 times",
        assumptions: "today's curve (10 s doubling to 5 min), the container runs 10 s each time".into(),
        kep_value: "about 10".into(),
        recomputed: format!("{n_kep} (KEP curve), {n_kubelet} (kubelet: first restart at once)"),
        verdict: verdict(n_kep.abs_diff(10) <= 1),
        why: "\"about\" covers both; the kubelet's free first restart makes it exactly 10".into(),
        scenario: spec.clone(),
        job: None,
    });
    let first5 = today_10s.restarts_by(FIRST_MINUTES_MS);
    claims.push(Claim {
        id: "ten-second-crasher-first-5-min",
        kep: "KEP-4603",
        section: "Front loaded decay curve, modified maximum backoff methodology",
        quote: "with the first four restarts in the first 5 minutes",
        assumptions: "as above; restarts at or before 300 s".into(),
        kep_value: "4".into(),
        recomputed: format!(
            "{first5} (KEP curve), {} (kubelet)",
            kubelet_10s.restarts_by(FIRST_MINUTES_MS)
        ),
        verdict: verdict(first5 == 4),
        why: "restarts at 20, 50, 100 and 190 s; the kubelet adds its immediate first restart"
            .into(),
        scenario: spec,
        job: None,
    });
    claims
}

/// A container that runs just under 10 min.
fn nine_fifty_nine() -> Vec<Claim> {
    let mut claims = vec![];
    let (spec, almost_ten) = kep(TODAY, 599_999, MIN30);
    let n = almost_ten.restarts_at_ms.len();
    claims.push(Claim {
        id: "nine-fifty-nine-runner",
        kep: "KEP-4603",
        section: "Front loaded decay curve, modified maximum backoff methodology",
        quote: "in the worst case where a container always exits after 9:59:59, this means in the first 30 minute period, the container will restart twice",
        assumptions: "today's curve; each run lasts 599.999 s, just under the 600 s reset".into(),
        kep_value: "2".into(),
        recomputed: format!("{n} (KEP curve), {} (kubelet)", kubelet(TODAY, 599_999, MIN30).restarts_at_ms.len()),
        verdict: verdict(n == 2),
        why: "runs never exceed the reset threshold, so the waits keep doubling: 10 s, then 20 s".into(),
        scenario: spec,
        job: None,
    });
    claims
}

/// The 1 s initial's restarts in the KEP's first windows.
fn windows_for_1s() -> Vec<Claim> {
    let mut claims = vec![];
    let (spec, one_s) = kep((1_000, 300_000), 0, MIN30);
    let w = one_s.restarts_in_windows(&KEP_WINDOWS_MS[..3]);
    claims.push(Claim {
        id: "windows-for-1s-initial",
        kep: "KEP-4603",
        section: "Front loaded decay curve, modified maximum backoff methodology",
        quote: "changing the initial rate to 1s, we would instead have 3 restarts in the first time window, 1 restart within the second time window, and two more restarts within the third time window",
        assumptions: "1 s initial, 5 min max, instant crashes; windows (0,10], (10,30], (30,70] s".into(),
        kep_value: "3, 1, 2".into(),
        recomputed: format!("{}, {}, {}", w[0], w[1], w[2]),
        verdict: verdict(w == [3, 1, 2]),
        why: "restarts at 1, 3, 7 | 15 | 31, 63 s".into(),
        scenario: spec,
        job: None,
    });
    claims
}

/// Excess restarts per backoff lifetime for 1 s, 250 ms and 25 ms initials.
fn excess_per_lifetime() -> Vec<Claim> {
    let mut claims = vec![];
    // Excess restarts per backoff lifetime for 1 s, 250 ms and 25 ms initials.
    let (_, today_hour) = kep(TODAY, 0, HOUR);
    let ranges: Vec<(Ms, (i64, i64))> = [1_000, 250, 25]
        .into_iter()
        .map(|initial| {
            let (_, t) = kep((initial, 300_000), 0, HOUR);
            (initial, steady_excess(&t, &today_hour, 610_000))
        })
        .collect();
    let lo = ranges.iter().map(|r| r.1 .0).min().unwrap_or(0);
    let hi = ranges.iter().map(|r| r.1 .1).max().unwrap_or(0);
    claims.push(Claim {
        id: "excess-per-backoff-lifetime",
        kep: "KEP-4603",
        section: "Front loaded decay curve, modified maximum backoff methodology",
        quote: "Among these modeled initial values, we would get between 3-7 excess restarts per backoff lifetime",
        assumptions: "initial 1 s, 250 ms, 25 ms with today's 5 min max; excess over today's curve once both wait 5 min between restarts".into(),
        kep_value: "3–7".into(),
        recomputed: format!(
            "{} ({})",
            range(lo, hi),
            ranges
                .iter()
                .map(|(i, (a, b))| format!("{}: {}", super::duration::format_human_ms(*i), range(*a, *b)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        verdict: verdict(lo == 3 && hi == 7),
        why: "25 ms takes 14 doublings to reach 5 min (today takes 5), so it keeps 8–9 extra restarts".into(),
        scenario: kep_spec((25, 300_000), 0, HOUR),
        job: None,
    });
    claims
}

/// The 1 s / 30 s curve's excess, window by window.
fn excess_1s_30s() -> Vec<Claim> {
    let mut claims = vec![];
    let (_, today_hour) = kep(TODAY, 0, HOUR);
    let (spec, one_thirty) = kep((1_000, 30_000), 0, MIN30);
    let ex: Vec<i64> = one_thirty
        .restarts_in_windows(&KEP_WINDOWS_MS)
        .iter()
        .zip(today_hour.restarts_in_windows(&KEP_WINDOWS_MS))
        .map(|(a, b)| *a as i64 - b as i64)
        .collect();
    let total: i64 = ex.iter().sum();
    claims.push(Claim {
        id: "excess-1s-30s-by-window",
        kep: "KEP-4603",
        section: "Front loaded decay curve, modified maximum backoff methodology",
        quote: "with initial value of 1s and a maximum backoff of 30s, there are 2 excess restarts in the first time window, 1 excess in the second time window, 3 excess in the fourth time window and 4 excess in the fifth time window for a total of 10 excess restarts",
        assumptions: "1 s initial, 30 s max against today's curve; windows (0,10], (10,30], (30,70], (70,150], (150,310] s".into(),
        kep_value: "2, 1, –, 3, 4 (total 10)".into(),
        recomputed: format!("{} (total {total})", ex.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
        verdict: verdict(total == 10),
        why: "restarts at 1, 3, 7 | 15 | 31, 61 | 91, 121 | 151 … 301 s against one a window today".into(),
        scenario: spec,
        job: None,
    });
    claims
}

/// KEP-4603 Risks and Mitigations: the 1 s / 60 s default against today's.
fn new_default() -> Vec<Claim> {
    let mut claims = vec![];
    let (_, today_hour) = kep(TODAY, 0, HOUR);
    // KEP-4603 Risks and Mitigations: the 1 s / 60 s default.
    let (spec, new_default) = kep((1_000, 60_000), 0, MIN30);
    let excess_by = |t: Ms| new_default.restarts_by(t) as i64 - today_hour.restarts_by(t) as i64;
    let first5 = excess_by(FIRST_MINUTES_MS);
    claims.push(Claim {
        id: "new-default-excess-first-5-min",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "5 excess restarts per pod in the first five minutes",
        assumptions: "1 s initial, 1 min max against today's curve; restarts at or before 300 s"
            .into(),
        kep_value: "5".into(),
        recomputed: first5.to_string(),
        verdict: verdict(first5 == 5),
        why: "9 restarts (1, 3, 7, 15, 31, 63, 123, 183, 243 s) against today's 4".into(),
        scenario: spec.clone(),
        job: None,
    });
    let (inclusive, exclusive) = (excess_by(30_000), excess_by(29_999));
    claims.push(Claim {
        id: "new-default-excess-first-30-s",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "the first 3 excess in the first 30 seconds",
        assumptions: "as above".into(),
        kep_value: "3".into(),
        recomputed: format!("{inclusive} counting today's restart at 30 s, {exclusive} without it"),
        verdict: Verdict::Convention,
        why: "today's second restart lands exactly at 30 s; the KEP leaves it out".into(),
        scenario: spec.clone(),
        job: None,
    });
    let late = restarts_between(&new_default, 150_000, 150_000) as i64
        - restarts_between(&today_hour, 150_000, 150_000) as i64;
    claims.push(Claim {
        id: "new-default-excess-150-300-s",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "and the last 2 excess between 150 and 300 seconds",
        assumptions: "as above; (150, 300] s".into(),
        kep_value: "2".into(),
        recomputed: late.to_string(),
        verdict: verdict(late == 2),
        why: "restarts at 183 and 243 s; today's next is at 310 s".into(),
        scenario: spec.clone(),
        job: None,
    });
    let steady_new = restarts_between(&new_default, 1_200_000, 300_000) as i64;
    let steady_today = restarts_between(&today_hour, 1_200_000, 300_000) as i64;
    claims.push(Claim {
        id: "new-default-excess-per-5-min",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "an excess 5 restarts every five minutes compared to today given the change in the backoff maximum",
        assumptions: "both curves at their cap: one restart a minute against one every 5 minutes".into(),
        kep_value: "5".into(),
        recomputed: format!("{} ({steady_new} against {steady_today})", steady_new - steady_today),
        verdict: verdict(steady_new - steady_today == 5),
        why: "5 is the new curve's restarts per 5 minutes; the excess over today's one is 4".into(),
        scenario: spec.clone(),
        job: None,
    });
    let (peak_new, peak_today) = (peak_requests(&new_default), peak_requests(&today_hour));
    claims.push(Claim {
        id: "new-default-requests-per-10-s",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "API requests to the API server to change the state transition would increase at its fastest period from ~550 requests/10s to ~5500 requests/10s, or 10x",
        assumptions: "110 pods crashing in lockstep, 5 /pods requests per restart, busiest 10 s window".into(),
        kep_value: "550 → 5500".into(),
        recomputed: format!("{peak_today} → {peak_new}"),
        verdict: verdict(peak_new == 5_500),
        why: "a restart every second needs a 1 s wait; the 1 s / 1 min curve fits 3 restarts in its busiest 10 s (1, 3, 7 s)".into(),
        scenario: spec.clone(),
        job: None,
    });
    let excess_requests = first5 * 5 * i64::from(PODS);
    let later_requests = (steady_new - steady_today) * 5 * i64::from(PODS);
    claims.push(Claim {
        id: "new-default-excess-requests",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "each crashing pod would be adding an excess of 25 pod state transition API requests, for a total of 2750 excess API requests for a node fully saturated with crashing pods",
        assumptions: "110 pods, 5 requests per restart".into(),
        kep_value: "25 per pod, 2750 per node".into(),
        recomputed: format!(
            "{} per pod, {excess_requests} per node in the first 5 min; {later_requests} per later 5 min",
            first5 * 5
        ),
        verdict: verdict(excess_requests == 2_750),
        why: "right for the first 5 minutes; each later 5 minutes adds 4 excess restarts, not 5".into(),
        scenario: spec,
        job: None,
    });
    claims
}

/// The per-node 1 s maximum against today's default.
fn one_second_cap() -> Vec<Claim> {
    let mut claims = vec![];
    let (_, today_hour) = kep(TODAY, 0, HOUR);
    let steady_today = restarts_between(&today_hour, 1_200_000, 300_000) as i64;
    // The per-node 1 s maximum.
    let (spec, one_cap) = kep((1_000, 1_000), 0, MIN30);
    let peak_cap = peak_requests(&one_cap);
    claims.push(Claim {
        id: "one-second-cap-requests-per-10-s",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "a new restart for each pod every second, and therefore the API requests to change the state transition would be expected to increase from ~550 requests/10s to 5500 requests/10s",
        assumptions: "maxContainerRestartPeriod 1s (so initial 1 s), 110 pods in lockstep".into(),
        kep_value: "5500".into(),
        recomputed: peak_cap.to_string(),
        verdict: verdict(peak_cap == 5_500),
        why: "10 restarts in every 10 s window × 5 requests × 110 pods".into(),
        scenario: spec.clone(),
        job: None,
    });
    let first5_cap = one_cap.restarts_by(FIRST_MINUTES_MS) as i64
        - today_hour.restarts_by(FIRST_MINUTES_MS) as i64;
    claims.push(Claim {
        id: "one-second-cap-excess-first-5-min",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "adding 305 excess restarts within the first 5 minutes",
        assumptions: "1 s cap against today's curve, restarts at or before 300 s".into(),
        kep_value: "305".into(),
        recomputed: first5_cap.to_string(),
        verdict: verdict(first5_cap == 305),
        why: "300 restarts (one a second) less today's 4".into(),
        scenario: spec.clone(),
        job: None,
    });
    let steady_cap = restarts_between(&one_cap, 1_200_000, 300_000) as i64 - steady_today;
    claims.push(Claim {
        id: "one-second-cap-excess-per-5-min",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "and 310 excess restarts every 5 minutes after that",
        assumptions: "both curves at their cap".into(),
        kep_value: "310".into(),
        recomputed: steady_cap.to_string(),
        verdict: verdict(steady_cap == 310),
        why: "300 restarts per 5 minutes against today's 1".into(),
        scenario: spec.clone(),
        job: None,
    });
    let per_pod = steady_cap * 5;
    claims.push(Claim {
        id: "one-second-cap-excess-requests-per-pod",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "each crashing pod would be contributing an excess of ~1550 pod state transition API requests",
        assumptions: "5 requests per excess restart, per 5 minutes".into(),
        kep_value: "~1550".into(),
        recomputed: per_pod.to_string(),
        verdict: verdict(per_pod == 1_550),
        why: "follows from 299 excess restarts, not 310".into(),
        scenario: spec.clone(),
        job: None,
    });
    let per_node = per_pod * i64::from(PODS);
    claims.push(Claim {
        id: "one-second-cap-excess-requests-per-node",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "fully saturated node with a full 110 crashing pods would be adding 170,500 new pod transition API requests every five minutes",
        assumptions: "110 pods".into(),
        kep_value: "170,500".into(),
        recomputed: per_node.to_string(),
        verdict: verdict(per_node == 170_500),
        why: "110 × 1495".into(),
        scenario: spec.clone(),
        job: None,
    });
    let windows_per_5min = (300_000 / LOAD_WINDOW_MS) as i64;
    claims.push(Claim {
        id: "one-second-cap-excess-per-10-s",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "which is an an excess of ~568 requests/10s",
        assumptions: "the excess spread evenly over 5 minutes".into(),
        kep_value: "~568 per 10 s".into(),
        recomputed: format!(
            "{} per 10 s ({} per second); the KEP's own 170,500 gives {} per 10 s",
            per_node / windows_per_5min,
            per_node / 300,
            170_500 / windows_per_5min
        ),
        verdict: Verdict::Differs,
        why: "170,500 / 300 s is ~568 per second, not per 10 s".into(),
        scenario: spec,
        job: None,
    });
    claims
}

/// The kubelet's client rate limit.
fn client_rate_limit() -> Vec<Claim> {
    vec![Claim {
        id: "client-rate-limit",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "we do see an initial surges in /pods API traffic to the kubelet client side rate limit of ~5 QPS",
        assumptions: "kubelet defaults".into(),
        kep_value: "~5 QPS".into(),
        recomputed: "kubeAPIQPS 50, kubeAPIBurst 100 (since 1.27; 5 and 10 before)".into(),
        verdict: Verdict::Differs,
        why: "5 QPS was the default before 1.27".into(),
        scenario: ScenarioSpec {
            kube_api_qps: 5,
            kube_api_burst: 10,
            model: Semantics::Kubelet,
            ..Default::default()
        },
        job: None,
    }]
}

/// "5 `/pods` status updates" per restart, against the kubelet's code
/// (`requests.rs`): one pod on today's curve for a day, restarted on expiry.
fn requests_per_restart() -> Vec<Claim> {
    let spec = |running_seen| ScenarioSpec {
        pods: Some(1),
        run_ms: Some(0),
        horizon_ms: 24 * HOUR,
        model: Semantics::Kubelet,
        requeue: Some(Requeue::Ideal),
        running_seen,
        ..Default::default()
    };
    // Status requests and events sent per restart, to a tenth.
    let per_restart = |running_seen| {
        let t = timeline(&spec(running_seen));
        let r = t.requests.unwrap_or_default();
        let restarts = t.restarts_at_ms.len().max(1) as i64;
        let tenths = |n: i64| format!("{}.{}", n * 10 / restarts / 10, n * 10 / restarts % 10);
        (
            r.pod.get_pods + r.pod.patch_pod_status,
            tenths(r.pod.get_pods + r.pod.patch_pod_status),
            tenths(r.pod.post_events + r.pod.patch_events),
            restarts,
        )
    };
    let (never, never_text, events, restarts) = per_restart(RunningSeen::Never);
    let (always, always_text, _, _) = per_restart(RunningSeen::Always);
    let five = 5 * restarts;
    vec![Claim {
        id: "requests-per-restart",
        kep: "KEP-4603",
        section: "Risks and Mitigations",
        quote: "the code paths all restarting pods go through result in 5 obvious /pods API server status updates",
        assumptions: "one pod exiting at once for 24 h, today's curve, kubelet 1.37, restarts on expiry; Running never or always seen".into(),
        kep_value: "5 per restart".into(),
        recomputed: format!(
            "{never_text} (Running not seen) to {always_text} (seen) /pods requests per restart, a GET and a PATCH per status version; plus {events} events sent per restart, which the KEP leaves out"
        ),
        verdict: verdict(never == five || always == five),
        why: "each status version is one GET pods and one PATCH pods/status: Terminated and Waiting every cycle, Running only when a relist sees it, so 4 or 6, never 5; events (Pulled, Created, Started, BackOff) are written beside them until the spam filter caps them".into(),
        scenario: spec(RunningSeen::Auto),
        job: None,
    }]
}

/// When the curve resets.
fn reset_threshold() -> Vec<Claim> {
    let mut claims = vec![];
    let reset = resolve(&KubeletConfig::default()).map_or(0, |b| b.reset_after_ms);
    claims.push(Claim {
        id: "reset-threshold",
        kep: "KEP-4603",
        section: "Refactor of recovery threshold",
        quote: "configure the client_go.Backoff object created for use by the kube runtime manager for container restart bacoff with a function that compares to a flat rate of 300 seconds",
        assumptions: "kubelet 1.35 HasExpiredFunc".into(),
        kep_value: "300 s".into(),
        recomputed: format!("{} s", reset / 1000),
        verdict: verdict(reset == 300_000),
        why: "the code (and the KEP's own summary: \"10 minutes\") uses 600 s".into(),
        scenario: ScenarioSpec {
            run_ms: Some(301_000),
            model: Semantics::Kubelet,
            ..Default::default()
        },
        job: None,
    });
    claims
}

/// The first restart (k/k#123602).
fn first_restart() -> Vec<Claim> {
    let mut claims = vec![];
    let first_waits: Vec<Ms> = kubelet(TODAY, 0, MIN30)
        .delays_ms
        .iter()
        .take(5)
        .map(|d| d / 1000)
        .collect();
    claims.push(Claim {
        id: "k-k-123602",
        kep: "KEP-4603",
        section: "Relationship with k/k#123602",
        quote: "0 seconds delay for first restart, 10 seconds for second restart, 10 * 2^(restart_count - 2) for subsequent restarts",
        assumptions: "today's curve, kubelet decisions".into(),
        kep_value: "0, 10, 20, 40, 80 s".into(),
        recomputed: format!(
            "{} s",
            first_waits.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
        ),
        verdict: verdict(first_waits == [0, 10, 20, 40, 80]),
        why: "no backoff entry exists before the first restart".into(),
        scenario: ScenarioSpec {
            model: Semantics::Kubelet,
            requeue: Some(Requeue::Ideal),
            ..Default::default()
        },
        job: None,
    });
    claims
}

/// KEP-4603's conflict-resolution table, row by row.
fn kep_4603_table() -> Vec<Claim> {
    let mut claims = vec![];
    for (id, quote, c, value) in [
        (
            "kep-4603-table-today",
            "disabled | disabled | 10s | 300s",
            config(Some(false), Some(false), None),
            "10s / 5m0s",
        ),
        (
            "kep-4603-table-new-default",
            "enabled | disabled | 1s | 60s",
            config(Some(true), Some(false), None),
            "1s / 1m0s",
        ),
        (
            "kep-4603-table-60s",
            "disabled | 60s | 10s | 60s",
            config(Some(false), Some(true), Some("60s")),
            "10s / 1m0s",
        ),
        (
            "kep-4603-table-2s",
            "disabled | 2s | 2s | 2s",
            config(Some(false), Some(true), Some("2s")),
            "2s / 2s",
        ),
        (
            "kep-4603-table-2s-reduced",
            "enabled | 2s | 1s | 2s",
            config(Some(true), Some(true), Some("2s")),
            "1s / 2s",
        ),
        (
            "kep-4603-table-30s",
            "enabled | 30s | 1s | 30s",
            config(Some(true), Some(true), Some("30s")),
            "1s / 30s",
        ),
        (
            "kep-4603-table-300s",
            "enabled | 300s | 1s | 300s",
            config(Some(true), Some(true), Some("300s")),
            "1s / 5m0s",
        ),
        (
            "kep-4603-table-61s",
            "enabled | 61s | 1s | 61s",
            config(Some(true), Some(true), Some("61s")),
            "1s / 1m1s",
        ),
        (
            "kep-4603-table-today-again",
            "disabled | 300s | 10s | 300s",
            config(Some(false), Some(true), Some("300s")),
            "10s / 5m0s",
        ),
        (
            "kep-4603-table-301s",
            "disabled | 301s | kubelet crashes",
            config(Some(false), Some(true), Some("301s")),
            "kubelet crashes",
        ),
        (
            "kep-4603-table-301s-reduced",
            "enabled | 301s | kubelet crashes",
            config(Some(true), Some(true), Some("301s")),
            "kubelet crashes",
        ),
    ] {
        claims.push(table_row(id, "KEP-4603", quote, c, value));
    }
    claims
}

/// KEP-5593's conflict-resolution table, row by row.
fn kep_5593_table() -> Vec<Claim> {
    let mut claims = vec![];
    for (id, quote, c, value) in [
        (
            "kep-5593-table-today",
            "disabled | 10s",
            config(None, Some(false), None),
            "10s",
        ),
        (
            "kep-5593-table-2s",
            "2s | 2s",
            config(None, Some(true), Some("2s")),
            "2s",
        ),
        (
            "kep-5593-table-10s",
            "10s | 10s",
            config(None, Some(true), Some("10s")),
            "10s",
        ),
        (
            "kep-5593-table-11s",
            "11s | 11s",
            config(None, Some(true), Some("11s")),
            "11s",
        ),
        (
            "kep-5593-table-300s",
            "300s | 300s",
            config(None, Some(true), Some("300s")),
            "300s",
        ),
        (
            "kep-5593-table-301s",
            "301s | kubelet crashes",
            config(None, Some(true), Some("301s")),
            "kubelet crashes",
        ),
    ] {
        claims.push(table_row(id, "KEP-5593", quote, c, value));
    }
    claims
}

/// No document mentions it: the kubelet's housekeeping drops a backoff entry
/// 600 s after its last update, even during a wait (client-go `Backoff.GC`,
/// called from `HandlePodCleanups` every 2 s).
fn gc_claim() -> Claim {
    let spec = ScenarioSpec {
        initial_ms: Some(TODAY.0),
        max_ms: Some(TODAY.1),
        run_ms: Some(400_000),
        pods: Some(1),
        horizon_ms: 7_200_000,
        model: Semantics::Kubelet,
        requeue: Some(Requeue::Ideal),
        ..Default::default()
    };
    let t = timeline(&spec);
    let waits: Vec<String> = t
        .delays_ms
        .iter()
        .skip(5)
        .take(4)
        .map(format_go_duration_ms)
        .collect();
    let kep = timeline(&ScenarioSpec {
        model: Semantics::Kep,
        ..spec.clone()
    });
    let kep_waits: Vec<String> = kep
        .delays_ms
        .iter()
        .skip(4)
        .take(3)
        .map(format_go_duration_ms)
        .collect();
    Claim {
        id: "backoff-gc-restart",
        kep: "kubelet",
        section: "not in any KEP: HandlePodCleanups → crashLoopBackOff.GC()",
        quote: "(no document mentions it) a backoff entry idle 600 s since its last restart is dropped, even during the wait",
        assumptions: "today's curve (10 s doubling to 5 min), the container runs 400 s each time, restarts at expiry".into(),
        kep_value: format!("waits {} (the curve at its cap)", kep_waits.join(", ")),
        recomputed: format!("waits {} …: the 5 min wait is cut at 600 s since the last restart and the curve starts over", waits.join(", ")),
        verdict: Verdict::Differs,
        why: format!(
            "{} of the first 2 h's restarts come early: for crash intervals between 600 s − max and 600 s the curve never reaches its cap",
            t.gc_restarts_at_ms.len()
        ),
        scenario: spec,
        job: None,
    }
}

/// KEP-4603 gives ReduceDefaultCrashLoopBackOffDecay alone 1 s / 60 s; on
/// 1.35+ KubeletCrashLoopBackOffMax is on by default and its unset field
/// reads as 300 s.
fn reduce_alone_claim() -> Claim {
    let c = KubeletConfig {
        kubelet_version: Some(KubeletVersion::V1_35),
        semantics: Some(Semantics::Kubelet),
        ..config(Some(true), None, None)
    };
    let shown = resolve(&c).map_or_else(|e| e.to_string(), |b| curve_text(&b));
    let with_period = resolve(&KubeletConfig {
        crash_loop_back_off: CrashLoopBackOffConfig {
            max_container_restart_period: Some("60s".into()),
        },
        ..c.clone()
    })
    .map(|b| curve_text(&b))
    .unwrap_or_default();
    Claim {
        id: "reduce-gate-alone-on-1-35",
        kep: "KEP-4603",
        section: "Design Details",
        quote: "ReduceDefaultCrashLoopBackoffDecay … a 2x decay curve starting at 1s initial value, 1 minute maximum backoff",
        assumptions: "kubelet 1.35 or later, only ReduceDefaultCrashLoopBackOffDecay turned on".into(),
        kep_value: "1s / 1m0s".into(),
        recomputed: format!("{shown}; {with_period} needs maxContainerRestartPeriod: 60s too"),
        verdict: verdict(shown == "1s / 1m0s"),
        why: "KubeletCrashLoopBackOffMax is beta and on since 1.35, and its unset maxContainerRestartPeriod reads as 300 s".into(),
        scenario: ScenarioSpec {
            config: Some(c),
            model: Semantics::Kubelet,
            ..Default::default()
        },
        job: None,
    }
}

/// The kep.yaml spells the gate with a lower-case "o"; a kubelet given that
/// spelling refuses to start.
fn gate_spelling_claim() -> Claim {
    const KEP_SPELLING: &str = "ReduceDefaultCrashLoopBackoffDecay";
    let mut c = KubeletConfig {
        semantics: Some(Semantics::Kubelet),
        ..KubeletConfig::default()
    };
    c.feature_gates.insert(KEP_SPELLING.into(), true);
    let refusal = match resolve(&c) {
        Err(e) => e.messages.join("; "),
        Ok(_) => "accepted".into(),
    };
    Claim {
        id: "kep-yaml-gate-spelling",
        kep: "KEP-4603",
        section: "kep.yaml, Feature Enablement",
        quote: "Feature gate name: ReduceDefaultCrashLoopBackoffDecay",
        assumptions: "the gate spelled as the KEP spells it, in a kubelet's featureGates".into(),
        kep_value: KEP_SPELLING.into(),
        recomputed: format!("the code's name is {REDUCE_DEFAULT_CRASH_LOOP_BACK_OFF_DECAY}; with the KEP's spelling: {refusal}"),
        verdict: Verdict::Differs,
        why: "feature gate names are case-sensitive: \"Backoff\" is not \"BackOff\"".into(),
        scenario: ScenarioSpec {
            config: Some(c),
            model: Semantics::Kubelet,
            ..Default::default()
        },
        job: None,
    }
}

/// KEP-3329: an Ignore rule does not count the failure; the controller still
/// backs the replacement off (k/k#119434; k/k#130881 is open about it).
fn ignored_job_failures_claim() -> Claim {
    let manifest = JobManifest::ignoring_disruptions("preempted");
    let script = "preempt\npreempt\nsucceed";
    let run_ms = 30_000;
    let starts = match (
        manifest.validate(),
        FailureScript::parse(script, "main", run_ms),
    ) {
        (Ok(job), Ok(script)) => run_job(&job, &script, DEFAULT_HORIZON_MS)
            .pods
            .iter()
            .map(|p| format_go_duration_ms(p.start_ms))
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    };
    Claim {
        id: "job-ignored-failures-back-off",
        kep: "KEP-3329",
        section: "Proposal",
        quote: "ignore the failure (retriable failure) - restart the pod and do not increment the counter for backoffLimit",
        assumptions: "Ignore on DisruptionTarget; preempted, preempted, succeeds; 30 s each".into(),
        kep_value: "pods at 0s, 30s, 1m0s (restarted at once)".into(),
        recomputed: format!("not counted, but pods at {starts}: every failure enters the backoff record"),
        verdict: Verdict::Differs,
        why: "the Job controller's backoff counts every failed pod since the last success, ignored ones too (k/k#130881 is open about it)".into(),
        scenario: ScenarioSpec::default(),
        job: Some(JobInputs {
            manifest,
            script: script.into(),
            run_ms,
        }),
    }
}

/// `restarts_in_windows` for a curve under the KEP's windows, for the bar chart.
pub fn kep_window_counts(restarts_at_ms: &Times) -> Vec<u64> {
    restarts_in_windows(restarts_at_ms, &KEP_WINDOWS_MS)
}
