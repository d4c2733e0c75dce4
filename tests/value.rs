//! formats::value, the JSON model the wasm reads pasted manifests and pods
//! into, held against serde_json (which it replaces in the wasm): the same
//! values, the same serde messages, the same text for a manifest in a link.
#![cfg(not(target_arch = "wasm32"))]

use crashloop_explorer::engine::job::JobManifest;
use crashloop_explorer::engine::restart_rules::ContainerRestartRule;
use crashloop_explorer::formats::manifest::parse_job_manifest;
use crashloop_explorer::formats::value::{
    decimal, from_json, from_value, json_string, to_value, Number, Value,
};

fn as_serde_json(v: &Value) -> serde_json::Value {
    serde_json::to_value(v).expect("a value serializes")
}

#[test]
fn decimals_are_read_as_written_and_words_are_not() {
    assert_eq!(decimal("5."), Some(5.0));
    assert_eq!(decimal(".5"), Some(0.5));
    assert_eq!(decimal("+2E-3"), Some(0.002));
    assert_eq!(decimal("-1.5e3"), Some(-1500.0));
    assert_eq!(decimal("-0").map(f64::to_bits), Some((-0.0f64).to_bits()));
    // Beyond the largest double: infinite, which the readers then refuse.
    assert_eq!(decimal("1e400"), Some(f64::INFINITY));
    for not in [
        "", ".", "e5", "1e", "1e+", "+", "--1", "1.2.3", " 1", "1 ", "inf", "NaN", "0x10", "1_000",
    ] {
        assert_eq!(decimal(not), None, "{not}");
    }
    // YAML's plain scalars: a number, or else a string.
    assert_eq!(
        crashloop_explorer::formats::yaml::parse("a: .5\nb: 5.\nc: inf\nd: 1e400\n")
            .map(|v| v.to_string()),
        Ok(r#"{"a":0.5,"b":5.0,"c":"inf","d":"1e400"}"#.to_owned())
    );
}

#[test]
fn reads_json_as_serde_json_does() {
    let texts = [
        r#"{"a": [1, -2, 3.5, 1e3, -0, 0.25e-2, true, false, null], "b": {"c": "d"}}"#,
        r#"  "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"  "#,
        "[]",
        "{}",
        "9223372036854775807",
        "-9223372036854775808",
        r#"{"kind": "Pod", "items": [{"x": {"y": [[], {}]}}]}"#,
    ];
    for t in texts {
        let ours = from_json(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        let theirs: serde_json::Value = serde_json::from_str(t).expect("valid JSON");
        assert_eq!(as_serde_json(&ours), theirs, "{t}");
    }
    let bad = [
        "",
        "{",
        "[1,]",
        "{\"a\" 1}",
        "{a: 1}",
        "01",
        "1.",
        "-",
        "1e",
        "\"\\x\"",
        "\"a\nb\"",
        "\"\\ud800\"",
        "tru",
        "[1] 2",
        "1e400",
        &"[".repeat(200),
    ];
    for t in bad {
        assert!(from_json(t).is_err(), "{t} read");
        assert!(serde_json::from_str::<serde_json::Value>(t).is_err(), "{t}");
    }
}

#[test]
fn numbers_keep_their_kind() {
    // Worked by hand: an integer that fits i64 stays one; past it (where
    // serde_json has u64; no Kubernetes field is one), or with a fraction or
    // exponent, a float; floats write back readable as floats.
    assert_eq!(from_json("42"), Ok(Value::Number(Number::Int(42))));
    assert_eq!(from_json("1e3"), Ok(Value::Number(Number::Float(1000.0))));
    assert_eq!(
        from_json("9223372036854775808"),
        Ok(Value::Number(Number::Float(9_223_372_036_854_775_808.0)))
    );
    assert_eq!(Value::Number(Number::Float(1000.0)).to_string(), "1000.0");
    assert_eq!(Value::Number(Number::Float(0.25)).to_string(), "0.25");
    assert_eq!(Value::Number(Number::Float(1e21)).to_string(), "1e21");
}

#[test]
fn errors_say_where() {
    // Line 2, after the seven characters `  "a": `.
    assert_eq!(
        from_json("{\n  \"a\": tru\n}"),
        Err("expected value at line 2 column 8".into())
    );
    assert_eq!(
        from_json("[1, 2"),
        Err("EOF while parsing a list at line 1 column 6".into())
    );
    assert_eq!(
        from_json("{\"a\": 1} x"),
        Err("trailing characters at line 1 column 10".into())
    );
}

#[test]
fn keys_keep_their_order_and_the_last_of_a_repeat_wins() {
    let v = from_json(r#"{"z": 1, "a": 2, "z": 3}"#).expect("valid");
    assert_eq!(v.to_string(), r#"{"z":3,"a":2}"#);
}

#[test]
fn a_manifest_in_a_link_is_the_text_serde_json_wrote() {
    // Links written before the wasm dropped serde_json read and write the same.
    let m = parse_job_manifest(
        "kind: Job\nmetadata: {name: demo, labels: {app: web}}\nspec:\n  backoffLimit: 3\n  podFailurePolicy:\n    rules:\n    - {action: Ignore, onPodConditions: [{type: DisruptionTarget}]}\n    - {action: FailJob, onExitCodes: {containerName: main, operator: In, values: [42]}}\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: main, image: busybox}]\n",
    )
    .expect("parses");
    let ours = to_value(&m).expect("serializes").to_string();
    assert_eq!(ours, serde_json::to_string(&m).expect("serializes"));
    let back: JobManifest = from_value(from_json(&ours).expect("valid")).expect("reads");
    assert_eq!(back, m);
}

#[test]
fn serde_messages_are_serde_json_s() {
    let cases = [
        r#"{"action": "Restart", "exitCodes": {"operator": "In", "values": ["x"]}}"#,
        r#"{"action": "Restart", "exitCodes": {"operator": "In", "values": [-1]}}"#,
        r#"{"action": "Restart", "exitCodes": {"operator": "In", "values": [1.5]}}"#,
        r#"{"action": "Restart", "exitCodes": {"operator": "In", "values": [1]}, "extra": 1}"#,
        r#"{"exitCodes": {"operator": "In", "values": [1]}}"#,
        r#"{"action": 7, "exitCodes": {"operator": "In", "values": [1]}}"#,
        r#"[1, 2, 3]"#,
    ];
    for t in cases {
        let ours = from_value::<ContainerRestartRule>(from_json(t).expect("valid"))
            .map_err(|e| e.to_string());
        let theirs =
            serde_json::from_value::<ContainerRestartRule>(serde_json::from_str(t).expect("valid"))
                .map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "{t}");
    }
    let spec = r#"{"spec": {"backoffLimit": "six"}}"#;
    let ours =
        from_value::<JobManifest>(from_json(spec).expect("valid")).map_err(|e| e.to_string());
    let theirs = serde_json::from_value::<JobManifest>(serde_json::from_str(spec).expect("valid"))
        .map_err(|e| e.to_string());
    assert_eq!(ours, theirs);
    assert!(ours.is_err());
}

#[test]
fn strings_are_written_as_serde_json_writes_them() {
    for s in [
        "plain",
        "q\"b\\s/",
        "\n\r\t\u{8}\u{c}",
        "\u{0}\u{1f}\u{7f}\u{85}",
        "é 😀",
    ] {
        assert_eq!(json_string(s), serde_json::to_string(s).unwrap(), "{s:?}");
    }
}
