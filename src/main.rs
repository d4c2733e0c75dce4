//! Trunk's entry point: mounts the app. Natively, resolves a scenario given as
//! JSON on standard input and prints the exploration as JSON.

#[cfg(target_arch = "wasm32")]
fn main() {
    crashloop_explorer::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use crashloop_explorer::engine::{explore, Scenario};
    use std::io::Read;

    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("reading standard input: {e}");
        return std::process::ExitCode::FAILURE;
    }
    let input = if input.trim().is_empty() {
        "{}"
    } else {
        &input
    };
    match serde_json::from_str::<Scenario>(input) {
        Ok(s) => match serde_json::to_string_pretty(&explore(&s)) {
            Ok(json) => {
                println!("{json}");
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("invalid scenario: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
