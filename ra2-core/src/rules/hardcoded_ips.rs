//! ra2.app.035: pod specs carry no hardcoded IP addresses: not in container environment
//! values, commands or arguments, host aliases or DNS name servers; static addresses requested
//! in the network annotation are reported as advisory.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::ops::Range;

use crate::model::{Container, PodSpec};
use crate::parse::view::Located;
use crate::rules::{Checks, Context};

pub(super) static RULE: Checks = Checks {
    pod: Some(check),
    ..Checks::NONE
};

fn check(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for container in pod.workload_containers() {
        environment(container, cx);
        for (key, place) in [("command", "its command"), ("args", "its arguments")] {
            for item in container.node.get(key).iter().flat_map(Located::items) {
                free_text(container, place, &item, cx);
            }
        }
    }
    host_aliases(pod, cx);
    name_servers(pod, cx);
    network_annotation(pod, cx);
}

/// Words in an environment variable's name that say its value is a version, not an address.
const VERSION_WORDS: &[&str] = &["VER", "VERSION", "RELEASE", "REV", "REVISION", "BUILD", "TAG"];

/// hardcoded-ip: `env[].value`, except variables whose name says they hold a version
/// (`APP_VERSION`, `IMAGE_TAG`, `BUILD`).
fn environment(container: &Container<'_>, cx: &mut Context<'_>) {
    for var in container.node.get("env").iter().flat_map(Located::items) {
        let name = var.str_at("name").unwrap_or("?");
        if names_a_version(name) {
            continue;
        }
        if let Some(value) = var.get("value") {
            free_text(container, &format!("environment variable {name}"), &value, cx);
        }
    }
}

fn names_a_version(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.contains("VERSION") || upper.split(['_', '-', '.']).any(|word| VERSION_WORDS.contains(&word))
}

/// hardcoded-ip: every address literal in one string.
fn free_text(container: &Container<'_>, place: &str, value: &Located<'_>, cx: &mut Context<'_>) {
    let Some(text) = value.as_str() else { return };
    let mut found: Vec<String> = Vec::new();
    for literal in literals(text).into_iter().filter(Literal::is_specific) {
        let shown = literal.to_string();
        if !found.contains(&shown) {
            found.push(shown);
        }
    }
    if found.is_empty() {
        return;
    }
    let noun = if found.len() == 1 { "IP address" } else { "IP addresses" };
    cx.report(
        "hardcoded-ip",
        value,
        format!(
            "{} has hardcoded {noun} {} in {place}",
            container.describe(),
            found.join(", ")
        ),
    );
}

/// host-alias: `hostAliases[].ip` pins names to addresses in the pod's /etc/hosts.
fn host_aliases(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    for alias in pod.get("hostAliases").iter().flat_map(Located::items) {
        let Some(ip) = alias.get("ip") else { continue };
        if !whole_address(&ip) {
            continue;
        }
        let names: Vec<&str> = alias
            .get("hostnames")
            .iter()
            .flat_map(Located::items)
            .filter_map(|h| h.as_str())
            .collect();
        let names = match names.as_slice() {
            [] => "points".to_owned(),
            [first, second, third, rest @ ..] if !rest.is_empty() => {
                format!("maps {first}, {second}, {third} and {} more", rest.len())
            }
            [only] => format!("maps {only}"),
            [rest @ .., last] => format!("maps {} and {last}", rest.join(", ")),
        };
        cx.report_with_help(
            "host-alias",
            &ip,
            format!("host alias {names} to hardcoded IP address {}", ip.as_str().unwrap_or("?")),
            "Let cluster DNS resolve the name: a Service for a peer in the cluster, an ExternalName Service or a DNS record for one outside it.",
        );
    }
}

/// dns-nameserver: `dnsConfig.nameservers` names resolvers by address.
fn name_servers(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let servers = pod.spec.path(&["dnsConfig", "nameservers"]);
    for server in servers.iter().flat_map(Located::items) {
        if whole_address(&server) {
            cx.report_with_help(
                "dns-nameserver",
                &server,
                format!(
                    "pod DNS configuration names hardcoded name server {}",
                    server.as_str().unwrap_or("?")
                ),
                "Use the cluster DNS (dnsPolicy ClusterFirst) and have the platform forward the zones the CNF needs, instead of naming resolvers by address.",
            );
        }
    }
}

/// A string that is one address, not loopback or unspecified.
fn whole_address(value: &Located<'_>) -> bool {
    value
        .as_str()
        .and_then(|s| s.trim().parse::<IpAddr>().ok())
        .is_some_and(|ip| {
            Literal {
                ip,
                prefix: None,
                range: 0..0,
            }
            .is_specific()
        })
}

/// multus-ips: static addresses requested for secondary interfaces (advisory: static IPAM is a
/// deliberate design in many CNFs).
fn network_annotation(pod: &PodSpec<'_>, cx: &mut Context<'_>) {
    let Some((annotation, Some(selection))) = pod.networks() else {
        return;
    };
    for element in &selection.elements {
        if element.ips.is_empty() {
            continue;
        }
        let noun = if element.ips.len() == 1 { "address" } else { "addresses" };
        cx.report_with_help(
            "multus-ips",
            &annotation,
            format!(
                "network attachment {:?} requests static IP {noun} {}",
                element.name,
                element.ips.join(", ")
            ),
            "Let the attachment's IPAM (for example a cluster-wide IPAM such as Whereabouts) assign the address, unless the network design needs it fixed.",
        );
    }
}

/// An IP address literal found in text, with the `/prefix` written after it, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Literal {
    ip: IpAddr,
    prefix: Option<u8>,
    range: Range<usize>,
}

impl Literal {
    /// An address that ties the workload to one network: not unspecified (`0.0.0.0`, `::`),
    /// not loopback (`127.0.0.0/8`, `::1`), not a broadcast address or subnet mask, and not a
    /// network range (a CIDR whose host bits are all zero, such as `10.0.0.0/8`).
    fn is_specific(&self) -> bool {
        let ip = match self.ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(self.ip, IpAddr::V4),
            IpAddr::V4(_) => self.ip,
        };
        let plain = match ip {
            IpAddr::V4(v4) => !(v4.is_unspecified() || v4.is_loopback() || is_netmask(v4)),
            IpAddr::V6(v6) => !(v6.is_unspecified() || v6.is_loopback()),
        };
        plain && !self.is_network_range()
    }

    fn is_network_range(&self) -> bool {
        let Some(prefix) = self.prefix else { return false };
        let (bits, max) = match self.ip {
            IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
            IpAddr::V6(v6) => (u128::from(v6), 128),
        };
        if prefix >= max {
            return false;
        }
        let host_bits = u32::from(max - prefix);
        let host_mask = u128::MAX.checked_shr(128 - host_bits).unwrap_or(0);
        bits & host_mask == 0
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.prefix {
            Some(prefix) => write!(f, "{}/{prefix}", self.ip),
            None => write!(f, "{}", self.ip),
        }
    }
}

/// `255.255.255.0` and the like: ones, then zeros, starting with a full first octet.
fn is_netmask(ip: Ipv4Addr) -> bool {
    let bits = u32::from(ip);
    bits >> 24 == 0xff && bits.leading_ones() + bits.trailing_zeros() == 32
}

/// Every IPv4 and IPv6 literal in `text` that stands on its own: not part of a longer
/// number, name or version (`v1.2.3.4`, `1.2.3.4-rc1`, `1.2.3.4.nip.io`, `--version=1.2.3.4`,
/// the OID `1.3.6.1.4.1.2021`), in text order.
fn literals(text: &str) -> Vec<Literal> {
    let bytes = text.as_bytes();
    let mut found: Vec<Literal> = Vec::new();
    for run in runs(bytes, |b| b.is_ascii_hexdigit() || b == b':' || b == b'.') {
        if let Some(literal) = ipv6_at(text, &run) {
            found.push(literal);
        }
    }
    let v4_runs = runs(bytes, |b| b.is_ascii_digit() || b == b'.');
    for (i, run) in v4_runs.iter().enumerate() {
        if found
            .iter()
            .any(|l| l.range.start <= run.start && run.end <= l.range.end)
        {
            continue;
        }
        let previous = i.checked_sub(1).and_then(|p| v4_runs.get(p));
        if let Some(literal) = ipv4_at(text, run, previous, v4_runs.get(i + 1)) {
            found.push(literal);
        }
    }
    found.sort_by_key(|l| l.range.start);
    found
}

/// Maximal runs of bytes that satisfy `keep`.
fn runs(bytes: &[u8], keep: impl Fn(u8) -> bool) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &b) in bytes.iter().enumerate() {
        match (keep(b), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(s..i);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(s..bytes.len());
    }
    out
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The byte before `at`, if any.
fn byte_before(bytes: &[u8], at: usize) -> Option<u8> {
    at.checked_sub(1).and_then(|i| bytes.get(i)).copied()
}

/// The run without trailing dots (sentence ends), and the byte after those dots.
fn trimmed<'t>(text: &'t str, run: &Range<usize>) -> Option<(&'t str, Option<u8>, bool)> {
    let raw = text.get(run.clone())?;
    let core = raw.trim_end_matches('.');
    let after = text.as_bytes().get(run.end).copied();
    Some((core, after, core.len() < raw.len()))
}

/// The run is a whole IPv4 address, possibly followed by `/prefix`.
fn ipv4_at(
    text: &str,
    run: &Range<usize>,
    previous: Option<&Range<usize>>,
    next: Option<&Range<usize>>,
) -> Option<Literal> {
    let bytes = text.as_bytes();
    let (core, after, had_dots) = trimmed(text, run)?;
    let ip: Ipv4Addr = core.parse().ok()?;
    let is_v4 = |r: Option<&Range<usize>>| {
        r.and_then(|r| trimmed(text, r))
            .is_some_and(|(c, _, _)| c.parse::<Ipv4Addr>().is_ok())
    };
    // `a.b.c.d-e.f.g.h` is a range of addresses; `-` next to anything else makes a version or name.
    match byte_before(bytes, run.start) {
        Some(b'-') if !(previous.is_some_and(|p| p.end + 1 == run.start) && is_v4(previous)) => return None,
        Some(b) if is_word_byte(b) => return None,
        _ => {}
    }
    let mut prefix = None;
    match after {
        Some(b) if is_word_byte(b) => return None,
        Some(_) if had_dots => {}
        Some(b'-') if !(next.is_some_and(|n| n.start == run.end + 1) && is_v4(next)) => return None,
        Some(b'/') => prefix = prefix_at(bytes, run.end + 1, 32),
        _ => {}
    }
    if in_version_context(text, run.start) {
        return None;
    }
    Some(Literal {
        ip: IpAddr::V4(ip),
        prefix,
        range: run.start..run.start + core.len(),
    })
}

/// The run is a whole IPv6 address (two colons at least), possibly followed by `/prefix`.
fn ipv6_at(text: &str, run: &Range<usize>) -> Option<Literal> {
    let bytes = text.as_bytes();
    let (core, after, had_dots) = trimmed(text, run)?;
    if core.matches(':').count() < 2 {
        return None;
    }
    if byte_before(bytes, run.start).is_some_and(is_word_byte) || after.is_some_and(is_word_byte) {
        return None;
    }
    let ip: Ipv6Addr = core.parse().ok()?;
    let prefix = match after {
        Some(b'/') if !had_dots => prefix_at(bytes, run.end + 1, 128),
        _ => None,
    };
    Some(Literal {
        ip: IpAddr::V6(ip),
        prefix,
        range: run.start..run.start + core.len(),
    })
}

/// A prefix length of at most `max` written at `start` (after the `/`) and ending there.
fn prefix_at(bytes: &[u8], start: usize, max: u8) -> Option<u8> {
    let digits = bytes.get(start..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 3 || bytes.get(start + digits).copied().is_some_and(is_word_byte) {
        return None;
    }
    let text = std::str::from_utf8(bytes.get(start..start + digits)?).ok()?;
    text.parse::<u8>().ok().filter(|p| *p <= max)
}

/// `--version=1.2.3.4`, `release:1.2.3.4`: the word the number belongs to says version.
fn in_version_context(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default();
    let word_start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    before.get(word_start..).is_some_and(|w| {
        let w = w.to_ascii_lowercase();
        w.contains("version") || w.contains("release")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn specific(text: &str) -> Vec<String> {
        literals(text)
            .into_iter()
            .filter(Literal::is_specific)
            .map(|l| l.to_string())
            .collect()
    }

    #[test]
    fn finds_addresses_in_urls_flags_and_scripts() {
        assert_eq!(specific("10.1.2.3"), ["10.1.2.3"]);
        assert_eq!(specific("http://10.1.2.3:8080/x"), ["10.1.2.3"]);
        assert_eq!(specific("--peer=192.168.7.1"), ["192.168.7.1"]);
        assert_eq!(
            specific("sctp_test -H 0.0.0.0 -h 10.100.50.249 -p 38412"),
            ["10.100.50.249"]
        );
        assert_eq!(specific("connect to 10.0.0.5."), ["10.0.0.5"]);
        assert_eq!(specific("pool 10.0.0.10-10.0.0.20"), ["10.0.0.10", "10.0.0.20"]);
        assert_eq!(specific("[2001:db8::10]:443"), ["2001:db8::10"]);
        assert_eq!(specific("fd00::1/64,10.1.2.3/24"), ["fd00::1/64", "10.1.2.3/24"]);
        assert_eq!(specific("::ffff:10.9.8.7"), ["::ffff:10.9.8.7"]);
    }

    #[test]
    fn ignores_local_unspecified_masks_ranges_and_versions() {
        for text in [
            "0.0.0.0:8080",
            "http://127.0.0.1:9090/-/reload",
            "127.0.0.53",
            "[::1]:8080",
            "::",
            "0.0.0.0/0",
            "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16",
            "fd00::/8",
            "255.255.255.0",
            "255.255.255.255",
            "v1.2.3.4",
            "app-1.2.3.4",
            "1.2.3.4-rc1",
            "1.2.3.4a",
            "1.2.3.4.nip.io",
            "--version=1.2.3.4",
            "--release=1.2.3.4",
            "1.3.6.1.4.1.2021",
            "1.2.3",
            "10.0.0.256",
            "010.0.0.1",
            "std::string",
            "12:30:00",
            "02:00:00:00:00:01",
            "sha256:abcd",
        ] {
            assert_eq!(specific(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn version_variables_are_skipped_by_name() {
        for name in [
            "APP_VERSION",
            "version",
            "IMAGE_TAG",
            "BUILD",
            "chart-rev",
            "RELEASE_ID",
            "ver",
        ] {
            assert!(names_a_version(name), "{name}");
        }
        for name in ["PEER_ADDRESS", "TARGET", "VERBOSE", "STAGE", "PREVIOUS_HOST"] {
            assert!(!names_a_version(name), "{name}");
        }
    }

    #[test]
    fn prefixes_and_paths() {
        assert_eq!(specific("http://10.1.2.3/123"), ["10.1.2.3"]);
        assert_eq!(specific("10.1.2.3/32"), ["10.1.2.3/32"]);
        assert_eq!(specific("10.1.2.0/24"), Vec::<String>::new());
    }
}
