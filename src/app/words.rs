//! Text in a narrow column: Kubernetes' long names
//! (`ReduceDefaultCrashLoopBackOffDecay`, `maxContainerRestartPeriod`) break
//! between the words they are made of, never inside one, and a figure
//! stays with its unit ("43 s").

use yew::prelude::*;

/// Where a line may break in `text`: before each capital that follows a
/// lower-case letter or a digit (the start of a word in a camel-case name).
pub fn break_points(text: &str) -> Vec<usize> {
    let mut points = vec![];
    let mut previous: Option<char> = None;
    for (i, c) in text.char_indices() {
        if c.is_uppercase() && previous.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()) {
            points.push(i);
        }
        previous = Some(c);
    }
    points
}

/// `text` with a word break (`<wbr>`) at each of its `break_points`.
pub fn breakable(text: &str) -> Html {
    let mut start = 0;
    let mut parts = vec![];
    for at in break_points(text) {
        parts.push(html! { <>{ text[start..at].to_owned() }<wbr/></> });
        start = at;
    }
    parts.push(html! { { text[start..].to_owned() } });
    parts.into_iter().collect()
}

/// `text` with each space after a digit made a no-break space, so that a
/// line never breaks between a figure and its unit.
pub fn units_kept(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut previous: Option<char> = None;
    for c in text.chars() {
        out.push(
            if c == ' ' && previous.is_some_and(|p| p.is_ascii_digit()) {
                '\u{a0}'
            } else {
                c
            },
        );
        previous = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_break_between_their_words() {
        let text =
            "1 s / 1 min: ReduceDefaultCrashLoopBackOffDecay and maxContainerRestartPeriod 60s";
        let words: Vec<&str> = {
            let mut from = 0;
            let mut w: Vec<&str> = break_points(text)
                .into_iter()
                .map(|at| {
                    let part = &text[from..at];
                    from = at;
                    part
                })
                .collect();
            w.push(&text[from..]);
            w
        };
        assert_eq!(
            words,
            [
                "1 s / 1 min: Reduce",
                "Default",
                "Crash",
                "Loop",
                "Back",
                "Off",
                "Decay and max",
                "Container",
                "Restart",
                "Period 60s"
            ]
        );
        // Capitals in a row (`KEP`, `API`) stay together.
        assert!(break_points("KEP-4603's API").is_empty());
    }

    #[test]
    fn a_figure_stays_with_its_unit() {
        assert_eq!(units_kept("in 1 min 43 s"), "in 1\u{a0}min 43\u{a0}s");
        assert_eq!(units_kept("due 41 s ago"), "due 41\u{a0}s ago");
    }
}
