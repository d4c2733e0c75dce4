//! Prints the KEP claims audit: `cargo run --example audit`.
fn main() {
    for c in crashloop_explorer::engine::audit::audit() {
        println!(
            "{:<42} {:<9?} KEP: {:<26} explorer: {}",
            c.id, c.verdict, c.kep_value, c.recomputed
        );
    }
}
