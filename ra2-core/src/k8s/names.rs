//! Kubernetes name and format validators (DNS-1123 names, label keys and values, resource names,
//! network interface names, IP/CIDR and MAC literals, container image references), written to agree
//! with the Go code the API server, kubelet and Multus run.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Longest DNS-1123 label (`IsDNS1123Label`).
pub const DNS1123_LABEL_MAX_LEN: usize = 63;
/// Longest DNS-1123 subdomain (`IsDNS1123Subdomain`).
pub const DNS1123_SUBDOMAIN_MAX_LEN: usize = 253;
/// Longest name part of a qualified name and longest label value.
pub const QUALIFIED_NAME_MAX_LEN: usize = 63;
/// The kernel's `IFNAMSIZ` minus the terminating NUL.
pub const IFNAME_MAX_LEN: usize = 15;
/// `NameTotalLengthMax` of the image reference grammar.
const IMAGE_NAME_MAX_LEN: usize = 255;

fn is_lower_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?` with no length limit; the callers apply their own.
fn matches_label_shape(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            is_lower_alnum(first) && is_lower_alnum(last) && b.iter().all(|&c| is_lower_alnum(c) || c == b'-')
        }
        _ => false,
    }
}

/// A DNS-1123 label: at most 63 characters of `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
#[must_use]
pub fn is_dns1123_label(s: &str) -> bool {
    s.len() <= DNS1123_LABEL_MAX_LEN && matches_label_shape(s)
}

/// A DNS-1123 subdomain: at most 253 characters of dot-separated labels.
///
/// Like Kubernetes' `IsDNS1123Subdomain`, the 63-character limit is not applied per label.
#[must_use]
pub fn is_dns1123_subdomain(s: &str) -> bool {
    // Dot-separated DNS-1123 labels, in one pass over the bytes: every label starts and ends
    // with a lower-case letter or digit and holds only those and `-`.
    if s.len() > DNS1123_SUBDOMAIN_MAX_LEN {
        return false;
    }
    let mut previous = b'.';
    for &c in s.as_bytes() {
        let fits = match c {
            b'.' => is_lower_alnum(previous),
            b'-' => previous != b'.',
            c => is_lower_alnum(c),
        };
        if !fits {
            return false;
        }
        previous = c;
    }
    is_lower_alnum(previous)
}

/// The name part of a qualified name: `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, at most 63 long.
fn is_qualified_name_part(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() > QUALIFIED_NAME_MAX_LEN {
        return false;
    }
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter()
                    .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// Label and annotation key syntax (`IsQualifiedName`): `[<dns-subdomain>/]<name>`.
#[must_use]
pub fn is_qualified_name(s: &str) -> bool {
    match s.split_once('/') {
        None => is_qualified_name_part(s),
        Some((prefix, name)) => {
            !prefix.is_empty() && is_dns1123_subdomain(prefix) && !name.contains('/') && is_qualified_name_part(name)
        }
    }
}

/// Label value syntax (`IsValidLabelValue`): empty, or a qualified-name part of at most 63.
#[must_use]
pub fn is_label_value(s: &str) -> bool {
    s.is_empty() || is_qualified_name_part(s)
}

/// What a container resource name means to the API server (K-HELP, K-VAL).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceName {
    Cpu,
    Memory,
    EphemeralStorage,
    /// `hugepages-<size>`; `size` is the suffix exactly as written, not yet parsed as a quantity.
    HugePages {
        size: String,
    },
    /// `vendor.example/name`: device-plugin style, integer-only and not overcommittable.
    Extended,
    /// In the `kubernetes.io` namespace but not one of the native names: the API server accepts it,
    /// yet no node advertises it.
    Reserved,
    /// Rejected by the API server in container resources (`gpu`, `requests.example.com/x`, ...).
    Invalid,
}

const KUBERNETES_IO_PREFIX: &str = "kubernetes.io/";
const QUOTA_REQUESTS_PREFIX: &str = "requests.";

/// Classifies a resource name found under `resources.requests`/`resources.limits`.
#[must_use]
pub fn classify_resource_name(name: &str) -> ResourceName {
    // The names nearly every container uses, which are qualified names: no need to check.
    match name {
        "cpu" => return ResourceName::Cpu,
        "memory" => return ResourceName::Memory,
        "ephemeral-storage" => return ResourceName::EphemeralStorage,
        _ => {}
    }
    if !is_qualified_name(name) {
        return ResourceName::Invalid;
    }
    if !name.contains('/') {
        return match name {
            "cpu" => ResourceName::Cpu,
            "memory" => ResourceName::Memory,
            "ephemeral-storage" => ResourceName::EphemeralStorage,
            _ => match name.strip_prefix("hugepages-") {
                Some(size) => ResourceName::HugePages { size: size.to_owned() },
                None => ResourceName::Invalid,
            },
        };
    }
    // Go's IsPrefixedNativeResource is a substring test, so `foo.kubernetes.io/x` is native too.
    if name.contains(KUBERNETES_IO_PREFIX) {
        return ResourceName::Reserved;
    }
    // Quota tracks extended resources as `requests.<name>`, which must itself be a qualified name.
    if name.starts_with(QUOTA_REQUESTS_PREFIX) || !is_qualified_name(&format!("{QUOTA_REQUESTS_PREFIX}{name}")) {
        return ResourceName::Invalid;
    }
    ResourceName::Extended
}

/// Checks a Linux network interface name the way the kernel's `dev_valid_name` does.
///
/// The kernel also forbids `:` (alias syntax), which Multus' own check misses.
///
/// # Errors
///
/// Says what is wrong with the name: empty, longer than 15 bytes, `.`/`..`, or containing `/`,
/// `:` or whitespace.
pub fn is_linux_ifname(s: &str) -> Result<(), String> {
    if s.is_empty() {
        return Err("interface name is empty".to_owned());
    }
    if s.len() > IFNAME_MAX_LEN {
        return Err(format!(
            "interface name \"{s}\" is {} bytes long, the limit is {IFNAME_MAX_LEN}",
            s.len()
        ));
    }
    if s == "." || s == ".." {
        return Err(format!("interface name \"{s}\" is reserved"));
    }
    if s.contains('/') {
        return Err(format!("interface name \"{s}\" contains \"/\""));
    }
    if s.contains(':') {
        return Err(format!("interface name \"{s}\" contains \":\""));
    }
    // The kernel's isspace(): ASCII space, \t, \n, \v, \f and \r.
    if s.bytes()
        .any(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
    {
        return Err(format!("interface name \"{s}\" contains whitespace"));
    }
    Ok(())
}

/// An IP literal as Go's `net.ParseIP` accepts it (no zone, no leading zeros in IPv4 octets).
#[must_use]
pub fn parse_ip(s: &str) -> Option<IpAddr> {
    if let Ok(v4) = s.parse::<Ipv4Addr>() {
        return Some(IpAddr::V4(v4));
    }
    s.parse::<Ipv6Addr>().ok().map(IpAddr::V6)
}

/// An IP address (`net.ParseIP`) or an `address/prefix` (`net.ParseCIDR`).
#[must_use]
pub fn parse_ip_or_cidr(s: &str) -> bool {
    let Some((addr, prefix)) = s.split_once('/') else {
        return parse_ip(s).is_some();
    };
    let Some(ip) = parse_ip(addr) else {
        return false;
    };
    let max_bits: u32 = if ip.is_ipv4() { 32 } else { 128 };
    // Go's dtoi tolerates leading zeros in the prefix length, as u32 parsing does.
    !prefix.is_empty()
        && prefix.bytes().all(|b| b.is_ascii_digit())
        && prefix.parse::<u32>().is_ok_and(|bits| bits <= max_bits)
}

fn hex_pair(b: &[u8]) -> Option<u8> {
    let hi = char::from(*b.first()?).to_digit(16)?;
    let lo = char::from(*b.get(1)?).to_digit(16)?;
    u8::try_from(hi * 16 + lo).ok()
}

/// A hardware address as Go's `net.ParseMAC` accepts it: 6, 8 or 20 bytes written as
/// `xx:xx:..`, `xx-xx-..` or `xxxx.xxxx.xxxx..`.
#[must_use]
pub fn parse_hw_addr(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() < 14 {
        return None;
    }
    let dotted = b.get(4) == Some(&b'.');
    let (sep, group, stride) = if dotted { (b'.', 4, 5) } else { (*b.get(2)?, 2, 3) };
    if !matches!(sep, b':' | b'-' | b'.') || (b.len() + 1) % stride != 0 {
        return None;
    }
    let groups = (b.len() + 1) / stride;
    let bytes = groups * group / 2;
    if !matches!(bytes, 6 | 8 | 20) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes);
    for (i, chunk) in b.chunks(stride).enumerate() {
        let (digits, rest) = chunk.split_at(chunk.len().min(group));
        if digits.len() != group {
            return None;
        }
        let is_last = i + 1 == groups;
        if (is_last && !rest.is_empty()) || (!is_last && rest != [sep]) {
            return None;
        }
        for pair in digits.chunks(2) {
            out.push(hex_pair(pair)?);
        }
    }
    Some(out)
}

/// A 6-byte (EUI-48) MAC address in any notation `net.ParseMAC` accepts.
#[must_use]
pub fn is_mac(s: &str) -> bool {
    parse_hw_addr(s).is_some_and(|bytes| bytes.len() == 6)
}

/// A container image reference split into its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef<'a> {
    /// Everything before the tag and digest, registry and port included, as written.
    pub repository: &'a str,
    pub tag: Option<&'a str>,
    /// `algorithm:hex`, without the `@`.
    pub digest: Option<&'a str>,
    /// Whether the whole reference matches the distribution reference grammar.
    pub valid: bool,
}

/// Splits an image reference; the tag is only looked for after the last `/`, so a registry port
/// is never mistaken for a tag.
#[must_use]
pub fn image_reference(image: &str) -> ImageRef<'_> {
    let (name_and_tag, digest) = match image.split_once('@') {
        Some((left, right)) => (left, Some(right)),
        None => (image, None),
    };
    let last_segment_start = name_and_tag.rfind('/').map_or(0, |i| i + 1);
    let (repository, tag) = match name_and_tag
        .get(last_segment_start..)
        .and_then(|segment| segment.rfind(':'))
    {
        Some(colon) => {
            let at = last_segment_start + colon;
            (name_and_tag.get(..at).unwrap_or_default(), name_and_tag.get(at + 1..))
        }
        None => (name_and_tag, None),
    };
    let valid = is_image_name(repository) && tag.is_none_or(is_image_tag) && digest.is_none_or(is_image_digest);
    ImageRef {
        repository,
        tag,
        digest,
        valid,
    }
}

/// `[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*`
fn is_path_component(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    loop {
        let run = b
            .get(i..)
            .map_or(0, |r| r.iter().take_while(|&&c| is_lower_alnum(c)).count());
        if run == 0 {
            return false;
        }
        i += run;
        let Some(rest) = b.get(i..).filter(|r| !r.is_empty()) else {
            return true;
        };
        i += match rest {
            [b'_', b'_', ..] => 2,
            [b'.' | b'_', ..] => 1,
            _ => rest.iter().take_while(|&&c| c == b'-').count(),
        };
        if b.get(i - 1).is_some_and(|&c| is_lower_alnum(c)) {
            // No separator was consumed: some other byte follows the alphanumeric run.
            return false;
        }
    }
}

/// `[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]`
fn is_domain_component(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-')
        }
        _ => false,
    }
}

/// `host[:port]` where host is a domain name or a bracketed IPv6 literal.
fn is_image_domain(s: &str) -> bool {
    let (host_ok, port) = if let Some(rest) = s.strip_prefix('[') {
        let Some((inner, after)) = rest.split_once(']') else {
            return false;
        };
        let ok = !inner.is_empty() && inner.bytes().all(|c| c.is_ascii_hexdigit() || c == b':');
        if after.is_empty() {
            (ok, None)
        } else {
            let Some(port) = after.strip_prefix(':') else {
                return false;
            };
            (ok, Some(port))
        }
    } else {
        let (host, port) = match s.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (s, None),
        };
        (host.split('.').all(is_domain_component), port)
    };
    host_ok && port.is_none_or(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
}

fn is_image_name(name: &str) -> bool {
    if name.is_empty() || name.len() > IMAGE_NAME_MAX_LEN {
        return false;
    }
    // Docker's splitDockerDomain: the first component is a registry if it looks like a host.
    let (domain, path) = match name.split_once('/') {
        Some((first, rest))
            if first.contains(['.', ':']) || first == "localhost" || first.bytes().any(|c| c.is_ascii_uppercase()) =>
        {
            (Some(first), rest)
        }
        _ => (None, name),
    };
    domain.is_none_or(is_image_domain) && path.split('/').all(is_path_component)
}

/// `[\w][\w.-]{0,127}`
fn is_image_tag(tag: &str) -> bool {
    let b = tag.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    b.len() <= 128 && b.first().is_some_and(|&c| word(c)) && b.iter().all(|&c| word(c) || c == b'.' || c == b'-')
}

/// `algorithm:hex`, restricted to the algorithms the registry stack verifies.
fn is_image_digest(digest: &str) -> bool {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return false;
    };
    let expected_len = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return false,
    };
    hex.len() == expected_len && hex.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns1123_label_table() {
        let long63 = "a".repeat(63);
        let long64 = "a".repeat(64);
        for (input, want) in [
            ("a", true),
            ("net-a", true),
            ("0net", true),
            ("a-b-c9", true),
            (long63.as_str(), true),
            (long64.as_str(), false),
            ("", false),
            ("-a", false),
            ("a-", false),
            ("net_A", false),
            ("Net", false),
            ("a.b", false),
            ("a b", false),
            ("é", false),
        ] {
            assert_eq!(is_dns1123_label(input), want, "{input:?}");
        }
    }

    #[test]
    fn dns1123_subdomain_table() {
        let long_label = "a".repeat(70);
        let at_limit = vec!["a"; 127].join(".");
        let too_long = vec!["a"; 128].join(".");
        for (input, want) in [
            ("example.com", true),
            ("a", true),
            ("feature.node.kubernetes.io", true),
            (long_label.as_str(), true),
            (at_limit.as_str(), true),
            (too_long.as_str(), false),
            ("", false),
            (".a", false),
            ("a.", false),
            ("a..b", false),
            ("Example.com", false),
            ("a_b.com", false),
            ("a-b.c--d", true),
            ("-a.com", false),
            ("a-.com", false),
            ("a.-b", false),
            ("a.b-", false),
            ("-", false),
            (".", false),
        ] {
            assert_eq!(is_dns1123_subdomain(input), want, "{input:?}");
        }
    }

    #[test]
    fn qualified_name_table() {
        let name63 = format!("x/{}", "a".repeat(63));
        let name64 = format!("x/{}", "a".repeat(64));
        for (input, want) in [
            ("app", true),
            ("App.Name_1-x", true),
            ("kubernetes.io/hostname", true),
            ("feature.node.kubernetes.io/cpu-cpuid.AVX512F", true),
            ("example.com/My_Key", true),
            (name63.as_str(), true),
            (name64.as_str(), false),
            ("", false),
            ("/a", false),
            ("a/", false),
            ("a/b/c", false),
            ("anuket.io/profile/network-intensive", false),
            ("_a", false),
            ("a.", false),
            ("Example.com/a", false),
            ("a b", false),
        ] {
            assert_eq!(is_qualified_name(input), want, "{input:?}");
        }
    }

    #[test]
    fn label_value_table() {
        let v63 = "v".repeat(63);
        let v64 = "v".repeat(64);
        for (input, want) in [
            ("", true),
            ("true", true),
            ("4.18.0-147.el8_1.x86_64", true),
            (v63.as_str(), true),
            (v64.as_str(), false),
            ("-x", false),
            ("x/y", false),
            ("a b", false),
        ] {
            assert_eq!(is_label_value(input), want, "{input:?}");
        }
    }

    #[test]
    fn resource_name_table() {
        use ResourceName as R;
        let huge = |s: &str| R::HugePages { size: s.to_owned() };
        for (input, want) in [
            ("cpu", R::Cpu),
            ("memory", R::Memory),
            ("ephemeral-storage", R::EphemeralStorage),
            ("hugepages-2Mi", huge("2Mi")),
            ("hugepages-1Gi", huge("1Gi")),
            ("hugepages-2048Ki", huge("2048Ki")),
            ("intel.com/sriov", R::Extended),
            ("intel.com/sriov_netdevice", R::Extended),
            ("nvidia.com/gpu", R::Extended),
            ("openshift.io/sriov-nic", R::Extended),
            ("kubernetes.io/foo", R::Reserved),
            ("foo.kubernetes.io/bar", R::Reserved),
            ("gpu", R::Invalid),
            ("storage", R::Invalid),
            ("pods", R::Invalid),
            ("requests.cpu", R::Invalid),
            ("requests.example.com/x", R::Invalid),
            ("CPU", R::Invalid),
            ("example.com/", R::Invalid),
            ("Example.com/x", R::Invalid),
            ("a/b/c", R::Invalid),
            ("", R::Invalid),
        ] {
            assert_eq!(classify_resource_name(input), want, "{input:?}");
        }
    }

    #[test]
    fn extended_name_whose_quota_form_is_too_long_is_invalid() {
        // The name itself is fine, but `requests.` pushes the prefix past 253 characters.
        let prefix = format!("{}.com", "a".repeat(241));
        assert_eq!(prefix.len(), 245);
        let name = format!("{prefix}/x");
        assert!(is_qualified_name(&name));
        assert_eq!(classify_resource_name(&name), ResourceName::Invalid);
    }

    #[test]
    fn linux_ifname_table() {
        for (input, ok) in [
            ("net1", true),
            ("eth0", true),
            ("a", true),
            ("abcdefghijklmno", true),
            ("abcdefghijklmnop", false),
            ("", false),
            (".", false),
            ("..", false),
            ("...", true),
            ("net/1", false),
            ("net 1", false),
            ("net\t1", false),
            ("net\u{b}1", false),
            ("eth0:1", false),
            ("ünï", true),
        ] {
            assert_eq!(is_linux_ifname(input).is_ok(), ok, "{input:?}");
        }
        assert_eq!(
            is_linux_ifname("averyveryverylongname").unwrap_err(),
            "interface name \"averyveryverylongname\" is 21 bytes long, the limit is 15"
        );
    }

    #[test]
    fn ip_or_cidr_table() {
        for (input, want) in [
            ("10.0.0.1", true),
            ("10.0.0.1/24", true),
            ("0.0.0.0/0", true),
            ("10.0.0.1/32", true),
            ("10.0.0.1/33", false),
            ("2001:db8::1", true),
            ("2001:db8::1/64", true),
            ("2001:db8::/128", true),
            ("2001:db8::/129", false),
            ("::ffff:10.0.0.1", true),
            ("10.0.0.01", false),
            ("10.0.0", false),
            ("10.0.0.1/", false),
            ("10.0.0.1/-1", false),
            ("10.0.0.1/2a", false),
            ("10.0.0.1/024", true),
            ("10.0.0.1/99999999999", false),
            ("fe80::1%eth0", false),
            ("256.0.0.1", false),
            ("", false),
            (" 10.0.0.1", false),
            ("host.example", false),
        ] {
            assert_eq!(parse_ip_or_cidr(input), want, "{input:?}");
        }
    }

    #[test]
    fn mac_table() {
        for (input, want) in [
            ("01:23:45:67:89:ab", true),
            ("01:23:45:67:89:AB", true),
            ("01-23-45-67-89-ab", true),
            ("0123.4567.89ab", true),
            ("01:23:45:67:89", false),
            ("01:23:45:67:89:ab:cd", false),
            ("01:23:45:67:89:ab:cd:ef", false),
            ("01:23:45:67:89:gh", false),
            ("01:23-45:67:89:ab", false),
            ("0123.4567.89ab.cdef", false),
            ("1:23:45:67:89:ab", false),
            ("", false),
            ("0123456789ab", false),
        ] {
            assert_eq!(is_mac(input), want, "{input:?}");
        }
        // InfiniBand GUIDs and 20-byte IPoIB addresses are hardware addresses but not MACs.
        assert_eq!(parse_hw_addr("01:23:45:67:89:ab:cd:ef").map(|b| b.len()), Some(8));
        assert_eq!(parse_hw_addr("0123.4567.89ab.cdef").map(|b| b.len()), Some(8));
        let ipoib = vec!["00"; 20].join(":");
        assert_eq!(parse_hw_addr(&ipoib).map(|b| b.len()), Some(20));
        assert_eq!(
            parse_hw_addr("01:23:45:67:89:ab"),
            Some(vec![0x01, 0x23, 0x45, 0x67, 0x89, 0xab])
        );
    }

    fn img<'a>(repository: &'a str, tag: Option<&'a str>, digest: Option<&'a str>, valid: bool) -> ImageRef<'a> {
        ImageRef {
            repository,
            tag,
            digest,
            valid,
        }
    }

    #[test]
    fn image_reference_table() {
        let sha = format!("sha256:{}", "a".repeat(64));
        let with_digest = format!("app@{sha}");
        let tagged_digest = format!("app:latest@{sha}");
        let port_digest = format!("registry:5000/app@{sha}");
        for (input, want) in [
            ("app", img("app", None, None, true)),
            ("app:1.0", img("app", Some("1.0"), None, true)),
            ("r/app:1.4.2", img("r/app", Some("1.4.2"), None, true)),
            ("registry:5000/app", img("registry:5000/app", None, None, true)),
            ("registry:5000/app:v1", img("registry:5000/app", Some("v1"), None, true)),
            ("localhost/app", img("localhost/app", None, None, true)),
            ("[::1]:5000/app:1", img("[::1]:5000/app", Some("1"), None, true)),
            (
                "gcr.io/kubernetes-helm/tiller:v2.16.12",
                img("gcr.io/kubernetes-helm/tiller", Some("v2.16.12"), None, true),
            ),
            (
                "Registry.Example.com/app",
                img("Registry.Example.com/app", None, None, true),
            ),
            ("a__b/c-d.e--f", img("a__b/c-d.e--f", None, None, true)),
            (with_digest.as_str(), img("app", None, Some(&sha), true)),
            (tagged_digest.as_str(), img("app", Some("latest"), Some(&sha), true)),
            (port_digest.as_str(), img("registry:5000/app", None, Some(&sha), true)),
            ("APP:1.0", img("APP", Some("1.0"), None, false)),
            ("r/App:1", img("r/App", Some("1"), None, false)),
            ("app:", img("app", Some(""), None, false)),
            ("app:-x", img("app", Some("-x"), None, false)),
            ("app@sha256:abc", img("app", None, Some("sha256:abc"), false)),
            (
                "app@md5:0123456789abcdef0123456789abcdef",
                img("app", None, Some("md5:0123456789abcdef0123456789abcdef"), false),
            ),
            ("", img("", None, None, false)),
            ("a//b", img("a//b", None, None, false)),
            ("app_:1", img("app_", Some("1"), None, false)),
            ("reg:port/app", img("reg:port/app", None, None, false)),
            (" app", img(" app", None, None, false)),
        ] {
            assert_eq!(image_reference(input), want, "{input:?}");
        }
    }
}
