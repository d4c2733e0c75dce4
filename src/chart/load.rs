//! The node's `/pods` requests per second: offered (by kind, kubelet model)
//! and sent, as bars of one or more 10 s windows, each wide enough to read.

use super::prelude::*;

/// Windows a bar may hold, from one (10 s) up: 30 s, 1, 2, 5, 10, 30 min, 1 h.
const BUCKETS: [usize; 8] = [1, 3, 6, 12, 30, 60, 180, 360];
/// A bar is at least this many CSS pixels wide, so its kinds can be told
/// apart (a 10 s window of 30 minutes is 4 px at 720).
const MIN_BAR_PX: f64 = 9.0;

/// How the windows are drawn: each bar `per` windows wide, values as
/// requests per second (a mean over the bar, which adds up across kinds).
#[derive(Clone, Copy)]
struct Bars {
    per: usize,
    window_s: f64,
}

impl Bars {
    /// The fewest windows a bar that keeps bars `MIN_BAR_PX` wide on a plot
    /// about `plot_px` CSS pixels wide.
    fn of(windows: usize, window_s: f64, plot_px: f64) -> Self {
        let most = (plot_px / MIN_BAR_PX).max(1.0) as usize;
        let per = BUCKETS
            .into_iter()
            .find(|&k| windows.div_ceil(k) <= most)
            .unwrap_or(BUCKETS[BUCKETS.len() - 1]);
        Bars { per, window_s }
    }

    /// Each bar's mean requests per second, as steps.
    fn mean(self, values: &[u64]) -> Vec<(f64, f64)> {
        self.steps(values, |chunk| {
            chunk.iter().sum::<u64>() as f64 / (chunk.len() as f64 * self.window_s)
        })
    }

    fn steps(self, values: &[u64], of: impl Fn(&[u64]) -> f64) -> Vec<(f64, f64)> {
        values
            .chunks(self.per)
            .enumerate()
            .flat_map(|(b, chunk)| {
                let (from, v) = ((b * self.per) as f64 * self.window_s, of(chunk));
                [(from, v), (from + chunk.len() as f64 * self.window_s, v)]
            })
            .collect()
    }

    /// The y axis's words.
    fn unit(self) -> String {
        if self.per == 1 {
            "requests / s, each 10 s".into()
        } else {
            format!(
                "requests / s, mean of each {}",
                crate::engine::duration::format_human_ms(
                    (self.per as f64 * self.window_s * 1000.0) as u64
                )
            )
        }
    }
}

/// `/pods` requests per 10-second window for the node: offered, and sent
/// through the client rate limiters, for the live scenario and today's default.
pub fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &ChartData,
) -> DrawResult<DB> {
    let reference = d.reference;
    let window_s = reference.window_ms as f64 / 1000.0;
    // The plot is the chart less its y labels and margins, in CSS pixels.
    let plot_px = f64::from(area.dim_in_pixel().0) / d.look.scale - 80.0;
    let bars = Bars::of(reference.node_requests_per_window.len(), window_s, plot_px);
    let mut lines = vec![Line::reference(
        bars.mean(&reference.node_requests_per_window),
    )];
    lines[0].label = "today's default, offered".into();
    let mut extras = Extras {
        now: d
            .marker_ms
            .map(|m| (m as f64 / 1000.0, NOW_LABEL.to_owned())),
        ..Extras::default()
    };
    let mut caption = "Node /pods requests per second (red marks: the rate limit binds)";
    if let Some(live) = d.series.first() {
        let t = live.timeline;
        let binding = |api: &ApiLoad| {
            marked_spans(windows_flagged(&api.max_queue_delay_ms, window_s, |&d| {
                d > 0
            }))
        };
        extras.marks = binding(&t.api);
        match (&t.requests, &t.event_api) {
            (Some(r), Some(events)) => {
                caption =
                    "Node requests per second, offered by kind and sent (marks: a limit binds)";
                stack_kinds(d.look, bars, r, &mut lines, &mut extras);
                lines.push(sent(d.look, bars.mean(&t.sent_per_window())));
                extras.marks2 = Some((EVENT_LIMIT, "eventRecordQPS binds", binding(events)));
            }
            _ => {
                lines.push(Line::of(
                    format!("{}, offered", live.label),
                    0,
                    bars.mean(&t.node_requests_per_window),
                ));
                lines.push(sent(d.look, bars.mean(&t.api.admitted_per_window)));
            }
        }
        extras.limit = Some((f64::from(t.api.qps), format!("kubeAPIQPS {}", t.api.qps)));
    }
    draw_lines(
        area,
        d.look,
        caption,
        "elapsed time",
        &bars.unit(),
        true,
        d.horizon_ms() as f64 / 1000.0,
        lines,
        extras,
    )
}

/// What reached the API server: the line every reader looks for first.
fn sent(look: Look, points: Vec<(f64, f64)>) -> Line {
    Line {
        label: "sent (after the rate limiters)".into(),
        color: look.sent(),
        width: 2.0,
        dash: (0, 0),
        points,
    }
}

/// The kinds offered as stacked bars, bottom first, and the events the
/// spam filter dropped as a dashed line above them (never offered).
fn stack_kinds(
    look: Look,
    bars: Bars,
    r: &RequestsTimeline,
    lines: &mut Vec<Line>,
    extras: &mut Extras,
) {
    // Running totals, bottom up: each kind's top is the next one's bottom.
    let mut top = vec![0u64; r.get_pods.len()];
    let mut lo = bars.mean(&top);
    for k in RequestKind::ALL {
        top.iter_mut().zip(r.windows(k)).for_each(|(a, b)| *a += b);
        let hi = bars.mean(&top);
        if k.offered() {
            let band = lo.iter().zip(&hi).map(|(l, h)| (l.0, l.1, h.1)).collect();
            extras.stack.push((look.kind(k), k.label(), band));
        } else if r.spam_filter_binds() {
            lines.push(Line {
                label: "+ events dropped (never sent)".into(),
                color: look.kind(k).color(),
                width: 1.5,
                dash: (4, 3),
                points: hi.clone(),
            });
        }
        lo = hi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 30 minutes is 180 windows: on a 640 px plot at most 71 bars of 9 px,
    // so 30 s bars (60); on a phone's 280 px plot at most 31, so 1 min (30);
    // a day's 8,640 windows on 640 px take 30 min bars (48).
    #[test]
    fn bars_are_wide_enough_to_read() {
        assert_eq!(Bars::of(180, 10.0, 640.0).per, 3);
        assert_eq!(Bars::of(180, 10.0, 280.0).per, 6);
        assert_eq!(Bars::of(8_640, 10.0, 640.0).per, 180);
        assert_eq!(Bars::of(18, 10.0, 640.0).per, 1);
        assert_eq!(
            Bars::of(180, 10.0, 640.0).unit(),
            "requests / s, mean of each 30 s"
        );
    }

    // Bars are means per second that add up: 30 and 0 and 60 requests in
    // three 10 s windows are 3 a second over their 30 s; a short last bar
    // is the mean of its own windows.
    #[test]
    fn a_bar_is_its_windows_mean_rate() {
        let bars = Bars {
            per: 3,
            window_s: 10.0,
        };
        assert_eq!(
            bars.mean(&[30, 0, 60, 20]),
            vec![(0.0, 3.0), (30.0, 3.0), (30.0, 2.0), (40.0, 2.0)]
        );
    }
}
