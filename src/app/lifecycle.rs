//! The pod lifecycle lane under the restart chart: `kubectl get pod -w`,
//! conditions, and KEP-4576's proposed PodTerminated.

use yew::prelude::*;

use super::controls::{Checkbox, Slider};
use super::state::nearest_stop;
use crate::engine::duration::format_human_ms;
use crate::engine::lifecycle::{lifecycle, Cleanup, LifecycleSpec, Sidecar};
use crate::engine::{Ms, PodRuns, Scenario};

const SIDECAR_STOPS_MS: &[Ms] = &[5_000, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000];
const DELETE_STOPS_MS: &[Ms] = &[0, 30_000, 60_000, 120_000, 300_000, 600_000, 1_200_000];
const CLEANUP_STOPS_MS: &[Ms] = &[
    0, 100, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000, 120_000,
];
/// Lines shown before "show all".
const FIRST_LINES: usize = 25;

#[derive(Properties)]
pub struct LifecycleProps {
    pub scenario: std::rc::Rc<Scenario>,
    pub runs: Option<std::rc::Rc<PodRuns>>,
}

impl PartialEq for LifecycleProps {
    /// The lane follows the charted pod: its runs, made afresh whenever the
    /// curve, the timing, the horizon or the group's run change.
    fn eq(&self, other: &Self) -> bool {
        match (&self.runs, &other.runs) {
            (Some(a), Some(b)) => std::rc::Rc::ptr_eq(a, b),
            (None, None) => std::rc::Rc::ptr_eq(&self.scenario, &other.scenario),
            _ => false,
        }
    }
}

#[function_component]
pub fn LifecyclePanel(p: &LifecycleProps) -> Html {
    let spec = use_state(LifecycleSpec::default);
    let show_all = use_state(|| false);
    let (scenario, live) = (p.scenario.clone(), p.runs.clone());
    let key = live.as_ref().map(|r| std::rc::Rc::as_ptr(r) as usize);
    let life = use_memo((key, (*spec).clone()), move |(_, spec)| {
        let none = crate::engine::Times::new();
        let restarts = live
            .as_ref()
            .and_then(|r| r.groups.get(scenario.spec().chart_group))
            .map_or(&none, |g| &*g.0);
        lifecycle(&scenario, spec, restarts)
    });
    let update = |f: fn(&mut LifecycleSpec, Ms), stops: &'static [Ms]| {
        let spec = spec.clone();
        Callback::from(move |pos: usize| {
            if let Some(&v) = stops.get(pos) {
                let mut next = (*spec).clone();
                f(&mut next, v);
                spec.set(next);
            }
        })
    };
    let on_sidecar = {
        let spec = spec.clone();
        Callback::from(move |on: bool| {
            let mut next = (*spec).clone();
            next.sidecar = on.then_some(Sidecar {
                crash_after_ms: Some(60_000),
            });
            spec.set(next);
        })
    };
    let c: Cleanup = spec.cleanup;
    let cleanup_slider = |id: &'static str,
                          label: &'static str,
                          value: Ms,
                          f: fn(&mut LifecycleSpec, Ms)| {
        html! {
            <Slider id={id} label={label} positions={CLEANUP_STOPS_MS.len()} position={nearest_stop(CLEANUP_STOPS_MS, value)}
                display={format_human_ms(value)} onchange={update(f, CLEANUP_STOPS_MS)} />
        }
    };
    let shown = if *show_all {
        life.lines.len()
    } else {
        FIRST_LINES.min(life.lines.len())
    };
    // Restarts the backoff GC brought forward: kubectl does not say so, the lane does.
    let gc: Vec<Ms> = p
        .runs
        .as_ref()
        .and_then(|r| r.gc_at.get(p.scenario.spec().chart_group))
        .cloned()
        .unwrap_or_default();
    let width = life.name.len().max(4);
    let text = std::iter::once(format!(
        "{:<width$}   {:<6} {:<17} {:<16} {}",
        "NAME", "READY", "STATUS", "RESTARTS", "AGE"
    ))
    .chain(life.lines.iter().take(shown).map(|l| {
        let mark = if l.status == "Running" && gc.binary_search(&l.at_ms).is_ok() {
            "   # backoff GC dropped the entry: restarted early, the curve starts over"
        } else {
            ""
        };
        format!(
            "{:<width$}   {:<6} {:<17} {:<16} {}{mark}",
            life.name, l.ready, l.status, l.restarts, l.age
        )
    }))
    .collect::<Vec<_>>()
    .join("\n");
    let toggle = {
        let show_all = show_all.clone();
        Callback::from(move |_: MouseEvent| show_all.set(!*show_all))
    };
    let delete_at = spec.delete_at_ms.unwrap_or(0);
    html! {
        <section class="panel lifecycle" aria-labelledby="h-lifecycle">
            <h2 id="h-lifecycle">{"The pod, as "}<code>{"kubectl get pod -w"}</code>{" prints it"}</h2>
            <p class="hint">{"The charted group's first pod, with this configuration and timing."}</p>
            <div class="row">
                <Checkbox id="sidecar" label="sidecar (restartable init container)" checked={spec.sidecar.is_some()} onchange={on_sidecar}
                    hint="follows the same backoff, with its own entry" />
                if let Some(sc) = &spec.sidecar {
                    <Slider id="sidecar-crash" label="sidecar crashes after" positions={SIDECAR_STOPS_MS.len()}
                        position={nearest_stop(SIDECAR_STOPS_MS, sc.crash_after_ms.unwrap_or(60_000))}
                        display={format_human_ms(sc.crash_after_ms.unwrap_or(60_000))}
                        onchange={update(|s, v| s.sidecar = Some(Sidecar { crash_after_ms: Some(v) }), SIDECAR_STOPS_MS)} />
                }
                <Slider id="delete-at" label="kubectl delete pod at" positions={DELETE_STOPS_MS.len()}
                    position={nearest_stop(DELETE_STOPS_MS, delete_at)}
                    display={if delete_at == 0 { "never".to_owned() } else { format_human_ms(delete_at) }}
                    onchange={update(|s, v| s.delete_at_ms = (v > 0).then_some(v), DELETE_STOPS_MS)} />
            </div>
            <pre class="kubectl" id="kubectl-watch" tabindex="0">{ text }</pre>
            if life.lines.len() > FIRST_LINES {
                <button type="button" id="kubectl-more" onclick={toggle}>
                    { if *show_all { "show fewer lines".to_owned() } else { format!("show all {} lines", life.lines.len()) } }
                </button>
            }
            if life.truncated { <p class="hint">{"(the explorer stops after 300 lines)"}</p> }
            <h3>{"Pod conditions"}</h3>
            <table class="conditions" id="pod-conditions">
                <thead><tr><th>{"at"}</th><th>{"condition"}</th><th>{"status"}</th></tr></thead>
                <tbody>
                    { for life.conditions.iter().take(40).map(|c| html! {
                        <tr data-proposal={c.proposal.then_some("")}>
                            <td>{ format_human_ms(c.at_ms) }</td>
                            <td>{ c.type_.clone() }
                                if c.proposal { <span class="badge">{" KEP-4576 proposal, not in any release"}</span> }
                            </td>
                            <td>{ if c.status { "True" } else { "False" } }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if let Some((at, phase)) = &life.phase {
                <p id="pod-phase">{ format!("Phase {phase} at {}", format_human_ms(*at)) }
                    if let Some(t) = life.pod_terminated_at_ms {
                        { format!("; PodTerminated (proposed) True at {}: {} later, after the kubelet's cleanup", format_human_ms(t), format_human_ms(t - at)) }
                    }
                </p>
                <p class="hint">{"A controller that waits for the phase (PVC protection, say) acts before the volumes are unmounted; the proposed condition waits for the cleanup."}</p>
            }
            <details>
                <summary>{"Cleanup after the phase (editable)"}</summary>
                { cleanup_slider("cleanup-volumes", "unmount volumes (up to ~2 min per sync loop)", c.unmount_volumes_ms, |s, v| s.cleanup.unmount_volumes_ms = v) }
                { cleanup_slider("cleanup-secrets", "unregister secrets and configmaps", c.unregister_secrets_and_configmaps_ms, |s, v| s.cleanup.unregister_secrets_and_configmaps_ms = v) }
                { cleanup_slider("cleanup-cgroups", "remove cgroups", c.remove_cgroups_ms, |s, v| s.cleanup.remove_cgroups_ms = v) }
                { cleanup_slider("cleanup-userns", "release the user namespace", c.release_user_namespace_ms, |s, v| s.cleanup.release_user_namespace_ms = v) }
            </details>
        </section>
    }
}
