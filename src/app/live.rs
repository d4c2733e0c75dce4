//! "Watch this cluster": where the page is served beside a Kubernetes API
//! (`kubectl proxy --www`), the crash-looping pods of a namespace or of all,
//! live. It lists the pods, then watches from the list's resourceVersion; a
//! watch that ends resumes from the newest version seen, one that fails
//! retries after a growing pause, and a `410 Gone` (Expired) lists again:
//! client-go's reflector does the same (tools/cache/reflector.go,
//! `ListAndWatch`, and its `isExpiredError` relist). Countdowns tick each second
//! from the stored diagnoses; the engine runs only when a pod changes.
//! Every request goes to the page's own origin (its CSP allows no other).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_timers::callback::Interval;
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use super::controls::TextField;
use super::diagnose::{container_view, use_assumed, Assumed};
use super::instant::{instant, readable};
use super::words::units_kept;
use crate::engine::apf::{ApiServer, LevelShares};
use crate::engine::config::{KubeletConfig, KubeletVersion};
use crate::engine::duration::{format_human_ms, format_span_ms};
use crate::engine::kubelets::ConfigzQueue;
use crate::engine::live::{Change, Live};
use crate::engine::load_now::{load_now, LoadCache};
use crate::engine::pod::NodeAssumption;
use crate::formats::endpoints::{
    api_servers, counted_words, not_counted_words, KUBERNETES_ENDPOINTS,
};
use crate::formats::flowcontrol::{levels, not_read_words, shares_words, PRIORITY_LEVELS};
use crate::formats::pod::watch::{
    countdown_in, exit_short, load_words, step_words, steps_of, Read, WatchReader,
};

/// Where kubectl proxy serves the core API (its `--api-prefix` is `/`).
const API: &str = "/api/v1";
/// The command that serves this page beside the API.
pub const PROXY_COMMAND: &str = "kubectl proxy --www=dist --www-prefix=/ui/";
/// Pods a list page holds (the API server's `limit`).
const PAGE: u32 = 500;
/// Pauses before a failed watch is tried again: doubling up to the cap.
const RETRY_FIRST_MS: u32 = 1_000;
const RETRY_MAX_MS: u32 = 30_000;
/// `410 Gone`: the version asked for is too old; list again.
const GONE: u16 = 410;
/// Where the load's API servers come from, and where to change them: the
/// cluster view's, as many as the cluster's `kubernetes` Endpoints lists
/// where it was `counted`.
fn api_servers_from(counted: Option<u32>) -> String {
    match counted {
        Some(n) => format!(
            ". {}; their limits are the cluster view's: set them there.",
            counted_words(n)
        ),
        None => ". The API servers are the cluster view's: set their replicas and limits there."
            .to_owned(),
    }
}

/// The countdowns' tick.
const TICK_MS: u32 = 1_000;
/// How many of the stream's complaints stay shown.
const KEPT_MESSAGES: usize = 5;

#[derive(Properties, PartialEq)]
pub struct LivePanelProps {
    pub version: KubeletVersion,
    pub config: KubeletConfig,
    /// The API servers the load is set against: the cluster view's.
    pub api: ApiServer,
}

fn clock_ms() -> i64 {
    js_sys::Date::now() as i64
}

/// Where the panel stands.
#[derive(Clone, PartialEq)]
enum Phase {
    Probing,
    /// No API at this origin, and why.
    NoApi(String),
    Listing,
    Watching,
    /// Waiting to try again, and why.
    Retrying(String),
}

/// The panel's state: one reducer, fed by the watch loop.
#[derive(Clone)]
struct Watch {
    phase: Phase,
    /// Changed in place: the set is the size of the cluster, and copying
    /// it for every event would cost that much each time.
    live: Option<Rc<RefCell<Live>>>,
    messages: Vec<String>,
    /// The API servers the cluster lists, where it could be read.
    api_servers: Option<u32>,
    /// The cluster's priority levels, where they could be read.
    levels: Option<Vec<LevelShares>>,
    /// Bumped on every change, for Yew to see one.
    version: u64,
}

impl PartialEq for Watch {
    fn eq(&self, other: &Self) -> bool {
        self.version == other.version && self.phase == other.phase
    }
}

enum Msg {
    Phase(Phase),
    /// A fresh list: the set starts again.
    Listed(Box<Live>),
    Reads(Vec<Read>),
    /// Something to say beside the table.
    Say(String),
    /// The API servers the cluster lists.
    ApiServers(u32),
    /// The cluster's priority levels.
    Levels(Vec<LevelShares>),
}

impl Reducible for Watch {
    type Action = Msg;
    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut next = (*self).clone();
        next.version += 1;
        match msg {
            Msg::Phase(p) => next.phase = p,
            Msg::Listed(live) => {
                let live = match &self.live {
                    Some(old) => old.borrow().relisted(*live, clock_ms()),
                    None => *live,
                };
                next.live = Some(Rc::new(RefCell::new(live)));
                next.phase = Phase::Watching;
            }
            Msg::Say(m) => say(&mut next.messages, m),
            Msg::ApiServers(n) => next.api_servers = Some(n),
            Msg::Levels(l) => next.levels = Some(l),
            Msg::Reads(reads) => {
                let now = clock_ms();
                let mut changed = false;
                for r in reads {
                    match r {
                        Read::Change(c) => {
                            if let Some(l) = &next.live {
                                changed |= l.borrow_mut().apply(c, now);
                            }
                        }
                        Read::Skipped(why) => say(&mut next.messages, why),
                        Read::Ended(status) => say(
                            &mut next.messages,
                            format!("the API server ended the watch: {status}"),
                        ),
                    }
                }
                if !changed && next.messages == self.messages {
                    return self;
                }
            }
        }
        Rc::new(next)
    }
}

fn say(messages: &mut Vec<String>, m: String) {
    if messages.len() == KEPT_MESSAGES {
        messages.remove(0);
    }
    messages.push(m);
}

/// A namespace as the API names them (an RFC 1123 label), or all; refused
/// in the API server's words (apimachinery's `IsDNS1123Label`).
fn namespace(text: &str) -> Result<Option<String>, String> {
    const MAX: usize = 63;
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let name = crate::engine::field::quoted(t);
    if t.len() > MAX {
        return Err(format!("{name}: must be no more than {MAX} characters"));
    }
    let label = t
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !t.starts_with('-')
        && !t.ends_with('-');
    if label {
        Ok(Some(t.to_owned()))
    } else {
        Err(format!("{name}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"))
    }
}

/// What the page lists and watches.
#[derive(Clone, Copy, PartialEq)]
enum Collection {
    Pods,
    Nodes,
}

impl Collection {
    fn path(self, ns: Option<&str>) -> String {
        match (self, ns) {
            (Collection::Nodes, _) => format!("{API}/nodes"),
            (Collection::Pods, Some(n)) => format!("{API}/namespaces/{n}/pods"),
            (Collection::Pods, None) => format!("{API}/pods"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Collection::Pods => "pods",
            Collection::Nodes => "nodes",
        }
    }
}

/// A GET to this origin; a status that is not 2xx is an error with it.
async fn get(url: &str, signal: &web_sys::AbortSignal) -> Result<web_sys::Response, (u16, String)> {
    let response = answer(url, signal).await.map_err(|e| (0, e))?;
    if response.ok() {
        Ok(response)
    } else {
        Err((
            response.status(),
            // HTTP/2 answers carry no reason phrase.
            format!("HTTP {} {}", response.status(), response.status_text())
                .trim_end()
                .to_owned(),
        ))
    }
}

/// A GET to this origin, whatever its status.
async fn answer(url: &str, signal: &web_sys::AbortSignal) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_signal(Some(signal));
    init.set_credentials(web_sys::RequestCredentials::SameOrigin);
    let answer = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| js_words(&e))?;
    answer.dyn_into().map_err(|e| js_words(&e))
}

async fn text(response: web_sys::Response) -> Result<String, String> {
    let promise = response.text().map_err(|e| js_words(&e))?;
    let t = JsFuture::from(promise).await.map_err(|e| js_words(&e))?;
    Ok(t.as_string().unwrap_or_default())
}

fn js_words(e: &wasm_bindgen::JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the request failed".to_owned())
}

/// Whether the origin serves the core API: `/api/v1` answers with its
/// resource list.
async fn probe(signal: &web_sys::AbortSignal) -> Result<(), String> {
    let r = get(API, signal).await.map_err(|(_, e)| e)?;
    let body = text(r).await?;
    let kind = serde_json::from_str::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_owned));
    match kind.as_deref() {
        Some("APIResourceList") => Ok(()),
        _ => Err(format!(
            "{API} answers, but not with the API's resource list"
        )),
    }
}

/// Lists a collection page by page: what it read, and the list's
/// resourceVersion.
async fn list(
    path: &str,
    version: KubeletVersion,
    signal: &web_sys::AbortSignal,
) -> Result<(Vec<Read>, Option<String>), (u16, String)> {
    let mut reader = WatchReader::new(version);
    let mut token: Option<String> = None;
    let mut reads = vec![];
    loop {
        let mut url = format!("{path}?limit={PAGE}");
        if let Some(t) = &token {
            url.push_str(&format!(
                "&continue={}",
                percent_encoding::utf8_percent_encode(t, percent_encoding::NON_ALPHANUMERIC)
            ));
        }
        let body = text(get(&url, signal).await?).await.map_err(|e| (0, e))?;
        reads.extend(reader.push(&body));
        reads.extend(reader.push("\n"));
        token = reader.continue_token.take();
        if token.is_none() {
            return Ok((reads, reader.resource_version.clone()));
        }
    }
}

/// What a node's name escapes in a path: all but a DNS subdomain's
/// characters (`[a-z0-9.-]`), which a name from the API server is.
const PATH_SEGMENT: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.');

/// What a watch reads of the cluster once, beside the pods: the API
/// servers' count from the `kubernetes` Endpoints (`formats::endpoints`)
/// and the priority levels (`formats::flowcontrol`). Where one cannot be
/// read, the load stays on the cluster view's, and the page says why.
async fn read_once(
    state: UseReducerDispatcher<Watch>,
    alive: Rc<dyn Fn() -> bool>,
    signal: web_sys::AbortSignal,
) {
    let signal = &signal;
    let read = |path: String| async move {
        match get(&path, signal).await {
            Ok(response) => text(response).await,
            Err((_, e)) => Err(e),
        }
    };
    let counted = read(format!("{API}/{KUBERNETES_ENDPOINTS}"))
        .await
        .and_then(|t| api_servers(&t));
    if alive() {
        state.dispatch(match counted {
            Ok(n) => Msg::ApiServers(n),
            Err(e) => Msg::Say(not_counted_words(&e, "the cluster view's replicas")),
        });
    }
    let levels = read(PRIORITY_LEVELS.to_owned())
        .await
        .and_then(|t| levels(&t));
    if alive() {
        state.dispatch(match levels {
            Ok(l) => Msg::Levels(l),
            Err(e) => Msg::Say(not_read_words(&e)),
        });
    }
}

/// A node's `/configz` through the API server's node proxy: its text, or
/// the refusal in kubectl's words.
async fn configz(node: &str, signal: &web_sys::AbortSignal) -> Result<String, String> {
    let url = format!(
        "{API}/nodes/{}/proxy/configz",
        percent_encoding::utf8_percent_encode(node, PATH_SEGMENT)
    );
    let response = answer(&url, signal).await?;
    let (ok, code) = (response.ok(), response.status());
    let body = text(response).await?;
    if body.len() > crate::formats::kubelet_config::MAX_KUBELET_CONFIG_TEXT {
        return Err(format!(
            "{} bytes: more than a kubelet's configuration",
            body.len()
        ));
    }
    if ok {
        Ok(body)
    } else {
        Err(crate::formats::kubelet_config::refusal_words(code, &body))
    }
}

/// Reads a watch's body as it comes into the reducer, until it ends (the
/// reader keeps the newest resourceVersion, and whether it ended in a 410).
async fn stream(
    response: web_sys::Response,
    reader: &mut WatchReader,
    state: &UseReducerDispatcher<Watch>,
    alive: &dyn Fn() -> bool,
) -> Result<(), String> {
    let body = response.body().ok_or("the watch has no body")?;
    let chunks: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut pending: Vec<u8> = vec![];
    loop {
        let next = JsFuture::from(chunks.read())
            .await
            .map_err(|e| js_words(&e))?;
        if !alive() {
            return Ok(());
        }
        let done = js_sys::Reflect::get(&next, &"done".into())
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            let reads = reader.finish();
            state.dispatch(Msg::Reads(reads));
            return Ok(());
        }
        let value = js_sys::Reflect::get(&next, &"value".into()).unwrap_or_default();
        pending.extend(js_sys::Uint8Array::new(&value).to_vec());
        // A character may be split between chunks: its first bytes wait.
        let whole = match std::str::from_utf8(&pending) {
            Ok(_) => pending.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => pending.len(),
        };
        let text = String::from_utf8_lossy(&pending[..whole]).into_owned();
        pending.drain(..whole);
        let reads = reader.push(&text);
        if !reads.is_empty() {
            state.dispatch(Msg::Reads(reads));
        }
    }
}

/// The watch loop: probe, list the pods, watch them, and again, until
/// `alive` says the panel moved on (another namespace, another
/// configuration, closed); the nodes' loop starts beside it once the pods
/// are listed.
async fn run(
    ns: Option<String>,
    node: NodeAssumption,
    state: UseReducerDispatcher<Watch>,
    alive: Rc<dyn Fn() -> bool>,
    signal: web_sys::AbortSignal,
) {
    state.dispatch(Msg::Phase(Phase::Probing));
    if let Err(e) = probe(&signal).await {
        if alive() {
            state.dispatch(Msg::Phase(Phase::NoApi(e)));
        }
        return;
    }
    follow(Collection::Pods, ns, node, state, alive, signal).await;
}

/// List and watch one collection: from the list's resourceVersion, again
/// from the newest seen after a watch ends, listing again after a 410.
/// The pods' failures are the panel's phase; the nodes' are said, and a
/// refusal (403, 404) leaves each pod on the kubelet chosen.
async fn follow(
    what: Collection,
    ns: Option<String>,
    node: NodeAssumption,
    state: UseReducerDispatcher<Watch>,
    alive: Rc<dyn Fn() -> bool>,
    signal: web_sys::AbortSignal,
) {
    let path = what.path(ns.as_deref());
    let pods = what == Collection::Pods;
    let mut retry = RETRY_FIRST_MS;
    let mut from: Option<String> = None;
    let mut nodes_started = false;
    let failed = |why: String| {
        if pods {
            Msg::Phase(Phase::Retrying(why))
        } else {
            Msg::Say(format!("{why}; trying again shortly"))
        }
    };
    while alive() {
        if from.is_none() {
            if pods {
                state.dispatch(Msg::Phase(Phase::Listing));
            }
            match list(&path, node.version, &signal).await {
                Ok((reads, rv)) => {
                    if !alive() {
                        return;
                    }
                    if pods {
                        let mut live = Live::new(node.clone());
                        let now = clock_ms();
                        for r in reads {
                            if let Read::Change(c) = r {
                                live.apply(c, now);
                            }
                        }
                        state.dispatch(Msg::Listed(Box::new(live)));
                    } else {
                        state.dispatch(Msg::Reads(reads));
                    }
                    from = rv;
                    retry = RETRY_FIRST_MS;
                    if pods && !nodes_started {
                        nodes_started = true;
                        yew::platform::spawn_local(read_once(
                            state.clone(),
                            alive.clone(),
                            signal.clone(),
                        ));
                        yew::platform::spawn_local(follow(
                            Collection::Nodes,
                            None,
                            node.clone(),
                            state.clone(),
                            alive.clone(),
                            signal.clone(),
                        ));
                    }
                }
                Err((403 | 404, e)) if !pods => {
                    if alive() {
                        state.dispatch(Msg::Say(format!(
                            "the nodes could not be listed ({e}): each pod is diagnosed on the kubelet chosen above; a node's kubelet needs get, list and watch on nodes"
                        )));
                    }
                    return;
                }
                Err((_, e)) => {
                    if !alive() {
                        return;
                    }
                    state.dispatch(failed(format!("listing the {} failed: {e}", what.name())));
                    TimeoutFuture::new(retry).await;
                    retry = (retry * 2).min(RETRY_MAX_MS);
                    continue;
                }
            }
        }
        let url = format!(
            "{path}?watch=1&allowWatchBookmarks=true&resourceVersion={}",
            from.as_deref().unwrap_or("0")
        );
        let mut reader = WatchReader::new(node.version);
        let outcome = match get(&url, &signal).await {
            Ok(r) => {
                if pods {
                    state.dispatch(Msg::Phase(Phase::Watching));
                }
                stream(r, &mut reader, &state, &*alive)
                    .await
                    .map(|()| reader.expired)
            }
            // The HTTP status itself, where a server answers so.
            Err((GONE, _)) => Ok(true),
            Err((_, e)) => Err(e),
        };
        if !alive() {
            return;
        }
        match outcome {
            // 410 Gone: the version is too old to resume from; list again.
            Ok(true) => from = None,
            // The server ended the watch (its timeout): resume from the newest.
            Ok(false) => {
                from = reader.resource_version.clone().or(from);
                retry = RETRY_FIRST_MS;
            }
            Err(e) => {
                from = reader.resource_version.clone().or(from);
                state.dispatch(failed(format!("the {} watch failed: {e}", what.name())));
                TimeoutFuture::new(retry).await;
                retry = (retry * 2).min(RETRY_MAX_MS);
            }
        }
    }
}

/// Starts the /configz reads the nodes want (`ConfigzQueue`: once a
/// version, a few at a time); each answer goes into the set as a change,
/// which asks again.
fn read_configs(
    queue: &Rc<RefCell<ConfigzQueue>>,
    live: &Live,
    state: &UseReducerDispatcher<Watch>,
    signal: &web_sys::AbortSignal,
) {
    let start = queue.borrow_mut().ask(live.kubelets());
    for (name, version) in start {
        let (queue, state, signal) = (queue.clone(), state.clone(), signal.clone());
        yew::platform::spawn_local(async move {
            let got = configz(&name, &signal).await;
            queue.borrow_mut().came();
            let read = crate::formats::kubelet_config::from_configz(
                &name,
                got.as_deref().map_err(Clone::clone),
            );
            if !signal.aborted() {
                state.dispatch(Msg::Reads(vec![Read::Change(Change::NodeConfig {
                    name,
                    kubelet_version: version,
                    read,
                })]));
            }
        });
    }
}

#[function_component]
pub fn LivePanel(p: &LivePanelProps) -> Html {
    let state = use_reducer(|| Watch {
        phase: Phase::Probing,
        live: None,
        messages: vec![],
        api_servers: None,
        levels: None,
        version: 0,
    });
    let ns_text = use_state(String::new);
    // The namespace watched: the field's text when "Watch" was pressed.
    let watched = use_state(|| None::<String>);
    // The pod shown in full, by its key (UID).
    let selected = use_state(|| None::<String>);
    let tick = use_state(clock_ms);
    let Assumed {
        node,
        choice: assume_choice,
        refused,
        ..
    } = use_assumed("live-assume", p.version, &p.config);
    // The current watch's signal and its /configz reads, both new with it.
    let configs = use_mut_ref(|| None::<(web_sys::AbortSignal, Rc<RefCell<ConfigzQueue>>)>);
    {
        let dispatcher = state.dispatcher();
        let key = (
            (*watched).clone(),
            node.as_ref().ok().map(|n| n.label.clone()),
        );
        let (node, configs) = (node.clone(), configs.clone());
        use_effect_with(key, move |(ns, _)| {
            let generation = Rc::new(Cell::new(true));
            let controller = web_sys::AbortController::new().ok();
            if let (Ok(node), Some(c)) = (node, &controller) {
                let flag = generation.clone();
                let alive: Rc<dyn Fn() -> bool> = Rc::new(move || flag.get());
                *configs.borrow_mut() = Some((c.signal(), Rc::default()));
                yew::platform::spawn_local(run(ns.clone(), node, dispatcher, alive, c.signal()));
            }
            move || {
                generation.set(false);
                if let Some(c) = controller {
                    c.abort();
                }
            }
        });
    }
    {
        // Each change may bring nodes whose /configz is to be read.
        let (live, dispatcher, configs) = (state.live.clone(), state.dispatcher(), configs.clone());
        use_effect_with(state.version, move |_| {
            if let (Some(l), Some((signal, reads))) = (live, &*configs.borrow()) {
                read_configs(reads, &l.borrow(), &dispatcher, signal);
            }
        });
    }
    {
        let tick = tick.clone();
        use_effect_with((), move |_| {
            let timer = Interval::new(TICK_MS, move || tick.set(clock_ms()));
            move || drop(timer)
        });
    }
    let clock = clock_ms().max(*tick);
    let ns_error = namespace(&ns_text).err();
    let on_watch = {
        let (ns_text, watched) = (ns_text.clone(), watched.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Ok(ns) = namespace(&ns_text) {
                watched.set(ns);
            }
        })
    };
    // What the crash loops send the API server: worked out on a change, not
    // on each second's tick.
    let loads = use_mut_ref(LoadCache::default);
    let load = {
        let live = state.live.clone();
        let api = ApiServer {
            replicas: state.api_servers.unwrap_or(p.api.replicas),
            levels: state.levels.clone(),
            ..p.api.clone()
        };
        use_memo((state.version, api), move |(_, api)| {
            live.map(|l| load_now(&l.borrow(), api, &mut loads.borrow_mut()))
        })
    };
    // Ranked once a render (each second, for the countdowns).
    let live = state.live.as_ref().map(|l| l.borrow());
    let pods = live.as_ref().map(|l| l.pods()).unwrap_or_default();
    let status = match &state.phase {
        Phase::Probing => "Looking for a Kubernetes API at this page's origin…".to_owned(),
        Phase::NoApi(_) => String::new(),
        Phase::Listing => "Listing the pods…".to_owned(),
        Phase::Retrying(why) => {
            format!("{why}; trying again shortly (the list below is the last one seen)")
        }
        Phase::Watching => format!(
            "Watching {} through this page's API: {} crash-looping of {} pods, at {}",
            watched
                .as_deref()
                .map_or("all namespaces".to_owned(), |n| format!("namespace {n}")),
            pods.len(),
            live.as_ref().map_or(0, |l| l.watched()),
            readable(clock - clock % 1000)
        ),
    };
    let no_api = match &state.phase {
        Phase::NoApi(why) => Some(html! {
            <div id="live-no-api">
                <p>{ format!("No Kubernetes API answers at this page's origin ({why}). Serve the built app beside your cluster's API, with your own kubeconfig, and open it there:") }</p>
                <pre><code id="live-command">{ PROXY_COMMAND }</code></pre>
                <p class="hint">{"then open "}<code>{"http://127.0.0.1:8001/ui/#live"}</code>{". The page asks the API only through that proxy, at its own origin; nothing leaves your machine."}</p>
            </div>
        }),
        _ => None,
    };
    // A set kept while the watch is down is the last one seen, said so.
    let stale = !matches!(state.phase, Phase::Watching);
    let rows = live.as_ref().map(|l| {
        let body = pods.iter().flat_map(|p| {
            let steps = steps_of(l.assumption_of(p));
            let d = &p.diagnosis;
            let name = format!("{}/{}", d.namespace, d.pod);
            let pick = {
                let (selected, key) = (selected.clone(), p.key.clone());
                Callback::from(move |_: MouseEvent| selected.set(Some(key.clone())))
            };
            let current = selected.as_deref() == Some(p.key.as_str());
            let or_dash = |s: Option<String>| s.unwrap_or_else(|| "—".into());
            d.containers
                .iter()
                .filter(|c| c.looping())
                .map(move |c| html! {
                    <tr data-pod={name.clone()} aria-current={current.then_some("true")}>
                        <td><button type="button" class="link" onclick={pick.clone()} title="Show this pod's diagnosis">{ name.clone() }</button></td>
                        <td>{ c.name.clone() }</td>
                        <td class="live-state">{ c.state.clone() }</td>
                        <td class="live-restarts">{ or_dash(c.restart_count.map(|n| n.to_string())) }</td>
                        <td>{ or_dash(step_words(c, steps)) }</td>
                        <td>{ or_dash(c.backoff_ms.map(format_human_ms)) }</td>
                        <td class="live-countdown">{ or_dash(c.next_restart_at.map(|_| countdown_in(c, clock, format_span_ms))) }</td>
                        <td>{ or_dash(exit_short(c)) }</td>
                    </tr>
                })
                .collect::<Vec<_>>()
        });
        html! {
            <div class="table-scroll" tabindex="0">
                <table id="live-pods" class={classes!(stale.then_some("stale"))}>
                    <caption>{ if stale {
                        format!("{} crash-looping pods when the watch was last up: not live now", pods.len())
                    } else {
                        format!("{} crash-looping pods, soonest restart first: click one for its diagnosis", pods.len())
                    } }</caption>
                    <thead><tr><th>{"pod"}</th><th>{"container"}</th><th>{"state"}</th><th>{"restarts"}</th><th>{"step"}</th><th>{"back-off"}</th><th>{"next restart"}</th><th>{"last exit"}</th></tr></thead>
                    <tbody>{ for body }</tbody>
                </table>
            </div>
        }
    });
    let nodes = live.as_ref().filter(|l| !l.kubelets().is_empty()).map(|l| {
        let verdicts = l.nodes();
        let or_dash = |s: Option<String>| s.unwrap_or_else(|| "—".into());
        let rows = verdicts.iter().map(|v| {
            let k = v.kubelet;
            let j = v.judgement;
            let seen = j.filter(|j| !j.observed_ms.is_empty()).map(|j| {
                let waits: Vec<String> = j.observed_ms.iter().map(|&ms| format_human_ms(ms)).collect();
                units_kept(&waits.join(", "))
            });
            let rate = load
                .as_ref()
                .as_ref()
                .and_then(|l| l.nodes.iter().find(|n| n.node == k.name))
                .map(|n| format!("{:.2}", n.requests_per_second));
            let verdict = match j.map(|j| j.agrees) {
                Some(Some(true)) => Some("agrees"),
                Some(Some(false)) => Some("disagrees"),
                Some(None) => Some("too few seen"),
                None => None,
            };
            html! {
                <tr data-node={k.name.clone()}>
                    <td>{ k.name.clone() }</td>
                    <td class={classes!("live-verdict", (j.and_then(|j| j.agrees) == Some(false)).then_some("error"))}>{ or_dash(verdict.map(str::to_owned)) }</td>
                    <td>{ k.reported.clone() }</td>
                    <td title={k.config_from.why().map(str::to_owned)}>{ k.config_from.name() }</td>
                    <td>{ v.looping_pods }</td>
                    <td>{ or_dash(seen) }</td>
                    <td>{ or_dash(rate) }</td>
                </tr>
            }
        });
        // What each node's facts are where not its /configz, and what a
        // disagreement fits instead.
        let said = verdicts.iter().flat_map(|v| {
            let facts = v.kubelet.config_from.why().map(|_| v.kubelet.facts(l.node()));
            let differs = v
                .judgement
                .filter(|j| j.agrees == Some(false))
                .map(|j| format!("{}: {}", v.kubelet.name, j.note));
            facts.into_iter().chain(differs)
        });
        html! {
            <>
                <div class="table-scroll" tabindex="0">
                    <table id="live-nodes">
                        <caption>{ format!("{} nodes: each pod diagnosed on its own node's kubelet, and whether the restarts seen follow its curve", verdicts.len()) }</caption>
                        <thead><tr><th>{"node"}</th><th>{"verdict"}</th><th>{"kubelet"}</th><th>{"curve from"}</th><th>{"looping pods"}</th><th>{"back-offs seen"}</th><th>{"requests/s"}</th></tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
                <ul class="notes" id="live-node-notes">{ for said.map(|m| html! { <li>{ m }</li> }) }</ul>
            </>
        }
    });
    let chosen = live.as_ref().and_then(|l| {
        let key = selected.as_deref()?;
        let p = pods.iter().find(|p| p.key == key)?;
        let d = &p.diagnosis;
        Some(html! {
            <div id="live-diagnosis">
                <h3>{ format!("{}/{}", d.namespace, d.pod) }<small>{" diagnosed at "}{ instant(p.at) }{ format!(" on {}", l.facts(p)) }</small></h3>
                if !d.notes.is_empty() {
                    <ul class="notes">{ for d.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                }
                if !p.curves.is_empty() {
                    <p class="hint">{"The back-offs this watch has seen, against the curve assumed:"}</p>
                    <ul class="notes" id="live-curves">{ for p.curves.iter().map(|(name, j)| html! { <li><code>{ name.clone() }</code>{ format!(": {}", j.note) }</li> }) }</ul>
                }
                { for d.containers.iter().enumerate().map(|(i, c)| container_view("live", i, c, clock, false, None, true)) }
            </div>
        })
    });
    html! {
        <>
            <p class="hint">{"Where this page is served beside a cluster's API ("}<code>{ PROXY_COMMAND }</code>{"), the crash-looping pods of a namespace or of all, as the API reports them: each diagnosed when it changes, its next restart counting down."}</p>
            <form class="row" onsubmit={on_watch}>
                <TextField id="live-namespace" label={html! {"namespace (empty: all)"}} value={(*ns_text).clone()} placeholder="e.g. shop"
                    oninput={{ let n = ns_text.clone(); Callback::from(move |v: String| n.set(v)) }} error={ns_error.clone().map(AttrValue::from)} />
                { assume_choice }
                <button type="submit" id="live-watch" disabled={ns_error.is_some()}>{"Watch"}</button>
            </form>
            if let Some(e) = &refused {
                <p class="error" role="alert">{ e.clone() }</p>
            }
            <p id="live-status" role="status">{ status }</p>
            { for no_api }
            if !state.messages.is_empty() {
                <ul class="notes" id="live-messages">{ for state.messages.iter().map(|m| html! { <li>{ m.clone() }</li> }) }</ul>
            }
            { for rows }
            if let Some(l) = load.as_ref().as_ref().filter(|l| !l.nodes.is_empty()) {
                <p class="hint" id="live-load">{ load_words(l) }{ api_servers_from(state.api_servers) }{ l.api.levels.as_deref().map(|l| format!(" {}.", shares_words(l))).unwrap_or_default() }</p>
            }
            { for chosen }
            { for nodes }
        </>
    }
}
