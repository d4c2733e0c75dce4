//! The kubelet's API client rate limiter (`kubeAPIQPS` / `kubeAPIBurst`): a
//! token bucket that starts full and makes requests wait, FIFO, when it is
//! empty. Lockstep pods arrive as bursts; spread pods as a steady flow within
//! each window. Requests are a fluid, so admitted counts are rounded.

use serde::{Deserialize, Serialize};

use super::backoff::Ms;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiLoad {
    pub qps: u32,
    pub burst: u32,
    /// Requests the limiter lets through in each window.
    pub admitted_per_window: Vec<u64>,
    /// The longest a request waits in each window (0: the limit does not bind).
    pub max_queue_delay_ms: Vec<Ms>,
}

/// Backlogs below this are rounding, not waiting requests.
const EPSILON: f64 = 1e-6;

#[derive(Clone, Copy)]
struct Bucket {
    /// Tokens per millisecond.
    rate: f64,
    burst: f64,
    tokens: f64,
    backlog: f64,
}

/// What happened in one window.
#[derive(Default)]
struct Window {
    admitted: f64,
    max_backlog: f64,
}

/// How long of `dt` a queue of `backlog` draining at `rate` lasts:
/// `min(backlog / rate, dt)`, to the bit. When the queue surely outlasts
/// `dt` the answer is `dt` without the division, the longest link in the
/// limiter's chain (a bound limit keeps a queue for most of a day's bursts).
fn drain_step(backlog: f64, rate: f64, dt: f64) -> f64 {
    if backlog > rate * dt * (1.0 + 1e-9) {
        dt
    } else {
        (backlog / rate).min(dt)
    }
}

impl Bucket {
    /// `dt` ms of arrivals at `inflow` requests per ms.
    fn advance(&mut self, mut dt: f64, inflow: f64, w: &mut Window) {
        let q = self.rate;
        while dt > EPSILON {
            let step;
            if self.backlog > EPSILON {
                // The queue drains at the token rate.
                let net = inflow - q;
                step = if net >= 0.0 {
                    dt
                } else {
                    drain_step(self.backlog, -net, dt)
                };
                self.backlog = (self.backlog + net * step).max(0.0);
                w.admitted += q * step;
            } else if inflow <= q {
                step = dt;
                self.tokens = (self.tokens + (q - inflow) * step).min(self.burst);
                w.admitted += inflow * step;
            } else if self.tokens > EPSILON {
                step = (self.tokens / (inflow - q)).min(dt);
                self.tokens = (self.tokens - (inflow - q) * step).max(0.0);
                w.admitted += inflow * step;
            } else {
                step = dt;
                self.backlog += (inflow - q) * step;
                w.admitted += q * step;
            }
            dt -= step;
            w.max_backlog = w.max_backlog.max(self.backlog);
        }
    }

    /// `advance` with no flow (lockstep pods only): at most a drain and a
    /// refill, the same arithmetic in the same order without the general
    /// loop; a day at a 1 s cap is 86,400 of these per node.
    fn advance_idle(&mut self, dt: f64, w: &mut Window) {
        let q = self.rate;
        let mut dt = dt;
        if dt > EPSILON && self.backlog > EPSILON {
            let step = drain_step(self.backlog, q, dt);
            self.backlog = (self.backlog - q * step).max(0.0);
            w.admitted += q * step;
            dt -= step;
            w.max_backlog = w.max_backlog.max(self.backlog);
        }
        if dt > EPSILON && self.backlog <= EPSILON {
            self.tokens = (self.tokens + q * dt).min(self.burst);
        } else if dt > EPSILON {
            // A backlog the drain left (rounding): the general loop takes it.
            self.advance(dt, 0.0, w);
        }
    }

    fn burst_of(&mut self, n: f64, w: &mut Window) {
        let take = if self.backlog > EPSILON {
            0.0
        } else {
            self.tokens.min(n)
        };
        self.tokens -= take;
        w.admitted += take;
        self.backlog += n - take;
        w.max_backlog = w.max_backlog.max(self.backlog);
    }
}

/// Runs the node's requests through the limiter: `bursts` are `(time, count)`
/// in time order, `flow_per_window` spreads evenly over its window.
pub fn admit(
    bursts: &[(Ms, u64)],
    flow_per_window: &[u64],
    window_ms: Ms,
    horizon_ms: Ms,
    qps: u32,
    burst: u32,
) -> ApiLoad {
    let rate = f64::from(qps) / 1000.0;
    let mut bucket = Bucket {
        rate,
        burst: f64::from(burst),
        tokens: f64::from(burst),
        backlog: 0.0,
    };
    let n = flow_per_window.len();
    let (mut admitted, mut delays) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut next = 0;
    for (i, &flow) in flow_per_window.iter().enumerate() {
        let start = i as Ms * window_ms;
        let end = ((i as Ms + 1) * window_ms).min(horizon_ms).max(start + 1);
        let inflow = flow as f64 / (end - start) as f64;
        let mut w = Window {
            max_backlog: bucket.backlog,
            ..Default::default()
        };
        let mut t = start;
        let last = i + 1 == n;
        while next < bursts.len() && (bursts[next].0 < end || (last && bursts[next].0 <= end)) {
            let (at, count) = bursts[next];
            let dt = at.saturating_sub(t) as f64;
            if flow == 0 {
                bucket.advance_idle(dt, &mut w);
            } else {
                bucket.advance(dt, inflow, &mut w);
            }
            t = t.max(at);
            bucket.burst_of(count as f64, &mut w);
            next += 1;
        }
        bucket.advance(end.saturating_sub(t) as f64, inflow, &mut w);
        admitted.push(w.admitted.round() as u64);
        delays.push(if w.max_backlog > EPSILON {
            (w.max_backlog / rate).ceil() as Ms
        } else {
            0
        });
    }
    ApiLoad {
        qps,
        burst,
        admitted_per_window: admitted,
        max_queue_delay_ms: delays,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 110 pods × 5 requests at once under the pre-1.27 limits (5 QPS, burst 10):
    // 10 pass at once, 540 wait and drain at 5/s, the last after 108 s.
    #[test]
    fn a_burst_drains_at_the_qps() {
        let load = admit(&[(0, 550)], &[0; 20], 10_000, 200_000, 5, 10);
        assert_eq!(load.admitted_per_window[0], 60);
        assert!(load.admitted_per_window[1..10].iter().all(|&a| a == 50));
        assert_eq!(load.admitted_per_window[10], 40);
        assert_eq!(load.admitted_per_window.iter().sum::<u64>(), 550);
        assert_eq!(load.max_queue_delay_ms[0], 108_000);
        assert_eq!(load.max_queue_delay_ms[1], 98_000);
        assert_eq!(load.max_queue_delay_ms[10], 8_000);
        assert_eq!(load.max_queue_delay_ms[11], 0);
    }

    // A steady 10/s against 5 QPS, burst 10: the tokens last 2 s, then 5/s
    // pass and the queue grows by 5/s.
    #[test]
    fn a_steady_flow_above_the_qps_queues() {
        let load = admit(&[], &[100, 0, 0], 10_000, 30_000, 5, 10);
        assert_eq!(load.admitted_per_window, [60, 40, 0]);
        assert_eq!(load.max_queue_delay_ms[0], 8_000);
        assert_eq!(load.max_queue_delay_ms[2], 0);
    }

    // The drain without division is the division, to the bit, and the
    // idle step is the general one without flow, from any state: a drain,
    // a refill, both, neither, rounding-sized values.
    #[test]
    fn the_fast_steps_are_the_general_step() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..100_000 {
            let pick = |x: f64, scale: f64| match case % 4 {
                0 => 0.0,
                1 => x * 1e-6,
                _ => x * scale,
            };
            let start = Bucket {
                rate: 0.001 + next() * 0.5,
                burst: 1.0 + next() * 500.0,
                tokens: pick(next(), 500.0),
                backlog: pick(next(), 5_000.0),
            };
            let dt = pick(next(), 20_000.0);
            let (rate, backlog) = (start.rate * (0.5 + next()), start.backlog);
            assert_eq!(
                drain_step(backlog, rate, dt).to_bits(),
                (backlog / rate).min(dt).to_bits(),
                "case {case}: drain of {backlog} at {rate} over {dt}"
            );
            let bits = |b: &Bucket, w: &Window| {
                [b.tokens, b.backlog, w.admitted, w.max_backlog].map(f64::to_bits)
            };
            let (mut general, mut w_general) = (start, Window::default());
            general.advance(dt, 0.0, &mut w_general);
            let (mut idle, mut w_idle) = (start, Window::default());
            idle.advance_idle(dt, &mut w_idle);
            assert_eq!(
                bits(&idle, &w_idle),
                bits(&general, &w_general),
                "case {case}: idle"
            );
        }
    }

    // Under today's limits (50/100) one burst of 550 waits 9 s at most.
    #[test]
    fn todays_limits() {
        let load = admit(&[(0, 550), (10_000, 550)], &[0; 3], 10_000, 30_000, 50, 100);
        assert_eq!(load.max_queue_delay_ms[0], 9_000);
        // The first queue empties at 9 s; one second refills 50 tokens.
        assert_eq!(load.admitted_per_window[0], 550);
        assert_eq!(load.max_queue_delay_ms[1], 10_000);
    }
}
