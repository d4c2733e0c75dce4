fn main() {
    afl::fuzz!(|data: &[u8]| {
        if let Ok(text) = std::str::from_utf8(data) {
            crashloop_explorer_fuzz::kubelet_config(text);
        }
    });
}
