//! Wall-clock times as kubectl prints them: RFC 3339 in `-o yaml/json`
//! (`2026-11-20T10:02:43Z`, with or without fractions or an offset) and
//! RFC 1123 with a numeric zone in `kubectl describe` (`Fri, 20 Nov 2026
//! 10:02:43 +0000`). Times are milliseconds since the Unix epoch, UTC.

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn num(s: &str) -> Option<u32> {
    (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// Milliseconds since the epoch of a date and time of day, if they exist.
fn epoch_ms(y: i64, mo: u32, d: u32, h: u32, mi: u32, s: u32, ms: u32) -> Option<i64> {
    let valid = (1..=12).contains(&mo)
        && (1..=days_in_month(y, mo)).contains(&d)
        && h < 24
        && mi < 60
        && s < 61;
    valid.then(|| {
        ((days_from_civil(y, mo, d) * 24 + i64::from(h)) * 60 + i64::from(mi)) * 60_000
            + i64::from(s.min(59)) * 1_000
            + i64::from(ms)
    })
}

/// `+01:00`, `-0700`, `Z` as minutes east of UTC.
fn zone_minutes(z: &str) -> Option<i64> {
    if z == "Z" || z == "z" {
        return Some(0);
    }
    let (sign, rest) = match z.as_bytes().first()? {
        b'+' => (1, &z[1..]),
        b'-' => (-1, &z[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if digits.len() != 4 {
        return None;
    }
    let (h, m) = (num(&digits[..2])?, num(&digits[2..])?);
    (h < 24 && m < 60).then_some(sign * i64::from(h * 60 + m))
}

/// Reads an RFC 3339 time (`2026-11-20T10:02:43Z`, `…43.5+01:00`).
pub fn parse_rfc3339(s: &str) -> Result<i64, String> {
    let bad = || {
        format!(
            "{} is not an RFC 3339 time such as 2026-11-20T10:02:43Z",
            crate::engine::field::quoted(s)
        )
    };
    let s = s.trim();
    if !s.is_ascii() || s.len() < 20 || s.len() > 40 {
        return Err(bad());
    }
    let b = s.as_bytes();
    if b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't' | b' ')
        || b[13] != b':'
        || b[16] != b':'
    {
        return Err(bad());
    }
    let y = num(&s[..4]).ok_or_else(bad)?;
    let (mo, d) = (
        num(&s[5..7]).ok_or_else(bad)?,
        num(&s[8..10]).ok_or_else(bad)?,
    );
    let (h, mi, sec) = (
        num(&s[11..13]).ok_or_else(bad)?,
        num(&s[14..16]).ok_or_else(bad)?,
        num(&s[17..19]).ok_or_else(bad)?,
    );
    let mut rest = &s[19..];
    let mut ms = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits = frac.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(bad());
        }
        let first3: String = frac[..digits].chars().chain("00".chars()).take(3).collect();
        ms = num(&first3).ok_or_else(bad)?;
        rest = &frac[digits..];
    }
    let zone = zone_minutes(rest).ok_or_else(bad)?;
    let t = epoch_ms(i64::from(y), mo, d, h, mi, sec, ms).ok_or_else(bad)?;
    Ok(t - zone * 60_000)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Reads `kubectl describe`'s times: `Fri, 20 Nov 2026 10:02:43 +0000`.
pub fn parse_rfc1123z(s: &str) -> Result<i64, String> {
    let bad = || {
        format!(
            "{} is not a time such as Fri, 20 Nov 2026 10:02:43 +0000",
            crate::engine::field::quoted(s)
        )
    };
    let s = s.trim();
    let rest = s.split_once(", ").map_or(s, |(_, r)| r);
    let parts: Vec<&str> = rest.split_whitespace().collect();
    let [d, mon, y, hms, zone] = parts.as_slice() else {
        return Err(bad());
    };
    let mo = MONTHS.iter().position(|m| m == mon).ok_or_else(bad)? as u32 + 1;
    let hms: Vec<&str> = hms.split(':').collect();
    let [h, mi, sec] = hms.as_slice() else {
        return Err(bad());
    };
    let t = epoch_ms(
        i64::from(num(y).ok_or_else(bad)?),
        mo,
        num(d).ok_or_else(bad)?,
        num(h).ok_or_else(bad)?,
        num(mi).ok_or_else(bad)?,
        num(sec).ok_or_else(bad)?,
        0,
    )
    .ok_or_else(bad)?;
    Ok(t - zone_minutes(zone).ok_or_else(bad)? * 60_000)
}

/// An RFC 3339 time in UTC, to the second: `2026-11-20T10:02:43Z`.
pub fn format_rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1_000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
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
