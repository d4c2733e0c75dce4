//! The failure script: what attempt k of every index does (exit codes per
//! container, or a disruption), written one attempt a line.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::DEFAULT_POD_RUN_MS;
use crate::engine::backoff::Ms;
use crate::engine::rng::{Rng, SplitMix64};

/// What one attempt (one pod, or one container run under OnFailure) does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Attempt {
    /// Exit codes by container; containers not named exit 0.
    Exit(BTreeMap<String, i32>),
    /// The pod is disrupted (DisruptionTarget with this reason); its
    /// containers are killed (exit code 137).
    Disruption(String),
}

/// Attempts by index (lane): attempt k of every index does `attempts[k]`; the
/// last attempt repeats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FailureScript {
    pub attempts: Vec<Attempt>,
    #[serde(default = "pod_run")]
    pub run_ms: Ms,
}

fn pod_run() -> Ms {
    DEFAULT_POD_RUN_MS
}

/// The container `exit 1` means where no Job is given.
pub const DEFAULT_CONTAINER: &str = "main";

pub const DISRUPTION_REASONS: [&str; 5] = [
    "PreemptionByScheduler",
    "TerminationByKubelet",
    "EvictionByEvictionAPI",
    "DeletionByTaintManager",
    "DeletionByPodGC",
];

impl FailureScript {
    fn exit(container: &str, code: i32) -> Attempt {
        Attempt::Exit([(container.to_owned(), code)].into())
    }

    /// "always exit 1"
    pub fn always_fail(container: &str) -> Self {
        Self {
            attempts: vec![Self::exit(container, 1)],
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// "exit 42 then succeed"
    pub fn fail_then_succeed(container: &str, code: i32) -> Self {
        Self {
            attempts: vec![Self::exit(container, code), Self::exit(container, 0)],
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// "preempted twice then succeed"
    pub fn preempted_then_succeed(container: &str, times: usize) -> Self {
        let mut attempts = vec![Attempt::Disruption("PreemptionByScheduler".into()); times];
        attempts.push(Self::exit(container, 0));
        Self {
            attempts,
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// Each attempt fails (exit 1) with probability `p`, from a seed.
    pub fn random(container: &str, seed: u64, p: f64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let attempts = (0..32)
            .map(|_| Self::exit(container, i32::from(rng.next_f64() < p)))
            .chain(std::iter::once(Self::exit(container, 0)))
            .collect();
        Self {
            attempts,
            run_ms: DEFAULT_POD_RUN_MS,
        }
    }

    /// Reads one attempt a line: `exit 42` (the first container), `exit
    /// main=1 monitor=0`, `succeed`, `disrupt <reason>` or `preempt`/`evict`.
    pub fn parse(text: &str, first_container: &str, run_ms: Ms) -> Result<Self, String> {
        Self::parse_checked(text, first_container, None, run_ms)
    }

    /// `parse` for a Job whose containers are `containers` (the first is
    /// the one `exit 1` means): a line that names a container the Job lacks
    /// is refused, since its exit code would reach no container and the run
    /// would answer for a script the Job cannot play.
    pub fn parse_for(text: &str, containers: &[String], run_ms: Ms) -> Result<Self, String> {
        let first = containers.first().map_or(DEFAULT_CONTAINER, String::as_str);
        Self::parse_checked(text, first, Some(containers), run_ms)
    }

    /// The same attempts with container `from` named `to` (a preset written
    /// for one Job, carried to a loaded manifest's first container).
    pub fn retarget(&self, from: &str, to: &str) -> Self {
        let attempts = self
            .attempts
            .iter()
            .map(|a| match a {
                Attempt::Exit(codes) => Attempt::Exit(
                    codes
                        .iter()
                        .map(|(n, &c)| (if n == from { to } else { n }.to_owned(), c))
                        .collect(),
                ),
                other => other.clone(),
            })
            .collect();
        Self {
            attempts,
            run_ms: self.run_ms,
        }
    }

    fn parse_checked(
        text: &str,
        first_container: &str,
        known: Option<&[String]>,
        run_ms: Ms,
    ) -> Result<Self, String> {
        let mut attempts = vec![];
        for (n, line) in text.lines().enumerate() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let at = |msg: String| format!("line {}: {msg}", n + 1);
            let attempt = match words.as_slice() {
                [] => continue,
                ["succeed"] | ["exit", "0"] => Attempt::Exit(Default::default()),
                ["preempt"] => Attempt::Disruption("PreemptionByScheduler".into()),
                ["evict"] => Attempt::Disruption("EvictionByEvictionAPI".into()),
                ["disrupt", reason] => {
                    if !DISRUPTION_REASONS.contains(reason) {
                        return Err(at(format!(
                            "unknown disruption reason {}; one of {}",
                            crate::engine::field::quoted(reason),
                            DISRUPTION_REASONS.join(", ")
                        )));
                    }
                    Attempt::Disruption((*reason).to_owned())
                }
                ["exit", codes @ ..] if !codes.is_empty() => {
                    let mut map = BTreeMap::new();
                    for c in codes {
                        let (name, code) = c.split_once('=').unwrap_or((first_container, c));
                        if let Some(known) = known.filter(|k| !k.iter().any(|k| k == name)) {
                            return Err(at(format!(
                                "the Job has no container {} (its containers: {})",
                                crate::engine::field::quoted(name),
                                known.join(", ")
                            )));
                        }
                        let code: i32 = code
                            .parse()
                            .ok()
                            .filter(|v| (0..=255).contains(v))
                            .ok_or_else(|| at(format!("{} is not an exit code (0 to 255)", crate::engine::field::quoted(code))))?;
                        map.insert(name.to_owned(), code);
                    }
                    Attempt::Exit(map)
                }
                _ => {
                    return Err(at(format!(
                        "{}: write `exit 1`, `exit main=1 monitor=0`, `succeed`, `preempt`, `evict` or `disrupt <reason>`",
                        crate::engine::field::quoted(line)
                    )))
                }
            };
            attempts.push(attempt);
            if attempts.len() > 1_000 {
                return Err("at most 1000 attempts".into());
            }
        }
        if attempts.is_empty() {
            return Err("the script is empty: write one attempt a line, e.g. `exit 1`".into());
        }
        Ok(Self { attempts, run_ms })
    }

    /// The script in the form `parse` reads.
    pub fn to_text(&self) -> String {
        self.attempts
            .iter()
            .map(|a| match a {
                Attempt::Disruption(r) => format!("disrupt {r}"),
                Attempt::Exit(codes) if codes.values().all(|&c| c == 0) => "succeed".to_owned(),
                Attempt::Exit(codes) => format!(
                    "exit {}",
                    codes
                        .iter()
                        .map(|(n, c)| format!("{n}={c}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(super) fn attempt(&self, k: usize) -> Option<&Attempt> {
        self.attempts.get(k).or(self.attempts.last())
    }
}
