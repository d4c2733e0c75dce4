//! What each fuzz target runs on one input: the readers that take text from
//! anyone. A panic or a hang here is a defect; an error is an answer.

use crashloop_explorer::engine::config::KubeletVersion;
use crashloop_explorer::engine::{explore, Scenario};
use crashloop_explorer::formats::manifest::parse_job_manifest;
use crashloop_explorer::formats::pod::read_pods;
use crashloop_explorer::formats::pod::watch::WatchReader;
use crashloop_explorer::share;

/// The pod reader, on every kubelet version it assumes.
pub fn pod(text: &str) {
    for version in [KubeletVersion::V1_37, KubeletVersion::default()] {
        let _ = read_pods(text, version);
    }
}

/// The watch framer: the text as one chunk, then cut in two where the
/// input's first byte says (a chunk boundary anywhere).
pub fn watch(text: &str) {
    let mut whole = WatchReader::new(KubeletVersion::V1_37);
    whole.push(text);
    whole.finish();
    let at = text.bytes().next().map_or(0, usize::from) * text.len() / 256;
    let at = (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let mut cut = WatchReader::new(KubeletVersion::V1_37);
    cut.push(&text[..at]);
    cut.push(&text[at..]);
    cut.finish();
}

/// The Job manifest reader, and the validation after it.
pub fn manifest(text: &str) {
    if let Ok(m) = parse_job_manifest(text) {
        let _ = m.validate();
    }
}

/// The link, read and written back.
pub fn link(text: &str) {
    let (page, _) = share::decode(text);
    let _ = share::decode(&share::encode(&page));
}

/// A scenario as the command line reads it, explored when valid.
pub fn scenario(text: &str) {
    if let Ok(s) = serde_json::from_str::<Scenario>(text) {
        let _ = explore(&s);
    }
}

/// A kubelet's configuration as pasted (its /configz, a KubeletConfiguration),
/// and the node it gives on every kubelet version the pod reader assumes.
pub fn kubelet_config(text: &str) {
    use crashloop_explorer::engine::pod::NodeAssumption;
    use crashloop_explorer::formats::kubelet_config::read;
    if let Ok((config, _)) = read(text) {
        for version in [KubeletVersion::V1_37, KubeletVersion::default()] {
            let _ = NodeAssumption::new(version, Some(&config), "");
        }
    }
}
