//! Go's `time.ParseDuration` and `Duration.String`, so the explorer accepts and
//! prints durations exactly as a KubeletConfiguration does. Our own: no
//! crate reads and writes Go's durations with Go's own errors and rounding.

use crate::engine::field::quoted;
use std::fmt;

/// Nanoseconds, as Go's `time.Duration`.
pub type Nanos = i64;

pub const NANOS_PER_MS: i64 = 1_000_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DurationError(pub String);

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DurationError {}

fn invalid(orig: &str) -> DurationError {
    DurationError(format!("time: invalid duration {}", quoted(orig)))
}

const UNITS: [(&str, u64); 8] = [
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000), // U+00B5
    ("μs", 1_000), // U+03BC
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Leading decimal digits as an integer; `None` on overflow past 2^63.
fn leading_int(s: &str) -> Option<(u64, &str)> {
    let end = s.bytes().take_while(u8::is_ascii_digit).count();
    let mut x: u64 = 0;
    for b in s[..end].bytes() {
        x = x.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
        if x > 1 << 63 {
            return None;
        }
    }
    Some((x, &s[end..]))
}

/// Fraction digits as `(value, scale)`; digits past overflow are dropped, as Go does.
fn leading_fraction(s: &str) -> (u64, f64, &str) {
    let end = s.bytes().take_while(u8::is_ascii_digit).count();
    let (mut x, mut scale, mut overflow) = (0u64, 1f64, false);
    for b in s[..end].bytes() {
        if overflow {
            continue;
        }
        match x
            .checked_mul(10)
            .and_then(|y| y.checked_add(u64::from(b - b'0')))
        {
            Some(y) if y <= 1 << 63 => {
                x = y;
                scale *= 10.0;
            }
            _ => overflow = true,
        }
    }
    (x, scale, &s[end..])
}

/// Parses a duration the way Go's `time.ParseDuration` does ("4s", "1m30s",
/// "1.5h", "-2s", "0"), with Go's own error messages.
pub fn parse_go_duration(orig: &str) -> Result<Nanos, DurationError> {
    let mut s = orig;
    let mut neg = false;
    if let Some(rest) = s.strip_prefix('-') {
        neg = true;
        s = rest;
    } else if let Some(rest) = s.strip_prefix('+') {
        s = rest;
    }
    if s == "0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid(orig));
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s.starts_with('.') || s.as_bytes()[0].is_ascii_digit()) {
            return Err(invalid(orig));
        }
        let before = s.len();
        let (v, rest) = leading_int(s).ok_or_else(|| invalid(orig))?;
        let pre = rest.len() != before;
        s = rest;
        let (mut frac, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let before = rest.len();
            let (f, sc, rest) = leading_fraction(rest);
            frac = f;
            scale = sc;
            post = rest.len() != before;
            s = rest;
        }
        if !pre && !post {
            return Err(invalid(orig));
        }
        let unit_len = s
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(s.len(), |(i, _)| i);
        if unit_len == 0 {
            return Err(DurationError(format!(
                "time: missing unit in duration {}",
                quoted(orig)
            )));
        }
        let unit = &s[..unit_len];
        s = &s[unit_len..];
        let Some(&(_, per)) = UNITS.iter().find(|(name, _)| *name == unit) else {
            return Err(DurationError(format!(
                "time: unknown unit {} in duration {}",
                quoted(unit),
                quoted(orig)
            )));
        };
        let mut v = v.checked_mul(per).ok_or_else(|| invalid(orig))?;
        if v > 1 << 63 {
            return Err(invalid(orig));
        }
        if frac > 0 {
            v = v
                .checked_add((frac as f64 * (per as f64 / scale)) as u64)
                .ok_or_else(|| invalid(orig))?;
            if v > 1 << 63 {
                return Err(invalid(orig));
            }
        }
        total = total.checked_add(v).ok_or_else(|| invalid(orig))?;
        if total > 1 << 63 {
            return Err(invalid(orig));
        }
    }
    if neg {
        return Ok((total as i128).wrapping_neg() as i64);
    }
    if total > i64::MAX as u64 {
        return Err(invalid(orig));
    }
    Ok(total as i64)
}

/// Go's `Duration.String()` for a whole number of milliseconds: "1m30s",
/// "1.5s", "250ms", "0s".
pub fn format_go_duration_ms(ms: u64) -> String {
    if ms == 0 {
        return "0s".to_owned();
    }
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let (h, rem) = (ms / 3_600_000, ms % 3_600_000);
    let (m, rem) = (rem / 60_000, rem % 60_000);
    let (s, frac) = (rem / 1000, rem % 1000);
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if h > 0 || m > 0 {
        out.push_str(&format!("{m}m"));
    }
    out.push_str(&s.to_string());
    if frac > 0 {
        let digits = format!("{frac:03}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out.push('s');
    out
}

/// A duration for people: the largest unit that keeps it short ("5 min",
/// "1.5 s", "250 ms", "2 h 30 min").
pub fn format_human_ms(ms: u64) -> String {
    if ms < 1000 {
        return format!("{ms} ms");
    }
    if ms < 60_000 {
        return format!("{} s", with_fraction(ms / 1000, ms % 1000, 3));
    }
    if ms < 3_600_000 {
        let (m, s) = (ms / 60_000, (ms % 60_000) / 1000);
        return if s == 0 {
            format!("{m} min")
        } else {
            format!("{m} min {s} s")
        };
    }
    let (h, m) = (ms / 3_600_000, (ms % 3_600_000) / 60_000);
    if m == 0 {
        format!("{h} h")
    } else {
        format!("{h} h {m} min")
    }
}

/// A span of wall-clock time for people, in whole seconds (a pod's times
/// are whole seconds): "42 s", "3 min 5 s", "2 h 10 min", "3 days 4 h",
/// "7 years 256 days" (years of 365 days).
pub fn format_span_ms(ms: u64) -> String {
    const MIN: u64 = 60;
    const HOUR: u64 = 60 * MIN;
    const DAY: u64 = 24 * HOUR;
    const YEAR: u64 = 365 * DAY;
    let s = ms / 1000;
    let plural = |n: u64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    let pair = |big: String, small: u64, unit: &str| {
        if small == 0 {
            big
        } else {
            format!("{big} {small} {unit}")
        }
    };
    if s < MIN {
        format!("{s} s")
    } else if s < HOUR {
        pair(format!("{} min", s / MIN), s % MIN, "s")
    } else if s < DAY {
        pair(format!("{} h", s / HOUR), s % HOUR / MIN, "min")
    } else if s < YEAR {
        pair(plural(s / DAY, "day"), s % DAY / HOUR, "h")
    } else {
        let days = s % YEAR / DAY;
        let years = plural(s / YEAR, "year");
        if days == 0 {
            years
        } else {
            format!("{years} {}", plural(days, "day"))
        }
    }
}

/// Go's `Duration.Seconds()`: whole seconds and the nanoseconds left, each
/// made a float64 and summed, not the nanoseconds divided by 1e9 in one
/// step; the two differ in the last digit for some durations finer than a
/// millisecond ("300.062894s" is 300.06289400000003 seconds, not
/// 300.062894), and the kubelet prints this one with `%v` (golang/go
/// src/time/time.go; kubernetes pkg/kubelet/apis/config/validation/validation.go).
pub fn go_seconds(ns: i64) -> f64 {
    // Go's integer division and remainder truncate toward zero, as Rust's.
    (ns / 1_000_000_000) as f64 + (ns % 1_000_000_000) as f64 / 1e9
}

/// `v` to at most `places` decimals (at most 9), halves away from zero,
/// trailing zeros dropped: "13.2", "0.12", "300". For the canvas's CSS
/// (font sizes, alpha) and the charts' tick labels, in integers: core's
/// float writer is not in the wasm (`float`). Magnitudes past
/// 2^64 / 10^places are clamped.
pub fn rounded(v: f64, places: u32) -> String {
    let places = places.min(9);
    let scale = 10u64.pow(places);
    let scaled = (v.abs() * scale as f64).round() as u64;
    let sign = if v < 0.0 && scaled != 0 { "-" } else { "" };
    format!(
        "{sign}{}",
        with_fraction(scaled / scale, scaled % scale, places)
    )
}

/// `rounded`, its whole part grouped by thousands as `format_count` groups
/// a count: what a person reads (6,500 /s; 1,200,000.5), never a value a
/// machine reads back (a link, a stylesheet).
pub fn grouped(v: f64, places: u32) -> String {
    let plain = rounded(v, places);
    let (sign, digits) = plain
        .strip_prefix('-')
        .map_or(("", plain.as_str()), |d| ("-", d));
    let (whole, fraction) = digits
        .split_once('.')
        .map_or((digits, None), |(w, f)| (w, Some(f)));
    let whole = whole
        .parse::<i64>()
        .map_or_else(|_| whole.to_owned(), format_count);
    match fraction {
        Some(f) => format!("{sign}{whole}.{f}"),
        None => format!("{sign}{whole}"),
    }
}

/// `ms` as seconds to the millisecond, the whole seconds grouped as
/// `format_count` groups a count: "12.832", "1,440.000". One precision down
/// a data table's column of times or waits, where `format_human_ms` would
/// mix "12.832 s" with "1 min 39 s".
pub fn format_seconds_ms(ms: u64) -> String {
    format!("{}.{:03}", format_count((ms / 1000) as i64), ms % 1000)
}

/// A count with its thousands grouped by commas, as a person reads it:
/// "12,980", "-1,024". Core's formatting has no grouping, and one separator
/// is all the explorer prints (num-format would bring its locale tables).
pub fn format_count(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `int` and a fraction of `places` digits, its trailing zeros (and a bare
/// point) dropped: (1, 500, 3) is "1.5", (12, 0, 3) "12".
fn with_fraction(int: u64, frac: u64, places: u32) -> String {
    if frac == 0 {
        return int.to_string();
    }
    let digits = format!("{frac:0width$}", width = places as usize);
    format!("{int}.{}", digits.trim_end_matches('0'))
}

/// Go's `%v` of a float64 (shortest `%g`; exponent form below 1e-4 and from 1e6,
/// as strconv decides), used where the kubelet prints `Duration.Seconds()`.
pub fn format_go_float(v: f64) -> String {
    if v == 0.0 {
        return "0".to_owned();
    }
    if !v.is_finite() {
        return if v.is_nan() {
            "NaN".into()
        } else if v > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let (mantissa, exp) = scientific(v);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{:02}", exp.abs());
    }
    format!("{v}")
}

/// A finite, nonzero float's shortest round-tripping digits (Go's strconv
/// finds the same) in scientific form: the mantissa as Rust's `{:e}` writes
/// it ("3.5", "-1") and the power of ten.
pub fn scientific(v: f64) -> (String, i32) {
    let sci = format!("{v:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    (mantissa.to_owned(), exp.parse().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_group_thousands() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1_000), "1,000");
        assert_eq!(format_count(12_980), "12,980");
        assert_eq!(format_count(646_580), "646,580");
        assert_eq!(format_count(-1_024), "-1,024");
        assert_eq!(format_count(i64::MIN), "-9,223,372,036,854,775,808");
    }

    // Seconds to the millisecond, always three places: a column of them
    // reads at one precision (12.832 s beside 1 min 39 s before).
    #[test]
    fn seconds_keep_three_places() {
        assert_eq!(format_seconds_ms(0), "0.000");
        assert_eq!(format_seconds_ms(200), "0.200");
        assert_eq!(format_seconds_ms(12_832), "12.832");
        assert_eq!(format_seconds_ms(99_000), "99.000");
        assert_eq!(format_seconds_ms(1_440_000), "1,440.000");
    }

    #[test]
    fn spans_are_whole_seconds_up_to_years() {
        assert_eq!(format_span_ms(999), "0 s");
        assert_eq!(format_span_ms(30_013), "30 s");
        assert_eq!(format_span_ms(109_000), "1 min 49 s");
        assert_eq!(format_span_ms(120_000), "2 min");
        assert_eq!(format_span_ms(3_600_000 + 29 * 60_000), "1 h 29 min");
        assert_eq!(format_span_ms(86_400_000), "1 day");
        assert_eq!(format_span_ms(2 * 86_400_000 + 3_600_000), "2 days 1 h");
        // 67464 h 29 min: 2811 days = 7 × 365 + 256, and 0 h.
        assert_eq!(
            format_span_ms((67_464 * 60 + 29) * 60_000),
            "7 years 256 days"
        );
        assert_eq!(format_span_ms(365 * 86_400_000), "1 year");
        assert_eq!(format_span_ms(u64::MAX).split(' ').nth(1), Some("years"));
    }

    #[test]
    fn seconds_are_written_in_integers_as_they_were_with_floats() {
        // Every millisecond count this branch sees, against `{:.3}` of the
        // float with its trailing zeros dropped, as it was written before.
        for ms in 1_000..60_000u64 {
            let old = format!("{:.3}", ms as f64 / 1000.0);
            let old = old.trim_end_matches('0').trim_end_matches('.');
            assert_eq!(format_human_ms(ms), format!("{old} s"));
        }
        assert_eq!(format_human_ms(1_500), "1.5 s");
        assert_eq!(format_human_ms(12_000), "12 s");
    }

    #[test]
    fn rounds_to_places() {
        assert_eq!(rounded(13.200000286102295, 3), "13.2");
        assert_eq!(rounded(0.12, 3), "0.12");
        assert_eq!(rounded(1.0, 3), "1");
        assert_eq!(rounded(0.0, 2), "0");
        assert_eq!(rounded(-0.001, 2), "0");
        assert_eq!(rounded(-2.5, 1), "-2.5");
        assert_eq!(rounded(0.125, 2), "0.13", "halves away from zero");
        assert_eq!(rounded(299.999, 2), "300");
        assert_eq!(grouped(6_500.0, 1), "6,500");
        assert_eq!(grouped(1_200_000.46, 1), "1,200,000.5");
        assert_eq!(grouped(-12_345.0, 0), "-12,345");
        assert_eq!(grouped(999.96, 1), "1,000");
        assert_eq!(grouped(0.25, 2), "0.25");
    }

    #[test]
    fn parses_like_go() {
        assert_eq!(parse_go_duration("4s"), Ok(4_000_000_000));
        assert_eq!(parse_go_duration("1m30s"), Ok(90_000_000_000));
        assert_eq!(parse_go_duration("1.5s"), Ok(1_500_000_000));
        assert_eq!(parse_go_duration(".5s"), Ok(500_000_000));
        assert_eq!(parse_go_duration("5.s"), Ok(5_000_000_000));
        assert_eq!(parse_go_duration("300000ms"), Ok(300_000_000_000));
        assert_eq!(parse_go_duration("1h"), Ok(3_600_000_000_000));
        assert_eq!(parse_go_duration("2µs"), Ok(2_000));
        assert_eq!(parse_go_duration("-2s"), Ok(-2_000_000_000));
        assert_eq!(parse_go_duration("+2s"), Ok(2_000_000_000));
        assert_eq!(parse_go_duration("0"), Ok(0));
        assert_eq!(parse_go_duration("0s"), Ok(0));
        assert_eq!(
            parse_go_duration("9223372036854775807ns"),
            Ok(9_223_372_036_854_775_807)
        );
        assert_eq!(parse_go_duration("-9223372036854775808ns"), Ok(i64::MIN));
    }

    #[test]
    fn errors_like_go() {
        let e = |s: &str| parse_go_duration(s).unwrap_err().0;
        assert_eq!(e(""), r#"time: invalid duration """#);
        assert_eq!(e("4"), r#"time: missing unit in duration "4""#);
        assert_eq!(e("4x"), r#"time: unknown unit "x" in duration "4x""#);
        assert_eq!(e("s"), r#"time: invalid duration "s""#);
        assert_eq!(e("."), r#"time: invalid duration ".""#);
        assert_eq!(e("1s "), r#"time: unknown unit "s " in duration "1s ""#);
        assert_eq!(e("-"), r#"time: invalid duration "-""#);
        assert_eq!(
            e("9223372036854775808ns"),
            r#"time: invalid duration "9223372036854775808ns""#
        );
        assert_eq!(
            e("99999999999999999999h"),
            r#"time: invalid duration "99999999999999999999h""#
        );
        assert_eq!(e("1\"s"), r#"time: unknown unit "\"s" in duration "1\"s""#);
    }

    #[test]
    fn formats_like_go() {
        assert_eq!(format_go_duration_ms(0), "0s");
        assert_eq!(format_go_duration_ms(250), "250ms");
        assert_eq!(format_go_duration_ms(1500), "1.5s");
        assert_eq!(format_go_duration_ms(90_000), "1m30s");
        assert_eq!(format_go_duration_ms(300_000), "5m0s");
        assert_eq!(format_go_duration_ms(3_600_000), "1h0m0s");
        assert_eq!(format_go_float(301.0), "301");
        assert_eq!(format_go_float(0.5), "0.5");
        assert_eq!(format_go_float(-1.0), "-1");
        assert_eq!(format_go_float(1e6), "1e+06");
        assert_eq!(format_go_float(123456.0), "123456");
        assert_eq!(format_go_float(0.00001), "1e-05");
        assert_eq!(format_go_float(0.0001), "0.0001");
        assert_eq!(format_go_float(-0.00001), "-1e-05");
        assert_eq!(format_go_float(1.5e21), "1.5e+21");
        assert_eq!(format_go_float(300.06289400000003), "300.06289400000003");
    }

    #[test]
    fn formats_for_people() {
        assert_eq!(format_human_ms(25), "25 ms");
        assert_eq!(format_human_ms(1500), "1.5 s");
        assert_eq!(format_human_ms(60_000), "1 min");
        assert_eq!(format_human_ms(90_000), "1 min 30 s");
        assert_eq!(format_human_ms(86_400_000), "24 h");
    }
}
