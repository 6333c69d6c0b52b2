//! Parser and validator for the NPWG / Multus network selection annotation
//! (`k8s.v1.cni.cncf.io/networks`), in both its comma-separated and JSON forms, reporting what
//! Multus, the network plumbing spec and the CNI plugins it feeds would reject.

use std::ops::Range;

use crate::k8s::names::{is_dns1123_label, is_linux_ifname, is_mac, parse_hw_addr, parse_ip, parse_ip_or_cidr};

/// The pod annotation that selects additional networks.
pub(crate) const NETWORKS_ANNOTATION: &str = "k8s.v1.cni.cncf.io/networks";

/// The interface name CRI runtimes give the cluster network; a secondary attachment cannot reuse it.
const PRIMARY_IFNAME: &str = "eth0";

/// Deeper JSON than this is refused rather than risking the stack on hostile input.
const MAX_JSON_DEPTH: usize = 200;

/// How bad a problem is: `Error` when Multus or a CNI plugin would refuse the pod's networks,
/// `Warning` when it works today but is fragile or non-portable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// Which of the two annotation syntaxes the value uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Csv,
    Json,
}

/// One finding about the annotation; `element` is the 0-based position in the list when the
/// finding is about one element (messages count from 1, for people).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub severity: Severity,
    pub element: Option<usize>,
    pub message: String,
}

/// One requested attachment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NetworkElement {
    /// 0-based position in the annotation list; positions whose network name could not be read
    /// (empty CSV items, JSON non-objects, ...) produce a problem but no element, leaving a gap.
    pub index: usize,
    pub name: String,
    /// As written; `Some("")` means the pod's namespace, as an absent value does.
    pub namespace: Option<String>,
    /// The requested interface name (`@ifname`, `interface`, or the deprecated `interfaceRequest`).
    pub interface: Option<String>,
    pub ips: Vec<String>,
    pub mac: Option<String>,
    /// The element carries a non-empty `default-route`.
    pub default_route: bool,
    /// Byte range of the element in the annotation text (the trimmed CSV item, or the JSON value).
    pub raw_range: Option<Range<usize>>,
}

impl NetworkElement {
    /// The namespace Multus looks the `NetworkAttachmentDefinition` up in.
    #[must_use]
    pub fn effective_namespace<'a>(&'a self, pod_namespace: &'a str) -> &'a str {
        match self.namespace.as_deref() {
            Some(ns) if !ns.is_empty() => ns,
            _ => pod_namespace,
        }
    }
}

/// The parsed annotation: every attachment whose network name could be read, and all problems.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkSelection {
    pub elements: Vec<NetworkElement>,
    pub problems: Vec<Problem>,
    pub format: Format,
}

impl NetworkSelection {
    /// Whether Multus or the CNI plugins would refuse the annotation (the pod does not start).
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| p.severity == Severity::Error)
    }
}

/// Parses the annotation value.
///
/// An empty value selects no networks (Multus treats it like an absent annotation). JSON is
/// recognised the way Multus does it: by the presence of `[`, `{` or `"` anywhere in the value.
#[must_use]
pub(crate) fn parse_networks(value: &str) -> NetworkSelection {
    let mut out = Collector::default();
    let format = if value.contains(['[', '{', '"']) {
        parse_json_list(value, &mut out);
        Format::Json
    } else {
        if !value.is_empty() {
            parse_csv(value, &mut out);
        }
        Format::Csv
    };
    check_interfaces(&mut out);
    check_default_routes(&mut out);
    NetworkSelection {
        elements: out.elements,
        problems: out.problems,
        format,
    }
}

#[derive(Default)]
struct Collector {
    elements: Vec<NetworkElement>,
    problems: Vec<Problem>,
}

impl Collector {
    fn error(&mut self, element: Option<usize>, message: String) {
        self.problems.push(Problem {
            severity: Severity::Error,
            element,
            message,
        });
    }

    fn warning(&mut self, element: Option<usize>, message: String) {
        self.problems.push(Problem {
            severity: Severity::Warning,
            element,
            message,
        });
    }
}

fn ordinal(index: usize) -> usize {
    index.saturating_add(1)
}

fn parse_csv(value: &str, out: &mut Collector) {
    let mut offset = 0usize;
    for (index, raw) in value.split(',').enumerate() {
        let start = offset;
        offset = offset.saturating_add(raw.len()).saturating_add(1);
        let item = raw.trim();
        let lead = raw.len() - raw.trim_start().len();
        let range = start + lead..start + lead + item.len();
        let n = ordinal(index);
        if item.is_empty() {
            out.error(
                Some(index),
                format!("empty network name in element {n} (stray or doubled comma)"),
            );
            continue;
        }
        // Same order as Multus: split on "/" first, then the name part on "@".
        let slash_parts: Vec<&str> = item.split('/').collect();
        let (namespace, rest) = match slash_parts.as_slice() {
            [rest] => (None, *rest),
            [ns, rest] => (Some(ns.trim()), *rest),
            _ => {
                out.error(
                    Some(index),
                    format!("network reference \"{item}\" has more than one \"/\""),
                );
                continue;
            }
        };
        let at_parts: Vec<&str> = rest.split('@').collect();
        let (name, interface) = match at_parts.as_slice() {
            [name] => (name.trim(), None),
            [name, ifname] => (name.trim(), Some(ifname.trim())),
            _ => {
                out.error(
                    Some(index),
                    format!("network reference \"{item}\" has more than one \"@\""),
                );
                continue;
            }
        };
        if name.is_empty() {
            out.error(Some(index), format!("empty network name in element {n} (\"{item}\")"));
            continue;
        }
        if !is_dns1123_label(name) {
            out.error(Some(index), format!("network \"{name}\" is not a valid DNS-1123 label"));
        }
        match namespace {
            Some("") => out.warning(
                Some(index),
                format!("empty namespace before \"/\" in \"{item}\"; the pod's namespace is used"),
            ),
            Some(ns) if !is_dns1123_label(ns) => out.error(
                Some(index),
                format!("namespace \"{ns}\" of network \"{name}\" is not a valid DNS-1123 label"),
            ),
            _ => {}
        }
        let interface = match interface {
            Some("") => {
                out.warning(
                    Some(index),
                    format!("empty interface name after \"@\" in \"{item}\"; Multus generates one"),
                );
                None
            }
            Some(ifname) => {
                if let Err(why) = is_linux_ifname(ifname) {
                    out.error(Some(index), format!("network \"{name}\": {why}"));
                }
                Some(ifname.to_owned())
            }
            None => None,
        };
        out.elements.push(NetworkElement {
            index,
            name: name.to_owned(),
            namespace: namespace.map(str::to_owned),
            interface,
            raw_range: Some(range),
            ..NetworkElement::default()
        });
    }
}

fn parse_json_list(value: &str, out: &mut Collector) {
    let root = match json::parse(value) {
        Ok(root) => root,
        Err(why) => {
            out.error(None, format!("network annotation is not valid JSON: {why}"));
            return;
        }
    };
    let json::Value::Array(items) = root.value else {
        out.error(
            None,
            format!(
                "network annotation must be a JSON list of network selection elements, not {}",
                root.value.kind()
            ),
        );
        return;
    };
    for (index, item) in items.into_iter().enumerate() {
        let n = ordinal(index);
        match item.value {
            json::Value::Object(members) => {
                parse_json_element(index, members, item.span, out);
            }
            other => out.error(
                Some(index),
                format!("network element {n} must be an object, not {}", other.kind()),
            ),
        }
    }
}

/// Fields of Multus' and the NAD client's `NetworkSelectionElement`, by JSON name.
const ELEMENT_FIELDS: &[&str] = &[
    "name",
    "namespace",
    "ips",
    "mac",
    "infiniband-guid",
    "interface",
    "interfaceRequest",
    "portMappings",
    "bandwidth",
    "cni-args",
    "default-route",
    "ipam-claim-reference",
    "deviceID",
];

const PORT_MAPPING_FIELDS: &[&str] = &["hostPort", "containerPort", "protocol", "hostIP"];
const BANDWIDTH_FIELDS: &[&str] = &["ingressRate", "ingressBurst", "egressRate", "egressBurst"];

/// Resolves keys to struct fields the way Go's `encoding/json` does (exact match first, then a
/// case-insensitive one; the last occurrence wins) and reports what other parsers would not accept.
fn resolve_fields(
    members: Vec<(String, json::Node)>,
    fields: &'static [&'static str],
    whose: &str,
    element: usize,
    out: &mut Collector,
    warn_unknown: bool,
) -> Vec<(&'static str, json::Node)> {
    let mut resolved: Vec<(&'static str, String, json::Node)> = Vec::new();
    for (key, node) in members {
        let field = fields
            .iter()
            .find(|f| **f == key)
            .or_else(|| fields.iter().find(|f| f.eq_ignore_ascii_case(&key)));
        let Some(&field) = field else {
            if warn_unknown && !key.contains('.') {
                out.warning(
                    Some(element),
                    format!(
                        "unknown key \"{key}\" in {whose}; dot-less keys are reserved by the network \
                         selection spec and vendor keys must be reverse-DNS names"
                    ),
                );
            }
            continue;
        };
        if field != key {
            out.warning(
                Some(element),
                format!(
                    "key \"{key}\" in {whose} matches \"{field}\" only case-insensitively; Multus \
                     accepts it, but the canonical key is \"{field}\""
                ),
            );
        }
        if let Some(pos) = resolved.iter().position(|(f, _, _)| *f == field) {
            let (_, first_key, _) = resolved.remove(pos);
            out.warning(
                Some(element),
                format!("key \"{key}\" in {whose} repeats \"{first_key}\"; the last value wins"),
            );
        }
        resolved.push((field, key, node));
    }
    resolved.into_iter().map(|(f, _, node)| (f, node)).collect()
}

/// The resolved members of one JSON object, read field by field with Go's typing rules.
struct Fields {
    members: Vec<(&'static str, json::Node)>,
    /// How messages name the object ("network \"a\"", "portMappings entry 1 of ...").
    whose: String,
    /// The network element the object belongs to.
    element: usize,
}

impl Fields {
    fn is_present(&self, key: &str) -> bool {
        self.members
            .iter()
            .any(|(f, node)| *f == key && !matches!(node.value, json::Value::Null))
    }

    fn take(&mut self, key: &str) -> Option<json::Node> {
        let pos = self.members.iter().position(|(f, _)| *f == key)?;
        let (_, node) = self.members.remove(pos);
        match node.value {
            // Go leaves the field at its zero value for null.
            json::Value::Null => None,
            _ => Some(node),
        }
    }

    fn type_error(&self, out: &mut Collector, key: &str, expected: &str, found: &str) {
        out.error(
            Some(self.element),
            format!("\"{key}\" of {} must be {expected}, not {found}", self.whose),
        );
    }

    /// A Go `string` field: anything but a string (or null) is an unmarshal error.
    fn string(&mut self, key: &str, out: &mut Collector) -> Option<String> {
        let node = self.take(key)?;
        match node.value {
            json::Value::String(s) => Some(s),
            other => {
                self.type_error(out, key, "a string", other.kind());
                None
            }
        }
    }

    /// A Go `int` field: an integer literal that fits 64 bits (no fraction, no exponent).
    fn int(&mut self, key: &str, out: &mut Collector) -> Option<i64> {
        let node = self.take(key)?;
        match node.value {
            json::Value::Number(literal) => {
                let parsed = literal.parse::<i64>().ok();
                if parsed.is_none() {
                    self.type_error(out, key, "an integer", &literal);
                }
                parsed
            }
            other => {
                self.type_error(out, key, "an integer", other.kind());
                None
            }
        }
    }

    /// A Go `[]string` field; the flag says whether the list was written empty.
    fn string_list(&mut self, key: &str, out: &mut Collector) -> Option<(Vec<String>, bool)> {
        let node = self.take(key)?;
        let json::Value::Array(items) = node.value else {
            self.type_error(out, key, "a list of strings", node.value.kind());
            return None;
        };
        let written_empty = items.is_empty();
        let mut strings = Vec::with_capacity(items.len());
        for item in items {
            match item.value {
                json::Value::String(s) => strings.push(s),
                // A null entry decodes to "" in Go, which no consumer accepts either.
                other => out.error(
                    Some(self.element),
                    format!(
                        "\"{key}\" of {} must contain only strings, found {}",
                        self.whose,
                        other.kind()
                    ),
                ),
            }
        }
        Some((strings, written_empty))
    }
}

fn parse_json_element(index: usize, members: Vec<(String, json::Node)>, span: Range<usize>, out: &mut Collector) {
    let whose_element = format!("network element {}", ordinal(index));
    let mut fields = Fields {
        members: resolve_fields(members, ELEMENT_FIELDS, &whose_element, index, out, true),
        whose: whose_element,
        element: index,
    };
    let name = element_name(&mut fields, out);
    let namespace = fields.string("namespace", out);
    if let Some(ns) = namespace.as_deref() {
        if !ns.is_empty() && !is_dns1123_label(ns) {
            out.error(
                Some(index),
                format!("namespace \"{ns}\" of {} is not a valid DNS-1123 label", fields.whose),
            );
        }
    }
    let (ips, mac) = check_addresses(&mut fields, out);
    let interface = check_interface(&mut fields, out);
    if let Some(node) = fields.take("portMappings") {
        check_port_mappings(node, &fields.whose, index, out);
    }
    if let Some(node) = fields.take("bandwidth") {
        check_bandwidth(node, &fields.whose, index, out);
    }
    if let Some(node) = fields.take("cni-args") {
        if !matches!(node.value, json::Value::Object(_)) {
            fields.type_error(out, "cni-args", "an object", node.value.kind());
        }
    }
    let default_route = check_default_route(&mut fields, out);
    fields.string("ipam-claim-reference", out);
    fields.string("deviceID", out);

    if let Some(name) = name {
        out.elements.push(NetworkElement {
            index,
            name,
            namespace,
            interface,
            ips,
            mac,
            default_route,
            raw_range: Some(span),
        });
    }
}

/// Reads and checks "name"; afterwards messages name the network rather than its position.
fn element_name(fields: &mut Fields, out: &mut Collector) -> Option<String> {
    match fields.string("name", out) {
        Some(name) if !name.is_empty() => {
            if !is_dns1123_label(&name) {
                out.error(
                    Some(fields.element),
                    format!("network \"{name}\" is not a valid DNS-1123 label"),
                );
            }
            fields.whose = format!("network \"{name}\"");
            Some(name)
        }
        Some(_) => {
            out.error(Some(fields.element), format!("{} has an empty \"name\"", fields.whose));
            None
        }
        None => {
            out.error(Some(fields.element), format!("{} has no \"name\"", fields.whose));
            None
        }
    }
}

/// "ips", "mac" and "infiniband-guid".
fn check_addresses(fields: &mut Fields, out: &mut Collector) -> (Vec<String>, Option<String>) {
    let ips = match fields.string_list("ips", out) {
        Some((ips, written_empty)) => {
            if written_empty {
                out.warning(
                    Some(fields.element),
                    format!("\"ips\" of {} is an empty list", fields.whose),
                );
            }
            for ip in &ips {
                if !parse_ip_or_cidr(ip) {
                    out.error(
                        Some(fields.element),
                        format!("requested IP \"{ip}\" of {} is not an IP address or CIDR", fields.whose),
                    );
                }
            }
            ips
        }
        None => Vec::new(),
    };
    let mac = fields.string("mac", out).filter(|m| !m.is_empty());
    if let Some(mac) = mac.as_deref() {
        if !is_mac(mac) {
            out.error(
                Some(fields.element),
                format!(
                    "requested MAC \"{mac}\" of {} is not a 6-byte MAC address",
                    fields.whose
                ),
            );
        }
    }
    if let Some(guid) = fields.string("infiniband-guid", out) {
        if !guid.is_empty() && parse_hw_addr(&guid).is_none() {
            out.error(
                Some(fields.element),
                format!(
                    "requested InfiniBand GUID \"{guid}\" of {} is not a hardware address",
                    fields.whose
                ),
            );
        }
    }
    (ips, mac)
}

/// "interface", falling back to the deprecated "interfaceRequest" as Multus does.
fn check_interface(fields: &mut Fields, out: &mut Collector) -> Option<String> {
    let interface = fields.string("interface", out).filter(|i| !i.is_empty());
    if fields.members.iter().any(|(f, _)| *f == "interfaceRequest") {
        out.warning(
            Some(fields.element),
            format!(
                "\"interfaceRequest\" of {} is deprecated since Multus 3.2; use \"interface\"",
                fields.whose
            ),
        );
    }
    let old_interface = fields.string("interfaceRequest", out).filter(|i| !i.is_empty());
    let interface = interface.or(old_interface);
    if let Some(ifname) = interface.as_deref() {
        if let Err(why) = is_linux_ifname(ifname) {
            out.error(Some(fields.element), format!("{}: {why}", fields.whose));
        }
    }
    interface
}

/// "default-route": gateway IPs; true when the element asks to own the default route.
fn check_default_route(fields: &mut Fields, out: &mut Collector) -> bool {
    let Some((gateways, _)) = fields.string_list("default-route", out) else {
        return false;
    };
    for gw in &gateways {
        // net.IP's text decoding accepts an empty string as "no address".
        if !gw.is_empty() && parse_ip(gw).is_none() {
            out.error(
                Some(fields.element),
                format!("default-route \"{gw}\" of {} is not an IP address", fields.whose),
            );
        }
    }
    gateways.iter().any(|gw| !gw.is_empty())
}

fn check_port_mappings(node: json::Node, whose: &str, index: usize, out: &mut Collector) {
    let json::Value::Array(entries) = node.value else {
        out.error(
            Some(index),
            format!("\"portMappings\" of {whose} must be a list, not {}", node.value.kind()),
        );
        return;
    };
    for (i, entry) in entries.into_iter().enumerate() {
        let what = format!("portMappings entry {} of {whose}", ordinal(i));
        let members = match entry.value {
            json::Value::Object(members) => members,
            json::Value::Null => {
                out.warning(Some(index), format!("{what} is null"));
                continue;
            }
            other => {
                out.error(Some(index), format!("{what} must be an object, not {}", other.kind()));
                continue;
            }
        };
        let mut fields = Fields {
            members: resolve_fields(members, PORT_MAPPING_FIELDS, &what, index, out, false),
            whose: what,
            element: index,
        };
        for key in ["hostPort", "containerPort"] {
            let present = fields.is_present(key);
            match fields.int(key, out) {
                Some(port) if !(1..=65535).contains(&port) => out.error(
                    Some(index),
                    format!("{key} {port} of {} is outside 1-65535", fields.whose),
                ),
                None if !present => {
                    out.error(Some(index), format!("{} has no {key}", fields.whose));
                }
                _ => {}
            }
        }
        if let Some(protocol) = fields.string("protocol", out) {
            // CNI's portmap plugin defaults an empty protocol to TCP and hands the rest to iptables.
            let known = ["tcp", "udp", "sctp"];
            if !protocol.is_empty() && !known.iter().any(|p| p.eq_ignore_ascii_case(&protocol)) {
                out.error(
                    Some(index),
                    format!("protocol \"{protocol}\" of {} is not TCP, UDP or SCTP", fields.whose),
                );
            }
        }
        if let Some(host_ip) = fields.string("hostIP", out) {
            if !host_ip.is_empty() && parse_ip(&host_ip).is_none() {
                out.error(
                    Some(index),
                    format!("hostIP \"{host_ip}\" of {} is not an IP address", fields.whose),
                );
            }
        }
    }
}

fn check_bandwidth(node: json::Node, whose: &str, index: usize, out: &mut Collector) {
    let json::Value::Object(members) = node.value else {
        out.error(
            Some(index),
            format!("\"bandwidth\" of {whose} must be an object, not {}", node.value.kind()),
        );
        return;
    };
    let what = format!("bandwidth of {whose}");
    let mut fields = Fields {
        members: resolve_fields(members, BANDWIDTH_FIELDS, &what, index, out, false),
        whose: what,
        element: index,
    };
    for direction in ["ingress", "egress"] {
        let rate_key = format!("{direction}Rate");
        let burst_key = format!("{direction}Burst");
        let rate = fields.int(&rate_key, out).unwrap_or(0);
        let burst = fields.int(&burst_key, out).unwrap_or(0);
        let what = &fields.whose;
        // Mirrors the CNI bandwidth plugin's validateRateAndBurst.
        if rate < 0 || burst < 0 {
            out.error(
                Some(index),
                format!("{rate_key} and {burst_key} of {what} must not be negative"),
            );
        } else if burst != 0 && rate == 0 {
            out.error(Some(index), format!("{burst_key} of {what} is set without {rate_key}"));
        } else if rate != 0 && burst == 0 {
            out.error(Some(index), format!("{rate_key} of {what} is set without {burst_key}"));
        }
    }
}

/// Two attachments cannot share a name in the pod's network namespace (MNS 4.1.2.1).
fn check_interfaces(out: &mut Collector) {
    let mut problems = Vec::new();
    for (pos, element) in out.elements.iter().enumerate() {
        let Some(ifname) = element.interface.as_deref() else {
            continue;
        };
        if let Some(first) = out
            .elements
            .get(..pos)
            .and_then(|earlier| earlier.iter().find(|e| e.interface.as_deref() == Some(ifname)))
        {
            problems.push((
                Severity::Error,
                element.index,
                format!(
                    "interface \"{ifname}\" is requested by network elements {} (\"{}\") and {} (\"{}\")",
                    ordinal(first.index),
                    first.name,
                    ordinal(element.index),
                    element.name
                ),
            ));
        }
        if ifname == PRIMARY_IFNAME {
            problems.push((
                Severity::Warning,
                element.index,
                format!(
                    "interface \"{ifname}\" requested for network \"{}\" is the name of the pod's \
                     cluster-network interface",
                    element.name
                ),
            ));
        }
        // Multus names an attachment without an interface "net<position>" (1-based, assuming
        // no extra defaultNetworks), so an explicit name of that shape can collide with it.
        if let Some(other) = out
            .elements
            .iter()
            .find(|e| e.interface.is_none() && format!("net{}", ordinal(e.index)) == ifname)
        {
            problems.push((
                Severity::Warning,
                element.index,
                format!(
                    "interface \"{ifname}\" requested for network \"{}\" is the name Multus \
                     generates for network element {} (\"{}\")",
                    element.name,
                    ordinal(other.index),
                    other.name
                ),
            ));
        }
    }
    for (severity, element, message) in problems {
        out.problems.push(Problem {
            severity,
            element: Some(element),
            message,
        });
    }
}

/// Only one attachment may replace the pod's default route.
fn check_default_routes(out: &mut Collector) {
    let with_route: Vec<&NetworkElement> = out.elements.iter().filter(|e| e.default_route).collect();
    if let [_, second, ..] = with_route.as_slice() {
        let list = with_route
            .iter()
            .map(|e| format!("{} (\"{}\")", ordinal(e.index), e.name))
            .collect::<Vec<_>>()
            .join(", ");
        let element = Some(second.index);
        out.error(
            element,
            format!("default-route is set on more than one network element: {list}"),
        );
    }
}

/// A small JSON reader that keeps key order, duplicate keys, number literals and byte spans,
/// which Go's decoder semantics (last key wins, integer literals only for `int`) depend on.
mod json {
    use std::ops::Range;

    use super::MAX_JSON_DEPTH;

    #[derive(Debug, Clone, PartialEq)]
    pub(super) enum Value {
        Null,
        Bool(bool),
        /// The literal text, validated against the JSON number grammar.
        Number(String),
        String(String),
        Array(Vec<Node>),
        Object(Vec<(String, Node)>),
    }

    impl Value {
        #[must_use]
        pub(super) fn kind(&self) -> &'static str {
            match self {
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::String(_) => "a string",
                Value::Array(_) => "a list",
                Value::Object(_) => "an object",
            }
        }
    }

    #[derive(Debug, Clone, PartialEq)]
    pub(super) struct Node {
        pub value: Value,
        pub span: Range<usize>,
    }

    pub(super) fn parse(src: &str) -> Result<Node, String> {
        let mut parser = Parser { src, pos: 0 };
        parser.skip_ws();
        let node = parser.value(0)?;
        parser.skip_ws();
        match parser.peek() {
            None => Ok(node),
            Some(_) => Err(parser.unexpected("after the top-level value")),
        }
    }

    struct Parser<'a> {
        src: &'a str,
        pos: usize,
    }

    impl Parser<'_> {
        fn peek(&self) -> Option<u8> {
            self.src.as_bytes().get(self.pos).copied()
        }

        fn skip_ws(&mut self) {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                self.pos += 1;
            }
        }

        fn unexpected(&self, context: &str) -> String {
            match self.src.get(self.pos..).and_then(|rest| rest.chars().next()) {
                Some(c) => format!("unexpected {c:?} at byte {} {context}", self.pos),
                None => format!("unexpected end of input {context}"),
            }
        }

        fn expect(&mut self, byte: u8, context: &str) -> Result<(), String> {
            if self.peek() == Some(byte) {
                self.pos += 1;
                Ok(())
            } else {
                Err(self.unexpected(context))
            }
        }

        fn value(&mut self, depth: usize) -> Result<Node, String> {
            if depth > MAX_JSON_DEPTH {
                return Err(format!(
                    "nesting deeper than {MAX_JSON_DEPTH} levels at byte {}",
                    self.pos
                ));
            }
            let start = self.pos;
            let value = match self.peek() {
                Some(b'{') => self.object(depth)?,
                Some(b'[') => self.array(depth)?,
                Some(b'"') => Value::String(self.string()?),
                Some(b't') => self.literal("true", Value::Bool(true))?,
                Some(b'f') => self.literal("false", Value::Bool(false))?,
                Some(b'n') => self.literal("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                _ => return Err(self.unexpected("where a value was expected")),
            };
            Ok(Node {
                value,
                span: start..self.pos,
            })
        }

        fn literal(&mut self, word: &str, value: Value) -> Result<Value, String> {
            if self.src.get(self.pos..).is_some_and(|rest| rest.starts_with(word)) {
                self.pos += word.len();
                Ok(value)
            } else {
                Err(self.unexpected("in a literal"))
            }
        }

        fn digits(&mut self) -> usize {
            let start = self.pos;
            while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
            self.pos - start
        }

        fn number(&mut self) -> Result<Value, String> {
            let start = self.pos;
            if self.peek() == Some(b'-') {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'0') => self.pos += 1,
                Some(b'1'..=b'9') => {
                    self.digits();
                }
                _ => return Err(self.unexpected("in a number")),
            }
            if self.peek() == Some(b'.') {
                self.pos += 1;
                if self.digits() == 0 {
                    return Err(self.unexpected("after a decimal point"));
                }
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                self.pos += 1;
                if matches!(self.peek(), Some(b'+' | b'-')) {
                    self.pos += 1;
                }
                if self.digits() == 0 {
                    return Err(self.unexpected("in an exponent"));
                }
            }
            Ok(Value::Number(
                self.src.get(start..self.pos).unwrap_or_default().to_owned(),
            ))
        }

        fn hex4(&mut self) -> Result<u32, String> {
            let digits = self
                .src
                .get(self.pos..self.pos + 4)
                .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
                .ok_or_else(|| self.unexpected("in a \\u escape"))?;
            let code = u32::from_str_radix(digits, 16).map_err(|_| self.unexpected("in a \\u escape"))?;
            self.pos += 4;
            Ok(code)
        }

        fn string(&mut self) -> Result<String, String> {
            self.expect(b'"', "at the start of a string")?;
            let mut out = String::new();
            loop {
                let run_start = self.pos;
                while self.peek().is_some_and(|b| b != b'"' && b != b'\\' && b >= 0x20) {
                    self.pos += 1;
                }
                // The run stops at an ASCII byte or the end, so both ends are char boundaries.
                out.push_str(self.src.get(run_start..self.pos).unwrap_or_default());
                match self.peek() {
                    Some(b'"') => {
                        self.pos += 1;
                        return Ok(out);
                    }
                    Some(b'\\') => {
                        self.pos += 1;
                        self.escape(&mut out)?;
                    }
                    Some(_) => return Err(self.unexpected("(control characters must be escaped)")),
                    None => return Err("unexpected end of input in a string".to_owned()),
                }
            }
        }

        fn escape(&mut self, out: &mut String) -> Result<(), String> {
            let Some(b) = self.peek() else {
                return Err("unexpected end of input in an escape".to_owned());
            };
            self.pos += 1;
            if b != b'u' {
                let Some(c) = crate::parse::json::short_escape(b) else {
                    self.pos -= 1;
                    return Err(self.unexpected("in an escape"));
                };
                out.push(c);
                return Ok(());
            }
            let first = self.hex4()?;
            let c = if (0xD800..0xDC00).contains(&first)
                && self.src.get(self.pos..).is_some_and(|r| r.starts_with("\\u"))
            {
                let save = self.pos;
                self.pos += 2;
                let second = self.hex4()?;
                if (0xDC00..0xE000).contains(&second) {
                    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
                } else {
                    // Go replaces a lone surrogate and decodes the next escape on its own.
                    self.pos = save;
                    char::REPLACEMENT_CHARACTER
                }
            } else {
                char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER)
            };
            out.push(c);
            Ok(())
        }

        fn array(&mut self, depth: usize) -> Result<Value, String> {
            self.expect(b'[', "at the start of a list")?;
            let mut items = Vec::new();
            self.skip_ws();
            if self.peek() == Some(b']') {
                self.pos += 1;
                return Ok(Value::Array(items));
            }
            loop {
                self.skip_ws();
                items.push(self.value(depth + 1)?);
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b']') => {
                        self.pos += 1;
                        return Ok(Value::Array(items));
                    }
                    _ => return Err(self.unexpected("where ',' or ']' was expected")),
                }
            }
        }

        fn object(&mut self, depth: usize) -> Result<Value, String> {
            self.expect(b'{', "at the start of an object")?;
            let mut members = Vec::new();
            self.skip_ws();
            if self.peek() == Some(b'}') {
                self.pos += 1;
                return Ok(Value::Object(members));
            }
            loop {
                self.skip_ws();
                if self.peek() != Some(b'"') {
                    return Err(self.unexpected("where a key was expected"));
                }
                let key = self.string()?;
                self.skip_ws();
                self.expect(b':', "where ':' was expected")?;
                self.skip_ws();
                let value = self.value(depth + 1)?;
                members.push((key, value));
                self.skip_ws();
                match self.peek() {
                    Some(b',') => self.pos += 1,
                    Some(b'}') => {
                        self.pos += 1;
                        return Ok(Value::Object(members));
                    }
                    _ => return Err(self.unexpected("where ',' or '}' was expected")),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn messages(sel: &NetworkSelection, severity: Severity) -> Vec<&str> {
        sel.problems
            .iter()
            .filter(|p| p.severity == severity)
            .map(|p| p.message.as_str())
            .collect()
    }

    fn names(sel: &NetworkSelection) -> Vec<&str> {
        sel.elements.iter().map(|e| e.name.as_str()).collect()
    }

    /// (annotation, expected network names, error fragments, warning fragments)
    type Case = (
        &'static str,
        &'static [&'static str],
        &'static [&'static str],
        &'static [&'static str],
    );

    fn run_table(cases: &[Case], format: Format) {
        for &(input, want_names, want_errors, want_warnings) in cases {
            let sel = parse_networks(input);
            assert_eq!(sel.format, format, "{input}");
            assert_eq!(names(&sel), want_names, "{input}: {sel:#?}");
            let errors = messages(&sel, Severity::Error);
            let warnings = messages(&sel, Severity::Warning);
            assert_eq!(errors.len(), want_errors.len(), "{input}: errors {errors:#?}");
            for (got, want) in errors.iter().zip(want_errors) {
                assert!(got.contains(want), "{input}: error {got:?} lacks {want:?}");
            }
            assert_eq!(warnings.len(), want_warnings.len(), "{input}: warnings {warnings:#?}");
            for (got, want) in warnings.iter().zip(want_warnings) {
                assert!(got.contains(want), "{input}: warning {got:?} lacks {want:?}");
            }
            for p in &sel.problems {
                let first = p.message.chars().next().unwrap();
                assert!(!first.is_uppercase(), "{input}: {:?}", p.message);
                assert!(!p.message.ends_with('.'), "{input}: {:?}", p.message);
            }
        }
    }

    const CSV_CASES: &[Case] = &[
        ("net-a", &["net-a"], &[], &[]),
        ("ns1/net-a@net1, net-b", &["net-a", "net-b"], &[], &[]),
        // §3.18: whitespace around items and around each part is trimmed.
        (" ns1/net-a @ net1 , net-b ", &["net-a", "net-b"], &[], &[]),
        (" ns1 / net-a @ net1 ", &["net-a"], &[], &[]),
        ("a,,b", &["a", "b"], &["empty network name in element 2"], &[]),
        ("a,", &["a"], &["empty network name in element 2"], &[]),
        (",a", &["a"], &["empty network name in element 1"], &[]),
        (",", &[], &["element 1", "element 2"], &[]),
        ("   ", &[], &["empty network name in element 1"], &[]),
        ("a, ,b", &["a", "b"], &["element 2"], &[]),
        ("ns1/", &[], &["empty network name in element 1 (\"ns1/\")"], &[]),
        ("ns1/@net1", &[], &["empty network name"], &[]),
        (
            "a/b/c",
            &[],
            &["network reference \"a/b/c\" has more than one \"/\""],
            &[],
        ),
        (
            "a@x@y",
            &[],
            &["network reference \"a@x@y\" has more than one \"@\""],
            &[],
        ),
        ("ns/a@x@y, b", &["b"], &["more than one \"@\""], &[]),
        // The spec's FAIL example: bad name and a trailing comma.
        (
            "net_A,",
            &["net_A"],
            &[
                "network \"net_A\" is not a valid DNS-1123 label",
                "empty network name in element 2",
            ],
            &[],
        ),
        (
            "Net-A",
            &["Net-A"],
            &["network \"Net-A\" is not a valid DNS-1123 label"],
            &[],
        ),
        ("net-a-", &["net-a-"], &["not a valid DNS-1123 label"], &[]),
        (
            "ns_1/net-a",
            &["net-a"],
            &["namespace \"ns_1\" of network \"net-a\" is not a valid DNS-1123 label"],
            &[],
        ),
        // "/" is split first, so an "@" before it lands in the namespace.
        ("a@eth0/1", &["1"], &["namespace \"a@eth0\""], &[]),
        (
            "net-a@averyveryverylongname",
            &["net-a"],
            &["network \"net-a\": interface name \"averyveryverylongname\" is 21 bytes long"],
            &[],
        ),
        ("net-a@net 1", &["net-a"], &["contains whitespace"], &[]),
        ("net-a@net:1", &["net-a"], &["contains \":\""], &[]),
        (
            "net-a@",
            &["net-a"],
            &[],
            &["empty interface name after \"@\" in \"net-a@\""],
        ),
        (
            "/net-a",
            &["net-a"],
            &[],
            &["empty namespace before \"/\" in \"/net-a\""],
        ),
        // MNS 4.1.2.1: interface names must be unique.
        (
            "a@net1,b@net1",
            &["a", "b"],
            &["interface \"net1\" is requested by network elements 1 (\"a\") and 2 (\"b\")"],
            &[],
        ),
        (
            "a@eth0",
            &["a"],
            &[],
            &["is the name of the pod's cluster-network interface"],
        ),
        (
            "a,b@net1",
            &["a", "b"],
            &[],
            &["is the name Multus generates for network element 1 (\"a\")"],
        ),
        (
            "a@net2,b",
            &["a", "b"],
            &[],
            &["generates for network element 2 (\"b\")"],
        ),
        ("a@net1,b", &["a", "b"], &[], &[]),
        // The same network twice is two attachments, not an error.
        ("a,a", &["a", "a"], &[], &[]),
        ("a,b,c,d,e,f", &["a", "b", "c", "d", "e", "f"], &[], &[]),
        // Not JSON (no bracket, brace or quote), so "null" is a network name.
        ("null", &["null"], &[], &[]),
        ("", &[], &[], &[]),
    ];

    #[test]
    fn csv_table() {
        run_table(CSV_CASES, Format::Csv);
    }

    #[test]
    fn csv_fields_and_ranges() {
        let value = " ns1/net-a @ net1 , net-b ";
        let sel = parse_networks(value);
        let [a, b] = sel.elements.as_slice() else {
            panic!("{sel:#?}")
        };
        assert_eq!(a.index, 0);
        assert_eq!(a.namespace.as_deref(), Some("ns1"));
        assert_eq!(a.interface.as_deref(), Some("net1"));
        assert_eq!(&value[a.raw_range.clone().unwrap()], "ns1/net-a @ net1");
        assert_eq!(b.index, 1);
        assert_eq!(b.namespace, None);
        assert_eq!(b.interface, None);
        assert_eq!(&value[b.raw_range.clone().unwrap()], "net-b");
        assert_eq!(a.effective_namespace("pod-ns"), "ns1");
        assert_eq!(b.effective_namespace("pod-ns"), "pod-ns");

        let sel = parse_networks("a,,b");
        assert_eq!(sel.elements.iter().map(|e| e.index).collect::<Vec<_>>(), [0, 2]);
        assert_eq!(sel.problems[0].element, Some(1));

        let sel = parse_networks("/net-a");
        assert_eq!(sel.elements[0].namespace.as_deref(), Some(""));
        assert_eq!(sel.elements[0].effective_namespace("pod-ns"), "pod-ns");
    }

    const JSON_SHAPE_CASES: &[Case] = &[
        (r#"[{"name":"a"}]"#, &["a"], &[], &[]),
        (
            r#"  [ {"name" : "a"} , {"name":"b","namespace":"ns1"} ]  "#,
            &["a", "b"],
            &[],
            &[],
        ),
        ("[]", &[], &[], &[]),
        // §3.19: a bare object is not a list.
        (
            r#"{"name":"a"}"#,
            &[],
            &["network annotation must be a JSON list of network selection elements, not an object"],
            &[],
        ),
        (
            r#""net-a""#,
            &[],
            &["must be a JSON list of network selection elements, not a string"],
            &[],
        ),
        (
            r#"[{"name":"a","interface":"net1"},{"name":"b","interface":"net1"}]"#,
            &["a", "b"],
            &["interface \"net1\" is requested by network elements 1 (\"a\") and 2 (\"b\")"],
            &[],
        ),
        (
            r#"[{"name":"a","ips":"10.0.0.1"}]"#,
            &["a"],
            &["\"ips\" of network \"a\" must be a list of strings, not a string"],
            &[],
        ),
        // §3.21: Go matches field names case-insensitively.
        (
            r#"[{"Name":"a"}]"#,
            &["a"],
            &[],
            &["key \"Name\" in network element 1 matches \"name\" only case-insensitively"],
        ),
        (
            r#"[{"NAME":"a","Interface":"net1"}]"#,
            &["a"],
            &[],
            &["\"NAME\"", "\"Interface\""],
        ),
        // Syntax errors.
        (
            r#"[{"name":"a"},]"#,
            &[],
            &["network annotation is not valid JSON: unexpected ']' at byte 14"],
            &[],
        ),
        (r"[{'name':'a'}]", &[], &["not valid JSON"], &[]),
        (r#"net-a, "net-b""#, &[], &["not valid JSON"], &[]),
        (r#"[{"name":"a"}"#, &[], &["unexpected end of input"], &[]),
        (r#"[{"name":"a"}] x"#, &[], &["after the top-level value"], &[]),
        ("[", &[], &["not valid JSON"], &[]),
        // Elements.
        (
            r#"["a"]"#,
            &[],
            &["network element 1 must be an object, not a string"],
            &[],
        ),
        (
            r#"[null, {"name":"b"}]"#,
            &["b"],
            &["network element 1 must be an object, not null"],
            &[],
        ),
        ("[{}]", &[], &["network element 1 has no \"name\""], &[]),
        (r#"[{"name":null}]"#, &[], &["has no \"name\""], &[]),
        (
            r#"[{"name":""}]"#,
            &[],
            &["network element 1 has an empty \"name\""],
            &[],
        ),
        (
            r#"[{"name":5}]"#,
            &[],
            &[
                "\"name\" of network element 1 must be a string, not a number",
                "has no \"name\"",
            ],
            &[],
        ),
        (
            r#"[{"name":"net_A"}]"#,
            &["net_A"],
            &["network \"net_A\" is not a valid DNS-1123 label"],
            &[],
        ),
        (
            r#"[{"name":"a","namespace":"Ns1"}]"#,
            &["a"],
            &["namespace \"Ns1\" of network \"a\" is not a valid DNS-1123 label"],
            &[],
        ),
        (r#"[{"name":"a","namespace":""}]"#, &["a"], &[], &[]),
    ];

    const JSON_ADDRESS_CASES: &[Case] = &[
        // ips
        (
            r#"[{"name":"a","ips":["10.0.0.1/24","2001:db8::1"]}]"#,
            &["a"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","ips":["10.0.0.300"]}]"#,
            &["a"],
            &["requested IP \"10.0.0.300\" of network \"a\" is not an IP address or CIDR"],
            &[],
        ),
        (
            r#"[{"name":"a","ips":[]}]"#,
            &["a"],
            &[],
            &["\"ips\" of network \"a\" is an empty list"],
        ),
        (
            r#"[{"name":"a","ips":[1]}]"#,
            &["a"],
            &["must contain only strings, found a number"],
            &[],
        ),
        (r#"[{"name":"a","ips":null}]"#, &["a"], &[], &[]),
        // mac and infiniband-guid
        (r#"[{"name":"a","mac":"02:00:00:00:00:01"}]"#, &["a"], &[], &[]),
        (r#"[{"name":"a","mac":"0200.0000.0001"}]"#, &["a"], &[], &[]),
        (
            r#"[{"name":"a","mac":"02:00:00:00:00"}]"#,
            &["a"],
            &["requested MAC \"02:00:00:00:00\" of network \"a\" is not a 6-byte MAC address"],
            &[],
        ),
        (
            r#"[{"name":"a","mac":"02:00:00:00:00:01:02:03"}]"#,
            &["a"],
            &["not a 6-byte MAC"],
            &[],
        ),
        (r#"[{"name":"a","mac":""}]"#, &["a"], &[], &[]),
        (
            r#"[{"name":"a","infiniband-guid":"00:11:22:33:44:55:66:77"}]"#,
            &["a"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","infiniband-guid":"zz"}]"#,
            &["a"],
            &["requested InfiniBand GUID \"zz\""],
            &[],
        ),
    ];

    const JSON_INTERFACE_CASES: &[Case] = &[
        // interface
        (r#"[{"name":"a","interface":"net1"}]"#, &["a"], &[], &[]),
        (
            r#"[{"name":"a","interface":"averyveryverylongname"}]"#,
            &["a"],
            &["is 21 bytes long"],
            &[],
        ),
        (
            r#"[{"name":"a","interface":"net/1"}]"#,
            &["a"],
            &["contains \"/\""],
            &[],
        ),
        (r#"[{"name":"a","interface":""}]"#, &["a"], &[], &[]),
        (
            r#"[{"name":"a","interface":"eth0"}]"#,
            &["a"],
            &[],
            &["cluster-network interface"],
        ),
        (
            r#"[{"name":"a","interfaceRequest":"net1"},{"name":"b","interface":"net1"}]"#,
            &["a", "b"],
            &["interface \"net1\" is requested by network elements 1"],
            &["\"interfaceRequest\" of network \"a\" is deprecated"],
        ),
    ];

    const JSON_PORT_CASES: &[Case] = &[
        // portMappings
        (
            r#"[{"name":"a","portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp","hostIP":"10.0.0.1"}]}]"#,
            &["a"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":53,"containerPort":53,"protocol":"UDP"}]}]"#,
            &["a"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":0,"containerPort":80}]}]"#,
            &["a"],
            &["hostPort 0 of portMappings entry 1 of network \"a\" is outside 1-65535"],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":70000,"containerPort":80}]}]"#,
            &["a"],
            &["hostPort 70000"],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":8080}]}]"#,
            &["a"],
            &["portMappings entry 1 of network \"a\" has no containerPort"],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":"80","containerPort":80}]}]"#,
            &["a"],
            &["must be an integer, not a string"],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":80.0,"containerPort":80}]}]"#,
            &["a"],
            &["must be an integer, not 80.0"],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":1e2,"containerPort":80}]}]"#,
            &["a"],
            &["not 1e2"],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":80,"containerPort":80,"protocol":"icmp"}]}]"#,
            &["a"],
            &["protocol \"icmp\""],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[{"hostPort":80,"containerPort":80,"hostIP":"x"}]}]"#,
            &["a"],
            &["hostIP \"x\""],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":{"hostPort":80}}]"#,
            &["a"],
            &["\"portMappings\" of network \"a\" must be a list, not an object"],
            &[],
        ),
        (
            r#"[{"name":"a","portMappings":[5]}]"#,
            &["a"],
            &["must be an object, not a number"],
            &[],
        ),
        // bandwidth
        (
            r#"[{"name":"a","bandwidth":{"ingressRate":1000,"ingressBurst":100,"egressRate":1000,"egressBurst":100}}]"#,
            &["a"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","bandwidth":{"ingressBurst":100}}]"#,
            &["a"],
            &["ingressBurst of bandwidth of network \"a\" is set without ingressRate"],
            &[],
        ),
        (
            r#"[{"name":"a","bandwidth":{"egressRate":100}}]"#,
            &["a"],
            &["egressRate of bandwidth of network \"a\" is set without egressBurst"],
            &[],
        ),
        (
            r#"[{"name":"a","bandwidth":{"ingressRate":-1,"ingressBurst":1}}]"#,
            &["a"],
            &["must not be negative"],
            &[],
        ),
        (
            r#"[{"name":"a","bandwidth":[]}]"#,
            &["a"],
            &["\"bandwidth\" of network \"a\" must be an object, not a list"],
            &[],
        ),
    ];

    const JSON_MISC_CASES: &[Case] = &[
        // cni-args
        (
            r#"[{"name":"a","cni-args":{"foo":"bar","nested":{"x":[1,2]}}}]"#,
            &["a"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","cni-args":"foo=bar"}]"#,
            &["a"],
            &["\"cni-args\" of network \"a\" must be an object, not a string"],
            &[],
        ),
        // default-route
        (
            r#"[{"name":"a","default-route":["10.0.0.254"]},{"name":"b"}]"#,
            &["a", "b"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","default-route":["10.0.0.254"]},{"name":"b","default-route":["10.1.0.254"]}]"#,
            &["a", "b"],
            &["default-route is set on more than one network element: 1 (\"a\"), 2 (\"b\")"],
            &[],
        ),
        (
            r#"[{"name":"a","default-route":["10.0.0.0/24"]}]"#,
            &["a"],
            &["default-route \"10.0.0.0/24\" of network \"a\" is not an IP address"],
            &[],
        ),
        (
            r#"[{"name":"a","default-route":"10.0.0.254"}]"#,
            &["a"],
            &["must be a list of strings"],
            &[],
        ),
        // ipam-claim-reference (MNS 1.3) and Multus' deviceID
        (
            r#"[{"name":"a","ipam-claim-reference":"claim-1","deviceID":"0000:03:00.1"}]"#,
            &["a"],
            &[],
            &[],
        ),
        (
            r#"[{"name":"a","ipam-claim-reference":1}]"#,
            &["a"],
            &["\"ipam-claim-reference\" of network \"a\" must be a string, not a number"],
            &[],
        ),
        // Reserved and vendor keys.
        (
            r#"[{"name":"a","foo":1}]"#,
            &["a"],
            &[],
            &["unknown key \"foo\" in network element 1; dot-less keys are reserved"],
        ),
        (
            r#"[{"name":"a","example.com/x":1,"acme.io.flag":true}]"#,
            &["a"],
            &[],
            &[],
        ),
        // Duplicate keys: the last value wins, as in Go.
        (
            r#"[{"name":"a","name":"b"}]"#,
            &["b"],
            &[],
            &["key \"name\" in network element 1 repeats \"name\"; the last value wins"],
        ),
        (
            r#"[{"name":"a","Name":"b"}]"#,
            &["b"],
            &[],
            &["only case-insensitively", "repeats \"name\""],
        ),
        // String escapes.
        (
            r#"[{"name":"\u0061\/"}]"#,
            &["a/"],
            &["is not a valid DNS-1123 label"],
            &[],
        ),
        (r#"[{"name":"a\x"}]"#, &[], &["not valid JSON"], &[]),
    ];

    #[test]
    fn json_shape_table() {
        run_table(JSON_SHAPE_CASES, Format::Json);
    }

    #[test]
    fn json_address_table() {
        run_table(JSON_ADDRESS_CASES, Format::Json);
    }

    #[test]
    fn json_interface_table() {
        run_table(JSON_INTERFACE_CASES, Format::Json);
    }

    #[test]
    fn json_port_mapping_and_bandwidth_table() {
        run_table(JSON_PORT_CASES, Format::Json);
    }

    #[test]
    fn json_other_keys_table() {
        run_table(JSON_MISC_CASES, Format::Json);
    }

    #[test]
    fn json_fields_and_ranges() {
        let value = r#" [ {"name":"a","namespace":"ns1","ips":["10.0.0.1/24"],"mac":"02:00:00:00:00:01","interface":"net1","default-route":["10.0.0.254"]}, {"name":"b","namespace":""} ] "#;
        let sel = parse_networks(value);
        assert!(sel.problems.is_empty(), "{sel:#?}");
        let [a, b] = sel.elements.as_slice() else {
            panic!("{sel:#?}")
        };
        assert_eq!(
            a,
            &NetworkElement {
                index: 0,
                name: "a".to_owned(),
                namespace: Some("ns1".to_owned()),
                interface: Some("net1".to_owned()),
                ips: vec!["10.0.0.1/24".to_owned()],
                mac: Some("02:00:00:00:00:01".to_owned()),
                default_route: true,
                raw_range: a.raw_range.clone(),
            }
        );
        let text = &value[a.raw_range.clone().unwrap()];
        assert!(text.starts_with("{\"name\":\"a\"") && text.ends_with("]}"), "{text}");
        assert_eq!(&value[b.raw_range.clone().unwrap()], r#"{"name":"b","namespace":""}"#);
        assert_eq!(b.effective_namespace("pod-ns"), "pod-ns");
        assert!(!b.default_route);
        assert!(!sel.has_errors());

        // The deprecated key supplies the interface only when "interface" is empty.
        let sel = parse_networks(r#"[{"name":"a","interface":"net5","interfaceRequest":"net9"}]"#);
        assert_eq!(sel.elements[0].interface.as_deref(), Some("net5"));
        let sel = parse_networks(r#"[{"name":"a","interfaceRequest":"net9"}]"#);
        assert_eq!(sel.elements[0].interface.as_deref(), Some("net9"));

        // Problems point at the element's position.
        let sel = parse_networks(r#"[{"name":"a"},{"name":"B"}]"#);
        assert_eq!(sel.problems[0].element, Some(1));
        assert!(sel.has_errors());
    }

    #[test]
    fn json_nesting_is_bounded() {
        let deep = format!(
            r#"[{{"name":"a","cni-args":{{"x":{}1{}}}}}]"#,
            "[".repeat(5000),
            "]".repeat(5000)
        );
        let sel = parse_networks(&deep);
        assert_eq!(messages(&sel, Severity::Error).len(), 1, "{:?}", sel.problems);
        assert!(sel.problems[0].message.contains("nesting deeper than"));
        let fine = format!(
            r#"[{{"name":"a","cni-args":{{"x":{}1{}}}}}]"#,
            "[".repeat(50),
            "]".repeat(50)
        );
        assert!(parse_networks(&fine).problems.is_empty());
    }

    #[test]
    fn json_reader_edge_cases() {
        for (text, ok) in [
            ("0", true),
            ("-0", true),
            ("-0.5e-3", true),
            ("1E+2", true),
            ("01", false),
            ("1.", false),
            (".5", false),
            ("-", false),
            ("1e", false),
            ("+1", false),
            ("tru", false),
            ("nul", false),
            ("\"\\ud83d\\ude00\"", true),
            ("\"\\ud800\"", true),
            ("\"\\ud800\\u0041\"", true),
            ("\"\\u12\"", false),
            ("\"a\tb\"", false),
            ("\"\u{e9}\"", true),
            ("[1,]", false),
            ("{\"a\":1,}", false),
            ("{\"a\" 1}", false),
            ("{1:1}", false),
            ("[] []", false),
            (" \r\n\t[] ", true),
            ("", false),
        ] {
            assert_eq!(json::parse(text).is_ok(), ok, "{text:?}");
        }
        let decoded = |text: &str| match json::parse(text).map(|n| n.value) {
            Ok(json::Value::String(s)) => s,
            other => panic!("{other:?}"),
        };
        assert_eq!(decoded("\"\\ud83d\\ude00\""), "\u{1f600}");
        // Go replaces a lone surrogate and keeps decoding.
        assert_eq!(decoded("\"\\ud800\\u0041\""), "\u{fffd}A");
        assert_eq!(decoded("\"\\udc00\""), "\u{fffd}");
        assert_eq!(decoded("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""), "\"\\/\u{8}\u{c}\n\r\t");
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(|n| serde_json::json!(n)),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(|f| serde_json::json!(f)),
            "[a-zA-Z0-9_./@: -]{0,12}".prop_map(serde_json::Value::String),
            prop_oneof![
                Just("name"),
                Just("Name"),
                Just("namespace"),
                Just("ips"),
                Just("mac"),
                Just("interface"),
                Just("portMappings"),
                Just("bandwidth"),
                Just("default-route"),
            ]
            .prop_map(|s| serde_json::Value::String(s.to_owned())),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            let key = prop_oneof![
                Just("name".to_owned()),
                Just("namespace".to_owned()),
                Just("ips".to_owned()),
                Just("mac".to_owned()),
                Just("interface".to_owned()),
                Just("interfaceRequest".to_owned()),
                Just("portMappings".to_owned()),
                Just("bandwidth".to_owned()),
                Just("cni-args".to_owned()),
                Just("default-route".to_owned()),
                Just("hostPort".to_owned()),
                Just("containerPort".to_owned()),
                Just("ingressRate".to_owned()),
                Just("ingressBurst".to_owned()),
                "[a-zA-Z.-]{0,8}",
            ];
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                prop::collection::vec((key, inner), 0..6)
                    .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    fn check_invariants(value: &str, sel: &NetworkSelection) {
        for e in &sel.elements {
            let range = e.raw_range.clone().expect("every element has a range");
            assert!(value.get(range).is_some(), "range off a char boundary in {value:?}");
            assert!(!e.name.is_empty());
        }
        assert!(sel.elements.windows(2).all(|w| w[0].index < w[1].index));
        for p in &sel.problems {
            assert!(!p.message.is_empty());
        }
    }

    proptest! {
        #[test]
        fn never_panics_on_any_string(value in any::<String>()) {
            let sel = parse_networks(&value);
            check_invariants(&value, &sel);
        }

        #[test]
        fn never_panics_on_jsonish_strings(value in r#"[\[\]{}",:a-zA-Z0-9@/. \\\-eE+]{0,64}"#) {
            let sel = parse_networks(&value);
            check_invariants(&value, &sel);
        }

        #[test]
        fn never_panics_on_structured_json(v in json_value()) {
            let text = v.to_string();
            let sel = parse_networks(&text);
            check_invariants(&text, &sel);
            // Valid JSON never gets a syntax error.
            prop_assert!(!sel.problems.iter().any(|p| p.message.contains("not valid JSON")), "{}", text);
        }

        #[test]
        fn json_reader_agrees_with_serde_json(text in r#"[\[\]{}",:a-z0-9 .\-eE+\\ntu]{0,40}"#) {
            // serde_json rejects lone surrogates where Go substitutes them; \u is not generated
            // with four hex digits often enough to matter, but skip it to be exact.
            prop_assume!(!text.contains("\\u"));
            prop_assert_eq!(json::parse(&text).is_ok(), serde_json::from_str::<serde_json::Value>(&text).is_ok(), "{}", text);
        }

        #[test]
        fn valid_csv_lists_parse_cleanly(
            items in prop::collection::vec(
                ("([a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?/)?", "[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?", " {0,2}", " {0,2}"),
                1..8,
            )
        ) {
            let value = items
                .iter()
                .map(|(ns, name, lead, trail)| format!("{lead}{ns}{name}{trail}"))
                .collect::<Vec<_>>()
                .join(",");
            let sel = parse_networks(&value);
            prop_assert!(sel.problems.is_empty(), "{:?}: {:?}", value, sel.problems);
            prop_assert_eq!(sel.elements.len(), items.len());
            for (e, (_, name, _, _)) in sel.elements.iter().zip(&items) {
                prop_assert_eq!(&e.name, name);
                let raw = &value[e.raw_range.clone().unwrap()];
                prop_assert_eq!(raw.trim(), raw);
            }
        }
    }
}
