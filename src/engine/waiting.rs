//! Why a container is not running, and on which rhythm the kubelet tries
//! again: the CrashLoopBackOff curve is one of three. Read from upstream:
//! - image pulls (kubernetes/kubernetes `pkg/kubelet/images/image_manager.go`
//!   `EnsureImageExists`, `pkg/kubelet/kubelet.go` `imageBackOffPeriod`,
//!   `MaxImageBackOff`): their own client-go backoff, 10 s doubling to 300 s,
//!   keyed by pod UID and image, counted from the last *failed pull* (not from
//!   a container's exit), expiring 2 × 300 s after it; the first failure
//!   already waits 10 s;
//! - sync errors before a container exists (`CreateContainerConfigError`,
//!   `CreateContainerError`): no backoff entry at all; `pod_workers.go`
//!   `completeWork` requeues the pod after the worker's `backOffPeriod`
//!   (10 s) jittered up to 1.5×, so it is retried every 10-15 s;
//! - a container that was created and failed to start (`RunContainerError`,
//!   then `StartError` with exit code 128) has exited: `doBackOff` finds the
//!   exit and the CrashLoopBackOff curve applies.

use super::backoff::Ms;

/// The image pull backoff's constants (kubelet.go).
pub const IMAGE_BACKOFF_INITIAL_MS: Ms = 10_000;
pub const IMAGE_BACKOFF_MAX_MS: Ms = 300_000;
/// The pod worker's requeue after a failed sync (kubelet.go `backOffPeriod`).
pub const SYNC_ERROR_RETRY_MS: Ms = 10_000;

/// How the kubelet comes back to a container that is not running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rhythm {
    /// The CrashLoopBackOff curve, from the container's exit.
    CrashLoop,
    /// The image pull backoff, from the last failed pull.
    ImagePull,
    /// Every pod sync after an error, 10-15 s apart, without growing.
    SyncRetry,
    /// Not retried until something changes (the spec, the node).
    Never,
    /// Nothing failed: it is on its way.
    Starting,
}

/// The reasons kubectl shows, one name table: (reason, rhythm, what it means).
const REASONS: &[(&str, Rhythm, &str)] = &[
    ("CrashLoopBackOff", Rhythm::CrashLoop, "the container exited and waits out its CrashLoopBackOff delay"),
    ("Error", Rhythm::CrashLoop, "the container exited with a nonzero code; the CrashLoopBackOff curve decides when it restarts"),
    ("Completed", Rhythm::CrashLoop, "the container exited with code 0; under restartPolicy Always it restarts on the CrashLoopBackOff curve too"),
    ("OOMKilled", Rhythm::CrashLoop, "the kernel killed the container for its memory limit; it restarts on the CrashLoopBackOff curve"),
    ("StartError", Rhythm::CrashLoop, "the container was created but failed to start (exit code 128): it counts as an exit, and the CrashLoopBackOff curve applies"),
    ("RunContainerError", Rhythm::CrashLoop, "the runtime failed to start the created container: it counts as an exit, and the CrashLoopBackOff curve applies"),
    ("ContainerCannotRun", Rhythm::CrashLoop, "the runtime could not run the container: it counts as an exit, and the CrashLoopBackOff curve applies"),
    ("ImagePullBackOff", Rhythm::ImagePull, "the image pull backoff (10 s doubling to 5 min per pod and image, from the last failed pull), not CrashLoopBackOff: maxContainerRestartPeriod does not change it"),
    ("ErrImagePull", Rhythm::ImagePull, "a pull just failed; the next waits on the image pull backoff (10 s doubling to 5 min per pod and image), not on CrashLoopBackOff"),
    ("InvalidImageName", Rhythm::Never, "the image name does not parse: nothing is pulled until the spec changes"),
    ("ErrImageNeverPull", Rhythm::Never, "imagePullPolicy Never and the image is not on the node: nothing is pulled"),
    ("CreateContainerConfigError", Rhythm::SyncRetry, "the container could not be configured (a missing Secret, ConfigMap or key): no backoff applies, the kubelet retries at each pod sync, every 10-15 s"),
    ("CreateContainerError", Rhythm::SyncRetry, "the runtime could not create the container: no backoff applies, the kubelet retries at each pod sync, every 10-15 s"),
    ("ContainerCreating", Rhythm::Starting, "the container is being created"),
    ("PodInitializing", Rhythm::Starting, "the pod's init containers are running"),
];

/// The rhythm of a kubectl reason (`CrashLoopBackOff`, `Init:ErrImagePull`…)
/// and what it means; `None` for a reason not in the table.
pub fn rhythm(reason: &str) -> Option<(Rhythm, &'static str)> {
    let reason = reason.strip_prefix("Init:").unwrap_or(reason);
    REASONS
        .iter()
        .find(|(r, _, _)| *r == reason)
        .map(|&(_, rhythm, meaning)| (rhythm, meaning))
}

/// The image pull backoff after `failures` failed pulls in a row: the first
/// failure already waits the initial 10 s.
pub fn image_pull_wait(failures: u64) -> Ms {
    if failures == 0 {
        return 0;
    }
    let shift = (failures - 1).min(32) as u32;
    IMAGE_BACKOFF_INITIAL_MS
        .saturating_mul(1 << shift)
        .min(IMAGE_BACKOFF_MAX_MS)
}
