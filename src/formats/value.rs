//! The value a pasted manifest or pod is read into: JSON's data model (what
//! the YAML reader produces, and what `kubectl -o json` prints), with its own
//! small JSON reader and writer and serde both ways (`from_value`,
//! `to_value`). serde_json stays for the command line and the tests; the wasm
//! has only this. Object keys keep the order they were written in (a
//! struct's fields in declaration order, as serde_json writes a struct).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use serde::de::value::Error;
use serde::de::{self, IntoDeserializer as _};
use serde::ser::{self, Serialize};

/// Nesting deeper than this is refused (serde_json's own limit), so a hostile
/// paste cannot overflow the stack.
const MAX_DEPTH: usize = 128;

#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// A JSON number: an integer when it is one and fits, else a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Number::Int(i) => write!(f, "{i}"),
            // Written so that it reads back as a float: `1.0`, `1e21`.
            Number::Float(x) if x.fract() == 0.0 && x.abs() < 1e16 => write!(f, "{x:.1}"),
            Number::Float(x) if x != 0.0 && (x.abs() >= 1e16 || x.abs() < 1e-5) => {
                let (mantissa, exp) = crate::engine::duration::scientific(x);
                write!(f, "{mantissa}e{exp}")
            }
            Number::Float(x) => write!(f, "{x}"),
        }
    }
}

/// An object: keys in the order written; a key written again replaces the
/// value in place (as JSON readers keep the last). Keys are found through an
/// index, so a pasted object of 100,000 keys reads in linear-log time, not
/// quadratic.
#[derive(Debug, Clone, Default)]
pub struct Map {
    entries: Vec<(String, Value)>,
    index: BTreeMap<String, usize>,
}

/// Equal when the same keys hold the same values, in the same order.
impl PartialEq for Map {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl Map {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.index.get(&key) {
            Some(&i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            None => {
                self.index.insert(key.clone(), self.entries.len());
                self.entries.push((key, value));
                None
            }
        }
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.index.get(key).map(|&i| &self.entries[i].1)
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn iter(&self) -> <&Self as IntoIterator>::IntoIter {
        self.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (String, Value)>,
        fn(&'a (String, Value)) -> (&'a String, &'a Value),
    >;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl Value {
    /// An object's field.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.get(key),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(Number::Int(i)) => Some(*i),
            _ => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        self.as_i64().and_then(|i| u64::try_from(i).ok())
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Number(Number::Int(i))
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_owned())
    }
}

// ---- JSON text ----

/// Compact JSON, as `serde_json::to_string` writes it.
/// A decimal number as JSON and YAML's plain scalars write it (`-1.5e3`,
/// `.5`, `5.`, `+2E-3`), rounded to the nearest `f64` as Rust's
/// `str::parse` rounds it; `None` for anything else (`inf`, `nan`, `0x10`,
/// `1_000`, blanks). The grammar is `f64::from_str`'s without its words.
///
/// In the wasm the browser's own number reader rounds it: on this grammar
/// JavaScript's `parseFloat` and Rust read the same value (both round the
/// exact decimal to the nearest double), and std's reader would bring its
/// table of 128-bit powers of five (10 KB gzip) into the second wasm.
pub fn decimal(text: &str) -> Option<f64> {
    if !is_decimal(text.as_bytes()) {
        return None;
    }
    #[cfg(target_arch = "wasm32")]
    return Some(js_sys::parse_float(text));
    #[cfg(not(target_arch = "wasm32"))]
    text.parse().ok()
}

/// `[+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)?`
fn is_decimal(b: &[u8]) -> bool {
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    let sign = |i: &mut usize| {
        if matches!(b.get(*i), Some(b'+' | b'-')) {
            *i += 1;
        }
    };
    let mut i = 0;
    sign(&mut i);
    let whole = digits(&mut i);
    let fraction = b.get(i) == Some(&b'.') && {
        i += 1;
        digits(&mut i)
    };
    if !whole && !fraction {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        sign(&mut i);
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("null"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => write!(f, "{n}"),
            Value::String(s) => f.write_str(&json_string(s)),
            Value::Array(items) => {
                f.write_char('[')?;
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_char(']')
            }
            Value::Object(m) => {
                f.write_char('{')?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_char(',')?;
                    }
                    write!(f, "{}:{v}", json_string(k))?;
                }
                f.write_char('}')
            }
        }
    }
}

/// A string as a JSON literal: quotes, backslashes and control characters
/// escaped (those without a short form as `\u00XX`), everything else as is.
pub fn json_string(s: &str) -> String {
    crate::engine::field::quote_with(s, |c, out| {
        if (c as u32) < 0x20 {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    })
}

/// Reads JSON text (RFC 8259: one value, whitespace around it). Errors say
/// where, as serde_json's do: `expected value at line 1 column 9`.
pub fn from_json(text: &str) -> Result<Value, String> {
    let mut r = JsonReader {
        s: text.as_bytes(),
        i: 0,
    };
    let v = r.value(0)?;
    r.ws();
    if r.i < r.s.len() {
        return Err(r.error("trailing characters"));
    }
    Ok(v)
}

struct JsonReader<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonReader<'_> {
    fn error(&self, what: &str) -> String {
        let before = &self.s[..self.i.min(self.s.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
        format!("{what} at line {line} column {column}")
    }

    fn ws(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, word: &str, v: Value) -> Result<Value, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.error("expected value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.ws();
        match self.s.get(self.i) {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'n') => self.eat("null", Value::Null),
            Some(b't') => self.eat("true", Value::Bool(true)),
            Some(b'f') => self.eat("false", Value::Bool(false)),
            Some(b'"') => self.string().map(Value::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[') => {
                self.i += 1;
                let mut items = vec![];
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Value::Array(items));
                        }
                        None => return Err(self.error("EOF while parsing a list")),
                        _ => return Err(self.error("expected `,` or `]`")),
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut map = Map::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Value::Object(map));
                }
                loop {
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b'"') => {}
                        None => return Err(self.error("EOF while parsing an object")),
                        _ => return Err(self.error("key must be a string")),
                    }
                    let key = self.string()?;
                    self.ws();
                    if self.s.get(self.i) != Some(&b':') {
                        return Err(self.error("expected `:`"));
                    }
                    self.i += 1;
                    let v = self.value(depth + 1)?;
                    map.insert(key, v);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Value::Object(map));
                        }
                        None => return Err(self.error("EOF while parsing an object")),
                        _ => return Err(self.error("expected `,` or `}`")),
                    }
                }
            }
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        if self.s[self.i] == b'-' {
            self.i += 1;
        }
        let int_start = self.i;
        if self.digits() == 0 {
            return Err(self.error("invalid number"));
        }
        if self.s[int_start] == b'0' && self.i - int_start > 1 {
            self.i = int_start + 1;
            return Err(self.error("invalid number"));
        }
        let mut integer = true;
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            integer = false;
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if matches!(self.s.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            integer = false;
            if matches!(self.s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("invalid number"));
            }
        }
        // The bytes are ASCII digits and signs, so this slice is a str.
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        // `-0` stays a float (-0.0), as serde_json reads it.
        if integer && text != "-0" {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Number(Number::Int(i)));
            }
        }
        match decimal(text) {
            Some(x) if x.is_finite() => Ok(Value::Number(Number::Float(x))),
            _ => Err(self.error("number out of range")),
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.s.get(self.i..self.i + 4).unwrap_or(&[]);
        let text = std::str::from_utf8(digits).unwrap_or("");
        match u32::from_str_radix(text, 16) {
            Ok(n) if text.len() == 4 && text.bytes().all(|b| b.is_ascii_hexdigit()) => {
                self.i += 4;
                Ok(n)
            }
            _ => Err(self.error("invalid escape")),
        }
    }

    /// A string literal, the reader on its opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.s.get(self.i) else {
                return Err(self.error("EOF while parsing a string"));
            };
            match b {
                b'"' => {
                    self.i += 1;
                    // The input was a str and escapes add whole characters.
                    return String::from_utf8(out).map_err(|_| self.error("invalid unicode"));
                }
                b'\\' => {
                    self.i += 1;
                    let Some(&e) = self.s.get(self.i) else {
                        return Err(self.error("EOF while parsing a string"));
                    };
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if !self.s[self.i..].starts_with(b"\\u") {
                                    return Err(self.error("lone leading surrogate in hex escape"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error("lone leading surrogate in hex escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| {
                                self.error("lone trailing surrogate in hex escape")
                            })?
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.error("invalid escape"));
                        }
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => {
                    return Err(self
                        .error("control character (\\u0000-\\u001F) found while parsing a string"))
                }
                _ => {
                    out.push(b);
                    self.i += 1;
                }
            }
        }
    }
}

// ---- serde: a Value read into a type ----

/// A type read from a value, with serde's messages (`invalid type: string
/// "x", expected u32`, `unknown field `x``), as serde_json's `from_value`.
pub fn from_value<T: de::DeserializeOwned>(v: Value) -> Result<T, Error> {
    T::deserialize(v)
}

impl Value {
    fn unexpected(&self) -> de::Unexpected<'_> {
        match self {
            Value::Null => de::Unexpected::Unit,
            Value::Bool(b) => de::Unexpected::Bool(*b),
            Value::Number(Number::Int(i)) => de::Unexpected::Signed(*i),
            Value::Number(Number::Float(x)) => de::Unexpected::Float(*x),
            Value::String(s) => de::Unexpected::Str(s),
            Value::Array(_) => de::Unexpected::Seq,
            Value::Object(_) => de::Unexpected::Map,
        }
    }
}

impl<'de> de::Deserializer<'de> for Value {
    type Error = Error;

    fn deserialize_any<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            // Non-negative integers as unsigned, as serde_json hands them over.
            Value::Number(Number::Int(i)) if i >= 0 => visitor.visit_u64(i as u64),
            Value::Number(Number::Int(i)) => visitor.visit_i64(i),
            Value::Number(Number::Float(x)) => visitor.visit_f64(x),
            Value::String(s) => visitor.visit_string(s),
            Value::Array(items) => {
                let len = items.len();
                let mut seq = Seq(items.into_iter());
                let v = visitor.visit_seq(&mut seq)?;
                match seq.0.len() {
                    0 => Ok(v),
                    _ => Err(de::Error::invalid_length(len, &"fewer elements in array")),
                }
            }
            Value::Object(m) => visitor.visit_map(Entries {
                entries: m.entries.into_iter(),
                value: None,
            }),
        }
    }

    fn deserialize_option<V: de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => visitor.visit_none(),
            v => visitor.visit_some(v),
        }
    }

    fn deserialize_newtype_struct<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: de::Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Value::String(s) => visitor.visit_enum(s.into_deserializer()),
            Value::Object(m) if m.len() == 1 => {
                let (variant, value) = m.entries.into_iter().next().unwrap_or_default();
                visitor.visit_enum(Variant { variant, value })
            }
            other => Err(de::Error::invalid_type(
                other.unexpected(),
                &"string or map",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

struct Seq(std::vec::IntoIter<Value>);

impl<'de> de::SeqAccess<'de> for Seq {
    type Error = Error;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|v| seed.deserialize(v)).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries {
    entries: std::vec::IntoIter<(String, Value)>,
    value: Option<Value>,
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(k.into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(self.value.take().unwrap_or_default())
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// `{"Variant": value}`: an enum variant that carries data.
struct Variant {
    variant: String,
    value: Value,
}

impl<'de> de::EnumAccess<'de> for Variant {
    type Error = Error;
    type Variant = Value;
    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Value), Error> {
        let variant = seed.deserialize(self.variant.into_deserializer())?;
        Ok((variant, self.value))
    }
}

impl<'de> de::VariantAccess<'de> for Value {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        match self {
            Value::Null => Ok(()),
            other => Err(de::Error::invalid_type(other.unexpected(), &"unit variant")),
        }
    }
    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: de::Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(self, visitor)
    }
    fn struct_variant<V: de::Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}

// ---- serde: a type written into a Value ----

/// A type as a value (a struct's fields in declaration order), as
/// serde_json's `to_value`.
pub fn to_value<T: Serialize + ?Sized>(t: &T) -> Result<Value, Error> {
    t.serialize(ToValue)
}

impl Serialize for Value {
    fn serialize<S: ser::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use ser::{SerializeMap as _, SerializeSeq as _};
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(Number::Int(i)) => s.serialize_i64(*i),
            Value::Number(Number::Float(x)) => s.serialize_f64(*x),
            Value::String(v) => s.serialize_str(v),
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Value::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

struct ToValue;

fn int(i: impl TryInto<i64> + Into<f64> + Copy) -> Value {
    match i.try_into() {
        Ok(i) => Value::Number(Number::Int(i)),
        Err(_) => Value::Number(Number::Float(i.into())),
    }
}

fn float(x: f64) -> Value {
    // serde_json too writes what JSON cannot hold as null.
    if x.is_finite() {
        Value::Number(Number::Float(x))
    } else {
        Value::Null
    }
}

impl ser::Serializer for ToValue {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = Items;
    type SerializeTuple = Items;
    type SerializeTupleStruct = Items;
    type SerializeTupleVariant = Items;
    type SerializeMap = Fields;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Fields;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        Ok(int(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        Ok(int(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        Ok(int(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        Ok(Value::Number(Number::Int(v)))
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        Ok(int(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        Ok(int(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        Ok(int(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        Ok(i64::try_from(v).map_or(Value::Number(Number::Float(v as f64)), Value::from))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        Ok(float(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        Ok(float(v))
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
        Ok(Value::Array(v.iter().map(|&b| int(b)).collect()))
    }
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Value, Error> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::from(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<Value, Error> {
        let mut m = Map::new();
        m.insert(variant.to_owned(), to_value(v)?);
        Ok(Value::Object(m))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Items, Error> {
        Ok(Items {
            items: Vec::with_capacity(len.unwrap_or(0)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Items, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Items, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items, Error> {
        Ok(Items {
            items: Vec::with_capacity(len),
            variant: Some(variant),
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Fields, Error> {
        Ok(Fields {
            map: Map::new(),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Fields, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Fields, Error> {
        Ok(Fields {
            map: Map::new(),
            key: None,
            variant: Some(variant),
        })
    }
}

/// `{"Variant": value}` for a variant's data, else the value itself.
fn wrapped(variant: Option<&'static str>, v: Value) -> Value {
    match variant {
        Some(name) => {
            let mut m = Map::new();
            m.insert(name.to_owned(), v);
            Value::Object(m)
        }
        None => v,
    }
}

struct Items {
    items: Vec<Value>,
    variant: Option<&'static str>,
}

impl Items {
    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.items.push(to_value(v)?);
        Ok(())
    }
    fn done(self) -> Result<Value, Error> {
        Ok(wrapped(self.variant, Value::Array(self.items)))
    }
}

/// The four sequence-like serializers, all an `Items`.
macro_rules! items {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Items {
            type Ok = Value;
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                self.push(v)
            }
            fn end(self) -> Result<Value, Error> {
                self.done()
            }
        }
    )*};
}

items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

struct Fields {
    map: Map,
    key: Option<String>,
    variant: Option<&'static str>,
}

impl Fields {
    fn field<T: Serialize + ?Sized>(&mut self, key: &str, v: &T) -> Result<(), Error> {
        self.map.insert(key.to_owned(), to_value(v)?);
        Ok(())
    }
    fn done(self) -> Result<Value, Error> {
        Ok(wrapped(self.variant, Value::Object(self.map)))
    }
}

impl ser::SerializeMap for Fields {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        // JSON keys are strings; serde_json writes integer keys as their digits.
        self.key = Some(match to_value(key)? {
            Value::String(s) => s,
            Value::Number(n) => n.to_string(),
            _ => return Err(ser::Error::custom("key must be a string")),
        });
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = self.key.take().unwrap_or_default();
        self.field(&key, v)
    }
    fn end(self) -> Result<Value, Error> {
        self.done()
    }
}

/// The two struct serializers, both `Fields`.
macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Fields {
            type Ok = Value;
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Error> {
                self.field(key, v)
            }
            fn end(self) -> Result<Value, Error> {
                self.done()
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);
