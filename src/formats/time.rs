//! Wall-clock times as kubectl prints them: RFC 3339 in `-o yaml/json`
//! (`2026-11-20T10:02:43Z`, with or without fractions or an offset) and
//! RFC 1123 with a numeric zone in `kubectl describe` (`Fri, 20 Nov 2026
//! 10:02:43 +0000`). Times are milliseconds since the Unix epoch, UTC.
//! The `time` crate reads and writes them; this module words the errors.

use time::format_description::well_known::{Rfc2822, Rfc3339};
use time::OffsetDateTime;

fn epoch_ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}

/// A time in `format`, or a message quoting the text beside `example`.
fn parse_as(
    s: &str,
    format: &(impl time::parsing::Parsable + ?Sized),
    example: &str,
) -> Result<i64, String> {
    OffsetDateTime::parse(s.trim(), format)
        .map(epoch_ms)
        .map_err(|_| format!("{} is not {example}", crate::engine::field::quoted(s)))
}

/// Reads an RFC 3339 time (`2026-11-20T10:02:43Z`, `…43.5+01:00`).
pub fn parse_rfc3339(s: &str) -> Result<i64, String> {
    parse_as(s, &Rfc3339, "an RFC 3339 time such as 2026-11-20T10:02:43Z")
}

/// Reads `kubectl describe`'s times: `Fri, 20 Nov 2026 10:02:43 +0000`
/// (Go's RFC 1123 with a numeric zone, which RFC 2822 reads).
pub fn parse_rfc1123z(s: &str) -> Result<i64, String> {
    parse_as(
        s,
        &Rfc2822,
        "a time such as Fri, 20 Nov 2026 10:02:43 +0000",
    )
}

/// An RFC 3339 time in UTC, to the second: `2026-11-20T10:02:43Z`.
pub fn format_rfc3339(ms: i64) -> String {
    const FORMAT: &[time::format_description::BorrowedFormatItem<'_>] =
        time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms.div_euclid(1_000)) * 1_000_000_000)
        .ok()
        .and_then(|t| t.format(FORMAT).ok())
        .unwrap_or_else(|| format!("{ms} ms since 1970"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_zones() {
        // 2026-11-20T10:02:43Z: day 20 777 after the epoch, 36 163 s into it.
        let t = parse_rfc3339("2026-11-20T10:02:43Z").unwrap();
        assert_eq!(t, 1_795_168_963_000);
        assert_eq!(format_rfc3339(t), "2026-11-20T10:02:43Z");
        assert_eq!(parse_rfc3339("2026-11-20T11:02:43+01:00"), Ok(t));
        assert_eq!(parse_rfc3339("2026-11-20T10:02:43.250Z"), Ok(t + 250));
        assert_eq!(parse_rfc1123z("Fri, 20 Nov 2026 10:02:43 +0000"), Ok(t));
        assert_eq!(parse_rfc1123z("Fri, 20 Nov 2026 05:02:43 -0500"), Ok(t));
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(
            parse_rfc3339("2024-02-29T00:00:00Z").map(format_rfc3339),
            Ok("2024-02-29T00:00:00Z".into())
        );
    }

    #[test]
    fn refuses_what_is_not_a_time() {
        for bad in [
            "",
            "now",
            "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-11-20 10:02",
            "2026-11-20T10:02:43",
            "2026-11-20T25:00:00Z",
            "２０２６-11-20T10:02:43Z",
        ] {
            assert!(parse_rfc3339(bad).is_err(), "{bad}");
        }
        assert!(parse_rfc1123z("Fri, 20 Foo 2026 10:02:43 +0000").is_err());
    }
}
