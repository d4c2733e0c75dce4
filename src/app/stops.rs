//! The sliders' stops: human values instead of a linear range that wastes
//! its length on one end. Times are `Ms`; rates and counts are plain numbers.

use crate::engine::Ms;

/// Slider stops: human values instead of a linear range that wastes its
/// length on one end.
pub const INITIAL_STOPS_MS: &[Ms] = &[
    25, 50, 100, 250, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000,
    60_000,
];
pub const MAX_STOPS_MS: &[Ms] = &[
    1_000, 2_000, 3_000, 4_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 90_000,
    120_000, 180_000, 240_000, 300_000, 360_000, 480_000, 600_000,
];
/// Around the 600 s reset: 9 min 59 s keeps the curve, 10 min 1 s resets it.
pub const CRASH_INTERVAL_STOPS_MS: &[Ms] = &[
    0, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 120_000, 180_000,
    300_000, 599_000, 600_000, 601_000, 900_000,
];
pub const HORIZON_STOPS_MS: &[Ms] = &[
    60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000,
    21_600_000, 43_200_000, 86_400_000,
];
pub const LATENCY_STOPS_MS: &[Ms] = &[
    0, 250, 500, 1_000, 2_000, 3_000, 5_000, 10_000, 20_000, 30_000, 60_000,
];
pub const SPREAD_STOPS_MS: &[Ms] = &[0, 10_000, 30_000, 60_000, 120_000, 300_000, 600_000];
pub const QPS_STOPS: &[u64] = &[1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000];
pub const BURST_STOPS: &[u64] = &[1, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000];
pub const REQUESTS_STOPS: &[u64] = &[0, 1, 2, 3, 4, 5, 6, 8, 10, 15, 20];
/// `eventRecordQPS` and `eventBurst`: 0 is client-go's default (5 and 10).
pub const EVENT_QPS_STOPS: &[u64] = &[0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000];
pub const EVENT_BURST_STOPS: &[u64] = &[0, 1, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000];

/// The stop nearest to `value` (values between stops come from a config or a URL).
pub fn nearest_stop(stops: &[u64], value: u64) -> usize {
    stops
        .iter()
        .enumerate()
        .min_by_key(|(_, &s)| s.abs_diff(value))
        .map_or(0, |(i, _)| i)
}
