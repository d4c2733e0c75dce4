//! A watch read as it comes (formats::pod::watch) into the live set
//! (engine::live): how documents are cut from the stream whatever its
//! framing, what each means, and the crash loops kept, with numbers worked
//! out by hand. kubectl itself prints the stream in tests/kubectl.rs.

use crashloop_explorer::engine::config::KubeletVersion;
use crashloop_explorer::engine::live::{Change, Live};
use crashloop_explorer::engine::pod::NodeAssumption;
use crashloop_explorer::formats::pod::watch::{
    countdown, watch_table, Framed, Framer, JsonLines, Read, WatchReader,
};
use crashloop_explorer::formats::time::parse_rfc3339;
use serde_json::{json, Value};

fn at(t: &str) -> i64 {
    parse_rfc3339(t).expect("a time")
}

/// A pod with one container `app`: crash-looping after `restarts` restarts
/// (its last run `started`–`finished`, exit 1), or running since `started`
/// when `finished` is empty.
fn pod(name: &str, uid: &str, restarts: u64, started: &str, finished: &str) -> Value {
    let (state, last) = if finished.is_empty() {
        (json!({"running": {"startedAt": started}}), json!({}))
    } else {
        (
            json!({"waiting": {"reason": "CrashLoopBackOff", "message": ""}}),
            json!({"terminated": {"exitCode": 1, "reason": "Error", "startedAt": started, "finishedAt": finished}}),
        )
    };
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "shop", "uid": uid, "resourceVersion": "10"},
        "spec": {"restartPolicy": "Always", "containers": [{"name": "app", "image": "app:1"}]},
        "status": {"phase": "Running", "startTime": "2026-11-20T09:00:00Z",
            "containerStatuses": [{"name": "app", "restartCount": restarts, "state": state, "lastState": last}]},
    })
}

fn documents(framed: &[Framed]) -> Vec<&Value> {
    framed
        .iter()
        .filter_map(|f| match f {
            Framed::Document { value, .. } => Some(value),
            Framed::Bad { .. } => None,
        })
        .collect()
}

fn bad(framed: &[Framed]) -> Vec<(u64, &str)> {
    framed
        .iter()
        .filter_map(|f| match f {
            Framed::Bad { line, why } => Some((*line, why.as_str())),
            Framed::Document { .. } => None,
        })
        .collect()
}

#[test]
fn documents_are_cut_from_each_of_kubectls_framings_and_any_chunking() {
    let a = pod(
        "a",
        "u-a",
        1,
        "2026-11-20T10:00:00Z",
        "2026-11-20T10:00:01Z",
    );
    let b = pod("b", "u-b", 0, "2026-11-20T10:00:00Z", "");
    // `-o json --watch`: indented documents one after another (kubectl
    // indents by four, serde_json by two: only the first column matters).
    let indented = format!(
        "{}\n{}\n",
        serde_json::to_string_pretty(&a).unwrap(),
        serde_json::to_string_pretty(&b).unwrap()
    );
    // `--output-watch-events` (kubectl 1.33) and the API's own stream: one
    // event a line.
    let lines = format!(
        "{}\n{}\n",
        json!({"type": "ADDED", "object": a}),
        json!({"type": "MODIFIED", "object": b})
    );
    for text in [&indented, &lines] {
        let mut whole = Framer::default();
        let mut framed = whole.push(text);
        framed.extend(whole.finish());
        assert_eq!(documents(&framed).len(), 2, "{text}");
        assert!(bad(&framed).is_empty(), "{framed:?}");
        // Chunks of 7 bytes (a network's), cut anywhere, even inside a
        // character: the same documents.
        let mut chunked = Framer::default();
        let mut again = vec![];
        let bytes = text.as_bytes();
        let mut pending = vec![];
        for c in bytes.chunks(7) {
            pending.extend_from_slice(c);
            let valid = match std::str::from_utf8(&pending) {
                Ok(s) => s.len(),
                Err(e) => e.valid_up_to(),
            };
            let s = std::str::from_utf8(&pending[..valid]).unwrap().to_owned();
            pending.drain(..valid);
            again.extend(chunked.push(&s));
        }
        again.extend(chunked.finish());
        assert_eq!(again, framed);
    }
    // The line each document began on.
    let mut f = Framer::default();
    let framed = f.push(&indented);
    let second = indented.lines().skip(1).position(|l| l == "{").unwrap() as u64 + 2;
    assert!(matches!(framed[1], Framed::Document { line, .. } if line == second));
}

#[test]
fn a_broken_document_is_said_and_skipped_and_reading_goes_on() {
    let good = json!({"type": "ADDED", "object": pod("a", "u-a", 0, "2026-11-20T10:00:00Z", "")})
        .to_string();
    let text = format!(
        // A table line or two (the user forgot `-o json`), said once.
        "NAME    READY   STATUS    RESTARTS   AGE\nweb-0   0/1     CrashLoopBackOff   5   10m\n\
         {good}\n\
         {{\"type\":\"MODIFIED\",\"object\":{{\"kind\":\"Pod\",,\"metadata\":{{}}}}}}\n\
         {{\"type\":\"MODIFIED\",\"object\":{{\"kind\":\"Pod\",\n\
         {good}\n\
         {{\"kind\": \"Pod\", \"metadata\": {{\"name\": \"braces }} and {{ in a string\"}}}}\n"
    );
    let mut f = Framer::default();
    let mut framed = f.push(&text);
    framed.extend(f.finish());
    assert_eq!(documents(&framed).len(), 3, "{framed:?}");
    assert_eq!(
        documents(&framed)[2]["metadata"]["name"],
        "braces } and { in a string"
    );
    let said = bad(&framed);
    assert_eq!(said.len(), 3, "{said:?}");
    assert_eq!(said[0].0, 1);
    assert!(
        said[0]
            .1
            .starts_with("not JSON (`NAME    READY   STATUS    RESTARTS   AGE`): --follow reads"),
        "{}",
        said[0].1
    );
    assert_eq!(said[1].0, 4);
    assert_eq!(
        said[1].1,
        "not JSON: key must be a string at line 1 column 43"
    );
    assert_eq!(
        said[2],
        (5, "cut short: a new document began before it closed")
    );
    // The stream ending inside a document.
    let mut f = Framer::default();
    f.push("{\n  \"kind\": \"Pod\",\n");
    assert_eq!(
        f.finish(),
        vec![Framed::Bad {
            line: 1,
            why: "cut short: the stream ended inside it".into()
        }]
    );
    // No document is over a megabyte: the rest of it goes unread.
    let mut f = Framer::default();
    let long = format!(
        "{{\n\"a\": \"{}\",\n\"b\": 1\n}}\n{good}\n",
        "x".repeat(1 << 20)
    );
    let framed = f.push(&long);
    assert_eq!(documents(&framed).len(), 1);
    assert_eq!(
        bad(&framed)[0].1,
        "over 1024 KB: no Pod is this long; skipped to the next document"
    );
}

fn reads(text: &str) -> (Vec<Read>, Option<String>) {
    let mut r = WatchReader::new(KubeletVersion::V1_37);
    let mut out = r.push(text);
    out.extend(r.finish());
    (out, r.resource_version.clone())
}

#[test]
fn each_document_says_what_changed() {
    let a = pod(
        "a",
        "u-a",
        2,
        "2026-11-20T10:00:04Z",
        "2026-11-20T10:00:05Z",
    );
    let mut deleting = a.clone();
    deleting["metadata"]["deletionTimestamp"] = json!("2026-11-20T10:01:00Z");
    let mut pending = a.clone();
    pending["status"] = json!({"phase": "Pending"});
    let remove = |k: &str| Read::Change(Change::Remove { key: k.into() });
    // Deleted, being deleted, not started: the set loses it.
    for doc in [
        json!({"type": "DELETED", "object": a}),
        json!({"type": "MODIFIED", "object": deleting}),
        pending,
    ] {
        assert_eq!(reads(&format!("{doc}\n")).0, vec![remove("u-a")], "{doc}");
    }
    // Without a UID, namespace/name is the key.
    let mut no_uid = a.clone();
    no_uid["metadata"].as_object_mut().unwrap().remove("uid");
    let (r, _) = reads(&format!(
        "{}\n",
        json!({"type": "DELETED", "object": no_uid})
    ));
    assert_eq!(r, vec![remove("shop/a")]);
    // The API server's 410 as an ERROR event, and bare as kubectl prints it
    // without --output-watch-events.
    let status = json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
        "message": "too old resource version: 1 (42)", "reason": "Expired", "code": 410});
    for doc in [json!({"type": "ERROR", "object": status}), status.clone()] {
        assert_eq!(
            reads(&format!("{doc}\n")).0,
            vec![Read::Ended(
                "410 Expired: too old resource version: 1 (42)".into()
            )]
        );
    }
    // A list (where a watch starts) puts each pod and says where to resume;
    // a bookmark moves that on and changes nothing.
    let list = json!({"kind": "PodList", "metadata": {"resourceVersion": "77"},
        "items": [a, pod("b", "u-b", 0, "2026-11-20T10:00:00Z", "")]});
    let (r, rv) = reads(&format!("{list}\n"));
    assert_eq!(r.len(), 2);
    assert!(matches!(&r[0], Read::Change(Change::Put { key, .. }) if key == "u-a"));
    assert_eq!(
        rv.as_deref(),
        Some("77"),
        "a watch of the list starts from the list's own version, not its items'"
    );
    let bookmark = json!({"type": "BOOKMARK", "object": {"kind": "Pod", "metadata": {"resourceVersion": "99"}}});
    let (r, rv) = reads(&format!("{list}\n{bookmark}\n"));
    assert_eq!((r.len(), rv.as_deref()), (2, Some("99")));
    // Not a pod: skipped, saying which and why.
    let (r, _) = reads("{\"kind\": \"Service\", \"metadata\": {}}\n");
    assert_eq!(
        r,
        vec![Read::Skipped("document 1 (line 1): a Service, not a Pod; skipped: --follow reads `kubectl get pods -A -o json --watch` (with or without --output-watch-events)".into())]
    );
    let (r, _) = reads(&format!("{}\n", json!({"type": "SYNC", "object": {}})));
    assert!(
        matches!(&r[0], Read::Skipped(s) if s.contains("type \"SYNC\"")),
        "{r:?}"
    );
}

fn live() -> Live {
    Live::new(NodeAssumption::new(KubeletVersion::V1_37, None, "").unwrap())
}

fn apply(live: &mut Live, doc: &Value, now: i64) -> bool {
    let (reads, _) = reads(&format!("{doc}\n"));
    let mut changed = false;
    for r in reads {
        match r {
            Read::Change(c) => changed |= live.apply(c, now),
            other => panic!("{other:?}"),
        }
    }
    changed
}

/// Pod a's app restarted twice and last ran 10:00:04–10:00:05: on 1.37's
/// shipped curve its wait is 10·2¹ = 20 s (step 2 of 6: 10, 20, 40, 80,
/// 160, 300), so it restarts at 10:00:25, and at the latest 10 s later
/// (the worker's requeue lags by half the wait, at most 30 s): 10:00:35.
#[test]
fn the_set_keeps_each_pods_newest_state_and_counts_down() {
    let now = at("2026-11-20T10:00:13Z");
    let mut l = live();
    let a = pod(
        "a",
        "u-a",
        2,
        "2026-11-20T10:00:04Z",
        "2026-11-20T10:00:05Z",
    );
    assert!(apply(&mut l, &a, now));
    // The same status again (a resourceVersion bump): nothing to redo.
    let mut same = a.clone();
    same["metadata"]["resourceVersion"] = json!("11");
    assert!(!apply(&mut l, &same, now));
    // A calm pod is watched, not listed.
    let b = pod("b", "u-b", 0, "2026-11-20T09:00:00Z", "");
    assert!(!apply(&mut l, &b, now));
    assert_eq!((l.watched(), l.pods().len()), (2, 1));
    let c = &l.pods()[0].diagnosis.containers[0];
    assert_eq!(
        (
            c.backoff_ms,
            c.curve_step,
            c.next_restart_at,
            c.next_restart_latest_at
        ),
        (
            Some(20_000),
            Some(2),
            Some(at("2026-11-20T10:00:25Z")),
            Some(at("2026-11-20T10:00:35Z"))
        )
    );
    assert_eq!(countdown(c, now), "in 12s");
    assert_eq!(countdown(c, at("2026-11-20T10:00:24.001Z")), "in 1s");
    assert_eq!(countdown(c, at("2026-11-20T10:00:25Z")), "due");
    assert_eq!(countdown(c, at("2026-11-20T10:00:47Z")), "due, 12s late");
    // The table at 10:00:13, and its JSON line: the countdown from the
    // moment shown, the diagnosis from the pod's change.
    assert_eq!(
        watch_table(&l, now, None),
        "1 crash-looping of 2 pods watched, 2026-11-20T10:00:13Z · assumed: kubelet 1.37's shipped defaults (10 s / 5 min)\n\
         POD     CONTAINER  STATE             RESTARTS  STEP  BACK-OFF  NEXT RESTART  LAST EXIT\n\
         shop/a  app        CrashLoopBackOff  2         2/6   20s       in 12s        Error (1)\n"
    );
    let mut lines = JsonLines::default();
    let line: Value =
        serde_json::from_str(&lines.line(&l, at("2026-11-20T10:00:20Z"), None)).expect("JSON");
    assert_eq!(
        (
            &line["shape"],
            &line["watched"],
            &line["pods"][0]["containers"][0]["countdownMs"],
            &line["pods"][0]["diagnosedAt"]
        ),
        (
            &json!("watch"),
            &json!(2),
            &json!(5_000),
            &json!("2026-11-20T10:00:13Z")
        )
    );
    // b crashes: listed, and first (its 10 s wait ends at 10:00:11, before
    // a's 10:00:25).
    let b2 = pod(
        "b",
        "u-b",
        1,
        "2026-11-20T10:00:00Z",
        "2026-11-20T10:00:01Z",
    );
    assert!(apply(&mut l, &b2, now));
    let order: Vec<&str> = l.pods().iter().map(|p| p.diagnosis.pod.as_str()).collect();
    assert_eq!(order, ["b", "a"]);
    // a is deleted: b alone is left, watched and listed.
    assert!(apply(&mut l, &json!({"type": "DELETED", "object": a}), now));
    assert_eq!((l.watched(), l.pods().len()), (1, 1));
    // b runs again after one restart: still listed (a loop between crashes),
    // its next exit waiting 10 s (step 1); this status shows no last exit.
    let b3 = pod("b", "u-b", 1, "2026-11-20T10:00:12Z", "");
    assert!(apply(&mut l, &b3, now));
    assert_eq!(l.pods()[0].diagnosis.containers[0].state, "Running");
    assert_eq!(
        watch_table(&l, now, None).lines().nth(2).unwrap(),
        "shop/b  app        Running  1         1/6   10s       -             -"
    );
}

/// 2,000 pods, one in ten crash-looping, then each looping pod through 24
/// more restarts and every calm one updated twice, and some deleted and
/// added: the set holds each pod once, whatever came before. (The bench
/// feeds 10,000 pods and a day of events to the command and reports its
/// time and memory.)
#[test]
fn the_set_stays_the_size_of_the_cluster() {
    const PODS: usize = 2_000;
    let now = at("2026-11-20T12:00:00Z");
    let mut l = live();
    let mut r = WatchReader::new(KubeletVersion::V1_37);
    let mut feed = |l: &mut Live, doc: Value| {
        for read in r.push(&format!("{doc}\n")) {
            if let Read::Change(c) = read {
                l.apply(c, now);
            }
        }
    };
    let of = |i: usize, restarts: u64| {
        let uid = format!("u-{i}");
        if i % 10 == 0 {
            pod(
                &format!("p{i}"),
                &uid,
                restarts + 1,
                "2026-11-20T11:00:00Z",
                "2026-11-20T11:00:01Z",
            )
        } else {
            pod(
                &format!("p{i}"),
                &uid,
                0,
                &format!("2026-11-20T09:{:02}:00Z", restarts % 60),
                "",
            )
        }
    };
    for i in 0..PODS {
        feed(&mut l, json!({"type": "ADDED", "object": of(i, 0)}));
    }
    assert_eq!((l.watched(), l.pods().len()), (PODS, PODS / 10));
    for round in 1..=24u64 {
        for i in (0..PODS).step_by(10) {
            feed(&mut l, json!({"type": "MODIFIED", "object": of(i, round)}));
        }
    }
    for round in 1..=2u64 {
        for i in (1..PODS).filter(|i| i % 10 != 0) {
            feed(&mut l, json!({"type": "MODIFIED", "object": of(i, round)}));
        }
    }
    for i in 0..100 {
        feed(&mut l, json!({"type": "DELETED", "object": of(i, 0)}));
        feed(&mut l, json!({"type": "ADDED", "object": of(PODS + i, 0)}));
    }
    assert_eq!((l.watched(), l.pods().len()), (PODS, PODS / 10));
    let p500 = l
        .pods()
        .into_iter()
        .find(|p| p.diagnosis.pod == "p500")
        .expect("p500");
    let c = &p500.diagnosis.containers[0];
    // 25 restarts: the curve's cap, 5 min.
    assert_eq!((c.restart_count, c.backoff_ms), (Some(25), Some(300_000)));
}

/// Real watch lines from public threads, as their authors pasted them: cut
/// with `........` (kubernetes-client/python#582, `curl
/// http://localhost:8001/api/v1/pods?watch=true` through kubectl proxy) and
/// elided with `<SNIP>` (kubernetes/kubernetes#4113, the v1beta2 API's
/// watch). Neither is a whole document: each is said and skipped, and the
/// stream reads on.
#[test]
fn real_watch_lines_from_threads_are_said_and_skipped() {
    let python_582 = r#"{"type":"DELETED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"kubernetes-dashboard-5498ccf677-84sxk","generateName":"kubernetes-dashboard-5498ccf677-","namespace":"kube-system","selfLink":"/api/v1/namespaces/kube-system/pods/kubernetes-dashboard-5498ccf677-84sxk"........"#;
    let (r, _) = reads(&format!("{python_582}\n"));
    assert_eq!(
        r,
        vec![Read::Skipped(
            "document 1 (line 1): cut short: the stream ended inside it; skipped".into()
        )]
    );
    let k8s_4113 = "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"id\":\"60767d85-ac8b-11e4-85fd-54ee7527188d\",\"uid\":\"60767d85-ac8b-11e4-85fd-54ee7527188d\",<SNIP>,\"status\":\"Waiting\",<SNIP>}}}\n\
        {\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"id\":\"60f0b4c1-ac8b-11e4-85fd-54ee7527188d\",\"uid\":\"60f0b4c1-ac8b-11e4-85fd-54ee7527188d\",<SNIP>,\"status\":\"Waiting\",<SNIP>}}}\n";
    let (r, _) = reads(k8s_4113);
    assert_eq!(r.len(), 2, "{r:?}");
    for (i, read) in r.iter().enumerate() {
        assert!(
            matches!(read, Read::Skipped(s) if s == &format!("document {} (line {}): not JSON: key must be a string at line 1 column 132; skipped", i + 1, i + 1)),
            "{read:?}"
        );
    }
}

/// A JSON line is each listed pod as `pods` prints it, plus `diagnosedAt`,
/// its countdowns as of the line, however many lines came before: the pods
/// written at an earlier change are kept and their countdowns filled in
/// again; a changed pod is written anew; a removed one is gone.
#[test]
fn json_lines_are_the_pods_as_pods_prints_them_at_each_moment() {
    use crashloop_explorer::formats::pod::diagnosis_json;
    let web: Value =
        serde_json::from_str(include_str!("fixtures/web-0.json")).expect("the fixture");
    let mut l = live();
    let t0 = at("2026-11-20T10:00:13Z");
    apply(&mut l, &web, t0);
    apply(
        &mut l,
        &pod(
            "a",
            "u-a",
            2,
            "2026-11-20T10:00:04Z",
            "2026-11-20T10:00:05Z",
        ),
        t0,
    );
    let expected = |l: &Live, now: i64| -> Value {
        let pods: Vec<Value> = l
            .pods()
            .iter()
            .map(|p| {
                let mut v = diagnosis_json(&p.diagnosis);
                for (c, d) in v["containers"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .zip(&p.diagnosis.containers)
                {
                    c["countdownMs"] = d.next_restart_at.map(|t| t - now).into();
                    // The back-offs seen: none between two runs yet.
                    if let Some((_, j)) = p.curves.iter().find(|(n, _)| *n == d.name) {
                        c["observedBackoffsMs"] = json!(j.observed_ms);
                        c["expectedBackoffsMs"] = json!(j.expected_ms);
                        c["agrees"] = json!(j.agrees);
                        c["curveNote"] = json!(j.note);
                    }
                }
                v["diagnosedAt"] = json!(crashloop_explorer::formats::time::format_rfc3339(p.at));
                // No node watched: each pod on the watch's own assumption.
                v["assumes"] = json!(l.node().label);
                v
            })
            .collect();
        json!({"assumes": l.node().label, "shape": "watch",
            "asOf": crashloop_explorer::formats::time::format_rfc3339(now),
            "watched": l.watched(), "pods": pods, "nodes": []})
    };
    let mut lines = JsonLines::default();
    for now in [t0, t0 + 7_000, t0 + 60_000] {
        let line: Value = serde_json::from_str(&lines.line(&l, now, None)).expect("JSON");
        assert_eq!(line, expected(&l, now));
    }
    // web-0 has two containers (a sidecar, running, and the app), only the
    // app counting down: at 10:00:20,
    // its 2m40s from 10:00:03 (10:02:43) is 143 s away; a's 10:00:25, 5 s.
    let line: Value = serde_json::from_str(&lines.line(&l, t0 + 7_000, None)).unwrap();
    let countdowns: Vec<Vec<Value>> = line["pods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p["containers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["countdownMs"].clone())
                .collect()
        })
        .collect();
    assert_eq!(
        countdowns,
        [vec![json!(5_000)], vec![Value::Null, json!(143_000)]]
    );
    // a restarts again (3 restarts: 40 s from 10:00:31, so 10:01:11, 31 s
    // after 10:00:40) and web-0 is deleted.
    let t1 = at("2026-11-20T10:00:40Z");
    apply(
        &mut l,
        &pod(
            "a",
            "u-a",
            3,
            "2026-11-20T10:00:30Z",
            "2026-11-20T10:00:31Z",
        ),
        t1,
    );
    apply(&mut l, &json!({"type": "DELETED", "object": web}), t1);
    let line: Value = serde_json::from_str(&lines.line(&l, t1, None)).unwrap();
    assert_eq!(line, expected(&l, t1));
    assert_eq!(line["pods"].as_array().unwrap().len(), 1);
    assert_eq!(line["pods"][0]["containers"][0]["restartCount"], 3);
    assert_eq!(line["pods"][0]["containers"][0]["countdownMs"], 31_000);
}

/// Whatever comes down the pipe (a binary file, text in any script, braces
/// and quotes in any order, split anywhere), the reader says what it
/// skipped and never stops: 3,000 seeded streams of characters a watch and
/// a mistake are made of, read whole, in pieces, and as a paste.
#[test]
fn no_stream_stops_the_reader() {
    const PIECES: [&str; 16] = [
        "{",
        "}",
        "[",
        "]",
        "\"",
        "\\",
        ",",
        ":",
        "\n",
        " ",
        "é",
        "日本",
        "\u{0}",
        r#"{"type":"MODIFIED","object":"#,
        r#"{"kind":"Pod","metadata":{"uid":"u"},"status":{"containerStatuses":[{"name":"a","restartCount":1,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}}"#,
        "null",
    ];
    let mut seed: u64 = 0x5eed;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize % n
    };
    for _ in 0..3_000 {
        let text: String = (0..next(40)).map(|_| PIECES[next(PIECES.len())]).collect();
        let mut whole = WatchReader::new(KubeletVersion::V1_37);
        whole.push(&text);
        whole.finish();
        let mut pieces = WatchReader::new(KubeletVersion::V1_37);
        let chars: Vec<char> = text.chars().collect();
        for chunk in chars.chunks(1 + next(5)) {
            pieces.push(&chunk.iter().collect::<String>());
        }
        pieces.finish();
        let _ = crashloop_explorer::formats::pod::read_pods(&text, KubeletVersion::V1_37);
    }
}
