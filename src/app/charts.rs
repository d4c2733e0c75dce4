//! The charts on `<canvas>`, drawn by the shared plotters code after each
//! render: sized to their container, crisp on HiDPI screens, with a pointer
//! readout and the data as a table.

use std::rc::Rc;

use gloo_render::request_animation_frame;
use plotters::prelude::*;
use web_sys::{Element, HtmlCanvasElement};
use yew::prelude::*;
use yew::TargetCast;

use super::canvas::Canvas;
use super::hooks::{
    after_rest, observe_resize, observe_within, watch_media, NEAR_MARGIN, SIGHT_MARGIN,
};
use super::state::State;
use plotters::coord::Shift;

use crate::chart::{
    draw_delays, draw_load, draw_restarts, draw_windows, Axes, ChartData, DrawResult, Kind, Look,
    Series,
};
use crate::engine::audit::{kep_window_counts, KEP_WINDOWS_MS};
use crate::engine::duration::{format_count, format_human_ms, format_seconds_ms};
use crate::engine::sent::load_window;
use crate::engine::{RequestKind, Timeline};

/// Rows a "show data" table lists before it stops.
const TABLE_ROWS: usize = 200;

/// A chart's drawing, as it stands.
type Drawing = Rc<dyn Fn()>;

/// Drawings that wait, a canvas's latest each.
type Drawings = Vec<(HtmlCanvasElement, Drawing)>;

/// `canvas`'s drawing in `list`, taken off it.
fn take(list: &mut Drawings, canvas: &HtmlCanvasElement) -> Option<Drawing> {
    let i = list.iter().position(|(c, _)| c == canvas)?;
    Some(list.remove(i).1)
}

/// Sets `canvas`'s drawing in `list` (`None`: takes it off).
fn put(list: &mut Drawings, canvas: &HtmlCanvasElement, draw: Option<Drawing>) {
    list.retain(|(c, _)| c != canvas);
    if let Some(draw) = draw {
        list.push((canvas.clone(), draw));
    }
}

thread_local! {
    /// The drawings of charts out of sight, the latest of each: a chart
    /// not in the viewport is not drawn on every input (a pods move redrew
    /// the load chart two screens down, ~2 ms a move; half a screen down,
    /// ~1.5 ms with its canvas handed to the compositor), but when it comes
    /// into sight, when the controls rest while it is near sight, or when
    /// its pixels are read (`draw_now`).
    static WAITING: std::cell::RefCell<Drawings> = const { std::cell::RefCell::new(Vec::new()) };
    /// Charts' first drawings, in the order asked: one a task (see
    /// `ask_first_frame`).
    static FIRST: std::cell::RefCell<Drawings> = const { std::cell::RefCell::new(Vec::new()) };
    /// The next first drawing is asked for.
    static FIRST_ASKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Apps still rendering in steps (`hold_first_drawings`).
    static FIRST_HELD: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Holds charts' first drawings until the guard is dropped: an app's first
/// render in steps (`hooks::use_first_render_steps`) changes the page
/// between frames, and a drawing after such a step brought the page's style
/// up to date in its own task (a chart's first font set on a canvas in the
/// page does), 45 ms of a task at Chromium's 4 × slowed CPU.
pub fn hold_first_drawings() -> FirstHeld {
    FIRST_HELD.set(FIRST_HELD.get() + 1);
    FirstHeld
}

/// Lets first drawings go on when dropped (`hold_first_drawings`).
pub struct FirstHeld;

impl Drop for FirstHeld {
    fn drop(&mut self) {
        FIRST_HELD.set(FIRST_HELD.get().saturating_sub(1));
        ask_first_frame();
    }
}

/// Queues `canvas`'s first drawing (`None`: takes it off the queue). The
/// canvas is `aria-busy` while it waits.
fn set_first(canvas: &HtmlCanvasElement, draw: Option<Drawing>) {
    let _ = match draw {
        Some(_) => canvas.set_attribute("aria-busy", "true"),
        None => canvas.remove_attribute("aria-busy"),
    };
    FIRST.with_borrow_mut(|q| put(q, canvas, draw));
    ask_first_frame();
}

/// Asks for the next first drawing, in the task after the next frame.
/// Charts' first drawings come one a task, each after a frame:
/// the page's four drawn in the frame after it mounted were one task of
/// about 80 ms on a phone's CPU (Lighthouse's 4 × slowed), over the 50 ms
/// that blocks input, and two in one task (a budget of 8 ms passed by the
/// second) still 65 ms. Inside a frame's own callbacks, a chart's first text
/// set its font on a canvas in the page, which first brought the page's
/// style up to date, in the same task as that frame's layout and paint. A
/// move's redrawing is not held back: it paints in one frame.
fn ask_first_frame() {
    if FIRST_ASKED.get() || FIRST_HELD.get() > 0 || FIRST.with_borrow(Vec::is_empty) {
        return;
    }
    use wasm_bindgen::JsCast;
    let frame = wasm_bindgen::closure::Closure::once_into_js(|| {
        gloo_timers::callback::Timeout::new(0, first_drawing).forget();
    });
    let asked = web_sys::window()
        .and_then(|w| w.request_animation_frame(frame.unchecked_ref()).ok())
        .is_some();
    FIRST_ASKED.set(asked);
}

/// The next first drawing.
fn first_drawing() {
    FIRST_ASKED.set(false);
    if let Some((canvas, draw)) = FIRST.with_borrow_mut(|q| (!q.is_empty()).then(|| q.remove(0))) {
        let _ = canvas.remove_attribute("aria-busy");
        draw();
    }
    ask_first_frame();
}

/// Sets `canvas`'s waiting drawing (`None`: none waits any more). A drawing
/// queued by `draw_soon` is of older inputs: it is taken off the queue.
fn set_waiting(canvas: &HtmlCanvasElement, draw: Option<Drawing>) {
    if FIRST.with_borrow(|q| q.iter().any(|(c, _)| c == canvas)) {
        set_first(canvas, None);
    }
    WAITING.with_borrow_mut(|w| put(w, canvas, draw));
}

/// Queues `canvas`'s waiting drawing (if any) with the first drawings, in
/// a task after the next frame: a chart near sight but not in it, drawn
/// from the observer's callback (in the frame's own task) or after the
/// controls rest, was a task of 16 ms on this machine at the first view.
fn draw_soon(canvas: &HtmlCanvasElement) {
    if let Some(draw) = take_waiting(canvas) {
        set_first(canvas, Some(draw));
    }
}

/// Draws `canvas`'s chart come into sight, at once: while an app's first
/// render is in steps, one queued for its first drawing keeps its turn
/// (the observer reports every chart in sight as it mounts).
fn draw_in_sight(canvas: &HtmlCanvasElement) {
    if FIRST_HELD.get() == 0 {
        draw_now(canvas);
    } else if let Some(draw) = take_waiting(canvas) {
        draw();
    }
}

/// `canvas`'s waiting drawing, taken off the list.
fn take_waiting(canvas: &HtmlCanvasElement) -> Option<Drawing> {
    WAITING.with_borrow_mut(|w| take(w, canvas))
}

/// Draws `canvas`'s chart now if its drawing waits: before its pixels are
/// read (a PNG download) or printed, so that they are the chart's as it stands.
pub fn draw_now(canvas: &HtmlCanvasElement) {
    let first = FIRST.with_borrow_mut(|q| take(q, canvas));
    if first.is_some() {
        let _ = canvas.remove_attribute("aria-busy");
    }
    let waiting = first.or_else(|| take_waiting(canvas));
    if let Some(draw) = waiting {
        draw();
    }
}

/// Sets a canvas's CSS size through the CSSOM (the CSP allows no inline styles).
pub fn size_canvas(canvas: &HtmlCanvasElement, width: u32, height: u32) {
    let style = canvas.style();
    let _ = style.set_property("width", &format!("{width}px"));
    let _ = style.set_property("height", &format!("{height}px"));
}

/// A canvas's size in CSS pixels and the device pixel ratio its backing
/// store is multiplied by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CanvasSize {
    pub width: u32,
    pub height: u32,
    pub dpr: f64,
}

/// A canvas's CSS size for `container` (its width less the canvas's 1 px
/// border on each side) and the device pixel ratio now.
fn measure(container: Option<&Element>, (wide, narrow): (u32, u32)) -> CanvasSize {
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0);
    let width = container
        .map_or(722, |e| e.client_width() - 2)
        .clamp(240, 1400) as u32;
    let height = if width < 520 { narrow } else { wide };
    CanvasSize { width, height, dpr }
}

/// A canvas's CSS size (its container's width, observed after every layout
/// change) and the device pixel ratio its backing store is multiplied by,
/// followed as it changes without a change of size (a window moved to a
/// screen of another density), so that the chart stays crisp.
#[hook]
pub fn use_canvas_size(container: NodeRef, height: (u32, u32)) -> CanvasSize {
    let size = use_state_eq(|| CanvasSize {
        width: 720,
        height: height.0,
        dpr: 1.0,
    });
    {
        let (size, container) = (size.clone(), container.clone());
        use_effect_with((), move |_| {
            let element = container.cast::<Element>();
            let guard = element.clone().map(|observed| {
                observe_resize(&observed, move || {
                    size.set(measure(element.as_ref(), height))
                })
            });
            move || drop(guard)
        });
    }
    let dpr = size.dpr;
    {
        let size = size.clone();
        // The ratio's media query stops matching when the ratio changes; the
        // new ratio gets a query of its own (this effect, again).
        use_effect_with(dpr.to_bits(), move |_| {
            let listener = watch_media(&format!("(resolution: {dpr}dppx)"), move |_| {
                size.set(measure(container.cast::<Element>().as_ref(), height))
            });
            move || drop(listener)
        });
    }
    *size
}

/// One of the app's charts as a canvas shows it: its drawing, its pointer
/// readout and its "Show data" table. A root names the charts it shows by
/// these constants, so that its wasm holds the code of those alone; the exports and
/// the figures draw through `Kind::draw`.
#[derive(Clone, Copy)]
pub struct OnCanvas {
    pub kind: Kind,
    draw: Draw,
    readout: Readout,
    table: Table,
}

type Draw = fn(&DrawingArea<Canvas, Shift>, &ChartData<'_>) -> DrawResult<Canvas>;
/// What the pointer is over, in words, at `x` in the chart's own units.
type Readout = fn(&State, f64) -> String;
type Table = fn(&State) -> Html;

impl OnCanvas {
    /// Evaluated at compile time (the constants below), so that a chart
    /// nobody names links nothing.
    const fn of(kind: Kind) -> OnCanvas {
        let (draw, readout, table): (Draw, Readout, Table) = match kind {
            Kind::Restarts => (draw_restarts::<Canvas>, readout_restarts, steps_table),
            Kind::Delays => (draw_delays::<Canvas>, readout_delays, steps_table),
            Kind::Load => (draw_load::<Canvas>, readout_load, load_table),
            Kind::Windows => (draw_windows::<Canvas>, readout_windows, windows_table),
        };
        OnCanvas {
            kind,
            draw,
            readout,
            table,
        }
    }
}

impl PartialEq for OnCanvas {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}

pub const RESTARTS: OnCanvas = OnCanvas::of(Kind::Restarts);
pub const DELAYS: OnCanvas = OnCanvas::of(Kind::Delays);
pub const LOAD: OnCanvas = OnCanvas::of(Kind::Load);
pub const WINDOWS: OnCanvas = OnCanvas::of(Kind::Windows);

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// Which chart: its id, its text alternative and its drawing.
    pub chart: OnCanvas,
    pub state: UseReducerHandle<State>,
    #[prop_or_default]
    pub dark: bool,
}

/// What a chart depends on, compared by pointer.
#[derive(PartialEq)]
struct Inputs(Kind, Vec<usize>, (u32, u32, u64), bool);

/// The live scenario first, then the compared ones that are valid.
/// What the charts draw for this state (the canvas and the SVG export alike).
pub fn chart_data(state: &State, look: Look) -> ChartData<'_> {
    ChartData {
        reference: &state.shown.reference,
        series: series_of(state),
        look,
        marker_ms: state.inputs.marker_ms,
    }
}

/// A chart of the state a link describes, as SVG, and what in the link was
/// not used: the app's "SVG" download (drawn by the second wasm) and
/// `crashloop-explorer figure`.
pub fn figure_of_link(
    link: &str,
    kind: Kind,
    look: Look,
    measure: &dyn crate::chart::MeasureText,
) -> (String, Vec<crate::share::Notice>) {
    let (page, notices) = crate::share::decode(link);
    let state = State::new(page.inputs);
    let data = chart_data(&state, look);
    let desc = crate::export::figure_desc(&state.shown);
    (crate::export::svg(kind, &data, measure, &desc), notices)
}

pub fn series_of(state: &State) -> Vec<Series<'_>> {
    let e = &*state.shown;
    let mut series = vec![Series {
        label: crate::chart::LIVE_LABEL,
        timeline: &e.timeline,
    }];
    series.extend(state.compared_results.iter().filter_map(|c| {
        c.result.as_ref().ok().map(|t| Series {
            label: c.label.as_str(),
            timeline: t.get(),
        })
    }));
    series
}

/// What the pointer is over, in words: `x` in the chart's own units
/// (seconds; a restart's number; a KEP window's index).
fn readout_restarts(state: &State, x: f64) -> String {
    let (t, r) = (&state.shown.timeline, &state.shown.reference);
    let at = (x * 1000.0) as u64;
    format!(
        "at {}: {} restarts (today's default: {})",
        format_human_ms(at),
        t.restarts_by(at),
        r.restarts_by(at)
    )
}

fn readout_delays(state: &State, x: f64) -> String {
    let (t, r) = (&state.shown.timeline, &state.shown.reference);
    let n = x.round().max(1.0) as usize;
    let wait = |tl: &Timeline| {
        tl.delays_ms
            .get(n - 1)
            .map_or_else(|| "—".to_owned(), format_human_ms)
    };
    format!(
        "restart {n}: waited {} (today's default: {})",
        wait(t),
        wait(r)
    )
}

fn readout_load(state: &State, x: f64) -> String {
    let (t, r) = (&state.shown.timeline, &state.shown.reference);
    let i = ((x * 1000.0) as u64 / t.window_ms) as usize;
    let Some(w) = load_window(t, i) else {
        return String::new();
    };
    let count = |n: u64| format_count(n as i64);
    let offered = match w.by_kind {
        Some(k) => format!(
            "{} offered ({}; {} events dropped)",
            count(w.offered),
            RequestKind::ALL
                .into_iter()
                .filter(|k| k.offered())
                .map(|kind| format!("{} {}", kind.label(), format_count(k.get(kind))))
                .collect::<Vec<_>>()
                .join(" · "),
            format_count(k.dropped_events)
        ),
        None => format!("{} offered", count(w.offered)),
    };
    let sent = match w.events_sent {
        Some(e) => format!(
            "{} sent (status {} · events {})",
            count(w.sent),
            count(w.status_sent),
            count(e)
        ),
        None => format!("{} sent", count(w.sent)),
    };
    let waits = match w.events_wait_ms {
        Some(e) => format!(
            "longest wait {}, events {}",
            format_human_ms(w.wait_ms),
            format_human_ms(e)
        ),
        None => format!("longest wait {}", format_human_ms(w.wait_ms)),
    };
    format!(
        "{} to {}: {offered}; {sent}; {waits} (today's default: {} offered)",
        format_human_ms(w.from_ms),
        format_human_ms(w.from_ms + t.window_ms),
        count(r.node_requests_per_window.get(i).copied().unwrap_or(0))
    )
}

fn readout_windows(state: &State, x: f64) -> String {
    let r = &state.shown.reference;
    let i = (x.floor() as usize).min(KEP_WINDOWS_MS.len() - 1);
    let from = if i == 0 { 0 } else { KEP_WINDOWS_MS[i - 1] };
    let counts = series_of(state)
        .iter()
        .map(|s| {
            format!(
                "{} {}",
                s.label,
                kep_window_counts(&s.timeline.restarts_at_ms)[i]
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{}–{} s: today's default {}, {counts}",
        from / 1000,
        KEP_WINDOWS_MS[i] / 1000,
        kep_window_counts(&r.restarts_at_ms)[i]
    )
}

/// A chart's data as a table, for screen readers and for reading numbers
/// off: its `head`, the first `TABLE_ROWS` of its `total` rows, and a line
/// saying so when there are more. One drawing of tables for every chart.
fn data_table(head: &[&str], rows: Vec<Vec<String>>, total: usize) -> Html {
    html! {
        <>
            // Scrolled on its own where it is wider than the page (the load
            // chart's kinds, on a phone).
            <div class="table-scroll" tabindex="0">
                <table class="data">
                    <thead><tr>{ for head.iter().map(|h| html! { <th>{ *h }</th> }) }</tr></thead>
                    <tbody>{ for rows.into_iter().map(|row| html! {
                        <tr>{ for row.into_iter().map(|cell| html! { <td>{ cell }</td> }) }</tr>
                    }) }</tbody>
                </table>
            </div>
            if total > TABLE_ROWS {
                <p class="hint">{ format!("(first {TABLE_ROWS} of {total} rows; the CSV export has them all)") }</p>
            }
        </>
    }
}

/// The restarts and their waits (the restarts and waits charts).
fn steps_table(state: &State) -> Html {
    let t = &state.shown.timeline;
    let rows = t
        .restarts_at_ms
        .iter()
        .zip(t.delays_ms.iter())
        .take(TABLE_ROWS)
        .enumerate()
        .map(|(i, (at, d))| {
            vec![
                (i + 1).to_string(),
                format_seconds_ms(at),
                format_seconds_ms(d),
            ]
        })
        .collect();
    data_table(
        &["restart", "at (s)", "after a wait of (s)"],
        rows,
        t.restarts_at_ms.len(),
    )
}

/// The node's requests per window: offered by kind, sent by client, and
/// the longest waits.
fn load_table(state: &State) -> Html {
    let t = &state.shown.timeline;
    let kubelet = t.requests.is_some();
    let mut head = vec!["10 s window from (s)"];
    if kubelet {
        head.extend(RequestKind::ALL.map(|k| k.label()));
    }
    head.extend(["offered", "sent"]);
    if kubelet {
        head.extend(["status sent", "events sent"]);
    }
    head.push("longest wait (s)");
    if kubelet {
        head.push("events' longest wait (s)");
    }
    let count = |n: u64| format_count(n as i64);
    let rows = (0..TABLE_ROWS)
        .map_while(|i| load_window(t, i))
        .map(|w| {
            let mut row = vec![format_count((w.from_ms / 1000) as i64)];
            if let Some(k) = w.by_kind {
                row.extend(RequestKind::ALL.map(|kind| format_count(k.get(kind))));
            }
            row.extend([count(w.offered), count(w.sent)]);
            if let Some(e) = w.events_sent {
                row.extend([count(w.status_sent), count(e)]);
            }
            row.push(format_seconds_ms(w.wait_ms));
            row.extend(w.events_wait_ms.map(format_seconds_ms));
            row
        })
        .collect();
    data_table(&head, rows, t.node_requests_per_window.len())
}

/// Each scenario's restarts in the KEP's windows.
fn windows_table(state: &State) -> Html {
    let series = series_of(state);
    let reference = kep_window_counts(&state.shown.reference.restarts_at_ms);
    let counts: Vec<_> = series
        .iter()
        .map(|s| kep_window_counts(&s.timeline.restarts_at_ms))
        .collect();
    let head: Vec<&str> = ["window (s)", "today's default"]
        .into_iter()
        .chain(series.iter().map(|s| s.label))
        .collect();
    let rows = (0..KEP_WINDOWS_MS.len())
        .map(|i| {
            let from = if i == 0 {
                0
            } else {
                KEP_WINDOWS_MS[i - 1] / 1000
            };
            [
                format!("{from}–{}", KEP_WINDOWS_MS[i] / 1000),
                reference[i].to_string(),
            ]
            .into_iter()
            .chain(counts.iter().map(|c| c[i].to_string()))
            .collect()
        })
        .collect();
    data_table(&head, rows, KEP_WINDOWS_MS.len())
}

/// Draws one chart on its canvas, and keeps where its plot sits for the readout.
fn draw_chart(
    canvas: &NodeRef,
    chart: OnCanvas,
    state: &State,
    width: u32,
    height: u32,
    look: Look,
    axes: &std::cell::RefCell<Axes>,
) {
    let Some(c) = canvas.cast::<HtmlCanvasElement>() else {
        return;
    };
    size_canvas(&c, width, height);
    let Some(backend) = Canvas::new(c) else {
        return;
    };
    let area = backend.into_drawing_area();
    match (chart.draw)(&area, &chart_data(state, look)) {
        Ok(a) => *axes.borrow_mut() = a,
        Err(e) => web_sys::console::error_1(&format!("drawing a chart: {e}").into()),
    }
}

#[function_component]
pub fn Chart(p: &ChartProps) -> Html {
    let figure = use_node_ref();
    let canvas = use_node_ref();
    let CanvasSize { width, height, dpr } = use_canvas_size(figure.clone(), p.chart.kind.heights());
    let axes = use_mut_ref(Axes::default);
    let hover = use_state_eq(String::new);
    let open = use_state_eq(|| false);
    let state = p.state.clone();
    // Charts of pods alone depend on the pod runs, which slider moves that
    // only change the node (pods, spreads, API limits) leave as they are.
    let kind = p.chart.kind;
    let data: Vec<usize> = match kind {
        Kind::Load => vec![state.shown.ptr()],
        _ => state.runs.iter().map(|r| Rc::as_ptr(r) as usize).collect(),
    };
    let inputs = Inputs(kind, data, (width, height, (dpr * 100.0) as u64), p.dark);
    // Whether the chart is near sight (`NEAR_MARGIN`) and in sight; until
    // the first reports, it is both.
    let near = use_mut_ref(|| true);
    let in_sight = use_mut_ref(|| true);
    // Whether it has been drawn yet: a first drawing waits its turn.
    let drawn = use_mut_ref(|| false);
    {
        let (figure, canvas) = (figure.clone(), canvas.clone());
        let flags = [
            (NEAR_MARGIN, near.clone()),
            (SIGHT_MARGIN, in_sight.clone()),
        ];
        use_effect_with((), move |_| {
            let element = canvas.cast::<HtmlCanvasElement>();
            // Coming near (scrolling towards it) queues what waits for the
            // task after the next frame; coming into sight draws it at once.
            let guards: Vec<_> = figure.cast::<Element>().map_or_else(Vec::new, |observed| {
                flags
                    .into_iter()
                    .map(|(margin, flag)| {
                        let element = element.clone();
                        observe_within(&observed, margin, move |now| {
                            *flag.borrow_mut() = now;
                            match (now, &element) {
                                (true, Some(c)) if margin == SIGHT_MARGIN => draw_in_sight(c),
                                (true, Some(c)) => draw_soon(c),
                                _ => {}
                            }
                        })
                    })
                    .collect()
            });
            // A page printed shows every chart as it stands.
            let printing = web_sys::window().zip(element.clone()).map(|(w, c)| {
                gloo_events::EventListener::new(&w, "beforeprint", move |_| draw_now(&c))
            });
            move || {
                drop((guards, printing));
                if let Some(c) = element {
                    set_waiting(&c, None);
                }
            }
        });
    }
    {
        let (canvas, chart, dark, axes) = (canvas.clone(), p.chart, p.dark, axes.clone());
        let (state, near, in_sight, drawn) =
            (state.clone(), near.clone(), in_sight.clone(), drawn.clone());
        // In sight, drawn at the next animation frame: inputs that arrive
        // within one frame cost one drawing. Near sight, it waits for the
        // controls to rest (a drag does not pay for a chart nobody sees,
        // and it is drawn before anyone can scroll to it); far, it waits
        // to come near.
        use_effect_with(inputs, move |_| {
            let element = canvas.cast::<HtmlCanvasElement>();
            let element_left = element.clone();
            let (near, in_sight) = (*near.borrow(), *in_sight.borrow());
            let first = !*drawn.borrow();
            let draw: Drawing = Rc::new(move || {
                *drawn.borrow_mut() = true;
                draw_chart(
                    &canvas,
                    chart,
                    &state,
                    width,
                    height,
                    Look { scale: dpr, dark },
                    &axes,
                )
            });
            let (frame, rest) = match element {
                Some(c) if !in_sight => {
                    set_waiting(&c, Some(draw));
                    (None, near.then(|| after_rest(move || draw_soon(&c))))
                }
                Some(c) if first => {
                    set_waiting(&c, None);
                    set_first(&c, Some(draw));
                    (None, None)
                }
                _ => {
                    if let Some(c) = &element {
                        set_waiting(c, None);
                    }
                    (Some(request_animation_frame(move |_| draw())), None)
                }
            };
            // Dropping the handles cancels a drawing not yet done.
            move || {
                drop((frame, rest));
                if let (true, Some(c)) = (first, element_left) {
                    set_first(&c, None);
                }
            }
        });
    }
    let onpointermove = {
        let (hover, readout, state, axes) =
            (hover.clone(), p.chart.readout, state.clone(), axes.clone());
        Callback::from(move |e: PointerEvent| {
            let x = axes.borrow().x_at(f64::from(e.offset_x()) * dpr);
            let text = x.map(|x| readout(&state, x));
            hover.set(text.unwrap_or_default());
        })
    };
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            if let Some(d) = e.target_dyn_into::<web_sys::HtmlDetailsElement>() {
                open.set(d.open());
            }
        })
    };
    let onpointerleave = {
        let hover = hover.clone();
        Callback::from(move |_: PointerEvent| hover.set(String::new()))
    };
    html! {
        <figure class="chart" ref={figure} aria-busy={(kind == Kind::Restarts && state.band_pending).then_some("true")}>
            <canvas id={kind.dom_id()} ref={canvas}
                width={((f64::from(width) * dpr).round() as u32).to_string()}
                height={((f64::from(height) * dpr).round() as u32).to_string()}
                role="img" aria-label={kind.alt()} {onpointermove} {onpointerleave}></canvas>
            <figcaption class="readout" id={format!("{}-readout", kind.dom_id())}>{ (*hover).clone() }</figcaption>
            <details class="show-data" ontoggle={ontoggle}>
                <summary>{"Show data"}</summary>
                if *open { { (p.chart.table)(&state) } }
            </details>
        </figure>
    }
}

/// What a `DrawnCanvas` draws, and from what: the Job and cluster views'
/// charts, each redrawn when its own data changed.
pub trait Drawn: PartialEq + Clone + 'static {
    fn draw(&self, area: &DrawingArea<Canvas, Shift>, look: Look) -> Result<(), String>;
}

#[derive(Properties, PartialEq)]
pub struct DrawnProps<D: Drawn> {
    pub id: AttrValue,
    /// What the chart shows, for screen readers.
    pub alt: AttrValue,
    /// Its height in CSS pixels, wide and on a narrow screen.
    pub heights: (u32, u32),
    pub data: D,
    pub dark: bool,
}

/// A canvas the width of its container, drawn at the device pixel ratio
/// from `data` whenever it, the size, the ratio or the theme change.
#[function_component]
pub fn DrawnCanvas<D: Drawn>(p: &DrawnProps<D>) -> Html {
    let figure = use_node_ref();
    let canvas = use_node_ref();
    let CanvasSize { width, height, dpr } = use_canvas_size(figure.clone(), p.heights);
    {
        let canvas = canvas.clone();
        let look = Look {
            scale: dpr,
            dark: p.dark,
        };
        use_effect_with(
            (p.data.clone(), width, height, (dpr * 100.0) as u64, p.dark),
            move |(data, width, height, ..)| {
                let Some(c) = canvas.cast::<HtmlCanvasElement>() else {
                    return;
                };
                size_canvas(&c, *width, *height);
                if let Some(backend) = Canvas::new(c) {
                    if let Err(e) = data.draw(&backend.into_drawing_area(), look) {
                        web_sys::console::error_1(&format!("drawing a chart: {e}").into());
                    }
                }
            },
        );
    }
    html! {
        <figure class="chart" ref={figure}>
            <canvas id={p.id.clone()} ref={canvas}
                width={((f64::from(width) * dpr).round() as u32).to_string()}
                height={((f64::from(height) * dpr).round() as u32).to_string()}
                role="img" aria-label={p.alt.clone()}></canvas>
        </figure>
    }
}
