//! `Times::below_rising` against the plain count (`count_below`) over many
//! seeded stored-and-periodic lists and rising bounds: the same loop natively
//! (tests/properties.rs) and in each browser's wasm engine (tests/browser.rs),
//! long enough for their optimising tiers to compile the walk.

use crashloop_explorer::engine::rng::{Rng, SplitMix64};
use crashloop_explorer::engine::Times;

/// A small value most of the time, now and then a large one.
fn pick(rng: &mut SplitMix64, small: u64, large: u64) -> u64 {
    if rng.next_u64() % 8 == 0 {
        rng.next_u64() % large.max(1)
    } else {
        rng.next_u64() % small.max(1)
    }
}

/// Checks `lists` seeded lists; returns how many bounds were compared. On a
/// difference, panics with the list, the bound and both counts.
pub fn below_matches_the_plain_count(seed: u64, lists: usize) -> u64 {
    let mut rng = SplitMix64::new(seed);
    let mut compared = 0;
    for list in 0..lists {
        let mut head = vec![];
        let mut t = pick(&mut rng, 50_000, 1 << 40);
        for _ in 0..(rng.next_u64() % 40) {
            head.push(t);
            t += pick(&mut rng, 30_000, 1 << 36);
        }
        let stored = head.clone();
        let mut times = Times::from(head);
        let first = t + pick(&mut rng, 20_000, 1 << 30);
        let step = pick(&mut rng, 12_000, 1 << 32);
        let count = pick(&mut rng, 5_000, 1 << 31) as usize;
        times.repeat(first, step, count);
        let mut below = times.below_rising();
        // Window-like bounds (a fixed rise), then ragged ones.
        let mut x = rng.next_u64() % 30_000;
        let rise = pick(&mut rng, 10_000, 1 << 33).max(1);
        let mut previous = 0;
        for i in 0..400 {
            x = x.saturating_add(if i < 200 {
                rise
            } else {
                pick(&mut rng, 40_000, 1 << 34)
            });
            let (fast, plain) = (below.below(x), times.count_below(x));
            assert!(
                fast == plain && fast >= previous,
                "list {list} (seed {seed}), stored {stored:?}, then {count} from {first} every {step}: below({x}) = {fast}, the plain count {plain}, the bound before {previous}"
            );
            previous = fast;
            compared += 1;
        }
    }
    compared
}
