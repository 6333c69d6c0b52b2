//! Plain-scalar resolution exactly as the API server sees it: go-yaml v2's YAML 1.1 rules
//! (the v2.4 copy vendored in sigs.k8s.io/yaml v1.4, which Kubernetes 1.33 uses) for YAML,
//! `encoding/json` rules for JSON documents. `tests/tests/differential.rs` checks this against
//! that library.

/// What a scalar means once resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resolved {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str,
}

/// Resolves a plain (unquoted) YAML scalar the way go-yaml v2's `resolve()` does.
///
/// Timestamps are left as strings: go-yaml v2 keeps timestamp-looking values as strings when
/// decoding into `interface{}`, which is what sigs.k8s.io/yaml does.
pub fn resolve_plain(s: &str) -> Resolved {
    let Some(&first) = s.as_bytes().first() else {
        return Resolved::Null;
    };
    match first {
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            resolve_map(s).unwrap_or(Resolved::Str)
        }
        b'.' => resolve_map(s)
            .or_else(|| go_parse_float(s).map(Resolved::Float))
            .unwrap_or(Resolved::Str),
        b'+' | b'-' | b'0'..=b'9' => resolve_map(s).or_else(|| resolve_number(s)).unwrap_or(Resolved::Str),
        _ => Resolved::Str,
    }
}

fn resolve_map(s: &str) -> Option<Resolved> {
    Some(match s {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => Resolved::Bool(true),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => Resolved::Bool(false),
        "~" | "null" | "Null" | "NULL" => Resolved::Null,
        ".nan" | ".NaN" | ".NAN" => Resolved::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Resolved::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// The 'D' and 'S' branch of go-yaml v2's resolver (the copy inside sigs.k8s.io/yaml): integers
/// with Go base prefixes after removing underscores, then floats, then go-yaml's own `0b` branch.
fn resolve_number(s: &str) -> Option<Resolved> {
    let plain: String;
    let plain = if s.contains('_') {
        plain = s.replace('_', "");
        plain.as_str()
    } else {
        s
    };
    if let Some(v) = go_parse_int(plain) {
        return Some(Resolved::Int(v));
    }
    if is_yaml_float(plain) {
        if let Some(f) = go_parse_float(plain) {
            return Some(Resolved::Float(f));
        }
    }
    // `ParseInt(plain[2:], 2, 64)` (then ParseUint) after `0b`, and `ParseInt("-"+plain[3:], 2, 64)`
    // after `-0b`: only adds a sign right after the prefix (`0b-101` is -5, `0b+1` is 1).
    if let Some(rest) = plain.strip_prefix("0b") {
        return go_parse_radix(rest, 2, true).map(Resolved::Int);
    }
    if let Some(rest) = plain.strip_prefix("-0b") {
        return go_parse_radix(&format!("-{rest}"), 2, false).map(Resolved::Int);
    }
    None
}

/// `strconv.ParseInt(s, 0, 64)` then `ParseUint(s, 0, 64)`: sign, then `0x`, `0o`, `0b` or a
/// leading `0` (octal) prefix. Returns None when Go would fail (including overflow). A sign
/// limits the value to int64: ParseUint takes no sign, so `+18446744073709551615` is not an
/// integer (it becomes a float).
fn go_parse_int(s: &str) -> Option<i128> {
    let (sign, digits) = match s.as_bytes().first()? {
        b'+' | b'-' => s.split_at(1),
        _ => ("", s),
    };
    let bytes = digits.as_bytes();
    let (radix, body) = match bytes {
        [b'0', b'x' | b'X', ..] => (16, &digits[2..]),
        [b'0', b'o' | b'O', ..] => (8, &digits[2..]),
        [b'0', b'b' | b'B', ..] => (2, &digits[2..]),
        [b'0', _, ..] => (8, &digits[1..]),
        _ => (10, digits),
    };
    if body.starts_with(['+', '-']) {
        return None;
    }
    go_parse_radix(&format!("{sign}{body}"), radix, true)
}

/// `strconv.ParseInt(s, radix, 64)`, then (when `unsigned_fallback`) `ParseUint(s, radix, 64)`:
/// an optional sign (int64 range) or none (uint64 range with the fallback).
fn go_parse_radix(s: &str, radix: u32, unsigned_fallback: bool) -> Option<i128> {
    let (negative, signed, body) = match s.as_bytes().first()? {
        b'+' => (false, true, &s[1..]),
        b'-' => (true, true, &s[1..]),
        _ => (false, false, s),
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    match (negative, signed || !unsigned_fallback) {
        // ParseInt accepts down to -2^63 and up to 2^63-1.
        (true, _) => (magnitude <= 1 << 63).then(|| -i128::from(magnitude)),
        (false, true) => i64::try_from(magnitude).ok().map(i128::from),
        (false, false) => Some(i128::from(magnitude)),
    }
}

/// The float pattern of go-yaml v2.4 (as vendored by sigs.k8s.io/yaml):
/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`. The exponent sign is optional and a
/// trailing `.` is allowed: `1e3` is 1000.0 and `1.` is 1.0.
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    } else {
        if !digits(&mut i) {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// `strconv.ParseFloat(s, 64)` for the decimal forms YAML can reach here.
fn go_parse_float(s: &str) -> Option<f64> {
    let ok = s
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.' | b'e' | b'E'));
    if !ok {
        return None;
    }
    s.parse::<f64>().ok().filter(|f| f.is_finite())
}

/// Resolves a plain scalar in a JSON document (`encoding/json`): only `true`, `false`, `null`
/// and JSON numbers are not strings.
pub fn resolve_json(s: &str) -> Resolved {
    match s {
        "true" => Resolved::Bool(true),
        "false" => Resolved::Bool(false),
        "null" => Resolved::Null,
        _ => {
            if is_json_number(s) {
                if !s.contains(['.', 'e', 'E']) {
                    if let Ok(v) = s.parse::<i128>() {
                        return Resolved::Int(v);
                    }
                }
                s.parse::<f64>().map_or(Resolved::Str, Resolved::Float)
            } else {
                Resolved::Str
            }
        }
    }
}

fn is_json_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// Formats a float the way Go's `encoding/json` does (what sigs.k8s.io/yaml produces, and so
/// what a `resource.Quantity` is decoded from): shortest round-trip digits, exponent form only
/// below 1e-6 or from 1e21, exponent without leading zeros.
pub fn go_json_float(f: f64) -> String {
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0".to_owned()
        } else {
            "0".to_owned()
        };
    }
    let abs = f.abs();
    if (1e-6..1e21).contains(&abs) {
        // Rust's Display prints the shortest round-trip digits without an exponent.
        format!("{f}")
    } else {
        // `{:e}` gives shortest digits like `1.5e-7`; Go writes `1.5e-07` then trims to `1.5e-7`,
        // and always signs the exponent: `1e+21`.
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
            _ => s,
        }
    }
}

/// The JSON key sigs.k8s.io/yaml makes of a float mapping key: Go's
/// `strconv.FormatFloat(f, 'g', -1, 32)`, which first rounds to float32 (so `0.123456789` becomes
/// `0.12345679` and `1e300` becomes `.inf`), then `.inf`, `-.inf` and `.nan` for the specials.
pub fn go_yaml_float_key(f: f64) -> String {
    #[allow(clippy::cast_possible_truncation)] // deliberate: Go's float32(f), rounding to nearest
    let g = f as f32;
    if g.is_nan() {
        return ".nan".to_owned();
    }
    if g.is_infinite() {
        return if g > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    if g == 0.0 {
        return if g.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let (digits, exponent) = shortest_f32_digits(g.abs());
    let sign = if g < 0.0 { "-" } else { "" };
    // %g with the shortest precision: exponent form when the exponent is below -4 or at least 6.
    if !(-4..6).contains(&exponent) {
        let (first, rest) = digits.split_at(1.min(digits.len()));
        let point = if rest.is_empty() { "" } else { "." };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{first}{point}{rest}e{exp_sign}{:02}", exponent.unsigned_abs());
    }
    // Plain decimal: the point sits after `exponent + 1` digits.
    let point = exponent + 1;
    let body = match usize::try_from(point) {
        Ok(p) if p >= digits.len() => format!("{digits}{}", "0".repeat(p - digits.len())),
        Ok(p) if p > 0 => {
            let (int, frac) = digits.split_at_checked(p).unwrap_or((digits.as_str(), ""));
            format!("{int}.{frac}")
        }
        _ => format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize)),
    };
    format!("{sign}{body}")
}

/// Splits Rust's `{:e}` output into its digits and decimal exponent.
fn split_exp(s: &str) -> (String, i32) {
    let (mantissa, exponent) = s.split_once('e').unwrap_or((s, "0"));
    let digits = mantissa.chars().filter(char::is_ascii_digit).collect();
    (digits, exponent.parse().unwrap_or(0))
}

/// The shortest digits that read back as `g` (positive, finite) and the decimal exponent of the
/// first one, as Go picks them: the closest such digits, ties to even. Rust's shortest form can
/// break a tie upwards (`404023.625` as f32 prints as `404023.63`, Go's as `404023.62`).
fn shortest_f32_digits(g: f32) -> (String, i32) {
    let (digits, exponent) = split_exp(&format!("{g:e}"));
    // The exact value: an f32 has fewer than 150 significant decimal digits.
    let (exact, exact_exponent) = split_exp(&format!("{:.150e}", f64::from(g)));
    let Some((head, tail)) = exact.split_at_checked(digits.len()) else {
        return (digits, exponent);
    };
    if exact_exponent != exponent || tail.trim_end_matches('0') != "5" || head.is_empty() {
        return (digits, exponent);
    }
    // A tie between `head` and `head + 1` in the last place: take the even one.
    let mut even = head.as_bytes().to_vec();
    let mut carry = even.last().is_some_and(|d| (d - b'0') % 2 == 1);
    for d in even.iter_mut().rev() {
        if !carry {
            break;
        }
        carry = *d == b'9';
        *d = if carry { b'0' } else { *d + 1 };
    }
    let (mut even, even_exponent) = if carry {
        even.insert(0, b'1');
        (even, exponent + 1)
    } else {
        (even, exponent)
    };
    while even.len() > 1 && even.last() == Some(&b'0') {
        even.pop();
    }
    let even = String::from_utf8(even).unwrap_or_default();
    let reads_back = format!("0.{even}e{}", even_exponent + 1).parse::<f32>() == Ok(g);
    if reads_back {
        (even, even_exponent)
    } else {
        (digits, exponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_11_booleans_and_nulls() {
        for s in ["yes", "Yes", "YES", "on", "On", "ON", "y", "Y", "true", "True", "TRUE"] {
            assert_eq!(resolve_plain(s), Resolved::Bool(true), "{s}");
        }
        for s in ["no", "off", "OFF", "n", "N", "false", "False"] {
            assert_eq!(resolve_plain(s), Resolved::Bool(false), "{s}");
        }
        for s in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(resolve_plain(s), Resolved::Null, "{s}");
        }
        for s in ["yES", "tRUE", "nULL", "oN", "nope", "o"] {
            assert_eq!(resolve_plain(s), Resolved::Str, "{s}");
        }
    }

    #[test]
    fn go_integer_prefixes() {
        assert_eq!(resolve_plain("010"), Resolved::Int(8));
        assert_eq!(resolve_plain("0x1F"), Resolved::Int(31));
        assert_eq!(resolve_plain("0o17"), Resolved::Int(15));
        assert_eq!(resolve_plain("0b101"), Resolved::Int(5));
        assert_eq!(resolve_plain("1_000"), Resolved::Int(1000));
        assert_eq!(resolve_plain("-0"), Resolved::Int(0));
        assert_eq!(resolve_plain("+5"), Resolved::Int(5));
        assert_eq!(
            resolve_plain("18446744073709551615"),
            Resolved::Int(18_446_744_073_709_551_615)
        );
        assert_eq!(
            resolve_plain("-9223372036854775808"),
            Resolved::Int(-9_223_372_036_854_775_808)
        );
    }

    #[test]
    fn signed_integers_stay_in_int64() {
        // Found by the differential test: ParseUint takes no sign, so a `+` limits the value to
        // int64 and a larger one falls through to the float pattern (or stays a string).
        assert_eq!(
            resolve_plain("+9223372036854775807"),
            Resolved::Int(9_223_372_036_854_775_807)
        );
        assert_eq!(
            resolve_plain("+18446744073709551615"),
            Resolved::Float(18_446_744_073_709_551_615.0)
        );
        assert_eq!(resolve_plain("+0x8000000000000000"), Resolved::Str);
        assert_eq!(resolve_plain("0x8000000000000000"), Resolved::Int(1 << 63));
        assert_eq!(resolve_plain("-0x8000000000000001"), Resolved::Str);
        // go-yaml's own `0b` branch parses what follows the prefix with a sign of its own.
        assert_eq!(resolve_plain("0b-101"), Resolved::Int(-5));
        assert_eq!(resolve_plain("0b+1_1"), Resolved::Int(3));
        assert_eq!(resolve_plain("-0b-1"), Resolved::Str);
        assert_eq!(resolve_plain("0x-1"), Resolved::Str);
    }

    #[test]
    fn float_keys_are_printed_as_float32() {
        // Found by the differential test: sigs.k8s.io/yaml prints float keys with
        // FormatFloat(f, 'g', -1, 32).
        assert_eq!(go_yaml_float_key(0.5), "0.5");
        assert_eq!(go_yaml_float_key(0.123_456_789), "0.12345679");
        assert_eq!(go_yaml_float_key(-0.1), "-0.1");
        assert_eq!(go_yaml_float_key(100_000.0), "100000");
        assert_eq!(go_yaml_float_key(1_000_000.0), "1e+06");
        assert_eq!(go_yaml_float_key(1.5e10), "1.5e+10");
        assert_eq!(go_yaml_float_key(3.8e-9), "3.8e-09");
        assert_eq!(go_yaml_float_key(0.0001), "0.0001");
        assert_eq!(go_yaml_float_key(1e300), ".inf");
        assert_eq!(go_yaml_float_key(-1e300), "-.inf");
        assert_eq!(go_yaml_float_key(f64::NAN), ".nan");
        assert_eq!(go_yaml_float_key(1e-300), "0");
        assert_eq!(go_yaml_float_key(-0.0), "-0");
        // A tie in the shortest digits goes to the even digit, as in Go.
        assert_eq!(go_yaml_float_key(404_023.63), "404023.62");
        assert_eq!(go_yaml_float_key(1_143_332.2), "1.1433322e+06");
    }

    #[test]
    fn floats_follow_the_go_yaml_copy_in_sigs_yaml() {
        assert_eq!(resolve_plain("0.5"), Resolved::Float(0.5));
        assert_eq!(resolve_plain(".5"), Resolved::Float(0.5));
        assert_eq!(resolve_plain("1.0"), Resolved::Float(1.0));
        assert_eq!(resolve_plain("1e+0"), Resolved::Float(1.0));
        assert_eq!(resolve_plain("1E-3"), Resolved::Float(0.001));
        // Found by the differential test: the exponent sign is optional and a trailing `.` is
        // allowed (go-yaml v2.4's pattern, vendored by sigs.k8s.io/yaml v1.4).
        assert_eq!(resolve_plain("1e3"), Resolved::Float(1000.0));
        assert_eq!(resolve_plain("+.5E2"), Resolved::Float(50.0));
        assert_eq!(resolve_plain("1."), Resolved::Float(1.0));
        assert_eq!(resolve_plain("-2.e+1"), Resolved::Float(-20.0));
        assert_eq!(resolve_plain("1_0.5_0"), Resolved::Float(10.5));
        assert_eq!(resolve_plain("1e"), Resolved::Str);
        assert_eq!(resolve_plain("1e+"), Resolved::Str);
        assert_eq!(resolve_plain("e3"), Resolved::Str);
        // Not valid octal, but the float pattern matches: go-yaml yields 8.0.
        assert_eq!(resolve_plain("08"), Resolved::Float(8.0));
        assert_eq!(resolve_plain("99999999999999999999"), Resolved::Float(1e20));
        assert!(matches!(resolve_plain(".inf"), Resolved::Float(f) if f.is_infinite()));
        assert_eq!(resolve_plain("500m"), Resolved::Str);
        assert_eq!(resolve_plain("1Gi"), Resolved::Str);
        assert_eq!(resolve_plain("0777Mi"), Resolved::Str);
        assert_eq!(resolve_plain("2001-12-14"), Resolved::Str);
        assert_eq!(resolve_plain("1.2.3"), Resolved::Str);
        assert_eq!(resolve_plain("-"), Resolved::Str);
    }

    #[test]
    fn json_resolution_is_json() {
        assert_eq!(resolve_json("1e3"), Resolved::Float(1000.0));
        assert_eq!(resolve_json("yes"), Resolved::Str);
        assert_eq!(resolve_json("12"), Resolved::Int(12));
        assert_eq!(resolve_json("-0.5"), Resolved::Float(-0.5));
        assert_eq!(resolve_json("010"), Resolved::Str);
    }

    #[test]
    fn go_json_float_formatting() {
        assert_eq!(go_json_float(1.0), "1");
        assert_eq!(go_json_float(0.5), "0.5");
        assert_eq!(go_json_float(1e20), "100000000000000000000");
        assert_eq!(go_json_float(1e21), "1e+21");
        assert_eq!(go_json_float(1.5e-7), "1.5e-7");
        assert_eq!(go_json_float(0.000_001), "0.000001");
        assert_eq!(go_json_float(1234.5678), "1234.5678");
    }
}
