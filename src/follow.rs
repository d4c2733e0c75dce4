//! `pods --follow`: a watch read from standard input as it comes (a thread
//! reads, the main loop applies and draws), the crash loops drawn in place
//! in a terminal with their countdowns ticking each second, or one line of
//! JSON per change. The stream ending, or Ctrl-C, ends it with exit 0 and
//! the last state shown: kubectl's own watch ends for good when the server
//! closes it (kubectl pkg/cmd/get/get.go, `watch`, through client-go's
//! `UntilWithoutRetry`), with exit 0.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crashloop_explorer::engine::apf::ApiServer;
use crashloop_explorer::engine::apf::LevelShares;
use crashloop_explorer::engine::live::{Change, Live};
use crashloop_explorer::engine::load_now::{load_now, LoadCache, LoadNow};
use crashloop_explorer::engine::pod::NodeAssumption;
use crashloop_explorer::formats::endpoints::not_counted_words;
use crashloop_explorer::formats::flowcontrol::not_read_words;
use crashloop_explorer::formats::kubelet_config::from_configz;
use crashloop_explorer::formats::pod::watch::{
    watch_table, JsonLines, Read, ReplicasFrom, WatchLoad, WatchReader,
};

use crate::cli::Node;
use crate::watch::Configz;

/// Which stream a line comes from: the pods' watch (whose end ends the
/// command) or the nodes'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Pods,
    Nodes,
}

/// What the reading threads, the /configz reads and Ctrl-C tell the main
/// loop.
pub enum Input {
    Line(Stream, String),
    End(Stream, Option<String>),
    /// A line kubectl wrote on its standard error.
    Said(Stream, String),
    /// What a node's /configz gave, asked at its kubelet's version.
    Configz {
        name: String,
        version: String,
        read: Result<String, String>,
    },
    /// The API servers the cluster's `kubernetes` Endpoints lists, or why
    /// they could not be counted.
    ApiServers(Result<u32, String>),
    /// The cluster's priority levels, or why they could not be read.
    Levels(Result<Vec<LevelShares>, String>),
    Interrupt,
}

/// Documents that come together (kubectl prints a list's pods at once) are
/// shown together: a change waits this long for more, at most `BURST`.
const SETTLE: Duration = Duration::from_millis(25);
const BURST: Duration = Duration::from_millis(500);
/// How long kubectl's last words are waited for once its watch ended.
const DRAIN: Duration = Duration::from_millis(200);
/// A terminal's countdowns tick once a second.
const TICK: Duration = Duration::from_secs(1);
/// The stream's complaints a terminal keeps below its table.
const KEPT_MESSAGES: usize = 5;
/// Clears a terminal and puts the cursor at its top left.
const REDRAW: &str = "\x1b[H\x1b[2J";

/// `pods --follow`: the watch on standard input.
pub fn run(node: &Node, json: bool, api_server: Option<&str>) -> ExitCode {
    let watching = match Watching::of(node, json, api_server) {
        Ok(w) => w,
        Err(code) => return code,
    };
    let (tx, rx) = channel();
    lines(std::io::stdin(), Stream::Pods, "standard input", tx.clone());
    follow(watching, (tx, rx), None).code
}

/// What a watch is shown on: the kubelet a pod of an unknown node is
/// assumed to run, JSON lines or a table, the API servers the load is set
/// against and where their count came from.
pub struct Watching {
    pub assumed: NodeAssumption,
    pub json: bool,
    pub api: ApiServer,
    pub replicas_from: ReplicasFrom,
}

impl Watching {
    /// From the command line; a wrong option said, exit code 2.
    pub fn of(node: &Node, json: bool, api_server: Option<&str>) -> Result<Self, ExitCode> {
        let assumed = assumed(node)?;
        let api = crate::api_server_arg(api_server).map_err(|e| {
            eprintln!("{e}");
            ExitCode::from(2)
        })?;
        // The user's count wins over the cluster's: API servers behind one
        // load balancer's address are listed once.
        let given = api_server
            .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
            .is_some_and(|v| v.get("replicas").is_some());
        Ok(Watching {
            assumed,
            json,
            api,
            replicas_from: if given {
                ReplicasFrom::Given
            } else {
                ReplicasFrom::Default
            },
        })
    }
}

/// How a watch ended.
pub struct Ended {
    pub code: ExitCode,
    /// The pods' stream ended by itself (not Ctrl-C, not our output gone).
    pub pods_ended: bool,
    /// It carried a document (a kubectl that failed at once carried none).
    pub pods_read: bool,
}

/// The node the options describe, for a watch (`--now` refused).
fn assumed(node: &Node) -> Result<NodeAssumption, ExitCode> {
    if node.now.is_some() {
        eprintln!("--now: a watch is diagnosed as it comes, at the clock's time; --now is for `pods` without --follow");
        return Err(ExitCode::from(2));
    }
    crate::node_assumed(node).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

/// Sends `from`'s lines as `stream`'s, on a thread, then its end.
pub fn lines(
    from: impl std::io::Read + Send + 'static,
    stream: Stream,
    what: &'static str,
    tx: Sender<Input>,
) {
    std::thread::spawn(move || {
        let mut from = std::io::BufReader::new(from);
        loop {
            let mut line = String::new();
            match from.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {
                    if tx.send(Input::Line(stream, line)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Input::End(stream, Some(format!("reading {what}: {e}"))));
                    return;
                }
            }
        }
        let _ = tx.send(Input::End(stream, None));
    });
}

/// The watch until its pods' stream ends or Ctrl-C; `configz` reads the
/// nodes' configurations where the nodes are watched too.
pub fn follow(
    Watching {
        assumed,
        json,
        api,
        replicas_from,
    }: Watching,
    (tx, rx): (Sender<Input>, Receiver<Input>),
    mut configz: Option<&mut Configz>,
) -> Ended {
    let mut reader = WatchReader::new(assumed.version);
    let mut nodes = WatchReader::new(assumed.version);
    let mut live = Live::new(assumed);
    let interrupt = tx.clone();
    drop(tx);
    // Ctrl-C reaches kubectl too: both stop, and this shows what it had.
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = interrupt.send(Input::Interrupt);
    }) {
        eprintln!("Ctrl-C will end the command without showing the last state: {e}");
    }

    let terminal = !json && std::io::stdout().is_terminal();
    let mut out = Output {
        json,
        terminal,
        printed: false,
        messages: vec![],
        lines: JsonLines::default(),
        loads: LoadCache::default(),
        load: None,
        api,
        replicas_from,
    };
    let mut ended = false;
    let mut pods_ended = false;
    let gone = |reader: &WatchReader| Ended {
        code: ExitCode::SUCCESS,
        pods_ended: false,
        pods_read: reader.documents() > 0,
    };
    while !ended {
        let first = if terminal {
            match rx.recv_timeout(TICK) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => {
                    if out.draw(&live).is_err() {
                        return gone(&reader);
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(m) => m,
                Err(_) => break,
            }
        };
        let start = Instant::now();
        let mut changed = false;
        let mut next = Some(first);
        while let Some(input) = next.take() {
            match input {
                Input::Line(Stream::Pods, line) => {
                    let reads = reader.push(&line);
                    changed |= apply(&mut live, reads, &mut out);
                }
                Input::Line(Stream::Nodes, line) => {
                    let reads = nodes.push(&line);
                    changed |= apply(&mut live, reads, &mut out);
                }
                Input::End(Stream::Pods, problem) => {
                    let reads = reader.finish();
                    changed |= apply(&mut live, reads, &mut out);
                    if let Some(p) = problem {
                        out.say(p);
                    }
                    ended = true;
                    pods_ended = true;
                }
                Input::End(Stream::Nodes, problem) => {
                    let reads = nodes.finish();
                    changed |= apply(&mut live, reads, &mut out);
                    out.say(problem.unwrap_or_else(|| {
                        "the nodes' watch ended: the nodes stay as last seen".to_owned()
                    }));
                }
                Input::Said(stream, line) => out.say(said(stream, &line)),
                Input::Configz {
                    name,
                    version,
                    read,
                } => {
                    if let Some(c) = configz.as_deref_mut() {
                        c.came();
                    }
                    let change = Change::NodeConfig {
                        read: from_configz(&name, read.as_deref().map_err(Clone::clone)),
                        name,
                        kubelet_version: version,
                    };
                    changed |= live.apply(change, crate::clock());
                }
                Input::ApiServers(Ok(n)) => {
                    out.api.replicas = n;
                    out.replicas_from = ReplicasFrom::Endpoints;
                    changed = true;
                }
                Input::ApiServers(Err(e)) => out.say(not_counted_words(
                    &e,
                    &format!(
                        "{} replicas by default (--api-server sets them)",
                        out.api.replicas
                    ),
                )),
                Input::Levels(Ok(levels)) => {
                    out.api.levels = Some(levels);
                    changed = true;
                }
                Input::Levels(Err(e)) => out.say(not_read_words(&e)),
                Input::Interrupt => ended = true,
            }
            if let Some(c) = configz.as_deref_mut() {
                c.ask(&live);
            }
            if !ended && start.elapsed() < BURST {
                next = rx.recv_timeout(SETTLE).ok();
            }
        }
        if changed {
            out.load = None;
        }
        let show = changed || (ended && !out.printed) || (terminal && ended);
        if show && out.draw(&live).is_err() {
            return gone(&reader);
        }
    }
    // What kubectl said as it ended may come just after its output's end.
    let until = Instant::now() + DRAIN;
    while let Ok(m) = rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
        if let Input::Said(stream, line) = m {
            out.say(said(stream, &line));
        }
    }
    Ended {
        code: ExitCode::SUCCESS,
        pods_ended,
        pods_read: reader.documents() > 0,
    }
}

/// A line kubectl wrote on its standard error, said with whose it was.
fn said(stream: Stream, line: &str) -> String {
    match stream {
        Stream::Pods => format!("kubectl (pods): {line}"),
        Stream::Nodes => format!("kubectl (nodes): {line}"),
    }
}

/// Applies what was read; whether the crash loops listed changed.
fn apply(live: &mut Live, reads: Vec<Read>, out: &mut Output) -> bool {
    let now = crate::clock();
    let mut changed = false;
    for r in reads {
        match r {
            Read::Change(c) => changed |= live.apply(c, now),
            Read::Skipped(why) => out.say(why),
            Read::Ended(status) => out.say(format!(
                "the watch ended with an error: {status}; kubectl's watch stops there (run it again to list the pods afresh)"
            )),
        }
    }
    changed
}

struct Output {
    json: bool,
    terminal: bool,
    printed: bool,
    messages: Vec<String>,
    lines: JsonLines,
    /// The crash loops' load, worked out once per node workload.
    loads: LoadCache,
    /// The load of the crash loops as they are, until they change (the
    /// countdowns' ticks do not move it).
    load: Option<LoadNow>,
    api: ApiServer,
    replicas_from: ReplicasFrom,
}

impl Output {
    /// A line on standard error; a terminal also keeps it below the table,
    /// which a redraw would otherwise wipe.
    fn say(&mut self, message: String) {
        eprintln!("{message}");
        if self.terminal {
            if self.messages.len() == KEPT_MESSAGES {
                self.messages.remove(0);
            }
            self.messages.push(message);
        }
    }

    fn draw(&mut self, live: &Live) -> std::io::Result<()> {
        let now = crate::clock();
        let load = WatchLoad {
            now: self
                .load
                .get_or_insert_with(|| load_now(live, &self.api, &mut self.loads)),
            replicas_from: self.replicas_from,
        };
        let text = if self.json {
            format!("{}\n", self.lines.line(live, now, Some(load)))
        } else {
            let mut t = watch_table(live, now, Some(load));
            if self.terminal {
                t.insert_str(0, REDRAW);
                for m in &self.messages {
                    t.push_str(&format!("! {m}\n"));
                }
            } else if self.printed {
                t.insert(0, '\n');
            }
            t
        };
        self.printed = true;
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()
    }
}
