//! A float64 written as Rust's `{}` writes it (and Go's `%v` reads the same
//! digits): the shortest decimal that reads back as the same float, in plain
//! notation. Ours, so that the wasm does not carry core's float writer (its
//! Grisu and Dragon strategies and their tables of powers, about 9 KB) for
//! the kubelet's refusals alone. Slow next to core's, and only ever used on
//! an error's text. Held to `format!("{v}")` by a property test over
//! arbitrary floats (tests/properties.rs).
//!
//! The method is Steele and White's free-format printing with Burger and
//! Dybvig's scaling ("Printing Floating-Point Numbers Quickly and
//! Accurately", 1996): the float and the half-gaps to its neighbours as
//! exact big integers over a common scale, digits generated until the
//! number so far is within the gap, where reading it back would round to
//! this float.

use std::cmp::Ordering;

/// An unsigned integer of any size, little-endian 32-bit limbs.
#[derive(Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow2(&mut self, bits: u32) {
        for _ in 0..bits / 32 {
            self.0.insert(0, 0);
        }
        let shift = bits % 32;
        if shift > 0 {
            self.mul_small(1 << shift);
        }
        self.trim();
    }

    fn mul_pow10(&mut self, n: u32) {
        for _ in 0..n {
            self.mul_small(10);
        }
    }

    fn add(&self, other: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len().max(other.0.len()) + 1);
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            let v = u64::from(*self.0.get(i).unwrap_or(&0))
                + u64::from(*other.0.get(i).unwrap_or(&0))
                + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    /// `self - other`; `other` is never the larger.
    fn sub_assign(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let v = i64::from(self.0[i]) - i64::from(*other.0.get(i).unwrap_or(&0)) - borrow;
            borrow = i64::from(v < 0);
            self.0[i] = v.rem_euclid(1 << 32) as u32;
        }
        self.trim();
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

/// The shortest digits of a finite `v > 0` and the power of ten after them:
/// `v` reads as 0.d1d2…dn × 10^k.
fn shortest(v: f64) -> (Vec<u8>, i32) {
    const HIDDEN: u64 = 1 << 52;
    const MIN_EXP: i32 = -1074;
    let bits = v.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & (HIDDEN - 1);
    // v = f × 2^e, f an integer.
    let (f, e) = if biased == 0 {
        (fraction, MIN_EXP)
    } else {
        (fraction | HIDDEN, biased - 1075)
    };
    // A float that reads back from any decimal in its gap, ends included
    // where its mantissa is even (round half to even).
    let even = f % 2 == 0;
    // The gap below a power of two is half the gap above it.
    let unequal = f == HIDDEN && e > MIN_EXP;
    // v = r / s, the half-gaps m_plus / s and m_minus / s.
    let (mut r, mut s, mut m_plus, mut m_minus);
    if e >= 0 {
        let mut be = Big::from_u64(1);
        be.mul_pow2(e as u32);
        r = Big::from_u64(f);
        r.mul_pow2(e as u32 + if unequal { 2 } else { 1 });
        s = Big::from_u64(if unequal { 4 } else { 2 });
        m_minus = be.clone();
        m_plus = be;
        if unequal {
            m_plus.mul_small(2);
        }
    } else {
        r = Big::from_u64(f);
        r.mul_pow2(if unequal { 2 } else { 1 });
        s = Big::from_u64(1);
        s.mul_pow2((-e) as u32 + if unequal { 2 } else { 1 });
        m_plus = Big::from_u64(if unequal { 2 } else { 1 });
        m_minus = Big::from_u64(1);
    }
    // k: the first power of ten above v's gap. An estimate from the binary
    // exponent (log10 2 ≈ 0.30103), put right below.
    let top = e + 64 - f.leading_zeros() as i32;
    let mut k = ((f64::from(top) * std::f64::consts::LOG10_2).ceil()) as i32;
    if k >= 0 {
        s.mul_pow10(k as u32);
    } else {
        for b in [&mut r, &mut m_plus, &mut m_minus] {
            b.mul_pow10((-k) as u32);
        }
    }
    let above = |r: &Big, m_plus: &Big, s: &Big| match r.add(m_plus).cmp(s) {
        Ordering::Greater => true,
        Ordering::Equal => even,
        Ordering::Less => false,
    };
    while above(&r, &m_plus, &s) {
        s.mul_small(10);
        k += 1;
    }
    loop {
        let mut s_tenth_check = r.add(&m_plus);
        s_tenth_check.mul_small(10);
        let below = match s_tenth_check.cmp(&s) {
            Ordering::Less => true,
            Ordering::Equal => !even,
            Ordering::Greater => false,
        };
        if !below {
            break;
        }
        for b in [&mut r, &mut m_plus, &mut m_minus] {
            b.mul_small(10);
        }
        k -= 1;
    }
    let mut digits = Vec::new();
    loop {
        for b in [&mut r, &mut m_plus, &mut m_minus] {
            b.mul_small(10);
        }
        let mut d = 0u8;
        while r.cmp(&s) != Ordering::Less {
            r.sub_assign(&s);
            d += 1;
        }
        let low = match r.cmp(&m_minus) {
            Ordering::Less => true,
            Ordering::Equal => even,
            Ordering::Greater => false,
        };
        let high = above(&r, &m_plus, &s);
        if !low && !high {
            digits.push(d);
            continue;
        }
        // Both ends in reach: the nearer, up on a tie (as core's Dragon).
        let mut twice = r.clone();
        twice.mul_small(2);
        let up = high && (!low || twice.cmp(&s) != Ordering::Less);
        digits.push(if up { d + 1 } else { d });
        break;
    }
    (digits, k)
}

/// `v` as Rust's `{}` writes it: shortest digits, plain notation ("0.5",
/// "300.06289400000003", "1e21" as "1000000000000000000000"), "inf" and
/// "NaN" for the others, as `format!` does.
pub fn plain(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v.is_infinite() {
        return format!("{sign}inf");
    }
    if v == 0.0 {
        return format!("{sign}0");
    }
    let (digits, k) = shortest(v.abs());
    let text: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    let n = text.len() as i32;
    let body = if k <= 0 {
        format!("0.{}{text}", "0".repeat((-k) as usize))
    } else if k >= n {
        format!("{text}{}", "0".repeat((k - n) as usize))
    } else {
        let (int, frac) = text.split_at(k as usize);
        format!("{int}.{frac}")
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn writes_what_rust_writes() {
        for v in [
            1.0,
            0.5,
            301.0,
            300.06289400000003,
            0.1 + 0.2,
            1e21,
            1e-7,
            123456.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            -2.5,
            9007199254740993.0,
            2f64.powi(60),
            -0.0,
        ] {
            assert_eq!(plain(v), format!("{v}"), "{v:e}");
        }
        assert_eq!(plain(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(plain(f64::NAN), "NaN");
        assert_eq!(plain(f64::NEG_INFINITY), "-inf");
    }
}
