//! Plain-scalar resolution exactly as the API server sees it: go-yaml v2's YAML 1.1 rules
//! (through sigs.k8s.io/yaml) for YAML, `encoding/json` rules for JSON documents.

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

/// The 'D' and 'S' branch of go-yaml v2's resolver: integers with Go base prefixes after
/// removing underscores, then YAML-1.1-style floats (the exponent needs a sign), then `0b`.
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
    if is_yaml11_float(plain) {
        if let Some(f) = go_parse_float(plain) {
            return Some(Resolved::Float(f));
        }
    }
    // Go's ParseInt with base 0 already accepts 0b; go-yaml's explicit branch adds nothing more.
    None
}

/// `strconv.ParseInt(s, 0, 64)` then `ParseUint(s, 0, 64)`: sign, then `0x`, `0o`, `0b` or a
/// leading `0` (octal) prefix. Returns None when Go would fail (including overflow).
fn go_parse_int(s: &str) -> Option<i128> {
    let (negative, digits) = match s.as_bytes().first()? {
        b'+' => (false, &s[1..]),
        b'-' => (true, &s[1..]),
        _ => (false, s),
    };
    let bytes = digits.as_bytes();
    let (radix, body) = match bytes {
        [b'0', b'x' | b'X', ..] => (16, &digits[2..]),
        [b'0', b'o' | b'O', ..] => (8, &digits[2..]),
        [b'0', b'b' | b'B', ..] => (2, &digits[2..]),
        [b'0', _, ..] => (8, &digits[1..]),
        _ => (10, digits),
    };
    if body.is_empty() || !body.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    if negative {
        // ParseInt accepts down to -2^63; ParseUint rejects any sign.
        (magnitude <= 1 << 63).then(|| -i128::from(magnitude))
    } else {
        Some(i128::from(magnitude))
    }
}

/// go-yaml v2: `^[-+]?[0-9]*\.?[0-9]+([eE][-+][0-9]+)?$`.
fn is_yaml11_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let mut had_digits_after = i > int_start;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        had_digits_after = i > frac_start;
    }
    // `[0-9]*\.?[0-9]+` needs at least one digit at the end of the mantissa.
    if !had_digits_after {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if !matches!(b.get(i), Some(b'+' | b'-')) {
            return false;
        }
        i += 1;
        let exp_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
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
    fn floats_need_a_signed_exponent() {
        assert_eq!(resolve_plain("0.5"), Resolved::Float(0.5));
        assert_eq!(resolve_plain(".5"), Resolved::Float(0.5));
        assert_eq!(resolve_plain("1.0"), Resolved::Float(1.0));
        assert_eq!(resolve_plain("1e+0"), Resolved::Float(1.0));
        assert_eq!(resolve_plain("1e3"), Resolved::Str);
        assert_eq!(resolve_plain("1E-3"), Resolved::Float(0.001));
        // Not valid octal, but the float pattern matches: go-yaml yields 8.0.
        assert_eq!(resolve_plain("08"), Resolved::Float(8.0));
        assert_eq!(resolve_plain("99999999999999999999"), Resolved::Float(1e20));
        assert_eq!(resolve_plain("1."), Resolved::Str);
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
