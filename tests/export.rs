//! CSV, SVG and configuration snippets.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::chart::Kind;
use crashloop_explorer::chart::{ChartData, FontText};
use crashloop_explorer::engine::{explore, KubeletConfig, Scenario};
use crashloop_explorer::export::{
    csv, feature_gates_flag, kubelet_configuration_yaml, svg, without_comments, PRERENDER_MARKER,
};

#[test]
fn csv_has_every_restart_and_window() {
    let e = explore(
        &serde_json::from_str::<Scenario>(
            r#"{"initialMs": 1000, "maxMs": 60000, "model": "kep", "horizonMs": 60000}"#,
        )
        .unwrap(),
    );
    let text = csv(&e);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "scenario,series,number,time_s,wait_s_or_offered,sent,getPods,patchPodStatus,postEvents,patchEvents,droppedEvents"
    );
    // 1 s / 1 min: restarts at 1, 3, 7, 15, 31 s; then 6 windows; today: 10, 30 s.
    // Every row has the header's eleven fields (a restart has no requests;
    // the KEP model's flat count has no kinds).
    assert_eq!(lines[1], "this configuration,restart,1,1.000,1.000,,,,,,");
    assert_eq!(lines[5], "this configuration,restart,5,31.000,16.000,,,,,,");
    assert!(lines.iter().all(|l| l.split(',').count() == 11), "{text}");
    // 1650 offered at 1, 3 and 7 s; the limiter lets its burst of 100
    // through at 1 s, then 50/s: 100 + 50 × 9 = 550 sent in the window.
    assert_eq!(lines[6], "this configuration,window,1,0.000,1650,550,,,,,");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("this configuration,restart"))
            .count(),
        5
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("today's default,restart"))
            .count(),
        2
    );
    assert_eq!(lines.iter().filter(|l| l.contains(",window,")).count(), 12);
}

#[test]
fn svg_is_the_same_drawing() {
    let e = explore(&Scenario::default());
    let data = ChartData::of(&e);
    for c in Kind::ALL {
        let doc = svg(c, &data, &FontText, "described");
        assert!(
            doc.starts_with("<svg") && doc.trim_end().ends_with("</svg>"),
            "{c:?}"
        );
        // Named and described first inside the root, for a figure's alt text.
        let title = format!("<title>{}</title>\n<desc>described</desc>", c.alt());
        assert!(doc.contains(&title), "{c:?}");
    }
}

#[test]
fn configuration_as_deployed() {
    let c: KubeletConfig = serde_json::from_str(
        r#"{"featureGates": {"ReduceDefaultCrashLoopBackOffDecay": true, "KubeletCrashLoopBackOffMax": true},
            "crashLoopBackOff": {"maxContainerRestartPeriod": "4s"}}"#,
    )
    .unwrap();
    assert_eq!(
        kubelet_configuration_yaml(&c),
        "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  KubeletCrashLoopBackOffMax: true\n  ReduceDefaultCrashLoopBackOffDecay: true\ncrashLoopBackOff:\n  maxContainerRestartPeriod: \"4s\"\n"
    );
    assert_eq!(
        feature_gates_flag(&c).as_deref(),
        Some("--feature-gates=KubeletCrashLoopBackOffMax=true,ReduceDefaultCrashLoopBackOffDecay=true")
    );
    assert_eq!(feature_gates_flag(&KubeletConfig::default()), None);
    // Whatever was typed stays a string in the YAML.
    let mut odd = KubeletConfig::default();
    odd.crash_loop_back_off.max_container_restart_period = Some("4s\nkind: Pod".into());
    assert!(kubelet_configuration_yaml(&odd)
        .ends_with("maxContainerRestartPeriod: \"4s\\nkind: Pod\"\n"));
}

#[test]
fn the_page_ships_without_its_comments() {
    let page = "<head>\n    <!-- why the policy -->\n    <meta a>\n  <p>x<!-- inline -->y</p>\n  <!-- two\n       lines -->\n  <!-- prerender -->\n</head>\n";
    assert_eq!(
        without_comments(page),
        "<head>\n    <meta a>\n  <p>xy</p>\n  <!-- prerender -->\n</head>\n"
    );
    // An unclosed comment stays, and so does the text after it.
    assert_eq!(without_comments("a<!-- b"), "a<!-- b");
    // The real page: every note goes, every element and the marker stay.
    let index =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/index.html")).unwrap();
    let shipped = without_comments(&index);
    assert_eq!(shipped.matches("<!--").count(), 1, "{shipped}");
    assert!(shipped.contains(PRERENDER_MARKER));
    let tags = |s: &str| {
        s.matches("<link ").count() + s.matches("<meta ").count() + s.matches("<script").count()
    };
    assert_eq!(tags(&shipped), tags(&index));
    assert!(
        index.len() - shipped.len() > 1000,
        "{} → {}",
        index.len(),
        shipped.len()
    );
}
