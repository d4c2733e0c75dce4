//! `pods --follow` over a long watch, measured (not asserted): `cargo bench
//! --bench follow`. 10,000 pods (one in ten crash-looping) listed, then a
//! day of events: each looping pod restarting every 5 min (288 changes a
//! pod) and each calm one's status touched every hour. Reports the time per
//! watch document (reading and diagnosing), and the heap the set keeps.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use crashloop_explorer::engine::config::KubeletVersion;
use crashloop_explorer::engine::live::Live;
use crashloop_explorer::engine::pod::NodeAssumption;
use crashloop_explorer::formats::pod::watch::{watch_table, JsonLines, Read, WatchReader};
use crashloop_explorer::formats::time::format_rfc3339;
use serde_json::json;

/// Counts the heap in use, and its peak.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(now, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static HEAP: Counting = Counting;

const PODS: usize = 10_000;
const DAY_MS: i64 = 86_400_000;
const LOOP_EVERY_MS: i64 = 300_000;
const CALM_EVERY_MS: i64 = 3_600_000;
const START: i64 = 1_795_000_000_000;

/// Pod `i` as the watch shows it at `t`: a looping one after `restarts`
/// restarts (its last run the 2 s before `t`), a calm one running.
fn pod(i: usize, restarts: u64, t: i64) -> String {
    let status = if i % 10 == 0 {
        json!({"name": "app", "restartCount": restarts,
            "state": {"waiting": {"reason": "CrashLoopBackOff", "message": format!("back-off 5m0s restarting failed container=app pod=p{i}_ns(u{i})")}},
            "lastState": {"terminated": {"exitCode": 1, "reason": "Error",
                "startedAt": format_rfc3339(t - 2_000), "finishedAt": format_rfc3339(t)}}})
    } else {
        json!({"name": "app", "restartCount": 0, "ready": true,
            "state": {"running": {"startedAt": format_rfc3339(START)}}, "lastState": {}})
    };
    json!({"type": "MODIFIED", "object": {"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": format!("p{i}"), "namespace": "ns", "uid": format!("u{i}"), "resourceVersion": t.to_string()},
        "spec": {"nodeName": format!("node-{}", i / 110), "restartPolicy": "Always", "containers": [{"name": "app", "image": "app:1"}]},
        "status": {"phase": "Running", "startTime": format_rfc3339(START),
            "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": format_rfc3339(t)}],
            "containerStatuses": [status]}}})
    .to_string()
}

fn main() {
    let node = NodeAssumption::new(KubeletVersion::V1_37, None, "").expect("defaults");
    let mut live = Live::new(node);
    let mut reader = WatchReader::new(KubeletVersion::V1_37);
    let (mut documents, mut spent) = (0u64, std::time::Duration::ZERO);
    let mut worst = std::time::Duration::ZERO;
    let mut feed = |live: &mut Live, text: String, now: i64| {
        let t = Instant::now();
        for r in reader.push(&text) {
            if let Read::Change(c) = r {
                live.apply(c, now);
            }
        }
        reader.push("\n");
        let took = t.elapsed();
        spent += took;
        worst = worst.max(took);
        documents += 1;
    };
    for i in 0..PODS {
        feed(&mut live, format!("{}\n", pod(i, 1, START)), START);
    }
    let listed_heap = LIVE.load(Ordering::Relaxed);
    // The day, in time order: looping pods every 5 min, calm ones hourly,
    // spread over the period.
    let mut t = START;
    while t < START + DAY_MS {
        t += 1_000;
        let step = (t - START) / 1_000;
        for i in (0..PODS).step_by(10) {
            if (step + i as i64) % (LOOP_EVERY_MS / 1_000) == 0 {
                feed(
                    &mut live,
                    format!("{}\n", pod(i, ((t - START) / LOOP_EVERY_MS) as u64 + 1, t)),
                    t,
                );
            }
        }
        for i in (0..PODS).filter(|i| i % 10 != 0) {
            if (step + i as i64) % (CALM_EVERY_MS / 1_000) == 0 {
                feed(&mut live, format!("{}\n", pod(i, 0, t)), t);
            }
        }
    }
    let heap = LIVE.load(Ordering::Relaxed);
    let t0 = Instant::now();
    let table = watch_table(&live, t, None);
    let table_took = t0.elapsed();
    let mut lines = JsonLines::default();
    let t0 = Instant::now();
    let first = lines.line(&live, t, None);
    let json_first = t0.elapsed();
    // One pod restarts again: its JSON is written anew, the others' kept.
    let mut again = WatchReader::new(KubeletVersion::V1_37);
    for r in again.push(&format!("{}\n", pod(0, 400, t + 1_000))) {
        if let Read::Change(c) = r {
            live.apply(c, t + 1_000);
        }
    }
    let t0 = Instant::now();
    let line = lines.line(&live, t + 1_000, None);
    let json_took = t0.elapsed();
    let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
    let row = |name: &str, value: f64, unit: &str| println!("{name:<58} {value:>12.3} {unit}");
    println!(
        "follow: {documents} documents, {} pods watched, {} listed",
        live.watched(),
        live.pods().len()
    );
    row(
        "follow: one watch document, read and applied (mean)",
        us(spent) / documents as f64,
        "µs",
    );
    row(
        "follow: one watch document, read and applied (worst)",
        us(worst),
        "µs",
    );
    row(
        "follow: the table of 1,000 looping pods",
        us(table_took),
        "µs",
    );
    row(
        "follow: the first JSON line of 1,000 looping pods",
        us(json_first),
        "µs",
    );
    row(
        "follow: the next JSON line, one pod changed",
        us(json_took),
        "µs",
    );
    row(
        "follow: heap kept, 10,000 pods listed",
        listed_heap as f64 / 1e6,
        "MB",
    );
    row(
        "follow: heap kept after a day of events",
        heap as f64 / 1e6,
        "MB",
    );
    row(
        "follow: heap at its peak over the day",
        PEAK.load(Ordering::Relaxed) as f64 / 1e6,
        "MB",
    );
    assert!(first.len() > 1_000_000 && line.len() > 1_000_000);
    eprintln!(
        "({} table lines, a {} KB JSON line)",
        table.lines().count(),
        line.len() / 1024
    );
}
