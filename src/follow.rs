//! `pods --follow`: a watch read from standard input as it comes (a thread
//! reads, the main loop applies and draws), the crash loops drawn in place
//! in a terminal with their countdowns ticking each second, or one line of
//! JSON per change. The stream ending, or Ctrl-C, ends it with exit 0 and
//! the last state shown: kubectl's own watch ends for good when the server
//! closes it (kubectl pkg/cmd/get/get.go, `watch`, through client-go's
//! `UntilWithoutRetry`), with exit 0.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

use crashloop_explorer::engine::live::Live;
use crashloop_explorer::formats::pod::watch::{watch_table, JsonLines, Read, WatchReader};

use crate::cli::Node;

/// What the reading thread and Ctrl-C tell the main loop.
enum Input {
    Line(String),
    End(Option<String>),
    Interrupt,
}

/// Documents that come together (kubectl prints a list's pods at once) are
/// shown together: a change waits this long for more, at most `BURST`.
const SETTLE: Duration = Duration::from_millis(25);
const BURST: Duration = Duration::from_millis(500);
/// A terminal's countdowns tick once a second.
const TICK: Duration = Duration::from_secs(1);
/// The stream's complaints a terminal keeps below its table.
const KEPT_MESSAGES: usize = 5;
/// Clears a terminal and puts the cursor at its top left.
const REDRAW: &str = "\x1b[H\x1b[2J";

pub fn run(node: &Node, json: bool) -> ExitCode {
    if node.now.is_some() {
        eprintln!("--now: a watch is diagnosed as it comes, at the clock's time; --now is for `pods` without --follow");
        return ExitCode::from(2);
    }
    let assumed = match crate::node_assumed(node) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut reader = WatchReader::new(assumed.version);
    let mut live = Live::new(assumed);
    let (tx, rx) = channel();
    let interrupt = tx.clone();
    // Ctrl-C reaches kubectl too: both stop, and this shows what it had.
    if let Err(e) = ctrlc::set_handler(move || {
        let _ = interrupt.send(Input::Interrupt);
    }) {
        eprintln!("Ctrl-C will end the command without showing the last state: {e}");
    }
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        loop {
            let mut line = String::new();
            match stdin.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {
                    if tx.send(Input::Line(line)).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    let _ = tx.send(Input::End(Some(format!("reading standard input: {e}"))));
                    return;
                }
            }
        }
        let _ = tx.send(Input::End(None));
    });

    let terminal = !json && std::io::stdout().is_terminal();
    let mut out = Output {
        json,
        terminal,
        printed: false,
        messages: vec![],
        lines: JsonLines::default(),
    };
    let mut ended = false;
    while !ended {
        let first = if terminal {
            match rx.recv_timeout(TICK) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => {
                    if out.draw(&live).is_err() {
                        return ExitCode::SUCCESS;
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
                Input::Line(line) => {
                    let reads = reader.push(&line);
                    changed |= apply(&mut live, reads, &mut out);
                }
                Input::End(problem) => {
                    let reads = reader.finish();
                    changed |= apply(&mut live, reads, &mut out);
                    if let Some(p) = problem {
                        out.say(p);
                    }
                    ended = true;
                }
                Input::Interrupt => ended = true,
            }
            if !ended && start.elapsed() < BURST {
                next = rx.recv_timeout(SETTLE).ok();
            }
        }
        let show = changed || (ended && !out.printed) || (terminal && ended);
        if show && out.draw(&live).is_err() {
            return ExitCode::SUCCESS;
        }
    }
    ExitCode::SUCCESS
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
        let text = if self.json {
            format!("{}\n", self.lines.line(live, now))
        } else {
            let mut t = watch_table(live, now);
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
